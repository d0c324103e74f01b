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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_ptr_round_trips_every_errno),
		cmocka_unit_test(test_valid_pointers_are_not_errors),
		cmocka_unit_test(test_errnames),
		cmocka_unit_test(test_container_of_and_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
