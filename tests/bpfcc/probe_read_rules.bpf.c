// SPDX-License-Identifier: MIT
/*
 * bpf_probe_read_kernel()'s buffer and length as the running 6.18 verifier checks them: the
 * programs it refuses, apart from helpers.bpf.c, whose programs all load (scripts/bench's
 * bpftest loads that file whole with `bpftool prog loadall`).  tests/bpfcc/agree.sh holds kfsim
 * to the annotations and to the running kernel's verdicts.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

u64 secret = 0x1234;

/*
 * Its buffer as the verifier checks it (the running 6.18): never an object of bpf_obj_new(), never
 * past the stack frame, and a length that is data bounded (zero allowed: ARG_CONST_SIZE_OR_ZERO).
 */
struct probe_obj {
	long a, b;
	struct bpf_rb_node rb;
};

SEC("tc") __failure
__msg("R1 type=ptr_ expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_")
int probe_into_object(void *ctx)
{
	struct probe_obj *o = bpf_obj_new(typeof(*o));
	long r;

	if (!o)
		return 0;
	r = bpf_probe_read_kernel(&o->a, 8, &secret);
	bpf_obj_drop(o);
	return r;
}

SEC("tc") __failure __msg("invalid write to stack R1 off=-4 size=8")
int probe_past_frame(void *ctx)
{
	u32 v;

	bpf_probe_read_kernel(&v, 8, &secret);
	return v;
}

SEC("tc") __failure __msg("R2 unbounded memory access, use 'var &= const' or 'if (var < const)'")
int probe_len_unbounded(struct __sk_buff *skb)
{
	char b[8];

	bpf_probe_read_kernel(b, skb->len, &secret);
	return b[0];
}

char _license[] SEC("license") = "GPL";
