// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fourth differential round (docs/bpf-graph.md, "The
 * fourth round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  can_loop and cond_break loops that fill, drain and walk
 * a list or tree, take and drop the lock inside or around the loop, leave it taken on an early
 * exit, allocate or release per pass; locks held across static subprograms, and kfuncs and
 * helpers called under the lock.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct elem {
	struct bpf_list_node ln;
	u64 key;
};

struct telem {
	struct bpf_rb_node rb;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock alock;
private(A) struct bpf_list_head alist __contains(elem, ln);
private(A) struct bpf_rb_root atree __contains(telem, rb);
private(B) struct bpf_spin_lock block;
private(B) struct bpf_list_head blist __contains(elem, ln);

int zero;
int three = 3;

static bool eless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct telem, rb)->key < container_of(b, struct telem, rb)->key;
}

SEC("tc")
int fill_then_drain(void *ctx)
{
	struct bpf_list_node *l;
	int i = 0, n = 0;

	while (i < 5 && can_loop) {
		struct elem *e = bpf_obj_new(typeof(*e));

		i++;
		if (!e)
			continue;
		e->key = i;
		bpf_spin_lock(&alock);
		bpf_list_push_back(&alist, &e->ln);
		bpf_spin_unlock(&alock);
	}
	for (;;) {
		bpf_spin_lock(&alock);
		l = bpf_list_pop_front(&alist);
		bpf_spin_unlock(&alock);
		if (!l)
			break;
		bpf_obj_drop(container_of(l, struct elem, ln));
		n++;
		cond_break;
	}
	return n;
}

SEC("tc")
int lock_across_loop(void *ctx)
{
	struct bpf_list_node *l;
	int n = 0;

	bpf_spin_lock(&alock);
	while (can_loop) {
		l = bpf_list_front(&alist);
		if (!l)
			break;
		n++;
		if (n > 3)
			break;
	}
	bpf_spin_unlock(&alock);
	return n;
}

SEC("tc")
int pop_drop_under_lock_loop(void *ctx)
{
	struct bpf_list_node *l;
	int n = 0;

	bpf_spin_lock(&alock);
	while (can_loop) {
		l = bpf_list_pop_front(&alist);
		if (!l)
			break;
		bpf_obj_drop(container_of(l, struct elem, ln));
		n++;
	}
	bpf_spin_unlock(&alock);
	return n;
}

SEC("tc")
int new_under_lock(void *ctx)
{
	struct elem *e;

	bpf_spin_lock(&alock);
	e = bpf_obj_new(typeof(*e));
	if (e)
		bpf_list_push_back(&alist, &e->ln);
	bpf_spin_unlock(&alock);
	return 1;
}

SEC("tc")
int loop_early_return_locked(void *ctx)
{
	int i = 0;

	while (i < three && can_loop) {
		bpf_spin_lock(&alock);
		if (i == 1)
			return i;
		bpf_spin_unlock(&alock);
		i++;
	}
	return 2;
}

SEC("tc")
int loop_unlock_missing_last(void *ctx)
{
	int i;

	for (i = 0; i < 3; i++) {
		bpf_spin_lock(&alock);
		if (i < 2)
			bpf_spin_unlock(&alock);
		cond_break;
	}
	return 3;
}

SEC("tc")
int loop_leaks_each_pass(void *ctx)
{
	int i = 0;

	while (i < 2 && can_loop) {
		struct elem *e = bpf_obj_new(typeof(*e));

		if (e)
			e->key = i;
		i++;
	}
	return 4;
}

SEC("tc")
int loop_pops_without_lock(void *ctx)
{
	struct bpf_list_node *l;

	while (can_loop) {
		l = bpf_list_pop_front(&alist);
		if (!l)
			break;
		bpf_obj_drop(container_of(l, struct elem, ln));
	}
	return 5;
}

SEC("tc")
int loop_walks_tree(void *ctx)
{
	struct bpf_rb_node *r;
	struct telem *e = bpf_obj_new(typeof(*e));
	u64 sum = 0;

	if (!e)
		return 0;
	e->key = 6;
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &e->rb, eless);
	r = bpf_rbtree_first(&atree);
	while (r && can_loop) {
		sum += container_of(r, struct telem, rb)->key;
		r = bpf_rbtree_right(&atree, r);
	}
	bpf_spin_unlock(&alock);
	return sum ? 6 : 0;
}

SEC("tc")
int loop_swaps_lists(void *ctx)
{
	struct bpf_list_node *l;
	int n = 0;

	while (can_loop) {
		bpf_spin_lock(&alock);
		l = bpf_list_pop_front(&alist);
		bpf_spin_unlock(&alock);
		if (!l)
			break;
		bpf_spin_lock(&block);
		bpf_list_push_back(&blist, l);
		bpf_spin_unlock(&block);
		n++;
	}
	return 7 + n;
}

SEC("tc")
int loop_pushes_wrong_lock(void *ctx)
{
	int i = 0;

	while (i < 2 && can_loop) {
		struct elem *e = bpf_obj_new(typeof(*e));

		i++;
		if (!e)
			continue;
		bpf_spin_lock(&block);
		bpf_list_push_back(&alist, &e->ln);
		bpf_spin_unlock(&block);
	}
	return 8;
}

SEC("tc")
int loop_double_drop_second_pass(void *ctx)
{
	struct elem *e = bpf_obj_new(typeof(*e));
	int i = 0;

	if (!e)
		return 0;
	while (i < 2 && can_loop) {
		if (i == 1)
			bpf_obj_drop(e);
		i++;
	}
	bpf_obj_drop(e);
	return 9;
}

SEC("tc")
int loop_uses_dropped(void *ctx)
{
	struct elem *e = bpf_obj_new(typeof(*e));
	u64 s = 0;
	int i = 0;

	if (!e)
		return 0;
	bpf_obj_drop(e);
	while (i < 2 && can_loop) {
		s += e->key;
		i++;
	}
	return 10 + s;
}

static __noinline int push_locked(struct elem *e)
{
	bpf_spin_lock(&alock);
	bpf_list_push_back(&alist, &e->ln);
	bpf_spin_unlock(&alock);
	return 0;
}

static __noinline int count_locked(void)
{
	return bpf_list_front(&alist) ? 1 : 0;
}

static __noinline void lock_a(void)
{
	bpf_spin_lock(&alock);
}

static __noinline void unlock_a(void)
{
	bpf_spin_unlock(&alock);
}

SEC("tc")
int static_call_under_lock(void *ctx)
{
	int n;

	bpf_spin_lock(&alock);
	n = count_locked();
	bpf_spin_unlock(&alock);
	return 11 + n;
}

SEC("tc")
int static_call_locks_again(void *ctx)
{
	struct elem *e = bpf_obj_new(typeof(*e));

	if (!e)
		return 0;
	bpf_spin_lock(&alock);
	push_locked(e);
	bpf_spin_unlock(&alock);
	return 12;
}

SEC("tc")
int lock_in_one_unlock_in_other(void *ctx)
{
	struct elem *e = bpf_obj_new(typeof(*e));

	if (!e)
		return 0;
	lock_a();
	bpf_list_push_front(&alist, &e->ln);
	unlock_a();
	return 13;
}

SEC("tc")
int lock_in_callee_never_unlocked(void *ctx)
{
	lock_a();
	return 14;
}

SEC("tc")
int unlock_in_callee_only(void *ctx)
{
	unlock_a();
	return 15;
}

SEC("tc")
int helper_under_lock(void *ctx)
{
	u64 t;

	bpf_spin_lock(&alock);
	t = bpf_ktime_get_ns();
	bpf_spin_unlock(&alock);
	return t ? 16 : 0;
}

SEC("tc")
int rcu_lock_under_spin_lock(void *ctx)
{
	bpf_spin_lock(&alock);
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_spin_unlock(&alock);
	return 17;
}

SEC("tc")
int spin_lock_under_rcu(void *ctx)
{
	struct elem *e = bpf_obj_new(typeof(*e));

	if (!e)
		return 0;
	bpf_rcu_read_lock();
	bpf_spin_lock(&alock);
	bpf_list_push_back(&alist, &e->ln);
	bpf_spin_unlock(&alock);
	bpf_rcu_read_unlock();
	return 18;
}

SEC("tc")
int preempt_off_around_lock(void *ctx)
{
	struct elem *e = bpf_obj_new(typeof(*e));

	if (!e)
		return 0;
	bpf_preempt_disable();
	bpf_spin_lock(&alock);
	bpf_list_push_back(&alist, &e->ln);
	bpf_spin_unlock(&alock);
	bpf_preempt_enable();
	return 19;
}

SEC("tc")
int lock_then_preempt_disable(void *ctx)
{
	bpf_spin_lock(&alock);
	bpf_preempt_disable();
	bpf_preempt_enable();
	bpf_spin_unlock(&alock);
	return 20;
}

SEC("tc")
int drop_under_lock(void *ctx)
{
	struct elem *e = bpf_obj_new(typeof(*e));

	if (!e)
		return 0;
	bpf_spin_lock(&alock);
	bpf_obj_drop(e);
	bpf_spin_unlock(&alock);
	return 21;
}

SEC("tc")
int two_locks_nested(void *ctx)
{
	bpf_spin_lock(&alock);
	bpf_spin_lock(&block);
	bpf_spin_unlock(&block);
	bpf_spin_unlock(&alock);
	return 22;
}

SEC("tc")
int unlock_other_lock(void *ctx)
{
	bpf_spin_lock(&alock);
	bpf_spin_unlock(&block);
	return 23;
}

SEC("tc")
int unlock_twice(void *ctx)
{
	bpf_spin_lock(&alock);
	bpf_spin_unlock(&alock);
	bpf_spin_unlock(&alock);
	return 24;
}

SEC("tc")
int cond_break_counts(void *ctx)
{
	int i = 0;

	for (;;) {
		i++;
		if (i == 100)
			break;
		cond_break;
	}
	return i;
}

SEC("tc")
int can_loop_infinite(void *ctx)
{
	int i = 0;

	while (can_loop)
		i++;
	return i > 0;
}

SEC("tc")
int can_loop_nested(void *ctx)
{
	int i = 0, j, s = 0;

	while (i < 4 && can_loop) {
		j = 0;
		while (j < 4 && can_loop) {
			s++;
			j++;
		}
		i++;
	}
	return s;
}

SEC("tc")
int first_outside_loop_lock(void *ctx)
{
	struct bpf_rb_node *r = NULL;
	int i = 0;

	while (i < 2 && can_loop) {
		bpf_spin_lock(&alock);
		r = bpf_rbtree_first(&atree);
		bpf_spin_unlock(&alock);
		i++;
	}
	if (r)
		return container_of(r, struct telem, rb)->key;
	return 25;
}

char _license[] SEC("license") = "GPL";
