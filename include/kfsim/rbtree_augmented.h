/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_RBTREE_AUGMENTED_H
#define KFSIM_RBTREE_AUGMENTED_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Augmented red-black trees (include/linux/rbtree_augmented.h, Linux 6.3; rb_add_augmented_cached
 * from 6.6).
 *
 * An augmented tree keeps in every node a summary of its subtree (the largest interval end, a
 * subtree size, the minimum deadline, ...).  The summary of a node depends only on the node and
 * its two children, so it must be recomputed wherever the shape changes:
 *   - propagate(node, stop): node's subtree changed; recompute from node upwards until stop
 *     (or until a recomputation leaves the value unchanged);
 *   - copy(old, new): new took old's place with old's whole subtree; new->summary = old's;
 *   - rotate(old, new): new rotated above old; new now covers old's former subtree, so it takes
 *     old's summary, and old's (now smaller) summary is recomputed.
 * The tree code calls these at every rotation and relink, keeping the invariant
 *   node->summary == compute(node, node->left, node->right) for every node
 * as long as the caller keeps it along the insertion path (see rb_insert_augmented()).
 *
 * Only struct rb_augment_callbacks, rb_insert_augmented*() / rb_erase_augmented*(),
 * rb_add_augmented_cached() and RB_DECLARE_CALLBACKS*() are the kernel's public interface; the
 * double-underscore helpers below are, in the kernel as here, implementation details that the
 * tree code and the callback generator share.
 */
#include <stdbool.h>
#include <kfsim/rbtree.h>

/**
 * struct rb_augment_callbacks - keeping a per-subtree summary up to date
 * @propagate: recompute from @node up to (not including) @stop; @stop NULL means to the root
 * @copy: @new replaced @old as the root of the same subtree: copy the summary
 * @rotate: @new was rotated above @old: @new gets @old's summary, @old's is recomputed
 */
struct rb_augment_callbacks {
	void (*propagate)(struct rb_node *node, struct rb_node *stop);
	void (*copy)(struct rb_node *old, struct rb_node *new);
	void (*rotate)(struct rb_node *old, struct rb_node *new);
};

/*
 * __rb_insert_augmented() - rebalance after linking @node, calling @augment_rotate at each
 * rotation (exported by lib/rbtree.c; use rb_insert_augmented()).
 */
void __rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			   void (*augment_rotate)(struct rb_node *old, struct rb_node *new));

/**
 * rb_insert_augmented() - rebalance an augmented tree after rb_link_node()
 *
 * Before calling, the caller must have set @node's summary and updated the summaries of all of
 * @node's ancestors to include it (usually while descending).  The rebalancing then keeps every
 * summary correct through @augment->rotate.
 */
static inline void rb_insert_augmented(struct rb_node *node, struct rb_root *root,
				       const struct rb_augment_callbacks *augment)
{
	__rb_insert_augmented(node, root, augment->rotate);
}

/** rb_insert_augmented_cached() - rb_insert_augmented() keeping the leftmost cache */
static inline void rb_insert_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
					      bool newleft,
					      const struct rb_augment_callbacks *augment)
{
	if (newleft)
		root->rb_leftmost = node;
	rb_insert_augmented(node, &root->rb_root, augment);
}

/**
 * rb_add_augmented_cached() - insert @node into an augmented cached tree (Linux 6.6)
 * @less: whether the first node sorts before the second
 *
 * @node's summary must already describe @node alone.  After linking, the summaries of the
 * ancestors are refreshed with @augment->propagate(parent, NULL) (as the kernel does: simple,
 * if not the cheapest), then the tree is rebalanced.
 *
 * Return: @node when it became the leftmost node, otherwise NULL.
 */
static __always_inline struct rb_node *
rb_add_augmented_cached(struct rb_node *node, struct rb_root_cached *tree,
			bool (*less)(struct rb_node *, const struct rb_node *),
			const struct rb_augment_callbacks *augment)
{
	struct rb_node **link = &tree->rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	augment->propagate(parent, NULL);
	rb_insert_augmented_cached(node, tree, leftmost, augment);
	return leftmost ? node : NULL;
}

/*
 * RB_DECLARE_CALLBACKS() - generate struct rb_augment_callbacks RBNAME
 * @RBSTATIC: "static" or empty
 * @RBNAME: name of the callbacks object (and prefix of the three functions)
 * @RBSTRUCT: the structure type containing the rb_node
 * @RBFIELD: name of the rb_node member of @RBSTRUCT
 * @RBAUGMENTED: name of the summary member of @RBSTRUCT
 * @RBCOMPUTE: bool RBCOMPUTE(RBSTRUCT *node, bool exit): recompute node->RBAUGMENTED from the
 *	node and its children; when @exit is true and the value did not change, return true
 *	(propagation stops there), otherwise store it and return false.
 *
 * Like the kernel's, the expansion ends with "};": write RB_DECLARE_CALLBACKS(...) without a
 * semicolon, as kernel code does (an extra one is an empty declaration, -Wpedantic warns).
 */
#define RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBAUGMENTED, RBCOMPUTE)          \
	static inline void RBNAME##_propagate(struct rb_node *rb, struct rb_node *stop)            \
	{                                                                                          \
		while (rb != stop) {                                                               \
			RBSTRUCT *node = rb_entry(rb, RBSTRUCT, RBFIELD);                          \
			if (RBCOMPUTE(node, true))                                                 \
				break;                                                             \
			rb = rb_parent(&node->RBFIELD);                                            \
		}                                                                                  \
	}                                                                                          \
	static inline void RBNAME##_copy(struct rb_node *rb_old, struct rb_node *rb_new)           \
	{                                                                                          \
		RBSTRUCT *old = rb_entry(rb_old, RBSTRUCT, RBFIELD);                               \
		RBSTRUCT *new = rb_entry(rb_new, RBSTRUCT, RBFIELD);                               \
		new->RBAUGMENTED = old->RBAUGMENTED;                                               \
	}                                                                                          \
	static void RBNAME##_rotate(struct rb_node *rb_old, struct rb_node *rb_new)                \
	{                                                                                          \
		RBSTRUCT *old = rb_entry(rb_old, RBSTRUCT, RBFIELD);                               \
		RBSTRUCT *new = rb_entry(rb_new, RBSTRUCT, RBFIELD);                               \
		new->RBAUGMENTED = old->RBAUGMENTED;                                               \
		RBCOMPUTE(old, false);                                                             \
	}                                                                                          \
	RBSTATIC const struct rb_augment_callbacks RBNAME = {                                      \
		.propagate = RBNAME##_propagate,                                                   \
		.copy = RBNAME##_copy,                                                             \
		.rotate = RBNAME##_rotate,                                                         \
	};

/*
 * RB_DECLARE_CALLBACKS_MAX() - RB_DECLARE_CALLBACKS() for "summary = maximum over the subtree"
 * @RBTYPE: type of the summary
 * @RBCOMPUTE: RBTYPE RBCOMPUTE(RBSTRUCT *node): the node's own value (e.g. an interval's end)
 *
 * Also defines bool RBNAME_compute_max(RBSTRUCT *node, bool exit), the RBCOMPUTE of
 * RB_DECLARE_CALLBACKS().
 */
#define RB_DECLARE_CALLBACKS_MAX(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBTYPE, RBAUGMENTED,         \
				 RBCOMPUTE)                                                        \
	static inline bool RBNAME##_compute_max(RBSTRUCT *node, bool exit)                         \
	{                                                                                          \
		RBSTRUCT *child;                                                                   \
		RBTYPE max = RBCOMPUTE(node);                                                      \
		if (node->RBFIELD.rb_left) {                                                       \
			child = rb_entry(node->RBFIELD.rb_left, RBSTRUCT, RBFIELD);                \
			if (child->RBAUGMENTED > max)                                              \
				max = child->RBAUGMENTED;                                          \
		}                                                                                  \
		if (node->RBFIELD.rb_right) {                                                      \
			child = rb_entry(node->RBFIELD.rb_right, RBSTRUCT, RBFIELD);               \
			if (child->RBAUGMENTED > max)                                              \
				max = child->RBAUGMENTED;                                          \
		}                                                                                  \
		if (exit && node->RBAUGMENTED == max)                                              \
			return true;                                                               \
		node->RBAUGMENTED = max;                                                           \
		return false;                                                                      \
	}                                                                                          \
	RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBAUGMENTED, RBNAME##_compute_max)

/* Colour and parent accessors; a red node's word is its parent pointer unchanged. */
#define __rb_parent(pc) ((struct rb_node *)((pc) & ~3UL))
#define __rb_color(pc) ((pc)&1)
#define __rb_is_black(pc) __rb_color(pc)
#define __rb_is_red(pc) (!__rb_color(pc))
#define rb_color(rb) __rb_color((rb)->__rb_parent_color)
#define rb_is_red(rb) __rb_is_red((rb)->__rb_parent_color)
#define rb_is_black(rb) __rb_is_black((rb)->__rb_parent_color)

/* rb_set_parent() - point @rb at a new parent @p, keeping its colour */
static inline void rb_set_parent(struct rb_node *rb, struct rb_node *p)
{
	rb->__rb_parent_color = rb_color(rb) + (unsigned long)p;
}

/* rb_set_parent_color() - set @rb's parent to @p and its colour to @color */
static inline void rb_set_parent_color(struct rb_node *rb, struct rb_node *p, int color)
{
	rb->__rb_parent_color = (unsigned long)p + (unsigned long)color;
}

/* __rb_change_child() - make the slot of @parent (or @root) that held @old hold @new */
static inline void __rb_change_child(struct rb_node *old, struct rb_node *new,
				     struct rb_node *parent, struct rb_root *root)
{
	if (parent) {
		if (parent->rb_left == old)
			WRITE_ONCE(parent->rb_left, new);
		else
			WRITE_ONCE(parent->rb_right, new);
	} else {
		WRITE_ONCE(root->rb_node, new);
	}
}

/* __rb_change_child_rcu() - __rb_change_child() publishing @new with a release store */
static inline void __rb_change_child_rcu(struct rb_node *old, struct rb_node *new,
					 struct rb_node *parent, struct rb_root *root)
{
	struct rb_node **slot;

	if (parent)
		slot = parent->rb_left == old ? &parent->rb_left : &parent->rb_right;
	else
		slot = &root->rb_node;
	__atomic_store_n(slot, new, __ATOMIC_RELEASE);
}

/*
 * __rb_erase_color() - rebalance after an erase left one black node missing on the paths
 * through @parent's now-empty child slot (exported by lib/rbtree.c).
 */
void __rb_erase_color(struct rb_node *parent, struct rb_root *root,
		      void (*augment_rotate)(struct rb_node *old, struct rb_node *new));

/*
 * __rb_erase_augmented() - unlink @node, keeping the summaries through @augment
 *
 * Three shapes (N the erased node, S its in-order successor):
 *   - N has at most one child: the child (if any) is red, N is black; the child takes N's place
 *     and colour and nothing is unbalanced.  A childless black N leaves a black missing below
 *     its parent, which is returned for __rb_erase_color().
 *   - N has two children and S is N's right child: S takes N's place and colour; S's right
 *     child (red, if any) turns black, otherwise a black S leaves a black missing below S.
 *   - S is deeper (leftmost of N's right subtree): S's right child moves into S's old slot,
 *     then S takes N's place and colour as above; the unbalanced parent is S's old parent.
 *
 * Return: the node below which a black is missing, or NULL when the tree is balanced.
 */
static __always_inline struct rb_node *
__rb_erase_augmented(struct rb_node *node, struct rb_root *root,
		     const struct rb_augment_callbacks *augment)
{
	struct rb_node *child = node->rb_right;
	struct rb_node *tmp = node->rb_left;
	struct rb_node *parent, *rebalance;
	unsigned long pc;

	if (!tmp) {
		pc = node->__rb_parent_color;
		parent = __rb_parent(pc);
		__rb_change_child(node, child, parent, root);
		if (child) {
			child->__rb_parent_color = pc;
			rebalance = NULL;
		} else {
			rebalance = __rb_is_black(pc) ? parent : NULL;
		}
		tmp = parent;
	} else if (!child) {
		tmp->__rb_parent_color = pc = node->__rb_parent_color;
		parent = __rb_parent(pc);
		__rb_change_child(node, tmp, parent, root);
		rebalance = NULL;
		tmp = parent;
	} else {
		struct rb_node *successor = child, *child2;

		tmp = child->rb_left;
		if (!tmp) {
			parent = successor;
			child2 = successor->rb_right;
			augment->copy(node, successor);
		} else {
			do {
				parent = successor;
				successor = tmp;
				tmp = tmp->rb_left;
			} while (tmp);
			child2 = successor->rb_right;
			WRITE_ONCE(parent->rb_left, child2);
			WRITE_ONCE(successor->rb_right, child);
			rb_set_parent(child, successor);
			augment->copy(node, successor);
			augment->propagate(parent, successor);
		}

		tmp = node->rb_left;
		WRITE_ONCE(successor->rb_left, tmp);
		rb_set_parent(tmp, successor);

		pc = node->__rb_parent_color;
		tmp = __rb_parent(pc);
		__rb_change_child(node, successor, tmp, root);

		if (child2) {
			rb_set_parent_color(child2, parent, RB_BLACK);
			rebalance = NULL;
		} else {
			rebalance = rb_is_black(successor) ? parent : NULL;
		}
		successor->__rb_parent_color = pc;
		tmp = successor;
	}

	augment->propagate(tmp, NULL);
	return rebalance;
}

/** rb_erase_augmented() - rb_erase() for an augmented tree, keeping every summary */
static __always_inline void rb_erase_augmented(struct rb_node *node, struct rb_root *root,
					       const struct rb_augment_callbacks *augment)
{
	struct rb_node *rebalance = __rb_erase_augmented(node, root, augment);

	if (rebalance)
		__rb_erase_color(rebalance, root, augment->rotate);
}

/** rb_erase_augmented_cached() - rb_erase_augmented() keeping the leftmost cache */
static __always_inline void rb_erase_augmented_cached(struct rb_node *node,
						      struct rb_root_cached *root,
						      const struct rb_augment_callbacks *augment)
{
	if (root->rb_leftmost == node)
		root->rb_leftmost = rb_next(node);
	rb_erase_augmented(node, &root->rb_root, augment);
}

#pragma GCC visibility pop
#endif /* KFSIM_RBTREE_AUGMENTED_H */
