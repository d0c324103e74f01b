// SPDX-License-Identifier: MIT
/*
 * bpf_rbtree_add, bpf_rbtree_first, bpf_rbtree_remove and the 6.16 bpf_rbtree_{root,left,right}
 * (kernel/bpf/helpers.c) on kfsim's kernel rbtree (rb_root_cached).
 *
 * Invariants: every node in a tree has owner == that tree's root and is reachable from it; a node
 * in no tree is RB_EMPTY_NODE with owner NULL; insertion walks down calling less(new, parent) and
 * goes right on false, so equal keys keep their insertion order (FIFO) and leftmost stays cached.
 * The less callback runs with the lock held and the thread's callback depth raised, which is
 * what the checks on lock/unlock/remove inside it look at.
 */
#include "bpf_internal.h"

static void *rb_node_obj(struct bpf_root_decl *decl, void *node)
{
	return (char *)node - decl->type->node_off[decl->field_idx];
}

/* less() (the caller raised the callback depth); @order: also check asymmetry, irreflexivity. */
static bool call_less(bpf_rb_less_t less, struct rb_node *a, struct rb_node *b, bool order)
{
	bool ret, back;

	ret = less((struct bpf_rb_node *)a, (const struct bpf_rb_node *)b);
	if (unlikely(order)) {
		/* a kfunc called inside less() must not lend its name to these reports */
		bpf_tstate.kfunc = "bpf_rbtree_add_impl";
		back = less((struct bpf_rb_node *)b, (const struct bpf_rb_node *)a);
		if (ret && back)
			bpf_report(-EINVAL,
				   "less(a, b) and less(b, a) are both true: the tree order is "
				   "undefined (the kernel does not check this)",
				   "kfsim: less callback is not a strict weak order");
		if (less((struct bpf_rb_node *)a, (const struct bpf_rb_node *)a))
			bpf_report(-EINVAL,
				   "less(a, a) must be false (the kernel does not check this)",
				   "kfsim: less callback is not irreflexive");
	}
	return ret;
}

int KFUNC(bpf_rbtree_add_impl)(struct bpf_rb_root *root, struct bpf_rb_node *node,
			       bpf_rb_less_t less, void *meta__ign, u64 off)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct rb_node **link = &r->tree.rb_root.rb_node, *parent = NULL;
	struct bpf_root_decl *decl;
	struct bpf_ref *ref;
	bool leftmost = true, order;

	if (!CHECKS)
		return kfsim_nc_rbtree_add(root, node, less);
	bpf_enter("bpf_rbtree_add_impl");
	if (bpf_tstate.cb_depth &&
	    bpf_report(-EINVAL,
		       "less() gets non-owning references and cannot insert into the tree it is "
		       "sorting",
		       "arg#1 expected pointer to allocated object"))
		goto refused;
	decl = bpf_check_root(root, BPF_RB_ROOT);
	if (!decl)
		goto refused;
	ref = bpf_insert_arg(decl, node);
	if (!ref)
		goto refused;
	if (!less && bpf_report(-EINVAL, "bpf_rbtree_add needs a less callback",
				"arg#2 expected pointer to func"))
		goto refused;
	if (!kfsim_bpf_owner_claim(&n->owner, decl)) {
		/* 6.4+: already in a tree: the node is dropped, -EINVAL */
		bpf_ref_del(ref, "at the failed bpf_rbtree_add (the node was dropped)");
		bpf_obj_drop_raw(rb_node_obj(decl, node));
		bpf_leave();
		return -EINVAL;
	}
	/*
	 * kfsim_bpf_rbtree_add_core()'s descent, with each less() call wrapped: the callback
	 * depth is what the lock/remove/add checks inside less() look at.
	 */
	order = bpf_tstate.run && bpf_tstate.run->opts.check_less_order;
	bpf_tstate.cb_depth++; /* from here to the end of the descent, less() may run */
	while (*link) {
		parent = *link;
		if (call_less(less, &n->rb, parent, order)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	bpf_tstate.cb_depth--;
	bpf_tstate.kfunc = "bpf_rbtree_add_impl"; /* less() may have called kfuncs */
	rb_link_node(&n->rb, parent, link);
	rb_insert_color_cached(&n->rb, &r->tree, leftmost);
	__atomic_store_n(&n->owner, r, __ATOMIC_RELEASE);
	bpf_ref_make_non_owning(ref);
	bpf_leave();
	return 0;
refused:
	bpf_leave();
	return -EINVAL;
}

struct bpf_rb_node *KFUNC(bpf_rbtree_first)(struct bpf_rb_root *root)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_root_decl *decl;
	struct rb_node *first;

	if (!CHECKS)
		return kfsim_bpf_rbtree_first_core(root);
	bpf_enter("bpf_rbtree_first");
	decl = bpf_check_root(root, BPF_RB_ROOT);
	first = decl ? rb_first_cached(&r->tree) : NULL;
	if (first && !bpf_ref_add(rb_node_obj(decl, first), decl->type->node_type[decl->field_idx],
				  BPF_REF_NON_OWNING))
		first = NULL;
	bpf_leave();
	return (struct bpf_rb_node *)first;
}

/* The node argument of remove/left/right: non-owning, or (6.16) owning and refcounted. */
static struct bpf_ref *check_node_in_tree_arg(struct bpf_root_decl *decl, void *node,
					      const char *kfunc)
{
	struct bpf_ref *ref = bpf_ref_find(node, BPF_REF_NON_OWNING);
	char buf[160];

	if (bpf_tstate.cb_depth) {
		if (bpf_v616())
			bpf_report(-EINVAL, "less() must not change or walk the tree it is sorting",
				   "%s not allowed in rbtree cb", kfunc);
		else
			bpf_report(-EINVAL, "less() must not change the tree it is sorting",
				   "rbtree_remove not allowed in rbtree cb");
		return NULL;
	}
	if (ref && ref->kind == BPF_REF_OWNING && bpf_v616() && ref->type->refcount_off >= 0)
		return bpf_check_node_ref(decl, node, ref);
	if (!ref || ref->kind != BPF_REF_NON_OWNING) {
		const char *why =
			ref ? "an owning reference is not in any tree: only a non-owning one "
			      "(from bpf_rbtree_first or an earlier add) can be removed"
			    : bpf_explain_stale(node, buf, sizeof(buf));

		if (bpf_v616())
			bpf_report(-EINVAL, why,
				   "%s can only take non-owning or refcounted bpf_rb_node "
				   "pointer",
				   kfunc);
		else
			bpf_report(-EINVAL, why, "rbtree_remove node input must be non-owning ref");
		return NULL;
	}
	return bpf_check_node_ref(decl, node, ref);
}

struct bpf_rb_node *KFUNC(bpf_rbtree_remove)(struct bpf_rb_root *root, struct bpf_rb_node *node)
{
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct bpf_root_decl *decl;
	void *obj;

	if (!CHECKS)
		return kfsim_bpf_rbtree_remove_core(root, node);
	bpf_enter("bpf_rbtree_remove");
	decl = bpf_check_root(root, BPF_RB_ROOT);
	if (!decl || !check_node_in_tree_arg(decl, node, "bpf_rbtree_remove"))
		goto null;
	if (n->owner != (void *)root) {
		/* 6.3 would erase it from the wrong tree and corrupt both; 6.4+ returns NULL */
		if (!bpf_v64())
			bpf_report(
				-EINVAL,
				"the node is not in this tree (the 6.3 verifier cannot see this; "
				"the kernel would corrupt both trees)",
				"kfsim: bpf_rbtree_remove of a node that is not in this tree");
		goto null;
	}
	kfsim_bpf_rbtree_remove_core(root, node);
	obj = rb_node_obj(decl, node);
	/* 6.3: after a remove no non-owning reference is trusted any more */
	if (!bpf_v64())
		bpf_refs_invalidate_non_owning("at bpf_rbtree_remove (6.3 invalidates every "
					       "non-owning reference there)");
	if (!bpf_ref_add(obj, decl->type->node_type[decl->field_idx], BPF_REF_OWNING)) {
		/* cannot track it: drop it rather than leak it */
		bpf_obj_drop_raw(obj);
		goto null;
	}
	bpf_leave();
	return node;
null:
	bpf_leave();
	return NULL;
}

static struct bpf_rb_node *rb_walk(struct bpf_rb_root *root, struct bpf_rb_node *node, int dir,
				   const char *kfunc)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct bpf_root_decl *decl;
	struct rb_node *next;

	if (CHECKS) {
		bpf_enter(kfunc);
		if (!bpf_kfunc_available(kfunc))
			goto null;
		decl = bpf_check_root(root, BPF_RB_ROOT);
		if (!decl || (dir && !check_node_in_tree_arg(decl, node, kfunc)))
			goto null;
	} else {
		decl = &r->decl;
	}
	if (!dir)
		next = r->tree.rb_root.rb_node;
	else if (n->owner != r)
		next = NULL;
	else
		next = dir < 0 ? n->rb.rb_left : n->rb.rb_right;
	if (CHECKS) {
		if (next &&
		    !bpf_ref_add(rb_node_obj(decl, next), decl->type->node_type[decl->field_idx],
				 BPF_REF_NON_OWNING))
			next = NULL;
		bpf_leave();
	}
	return (struct bpf_rb_node *)next;
null:
	bpf_leave();
	return NULL;
}

struct bpf_rb_node *KFUNC(bpf_rbtree_root)(struct bpf_rb_root *root)
{
	return rb_walk(root, NULL, 0, "bpf_rbtree_root");
}

struct bpf_rb_node *KFUNC(bpf_rbtree_left)(struct bpf_rb_root *root, struct bpf_rb_node *node)
{
	return rb_walk(root, node, -1, "bpf_rbtree_left");
}

struct bpf_rb_node *KFUNC(bpf_rbtree_right)(struct bpf_rb_root *root, struct bpf_rb_node *node)
{
	return rb_walk(root, node, 1, "bpf_rbtree_right");
}

#ifndef KFSIM_BPF_NC
void(bpf_rbtree_add)(struct bpf_rb_root *root, struct bpf_rb_node *node, bpf_rb_less_t less)
{
	if (bpf_kfunc_available("bpf_rbtree_add"))
		bpf_rbtree_add_impl(root, node, less, NULL, 0);
}

/*
 * bpf_rb_root_free(): steal the tree under its lock, reset the root, then drop every node in
 * post-order with the lock released.
 */
void bpf_rb_root_drain(void *root)
{
	struct bpf_rb_root_kern *r = root;
	struct bpf_spin_lock *lock = bpf_root_lock(root);
	s32 node_off = r->decl.type->node_off[r->decl.field_idx];
	struct rb_root_cached stolen;
	struct rb_node *pos, *next;

	kfsim_bpf_raw_lock(lock);
	stolen = r->tree;
	r->tree = RB_ROOT_CACHED;
	kfsim_bpf_raw_unlock(lock);
	for (pos = rb_first_postorder(&stolen.rb_root); pos; pos = next) {
		struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)pos;

		next = rb_next_postorder(pos);
		RB_CLEAR_NODE(pos);
		__atomic_store_n(&n->owner, NULL, __ATOMIC_RELEASE);
		bpf_obj_drop_raw((char *)n - node_off);
	}
}
#endif
