// SPDX-License-Identifier: MIT
/*
 * Every verifier rule of the BPF graph API, broken once (asserting the verifier's message text)
 * and followed once (asserting a clean run), in 6.3 and in 6.16 mode where the rule exists in both.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/printk.h>
#include "support/log_assert.h"
#include "bpf_test_types.h"

static struct glob g;
static struct glob2 g2;
static struct kfsim_bpf_run run;

static int setup_63(void **state)
{
	kfsim_console_loglevel_set(0);
	kfsim_set_kernel_version(KERNEL_VERSION(6, 3, 0));
	glob_init(&g, &g2);
	return 0;
}

static int setup_64(void **state)
{
	kfsim_console_loglevel_set(0);
	kfsim_set_kernel_version(KERNEL_VERSION(6, 4, 0));
	glob_init(&g, &g2);
	return 0;
}

static int setup_616(void **state)
{
	kfsim_console_loglevel_set(0);
	kfsim_set_kernel_version(KERNEL_VERSION(6, 16, 0));
	glob_init(&g, &g2);
	return 0;
}

static int teardown(void **state)
{
	assert_int_equal(kfsim_bpf_private_free(&g, kfsim_btf_of(glob)), 0);
	assert_int_equal(kfsim_bpf_private_free(&g2, kfsim_btf_of(glob2)), 0);
	return 0;
}

static void begin(void)
{
	assert_int_equal(kfsim_bpf_run_begin(&run, "rules", NULL), 0);
}

/* End the run and require a violation whose message contains @substr. */
static void end_expect(const char *substr)
{
	int err = kfsim_bpf_run_end(&run);
	int n = run.nr_violations < KFSIM_BPF_RUN_MAX_REPORTS ? run.nr_violations
							      : KFSIM_BPF_RUN_MAX_REPORTS;

	assert_int_not_equal(err, 0);
	for (int i = 0; i < n; i++)
		if (strstr(run.violations[i].msg, substr))
			return;
	for (int i = 0; i < n; i++)
		print_message("violation %d: %s\n", i, run.violations[i].msg);
	fail_msg("no violation contains \"%s\"", substr);
}

static void end_clean(void)
{
	int err = kfsim_bpf_run_end(&run);

	for (int i = 0; i < run.nr_violations && i < KFSIM_BPF_RUN_MAX_REPORTS; i++)
		print_message("unexpected: %s\n", run.violations[i].msg);
	assert_int_equal(err, 0);
	assert_int_equal(run.nr_violations, 0);
}

static struct node_data *new_node(long key)
{
	struct node_data *n = bpf_obj_new(node_data);

	assert_non_null(n);
	n->key = key;
	return n;
}

static char lock_msg[96];

static const char *root_lock_msg(const char *kind)
{
	snprintf(lock_msg, sizeof(lock_msg), "bpf_spin_lock at off=%zu must be held for %s",
		 offsetof(struct glob, glock), kind);
	return lock_msg;
}

/* ---- lock rules ---- */

static void test_root_lock_required(void **state)
{
	struct node_data *n;
	u64 mark = log_mark();

	begin();
	n = new_node(1);
	assert_null(bpf_rbtree_first(&g.groot));
	assert_int_equal(bpf_rbtree_add(&g.groot, &n->node, less), -EINVAL); /* refused */
	bpf_obj_drop(n);						     /* still ours */
	end_expect(root_lock_msg("bpf_rb_root"));
	assert_logged(mark, root_lock_msg("bpf_rb_root"), 2);
	assert_int_equal(run.nr_violations, 2);

	begin();
	assert_null(bpf_list_pop_front(&g.ghead));
	end_expect(root_lock_msg("bpf_list_head"));

	begin();
	n = new_node(1);
	bpf_spin_lock(&g.glock);
	assert_int_equal(bpf_rbtree_add(&g.groot, &n->node, less), 0);
	assert_ptr_equal(bpf_rbtree_first(&g.groot), &n->node);
	bpf_spin_unlock(&g.glock);
	end_clean();
}

static void test_lock_of_other_allocation(void **state)
{
	begin();
	bpf_spin_lock(&g2.lock2);
	assert_null(bpf_rbtree_first(&g.groot));
	bpf_spin_unlock(&g2.lock2);
	end_expect("held lock and object are not in the same allocation");

	begin();
	bpf_spin_lock(&g2.lock2);
	assert_null(bpf_rbtree_first(&g2.root2));
	bpf_spin_unlock(&g2.lock2);
	end_clean();
}

static void test_two_locks(void **state)
{
	begin();
	bpf_spin_lock(&g.glock);
	bpf_spin_lock(&g2.lock2); /* refused: g2's lock is not taken */
	assert_int_equal(g2.lock2.val, 0);
	bpf_spin_unlock(&g.glock);
	/* do_check() refuses the helper call itself before process_spin_lock() looks at it */
	end_expect("function calls are not allowed while holding a lock");

	begin();
	bpf_spin_lock(&g.glock);
	bpf_spin_unlock(&g.glock);
	bpf_spin_lock(&g2.lock2);
	bpf_spin_unlock(&g2.lock2);
	end_clean();
}

static void test_unlock_rules(void **state)
{
	begin();
	bpf_spin_unlock(&g.glock);
	end_expect("bpf_spin_unlock without taking a lock");

	begin();
	bpf_spin_lock(&g.glock);
	bpf_spin_unlock(&g2.lock2);
	assert_int_equal(g.glock.val, 1); /* the held lock stays held */
	bpf_spin_unlock(&g.glock);
	end_expect("bpf_spin_unlock of different lock");
}

static void test_unlock_missing(void **state)
{
	begin();
	bpf_spin_lock(&g.glock);
	/* 6.14's check_resource_leak() names the exit (the running 6.18 kernel's wording) */
	end_expect(kfsim_kernel_at_least(6, 14)
			   ? "BPF_EXIT instruction in main prog cannot be used "
			     "inside bpf_spin_lock-ed region"
			   : "bpf_spin_unlock is missing");
	assert_int_equal(g.glock.val, 0); /* released by the end of the run */
}

static void test_calls_under_lock(void **state)
{
	struct node_data *n;

	begin();
	bpf_spin_lock(&g.glock);
	assert_null(bpf_obj_new(node_data));
	bpf_spin_unlock(&g.glock);
	end_expect("function calls are not allowed while holding a lock");

	begin();
	n = new_node(1);
	bpf_spin_lock(&g.glock);
	bpf_obj_drop(n); /* refused: n stays owned */
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(n);
	end_expect("function calls are not allowed while holding a lock");
	assert_int_equal(run.nr_violations, 1);
}

/* ---- bpf_preempt_disable/enable (6.10) ---- */

/* Begin a run in release @major.@minor (a run reads the version once, at its start). */
static void begin_in(unsigned int major, unsigned int minor)
{
	kfsim_set_kernel_version(KERNEL_VERSION(major, minor, 0));
	begin();
}

static void test_preempt_rules(void **state)
{
	/* 6.10 to 6.13 count the missing enables (6.12's do_check()) */
	begin_in(6, 12);
	bpf_preempt_disable();
	end_expect("1 bpf_preempt_enable is missing");

	begin_in(6, 12);
	bpf_preempt_disable();
	bpf_preempt_disable();
	bpf_preempt_disable();
	bpf_preempt_enable();
	end_expect("2 bpf_preempt_enable(s) are missing");

	/* 6.14's check_resource_leak() names the exit: the running 6.18 kernel's text */
	begin_in(6, 14);
	bpf_preempt_disable();
	end_expect("BPF_EXIT instruction in main prog cannot be used inside "
		   "bpf_preempt_disable-ed region");
	assert_int_equal(run.nr_violations, 1);

	begin_in(6, 16);
	bpf_preempt_enable();
	end_expect("unmatched attempt to enable preemption (kernel function bpf_preempt_enable)");

	/* a kfunc, so not callable under a bpf_spin_lock; the count is unchanged */
	begin_in(6, 16);
	bpf_spin_lock(&g.glock);
	bpf_preempt_disable();
	bpf_spin_unlock(&g.glock);
	end_expect("function calls are not allowed while holding a lock");
	assert_int_equal(run.nr_violations, 1);

	/* balanced, with graph kfuncs in between: clean */
	begin_in(6, 16);
	bpf_preempt_disable();
	bpf_preempt_disable();
	bpf_obj_drop(new_node(1));
	bpf_preempt_enable();
	bpf_preempt_enable();
	end_clean();

	/* a global function under it: refused up to 6.14, allowed from 6.15 (none may sleep) */
	begin_in(6, 14);
	bpf_preempt_disable();
	assert_int_equal(kfsim_bpf_global_call_enter("global_fn"), -EINVAL);
	kfsim_bpf_global_call_exit("global_fn"); /* the function returns */
	bpf_preempt_enable();
	end_expect("global function calls are not allowed with preemption disabled,\n"
		   "use static function instead");
	begin_in(6, 15);
	bpf_preempt_disable();
	assert_int_equal(kfsim_bpf_global_call_enter("global_fn"), 0);
	kfsim_bpf_global_call_exit("global_fn"); /* the function returns */
	bpf_preempt_enable();
	end_clean();

	/* not a kfunc before 6.10 */
	begin_in(6, 9);
	bpf_preempt_disable();
	end_expect("extern (func ksym) 'bpf_preempt_disable': not found in kernel or module BTFs");
	assert_int_equal(run.nr_violations, 1);
}

/* ---- bpf_local_irq_save/restore (6.14) ---- */

static unsigned long irq_global_flag;

static void test_irq_rules(void **state)
{
	unsigned long a, b;

	/* not a kfunc before 6.14 */
	begin_in(6, 13);
	bpf_local_irq_save(&a);
	end_expect("extern (func ksym) 'bpf_local_irq_save': not found in kernel or module BTFs");
	assert_int_equal(run.nr_violations, 1);

	/* balanced in the reverse order: clean; the save left its cookie in the flag */
	begin_in(6, 14);
	bpf_local_irq_save(&a);
	bpf_local_irq_save(&b);
	assert_int_not_equal(a, b);
	bpf_local_irq_restore(&b);
	bpf_local_irq_restore(&a);
	end_clean();

	begin_in(6, 16);
	bpf_local_irq_save(&a);
	bpf_local_irq_save(&b);
	bpf_local_irq_restore(&a); /* refused: b stays the one to restore */
	bpf_local_irq_restore(&b);
	bpf_local_irq_restore(&a);
	end_expect("cannot restore irq state out of order, expected id=2 acquired at insn_idx=");
	assert_int_equal(run.nr_violations, 1);

	begin_in(6, 16);
	bpf_local_irq_save(&irq_global_flag);
	end_expect("arg#0 doesn't point to an irq flag on stack");
	assert_int_equal(run.nr_violations, 1);

	begin_in(6, 16);
	bpf_local_irq_save(&a);
	a = 0;
	bpf_local_irq_restore(&a);
	end_expect("expected an initialized irq flag as arg#0");

	begin_in(6, 16);
	bpf_local_irq_save(&a);
	end_expect("BPF_EXIT instruction in main prog cannot be used inside "
		   "bpf_local_irq_save-ed region");

	/* a global function with a flag saved: refused in 6.14, allowed from 6.15 */
	begin_in(6, 14);
	bpf_local_irq_save(&a);
	assert_int_equal(kfsim_bpf_global_call_enter("global_fn"), -EINVAL);
	kfsim_bpf_global_call_exit("global_fn"); /* the function returns */
	bpf_local_irq_restore(&a);
	end_expect("global function calls are not allowed with IRQs disabled,\n"
		   "use static function instead");
	begin_in(6, 15);
	bpf_local_irq_save(&a);
	assert_int_equal(kfsim_bpf_global_call_enter("global_fn"), 0);
	kfsim_bpf_global_call_exit("global_fn"); /* the function returns */
	bpf_local_irq_restore(&a);
	end_clean();
}

/* ---- owning vs non-owning ---- */

static void test_insert_needs_owning(void **state)
{
	struct node_data *n;

	begin();
	n = new_node(1);
	bpf_spin_lock(&g.glock);
	assert_int_equal(bpf_rbtree_add(&g.groot, &n->node, less), 0);
	/* n is non-owning now: inserting it again is refused before anything changes */
	assert_int_equal(bpf_rbtree_add(&g.groot, &n->node, less), -EINVAL);
	bpf_spin_unlock(&g.glock);
	end_expect("arg#1 expected pointer to allocated object");

	begin();
	bpf_spin_lock(&g.glock);
	assert_int_equal(bpf_list_push_back(&g.ghead, NULL), -EINVAL);
	bpf_spin_unlock(&g.glock);
	end_expect("arg#1 expected pointer to allocated object");
}

static void test_non_owning_dies_at_unlock(void **state)
{
	struct bpf_rb_node *first;
	struct node_data *n = NULL;

	begin();
	n = new_node(5);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	first = bpf_rbtree_first(&g.groot);
	bpf_spin_unlock(&g.glock);
	bpf_spin_lock(&g.glock);
	assert_null(bpf_rbtree_remove(&g.groot, first)); /* stale: refused */
	bpf_spin_unlock(&g.glock);
	end_expect(kfsim_kernel_at_least(6, 16)
			   ? "bpf_rbtree_remove can only take non-owning or refcounted bpf_rb_node "
			     "pointer"
			   : "rbtree_remove node input must be non-owning ref");
	/* the explanation names where the reference died */
	assert_non_null(strstr(run.violations[0].why, "at bpf_spin_unlock"));

	begin();
	bpf_spin_lock(&g.glock);
	first = bpf_rbtree_first(&g.groot);
	first = bpf_rbtree_remove(&g.groot, first);
	bpf_spin_unlock(&g.glock);
	assert_non_null(first);
	bpf_obj_drop(container_of(first, struct node_data, node));
	end_clean();
}

static void test_remove_needs_non_owning(void **state)
{
	struct node_data *n;

	begin();
	n = new_node(1);
	bpf_spin_lock(&g.glock);
	assert_null(bpf_rbtree_remove(&g.groot, &n->node));
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(n);
	/* 6.16 takes any owning reference: a node in no tree gives NULL */
	if (kfsim_kernel_at_least(6, 16))
		end_clean();
	else
		end_expect("rbtree_remove node input must be non-owning ref");
}

/* 6.3 kills every non-owning reference at remove; 6.4+ keeps them until unlock. */
static void test_remove_invalidates_in_63(void **state)
{
	struct node_data *a, *b;
	struct bpf_rb_node *ra, *rb;

	begin();
	a = new_node(1);
	b = new_node(2);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &a->node, less);
	bpf_rbtree_add(&g.groot, &b->node, less);
	ra = bpf_rbtree_remove(&g.groot, &a->node);
	rb = bpf_rbtree_remove(&g.groot, &b->node); /* b: non-owning from its add */
	bpf_spin_unlock(&g.glock);
	if (ra)
		bpf_obj_drop(container_of(ra, struct node_data, node));
	if (rb)
		bpf_obj_drop(container_of(rb, struct node_data, node));
	if (kfsim_kernel_at_least(6, 4)) {
		assert_non_null(rb);
		end_clean();
	} else {
		assert_null(rb);
		end_expect("rbtree_remove node input must be non-owning ref");
		/* b is still in the tree and will be drained by the teardown */
	}
}

static void test_remove_from_other_tree(void **state)
{
	struct node_data *n;
	struct bpf_rb_node *f;

	begin();
	n = new_node(3);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	f = bpf_rbtree_first(&g.groot);
	assert_null(bpf_rbtree_remove(&g.groot2, f));
	bpf_spin_unlock(&g.glock);
	/* 6.6+ returns NULL (owner check); 6.4/6.5 checked only RB_EMPTY_NODE and corrupted */
	if (kfsim_kernel_at_least(6, 6))
		end_clean();
	else
		end_expect("kfsim: bpf_rbtree_remove of a node that is not in this tree");
}

/* ---- node type and field ---- */

static void test_node_type_and_field(void **state)
{
	struct list_item *item;
	struct node_two *two;
	char msg[160];

	begin();
	item = bpf_obj_new(list_item);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, (struct bpf_rb_node *)&item->link, less);
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(item);
	snprintf(msg, sizeof(msg), "bpf_rb_node not found at offset=%zu",
		 offsetof(struct list_item, link));
	end_expect(msg);

	begin();
	two = bpf_obj_new(node_two);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &two->node, less);
	bpf_spin_unlock(&g.glock);
	snprintf(msg, sizeof(msg),
		 "operation on bpf_rb_root expects arg#1 bpf_rb_node at offset=%zu in struct "
		 "node_data, but arg is at offset=%zu in struct node_two",
		 offsetof(struct node_data, node), offsetof(struct node_two, node));
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.two_root, &two->node, less);
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(two);
	end_expect(msg);
	snprintf(msg, sizeof(msg),
		 "arg#1 offset=%zu, but expected bpf_rb_node at offset=%zu in "
		 "struct node_two",
		 offsetof(struct node_two, node), offsetof(struct node_two, node2));
	assert_non_null(strstr(run.violations[1].msg, msg));

	begin();
	two = bpf_obj_new(node_two);
	bpf_spin_lock(&g.glock);
	assert_int_equal(bpf_rbtree_add(&g.two_root, &two->node2, less), 0);
	bpf_spin_unlock(&g.glock);
	end_clean();
}

static void test_list_node_of_other_struct(void **state)
{
	struct bucket *b;
	char msg[192];

	begin();
	b = bpf_obj_new(bucket);
	bpf_spin_lock(&g.glock);
	assert_int_equal(bpf_list_push_back(&g.ghead, &b->link), -EINVAL);
	assert_int_equal(bpf_list_push_back(&g.buckets, &b->link), 0);
	bpf_spin_unlock(&g.glock);
	snprintf(msg, sizeof(msg),
		 "operation on bpf_list_head expects arg#1 bpf_list_node at offset=%zu in struct "
		 "list_item, but arg is at offset=%zu in struct bucket",
		 offsetof(struct list_item, link), offsetof(struct bucket, link));
	end_expect(msg);
	assert_int_equal(run.nr_violations, 1);
}

static void test_tracing_prog_cannot_use_roots(void **state)
{
	struct kfsim_bpf_run_opts opts = {.prog_type = KFSIM_BPF_PROG_KPROBE};

	assert_int_equal(kfsim_bpf_run_begin(&run, "kprobe", &opts), 0);
	bpf_spin_lock(&g.glock);
	assert_null(bpf_list_pop_front(&g.ghead));
	bpf_spin_unlock(&g.glock);
	end_expect("tracing progs cannot use bpf_{list_head,rb_root} yet");

	opts.prog_type = KFSIM_BPF_PROG_STRUCT_OPS;
	assert_int_equal(kfsim_bpf_run_begin(&run, "struct_ops", &opts), 0);
	bpf_spin_lock(&g.glock);
	assert_null(bpf_list_pop_front(&g.ghead));
	bpf_spin_unlock(&g.glock);
	end_clean();
}

static void test_wrong_root_kind_and_undeclared(void **state)
{
	struct glob undeclared;
	char msg[96];

	memset(&undeclared, 0, sizeof(undeclared));
	begin();
	bpf_spin_lock(&g.glock);
	assert_null(bpf_rbtree_first((struct bpf_rb_root *)&g.ghead));
	bpf_spin_unlock(&g.glock);
	snprintf(msg, sizeof(msg), "bpf_rb_root not found at offset=%zu",
		 offsetof(struct glob, ghead));
	end_expect(msg);

	begin();
	bpf_spin_lock(&undeclared.glock);
	assert_null(bpf_list_pop_back(&undeclared.ghead));
	bpf_spin_unlock(&undeclared.glock);
	/* never dereferenced: looked up first, found in no allocation the program may reach */
	assert_int_equal(undeclared.glock.val, 0);
	end_expect("R1 type=scalar expected=map_value, ptr_");
}

/* ---- drop ---- */

static void test_drop_rules(void **state)
{
	struct node_data *n;

	begin();
	n = new_node(1);
	bpf_obj_drop(&n->node); /* interior pointer: refused */
	bpf_obj_drop(n);
	end_expect("R1 must have zero offset when passed to release func or trusted arg to "
		   "kfunc");

	begin();
	n = new_node(1);
	bpf_obj_drop(n);
	bpf_obj_drop(n); /* use after drop: seen, refused, nothing freed twice */
	end_expect("R1 must be referenced or trusted");
	assert_non_null(strstr(run.violations[0].why, "at bpf_obj_drop"));

	begin();
	n = new_node(1);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	bpf_spin_unlock(&g.glock);
	end_clean();
}

static void test_drop_non_owning(void **state)
{
	struct bpf_rb_node *f;
	struct node_data *n;

	begin();
	n = new_node(1);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	f = bpf_rbtree_first(&g.groot);
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(container_of(f, struct node_data, node));
	end_expect("R1 must be referenced or trusted");
}

static void test_unreleased_reference(void **state)
{
	u64 mark = log_mark();

	begin();
	(void)new_node(1);
	/* bpf_obj_new takes two verifier ids (maybe-NULL, then acquired): the reference has id 2 */
	end_expect("Unreleased reference id=2 alloc_insn=1");
	assert_logged(mark, "Unreleased reference id=2 alloc_insn=1", 1);
	assert_non_null(run.violations[0].file);
	assert_non_null(strstr(run.violations[0].file, "test_rules.c"));
}

static void test_obj_new_type_id(void **state)
{
	begin();
	assert_null(bpf_obj_new_impl(1ull << 40, NULL));
	end_expect("local type ID argument must be in range [0, U32_MAX]");

	begin();
	assert_null(bpf_obj_new_impl(4000, NULL));
	/* 6.6 added bpf_percpu_obj_new_impl, which shares the check and its message */
	end_expect(kfsim_kernel_at_least(6, 6)
			   ? "bpf_obj_new/bpf_percpu_obj_new type ID argument must be of a struct"
			   : "bpf_obj_new type ID argument must be of a struct");
}

/* ---- the less callback ---- */

static bool less_locks(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bpf_spin_unlock(&g.glock);
	return less(a, b);
}

static bool less_removes(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	assert_null(bpf_rbtree_remove(&g.groot, (struct bpf_rb_node *)b));
	return less(a, b);
}

static struct node_data *global_owned;

static bool less_adds(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	assert_int_equal(bpf_rbtree_add(&g.groot, &global_owned->node, less), -EINVAL);
	return less(a, b);
}

static bool less_first_ok(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	assert_non_null(bpf_rbtree_first(&g.groot));
	return less(a, b);
}

static void add_two(bpf_rb_less_t second_less)
{
	struct node_data *a = new_node(1), *b = new_node(2);

	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &a->node, less);
	bpf_rbtree_add(&g.groot, &b->node, second_less);
	bpf_spin_unlock(&g.glock);
}

static void test_less_callback_rules(void **state)
{
	begin();
	add_two(less_locks);
	end_expect("can't spin_{lock,unlock} in rbtree cb");

	begin();
	add_two(less_removes);
	end_expect(kfsim_kernel_at_least(6, 16) ? "bpf_rbtree_remove not allowed in rbtree cb"
						: "rbtree_remove not allowed in rbtree cb");

	begin();
	global_owned = new_node(9);
	add_two(less_adds);
	bpf_obj_drop(global_owned);
	end_expect("arg#1 expected pointer to allocated object");

	begin();
	add_two(less_first_ok);
	end_clean();
}

static bool less_not_strict(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return true;
}

static void test_less_order_check(void **state)
{
	struct kfsim_bpf_run_opts opts = {.check_less_order = true};

	assert_int_equal(kfsim_bpf_run_begin(&run, "order", &opts), 0);
	add_two(less_not_strict);
	end_expect("kfsim: less callback is not a strict weak order");

	assert_int_equal(kfsim_bpf_run_begin(&run, "order", &opts), 0);
	add_two(less);
	end_clean();
}

/* ---- version-gated kfuncs ---- */

static void test_616_kfuncs_gated(void **state)
{
	begin();
	bpf_spin_lock(&g.glock);
	assert_null(bpf_rbtree_root(&g.groot));
	assert_null(bpf_list_front(&g.ghead));
	bpf_spin_unlock(&g.glock);
	if (kfsim_kernel_at_least(6, 16))
		end_clean();
	else
		end_expect(
			"extern (func ksym) 'bpf_rbtree_root': not found in kernel or module BTFs");
}

static void test_refcount_rules(void **state)
{
	struct node_data *n;

	begin();
	n = new_node(1);
	assert_null(bpf_refcount_acquire(n));
	bpf_obj_drop(n);
	if (kfsim_kernel_at_least(6, 6))
		end_expect("arg#0 doesn't point to a type with bpf_refcount field");
	else if (kfsim_kernel_at_least(6, 4))
		end_expect("bpf_refcount_acquire calls are disabled for now");
	else
		end_expect("extern (func ksym) 'bpf_refcount_acquire_impl': not found");
}

/* ---- modes and reports ---- */

static int prog_breaks_twice(void *ctx)
{
	int *reached = ctx;

	bpf_rbtree_first(&g.groot); /* no lock */
	*reached = 1;
	bpf_rbtree_first(&g.groot);
	return 7;
}

static void count_report(const struct kfsim_bpf_violation *v, void *arg)
{
	(*(int *)arg)++;
	assert_non_null(strstr(v->file, "test_rules.c"));
	assert_string_equal(v->kfunc, "bpf_rbtree_first");
}

static void test_abort_and_continue_modes(void **state)
{
	int reports = 0, reached = 0, ret = -1;
	struct kfsim_bpf_run_opts opts = {
		.on_violation = KFSIM_BPF_ABORT, .report = count_report, .report_arg = &reports};

	assert_int_equal(kfsim_bpf_run(&run, "abort", prog_breaks_twice, &reached, &opts, &ret),
			 -EINVAL);
	assert_true(run.aborted);
	assert_int_equal(reached, 0);
	assert_int_equal(ret, -1);
	assert_int_equal(reports, 1);

	opts.on_violation = KFSIM_BPF_CONTINUE;
	assert_int_equal(kfsim_bpf_run(&run, "continue", prog_breaks_twice, &reached, &opts, &ret),
			 -EINVAL);
	assert_false(run.aborted);
	assert_int_equal(reached, 1);
	assert_int_equal(ret, 7);
	assert_int_equal(reports, 3);
	assert_int_equal(run.nr_violations, 2);
}

static void test_run_scope_errors(void **state)
{
	struct kfsim_bpf_run other;

	assert_int_equal(kfsim_bpf_run_begin(NULL, "x", NULL), -EINVAL);
	begin();
	assert_int_equal(kfsim_bpf_run_begin(&other, "nested", NULL), -EBUSY);
	assert_int_equal(kfsim_bpf_run_end(&other), -EINVAL);
	end_clean();
	assert_int_equal(kfsim_bpf_run(&run, "x", NULL, NULL, NULL, NULL), -EINVAL);
}

static void test_deprecated_warns_once(void **state)
{
	struct node_data *a, *b;
	u64 mark = log_mark();

	begin();
	a = new_node(1);
	b = new_node(2);
	bpf_spin_lock(&g.glock);
	(bpf_rbtree_add)(&g.groot, &a->node, less);
	(bpf_rbtree_add)(&g.groot, &b->node, less);
	bpf_spin_unlock(&g.glock);
	end_clean();
	/* 6.3 has it (no warning); 6.4 removed it: kfsim keeps it and says so once */
	assert_logged(mark,
		      "kfunc bpf_rbtree_add was removed in 6.4 (d2dcc67df910); kfsim keeps it, "
		      "use bpf_rbtree_add_impl",
		      kfsim_kernel_at_least(6, 4) ? 1 : 0);
}

/* ---- lists, refcounts, aborts inside less, reports outside runs ---- */

static void test_list_double_push_and_leaked_pop(void **state)
{
	struct list_item *it;
	struct bpf_list_node *ln;

	begin();
	it = bpf_obj_new(list_item);
	bpf_spin_lock(&g.glock);
	assert_int_equal(bpf_list_push_back(&g.ghead, &it->link), 0);
	assert_int_equal(bpf_list_push_front(&g.ghead, &it->link), -EINVAL);
	bpf_spin_unlock(&g.glock);
	end_expect("arg#1 expected pointer to allocated object");

	begin();
	bpf_spin_lock(&g.glock);
	ln = bpf_list_pop_front(&g.ghead);
	bpf_spin_unlock(&g.glock);
	assert_non_null(ln);
	end_expect("Unreleased reference id=2 alloc_insn=2"); /* dropped by the end of the run */

	begin();
	it = bpf_obj_new(list_item);
	bpf_spin_lock(&g.glock);
	bpf_list_push_front(&g.ghead, &it->link);
	ln = bpf_list_pop_back(&g.ghead);
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(container_of(ln, struct list_item, link));
	end_clean();
}

static void test_refcount_acquire_stale(void **state)
{
	struct bpf_rb_node *f;
	struct shared_node *n;
	struct gshared s;

	if (!kfsim_kernel_at_least(6, 6)) /* calls disabled in 6.4 and 6.5 */
		return;
	memset(&s, 0, sizeof(s));
	assert_int_equal(kfsim_bpf_private_init(&s, kfsim_btf_of(gshared)), 0);
	begin();
	n = bpf_obj_new(shared_node);
	bpf_spin_lock(&s.lock);
	bpf_rbtree_add(&s.root, &n->rb, less_shared);
	f = bpf_rbtree_first(&s.root);
	bpf_spin_unlock(&s.lock);
	assert_null(bpf_refcount_acquire(container_of(f, struct shared_node, rb)));
	end_expect("arg#0 is neither owning or non-owning ref");

	begin();
	bpf_spin_lock(&s.lock);
	f = bpf_rbtree_first(&s.root);
	n = bpf_refcount_acquire(container_of(f, struct shared_node, rb));
	bpf_spin_unlock(&s.lock);
	assert_non_null(n);
	bpf_obj_drop(n);
	end_clean();
	assert_int_equal(kfsim_bpf_private_free(&s, kfsim_btf_of(gshared)), 0);
}

/* 6.16: an owning reference to a refcounted node may be removed (and left/right walked). */
static void test_remove_owning_refcounted(void **state)
{
	struct shared_node *n, *m;
	struct bpf_rb_node *res;
	struct gshared s;

	if (!kfsim_kernel_at_least(6, 6)) /* calls disabled in 6.4 and 6.5 */
		return;
	memset(&s, 0, sizeof(s));
	assert_int_equal(kfsim_bpf_private_init(&s, kfsim_btf_of(gshared)), 0);
	begin();
	n = bpf_obj_new(shared_node);
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&s.lock);
	bpf_rbtree_add(&s.root, &n->rb, less_shared);
	bpf_spin_unlock(&s.lock); /* n's non-owning alias dies: only m is left */
	bpf_spin_lock(&s.lock);
	res = bpf_rbtree_remove(&s.root, &m->rb);
	bpf_spin_unlock(&s.lock);
	if (res)
		bpf_obj_drop(container_of(res, struct shared_node, rb));
	bpf_obj_drop(m);
	if (kfsim_kernel_at_least(6, 16)) {
		assert_non_null(res);
		end_clean();
	} else {
		assert_null(res);
		end_expect("rbtree_remove node input must be non-owning ref");
	}
	assert_int_equal(kfsim_bpf_private_free(&s, kfsim_btf_of(gshared)), 0);
}

/*
 * A walker's NULL result passed on unchecked: 6.18 checks the trusted argument's NULL before its
 * kind (measured on 6.18.44: regressions.bpf.c fzreg_10, fzreg_11); 6.16 names the kind.
 */
static void test_walker_null_node_arg(void **state)
{
	static const char *const kfuncs[] = {"bpf_rbtree_left", "bpf_rbtree_right",
					     "bpf_rbtree_remove"};

	for (int i = 0; i < 3; i++) {
		struct bpf_rb_node *r = (struct bpf_rb_node *)1; /* overwritten by the call */

		begin_in(6, 18);
		bpf_spin_lock(&g.glock);
		if (i == 0)
			r = bpf_rbtree_left(&g.groot, NULL);
		else if (i == 1)
			r = bpf_rbtree_right(&g.groot, NULL);
		else
			r = bpf_rbtree_remove(&g.groot, NULL);
		bpf_spin_unlock(&g.glock);
		assert_null(r);
		end_expect("Possibly NULL pointer passed to trusted arg1");
		assert_int_equal(run.nr_violations, 1);
	}
	for (int i = 0; i < 3; i++) {
		char want[96];

		begin_in(6, 16);
		bpf_spin_lock(&g.glock);
		if (i == 0)
			bpf_rbtree_left(&g.groot, NULL);
		else if (i == 1)
			bpf_rbtree_right(&g.groot, NULL);
		else
			bpf_rbtree_remove(&g.groot, NULL);
		bpf_spin_unlock(&g.glock);
		snprintf(want, sizeof(want), "%s can only take non-owning or refcounted", kfuncs[i]);
		end_expect(want);
	}
}

static bool less_walks(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	assert_null(bpf_rbtree_left(&g.groot, (struct bpf_rb_node *)b));
	return less(a, b);
}

static void test_walk_in_less_616(void **state)
{
	if (!kfsim_kernel_at_least(6, 16))
		return;
	begin();
	add_two(less_walks);
	end_expect("bpf_rbtree_left not allowed in rbtree cb");
}

static int prog_aborts_in_less(void *ctx)
{
	add_two(less_locks);
	return 0;
}

static void test_abort_inside_less_cleans_up(void **state)
{
	struct kfsim_bpf_run_opts opts = {.on_violation = KFSIM_BPF_ABORT};
	struct bpf_rb_node *res;
	int left = 0;

	assert_int_equal(kfsim_bpf_run(&run, "abort-in-cb", prog_aborts_in_less, NULL, &opts, NULL),
			 -EINVAL);
	assert_true(run.aborted);
	assert_int_equal(run.nr_violations, 1);
	assert_int_equal(g.glock.val, 0); /* the run's lock was released */
	/* the tree is intact and usable: one node (key 1) was added before the abort */
	begin();
	for (;;) {
		bpf_spin_lock(&g.glock);
		res = bpf_rbtree_first(&g.groot);
		if (res)
			res = bpf_rbtree_remove(&g.groot, res);
		bpf_spin_unlock(&g.glock);
		if (!res)
			break;
		left++;
		bpf_obj_drop(container_of(res, struct node_data, node));
	}
	end_clean();
	assert_int_equal(left, 1);
}

static void test_reports_outside_runs(void **state)
{
	unsigned long before = kfsim_bpf_violations_total();
	u64 mark = log_mark();

	assert_null(bpf_rbtree_first(&g.groot));
	assert_int_equal(kfsim_bpf_violations_total(), before + 1);
	assert_logged(mark, "kfsim bpf: bpf_spin_lock at off=", 1);
	assert_logged(mark, "test_rules.c", 1);
}

#define BOTH(fn)                                                                                   \
	cmocka_unit_test_setup_teardown(fn, setup_63, teardown),                                   \
		cmocka_unit_test_setup_teardown(fn, setup_616, teardown)
/* 6.4 too: int inserts, NULL-returning remove, refcounts; not the 6.16 kfuncs and texts */
#define ALL(fn) BOTH(fn), cmocka_unit_test_setup_teardown(fn, setup_64, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		ALL(test_root_lock_required),
		ALL(test_lock_of_other_allocation),
		ALL(test_two_locks),
		ALL(test_unlock_rules),
		ALL(test_unlock_missing),
		ALL(test_calls_under_lock),
		ALL(test_insert_needs_owning),
		ALL(test_non_owning_dies_at_unlock),
		ALL(test_remove_needs_non_owning),
		ALL(test_remove_invalidates_in_63),
		ALL(test_remove_from_other_tree),
		ALL(test_node_type_and_field),
		ALL(test_wrong_root_kind_and_undeclared),
		ALL(test_list_node_of_other_struct),
		ALL(test_tracing_prog_cannot_use_roots),
		ALL(test_drop_rules),
		ALL(test_drop_non_owning),
		ALL(test_unreleased_reference),
		ALL(test_obj_new_type_id),
		ALL(test_less_callback_rules),
		ALL(test_less_order_check),
		ALL(test_616_kfuncs_gated),
		ALL(test_refcount_rules),
		ALL(test_abort_and_continue_modes),
		ALL(test_run_scope_errors),
		BOTH(test_deprecated_warns_once),
		ALL(test_list_double_push_and_leaked_pop),
		ALL(test_refcount_acquire_stale),
		ALL(test_walk_in_less_616),
		ALL(test_remove_owning_refcounted),
		ALL(test_abort_inside_less_cleans_up),
		ALL(test_reports_outside_runs),
		cmocka_unit_test_setup_teardown(test_preempt_rules, setup_616, teardown),
		cmocka_unit_test_setup_teardown(test_irq_rules, setup_616, teardown),
		cmocka_unit_test_setup_teardown(test_walker_null_node_arg, setup_616, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
