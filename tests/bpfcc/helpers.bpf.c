// SPDX-License-Identifier: MIT
/*
 * Helpers the graph selftests of 6.13-6.18 call besides the graph kfuncs (issue #28):
 * bpf_jiffies64, bpf_ktime_get_{boot,coarse,tai}_ns, bpf_probe_read_kernel and
 * bpf_map_lookup_percpu_elem, natively as the kernel runs them.  tests/bpfcc/agree.sh holds
 * kfsim to the annotations and the running kernel to the same return values.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, u64);
} per_cpu SEC(".maps");

u64 secret = 0x1234;

/* Each clock moves forward (or stays): two readings in order. */
SEC("tc") __success __retval(4)
int clocks_move_forward(void *ctx)
{
	u64 j = bpf_jiffies64(), b = bpf_ktime_get_boot_ns(), c = bpf_ktime_get_coarse_ns();
	u64 t = bpf_ktime_get_tai_ns();

	return (bpf_jiffies64() >= j) + (bpf_ktime_get_boot_ns() >= b) +
	       (bpf_ktime_get_coarse_ns() >= c) + (bpf_ktime_get_tai_ns() >= t);
}

/* A readable address gives its bytes and 0. */
SEC("tc") __success __retval(0x1234)
int probe_read_global(void *ctx)
{
	u64 v = 0;

	if (bpf_probe_read_kernel(&v, sizeof(v), &secret))
		return -1;
	return (int)v;
}

/* NULL plus an offset is a user address: x86 refuses it with -ERANGE, the buffer zeroed. */
SEC("tc") __success __retval(-34)
int probe_read_null(void *ctx)
{
	u64 v = 1;
	long err = bpf_probe_read_kernel(&v, sizeof(v), (void *)8);

	return v ? -1 : (int)err;
}

/* CPU 0's copy of a per-CPU array element exists; writing it is seen by the next lookup. */
SEC("tc") __success __retval(7)
int percpu_lookup(void *ctx)
{
	int key = 0;
	u64 *v = bpf_map_lookup_percpu_elem(&per_cpu, &key, 0);

	if (!v)
		return -1;
	*v = 7;
	v = bpf_map_lookup_percpu_elem(&per_cpu, &key, 0);
	return v ? (int)*v : -2;
}

char _license[] SEC("license") = "GPL";
