// SPDX-License-Identifier: MIT
/*
 * References belong to call results, not to objects (issue #28, rule 6): bpf_list_front()
 * gives a non-owning reference, and it stays non-owning when bpf_list_pop_front() of the same
 * node gives an owning one (another register, the same address).  Pushing the front() result is
 * refused whatever happened to the node meanwhile: "arg#1 expected pointer to allocated object"
 * (check_kfunc_args(): a non-owning reference is not PTR_TO_BTF_ID | MEM_ALLOC; 6.12 and the
 * running 6.18).  A native run sees one address for both, so kfsim-bpf-cc follows the front()
 * result through the BPF object to the push.
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

/* the popped node is pushed back first: both registers then hold non-owning references */
SEC("tc") __failure __msg("arg#1 expected pointer to allocated object")
int front_pushed_after_pop_and_push(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));
	struct bpf_list_node *front, *popped;

	if (!n)
		return 0;
	bpf_spin_lock(&lock);
	bpf_list_push_front(&head, &n->link);
	front = bpf_list_front(&head);
	if (!front) {
		bpf_spin_unlock(&lock);
		return 0;
	}
	popped = bpf_list_pop_front(&head);
	if (!popped) {
		bpf_spin_unlock(&lock);
		return 0;
	}
	bpf_list_push_back(&head, popped);
	bpf_list_push_back(&head, front);
	bpf_spin_unlock(&lock);
	return 0;
}

/* the popped node is owned by the program, yet the front() result is still not an owner */
SEC("tc") __failure __msg("arg#1 expected pointer to allocated object")
int front_pushed_while_popped(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));
	struct bpf_list_node *front, *popped;

	if (!n)
		return 0;
	bpf_spin_lock(&lock);
	bpf_list_push_front(&head, &n->link);
	front = bpf_list_front(&head);
	if (!front) {
		bpf_spin_unlock(&lock);
		return 0;
	}
	popped = bpf_list_pop_front(&head);
	if (!popped) {
		bpf_spin_unlock(&lock);
		return 0;
	}
	bpf_list_push_back(&head, front);
	bpf_spin_unlock(&lock);
	bpf_obj_drop(container_of(popped, struct item, link));
	return 0;
}

/* the owning result pushed back: accepted */
SEC("tc") __success __retval(0)
int popped_pushed_back(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));
	struct bpf_list_node *front, *popped;

	if (!n)
		return 0;
	bpf_spin_lock(&lock);
	bpf_list_push_front(&head, &n->link);
	front = bpf_list_front(&head);
	if (!front) {
		bpf_spin_unlock(&lock);
		return 0;
	}
	popped = bpf_list_pop_front(&head);
	if (!popped) {
		bpf_spin_unlock(&lock);
		return 0;
	}
	bpf_list_push_back(&head, popped);
	bpf_spin_unlock(&lock);
	return 0;
}

char _license[] SEC("license") = "GPL";
