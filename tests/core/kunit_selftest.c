// SPDX-License-Identifier: MIT
/*
 * The KUnit runner judged by its own output: a suite whose cases pass, fail an expectation (and
 * go on), fail an assertion (and stop), skip, and run with parameters.  ctest compares the KTAP
 * it prints with kunit_selftest.ktap.
 */
#include <kunit/test.h>

static int after_assert;

static void passes(struct kunit *test)
{
	int *p = kunit_kzalloc(test, 4 * sizeof(int), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, p[3], 0);
	KUNIT_EXPECT_STREQ(test, "abc", "abc");
	KUNIT_EXPECT_TRUE(test, 1 < 2);
	KUNIT_EXPECT_PTR_EQ(test, p, p);
}

static void expectation_fails(struct kunit *test)
{
	int three = 3;

	KUNIT_EXPECT_EQ(test, three, 4);
	KUNIT_EXPECT_EQ_MSG(test, three + 1, 5, "with a message %d", 7);
	KUNIT_EXPECT_STREQ(test, "abc", "abd");
	KUNIT_EXPECT_FALSE(test, three == 3);
}

static void assertion_stops(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, 1, 2);
	after_assert = 1;
}

static void skips(struct kunit *test)
{
	kunit_skip(test, "not on %s", "userspace");
}

static void checks_after_assert(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, after_assert, 0);
}

static const int params[] = { 1, 2, 3 };

static void param_desc(const int *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "value %d", *p);
}

KUNIT_ARRAY_PARAM(small, params, param_desc);

static void parameterised(struct kunit *test)
{
	const int *p = test->param_value;

	KUNIT_EXPECT_LT(test, *p, 3);
}

static struct kunit_case selftest_cases[] = {
	KUNIT_CASE(passes),
	KUNIT_CASE(expectation_fails),
	KUNIT_CASE(assertion_stops),
	KUNIT_CASE(skips),
	KUNIT_CASE(checks_after_assert),
	KUNIT_CASE_PARAM(parameterised, small_gen_params),
	{}
};

static struct kunit_suite selftest_suite = {
	.name = "kfsim-kunit",
	.test_cases = selftest_cases,
};
kunit_test_suite(selftest_suite);
