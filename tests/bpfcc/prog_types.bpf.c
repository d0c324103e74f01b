// SPDX-License-Identifier: MIT
/*
 * The program type's rules (docs/bpf-graph.md, "The fourth round"): a socket filter may not use
 * a section with a bpf_spin_lock; socket filter, sk_skb, sk_msg, lwt and flow dissector programs
 * may call the RCU and preemption kfuncs (common_kfunc_set) but not the allocation and graph
 * ones; cgroup_skb and cgroup/sock programs return a verdict in a fixed range, checked after the
 * resource checks.  The messages are the running 6.18's (tests/bpfcc/agree.sh), each found by a
 * program of tests/bpfcc/outside/ that the kernel refused and kfsim accepted.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct pt_node {
	struct bpf_list_node ln;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_list_head tlist __contains(pt_node, ln);

static int new_drop(void)
{
	struct pt_node *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_obj_drop(n);
	return 1;
}

SEC("socket") __failure __msg("socket filter progs cannot use bpf_spin_lock yet")
int socket_locks(struct __sk_buff *skb)
{
	bpf_spin_lock(&tlock);
	bpf_spin_unlock(&tlock);
	return 0;
}

SEC("socket") __failure __msg("calling kernel function bpf_obj_new_impl is not allowed")
int socket_allocates(struct __sk_buff *skb)
{
	return new_drop();
}

SEC("socket") __success
int socket_rcu_preempt(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_preempt_disable();
	bpf_preempt_enable();
	return 0;
}

SEC("sk_skb/stream_verdict") __failure __msg("calling kernel function bpf_obj_new_impl is not allowed")
int sk_skb_allocates(struct __sk_buff *skb)
{
	return new_drop();
}

SEC("sk_msg") __failure __msg("calling kernel function bpf_obj_new_impl is not allowed")
int sk_msg_allocates(struct sk_msg_md *msg)
{
	return new_drop();
}

SEC("lwt_in") __failure __msg("calling kernel function bpf_obj_new_impl is not allowed")
int lwt_allocates(struct __sk_buff *skb)
{
	return new_drop();
}

SEC("flow_dissector") __failure __msg("calling kernel function bpf_obj_new_impl is not allowed")
int flow_dissector_allocates(struct __sk_buff *skb)
{
	return new_drop();
}

SEC("cgroup_skb/ingress") __success
int cgroup_skb_pushes(struct __sk_buff *skb)
{
	struct pt_node *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_spin_lock(&tlock);
	bpf_list_push_back(&tlist, &n->ln);
	bpf_spin_unlock(&tlock);
	return 1;
}

SEC("cgroup_skb/ingress")
__failure __msg("At program exit the register R0 has smin=2 smax=2 should have been in [0, 1]")
int cgroup_skb_ingress_returns_2(struct __sk_buff *skb)
{
	return 2;
}

SEC("cgroup_skb/egress") __success
int cgroup_skb_egress_returns_3(struct __sk_buff *skb)
{
	return 3;
}

SEC("cgroup_skb/egress")
__failure __msg("At program exit the register R0 has smin=4 smax=4 should have been in [0, 3]")
int cgroup_skb_egress_returns_4(struct __sk_buff *skb)
{
	return 4;
}

SEC("cgroup_skb/ingress") __failure __msg("Unreleased reference id=2")
int cgroup_skb_leaks_and_returns_5(struct __sk_buff *skb)
{
	struct pt_node *n = bpf_obj_new(typeof(*n));

	return n ? 5 : 6;
}

/* natively the allocation succeeds: the exploring mode finds the NULL path's verdict */
SEC("cgroup_skb/ingress")
__failure __msg("At program exit the register R0 has smin=6 smax=6 should have been in [0, 1]")
int cgroup_skb_null_path_returns_6(struct __sk_buff *skb)
{
	struct pt_node *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 6;
	bpf_obj_drop(n);
	return 1;
}

SEC("cgroup/sock_create")
__failure __msg("At program exit the register R0 has smin=2 smax=2 should have been in [0, 1]")
int cgroup_sock_returns_2(struct bpf_sock *sk)
{
	return 2;
}

SEC("tc") __success __retval(1)
int tc_allocates(struct __sk_buff *skb)
{
	return new_drop();
}

char _license[] SEC("license") = "GPL";
