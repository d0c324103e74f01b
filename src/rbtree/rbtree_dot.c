// SPDX-License-Identifier: MIT
/*
 * Drawing a red-black tree (kfsim_rb_write_dot/svg): Graphviz DOT with one filled circle per
 * node in its colour, an invisible placeholder for each missing child of a node that has one
 * child (so the lone child leans left or right as it should), an "rb_root" box at the top and
 * an "rb_leftmost" box pointing at the cached leftmost node.  SVG is made by piping the DOT into
 * Graphviz's dot program.  Only reads the tree.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <kfsim/err.h>
#include <kfsim/graphviz.h>
#include <kfsim/outfile.h>
#include <kfsim/printk.h>
#include <kfsim/rbtree_augmented.h>
#include <kfsim/rbtree_debug.h>

/* Copy @in to @out escaping what DOT's quoted strings need escaped. */
static void dot_escape(const char *in, char *out, size_t size)
{
	size_t o = 0;

	for (; *in && o + 2 < size; in++) {
		if (*in == '"' || *in == '\\')
			out[o++] = '\\';
		out[o++] = *in;
	}
	out[o] = '\0';
}

/*
 * Nodes are named by their preorder number (root n0), not by address, so that the same tree
 * gives the same DOT text in every run.
 */
static int write_node(FILE *out, const struct rb_node *node, unsigned long id,
		      const struct kfsim_rb_draw_ops *ops, int depth, unsigned long *next_id,
		      unsigned long *nr_placeholders)
{
	char raw[64], key[140], aug[140];
	const struct rb_node *child[2] = {node->rb_left, node->rb_right};
	int err;

	if (depth >= KFSIM_RB_MAX_DEPTH)
		return -EINVAL;
	raw[0] = '\0';
	ops->label(node, raw, sizeof(raw));
	dot_escape(raw, key, sizeof(key));
	fprintf(out, "\tn%lu [fillcolor=\"%s\", color=\"%s\", ", id,
		rb_is_red(node) ? "#c62828" : "#212121", rb_is_red(node) ? "#8e0000" : "#000000");
	if (ops->augmented) {
		raw[0] = '\0';
		ops->augmented(node, raw, sizeof(raw));
		dot_escape(raw, aug, sizeof(aug));
		fprintf(out, "label=<%s<BR/><FONT POINT-SIZE=\"9\">%s</FONT>>];\n", key, aug);
	} else {
		fprintf(out, "label=\"%s\"];\n", key);
	}
	if (!child[0] && !child[1])
		return 0;
	for (int i = 0; i < 2; i++) {
		if (child[i]) {
			unsigned long child_id = (*next_id)++;

			fprintf(out, "\tn%lu -> n%lu;\n", id, child_id);
			err = write_node(out, child[i], child_id, ops, depth + 1, next_id,
					 nr_placeholders);
			if (err)
				return err;
		} else {
			unsigned long nil_id = (*nr_placeholders)++;

			fprintf(out, "\tnil%lu [label=\"\", width=0.1, height=0.1, style=invis];\n",
				nil_id);
			fprintf(out, "\tn%lu -> nil%lu [style=invis];\n", id, nil_id);
		}
	}
	return 0;
}

/* Text labels are escaped for quoted strings; HTML-like labels (augmented) need < > & safe. */
static bool label_is_html_safe(const struct rb_node *node, const struct kfsim_rb_draw_ops *ops)
{
	char raw[64];

	if (!ops->augmented)
		return true;
	raw[0] = '\0';
	ops->label(node, raw, sizeof(raw));
	if (strpbrk(raw, "<>&"))
		return false;
	raw[0] = '\0';
	ops->augmented(node, raw, sizeof(raw));
	return !strpbrk(raw, "<>&");
}

static bool subtree_html_safe(const struct rb_node *node, const struct kfsim_rb_draw_ops *ops,
			      int depth)
{
	if (!node)
		return true;
	if (depth >= KFSIM_RB_MAX_DEPTH || !label_is_html_safe(node, ops))
		return false;
	return subtree_html_safe(node->rb_left, ops, depth + 1) &&
	       subtree_html_safe(node->rb_right, ops, depth + 1);
}

/* The preorder number of @target under @node (as write_node() numbers), or -1. */
static long preorder_id(const struct rb_node *node, const struct rb_node *target, long *next,
			int depth)
{
	long id = (*next)++, found;

	if (node == target)
		return id;
	if (depth >= KFSIM_RB_MAX_DEPTH)
		return -1;
	if (node->rb_left && (found = preorder_id(node->rb_left, target, next, depth + 1)) >= 0)
		return found;
	if (node->rb_right && (found = preorder_id(node->rb_right, target, next, depth + 1)) >= 0)
		return found;
	return -1;
}

int kfsim_rb_write_dot(FILE *out, const struct rb_root *root, const struct rb_node *leftmost,
		       const struct kfsim_rb_draw_ops *ops, const char *title)
{
	unsigned long nr_placeholders = 0, next_id = 1;
	long leftmost_id = -1, counter = 0;
	char caption[256];
	int err = 0;

	if (!out || !root || !ops || !ops->label)
		return -EINVAL;
	if (!subtree_html_safe(root->rb_node, ops, 0))
		return -EINVAL;
	fprintf(out, "digraph rbtree {\n");
	if (title) {
		dot_escape(title, caption, sizeof(caption));
		fprintf(out, "\tlabel=\"%s\"; labelloc=t; fontname=\"Helvetica\";\n", caption);
	}
	fprintf(out, "\tnode [shape=circle, style=filled, fontcolor=white, fontname=\"Helvetica\", "
		     "width=0.45, fixedsize=false];\n");
	fprintf(out, "\tedge [arrowhead=none];\n");
	/* Declared first, so that dot places it left of rb_root, near the node it points at. */
	if (leftmost) {
		fprintf(out,
			"\tleftmost [shape=box, style=\"rounded,filled\", fillcolor=\"#bbdefb\", "
			"fontcolor=black, label=\"rb_leftmost\"];\n");
	}
	fprintf(out, "\troot [shape=box, style=rounded, fontcolor=black, label=\"rb_root\"];\n");
	if (leftmost)
		fprintf(out, "\t{ rank=same; leftmost; root; }\n");
	if (!root->rb_node) {
		fprintf(out, "\tempty [shape=plaintext, fontcolor=black, label=\"(empty)\"];\n");
		fprintf(out, "\troot -> empty [style=dashed];\n");
	} else {
		fprintf(out, "\troot -> n0 [arrowhead=normal];\n");
		err = write_node(out, root->rb_node, 0, ops, 0, &next_id, &nr_placeholders);
	}
	/* a cached leftmost that is not in the tree (a broken cache) gets a node of its own */
	if (!err && leftmost && root->rb_node)
		leftmost_id = preorder_id(root->rb_node, leftmost, &counter, 0);
	if (!err && leftmost && leftmost_id < 0) {
		leftmost_id = (long)next_id;
		fprintf(out, "\tn%ld [label=\"?\", fillcolor=\"#9e9e9e\"];\n", leftmost_id);
	}
	if (!err && leftmost) {
		fprintf(out,
			"\tleftmost -> n%ld [arrowhead=normal, style=dashed, color=\"#1565c0\", "
			"constraint=false];\n",
			leftmost_id);
		fprintf(out, "\tn%ld [penwidth=3, color=\"#1565c0\"];\n", leftmost_id);
	}
	fprintf(out, "}\n");
	if (err)
		return err;
	return fflush(out) || ferror(out) ? -EIO : 0;
}

/*
 * The DOT goes through a temporary file ($TMPDIR or /tmp) rather than a pipe: dot may exit early,
 * and writing into a pipe nobody reads would raise SIGPIPE in the caller's process.
 */
int kfsim_rb_write_svg_stream(FILE *out, const struct rb_root *root,
			      const struct rb_node *leftmost, const struct kfsim_rb_draw_ops *ops,
			      const char *title)
{
	const char *tmpdir = getenv("TMPDIR");
	char dot_path[4096], *dot_text = NULL;
	size_t dot_len = 0;
	FILE *dot_file;
	int fd, err;

	if (!out || !root || !ops || !ops->label)
		return -EINVAL;
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (snprintf(dot_path, sizeof(dot_path), "%s/kfsim-rbtree-XXXXXX", tmpdir) >=
	    (int)sizeof(dot_path))
		return -ENAMETOOLONG;
	fd = mkstemp(dot_path);
	if (fd < 0) {
		/* -EIO, not -errno: -ENOENT must keep meaning "no dot program" for callers. */
		pr_warn("kfsim_rb_write_svg: cannot create a temporary file in %s: %s\n", tmpdir,
			strerror(errno));
		return -EIO;
	}
	/* formatted in memory, then written here, so that a failed write keeps its errno */
	dot_file = open_memstream(&dot_text, &dot_len);
	if (!dot_file) {
		err = -ENOMEM;
		close(fd);
		goto out_unlink;
	}
	err = kfsim_rb_write_dot(dot_file, root, leftmost, ops, title);
	if (fclose(dot_file) && !err)
		err = -ENOMEM;
	for (size_t done = 0; !err && done < dot_len;) {
		ssize_t n = write(fd, dot_text + done, dot_len - done);

		if (n < 0 && errno == EINTR)
			continue;
		/* -EFBIG, -ENOSPC as they are; -ENOENT must keep meaning "no dot program" */
		if (n <= 0)
			err = n < 0 && errno != ENOENT ? -errno : -EIO;
		else
			done += (size_t)n;
	}
	free(dot_text);
	if (close(fd) && !err)
		err = -EIO;
	if (!err)
		err = kfsim_dot_to_svg(dot_path, out, "kfsim_rb_write_svg");
out_unlink:
	unlink(dot_path);
	return err;
}

int kfsim_rb_write_svg(const char *path, const struct rb_root *root, const struct rb_node *leftmost,
		       const struct kfsim_rb_draw_ops *ops, const char *title)
{
	struct kfsim_outfile out;
	int err;

	if (!path || !*path || !root || !ops || !ops->label)
		return -EINVAL;
	err = kfsim_outfile_open(&out, path);
	if (err)
		return err;
	err = kfsim_rb_write_svg_stream(out.file, root, leftmost, ops, title);
	if (err) {
		kfsim_outfile_abort(&out);
		return err;
	}
	return kfsim_outfile_commit(&out);
}
