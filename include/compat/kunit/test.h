/* SPDX-License-Identifier: MIT */
/*
 * <kunit/test.h> for kernel KUnit suites run as userspace programs: the runner and the suite
 * types are <kfsim/kunit.h>; these are the kernel's macro names (include/kunit/test.h, 6.12).
 */
#ifndef KFSIM_COMPAT_KUNIT_TEST_H
#define KFSIM_COMPAT_KUNIT_TEST_H
#include <linux/kernel.h>
#include <linux/module.h> /* MODULE_*(): a KUnit suite is a module */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>
#include <kfsim/kunit.h>

#ifndef __PASTE
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#endif

/* kunit_test_suites(&a, &b) registers the suites at start-up; the program's main() runs them. */
#define kunit_test_suites(...)                                                                    \
	static struct kunit_suite *const __PASTE(__kfsim_kunit_suites_, __LINE__)[] = {          \
		__VA_ARGS__                                                                       \
	};                                                                                        \
	__attribute__((constructor)) static void __PASTE(__kfsim_kunit_register_, __LINE__)(void) \
	{                                                                                         \
		kfsim_kunit_register(__PASTE(__kfsim_kunit_suites_, __LINE__),                    \
				     ARRAY_SIZE(__PASTE(__kfsim_kunit_suites_, __LINE__)));        \
	}                                                                                         \
	__KFSIM_KUNIT_MAIN
#define kunit_test_suite(suite) kunit_test_suites(&suite)
#define kunit_test_init_section_suites(...) kunit_test_suites(__VA_ARGS__)
#define kunit_test_init_section_suite(suite) kunit_test_suites(&suite)
#ifdef KFSIM_NO_KUNIT_MAIN
#define __KFSIM_KUNIT_MAIN
#else
#define __KFSIM_KUNIT_MAIN                                                                        \
	int main(int argc, char **argv)                                                           \
	{                                                                                         \
		return kfsim_kunit_run_all(argc, argv);                                           \
	}
#endif
#define kunit_printk(lvl, test, fmt, ...)                                                         \
	__kunit_printk(test, KUNIT_SUBTEST_INDENT "# %s: " fmt, (test)->name, ##__VA_ARGS__)
#define kunit_info(test, fmt, ...) kunit_printk(KERN_INFO, test, fmt, ##__VA_ARGS__)
#define kunit_warn(test, fmt, ...) kunit_printk(KERN_WARNING, test, fmt, ##__VA_ARGS__)
#define kunit_err(test, fmt, ...) kunit_printk(KERN_ERR, test, fmt, ##__VA_ARGS__)
#define kunit_log(lvl, test, fmt, ...) __kunit_printk(test, fmt, ##__VA_ARGS__)

#define kunit_kmalloc(test, size, gfp) kunit_kmalloc_array(test, 1, size, gfp)
#define kunit_kzalloc(test, size, gfp) kunit_kmalloc(test, size, (gfp) | __GFP_ZERO)
#define kunit_kcalloc(test, n, size, gfp) kunit_kmalloc_array(test, n, size, (gfp) | __GFP_ZERO)

#define kunit_skip(test, fmt, ...)                                                                \
	do {                                                                                      \
		kunit_mark_skipped(test, fmt, ##__VA_ARGS__);                                     \
		__kunit_abort(test);                                                              \
	} while (0)

/* Each failure report, then for an assertion, leaving the case. */
#define __KUNIT_END(test, type)                                                                   \
	do {                                                                                      \
		if ((type) == KUNIT_ASSERTION)                                                     \
			__kunit_abort(test);                                                      \
	} while (0)

#define KUNIT_SUCCEED(test) do { } while (0)
#define KUNIT_FAIL(test, fmt, ...)                                                                \
	__kunit_fail(test, KUNIT_EXPECTATION, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

#define __KUNIT_UNARY(test, type, cond, expect, fmt, ...)                                        \
	do {                                                                                      \
		if ((bool)(cond) != (bool)(expect)) {                                             \
			__kunit_fail_unary(test, type, __FILE__, __LINE__, #cond, expect, fmt,     \
					   ##__VA_ARGS__);                                         \
			__KUNIT_END(test, type);                                                  \
		}                                                                                 \
	} while (0)

#define __KUNIT_INT(test, type, left, op, right, fmt, ...)                                       \
	do {                                                                                      \
		const __typeof__(left) __left = (left);                                           \
		const __typeof__(right) __right = (right);                                        \
		if (!(__left op __right)) {                                                       \
			__kunit_fail_binary_int(test, type, __FILE__, __LINE__, #left, #op,        \
						#right, (long long)__left, (long long)__right,    \
						fmt, ##__VA_ARGS__);                              \
			__KUNIT_END(test, type);                                                  \
		}                                                                                 \
	} while (0)

#define __KUNIT_PTR(test, type, left, op, right, fmt, ...)                                       \
	do {                                                                                      \
		const void *__left = (const void *)(left);                                        \
		const void *__right = (const void *)(right);                                      \
		if (!(__left op __right)) {                                                       \
			__kunit_fail_binary_ptr(test, type, __FILE__, __LINE__, #left, #op,        \
						#right, __left, __right, fmt, ##__VA_ARGS__);     \
			__KUNIT_END(test, type);                                                  \
		}                                                                                 \
	} while (0)

#define __KUNIT_STR(test, type, left, op, right, fmt, ...)                                       \
	do {                                                                                      \
		const char *__left = (left);                                                      \
		const char *__right = (right);                                                    \
		if (!(__left && __right && strcmp(__left, __right) op 0)) {                       \
			__kunit_fail_binary_str(test, type, __FILE__, __LINE__, #left, #op,        \
						#right, __left, __right, fmt, ##__VA_ARGS__);     \
			__KUNIT_END(test, type);                                                  \
		}                                                                                 \
	} while (0)

#define __KUNIT_MEM(test, type, left, op, right, size, fmt, ...)                                 \
	do {                                                                                      \
		const void *__left = (left);                                                      \
		const void *__right = (right);                                                    \
		const size_t __size = (size);                                                     \
		if (!(__left && __right && memcmp(__left, __right, __size) op 0)) {               \
			__kunit_fail_mem(test, type, __FILE__, __LINE__, #left, #op, #right,       \
					 __left, __right, __size, fmt, ##__VA_ARGS__);            \
			__KUNIT_END(test, type);                                                  \
		}                                                                                 \
	} while (0)

#define __KUNIT_PTRCHK(test, type, ptr, want_null, bad, fmt, ...)                                \
	do {                                                                                      \
		const void *__ptr = (const void *)(ptr);                                          \
		if (bad) {                                                                        \
			__kunit_fail_ptr(test, type, __FILE__, __LINE__, #ptr, __ptr, want_null,   \
					 fmt, ##__VA_ARGS__);                                      \
			__KUNIT_END(test, type);                                                  \
		}                                                                                 \
	} while (0)

/* The EXPECT and ASSERT flavours, each with a _MSG variant, spelt out for grep. */
#define KUNIT_EXPECT_TRUE(t, c) __KUNIT_UNARY(t, KUNIT_EXPECTATION, c, true, NULL)
#define KUNIT_EXPECT_TRUE_MSG(t, c, f, ...) __KUNIT_UNARY(t, KUNIT_EXPECTATION, c, true, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_FALSE(t, c) __KUNIT_UNARY(t, KUNIT_EXPECTATION, c, false, NULL)
#define KUNIT_EXPECT_FALSE_MSG(t, c, f, ...) __KUNIT_UNARY(t, KUNIT_EXPECTATION, c, false, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_TRUE(t, c) __KUNIT_UNARY(t, KUNIT_ASSERTION, c, true, NULL)
#define KUNIT_ASSERT_TRUE_MSG(t, c, f, ...) __KUNIT_UNARY(t, KUNIT_ASSERTION, c, true, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_FALSE(t, c) __KUNIT_UNARY(t, KUNIT_ASSERTION, c, false, NULL)
#define KUNIT_ASSERT_FALSE_MSG(t, c, f, ...) __KUNIT_UNARY(t, KUNIT_ASSERTION, c, false, f, ##__VA_ARGS__)

#define KUNIT_EXPECT_EQ(t, l, r) __KUNIT_INT(t, KUNIT_EXPECTATION, l, ==, r, NULL)
#define KUNIT_EXPECT_NE(t, l, r) __KUNIT_INT(t, KUNIT_EXPECTATION, l, !=, r, NULL)
#define KUNIT_EXPECT_LT(t, l, r) __KUNIT_INT(t, KUNIT_EXPECTATION, l, <, r, NULL)
#define KUNIT_EXPECT_LE(t, l, r) __KUNIT_INT(t, KUNIT_EXPECTATION, l, <=, r, NULL)
#define KUNIT_EXPECT_GT(t, l, r) __KUNIT_INT(t, KUNIT_EXPECTATION, l, >, r, NULL)
#define KUNIT_EXPECT_GE(t, l, r) __KUNIT_INT(t, KUNIT_EXPECTATION, l, >=, r, NULL)
#define KUNIT_EXPECT_EQ_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_EXPECTATION, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_NE_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_EXPECTATION, l, !=, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_LT_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_EXPECTATION, l, <, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_LE_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_EXPECTATION, l, <=, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_GT_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_EXPECTATION, l, >, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_GE_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_EXPECTATION, l, >=, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_EQ(t, l, r) __KUNIT_INT(t, KUNIT_ASSERTION, l, ==, r, NULL)
#define KUNIT_ASSERT_NE(t, l, r) __KUNIT_INT(t, KUNIT_ASSERTION, l, !=, r, NULL)
#define KUNIT_ASSERT_LT(t, l, r) __KUNIT_INT(t, KUNIT_ASSERTION, l, <, r, NULL)
#define KUNIT_ASSERT_LE(t, l, r) __KUNIT_INT(t, KUNIT_ASSERTION, l, <=, r, NULL)
#define KUNIT_ASSERT_GT(t, l, r) __KUNIT_INT(t, KUNIT_ASSERTION, l, >, r, NULL)
#define KUNIT_ASSERT_GE(t, l, r) __KUNIT_INT(t, KUNIT_ASSERTION, l, >=, r, NULL)
#define KUNIT_ASSERT_EQ_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_ASSERTION, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_NE_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_ASSERTION, l, !=, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_LT_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_ASSERTION, l, <, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_LE_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_ASSERTION, l, <=, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_GT_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_ASSERTION, l, >, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_GE_MSG(t, l, r, f, ...) __KUNIT_INT(t, KUNIT_ASSERTION, l, >=, r, f, ##__VA_ARGS__)

#define KUNIT_EXPECT_PTR_EQ(t, l, r) __KUNIT_PTR(t, KUNIT_EXPECTATION, l, ==, r, NULL)
#define KUNIT_EXPECT_PTR_NE(t, l, r) __KUNIT_PTR(t, KUNIT_EXPECTATION, l, !=, r, NULL)
#define KUNIT_EXPECT_PTR_EQ_MSG(t, l, r, f, ...) __KUNIT_PTR(t, KUNIT_EXPECTATION, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_PTR_NE_MSG(t, l, r, f, ...) __KUNIT_PTR(t, KUNIT_EXPECTATION, l, !=, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_EQ(t, l, r) __KUNIT_PTR(t, KUNIT_ASSERTION, l, ==, r, NULL)
#define KUNIT_ASSERT_PTR_NE(t, l, r) __KUNIT_PTR(t, KUNIT_ASSERTION, l, !=, r, NULL)
#define KUNIT_ASSERT_PTR_EQ_MSG(t, l, r, f, ...) __KUNIT_PTR(t, KUNIT_ASSERTION, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_PTR_NE_MSG(t, l, r, f, ...) __KUNIT_PTR(t, KUNIT_ASSERTION, l, !=, r, f, ##__VA_ARGS__)

#define KUNIT_EXPECT_STREQ(t, l, r) __KUNIT_STR(t, KUNIT_EXPECTATION, l, ==, r, NULL)
#define KUNIT_EXPECT_STRNEQ(t, l, r) __KUNIT_STR(t, KUNIT_EXPECTATION, l, !=, r, NULL)
#define KUNIT_EXPECT_STREQ_MSG(t, l, r, f, ...) __KUNIT_STR(t, KUNIT_EXPECTATION, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_STRNEQ_MSG(t, l, r, f, ...) __KUNIT_STR(t, KUNIT_EXPECTATION, l, !=, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_STREQ(t, l, r) __KUNIT_STR(t, KUNIT_ASSERTION, l, ==, r, NULL)
#define KUNIT_ASSERT_STRNEQ(t, l, r) __KUNIT_STR(t, KUNIT_ASSERTION, l, !=, r, NULL)
#define KUNIT_ASSERT_STREQ_MSG(t, l, r, f, ...) __KUNIT_STR(t, KUNIT_ASSERTION, l, ==, r, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_STRNEQ_MSG(t, l, r, f, ...) __KUNIT_STR(t, KUNIT_ASSERTION, l, !=, r, f, ##__VA_ARGS__)

#define KUNIT_EXPECT_MEMEQ(t, l, r, n) __KUNIT_MEM(t, KUNIT_EXPECTATION, l, ==, r, n, NULL)
#define KUNIT_EXPECT_MEMNEQ(t, l, r, n) __KUNIT_MEM(t, KUNIT_EXPECTATION, l, !=, r, n, NULL)
#define KUNIT_EXPECT_MEMEQ_MSG(t, l, r, n, f, ...) __KUNIT_MEM(t, KUNIT_EXPECTATION, l, ==, r, n, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_MEMEQ(t, l, r, n) __KUNIT_MEM(t, KUNIT_ASSERTION, l, ==, r, n, NULL)
#define KUNIT_ASSERT_MEMNEQ(t, l, r, n) __KUNIT_MEM(t, KUNIT_ASSERTION, l, !=, r, n, NULL)

#define KUNIT_EXPECT_NULL(t, p) __KUNIT_PTRCHK(t, KUNIT_EXPECTATION, p, true, __ptr != NULL, NULL)
#define KUNIT_EXPECT_NULL_MSG(t, p, f, ...) __KUNIT_PTRCHK(t, KUNIT_EXPECTATION, p, true, __ptr != NULL, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_NULL(t, p) __KUNIT_PTRCHK(t, KUNIT_EXPECTATION, p, false, __ptr == NULL, NULL)
#define KUNIT_EXPECT_NOT_NULL_MSG(t, p, f, ...) __KUNIT_PTRCHK(t, KUNIT_EXPECTATION, p, false, __ptr == NULL, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_NULL(t, p) __KUNIT_PTRCHK(t, KUNIT_ASSERTION, p, true, __ptr != NULL, NULL)
#define KUNIT_ASSERT_NULL_MSG(t, p, f, ...) __KUNIT_PTRCHK(t, KUNIT_ASSERTION, p, true, __ptr != NULL, f, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_NULL(t, p) __KUNIT_PTRCHK(t, KUNIT_ASSERTION, p, false, __ptr == NULL, NULL)
#define KUNIT_ASSERT_NOT_NULL_MSG(t, p, f, ...) __KUNIT_PTRCHK(t, KUNIT_ASSERTION, p, false, __ptr == NULL, f, ##__VA_ARGS__)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL(t, p) __KUNIT_PTRCHK(t, KUNIT_EXPECTATION, p, false, IS_ERR_OR_NULL(__ptr), NULL)
#define KUNIT_EXPECT_NOT_ERR_OR_NULL_MSG(t, p, f, ...) __KUNIT_PTRCHK(t, KUNIT_EXPECTATION, p, false, IS_ERR_OR_NULL(__ptr), f, ##__VA_ARGS__)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL(t, p) __KUNIT_PTRCHK(t, KUNIT_ASSERTION, p, false, IS_ERR_OR_NULL(__ptr), NULL)
#define KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(t, p, f, ...) __KUNIT_PTRCHK(t, KUNIT_ASSERTION, p, false, IS_ERR_OR_NULL(__ptr), f, ##__VA_ARGS__)

#endif /* KFSIM_COMPAT_KUNIT_TEST_H */
