// SPDX-License-Identifier: MIT
/*
 * The guide's example kfunc used from a BPF C file, run by `kfsim bpf test`: one program that
 * calls it, one that calls it with a lock held, which the row's flags refuse.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(G) struct bpf_spin_lock glock;

SEC("tc")
__success __retval(21)
long triple_seven(void *ctx)
{
	return bpf_guide_triple(7);
}

SEC("tc")
__failure __msg("function calls are not allowed while holding a lock")
long triple_under_lock(void *ctx)
{
	long ret;

	bpf_spin_lock(&glock);
	ret = bpf_guide_triple(7);
	bpf_spin_unlock(&glock);
	return ret;
}

char _license[] SEC("license") = "GPL";
