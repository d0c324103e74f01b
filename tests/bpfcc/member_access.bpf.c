// SPDX-License-Identifier: MIT
/*
 * Loads and stores inside a bpf_obj_new() object that the verifier still refuses: it walks the
 * struct member by member (btf_struct_walk(), 6.12's and the running 6.18's kernel/bpf/btf.c)
 * and an access must stay within the member it starts in (the end of an array of scalars is the
 * limit, so an array is scratch space), must not start in a hole between members, and must read
 * or write a pointer member whole.  The common way to meet the first rule without writing a cast:
 * clang joins two stores of adjacent u16 members into one u32 store, as a flow table's key copy
 * does (a program from outside, on 2026-12-07: kfsim accepted it, the kernel did not).  A native
 * run writes those bytes unnoticed; kfsim-bpf-cc finds the access in the BPF object.  So is an
 * index that is data (loaded from the context, a global or the object): the offset is variable.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct ports {
	u32 addr;
	u16 sport;
	u16 dport;
};

struct entry {
	struct bpf_rb_node rb;
	struct ports key;
	u64 hits;
	char name[16];
};

struct holes {
	u8 kind;
	/* 7 bytes of padding */
	u64 value;
};

struct with_ptr {
	u64 *cursor;
	u64 count;
};

struct overlay {
	union {
		struct {
			u16 lo;
			u16 hi;
		};
		u32 word;
	};
	u32 pad;
};

struct table {
	struct bpf_rb_node rb;
	u64 key;
	u64 slots[4];
};

/* data: the verifier knows nothing of its value; .rodata: frozen, so it knows the constant */
u32 chosen_slot, other_slot;
const volatile u32 fixed_slot = 2;

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(T) struct bpf_spin_lock lock;
private(T) struct bpf_rb_root tree __contains(entry, rb);

private(T) struct bpf_rb_root tables __contains(table, rb);

static bool table_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct table, rb)->key < container_of(b, struct table, rb)->key;
}

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct entry, rb)->hits < container_of(b, struct entry, rb)->hits;
}

/* a u32 store over two u16 members of a nested struct: the message names the inner struct */
SEC("tc") __failure __msg("access beyond the end of member sport (mend:6) in struct ports with off 4 size 4")
int wide_store_nested(void *ctx)
{
	struct entry *e = bpf_obj_new(typeof(*e));

	if (!e)
		return 0;
	*(u32 *)&e->key.sport = 0x01000200;
	bpf_obj_drop(e);
	return 0;
}

/* the same as a load, into an object's own scalar member */
SEC("tc") __failure __msg("access beyond the end of member kind (mend:1) in struct holes with off 0 size 2")
int wide_load_scalar(void *ctx)
{
	struct holes *h = bpf_obj_new(typeof(*h));
	u16 v;

	if (!h)
		return 0;
	v = *(volatile u16 *)&h->kind;
	bpf_obj_drop(h);
	return v;
}

/* a byte of the padding after @kind */
SEC("tc") __failure __msg("struct holes doesn't have field at offset 3")
int load_in_hole(void *ctx)
{
	struct holes *h = bpf_obj_new(typeof(*h));
	u8 v;

	if (!h)
		return 0;
	v = *((volatile u8 *)h + 3);
	bpf_obj_drop(h);
	return v;
}

/* half of a pointer member */
SEC("tc") __failure __msg("cannot access ptr member cursor with moff 0 in struct with_ptr with off 0 size 4")
int half_pointer(void *ctx)
{
	struct with_ptr *w = bpf_obj_new(typeof(*w));
	u32 v;

	if (!w)
		return 0;
	v = *(volatile u32 *)&w->cursor;
	bpf_obj_drop(w);
	return v;
}

/* an array of chars is scratch space: eight bytes at once stay within the array's end */
SEC("tc") __success __retval(0)
int wide_store_in_array(void *ctx)
{
	struct entry *e = bpf_obj_new(typeof(*e));

	if (!e)
		return 0;
	*(u64 *)&e->name[8] = 0;
	bpf_obj_drop(e);
	return 0;
}

/* a u64 over a nested struct's three members: the first one's end is the limit */
SEC("tc") __failure __msg("access beyond the end of member addr (mend:4) in struct ports with off 0 size 8")
int wide_load_across_members(void *ctx)
{
	struct entry *e = bpf_obj_new(typeof(*e));
	u64 v;

	if (!e)
		return 0;
	v = *(volatile u64 *)&e->key.addr;
	bpf_obj_drop(e);
	return (int)v;
}

/* a union of two members makes the walk untrusted: a u32 over two u16 members passes */
SEC("tc") __success __retval(0)
int wide_store_in_union(void *ctx)
{
	struct overlay *o = bpf_obj_new(typeof(*o));

	if (!o)
		return 0;
	*(volatile u32 *)&o->lo = 7;
	bpf_obj_drop(o);
	return 0;
}

/* through a non-owning reference, the tree's first node, under the lock */
SEC("tc") __failure __msg("access beyond the end of member sport (mend:6) in struct ports with off 4 size 4")
int wide_load_non_owning(void *ctx)
{
	struct entry *e = bpf_obj_new(typeof(*e));
	struct bpf_rb_node *first;
	u32 v = 0;

	if (!e)
		return 0;
	bpf_spin_lock(&lock);
	bpf_rbtree_add(&tree, &e->rb, less);
	first = bpf_rbtree_first(&tree);
	if (first)
		v = *(volatile u32 *)&container_of(first, struct entry, rb)->key.sport;
	bpf_spin_unlock(&lock);
	return v;
}

/*
 * An index that is data makes the object pointer's offset variable, which no access through it
 * may have (check_ptr_to_btf_access(): the tnum of the variable part is printed, here the index
 * masked to 0..3 times 8).  A native run writes the slot the index names.
 */
SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x18)")
int index_from_context(struct __sk_buff *skb)
{
	struct table *t = bpf_obj_new(typeof(*t));

	if (!t)
		return 0;
	t->slots[skb->len & 3] = 1;
	bpf_obj_drop(t);
	return 0;
}

SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x18)")
int index_from_global(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));
	u64 v;

	if (!t)
		return 0;
	v = t->slots[chosen_slot % 4];
	bpf_obj_drop(t);
	return (int)v;
}

/* the object's own member is data as well */
SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x8)")
int index_from_member(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));

	if (!t)
		return 0;
	t->slots[t->key & 1] = 5;
	bpf_obj_drop(t);
	return 0;
}

/* a bounds check narrows the tnum (reg_bounds_sync()): below 4, then times 8 */
SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x18)")
int index_bounds_checked(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));
	u32 i = chosen_slot;

	if (!t)
		return 0;
	if (i >= 4) {
		bpf_obj_drop(t);
		return 0;
	}
	t->slots[i] = 1;
	bpf_obj_drop(t);
	return 0;
}

/* a signed index: clang sign-extends it with two shifts, the bound before them */
SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x18)")
int index_signed(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));
	int i = (int)chosen_slot;

	if (!t)
		return 0;
	if (i >= 0 && i < 4)
		t->slots[i] = 1;
	bpf_obj_drop(t);
	return 0;
}

/* a constant added to the index goes to the fixed offset */
SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=48, var_off=(0x0; 0x10)")
int index_plus_constant(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));

	if (!t)
		return 0;
	t->slots[(chosen_slot & 2) + 1] = 1;
	bpf_obj_drop(t);
	return 0;
}

/* a helper's number is data too (RET_INTEGER: all 64 bits unknown) */
SEC("tc") __failure __msg("R1 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x18)")
int index_from_helper(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));

	if (!t)
		return 0;
	t->slots[bpf_get_prandom_u32() % 4] = 1;
	bpf_obj_drop(t);
	return 0;
}

/* and so is an insert's result, 0 or -EINVAL */
SEC("tc") __failure __msg("R1 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x8)")
int index_from_insert(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t)), *u;
	long err;

	if (!t)
		return 0;
	u = bpf_obj_new(typeof(*u));
	if (!u) {
		bpf_obj_drop(t);
		return 0;
	}
	bpf_spin_lock(&lock);
	err = bpf_rbtree_add(&tables, &t->rb, table_less);
	bpf_spin_unlock(&lock);
	u->slots[err & 1] = 2;
	bpf_obj_drop(u);
	return 0;
}

/*
 * kept on the stack: an 8-byte slot holds the index as it was spilled, a 4-byte local reads back
 * as any u32 (STACK_MISC), so the tnums differ
 */
SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x18)")
int index_on_stack_u64(void *ctx)
{
	volatile u64 i = chosen_slot & 3;
	struct table *t = bpf_obj_new(typeof(*t));

	if (!t)
		return 0;
	t->slots[i] = 1;
	bpf_obj_drop(t);
	return 0;
}

SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x7fffffff8)")
int index_on_stack_u32(void *ctx)
{
	volatile u32 i = chosen_slot & 3;
	struct table *t = bpf_obj_new(typeof(*t));

	if (!t)
		return 0;
	t->slots[i] = 1;
	bpf_obj_drop(t);
	return 0;
}

/* clang's min(i, 7): the constant in a register, compared the other way round */
SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x18)")
int index_clamped(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));
	u32 i = chosen_slot;

	if (!t)
		return 0;
	if (i > 3)
		i = 3;
	t->slots[i] = 1;
	bpf_obj_drop(t);
	return 0;
}

/* a branch clang turns into a mask (0 - (x & 1)): the constant path has no offset to report */
SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x18)")
int index_or_zero(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));
	u32 i = 0;

	if (!t)
		return 0;
	if (t->key & 1)
		i = chosen_slot & 3;
	t->slots[i] = 1;
	bpf_obj_drop(t);
	return 0;
}

/*
 * data on two paths with two tnums: the verifier reports the path it walks first (here the
 * wider one); kfsim joins them into their union, which is that one's
 */
SEC("tc") __failure __msg("R2 is ptr_table invalid variable offset: off=40, var_off=(0x0; 0x18)")
int index_two_paths(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));
	u32 i;

	if (!t)
		return 0;
	if (t->key)
		i = chosen_slot & 3;
	else
		i = other_slot & 1;
	t->slots[i] = 1;
	bpf_obj_drop(t);
	return 0;
}

/* a read-only global is a constant to the verifier: the offset is fixed */
SEC("tc") __success __retval(7)
int index_from_rodata(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));
	u64 v;

	if (!t)
		return 0;
	t->slots[fixed_slot & 3] = 7;
	v = t->slots[2];
	bpf_obj_drop(t);
	return (int)v;
}

/* a loop's counter is a constant on each pass the verifier walks */
SEC("tc") __success __retval(3)
int index_from_loop(void *ctx)
{
	struct table *t = bpf_obj_new(typeof(*t));
	u64 v;

	if (!t)
		return 0;
	for (int i = 0; i < 4; i++)
		t->slots[i] = i;
	v = t->slots[3];
	bpf_obj_drop(t);
	return (int)v;
}

char _license[] SEC("license") = "GPL";
