// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "log_assert.h"

int log_count_since(u64 mark, const char *substr)
{
	return kfsim_log_contains(mark, substr);
}

void _assert_logged(u64 mark, const char *substr, int times, const char *file, int line)
{
	int hits = kfsim_log_contains(mark, substr);

	if (hits == times)
		return;
	size_t need = kfsim_dmesg_format(mark, NULL, 0);
	char *text = malloc(need + 1);

	if (text)
		kfsim_dmesg_format(mark, text, need + 1);
	print_error("expected %d log record(s) containing \"%s\", found %d; log since mark:\n%s\n",
		    times, substr, hits, text ? text : "(no memory)");
	free(text);
	_fail(file, line);
}
