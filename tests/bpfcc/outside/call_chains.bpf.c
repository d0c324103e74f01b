// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fifth differential round (docs/bpf-graph.md, "The fifth
 * round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  References carried through chains of static subprograms
 * (two and three deep): the grandchild adds, drops, pops or locks; a callee returns a
 * non-owning result or an owning one it removed; a callee unlocks its caller's lock; global
 * functions that take scalars, a context, a map value or a nullable pointer and are called with
 * references held, under a lock or in an RCU section.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct cnode {
	struct bpf_rb_node rb;
	struct bpf_list_node link;
	struct bpf_refcount ref;
	u64 key;
};

struct cval {
	u64 hits;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct cval);
	__uint(max_entries, 1);
} carr SEC(".maps");

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(C) struct bpf_spin_lock clock_;
private(C) struct bpf_rb_root ctree __contains(cnode, rb);
private(C) struct bpf_list_head clist __contains(cnode, link);

int gsel;

static bool cless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct cnode, rb)->key < container_of(b, struct cnode, rb)->key;
}

static __noinline int gc_add(struct cnode *n)
{
	return bpf_rbtree_add(&ctree, &n->rb, cless);
}

static __noinline int child_add(struct cnode *n)
{
	return gc_add(n);
}

SEC("tc")
int chain2_add_under_lock(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n->key = 3;
	bpf_spin_lock(&clock_);
	child_add(n);
	bpf_spin_unlock(&clock_);
	return 1;
}

SEC("tc")
int chain2_add_no_lock(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	child_add(n);
	return 1;
}

SEC("tc")
int chain2_add_then_use(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n));
	u64 k;

	if (!n)
		return 0;
	bpf_spin_lock(&clock_);
	child_add(n);
	bpf_spin_unlock(&clock_);
	k = n->key;
	return k;
}

static __noinline int gc_drop(struct cnode *n)
{
	bpf_obj_drop(n);
	return 0;
}

static __noinline int child_drop(struct cnode *n)
{
	return gc_drop(n) + 1;
}

SEC("tc")
int chain2_drop(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	return child_drop(n);
}

SEC("tc")
int chain2_drop_then_add(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	child_drop(n);
	bpf_spin_lock(&clock_);
	bpf_rbtree_add(&ctree, &n->rb, cless);
	bpf_spin_unlock(&clock_);
	return 0;
}

static __noinline struct cnode *gc_pop(void)
{
	struct bpf_list_node *l = bpf_list_pop_front(&clist);

	return l ? container_of(l, struct cnode, link) : NULL;
}

static __noinline struct cnode *child_pop_locked(void)
{
	struct cnode *c;

	bpf_spin_lock(&clock_);
	c = gc_pop();
	bpf_spin_unlock(&clock_);
	return c;
}

SEC("tc")
int chain2_pop_returned(void *ctx)
{
	struct cnode *c = child_pop_locked();

	if (!c)
		return 1;
	bpf_obj_drop(c);
	return 2;
}

SEC("tc")
int chain2_pop_leaked(void *ctx)
{
	struct cnode *c = child_pop_locked();

	return c ? 2 : 1;
}

static __noinline struct bpf_rb_node *peek_first(void)
{
	return bpf_rbtree_first(&ctree);
}

SEC("tc")
int callee_returns_non_owning(void *ctx)
{
	struct bpf_rb_node *r;
	u64 k = 0;

	bpf_spin_lock(&clock_);
	r = peek_first();
	if (r)
		k = container_of(r, struct cnode, rb)->key;
	bpf_spin_unlock(&clock_);
	return k;
}

static __noinline struct cnode *remove_first(void)
{
	struct bpf_rb_node *r = bpf_rbtree_first(&ctree);

	if (!r)
		return NULL;
	r = bpf_rbtree_remove(&ctree, r);
	return r ? container_of(r, struct cnode, rb) : NULL;
}

SEC("tc")
int callee_returns_removed(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	n->key = 12;
	bpf_spin_lock(&clock_);
	bpf_rbtree_add(&ctree, &n->rb, cless);
	m = remove_first();
	bpf_spin_unlock(&clock_);
	if (!m)
		return 1;
	n = m;
	m = (void *)(long)n->key;
	bpf_obj_drop(n);
	return (long)m;
}

static __noinline int unlock_for_caller(void)
{
	bpf_spin_unlock(&clock_);
	return 0;
}

SEC("tc")
int callee_unlocks_callers_lock(void *ctx)
{
	bpf_spin_lock(&clock_);
	return unlock_for_caller();
}

static __noinline int lock_for_caller(void)
{
	bpf_spin_lock(&clock_);
	return 0;
}

SEC("tc")
int callee_locks_for_caller(void *ctx)
{
	lock_for_caller();
	bpf_spin_unlock(&clock_);
	return 0;
}

static __noinline int acquire_and_list(struct cnode *n)
{
	struct cnode *m = bpf_refcount_acquire(n);

	if (!m)
		return 0;
	bpf_spin_lock(&clock_);
	bpf_list_push_front(&clist, &m->link);
	bpf_spin_unlock(&clock_);
	return 1;
}

SEC("tc")
int callee_acquires_caller_adds(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n));
	int r;

	if (!n)
		return 0;
	r = acquire_and_list(n);
	bpf_spin_lock(&clock_);
	bpf_rbtree_add(&ctree, &n->rb, cless);
	bpf_spin_unlock(&clock_);
	return r + 1;
}

__noinline int g_scalar(int x)
{
	return x * 2;
}

SEC("tc")
int global_called_holding_ref(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n));
	int r;

	if (!n)
		return 0;
	r = g_scalar(3);
	bpf_obj_drop(n);
	return r;
}

SEC("tc")
int global_called_under_lock(void *ctx)
{
	int r;

	bpf_spin_lock(&clock_);
	r = g_scalar(4);
	bpf_spin_unlock(&clock_);
	return r;
}

SEC("tc")
int global_called_in_rcu(void *ctx)
{
	int r;

	bpf_rcu_read_lock();
	r = g_scalar(5);
	bpf_rcu_read_unlock();
	return r;
}

__noinline int g_value(struct cval *v)
{
	if (!v)
		return 0;
	return v->hits + 1;
}

SEC("tc")
int global_takes_map_value(void *ctx)
{
	int k = 0;
	struct cval *v = bpf_map_lookup_elem(&carr, &k);

	if (!v)
		return 0;
	v->hits = 6;
	return g_value(v);
}

SEC("tc")
int global_takes_null_value(void *ctx)
{
	return g_value(NULL);
}

__noinline int g_ctx(struct __sk_buff *skb)
{
	return skb ? skb->len > 0 : 0;
}

SEC("tc")
int global_takes_ctx(struct __sk_buff *skb)
{
	return g_ctx(skb);
}

__noinline int g_allocates_and_adds(int key)
{
	struct cnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n->key = key;
	bpf_spin_lock(&clock_);
	bpf_rbtree_add(&ctree, &n->rb, cless);
	bpf_spin_unlock(&clock_);
	return 1;
}

SEC("tc")
int global_allocates_for_caller(void *ctx)
{
	return g_allocates_and_adds(7) + g_allocates_and_adds(8);
}


static __noinline int two_deep(struct cnode *n)
{
	if (gsel) {
		bpf_obj_drop(n);
		return 0;
	}
	bpf_spin_lock(&clock_);
	bpf_list_push_back(&clist, &n->link);
	bpf_spin_unlock(&clock_);
	return 1;
}

static __noinline int one_deep(struct cnode *n)
{
	return two_deep(n) + 1;
}

SEC("tc")
int chain3_consumes_on_both_paths(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	return one_deep(n);
}

static __noinline int consume_half(struct cnode *n)
{
	if (gsel)
		return 0;
	bpf_obj_drop(n);
	return 1;
}

SEC("tc")
int callee_consumes_on_one_path(void *ctx)
{
	struct cnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	return consume_half(n);
}

char _license[] SEC("license") = "GPL";
