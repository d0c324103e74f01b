// SPDX-License-Identifier: MIT
/*
 * struct interval_tree_node's tree: the generic interval tree instantiated for unsigned long
 * closed intervals (the kernel's lib/interval_tree.c).  Invariant: every node's
 * __subtree_last is the largest `last` in its subtree.
 */
#include <kfsim/interval_tree.h>
#include <kfsim/interval_tree_generic.h>

#define START(node) ((node)->start)
#define LAST(node) ((node)->last)

INTERVAL_TREE_DEFINE(struct interval_tree_node, rb, unsigned long, __subtree_last, START, LAST, ,
		     interval_tree)
