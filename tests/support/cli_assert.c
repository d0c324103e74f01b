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
	/* stdout: nothing, or with --json the JSON error document (kfsim_cli_json_errors()) */
	if (r->out[0] != '{' || !strstr(r->out, "\"error\": {"))
		assert_string_equal(r->out, "");
	else
		assert_non_null(strstr(r->out, "\"status\": 2"));
	cli_result_free(r);
}
