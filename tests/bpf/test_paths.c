// SPDX-License-Identifier: MIT
/*
 * The checked kfuncs have a fast path (a run without a timeline, a cached root or lock, the
 * newest reference the argument) and a full path (every check in its order: outside a run,
 * with a timeline, or when the cache misses).  Both must keep the same books: one call counted
 * per call, the verifier's ids advanced once per call, every owning reference joining and
 * leaving the verifier's array once, and the program's call site as the acquiring call.  Each
 * program shape below runs twice in every release mode, once on the fast path and once forced
 * onto the full path by a timeline; the reports (the leak report above all) must be the same
 * line for line, and so must what the alloc_insn resolver was given.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <kfsim/printk.h>
#include "bpf_test_types.h"

#define MAX_SEEN 16

static struct glob g;
static struct gshared gs;
static void *stash;

/* What the resolver was given for each leak line, in order. */
struct seen {
	int nr;
	struct {
		const char *kfunc;
		const char *file;
		int line;
		const void *caller;
		int nth;
	} at[MAX_SEEN];
};

static int record(const char *kfunc, const char *file, int line, const void *caller, int nth,
		  void *arg)
{
	struct seen *s = arg;

	if (s->nr < MAX_SEEN) {
		s->at[s->nr].kfunc = kfunc;
		s->at[s->nr].file = file;
		s->at[s->nr].line = line;
		s->at[s->nr].caller = caller;
		s->at[s->nr].nth = nth;
	}
	s->nr++;
	return -1; /* keep kfsim's number: the acquiring call's count in the run */
}

struct outcome {
	int rc;
	u32 nr_calls;
	struct kfsim_bpf_run run;
	struct seen seen;
};

/* Fresh sections, as a new map value is: both runs of a shape start from the same state. */
static void sections_init(void)
{
	glob_init(&g, NULL);
	memset(&gs, 0, sizeof(gs));
	/* struct bpf_refcount arrived in 6.4: 6.3 rejects the section's BTF */
	if (kfsim_kernel_at_least(6, 4))
		assert_int_equal(kfsim_bpf_private_init(&gs, kfsim_btf_of(gshared)), 0);
	stash = NULL;
}

static void sections_free(void)
{
	void *left = stash;

	stash = NULL;
	if (left) /* what a map's free does with a stashed kptr */
		kfsim_nc_bpf_obj_drop_impl(left, NULL);
	assert_int_equal(kfsim_bpf_private_free(&g, kfsim_btf_of(glob)), 0);
	if (kfsim_kernel_at_least(6, 4))
		assert_int_equal(kfsim_bpf_private_free(&gs, kfsim_btf_of(gshared)), 0);
}

static void run_shape(void (*shape)(void), bool timeline, struct outcome *o)
{
	static struct kfsim_bpf_timeline tl;
	struct kfsim_bpf_run_opts opts = {
		.alloc_insn = record,
		.alloc_insn_arg = &o->seen,
		.timeline = timeline ? &tl : NULL,
	};

	memset(o, 0, sizeof(*o));
	sections_init();
	assert_int_equal(kfsim_bpf_run_begin(&o->run, "paths", &opts), 0);
	shape();
	o->rc = kfsim_bpf_run_end(&o->run);
	o->nr_calls = o->run.nr_calls;
	sections_free();
	if (timeline)
		assert_true(tl.nr > 0); /* the full path ran: it records */
}

/* The fast and the full path's runs of @shape report the same, line for line. */
static void same_books(void (*shape)(void), int want_leaks)
{
	struct outcome *fast = calloc(1, sizeof(*fast)), *full = calloc(1, sizeof(*full));
	int leaks = 0;

	assert_non_null(fast);
	assert_non_null(full);
	run_shape(shape, false, fast);
	run_shape(shape, true, full);
	assert_int_equal(fast->rc, full->rc);
	assert_int_equal(fast->nr_calls, full->nr_calls);
	assert_int_equal(fast->run.nr_violations, full->run.nr_violations);
	for (int i = 0; i < fast->run.nr_violations && i < KFSIM_BPF_RUN_MAX_REPORTS; i++) {
		const struct kfsim_bpf_violation *a = &fast->run.violations[i];
		const struct kfsim_bpf_violation *b = &full->run.violations[i];

		print_message("  %s | %s\n", a->msg, a->kfunc);
		assert_string_equal(a->msg, b->msg);
		assert_string_equal(a->kfunc, b->kfunc);
		assert_int_equal(a->err, b->err);
		assert_int_equal(a->line, b->line);
		leaks += !strncmp(a->msg, "Unreleased reference", 20);
	}
	if (want_leaks >= 0)
		assert_int_equal(leaks, want_leaks);
	assert_int_equal(fast->seen.nr, leaks);
	assert_int_equal(full->seen.nr, leaks);
	for (int i = 0; i < fast->seen.nr && i < MAX_SEEN; i++) {
		assert_string_equal(fast->seen.at[i].kfunc, full->seen.at[i].kfunc);
		assert_int_equal(fast->seen.at[i].line, full->seen.at[i].line);
		/* the program's return address in the acquiring kfunc: the same call site */
		assert_non_null(fast->seen.at[i].caller);
		assert_ptr_equal(fast->seen.at[i].caller, full->seen.at[i].caller);
		assert_int_equal(fast->seen.at[i].nth, full->seen.at[i].nth);
	}
	free(fast);
	free(full);
}

static struct node_data *new_node(long key)
{
	struct node_data *n = bpf_obj_new(node_data);

	assert_non_null(n);
	n->key = key;
	return n;
}

/* ---- Program shapes ---- */

/* Three objects, the first dropped: the array's order after a release. */
static void shape_new_drop(void)
{
	struct node_data *a = new_node(1);

	new_node(2);
	new_node(3);
	bpf_obj_drop(a);
}

/* Inserts turn owning references non-owning; removes under the lock make owning ones. */
static void shape_tree(void)
{
	struct node_data *a = new_node(1), *b = new_node(2), *c = new_node(3);

	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &a->node, less);
	bpf_rbtree_add(&g.groot, &b->node, less);
	bpf_rbtree_add(&g.groot, &c->node, less);
	assert_non_null(bpf_rbtree_remove(&g.groot, bpf_rbtree_first(&g.groot)));
	assert_non_null(bpf_rbtree_remove(&g.groot, bpf_rbtree_first(&g.groot)));
	bpf_spin_unlock(&g.glock);
	/* a second critical section: the lock, root and references warm */
	bpf_spin_lock(&g.glock);
	assert_non_null(bpf_rbtree_first(&g.groot));
	bpf_spin_unlock(&g.glock);
}

/* The same with the lock warm: every lock and unlock of the shape takes its fast path. */
static void shape_tree_warm(void)
{
	bpf_spin_lock(&g.glock);
	bpf_spin_unlock(&g.glock);
	shape_tree();
}

/* Pushes and pops, and a pop of an empty list (no reference, nothing to note). */
static void shape_list(void)
{
	struct list_item *a = bpf_obj_new(list_item), *b = bpf_obj_new(list_item);

	assert_non_null(a);
	assert_non_null(b);
	bpf_spin_lock(&g.glock);
	bpf_list_push_back(&g.ghead, &a->link);
	bpf_list_push_front(&g.ghead, &b->link);
	assert_non_null(bpf_list_pop_front(&g.ghead));
	assert_non_null(bpf_list_pop_back(&g.ghead));
	assert_null(bpf_list_pop_back(&g.ghead));
	bpf_spin_unlock(&g.glock);
	new_node(7);
}

/* Stashing releases the reference; unstashing acquires one at the xchg call. */
static void shape_kptr(void)
{
	struct node_data *a = new_node(1);

	new_node(2);
	assert_null(bpf_kptr_xchg(&stash, a));
	new_node(3);
	assert_non_null(bpf_kptr_xchg(&stash, NULL));
}

/* Refcounted nodes: an acquire of a non-owning and of an owning reference (6.6+). */
static void shape_refcount(void)
{
	struct shared_node *n = bpf_obj_new(shared_node), *m;

	assert_non_null(n);
	bpf_spin_lock(&gs.lock);
	bpf_rbtree_add(&gs.root, &n->rb, less_shared);
	bpf_refcount_acquire(n);
	bpf_spin_unlock(&gs.lock);
	m = bpf_obj_new(shared_node);
	assert_non_null(m);
	bpf_refcount_acquire(m);
}

/* A remove refused (an owning node: not in any tree before 6.16), then an acquisition. */
static void shape_refused_remove(void)
{
	struct node_data *a = new_node(1);

	bpf_spin_lock(&g.glock);
	bpf_rbtree_remove(&g.groot, &a->node);
	bpf_spin_unlock(&g.glock);
	new_node(2);
}

/* The program exits holding the lock, with references: the exit's order of checks. */
static void shape_exit_locked(void)
{
	struct node_data *a = new_node(1), *b = new_node(2);

	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &a->node, less);
	bpf_rbtree_add(&g.groot, &b->node, less);
	assert_non_null(bpf_rbtree_remove(&g.groot, bpf_rbtree_first(&g.groot)));
}

static void test_new_drop(void **state)
{
	same_books(shape_new_drop, 2);
}

static void test_tree(void **state)
{
	same_books(shape_tree, 2);
}

static void test_tree_warm(void **state)
{
	same_books(shape_tree_warm, 2);
}

static void test_list(void **state)
{
	same_books(shape_list, 3);
}

static void test_kptr(void **state)
{
	same_books(shape_kptr, 3);
}

static void test_refcount(void **state)
{
	/* 6.3 has no struct bpf_refcount; 6.4/6.5 refuse bpf_refcount_acquire */
	if (!kfsim_kernel_at_least(6, 4))
		skip();
	same_books(shape_refcount, kfsim_kernel_at_least(6, 6) ? 3 : -1);
}

static void test_refused_remove(void **state)
{
	same_books(shape_refused_remove, -1);
}

static void test_exit_locked(void **state)
{
	same_books(shape_exit_locked, 1);
}

/*
 * A reference held from outside a run (kfuncs may be called without one) keeps the id it got
 * then; the run's ids start again at 0.  The run's leak line for an equal id must name the
 * run's own acquisition (its call number, its call site), not the older reference's.
 */
static void test_outside_reference_does_not_shadow(void **state)
{
	struct kfsim_bpf_run run;
	struct seen seen = {0};
	struct kfsim_bpf_run_opts opts = {.alloc_insn = record, .alloc_insn_arg = &seen};
	struct node_data *outside;
	int line;

	sections_init();
	/* a run of five calls leaves the counters at 5 calls, 10 ids */
	assert_int_equal(kfsim_bpf_run_begin(&run, "before", NULL), 0);
	for (int i = 0; i < 5; i++)
		bpf_obj_drop(new_node(i));
	assert_int_equal(kfsim_bpf_run_end(&run), 0);
	/* outside a run the counters go on: call 11, id 12 */
	outside = new_node(100);
	assert_non_null(outside);

	assert_int_equal(kfsim_bpf_run_begin(&run, "shadow", &opts), 0);
	for (int i = 0; i < 8; i++) {
		line = __LINE__ + 1;
		assert_non_null(bpf_obj_new(node_data));
	}
	assert_int_equal(kfsim_bpf_run_end(&run), -EINVAL);
	/* each leak line names a call of this run: alloc_insn= 1..8, the line above */
	assert_true(run.nr_violations >= 8);
	for (int i = 0; i < 8; i++) {
		char want[80];

		snprintf(want, sizeof(want), "Unreleased reference id=%d alloc_insn=%d", 2 * (i + 1),
			 i + 1);
		assert_memory_equal(run.violations[i].msg, want, strlen(want));
		assert_int_equal(run.violations[i].line, line);
		assert_int_equal(seen.at[i].line, line);
	}
	sections_free();
}

/*
 * The same older reference released inside the run must not take the run's equal id out of
 * the verifier's array: the run's reference is still held and its leak line must come.
 */
static void test_outside_reference_release_keeps_run_ids(void **state)
{
	struct kfsim_bpf_run run;
	struct node_data *outside;

	sections_init();
	assert_int_equal(kfsim_bpf_run_begin(&run, "before", NULL), 0);
	for (int i = 0; i < 5; i++)
		bpf_obj_drop(new_node(i));
	assert_int_equal(kfsim_bpf_run_end(&run), 0);
	outside = new_node(100); /* outside a run: id 12 */

	assert_int_equal(kfsim_bpf_run_begin(&run, "release_outside", NULL), 0);
	for (int i = 0; i < 6; i++)
		new_node(i); /* ids 2 .. 12 */
	bpf_obj_drop(outside);
	assert_int_equal(kfsim_bpf_run_end(&run), -EINVAL);
	assert_int_equal(run.nr_violations, 6);
	for (int i = 0; i < 6; i++) {
		char want[80];

		snprintf(want, sizeof(want), "Unreleased reference id=%d alloc_insn=%d", 2 * (i + 1),
			 i + 1);
		assert_memory_equal(run.violations[i].msg, want, strlen(want));
	}
	sections_free();
}

static int setup(unsigned int minor)
{
	kfsim_console_loglevel_set(0);
	kfsim_set_kernel_version(KERNEL_VERSION(6, minor, 0));
	return 0;
}

#define SETUP(minor)                                                                               \
	static int setup_6##minor(void **state)                                                    \
	{                                                                                          \
		return setup(minor);                                                               \
	}
SETUP(3)
SETUP(4)
SETUP(5)
SETUP(6)
SETUP(12)
SETUP(13)
SETUP(14)
SETUP(16)

/* 6.3; 6.4/6.5; 6.6-6.12; 6.13; 6.14+ */
#define MODES(fn)                                                                                  \
	cmocka_unit_test_setup(fn, setup_63), cmocka_unit_test_setup(fn, setup_64),                \
		cmocka_unit_test_setup(fn, setup_65), cmocka_unit_test_setup(fn, setup_66),        \
		cmocka_unit_test_setup(fn, setup_612), cmocka_unit_test_setup(fn, setup_613),      \
		cmocka_unit_test_setup(fn, setup_614), cmocka_unit_test_setup(fn, setup_616)

int main(void)
{
	const struct CMUnitTest tests[] = {
		MODES(test_new_drop),	     MODES(test_tree),		MODES(test_tree_warm),		MODES(test_list),
		MODES(test_kptr),	     MODES(test_refcount),	MODES(test_refused_remove),
		MODES(test_exit_locked),     MODES(test_outside_reference_does_not_shadow),
		MODES(test_outside_reference_release_keeps_run_ids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
