// SPDX-License-Identifier: MIT
/* ERR_PTR round trips, errno names, and the kernel.h helpers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>

struct outer {
	int a;
	long member;
	char tail;
};

static void test_err_ptr_round_trips_every_errno(void **state)
{
	for (long err = -MAX_ERRNO; err < 0; err++) {
		void *ptr = ERR_PTR(err);

		assert_true(IS_ERR(ptr));
		assert_true(IS_ERR_OR_NULL(ptr));
		assert_int_equal(PTR_ERR(ptr), err);
		assert_int_equal(PTR_ERR_OR_ZERO(ptr), err);
	}
}

static void test_valid_pointers_are_not_errors(void **state)
{
	int object;

	assert_false(IS_ERR(&object));
	assert_false(IS_ERR(NULL));
	assert_true(IS_ERR_OR_NULL(NULL));
	assert_false(IS_ERR_OR_NULL(&object));
	assert_int_equal(PTR_ERR_OR_ZERO(&object), 0);
	/* The boundary: -MAX_ERRNO - 1 is an ordinary (if odd) pointer value. */
	assert_false(IS_ERR(ERR_PTR(-MAX_ERRNO - 1)));
	assert_ptr_equal(ERR_CAST(ERR_PTR(-EINVAL)), ERR_PTR(-EINVAL));
}

static void test_errnames(void **state)
{
	assert_string_equal(kfsim_errname(-EINVAL), "EINVAL");
	assert_string_equal(kfsim_errname(EINVAL), "EINVAL");
	assert_string_equal(kfsim_errname(-EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(kfsim_errname(-ENOTSUPP), "ENOTSUPP");
	assert_string_equal(kfsim_errname(-EPROBE_DEFER), "EPROBE_DEFER");
	assert_string_equal(kfsim_errname(0), "E?");
	assert_string_equal(kfsim_errname(-4000), "E?");
	assert_string_equal(kfsim_errname(-2147483647), "E?");
	assert_string_equal(kfsim_errname(-2147483647 - 1), "E?");	/* INT_MIN: no -err */
	assert_string_equal(kfsim_errname(2147483647), "E?");
}

static void test_container_of_and_helpers(void **state)
{
	struct outer o = { .a = 1, .member = 2 };
	long *inner = &o.member;
	int arr[7];
	int calls = 0;

	assert_ptr_equal(container_of(inner, struct outer, member), &o);
	assert_int_equal(ARRAY_SIZE(arr), 7);
	assert_int_equal(min(3, 9), 3);
	assert_int_equal(max(3, 9), 9);
	assert_int_equal(min_t(long, 3, -9L), -9);
	assert_int_equal(clamp(15, 0, 10), 10);
	assert_int_equal(clamp(-5, 0, 10), 0);
	/* Arguments are evaluated once. */
	assert_int_equal(max(++calls, 0), 1);
	assert_int_equal(calls, 1);
	assert_int_equal(DIV_ROUND_UP(9, 4), 3);
	assert_int_equal(GENMASK(7, 4), 0xf0);
	int a = 1, b = 2;

	swap(a, b);
	assert_int_equal(a, 2);
	assert_int_equal(b, 1);
	BUILD_BUG_ON(sizeof(u64) != 8);
}

/* The kernel's values and types: long for the time units, each fixed-size type for its limits. */
#define assert_type(expr, type) assert_true(__builtin_types_compatible_p(__typeof__(expr), type))

static void test_limits_and_time_units(void **state)
{
	assert_type(NSEC_PER_MSEC, long);
	assert_type(NSEC_PER_SEC, long);
	assert_type(2 * NSEC_PER_MSEC, long);	/* stays an integer, unlike a double constant */
	assert_int_equal(NSEC_PER_SEC, NSEC_PER_MSEC * MSEC_PER_SEC);
	assert_int_equal(NSEC_PER_SEC, NSEC_PER_USEC * USEC_PER_SEC);
	assert_int_equal(USEC_PER_SEC, USEC_PER_MSEC * MSEC_PER_SEC);
	assert_type(U64_MAX, u64);
	assert_type(S64_MIN, s64);
	assert_type(U8_MAX, u8);
	assert_true(U64_MAX == UINT64_MAX && S64_MAX == INT64_MAX && S64_MIN == INT64_MIN);
	assert_true(U32_MAX == UINT32_MAX && S32_MIN == INT32_MIN && U32_MIN == 0);
	assert_true(U16_MAX == UINT16_MAX && S16_MAX == INT16_MAX && S16_MIN == INT16_MIN);
	assert_true(U8_MAX == UINT8_MAX && S8_MAX == INT8_MAX && S8_MIN == INT8_MIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_ptr_round_trips_every_errno),
		cmocka_unit_test(test_valid_pointers_are_not_errors),
		cmocka_unit_test(test_errnames),
		cmocka_unit_test(test_container_of_and_helpers),
		cmocka_unit_test(test_limits_and_time_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
