// SPDX-License-Identifier: MIT
/*
 * The map helpers as a user calls them, against the running 6.18 verifier and its test runs
 * (docs/bpf-graph.md, "The tenth round"): their return codes (an array's delete, BPF_NOEXIST
 * on an array, a key past its end, bad flags, BPF_EXIST and a missing key in a hash), keys in
 * a global, in .rodata and in a map value, an uninitialised key (root may read it), a value
 * taken from a global shorter than the map's value (its section is the map value the verifier
 * checks), a pointer moved before a value's start by data, a per-CPU lookup in an array.  In a
 * file of their own: the verifier's messages name the size of the section the globals share.
 * tests/bpfcc/agree.sh holds kfsim to the annotations and the running kernel to them.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, u32);
	__type(value, u64);
	__uint(max_entries, 4);
} ar SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u32);
	__type(value, u64);
	__uint(max_entries, 2);
} hs SEC(".maps");

u32 gkey = 1;
const volatile u32 rkey = 2;
volatile u32 gv = 3;

SEC("tc") __success
int e_array_delete(void *ctx)
{
	u32 k = 0;

	return bpf_map_delete_elem(&ar, &k);
}

SEC("tc") __success
int e_array_noexist(void *ctx)
{
	u32 k = 0;
	u64 v = 1;

	return bpf_map_update_elem(&ar, &k, &v, BPF_NOEXIST);
}

SEC("tc") __success
int e_array_past_end(void *ctx)
{
	u32 k = 9;
	u64 v = 1;

	return bpf_map_update_elem(&ar, &k, &v, BPF_ANY);
}

SEC("tc") __success
int e_bad_flags(void *ctx)
{
	u32 k = 0;
	u64 v = 1;

	return bpf_map_update_elem(&ar, &k, &v, 7);
}

SEC("tc") __success
int e_hash_exist(void *ctx)
{
	u32 k = 20;
	u64 v = 1;

	return bpf_map_update_elem(&hs, &k, &v, BPF_EXIST);
}

SEC("tc") __success
int e_hash_delete_missing(void *ctx)
{
	u32 k = 21;

	return bpf_map_delete_elem(&hs, &k);
}

SEC("tc") __success
int e_key_global(void *ctx)
{
	u64 *p = bpf_map_lookup_elem(&ar, &gkey);

	return p ? 1 : 0;
}

SEC("tc") __success
int e_key_rodata(void *ctx)
{
	u64 *p = bpf_map_lookup_elem(&ar, (void *)&rkey);

	return p ? 2 : 0;
}

SEC("tc") __success
int e_key_in_value(void *ctx)
{
	u32 k = 0;
	u64 *p = bpf_map_lookup_elem(&ar, &k), *q;

	if (!p)
		return 0;
	q = bpf_map_lookup_elem(&ar, p);
	return q ? 3 : 0;
}

SEC("tc") __failure __msg("invalid access to map value, value_size=8 off=4 size=8")
int e_value_from_global(void *ctx)
{
	u32 k = 1;

	return bpf_map_update_elem(&ar, &k, (void *)&gv, BPF_ANY);
}

SEC("tc") __success
int e_uninit_key(void *ctx)
{
	u32 k;
	u64 *p;

	asm volatile("" : "=m"(k));
	p = bpf_map_lookup_elem(&ar, &k);
	return p ? 1 : 0;
}

SEC("tc") __failure __msg("invalid access to map value, value_size=8 off=-24 size=8")
int e_value_ptr_sub(void *ctx)
{
	u32 k = 0;
	u64 *p = bpf_map_lookup_elem(&ar, &k);

	if (!p)
		return 0;
	return *(p + gv - 3);
}

SEC("tc") __failure __msg("cannot pass map_type 2 into func bpf_map_lookup_percpu_elem#195")
int e_percpu_lookup_cpu(void *ctx)
{
	u32 k = 0;
	u64 *p = bpf_map_lookup_percpu_elem(&ar, &k, 0);

	return p ? 1 : 0;
}

char _license[] SEC("license") = "GPL";
