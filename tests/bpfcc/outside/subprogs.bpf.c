// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the third differential round (docs/bpf-graph.md, "The third
 * round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  Owning references passed to, dropped in and returned from
 * static subprograms; global subprograms that lock, allocate, leak or open an RCU section;
 * can_loop loops that drain a list or open sections.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct titem {
	struct bpf_rb_node rb;
	u64 key;
};

struct litem {
	struct bpf_list_node link;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_rb_root ttree __contains(titem, rb);
private(L) struct bpf_spin_lock llock;
private(L) struct bpf_list_head lhead __contains(litem, link);

int zero;


static bool tless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct titem, rb)->key < container_of(b, struct titem, rb)->key;
}

static __noinline int drop_it(struct titem *n)
{
	bpf_obj_drop(n);
	return 1;
}

SEC("tc")
int callee_drops(void *ctx)
{
	struct titem *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	return drop_it(n);
}

SEC("tc")
int callee_drops_then_use(void *ctx)
{
	struct titem *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	drop_it(n);
	return n->key;
}

SEC("tc")
int callee_drops_twice(void *ctx)
{
	struct titem *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	drop_it(n);
	drop_it(n);
	return 0;
}

static __noinline struct titem *make_one(u64 key)
{
	struct titem *n = bpf_obj_new(typeof(*n));

	if (n)
		n->key = key;
	return n;
}

SEC("tc")
int callee_allocates(void *ctx)
{
	struct titem *n = make_one(5);

	if (!n)
		return 0;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&ttree, &n->rb, tless);
	bpf_spin_unlock(&tlock);
	return 2;
}

SEC("tc")
int callee_allocates_leak(void *ctx)
{
	struct titem *n = make_one(5);

	return n ? 1 : 0;
}

static __noinline int add_locked(struct titem *n)
{
	bpf_rbtree_add(&ttree, &n->rb, tless);
	return 0;
}

SEC("tc")
int callee_adds_under_callers_lock(void *ctx)
{
	struct titem *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&tlock);
	add_locked(n);
	bpf_spin_unlock(&tlock);
	return 3;
}

SEC("tc")
int callee_adds_without_lock(void *ctx)
{
	struct titem *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	add_locked(n);
	return 0;
}

__noinline int global_takes_node(struct titem *n)
{
	if (!n)
		return 0;
	return n->key;
}

SEC("tc")
int global_gets_owning(void *ctx)
{
	struct titem *n = bpf_obj_new(typeof(*n));
	int r;

	if (!n)
		return 0;
	r = global_takes_node(n);
	bpf_obj_drop(n);
	return r;
}

__noinline int global_locks(int x)
{
	bpf_spin_lock(&llock);
	bpf_spin_unlock(&llock);
	return x;
}

SEC("tc")
int global_lock_inside(void *ctx)
{
	return global_locks(4);
}

__noinline int global_leaves_locked(int x)
{
	bpf_spin_lock(&llock);
	return x;
}

SEC("tc")
int global_returns_locked(void *ctx)
{
	global_leaves_locked(0);
	bpf_spin_unlock(&llock);
	return 0;
}

__noinline int global_allocs(int x)
{
	struct litem *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n->key = x;
	bpf_spin_lock(&llock);
	bpf_list_push_back(&lhead, &n->link);
	bpf_spin_unlock(&llock);
	return 1;
}

SEC("tc")
int global_inserts(void *ctx)
{
	return global_allocs(5) + 4;
}

__noinline int global_leaks(int x)
{
	struct litem *n = bpf_obj_new(typeof(*n));

	return n ? x : 0;
}

SEC("tc")
int global_leak(void *ctx)
{
	return global_leaks(6);
}

__noinline int global_rcu_open(int x)
{
	bpf_rcu_read_lock();
	return x;
}

SEC("tc")
int global_rcu_unbalanced(void *ctx)
{
	global_rcu_open(0);
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc")
int drain_can_loop(void *ctx)
{
	struct bpf_list_node *l;
	struct litem *n;
	int i, got = 0;

	for (i = 0; i < 3; i++) {
		n = bpf_obj_new(typeof(*n));
		if (!n)
			return 0;
		bpf_spin_lock(&llock);
		bpf_list_push_back(&lhead, &n->link);
		bpf_spin_unlock(&llock);
	}
	while (can_loop) {
		bpf_spin_lock(&llock);
		l = bpf_list_pop_front(&lhead);
		bpf_spin_unlock(&llock);
		if (!l)
			break;
		bpf_obj_drop(container_of(l, struct litem, link));
		got++;
	}
	return got;
}

SEC("tc")
int drain_can_loop_leak_last(void *ctx)
{
	struct bpf_list_node *l = NULL, *prev = NULL;
	int got = 0;

	while (can_loop) {
		bpf_spin_lock(&llock);
		l = bpf_list_pop_front(&lhead);
		bpf_spin_unlock(&llock);
		if (!l)
			break;
		if (prev)
			bpf_obj_drop(container_of(prev, struct litem, link));
		prev = l;
		got++;
	}
	return got;
}

SEC("tc")
int can_loop_inside_rcu(void *ctx)
{
	int i = 0;

	bpf_rcu_read_lock();
	while (can_loop) {
		if (++i > zero + 5)
			break;
	}
	bpf_rcu_read_unlock();
	return i;
}

SEC("tc")
int can_loop_rcu_leaves_open(void *ctx)
{
	int i = 0;

	while (can_loop) {
		bpf_rcu_read_lock();
		if (++i > zero + 1)
			break;
		bpf_rcu_read_unlock();
	}
	return i;
}

char _license[] SEC("license") = "GPL";
