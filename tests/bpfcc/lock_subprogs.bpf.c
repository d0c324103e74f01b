// SPDX-License-Identifier: MIT
/*
 * Subprograms called while a bpf_spin_lock is held (issue #28, rule 2).  The verifier checks a
 * global function on its own, with no lock, so a call to one under the lock is refused:
 * "global function calls are not allowed while holding a lock, use static function instead";
 * a static function is checked in the caller's state and may be called there.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(C) struct bpf_spin_lock lock;
private(C) u64 counter;

__noinline int global_bump(u64 by)
{
	return (int)(by + 1);
}

static __noinline int static_bump(u64 by)
{
	return (int)(by + 1);
}

SEC("tc") __failure __msg("global function calls are not allowed while holding a lock")
int global_call_locked(void *ctx)
{
	int r;

	bpf_spin_lock(&lock);
	r = global_bump(counter);
	bpf_spin_unlock(&lock);
	return r;
}

SEC("tc") __success __retval(2)
int static_call_locked(void *ctx)
{
	int r;

	bpf_spin_lock(&lock);
	r = static_bump(1);
	bpf_spin_unlock(&lock);
	return r;
}

SEC("tc") __success __retval(3)
int global_call_unlocked(void *ctx)
{
	return global_bump(2);
}

char _license[] SEC("license") = "GPL";
