// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the third differential round (docs/bpf-graph.md, "The third
 * round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  less() callbacks that write, walk, drop or touch globals;
 * bpf_kptr_xchg of non-owning, acquired and dropped references, under a lock or in an RCU
 * section; a lock in an inner map's value; a refcounted node in a list and a tree at once; the
 * 6.16 walkers on references that do not own.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct ritem {
	struct bpf_refcount ref;
	struct bpf_rb_node rb;
	struct bpf_list_node link;
	u64 key;
};

struct titem {
	struct bpf_rb_node rb;
	u64 key;
};

struct kslot {
	struct ritem __kptr *ritem;
	struct titem __kptr *titem;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct kslot);
	__uint(max_entries, 1);
} kslots SEC(".maps");

struct inner_v {
	struct bpf_spin_lock lock;
	u64 n;
};

struct inner_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct inner_v);
	__uint(max_entries, 1);
} inner SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, int);
	__array(values, struct inner_map);
} outer SEC(".maps") = {
	.values = { [0] = &inner },
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(R) struct bpf_spin_lock rlock;
private(R) struct bpf_rb_root rtree __contains(ritem, rb);
private(R) struct bpf_list_head rlist __contains(ritem, link);
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_rb_root ttree __contains(titem, rb);

int zero;
u64 seen;


static bool rless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct ritem, rb)->key < container_of(b, struct ritem, rb)->key;
}

static bool tless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct titem, rb)->key < container_of(b, struct titem, rb)->key;
}

static bool tless_writes(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct titem *x = container_of(a, struct titem, rb);

	x->key++;
	return x->key < container_of(b, struct titem, rb)->key;
}

static bool tless_first(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return bpf_rbtree_first(&ttree) != NULL;
}

static bool tless_drop(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bpf_obj_drop(container_of(a, struct titem, rb));
	return false;
}

static bool tless_global(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	seen++;
	return container_of(a, struct titem, rb)->key < container_of(b, struct titem, rb)->key;
}

static int add_two(bool (*less)(struct bpf_rb_node *, const struct bpf_rb_node *))
{
	struct titem *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_obj_new(typeof(*m));
	if (!m) {
		bpf_obj_drop(n);
		return 0;
	}
	n->key = 1;
	m->key = 2;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&ttree, &n->rb, less);
	bpf_rbtree_add(&ttree, &m->rb, less);
	bpf_spin_unlock(&tlock);
	return 1;
}

SEC("tc")
int less_writes_node(void *ctx)
{
	return add_two(tless_writes);
}

SEC("tc")
int less_calls_first(void *ctx)
{
	return add_two(tless_first);
}

SEC("tc")
int less_drops_node(void *ctx)
{
	return add_two(tless_drop);
}

SEC("tc")
int less_writes_global(void *ctx)
{
	return add_two(tless_global);
}

/* bpf_kptr_xchg with references that do not own */
SEC("tc")
int xchg_nonowning(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct titem *n, *old;

	if (!s)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&ttree, &n->rb, tless);
	bpf_spin_unlock(&tlock);
	old = bpf_kptr_xchg(&s->titem, n);
	if (old)
		bpf_obj_drop(old);
	return 0;
}

SEC("tc")
int xchg_under_lock(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct titem *n, *old;

	if (!s)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&tlock);
	old = bpf_kptr_xchg(&s->titem, n);
	bpf_spin_unlock(&tlock);
	if (old)
		bpf_obj_drop(old);
	return 0;
}

SEC("tc")
int xchg_refcounted_acquired(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct ritem *n, *m, *old;

	if (!s)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&rlock);
	bpf_rbtree_add(&rtree, &n->rb, rless);
	bpf_spin_unlock(&rlock);
	if (!m)
		return 1;
	old = bpf_kptr_xchg(&s->ritem, m);
	if (old)
		bpf_obj_drop(old);
	return 2;
}

SEC("tc")
int xchg_out_then_use_after_drop(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct titem *n, *old;

	if (!s)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	old = bpf_kptr_xchg(&s->titem, n);
	if (old)
		bpf_obj_drop(old);
	old = bpf_kptr_xchg(&s->titem, NULL);
	if (!old)
		return 3;
	bpf_obj_drop(old);
	return old->key;
}

SEC("tc")
int xchg_in_rcu(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct titem *n, *old;

	if (!s)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_rcu_read_lock();
	old = bpf_kptr_xchg(&s->titem, n);
	bpf_rcu_read_unlock();
	if (old)
		bpf_obj_drop(old);
	return 4;
}

SEC("tc")
int xchg_leaves_old(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct titem *n, *old;

	if (!s)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	old = bpf_kptr_xchg(&s->titem, n);
	n = bpf_obj_new(typeof(*n));
	if (!n) {
		if (old)
			bpf_obj_drop(old);
		return 0;
	}
	bpf_obj_drop(n);
	return 5;
}

/* an inner map's lock */
SEC("tc")
int inner_lock_balanced(void *ctx)
{
	int k = 0;
	void *im = bpf_map_lookup_elem(&outer, &k);
	struct inner_v *v;

	if (!im)
		return 0;
	v = bpf_map_lookup_elem(im, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->n++;
	bpf_spin_unlock(&v->lock);
	return 6;
}

SEC("tc")
int inner_lock_then_global(void *ctx)
{
	int k = 0;
	void *im = bpf_map_lookup_elem(&outer, &k);
	struct inner_v *v;

	if (!im)
		return 0;
	v = bpf_map_lookup_elem(im, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&tlock);
	return 0;
}

SEC("tc")
int inner_lock_guards_tree(void *ctx)
{
	int k = 0;
	void *im = bpf_map_lookup_elem(&outer, &k);
	struct inner_v *v;
	struct titem *n;

	if (!im)
		return 0;
	v = bpf_map_lookup_elem(im, &k);
	if (!v)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&ttree, &n->rb, tless);
	bpf_spin_unlock(&v->lock);
	return 0;
}

/* a refcounted node in a list and a tree, then taken out of both */
SEC("tc")
int both_then_remove_twice(void *ctx)
{
	struct ritem *n = bpf_obj_new(typeof(*n)), *m;
	struct bpf_rb_node *rb;
	struct bpf_list_node *l;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	if (!m) {
		bpf_obj_drop(n);
		return 0;
	}
	bpf_spin_lock(&rlock);
	bpf_rbtree_add(&rtree, &n->rb, rless);
	bpf_list_push_back(&rlist, &m->link);
	rb = bpf_rbtree_remove(&rtree, &m->rb);
	l = bpf_list_pop_front(&rlist);
	bpf_spin_unlock(&rlock);
	if (rb)
		bpf_obj_drop(container_of(rb, struct ritem, rb));
	if (l)
		bpf_obj_drop(container_of(l, struct ritem, link));
	return 7;
}

SEC("tc")
int acquire_nonown_in_lock(void *ctx)
{
	struct ritem *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	bpf_spin_lock(&rlock);
	bpf_rbtree_add(&rtree, &n->rb, rless);
	m = bpf_refcount_acquire(n);
	bpf_spin_unlock(&rlock);
	if (m)
		bpf_obj_drop(m);
	return 8;
}

SEC("tc")
int remove_nonown_twice(void *ctx)
{
	struct ritem *n = bpf_obj_new(typeof(*n));
	struct bpf_rb_node *a, *b;

	if (!n)
		return 0;
	bpf_spin_lock(&rlock);
	bpf_rbtree_add(&rtree, &n->rb, rless);
	a = bpf_rbtree_remove(&rtree, &n->rb);
	b = bpf_rbtree_remove(&rtree, &n->rb);
	bpf_spin_unlock(&rlock);
	if (a)
		bpf_obj_drop(container_of(a, struct ritem, rb));
	if (b)
		bpf_obj_drop(container_of(b, struct ritem, rb));
	return 9;
}

SEC("tc")
int list_front_then_remove_tree(void *ctx)
{
	struct ritem *n = bpf_obj_new(typeof(*n)), *m;
	struct bpf_list_node *l;
	struct bpf_rb_node *rb = NULL;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	if (!m) {
		bpf_obj_drop(n);
		return 0;
	}
	bpf_spin_lock(&rlock);
	bpf_list_push_back(&rlist, &n->link);
	bpf_rbtree_add(&rtree, &m->rb, rless);
	l = bpf_list_front(&rlist);
	if (l)
		rb = bpf_rbtree_remove(&rtree, &container_of(l, struct ritem, link)->rb);
	bpf_spin_unlock(&rlock);
	if (rb)
		bpf_obj_drop(container_of(rb, struct ritem, rb));
	return 10;
}

SEC("tc")
int tree_root_used_after_unlock(void *ctx)
{
	struct titem *n = bpf_obj_new(typeof(*n));
	struct bpf_rb_node *r;

	if (!n)
		return 0;
	n->key = 11;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&ttree, &n->rb, tless);
	r = bpf_rbtree_root(&ttree);
	bpf_spin_unlock(&tlock);
	if (!r)
		return 0;
	return container_of(r, struct titem, rb)->key;
}

SEC("tc")
int tree_left_of_owning(void *ctx)
{
	struct titem *n = bpf_obj_new(typeof(*n));
	struct bpf_rb_node *r;

	if (!n)
		return 0;
	bpf_spin_lock(&tlock);
	r = bpf_rbtree_left(&ttree, &n->rb);
	bpf_spin_unlock(&tlock);
	bpf_obj_drop(n);
	return r ? 1 : 12;
}

char _license[] SEC("license") = "GPL";
