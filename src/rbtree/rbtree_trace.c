// SPDX-License-Identifier: MIT
/*
 * The traced instances of the rebalancing code (kfsim_rb_insert_color_traced(),
 * kfsim_rb_erase_traced()): the same procedures as rb_insert_color()/rb_erase(), with a step
 * log.  Keeping them in their own file keeps the plain instances free of any tracing.
 */
#include "rbtree_fixup.h"

static inline void no_rotate(struct rb_node *old, struct rb_node *new)
{
}

static inline void no_propagate(struct rb_node *node, struct rb_node *stop)
{
}

static const struct rb_augment_callbacks no_callbacks = {
	.propagate = no_propagate,
	.copy = no_rotate,
	.rotate = no_rotate,
};

const char *kfsim_rb_step_kind_name(enum kfsim_rb_step_kind kind)
{
	switch (kind) {
	case KFSIM_RB_STEP_RECOLOR:
		return "recolor";
	case KFSIM_RB_STEP_ROTATE_LEFT:
		return "rotate-left";
	case KFSIM_RB_STEP_ROTATE_RIGHT:
		return "rotate-right";
	case KFSIM_RB_STEP_UNLINK:
		return "unlink";
	}
	return "unknown";
}

void kfsim_rb_insert_color_traced(struct rb_node *node, struct rb_root *root,
				  const struct kfsim_rb_tracer *tracer)
{
	rb_insert_fixup(node, root, no_rotate, tracer);
}

/*
 * Describe the unlink __rb_erase_augmented() is about to do: who takes @node's place and which
 * colours change on the way (see the three shapes documented there).
 */
static void trace_unlink(struct rb_node *node, const struct kfsim_rb_tracer *tracer)
{
	struct rb_node *successor, *child2;

	if (!node->rb_left || !node->rb_right) {
		struct rb_node *child = node->rb_left ? node->rb_left : node->rb_right;

		rb_trace(tracer, KFSIM_RB_STEP_UNLINK, node, child, 0,
			 "erase: a node with at most one child is replaced by that child");
		if (child && rb_color(child) != rb_color(node))
			rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, child, NULL, rb_color(node),
				 "erase: the child takes the erased node's colour");
		return;
	}
	successor = rb_next(node);
	child2 = successor->rb_right;
	rb_trace(tracer, KFSIM_RB_STEP_UNLINK, node, successor, 0,
		 "erase: a node with two children is replaced by its successor");
	if (rb_color(successor) != rb_color(node))
		rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, successor, NULL, rb_color(node),
			 "erase: the successor takes the erased node's colour");
	if (child2)
		rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, child2, NULL, RB_BLACK,
			 "erase: the successor's red child takes its place and turns black");
}

void kfsim_rb_erase_traced(struct rb_node *node, struct rb_root *root,
			   const struct kfsim_rb_tracer *tracer)
{
	struct rb_node *rebalance;

	if (tracer)
		trace_unlink(node, tracer);
	rebalance = __rb_erase_augmented(node, root, &no_callbacks);
	if (rebalance)
		rb_erase_fixup(rebalance, root, no_rotate, tracer);
}

#include <kfsim/moduleparam.h>
/*
 * The "rbtree" module of the kernel command line: "rbtree.<param>=" is checked against its
 * parameters (none yet), and an unknown one is reported as the module loader reports it.
 */
KFSIM_MODULE(rbtree)
