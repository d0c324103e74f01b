// SPDX-License-Identifier: MIT
/* <linux/string.h> from the compatibility folder: strscpy()/strscpy_pad() as lib/string.c. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/string.h>

static void test_strscpy(void **state)
{
	char buf[6], big[16];

	assert_int_equal(strscpy(buf, "abc"), 3);	/* the array's size */
	assert_string_equal(buf, "abc");
	assert_int_equal(strscpy(buf, "abcde"), 5);	/* exactly fits with its NUL */
	assert_int_equal(strscpy(buf, "abcdef"), -E2BIG);	/* truncated, still terminated */
	assert_string_equal(buf, "abcde");
	assert_int_equal(strscpy(buf, "xyz", 2), -E2BIG);
	assert_string_equal(buf, "x");
	assert_int_equal(strscpy(buf, "xyz", 0), -E2BIG);
	assert_string_equal(buf, "x");	/* size 0 writes nothing */
	memset(big, 'Z', sizeof(big));
	assert_int_equal(strscpy_pad(big, "hi"), 2);
	for (size_t i = 2; i < sizeof(big); i++)
		assert_int_equal(big[i], 0);
	memset(big, 'Z', sizeof(big));
	assert_int_equal(strscpy_pad(big, "hello", 4), -E2BIG);
	assert_string_equal(big, "hel");
	assert_int_equal(big[4], 'Z');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strscpy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
