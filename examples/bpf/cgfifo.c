// SPDX-License-Identifier: MIT
/*
 * A weighted-vtime run queue, the sched_ext use the bpf_rbtree was added for (scx_simple's
 * weighted mode, cgroup FIFO schedulers): runnable tasks sit in a bpf_rbtree ordered by virtual
 * time; each dispatch takes the task with the smallest vtime, runs it for a slice, and charges
 * it slice * 100 / weight, so over time each task gets CPU in proportion to its weight.
 * A task that was idle may not bank credit: its vtime is raised to vtime_now - slice first.
 */
#include <kfsim/bpf_experimental.h>
#include <kfsim/err.h>
#include "bpf_examples.h"

#define SLICE_NS 20000000ull /* SCX_SLICE_DFL: 20 ms */
#define NR_TASKS 4

struct task_ctx {
	u64 vtime;
	u64 runtime;
	u32 weight;
	u32 pid;
	struct bpf_rb_node node;
};
KFSIM_BTF_STRUCT(task_ctx, BTF_FIELD(task_ctx, node));

/* private(DSQ): the queue, its lock, and the queue's notion of now. */
struct dsq {
	struct bpf_spin_lock lock;
	struct bpf_rb_root queue; /* __contains(task_ctx, node) */
	u64 vtime_now;
};
KFSIM_BTF_STRUCT(dsq, BTF_FIELD(dsq, lock), BTF_CONTAINS(dsq, queue, task_ctx, node));

static bool vtime_before(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct task_ctx, node)->vtime <
	       container_of(b, const struct task_ctx, node)->vtime;
}

struct cgfifo_state {
	struct dsq *dsq;
	u64 runtime[NR_TASKS];
	u32 weight[NR_TASKS];
	u32 last_pid;
};

/* enqueue: clamp the vtime of a task that slept, then queue it. */
static void enqueue(struct dsq *dsq, struct task_ctx *t)
{
	u64 floor = dsq->vtime_now > SLICE_NS ? dsq->vtime_now - SLICE_NS : 0;

	if (t->vtime < floor)
		t->vtime = floor;
	bpf_spin_lock(&dsq->lock);
	bpf_rbtree_add(&dsq->queue, &t->node, vtime_before);
	bpf_spin_unlock(&dsq->lock);
}

/* init: create the tasks (one program run). */
static int cgfifo_init(void *ctx)
{
	struct cgfifo_state *st = ctx;

	for (u32 pid = 0; pid < NR_TASKS; pid++) {
		struct task_ctx *t = bpf_obj_new(task_ctx);

		if (!t)
			return -ENOMEM;
		t->pid = pid;
		t->weight = st->weight[pid];
		enqueue(st->dsq, t);
	}
	return 0;
}

/* dispatch + run + stopping, as one program run: pick, charge, requeue. */
static int cgfifo_dispatch(void *ctx)
{
	struct cgfifo_state *st = ctx;
	struct dsq *dsq = st->dsq;
	struct bpf_rb_node *res;
	struct task_ctx *t;

	bpf_spin_lock(&dsq->lock);
	res = bpf_rbtree_first(&dsq->queue);
	if (res)
		res = bpf_rbtree_remove(&dsq->queue, res);
	bpf_spin_unlock(&dsq->lock);
	if (!res)
		return -ENOENT;
	t = container_of(res, struct task_ctx, node);
	if (t->vtime > dsq->vtime_now)
		dsq->vtime_now = t->vtime;
	t->runtime += SLICE_NS;
	t->vtime += SLICE_NS * 100 / t->weight;
	st->runtime[t->pid] = t->runtime;
	st->last_pid = t->pid;
	enqueue(dsq, t);
	return 0;
}

int kfsim_bpf_example_cgfifo(FILE *out, unsigned int rounds, struct kfsim_bpf_example_result *res)
{
	static const u32 weights[NR_TASKS] = {100, 200, 50, 150};
	struct cgfifo_state st = {0};
	struct kfsim_bpf_run run;
	struct dsq dsq = {0};
	int violations = 0, err, ret = 0;
	u64 total = 0;
	u32 weight_sum = 0;

	err = kfsim_bpf_private_init(&dsq, kfsim_btf_of(dsq));
	if (err)
		return err;
	st.dsq = &dsq;
	for (int i = 0; i < NR_TASKS; i++)
		weight_sum += st.weight[i] = weights[i];
	err = kfsim_bpf_run(&run, "cgfifo_init", cgfifo_init, &st, NULL, &ret);
	violations += run.nr_violations;
	for (unsigned int r = 0; !err && !ret && r < rounds; r++) {
		err = kfsim_bpf_run(&run, "cgfifo_dispatch", cgfifo_dispatch, &st, NULL, &ret);
		violations += run.nr_violations;
	}
	for (int i = 0; i < NR_TASKS; i++)
		total += st.runtime[i];
	if (out) {
		fprintf(out, "cgfifo: %u dispatches of %llu ms slices over %d tasks\n", rounds,
			SLICE_NS / 1000000, NR_TASKS);
		fprintf(out, "  pid  weight  runtime(ms)  share  expected\n");
		for (int i = 0; i < NR_TASKS; i++)
			fprintf(out, "  %3d  %6u  %11llu  %4.1f%%  %7.1f%%\n", i, st.weight[i],
				(unsigned long long)(st.runtime[i] / 1000000),
				total ? 100.0 * st.runtime[i] / total : 0.0,
				100.0 * st.weight[i] / weight_sum);
		fprintf(out, "  %d rule(s) broken\n", violations);
	}
	if (res) {
		*res = (struct kfsim_bpf_example_result){
			.name = "cgfifo",
			.violations = violations,
			.nr_values = NR_TASKS,
			.value_names = {"share_permille_pid0", "share_permille_pid1",
					"share_permille_pid2", "share_permille_pid3"}};
		for (int i = 0; i < NR_TASKS; i++)
			res->values[i] = total ? (long)(1000 * st.runtime[i] / total) : 0;
	}
	kfsim_bpf_private_free(&dsq, kfsim_btf_of(dsq));
	if (err)
		return err;
	return ret ? ret : (violations ? -EINVAL : 0);
}
