/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_INTERVAL_TREE_H
#define KFSIM_INTERVAL_TREE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The kernel's ready-made interval tree of unsigned long ranges (include/linux/interval_tree.h,
 * lib/interval_tree.c, Linux 6.3): INTERVAL_TREE_DEFINE() instantiated for
 * struct interval_tree_node.  Intervals are closed: [start, last], last included.
 */
#include <kfsim/rbtree.h>

/**
 * struct interval_tree_node - one interval
 * @rb: the tree linkage
 * @start: first point
 * @last: last point (inclusive; start <= last is the caller's duty)
 * @__subtree_last: the largest @last in this node's subtree (kept by the tree)
 */
struct interval_tree_node {
	struct rb_node rb;
	unsigned long start;
	unsigned long last;
	unsigned long __subtree_last;
};

/** interval_tree_insert() - add @node to @root (equal starts are allowed; they go right) */
void interval_tree_insert(struct interval_tree_node *node, struct rb_root_cached *root);

/** interval_tree_remove() - take @node, which must be in @root, out of it */
void interval_tree_remove(struct interval_tree_node *node, struct rb_root_cached *root);

/**
 * interval_tree_iter_first() - the first interval of @root overlapping [@start, @last]
 *
 * Return: the overlapping interval with the smallest start, or NULL.
 */
struct interval_tree_node *interval_tree_iter_first(struct rb_root_cached *root,
						    unsigned long start, unsigned long last);

/**
 * interval_tree_iter_next() - the next interval after @node overlapping [@start, @last]
 *
 * Return: the next overlapping interval in start order, or NULL.
 */
struct interval_tree_node *interval_tree_iter_next(struct interval_tree_node *node,
						   unsigned long start, unsigned long last);

#pragma GCC visibility pop
#endif /* KFSIM_INTERVAL_TREE_H */
