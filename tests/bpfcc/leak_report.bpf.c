// SPDX-License-Identifier: MIT
/*
 * Leak reports, natively under kfsim and in the running kernel (tests/bpfcc/leak_report.sh):
 * every reference still held at exit, in the order of the verifier's reference array, at the
 * instruction of its acquiring call; and what the exit says when the lock is still held.  Each
 * program leaks on the path the verifier explores first (every branch falls through to the
 * leak), so the kernel reports the same references a native run holds.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"

struct elem {
	long key;
	struct bpf_rb_node node;
	struct bpf_list_node link;
	struct bpf_refcount ref;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock glock;
private(A) struct bpf_rb_root groot __contains(elem, node);
private(A) struct bpf_list_head ghead __contains(elem, link);

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct elem, node)->key < container_of(b, struct elem, node)->key;
}

/* Two references held at exit: two lines, in acquisition order. */
SEC("tc")
int leak_two(void *ctx)
{
	struct elem *a, *b;

	a = bpf_obj_new(typeof(*a));
	if (!a)
		return 0;
	b = bpf_obj_new(typeof(*b));
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	a->key = 1;
	b->key = 2;
	return 1;
}

/* [a, b, c], a dropped: 6.14+ keep the order (b, c); up to 6.13 c would take a's slot. */
SEC("tc")
int leak_after_drop(void *ctx)
{
	struct elem *a, *b, *c;

	a = bpf_obj_new(typeof(*a));
	if (!a)
		return 0;
	b = bpf_obj_new(typeof(*b));
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	c = bpf_obj_new(typeof(*c));
	if (!c) {
		bpf_obj_drop(a);
		bpf_obj_drop(b);
		return 0;
	}
	bpf_obj_drop(a);
	return 2;
}

/*
 * A reference acquired in the less() callback and kept: the callback is a subprogram libbpf
 * appends after the main function (alloc_insn= counts from the program's start), and its
 * arguments are non-owning references to the verifier, so bpf_refcount_acquire may fail there
 * (two ids).  The verifier checks the callback at its BPF_EXIT for the references acquired in
 * it and rejects the program there; kfsim at the return of the first less() still holding one.
 */
static bool less_keeps(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct elem *ea = container_of(a, struct elem, node);
	struct elem *m;

	m = bpf_refcount_acquire(ea);
	if (!m)
		return false;
	return ea->key < container_of(b, struct elem, node)->key;
}

SEC("tc")
int leak_in_less(void *ctx)
{
	struct elem *a, *b;

	a = bpf_obj_new(typeof(*a));
	if (!a)
		return 0;
	b = bpf_obj_new(typeof(*b));
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &a->node, less_keeps);
	bpf_rbtree_add(&groot, &b->node, less_keeps);
	bpf_spin_unlock(&glock);
	return 4;
}

/*
 * Three inserts with that less(): the verifier checks the callback's body once and rejects at
 * its exit with that one reference; the later calls of less() (ids further on) print nothing.
 */
SEC("tc")
int leak_in_less3(void *ctx)
{
	struct elem *a, *b, *c;

	a = bpf_obj_new(typeof(*a));
	if (!a)
		return 0;
	b = bpf_obj_new(typeof(*b));
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	c = bpf_obj_new(typeof(*c));
	if (!c) {
		bpf_obj_drop(a);
		bpf_obj_drop(b);
		return 0;
	}
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &a->node, less_keeps);
	bpf_rbtree_add(&groot, &b->node, less_keeps);
	bpf_rbtree_add(&groot, &c->node, less_keeps);
	bpf_spin_unlock(&glock);
	return 4;
}

/*
 * The documented difference in ids: the random number lives across the kfunc call, so clang
 * copies it from r0 into a callee-saved register; the verifier gives that unknown scalar an id
 * at the copy (assign_scalar_id_before_mov(), 6.8+), which no native run executes.  The same
 * reference at the same instruction, its id one higher in the kernel.
 */
SEC("tc")
int leak_after_scalar_copy(void *ctx)
{
	__u32 r = bpf_get_prandom_u32();
	struct elem *a;

	a = bpf_obj_new(typeof(*a));
	if (!a)
		return r;
	a->key = r;
	return 0;
}

/* 6.14+: the exit names the held lock before any leak. */
SEC("tc")
int exit_locked(void *ctx)
{
	bpf_spin_lock(&glock);
	return 3;
}

/*
 * The reference bpf_rbtree_remove() makes is acquired at its call (kfsim notes the program's
 * return address before the fast/checked split): alloc_insn= is the remove's instruction.
 */
SEC("tc")
int leak_removed(void *ctx)
{
	struct bpf_rb_node *n;
	struct elem *a;

	a = bpf_obj_new(typeof(*a));
	if (!a)
		return 0;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &a->node, less);
	n = bpf_rbtree_first(&groot);
	if (!n) {
		bpf_spin_unlock(&glock);
		return 0;
	}
	n = bpf_rbtree_remove(&groot, n);
	bpf_spin_unlock(&glock);
	if (!n)
		return 0;
	return 5;
}

/* The same for bpf_list_pop_front(), whose body is shared with the other pops and peeks. */
SEC("tc")
int leak_popped(void *ctx)
{
	struct bpf_list_node *n;
	struct elem *a;

	a = bpf_obj_new(typeof(*a));
	if (!a)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_back(&ghead, &a->link);
	n = bpf_list_pop_front(&ghead);
	bpf_spin_unlock(&glock);
	if (!n)
		return 0;
	return 6;
}

/*
 * A leak inside an unrolled loop: clang emits one bpf_obj_new() call per iteration, all at one
 * source line, and the verifier names the copy that made the leaked object (the second), not the
 * first.  The native build may keep the loop, so kfsim tells the copies apart by how many times
 * the line's call had run before (bpfrt_main.c).
 */
SEC("tc")
int leak_unrolled(void *ctx)
{
	struct elem *n;
	int i;

#pragma unroll
	for (i = 0; i < 3; i++) {
		n = bpf_obj_new(typeof(*n));
		if (!n)
			return 0;
		n->key = i;
		if (i != 1)
			bpf_obj_drop(n);
	}
	return 7;
}

/* The same without the pragma: clang -O2 unrolls a loop of a constant count this small itself. */
SEC("tc")
int leak_unrolled_const(void *ctx)
{
	struct elem *n;
	int i;

	for (i = 0; i < 4; i++) {
		n = bpf_obj_new(typeof(*n));
		if (!n)
			return 0;
		n->key = i;
		if (i != 2)
			bpf_obj_drop(n);
	}
	return 8;
}

char _license[] SEC("license") = "GPL";
