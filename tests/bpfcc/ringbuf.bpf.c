// SPDX-License-Identifier: MIT
/*
 * BPF ring buffers (BPF_MAP_TYPE_RINGBUF) as users write them, right and wrong: reserve and
 * submit or discard, bpf_ringbuf_output() and bpf_ringbuf_query(), their flags and return
 * values; a record leaked on one path (an unrolled loop's last included), used before its NULL
 * check, written past its reserved size or before its start, released twice, used after its
 * release, a release of a map value, the stack, NULL or a moved pointer, a size the verifier
 * does not know, a reservation under a bpf_spin_lock, a map of another type.  The annotations
 * are the running 6.18.44's verdicts, first messages and test-run return values (the programs
 * from submit_in_static on were held out until the first ones agreed); tests/bpfcc/agree.sh
 * holds kfsim and the kernel to them.  docs/bpf-graph.md, "Ring buffers".
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, u64);
} arr SEC(".maps");

struct lockval {
	struct bpf_spin_lock l;
	u64 v;
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct lockval);
} lk SEC(".maps");

struct ev {
	u32 pid;
	u32 n;
	u64 ts;
};

SEC("tc") __success __retval(0) int reserve_submit(void *ctx)
{
	struct ev *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 1;
	e->pid = 7;
	e->n = 1;
	e->ts = 2;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc") __success __retval(0) int reserve_discard(void *ctx)
{
	struct ev *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 1;
	bpf_ringbuf_discard(e, BPF_RB_NO_WAKEUP);
	return 0;
}
SEC("tc") __success __retval(0) int output_ok(void *ctx)
{
	struct ev e = {1, 2, 3};
	return bpf_ringbuf_output(&rb, &e, sizeof(e), 0);
}
SEC("tc") __success __retval(-22) int output_bad_flags(void *ctx)
{
	struct ev e = {1, 2, 3};
	return bpf_ringbuf_output(&rb, &e, sizeof(e), 4);
}
SEC("tc") __success __retval(1) int reserve_bad_flags(void *ctx)
{
	struct ev *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 1);
	if (!e)
		return 1;
	bpf_ringbuf_discard(e, 0);
	return 0;
}
SEC("tc") __success __retval(1) int reserve_too_big(void *ctx)
{
	void *e = bpf_ringbuf_reserve(&rb, 8192, 0);
	if (!e)
		return 1;
	bpf_ringbuf_discard(e, 0);
	return 0;
}
SEC("tc") __success __retval(4096) int query_ring_size(void *ctx)
{
	return bpf_ringbuf_query(&rb, BPF_RB_RING_SIZE);
}
SEC("tc")
__failure __msg("Unreleased reference id=2 alloc_insn=5") int leak_one_path(struct __sk_buff *skb)
{
	struct ev *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 1;
	if (skb->len > 10)
		return 2;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc")
__failure __msg("R0 invalid mem access 'ringbuf_mem_or_null'") int use_before_null_check(void *ctx)
{
	struct ev *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	e->pid = 1;
	if (e)
		bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc")
__failure __msg("invalid access to memory, mem_size=8 off=8 size=4") int write_past_reserved(
	void *ctx)
{
	u32 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	e[2] = 1;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc") __failure __msg("R1 type=scalar expected=ringbuf_mem") int submit_twice(void *ctx)
{
	struct ev *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 1;
	bpf_ringbuf_submit(e, 0);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc") __failure __msg("R1 type=scalar expected=ringbuf_mem") int submit_then_discard(void *ctx)
{
	struct ev *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);
	if (!e)
		return 1;
	bpf_ringbuf_submit(e, 0);
	bpf_ringbuf_discard(e, 0);
	return 0;
}
SEC("tc") __failure __msg("R1 type=map_value expected=ringbuf_mem") int submit_map_value(void *ctx)
{
	int k = 0;
	u64 *v = bpf_map_lookup_elem(&arr, &k);
	if (!v)
		return 1;
	bpf_ringbuf_submit(v, 0);
	return 0;
}
SEC("tc") __failure __msg("R1 type=fp expected=ringbuf_mem") int submit_stack(void *ctx)
{
	u64 x = 0;
	bpf_ringbuf_submit(&x, 0);
	return 0;
}
SEC("tc") __failure __msg("R2 is not a known constant'") int reserve_var_size(struct __sk_buff *skb)
{
	void *e = bpf_ringbuf_reserve(&rb, skb->len & 63, 0);
	if (!e)
		return 1;
	bpf_ringbuf_discard(e, 0);
	return 0;
}
SEC("tc")
__failure
	__msg("function calls are not allowed while holding a lock") int reserve_in_lock(void *ctx)
{
	int k = 0;
	struct lockval *v = bpf_map_lookup_elem(&lk, &k);
	void *e;
	if (!v)
		return 1;
	bpf_spin_lock(&v->l);
	e = bpf_ringbuf_reserve(&rb, 8, 0);
	bpf_spin_unlock(&v->l);
	if (!e)
		return 1;
	bpf_ringbuf_discard(e, 0);
	return 0;
}
SEC("tc")
__failure __msg("R1 must have zero offset when passed to release func or trusted arg to "
		"kfunc") int submit_moved_ptr(void *ctx)
{
	char *e = bpf_ringbuf_reserve(&rb, 16, 0);
	if (!e)
		return 1;
	bpf_ringbuf_submit(e + 8, 0);
	return 0;
}
SEC("tc")
__failure __msg("cannot pass map_type 2 into func bpf_ringbuf_reserve#131") int reserve_not_ringbuf(
	void *ctx)
{
	void *e = bpf_ringbuf_reserve(&arr, 8, 0);
	if (!e)
		return 1;
	bpf_ringbuf_discard(e, 0);
	return 0;
}
SEC("tc") __success __retval(1) int read_before_write(void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	u64 x;
	if (!e)
		return 1;
	x = *e;
	bpf_ringbuf_discard(e, 0);
	return x != 12345;
}
SEC("tc") __failure __msg("R6 invalid mem access 'scalar'") int use_after_submit(void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	bpf_ringbuf_submit(e, 0);
	*e = 1;
	return 0;
}
SEC("tc") __success __retval(0) int output_var_size(struct __sk_buff *skb)
{
	u64 buf[4] = {};
	return bpf_ringbuf_output(&rb, buf, skb->len & 31, 0);
}
SEC("tc") __success __retval(0) int output_null_check_ok(struct __sk_buff *skb)
{
	u64 buf[4] = {};
	u32 n = skb->len;
	if (n > 32)
		n = 32;
	return bpf_ringbuf_output(&rb, buf, n, 0);
}
SEC("tc") __success __retval(0) int reserve_zero(void *ctx)
{
	void *e = bpf_ringbuf_reserve(&rb, 0, 0);
	if (!e)
		return 1;
	bpf_ringbuf_discard(e, 0);
	return 0;
}
SEC("tc") __success __retval(0) int two_records(void *ctx)
{
	u64 *a = bpf_ringbuf_reserve(&rb, 8, 0), *b;
	if (!a)
		return 1;
	b = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!b) {
		bpf_ringbuf_discard(a, 0);
		return 1;
	}
	*a = 1;
	*b = 2;
	bpf_ringbuf_submit(b, 0);
	bpf_ringbuf_submit(a, BPF_RB_FORCE_WAKEUP);
	return 0;
}
SEC("tc") __failure __msg("Unreleased reference id=2 alloc_insn=4") int two_records_leak(void *ctx)
{
	u64 *a = bpf_ringbuf_reserve(&rb, 8, 0), *b;
	if (!a)
		return 1;
	b = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!b)
		return 1;
	bpf_ringbuf_submit(b, 0);
	bpf_ringbuf_submit(a, 0);
	return 0;
}

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, u64);
} h SEC(".maps");

struct big {
	u64 a[8];
};

static __noinline void finish(u64 *p)
{
	bpf_ringbuf_submit(p, 0);
}
SEC("tc") __success __retval(0) int submit_in_static(void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	*e = 5;
	finish(e);
	return 0;
}
SEC("tc") __failure __msg("R1 type=scalar expected=ringbuf_mem") int submit_null(void *ctx)
{
	bpf_ringbuf_submit(NULL, 0);
	return 0;
}
SEC("tc") __success __retval(4) int loop_records(void *ctx)
{
	int i, n = 0;
	for (i = 0; i < 4; i++) {
		u32 *e = bpf_ringbuf_reserve(&rb, 4, 0);
		if (!e)
			continue;
		*e = i;
		bpf_ringbuf_submit(e, 0);
		n++;
	}
	return n;
}
SEC("tc") __failure __msg("Unreleased reference id=6 alloc_insn=22") int loop_leak_last(void *ctx)
{
	int i;
	for (i = 0; i < 3; i++) {
		u32 *e = bpf_ringbuf_reserve(&rb, 4, 0);
		if (!e)
			continue;
		if (i == 2)
			return 2;
		bpf_ringbuf_submit(e, 0);
	}
	return 0;
}
SEC("tc") __success __retval(0) int write_last_byte(void *ctx)
{
	char *e = bpf_ringbuf_reserve(&rb, 13, 0);
	if (!e)
		return 1;
	e[12] = 1;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc")
__failure __msg("invalid access to memory, mem_size=13 off=13 size=1") int write_one_past(void *ctx)
{
	char *e = bpf_ringbuf_reserve(&rb, 13, 0);
	if (!e)
		return 1;
	e[13] = 1;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc")
__failure __msg("invalid access to memory, mem_size=16 off=-8 size=8") int read_before_start(
	void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 16, 0);
	u64 x;
	if (!e)
		return 1;
	x = *(e - 1);
	bpf_ringbuf_discard(e, 0);
	return x;
}
SEC("tc") __success __retval(0) int big_struct_ok(void *ctx)
{
	struct big *b = bpf_ringbuf_reserve(&rb, sizeof(*b), 0);
	if (!b)
		return 1;
	__builtin_memset(b, 0, sizeof(*b));
	b->a[7] = 9;
	bpf_ringbuf_submit(b, BPF_RB_NO_WAKEUP);
	return 0;
}
SEC("tc") __success __retval(0) int output_from_map_value(void *ctx)
{
	int k = 1;
	u64 v = 3, *p;
	bpf_map_update_elem(&h, &k, &v, 0);
	p = bpf_map_lookup_elem(&h, &k);
	if (!p)
		return 1;
	return bpf_ringbuf_output(&rb, p, sizeof(*p), BPF_RB_FORCE_WAKEUP);
}
SEC("tc")
__failure __msg("invalid read from stack R2 off=-64 size=8192") int output_too_big(void *ctx)
{
	u64 buf[8] = {};
	return bpf_ringbuf_output(&rb, buf, 8192, 0);
}
SEC("tc") __success __retval(0) int query_other_flag(void *ctx)
{
	return bpf_ringbuf_query(&rb, 9);
}
SEC("tc") __success __retval(16) int query_prod_moves(void *ctx)
{
	u64 before = bpf_ringbuf_query(&rb, BPF_RB_PROD_POS), x = 1;
	bpf_ringbuf_output(&rb, &x, sizeof(x), 0);
	return bpf_ringbuf_query(&rb, BPF_RB_PROD_POS) - before;
}
SEC("tc")
__failure __msg("R1 must have zero offset when passed to release func or trusted arg to "
		"kfunc") int discard_moved(void *ctx)
{
	u32 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	bpf_ringbuf_discard(e + 1, 0);
	return 0;
}
SEC("tc")
__failure __msg("Unreleased reference id=2 alloc_insn=4") int leak_in_static_caller(void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	return 0;
}
SEC("tc")
__failure __msg("Unreleased reference id=2 alloc_insn=5") int spill_and_leak(struct __sk_buff *skb)
{
	u64 *volatile slot;
	slot = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!slot)
		return 1;
	if (skb->len == 0)
		bpf_ringbuf_submit(slot, 0);
	return 0;
}
SEC("tc") __failure __msg("R6 invalid mem access 'scalar'") int use_after_discard_read(void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	*e = 3;
	bpf_ringbuf_discard(e, 0);
	return *e;
}
SEC("tc") __success __retval(1) int output_in_lock_free(void *ctx)
{
	u32 x = 1;
	long r = bpf_ringbuf_output(&rb, &x, sizeof(x), 0);
	return r == 0;
}
SEC("tc")
__failure __msg("cannot pass map_type 1 into func bpf_ringbuf_reserve#131") int reserve_in_hash_map(
	void *ctx)
{
	void *e = bpf_ringbuf_reserve(&h, 8, 0);
	if (!e)
		return 1;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc")
__failure __msg("cannot pass map_type 1 into func bpf_ringbuf_output#130") int output_to_hash(
	void *ctx)
{
	u64 x = 0;
	return bpf_ringbuf_output(&h, &x, 8, 0);
}
/* The ring fills: 56 records of 64 bytes (72 with the header) fit in 4096 bytes less one. */
SEC("tc") __success __retval(56) int fill_ring(void *ctx)
{
	u64 buf[8] = {};
	int i, n = 0;

	for (i = 0; i < 100; i++) {
		buf[0] = i;
		if (bpf_ringbuf_output(&rb, buf, sizeof(buf), 0))
			break;
		n++;
	}
	return n;
}
/*
 * 40 records of 64 bytes: the second invocation's wrap past the ring's end when a consumer read
 * the first's (the runner's -v, tests/bpfcc/ringbuf_consumer.sh)
 */
SEC("tc") __success __retval(40) int wrap_ring(void *ctx)
{
	u64 buf[8] = {};
	int i, n = 0;

	for (i = 0; i < 40; i++) {
		buf[0] = i;
		buf[7] = 0x5a;
		if (bpf_ringbuf_output(&rb, buf, sizeof(buf), 0))
			break;
		n++;
	}
	return n;
}
/*
 * Held out until the above agreed (the third set): bpf_loop() callbacks, a global function,
 * a record as bpf_ringbuf_output()'s data, two rings, a zero-sized record, a release before the
 * NULL check.  Three more programs of that set differ (docs/bpf-graph.md, "Ring buffers").
 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 8192);
} rb2 SEC(".maps");

static long cb(u64 i, void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	*e = i;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc") __success __retval(5) int reserve_in_loop_cb(void *ctx)
{
	return bpf_loop(5, cb, NULL, 0);
}
__noinline int global_ok(int x)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	*e = x;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc") __success __retval(0) int ok_in_global(void *ctx)
{
	return global_ok(3);
}
SEC("tc") __success __retval(0) int output_from_record(void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 16, 0);
	long r;
	if (!e)
		return 1;
	e[0] = 1;
	e[1] = 2;
	r = bpf_ringbuf_output(&rb2, e, 16, 0);
	bpf_ringbuf_discard(e, 0);
	return r;
}
SEC("tc")
__failure __msg("invalid access to memory, mem_size=16 off=0 "
		"size=24") int output_from_record_too_long(void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 16, 0);
	long r;
	if (!e)
		return 1;
	e[0] = 1;
	e[1] = 2;
	r = bpf_ringbuf_output(&rb2, e, 24, 0);
	bpf_ringbuf_discard(e, 0);
	return r;
}
SEC("tc") __success __retval(0) int submit_both_branches(struct __sk_buff *skb)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	*e = skb->len;
	if (skb->len > 100)
		bpf_ringbuf_discard(e, 0);
	else
		bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc")
__failure __msg("invalid access to memory, mem_size=0 off=0 size=1") int zero_size_write(void *ctx)
{
	char *e = bpf_ringbuf_reserve(&rb, 0, 0);
	if (!e)
		return 1;
	e[0] = 1;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc") __success __retval(0) int discard_odd_flags(void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	bpf_ringbuf_discard(e, 0xff);
	return 0;
}
SEC("tc") __success __retval(16) int two_rings(void *ctx)
{
	u64 *a = bpf_ringbuf_reserve(&rb, 8, 0);
	u64 *b;
	if (!a)
		return 1;
	b = bpf_ringbuf_reserve(&rb2, 8, 0);
	if (!b) {
		bpf_ringbuf_discard(a, 0);
		return 2;
	}
	bpf_ringbuf_submit(a, 0);
	bpf_ringbuf_submit(b, 0);
	return bpf_ringbuf_query(&rb2, BPF_RB_AVAIL_DATA);
}
SEC("tc") __success __retval(0) int const_size_var(void *ctx)
{
	int sz = 24;
	char *e = bpf_ringbuf_reserve(&rb, sz, 0);
	if (!e)
		return 1;
	e[23] = 1;
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc") __success __retval(0) int leak_after_check_swap(void *ctx)
{
	u64 *a = bpf_ringbuf_reserve(&rb, 8, 0);
	u64 *b = bpf_ringbuf_reserve(&rb, 8, 0);
	if (a)
		bpf_ringbuf_submit(a, 0);
	if (b)
		bpf_ringbuf_submit(b, 0);
	return 0;
}
SEC("tc")
__failure __msg("R1 type=ringbuf_mem_or_null expected=ringbuf_mem") int discard_before_null_check(
	void *ctx)
{
	u64 *a = bpf_ringbuf_reserve(&rb, 8, 0);
	bpf_ringbuf_discard(a, 0);
	return 0;
}
/* libbpf rounds a ring's size up to a power of 2 times the page size: 1000 is 4096 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1000);
} odd SEC(".maps");

SEC("tc") __success __retval(4096)
int odd_ring_size(void *ctx)
{
	u64 x = 1;

	if (bpf_ringbuf_output(&odd, &x, sizeof(x), 0))
		return -1;
	return bpf_ringbuf_query(&odd, BPF_RB_RING_SIZE);
}

/*
 * bpf_ringbuf_output()'s size is ARG_CONST_SIZE_OR_ZERO: check_mem_size_reg() refuses a size
 * that may be negative (a u64 from a map value) or 2^29 or more (a u32) before any range check
 * (a fourth held-out set, helper hbpf9)
 */
SEC("tc")
__failure __msg("R3 min value is negative, either use unsigned or 'var &= const'") int
output_size_map_u64(void *ctx)
{
	u64 buf[8] = {};
	int k = 0;
	u64 *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return 1;
	return bpf_ringbuf_output(&rb, buf, *v, 0);
}
SEC("tc")
__failure __msg("R3 unbounded memory access, use 'var &= const' or 'if (var < const)'") int
output_size_map_u32(void *ctx)
{
	u64 buf[8] = {};
	int k = 0;
	u32 *v = bpf_map_lookup_elem(&arr, &k);

	if (!v)
		return 1;
	return bpf_ringbuf_output(&rb, buf, *v, 0);
}
SEC("tc")
__failure __msg("R3 min value is negative, either use unsigned or 'var &= const'") int
output_record_size_map(void *ctx)
{
	int k = 0;
	u64 *v = bpf_map_lookup_elem(&arr, &k);
	u64 *e;

	if (!v)
		return 1;
	e = bpf_ringbuf_reserve(&rb, 16, 0);
	if (!e)
		return 1;
	bpf_ringbuf_output(&rb, e, *v, 0);
	bpf_ringbuf_discard(e, 0);
	return 0;
}

/*
 * A record given as memory of a known size: check_helper_mem_access() -> check_mem_region_access()
 * for a map key (h's is an int), check_mem_reg() for a global function's argument
 */
SEC("tc")
__failure __msg("invalid access to memory, mem_size=2 off=0 size=4") int record_short_key(void *ctx)
{
	u16 *e = bpf_ringbuf_reserve(&rb, 2, 0);

	if (!e)
		return 1;
	*e = 1;
	bpf_map_lookup_elem(&h, e);
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc") __success __retval(0) int record_as_key(void *ctx)
{
	int *e = bpf_ringbuf_reserve(&rb, 4, 0);

	if (!e)
		return 1;
	*e = 1;
	bpf_map_lookup_elem(&h, e);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

struct four {
	u64 a[4];
};

__noinline int global_fill(struct four *p)
{
	if (!p)
		return 0;
	p->a[3] = 7;
	return 1;
}
SEC("tc")
__failure __msg("invalid access to memory, mem_size=16 off=8 size=32") int small_record_to_global(
	void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 16, 0);

	if (!e)
		return 1;
	global_fill((struct four *)(e + 1));
	bpf_ringbuf_submit(e, 0);
	return 0;
}
SEC("tc") __success __retval(0) int record_to_global(void *ctx)
{
	struct four *e = bpf_ringbuf_reserve(&rb, sizeof(*e), 0);

	if (!e)
		return 1;
	global_fill(e);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
