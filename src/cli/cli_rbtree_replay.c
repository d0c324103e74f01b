// SPDX-License-Identifier: MIT
/*
 * The replay of `kfsim rbtree --steps` (see cli_rbtree_replay.h for why it exists): a copy of
 * the tree that follows each reported step, recorded and checked after every one.  The copy's
 * nodes sit at the same index as the real ones, so a step names its nodes by pointer and equal
 * keys are no ambiguity.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/rbtree_augmented.h>
#include "cli_rbtree_replay.h"

int rbtree_replay_init(struct rbtree_replay *replay, const struct key_node *pool, size_t nr_pool,
		       const struct kfsim_rb_check_ops *check_ops)
{
	*replay = (struct rbtree_replay){
		.pool = pool,
		.nr_pool = nr_pool,
		.root = RB_ROOT_CACHED,
		.check_ops = check_ops,
	};
	replay->copy = calloc(nr_pool ? nr_pool : 1, sizeof(*replay->copy));
	return replay->copy ? 0 : -ENOMEM;
}

void rbtree_replay_free(struct rbtree_replay *replay)
{
	free(replay->copy);
	free(replay->nodes);
	free(replay->trees);
}

/* The copy of a real node (NULL for NULL), or NULL when @real is not one of the pool's. */
static struct rb_node *copy_of(const struct rbtree_replay *replay, const struct rb_node *real)
{
	const struct key_node *kn;

	if (!real)
		return NULL;
	kn = rb_entry(real, const struct key_node, rb);
	if (kn < replay->pool || kn >= replay->pool + replay->nr_pool)
		return NULL;
	return &replay->copy[kn - replay->pool].rb;
}

void rbtree_replay_begin(struct rbtree_replay *replay, const struct rb_root_cached *real)
{
	for (size_t i = 0; i < replay->nr_pool; i++) {
		const struct rb_node *node = &replay->pool[i].rb;
		struct rb_node *copy = &replay->copy[i].rb;

		replay->copy[i].key = replay->pool[i].key;
		copy->rb_left = copy_of(replay, node->rb_left);
		copy->rb_right = copy_of(replay, node->rb_right);
		if (RB_EMPTY_NODE(node))
			RB_CLEAR_NODE(copy);
		else
			rb_set_parent_color(copy, copy_of(replay, rb_parent(node)), rb_color(node));
	}
	replay->root.rb_root.rb_node = copy_of(replay, real->rb_root.rb_node);
	replay->root.rb_leftmost = copy_of(replay, real->rb_leftmost);
}

/* A plain rotation: @node goes down on the side @left says, its other child rises. */
static int rotate(struct rb_root *root, struct rb_node *node, struct rb_node *rises, bool left)
{
	struct rb_node *parent = rb_parent(node), *moved;

	if (rises != (left ? node->rb_right : node->rb_left))
		return -EINVAL;
	moved = left ? rises->rb_left : rises->rb_right;
	if (left) {
		node->rb_right = moved;
		rises->rb_left = node;
	} else {
		node->rb_left = moved;
		rises->rb_right = node;
	}
	if (moved)
		rb_set_parent_color(moved, node, rb_color(moved));
	rb_set_parent_color(rises, parent, rb_color(rises));
	rb_set_parent_color(node, rises, rb_color(node));
	__rb_change_child(node, rises, parent, root);
	return 0;
}

/*
 * Erase's splice: @node leaves and @other takes its place, keeping its own colour (the steps
 * after the unlink say which colours change).  @other is NULL or @node's only child, or the
 * in-order successor of a node with two children, whose right child (if any) takes the
 * successor's old place.
 */
static int unlink_node(struct rb_root *root, struct rb_node *node, struct rb_node *other)
{
	struct rb_node *parent = rb_parent(node);

	if (!node->rb_left || !node->rb_right) {
		if (other != (node->rb_left ? node->rb_left : node->rb_right))
			return -EINVAL;
	} else {
		if (!other || other->rb_left || other != rb_next(node))
			return -EINVAL;
		if (other != node->rb_right) {
			struct rb_node *successor_parent = rb_parent(other);
			struct rb_node *child2 = other->rb_right;

			successor_parent->rb_left = child2;
			if (child2)
				rb_set_parent_color(child2, successor_parent, rb_color(child2));
			other->rb_right = node->rb_right;
			rb_set_parent_color(node->rb_right, other, rb_color(node->rb_right));
		}
		other->rb_left = node->rb_left;
		rb_set_parent_color(node->rb_left, other, rb_color(node->rb_left));
	}
	if (other)
		rb_set_parent_color(other, parent, rb_color(other));
	__rb_change_child(node, other, parent, root);
	RB_CLEAR_NODE(node);
	return 0;
}

static int apply(struct rbtree_replay *replay, const struct kfsim_rb_step *step)
{
	struct rb_root *root = &replay->root.rb_root;
	struct rb_node *node = copy_of(replay, step->node);
	struct rb_node *other = copy_of(replay, step->other);

	if (!node || (step->other && !other))
		return -EINVAL;
	switch (step->kind) {
	case KFSIM_RB_STEP_RECOLOR:
		rb_set_parent_color(node, rb_parent(node), step->color);
		return 0;
	case KFSIM_RB_STEP_ROTATE_LEFT:
		return rotate(root, node, other, true);
	case KFSIM_RB_STEP_ROTATE_RIGHT:
		return rotate(root, node, other, false);
	case KFSIM_RB_STEP_UNLINK:
		return unlink_node(root, node, other);
	}
	return -EINVAL;
}

static int grow(void **array, size_t *cap, size_t need, size_t size)
{
	size_t new_cap = *cap ? *cap : 64;
	void *bigger;

	if (need <= *cap)
		return 0;
	while (new_cap < need)
		new_cap *= 2;
	bigger = realloc(*array, new_cap * size);
	if (!bigger)
		return -ENOMEM;
	*array = bigger;
	*cap = new_cap;
	return 0;
}

/*
 * Pre-order: a node, its left subtree, its right subtree (as `kfsim rbtree --json` lists).
 * A tree has at most the pool's nodes; more would mean a cycle, which no step can make.
 */
static int record_subtree(struct rbtree_replay *replay, struct rbtree_replay_tree *tree,
			  const struct rb_node *node, size_t parent, bool right, unsigned int depth)
{
	size_t id = replay->nr_nodes++;

	if (id == tree->first + replay->nr_pool)
		return -EINVAL;
	if (depth > tree->height)
		tree->height = depth;
	replay->nodes[id] = (struct rbtree_replay_node){
		.key = rb_entry(node, const struct key_node, rb)->key,
		.red = rb_is_red(node),
		.right = right,
		.parent = parent,
	};
	if (node->rb_left && record_subtree(replay, tree, node->rb_left, id, false, depth + 1))
		return -EINVAL;
	if (node->rb_right && record_subtree(replay, tree, node->rb_right, id, true, depth + 1))
		return -EINVAL;
	return 0;
}

static int record_tree(struct rbtree_replay *replay)
{
	const struct rb_node *top = replay->root.rb_root.rb_node;
	const struct rb_node *first = rb_first_cached(&replay->root);
	struct rbtree_replay_tree *tree;
	int err;

	err = grow((void **)&replay->trees, &replay->cap_trees, replay->nr_trees + 1,
		   sizeof(*replay->trees));
	if (!err)
		err = grow((void **)&replay->nodes, &replay->cap_nodes,
			   replay->nr_nodes + replay->nr_pool + 1, sizeof(*replay->nodes));
	if (err)
		return err;
	tree = &replay->trees[replay->nr_trees++];
	tree->first = replay->nr_nodes;
	tree->height = 0;
	if (top && record_subtree(replay, tree, top, SIZE_MAX, false, 1))
		return -EINVAL;
	tree->nr = replay->nr_nodes - tree->first;
	tree->valid = !kfsim_rb_check_cached(&replay->root, replay->check_ops, &tree->check);
	tree->has_leftmost = first != NULL;
	tree->leftmost = first ? rb_entry(first, const struct key_node, rb)->key : 0;
	return 0;
}

void rbtree_replay_step(struct rbtree_replay *replay, const struct kfsim_rb_step *step)
{
	if (replay->err)
		return;
	replay->err = apply(replay, step);
	if (!replay->err)
		replay->err = record_tree(replay);
}

bool rbtree_replay_matches(const struct rbtree_replay *replay, const struct rb_root_cached *real)
{
	if (copy_of(replay, real->rb_root.rb_node) != replay->root.rb_root.rb_node ||
	    copy_of(replay, real->rb_leftmost) != replay->root.rb_leftmost)
		return false;
	for (size_t i = 0; i < replay->nr_pool; i++) {
		const struct rb_node *node = &replay->pool[i].rb, *copy = &replay->copy[i].rb;

		if (RB_EMPTY_NODE(node) != RB_EMPTY_NODE(copy))
			return false;
		if (RB_EMPTY_NODE(node))
			continue;
		if (copy_of(replay, node->rb_left) != copy->rb_left ||
		    copy_of(replay, node->rb_right) != copy->rb_right ||
		    copy_of(replay, rb_parent(node)) != rb_parent(copy) ||
		    rb_color(node) != rb_color(copy))
			return false;
	}
	return true;
}
