// SPDX-License-Identifier: MIT
/*
 * Graphviz's dot program, run in one place (<kfsim/graphviz.h>): DOT in a file, SVG out into a
 * stream (run by core/child_run.c), dot's complaints into the kernel log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <kfsim/err.h>
#include <kfsim/graphviz.h>
#include <kfsim/outfile.h>
#include <kfsim/printk.h>
#include "core/child_run.h"

/* Copy the first line dot wrote to its stderr into the kernel log. */
static void log_dot_complaint(const char *err, const char *who)
{
	if (!err || !*err)
		return;
	pr_warn("%s: dot: %.*s\n", who, (int)strcspn(err, "\n"), err);
}

/* Whether @svg ends an SVG document: "</svg>" and white space. */
static bool svg_complete(const char *svg, size_t len)
{
	while (len && (svg[len - 1] == '\n' || svg[len - 1] == ' ' || svg[len - 1] == '\r'))
		len--;
	return len >= 6 && !memcmp(svg + len - 6, "</svg>", 6);
}

/*
 * We copy dot's standard output into @out ourselves rather than letting dot write the file, so
 * @out's errors are ours to see (-ENOSPC on /dev/full, where dot writing the file itself exited 0).
 */
int kfsim_dot_to_svg(const char *dot_path, FILE *out, const char *who)
{
	char *argv[] = {"dot", "-Tsvg", (char *)dot_path, NULL};
	struct kfsim_child c = {.capture = KFSIM_CHILD_STDOUT | KFSIM_CHILD_STDERR};
	int err;

	if (!dot_path || !out || !who)
		return -EINVAL;
	err = kfsim_child_exec(&c, "dot", argv);
	if (err) {
		kfsim_child_release(&c);
		return err; /* -ENOENT: no dot on $PATH */
	}
	fwrite(c.out.data, 1, c.out.len, out);
	if (!WIFEXITED(c.status))
		err = -EIO;
	else if (WEXITSTATUS(c.status) == 127) /* how a shell wrapper says "not found" */
		err = -ENOENT;
	else if (WEXITSTATUS(c.status) || !svg_complete(c.out.data, c.out.len))
		err = -EIO;
	if (err == -EIO)
		log_dot_complaint(c.err.data, who);
	kfsim_child_release(&c);
	return err; /* @out's own write errors are for whoever finishes it (kfsim_outfile_commit) */
}

int kfsim_dot_file_to_svg(const char *dot_path, const char *svg_path, const char *who)
{
	struct kfsim_outfile out;
	int err;

	if (!dot_path || !svg_path || !*svg_path || !who)
		return -EINVAL;
	err = kfsim_outfile_open(&out, svg_path);
	if (err)
		return err;
	err = kfsim_dot_to_svg(dot_path, out.file, who);
	if (err) {
		kfsim_outfile_abort(&out);
		return err;
	}
	return kfsim_outfile_commit(&out);
}
