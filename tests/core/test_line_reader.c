// SPDX-License-Identifier: MIT
/*
 * core/line_reader: lines in order with their numbers, an over-long line skipped to its end or
 * stopping the reading, a NUL byte seen (and kept in the count), the file's cap, and a last line
 * without its newline.  Each input is an in-memory stream (fmemopen), so sizes are exact.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/line_reader.h"

static FILE *stream(const char *text, size_t len)
{
	FILE *f = fmemopen((void *)text, len, "r");

	assert_non_null(f);
	return f;
}

static void test_lines_in_order(void **state)
{
	static const char text[] = "one\n\ntwo\r\nlast";
	FILE *f = stream(text, sizeof(text) - 1);
	struct kfsim_line_reader r;

	(void)state;
	kfsim_line_reader_init(&r, f, 16, 1024, true);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_string_equal(r.text, "one");
	assert_true(r.ended);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_string_equal(r.text, "");	/* an empty line is a line */
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_string_equal(r.text, "two\r");	/* a CR is the caller's to strip */
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_string_equal(r.text, "last");
	assert_false(r.ended);			/* no newline: a file cut short can be told */
	assert_int_equal(r.nr, 4);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_END);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_END);
	assert_int_equal(r.consumed, sizeof(text) - 1);
	kfsim_line_reader_release(&r);
	fclose(f);
}

/* Exactly max_line bytes is a line; one more is too long, skipped or stopping the reading. */
static void test_long_lines(void **state)
{
	static const char text[] = "12345678\n123456789\nafter\n";
	struct kfsim_line_reader r;
	FILE *f = stream(text, sizeof(text) - 1);

	(void)state;
	kfsim_line_reader_init(&r, f, 8, 1024, true);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_string_equal(r.text, "12345678");
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_TOO_LONG);
	assert_int_equal(r.nr, 2);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_string_equal(r.text, "after");	/* the line after the long one is read */
	assert_int_equal(r.nr, 3);
	kfsim_line_reader_release(&r);
	fclose(f);

	f = stream(text, sizeof(text) - 1);
	kfsim_line_reader_init(&r, f, 8, 1024, false);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_TOO_LONG);
	/* without skipping, the reading stopped at the bound: nothing past it was taken */
	assert_int_equal(r.consumed, 9 + 9);
	kfsim_line_reader_release(&r);
	fclose(f);
}

static void test_nul_byte_seen(void **state)
{
	static const char text[] = "ab\0cd\nclean\n";
	struct kfsim_line_reader r;
	FILE *f = stream(text, sizeof(text) - 1);

	(void)state;
	kfsim_line_reader_init(&r, f, 64, 1024, true);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_true(r.has_nul);
	assert_int_equal(r.len, 5);
	assert_memory_equal(r.text, "ab\0cd", 6);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_false(r.has_nul);
	kfsim_line_reader_release(&r);
	fclose(f);
}

/* The cap counts every byte: one past it stops, even inside a skipped line. */
static void test_file_cap(void **state)
{
	static const char text[] = "aaaa\nbbbbbbbbbbbbbbbbbbbb\n";
	struct kfsim_line_reader r;
	FILE *f = stream(text, sizeof(text) - 1);

	(void)state;
	kfsim_line_reader_init(&r, f, 4, 10, true);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_TOO_BIG);
	assert_int_equal(r.consumed, 11);
	kfsim_line_reader_release(&r);
	fclose(f);

	/* a file of exactly the cap is read whole */
	f = stream(text, 10);
	kfsim_line_reader_init(&r, f, 4, 10, true);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_TOO_LONG);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_END);
	kfsim_line_reader_release(&r);
	fclose(f);
}

/* A line that grows the buffer many times keeps every byte (ASan sees any overrun). */
static void test_growth(void **state)
{
	enum { LEN = 100000 };
	char *text = malloc(LEN + 1);
	struct kfsim_line_reader r;
	FILE *f;

	(void)state;
	assert_non_null(text);
	for (int i = 0; i < LEN; i++)
		text[i] = (char)('a' + i % 26);
	text[LEN] = '\n';
	f = stream(text, LEN + 1);
	kfsim_line_reader_init(&r, f, LEN, SIZE_MAX, false);
	assert_int_equal(kfsim_line_reader_next(&r), KFSIM_LINE_OK);
	assert_int_equal(r.len, LEN);
	assert_memory_equal(r.text, text, LEN);
	assert_int_equal(r.text[LEN], '\0');
	kfsim_line_reader_release(&r);
	fclose(f);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines_in_order),
		cmocka_unit_test(test_long_lines),
		cmocka_unit_test(test_nul_byte_seen),
		cmocka_unit_test(test_file_cap),
		cmocka_unit_test(test_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
