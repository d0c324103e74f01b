// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the third differential round (docs/bpf-graph.md, "The third
 * round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  RCU read-side sections (nesting, unmatched unlocks, exits
 * inside, beside the lock, preemption and irq regions), a lock and a list in an array or hash
 * value, __kptr fields read or written without bpf_kptr_xchg, and direct accesses to special
 * fields.  Some disagree with the kernel on purpose: what stays different is listed there.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct item {
	struct bpf_list_node link;
	u64 key;
};

struct ritem {
	struct bpf_refcount ref;
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

struct kslot {
	struct item __kptr *item;
	struct ritem __kptr *ritem;
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
private(R) struct bpf_spin_lock rlock;
private(R) struct bpf_rb_root rtree __contains(ritem, rb);

int zero;


static bool rless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct ritem, rb)->key < container_of(b, struct ritem, rb)->key;
}

SEC("tc")
int rcu_unlock_unmatched(void *ctx)
{
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc")
int rcu_exit_locked(void *ctx)
{
	bpf_rcu_read_lock();
	return 0;
}

SEC("tc")
int rcu_nested(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_rcu_read_unlock();
	return 3;
}

SEC("tc")
int rcu_nested_missing(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc")
int rcu_unlock_twice(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc")
int rcu_lock_under_spin(void *ctx)
{
	bpf_spin_lock(&glock);
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
int spin_under_rcu(void *ctx)
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

SEC("tc")
int rcu_unlock_under_spin(void *ctx)
{
	bpf_rcu_read_lock();
	bpf_spin_lock(&glock);
	bpf_rcu_read_unlock();
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
int rcu_helper_inside(void *ctx)
{
	int k = 0;
	struct boxv *v;

	bpf_rcu_read_lock();
	v = bpf_map_lookup_elem(&boxes, &k);
	if (v)
		v->n++;
	bpf_rcu_read_unlock();
	return 5;
}

static __noinline int rcu_take(void)
{
	bpf_rcu_read_lock();
	return zero;
}

SEC("tc")
int rcu_locked_in_subprog(void *ctx)
{
	rcu_take();
	return 0;
}

SEC("tc")
int rcu_balanced_by_subprog(void *ctx)
{
	rcu_take();
	bpf_rcu_read_unlock();
	return 6;
}

__noinline int rcu_global(int x)
{
	return x + 1;
}

SEC("tc")
int rcu_global_call(void *ctx)
{
	int r;

	bpf_rcu_read_lock();
	r = rcu_global(zero);
	bpf_rcu_read_unlock();
	return r;
}

SEC("tc")
int rcu_nonown_after_unlock(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_rcu_read_lock();
	bpf_spin_lock(&glock);
	bpf_list_push_back(&ghead, &n->link);
	bpf_spin_unlock(&glock);
	n->key = 3;
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc")
int rcu_refcount_nonown_after_unlock(void *ctx)
{
	struct ritem *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	bpf_rcu_read_lock();
	bpf_spin_lock(&rlock);
	bpf_rbtree_add(&rtree, &n->rb, rless);
	bpf_spin_unlock(&rlock);
	m = bpf_refcount_acquire(n);
	bpf_rcu_read_unlock();
	if (m)
		bpf_obj_drop(m);
	return 0;
}

SEC("tc")
int rcu_preempt_mix(void *ctx)
{
	bpf_preempt_disable();
	bpf_rcu_read_lock();
	bpf_preempt_enable();
	bpf_rcu_read_unlock();
	return 7;
}

SEC("tc")
int rcu_irq_exit(void *ctx)
{
	unsigned long f;

	bpf_rcu_read_lock();
	bpf_local_irq_save(&f);
	bpf_rcu_read_unlock();
	return 0;
}

/* graph roots in a map value */
SEC("tc")
int mv_push_own_lock(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);
	struct item *n;

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

SEC("tc")
int mv_push_global_lock(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);
	struct item *n;

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

SEC("tc")
int mv_push_global_head_mv_lock(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);
	struct item *n;

	if (!v)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_list_push_back(&ghead, &n->link);
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
int mv_pop_leak(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);
	struct bpf_list_node *l;

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	l = bpf_list_pop_front(&v->head);
	bpf_spin_unlock(&v->lock);
	return l ? 1 : 0;
}

SEC("tc")
int mv_pop_drop(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);
	struct bpf_list_node *l;

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	l = bpf_list_pop_front(&v->head);
	bpf_spin_unlock(&v->lock);
	if (l)
		bpf_obj_drop(container_of(l, struct item, link));
	return 9;
}

SEC("tc")
int mv_lock_twice(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_spin_lock(&glock);
	bpf_spin_unlock(&glock);
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
int mv_unlock_other(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
int mv_two_elems(void *ctx)
{
	int k0 = 0, k1 = 1;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k0);
	struct boxv *w = bpf_map_lookup_elem(&boxes, &k1);
	struct item *n;

	if (!v || !w)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_list_push_back(&w->head, &n->link);
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
int mv_hash_unchecked(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&hboxes, &k);

	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
int mv_drop_map_value(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);

	if (!v)
		return 0;
	bpf_obj_drop(v);
	return 0;
}

SEC("tc")
int mv_exit_locked(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	return 0;
}

SEC("tc")
int mv_helper_under_lock(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->n = bpf_ktime_get_ns();
	bpf_spin_unlock(&v->lock);
	return 0;
}

/* kptrs read without bpf_kptr_xchg */
SEC("tc")
int kptr_plain_load_drop(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct item *p;

	if (!s)
		return 0;
	p = s->item;
	if (p)
		bpf_obj_drop(p);
	return 0;
}

SEC("tc")
int kptr_plain_store(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct item *n;

	if (!s)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	s->item = n;
	return 0;
}

SEC("tc")
int kptr_refcounted_rcu_acquire(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct ritem *p, *m;

	if (!s)
		return 0;
	bpf_rcu_read_lock();
	p = s->ritem;
	if (!p) {
		bpf_rcu_read_unlock();
		return 10;
	}
	m = bpf_refcount_acquire(p);
	bpf_rcu_read_unlock();
	if (m)
		bpf_obj_drop(m);
	return 11;
}

SEC("tc")
int kptr_refcounted_acquire_no_rcu(void *ctx)
{
	int k = 0;
	struct kslot *s = bpf_map_lookup_elem(&kslots, &k);
	struct ritem *p, *m;

	if (!s)
		return 0;
	p = s->ritem;
	if (!p)
		return 12;
	m = bpf_refcount_acquire(p);
	if (m)
		bpf_obj_drop(m);
	return 13;
}

SEC("tc")
int refcount_field_write(void *ctx)
{
	struct ritem *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	*(u32 *)&n->ref = 5;
	bpf_obj_drop(n);
	return 0;
}

SEC("tc")
int refcount_field_read(void *ctx)
{
	struct ritem *n = bpf_obj_new(typeof(*n));
	u32 r;

	if (!n)
		return 0;
	r = *(u32 *)&n->ref;
	bpf_obj_drop(n);
	return r;
}

SEC("tc")
int mv_lock_field_read(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);

	if (!v)
		return 0;
	return *(u32 *)&v->lock;
}

SEC("tc")
int mv_head_field_write(void *ctx)
{
	int k = 0;
	struct boxv *v = bpf_map_lookup_elem(&boxes, &k);

	if (!v)
		return 0;
	*(u64 *)&v->head = 0;
	return 0;
}

char _license[] SEC("license") = "GPL";
