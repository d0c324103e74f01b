// SPDX-License-Identifier: MIT
/*
 * The plots' layout rules, checked on the SVG text they produce: every label inside the canvas
 * by the same measure kfsim lays it out with, long titles and legends wrapped, whole-number
 * ticks on whole-number axes, spreads validated.  (The browser test checks the same with real
 * fonts.)
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/svg_plot.h>

static char *draw(const struct kfsim_plot *plot, int *ret)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	*ret = kfsim_plot_svg_write(plot, f);
	fclose(f);
	return text;
}

/* Undo the escaping of one <text> element's content. */
static void unescape(const char *from, size_t len, char *to, size_t size)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 1 < size; i++) {
		if (!strncmp(from + i, "&lt;", 4)) {
			to[n++] = '<';
			i += 3;
		} else if (!strncmp(from + i, "&gt;", 4)) {
			to[n++] = '>';
			i += 3;
		} else if (!strncmp(from + i, "&amp;", 5)) {
			to[n++] = '&';
			i += 4;
		} else {
			to[n++] = from[i];
		}
	}
	to[n] = '\0';
}

struct fit {
	int texts, title_lines, x_ticks;
	bool fractional_x_tick;
};

/*
 * Check that each horizontal <text> of @svg lies inside the canvas (by kfsim_svg_text_width(),
 * a bound of the real width) and count titles and x ticks.  The rotated y label is inside a
 * <g transform>, written with x="0.0" y="0.0": checked against the canvas height instead.
 */
static struct fit check_fit(const char *svg)
{
	double width, height;
	struct fit fit = {0};
	const char *p = svg;

	assert_int_equal(sscanf(svg,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%lf\" "
				"height=\"%lf\"",
				&width, &height),
			 2);
	while ((p = strstr(p, "<text "))) {
		double x, y, w;
		int size;
		char anchor[8], content[512];
		const char *start = strchr(p, '>') + 1, *end = strstr(start, "</text>");

		assert_int_equal(sscanf(p,
					"<text x=\"%lf\" y=\"%lf\" text-anchor=\"%7[a-z]\" "
					"font-size=\"%d\">",
					&x, &y, anchor, &size),
				 4);
		unescape(start, (size_t)(end - start), content, sizeof(content));
		w = kfsim_svg_text_width(content, size, KFSIM_SVG_SANS);
		fit.texts++;
		if (x == 0 && y == 0) {
			assert_true(w <= height);
		} else {
			double left = !strcmp(anchor, "start")	  ? x
				      : !strcmp(anchor, "middle") ? x - w / 2
								  : x - w;

			if (left < 0 || left + w > width)
				fail_msg("\"%s\" spans %.1f..%.1f on a canvas %.0f wide", content,
					 left, left + w, width);
			assert_true(y - size >= 0 && y + size * 0.3 <= height);
		}
		if (size == 16)
			fit.title_lines++;
		if (size == 12 && !strcmp(anchor, "middle")) {
			fit.x_ticks++;
			fit.fractional_x_tick |= strchr(content, '.') != NULL;
		}
		p = end;
	}
	return fit;
}

static void test_text_width(void **state)
{
	assert_true(kfsim_svg_text_width(NULL, 12, KFSIM_SVG_SANS) == 0);
	assert_true(kfsim_svg_text_width("", 12, KFSIM_SVG_SANS) == 0);
	assert_true(kfsim_svg_text_width("iii", 12, KFSIM_SVG_SANS) <
		    kfsim_svg_text_width("WWW", 12, KFSIM_SVG_SANS));
	/* twice the size, twice the width */
	assert_true(fabs(kfsim_svg_text_width("kfsim", 24, KFSIM_SVG_SANS) -
			 2 * kfsim_svg_text_width("kfsim", 12, KFSIM_SVG_SANS)) < 1e-9);
	/* an upper bound of DejaVu Sans Book: "m" is 974/2048 em there */
	assert_true(kfsim_svg_text_width("m", 1000, KFSIM_SVG_SANS) >= 974 * 1000 / 2048.0);
	assert_true(fabs(kfsim_svg_text_width("0000", 10, KFSIM_SVG_MONO) - 24.4) < 1e-9);
	/* one em per character beyond ASCII, whatever its UTF-8 length ("µs") */
	assert_true(fabs(kfsim_svg_text_width("\xc2\xb5", 10, KFSIM_SVG_SANS) - 10) < 1e-9);
}

/* Nodes 1..4: ticks 1, 2, 3, 4, never 1.5 (the old plca-sweep-latency.svg). */
static void test_whole_number_axis(void **state)
{
	const double x[] = {1, 2, 3, 4}, y[] = {84.4, 173.1, 252.2, 331.3};
	const struct kfsim_plot_series s = {"PLCA", x, y, 4};
	const struct kfsim_plot plot = {.title = "t",
					.x_label = "transmitting nodes",
					.y_label = "us",
					.series = &s,
					.nr_series = 1};
	int ret;
	char *svg = draw(&plot, &ret);
	struct fit fit;

	assert_int_equal(ret, 0);
	fit = check_fit(svg);
	assert_int_equal(fit.x_ticks, 4);
	assert_false(fit.fractional_x_tick);
	free(svg);

	/* a real-valued axis still gets fractional ticks */
	const double t[] = {0.05, 0.1, 0.15, 0.2};
	const struct kfsim_plot_series s2 = {"MB/s", t, y, 4};
	const struct kfsim_plot plot2 = {.title = "t", .series = &s2, .nr_series = 1};

	svg = draw(&plot2, &ret);
	assert_int_equal(ret, 0);
	assert_true(check_fit(svg).fractional_x_tick);
	free(svg);
}

/* Titles, legends and labels far longer than the default canvas: wrapped or the canvas grows. */
static void test_long_text_fits(void **state)
{
	const double x[] = {1, 10, 100}, y[] = {1e-3, 5, 1e6};
	const struct kfsim_plot_series s[] = {
		{"refcount_t: saturates (-1), never back to 0, however many more puts come", x, y,
		 3},
		{"Supercalifragilisticexpialidociousunbreakablelegendentrywithoutanyspaces", x, y,
		 3},
		{"<&> escaped", x, y, 3},
	};
	const struct kfsim_plot plot = {
		.title = "A title much longer than the plotting area is wide, so that it has to be "
			 "wrapped at the spaces between its words onto two or three lines, even on "
			 "a canvas grown for a legend entry that has no space to break at and an "
			 "x label longer than the plotting area: each line is measured and kept "
			 "inside the canvas",
		.x_label =
			"an x label with units (ms) that is rather long for the axis it is under, "
			"longer than 460 px",
		.y_label = "a y label with units (us, log scale) longer than the plotting area is "
			   "high, 330 px, so the area grows",
		.y_log = true,
		.series = s,
		.nr_series = 3,
	};
	int ret;
	char *svg = draw(&plot, &ret);
	struct fit fit;

	assert_int_equal(ret, 0);
	fit = check_fit(svg);
	assert_true(fit.title_lines >= 2);
	assert_non_null(strstr(svg, "&lt;&amp;&gt; escaped"));
	/* a log axis up to a million labels it in full, not "1e+06" */
	assert_non_null(strstr(svg, ">1000000</text>"));
	assert_null(strstr(svg, "e+0"));
	free(svg);
}

static void test_spread_and_style(void **state)
{
	const double x[] = {1, 2}, y[] = {2, 3}, lo[] = {1, 2}, hi[] = {4, 5};
	const double zero[] = {0, 2};
	struct kfsim_plot_series s = {"runs", x, y, 2, lo, hi, "#123456", true};
	struct kfsim_plot plot = {.title = "t", .series = &s, .nr_series = 1};
	int ret;
	char *svg = draw(&plot, &ret);

	assert_int_equal(ret, 0);
	assert_non_null(strstr(svg, "<polygon fill=\"#123456\" fill-opacity"));
	assert_non_null(strstr(svg, "stroke-dasharray"));
	check_fit(svg);
	free(svg);

	s.y_hi = NULL; /* one end of a spread without the other */
	svg = draw(&plot, &ret);
	assert_int_equal(ret, -EINVAL);
	assert_string_equal(svg, "");
	free(svg);
	s.y_hi = hi;
	s.y_lo = zero; /* a spread reaching 0 on a log axis */
	plot.y_log = true;
	svg = draw(&plot, &ret);
	assert_int_equal(ret, -EINVAL);
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_width),
		cmocka_unit_test(test_whole_number_axis),
		cmocka_unit_test(test_long_text_fits),
		cmocka_unit_test(test_spread_and_style),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
