/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_RB_TEST_ITEMS_H
#define KFSIM_TESTS_RB_TEST_ITEMS_H

/*
 * The element type the rbtree suites share (a u32 key, an insertion sequence number to observe
 * stability) and its callbacks in the two shapes the kernel's helpers take, plus a structural
 * validator independent of the library's own checker.
 */
#include <stdbool.h>
#include <kfsim/rbtree.h>
#include <kfsim/rbtree_augmented.h>

struct item {
	u32 key;
	struct rb_node rb;
	u32 seq;
};

static inline struct item *to_item(const struct rb_node *node)
{
	return rb_entry_safe((struct rb_node *)node, struct item, rb);
}

static inline bool item_less(struct rb_node *a, const struct rb_node *b)
{
	return to_item(a)->key < to_item(b)->key;
}

static inline int item_cmp(struct rb_node *a, const struct rb_node *b)
{
	u32 ka = to_item(a)->key, kb = to_item(b)->key;

	return ka < kb ? -1 : ka > kb;
}

static inline int item_cmp_const(const struct rb_node *a, const struct rb_node *b)
{
	return item_cmp((struct rb_node *)a, b);
}

static inline int key_cmp(const void *key, const struct rb_node *node)
{
	u32 k = *(const u32 *)key, nk = to_item(node)->key;

	return k < nk ? -1 : k > nk;
}

/*
 * validate_subtree() - the black height of the subtree at @node, or -1 when a property is
 * broken (red root handled by the caller).  Keys must be non-decreasing in order.
 */
static inline int validate_subtree(const struct rb_node *node, const struct rb_node *parent,
				   const struct rb_node **prev, int depth)
{
	int left, right;

	if (!node)
		return 1;
	if (depth > 128 || rb_parent(node) != parent || (node->__rb_parent_color & 2))
		return -1;
	if (rb_is_red(node) && ((node->rb_left && rb_is_red(node->rb_left)) ||
				(node->rb_right && rb_is_red(node->rb_right))))
		return -1;
	left = validate_subtree(node->rb_left, node, prev, depth + 1);
	if (left < 0)
		return -1;
	if (*prev && to_item(*prev)->key > to_item(node)->key)
		return -1;
	*prev = node;
	right = validate_subtree(node->rb_right, node, prev, depth + 1);
	if (right < 0 || right != left)
		return -1;
	return left + rb_is_black(node);
}

/* validate_tree() - whether @root is a valid red-black tree of items in key order */
static inline bool validate_tree(const struct rb_root *root)
{
	const struct rb_node *prev = NULL;

	if (root->rb_node && (rb_is_red(root->rb_node) || rb_parent(root->rb_node)))
		return false;
	return validate_subtree(root->rb_node, NULL, &prev, 0) > 0;
}

#endif /* KFSIM_TESTS_RB_TEST_ITEMS_H */
