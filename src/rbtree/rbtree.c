// SPDX-License-Identifier: MIT
/*
 * The red-black tree's out-of-line functions (the exports of the kernel's lib/rbtree.c, Linux
 * 6.3): rebalancing after insert and erase, in-order and post-order navigation, replacement.
 *
 * Invariants kept (see include/kfsim/rbtree.h): the five red-black properties; every child's
 * parent pointer names its parent; the root's parent is NULL.  rb_insert_color() restores them
 * with at most two rotations, rb_erase() with at most three.  No function allocates or locks.
 */
#include "rbtree_fixup.h"

static inline void dummy_rotate(struct rb_node *old, struct rb_node *new)
{
}

static inline void dummy_propagate(struct rb_node *node, struct rb_node *stop)
{
}

static inline void dummy_copy(struct rb_node *old, struct rb_node *new)
{
}

/* Plain trees have no summaries: these compile to nothing when inlined. */
static const struct rb_augment_callbacks dummy_callbacks = {
	.propagate = dummy_propagate,
	.copy = dummy_copy,
	.rotate = dummy_rotate,
};

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	rb_insert_fixup(node, root, dummy_rotate, NULL);
}

void __rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			   void (*augment_rotate)(struct rb_node *old, struct rb_node *new))
{
	rb_insert_fixup(node, root, augment_rotate, NULL);
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	struct rb_node *rebalance = __rb_erase_augmented(node, root, &dummy_callbacks);

	if (rebalance)
		rb_erase_fixup(rebalance, root, dummy_rotate, NULL);
}

void __rb_erase_color(struct rb_node *parent, struct rb_root *root,
		      void (*augment_rotate)(struct rb_node *old, struct rb_node *new))
{
	rb_erase_fixup(parent, root, augment_rotate, NULL);
}

/*
 * The exported navigation functions are the header's inline bodies (the names in parentheses
 * are not expanded by the function-like macros of the same name): one definition of the
 * semantics, two ways to call it.
 */
struct rb_node *(rb_first)(const struct rb_root *root)
{
	return __rb_first_inline(root);
}

struct rb_node *(rb_last)(const struct rb_root *root)
{
	return __rb_last_inline(root);
}

struct rb_node *(rb_next)(const struct rb_node *node)
{
	return __rb_next_inline(node);
}

struct rb_node *(rb_prev)(const struct rb_node *node)
{
	return __rb_prev_inline(node);
}

void rb_replace_node(struct rb_node *victim, struct rb_node *new, struct rb_root *root)
{
	struct rb_node *parent = rb_parent(victim);

	/* Copy the links and colour, then make the neighbours point at @new. */
	*new = *victim;
	if (victim->rb_left)
		rb_set_parent(victim->rb_left, new);
	if (victim->rb_right)
		rb_set_parent(victim->rb_right, new);
	__rb_change_child(victim, new, parent, root);
}

void rb_replace_node_rcu(struct rb_node *victim, struct rb_node *new, struct rb_root *root)
{
	struct rb_node *parent = rb_parent(victim);

	*new = *victim;
	if (victim->rb_left)
		rb_set_parent(victim->rb_left, new);
	if (victim->rb_right)
		rb_set_parent(victim->rb_right, new);
	/* Publish last, after @new is complete, so that a lockless reader never sees it half-made.
	 */
	__rb_change_child_rcu(victim, new, parent, root);
}

/* The first node of a post-order walk of the subtree at @node: go left when possible, else right.
 */
static struct rb_node *rb_left_deepest_node(const struct rb_node *node)
{
	for (;;) {
		if (node->rb_left)
			node = node->rb_left;
		else if (node->rb_right)
			node = node->rb_right;
		else
			return (struct rb_node *)node;
	}
}

struct rb_node *rb_next_postorder(const struct rb_node *node)
{
	const struct rb_node *parent;

	if (!node)
		return NULL;
	parent = rb_parent(node);

	/* Coming up from a left child: the right subtree (if any) comes before the parent. */
	if (parent && node == parent->rb_left && parent->rb_right)
		return rb_left_deepest_node(parent->rb_right);
	return (struct rb_node *)parent;
}

struct rb_node *rb_first_postorder(const struct rb_root *root)
{
	if (!root->rb_node)
		return NULL;
	return rb_left_deepest_node(root->rb_node);
}
