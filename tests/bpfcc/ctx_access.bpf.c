// SPDX-License-Identifier: MIT
/*
 * Contexts and pointers a native run cannot be trusted with, as the running 6.18 verifier
 * refuses them (docs/bpf-graph.md, "The tenth round"): an xdp program's store into xdp_md or a
 * read past it, a packet pointer dereferenced before a compare with data_end gave it a range
 * (natively ctx->data is 0: a crash), a socket filter's store outside cb[], a context moved by
 * data, a constant too large for pointer math (natively a crash).  tests/bpfcc/agree.sh holds
 * kfsim to the annotations and the running kernel to them.  Written here.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, u32);
	__type(value, u64);
	__uint(max_entries, 1);
} am SEC(".maps");

volatile u32 gi = 1;

SEC("xdp") __failure __msg("invalid bpf_context access off=0 size=4")
int h_xdp_write_data(struct xdp_md *ctx)
{
	ctx->data = 0;
	return 2;
}

SEC("xdp") __failure __msg("invalid bpf_context access off=64 size=4")
int h_xdp_read_past(struct xdp_md *ctx)
{
	return *(u32 *)((char *)ctx + 64);
}

SEC("xdp") __failure __msg("invalid access to packet, off=0 size=1, R1(id=0,off=0,r=0)")
int h_xdp_deref_data(struct xdp_md *ctx)
{
	return *(u8 *)(long)ctx->data;
}

SEC("socket") __failure __msg("invalid bpf_context access off=8 size=4")
int h_sock_write_mark(struct __sk_buff *skb)
{
	skb->mark = 3;
	return 0;
}

SEC("tc") __failure __msg("variable ctx access var_off=(0x0; 0x4) disallowed")
int h_ctx_var_read(struct __sk_buff *skb)
{
	return *(u32 *)((char *)skb + (gi & 4));
}

SEC("tc") __success
int h_value_ptr_stored(void *ctx)
{
	u32 k = 0;
	u64 *p = bpf_map_lookup_elem(&am, &k);

	if (!p)
		return 0;
	*p = (u64)p;
	return 0;
}

SEC("tc") __failure __msg("math between map_value pointer and 2147483648 is not allowed")
int h_huge_index_const(void *ctx)
{
	u32 k = 0;
	u64 *p = bpf_map_lookup_elem(&am, &k);

	if (!p)
		return 0;
	return *(p + 0x10000000);
}

char _license[] SEC("license") = "GPL";
