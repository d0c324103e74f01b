// SPDX-License-Identifier: MIT
/*
 * Drawing a red-black tree (kfsim_rb_write_dot/svg): Graphviz DOT with one filled circle per
 * node in its colour, an invisible placeholder for each missing child of a node that has one
 * child (so the lone child leans left or right as it should), an "rb_root" box at the top and
 * an "rb_leftmost" box pointing at the cached leftmost node.  SVG is made by piping the DOT into
 * Graphviz's dot program.  Only reads the tree.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include <kfsim/rbtree_augmented.h>
#include <kfsim/rbtree_debug.h>

extern char **environ;

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

static int write_node(FILE *out, const struct rb_node *node, const struct kfsim_rb_draw_ops *ops,
		      int depth, unsigned long *nr_placeholders)
{
	char raw[64], key[140], aug[140];
	const struct rb_node *child[2] = {node->rb_left, node->rb_right};
	int err;

	if (depth >= KFSIM_RB_MAX_DEPTH)
		return -EINVAL;
	raw[0] = '\0';
	ops->label(node, raw, sizeof(raw));
	dot_escape(raw, key, sizeof(key));
	fprintf(out, "\tn%p [fillcolor=\"%s\", color=\"%s\", ", (const void *)node,
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
			fprintf(out, "\tn%p -> n%p;\n", (const void *)node, (const void *)child[i]);
			err = write_node(out, child[i], ops, depth + 1, nr_placeholders);
			if (err)
				return err;
		} else {
			unsigned long id = (*nr_placeholders)++;

			fprintf(out, "\tnil%lu [label=\"\", width=0.1, height=0.1, style=invis];\n",
				id);
			fprintf(out, "\tn%p -> nil%lu [style=invis];\n", (const void *)node, id);
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

int kfsim_rb_write_dot(FILE *out, const struct rb_root *root, const struct rb_node *leftmost,
		       const struct kfsim_rb_draw_ops *ops, const char *title)
{
	unsigned long nr_placeholders = 0;
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
		fprintf(out, "\troot -> n%p [arrowhead=normal];\n", (const void *)root->rb_node);
		err = write_node(out, root->rb_node, ops, 0, &nr_placeholders);
	}
	if (!err && leftmost) {
		fprintf(out,
			"\tleftmost -> n%p [arrowhead=normal, style=dashed, color=\"#1565c0\", "
			"constraint=false];\n",
			(const void *)leftmost);
		fprintf(out, "\tn%p [penwidth=3, color=\"#1565c0\"];\n", (const void *)leftmost);
	}
	fprintf(out, "}\n");
	if (err)
		return err;
	return fflush(out) || ferror(out) ? -EIO : 0;
}

/* Copy the first line dot wrote to its stderr (@fd) into the kernel log. */
static void log_dot_complaint(int fd)
{
	char buf[512];
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0)
		return;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	pr_warn("kfsim_rb_write_svg: dot: %s\n", buf);
}

/*
 * run_dot() - dot -Tsvg -o @svg_path @dot_path, its complaints going to the kernel log rather
 * than to the caller's stderr (which a command's error contract keeps to one line).
 */
static int run_dot(const char *dot_path, const char *svg_path, const char *tmpdir)
{
	char *argv[] = {"dot", "-Tsvg", "-o", (char *)svg_path, (char *)dot_path, NULL};
	posix_spawn_file_actions_t actions;
	char err_path[4096];
	int err_fd, status, err;
	pid_t pid;

	snprintf(err_path, sizeof(err_path), "%s/kfsim-rbtree-XXXXXX", tmpdir);
	err_fd = mkstemp(err_path);
	if (err_fd < 0)
		return -EIO;
	unlink(err_path); /* anonymous from now on */
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
	err = posix_spawnp(&pid, "dot", &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	if (err) {
		close(err_fd);
		return -err; /* -ENOENT: no dot on $PATH */
	}
	if (waitpid(pid, &status, 0) < 0)
		err = -errno;
	else if (!WIFEXITED(status))
		err = -EIO;
	else if (WEXITSTATUS(status) == 127) /* how a spawned child reports "not found" */
		err = -ENOENT;
	else if (WEXITSTATUS(status))
		err = -EIO;
	if (err == -EIO)
		log_dot_complaint(err_fd);
	close(err_fd);
	return err;
}

/*
 * The DOT goes through a temporary file ($TMPDIR or /tmp) rather than a pipe: dot may exit early
 * (a bad output path), and writing into a pipe nobody reads would raise SIGPIPE in the caller's
 * process.
 */
int kfsim_rb_write_svg(const char *path, const struct rb_root *root, const struct rb_node *leftmost,
		       const struct kfsim_rb_draw_ops *ops, const char *title)
{
	const char *tmpdir = getenv("TMPDIR");
	char dot_path[4096];
	FILE *dot_file;
	int fd, err;

	if (!path || !*path || !root || !ops || !ops->label)
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
	dot_file = fdopen(fd, "w");
	if (!dot_file) {
		err = -EIO;
		close(fd);
		goto out_unlink;
	}
	err = kfsim_rb_write_dot(dot_file, root, leftmost, ops, title);
	if (fclose(dot_file) && !err)
		err = -EIO;
	if (!err)
		err = run_dot(dot_path, path, tmpdir);
out_unlink:
	unlink(dot_path);
	return err;
}
