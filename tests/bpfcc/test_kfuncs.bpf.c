// SPDX-License-Identifier: MIT
/*
 * The selftests' test kfuncs, as the 6.12 graph selftests declare and call them: kfsim-bpf-cc
 * refuses both by name with the reason, and the running kernel cannot load the program either
 * (bpf_kfunc_call_test_acquire lives in the bpf_testmod module).  tests/bpfcc/test_kfuncs.sh.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"

extern struct prog_test_ref_kfunc *bpf_kfunc_call_test_acquire(unsigned long *scalar_ptr) __ksym;
extern void bpf_kfunc_call_test_release(struct prog_test_ref_kfunc *p) __ksym;

SEC("tc")
int acquire_and_release(void *ctx)
{
	unsigned long sp = 0;
	struct prog_test_ref_kfunc *p = bpf_kfunc_call_test_acquire(&sp);

	if (!p)
		return 1;
	bpf_kfunc_call_test_release(p);
	return 0;
}

char _license[] SEC("license") = "GPL";
