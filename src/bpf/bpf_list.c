// SPDX-License-Identifier: MIT
/*
 * bpf_list_push_{front,back}, bpf_list_pop_{front,back}, bpf_list_{front,back}
 * (kernel/bpf/helpers.c) on a doubly linked list head.
 *
 * Invariants: a zero-filled head is an empty list, initialised on first use (as the kernel's
 * "if (unlikely(!h->next)) INIT_LIST_HEAD(h)"); every node on a list has owner == its head;
 * a node off every list is self-linked with owner NULL.
 */
#include <kfsim/bug.h>
#include "bpf_internal.h"
#include "bpf_explore_internal.h"

/* @caller: the program's call site (the return address the called kfunc saw) */
static int list_push(struct bpf_list_head *head, struct bpf_list_node *node, bool tail,
		     enum kfsim_bpf_kfunc_id id, const void *caller)
{
	struct bpf_list_head_kern *h = (struct bpf_list_head_kern *)head;
	struct bpf_list_node_kern *n = (struct bpf_list_node_kern *)node;
	struct bpf_root_decl decl;
	struct bpf_ref *ref = NULL;

	if (CHECKS) {
		if (!bpf_enter(id))
			return -EINVAL;
		if (!bpf_check_root(head, BPF_LIST_HEAD, &decl))
			goto refused;
		ref = bpf_insert_arg(&decl, node, caller);
		if (!ref)
			goto refused;
	}
	if (unlikely(!h->list.next))
		bpf_dlist_init(&h->list);
	/* 6.4+: a node already on a list is dropped and the push fails (the owner claim, 6.6) */
	if (!kfsim_bpf_owner_claim(&n->owner)) {
		if (CHECKS) {
			bpf_insert_failed(ref, bpf_decl_node_obj(&decl, node),
					  "at the failed push (the node was dropped)");
			bpf_leave();
		} else {
			bpf_nc_insert_failed(head, node);
		}
		return -EINVAL;
	}
	if (tail)
		bpf_dlist_insert(&n->list, h->list.prev, &h->list);
	else
		bpf_dlist_insert(&n->list, &h->list, h->list.next);
	__atomic_store_n(&n->owner, h, __ATOMIC_RELEASE);
	if (CHECKS) {
		bpf_ref_make_non_owning(ref);
		bpf_leave();
		/* 6.4+: the int the verifier cannot know; the reference is non-owning either way */
		if (bpf_exploring() && bpf_v64() && bpf_explore(true, true, false))
			return -EINVAL;
	}
	return 0;
refused:
	bpf_leave();
	return -EINVAL;
}

static struct bpf_list_node *list_take(struct bpf_list_head *head, bool tail, bool pop,
				       enum kfsim_bpf_kfunc_id id)
{
	struct bpf_list_head_kern *h = (struct bpf_list_head_kern *)head;
	struct bpf_list_node_kern *n;
	struct bpf_root_decl decl;

	if (CHECKS) {
		if (!bpf_enter(id))
			return NULL;
		if (!bpf_check_root(head, BPF_LIST_HEAD, &decl))
			goto refused;
	}
	if (unlikely(!h->list.next))
		bpf_dlist_init(&h->list);
	if (CHECKS && bpf_exploring() &&
	    bpf_explore(!bpf_dlist_empty(&h->list), true, bpf_dlist_empty(&h->list))) {
		if (!bpf_dlist_empty(&h->list) || !bpf_explore_list_fabricate(&decl, head))
			goto refused;
	}
	if (bpf_dlist_empty(&h->list))
		goto refused;
	n = (struct bpf_list_node_kern *)(tail ? h->list.prev : h->list.next);
	if (pop) {
		WARN_ON_ONCE(n->owner != h);
		bpf_dlist_del_init(&n->list);
		__atomic_store_n(&n->owner, NULL, __ATOMIC_RELEASE);
	}
	if (CHECKS) {
		if (!bpf_ref_add(bpf_decl_node_obj(&decl, n), bpf_decl_node_type(&decl),
				 pop ? BPF_REF_OWNING : BPF_REF_NON_OWNING) &&
		    pop) {
			/* cannot track it: put it back rather than lose it */
			__atomic_store_n(&n->owner, h, __ATOMIC_RELEASE);
			if (tail)
				bpf_dlist_insert(&n->list, h->list.prev, &h->list);
			else
				bpf_dlist_insert(&n->list, &h->list, h->list.next);
			goto refused;
		}
		bpf_leave();
	}
	return (struct bpf_list_node *)n;
refused:
	if (CHECKS)
		bpf_leave();
	return NULL;
}

int KFUNC(bpf_list_push_front_impl)(struct bpf_list_head *head, struct bpf_list_node *node,
				    void *meta__ign, u64 off)
{
	return list_push(head, node, false, KFSIM_KFUNC_bpf_list_push_front_impl,
			 __builtin_return_address(0));
}

int KFUNC(bpf_list_push_back_impl)(struct bpf_list_head *head, struct bpf_list_node *node,
				   void *meta__ign, u64 off)
{
	return list_push(head, node, true, KFSIM_KFUNC_bpf_list_push_back_impl,
			 __builtin_return_address(0));
}

struct bpf_list_node *KFUNC(bpf_list_pop_front)(struct bpf_list_head *head)
{
	if (CHECKS)
		bpf_note_caller(); /* here: list_take() may not be inlined */
	return list_take(head, false, true, KFSIM_KFUNC_bpf_list_pop_front);
}

struct bpf_list_node *KFUNC(bpf_list_pop_back)(struct bpf_list_head *head)
{
	if (CHECKS)
		bpf_note_caller(); /* here: list_take() may not be inlined */
	return list_take(head, true, true, KFSIM_KFUNC_bpf_list_pop_back);
}

struct bpf_list_node *KFUNC(bpf_list_front)(struct bpf_list_head *head)
{
	return list_take(head, false, false, KFSIM_KFUNC_bpf_list_front);
}

struct bpf_list_node *KFUNC(bpf_list_back)(struct bpf_list_head *head)
{
	return list_take(head, true, false, KFSIM_KFUNC_bpf_list_back);
}

#ifdef KFSIM_BPF_NC
/* The 6.3 forms' unchecked twins: the 6.4 pushes with their result dropped, as 6.3's had none. */
void KFUNC(bpf_list_push_front)(struct bpf_list_head *head, struct bpf_list_node *node)
{
	KFUNC(bpf_list_push_front_impl)(head, node, NULL, 0);
}

void KFUNC(bpf_list_push_back)(struct bpf_list_head *head, struct bpf_list_node *node)
{
	KFUNC(bpf_list_push_back_impl)(head, node, NULL, 0);
}
#else
void(bpf_list_push_front)(struct bpf_list_head *head, struct bpf_list_node *node)
{
	list_push(head, node, false, KFSIM_KFUNC_bpf_list_push_front, __builtin_return_address(0));
}

void(bpf_list_push_back)(struct bpf_list_head *head, struct bpf_list_node *node)
{
	list_push(head, node, true, KFSIM_KFUNC_bpf_list_push_back, __builtin_return_address(0));
}

int kfsim_bpf_list_push_front(struct bpf_list_head *head, struct bpf_list_node *node)
{
	return list_push(head, node, false,
			 bpf_mode() < KERNEL_VERSION(6, 4, 0) ? KFSIM_KFUNC_bpf_list_push_front
							      : KFSIM_KFUNC_bpf_list_push_front_impl,
			 __builtin_return_address(0));
}

int kfsim_bpf_list_push_back(struct bpf_list_head *head, struct bpf_list_node *node)
{
	return list_push(head, node, true,
			 bpf_mode() < KERNEL_VERSION(6, 4, 0) ? KFSIM_KFUNC_bpf_list_push_back
							      : KFSIM_KFUNC_bpf_list_push_back_impl,
			 __builtin_return_address(0));
}

/*
 * bpf_list_head_free(): empty the list under its lock, then drop every node with the lock
 * released (dropping may free nested collections, which take their own locks).
 */
void bpf_list_head_drain(void *head, struct bpf_spin_lock *lock, s32 node_off)
{
	struct bpf_list_head_kern *h = head;
	struct bpf_dlist stolen;

	kfsim_bpf_raw_lock(lock);
	if (!h->list.next || bpf_dlist_empty(&h->list)) {
		kfsim_bpf_raw_unlock(lock);
		return;
	}
	stolen.next = h->list.next;
	stolen.prev = h->list.prev;
	stolen.next->prev = &stolen;
	stolen.prev->next = &stolen;
	bpf_dlist_init(&h->list);
	kfsim_bpf_raw_unlock(lock);
	while (!bpf_dlist_empty(&stolen)) {
		struct bpf_list_node_kern *n = (struct bpf_list_node_kern *)stolen.next;

		bpf_dlist_del_init(&n->list);
		__atomic_store_n(&n->owner, NULL, __ATOMIC_RELEASE);
		bpf_obj_drop_raw((char *)n - node_off);
	}
}
#endif
