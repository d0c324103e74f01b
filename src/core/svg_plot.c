// SPDX-License-Identifier: MIT
/*
 * SVG line plots.  The drawing area is fixed (720 x 440 px, legend on the right); data are mapped
 * linearly, or by log10 on a log y axis.  Tick steps are 1, 2 or 5 times a power of ten, picked so
 * that about six ticks span the range.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <sys/stat.h>

#include <kfsim/json.h>
#include <kfsim/outfile.h>
#include <kfsim/svg_plot.h>

#define PLOT_W 720.0
#define PLOT_H 440.0
#define LEFT 80.0
#define RIGHT 180.0
#define TOP 50.0
#define BOTTOM 60.0
#define MAX_SERIES 8

static const char *const colours[MAX_SERIES] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
						 "#9467bd", "#8c564b", "#e377c2", "#7f7f7f" };

struct axis {
	double lo, hi;	/* data range shown (log10 of it on a log axis) */
	bool log;
};

static double nice_step(double span)
{
	double raw = span / 6.0, mag = pow(10.0, floor(log10(raw))), frac = raw / mag;

	if (frac <= 1.0)
		return mag;
	if (frac <= 2.0)
		return 2.0 * mag;
	if (frac <= 5.0)
		return 5.0 * mag;
	return 10.0 * mag;
}

static void axis_fit(struct axis *axis, double lo, double hi, bool from_zero)
{
	if (axis->log) {
		axis->lo = floor(log10(lo));
		axis->hi = ceil(log10(hi));
		if (axis->hi <= axis->lo)
			axis->hi = axis->lo + 1;
		return;
	}
	if (from_zero && lo > 0)
		lo = 0;
	if (hi <= lo)
		hi = lo + (lo ? fabs(lo) : 1.0);
	double step = nice_step(hi - lo);

	axis->lo = floor(lo / step) * step;
	axis->hi = ceil(hi / step) * step;
}

static double axis_map(const struct axis *axis, double value, double from, double to)
{
	double v = axis->log ? log10(value) : value;

	return from + (v - axis->lo) / (axis->hi - axis->lo) * (to - from);
}

void kfsim_svg_write_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '&')
			fputs("&amp;", out);
		else
			fputc(*s, out);
	}
}

static void text(FILE *out, double x, double y, const char *anchor, int size, const char *s)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y,
		anchor, size);
	kfsim_svg_write_escaped(out, s);
	fputs("</text>\n", out);
}

static void draw_ticks(FILE *out, const struct axis *x, const struct axis *y)
{
	char label[32];
	double px0 = LEFT, px1 = PLOT_W - RIGHT, py0 = PLOT_H - BOTTOM, py1 = TOP;
	double step = nice_step(x->hi - x->lo);

	for (double v = x->lo; v <= x->hi + step / 2; v += step) {
		double px = axis_map(x, v, px0, px1);

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			px, py0, px, py1);
		snprintf(label, sizeof(label), "%g", fabs(v) < step / 1e6 ? 0.0 : v);
		text(out, px, py0 + 18, "middle", 12, label);
	}
	if (y->log) {
		for (double e = y->lo; e <= y->hi + 0.5; e += 1.0) {
			double py = axis_map(&(struct axis){ y->lo, y->hi, false }, e, py0, py1);

			fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
				px0, py, px1, py);
			snprintf(label, sizeof(label), "%g", pow(10.0, e));
			text(out, px0 - 6, py + 4, "end", 12, label);
		}
		return;
	}
	step = nice_step(y->hi - y->lo);
	for (double v = y->lo; v <= y->hi + step / 2; v += step) {
		double py = axis_map(y, v, py0, py1);

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
			px0, py, px1, py);
		snprintf(label, sizeof(label), "%g", fabs(v) < step / 1e6 ? 0.0 : v);
		text(out, px0 - 6, py + 4, "end", 12, label);
	}
}

static int plot_check(const struct kfsim_plot *plot, double *xlo, double *xhi, double *ylo,
		      double *yhi)
{
	if (!plot->nr_series || plot->nr_series > MAX_SERIES)
		return -EINVAL;
	*xlo = *ylo = INFINITY;
	*xhi = *yhi = -INFINITY;
	for (size_t s = 0; s < plot->nr_series; s++) {
		const struct kfsim_plot_series *series = &plot->series[s];

		if (!series->n)
			return -EINVAL;
		for (size_t i = 0; i < series->n; i++) {
			double xv = series->x[i], yv = series->y[i];

			if (!isfinite(xv) || !isfinite(yv) || (plot->y_log && yv <= 0))
				return -EINVAL;
			*xlo = fmin(*xlo, xv);
			*xhi = fmax(*xhi, xv);
			*ylo = fmin(*ylo, yv);
			*yhi = fmax(*yhi, yv);
		}
	}
	return 0;
}

int kfsim_plot_svg_write(const struct kfsim_plot *plot, FILE *out)
{
	struct axis x = { 0 }, y = { .log = plot->y_log };
	double xlo, xhi, ylo, yhi;
	int ret = plot_check(plot, &xlo, &xhi, &ylo, &yhi);

	if (ret)
		return ret;
	axis_fit(&x, xlo, xhi, false);
	axis_fit(&y, ylo, yhi, plot->y_from_zero);

	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		     "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
		PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	text(out, (LEFT + PLOT_W - RIGHT) / 2, 28, "middle", 16, plot->title ? plot->title : "");
	draw_ticks(out, &x, &y);
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		     "stroke=\"black\"/>\n",
		LEFT, TOP, PLOT_W - RIGHT - LEFT, PLOT_H - BOTTOM - TOP);
	text(out, (LEFT + PLOT_W - RIGHT) / 2, PLOT_H - 18, "middle", 13,
	     plot->x_label ? plot->x_label : "");
	fprintf(out, "<g transform=\"translate(18 %.1f) rotate(-90)\">\n", (TOP + PLOT_H - BOTTOM) / 2);
	text(out, 0, 0, "middle", 13, plot->y_label ? plot->y_label : "");
	fputs("</g>\n", out);

	for (size_t s = 0; s < plot->nr_series; s++) {
		const struct kfsim_plot_series *series = &plot->series[s];
		const char *colour = colours[s];

		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colour);
		for (size_t i = 0; i < series->n; i++)
			fprintf(out, "%s%.1f,%.1f", i ? " " : "",
				axis_map(&x, series->x[i], LEFT, PLOT_W - RIGHT),
				axis_map(&y, series->y[i], PLOT_H - BOTTOM, TOP));
		fputs("\"/>\n", out);
		for (size_t i = 0; i < series->n; i++)
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				axis_map(&x, series->x[i], LEFT, PLOT_W - RIGHT),
				axis_map(&y, series->y[i], PLOT_H - BOTTOM, TOP), colour);
		double ly = TOP + 10 + 22.0 * (double)s;

		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			     "stroke-width=\"3\"/>\n",
			PLOT_W - RIGHT + 14, ly, PLOT_W - RIGHT + 38, ly, colour);
		text(out, PLOT_W - RIGHT + 44, ly + 4, "start", 12, series->name ? series->name : "");
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

int kfsim_plot_svg_save(const struct kfsim_plot *plot, const char *path)
{
	double xlo, xhi, ylo, yhi;
	struct kfsim_outfile out;
	int ret = plot_check(plot, &xlo, &xhi, &ylo, &yhi);

	if (ret)
		return ret;
	ret = kfsim_outfile_open(&out, path);
	if (ret)
		return ret;
	ret = kfsim_plot_svg_write(plot, out.file);
	if (ret)
		kfsim_outfile_fail(&out, ret);
	/* the old picture stays unless the new one is complete */
	return kfsim_outfile_commit(&out);
}
