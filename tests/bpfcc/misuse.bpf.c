// SPDX-License-Identifier: MIT
/*
 * Misuse of the graph and kptr APIs the way a program nobody here wrote gets them wrong, each
 * judged by the running 6.18 kernel's verifier and natively by kfsim (tests/bpfcc/agree.sh):
 * one node in two collections, uses after a drop or an unlock, the lock a collection needs,
 * bpf_kptr_xchg of the wrong object, loops (can_loop, cond_break) that leak or lock, references
 * counted wrong, calls made with a lock held, NULL or non-per-CPU arguments.  The messages are
 * the running 6.18 kernel's.
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

struct shared {
	struct bpf_refcount ref;
	struct bpf_list_node link;
	struct bpf_rb_node rb;
	u64 key;
};

struct plain {
	u64 a;
	u64 b;
};

struct slot {
	struct item __kptr *item;
	struct plain __kptr *plain;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct slot);
	__uint(max_entries, 1);
} slots SEC(".maps");

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(L) struct bpf_spin_lock lock;
private(L) struct bpf_list_head head __contains(item, link);
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_rb_root tree __contains(titem, rb);
private(S) struct bpf_spin_lock slock;
private(S) struct bpf_list_head shead __contains(shared, link);
private(S) struct bpf_rb_root stree __contains(shared, rb);
private(O) struct bpf_spin_lock other_lock;

int zero;

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct titem, rb)->key < container_of(b, struct titem, rb)->key;
}

static bool sless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct shared, rb)->key < container_of(b, struct shared, rb)->key;
}

/* after the first push the node is a non-owning reference: no second collection */
SEC("tc") __failure __msg("arg#1 expected pointer to allocated object")
int list_then_tree(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&slock);
	bpf_list_push_front(&shead, &n->link);
	bpf_rbtree_add(&stree, &n->rb, sless);
	bpf_spin_unlock(&slock);
	return 0;
}

/* the same in the other order, and a list push of a node an rbtree holds */
SEC("tc") __failure __msg("arg#1 expected pointer to allocated object")
int tree_then_list(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&slock);
	bpf_rbtree_add(&stree, &n->rb, sless);
	bpf_list_push_back(&shead, &n->link);
	bpf_spin_unlock(&slock);
	return 0;
}

/* a dropped object is gone: no store through the old pointer */
SEC("tc") __failure __msg("invalid mem access 'scalar'")
int store_after_drop(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_obj_drop(n);
	n->key = 1;
	return 0;
}

/* a dropped object is no argument to a kfunc either */
SEC("tc") __failure __msg("arg#1 expected pointer to allocated object")
int push_after_drop(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_obj_drop(n);
	bpf_spin_lock(&lock);
	bpf_list_push_front(&head, &n->link);
	bpf_spin_unlock(&lock);
	return 0;
}

/* add and take back out under the tree's lock: accepted (and struct titem is in the BTF) */
SEC("tc") __success __retval(9)
int tree_add_remove(void *ctx)
{
	struct titem *n = bpf_obj_new(typeof(*n));
	struct bpf_rb_node *rb;
	int ret = 0;

	if (!n)
		return 0;
	n->key = 9;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&tree, &n->rb, less);
	rb = bpf_rbtree_first(&tree);
	if (rb)
		rb = bpf_rbtree_remove(&tree, rb);
	bpf_spin_unlock(&tlock);
	if (rb) {
		ret = container_of(rb, struct titem, rb)->key;
		bpf_obj_drop(container_of(rb, struct titem, rb));
	}
	return ret;
}

/* bpf_rbtree_remove needs the tree's lock */
SEC("tc") __failure __msg("bpf_spin_lock at off=0 must be held for bpf_rb_root")
int remove_without_lock(void *ctx)
{
	struct bpf_rb_node *rb;

	bpf_spin_lock(&tlock);
	rb = bpf_rbtree_first(&tree);
	bpf_spin_unlock(&tlock);
	if (!rb)
		return 0;
	rb = bpf_rbtree_remove(&tree, rb);
	if (rb)
		bpf_obj_drop(container_of(rb, struct titem, rb));
	return 0;
}

/* a lock, but another collection's */
SEC("tc") __failure __msg("bpf_spin_lock at off=0 must be held for bpf_list_head")
int push_under_wrong_lock(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&other_lock);
	bpf_list_push_front(&head, &n->link);
	bpf_spin_unlock(&other_lock);
	return 0;
}

/* the map's kptr field holds struct plain: an item is the wrong object */
SEC("tc") __failure __msg("invalid kptr access, R2 type=ptr_item expected=ptr_plain")
int xchg_wrong_type(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));
	struct slot *s;

	if (!n)
		return 0;
	s = bpf_map_lookup_elem(&slots, &zero);
	if (!s) {
		bpf_obj_drop(n);
		return 0;
	}
	n = bpf_kptr_xchg(&s->plain, n);
	if (n)
		bpf_obj_drop(n);
	return 0;
}

/* the right object into the same slot: accepted (and struct plain is defined in the BTF) */
SEC("tc") __success __retval(0)
int xchg_right_type(void *ctx)
{
	struct plain *p = bpf_obj_new(typeof(*p));
	struct slot *s;

	if (!p)
		return 0;
	s = bpf_map_lookup_elem(&slots, &zero);
	if (!s) {
		bpf_obj_drop(p);
		return 0;
	}
	p = bpf_kptr_xchg(&s->plain, p);
	if (p)
		bpf_obj_drop(p);
	return 0;
}

/* what bpf_kptr_xchg gives back is owned: dropping it is the program's job */
SEC("tc") __failure __msg("Unreleased reference id=")
int xchg_old_leaked(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));
	struct slot *s;

	if (!n)
		return 0;
	s = bpf_map_lookup_elem(&slots, &zero);
	if (!s) {
		bpf_obj_drop(n);
		return 0;
	}
	n = bpf_kptr_xchg(&s->item, n);
	return n ? 1 : 0;
}

/* stash and take back: accepted */
SEC("tc") __success __retval(5)
int xchg_round_trip(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));
	struct slot *s;
	int ret;

	if (!n)
		return 0;
	n->key = 5;
	s = bpf_map_lookup_elem(&slots, &zero);
	if (!s) {
		bpf_obj_drop(n);
		return 0;
	}
	n = bpf_kptr_xchg(&s->item, n);
	if (n)
		bpf_obj_drop(n);
	n = bpf_kptr_xchg(&s->item, NULL);
	if (!n)
		return 0;
	ret = n->key;
	bpf_obj_drop(n);
	return ret;
}

/*
 * An allocation per pass, and a break before the third one's push: that one leaks.  (A loop
 * that leaks on several passes is reported by kfsim with every leaked pass's reference, by the
 * verifier with those of the first path it follows to the exit: docs/bpf-graph.md.)
 */
SEC("tc") __failure __msg("Unreleased reference id=")
int loop_leaks_once(void *ctx)
{
	struct item *n;
	int i;

	for (i = 0; i < 4 && can_loop; i++) {
		n = bpf_obj_new(typeof(*n));
		if (!n)
			return 0;
		if (i == 2)
			break;
		bpf_spin_lock(&lock);
		bpf_list_push_back(&head, &n->link);
		bpf_spin_unlock(&lock);
	}
	return 0;
}

/* nested can_loop loops, every allocation pushed, then the list drained: accepted */
SEC("tc") __success __retval(6)
int nested_loops_fill_drain(void *ctx)
{
	struct bpf_list_node *l;
	struct item *n;
	int i, j, count = 0;

	for (i = zero; i < 2 && can_loop; i++) {
		for (j = zero; j < 3 && can_loop; j++) {
			n = bpf_obj_new(typeof(*n));
			if (!n)
				return 0;
			n->key = i * 3 + j;
			bpf_spin_lock(&lock);
			bpf_list_push_back(&head, &n->link);
			bpf_spin_unlock(&lock);
		}
	}
	while (can_loop) {
		bpf_spin_lock(&lock);
		l = bpf_list_pop_front(&head);
		bpf_spin_unlock(&lock);
		if (!l)
			break;
		bpf_obj_drop(container_of(l, struct item, link));
		count++;
	}
	return count;
}

/* the inner loop takes the lock and breaks out with it held */
SEC("tc") __failure __msg("bpf_spin_lock-ed region")
int loop_exits_locked(void *ctx)
{
	int i;

	for (i = zero; i < 4 && can_loop; i++) {
		bpf_spin_lock(&lock);
		if (i == 2)
			return 1;
		bpf_spin_unlock(&lock);
	}
	return 0;
}

/* cond_break inside the critical section: the lock is still held at the loop's end */
SEC("tc") __success __retval(0)
int cond_break_under_lock(void *ctx)
{
	struct bpf_list_node *l;
	struct item *n;
	int i = 0;

	bpf_spin_lock(&lock);
	while (i < 8) {
		l = bpf_list_pop_front(&head);
		if (!l)
			break;
		n = container_of(l, struct item, link);
		bpf_list_push_back(&head, &n->link);
		i++;
		cond_break;
	}
	bpf_spin_unlock(&lock);
	return 0;
}

/* bpf_refcount_acquire needs a struct bpf_refcount in the type */
SEC("tc") __failure __msg("arg#0 doesn't point to a type with bpf_refcount field")
int acquire_without_refcount(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	if (m)
		bpf_obj_drop(m);
	bpf_obj_drop(n);
	return 0;
}

/*
 * Two references, one drop: the other leaks.  The drop is of the newer reference; dropping n
 * instead is a known difference of the leak report's id= (docs/bpf-graph.md).
 */
SEC("tc") __failure __msg("Unreleased reference id=")
int acquire_dropped_once(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(m);
	return 0;
}

/* a shared node in a list and a tree at once, both taken back out: accepted */
SEC("tc") __success __retval(3)
int shared_in_both(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n)), *m;
	struct bpf_list_node *l;
	struct bpf_rb_node *rb;
	int ret = 0;

	if (!n)
		return 0;
	n->key = 3;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&slock);
	bpf_list_push_front(&shead, &n->link);
	if (m)
		bpf_rbtree_add(&stree, &m->rb, sless);
	bpf_spin_unlock(&slock);
	bpf_spin_lock(&slock);
	l = bpf_list_pop_front(&shead);
	rb = bpf_rbtree_first(&stree);
	if (rb)
		rb = bpf_rbtree_remove(&stree, rb);
	bpf_spin_unlock(&slock);
	if (l) {
		ret = container_of(l, struct shared, link)->key;
		bpf_obj_drop(container_of(l, struct shared, link));
	}
	if (rb)
		bpf_obj_drop(container_of(rb, struct shared, rb));
	return ret;
}

/* bpf_obj_drop is no graph kfunc: not with a lock held (6.18), whatever the reference */
SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int drop_under_lock(void *ctx)
{
	struct bpf_rb_node *rb;

	bpf_spin_lock(&tlock);
	rb = bpf_rbtree_first(&tree);
	if (rb)
		bpf_obj_drop(container_of(rb, struct titem, rb));
	bpf_spin_unlock(&tlock);
	return 0;
}

/* a helper call with a lock held */
SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int helper_under_lock(void *ctx)
{
	u64 t;

	bpf_spin_lock(&lock);
	t = bpf_ktime_get_ns();
	bpf_spin_unlock(&lock);
	return t == 0;
}

/* bpf_obj_new with a lock held */
SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int new_under_lock(void *ctx)
{
	struct item *n;

	bpf_spin_lock(&lock);
	n = bpf_obj_new(typeof(*n));
	if (n)
		bpf_list_push_front(&head, &n->link);
	bpf_spin_unlock(&lock);
	return 0;
}

/* unlocking a lock never taken */
SEC("tc") __failure __msg("bpf_spin_unlock without taking a lock")
int unlock_unlocked(void *ctx)
{
	bpf_spin_unlock(&lock);
	return 0;
}

/* two locks at once: the second bpf_spin_lock is a helper call with a lock held (6.18) */
SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int lock_two(void *ctx)
{
	bpf_spin_lock(&lock);
	bpf_spin_lock(&other_lock);
	bpf_spin_unlock(&other_lock);
	bpf_spin_unlock(&lock);
	return 0;
}

/* the popped node is owned: leaving without pushing or dropping it leaks */
SEC("tc") __failure __msg("Unreleased reference id=")
int pop_leaked(void *ctx)
{
	struct bpf_list_node *l;

	bpf_spin_lock(&lock);
	l = bpf_list_pop_back(&head);
	bpf_spin_unlock(&lock);
	return l ? 1 : 0;
}

/* bpf_refcount_acquire() of an owning reference cannot fail: no NULL check needed (6.18) */
SEC("tc") __success __retval(0)
int drop_unchecked_acquire(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_obj_drop(n);
	bpf_obj_drop(m);
	return 0;
}

/* an unchecked bpf_obj_new() result given to a drop: trusted arguments take no NULL */
SEC("tc") __failure __msg("Possibly NULL pointer passed to trusted arg0")
int drop_unchecked(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	bpf_obj_drop(n);
	return 0;
}

/* ... nor to bpf_refcount_acquire() (KF_RCU) */
SEC("tc") __failure __msg("Possibly NULL pointer passed to trusted arg0")
int acquire_unchecked(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n)), *m;

	m = bpf_refcount_acquire(n);
	if (m)
		bpf_obj_drop(m);
	if (n)
		bpf_obj_drop(n);
	return 0;
}

/* ... nor to a push, whose node is the object's first member here (6.18) */
SEC("tc") __failure __msg("Possibly NULL pointer passed to trusted arg1")
int push_unchecked(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	bpf_spin_lock(&lock);
	bpf_list_push_front(&head, &n->link);
	bpf_spin_unlock(&lock);
	return 0;
}

/* bpf_this_cpu_ptr() takes a per-CPU pointer: an object of bpf_obj_new() is none */
SEC("tc") __failure __msg("R1 type=ptr_ expected=percpu_ptr_, percpu_rcu_ptr_, percpu_trusted_ptr_")
int this_cpu_ptr_object(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_this_cpu_ptr(n);
	bpf_obj_drop(n);
	return 0;
}

/* ... nor is a map value */
SEC("tc") __failure __msg("R1 type=map_value expected=percpu_ptr_")
int per_cpu_ptr_map_value(void *ctx)
{
	struct slot *s = bpf_map_lookup_elem(&slots, &zero);

	if (!s)
		return 0;
	bpf_per_cpu_ptr(s, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
