// SPDX-License-Identifier: MIT
/*
 * bench_rbtree: kfsim's red-black tree against the trees a C programmer would pick instead,
 * measured in the same run on the same keys.  Modelled on the kernel's lib/rbtree_test.c
 * (CONFIG_RBTREE_TEST): node count, perf loops, check loops and seed are options, the node is
 * the kernel test's struct test_node, and the check phase verifies the tree after every insert
 * and erase as that module does.
 *
 * Peers:
 *   tree.h   FreeBSD's sys/tree.h RB_* macros (Debian libbsd-dev, <bsd/sys/tree.h>): intrusive,
 *            parent pointers, colour in a separate int;
 *   tsearch  glibc's tsearch/tdelete/tfind/twalk_r: a red-black tree that malloc()s one node per
 *            element and calls the comparator through a pointer.
 * The benchmark is built from the rbtree sources directly (not libkfsim), so every peer uses
 * glibc malloc, as a program that uses tsearch normally does.
 *
 * Keys are distinct u32 (a bijective scramble of 0..n-1) in random order, so tree.h's and
 * tsearch's refusal of duplicates never drops a key.  Each figure is the best of --reps runs
 * (default 3): the machine is shared, and the minimum is the least disturbed measurement.
 *
 * --callgrind reruns this program under valgrind --tool=callgrind once per peer and operation,
 * collecting only inside the function that does the work, and prints instructions per node:
 * deterministic where wall time is noisy.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#include <kfsim/random.h>
#include <kfsim/rbtree.h>
#include <kfsim/rbtree_augmented.h>
#include <kfsim/rbtree_debug.h>
#include "bench_callgrind.h"
#include "peers.h"

#define DEFAULT_SEED 3141592653589793238ULL /* lib/rbtree_test.c's seed */
/* one copy of each timed function (gcc may clone it per call site); clang never clones */
#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

/* ---- kfsim: struct test_node as in lib/rbtree_test.c ---- */

struct test_node {
	u32 key;
	struct rb_node rb;
	u32 val; /* augmented tests: the value whose subtree maximum is kept */
	u32 augmented;
};

#define NODE_VAL(node) ((node)->val)
RB_DECLARE_CALLBACKS_MAX(static, augment_callbacks, struct test_node, rb, u32, augmented, NODE_VAL)

static inline u32 kf_key(const struct rb_node *rb)
{
	return rb_entry(rb, struct test_node, rb)->key;
}

/* The test module's insert(): an open-coded descent, then rb_insert_color(). */
static inline void kf_insert(struct test_node *node, struct rb_root *root)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;
	u32 key = node->key;

	while (*link) {
		parent = *link;
		if (key < kf_key(parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&node->rb, parent, link);
	rb_insert_color(&node->rb, root);
}

static inline bool kf_less(struct rb_node *a, const struct rb_node *b)
{
	return kf_key(a) < kf_key(b);
}

static inline int kf_cmp(const void *key, const struct rb_node *rb)
{
	u32 k = *(const u32 *)key;

	return k < kf_key(rb) ? -1 : k > kf_key(rb);
}

static inline void kf_insert_augmented(struct test_node *node, struct rb_root *root)
{
	struct rb_node **link = &root->rb_node, *rb_parent = NULL;
	u32 key = node->key, val = node->val;

	while (*link) {
		struct test_node *parent = rb_entry(*link, struct test_node, rb);

		rb_parent = *link;
		if (parent->augmented < val)
			parent->augmented = val;
		link = key < parent->key ? &parent->rb.rb_left : &parent->rb.rb_right;
	}
	node->augmented = val;
	rb_link_node(&node->rb, rb_parent, link);
	rb_insert_augmented(&node->rb, root, &augment_callbacks);
}

NOINLINE static void kf_insert_erase(struct test_node *nodes, size_t n)
{
	struct rb_root root = RB_ROOT;

	for (size_t i = 0; i < n; i++)
		kf_insert(&nodes[i], &root);
	for (size_t i = 0; i < n; i++)
		rb_erase(&nodes[i].rb, &root);
}

NOINLINE static void kf_cached_insert_erase(struct test_node *nodes, size_t n)
{
	struct rb_root_cached root = RB_ROOT_CACHED;

	for (size_t i = 0; i < n; i++)
		rb_add_cached(&nodes[i].rb, &root, kf_less);
	for (size_t i = 0; i < n; i++)
		rb_erase_cached(&nodes[i].rb, &root);
}

NOINLINE static void kf_augmented_insert_erase(struct test_node *nodes, size_t n)
{
	struct rb_root root = RB_ROOT;

	for (size_t i = 0; i < n; i++)
		kf_insert_augmented(&nodes[i], &root);
	for (size_t i = 0; i < n; i++)
		rb_erase_augmented(&nodes[i].rb, &root, &augment_callbacks);
}

NOINLINE static size_t kf_lookup(const struct rb_root *root, const u32 *keys, size_t n)
{
	size_t found = 0;

	for (size_t i = 0; i < n; i++)
		found += rb_find(&keys[i], root, kf_cmp) != NULL;
	return found;
}

NOINLINE static size_t kf_walk(const struct rb_root *root)
{
	size_t count = 0;

	for (struct rb_node *rb = rb_first(root); rb; rb = rb_next(rb))
		count++;
	return count;
}

/* ---- the harness ---- */

struct bench {
	size_t n;
	u32 *keys;	  /* insertion order */
	u32 *lookup_keys; /* another order for lookups */
	struct test_node *kf;
	struct treeh_set *bsd;
	unsigned int loops, reps;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void shuffle(u32 *keys, size_t n, struct rnd_state *rnd)
{
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = kfsim_prandom_u64(rnd) % (i + 1);
		u32 tmp = keys[i];

		keys[i] = keys[j];
		keys[j] = tmp;
	}
}

static int bench_init(struct bench *b, size_t n, u64 seed)
{
	struct rnd_state rnd;
	u32 scramble;

	b->n = n;
	b->keys = malloc(n * sizeof(*b->keys));
	b->lookup_keys = malloc(n * sizeof(*b->lookup_keys));
	b->kf = calloc(n, sizeof(*b->kf));
	if (!b->keys || !b->lookup_keys || !b->kf)
		return -ENOMEM;
	prandom_seed_state(&rnd, seed);
	scramble = prandom_u32_state(&rnd);
	for (size_t i = 0; i < n; i++) /* odd multiplier and xor: a bijection on u32 */
		b->keys[i] = ((u32)i * 2654435761u) ^ scramble;
	shuffle(b->keys, n, &rnd);
	memcpy(b->lookup_keys, b->keys, n * sizeof(*b->keys));
	shuffle(b->lookup_keys, n, &rnd);
	for (size_t i = 0; i < n; i++) {
		b->kf[i].key = b->keys[i];
		b->kf[i].val = prandom_u32_state(&rnd);
	}
	b->bsd = treeh_create(b->keys, n);
	return b->bsd ? 0 : -ENOMEM;
}

static void bench_free(struct bench *b)
{
	free(b->keys);
	free(b->lookup_keys);
	free(b->kf);
	treeh_destroy(b->bsd);
}

enum peer { KFSIM, KFSIM_CACHED, KFSIM_AUGMENTED, TREE_H, TSEARCH };
enum op { INSERT_ERASE, LOOKUP, WALK };

static volatile size_t sink; /* keeps results alive */

/* Run @op of @peer once over all n nodes (@loops times); trees for lookup/walk are prebuilt. */
static void run_once(struct bench *b, enum peer peer, enum op op, void *tree)
{
	for (unsigned int l = 0; l < b->loops; l++) {
		switch (peer * 3 + op) {
		case KFSIM * 3 + INSERT_ERASE:
			kf_insert_erase(b->kf, b->n);
			break;
		case KFSIM_CACHED * 3 + INSERT_ERASE:
			kf_cached_insert_erase(b->kf, b->n);
			break;
		case KFSIM_AUGMENTED * 3 + INSERT_ERASE:
			kf_augmented_insert_erase(b->kf, b->n);
			break;
		case TREE_H * 3 + INSERT_ERASE:
			treeh_insert_erase(b->bsd);
			break;
		case TSEARCH * 3 + INSERT_ERASE:
			ts_insert_erase(b->keys, b->n);
			break;
		case KFSIM * 3 + LOOKUP:
			sink += kf_lookup(tree, b->lookup_keys, b->n);
			break;
		case TREE_H * 3 + LOOKUP:
			sink += treeh_lookup(b->bsd, b->lookup_keys, b->n);
			break;
		case TSEARCH * 3 + LOOKUP:
			sink += ts_lookup(tree, b->lookup_keys, b->n);
			break;
		case KFSIM * 3 + WALK:
			sink += kf_walk(tree);
			break;
		case TREE_H * 3 + WALK:
			sink += treeh_walk(b->bsd);
			break;
		case TSEARCH * 3 + WALK:
			sink += ts_walk(*(void **)tree);
			break;
		}
	}
}

/*
 * measure() - best-of-reps nanoseconds per node for @nr peers doing @op
 *
 * The peers take turns within each repetition (A B C, A B C, ...) rather than one after the
 * other, so that a burst of load from other processes hits them alike instead of one of them.
 */
static void measure(struct bench *b, const enum peer *peers, int nr, enum op op, void *const *trees,
		    double *best)
{
	for (int p = 0; p < nr; p++)
		best[p] = 1e300;
	for (unsigned int r = 0; r < b->reps; r++) {
		for (int p = 0; p < nr; p++) {
			double t0 = now_ns(), per_node;

			run_once(b, peers[p], op, trees ? trees[p] : NULL);
			per_node = (now_ns() - t0) / ((double)b->loops * b->n);
			if (per_node < best[p])
				best[p] = per_node;
		}
	}
}

struct built_trees {
	struct rb_root kf;
	void *ts;
};

static int build_trees(struct bench *b, struct built_trees *t)
{
	t->kf = RB_ROOT;
	t->ts = NULL;
	for (size_t i = 0; i < b->n; i++)
		kf_insert(&b->kf[i], &t->kf);
	treeh_build(b->bsd);
	return ts_build(&t->ts, b->keys, b->n);
}

static void destroy_trees(struct bench *b, struct built_trees *t)
{
	ts_destroy(&t->ts, b->keys, b->n);
}

static void print_row(size_t n, const char *op, double kf, double bsd, double ts)
{
	printf("%8zu  %-13s %9.1f %9.1f %10.1f %9.2f %9.2f\n", n, op, kf, bsd, ts, kf / bsd,
	       kf / ts);
}

static int bench_size(size_t n, unsigned int loops, unsigned int reps, u64 seed)
{
	static const enum peer update_peers[] = {KFSIM, TREE_H, TSEARCH, KFSIM_CACHED,
						 KFSIM_AUGMENTED};
	static const enum peer read_peers[] = {KFSIM, TREE_H, TSEARCH};
	struct bench b = {.reps = reps};
	double upd[5], lookup[3], walk[3];
	struct built_trees t;
	int err;

	err = bench_init(&b, n, seed);
	if (err)
		goto out;
	/*
	 * Default: about half a million node operations per measurement; at a million nodes one
	 * pass and one repetition, which keeps the whole default run under a minute.
	 */
	b.loops = loops ? loops : (unsigned int)(n >= 500000 ? 1 : 500000 / n);
	if (!loops && n >= 1000000)
		b.reps = 1;

	measure(&b, update_peers, 5, INSERT_ERASE, NULL, upd);
	print_row(n, "insert+erase", upd[0], upd[1], upd[2]);

	err = build_trees(&b, &t);
	if (err)
		goto out;
	void *const trees[] = {&t.kf, NULL, &t.ts};

	measure(&b, read_peers, 3, LOOKUP, trees, lookup);
	measure(&b, read_peers, 3, WALK, trees, walk);
	print_row(n, "lookup", lookup[0], lookup[1], lookup[2]);
	print_row(n, "in-order walk", walk[0], walk[1], walk[2]);
	printf("%8zu  %-13s %9.1f  (rb_add_cached/rb_erase_cached; %.2fx plain)\n", n, "  cached",
	       upd[3], upd[3] / upd[0]);
	printf("%8zu  %-13s %9.1f  (RB_DECLARE_CALLBACKS_MAX; %.2fx plain)\n", n, "  augmented",
	       upd[4], upd[4] / upd[0]);
	destroy_trees(&b, &t);
out:
	bench_free(&b);
	return err;
}

/*
 * The check phase of lib/rbtree_test.c: @loops times, insert the @n nodes one by one and
 * erase them one by one, checking the whole tree (and, for the augmented tree, every summary)
 * after each step.
 */
static int kf_node_cmp(const struct rb_node *a, const struct rb_node *b)
{
	return kf_key(a) < kf_key(b) ? -1 : kf_key(a) > kf_key(b);
}

static bool kf_augmented_ok(const struct rb_node *rb)
{
	const struct test_node *node = rb_entry(rb, struct test_node, rb);
	u32 max = node->val;

	if (rb->rb_left && rb_entry(rb->rb_left, struct test_node, rb)->augmented > max)
		max = rb_entry(rb->rb_left, struct test_node, rb)->augmented;
	if (rb->rb_right && rb_entry(rb->rb_right, struct test_node, rb)->augmented > max)
		max = rb_entry(rb->rb_right, struct test_node, rb)->augmented;
	return node->augmented == max;
}

static int check_phase(size_t n, unsigned int loops, u64 seed)
{
	const struct kfsim_rb_check_ops ops = {.cmp = kf_node_cmp};
	const struct kfsim_rb_check_ops aug_ops = {.cmp = kf_node_cmp,
						   .augmented_ok = kf_augmented_ok};
	struct kfsim_rb_check_result res;
	struct bench b = {0};
	unsigned long checks = 0;
	int err = bench_init(&b, n, seed);

	for (unsigned int l = 0; !err && l < loops; l++) {
		struct rb_root root = RB_ROOT, aroot = RB_ROOT;

		for (size_t i = 0; !err && i < n; i++) {
			kf_insert(&b.kf[i], &root);
			err = kfsim_rb_check(&root, &ops, &res);
			checks++;
		}
		for (size_t i = 0; !err && i < n; i++) {
			rb_erase(&b.kf[i].rb, &root);
			err = kfsim_rb_check(&root, &ops, &res);
			checks++;
		}
		for (size_t i = 0; !err && i < n; i++) {
			kf_insert_augmented(&b.kf[i], &aroot);
			err = kfsim_rb_check(&aroot, &aug_ops, &res);
			checks++;
		}
		for (size_t i = 0; !err && i < n; i++) {
			rb_erase_augmented(&b.kf[i].rb, &aroot, &augment_callbacks);
			err = kfsim_rb_check(&aroot, &aug_ops, &res);
			checks++;
		}
	}
	if (err)
		fprintf(stderr, "bench_rbtree: check failed: %s\n", res.message);
	else
		printf("check: %u loops of %zu nodes (plain and augmented), %lu full-tree checks: "
		       "ok\n",
		       loops, n, checks);
	bench_free(&b);
	return err;
}

/* ---- callgrind mode ---- */

struct cg_case {
	const char *name, *function, *op;
	enum peer peer;
	enum op bench_op;
};

static const struct cg_case cg_cases[] = {
	{"kfsim", "kf_insert_erase", "insert+erase", KFSIM, INSERT_ERASE},
	{"tree.h", "treeh_insert_erase", "insert+erase", TREE_H, INSERT_ERASE},
	{"tsearch", "ts_insert_erase", "insert+erase", TSEARCH, INSERT_ERASE},
	{"kfsim", "kf_lookup", "lookup", KFSIM, LOOKUP},
	{"tree.h", "treeh_lookup", "lookup", TREE_H, LOOKUP},
	{"tsearch", "ts_lookup", "lookup", TSEARCH, LOOKUP},
	{"kfsim", "kf_walk", "in-order walk", KFSIM, WALK},
	{"tree.h", "treeh_walk", "in-order walk", TREE_H, WALK},
	{"tsearch", "ts_walk", "in-order walk", TSEARCH, WALK},
};

#define CG_NODES 1000
#define CG_LOOPS 10

/* Inside valgrind: run one case of the fixed configuration. */
static int callgrind_child(unsigned int idx, u64 seed)
{
	struct bench b = {.loops = CG_LOOPS, .reps = 1};
	struct built_trees t;
	void *tree = NULL;
	int err;

	if (idx >= sizeof(cg_cases) / sizeof(cg_cases[0]))
		return -EINVAL;
	err = bench_init(&b, CG_NODES, seed);
	if (!err && cg_cases[idx].bench_op != INSERT_ERASE) {
		err = build_trees(&b, &t);
		tree = cg_cases[idx].peer == KFSIM    ? (void *)&t.kf
		       : cg_cases[idx].peer == TREE_H ? NULL
						      : (void *)&t.ts;
	}
	if (!err)
		run_once(&b, cg_cases[idx].peer, cg_cases[idx].bench_op, tree);
	bench_free(&b);
	return err;
}

static long long callgrind_count(unsigned int idx, u64 seed)
{
	char idxarg[16], seedarg[32];
	const char *args[] = {"--callgrind-child", idxarg, "--seed", seedarg, NULL};

	snprintf(idxarg, sizeof(idxarg), "%u", idx);
	snprintf(seedarg, sizeof(seedarg), "%llu", (unsigned long long)seed);
	return bench_callgrind_self(cg_cases[idx].function, args);
}

static int callgrind_mode(u64 seed)
{
	long long ir[sizeof(cg_cases) / sizeof(cg_cases[0])];
	double per_node = (double)CG_NODES * CG_LOOPS;

	printf("callgrind: instructions per node, n=%d, %d loops, seed %llu "
	       "(only inside the function doing the work)\n",
	       CG_NODES, CG_LOOPS, (unsigned long long)seed);
	for (unsigned int i = 0; i < sizeof(cg_cases) / sizeof(cg_cases[0]); i++) {
		ir[i] = callgrind_count(i, seed);
		if (ir[i] <= 0) {
			fprintf(stderr,
				"bench_rbtree: valgrind --tool=callgrind failed for %s "
				"(is valgrind installed?)\n",
				cg_cases[i].function);
			return 1;
		}
	}
	printf("%-13s %10s %10s %10s %12s %13s\n", "op", "kfsim", "tree.h", "tsearch",
	       "kfsim/tree.h", "kfsim/tsearch");
	for (unsigned int i = 0; i < sizeof(cg_cases) / sizeof(cg_cases[0]); i += 3)
		printf("%-13s %10.1f %10.1f %10.1f %12.2f %13.2f\n", cg_cases[i].op,
		       ir[i] / per_node, ir[i + 1] / per_node, ir[i + 2] / per_node,
		       (double)ir[i] / ir[i + 1], (double)ir[i] / ir[i + 2]);
	return 0;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bench_rbtree [-n NODES] [-p PERF_LOOPS] [-c CHECK_LOOPS] [-r SEED] [--reps "
		"R]\n"
		"                    [--callgrind]\n\n"
		"  -n, --nnodes N       one tree size (default: 100, 1000, 10000, 100000, "
		"1000000)\n"
		"  -p, --perf-loops L   passes per measurement (default: ~500k node operations)\n"
		"  -c, --check-loops C  verification passes, checking after every step (default "
		"10)\n"
		"  -r, --seed S         random seed (default 3141592653589793238, the kernel "
		"test's)\n"
		"      --reps R         report the best of R measurements (default 5; 1 at n >= "
		"1M)\n"
		"      --callgrind      count instructions under valgrind for n=%d, %d loops\n",
		CG_NODES, CG_LOOPS);
}

static bool parse_num(const char *text, unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(text, &end, 0);
	return *text && *text != '-' && !*end && !errno && *out <= max;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{"nnodes", required_argument, NULL, 'n'},
		{"perf-loops", required_argument, NULL, 'p'},
		{"check-loops", required_argument, NULL, 'c'},
		{"seed", required_argument, NULL, 'r'},
		{"reps", required_argument, NULL, 'R'},
		{"callgrind", no_argument, NULL, 'C'},
		{"callgrind-child", required_argument, NULL, 'K'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	static const size_t sizes[] = {100, 1000, 10000, 100000, 1000000};
	unsigned long long nnodes = 0, loops = 0, check_loops = 10, seed = DEFAULT_SEED, reps = 5;
	unsigned long long child = 0;
	bool callgrind = false, is_child = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "n:p:c:r:h", options, NULL)) != -1) {
		bool ok = true;

		switch (opt) {
		case 'n':
			ok = parse_num(optarg, 100000000, &nnodes) && nnodes > 0;
			break;
		case 'p':
			ok = parse_num(optarg, 1000000000, &loops) && loops > 0;
			break;
		case 'c':
			ok = parse_num(optarg, 1000000000, &check_loops);
			break;
		case 'r':
			ok = parse_num(optarg, ~0ULL, &seed);
			break;
		case 'R':
			ok = parse_num(optarg, 1000, &reps) && reps > 0;
			break;
		case 'C':
			callgrind = true;
			break;
		case 'K':
			ok = parse_num(optarg, 100, &child);
			is_child = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		if (!ok) {
			fprintf(stderr, "bench_rbtree: invalid value '%s' for option '%s'\n",
				optarg, argv[optind - 1]);
			return 2;
		}
	}
	if (is_child)
		return callgrind_child((unsigned int)child, seed) ? 1 : 0;
	if (callgrind)
		return callgrind_mode(seed);
	if (RUNNING_ON_VALGRIND)
		fprintf(stderr, "bench_rbtree: running under valgrind: timings are meaningless\n");

	printf("kfsim rbtree benchmark: ns per node (insert+erase = one insert and one erase), "
	       "best of %llu, seed %llu\n",
	       reps, seed);
	printf("%8s  %-13s %9s %9s %10s %9s %9s\n", "n", "op", "kfsim", "tree.h", "tsearch",
	       "/tree.h", "/tsearch");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = nnodes ? nnodes : sizes[i];

		if (bench_size(n, (unsigned int)loops, (unsigned int)reps, seed)) {
			fprintf(stderr, "bench_rbtree: out of memory for %zu nodes\n", n);
			return 1;
		}
		if (nnodes)
			break;
	}
	return check_phase(nnodes && nnodes < 1000 ? nnodes : 100, (unsigned int)check_loops, seed)
		       ? 1
		       : 0;
}
