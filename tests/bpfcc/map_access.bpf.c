// SPDX-License-Identifier: MIT
/*
 * Misuse a user writes with maps, map values and a tc program's context, as the running 6.18
 * verifier refuses it (docs/bpf-graph.md, "The tenth round"): a value read or written past its
 * size or before its start, at a constant offset or by an index that is data (masked,
 * unbounded, sign-extended, bounded by a compare), a key or value buffer on the stack or in
 * another map's value shorter than the map's, a scalar or the context where the key goes
 * (natively an address: a crash), an unchecked lookup, a __sk_buff field a tc program may not
 * write or read that way, a moved context; and what it accepts.  tests/bpfcc/agree.sh holds
 * kfsim to the annotations and the running kernel to them.  Written here, not taken from the
 * kernel's selftests.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))

struct val {
	u64 cnt;
	u32 slot[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct val);
	__uint(max_entries, 4);
} arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u32);
	__type(value, u64);
	__uint(max_entries, 16);
} hash SEC(".maps");

struct lval {
	struct bpf_spin_lock lock;
	u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct lval);
	__uint(max_entries, 2);
} lmap SEC(".maps");

volatile int idx_g = 5;
volatile u32 big = 100;
const volatile int ro_k = 1;

SEC("tc") __success
int m_unchecked_lookup(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	return v->cnt;
}

SEC("tc") __failure
__msg("math between map_value pointer and register with unbounded min value is not allowed")
int m_slot_past_value(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return 0;
	/* idx_g is 5: the verifier sees an unknown int */
	return v->slot[idx_g];
}

SEC("tc") __success
int m_slot_masked(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return 0;
	return v->slot[idx_g & 3];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=24 off=36 size=4")
int m_slot_masked_wide(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return 0;
	return v->slot[idx_g & 7];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=24 off=24 size=4")
int m_slot_checked_off_by_one(void *ctx)
{
	int k = 0;
	u32 i = big;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return 0;
	if (i > 4)
		return 0;
	return v->slot[i];
}

SEC("tc") __success
int m_slot_checked(void *ctx)
{
	int k = 0;
	u32 i = big;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return 0;
	if (i >= 4)
		return 1;
	return v->slot[i];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=24 off=-8 size=8")
int m_write_negative(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return 0;
	*((u64 *)v - 1) = 1;
	return 0;
}

SEC("tc") __failure __msg("invalid access to map value, value_size=8 off=8 size=8")
int m_hash_value_as_two(void *ctx)
{
	u32 k = 1;
	u64 *p = bpf_map_lookup_elem(&hash, &k);

	if (!p)
		return 0;
	return p[1];
}

SEC("tc") __failure
__msg("R2 type=scalar expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_")
int m_key_scalar(void *ctx)
{
	u64 *p = bpf_map_lookup_elem(&hash, (void *)(long)idx_g);

	return p ? 1 : 0;
}

SEC("tc") __failure __msg("invalid read from stack R2 off=-2 size=4")
int m_key_too_small(void *ctx)
{
	u16 k = 1;
	u64 *p;

	p = bpf_map_lookup_elem(&hash, &k);
	return p ? 1 : 0;
}

SEC("tc") __success
int m_update_value_small(void *ctx)
{
	u32 k = 1, v = 2;

	return bpf_map_update_elem(&hash, &k, &v, BPF_ANY);
}

SEC("tc") __success
int m_update_value_uninit(void *ctx)
{
	u32 k = 1;
	u64 v;

	asm volatile("" : "=m"(v));
	return bpf_map_update_elem(&hash, &k, &v, BPF_ANY);
}

SEC("tc") __failure __msg("R1 invalid mem access 'map_value_or_null'")
int m_null_check_other(void *ctx)
{
	u32 k = 1, k2 = 2;
	u64 *a = bpf_map_lookup_elem(&hash, &k);
	u64 *b = bpf_map_lookup_elem(&hash, &k2);

	if (!a)
		return 0;
	return *b;
}

SEC("tc") __success
int m_arith_before_check(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);
	u32 *s = &v->slot[1];

	if (!v)
		return 0;
	return *s;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int m_lock_twice(void *ctx)
{
	int k = 0;
	struct lval *v = bpf_map_lookup_elem(&lmap, &k);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc") __failure __msg("bpf_spin_unlock without taking a lock")
int m_unlock_unlocked(void *ctx)
{
	int k = 0;
	struct lval *v = bpf_map_lookup_elem(&lmap, &k);

	if (!v)
		return 0;
	v->n++;
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int m_helper_under_lock(void *ctx)
{
	int k = 0;
	struct lval *v = bpf_map_lookup_elem(&lmap, &k);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->n = bpf_ktime_get_ns();
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int m_lock_two_values(void *ctx)
{
	int k = 0, k1 = 1;
	struct lval *a = bpf_map_lookup_elem(&lmap, &k);
	struct lval *b = bpf_map_lookup_elem(&lmap, &k1);

	if (!a || !b)
		return 0;
	bpf_spin_lock(&a->lock);
	bpf_spin_lock(&b->lock);
	bpf_spin_unlock(&b->lock);
	bpf_spin_unlock(&a->lock);
	return 0;
}

SEC("tc") __success
int m_unbounded_loop(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);
	u64 n, s = 0;

	if (!v)
		return 0;
	n = v->cnt;
	while (n) {
		s += n;
		n >>= 1;
		n |= 1;
	}
	return s;
}

SEC("tc") __success
int m_loop_bounded_by_data(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);
	u32 i, s = 0, n;

	if (!v)
		return 0;
	n = v->slot[0];
	for (i = 0; i < n && i < 64; i++)
		s += i;
	return s;
}

SEC("tc") __success
int m_can_loop_data(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&arr, &k);
	u64 n, s = 0;

	if (!v)
		return 0;
	n = v->cnt;
	while (n && can_loop) {
		s += n;
		n = n * 3 + 1;
	}
	return s;
}

SEC("tc") __failure __msg("value -2147483648 makes fp pointer be out of bounds")
int m_stack_var_index(void *ctx)
{
	u8 buf[16] = {};

	return buf[idx_g];
}

SEC("tc") __success
int m_stack_var_index_masked(void *ctx)
{
	u8 buf[16] = {};

	buf[3] = 7;
	return buf[idx_g & 15];
}

SEC("tc") __success
int m_delete_then_use(void *ctx)
{
	u32 k = 3;
	u64 init = 1, *p;

	bpf_map_update_elem(&hash, &k, &init, BPF_ANY);
	p = bpf_map_lookup_elem(&hash, &k);
	if (!p)
		return 0;
	bpf_map_delete_elem(&hash, &k);
	return *p;
}

SEC("tc") __failure __msg("invalid bpf_context access off=0 size=4")
int m_ctx_write(struct __sk_buff *skb)
{
	skb->len = 5;
	return 0;
}

SEC("tc") __failure __msg("invalid bpf_context access off=2 size=4")
int m_ctx_read_bad_off(struct __sk_buff *skb)
{
	return *(u32 *)((char *)skb + 2);
}



struct rec {
	u32 hits;
	u32 bytes;
	char name[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u64);
	__type(value, struct rec);
	__uint(max_entries, 8);
} recs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, u32);
	__type(value, u32);
	__uint(max_entries, 1);
} one SEC(".maps");

struct lnode {
	struct bpf_list_node link;
	u64 v;
};

private(L) struct bpf_spin_lock glock;
private(L) struct bpf_list_head ghead __contains(lnode, link);

volatile u32 knob = 3;

SEC("tc") __failure __msg("invalid access to map value, value_size=16 off=16 size=1")
int h_name_past_end(void *ctx)
{
	u64 k = 1;
	struct rec *r = bpf_map_lookup_elem(&recs, &k);

	if (!r)
		return 0;
	return r->name[8 + (knob & 0)];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=4 off=0 size=8")
int h_u64_read_of_u32_value(void *ctx)
{
	u32 k = 0;
	u64 *p = bpf_map_lookup_elem(&one, &k);

	if (!p)
		return 0;
	return *p;
}

SEC("tc") __failure __msg("invalid read from stack R2 off=-4 size=8")
int h_key_u32_for_u64(void *ctx)
{
	u32 k = 1;
	struct rec *r = bpf_map_lookup_elem(&recs, &k);

	return r ? r->hits : 0;
}

SEC("tc") __failure __msg("invalid read from stack R3 off=-8 size=16")
int h_update_value_is_key(void *ctx)
{
	u64 k = 1;

	return bpf_map_update_elem(&recs, &k, &k, BPF_ANY);
}

SEC("tc") __success
int h_update_value_ok(void *ctx)
{
	u64 k = 1;
	struct rec r = {};

	return bpf_map_update_elem(&recs, &k, &r, BPF_ANY);
}

SEC("tc") __failure
__msg("R2 type=scalar expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_")
int h_delete_key_const(void *ctx)
{
	return bpf_map_delete_elem(&recs, (void *)8);
}

SEC("tc") __success
int h_value_ok_last_byte(void *ctx)
{
	u64 k = 1;
	struct rec *r = bpf_map_lookup_elem(&recs, &k);

	if (!r)
		return 0;
	return r->name[7];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=4 off=-4 size=4")
int h_store_before_value(void *ctx)
{
	u32 k = 0;
	u32 *p = bpf_map_lookup_elem(&one, &k);

	if (!p)
		return 0;
	p[-1] = 5;
	return 0;
}

SEC("tc") __success
int h_skb_mark_write(struct __sk_buff *skb)
{
	skb->mark = 7;
	skb->priority = 1;
	return skb->mark;
}

SEC("tc") __failure __msg("dereference of modified ctx ptr R1 off=48 disallowed")
int h_skb_cb_bytes(struct __sk_buff *skb)
{
	u8 *cb = (u8 *)skb->cb;

	cb[3] = 1;
	return cb[3];
}

SEC("tc") __failure __msg("invalid bpf_context access off=16 size=4")
int h_skb_protocol_write(struct __sk_buff *skb)
{
	skb->protocol = 8;
	return 0;
}

SEC("tc") __failure __msg("invalid bpf_context access off=88 size=4")
int h_skb_family_read(struct __sk_buff *skb)
{
	return skb->family;
}

SEC("tc") __success
int h_skb_len_narrow(struct __sk_buff *skb)
{
	return *(u16 *)&skb->len;
}

SEC("tc") __failure __msg("invalid bpf_context access off=152 size=4")
int h_skb_tstamp_half(struct __sk_buff *skb)
{
	return *(u32 *)&skb->tstamp;
}

SEC("tc") __failure __msg("bpf_spin_lock at off=16 must be held for bpf_list_head")
int h_list_no_lock(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_list_push_back(&ghead, &n->link);
	return 0;
}

SEC("tc") __failure __msg("Unreleased reference id=2 alloc_insn=4")
int h_leak_on_full(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));
	u64 k = 2;
	struct rec *r = bpf_map_lookup_elem(&recs, &k);

	if (!n)
		return 0;
	if (!r)
		return 1;
	bpf_obj_drop(n);
	return 0;
}

SEC("tc") __failure __msg("R6 invalid mem access 'scalar'")
int h_use_after_drop(void *ctx)
{
	struct lnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n->v = 1;
	bpf_obj_drop(n);
	return n->v;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int h_lookup_under_lock(void *ctx)
{
	u32 k = 0, *p;

	bpf_spin_lock(&glock);
	p = bpf_map_lookup_elem(&one, &k);
	bpf_spin_unlock(&glock);
	return p ? *p : 0;
}

SEC("tc") __failure __msg("invalid read from stack R2 off=-2 size=4")
int h_percpu_key_short(void *ctx)
{
	u16 k = 0;
	u32 *p = bpf_map_lookup_elem(&one, &k);

	return p ? *p : 0;
}

SEC("tc") __success
int h_can_loop_sum(void *ctx)
{
	u32 k = 0, *p = bpf_map_lookup_elem(&one, &k);
	u32 i = 0, s = 0;

	if (!p)
		return 0;
	while (i < *p && can_loop) {
		s += i;
		i++;
	}
	return s;
}


struct big {
	u64 a[8];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u32);
	__type(value, struct big);
	__uint(max_entries, 4);
} bigs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, u32);
	__type(value, u64);
	__uint(max_entries, 4);
} small SEC(".maps");

volatile s8 sidx = -3;
volatile u16 widx = 9;

SEC("tc") __failure
__msg("R3 type=scalar expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_")
int c_value_null(void *ctx)
{
	u32 k = 1;

	return bpf_map_update_elem(&bigs, &k, (void *)0, BPF_ANY);
}

SEC("tc") __failure
__msg("R2 type=ctx expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_")
int c_key_in_ctx(struct __sk_buff *skb)
{
	u64 *p = bpf_map_lookup_elem(&small, &skb->mark);

	return p ? 1 : 0;
}

SEC("tc") __failure __msg("invalid access to map value, value_size=8 off=0 size=64")
int c_value_from_other_map(void *ctx)
{
	u32 k = 0;
	u64 *p = bpf_map_lookup_elem(&small, &k);

	if (!p)
		return 0;
	return bpf_map_update_elem(&bigs, &k, p, BPF_ANY);
}

SEC("tc") __success
int c_value_from_big_map(void *ctx)
{
	u32 k = 0;
	struct big *b = bpf_map_lookup_elem(&bigs, &k);

	if (!b)
		return 0;
	return bpf_map_update_elem(&small, &k, b, BPF_ANY);
}

SEC("tc") __failure
__msg("math between map_value pointer and register with unbounded min value is not allowed")
int c_s8_index(void *ctx)
{
	u32 k = 0;
	struct big *b = bpf_map_lookup_elem(&bigs, &k);

	if (!b)
		return 0;
	return b->a[sidx];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=64 off=524280 size=8")
int c_u16_index(void *ctx)
{
	u32 k = 0;
	struct big *b = bpf_map_lookup_elem(&bigs, &k);

	if (!b)
		return 0;
	return b->a[widx];
}

SEC("tc") __success
int c_u16_index_masked(void *ctx)
{
	u32 k = 0;
	struct big *b = bpf_map_lookup_elem(&bigs, &k);

	if (!b)
		return 0;
	return b->a[widx & 7];
}

SEC("tc") __success
int c_u16_index_checked(void *ctx)
{
	u32 k = 0, i = widx;
	struct big *b = bpf_map_lookup_elem(&bigs, &k);

	if (!b || i >= 8)
		return 0;
	return b->a[i];
}

SEC("tc") __success
int c_stack_u8_index(void *ctx)
{
	u64 buf[4] = {1, 2, 3, 4};

	return buf[widx & 3];
}

SEC("tc") __success
int c_byte_index_value(void *ctx)
{
	u32 k = 0;
	struct big *b = bpf_map_lookup_elem(&bigs, &k);

	if (!b)
		return 0;
	return ((u8 *)b)[widx & 0x3f];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=64 off=127 size=1")
int c_byte_index_value_past(void *ctx)
{
	u32 k = 0;
	struct big *b = bpf_map_lookup_elem(&bigs, &k);

	if (!b)
		return 0;
	return ((u8 *)b)[widx & 0x7f];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=64 off=120 size=8")
int c_store_var_index(void *ctx)
{
	u32 k = 0;
	struct big *b = bpf_map_lookup_elem(&bigs, &k);

	if (!b)
		return 0;
	b->a[widx & 15] = 1;
	return 0;
}

SEC("tc") __success
int c_two_lookups_one_key(void *ctx)
{
	u32 k = 2;
	u64 *p = bpf_map_lookup_elem(&small, &k), *q = bpf_map_lookup_elem(&small, &k);

	if (!p || !q)
		return 0;
	return *p + *q;
}

SEC("tc") __failure __msg("invalid read from stack R2 off=-1 size=4")
int c_key_past_frame_neg(void *ctx)
{
	u8 tiny = 1;

	return bpf_map_delete_elem(&bigs, &tiny) == 0;
}

SEC("tc") __success
int c_skb_cb_u64(struct __sk_buff *skb)
{
	*(u64 *)&skb->cb[0] = 5;
	return skb->cb[0];
}

SEC("tc") __failure __msg("invalid bpf_context access off=64 size=8")
int c_skb_cb_past(struct __sk_buff *skb)
{
	*(u64 *)&skb->cb[4] = 5;
	return 0;
}

SEC("tc") __failure __msg("dereference of modified ctx ptr R1 off=44 disallowed")
int c_skb_tc_index_byte(struct __sk_buff *skb)
{
	return *((u8 *)&skb->tc_index + 1);
}

SEC("tc") __failure __msg("invalid bpf_context access off=8 size=1")
int c_skb_write_byte(struct __sk_buff *skb)
{
	*(u8 *)&skb->mark = 1;
	return 0;
}

SEC("tc") __failure __msg("invalid bpf_context access off=192 size=4")
int c_skb_past_end(struct __sk_buff *skb)
{
	return *(u32 *)((char *)skb + 192);
}


struct tbl {
	u64 hdr;
	u32 slot[4];
	u8 bytes[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, u32);
	__type(value, struct tbl);
	__uint(max_entries, 2);
} tbls SEC(".maps");

volatile u32 gi = 2;
volatile u64 gl = 7;
volatile s32 gs = 1;
volatile u8 gb = 5;

static struct tbl *get(void)
{
	u32 k = 0;

	return bpf_map_lookup_elem(&tbls, &k);
}

SEC("tc") __success
int d_lt3(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi;

	if (!t || i >= 3)
		return 0;
	return t->slot[i];
}

SEC("tc") __success
int d_le4_past(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi;

	if (!t || i > 4)
		return 0;
	return t->slot[i];
}

SEC("tc") __success
int d_lt4_store(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi;

	if (!t)
		return 0;
	if (i < 4)
		t->slot[i] = 1;
	return 0;
}

SEC("tc") __success
int d_lt5_store_past(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi;

	if (!t)
		return 0;
	if (i < 5)
		t->slot[i] = 1;
	return 0;
}

SEC("tc") __success
int d_u64_lt16_bytes(void *ctx)
{
	struct tbl *t = get();
	u64 i = gl;

	if (!t || i >= 16)
		return 0;
	return t->bytes[i];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=40 off=40 size=1")
int d_u64_lt17_bytes(void *ctx)
{
	struct tbl *t = get();
	u64 i = gl;

	if (!t || i >= 17)
		return 0;
	return t->bytes[i];
}

SEC("tc") __success
int d_u8_index_bytes(void *ctx)
{
	struct tbl *t = get();
	u8 i = gb;

	if (!t)
		return 0;
	return t->bytes[i & 15];
}

SEC("tc") __success
int d_signed_checked(void *ctx)
{
	struct tbl *t = get();
	s32 i = gs;

	if (!t || i < 0 || i > 3)
		return 0;
	return t->slot[i];
}

SEC("tc") __failure
__msg("math between map_value pointer and register with unbounded min value is not allowed")
int d_signed_upper_only(void *ctx)
{
	struct tbl *t = get();
	s32 i = gs;

	if (!t || i > 3)
		return 0;
	return t->slot[i];
}

SEC("tc") __success
int d_mask_then_add(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi & 3;

	if (!t)
		return 0;
	i += 1;
	return t->slot[i];
}

SEC("tc") __success
int d_mod4(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi % 4;

	if (!t)
		return 0;
	return t->slot[i];
}

SEC("tc") __success
int d_eq_const(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi;

	if (!t || i != 2)
		return 0;
	return t->slot[i];
}

SEC("tc") __success
int d_two_indexes(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi, j = gb;

	if (!t || i >= 4 || j >= 16)
		return 0;
	return t->slot[i] + t->bytes[j];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=40 off=40 size=1")
int d_two_indexes_one_past(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi, j = gb;

	if (!t || i >= 4 || j > 16)
		return 0;
	return t->slot[i] + t->bytes[j];
}

SEC("tc") __success
int d_loop_data_bound(void *ctx)
{
	struct tbl *t = get();
	u32 n = gi, s = 0;

	if (!t)
		return 0;
	if (n > 4)
		n = 4;
	for (u32 i = 0; i < n; i++)
		s += t->slot[i];
	return s;
}

SEC("tc") __success
int d_clamp_min(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi;

	if (!t)
		return 0;
	i = i < 3 ? i : 3;
	return t->slot[i];
}

SEC("tc") __success
int d_shift_index(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi >> 30;

	if (!t)
		return 0;
	return t->slot[i];
}

SEC("tc") __success
int d_shift_index_past(void *ctx)
{
	struct tbl *t = get();
	u32 i = gi >> 29;

	if (!t)
		return 0;
	return t->slot[i];
}

char _license[] SEC("license") = "GPL";
