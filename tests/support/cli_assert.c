// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli_assert.h"

void assert_usage_error(struct cli_result *r, const char *needle)
{
	if (r->status != 2 || !strstr(r->err, needle) || count_lines(r->err) != 1)
		print_error("status %d, stderr: %s", r->status, r->err);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, needle));
	assert_int_equal(count_lines(r->err), 1);
	/* stdout: nothing, or with --json the JSON error document (kfsim_cli_json_errors()) */
	if (r->out[0] != '{' || !strstr(r->out, "\"error\": {"))
		assert_string_equal(r->out, "");
	else
		assert_non_null(strstr(r->out, "\"status\": 2"));
	cli_result_free(r);
}

void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

void assert_file_is(const char *path, const char *text)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	assert_string_equal(buf, text);
}

char *read_whole_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	if (!f)
		print_error("cannot open %s\n", path);
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len >= 0);
	rewind(f);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	return buf;
}
