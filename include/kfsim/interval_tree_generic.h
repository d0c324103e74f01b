/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_INTERVAL_TREE_GENERIC_H
#define KFSIM_INTERVAL_TREE_GENERIC_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * INTERVAL_TREE_DEFINE(): an interval tree over any structure (include/linux/
 * interval_tree_generic.h, Linux 6.3), built on the augmented red-black tree.
 *
 * Intervals are closed, [start, last].  Nodes are ordered by start (equal starts go right);
 * each node's summary ITSUBTREE is the largest `last` in its subtree, kept by
 * RB_DECLARE_CALLBACKS_MAX.  The summary lets a query [qstart, qlast] skip every subtree whose
 * largest end lies before qstart, and the order lets it stop at the first node starting after
 * qlast, so finding each overlapping interval costs O(log n).
 *
 * The tree is an rb_root_cached: the leftmost node (smallest start) tells in O(1) when no
 * interval can start early enough to overlap.
 */
#include <kfsim/rbtree_augmented.h>

/*
 * INTERVAL_TREE_DEFINE() - generate an interval tree's insert, remove and iterators
 * @ITSTRUCT: the structure type containing the node
 * @ITRB: name of its struct rb_node member
 * @ITTYPE: type of the endpoints (an unsigned integer type in the kernel's uses)
 * @ITSUBTREE: name of the ITTYPE member holding the subtree's largest end
 * @ITSTART: ITTYPE ITSTART(ITSTRUCT *): the interval's first point
 * @ITLAST: ITTYPE ITLAST(ITSTRUCT *): the interval's last point (inclusive)
 * @ITSTATIC: "static" or empty
 * @ITPREFIX: prefix of the generated names
 *
 * Generates:
 *   void ITPREFIX_insert(ITSTRUCT *node, struct rb_root_cached *root);
 *   void ITPREFIX_remove(ITSTRUCT *node, struct rb_root_cached *root);
 *   ITSTRUCT *ITPREFIX_iter_first(struct rb_root_cached *root, ITTYPE start, ITTYPE last);
 *   ITSTRUCT *ITPREFIX_iter_next(ITSTRUCT *node, ITTYPE start, ITTYPE last);
 * iter_first returns the overlapping interval with the smallest start (NULL if none);
 * iter_next the next one in start order.  The tree must not change during an iteration.
 * Pass "static inline" as @ITSTATIC when a file does not use all four functions.
 */
#define INTERVAL_TREE_DEFINE(ITSTRUCT, ITRB, ITTYPE, ITSUBTREE, ITSTART, ITLAST, ITSTATIC,         \
			     ITPREFIX)                                                             \
                                                                                                   \
	RB_DECLARE_CALLBACKS_MAX(static, ITPREFIX##_augment, ITSTRUCT, ITRB, ITTYPE, ITSUBTREE,    \
				 ITLAST)                                                           \
                                                                                                   \
	/* Descend by start, raising the summaries on the way to include the new end. */           \
	ITSTATIC void ITPREFIX##_insert(ITSTRUCT *node, struct rb_root_cached *root)               \
	{                                                                                          \
		struct rb_node **link = &root->rb_root.rb_node, *rb_parent = NULL;                 \
		ITTYPE start = ITSTART(node), last = ITLAST(node);                                 \
		ITSTRUCT *parent;                                                                  \
		bool leftmost = true;                                                              \
                                                                                                   \
		while (*link) {                                                                    \
			rb_parent = *link;                                                         \
			parent = rb_entry(rb_parent, ITSTRUCT, ITRB);                              \
			if (parent->ITSUBTREE < last)                                              \
				parent->ITSUBTREE = last;                                          \
			if (start < ITSTART(parent)) {                                             \
				link = &parent->ITRB.rb_left;                                      \
			} else {                                                                   \
				link = &parent->ITRB.rb_right;                                     \
				leftmost = false;                                                  \
			}                                                                          \
		}                                                                                  \
		node->ITSUBTREE = last;                                                            \
		rb_link_node(&node->ITRB, rb_parent, link);                                        \
		rb_insert_augmented_cached(&node->ITRB, root, leftmost, &ITPREFIX##_augment);      \
	}                                                                                          \
                                                                                                   \
	ITSTATIC void ITPREFIX##_remove(ITSTRUCT *node, struct rb_root_cached *root)               \
	{                                                                                          \
		rb_erase_augmented_cached(&node->ITRB, root, &ITPREFIX##_augment);                 \
	}                                                                                          \
                                                                                                   \
	/*                                                                                         \
	 * The leftmost node of @node's subtree overlapping [start, last], given that some node    \
	 * of the subtree ends at or after start (start <= node->ITSUBTREE).  Go left while the    \
	 * left subtree still reaches start; otherwise this node is the candidate, and past it     \
	 * only its right subtree (starting later) can hold an answer.                             \
	 */                                                                                        \
	static inline ITSTRUCT *ITPREFIX##_subtree_search(ITSTRUCT *node, ITTYPE start,            \
							  ITTYPE last)                             \
	{                                                                                          \
		for (;;) {                                                                         \
			if (node->ITRB.rb_left) {                                                  \
				ITSTRUCT *left = rb_entry(node->ITRB.rb_left, ITSTRUCT, ITRB);     \
				if (start <= left->ITSUBTREE) {                                    \
					node = left;                                               \
					continue;                                                  \
				}                                                                  \
			}                                                                          \
			if (ITSTART(node) > last)                                                  \
				return NULL; /* this and all later nodes start too late */         \
			if (start <= ITLAST(node))                                                 \
				return node;                                                       \
			if (!node->ITRB.rb_right)                                                  \
				return NULL;                                                       \
			node = rb_entry(node->ITRB.rb_right, ITSTRUCT, ITRB);                      \
			if (start > node->ITSUBTREE)                                               \
				return NULL;                                                       \
		}                                                                                  \
	}                                                                                          \
                                                                                                   \
	ITSTATIC ITSTRUCT *ITPREFIX##_iter_first(struct rb_root_cached *root, ITTYPE start,        \
						 ITTYPE last)                                      \
	{                                                                                          \
		ITSTRUCT *node, *leftmost;                                                         \
                                                                                                   \
		if (!root->rb_root.rb_node)                                                        \
			return NULL;                                                               \
		node = rb_entry(root->rb_root.rb_node, ITSTRUCT, ITRB);                            \
		if (node->ITSUBTREE < start)                                                       \
			return NULL; /* every interval ends before start */                        \
		leftmost = rb_entry(root->rb_leftmost, ITSTRUCT, ITRB);                            \
		if (ITSTART(leftmost) > last)                                                      \
			return NULL; /* every interval starts after last */                        \
		return ITPREFIX##_subtree_search(node, start, last);                               \
	}                                                                                          \
                                                                                                   \
	/*                                                                                         \
	 * After @node (which starts at or before last): search its right subtree if it reaches    \
	 * start, else climb to the first ancestor entered from its left side, which is the next   \
	 * node in order, and test it; repeat from there.                                          \
	 */                                                                                        \
	ITSTATIC ITSTRUCT *ITPREFIX##_iter_next(ITSTRUCT *node, ITTYPE start, ITTYPE last)         \
	{                                                                                          \
		struct rb_node *rb = node->ITRB.rb_right, *prev;                                   \
                                                                                                   \
		for (;;) {                                                                         \
			if (rb) {                                                                  \
				ITSTRUCT *right = rb_entry(rb, ITSTRUCT, ITRB);                    \
				if (start <= right->ITSUBTREE)                                     \
					return ITPREFIX##_subtree_search(right, start, last);      \
			}                                                                          \
			do {                                                                       \
				rb = rb_parent(&node->ITRB);                                       \
				if (!rb)                                                           \
					return NULL;                                               \
				prev = &node->ITRB;                                                \
				node = rb_entry(rb, ITSTRUCT, ITRB);                               \
				rb = node->ITRB.rb_right;                                          \
			} while (prev == rb);                                                      \
			if (last < ITSTART(node))                                                  \
				return NULL;                                                       \
			if (start <= ITLAST(node))                                                 \
				return node;                                                       \
		}                                                                                  \
	}

#pragma GCC visibility pop
#endif /* KFSIM_INTERVAL_TREE_GENERIC_H */
