// SPDX-License-Identifier: MIT
/*
 * bench_bpf [--nodes N] [--iters N] [--reps N]: the cost of one bpf_rbtree cycle (lock, first,
 * remove, unlock, re-key, lock, add, unlock) with the run-time checks on, with them compiled
 * out, and the same work on the raw kernel rbtree (rb_first_cached, rb_erase_cached,
 * rb_add_cached), without and with a spin lock, all in the same run on the same keys.
 * Prints ns per cycle (best of --reps) and the ratios against raw.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <kfsim/cmdline.h>
#include <kfsim/printk.h>
#include <kfsim/random.h>
#include <kfsim/rbtree.h>
#include "bench_half.h"

struct raw_node {
	u64 key;
	struct rb_node rb;
};

static bool raw_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct raw_node, rb)->key < rb_entry(b, const struct raw_node, rb)->key;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* The timed loop (callgrind: --toggle-collect=raw_loop). */
static __attribute__((noinline)) void raw_loop(struct rb_root_cached *root, u64 iters,
					       const u64 *deltas, bool locked)
{
	unsigned int lock = 0;

	for (u64 i = 0; i < iters; i++) {
		struct rb_node *first;
		struct raw_node *n;

		if (locked)
			while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
				;
		first = rb_first_cached(root);
		rb_erase_cached(first, root);
		if (locked) {
			__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
			while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
				;
		}
		n = rb_entry(first, struct raw_node, rb);
		n->key += deltas[i % BENCH_DELTAS];
		rb_add_cached(&n->rb, root, raw_less);
		if (locked)
			__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
	}
}

static double bench_raw(u32 nr, u64 iters, const u64 *keys, const u64 *deltas, bool locked)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct raw_node *nodes = calloc(nr, sizeof(*nodes));
	double ns;
	u64 t0;

	if (!nodes)
		return -1;
	for (u32 i = 0; i < nr; i++) {
		nodes[i].key = keys[i];
		rb_add_cached(&nodes[i].rb, &root, raw_less);
	}
	t0 = now_ns();
	raw_loop(&root, iters, deltas, locked);
	ns = (double)(now_ns() - t0) / (double)iters;
	free(nodes);
	return ns;
}

static double best(double a, double b)
{
	return a < 0 ? b : (b < 0 ? a : (a < b ? a : b));
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{"nodes", required_argument, NULL, 'n'},
		{"iters", required_argument, NULL, 'i'},
		{"reps", required_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	/*
	 * Short timed windows (10 000 cycles: about 0.5 ms raw, 1 ms checked), many of them: on a
	 * shared machine a window longer than a scheduler slice is almost always preempted, which
	 * the longest variant suffers most from, so best-of-N of long windows measures the load.
	 */
	u64 nodes = 1000, iters = 10000, reps = 60;
	double raw = -1, raw_locked = -1, checked = -1, unchecked = -1;
	u64 *keys, deltas[BENCH_DELTAS];
	struct rnd_state rnd;
	int opt;

	while ((opt = getopt_long(argc, argv, "n:i:r:h", options, NULL)) != -1) {
		u64 v;

		if (opt == 'h' || opt == '?') {
			fprintf(opt == 'h' ? stdout : stderr,
				"usage: bench_bpf [--nodes N] [--iters N] [--reps N]\n");
			return opt == 'h' ? 0 : 2;
		}
		v = strtoull(optarg, NULL, 0);

		if (!v) {
			fprintf(stderr, "bench_bpf: --%s needs a positive integer\n",
				opt == 'n'   ? "nodes"
				: opt == 'i' ? "iters"
					     : "reps");
			return 2;
		}
		*(opt == 'n' ? &nodes : opt == 'i' ? &iters : &reps) = v;
	}
	kfsim_console_loglevel_set(0);
	kfsim_cmdline_parse("cgroup.memory=nobpf");
	keys = calloc(nodes, sizeof(*keys));
	if (!keys)
		return 1;
	prandom_seed_state(&rnd, 3141592653589793238ull);
	for (u64 i = 0; i < nodes; i++)
		keys[i] = prandom_u32_state(&rnd);
	for (int i = 0; i < BENCH_DELTAS; i++)
		deltas[i] = prandom_u32_state(&rnd) % (1u << 20);
	for (u64 r = 0; r < reps; r++) {
		raw = best(raw, bench_raw((u32)nodes, iters, keys, deltas, false));
		raw_locked = best(raw_locked, bench_raw((u32)nodes, iters, keys, deltas, true));
		unchecked = best(unchecked, bench_unchecked((u32)nodes, iters, keys, deltas));
		checked = best(checked, bench_checked((u32)nodes, iters, keys, deltas));
	}
	free(keys);
	if (raw <= 0 || raw_locked <= 0 || checked <= 0 || unchecked <= 0) {
		fprintf(stderr, "bench_bpf: a variant failed\n");
		return 1;
	}
	printf("bpf_rbtree cycle (lock, first, remove, unlock, re-key, lock, add, unlock), "
	       "%llu nodes, %llu cycles, best of %llu\n",
	       (unsigned long long)nodes, (unsigned long long)iters, (unsigned long long)reps);
	printf("  %-44s %8.1f ns/op  1.00x\n", "raw rb_first/rb_erase/rb_add_cached", raw);
	printf("  %-44s %8.1f ns/op  %.2fx\n", "raw + spin lock (same lock traffic)", raw_locked,
	       raw_locked / raw);
	printf("  %-44s %8.1f ns/op  %.2fx raw, %.2fx raw+lock (goal <= 1.1x)\n",
	       "kfsim bpf_rbtree, checks compiled out", unchecked, unchecked / raw,
	       unchecked / raw_locked);
	printf("  %-44s %8.1f ns/op  %.2fx raw, %.2fx raw+lock (goal <= 2x)\n",
	       "kfsim bpf_rbtree, checks on", checked, checked / raw, checked / raw_locked);
	return 0;
}
