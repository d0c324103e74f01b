// SPDX-License-Identifier: MIT
/*
 * Misuse that once hurt kfsim itself (issue #13): every scenario runs in a child process with a
 * time limit, so a hang (spinning on a lock word that is not a lock), a crash or a sanitizer
 * report fails the test instead of stopping it; inside the child the verifier's message is
 * checked.  Also the version history the issue lists (6.4/6.5 refcount_acquire, 6.16 owning
 * arguments, kfuncs below 6.3) and the message texts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/printk.h>
#include "bpf_test_types.h"
#include "core/child_run.h"

#define CHILD_SECONDS 5

static struct glob g;
static struct gshared gs;

struct misuse {
	unsigned int kver;
	int (*prog)(void *ctx);
	const char *msg;
	bool direct;
};

/* The child of run_child(): fresh sections, one run, its first violation checked. */
static int child(void *arg, int fd)
{
	const struct misuse *m = arg;
	struct kfsim_bpf_run run;

	kfsim_console_loglevel_set(0);
	kfsim_set_kernel_version(m->kver);
	glob_init(&g, NULL);
	memset(&gs, 0, sizeof(gs));
	if (kfsim_kernel_at_least(6, 4) && kfsim_bpf_private_init(&gs, kfsim_btf_of(gshared)))
		return 10;
	if (m->direct) /* @prog runs programs itself and says how it went */
		return m->prog(NULL);
	kfsim_bpf_run(&run, "misuse", m->prog, NULL, NULL, NULL);
	if (!m->msg && run.nr_violations) {
		fprintf(stderr, "unexpected: %s\n", run.violations[0].msg);
		return 11;
	}
	if (m->msg && (!run.nr_violations || !strstr(run.violations[0].msg, m->msg))) {
		fprintf(stderr, "expected \"%s\", got \"%s\"\n", m->msg,
			run.nr_violations ? run.violations[0].msg : "(nothing)");
		return 12;
	}
	return 0;
}

/* Run @prog in mode @kver in a child; in it, the first violation must contain @msg (NULL: none). */
static void run_child_how(unsigned int kver, int (*prog)(void *ctx), const char *msg, bool direct)
{
	struct misuse m = {kver, prog, msg, direct};
	struct kfsim_child c = {.timeout_ms = CHILD_SECONDS * 1000};
	char end[16];

	assert_int_equal(kfsim_child_run(&c, child, &m), 0);
	kfsim_child_release(&c);
	if (kfsim_child_end(&c, end, sizeof(end))[0])
		fail_msg("child: %s (status %#x)", end, c.status);
}

static void run_child(unsigned int kver, int (*prog)(void *ctx), const char *msg)
{
	run_child_how(kver, prog, msg, false);
}

#define V(a, b) KERNEL_VERSION(a, b, 0)

/* ---- 1: lock arguments are looked up before they are touched ---- */

static int lock_of_dropped_object(void *ctx)
{
	struct bucket *b = bpf_obj_new(bucket);

	bpf_obj_drop(b);
	bpf_spin_lock(&b->lock); /* freed memory: must be neither read nor written */
	return 0;
}

static void test_lock_of_dropped_object(void **state)
{
	run_child(V(6, 16), lock_of_dropped_object, "R1 type=scalar expected=map_value, ptr_");
	run_child(V(6, 3), lock_of_dropped_object, "R1 type=scalar expected=map_value, ptr_");
}

/*
 * A stale pointer is not the next object (found by tests/bpfcc/fuzz): the allocator hands a
 * dropped object's memory back at once, so without the run's quarantine the second drop of @a
 * would drop @b's object, and the add of @b would be the first report.
 */
static int drop_twice_across_new(void *ctx)
{
	struct node_data *a = bpf_obj_new(node_data), *b;

	if (!a)
		return 1;
	bpf_obj_drop(a);
	b = bpf_obj_new(node_data);
	if (!b)
		return 1;
	bpf_obj_drop(a);
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &b->node, less);
	bpf_spin_unlock(&g.glock);
	return 0;
}

static void test_stale_pointer_is_not_the_next_object(void **state)
{
	run_child(V(6, 16), drop_twice_across_new, "R1 must be referenced or trusted");
	run_child(V(6, 3), drop_twice_across_new, "R1 must be referenced or trusted");
}

/* A bucket in a list: its non-owning reference dies at unlock, its lock may not be taken. */
static int lock_after_unlock(void *ctx)
{
	struct bucket *b = bpf_obj_new(bucket);
	struct bpf_list_node *n;

	bpf_spin_lock(&g.glock);
	bpf_list_push_back(&g.buckets, &b->link);
	n = bpf_list_front(&g.buckets);
	bpf_spin_unlock(&g.glock);
	if (n)
		bpf_spin_lock(&container_of(n, struct bucket, link)->lock);
	bpf_spin_lock(&b->lock); /* b died at the unlock too */
	return 0;
}

static void test_lock_through_dead_reference(void **state)
{
	run_child(V(6, 16), lock_after_unlock, "R1 type=scalar expected=map_value, ptr_");
}

/* linked_list_fail.c pop_front_off with a node in the list: the node is no lock */
static int node_as_lock(void *ctx)
{
	struct bucket *b = bpf_obj_new(bucket);
	struct bpf_list_node *n;

	bpf_spin_lock(&g.glock);
	bpf_list_push_back(&g.buckets, &b->link);
	n = bpf_list_pop_front(&g.buckets);
	bpf_spin_unlock(&g.glock);
	if (!n)
		return 1;
	bpf_spin_lock((void *)n);
	bpf_obj_drop(container_of(n, struct bucket, link));
	return 0;
}

static void test_node_as_lock(void **state)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "off %zu doesn't point to 'struct bpf_spin_lock' that is at %zu",
		 offsetof(struct bucket, link), offsetof(struct bucket, lock));
	run_child(V(6, 16), node_as_lock, msg);
	run_child(V(6, 3), node_as_lock, msg);
}

/* A section whose struct was rejected: the map exists, its record does not. */
struct rootless_lockless {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root; /* no __contains: rejected */
};
KFSIM_BTF_STRUCT(rootless_lockless, BTF_FIELD(rootless_lockless, lock),
		 BTF_ROOT_NO_CONTAINS(rootless_lockless, root));
static struct rootless_lockless bad;

static int lock_of_invalid_record(void *ctx)
{
	bpf_spin_lock(&bad.lock);
	return 0;
}

static void test_lock_of_invalid_record(void **state)
{
	memset(&bad, 0, sizeof(bad));
	kfsim_console_loglevel_set(0);
	assert_int_equal(kfsim_bpf_section_init(&bad, kfsim_btf_of(rootless_lockless), ".data.A"),
			 -EINVAL);
	run_child(V(6, 16), lock_of_invalid_record, "map '.data.A' has no valid bpf_spin_lock");
	/* the registration goes with the free, although there is nothing to drain */
	assert_int_equal(kfsim_bpf_private_free(&bad, kfsim_btf_of(rootless_lockless)), 0);
	assert_int_equal(kfsim_bpf_private_free(&bad, kfsim_btf_of(rootless_lockless)), -EINVAL);
}

/* ---- 2: a root that is not a declared root is never read ---- */

static int head_of_plain_object(void *ctx)
{
	struct list_item *it = bpf_obj_new(list_item);

	bpf_spin_lock(&g.glock);
	bpf_list_push_front((struct bpf_list_head *)it, NULL); /* linked_list_fail no_head_type */
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(it);
	return 0;
}

static int head_at_odd_offset(void *ctx)
{
	struct list_item *it = bpf_obj_new(list_item);

	bpf_spin_lock(&g.glock);
	bpf_list_push_front((void *)((char *)&g.ghead + 1), &it->link);
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(it);
	return 0;
}

static int head_at_end_of_object(void *ctx)
{
	struct list_item *it = bpf_obj_new(list_item);
	struct bpf_list_node *n;

	/* the last byte of the object: reading 16 bytes there would overflow it */
	bpf_spin_lock(&g.glock);
	n = bpf_list_pop_front((void *)((char *)it + sizeof(*it) - 1));
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(it);
	return n != NULL;
}

static void test_root_not_declared(void **state)
{
	char msg[64];

	run_child(V(6, 16), head_of_plain_object, "bpf_list_head not found at offset=0");
	snprintf(msg, sizeof(msg), "bpf_list_head not found at offset=%zu",
		 offsetof(struct glob, ghead) + 1);
	run_child(V(6, 16), head_at_odd_offset, msg);
	snprintf(msg, sizeof(msg), "bpf_list_head not found at offset=%zu",
		 sizeof(struct list_item) - 1);
	run_child(V(6, 16), head_at_end_of_object, msg);
}

/* ---- 3: 6.16 takes a plain owning reference in remove/left/right ---- */

static int remove_left_right_unadded(void *ctx)
{
	struct node_data *n = bpf_obj_new(node_data);
	struct bpf_rb_node *a, *b, *c;

	bpf_spin_lock(&g.glock);
	a = bpf_rbtree_remove(&g.groot, &n->node);
	b = bpf_rbtree_left(&g.groot, &n->node);
	c = bpf_rbtree_right(&g.groot, &n->node);
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(n);
	return a || b || c; /* all NULL: the node is in no tree */
}

static void test_616_owning_in_remove_left_right(void **state)
{
	run_child(V(6, 16), remove_left_right_unadded, NULL);
	run_child(V(6, 12), remove_left_right_unadded,
		  "rbtree_remove node input must be non-owning ref");
}

/* ---- 4: calls under a held lock ---- */

static int second_lock(void *ctx)
{
	bpf_spin_lock(&g.glock);
	bpf_spin_lock(&g.glock); /* the same lock: spinning on it would hang */
	bpf_spin_unlock(&g.glock);
	return 0;
}

static bool less_takes_lock(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bpf_spin_lock(&g.glock);
	return less(a, b);
}

static int lock_in_less(void *ctx)
{
	for (int i = 0; i < 2; i++) {
		struct node_data *n = bpf_obj_new(node_data);

		bpf_spin_lock(&g.glock);
		bpf_rbtree_add(&g.groot, &n->node, less_takes_lock);
		bpf_spin_unlock(&g.glock);
	}
	return 0;
}

static void test_calls_under_lock(void **state)
{
	run_child(V(6, 16), second_lock, "function calls are not allowed while holding a lock");
	run_child(V(6, 3), second_lock, "function calls are not allowed while holding a lock");
	run_child(V(6, 16), lock_in_less, "function calls are not allowed while holding a lock");
}

/* ---- 5: bpf_refcount_acquire disabled in 6.4 and 6.5 ---- */

static int acquire_once(void *ctx)
{
	struct shared_node *n = bpf_obj_new(shared_node);
	struct shared_node *m = bpf_refcount_acquire(n);

	if (m)
		bpf_obj_drop(m);
	bpf_obj_drop(n);
	return 0;
}

static void test_refcount_acquire_versions(void **state)
{
	run_child(V(6, 4), acquire_once, "bpf_refcount_acquire calls are disabled for now");
	run_child(V(6, 5), acquire_once, "bpf_refcount_acquire calls are disabled for now");
	run_child(V(6, 6), acquire_once, NULL);
	run_child(V(6, 16), acquire_once, NULL);
}

/* ---- 6: aborting inside less() leaves the node as it was ---- */

static void *stash;

static bool less_shared_drops(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bpf_obj_drop(container_of(a, struct shared_node, rb)); /* not allowed: aborts */
	return less_shared(a, b);
}

static int abort_prog(void *ctx)
{
	struct shared_node *first = bpf_obj_new(shared_node), *n = bpf_obj_new(shared_node);
	struct shared_node *m = bpf_refcount_acquire(n), *old;

	old = bpf_kptr_xchg(&stash, m); /* the stash keeps n alive */
	if (old)
		bpf_obj_drop(old);
	bpf_spin_lock(&gs.lock);
	bpf_rbtree_add(&gs.root, &first->rb, less_shared);
	bpf_rbtree_add(&gs.root, &n->rb, less_shared_drops); /* aborts inside less() */
	bpf_spin_unlock(&gs.lock);
	return 0;
}

static int add_survivor(void *ctx)
{
	struct shared_node *n = bpf_kptr_xchg(&stash, NULL);
	int err;

	if (!n)
		return 1;
	bpf_spin_lock(&gs.lock);
	err = bpf_rbtree_add(&gs.root, &n->rb, less_shared);
	bpf_spin_unlock(&gs.lock);
	return err;
}

static int abort_then_add(void *ctx)
{
	struct kfsim_bpf_run_opts opts = {.on_violation = KFSIM_BPF_ABORT};
	struct kfsim_bpf_run inner;
	int ret = -1;

	kfsim_bpf_run(&inner, "abort", abort_prog, NULL, &opts, NULL);
	/* aborted at the bpf_obj_drop() inside less(), with n claimed (BPF_PTR_POISON) */
	if (!inner.aborted || inner.nr_violations != 1 ||
	    strcmp(inner.violations[0].kfunc, "bpf_obj_drop_impl"))
		return 20;
	kfsim_bpf_run(&inner, "survivor", add_survivor, NULL, NULL, &ret);
	if (inner.nr_violations || ret != 0)
		return 21; /* before the fix: owner left as BPF_PTR_POISON, add said -EINVAL */
	return 0;
}

static void test_abort_in_less_restores_node(void **state)
{
	run_child_how(V(6, 16), abort_then_add, NULL, true);
}

/* ---- 7: messages ---- */

static int wrong_lock_for_root(void *ctx)
{
	struct glob2 *unused = NULL;
	struct node_data *n = bpf_obj_new(node_data);

	(void)unused;
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, NULL); /* no less callback */
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(n);
	return 0;
}

static int obj_new_not_struct(void *ctx)
{
	bpf_obj_new_impl(0, NULL);
	return 0;
}

static int leak(void *ctx)
{
	bpf_obj_new(node_data);
	return 0;
}

static void test_messages(void **state)
{
	run_child(V(6, 16), wrong_lock_for_root, "arg2 expected pointer to func");
	run_child(V(6, 16), obj_new_not_struct,
		  "bpf_obj_new/bpf_percpu_obj_new type ID argument must be of a struct");
	run_child(V(6, 5), obj_new_not_struct, "bpf_obj_new type ID argument must be of a struct");
	run_child(V(6, 16), leak,
		  "Unreleased reference id=2 alloc_insn=1\n"
		  "BPF_EXIT instruction in main prog would lead to reference leak");
	run_child(V(6, 12), leak, "Unreleased reference id=2 alloc_insn=1");
}

static struct glob2 g2;

static int lock_other_allocation(void *ctx)
{
	bpf_spin_lock(&g2.lock2);
	bpf_rbtree_first(&g.groot);
	bpf_spin_unlock(&g2.lock2);
	return 0;
}

static void test_held_lock_message_two_lines(void **state)
{
	struct kfsim_bpf_run run;
	char msg[160];

	kfsim_console_loglevel_set(0);
	kfsim_set_kernel_version(V(6, 16));
	glob_init(&g, &g2);
	kfsim_bpf_run(&run, "two-lines", lock_other_allocation, NULL, NULL, NULL);
	snprintf(msg, sizeof(msg),
		 "held lock and object are not in the same allocation\n"
		 "bpf_spin_lock at off=%zu must be held for bpf_rb_root",
		 offsetof(struct glob, glock));
	assert_string_equal(run.violations[0].msg, msg);
	assert_int_equal(kfsim_bpf_private_free(&g, kfsim_btf_of(glob)), 0);
	assert_int_equal(kfsim_bpf_private_free(&g2, kfsim_btf_of(glob2)), 0);
}

/* ---- 8: versions ---- */

static int rbtree_first_only(void *ctx)
{
	bpf_spin_lock(&g.glock);
	bpf_rbtree_first(&g.groot);
	bpf_spin_unlock(&g.glock);
	return 0;
}

static int rbtree_63_add(void *ctx)
{
	struct node_data *n = bpf_obj_new(node_data);

	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	bpf_spin_unlock(&g.glock);
	return 0;
}

static int remove_from_other_tree(void *ctx)
{
	struct node_data *n = bpf_obj_new(node_data);
	struct bpf_rb_node *f;

	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	f = bpf_rbtree_first(&g.groot);
	f = bpf_rbtree_remove(&g.groot2, f); /* same lock, other tree */
	bpf_spin_unlock(&g.glock);
	return f != NULL;
}

static void test_version_gates(void **state)
{
	run_child(V(6, 2), rbtree_first_only,
		  "extern (func ksym) 'bpf_rbtree_first': not found in kernel or module BTFs");
	run_child(V(6, 2), rbtree_63_add,
		  "extern (func ksym) 'bpf_rbtree_add': not found in kernel or module BTFs");
	run_child(V(6, 3), rbtree_63_add, NULL);
	run_child(V(6, 3), rbtree_first_only, NULL);
	/* 6.4/6.5 check only RB_EMPTY_NODE: the kernel would erase from the wrong tree */
	run_child(V(6, 4), remove_from_other_tree, "kfsim: bpf_rbtree_remove of a node that is not");
	run_child(V(6, 5), remove_from_other_tree, "kfsim: bpf_rbtree_remove of a node that is not");
	run_child(V(6, 6), remove_from_other_tree, NULL);
}

/* ---- RCU sections do not nest; a global function is checked on its own ---- */

static int rcu_nested(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_rcu_read_unlock();
	return 0;
}

static int rcu_unmatched(void *ctx)
{
	bpf_rcu_read_unlock();
	return 0;
}

/* the bodies of global functions, bracketed as kfsim-bpf-cc's runtime brackets them */
static void global_rcu_lock(void)
{
	kfsim_bpf_global_call_enter("g_rcu_lock");
	bpf_rcu_read_lock();
	kfsim_bpf_global_call_exit("g_rcu_lock");
}

static void global_spin_lock(void)
{
	kfsim_bpf_global_call_enter("g_lock");
	bpf_spin_lock(&g.glock);
	kfsim_bpf_global_call_exit("g_lock");
}

static void global_preempt_disable(void)
{
	kfsim_bpf_global_call_enter("g_preempt_off");
	bpf_preempt_disable();
	kfsim_bpf_global_call_exit("g_preempt_off");
}

static int global_left_rcu_open(void *ctx)
{
	global_rcu_lock();
	return 0;
}

/* the caller's unlock is the main program's error, which the verifier meets first */
static int global_left_rcu_open_caller_unlocks(void *ctx)
{
	global_rcu_lock();
	bpf_rcu_read_unlock();
	return 0;
}

/* the caller's section is not the function's: nothing to unlock in it */
static int global_closes_callers_rcu(void *ctx)
{
	bpf_rcu_read_lock();
	kfsim_bpf_global_call_enter("g_rcu_unlock");
	bpf_rcu_read_unlock();
	kfsim_bpf_global_call_exit("g_rcu_unlock");
	bpf_rcu_read_unlock();
	return 0;
}

static int global_rcu_inside_callers(void *ctx)
{
	bpf_rcu_read_lock();
	kfsim_bpf_global_call_enter("g_rcu_balanced");
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	kfsim_bpf_global_call_exit("g_rcu_balanced");
	bpf_rcu_read_unlock();
	return 0;
}

static int global_left_locked(void *ctx)
{
	global_spin_lock();
	return 0;
}

static int global_left_locked_caller_unlocks(void *ctx)
{
	global_spin_lock();
	bpf_spin_unlock(&g.glock);
	return 0;
}

/* taken natively by the function, free to the caller: its lock must not spin on the word */
static int global_left_locked_caller_relocks(void *ctx)
{
	global_spin_lock();
	bpf_spin_lock(&g.glock);
	bpf_spin_unlock(&g.glock);
	return 0;
}

static int global_left_preempt_off(void *ctx)
{
	global_preempt_disable();
	return 0;
}

/* two runs in one process: the first ends with the lock the function took released */
static int global_lock_released_at_run_end(void *ctx)
{
	struct kfsim_bpf_run run;

	kfsim_bpf_run(&run, "first", global_left_locked, NULL, NULL, NULL);
	if (run.nr_violations != 1)
		return 20;
	kfsim_bpf_run(&run, "second", global_left_locked_caller_relocks, NULL, NULL, NULL);
	if (run.nr_violations != 1 || !strstr(run.violations[0].msg, "bpf_spin_lock-ed region"))
		return 21;
	return 0;
}

static void test_rcu_sections_do_not_nest(void **state)
{
	run_child(V(6, 18), rcu_nested, "nested rcu read lock (kernel function bpf_rcu_read_lock)");
	run_child(V(6, 12), rcu_nested, "nested rcu read lock (kernel function bpf_rcu_read_lock)");
	run_child(V(6, 18), rcu_unmatched,
		  "unmatched rcu read unlock (kernel function bpf_rcu_read_unlock)");
}

static void test_global_function_checked_alone(void **state)
{
	run_child(V(6, 18), global_left_rcu_open,
		  "BPF_EXIT instruction in main prog cannot be used inside bpf_rcu_read_lock-ed "
		  "region");
	run_child(V(6, 13), global_left_rcu_open, "bpf_rcu_read_unlock is missing");
	run_child(V(6, 18), global_left_rcu_open_caller_unlocks,
		  "unmatched rcu read unlock (kernel function bpf_rcu_read_unlock)");
	run_child(V(6, 18), global_closes_callers_rcu,
		  "unmatched rcu read unlock (kernel function bpf_rcu_read_unlock)");
	run_child(V(6, 18), global_rcu_inside_callers, NULL);
	run_child(V(6, 18), global_left_locked,
		  "BPF_EXIT instruction in main prog cannot be used inside "
		  "bpf_spin_lock-ed region");
	run_child(V(6, 13), global_left_locked, "bpf_spin_unlock is missing");
	run_child(V(6, 18), global_left_locked_caller_unlocks,
		  "bpf_spin_unlock without taking a lock");
	run_child(V(6, 18), global_left_locked_caller_relocks,
		  "BPF_EXIT instruction in main prog cannot be used inside "
		  "bpf_spin_lock-ed region");
	run_child(V(6, 18), global_left_preempt_off,
		  "BPF_EXIT instruction in main prog cannot be used inside bpf_preempt_disable-ed "
		  "region");
	run_child(V(6, 12), global_left_preempt_off, "1 bpf_preempt_enable is missing");
	run_child_how(V(6, 18), global_lock_released_at_run_end, NULL, true);
}

/*
 * ---- the program type's rules and the unlock's argument (docs/bpf-graph.md, "The fourth
 * round"): each found by a program the running 6.18 refused and kfsim accepted ----
 */

static int lock_unlock(void *ctx)
{
	bpf_spin_lock(&g.glock);
	bpf_spin_unlock(&g.glock);
	return 0;
}

static int push_under_lock(void *ctx)
{
	struct list_item *n = bpf_obj_new(list_item);

	if (!n)
		return 1;
	bpf_spin_lock(&g.glock);
	bpf_list_push_back(&g.ghead, &n->link);
	bpf_spin_unlock(&g.glock);
	return 0;
}

static int unlock_only(void *ctx)
{
	bpf_spin_unlock(&g.glock);
	return 0;
}

static long long next_ret;

static int new_drop(void *ctx)
{
	struct list_item *n = bpf_obj_new(list_item);

	if (n)
		bpf_obj_drop(n);
	return 0;
}

static int rcu_preempt(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_preempt_disable();
	bpf_preempt_enable();
	return 0;
}

static int returns_next(void *ctx)
{
	return (int)next_ret;
}

static int leaks_and_returns_5(void *ctx)
{
	bpf_obj_new(list_item);
	return 5;
}

/* One run of @prog as @type; its first violation must contain @msg (NULL: none). */
static int run_as(enum kfsim_bpf_prog_type type, bool no_prog_btf, int (*prog)(void *ctx),
		  const char *msg)
{
	struct kfsim_bpf_run_opts opts = {.prog_type = type, .no_prog_btf = no_prog_btf};
	struct kfsim_bpf_run run;

	kfsim_bpf_run(&run, "prog_type", prog, NULL, &opts, NULL);
	if (!msg && !run.nr_violations)
		return 0;
	if (msg && run.nr_violations && strstr(run.violations[0].msg, msg))
		return 0;
	fprintf(stderr, "expected \"%s\", got \"%s\"\n", msg ? msg : "(nothing)",
		run.nr_violations ? run.violations[0].msg : "(nothing)");
	return 1;
}

static int prog_type_cases(void *ctx)
{
	static const struct {
		enum kfsim_bpf_prog_type type;
		long long ret;
		const char *msg;
	} rets[] = {
		{KFSIM_BPF_PROG_CGROUP_SKB_INGRESS, 0, NULL},
		{KFSIM_BPF_PROG_CGROUP_SKB_INGRESS, 1, NULL},
		{KFSIM_BPF_PROG_CGROUP_SKB_INGRESS, 2,
		 "At program exit the register R0 has smin=2 smax=2 should have been in [0, 1]"},
		{KFSIM_BPF_PROG_CGROUP_SKB_INGRESS, -1,
		 "At program exit the register R0 has smin=-1 smax=-1 should have been in [0, 1]"},
		{KFSIM_BPF_PROG_CGROUP_SKB_EGRESS, 3, NULL},
		{KFSIM_BPF_PROG_CGROUP_SKB_EGRESS, 4,
		 "At program exit the register R0 has smin=4 smax=4 should have been in [0, 3]"},
		{KFSIM_BPF_PROG_SCHED_CLS, -1, NULL}, /* tc's return value has no range */
		{KFSIM_BPF_PROG_SOCKET_FILTER, 7, NULL},
		{KFSIM_BPF_PROG_CGROUP_SOCK, 1, NULL},
		{KFSIM_BPF_PROG_CGROUP_SOCK, 2,
		 "At program exit the register R0 has smin=2 smax=2 should have been in [0, 1]"},
	};
	int step = 40; /* the child's exit status names the failing check */

	for (size_t i = 0; i < sizeof(rets) / sizeof(rets[0]); i++) {
		next_ret = rets[i].ret;
		if (run_as(rets[i].type, false, returns_next, rets[i].msg))
			return step + (int)i;
	}
	/* the leak is found first: check_return_code() runs after the resource checks */
	step = 60;
	if (run_as(KFSIM_BPF_PROG_CGROUP_SKB_INGRESS, false, leaks_and_returns_5,
		      "Unreleased reference"))
		return step;
	/* a socket filter may not name a section with a lock, by its lock or by its roots */
	step++;
	if (run_as(KFSIM_BPF_PROG_SOCKET_FILTER, false, lock_unlock,
		      "socket filter progs cannot use bpf_spin_lock yet"))
		return step;
	step++;
	if (run_as(KFSIM_BPF_PROG_SOCKET_FILTER, false, unlock_only,
		      "socket filter progs cannot use bpf_spin_lock yet"))
		return step;
	/* the lock's cache from an allowed run must not let the socket filter's lock through */
	step++;
	if (run_as(KFSIM_BPF_PROG_SCHED_CLS, false, push_under_lock, NULL))
		return step;
	step++;
	if (run_as(KFSIM_BPF_PROG_SOCKET_FILTER, false, lock_unlock,
		      "socket filter progs cannot use bpf_spin_lock yet"))
		return step;
	step++;
	if (run_as(KFSIM_BPF_PROG_CGROUP_SKB_INGRESS, false, push_under_lock, NULL))
		return step;
	/* an unlock checks its argument (the map's BTF) before whether a lock is held */
	step++;
	if (run_as(KFSIM_BPF_PROG_SCHED_CLS, true, unlock_only,
		      "has to have BTF in order to use bpf_spin_lock"))
		return step;
	step++;
	if (run_as(KFSIM_BPF_PROG_SCHED_CLS, false, unlock_only,
		      "bpf_spin_unlock without taking a lock"))
		return step;
	/* the types generic_kfunc_set is not registered for: common_kfunc_set's kfuncs only */
	step++;
	if (run_as(KFSIM_BPF_PROG_SK_SKB, false, new_drop,
		   "calling kernel function bpf_obj_new_impl is not allowed"))
		return step;
	step++;
	if (run_as(KFSIM_BPF_PROG_SOCKET_FILTER, false, new_drop,
		   "calling kernel function bpf_obj_new_impl is not allowed"))
		return step;
	step++;
	if (run_as(KFSIM_BPF_PROG_FLOW_DISSECTOR, false, rcu_preempt, NULL))
		return step;
	/* the next run's type has its own kfunc masks */
	step++;
	if (run_as(KFSIM_BPF_PROG_SCHED_CLS, false, new_drop, NULL))
		return step;
	step++;
	if (run_as(KFSIM_BPF_PROG_SK_MSG, false, new_drop,
		   "calling kernel function bpf_obj_new_impl is not allowed"))
		return step;
	step++;
	if (run_as(KFSIM_BPF_PROG_CGROUP_SOCK, false, new_drop, NULL))
		return step;
	return 0;
}

static void test_program_type_rules(void **state)
{
	run_child_how(V(6, 18), prog_type_cases, NULL, true);
}

/* ---- a NULL lock argument straight from a lookup is the lookup's unchecked result ---- */

static int lock_unchecked_lookup(void *ctx)
{
	kfsim_bpf_lookup_result(NULL); /* what kfsim-bpf-cc's runtime says after a NULL lookup */
	bpf_spin_lock(NULL);
	return 0;
}

static int lock_null_after_a_kfunc(void *ctx)
{
	kfsim_bpf_lookup_result(NULL);
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_spin_lock(NULL);
	return 0;
}

static int lock_null_after_a_helper(void *ctx)
{
	kfsim_bpf_lookup_result(NULL);
	kfsim_bpf_helper_enter("bpf_ktime_get_ns");
	bpf_spin_lock(NULL);
	return 0;
}

static int lock_null_after_a_found_value(void *ctx)
{
	kfsim_bpf_lookup_result(&g);
	bpf_spin_lock(NULL);
	return 0;
}

static void test_lock_of_unchecked_lookup(void **state)
{
	run_child(V(6, 18), lock_unchecked_lookup,
		  "R1 type=map_value_or_null expected=map_value, ptr_");
	run_child(V(6, 18), lock_null_after_a_kfunc, "R1 type=scalar expected=map_value, ptr_");
	run_child(V(6, 18), lock_null_after_a_helper, "R1 type=scalar expected=map_value, ptr_");
	run_child(V(6, 18), lock_null_after_a_found_value,
		  "R1 type=scalar expected=map_value, ptr_");
}

static void test_registry_has_no_deprecated_flag(void **state)
{
	const struct kfsim_bpf_kfunc *k = kfsim_bpf_kfunc_find("bpf_rbtree_add");
	char buf[64];

	assert_non_null(k);
	assert_int_equal(k->flags, 0);
	assert_int_equal(k->since, V(6, 3));
	assert_int_equal(k->until, V(6, 4));
	assert_string_equal(k->replacement, "bpf_rbtree_add_impl");
	/* 1 << 8 is KF_ITER_NEW from 6.4 on, never a "deprecated" flag */
	assert_string_equal(kfsim_bpf_kfunc_flags_str(1 << 8, buf, sizeof(buf)), "0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_of_dropped_object),
		cmocka_unit_test(test_lock_through_dead_reference),
		cmocka_unit_test(test_stale_pointer_is_not_the_next_object),
		cmocka_unit_test(test_node_as_lock),
		cmocka_unit_test(test_lock_of_invalid_record),
		cmocka_unit_test(test_root_not_declared),
		cmocka_unit_test(test_616_owning_in_remove_left_right),
		cmocka_unit_test(test_calls_under_lock),
		cmocka_unit_test(test_refcount_acquire_versions),
		cmocka_unit_test(test_abort_in_less_restores_node),
		cmocka_unit_test(test_messages),
		cmocka_unit_test(test_held_lock_message_two_lines),
		cmocka_unit_test(test_version_gates),
		cmocka_unit_test(test_registry_has_no_deprecated_flag),
		cmocka_unit_test(test_rcu_sections_do_not_nest),
		cmocka_unit_test(test_global_function_checked_alone),
		cmocka_unit_test(test_lock_of_unchecked_lookup),
		cmocka_unit_test(test_program_type_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
