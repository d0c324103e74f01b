// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
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
	assert_string_equal(r->out, "");
	cli_result_free(r);
}
