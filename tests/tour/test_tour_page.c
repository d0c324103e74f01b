// SPDX-License-Identifier: MIT
/*
 * kfsim tour's files: the HTML page (written by default, printed with --html, named in --json),
 * and the output directory's length checked before anything is written (a path is never
 * truncated into the name of some other file).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/cli_assert.h"
#include "support/cli_run.h"

#define RUN(r, ...) assert_int_equal(cli_run((r), (const char *const[]){__VA_ARGS__, NULL}), 0)
#define TOUR_DIR KFSIM_BINARY_DIR "/test-tour-page"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t size = 0;
	FILE *mem;
	int c;

	if (!f)
		return NULL;
	mem = open_memstream(&text, &size);
	while ((c = fgetc(f)) != EOF)
		fputc(c, mem);
	fclose(mem);
	fclose(f);
	return text;
}

static size_t count(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static size_t svg_files_in(const char *dir)
{
	char cmd[PATH_MAX + 64];
	size_t n = 0;
	FILE *ls;
	int c;

	snprintf(cmd, sizeof(cmd), "ls '%s' | grep -c '\\.svg$'", dir);
	ls = popen(cmd, "r");
	assert_non_null(ls);
	while ((c = fgetc(ls)) != EOF && c >= '0' && c <= '9')
		n = n * 10 + (size_t)(c - '0');
	pclose(ls);
	return n;
}

/* The page a plain run leaves: every step, every picture inline, the log, nothing external. */
static void test_tour_writes_one_self_contained_page(void **state)
{
	struct cli_result r;
	char *page;

	RUN(&r, "tour", "--out", TOUR_DIR);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "The whole tour as one page: " TOUR_DIR "/index.html\n"));
	page = slurp(TOUR_DIR "/index.html");
	assert_non_null(page);
	assert_int_equal(strncmp(page, "<!DOCTYPE html>", 15), 0);
	assert_string_equal(page + strlen(page) - 8, "</html>\n");
	/* every picture the run drew is inlined, none left as a reference */
	assert_true(svg_files_in(TOUR_DIR) >= 8);
	assert_int_equal(count(page, "<svg"), svg_files_in(TOUR_DIR));
	assert_null(strstr(page, "<?xml"));
	assert_null(strstr(page, "<!DOCTYPE svg"));
	/* ids unique across the pictures: Graphviz's "graph0" appears in two of them */
	assert_null(strstr(page, " id=\"graph0\""));
	assert_non_null(strstr(page, " id=\"kfsim-f1-"));
	assert_non_null(strstr(page, "url(#kfsim-f2-kfsim-bpf-hatch)"));
	assert_non_null(strstr(page, " id='kfsim-f2-kfsim-bpf-hatch'"));
	/* no script, no stylesheet or image from anywhere */
	assert_null(strstr(page, "<script"));
	assert_null(strstr(page, "<link"));
	assert_null(strstr(page, "<img"));
	assert_null(strstr(page, "src=\""));
	assert_null(strstr(page, "url(http"));
	assert_non_null(strstr(page, "@media print"));
	/* each step's narrative, traces, things to try, and the kernel log of this run */
	assert_non_null(strstr(page, "<section id=\"core\">"));
	assert_non_null(strstr(page, "<section id=\"bfq\">"));
	assert_non_null(strstr(page, "href=\"bfq-6.3.trace.json\""));
	assert_non_null(strstr(page, "href=\"plca-cycle.trace.json\""));
	assert_non_null(strstr(page, "kfsim rbtree --insert 5,1,3,8,2 --steps --svg tree.svg"));
	assert_non_null(strstr(page, "docs/plca-bus.md"));
	assert_non_null(strstr(page, "<section id=\"dmesg\">"));
	assert_non_null(strstr(page, "refcount_t: saturated; leaking memory."));
	/* narrative text is escaped: the netlink step prints "<- offset" */
	assert_non_null(strstr(page, "&lt;- offset"));
	free(page);
	cli_result_free(&r);
}

static void test_tour_html_prints_the_page(void **state)
{
	struct cli_result r;
	char *page;

	RUN(&r, "tour", "--html", "--out", TOUR_DIR "-html");
	assert_int_equal(r.status, 0);
	assert_int_equal(strncmp(r.out, "<!DOCTYPE html>", 15), 0);
	assert_null(strstr(r.out, "== Kernel log")); /* no narrative outside the page */
	page = slurp(TOUR_DIR "-html/index.html");
	assert_non_null(page);
	assert_string_equal(page, r.out);
	free(page);
	cli_result_free(&r);

	RUN(&r, "tour", "--json", "--out", TOUR_DIR "-json");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"html\": \"" TOUR_DIR "-json/index.html\""));
	assert_int_equal(access(TOUR_DIR "-json/index.html", R_OK), 0);
	cli_result_free(&r);

	RUN(&r, "tour", "--json", "--html");
	assert_usage_error(&r, "kfsim tour: options '--json' and '--html' exclude each other");
	cli_result_free(&r);
}

/* A page that cannot be written is a failure of the run, reported once. */
static void test_tour_page_write_failure(void **state)
{
	struct cli_result r;

	assert_int_equal(system("rm -rf '" TOUR_DIR "-blocked' && mkdir -p '" TOUR_DIR
				"-blocked/index.html'"),
			 0);
	RUN(&r, "tour", "--out", TOUR_DIR "-blocked");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "cannot write " TOUR_DIR "-blocked/index.html: -EISDIR"));
	assert_non_null(strstr(r.out, "9 steps, 1 failed"));
	cli_result_free(&r);
}

/*
 * An --out too long for its files to fit PATH_MAX: -ENAMETOOLONG before anything is created.
 * The old 512-byte buffers cut such a path short, so that a step overwrote B/important.txt.
 */
static void test_tour_out_too_long_writes_nothing(void **state)
{
	const char *base = KFSIM_BINARY_DIR "/test-tour-long";
	char *out = malloc(PATH_MAX + 16), *text;
	struct cli_result r;
	size_t len;
	FILE *f;

	assert_non_null(out);
	assert_int_equal(system("rm -rf '" KFSIM_BINARY_DIR
				"/test-tour-long' && mkdir -p '" KFSIM_BINARY_DIR
				"/test-tour-long/B'"),
			 0);
	f = fopen(KFSIM_BINARY_DIR "/test-tour-long/B/important.txt", "w");
	assert_non_null(f);
	fputs("keep me\n", f);
	fclose(f);
	/* components of 100 bytes (under NAME_MAX): only the total is too long */
	len = (size_t)snprintf(out, PATH_MAX, "%s/B", base);
	while (len < PATH_MAX - 64 + 1)
		len += (size_t)snprintf(out + len, PATH_MAX + 16 - len, "/%0100d", 0);
	RUN(&r, "tour", "--out", out);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim tour: -ENAMETOOLONG: output directory name of"));
	assert_int_equal(count_lines(r.err), 1);
	assert_string_equal(r.out, "");
	cli_result_free(&r);
	text = slurp(KFSIM_BINARY_DIR "/test-tour-long/B/important.txt");
	assert_string_equal(text, "keep me\n");
	free(text);
	/* nothing created: B holds only the file it held */
	assert_int_equal(system("test \"$(ls -A '" KFSIM_BINARY_DIR "/test-tour-long/B')\" = "
				"important.txt"),
			 0);
	free(out);
}

/* A component longer than NAME_MAX: refused before the directories above it are made. */
static void test_tour_out_component_too_long(void **state)
{
	char out[512];
	struct cli_result r;

	assert_int_equal(system("rm -rf '" KFSIM_BINARY_DIR "/test-tour-name'"), 0);
	snprintf(out, sizeof(out), "%s/a/%0256d/b", KFSIM_BINARY_DIR "/test-tour-name", 7);
	RUN(&r, "tour", "--out", out);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim tour: -ENAMETOOLONG: output directory has a "
				      "component of 256 bytes: at most 255"));
	assert_string_equal(r.out, "");
	assert_int_equal(access(KFSIM_BINARY_DIR "/test-tour-name", F_OK), -1);
	cli_result_free(&r);
}

/* A long --out that fits (2 KB, four times the old buffers): every file lands inside it. */
static void test_tour_long_out_that_fits(void **state)
{
	char out[2200], path[2300];
	struct cli_result r;
	size_t len;

	assert_int_equal(system("rm -rf '" KFSIM_BINARY_DIR "/test-tour-deep'"), 0);
	len = (size_t)snprintf(out, sizeof(out), "%s", KFSIM_BINARY_DIR "/test-tour-deep");
	while (len < 2000)
		len += (size_t)snprintf(out + len, sizeof(out) - len, "/%0100d", 1);
	RUN(&r, "tour", "--out", out);
	assert_int_equal(r.status, 0);
	cli_result_free(&r);
	snprintf(path, sizeof(path), "%s/index.html", out);
	assert_int_equal(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/ynl/ethtool-user.c", out);
	assert_int_equal(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/plca-sweep-latency.svg", out);
	assert_int_equal(access(path, R_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tour_writes_one_self_contained_page),
		cmocka_unit_test(test_tour_html_prints_the_page),
		cmocka_unit_test(test_tour_page_write_failure),
		cmocka_unit_test(test_tour_out_too_long_writes_nothing),
		cmocka_unit_test(test_tour_out_component_too_long),
		cmocka_unit_test(test_tour_long_out_that_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
