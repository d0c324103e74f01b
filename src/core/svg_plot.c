// SPDX-License-Identifier: MIT
/*
 * SVG line plots.  The plotting area is 460 x 330 px; everything around it (tick labels, axis
 * labels, the legend on the right, the title above) is measured with kfsim_svg_text_width() and
 * the canvas is sized to hold it, so no text is ever cut whatever the labels say.  Long titles
 * and legend entries wrap at spaces.  Data are mapped linearly, or by log10 on a log y axis.
 * Tick steps are 1, 2 or 5 times a power of ten, picked so that about six ticks span the range;
 * an axis whose values are all whole numbers never gets a step below 1.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <kfsim/json.h>
#include <kfsim/outfile.h>
#include <kfsim/svg_plot.h>

#define PLOT_AREA_W 460.0
#define PLOT_AREA_H 330.0
#define PAD 10.0
#define TITLE_SIZE 16
#define LABEL_SIZE 13
#define TICK_SIZE 12
#define LEGEND_SIZE 12
#define LEGEND_LINE 15.0  /* line height inside one legend entry */
#define LEGEND_GAP 8.0	  /* between entries */
#define LEGEND_WRAP 240.0 /* legend entries wrap beyond this width */
#define MAX_SERIES 8
#define MAX_LINES 8

static const char *const colours[MAX_SERIES] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
						"#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

/*
 * Advance widths of ' ' .. '~' in thousandths of an em: the larger of DejaVu Sans and DejaVu Sans
 * Bold (read from their hmtx tables), rounded up.  Those are the widest sans-serif fonts a Linux
 * browser picks; Liberation Sans and Arial are narrower, so these widths are upper bounds.
 */
/* clang-format off: 12 a row, as read */
static const unsigned short sans_width[95] = {
	349,  457, 521, 838, 696, 1002, 873, 307,  458, 458, 523, 838, 380, 416,  380, 366,
	696,  696, 696, 696, 696, 696,	696, 696,  696, 696, 400, 400, 838, 838,  838, 581,
	1000, 774, 763, 734, 831, 684,	684, 821,  837, 373, 373, 775, 638, 996,  837, 851,
	733,  851, 771, 721, 683, 813,	774, 1104, 771, 725, 726, 458, 366, 458,  838, 500,
	500,  675, 716, 593, 716, 679,	436, 716,  712, 343, 343, 666, 343, 1042, 712, 688,
	716,  716, 494, 596, 479, 712,	652, 924,  646, 652, 583, 712, 366, 712,  838,
};
/* clang-format on */

static double text_width_n(const char *s, size_t len, double size, enum kfsim_svg_font font)
{
	double em = 0;

	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x80 && c < 0xc0)
			continue; /* UTF-8 continuation byte */
		if (font == KFSIM_SVG_MONO)
			em += c >= 0x80 ? 1.0 : 0.61;
		else
			em += c >= ' ' && c <= '~' ? sans_width[c - ' '] / 1000.0 : 1.0;
	}
	return em * size;
}

double kfsim_svg_text_width(const char *s, double font_size, enum kfsim_svg_font font)
{
	return s ? text_width_n(s, strlen(s), font_size, font) : 0;
}

struct line {
	const char *s;
	size_t len;
};

/*
 * Break @s at spaces into lines no wider than @max_w (a single word wider than that gets a line
 * of its own; the caller widens the canvas for it).  Return: the number of lines, at least 1.
 */
static int wrap(const char *s, double max_w, int size, struct line *lines)
{
	int nr = 0;

	while (s && *s) {
		size_t len = 0, fit = 0;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		while (s[len]) {
			size_t next = len;

			while (s[next] == ' ')
				next++;
			while (s[next] && s[next] != ' ')
				next++;
			if (fit && text_width_n(s, next, size, KFSIM_SVG_SANS) > max_w)
				break;
			fit = next;
			len = next;
		}
		if (nr == MAX_LINES - 1)
			fit = strlen(s); /* the rest on the last line, wide as it is */
		lines[nr++] = (struct line){s, fit};
		s += fit;
	}
	if (!nr)
		lines[nr++] = (struct line){"", 0};
	return nr;
}

static double lines_width(const struct line *lines, int nr, int size)
{
	double w = 0;

	for (int i = 0; i < nr; i++)
		w = fmax(w, text_width_n(lines[i].s, lines[i].len, size, KFSIM_SVG_SANS));
	return w;
}

struct axis {
	double lo, hi; /* data range shown (log10 of it on a log axis) */
	double step;   /* between ticks (in decades on a log axis) */
	bool log;
	bool integral; /* every value is a whole number: no fractional ticks */
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
		axis->step = 1.0;
		return;
	}
	if (from_zero && lo > 0)
		lo = 0;
	if (hi <= lo)
		hi = lo + (lo ? fabs(lo) : 1.0);
	axis->step = nice_step(hi - lo);
	if (axis->integral && axis->step < 1.0)
		axis->step = 1.0;
	if (axis->integral && hi - lo <= 12) {
		/* a handful of counts (nodes, actuators): a tick at each, the range as given */
		axis->step = 1.0;
		axis->lo = lo;
		axis->hi = hi;
		return;
	}
	axis->lo = floor(lo / axis->step) * axis->step;
	axis->hi = ceil(hi / axis->step) * axis->step;
}

static double axis_map(const struct axis *axis, double value, double from, double to)
{
	double v = axis->log ? log10(value) : value;

	return from + (v - axis->lo) / (axis->hi - axis->lo) * (to - from);
}

/* Call @fn for each tick: its position in axis units and its label. */
static void axis_ticks(const struct axis *axis, void (*fn)(void *arg, double v, const char *label),
		       void *arg)
{
	char label[32];

	for (double v = axis->lo; v <= axis->hi + axis->step / 2; v += axis->step) {
		double shown = axis->log ? pow(10.0, v) : fabs(v) < axis->step / 1e6 ? 0.0 : v;

		/* "%g" would print 1e+06 for a million: whole numbers in full, up to 10^15 */
		if (fabs(shown) >= 1e5 && fabs(shown) < 1e15 && shown == floor(shown))
			snprintf(label, sizeof(label), "%.0f", shown);
		else
			snprintf(label, sizeof(label), "%g", shown);
		fn(arg, axis->log ? pow(10.0, v) : v, label);
	}
}

static void escaped_n(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i]; i++) {
		if (s[i] == '<')
			fputs("&lt;", out);
		else if (s[i] == '>')
			fputs("&gt;", out);
		else if (s[i] == '&')
			fputs("&amp;", out);
		else
			fputc(s[i], out);
	}
}

void kfsim_svg_write_escaped(FILE *out, const char *s)
{
	escaped_n(out, s, strlen(s));
}

static void text_n(FILE *out, double x, double y, const char *anchor, int size, const char *s,
		   size_t len)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y,
		anchor, size);
	escaped_n(out, s, len);
	fputs("</text>\n", out);
}

static void text(FILE *out, double x, double y, const char *anchor, int size, const char *s)
{
	text_n(out, x, y, anchor, size, s, strlen(s));
}

/* Where everything goes, worked out from the measured text before anything is drawn. */
struct layout {
	double width, height;
	double left, top, plot_w, plot_h; /* the plotting area */
	struct line title[MAX_LINES];
	int title_lines;
	struct line legend[MAX_SERIES][MAX_LINES];
	int legend_lines[MAX_SERIES];
};

struct widest {
	double w;
	int size;
	double last; /* width of the last label */
};

static void measure_tick(void *arg, double v, const char *label)
{
	struct widest *m = arg;

	m->last = kfsim_svg_text_width(label, m->size, KFSIM_SVG_SANS);
	m->w = fmax(m->w, m->last);
}

static void plot_layout(const struct kfsim_plot *plot, const struct axis *x, const struct axis *y,
			struct layout *l)
{
	struct widest xt = {0, TICK_SIZE, 0}, yt = {0, TICK_SIZE, 0};
	double legend_w = 0, legend_h = 0, right, title_w;
	const char *y_label = plot->y_label ? plot->y_label : "";
	const char *x_label = plot->x_label ? plot->x_label : "";

	axis_ticks(x, measure_tick, &xt);
	axis_ticks(y, measure_tick, &yt);
	for (size_t s = 0; s < plot->nr_series; s++) {
		l->legend_lines[s] =
			wrap(plot->series[s].name, LEGEND_WRAP, LEGEND_SIZE, l->legend[s]);
		legend_w =
			fmax(legend_w, lines_width(l->legend[s], l->legend_lines[s], LEGEND_SIZE));
		legend_h += l->legend_lines[s] * LEGEND_LINE + LEGEND_GAP;
	}
	/* rotated y label (its glyphs span 1.25 em across), gap, tick labels, gap */
	l->left = PAD + LABEL_SIZE * 1.25 + 8 + yt.w + 6;
	/* legend: swatch 14..38, text from 44; the last x tick label is centred on the edge */
	right = fmax(44 + legend_w + PAD, xt.last / 2 + PAD);
	l->plot_w = fmax(PLOT_AREA_W, kfsim_svg_text_width(x_label, LABEL_SIZE, KFSIM_SVG_SANS));
	l->plot_h = fmax(PLOT_AREA_H, fmax(legend_h + 10, kfsim_svg_text_width(y_label, LABEL_SIZE,
									       KFSIM_SVG_SANS)));
	l->width = l->left + l->plot_w + right;
	l->title_lines = wrap(plot->title, l->width - 2 * PAD, TITLE_SIZE, l->title);
	title_w = lines_width(l->title, l->title_lines, TITLE_SIZE);
	if (title_w > l->width - 2 * PAD)
		l->width = title_w + 2 * PAD; /* one unbreakable word */
	l->top = PAD + l->title_lines * TITLE_SIZE * 1.3 + 14;
	/* x tick labels at +18, the x label's baseline at +42, its descent, padding */
	l->height = l->top + l->plot_h + 42 + LABEL_SIZE * 0.3 + PAD;
}

struct tick_ctx {
	FILE *out;
	const struct axis *axis;
	const struct layout *l;
	bool x;
};

static void draw_tick(void *arg, double v, const char *label)
{
	struct tick_ctx *c = arg;
	const struct layout *l = c->l;
	double x0 = l->left, x1 = l->left + l->plot_w, y0 = l->top + l->plot_h, y1 = l->top;

	if (c->x) {
		double px = axis_map(c->axis, v, x0, x1);

		fprintf(c->out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n",
			px, y0, px, y1);
		text(c->out, px, y0 + 18, "middle", TICK_SIZE, label);
	} else {
		double py = axis_map(c->axis, v, y0, y1);

		fprintf(c->out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n",
			x0, py, x1, py);
		text(c->out, x0 - 6, py + 4, "end", TICK_SIZE, label);
	}
}

static bool bad_y(const struct kfsim_plot *plot, double v)
{
	return !isfinite(v) || (plot->y_log && v <= 0);
}

static bool whole(double v)
{
	return v == floor(v) && fabs(v) < 1e15;
}

static int plot_check(const struct kfsim_plot *plot, double *xlo, double *xhi, double *ylo,
		      double *yhi, bool *x_integral, bool *y_integral)
{
	if (!plot->nr_series || plot->nr_series > MAX_SERIES)
		return -EINVAL;
	*xlo = *ylo = INFINITY;
	*xhi = *yhi = -INFINITY;
	*x_integral = *y_integral = true;
	for (size_t s = 0; s < plot->nr_series; s++) {
		const struct kfsim_plot_series *series = &plot->series[s];

		if (!series->n || !series->y_lo != !series->y_hi)
			return -EINVAL;
		for (size_t i = 0; i < series->n; i++) {
			double xv = series->x[i], yv = series->y[i];
			double lo = series->y_lo ? series->y_lo[i] : yv;
			double hi = series->y_hi ? series->y_hi[i] : yv;

			if (!isfinite(xv) || bad_y(plot, yv) || bad_y(plot, lo) || bad_y(plot, hi))
				return -EINVAL;
			*xlo = fmin(*xlo, xv);
			*xhi = fmax(*xhi, xv);
			*ylo = fmin(*ylo, fmin(yv, lo));
			*yhi = fmax(*yhi, fmax(yv, hi));
			*x_integral &= whole(xv);
			*y_integral &= whole(yv) && whole(lo) && whole(hi);
		}
	}
	return 0;
}

/* The spread of a series: a light band between y_lo and y_hi, and a whisker at each point. */
static void draw_spread(FILE *out, const struct kfsim_plot_series *series, const char *colour,
			const struct axis *x, const struct axis *y, const struct layout *l)
{
	double x0 = l->left, x1 = l->left + l->plot_w, y0 = l->top + l->plot_h, y1 = l->top;

	fprintf(out, "<polygon fill=\"%s\" fill-opacity=\"0.15\" stroke=\"none\" points=\"",
		colour);
	for (size_t i = 0; i < series->n; i++)
		fprintf(out, "%.1f,%.1f ", axis_map(x, series->x[i], x0, x1),
			axis_map(y, series->y_hi[i], y0, y1));
	for (size_t i = series->n; i-- > 0;)
		fprintf(out, "%.1f,%.1f%s", axis_map(x, series->x[i], x0, x1),
			axis_map(y, series->y_lo[i], y0, y1), i ? " " : "");
	fputs("\"/>\n", out);
	for (size_t i = 0; i < series->n; i++) {
		double px = axis_map(x, series->x[i], x0, x1);
		double lo = axis_map(y, series->y_lo[i], y0, y1),
		       hi = axis_map(y, series->y_hi[i], y0, y1);

		fprintf(out,
			"<path d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke=\"%s\" "
			"stroke-width=\"1.2\" fill=\"none\"/>\n",
			px, lo, hi, px - 4, lo, px - 4, hi, colour);
	}
}

static const char *colour_of(const struct kfsim_plot *plot, size_t s)
{
	return plot->series[s].colour ? plot->series[s].colour : colours[s];
}

static void draw_series(FILE *out, const struct kfsim_plot *plot, const struct axis *x,
			const struct axis *y, const struct layout *l)
{
	double x0 = l->left, x1 = l->left + l->plot_w, y0 = l->top + l->plot_h, y1 = l->top;
	double ly = l->top + 10;

	for (size_t s = 0; s < plot->nr_series; s++)
		if (plot->series[s].y_lo)
			draw_spread(out, &plot->series[s], colour_of(plot, s), x, y, l);
	for (size_t s = 0; s < plot->nr_series; s++) {
		const struct kfsim_plot_series *series = &plot->series[s];
		const char *colour = colour_of(plot, s);
		const char *dash = series->dashed ? " stroke-dasharray=\"6 4\"" : "";

		fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"",
			colour, dash);
		for (size_t i = 0; i < series->n; i++)
			fprintf(out, "%s%.1f,%.1f", i ? " " : "", axis_map(x, series->x[i], x0, x1),
				axis_map(y, series->y[i], y0, y1));
		fputs("\"/>\n", out);
		for (size_t i = 0; i < series->n; i++)
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				axis_map(x, series->x[i], x0, x1),
				axis_map(y, series->y[i], y0, y1), colour);
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"3\"%s/>\n",
			x1 + 14, ly, x1 + 38, ly, colour, dash);
		for (int i = 0; i < l->legend_lines[s]; i++)
			text_n(out, x1 + 44, ly + 4 + i * LEGEND_LINE, "start", LEGEND_SIZE,
			       l->legend[s][i].s, l->legend[s][i].len);
		ly += l->legend_lines[s] * LEGEND_LINE + LEGEND_GAP;
	}
}

int kfsim_plot_svg_write(const struct kfsim_plot *plot, FILE *out)
{
	struct axis x = {0}, y = {.log = plot->y_log};
	double xlo, xhi, ylo, yhi;
	struct layout l;
	int ret = plot_check(plot, &xlo, &xhi, &ylo, &yhi, &x.integral, &y.integral);

	if (ret)
		return ret;
	axis_fit(&x, xlo, xhi, false);
	axis_fit(&y, ylo, yhi, plot->y_from_zero);
	plot_layout(plot, &x, &y, &l);

	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
		ceil(l.width), ceil(l.height), ceil(l.width), ceil(l.height));
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	for (int i = 0; i < l.title_lines; i++)
		text_n(out, l.width / 2, PAD + TITLE_SIZE + i * TITLE_SIZE * 1.3, "middle",
		       TITLE_SIZE, l.title[i].s, l.title[i].len);
	axis_ticks(&x, draw_tick, &(struct tick_ctx){out, &x, &l, true});
	axis_ticks(&y, draw_tick, &(struct tick_ctx){out, &y, &l, false});
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"black\"/>\n",
		l.left, l.top, l.plot_w, l.plot_h);
	text(out, l.left + l.plot_w / 2, l.top + l.plot_h + 42, "middle", LABEL_SIZE,
	     plot->x_label ? plot->x_label : "");
	fprintf(out, "<g transform=\"translate(%.1f %.1f) rotate(-90)\">\n",
		PAD + LABEL_SIZE * 0.95, l.top + l.plot_h / 2);
	text(out, 0, 0, "middle", LABEL_SIZE, plot->y_label ? plot->y_label : "");
	fputs("</g>\n", out);
	draw_series(out, plot, &x, &y, &l);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

int kfsim_plot_svg_save(const struct kfsim_plot *plot, const char *path)
{
	double xlo, xhi, ylo, yhi;
	bool x_integral, y_integral;	/* checked here, used by kfsim_plot_svg_write() */
	struct kfsim_outfile out;
	int ret = plot_check(plot, &xlo, &xhi, &ylo, &yhi, &x_integral, &y_integral);

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
