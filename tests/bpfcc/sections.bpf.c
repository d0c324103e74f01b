// SPDX-License-Identifier: MIT
/*
 * Who holds a section, checked against the running 6.18 kernel (tests/bpfcc/sections.sh, kfsim
 * in 6.18 rules; the messages are the running kernel's):
 * - RCU read-side sections (bpf_rcu_read_lock/unlock, 6.2): they do not nest, an unlock needs a
 *   lock, the main program may not exit inside one, they are kfuncs (not callable under a
 *   bpf_spin_lock) and hold a lock, helpers and the graph kfuncs inside;
 * - a lock and a list head in a map value, in an array, a hash and an inner map: the value's own
 *   lock guards its head, no other; a map value is no object to drop; a hash element deleted
 *   after its lookup is still a value the program may lock (the verifier does not follow
 *   deletes, and the memory goes back to the map); an unchecked lookup's result is
 *   map_value_or_null to the verifier (natively: NULL);
 * - a global function is checked on its own, after the main program: it starts with nothing
 *   open, and what it returns with open (a lock, an RCU section, preemption disabled) is not
 *   open in its caller: the caller's unlock is "without taking a lock", and the function's
 *   own exit is the error when the caller's code is right;
 * - three direct accesses to special fields, which a native run cannot see (plain C loads and
 *   stores): kfsim-bpf-cc finds them in the BPF object (the map value's types), as the kernel
 *   refuses them.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct item {
	struct bpf_list_node link;
	u64 key;
};

struct titem {
	struct bpf_rb_node rb;
	u64 key;
};

struct boxv {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(item, link);
	u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct boxv);
	__uint(max_entries, 2);
} boxes SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, int);
	__type(value, struct boxv);
	__uint(max_entries, 2);
} hboxes SEC(".maps");

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
	.values = {[0] = &inner},
};

struct kslot {
	struct item __kptr *item;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct kslot);
	__uint(max_entries, 1);
} kslots SEC(".maps");

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(L) struct bpf_spin_lock glock;
private(L) struct bpf_list_head ghead __contains(item, link);
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_rb_root ttree __contains(titem, rb);

int zero;

static bool tless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct titem, rb)->key < container_of(b, struct titem, rb)->key;
}

/* ---- RCU read-side sections ---- */

SEC("tc") __failure __msg("unmatched rcu read unlock (kernel function bpf_rcu_read_unlock)")
int rcu_unlock_unmatched(void *ctx)
{
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_rcu_read_lock-ed region")
int rcu_exit_inside(void *ctx)
{
	bpf_rcu_read_lock();
	return 0;
}

/* one "in an RCU section" state, not a count */
SEC("tc") __failure __msg("nested rcu read lock (kernel function bpf_rcu_read_lock)")
int rcu_nested(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc") __failure __msg("unmatched rcu read unlock (kernel function bpf_rcu_read_unlock)")
int rcu_unlock_twice(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int rcu_lock_under_spin_lock(void *ctx)
{
	bpf_spin_lock(&glock);
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc") __success __retval(4)
int spin_lock_inside_rcu(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_rcu_read_lock();
	bpf_spin_lock(&glock);
	bpf_list_push_back(&ghead, &n->link);
	bpf_spin_unlock(&glock);
	bpf_rcu_read_unlock();
	return 4;
}

SEC("tc") __success __retval(5)
int rcu_helper_inside(void *ctx)
{
	struct boxv *v;
	int k = 0;

	bpf_rcu_read_lock();
	v = bpf_map_lookup_elem(&boxes, &k);
	if (v)
		v->n++;
	bpf_rcu_read_unlock();
	return 5;
}

static __noinline int rcu_enter(void)
{
	bpf_rcu_read_lock();
	return zero;
}

/* a static function is checked in its caller's state: its section is the caller's */
SEC("tc") __success __retval(6)
int rcu_closed_after_static_call(void *ctx)
{
	rcu_enter();
	bpf_rcu_read_unlock();
	return 6;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_rcu_read_lock-ed region")
int rcu_left_open_by_static_call(void *ctx)
{
	rcu_enter();
	return 0;
}

SEC("tc") __success __retval(7)
int rcu_crosses_preempt_region(void *ctx)
{
	bpf_preempt_disable();
	bpf_rcu_read_lock();
	bpf_preempt_enable();
	bpf_rcu_read_unlock();
	return 7;
}

/* ---- a lock and a list in a map value ---- */

SEC("tc") __success __retval(8)
int value_push_under_own_lock(void *ctx)
{
	struct boxv *v;
	struct item *n;
	int k = 0;

	v = bpf_map_lookup_elem(&boxes, &k);
	if (!v)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_list_push_back(&v->head, &n->link);
	bpf_spin_unlock(&v->lock);
	return 8;
}

SEC("tc") __failure __msg("bpf_spin_lock at off=0 must be held for bpf_list_head")
int value_push_under_global_lock(void *ctx)
{
	struct boxv *v;
	struct item *n;
	int k = 0;

	v = bpf_map_lookup_elem(&boxes, &k);
	if (!v)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_back(&v->head, &n->link);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc") __success __retval(9)
int value_pop_and_drop(void *ctx)
{
	struct bpf_list_node *l;
	struct boxv *v;
	int k = 0;

	v = bpf_map_lookup_elem(&boxes, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	l = bpf_list_pop_front(&v->head);
	bpf_spin_unlock(&v->lock);
	if (l)
		bpf_obj_drop(container_of(l, struct item, link));
	return 9;
}

SEC("tc") __failure __msg("bpf_spin_unlock of different lock")
int value_lock_global_unlock(void *ctx)
{
	struct boxv *v;
	int k = 0;

	v = bpf_map_lookup_elem(&boxes, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_spin_lock-ed region")
int value_exit_locked(void *ctx)
{
	struct boxv *v;
	int k = 0;

	v = bpf_map_lookup_elem(&boxes, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	return 0;
}

SEC("tc") __failure __msg("R1 must be referenced or trusted")
int value_dropped(void *ctx)
{
	struct boxv *v;
	int k = 0;

	v = bpf_map_lookup_elem(&boxes, &k);
	if (!v)
		return 0;
	bpf_obj_drop(v);
	return 0;
}

/* a deleted hash element is still a map value to the program that looked it up (its memory
 * goes back to the map's free list): its lock may be taken */
SEC("tc") __success __retval(3)
int hash_value_locked_after_delete(void *ctx)
{
	struct boxv init = {}, *v;
	int k = 1;

	bpf_map_update_elem(&hboxes, &k, &init, BPF_NOEXIST);
	v = bpf_map_lookup_elem(&hboxes, &k);
	if (!v)
		return 0;
	bpf_map_delete_elem(&hboxes, &k);
	bpf_spin_lock(&v->lock);
	v->n = 3;
	bpf_spin_unlock(&v->lock);
	return v->n;
}

/* to the verifier the result is map_value_or_null until checked; natively it is NULL */
SEC("tc") __failure __msg("R1 type=map_value_or_null expected=map_value, ptr_")
int hash_value_locked_unchecked(void *ctx)
{
	struct boxv *v;
	int k = 2;

	v = bpf_map_lookup_elem(&hboxes, &k);
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc") __success __retval(10)
int inner_value_lock(void *ctx)
{
	struct inner_v *v;
	void *im;
	int k = 0;

	im = bpf_map_lookup_elem(&outer, &k);
	if (!im)
		return 0;
	v = bpf_map_lookup_elem(im, &k);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->n++;
	bpf_spin_unlock(&v->lock);
	return 10;
}

SEC("tc") __failure __msg("bpf_spin_lock at off={{[0-9]+}} must be held for bpf_rb_root")
int inner_value_lock_guards_no_tree(void *ctx)
{
	struct inner_v *v;
	struct titem *n;
	void *im;
	int k = 0;

	im = bpf_map_lookup_elem(&outer, &k);
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

/* ---- global functions: checked alone, after the main program ---- */

__noinline int g_lock(int x)
{
	bpf_spin_lock(&glock);
	return x;
}

__noinline int g_unlock(int x)
{
	bpf_spin_unlock(&glock);
	return x;
}

__noinline int g_rcu_lock(int x)
{
	bpf_rcu_read_lock();
	return x;
}

__noinline int g_rcu_unlock(int x)
{
	bpf_rcu_read_unlock();
	return x;
}

__noinline int g_rcu_balanced(int x)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return x + 1;
}

__noinline int g_preempt_off(int x)
{
	bpf_preempt_disable();
	return x;
}

__noinline int g_preempt_on(int x)
{
	bpf_preempt_enable();
	return x;
}

__noinline int g_calls_g_rcu_lock(int x)
{
	return g_rcu_lock(x) + 1;
}

/* the caller's unlock is the main program's error, met first */
SEC("tc") __failure __msg("bpf_spin_unlock without taking a lock")
int global_locks_caller_unlocks(void *ctx)
{
	g_lock(0);
	bpf_spin_unlock(&glock);
	return 0;
}

/* the main program is right; the function's exit is not */
SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_spin_lock-ed region")
int global_returns_locked(void *ctx)
{
	return g_lock(1);
}

/* to the caller the lock is free: taking it is no second lock (natively: no spinning on it) */
SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_spin_lock-ed region")
int global_locks_caller_relocks(void *ctx)
{
	g_lock(0);
	bpf_spin_lock(&glock);
	bpf_spin_unlock(&glock);
	return 2;
}

SEC("tc") __failure __msg("bpf_spin_lock at off=0 must be held for bpf_list_head")
int global_locks_caller_pushes(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	g_lock(0);
	bpf_list_push_back(&ghead, &n->link);
	return 0;
}

SEC("tc") __failure __msg("global function calls are not allowed while holding a lock")
int global_unlocks_callers_lock(void *ctx)
{
	bpf_spin_lock(&glock);
	g_unlock(0);
	return 0;
}

SEC("tc") __failure __msg("unmatched rcu read unlock (kernel function bpf_rcu_read_unlock)")
int global_rcu_open_caller_unlocks(void *ctx)
{
	g_rcu_lock(0);
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_rcu_read_lock-ed region")
int global_returns_in_rcu(void *ctx)
{
	return g_rcu_lock(3);
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_rcu_read_lock-ed region")
int global_calls_global_returning_in_rcu(void *ctx)
{
	return g_calls_g_rcu_lock(3);
}

SEC("tc") __failure __msg("unmatched rcu read unlock (kernel function bpf_rcu_read_unlock)")
int global_closes_callers_rcu(void *ctx)
{
	bpf_rcu_read_lock();
	g_rcu_unlock(0);
	bpf_rcu_read_unlock();
	return 0;
}

/* the function's section is its own: no nesting with the caller's */
SEC("tc") __success __retval(5)
int global_rcu_inside_callers_rcu(void *ctx)
{
	int r;

	bpf_rcu_read_lock();
	r = g_rcu_balanced(4);
	bpf_rcu_read_unlock();
	return r;
}

SEC("tc") __failure __msg("unmatched attempt to enable preemption (kernel function bpf_preempt_enable)")
int global_disables_caller_enables(void *ctx)
{
	g_preempt_off(0);
	bpf_preempt_enable();
	return 0;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_preempt_disable-ed region")
int global_returns_preempt_disabled(void *ctx)
{
	return g_preempt_off(6);
}

SEC("tc") __failure __msg("unmatched attempt to enable preemption (kernel function bpf_preempt_enable)")
int global_enables_callers_preempt(void *ctx)
{
	bpf_preempt_disable();
	g_preempt_on(0);
	bpf_preempt_enable();
	return 0;
}

/* the main program's leak is met before the function's open section */
SEC("tc") __failure __msg("Unreleased reference id=2 alloc_insn={{[0-9]+}}")
int global_rcu_open_caller_leaks(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	g_rcu_lock(0);
	return n ? 7 : 0;
}

/* ---- special fields accessed directly: plain C natively, found in the BPF object ---- */

SEC("tc") __failure __msg("bpf_spin_lock cannot be accessed directly by load/store")
int value_lock_read(void *ctx)
{
	struct boxv *v;
	int k = 0;

	v = bpf_map_lookup_elem(&boxes, &k);
	if (!v)
		return 0;
	return *(u32 *)&v->lock;
}

SEC("tc") __failure __msg("bpf_list_head cannot be accessed directly by load/store")
int value_head_write(void *ctx)
{
	struct boxv *v;
	int k = 0;

	v = bpf_map_lookup_elem(&boxes, &k);
	if (!v)
		return 0;
	*(u64 *)&v->head = 0;
	return 0;
}

SEC("tc") __failure __msg("store to referenced kptr disallowed")
int kptr_plain_store(void *ctx)
{
	struct kslot *s;
	struct item *n;
	int k = 0;

	s = bpf_map_lookup_elem(&kslots, &k);
	if (!s)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	s->item = n;
	return 0;
}

char _license[] SEC("license") = "GPL";
