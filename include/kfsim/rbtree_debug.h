/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_RBTREE_DEBUG_H
#define KFSIM_RBTREE_DEBUG_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * What kfsim adds around the kernel's red-black tree for tests and teaching (the kernel has no
 * names for these, hence the kfsim_rb_ prefix):
 *   - a checker that verifies every red-black property, the parent links, the key order, the
 *     leftmost cache and augmented values, and names the first violation it meets;
 *   - a drawing of a tree as Graphviz DOT (or SVG through the dot program) showing the colours,
 *     the cached leftmost node and augmented values;
 *   - a step log of the recolourings and rotations one insert or erase performs.
 *
 * The checker and the drawing only read the tree.  They follow the caller's pointers, so a tree
 * whose pointers lead to freed memory cannot be checked; a cycle or a runaway depth is caught by
 * the parent-link check and by a depth limit no valid tree can reach.
 *
 * The step log costs nothing when unused: rb_insert_color()/rb_erase() are compiled from the
 * same rebalancing code with the tracer a constant NULL, so the tracing calls vanish; only
 * kfsim_rb_insert_color_traced()/kfsim_rb_erase_traced() carry them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <kfsim/rbtree.h>

/*
 * KFSIM_RB_MAX_DEPTH - deeper than any valid tree: height <= 2 * log2(n + 1) and n < 2^64.
 * The checker and the drawing refuse trees that go deeper (a cycle, or corruption).
 */
#define KFSIM_RB_MAX_DEPTH 128

/** enum kfsim_rb_violation - which property the checker found broken first */
enum kfsim_rb_violation {
	KFSIM_RB_OK,
	KFSIM_RB_BAD_ROOT_PARENT, /* the root's parent pointer is not NULL */
	KFSIM_RB_RED_ROOT,	  /* property 2 */
	KFSIM_RB_BAD_PARENT,	  /* a child's parent pointer names another node */
	KFSIM_RB_BAD_BITS,	  /* bit 1 of __rb_parent_color set (never by the tree code) */
	KFSIM_RB_SHARED_CHILD,	  /* rb_left == rb_right != NULL */
	KFSIM_RB_RED_RED,	  /* property 4 */
	KFSIM_RB_BLACK_HEIGHT,	  /* property 5 */
	KFSIM_RB_ORDER,		  /* in-order keys decrease */
	KFSIM_RB_AUGMENTED,	  /* a stored summary differs from its recomputation */
	KFSIM_RB_LEFTMOST,	  /* rb_root_cached.rb_leftmost is not the first node */
	KFSIM_RB_TOO_DEEP,	  /* deeper than KFSIM_RB_MAX_DEPTH (a cycle?) */
};

/**
 * struct kfsim_rb_check_ops - what the checker needs to know about the caller's nodes
 * @cmp: optional; orders two nodes (<0, 0, >0); in-order keys must never decrease
 * @augmented_ok: optional; whether @node's stored summary equals the value recomputed from the
 *	node and its children (e.g. RBNAME_compute_max(node, true) of RB_DECLARE_CALLBACKS_MAX)
 * @describe: optional; writes a short name of @node (its key) for messages; the default is
 *	the node's address
 */
struct kfsim_rb_check_ops {
	int (*cmp)(const struct rb_node *a, const struct rb_node *b);
	bool (*augmented_ok)(const struct rb_node *node);
	void (*describe)(const struct rb_node *node, char *buf, size_t size);
};

/**
 * struct kfsim_rb_check_result - the checker's verdict and the tree's measurements
 * @violation: KFSIM_RB_OK or the first property found broken
 * @node: the node where it was found (NULL for a tree-wide violation)
 * @message: one line saying what is wrong where, e.g. "node 7 is red and so is its left
 *	child 3 (property 4: a red node has no red child)"; "ok" when valid
 * @nr_nodes: nodes visited
 * @height: nodes on the longest path from the root (0 for an empty tree)
 * @black_height: black nodes on each root-to-leaf path (valid when @violation is OK)
 */
struct kfsim_rb_check_result {
	enum kfsim_rb_violation violation;
	const struct rb_node *node;
	char message[224];
	size_t nr_nodes;
	unsigned int height;
	unsigned int black_height;
};

/**
 * kfsim_rb_check() - verify that @root is a valid red-black tree
 * @root: the tree
 * @ops: callbacks for the optional checks, or NULL for the structural checks only
 * @result: receives the verdict; may be NULL
 *
 * Nodes are visited in order (left subtree, node, right subtree) and the first broken property
 * met is reported.
 *
 * Return: 0 when valid; -EINVAL when a property is broken or @root is NULL.
 */
int kfsim_rb_check(const struct rb_root *root, const struct kfsim_rb_check_ops *ops,
		   struct kfsim_rb_check_result *result);

/**
 * kfsim_rb_check_cached() - kfsim_rb_check() plus the leftmost cache of @root
 *
 * Return: 0 when valid; -EINVAL otherwise (KFSIM_RB_LEFTMOST when only the cache is wrong).
 */
int kfsim_rb_check_cached(const struct rb_root_cached *root, const struct kfsim_rb_check_ops *ops,
			  struct kfsim_rb_check_result *result);

/** kfsim_rb_violation_name() - "red-red", "black-height", ... ("ok" for KFSIM_RB_OK) */
const char *kfsim_rb_violation_name(enum kfsim_rb_violation violation);

/**
 * struct kfsim_rb_draw_ops - how to label the caller's nodes in a drawing
 * @label: writes the node's key (required)
 * @augmented: optional; writes the node's subtree summary, drawn under the key
 */
struct kfsim_rb_draw_ops {
	void (*label)(const struct rb_node *node, char *buf, size_t size);
	void (*augmented)(const struct rb_node *node, char *buf, size_t size);
};

/**
 * kfsim_rb_write_dot() - draw @root as a Graphviz digraph on @out
 * @out: the stream
 * @root: the tree
 * @leftmost: the cached leftmost node to mark (rb_first_cached()), or NULL
 * @ops: node labels
 * @title: a caption, or NULL
 *
 * Red and black nodes are filled in their colour; missing children are kept as invisible
 * placeholders so that a lone child still leans the right way; the cached leftmost node is
 * pointed at by an "rb_leftmost" box.
 *
 * Return: 0; -EINVAL for a NULL argument or a tree deeper than KFSIM_RB_MAX_DEPTH; -EIO when
 * writing fails.
 */
int kfsim_rb_write_dot(FILE *out, const struct rb_root *root, const struct rb_node *leftmost,
		       const struct kfsim_rb_draw_ops *ops, const char *title);

/**
 * kfsim_rb_write_svg() - draw @root as SVG into the file @path using Graphviz's dot program
 *
 * Arguments as kfsim_rb_write_dot().
 *
 * The DOT text goes through a temporary file in $TMPDIR (default /tmp), removed afterwards.
 * @path is written through kfsim_outfile (see <kfsim/outfile.h>): it is replaced by a complete
 * SVG document or keeps its old content.  Nodes are named by preorder number, never by
 * address, so the same tree gives the same DOT and SVG in every run.
 *
 * Return: 0; -EINVAL as kfsim_rb_write_dot(); -ENOENT when dot is not installed or @path's
 * directory does not exist (kfsim_rb_write_svg_stream() tells them apart); -EIO when dot fails
 * or its output is not a complete SVG document, or the temporary file cannot be created
 * (logged); -ENAMETOOLONG for an overlong $TMPDIR or @path; the errors of
 * kfsim_outfile_open() and kfsim_outfile_commit() (-ENOSPC, -EFBIG, -EACCES, -EISDIR ...).
 */
int kfsim_rb_write_svg(const char *path, const struct rb_root *root, const struct rb_node *leftmost,
		       const struct kfsim_rb_draw_ops *ops, const char *title);

/**
 * kfsim_rb_write_svg_stream() - kfsim_rb_write_svg() onto an open stream @out
 *
 * dot's standard output is copied into @out, which the caller opened (usually a kfsim_outfile)
 * and finishes: errors writing @out are not checked here but by whoever finishes it.
 *
 * Return: as kfsim_rb_write_svg() without the @path errors: -ENOENT only means no dot program.
 */
int kfsim_rb_write_svg_stream(FILE *out, const struct rb_root *root,
			      const struct rb_node *leftmost, const struct kfsim_rb_draw_ops *ops,
			      const char *title);

/** enum kfsim_rb_step_kind - what one step of a rebalance did */
enum kfsim_rb_step_kind {
	KFSIM_RB_STEP_RECOLOR,	    /* @node became @color */
	KFSIM_RB_STEP_ROTATE_LEFT,  /* @node went down to the left, @other (its right child) rose */
	KFSIM_RB_STEP_ROTATE_RIGHT, /* @node went down to the right, @other (its left child) rose */
	KFSIM_RB_STEP_UNLINK,	    /* erase took @node out; @other (or NULL) took its place */
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

#pragma GCC visibility pop
#endif /* KFSIM_RBTREE_DEBUG_H */
