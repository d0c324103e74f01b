// SPDX-License-Identifier: MIT
/*
 * The leak report at program exit, line by line as the verifier prints it: every reference
 * still held, in the order of the verifier's reference array (swap-remove up to 6.13, the held
 * lock's entry in 6.13, acquisition order from 6.14), the 6.14 line naming the exit once after
 * them, and alloc_insn= from the run's resolver.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <kfsim/printk.h>
#include "bpf_test_types.h"

#define EXIT_LINE "\nBPF_EXIT instruction in main prog would lead to reference leak"

static struct glob g;
static struct kfsim_bpf_run run;

static int setup(unsigned int minor)
{
	kfsim_console_loglevel_set(0);
	kfsim_set_kernel_version(KERNEL_VERSION(6, minor, 0));
	glob_init(&g, NULL);
	return 0;
}

static int setup_612(void **state)
{
	return setup(12);
}

static int setup_613(void **state)
{
	return setup(13);
}

static int setup_616(void **state)
{
	return setup(16);
}

static int teardown(void **state)
{
	assert_int_equal(kfsim_bpf_private_free(&g, kfsim_btf_of(glob)), 0);
	return 0;
}

/* End the run; its reports must be exactly @nr leak lines, with these ids in this order. */
static void end_expect_leaks(const unsigned int *ids, int nr)
{
	char want[160];

	assert_int_equal(kfsim_bpf_run_end(&run), -EINVAL);
	assert_int_equal(run.nr_violations, nr);
	for (int i = 0; i < nr; i++) {
		snprintf(want, sizeof(want), "Unreleased reference id=%u alloc_insn=", ids[i]);
		assert_memory_equal(run.violations[i].msg, want, strlen(want));
		/* 6.14's second line comes once, after the last reference */
		if (kfsim_kernel_at_least(6, 14) && i == nr - 1)
			assert_non_null(strstr(run.violations[i].msg, EXIT_LINE));
		else
			assert_null(strchr(run.violations[i].msg, '\n'));
	}
}

static struct node_data *new_node(long key)
{
	struct node_data *n = bpf_obj_new(node_data);

	assert_non_null(n);
	n->key = key;
	return n;
}

static void test_every_reference_one_line(void **state)
{
	/* bpf_obj_new takes two ids (maybe-NULL result, acquired reference): 2, 4, 6 */
	static const unsigned int ids[] = {2, 4, 6};

	assert_int_equal(kfsim_bpf_run_begin(&run, "leak3", NULL), 0);
	new_node(1);
	new_node(2);
	new_node(3);
	end_expect_leaks(ids, 3);
	assert_string_equal(run.violations[0].msg, "Unreleased reference id=2 alloc_insn=1");
}

/* [2, 4, 6], release 2: up to 6.13 the last entry takes the slot ([6, 4]); 6.14 keeps order. */
static void test_order_after_release(void **state)
{
	static const unsigned int swapped[] = {6, 4}, kept[] = {4, 6};
	struct node_data *a;

	assert_int_equal(kfsim_bpf_run_begin(&run, "drop_first", NULL), 0);
	a = new_node(1);
	new_node(2);
	new_node(3);
	bpf_obj_drop(a);
	end_expect_leaks(kfsim_kernel_at_least(6, 14) ? kept : swapped, 2);
}

/* Inserting releases the owning reference the same way (ref_convert_owning_non_owning). */
static void test_order_after_insert(void **state)
{
	static const unsigned int swapped[] = {6, 4}, kept[] = {4, 6};
	struct node_data *a;

	assert_int_equal(kfsim_bpf_run_begin(&run, "insert_first", NULL), 0);
	a = new_node(1);
	new_node(2);
	new_node(3);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &a->node, less);
	bpf_spin_unlock(&g.glock);
	end_expect_leaks(kfsim_kernel_at_least(6, 14) ? kept : swapped, 2);
}

/*
 * Two nodes removed under the lock (ids: 2 and 4 for the new nodes, 5 for bpf_rbtree_first,
 * 7 for the first remove, 8, 10): 6.13 has the lock's entry first ([L, 7, 10]) and its removal
 * at bpf_spin_unlock moves the last reference into its slot ([10, 7]); 6.12 keeps the lock
 * outside the array and 6.14 keeps the order: [7, 10].
 */
static void test_lock_entry_in_613(void **state)
{
	static const unsigned int in_613[] = {10, 7}, other[] = {7, 10};
	struct node_data *a, *b;

	assert_int_equal(kfsim_bpf_run_begin(&run, "remove_two", NULL), 0);
	a = new_node(1);
	b = new_node(2);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &a->node, less);
	bpf_rbtree_add(&g.groot, &b->node, less);
	assert_non_null(bpf_rbtree_remove(&g.groot, bpf_rbtree_first(&g.groot))); /* id 7 */
	assert_non_null(bpf_rbtree_remove(&g.groot, bpf_rbtree_first(&g.groot))); /* id 10 */
	bpf_spin_unlock(&g.glock);
	end_expect_leaks(kfsim_kernel_version() == KERNEL_VERSION(6, 13, 0) ? in_613 : other, 2);
}

/* What the resolver receives, and what it returns becomes alloc_insn=. */
struct resolved {
	int calls;
	const char *kfunc;
	const char *file;
	int line;
	const void *caller;
	int nth;
};

static int resolve(const char *kfunc, const char *file, int line, const void *caller, int nth,
		   void *arg)
{
	struct resolved *r = arg;

	r->calls++;
	r->nth = nth;
	r->kfunc = kfunc;
	r->file = file;
	r->line = line;
	r->caller = caller;
	return line == 0 ? -1 : 1000 + r->calls;
}

static void test_alloc_insn_resolver(void **state)
{
	struct resolved r = {0};
	struct kfsim_bpf_run_opts opts = {.alloc_insn = resolve, .alloc_insn_arg = &r};
	int line;

	assert_int_equal(kfsim_bpf_run_begin(&run, "resolved", &opts), 0);
	new_node(1);
	end_expect_leaks((const unsigned int[]){2}, 1);
	assert_int_equal(r.calls, 1);
	assert_string_equal(r.kfunc, "bpf_obj_new_impl");
	assert_non_null(strstr(r.file, "test_leak_report.c")); /* the call-site macro's */
	assert_non_null(r.caller);
	assert_int_equal(r.nth, 0); /* the site's first acquisition */
	assert_memory_equal(run.violations[0].msg, "Unreleased reference id=2 alloc_insn=1001", 40);

	/* no call-site macro (a BPF C file's own declaration): the caller address is all */
	memset(&r, 0, sizeof(r));
	assert_int_equal(kfsim_bpf_run_begin(&run, "direct", &opts), 0);
	line = __LINE__ + 1;
	assert_non_null((bpf_obj_new_impl)(kfsim_btf_of(node_data)->id, NULL));
	end_expect_leaks((const unsigned int[]){2}, 1);
	assert_null(r.file);
	assert_int_equal(r.line, 0);
	assert_non_null(r.caller);
	/* a negative answer keeps kfsim's number: the acquiring call's count in the run */
	assert_memory_equal(run.violations[0].msg, "Unreleased reference id=2 alloc_insn=1", 38);
	assert_true(line > 0);
}

/*
 * An unrolled loop's copies of one call (kfsim-bpf-cc): the resolver is told how many times the
 * leaked reference's call site acquired before it in the run, dropped acquisitions included,
 * and acquisitions at other sites not.
 */
static void test_alloc_insn_nth(void **state)
{
	struct resolved r = {0};
	struct kfsim_bpf_run_opts opts = {.alloc_insn = resolve, .alloc_insn_arg = &r};
	struct node_data *kept = NULL;

	assert_int_equal(kfsim_bpf_run_begin(&run, "unrolled", &opts), 0);
	bpf_obj_drop(bpf_obj_new(node_data)); /* another site: not counted */
	for (int i = 0; i < 3; i++) {
		struct node_data *n = new_node(i);

		if (i == 1)
			kept = n;
		else
			bpf_obj_drop(n);
	}
	assert_non_null(kept);
	end_expect_leaks((const unsigned int[]){6}, 1);
	assert_int_equal(r.calls, 1);
	assert_int_equal(r.nth, 1);
	assert_memory_equal(run.violations[0].msg, "Unreleased reference id=6 alloc_insn=1002", 40);
}

/*
 * The verifier's id counter at calls: bpf_rbtree_first and a map lookup take one, NULL results
 * too; bpf_refcount_acquire of an owning reference cannot fail (one id, 6.6+), of a non-owning
 * one it can (two).
 */
static void test_ids_count_verifier_events(void **state)
{
	static struct gshared gs;
	struct shared_node *n;

	memset(&gs, 0, sizeof(gs));
	assert_int_equal(kfsim_bpf_private_init(&gs, kfsim_btf_of(gshared)), 0);
	assert_int_equal(kfsim_bpf_run_begin(&run, "ids", NULL), 0);
	bpf_spin_lock(&gs.lock);
	assert_null(bpf_rbtree_first(&gs.root)); /* 1: maybe-NULL, even when NULL */
	bpf_spin_unlock(&gs.lock);
	n = bpf_obj_new(shared_node); /* 2, 3 */
	assert_non_null(n);
	bpf_spin_lock(&gs.lock);
	bpf_rbtree_add(&gs.root, &n->rb, less_shared);
	assert_non_null(bpf_refcount_acquire(n)); /* of a non-owning ref: 4, 5 */
	bpf_spin_unlock(&gs.lock);
	kfsim_bpf_verifier_ids(1);    /* a runtime's map lookup: 6 */
	n = bpf_obj_new(shared_node); /* 7, 8 */
	assert_non_null(n);
	assert_non_null(bpf_refcount_acquire(n)); /* of an owning ref: 9 */
	end_expect_leaks((const unsigned int[]){5, 8, 9}, 3);
	assert_int_equal(kfsim_bpf_private_free(&gs, kfsim_btf_of(gshared)), 0);
}

/* less()'s arguments are non-owning to the verifier: a refcount_acquire there may fail (2 ids). */
static bool less_acquires(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	assert_non_null(bpf_refcount_acquire(container_of(a, struct shared_node, rb)));
	return less_shared(a, b);
}

static void test_ids_in_less(void **state)
{
	static struct gshared gs;
	struct shared_node *a, *b;

	memset(&gs, 0, sizeof(gs));
	assert_int_equal(kfsim_bpf_private_init(&gs, kfsim_btf_of(gshared)), 0);
	assert_int_equal(kfsim_bpf_run_begin(&run, "ids_in_less", NULL), 0);
	a = bpf_obj_new(shared_node); /* 1, 2 */
	b = bpf_obj_new(shared_node); /* 3, 4 */
	assert_non_null(a);
	assert_non_null(b);
	bpf_spin_lock(&gs.lock);
	bpf_rbtree_add(&gs.root, &a->rb, less_acquires); /* empty tree: no less() call */
	bpf_rbtree_add(&gs.root, &b->rb, less_acquires); /* one call: 5, 6, though b is owned */
	bpf_spin_unlock(&gs.lock);
	end_expect_leaks((const unsigned int[]){6}, 1);
	assert_int_equal(kfsim_bpf_private_free(&gs, kfsim_btf_of(gshared)), 0);
}

/*
 * The verifier checks a callback at its BPF_EXIT for the references acquired in it: three
 * inserts with that less() are rejected at its first return, with only the reference that
 * call acquired (the later calls' and the main program's exit add no line).
 */
static void test_leak_in_less_at_its_return(void **state)
{
	static struct gshared gs;
	struct shared_node *a, *b, *c;
	char want[160];

	memset(&gs, 0, sizeof(gs));
	assert_int_equal(kfsim_bpf_private_init(&gs, kfsim_btf_of(gshared)), 0);
	assert_int_equal(kfsim_bpf_run_begin(&run, "leak_in_less3", NULL), 0);
	a = bpf_obj_new(shared_node); /* 1, 2 */
	b = bpf_obj_new(shared_node); /* 3, 4 */
	c = bpf_obj_new(shared_node); /* 5, 6 */
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	a->key = 1;
	b->key = 2;
	c->key = 3;
	bpf_spin_lock(&gs.lock);
	assert_int_equal(bpf_rbtree_add(&gs.root, &a->rb, less_acquires), 0); /* no less() */
	assert_int_equal(run.nr_violations, 0);
	assert_int_equal(bpf_rbtree_add(&gs.root, &b->rb, less_acquires), 0); /* 7, 8: kept */
	/* reported when that less() returned, before the program goes on */
	assert_int_equal(run.nr_violations, 1);
	assert_int_equal(bpf_rbtree_add(&gs.root, &c->rb, less_acquires), 0); /* 9.. : no line */
	bpf_spin_unlock(&gs.lock);
	end_expect_leaks((const unsigned int[]){8}, 1);
	snprintf(want, sizeof(want), "Unreleased reference id=8 alloc_insn=%u%s", 7u,
		 kfsim_kernel_at_least(6, 14) ? EXIT_LINE : "");
	assert_string_equal(run.violations[0].msg, want); /* the run's 7th kfunc call */
	assert_string_equal(run.violations[0].kfunc, "bpf_refcount_acquire_impl");
	assert_int_equal(kfsim_bpf_private_free(&gs, kfsim_btf_of(gshared)), 0);
}

/* A less() leak, then the main program's own: the exit lists the main program's only. */
static void test_leak_in_less_and_main(void **state)
{
	static struct gshared gs;
	struct shared_node *a, *b, *d;

	memset(&gs, 0, sizeof(gs));
	assert_int_equal(kfsim_bpf_private_init(&gs, kfsim_btf_of(gshared)), 0);
	assert_int_equal(kfsim_bpf_run_begin(&run, "leak_in_less_and_main", NULL), 0);
	a = bpf_obj_new(shared_node); /* 1, 2 */
	b = bpf_obj_new(shared_node); /* 3, 4 */
	assert_non_null(a);
	assert_non_null(b);
	bpf_spin_lock(&gs.lock);
	bpf_rbtree_add(&gs.root, &a->rb, less_acquires);
	bpf_rbtree_add(&gs.root, &b->rb, less_acquires); /* 5, 6: reported at less()'s return */
	bpf_spin_unlock(&gs.lock);
	d = bpf_obj_new(shared_node); /* 7, 8: leaked by the main program */
	assert_non_null(d);
	assert_int_equal(kfsim_bpf_run_end(&run), -EINVAL);
	assert_int_equal(run.nr_violations, 2);
	/* each exit checked has its 6.14 line */
	for (int i = 0; i < 2; i++) {
		assert_memory_equal(run.violations[i].msg, i ? "Unreleased reference id=8 "
							     : "Unreleased reference id=6 ",
				    26);
		assert_true(!strstr(run.violations[i].msg, EXIT_LINE) ==
			    !kfsim_kernel_at_least(6, 14));
	}
	assert_int_equal(kfsim_bpf_private_free(&gs, kfsim_btf_of(gshared)), 0);
}

/* Abort mode: the run leaves at less()'s return; the node being inserted is given back. */
static struct gshared ags;
static void *astash;

static int abort_in_less_prog(void *ctx)
{
	struct shared_node *first = bpf_obj_new(shared_node), *n = bpf_obj_new(shared_node);
	struct shared_node *old;

	if (!first || !n)
		return 1;
	old = bpf_kptr_xchg(&astash, bpf_refcount_acquire(n)); /* keeps n alive */
	if (old)
		bpf_obj_drop(old);
	bpf_spin_lock(&ags.lock);
	bpf_rbtree_add(&ags.root, &first->rb, less_shared);
	bpf_rbtree_add(&ags.root, &n->rb, less_acquires); /* leaks in less(): aborts */
	bpf_spin_unlock(&ags.lock);
	return 2;
}

static int readd_prog(void *ctx)
{
	struct shared_node *n = bpf_kptr_xchg(&astash, NULL);
	struct bpf_rb_node *f, *removed = NULL;
	int err = 3;

	if (!n)
		return 1;
	bpf_spin_lock(&ags.lock);
	f = bpf_rbtree_first(&ags.root);
	if (f)
		removed = bpf_rbtree_remove(&ags.root, f);
	/* the first node was alone in the tree: n was never linked, nor left claimed */
	if (removed && !bpf_rbtree_first(&ags.root))
		err = bpf_rbtree_add(&ags.root, &n->rb, less_shared);
	else
		bpf_obj_drop(n);
	bpf_spin_unlock(&ags.lock);
	if (removed)
		bpf_obj_drop(container_of(removed, struct shared_node, rb));
	return removed ? err : 2;
}

static void test_leak_in_less_aborts(void **state)
{
	struct kfsim_bpf_run_opts opts = {.on_violation = KFSIM_BPF_ABORT};
	int ret = -1;

	memset(&ags, 0, sizeof(ags));
	assert_int_equal(kfsim_bpf_private_init(&ags, kfsim_btf_of(gshared)), 0);
	assert_int_equal(kfsim_bpf_run(&run, "abort_in_less", abort_in_less_prog, NULL, &opts,
				       &ret),
			 -EINVAL);
	assert_true(run.aborted);
	assert_int_equal(ret, -1);
	assert_int_equal(run.nr_violations, 1);
	assert_memory_equal(run.violations[0].msg, "Unreleased reference id=", 24);
	assert_int_equal(kfsim_bpf_run(&run, "readd", readd_prog, NULL, NULL, &ret), 0);
	assert_int_equal(ret, 0);
	assert_int_equal(run.nr_violations, 0);
	assert_int_equal(kfsim_bpf_private_free(&ags, kfsim_btf_of(gshared)), 0);
}

#define MODES(fn)                                                                                  \
	cmocka_unit_test_setup_teardown(fn, setup_612, teardown),                                  \
		cmocka_unit_test_setup_teardown(fn, setup_613, teardown),                          \
		cmocka_unit_test_setup_teardown(fn, setup_616, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		MODES(test_every_reference_one_line),
		MODES(test_order_after_release),
		MODES(test_order_after_insert),
		MODES(test_lock_entry_in_613),
		MODES(test_alloc_insn_resolver),
		MODES(test_alloc_insn_nth),
		MODES(test_ids_count_verifier_events),
		MODES(test_ids_in_less),
		MODES(test_leak_in_less_at_its_return),
		MODES(test_leak_in_less_and_main),
		MODES(test_leak_in_less_aborts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
