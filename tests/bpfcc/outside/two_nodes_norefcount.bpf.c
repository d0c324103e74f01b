// SPDX-License-Identifier: MIT
/*
 * The fourth differential round (docs/bpf-graph.md, "The fourth round"), without annotations:
 * a node type in a list and a tree and no bpf_refcount field, whose BTF the kernel refuses, so
 * every program that locks, allocates or unlocks first fails on what it does first.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct twin {
	struct bpf_list_node ln;
	struct bpf_rb_node rb;
	u64 key;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(W) struct bpf_spin_lock wlock;
private(W) struct bpf_list_head wlist __contains(twin, ln);

SEC("tc")
int unlock_first(void *ctx)
{
	bpf_spin_unlock(&wlock);
	return 0;
}

SEC("tc")
int lock_first(void *ctx)
{
	bpf_spin_lock(&wlock);
	bpf_spin_unlock(&wlock);
	return 0;
}

SEC("tc")
int new_first(void *ctx)
{
	struct twin *t = bpf_obj_new(typeof(*t));

	if (t)
		bpf_obj_drop(t);
	return 0;
}

SEC("tc")
int loop_new_then_lock(void *ctx)
{
	int i = 0;

	while (i < 2 && can_loop) {
		struct twin *t = bpf_obj_new(typeof(*t));

		i++;
		if (t)
			bpf_obj_drop(t);
	}
	bpf_spin_lock(&wlock);
	bpf_spin_unlock(&wlock);
	return 0;
}

SEC("tc")
int plain(void *ctx)
{
	return 1;
}

char _license[] SEC("license") = "GPL";
