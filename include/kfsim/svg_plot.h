/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_SVG_PLOT_H
#define KFSIM_SVG_PLOT_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Line plots as standalone SVG files, for the figures the simulators reproduce (throughput and
 * latency against node count, per-actuator throughput against a tunable).  No plotting package is
 * needed to look at a result: any browser shows the file.  Axes get "nice" tick steps (1, 2, 5
 * times a power of ten) and a logarithmic y axis is available for quantities that span decades,
 * such as PLCA vs CSMA/CD latency.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/**
 * struct kfsim_plot_series - one line of a plot
 * @name: legend text
 * @x: x values, @n of them, ascending
 * @y: y values, @n of them
 * @n: number of points
 */
struct kfsim_plot_series {
	const char *name;
	const double *x;
	const double *y;
	size_t n;
};

/**
 * struct kfsim_plot - a plot
 * @title: printed above the plot
 * @x_label: x-axis label, with unit
 * @y_label: y-axis label, with unit
 * @y_log: logarithmic y axis (every y must then be > 0)
 * @y_from_zero: start a linear y axis at 0 rather than at the smallest value
 * @series: the lines
 * @nr_series: how many (at most 8, each with its own colour and marker)
 */
struct kfsim_plot {
	const char *title;
	const char *x_label;
	const char *y_label;
	bool y_log;
	bool y_from_zero;
	const struct kfsim_plot_series *series;
	size_t nr_series;
};

/**
 * kfsim_plot_svg_write() - draw @plot as an SVG document on @out
 *
 * Return: 0; -EINVAL for no series, more than 8, a series without points, a non-finite value, or
 * y <= 0 on a log axis (nothing is written then); -EIO on a write error.
 */
int kfsim_plot_svg_write(const struct kfsim_plot *plot, FILE *out);

/**
 * kfsim_plot_svg_save() - kfsim_plot_svg_write() to a new file at @path
 *
 * Written through kfsim_outfile: @path is replaced only by a complete picture; on any error an
 * existing file at @path keeps its content (through a symlink, its target does).
 *
 * Return: as kfsim_plot_svg_write(), or the -errno of kfsim_outfile_open()/_commit().
 */
int kfsim_plot_svg_save(const struct kfsim_plot *plot, const char *path);

/**
 * kfsim_svg_write_escaped() - write @s as SVG/XML character data: '<', '>' and '&' escaped
 *
 * For every part that draws its own SVG (timelines, byte diagrams) as well as the plots here.
 */
void kfsim_svg_write_escaped(FILE *out, const char *s);

#pragma GCC visibility pop
#endif /* KFSIM_SVG_PLOT_H */
