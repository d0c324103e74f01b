// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fourth differential round (docs/bpf-graph.md, "The
 * fourth round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  Refcounted objects (bpf_refcount_acquire) in one tree and
 * one list at once: acquires of owning, non-owning and released references, second inserts of
 * one node, drops and leaks of either reference, offsets on owning references.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct both {
	struct bpf_rb_node rb;
	struct bpf_list_node ln;
	struct bpf_refcount ref;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock alock;
private(A) struct bpf_rb_root atree __contains(both, rb);
private(A) struct bpf_list_head alist __contains(both, ln);
private(B) struct bpf_spin_lock block;
private(B) struct bpf_list_head blist __contains(both, ln);

int zero;

static bool bless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct both, rb)->key < container_of(b, struct both, rb)->key;
}

SEC("tc")
int in_tree_and_list(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &n->rb, bless);
	bpf_list_push_back(&alist, &m->ln);
	bpf_spin_unlock(&alock);
	return 1;
}

SEC("tc")
int tree_twice(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;
	long r1, r2;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&alock);
	r1 = bpf_rbtree_add(&atree, &n->rb, bless);
	r2 = bpf_rbtree_add(&atree, &m->rb, bless);
	bpf_spin_unlock(&alock);
	return r1 * 10 + r2;
}

SEC("tc")
int list_twice(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;
	long r;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&alock);
	bpf_list_push_front(&alist, &n->ln);
	r = bpf_list_push_back(&alist, &m->ln);
	bpf_spin_unlock(&alock);
	return r;
}

SEC("tc")
int two_lists_two_locks(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&alock);
	bpf_list_push_front(&alist, &n->ln);
	bpf_spin_unlock(&alock);
	bpf_spin_lock(&block);
	bpf_list_push_front(&blist, &m->ln);
	bpf_spin_unlock(&block);
	return 2;
}

SEC("tc")
int acquire_non_owning_checked(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &n->rb, bless);
	m = bpf_refcount_acquire(n);
	bpf_spin_unlock(&alock);
	if (m)
		bpf_obj_drop(m);
	return 3;
}

SEC("tc")
int acquire_non_owning_unchecked(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &n->rb, bless);
	m = bpf_refcount_acquire(n);
	bpf_spin_unlock(&alock);
	bpf_obj_drop(m);
	return 3;
}

SEC("tc")
int acquire_non_owning_leaked(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &n->rb, bless);
	m = bpf_refcount_acquire(n);
	bpf_spin_unlock(&alock);
	if (m)
		return m->key;
	return 4;
}

SEC("tc")
int acquire_after_unlock(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &n->rb, bless);
	bpf_spin_unlock(&alock);
	m = bpf_refcount_acquire(n);
	if (m)
		bpf_obj_drop(m);
	return 5;
}

SEC("tc")
int acquire_of_dropped(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	bpf_obj_drop(n);
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(m);
	return 6;
}

SEC("tc")
int acquire_then_drop_both(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(m);
	bpf_obj_drop(n);
	return 7;
}

SEC("tc")
int acquire_drop_newer_twice(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(m);
	bpf_obj_drop(m);
	bpf_obj_drop(n);
	return 8;
}

SEC("tc")
int acquire_leak_newer(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(n);
	return m->key;
}

SEC("tc")
int acquire_read_after_drop(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(n);
	bpf_obj_drop(m);
	return m->key;
}

SEC("tc")
int acquire_chain_three(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m, *o;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	o = bpf_refcount_acquire(m);
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &n->rb, bless);
	bpf_list_push_back(&alist, &m->ln);
	bpf_spin_unlock(&alock);
	o->key = 9;
	bpf_obj_drop(o);
	return 9;
}

SEC("tc")
int acquire_write_after_insert(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &n->rb, bless);
	bpf_spin_unlock(&alock);
	m->key = 10;
	bpf_obj_drop(m);
	return 10;
}

SEC("tc")
int acquire_offset_drop(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(n);
	bpf_obj_drop((void *)m + 8);
	return 11;
}

SEC("tc")
int owning_incremented_add(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n = (void *)n + sizeof(u64);
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &n->rb, bless);
	bpf_spin_unlock(&alock);
	return 12;
}

SEC("tc")
int owning_back_and_forth(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n = (void *)n + 16;
	n = (void *)n - 16;
	bpf_obj_drop(n);
	return 13;
}

SEC("tc")
int list_node_as_tree_node(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, (struct bpf_rb_node *)&n->ln, bless);
	bpf_spin_unlock(&alock);
	return 14;
}

SEC("tc")
int tree_node_as_list_node(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&alock);
	bpf_list_push_back(&alist, (struct bpf_list_node *)&n->rb);
	bpf_spin_unlock(&alock);
	return 15;
}

SEC("tc")
int pop_then_acquire(void *ctx)
{
	struct bpf_list_node *l;
	struct both *n, *m;

	bpf_spin_lock(&alock);
	l = bpf_list_pop_front(&alist);
	bpf_spin_unlock(&alock);
	if (!l)
		return 16;
	n = container_of(l, struct both, ln);
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(n);
	bpf_obj_drop(m);
	return 17;
}

SEC("tc")
int remove_first_acquire_readd(void *ctx)
{
	struct bpf_rb_node *r;
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	bpf_spin_lock(&alock);
	bpf_rbtree_add(&atree, &n->rb, bless);
	r = bpf_rbtree_first(&atree);
	if (!r) {
		bpf_spin_unlock(&alock);
		return 18;
	}
	r = bpf_rbtree_remove(&atree, r);
	if (!r) {
		bpf_spin_unlock(&alock);
		return 19;
	}
	n = container_of(r, struct both, rb);
	m = bpf_refcount_acquire(n);
	bpf_rbtree_add(&atree, &n->rb, bless);
	bpf_spin_unlock(&alock);
	bpf_obj_drop(m);
	return 20;
}

SEC("tc")
int leak_on_lookup_branch(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(n);
	if (m->key == 0)
		return 21;
	bpf_obj_drop(m);
	return 22;
}

SEC("tc")
int release_in_both_branches(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	if (zero) {
		bpf_obj_drop(n);
		bpf_obj_drop(m);
	} else {
		bpf_obj_drop(m);
		bpf_obj_drop(n);
	}
	return 23;
}

SEC("tc")
int acquire_map_global(void *ctx)
{
	struct both *m = bpf_refcount_acquire((struct both *)&zero);

	if (m)
		bpf_obj_drop(m);
	return 24;
}

SEC("tc")
int acquire_under_two_locks(void *ctx)
{
	struct both *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	bpf_spin_lock(&alock);
	bpf_list_push_back(&alist, &n->ln);
	m = bpf_refcount_acquire(n);
	bpf_spin_unlock(&alock);
	if (!m)
		return 25;
	bpf_spin_lock(&block);
	bpf_list_push_back(&blist, &m->ln);
	bpf_spin_unlock(&block);
	return 26;
}

char _license[] SEC("license") = "GPL";
