// SPDX-License-Identifier: MIT
/*
 * bpf_skb_load_bytes() and bpf_get_current_comm() natively, and the verifier's rules for them,
 * against the running 6.18 (tests/bpfcc/agree.sh): the packet is the kernel test run's (64
 * bytes, an IPv4 ethertype at 12), so the bytes read and -EFAULT past its end (the buffer
 * zeroed) are the kernel's return values; the task is the runner, as it is the kernel's for the
 * test run.  Refused: the helper where the program type has none, a context argument that is
 * not the context, a buffer in an object of bpf_obj_new(), past a map value's end or past the
 * stack frame's top (a constant size), a length the verifier cannot bound, and a call under a
 * bpf_spin_lock.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct pnode {
	long key;
	char bytes[16];
	struct bpf_rb_node rb;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock glock;
private(A) struct bpf_rb_root groot __contains(pnode, rb);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, char[16]);
} bufs SEC(".maps");

SEC("tc") __success __retval(0x800)
int skb_eth_type(struct __sk_buff *skb)
{
	unsigned char b[2];

	if (bpf_skb_load_bytes(skb, 12, b, 2))
		return -1;
	return b[0] << 8 | b[1];
}

/*
 * A socket filter's packet (and cgroup_skb's, lwt's) starts past the Ethernet header: the test
 * run's eth_type_trans() pulled it and only tc's types push it back (is_l2 in
 * bpf_prog_test_run_skb(), 6.18), so the packet is 50 bytes and offset 12 is the IP header's.
 */
SEC("socket") __success __retval(0)
int socket_bytes_past_eth(struct __sk_buff *skb)
{
	unsigned char b[2] = {1, 1};

	if (bpf_skb_load_bytes(skb, 12, b, 2))
		return -1;
	return b[0] << 8 | b[1];
}

SEC("socket") __success __retval(-140)
int socket_past_end(struct __sk_buff *skb)
{
	unsigned char b[8] = {1, 1, 1, 1, 1, 1, 1, 1};
	long err = bpf_skb_load_bytes(skb, 46, b, 8);

	return err * 10 + b[0] + b[7];
}

SEC("socket") __success __retval(50)
int socket_len(struct __sk_buff *skb)
{
	return skb->len;
}

SEC("cgroup_skb/ingress") __success __retval(1)
int cgroup_skb_past_eth(struct __sk_buff *skb)
{
	unsigned char b[4];

	return bpf_skb_load_bytes(skb, 46, b, 4) == 0 && bpf_skb_load_bytes(skb, 47, b, 4) < 0;
}

SEC("tc") __success __retval(-140)
int skb_past_end(struct __sk_buff *skb)
{
	unsigned char b[8] = {1, 1, 1, 1, 1, 1, 1, 1};
	long err = bpf_skb_load_bytes(skb, 60, b, 8);

	return err * 10 + b[0] + b[7];
}

SEC("tc") __success __retval(104)
int skb_whole_frame(struct __sk_buff *skb)
{
	unsigned char b[64];
	int sum = 0;

	if (bpf_skb_load_bytes(skb, 0, b, sizeof(b)))
		return -1;
	for (int i = 0; i < 64; i++)
		sum += b[i] * (i + 1);
	return sum;
}

SEC("tc") __success __retval(-140)
int skb_huge_offset(struct __sk_buff *skb)
{
	unsigned char b[4] = {7, 7, 7, 7};
	long err = bpf_skb_load_bytes(skb, 0x80000000u, b, 4);

	return err * 10 + b[0];
}

SEC("tc") __success __retval(8)
int skb_into_map_value(struct __sk_buff *skb)
{
	int key = 0;
	char *v = bpf_map_lookup_elem(&bufs, &key);

	if (!v)
		return -1;
	if (bpf_skb_load_bytes(skb, 8, v, 16))
		return -2;
	return v[4];
}

SEC("tc") __failure __msg("invalid access to map value, value_size=16 off=0 size=24")
int skb_map_value_too_long(struct __sk_buff *skb)
{
	int key = 0;
	char *v = bpf_map_lookup_elem(&bufs, &key);

	if (!v)
		return -1;
	return bpf_skb_load_bytes(skb, 0, v, 24);
}

SEC("tc") __failure __msg("invalid write to stack R3 off=-16 size=32")
int skb_stack_too_long(struct __sk_buff *skb)
{
	char b[16];

	bpf_skb_load_bytes(skb, 0, b, 32);
	return b[0];
}

SEC("tc") __success __retval(1)
int skb_var_len(struct __sk_buff *skb)
{
	char b[16];
	__u32 len = (skb->len & 15) + 1;

	if (bpf_skb_load_bytes(skb, 0, b, len))
		return -1;
	return b[0] + len;
}

SEC("kprobe") __failure __msg("program of this type cannot use helper bpf_skb_load_bytes#26")
int skb_in_kprobe(void *ctx)
{
	char b[4];

	return bpf_skb_load_bytes(ctx, 0, b, 4);
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int skb_under_lock(struct __sk_buff *skb)
{
	char b[4];
	long err;

	bpf_spin_lock(&glock);
	err = bpf_skb_load_bytes(skb, 0, b, 4);
	bpf_spin_unlock(&glock);
	return err;
}

SEC("tc") __failure __msg("R1 type=fp expected=ctx")
int skb_not_ctx(struct __sk_buff *skb)
{
	char b[4], fake[64] = {};

	return bpf_skb_load_bytes(fake, 0, b, 4);
}

SEC("tc") __failure __msg("R3 type=ptr_ expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_")
int skb_into_object(struct __sk_buff *skb)
{
	struct pnode *n = bpf_obj_new(typeof(*n));
	int r;

	if (!n)
		return -1;
	r = bpf_skb_load_bytes(skb, 0, n->bytes, sizeof(n->bytes));
	r += n->bytes[12];
	bpf_obj_drop(n);
	return r;
}

SEC("tc") __failure __msg("R3 type=ptr_ expected=fp")
int skb_over_node(struct __sk_buff *skb)
{
	struct pnode *n = bpf_obj_new(typeof(*n));
	int r;

	if (!n)
		return -1;
	r = bpf_skb_load_bytes(skb, 0, n, sizeof(*n));
	bpf_obj_drop(n);
	return r;
}

SEC("tc") __failure __msg("R3 type=ptr_ expected=fp")
int skb_leak_on_error(struct __sk_buff *skb)
{
	struct pnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return -1;
	if (bpf_skb_load_bytes(skb, 0, n->bytes, 8))
		return -2;
	bpf_obj_drop(n);
	return 0;
}

SEC("tc") __success __retval(1)
int comm_tc(struct __sk_buff *skb)
{
	char c[16];

	if (bpf_get_current_comm(c, sizeof(c)))
		return -1;
	return c[0] != 0;
}

SEC("kprobe") __success
int comm_kprobe(void *ctx)
{
	char c[16];

	bpf_get_current_comm(c, sizeof(c));
	return c[0];
}

SEC("tc") __failure __msg("invalid write to stack R1 off=-8 size=16")
int comm_too_long(struct __sk_buff *skb)
{
	char c[8];

	bpf_get_current_comm(c, 16);
	return c[0];
}

SEC("tc") __success __retval(0)
int comm_short_buffer(struct __sk_buff *skb)
{
	char c[4];

	if (bpf_get_current_comm(c, sizeof(c)))
		return -1;
	return c[3];
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int comm_under_lock(struct __sk_buff *skb)
{
	char c[16];

	bpf_spin_lock(&glock);
	bpf_get_current_comm(c, sizeof(c));
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc") __success __retval(0)
int comm_into_map_value(struct __sk_buff *skb)
{
	int key = 0;
	char *v = bpf_map_lookup_elem(&bufs, &key);

	if (!v)
		return -1;
	return bpf_get_current_comm(v, 16);
}

SEC("tc") __failure __msg("R1 type=ptr_ expected=fp")
int comm_into_node(struct __sk_buff *skb)
{
	struct pnode *n = bpf_obj_new(typeof(*n));
	long r;

	if (!n)
		return -1;
	r = bpf_get_current_comm(n->bytes, sizeof(n->bytes));
	bpf_obj_drop(n);
	return r;
}

/* an array lookup with a constant key is never NULL (6.14+) */
SEC("tc") __success __retval(0)
int comm_unchecked_lookup(struct __sk_buff *skb)
{
	int key = 0;
	char *v = bpf_map_lookup_elem(&bufs, &key);

	return bpf_get_current_comm(v, 16);
}

/*
 * A length that is data: ARG_CONST_SIZE's bounds (check_mem_size_reg()).  Loaded as it is, its
 * minimum is zero (from the BPF object); all 64 bits unknown, its signed minimum is negative; only
 * checked against zero, or one added, its maximum is past any buffer (natively: the helper
 * would write past the program's frame).
 */
SEC("tc") __failure __msg("R4 invalid zero-sized read: u64=[0,65535]")
int len_u16(struct __sk_buff *skb)
{
	char b[16];
	__u16 len = skb->len;

	bpf_skb_load_bytes(skb, 0, b, len);
	return b[0];
}

SEC("kprobe") __failure __msg("R2 min value is negative, either use unsigned or 'var &= const'")
int comm_len_random(void *ctx)
{
	char c[16];
	__u32 n = bpf_get_prandom_u32();

	bpf_get_current_comm(c, n);
	return c[0];
}

SEC("tc") __failure __msg("R4 unbounded memory access, use 'var &= const' or 'if (var < const)'")
int len_checked_zero(struct __sk_buff *skb)
{
	char b[16];
	__u32 len = skb->len;

	if (!len)
		return 0;
	bpf_skb_load_bytes(skb, 0, b, len);
	return b[0];
}

SEC("tc") __failure __msg("R4 unbounded memory access, use 'var &= const' or 'if (var < const)'")
int len_plus_one(struct __sk_buff *skb)
{
	char b[16];
	__u32 len = skb->len + 1;

	bpf_skb_load_bytes(skb, 0, b, len);
	return b[0];
}

char _license[] SEC("license") = "GPL";
