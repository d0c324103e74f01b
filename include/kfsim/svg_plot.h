/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_SVG_PLOT_H
#define KFSIM_SVG_PLOT_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Line plots as standalone SVG files, for the figures the simulators reproduce (throughput and
 * latency against node count, per-actuator throughput against a tunable).  No plotting package is
 * needed to look at a result: any browser shows the file.  Axes get "nice" tick steps (1, 2, 5
 * times a power of ten) and a logarithmic y axis is available for quantities that span decades,
 * such as PLCA vs CSMA/CD latency.  An axis whose values are all whole numbers (a count of nodes)
 * gets whole-number ticks only.
 *
 * Text is never cut: SVG has no text layout, so every part that draws SVG measures its strings
 * with kfsim_svg_text_width() (a per-character table of the widest common sans-serif, rounded up)
 * and sizes its canvas from that, or wraps.  A browser with a narrower font shows a little more
 * white space, never less.
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
 * @y_lo: NULL, or the low end of each point's spread (e.g. the smallest of several runs)
 * @y_hi: NULL, or the high end; with @y_lo, drawn as a shaded band and whiskers around the line
 * @colour: NULL for the palette's colour of this series' index, or an SVG colour ("#1f77b4")
 * @dashed: draw the line dashed (e.g. a p99 beside a solid mean of the same colour)
 */
struct kfsim_plot_series {
	const char *name;
	const double *x;
	const double *y;
	size_t n;
	const double *y_lo;
	const double *y_hi;
	const char *colour;
	bool dashed;
};

/**
 * struct kfsim_plot - a plot
 * @title: printed above the plot (wrapped at spaces when wider than the canvas)
 * @x_label: x-axis label, with unit
 * @y_label: y-axis label, with unit
 * @y_log: logarithmic y axis (every y must then be > 0)
 * @y_from_zero: start a linear y axis at 0 rather than at the smallest value
 * @series: the lines
 * @nr_series: how many (at most 8, each with its own colour and marker)
 *
 * The plotting area is 460 x 330 px; the canvas grows around it to fit the measured tick labels,
 * axis labels and legend.
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
 * Return: 0; -EINVAL for no series, more than 8, a series without points, a non-finite value,
 * y (or a spread end) <= 0 on a log axis, or only one of @y_lo and @y_hi (nothing is written
 * then); -EIO on a write error.
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

/**
 * enum kfsim_svg_font - the font families kfsim's SVGs ask for
 * @KFSIM_SVG_SANS: font-family="sans-serif"
 * @KFSIM_SVG_MONO: font-family="monospace"
 */
enum kfsim_svg_font {
	KFSIM_SVG_SANS,
	KFSIM_SVG_MONO,
};

/**
 * kfsim_svg_text_width() - an upper bound of the width of @s drawn at @font_size px
 *
 * Per-character advance widths of DejaVu Sans Bold (the widest of DejaVu Sans and its bold,
 * which is what "sans-serif" is on Debian; Liberation Sans, Arial and Helvetica are narrower),
 * rounded up; monospace at 0.61 em.  A UTF-8 character outside ASCII counts one em.
 *
 * Return: the width in px (0 for NULL or "").
 */
double kfsim_svg_text_width(const char *s, double font_size, enum kfsim_svg_font font);

#pragma GCC visibility pop
#endif /* KFSIM_SVG_PLOT_H */
