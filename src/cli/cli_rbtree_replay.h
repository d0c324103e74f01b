/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_RBTREE_REPLAY_H
#define KFSIM_CLI_RBTREE_REPLAY_H

/*
 * The whole tree after every step of `kfsim rbtree --steps`, and the checker's verdict on it.
 *
 * The kernel's rebalancing code cannot be stopped at a step and looked at: it reports a step
 * before or after the writes that make it, and in between the tree in memory is not a tree.
 * Insert case 2 leaves the grandparent's child link on the old parent until case 3 rewrites
 * it; erase case 3 leaves two parent pointers for case 4 to set; erase case 4 reports its
 * rotation before the grandparent's child link moves; the unlink is reported before
 * __rb_erase_augmented() runs.  So the replay keeps a copy of the tree, taken when an
 * operation starts, and applies each reported step to it in order, as the step's words say:
 * a rotation, a recolouring, an unlink (the node's child, or its in-order successor, takes
 * its place).  After each step the copy is a whole tree, drawn and checked with
 * kfsim_rb_check_cached(); when the operation returns, the copy must equal the tree the
 * kernel's code left (rbtree_replay_matches()), or the step log is wrong.
 */
#include <stdbool.h>
#include <stddef.h>

#include <kfsim/rbtree.h>
#include <kfsim/rbtree_debug.h>

/* A node of `kfsim rbtree`: a u32 key (equal keys allowed). */
struct key_node {
	u32 key;
	struct rb_node rb;
};

/* One node of a recorded tree, in pre-order; @parent indexes the same tree (root: SIZE_MAX). */
struct rbtree_replay_node {
	u32 key;
	bool red;
	bool right; /* the right child of its parent */
	size_t parent;
};

/*
 * The tree after one step: nodes[first .. first + nr) of the replay, its height, and its
 * verdict (whose counts stop where the checker stopped: use @nr and @height).
 */
struct rbtree_replay_tree {
	size_t first, nr;
	unsigned int height;
	struct kfsim_rb_check_result check;
	bool valid;
	bool has_leftmost;
	u32 leftmost; /* the key of rb_first_cached() */
};

struct rbtree_replay {
	const struct key_node *pool; /* the real nodes, */
	struct key_node *copy;	     /* and their copies, at the same index */
	size_t nr_pool;
	struct rb_root_cached root; /* the copy's root */
	const struct kfsim_rb_check_ops *check_ops;
	struct rbtree_replay_node *nodes;
	size_t nr_nodes, cap_nodes;
	struct rbtree_replay_tree *trees; /* one per step, in order */
	size_t nr_trees, cap_trees;
	int err; /* -ENOMEM, or -EINVAL for a step the copy cannot follow */
};

/* Prepare to replay on trees of the @nr_pool nodes of @pool; -ENOMEM. */
int rbtree_replay_init(struct rbtree_replay *replay, const struct key_node *pool, size_t nr_pool,
		       const struct kfsim_rb_check_ops *check_ops);

/* An operation starts: copy @real (a whole tree: before an erase, after an insert's link). */
void rbtree_replay_begin(struct rbtree_replay *replay, const struct rb_root_cached *real);

/* Apply @step to the copy and record the tree after it; a failure is kept in replay->err. */
void rbtree_replay_step(struct rbtree_replay *replay, const struct kfsim_rb_step *step);

/* The operation returned: whether the copy is @real, node for node and colour for colour. */
bool rbtree_replay_matches(const struct rbtree_replay *replay, const struct rb_root_cached *real);

void rbtree_replay_free(struct rbtree_replay *replay);

#endif /* KFSIM_CLI_RBTREE_REPLAY_H */
