// SPDX-License-Identifier: MIT
/*
 * The exploring mode (tests/bpfcc/explore.sh): programs whose broken rule hides on a branch the
 * data of a native run never takes - an empty tree, an empty list, an allocation that does not
 * fail, a lookup that finds its element, an insert that succeeds - and one program that is right
 * on every branch and meets many decision points (the budget).  The annotations are what the
 * verifier says (checked against the running kernel with --kernel where the test can).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct elem {
	long key;
	struct bpf_rb_node node;
	struct bpf_list_node link;
	struct bpf_refcount ref;
};

struct val {
	struct bpf_spin_lock lock;
	long count;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct val);
	__uint(max_entries, 1);
} vals SEC(".maps");

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock glock;
private(A) struct bpf_rb_root groot __contains(elem, node);
private(A) struct bpf_list_head ghead __contains(elem, link);

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct elem, node)->key < container_of(b, struct elem, node)->key;
}

/* The tree is empty on every run: only a fabricated node reaches the remove after unlock. */
SEC("tc")
__failure __msg("non-owning")
int first_escapes_unlock(void *ctx)
{
	struct bpf_rb_node *res;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 1;
	}
	bpf_spin_unlock(&glock);
	bpf_spin_lock(&glock);
	res = bpf_rbtree_remove(&groot, res);
	bpf_spin_unlock(&glock);
	if (res)
		bpf_obj_drop(container_of(res, struct elem, node));
	return 0;
}

/* The list is empty on every run: the popped node that is kept exists only on the other branch. */
SEC("tc")
__failure __msg("Unreleased reference")
int pop_keeps_node(void *ctx)
{
	struct bpf_list_node *n;

	bpf_spin_lock(&glock);
	n = bpf_list_pop_front(&ghead);
	bpf_spin_unlock(&glock);
	if (!n)
		return 0;
	return 1;
}

/* bpf_obj_new() does not fail natively: its NULL is loaded from before anything else. */
SEC("tc")
__failure __msg("invalid mem access 'ptr_or_null_'")
int new_not_checked(void *ctx)
{
	struct elem *n = bpf_obj_new(typeof(*n));
	long key = n->key;

	bpf_obj_drop(n);
	return key;
}

/*
 * The element exists: the NULL branch, which leaves the lock held, runs only when explored.
 * The lookup comes before the lock: a helper call under it is refused first ("function calls
 * are not allowed while holding a lock").  The key is a global, not a constant on the stack:
 * from 6.14 the verifier knows a lookup with a stack constant inside an array is never NULL.
 */
private(K) int vals_key;

SEC("tc")
__failure __msg("bpf_spin_lock-ed region")
int lookup_null_keeps_lock(void *ctx)
{
	struct val *v;

	v = bpf_map_lookup_elem(&vals, &vals_key);
	bpf_spin_lock(&glock);
	if (!v)
		return 1;
	bpf_spin_unlock(&glock);
	return 0;
}

/* The insert succeeds natively; on its failure branch the node is dropped while not owned. */
SEC("tc")
__failure
int add_failure_drops(void *ctx)
{
	struct elem *n = bpf_obj_new(typeof(*n));
	long err;

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	err = bpf_rbtree_add(&groot, &n->node, less);
	bpf_spin_unlock(&glock);
	if (err)
		bpf_obj_drop(n);
	return 0;
}

/* A plain load through the dropped object: its pages are gone (kfsim_bpf_guard_dropped()). */
SEC("tc")
__failure __msg("invalid mem access 'scalar'")
int load_after_drop(void *ctx)
{
	struct elem *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n->key = 7;
	bpf_obj_drop(n);
	return n->key;
}

/* Right on every branch, with a decision point per step: the path budget is what stops it. */
SEC("tc")
__success __retval(0)
int many_decisions(void *ctx)
{
	for (int i = 0; i < 8; i++) {
		struct elem *n = bpf_obj_new(typeof(*n));
		struct bpf_rb_node *res;

		if (!n)
			return 0;
		n->key = i;
		bpf_spin_lock(&glock);
		bpf_rbtree_add(&groot, &n->node, less);
		res = bpf_rbtree_first(&groot);
		if (res)
			res = bpf_rbtree_remove(&groot, res);
		bpf_spin_unlock(&glock);
		if (res)
			bpf_obj_drop(container_of(res, struct elem, node));
	}
	return 0;
}

char _license[] SEC("license") = "GPL";
