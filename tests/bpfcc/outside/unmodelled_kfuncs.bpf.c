// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fifth differential round (docs/bpf-graph.md, "The fifth
 * round"): kfuncs a sched_ext developer uses that kfsim's kfunc list does not have (the numeric
 * iterator, per-CPU local objects, exceptions).  What is measured is how kfsim-bpf-cc refuses
 * them: a clean "not provided" at build time, never a crash or a wrong verdict.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

SEC("tc")
int iter_num_sum(void *ctx)
{
	struct bpf_iter_num it;
	int *v, s = 0;

	bpf_iter_num_new(&it, 0, 4);
	while ((v = bpf_iter_num_next(&it)))
		s += *v;
	bpf_iter_num_destroy(&it);
	return s;
}

SEC("tc")
int iter_num_not_destroyed(void *ctx)
{
	struct bpf_iter_num it;

	bpf_iter_num_new(&it, 0, 4);
	return 0;
}

char _license[] SEC("license") = "GPL";
