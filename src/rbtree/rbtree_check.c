// SPDX-License-Identifier: MIT
/*
 * The tree checker (kfsim_rb_check): one in-order pass that verifies, at every node, the
 * parent link, the unused bit, the two children being distinct, property 4 (no red child of a
 * red node), the key order against the previous node, the augmented summary, and property 5
 * (equal black heights of the two subtrees); then the root's properties and the leftmost cache.
 * It stops at the first violation and describes it in one line.  It never writes to the tree.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <kfsim/err.h>
#include <kfsim/rbtree_augmented.h>
#include <kfsim/rbtree_debug.h>

struct check_walk {
	const struct kfsim_rb_check_ops *ops;
	struct kfsim_rb_check_result *res;
	const struct rb_node *prev; /* the previous node in order */
};

static const char *const violation_names[] = {
	[KFSIM_RB_OK] = "ok",
	[KFSIM_RB_BAD_ROOT_PARENT] = "root-parent",
	[KFSIM_RB_RED_ROOT] = "red-root",
	[KFSIM_RB_BAD_PARENT] = "parent-link",
	[KFSIM_RB_BAD_BITS] = "reserved-bit",
	[KFSIM_RB_SHARED_CHILD] = "shared-child",
	[KFSIM_RB_RED_RED] = "red-red",
	[KFSIM_RB_BLACK_HEIGHT] = "black-height",
	[KFSIM_RB_ORDER] = "order",
	[KFSIM_RB_AUGMENTED] = "augmented",
	[KFSIM_RB_LEFTMOST] = "leftmost",
	[KFSIM_RB_TOO_DEEP] = "too-deep",
};

const char *kfsim_rb_violation_name(enum kfsim_rb_violation violation)
{
	if ((unsigned int)violation >= ARRAY_SIZE(violation_names))
		return "unknown";
	return violation_names[violation];
}

/* A short name for @node in messages: the caller's description, else its address. */
static const char *name_of(const struct check_walk *w, const struct rb_node *node, char *buf,
			   size_t size)
{
	if (!node)
		snprintf(buf, size, "NULL");
	else if (w->ops && w->ops->describe)
		w->ops->describe(node, buf, size);
	else
		snprintf(buf, size, "%p", (const void *)node);
	return buf;
}

static int __printf(4, 5) report(struct check_walk *w, enum kfsim_rb_violation violation,
				 const struct rb_node *node, const char *fmt, ...)
{
	va_list ap;

	w->res->violation = violation;
	w->res->node = node;
	va_start(ap, fmt);
	vsnprintf(w->res->message, sizeof(w->res->message), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Checks of @node that need nothing from its subtrees. */
static int check_links(struct check_walk *w, const struct rb_node *node,
		       const struct rb_node *parent, int depth)
{
	char a[64], b[64], c[64];

	if (depth >= KFSIM_RB_MAX_DEPTH)
		return report(w, KFSIM_RB_TOO_DEEP, node,
			      "node %s is at depth %d: no valid tree is that deep (a cycle?)",
			      name_of(w, node, a, sizeof(a)), depth);
	if (rb_parent(node) != parent)
		return report(w, KFSIM_RB_BAD_PARENT, node,
			      "node %s is a child of %s but its parent pointer names %s",
			      name_of(w, node, a, sizeof(a)), name_of(w, parent, b, sizeof(b)),
			      name_of(w, rb_parent(node), c, sizeof(c)));
	if (node->__rb_parent_color & 2)
		return report(w, KFSIM_RB_BAD_BITS, node,
			      "node %s has bit 1 of __rb_parent_color set (0x%lx)",
			      name_of(w, node, a, sizeof(a)), node->__rb_parent_color);
	if (node->rb_left && node->rb_left == node->rb_right)
		return report(w, KFSIM_RB_SHARED_CHILD, node,
			      "node %s has the same node %s as left and right child",
			      name_of(w, node, a, sizeof(a)),
			      name_of(w, node->rb_left, b, sizeof(b)));
	if (rb_is_red(node)) {
		const struct rb_node *red = NULL;
		const char *side = NULL;

		if (node->rb_left && rb_is_red(node->rb_left)) {
			red = node->rb_left;
			side = "left";
		} else if (node->rb_right && rb_is_red(node->rb_right)) {
			red = node->rb_right;
			side = "right";
		}
		if (red)
			return report(w, KFSIM_RB_RED_RED, node,
				      "node %s is red and so is its %s child %s (property 4: a red "
				      "node has no red child)",
				      name_of(w, node, a, sizeof(a)), side,
				      name_of(w, red, b, sizeof(b)));
	}
	return 0;
}

/* Checks of @node against its in-order predecessor and its own summary. */
static int check_in_order(struct check_walk *w, const struct rb_node *node)
{
	char a[64], b[64];

	if (w->ops && w->ops->cmp && w->prev && w->ops->cmp(w->prev, node) > 0)
		return report(w, KFSIM_RB_ORDER, node,
			      "node %s comes after %s in order but sorts before it",
			      name_of(w, node, a, sizeof(a)), name_of(w, w->prev, b, sizeof(b)));
	if (w->ops && w->ops->augmented_ok && !w->ops->augmented_ok(node))
		return report(w, KFSIM_RB_AUGMENTED, node,
			      "node %s: the stored augmented value differs from the one recomputed "
			      "from the node and its children",
			      name_of(w, node, a, sizeof(a)));
	w->prev = node;
	return 0;
}

/*
 * check_subtree() - check the subtree at @node (child of @parent, at @depth)
 *
 * Return: the subtree's black height counting the NULL leaves as 1 (>= 1), or -EINVAL.
 */
static int check_subtree(struct check_walk *w, const struct rb_node *node,
			 const struct rb_node *parent, int depth)
{
	int left, right, err;
	char a[64];

	if (!node)
		return 1;
	err = check_links(w, node, parent, depth);
	if (err)
		return err;
	w->res->nr_nodes++;
	if ((unsigned int)depth + 1 > w->res->height)
		w->res->height = depth + 1;

	left = check_subtree(w, node->rb_left, node, depth + 1);
	if (left < 0)
		return left;
	err = check_in_order(w, node);
	if (err)
		return err;
	right = check_subtree(w, node->rb_right, node, depth + 1);
	if (right < 0)
		return right;
	if (left != right)
		return report(
			w, KFSIM_RB_BLACK_HEIGHT, node,
			"node %s: paths through its left subtree meet %d black node(s), through "
			"its right subtree %d (property 5: equal black counts)",
			name_of(w, node, a, sizeof(a)), left - 1, right - 1);
	return left + rb_is_black(node);
}

int kfsim_rb_check(const struct rb_root *root, const struct kfsim_rb_check_ops *ops,
		   struct kfsim_rb_check_result *result)
{
	struct kfsim_rb_check_result scratch;
	struct check_walk w = {.ops = ops, .res = result ? result : &scratch};
	const struct rb_node *top;
	char a[64];
	int bh;

	memset(w.res, 0, sizeof(*w.res));
	if (!root)
		return report(&w, KFSIM_RB_BAD_ROOT_PARENT, NULL, "the root is a NULL pointer");
	top = root->rb_node;
	if (top && rb_parent(top))
		return report(&w, KFSIM_RB_BAD_ROOT_PARENT, top,
			      "the root %s has a parent pointer (%p); it must be NULL",
			      name_of(&w, top, a, sizeof(a)), (void *)rb_parent(top));
	if (top && rb_is_red(top))
		return report(&w, KFSIM_RB_RED_ROOT, top,
			      "the root %s is red (property 2: the root is black)",
			      name_of(&w, top, a, sizeof(a)));
	bh = check_subtree(&w, top, NULL, 0);
	if (bh < 0)
		return bh;
	w.res->black_height = bh - 1;
	snprintf(w.res->message, sizeof(w.res->message), "ok");
	return 0;
}

int kfsim_rb_check_cached(const struct rb_root_cached *root, const struct kfsim_rb_check_ops *ops,
			  struct kfsim_rb_check_result *result)
{
	struct kfsim_rb_check_result scratch;
	struct check_walk w = {.ops = ops, .res = result ? result : &scratch};
	const struct rb_node *first;
	char a[64], b[64];
	int err;

	if (!root) {
		memset(w.res, 0, sizeof(*w.res));
		return report(&w, KFSIM_RB_BAD_ROOT_PARENT, NULL, "the root is a NULL pointer");
	}
	err = kfsim_rb_check(&root->rb_root, ops, w.res);
	if (err)
		return err;
	first = rb_first(&root->rb_root);
	if (root->rb_leftmost != first)
		return report(&w, KFSIM_RB_LEFTMOST, root->rb_leftmost,
			      "rb_leftmost is %s but the first node is %s",
			      name_of(&w, root->rb_leftmost, a, sizeof(a)),
			      name_of(&w, first, b, sizeof(b)));
	return 0;
}
