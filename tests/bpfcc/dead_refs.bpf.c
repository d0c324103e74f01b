// SPDX-License-Identifier: MIT
/*
 * The verifier's first message where kfsim already had the verdict (issue #28, rule 8), each
 * checked against 6.12's source and the running 6.18:
 * - a reference that died (dropped, or non-owning past bpf_spin_unlock) is a scalar, and
 *   bpf_obj_drop() is a release kfunc, whose arguments must be trusted before anything else is
 *   looked at (check_kfunc_args()): "R1 must be referenced or trusted";
 * - the same when another variable owns the object (bpf_refcount_acquire() before the push):
 *   references belong to call results, not objects, so the pushed variable's died at the
 *   unlock while the other's lives on;
 * - bpf_refcount_acquire() of a pointer into the object (a node member) is refused by the
 *   offset check: "dereference of modified ptr_ ptr R1 off=N disallowed".
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct item {
	struct bpf_list_node link;
	u64 value;
};

struct shared {
	struct bpf_refcount ref;
	struct bpf_list_node link;
	u64 value;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(L) struct bpf_spin_lock lock;
private(L) struct bpf_list_head head __contains(item, link);
private(S) struct bpf_spin_lock slock;
private(S) struct bpf_list_head shead __contains(shared, link);

SEC("tc") __failure __msg("R1 must be referenced or trusted")
int drop_twice(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_obj_drop(n);
	bpf_obj_drop(n);
	return 0;
}

/* pushed: non-owning until the unlock, nothing after it */
SEC("tc") __failure __msg("R1 must be referenced or trusted")
int drop_after_unlock(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&lock);
	bpf_list_push_front(&head, &n->link);
	bpf_spin_unlock(&lock);
	bpf_obj_drop(n);
	return 0;
}

SEC("tc") __failure __msg("dereference of modified ptr_ ptr R1 off=8 disallowed")
int refcount_acquire_of_node(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = (struct shared *)bpf_refcount_acquire_impl(&n->link, NULL);
	if (m)
		bpf_obj_drop(m);
	bpf_obj_drop(n);
	return 0;
}

SEC("tc") __success __retval(0)
int refcount_acquire_of_start(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	if (m)
		bpf_obj_drop(m);
	bpf_obj_drop(n);
	return 0;
}

/* n died at the unlock; m, a reference of its own to the same object, did not */
SEC("tc") __failure __msg("R1 must be referenced or trusted")
int drop_dead_while_shared(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&slock);
	bpf_list_push_front(&shead, &n->link);
	bpf_spin_unlock(&slock);
	bpf_obj_drop(n);
	if (m) { /* taken for n's natively, this reference would be reported here instead */
		bpf_spin_lock(&slock);
		bpf_list_push_back(&shead, &m->link);
		bpf_spin_unlock(&slock);
	}
	return 0;
}

/* the living one may be dropped */
SEC("tc") __success __retval(0)
int drop_owner_while_shared(void *ctx)
{
	struct shared *n = bpf_obj_new(typeof(*n)), *m;

	if (!n)
		return 0;
	m = bpf_refcount_acquire(n);
	bpf_spin_lock(&slock);
	bpf_list_push_front(&shead, &n->link);
	bpf_spin_unlock(&slock);
	if (m)
		bpf_obj_drop(m);
	return 0;
}

char _license[] SEC("license") = "GPL";
