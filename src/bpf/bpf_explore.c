// SPDX-License-Identifier: MIT
/*
 * Decision points (<kfsim/bpf_explore.h>): the thread's explorer, asked by the kfuncs at every
 * result the verifier follows both ways, and the objects fabricated when the other outcome of a
 * NULL result is a node the collection does not have.
 *
 * Invariants: a fabricated object is a bpf_obj_new() object of the collection's contained type
 * (zeroed, special fields initialised), owned by the collection it is linked into (owner word
 * set), so that the kfunc then returns it with the reference it gives any node, and draining or
 * freeing the collection frees it.  The explorer is per thread and only asked inside a run.
 * A fabricated rb node does not respect the tree's order (no less() runs): the verifier knows
 * nothing of keys either, and kfsim never checks the order unless the run asks
 * (check_less_order), which looks only at pairs less() is called on.
 */
#include "bpf_explore_internal.h"

__thread kfsim_bpf_explore_fn bpf_explorer;
static __thread void *bpf_explorer_arg;

void kfsim_bpf_explore_set(kfsim_bpf_explore_fn fn, void *arg)
{
	bpf_explorer = fn;
	bpf_explorer_arg = arg;
}

bool bpf_explore(bool natural, bool can_flip, bool fabricates)
{
	struct kfsim_bpf_decision d = {
		.kfunc = bpf_tstate.kfunc,
		.natural = natural,
		.can_flip = can_flip,
		.fabricates = fabricates,
	};

	return kfsim_bpf_explore_decide(&d);
}

bool kfsim_bpf_explore_decide(const struct kfsim_bpf_decision *d)
{
	if (!bpf_exploring())
		return false;
	return bpf_explorer(d, bpf_explorer_arg) && d->can_flip;
}

struct rb_node *bpf_explore_rb_fabricate(const struct bpf_root_decl *decl, struct bpf_rb_root *root,
					 enum bpf_explore_rb_place place, struct rb_node *parent)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct rb_node **link = &r->tree.rb_root.rb_node;
	struct bpf_rb_node_kern *n;
	bool leftmost = true;
	void *obj;

	switch (place) {
	case BPF_EXPLORE_FIRST:
		parent = r->tree.rb_leftmost;
		if (parent)
			link = &parent->rb_left;
		break;
	case BPF_EXPLORE_ROOT:
		parent = NULL;
		break;
	case BPF_EXPLORE_LEFT:
		link = &parent->rb_left;
		leftmost = r->tree.rb_leftmost == parent;
		break;
	case BPF_EXPLORE_RIGHT:
		link = &parent->rb_right;
		leftmost = false;
		break;
	}
	if (*link)
		return NULL; /* the place is taken: the natural result was not NULL */
	obj = bpf_obj_alloc_type(decl->node_type);
	if (!obj)
		return NULL;
	n = (struct bpf_rb_node_kern *)((char *)obj + decl->node_off);
	rb_link_node(&n->rb, parent, link);
	rb_insert_color_cached(&n->rb, &r->tree, leftmost);
	__atomic_store_n(&n->owner, r, __ATOMIC_RELEASE);
	return &n->rb;
}

struct bpf_list_node *bpf_explore_list_fabricate(const struct bpf_root_decl *decl,
						 struct bpf_list_head *head)
{
	struct bpf_list_head_kern *h = (struct bpf_list_head_kern *)head;
	struct bpf_list_node_kern *n;
	void *obj = bpf_obj_alloc_type(decl->node_type);

	if (!obj)
		return NULL;
	n = (struct bpf_list_node_kern *)((char *)obj + decl->node_off);
	if (!h->list.next)
		bpf_dlist_init(&h->list);
	bpf_dlist_insert(&n->list, &h->list, h->list.next);
	__atomic_store_n(&n->owner, h, __ATOMIC_RELEASE);
	return (struct bpf_list_node *)n;
}
