// SPDX-License-Identifier: MIT
/*
 * The one dot runner: a DOT file becomes a complete SVG file; dot's complaint goes to the log
 * under the caller's name and the file keeps its old content; no dot on $PATH is -ENOENT.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/graphviz.h>
#include "support/log_assert.h"

static char dir[] = "/tmp/kfsim-graphviz-XXXXXX";
static char dot_path[64], svg_path[64];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void read_file(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t len;

	assert_non_null(f);
	len = fread(buf, 1, size - 1, f);
	buf[len] = '\0';
	fclose(f);
}

static void test_dot_to_svg(void **state)
{
	static char buf[65536];
	char *old_path;
	u64 mark;

	assert_non_null(mkdtemp(dir));
	snprintf(dot_path, sizeof(dot_path), "%s/a.dot", dir);
	snprintf(svg_path, sizeof(svg_path), "%s/a.svg", dir);
	write_file(dot_path, "digraph g { a -> b; }\n");
	assert_int_equal(kfsim_dot_file_to_svg(dot_path, svg_path, "test"), 0);
	read_file(svg_path, buf, sizeof(buf));
	assert_non_null(strstr(buf, "<svg"));
	assert_non_null(strstr(buf, "</svg>"));

	/* a broken DOT file: -EIO, the complaint logged under our name, the old SVG kept */
	write_file(dot_path, "digraph g { a -> ; }\n");
	mark = log_mark();
	assert_int_equal(kfsim_dot_file_to_svg(dot_path, svg_path, "graphviz-test"), -EIO);
	assert_logged(mark, "graphviz-test: dot: ", 1);
	read_file(svg_path, buf, sizeof(buf));
	assert_non_null(strstr(buf, "</svg>"));

	/* no dot program */
	old_path = strdup(getenv("PATH"));
	setenv("PATH", dir, 1);
	assert_int_equal(kfsim_dot_file_to_svg(dot_path, svg_path, "test"), -ENOENT);
	setenv("PATH", old_path, 1);
	free(old_path);

	assert_int_equal(kfsim_dot_to_svg(NULL, stdout, "test"), -EINVAL);
	assert_int_equal(kfsim_dot_file_to_svg(dot_path, "", "test"), -EINVAL);
	unlink(dot_path);
	unlink(svg_path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dot_to_svg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
