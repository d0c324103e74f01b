// SPDX-License-Identifier: MIT
/*
 * bpf_preempt_disable()/bpf_preempt_enable() (6.10) beside the graph kfuncs, each program
 * checked against the running 6.18 (tests/bpfcc/agree.sh, kfsim in 6.18 rules):
 * - the count must be zero at the main program's exit, whether the disables were made in the
 *   program or in a static subprogram: "BPF_EXIT instruction in main prog cannot be used inside
 *   bpf_preempt_disable-ed region" (6.14's check_resource_leak(); 6.10 to 6.13 said "N
 *   bpf_preempt_enable(s) are missing", tests/bpf/test_rules.c);
 * - a leaked reference is reported before it (check_resource_leak() tests references first);
 * - an enable needs an outstanding disable;
 * - both are kfuncs: not callable while a bpf_spin_lock is held;
 * - a global function may be called with preemption disabled from 6.15, when it cannot sleep
 *   (6.10 to 6.14 refused any global call there);
 * - the graph kfuncs and the lock work as usual inside the region.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct item {
	struct bpf_list_node link;
	u64 value;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(L) struct bpf_spin_lock lock;
private(L) struct bpf_list_head head __contains(item, link);

static __noinline void disable_twice(void)
{
	bpf_preempt_disable();
	bpf_preempt_disable();
}

static __noinline void enable_once(void)
{
	bpf_preempt_enable();
}

__noinline int global_add(int x)
{
	return x + 1;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_preempt_disable-ed region")
int exit_disabled(void *ctx)
{
	bpf_preempt_disable();
	return 0;
}

SEC("tc") __failure __msg("BPF_EXIT instruction in main prog cannot be used inside bpf_preempt_disable-ed region")
int exit_disabled_in_subprog(void *ctx)
{
	disable_twice();
	enable_once();
	return 0;
}

SEC("tc") __failure __msg("Unreleased reference id=2 alloc_insn={{[0-9]+}}")
int leak_reported_first(void *ctx)
{
	struct item *n;

	bpf_preempt_disable();
	n = bpf_obj_new(typeof(*n));
	if (!n) {
		bpf_preempt_enable();
		return 0;
	}
	return 1;
}

SEC("tc") __failure __msg("unmatched attempt to enable preemption (kernel function bpf_preempt_enable)")
int enable_unmatched(void *ctx)
{
	bpf_preempt_disable();
	bpf_preempt_enable();
	bpf_preempt_enable();
	return 0;
}

SEC("tc") __failure __msg("function calls are not allowed while holding a lock")
int disable_under_lock(void *ctx)
{
	bpf_spin_lock(&lock);
	bpf_preempt_disable();
	bpf_spin_unlock(&lock);
	bpf_preempt_enable();
	return 0;
}

SEC("tc") __success __retval(3)
int global_call_disabled(void *ctx)
{
	int r;

	bpf_preempt_disable();
	r = global_add(2);
	bpf_preempt_enable();
	return r;
}

SEC("tc") __success __retval(7)
int graph_inside_region(void *ctx)
{
	struct bpf_list_node *l;
	struct item *n;
	u64 v = 0;

	disable_twice();
	n = bpf_obj_new(typeof(*n));
	if (n) {
		n->value = 7;
		bpf_spin_lock(&lock);
		bpf_list_push_front(&head, &n->link);
		l = bpf_list_pop_front(&head);
		bpf_spin_unlock(&lock);
		if (l) {
			n = container_of(l, struct item, link);
			v = n->value;
			bpf_obj_drop(n);
		}
	}
	enable_once();
	bpf_preempt_enable();
	return v;
}

char _license[] SEC("license") = "GPL";
