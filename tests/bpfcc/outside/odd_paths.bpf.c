// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fourth differential round (docs/bpf-graph.md, "The
 * fourth round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  bpf_obj_new/bpf_obj_drop and the graph kfuncs in odd
 * paths: inserts after a drop, drops of non-owning references, roots of the wrong kind, a lock
 * taken twice, an owning pointer stored in a global or returned, references that live across a
 * second critical section, a lock and list inside an allocated object.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct onode {
	struct bpf_rb_node rb;
	u64 key;
};

struct lnode {
	struct bpf_list_node ln;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(O) struct bpf_spin_lock olock;
private(O) struct bpf_rb_root otree __contains(onode, rb);
private(O) struct bpf_list_head olist __contains(lnode, ln);

u64 stash_addr;
int zero;

static bool oless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct onode, rb)->key < container_of(b, struct onode, rb)->key;
}

SEC("tc")
int push_after_drop(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_obj_drop(n);
	bpf_spin_lock(&olock);
	bpf_list_push_back(&olist, &n->ln);
	bpf_spin_unlock(&olock);
	return 1;
}

SEC("tc")
int drop_after_add(void *ctx)
{
	struct onode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&olock);
	bpf_rbtree_add(&otree, &n->rb, oless);
	bpf_spin_unlock(&olock);
	bpf_obj_drop(n);
	return 2;
}

SEC("tc")
int drop_non_owning_in_lock(void *ctx)
{
	struct onode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&olock);
	bpf_rbtree_add(&otree, &n->rb, oless);
	bpf_obj_drop(n);
	bpf_spin_unlock(&olock);
	return 3;
}

SEC("tc")
int add_twice_same_var(void *ctx)
{
	struct onode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&olock);
	bpf_rbtree_add(&otree, &n->rb, oless);
	bpf_rbtree_add(&otree, &n->rb, oless);
	bpf_spin_unlock(&olock);
	return 4;
}

SEC("tc")
int pop_unchecked_push(void *ctx)
{
	struct bpf_list_node *l;

	bpf_spin_lock(&olock);
	l = bpf_list_pop_front(&olist);
	bpf_list_push_back(&olist, l);
	bpf_spin_unlock(&olock);
	return 5;
}

SEC("tc")
int pop_push_back(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));
	struct bpf_list_node *l;

	if (!n)
		return 0;
	bpf_spin_lock(&olock);
	bpf_list_push_front(&olist, &n->ln);
	l = bpf_list_pop_front(&olist);
	if (l)
		bpf_list_push_back(&olist, l);
	bpf_spin_unlock(&olock);
	return 6;
}

SEC("tc")
int remove_after_add(void *ctx)
{
	struct onode *n = bpf_obj_new(typeof(*n));
	struct bpf_rb_node *r;

	if (!n)
		return 0;
	bpf_spin_lock(&olock);
	bpf_rbtree_add(&otree, &n->rb, oless);
	r = bpf_rbtree_remove(&otree, &n->rb);
	bpf_spin_unlock(&olock);
	if (r)
		bpf_obj_drop(container_of(r, struct onode, rb));
	return 7;
}

SEC("tc")
int remove_twice(void *ctx)
{
	struct onode *n = bpf_obj_new(typeof(*n));
	struct bpf_rb_node *r1, *r2;

	if (!n)
		return 0;
	bpf_spin_lock(&olock);
	bpf_rbtree_add(&otree, &n->rb, oless);
	r1 = bpf_rbtree_remove(&otree, &n->rb);
	r2 = bpf_rbtree_remove(&otree, &n->rb);
	bpf_spin_unlock(&olock);
	if (r1)
		bpf_obj_drop(container_of(r1, struct onode, rb));
	if (r2)
		bpf_obj_drop(container_of(r2, struct onode, rb));
	return 8;
}

SEC("tc")
int first_used_after_remove(void *ctx)
{
	struct bpf_rb_node *f, *r;
	u64 k = 0;

	bpf_spin_lock(&olock);
	f = bpf_rbtree_first(&otree);
	if (!f) {
		bpf_spin_unlock(&olock);
		return 9;
	}
	r = bpf_rbtree_remove(&otree, f);
	k = container_of(f, struct onode, rb)->key;
	bpf_spin_unlock(&olock);
	if (r)
		bpf_obj_drop(container_of(r, struct onode, rb));
	return k;
}

SEC("tc")
int unchecked_new_write(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));

	n->key = 1;
	bpf_obj_drop(n);
	return 10;
}

SEC("tc")
int owning_into_global(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	stash_addr = (u64)n;
	bpf_obj_drop(n);
	return 11;
}

SEC("tc")
long owning_returned(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));

	return (long)n;
}

SEC("tc")
int lock_twice(void *ctx)
{
	bpf_spin_lock(&olock);
	bpf_spin_lock(&olock);
	bpf_spin_unlock(&olock);
	return 12;
}

SEC("tc")
int list_op_on_tree_root(void *ctx)
{
	struct bpf_list_node *l;

	bpf_spin_lock(&olock);
	l = bpf_list_pop_front((struct bpf_list_head *)&otree);
	bpf_spin_unlock(&olock);
	if (l)
		bpf_obj_drop(container_of(l, struct lnode, ln));
	return 13;
}

SEC("tc")
int tree_op_on_list_head(void *ctx)
{
	struct bpf_rb_node *r;

	bpf_spin_lock(&olock);
	r = bpf_rbtree_first((struct bpf_rb_root *)&olist);
	bpf_spin_unlock(&olock);
	return r ? 14 : 15;
}

SEC("tc")
int wrong_node_type_pushed(void *ctx)
{
	struct onode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&olock);
	bpf_list_push_back(&olist, (struct bpf_list_node *)&n->rb);
	bpf_spin_unlock(&olock);
	return 16;
}

SEC("tc")
int write_non_owning_in_lock(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&olock);
	bpf_list_push_back(&olist, &n->ln);
	n->key = 17;
	bpf_spin_unlock(&olock);
	return 17;
}

SEC("tc")
int non_owning_in_second_section(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));
	u64 k;

	if (!n)
		return 0;
	bpf_spin_lock(&olock);
	bpf_list_push_back(&olist, &n->ln);
	bpf_spin_unlock(&olock);
	bpf_spin_lock(&olock);
	k = n->key;
	bpf_spin_unlock(&olock);
	return 18 + k;
}

SEC("tc")
int front_then_pop_then_front_read(void *ctx)
{
	struct bpf_list_node *f, *l;
	u64 k = 0;

	bpf_spin_lock(&olock);
	f = bpf_list_front(&olist);
	l = bpf_list_pop_front(&olist);
	if (f)
		k = container_of(f, struct lnode, ln)->key;
	bpf_spin_unlock(&olock);
	if (l)
		bpf_obj_drop(container_of(l, struct lnode, ln));
	return 19 + k;
}

SEC("tc")
int drop_popped_node_member(void *ctx)
{
	struct bpf_list_node *l;

	bpf_spin_lock(&olock);
	l = bpf_list_pop_back(&olist);
	bpf_spin_unlock(&olock);
	if (l)
		bpf_obj_drop(l);
	return 20;
}

SEC("tc")
int new_drop_new_drop(void *ctx)
{
	struct lnode *a = bpf_obj_new(typeof(*a)), *b;

	if (!a)
		return 0;
	bpf_obj_drop(a);
	b = bpf_obj_new(typeof(*b));
	if (!b)
		return 0;
	b->key = 21;
	bpf_obj_drop(b);
	return 21;
}

SEC("tc")
int leak_on_null_of_second(void *ctx)
{
	struct lnode *a = bpf_obj_new(typeof(*a)), *b;

	if (!a)
		return 0;
	b = bpf_obj_new(typeof(*b));
	if (!b)
		return 0;
	bpf_obj_drop(b);
	bpf_obj_drop(a);
	return 22;
}

SEC("tc")
int compare_owning_refs(void *ctx)
{
	struct lnode *a = bpf_obj_new(typeof(*a)), *b;
	int same;

	if (!a)
		return 0;
	b = bpf_obj_new(typeof(*b));
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	same = a == b;
	bpf_obj_drop(a);
	bpf_obj_drop(b);
	return 23 + same;
}

SEC("tc")
int drop_in_tree_and_return_key(void *ctx)
{
	struct onode *n = bpf_obj_new(typeof(*n));
	u64 k;

	if (!n)
		return 0;
	n->key = 24;
	bpf_spin_lock(&olock);
	bpf_rbtree_add(&otree, &n->rb, oless);
	k = n->key;
	bpf_spin_unlock(&olock);
	return k;
}

SEC("tc")
int unlock_before_lock_in_branch(void *ctx)
{
	if (zero)
		bpf_spin_lock(&olock);
	bpf_spin_unlock(&olock);
	return 25;
}

char _license[] SEC("license") = "GPL";
