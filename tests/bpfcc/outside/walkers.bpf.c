// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fifth differential round (docs/bpf-graph.md, "The fifth
 * round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  The 6.15/6.16 walkers as a scheduler developer would use
 * them: a binary search down bpf_rbtree_root/left/right, removal of what the walk found, the
 * list's bpf_list_front/back peeks, and each walker misused (no lock, the wrong lock, a NULL
 * result passed on, a result kept past the unlock, pushed or dropped).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct wnode {
	struct bpf_rb_node rb;
	u64 key;
	u64 val;
};

struct wlink {
	struct bpf_list_node link;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock alock;
private(A) struct bpf_rb_root atree __contains(wnode, rb);
private(B) struct bpf_spin_lock block;
private(B) struct bpf_rb_root btree __contains(wnode, rb);
private(Q) struct bpf_spin_lock qlock;
private(Q) struct bpf_list_head qhead __contains(wlink, link);
private(Q) struct bpf_list_head qhead2 __contains(wlink, link);

static bool wless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct wnode, rb)->key < container_of(b, struct wnode, rb)->key;
}

static int fill(u64 k1, u64 k2, u64 k3)
{
	struct wnode *a = bpf_obj_new(typeof(*a));
	struct wnode *b, *c;

	if (!a)
		return 1;
	b = bpf_obj_new(typeof(*b));
	if (!b) {
		bpf_obj_drop(a);
		return 1;
	}
	c = bpf_obj_new(typeof(*c));
	if (!c) {
		bpf_obj_drop(a);
		bpf_obj_drop(b);
		return 1;
	}
	a->key = k1;
	b->key = k2;
	c->key = k3;
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &a->rb, wless);
	bpf_rbtree_add(&atree, &b->rb, wless);
	bpf_rbtree_add(&atree, &c->rb, wless);
	bpf_spin_unlock(&alock);
	return 0;
}

SEC("tc")
int walk_search_found(void *ctx)
{
	struct bpf_rb_node *r;
	u64 want = 20, got = 0;

	if (fill(10, 20, 30))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	while (r && can_loop) {
		struct wnode *w = container_of(r, struct wnode, rb);

		if (w->key == want) {
			got = w->key;
			break;
		}
		r = want < w->key ? bpf_rbtree_left(&atree, r) : bpf_rbtree_right(&atree, r);
	}
	bpf_spin_unlock(&alock);
	return got;
}

SEC("tc")
int walk_search_remove(void *ctx)
{
	struct bpf_rb_node *r, *gone = NULL;
	u64 want = 30;

	if (fill(10, 20, 30))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	while (r && can_loop) {
		struct wnode *w = container_of(r, struct wnode, rb);

		if (w->key == want) {
			gone = bpf_rbtree_remove(&atree, r);
			break;
		}
		r = want < w->key ? bpf_rbtree_left(&atree, r) : bpf_rbtree_right(&atree, r);
	}
	bpf_spin_unlock(&alock);
	if (!gone)
		return 1;
	want = container_of(gone, struct wnode, rb)->key;
	bpf_obj_drop(container_of(gone, struct wnode, rb));
	return want;
}

SEC("tc")
int walk_search_remove_leak(void *ctx)
{
	struct bpf_rb_node *r, *gone = NULL;

	if (fill(10, 20, 30))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	if (r)
		gone = bpf_rbtree_remove(&atree, r);
	bpf_spin_unlock(&alock);
	return gone ? 2 : 1;
}

SEC("tc")
int walk_root_no_lock(void *ctx)
{
	struct bpf_rb_node *r;

	r = bpf_rbtree_root(&atree);
	return r ? 1 : 0;
}

SEC("tc")
int walk_left_wrong_lock(void *ctx)
{
	struct bpf_rb_node *r, *l = NULL;

	if (fill(10, 20, 30))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	bpf_spin_unlock(&alock);
	bpf_spin_lock(&block);
	if (r)
		l = bpf_rbtree_left(&atree, r);
	bpf_spin_unlock(&block);
	return l ? 1 : 0;
}

SEC("tc")
int walk_left_of_null(void *ctx)
{
	struct bpf_rb_node *r, *l;

	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	l = bpf_rbtree_left(&atree, r);
	bpf_spin_unlock(&alock);
	return l ? 1 : 0;
}

SEC("tc")
int walk_right_other_tree(void *ctx)
{
	struct bpf_rb_node *r, *x = NULL;

	if (fill(1, 2, 3))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	if (r)
		x = bpf_rbtree_right(&btree, r);
	bpf_spin_unlock(&alock);
	return x ? 1 : 0;
}

SEC("tc")
int walk_result_after_unlock(void *ctx)
{
	struct bpf_rb_node *r;

	if (fill(4, 5, 6))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	bpf_spin_unlock(&alock);
	if (!r)
		return 0;
	return container_of(r, struct wnode, rb)->key;
}

SEC("tc")
int walk_result_dropped(void *ctx)
{
	struct bpf_rb_node *r;

	if (fill(4, 5, 6))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	if (r)
		bpf_obj_drop(container_of(r, struct wnode, rb));
	bpf_spin_unlock(&alock);
	return 0;
}

SEC("tc")
int walk_result_readded(void *ctx)
{
	struct bpf_rb_node *r;

	if (fill(4, 5, 6))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	if (r)
		bpf_rbtree_add(&btree, r, wless);
	bpf_spin_unlock(&alock);
	return 0;
}

SEC("tc")
int walk_min_by_left(void *ctx)
{
	struct bpf_rb_node *r, *l;
	u64 min = 0;

	if (fill(7, 3, 9))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	while (r && can_loop) {
		min = container_of(r, struct wnode, rb)->key;
		l = bpf_rbtree_left(&atree, r);
		r = l;
	}
	bpf_spin_unlock(&alock);
	return min;
}

SEC("tc")
int walk_first_then_right(void *ctx)
{
	struct bpf_rb_node *f, *n;
	u64 sum = 0;

	if (fill(1, 2, 3))
		return 0;
	bpf_spin_lock(&alock);
	f = bpf_rbtree_first(&atree);
	if (f) {
		sum = container_of(f, struct wnode, rb)->key;
		n = bpf_rbtree_right(&atree, f);
		if (n)
			sum += container_of(n, struct wnode, rb)->key;
	}
	bpf_spin_unlock(&alock);
	return sum;
}

SEC("tc")
int walk_write_through_result(void *ctx)
{
	struct bpf_rb_node *r;

	if (fill(1, 2, 3))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	if (r)
		container_of(r, struct wnode, rb)->val = 77;
	bpf_spin_unlock(&alock);
	return 0;
}

SEC("tc")
int walk_remove_twice(void *ctx)
{
	struct bpf_rb_node *r, *a = NULL, *b = NULL;

	if (fill(1, 2, 3))
		return 0;
	bpf_spin_lock(&alock);
	r = bpf_rbtree_root(&atree);
	if (r) {
		a = bpf_rbtree_remove(&atree, r);
		b = bpf_rbtree_remove(&atree, r);
	}
	bpf_spin_unlock(&alock);
	if (a)
		bpf_obj_drop(container_of(a, struct wnode, rb));
	if (b)
		bpf_obj_drop(container_of(b, struct wnode, rb));
	return 0;
}

static int qfill(u64 k1, u64 k2)
{
	struct wlink *a = bpf_obj_new(typeof(*a));
	struct wlink *b;

	if (!a)
		return 1;
	b = bpf_obj_new(typeof(*b));
	if (!b) {
		bpf_obj_drop(a);
		return 1;
	}
	a->key = k1;
	b->key = k2;
	bpf_spin_lock(&qlock);
	bpf_list_push_back(&qhead, &a->link);
	bpf_list_push_back(&qhead, &b->link);
	bpf_spin_unlock(&qlock);
	return 0;
}

SEC("tc")
int peek_front_back(void *ctx)
{
	struct bpf_list_node *f, *b;
	u64 s = 0;

	if (qfill(11, 22))
		return 0;
	bpf_spin_lock(&qlock);
	f = bpf_list_front(&qhead);
	b = bpf_list_back(&qhead);
	if (f)
		s += container_of(f, struct wlink, link)->key;
	if (b)
		s += container_of(b, struct wlink, link)->key * 100;
	bpf_spin_unlock(&qlock);
	return s;
}

SEC("tc")
int peek_back_unchecked(void *ctx)
{
	struct bpf_list_node *b;
	u64 k;

	bpf_spin_lock(&qlock);
	b = bpf_list_back(&qhead2);
	k = container_of(b, struct wlink, link)->key;
	bpf_spin_unlock(&qlock);
	return k;
}

SEC("tc")
int peek_back_no_lock(void *ctx)
{
	struct bpf_list_node *b;

	b = bpf_list_back(&qhead);
	return b ? 1 : 0;
}

SEC("tc")
int peek_front_pushed_other(void *ctx)
{
	struct bpf_list_node *f;

	if (qfill(1, 2))
		return 0;
	bpf_spin_lock(&qlock);
	f = bpf_list_front(&qhead);
	if (f)
		bpf_list_push_back(&qhead2, f);
	bpf_spin_unlock(&qlock);
	return 0;
}

SEC("tc")
int peek_back_then_pop_back(void *ctx)
{
	struct bpf_list_node *b, *p;
	u64 k = 0;

	if (qfill(5, 6))
		return 0;
	bpf_spin_lock(&qlock);
	b = bpf_list_back(&qhead);
	if (b)
		k = container_of(b, struct wlink, link)->key;
	p = bpf_list_pop_back(&qhead);
	bpf_spin_unlock(&qlock);
	if (p)
		bpf_obj_drop(container_of(p, struct wlink, link));
	return k;
}

SEC("tc")
int peek_front_dropped(void *ctx)
{
	struct bpf_list_node *f;

	if (qfill(5, 6))
		return 0;
	bpf_spin_lock(&qlock);
	f = bpf_list_front(&qhead);
	if (f)
		bpf_obj_drop(container_of(f, struct wlink, link));
	bpf_spin_unlock(&qlock);
	return 0;
}

SEC("tc")
int peek_front_key_after_pop(void *ctx)
{
	struct bpf_list_node *f, *p;
	u64 k = 0;

	if (qfill(8, 9))
		return 0;
	bpf_spin_lock(&qlock);
	f = bpf_list_front(&qhead);
	p = bpf_list_pop_front(&qhead);
	if (f)
		k = container_of(f, struct wlink, link)->key;
	bpf_spin_unlock(&qlock);
	if (p)
		bpf_obj_drop(container_of(p, struct wlink, link));
	return k;
}

char _license[] SEC("license") = "GPL";
