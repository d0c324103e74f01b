/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_SRC_RBTREE_FIXUP_H
#define KFSIM_SRC_RBTREE_FIXUP_H

/*
 * The two rebalancing procedures of the red-black tree, written once and instantiated several
 * times: plain (rb_insert_color, rb_erase), augmented (a rotate callback) and traced (a step
 * log).  Each instance passes compile-time constants for @augment_rotate and @tracer, and the
 * functions are always inlined, so the plain instance carries neither callback nor tracing.
 *
 * Notation in the pictures: upper case is black, lower case red, a name in parentheses may be
 * either colour.  Only the left-hand cases are drawn; the right-hand ones are their mirror.
 */
#include <kfsim/rbtree_augmented.h>
#include <kfsim/rbtree_debug.h>

static __always_inline void rb_trace(const struct kfsim_rb_tracer *tracer,
				     enum kfsim_rb_step_kind kind, const struct rb_node *node,
				     const struct rb_node *other, int color, const char *why)
{
	if (tracer) {
		struct kfsim_rb_step step = {
			.kind = kind,
			.node = node,
			.other = other,
			.color = color,
			.why = why,
		};

		tracer->step(tracer->priv, &step);
	}
}

/* A red node's word is its parent pointer as is: no masking needed. */
static inline struct rb_node *rb_red_parent(struct rb_node *red)
{
	return (struct rb_node *)red->__rb_parent_color;
}

static inline void rb_set_black(struct rb_node *rb)
{
	rb->__rb_parent_color |= RB_BLACK;
}

/*
 * rb_rotate_set_parents() - finish a rotation: @new takes @old's place under @old's parent and
 * @old's colour; @old hangs below @new with @color.
 */
static inline void rb_rotate_set_parents(struct rb_node *old, struct rb_node *new,
					 struct rb_root *root, int color)
{
	struct rb_node *parent = rb_parent(old);

	new->__rb_parent_color = old->__rb_parent_color;
	rb_set_parent_color(old, new, color);
	__rb_change_child(old, new, parent, root);
}

/*
 * rb_insert_flip_colors() - insert case 1: the parent and the uncle turn black, the grandparent
 * red (black counts unchanged).
 */
static __always_inline void rb_insert_flip_colors(struct rb_node *parent, struct rb_node *gparent,
						  struct rb_node *uncle,
						  const struct kfsim_rb_tracer *tracer)
{
	static const char why[] = "insert case 1: the uncle is red";

	rb_set_parent_color(uncle, gparent, RB_BLACK);
	rb_set_parent_color(parent, gparent, RB_BLACK);
	rb_set_parent_color(gparent, rb_parent(gparent), RB_RED);
	rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, parent, NULL, RB_BLACK, why);
	rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, uncle, NULL, RB_BLACK, why);
	rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, gparent, NULL, RB_RED, why);
}

/*
 * rb_insert_fixup() - restore the properties after @node was linked as a red leaf
 *
 * Loop invariant: @node is red; the only possible violation is @node's parent being red too
 * (property 4), or @node being a red root (property 2).
 */
static __always_inline void rb_insert_fixup(struct rb_node *node, struct rb_root *root,
					    void (*augment_rotate)(struct rb_node *old,
								   struct rb_node *new),
					    const struct kfsim_rb_tracer *tracer)
{
	struct rb_node *parent = rb_red_parent(node), *gparent, *uncle, *tmp;

	for (;;) {
		if (unlikely(!parent)) {
			/* A red root: paint it black, which adds one black to every path. */
			rb_set_parent_color(node, NULL, RB_BLACK);
			rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, node, NULL, RB_BLACK,
				 "insert: the root is painted black");
			return;
		}
		if (rb_is_black(parent))
			return; /* a red child of a black parent breaks nothing */

		/* The parent is red, hence not the root: the grandparent exists and is black. */
		gparent = rb_red_parent(parent);
		uncle = gparent->rb_right;
		if (parent != uncle) { /* parent is the left child */
			if (uncle && rb_is_red(uncle)) {
				/*
				 * Case 1: red uncle.  Flip the colours of G and its children:
				 *
				 *       G            g
				 *      / \          / \
				 *     p   u  -->   P   U
				 *    /            /
				 *   n            n
				 *
				 * Black counts are unchanged; g may now have a red parent, so
				 * continue from g.
				 */
				rb_insert_flip_colors(parent, gparent, uncle, tracer);
				node = gparent;
				parent = rb_parent(node);
				continue;
			}
			tmp = parent->rb_right;
			if (node == tmp) {
				/*
				 * Case 2: black uncle, n is an inner child.  Rotate left at p so
				 * that the red pair lies on the outside, then fall into case 3:
				 *
				 *      G             G
				 *     / \           / \
				 *    p   U  -->    n   U
				 *     \           /
				 *      n         p
				 */
				tmp = node->rb_left;
				WRITE_ONCE(parent->rb_right, tmp);
				WRITE_ONCE(node->rb_left, parent);
				if (tmp)
					rb_set_parent_color(tmp, parent, RB_BLACK);
				rb_set_parent_color(parent, node, RB_RED);
				augment_rotate(parent, node);
				rb_trace(tracer, KFSIM_RB_STEP_ROTATE_LEFT, parent, node, 0,
					 "insert case 2: the uncle is black, inner child");
				parent = node;
				tmp = node->rb_right;
			}
			/*
			 * Case 3: black uncle, n is an outer child.  Rotate right at G and swap
			 * the colours of G and p:
			 *
			 *        G           P
			 *       / \         / \
			 *      p   U  -->  n   g
			 *     /                 \
			 *    n                   U
			 */
			WRITE_ONCE(gparent->rb_left, tmp); /* tmp is p's right child */
			WRITE_ONCE(parent->rb_right, gparent);
			if (tmp)
				rb_set_parent_color(tmp, gparent, RB_BLACK);
			rb_rotate_set_parents(gparent, parent, root, RB_RED);
			augment_rotate(gparent, parent);
			rb_trace(tracer, KFSIM_RB_STEP_ROTATE_RIGHT, gparent, parent, 0,
				 "insert case 3: the uncle is black, outer child");
			rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, parent, NULL, RB_BLACK,
				 "insert case 3: the uncle is black, outer child");
			rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, gparent, NULL, RB_RED,
				 "insert case 3: the uncle is black, outer child");
			return;
		} else { /* parent is the right child: the mirror image */
			uncle = gparent->rb_left;
			if (uncle && rb_is_red(uncle)) {
				rb_insert_flip_colors(parent, gparent, uncle, tracer);
				node = gparent;
				parent = rb_parent(node);
				continue;
			}
			tmp = parent->rb_left;
			if (node == tmp) {
				tmp = node->rb_right;
				WRITE_ONCE(parent->rb_left, tmp);
				WRITE_ONCE(node->rb_right, parent);
				if (tmp)
					rb_set_parent_color(tmp, parent, RB_BLACK);
				rb_set_parent_color(parent, node, RB_RED);
				augment_rotate(parent, node);
				rb_trace(tracer, KFSIM_RB_STEP_ROTATE_RIGHT, parent, node, 0,
					 "insert case 2: the uncle is black, inner child");
				parent = node;
				tmp = node->rb_left;
			}
			WRITE_ONCE(gparent->rb_right, tmp);
			WRITE_ONCE(parent->rb_left, gparent);
			if (tmp)
				rb_set_parent_color(tmp, gparent, RB_BLACK);
			rb_rotate_set_parents(gparent, parent, root, RB_RED);
			augment_rotate(gparent, parent);
			rb_trace(tracer, KFSIM_RB_STEP_ROTATE_LEFT, gparent, parent, 0,
				 "insert case 3: the uncle is black, outer child");
			rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, parent, NULL, RB_BLACK,
				 "insert case 3: the uncle is black, outer child");
			rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, gparent, NULL, RB_RED,
				 "insert case 3: the uncle is black, outer child");
			return;
		}
	}
}

/*
 * rb_erase_fixup() - restore property 5 after an erase
 * @parent: the node below which one black is missing (see __rb_erase_augmented())
 *
 * Loop invariant: the paths through @node (NULL on the first pass: the emptied slot) have one
 * black fewer than all others; @node is black (or NULL) and not the root, so it has a sibling
 * subtree with black height >= 1 (a non-NULL sibling).
 */
static __always_inline void rb_erase_fixup(struct rb_node *parent, struct rb_root *root,
					   void (*augment_rotate)(struct rb_node *old,
								  struct rb_node *new),
					   const struct kfsim_rb_tracer *tracer)
{
	struct rb_node *node = NULL, *sibling, *tmp1, *tmp2;
	bool outer_was_red __maybe_unused;

	for (;;) {
		sibling = parent->rb_right;
		if (node != sibling) { /* node is the left child (or the left slot is empty) */
			if (rb_is_red(sibling)) {
				/*
				 * Case 1: red sibling.  Rotate left at P so that N gets a black
				 * sibling (s's former left child), recolouring s and P:
				 *
				 *     P               S
				 *    / \             / \
				 *   N   s    -->    p   Sr
				 *      / \         / \
				 *     Sl  Sr      N   Sl
				 */
				tmp1 = sibling->rb_left;
				WRITE_ONCE(parent->rb_right, tmp1);
				WRITE_ONCE(sibling->rb_left, parent);
				rb_set_parent_color(tmp1, parent, RB_BLACK);
				rb_rotate_set_parents(parent, sibling, root, RB_RED);
				augment_rotate(parent, sibling);
				rb_trace(tracer, KFSIM_RB_STEP_ROTATE_LEFT, parent, sibling, 0,
					 "erase case 1: the sibling is red");
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, sibling, NULL, RB_BLACK,
					 "erase case 1: the sibling is red");
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, parent, NULL, RB_RED,
					 "erase case 1: the sibling is red");
				sibling = tmp1;
			}
			tmp1 = sibling->rb_right;
			if (!tmp1 || rb_is_black(tmp1)) {
				tmp2 = sibling->rb_left;
				if (!tmp2 || rb_is_black(tmp2)) {
					/*
					 * Case 2: black sibling with black children.  Paint S
					 * red: now both sides of P lack a black.  A red P turns
					 * black and we are done; a black P passes the deficit
					 * up to its own parent.
					 *
					 *    (p)           (p)
					 *    / \           / \
					 *   N   S    -->  N   s
					 *      / \           / \
					 *     Sl  Sr        Sl  Sr
					 */
					rb_set_parent_color(sibling, parent, RB_RED);
					rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, sibling, NULL,
						 RB_RED,
						 "erase case 2: black sibling, black nephews");
					if (rb_is_red(parent)) {
						rb_set_black(parent);
						rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, parent,
							 NULL, RB_BLACK,
							 "erase case 2: the parent was red");
					} else {
						node = parent;
						parent = rb_parent(node);
						if (parent)
							continue;
					}
					break;
				}
				/*
				 * Case 3: black sibling, red inner nephew sl, black outer one.
				 * Rotate right at S so that the red nephew is outer, then
				 * case 4 applies (its code also sets S's parent and colour):
				 *
				 *   (p)           (p)
				 *   / \           / \
				 *  N   S    -->  N   sl
				 *     / \             \
				 *    sl  Sr            s
				 *                       \
				 *                        Sr
				 */
				tmp1 = tmp2->rb_right;
				WRITE_ONCE(sibling->rb_left, tmp1);
				WRITE_ONCE(tmp2->rb_right, sibling);
				WRITE_ONCE(parent->rb_right, tmp2);
				if (tmp1)
					rb_set_parent_color(tmp1, sibling, RB_BLACK);
				augment_rotate(sibling, tmp2);
				rb_trace(tracer, KFSIM_RB_STEP_ROTATE_RIGHT, sibling, tmp2, 0,
					 "erase case 3: the sibling's inner child is red");
				tmp1 = sibling;
				sibling = tmp2;
			}
			/*
			 * Case 4: black sibling with a red outer child sr.  Rotate left at P; S
			 * takes P's colour, P and sr turn black: N's side gains a black.
			 *
			 *      (p)             (s)
			 *      / \             / \
			 *     N   S     -->   P   Sr
			 *        / \         / \
			 *      (sl) sr      N  (sl)
			 */
			tmp2 = sibling->rb_left;
			WRITE_ONCE(parent->rb_right, tmp2);
			WRITE_ONCE(sibling->rb_left, parent);
			outer_was_red = rb_is_red(tmp1);
			rb_set_parent_color(tmp1, sibling, RB_BLACK);
			if (tmp2)
				rb_set_parent(tmp2, parent);
			rb_trace(tracer, KFSIM_RB_STEP_ROTATE_LEFT, parent, sibling, 0,
				 "erase case 4: the sibling's outer child is red");
			if (rb_is_red(parent) != rb_is_red(sibling))
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, sibling, NULL,
					 rb_color(parent),
					 "erase case 4: the sibling takes the parent's colour");
			rb_rotate_set_parents(parent, sibling, root, RB_BLACK);
			augment_rotate(parent, sibling);
			if (outer_was_red)
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, tmp1, NULL, RB_BLACK,
					 "erase case 4: the sibling's outer child turns black");
			if (rb_is_red(sibling))
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, parent, NULL, RB_BLACK,
					 "erase case 4: the parent turns black");
			break;
		} else { /* node is the right child: the mirror image */
			sibling = parent->rb_left;
			if (rb_is_red(sibling)) {
				tmp1 = sibling->rb_right;
				WRITE_ONCE(parent->rb_left, tmp1);
				WRITE_ONCE(sibling->rb_right, parent);
				rb_set_parent_color(tmp1, parent, RB_BLACK);
				rb_rotate_set_parents(parent, sibling, root, RB_RED);
				augment_rotate(parent, sibling);
				rb_trace(tracer, KFSIM_RB_STEP_ROTATE_RIGHT, parent, sibling, 0,
					 "erase case 1: the sibling is red");
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, sibling, NULL, RB_BLACK,
					 "erase case 1: the sibling is red");
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, parent, NULL, RB_RED,
					 "erase case 1: the sibling is red");
				sibling = tmp1;
			}
			tmp1 = sibling->rb_left;
			if (!tmp1 || rb_is_black(tmp1)) {
				tmp2 = sibling->rb_right;
				if (!tmp2 || rb_is_black(tmp2)) {
					rb_set_parent_color(sibling, parent, RB_RED);
					rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, sibling, NULL,
						 RB_RED,
						 "erase case 2: black sibling, black nephews");
					if (rb_is_red(parent)) {
						rb_set_black(parent);
						rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, parent,
							 NULL, RB_BLACK,
							 "erase case 2: the parent was red");
					} else {
						node = parent;
						parent = rb_parent(node);
						if (parent)
							continue;
					}
					break;
				}
				tmp1 = tmp2->rb_left;
				WRITE_ONCE(sibling->rb_right, tmp1);
				WRITE_ONCE(tmp2->rb_left, sibling);
				WRITE_ONCE(parent->rb_left, tmp2);
				if (tmp1)
					rb_set_parent_color(tmp1, sibling, RB_BLACK);
				augment_rotate(sibling, tmp2);
				rb_trace(tracer, KFSIM_RB_STEP_ROTATE_LEFT, sibling, tmp2, 0,
					 "erase case 3: the sibling's inner child is red");
				tmp1 = sibling;
				sibling = tmp2;
			}
			tmp2 = sibling->rb_right;
			WRITE_ONCE(parent->rb_left, tmp2);
			WRITE_ONCE(sibling->rb_right, parent);
			outer_was_red = rb_is_red(tmp1);
			rb_set_parent_color(tmp1, sibling, RB_BLACK);
			if (tmp2)
				rb_set_parent(tmp2, parent);
			rb_trace(tracer, KFSIM_RB_STEP_ROTATE_RIGHT, parent, sibling, 0,
				 "erase case 4: the sibling's outer child is red");
			if (rb_is_red(parent) != rb_is_red(sibling))
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, sibling, NULL,
					 rb_color(parent),
					 "erase case 4: the sibling takes the parent's colour");
			rb_rotate_set_parents(parent, sibling, root, RB_BLACK);
			augment_rotate(parent, sibling);
			if (outer_was_red)
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, tmp1, NULL, RB_BLACK,
					 "erase case 4: the sibling's outer child turns black");
			if (rb_is_red(sibling))
				rb_trace(tracer, KFSIM_RB_STEP_RECOLOR, parent, NULL, RB_BLACK,
					 "erase case 4: the parent turns black");
			break;
		}
	}
}

#endif /* KFSIM_SRC_RBTREE_FIXUP_H */
