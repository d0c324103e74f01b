// SPDX-License-Identifier: MIT
/*
 * core/problem_list: whole problems in file order, the count of those that do not fit, the
 * first one always, and never a byte past the buffer (each case in a buffer of its exact size,
 * so that ASan sees any overrun).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/problem_list.h"

/* Fill a list of @size bytes (heap, exact) with @nr problems "problem N", return the text. */
static char *fill(size_t size, int nr, const char *sep, int *err)
{
	struct kfsim_problem_list list;
	char *buf = malloc(size);

	assert_non_null(buf);
	kfsim_problem_list_init(&list, buf, size, sep);
	for (int i = 1; i <= nr; i++)
		kfsim_problem_list_add(&list, -i, "problem %d", i);
	*err = kfsim_problem_list_finish(&list);
	assert_true(strlen(buf) < size);
	return buf;
}

static void test_all_fit(void **state)
{
	int err;
	char *text = fill(100, 3, "; ", &err);

	(void)state;
	assert_string_equal(text, "problem 1; problem 2; problem 3");
	assert_int_equal(err, -1);	/* the first problem's error */
	free(text);
	text = fill(100, 0, "; ", &err);
	assert_string_equal(text, "");
	assert_int_equal(err, 0);
	free(text);
}

/* Every size from 1 up: whole problems in order, then the count, or the first one cut. */
static void test_every_size(void **state)
{
	(void)state;
	for (size_t size = 1; size < 200; size++) {
		int err, told = 0, untold = 0;
		char *text = fill(size, 9, "\n", &err), *more;

		assert_int_equal(err, -1);
		more = strstr(text, "and ");
		if (more)
			untold = atoi(more + 4);
		for (char *at = text; (at = strstr(at, "problem ")) && (!more || at < more); at++)
			told++;
		if (size > 2 * sizeof("\nand 9 more problems")) {
			/* a buffer that holds the count twice tells it, and nothing is lost */
			assert_non_null(strstr(text, "problem 1"));
			if (told < 9)
				assert_int_equal(told + untold, 9);
		}
		if (size > sizeof("problem 1"))
			assert_true(!strncmp(text, "problem 1", 9));
		else
			assert_true(!strncmp(text, "problem 1", size - 1));
		free(text);
	}
}

/* A long first problem gives its end to the count rather than lose it. */
static void test_count_survives_a_long_first_problem(void **state)
{
	struct kfsim_problem_list list;
	char buf[64];

	(void)state;
	kfsim_problem_list_init(&list, buf, sizeof(buf), "; ");
	kfsim_problem_list_add(&list, -EINVAL, "%s", "a first problem much longer than the buffer it goes in");
	kfsim_problem_list_add(&list, -ENOENT, "second");
	kfsim_problem_list_add(&list, -ENOENT, "third");
	assert_int_equal(kfsim_problem_list_finish(&list), -EINVAL);
	assert_true(strlen(buf) == sizeof(buf) - 1);
	assert_true(!strncmp(buf, "a first problem", 15));
	assert_non_null(strstr(buf, "; and 2 more problems"));
	assert_string_equal(buf + strlen(buf) - strlen("; and 2 more problems"), "; and 2 more problems");
}

static void add_at(struct kfsim_problem_list *list, int err, const char *where,
		   const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	kfsim_problem_list_vadd_at(list, err, where, fmt, args);
	va_end(args);
}

/*
 * A located problem is its place then its message, formatted once: a message of 600 bytes
 * (longer than the 300-400 byte buffers the readers once formatted into) stays whole.
 */
static void test_located_problem_whole(void **state)
{
	struct kfsim_problem_list list;
	char long_msg[601], buf[2048], want[700];

	(void)state;
	memset(long_msg, 'x', 600);
	long_msg[600] = '\0';
	kfsim_problem_list_init(&list, buf, sizeof(buf), "\n");
	add_at(&list, -EINVAL, "spec.yaml:3:5: ", "key '%s' is unknown", long_msg);
	add_at(&list, -ERANGE, "", "no place: %d", 7);
	assert_int_equal(kfsim_problem_list_finish(&list), -EINVAL);
	snprintf(want, sizeof(want), "spec.yaml:3:5: key '%s' is unknown\nno place: 7", long_msg);
	assert_string_equal(buf, want);
}

/*
 * A place of PATH_MAX bytes (a deep path) gives way to the message: its beginning is cut, its
 * end (the file name and line) and the whole reason stay.
 */
static void test_long_place_keeps_the_message(void **state)
{
	struct kfsim_problem_list list;
	char where[4096 + 16], buf[2048];
	size_t len;

	(void)state;
	memset(where, 'd', 4096);
	snprintf(where + 4096, sizeof(where) - 4096, "/a.fio:7: ");
	kfsim_problem_list_init(&list, buf, sizeof(buf), "\n");
	add_at(&list, -EINVAL, where, "bs: %s", "not a size");
	assert_int_equal(kfsim_problem_list_finish(&list), -EINVAL);
	len = strlen(buf);
	assert_true(len < 1024);
	assert_memory_equal(buf, "...ddd", 6);
	assert_string_equal(buf + len - strlen("/a.fio:7: bs: not a size"),
			    "/a.fio:7: bs: not a size");
}

/* No buffer at all: the count and the error are still kept. */
static void test_no_buffer(void **state)
{
	struct kfsim_problem_list list;

	(void)state;
	kfsim_problem_list_init(&list, NULL, 0, "; ");
	kfsim_problem_list_add(&list, -EIO, "x");
	kfsim_problem_list_add(&list, -EINVAL, "y");
	assert_int_equal(kfsim_problem_list_finish(&list), -EIO);
	assert_int_equal(list.nr, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_fit),
		cmocka_unit_test(test_every_size),
		cmocka_unit_test(test_count_survives_a_long_first_problem),
		cmocka_unit_test(test_located_problem_whole),
		cmocka_unit_test(test_long_place_keeps_the_message),
		cmocka_unit_test(test_no_buffer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
