// SPDX-License-Identifier: MIT
/*
 * Globals indexed by data as a user writes them (a histogram's counts[idx]++), against the
 * running 6.18 verifier (docs/bpf-graph.md, "The tenth round"): a data section is a map value
 * to it, so an index that is unbounded, signed, off by one after its check or masked wider
 * than the array is refused with the section's size.  In a file of their own: the messages
 * name that size.  tests/bpfcc/agree.sh holds kfsim to the annotations and the kernel to them.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

u64 counts[16];
u32 small[4] = {1, 2, 3, 4};
volatile u32 gidx = 3;
volatile s32 sidx = 2;

SEC("tc") __success
int f_count_masked(void *ctx)
{
	counts[gidx & 15]++;
	return 0;
}

SEC("tc") __failure __msg("R2 unbounded memory access, make sure to bounds check any such access")
int f_count_unbounded(void *ctx)
{
	counts[gidx]++;
	return 0;
}

SEC("tc") __failure
__msg("math between map_value pointer and register with unbounded min value is not allowed")
int f_count_signed(void *ctx)
{
	counts[sidx]++;
	return 0;
}

SEC("tc") __success
int f_count_checked(void *ctx)
{
	u32 i = gidx;

	if (i >= 16)
		return 0;
	counts[i]++;
	return 0;
}

SEC("tc") __failure __msg("invalid access to map value, value_size=128 off=128 size=8")
int f_count_off_by_one(void *ctx)
{
	u32 i = gidx;

	if (i > 16)
		return 0;
	counts[i]++;
	return 0;
}

SEC("tc") __failure __msg("invalid access to map value, value_size=24 off=28 size=4")
int f_small_masked_wide(void *ctx)
{
	return small[gidx & 7];
}

SEC("tc") __success
int f_small_const(void *ctx)
{
	return small[3] + small[0];
}

SEC("tc") __success
int f_small_key(void *ctx)
{
	return gidx + small[gidx & 3];
}

char _license[] SEC("license") = "GPL";
