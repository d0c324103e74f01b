// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fifth differential round (docs/bpf-graph.md, "The fifth
 * round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  may_goto nested: can_loop inside can_loop, cond_break in an
 * inner bounded loop, loops in a static subprogram called from a loop, a dispatch loop that moves
 * nodes between a list and a tree under one lock, loops that lock per pass, and a leak, a lock
 * left held or a double pop reached only on a later pass.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct lnode {
	struct bpf_rb_node rb;
	struct bpf_list_node link;
	struct bpf_refcount ref;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(N) struct bpf_spin_lock nlock;
private(N) struct bpf_rb_root ntree __contains(lnode, rb);
private(N) struct bpf_list_head nlist __contains(lnode, link);

int gz;

static bool nless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct lnode, rb)->key < container_of(b, struct lnode, rb)->key;
}

static int push_n(int n)
{
	int i, done = 0;

	for (i = 0; i < n && can_loop; i++) {
		struct lnode *x = bpf_obj_new(typeof(*x));

		if (!x)
			break;
		x->key = i;
		bpf_spin_lock(&nlock);
		bpf_list_push_back(&nlist, &x->link);
		bpf_spin_unlock(&nlock);
		done++;
	}
	return done;
}

SEC("tc")
int nest_count_grid(void *ctx)
{
	int i, j, s = 0;

	for (i = 0; i < 4 && can_loop; i++)
		for (j = 0; j < 3 && can_loop; j++)
			s++;
	return s;
}

SEC("tc")
int nest_cond_break_inner(void *ctx)
{
	int i, j, s = 0;

	for (i = 0; i < 3 && can_loop; i++) {
		for (j = 0; j < 5; j++) {
			cond_break;
			s += j;
		}
	}
	return s;
}

SEC("tc")
int nest_fill_then_drain(void *ctx)
{
	int n = push_n(3), got = 0;

	while (can_loop) {
		struct bpf_list_node *l;

		bpf_spin_lock(&nlock);
		l = bpf_list_pop_front(&nlist);
		bpf_spin_unlock(&nlock);
		if (!l)
			break;
		bpf_obj_drop(container_of(l, struct lnode, link));
		got++;
	}
	return n * 10 + got;
}

SEC("tc")
int nest_move_list_to_tree(void *ctx)
{
	int moved = 0;

	push_n(3);
	bpf_spin_lock(&nlock);
	while (can_loop) {
		struct bpf_list_node *l = bpf_list_pop_front(&nlist);
		struct lnode *x;

		if (!l)
			break;
		x = container_of(l, struct lnode, link);
		bpf_rbtree_add(&ntree, &x->rb, nless);
		moved++;
	}
	bpf_spin_unlock(&nlock);
	return moved;
}

SEC("tc")
int nest_inner_alloc_leak(void *ctx)
{
	int i, j;

	for (i = 0; i < 2 && can_loop; i++) {
		for (j = 0; j < 2 && can_loop; j++) {
			struct lnode *x = bpf_obj_new(typeof(*x));

			if (x && j == 1)
				continue;
			if (x)
				bpf_obj_drop(x);
		}
	}
	return 0;
}

SEC("tc")
int nest_lock_left_on_break(void *ctx)
{
	int i;

	for (i = 0; i < 4 && can_loop; i++) {
		bpf_spin_lock(&nlock);
		if (i == 2)
			break;
		bpf_spin_unlock(&nlock);
	}
	return i;
}

static __noinline int inner_sum(int n)
{
	int j, s = 0;

	for (j = 0; j < n && can_loop; j++)
		s += j;
	return s;
}

SEC("tc")
int nest_loop_in_static_callee(void *ctx)
{
	int i, s = 0;

	for (i = 0; i < 3 && can_loop; i++)
		s += inner_sum(i + 1);
	return s;
}

SEC("tc")
int nest_double_pop_same_pass(void *ctx)
{
	int i, got = 0;

	push_n(2);
	for (i = 0; i < 2 && can_loop; i++) {
		struct bpf_list_node *a, *b;

		bpf_spin_lock(&nlock);
		a = bpf_list_pop_front(&nlist);
		b = bpf_list_pop_back(&nlist);
		bpf_spin_unlock(&nlock);
		if (a) {
			bpf_obj_drop(container_of(a, struct lnode, link));
			got++;
		}
		if (b) {
			bpf_obj_drop(container_of(b, struct lnode, link));
			got++;
		}
	}
	return got;
}

SEC("tc")
int nest_acquire_in_loop(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));
	int i, added = 0;

	if (!n)
		return 0;
	for (i = 0; i < 3 && can_loop; i++) {
		struct lnode *m = bpf_refcount_acquire(n);

		if (!m)
			break;
		bpf_spin_lock(&nlock);
		if (bpf_list_push_front(&nlist, &m->link) == 0)
			added++;
		bpf_spin_unlock(&nlock);
	}
	bpf_obj_drop(n);
	return added;
}

SEC("tc")
int nest_first_remove_loop(void *ctx)
{
	struct lnode *a = bpf_obj_new(typeof(*a)), *b;
	int got = 0;

	if (!a)
		return 0;
	b = bpf_obj_new(typeof(*b));
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	a->key = 2;
	b->key = 1;
	bpf_spin_lock(&nlock);
	bpf_rbtree_add(&ntree, &a->rb, nless);
	bpf_rbtree_add(&ntree, &b->rb, nless);
	bpf_spin_unlock(&nlock);
	while (can_loop) {
		struct bpf_rb_node *r;

		bpf_spin_lock(&nlock);
		r = bpf_rbtree_first(&ntree);
		if (r)
			r = bpf_rbtree_remove(&ntree, r);
		bpf_spin_unlock(&nlock);
		if (!r)
			break;
		bpf_obj_drop(container_of(r, struct lnode, rb));
		got++;
	}
	return got;
}

SEC("tc")
int nest_use_after_drop_next_pass(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));
	int i;

	if (!n)
		return 0;
	for (i = 0; i < 2 && can_loop; i++) {
		n->key = i;
		if (i == 1)
			bpf_obj_drop(n);
	}
	return 0;
}

SEC("tc")
int nest_while_cond_break_lock(void *ctx)
{
	int s = 0;

	bpf_spin_lock(&nlock);
	while (s < 10) {
		cond_break;
		s++;
	}
	bpf_spin_unlock(&nlock);
	return s;
}

SEC("tc")
int nest_triple_depth(void *ctx)
{
	int i, j, k, s = 0;

	for (i = 0; i < 2 && can_loop; i++)
		for (j = 0; j < 2 && can_loop; j++)
			for (k = 0; k < 2 && can_loop; k++)
				s++;
	return s;
}

char _license[] SEC("license") = "GPL";
