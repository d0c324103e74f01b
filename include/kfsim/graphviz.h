/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_GRAPHVIZ_H
#define KFSIM_GRAPHVIZ_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The one place kfsim runs Graphviz's dot program, to turn the DOT pictures its parts draw (red-
 * black trees, the PLCA SET path) into SVG.
 */
#include <stdio.h>

/**
 * kfsim_dot_to_svg() - run `dot -Tsvg @dot_path`, copying the SVG into @out
 * @dot_path: a DOT file
 * @out: where the SVG goes (flushing and closing it, and its write errors, are the caller's)
 * @who: the prefix of the kernel-log line that carries dot's first complaint
 *
 * dot's standard error goes to an anonymous file in $TMPDIR (or /tmp), and its first line to the
 * kernel log as "@who: dot: <line>" when dot fails, never to the caller's stderr (whose contract
 * a command keeps to one line).  The output is checked, not only dot's exit status: a document
 * that does not end in </svg> is a failure.
 *
 * Return: 0; -ENOENT when there is no dot program on $PATH; -EIO when dot failed, its output was
 * cut short, or no temporary file could be made.
 */
int kfsim_dot_to_svg(const char *dot_path, FILE *out, const char *who);

/**
 * kfsim_dot_file_to_svg() - kfsim_dot_to_svg() into the file @svg_path, written whole or not at
 * all (through kfsim_outfile)
 *
 * Return: as kfsim_dot_to_svg(), or kfsim_outfile's errors for @svg_path.
 */
int kfsim_dot_file_to_svg(const char *dot_path, const char *svg_path, const char *who);

#pragma GCC visibility pop
#endif /* KFSIM_GRAPHVIZ_H */
