// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fourth differential round (docs/bpf-graph.md, "The
 * fourth round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  Which program types may call the allocation and graph
 * kfuncs, the RCU and preemption kfuncs, and their return-value ranges, with no lock in sight
 * (a section with a lock is refused to a socket filter before anything else).
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct knode {
	struct bpf_list_node ln;
	u64 key;
};

static int new_drop(void)
{
	struct knode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_obj_drop(n);
	return 1;
}

SEC("socket")
int socket_new_drop(struct __sk_buff *skb)
{
	return new_drop();
}

SEC("socket")
int socket_rcu(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return 0;
}

SEC("socket")
int socket_preempt(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_preempt_enable();
	return 0;
}

SEC("cgroup_skb/ingress")
int cgskb_new_drop(struct __sk_buff *skb)
{
	return new_drop();
}

SEC("cgroup/sock_create")
int cgsock_new_drop(struct bpf_sock *sk)
{
	return new_drop();
}

SEC("cgroup/sock_create")
int cgsock_ret2(struct bpf_sock *sk)
{
	return 2;
}

SEC("cgroup/connect4")
int connect4_ret1(struct bpf_sock_addr *ctx)
{
	return 1;
}

SEC("cgroup/connect4")
int connect4_new_drop(struct bpf_sock_addr *ctx)
{
	return new_drop();
}

SEC("sk_skb/stream_verdict")
int skskb_new_drop(struct __sk_buff *skb)
{
	return new_drop();
}

SEC("sk_msg")
int skmsg_new_drop(struct sk_msg_md *msg)
{
	return new_drop();
}

SEC("sockops")
int sockops_new_drop(struct bpf_sock_ops *ops)
{
	return new_drop();
}

SEC("lwt_in")
int lwt_new_drop(struct __sk_buff *skb)
{
	return new_drop();
}

SEC("flow_dissector")
int flow_new_drop(struct __sk_buff *skb)
{
	return new_drop();
}

SEC("xdp")
int xdp_new_drop(struct xdp_md *ctx)
{
	return new_drop() ? XDP_PASS : XDP_DROP;
}

SEC("syscall")
int syscall_new_drop(void *ctx)
{
	return new_drop();
}

SEC("tc")
int tc_preempt_rcu(struct __sk_buff *skb)
{
	bpf_preempt_disable();
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_preempt_enable();
	return 0;
}

char _license[] SEC("license") = "GPL";
