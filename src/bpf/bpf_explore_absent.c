// SPDX-License-Identifier: MIT
/*
 * The fork explorer where there are no processes: the WebAssembly module
 * (cmake/kfsim_wasm_module.cmake swaps this file in for bpf_explore_run.c).  Each path of
 * kfsim_bpf_explore() runs in a process of its own, and a page in a browser cannot fork: the
 * call fails as fork() fails there, -ENOSYS, and explores nothing.  The decision points
 * themselves (bpf_explore.c) are unchanged: a run without an explorer takes its natural path.
 */
#include <errno.h>
#include <string.h>

#include <kfsim/bpf_explore.h>

int kfsim_bpf_explore(kfsim_bpf_explore_path_fn path, void *arg,
		      const struct kfsim_bpf_explore_opts *opts,
		      struct kfsim_bpf_explore_report *report)
{
	if (report)
		memset(report, 0, sizeof(*report));
	return -ENOSYS;
}

void kfsim_bpf_explore_path_exit(int end)
{
}

void kfsim_bpf_explore_release(struct kfsim_bpf_explore_report *report)
{
}
