// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fourth differential round (docs/bpf-graph.md, "The
 * fourth round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  The graph kfuncs and locks in program types other than
 * tc (xdp, syscall, socket filters, cgroup_skb), their return values, and a node type with two
 * graph nodes and no bpf_refcount, whose BTF the kernel refuses.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct pnode {
	struct bpf_list_node ln;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(P) struct bpf_spin_lock plock;
private(P) struct bpf_list_head plist __contains(pnode, ln);

int zero;

static int push_one(u64 key)
{
	struct pnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n->key = key;
	bpf_spin_lock(&plock);
	bpf_list_push_back(&plist, &n->ln);
	bpf_spin_unlock(&plock);
	return 1;
}

static int pop_one(void)
{
	struct bpf_list_node *l;
	int k;

	bpf_spin_lock(&plock);
	l = bpf_list_pop_front(&plist);
	bpf_spin_unlock(&plock);
	if (!l)
		return 0;
	k = container_of(l, struct pnode, ln)->key;
	bpf_obj_drop(container_of(l, struct pnode, ln));
	return k;
}

SEC("xdp")
int xdp_push(struct xdp_md *ctx)
{
	return push_one(2) ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int xdp_push_pop(struct xdp_md *ctx)
{
	push_one(3);
	return pop_one();
}

SEC("xdp")
int xdp_leak(struct xdp_md *ctx)
{
	struct pnode *n = bpf_obj_new(typeof(*n));

	return n ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int xdp_lock_held(struct xdp_md *ctx)
{
	bpf_spin_lock(&plock);
	return XDP_PASS;
}

SEC("syscall")
int syscall_push_pop(void *ctx)
{
	push_one(4);
	return pop_one();
}

SEC("syscall")
int syscall_rcu_open(void *ctx)
{
	bpf_rcu_read_lock();
	return 0;
}

SEC("syscall")
int syscall_drop_twice(void *ctx)
{
	struct pnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	bpf_obj_drop(n);
	bpf_obj_drop(n);
	return 1;
}

SEC("socket")
int socket_push(struct __sk_buff *skb)
{
	return push_one(5);
}

SEC("socket")
int socket_lock_only(struct __sk_buff *skb)
{
	bpf_spin_lock(&plock);
	bpf_spin_unlock(&plock);
	return 0;
}

SEC("cgroup_skb/ingress")
int cgskb_push_ret1(struct __sk_buff *skb)
{
	push_one(6);
	return 1;
}

SEC("cgroup_skb/ingress")
int cgskb_ret2(struct __sk_buff *skb)
{
	return 2;
}

SEC("cgroup_skb/egress")
int cgskb_egress_ret3(struct __sk_buff *skb)
{
	return 3;
}

SEC("cgroup_skb/egress")
int cgskb_egress_ret4(struct __sk_buff *skb)
{
	return 4;
}

SEC("cgroup_skb/ingress")
int cgskb_ret_key(struct __sk_buff *skb)
{
	return pop_one();
}

SEC("tc")
int tc_ret_negative(struct __sk_buff *skb)
{
	return -1;
}

SEC("tc")
int tc_lock_then_tail(struct __sk_buff *skb)
{
	bpf_spin_lock(&plock);
	if (skb->len > 1000) {
		bpf_spin_unlock(&plock);
		return 1;
	}
	bpf_spin_unlock(&plock);
	return 2;
}

SEC("tc")
int tc_len_branch_leak(struct __sk_buff *skb)
{
	struct pnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	if (skb->len > 1000)
		return 1;
	bpf_obj_drop(n);
	return 2;
}

SEC("tc")
int tc_len_branch_leak_taken(struct __sk_buff *skb)
{
	struct pnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	if (skb->len < 1000)
		return 1;
	bpf_obj_drop(n);
	return 2;
}

char _license[] SEC("license") = "GPL";
