/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_RBTREE_DEBUG_H
#define KFSIM_RBTREE_DEBUG_H

/*
 * What kfsim adds around the kernel's red-black tree for tests and teaching (the kernel has no
 * names for these, hence the kfsim_rb_ prefix): a step log of the recolourings and rotations one
 * insert or erase performs.
 *
 * The step log costs nothing when unused: rb_insert_color()/rb_erase() are compiled from the
 * same rebalancing code with the tracer a constant NULL, so the tracing calls vanish; only
 * kfsim_rb_insert_color_traced()/kfsim_rb_erase_traced() carry them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/rbtree.h>

/** enum kfsim_rb_step_kind - what one step of a rebalance did */
enum kfsim_rb_step_kind {
	KFSIM_RB_STEP_RECOLOR,		/* @node became @color */
	KFSIM_RB_STEP_ROTATE_LEFT,	/* @node went down to the left, @other (its right child) rose */
	KFSIM_RB_STEP_ROTATE_RIGHT,	/* @node went down to the right, @other (its left child) rose */
	KFSIM_RB_STEP_UNLINK,		/* erase took @node out; @other (or NULL) took its place */
};

/**
 * struct kfsim_rb_step - one recolouring, rotation or unlink
 * @kind: what happened
 * @node: the node recoloured, rotated down, or erased
 * @other: for a rotation the node that rose; for an unlink the node that took @node's place
 * @color: for a recolouring the new colour (RB_RED or RB_BLACK)
 * @why: the case of the algorithm, e.g. "insert case 1: the uncle is red"
 *
 * Node pointers are valid only during the callback (and as long as the caller's nodes live).
 */
struct kfsim_rb_step {
	enum kfsim_rb_step_kind kind;
	const struct rb_node *node;
	const struct rb_node *other;
	int color;
	const char *why;
};

/**
 * struct kfsim_rb_tracer - receiver of the steps of a traced insert or erase
 * @step: called once per step, in the order performed
 * @priv: passed to @step
 */
struct kfsim_rb_tracer {
	void (*step)(void *priv, const struct kfsim_rb_step *step);
	void *priv;
};

/**
 * kfsim_rb_insert_color_traced() - rb_insert_color() reporting each step to @tracer
 *
 * Exactly the rebalancing of rb_insert_color(); @tracer may be NULL.
 */
void kfsim_rb_insert_color_traced(struct rb_node *node, struct rb_root *root,
				  const struct kfsim_rb_tracer *tracer);

/**
 * kfsim_rb_erase_traced() - rb_erase() reporting the unlink and each rebalancing step
 *
 * Exactly the effect of rb_erase(); @tracer may be NULL.
 */
void kfsim_rb_erase_traced(struct rb_node *node, struct rb_root *root,
			   const struct kfsim_rb_tracer *tracer);

/** kfsim_rb_step_kind_name() - "recolor", "rotate-left", "rotate-right" or "unlink" */
const char *kfsim_rb_step_kind_name(enum kfsim_rb_step_kind kind);

#endif /* KFSIM_RBTREE_DEBUG_H */
