// SPDX-License-Identifier: MIT
/*
 * The ring buffer programs of ours on which kfsim and the running 6.18.44 still differ
 * (docs/bpf-graph.md, "Ring buffers"); the annotations are the kernel's.  Not a CI test.
 * - leak_in_loop_cb, leak_in_global: kfsim says id=2, the kernel id=3: the verifier's move of
 *   an unknown scalar (r6 = r1, the callback's index or the global function's argument) takes
 *   an id for the linked registers, which kfsim's count, moved by calls only, does not see (the
 *   listed "leak-id" kind).
 * - write_past_in_static: the record passed to a static function and written past its size
 *   there; kfsim's data-flow keeps the record's size in the function that reserved it only, and
 *   accepts.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

static long cb_leak(u64 i, void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	*e = i;
	return 0;
}

SEC("tc") __failure __msg("Unreleased reference id=3 alloc_insn=12") int leak_in_loop_cb(void *ctx)
{
	return bpf_loop(5, cb_leak, NULL, 0);
}

__noinline int global_leak(int x)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	*e = x;
	return 0;
}

SEC("tc") __failure __msg("Unreleased reference id=3 alloc_insn=8") int leak_in_global(void *ctx)
{
	return global_leak(3);
}

static __noinline void fill(u64 *e)
{
	e[1] = 1;
}

SEC("tc")
__failure __msg("invalid access to memory, mem_size=8 off=8 size=8") int write_past_in_static(
	void *ctx)
{
	u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);
	if (!e)
		return 1;
	fill(e);
	bpf_ringbuf_submit(e, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
