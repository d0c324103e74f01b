// SPDX-License-Identifier: MIT
/*
 * Loads and stores past the end of a bpf_obj_new() object (issue #28, rule 4): the verifier
 * checks every access through an object pointer against its struct (btf_struct_walk(), 6.12
 * and the running 6.18) and refuses one that reaches past the end: "access beyond struct S at
 * off N size M".  A flexible array member has no room of its own (bpf_obj_new() allocates
 * sizeof(S)), so even its first element is past the end, whatever its elements are (the
 * verifier walks a flexible array only through pointers that are not allocated objects).
 * A native run writes those bytes unnoticed; kfsim-bpf-cc finds the access in the BPF object.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct samples {
	u64 nr;
	u64 data[];
};

struct cell {
	u32 lo;
	u32 hi;
};

struct cells {
	u32 hdr;
	struct cell c[];
};

struct queued {
	struct bpf_list_node link;
	u64 nr;
	u64 data[];
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(Q) struct bpf_spin_lock lock;
private(Q) struct bpf_list_head head __contains(queued, link);

SEC("tc") __failure __msg("access beyond struct samples at off 8 size 8")
int flex_first_element(void *ctx)
{
	struct samples *s = bpf_obj_new(typeof(*s));

	if (!s)
		return 0;
	s->data[0] = 1;
	bpf_obj_drop(s);
	return 0;
}

SEC("tc") __failure __msg("access beyond struct samples at off 24 size 8")
int flex_load_later_element(void *ctx)
{
	struct samples *s = bpf_obj_new(typeof(*s));
	u64 v;

	if (!s)
		return 0;
	v = s->data[2];
	bpf_obj_drop(s);
	return (int)v;
}

/* an array of structs is no exception for an allocated object (6.12's source, 6.18) */
SEC("tc") __failure __msg("access beyond struct cells at off 8 size 4")
int flex_struct_element(void *ctx)
{
	struct cells *p = bpf_obj_new(typeof(*p));

	if (!p)
		return 0;
	p->c[0].hi = 42;
	bpf_obj_drop(p);
	return 0;
}

/* the offset is carried by a pointer to the element (an add, then a move) */
SEC("tc") __failure __msg("access beyond struct samples at off 16 size 8")
int flex_through_spill(void *ctx)
{
	struct samples *s = bpf_obj_new(typeof(*s));
	u64 *slot;

	if (!s)
		return 0;
	slot = &s->data[1];
	barrier_var(slot);
	*(volatile u64 *)slot = bpf_get_prandom_u32();
	bpf_obj_drop(s);
	return 0;
}

/* the verifier meets the access before the leak at the exit */
SEC("tc") __failure __msg("access beyond struct samples at off 8 size 8")
int flex_then_leak(void *ctx)
{
	struct samples *s = bpf_obj_new(typeof(*s));

	if (!s)
		return 0;
	s->data[0] = 1;
	return 0;
}

/* an object a list gives back: its type comes from the head's __contains tag */
SEC("tc") __failure __msg("access beyond struct queued at off 32 size 8")
int flex_of_popped(void *ctx)
{
	struct queued *q = bpf_obj_new(typeof(*q));
	struct bpf_list_node *l;
	u64 v;

	if (!q)
		return 0;
	bpf_spin_lock(&lock);
	bpf_list_push_front(&head, &q->link);
	l = bpf_list_pop_front(&head);
	bpf_spin_unlock(&lock);
	if (!l)
		return 0;
	q = container_of(l, struct queued, link);
	v = q->data[0];
	bpf_obj_drop(q);
	return (int)v;
}

SEC("tc") __success __retval(3)
int inside_the_struct(void *ctx)
{
	struct samples *s = bpf_obj_new(typeof(*s));
	int ret;

	if (!s)
		return 0;
	s->nr = 3;
	ret = (int)s->nr;
	bpf_obj_drop(s);
	return ret;
}

char _license[] SEC("license") = "GPL";
