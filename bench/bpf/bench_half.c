// SPDX-License-Identifier: MIT
/*
 * One half of the benchmark: compiled once as is (bench_checked) and once with
 * -DKFSIM_BPF_NO_CHECKS (bench_unchecked), from the same program text.
 */
#include <time.h>

#ifdef KFSIM_BPF_NO_CHECKS
#define BENCH_NAME(x) nc_##x
#define BENCH_FN bench_unchecked
#else
#define BENCH_NAME(x) ck_##x
#define BENCH_FN bench_checked
#endif
#include "bench_prog.h"
#include "bench_half.h"

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

static int cycle(struct BENCH_NAME(section) * s, u64 delta)
{
	struct bpf_rb_node *res;
	struct BENCH_NAME(node) * n;

	bpf_spin_lock(&s->lock);
	res = bpf_rbtree_first(&s->root);
	if (res)
		res = bpf_rbtree_remove(&s->root, res);
	bpf_spin_unlock(&s->lock);
	if (!res)
		return -1;
	n = container_of(res, struct BENCH_NAME(node), node);
	n->key += delta;
	bpf_spin_lock(&s->lock);
	bpf_rbtree_add(&s->root, &n->node, BENCH_NAME(less));
	bpf_spin_unlock(&s->lock);
	return 0;
}

/* The timed loop, on its own so callgrind can count it (--toggle-collect=ck_loop / nc_loop). */
static __attribute__((noinline)) int BENCH_NAME(loop)(struct BENCH_NAME(section) * s, u64 iters,
						      const u64 *deltas)
{
	for (u64 i = 0; i < iters; i++)
		if (cycle(s, deltas[i % BENCH_DELTAS]))
			return -1;
	return 0;
}

double BENCH_FN(u32 nr, u64 iters, const u64 *keys, const u64 *deltas)
{
	static struct BENCH_NAME(section) s;
	struct kfsim_bpf_run run;
	double ns = -1;
	u64 t0;

	if (kfsim_bpf_private_init(&s, kfsim_btf_of(BENCH_NAME(section))))
		return -1;
	kfsim_bpf_run_begin(&run, "bench", NULL);
	for (u32 i = 0; i < nr; i++) {
		struct BENCH_NAME(node) *n = bpf_obj_new(BENCH_NAME(node));

		if (!n)
			goto out;
		n->key = keys[i];
		bpf_spin_lock(&s.lock);
		bpf_rbtree_add(&s.root, &n->node, BENCH_NAME(less));
		bpf_spin_unlock(&s.lock);
	}
	t0 = now_ns();
	if (BENCH_NAME(loop)(&s, iters, deltas))
		goto out;
	ns = (double)(now_ns() - t0) / (double)iters;
out:
	if (kfsim_bpf_run_end(&run))
		ns = -1;
	kfsim_bpf_private_free(&s, kfsim_btf_of(BENCH_NAME(section)));
	return ns;
}
