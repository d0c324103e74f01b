/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_KUNIT_H
#define KFSIM_KUNIT_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * KUnit (include/kunit/test.h, lib/kunit/; Linux 6.12) as a userspace runner, so that the kernel's
 * own KUnit suites run unchanged against kfsim: suites of cases, KUNIT_EXPECT_*() (the case goes
 * on) and KUNIT_ASSERT_*() (the case stops), parameterised cases, skips, kunit_kzalloc() memory
 * freed after each case.  Results are printed in KTAP version 1 on stdout, with the kernel's
 * lines ("    # Subtest: cmdline", "    ok 1 cmdline_test_noint", "# Totals: pass:8 fail:0
 * skip:0 total:8") and failure reports ("    # case: EXPECTATION FAILED at file:line").
 * Include <kunit/test.h> from the compatibility folder, not this header; kunit_test_suite()
 * then gives the program a main() that runs every suite (define KFSIM_NO_KUNIT_MAIN to write
 * your own and call kfsim_kunit_run_all()).
 *
 * A case runs in the calling thread; an assertion leaves it with longjmp(), so a case must not
 * hold locks or __free() variables across a KUNIT_ASSERT_*() (the kernel's cases run in a
 * kthread that is killed instead).
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/kernel.h>

#define KUNIT_PARAM_DESC_SIZE 128
#define KUNIT_LOG_SIZE 2048
#define KUNIT_INDENT_LEN 4
#define KUNIT_SUBTEST_INDENT "    "
#define KUNIT_SUBSUBTEST_INDENT "        "

enum kunit_status { KUNIT_SUCCESS, KUNIT_FAILURE, KUNIT_SKIPPED };
enum kunit_assert_type { KUNIT_ASSERTION, KUNIT_EXPECTATION };

struct kunit_alloc;

/**
 * struct kunit - the state of one running case
 * @priv: for the suite's init/exit and the case
 * @name: the case's name
 * @param_value: the current parameter of a parameterised case
 * @param_index: its index
 * @status: KUNIT_SUCCESS until an expectation fails or the case skips
 * @status_comment: the skip reason
 */
struct kunit {
	void *priv;
	const char *name;
	const void *param_value;
	int param_index;
	enum kunit_status status;
	char status_comment[256];
	/* private to the runner */
	jmp_buf __abort;
	struct kunit_alloc *__allocs;
};

/** struct kunit_case - one test case: KUNIT_CASE(fn) or KUNIT_CASE_PARAM(fn, gen_params) */
struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
	const void *(*generate_params)(const void *prev, char *desc);
	enum kunit_status status;
};

/** struct kunit_suite - a named array of cases ending with {} and optional hooks */
struct kunit_suite {
	const char name[256];
	int (*suite_init)(struct kunit_suite *suite);
	void (*suite_exit)(struct kunit_suite *suite);
	int (*init)(struct kunit *test);
	void (*exit)(struct kunit *test);
	struct kunit_case *test_cases;
};

#define KUNIT_CASE(test_name) { .run_case = test_name, .name = #test_name }
#define KUNIT_CASE_SLOW(test_name) KUNIT_CASE(test_name)
#define KUNIT_CASE_PARAM(test_name, gen_params)                                                   \
	{ .run_case = test_name, .name = #test_name, .generate_params = gen_params }

/**
 * KUNIT_ARRAY_PARAM() - define name##_gen_params() walking @array; @get_desc(elem, desc) names
 * each parameter (NULL: "param-N")
 */
#define KUNIT_ARRAY_PARAM(name, array, get_desc)                                                  \
	static const void *name##_gen_params(const void *prev, char *desc)                        \
	{                                                                                         \
		__typeof__((array)[0]) *__next = prev ? ((__typeof__(__next))prev) + 1 : (array); \
		void (*__get_desc)(__typeof__(__next), char *) = get_desc;                        \
		if (__next - (array) < (long)ARRAY_SIZE(array)) {                                 \
			if (__get_desc)                                                           \
				__get_desc(__next, desc);                                         \
			return __next;                                                            \
		}                                                                                 \
		return NULL;                                                                      \
	}

/**
 * kfsim_kunit_register() - add @suites (@n of them) to the program's list (kunit_test_suite())
 */
void kfsim_kunit_register(struct kunit_suite *const *suites, size_t n);

/**
 * kfsim_kunit_run_all() - run every registered suite, KTAP on stdout
 * @argc: main()'s arguments: "-h" for help, else a kernel command line for kfsim (loglevel=...)
 * @argv: and a suite filter: kunit.filter_glob=<suite>[.<case>] as the kernel takes it
 *
 * Return: 0 when every case passed or skipped, 1 when one failed, 2 for a bad command line.
 */
int kfsim_kunit_run_all(int argc, char **argv);

/* The failure reports (the macros of <kunit/test.h> call these). */
__printf(5, 6) void __kunit_fail(struct kunit *test, enum kunit_assert_type type,
				 const char *file, int line, const char *fmt, ...);
void __kunit_fail_binary_int(struct kunit *test, enum kunit_assert_type type, const char *file,
			     int line, const char *left, const char *op, const char *right,
			     long long lv, long long rv, const char *msgfmt, ...);
void __kunit_fail_binary_ptr(struct kunit *test, enum kunit_assert_type type, const char *file,
			     int line, const char *left, const char *op, const char *right,
			     const void *lv, const void *rv, const char *msgfmt, ...);
void __kunit_fail_binary_str(struct kunit *test, enum kunit_assert_type type, const char *file,
			     int line, const char *left, const char *op, const char *right,
			     const char *lv, const char *rv, const char *msgfmt, ...);
void __kunit_fail_unary(struct kunit *test, enum kunit_assert_type type, const char *file,
			int line, const char *cond, bool expected_true, const char *msgfmt, ...);
void __kunit_fail_ptr(struct kunit *test, enum kunit_assert_type type, const char *file,
		      int line, const char *text, const void *value, bool want_null,
		      const char *msgfmt, ...);
void __kunit_fail_mem(struct kunit *test, enum kunit_assert_type type, const char *file,
		      int line, const char *left, const char *op, const char *right,
		      const void *lv, const void *rv, size_t size, const char *msgfmt, ...);
/** __kunit_abort() - leave the running case (after a failed assertion). */
__noreturn void __kunit_abort(struct kunit *test);
/** kunit_mark_skipped() - mark the case skipped with a reason; it goes on running. */
__printf(2, 3) void kunit_mark_skipped(struct kunit *test, const char *fmt, ...);
/** kunit_log() - a line in the case's output ("    # <case>: ..." for kunit_info()/kunit_err()). */
__printf(2, 3) void __kunit_printk(struct kunit *test, const char *fmt, ...);

/** kunit_kmalloc_array() - kmalloc_array() freed when the case ends. */
void *kunit_kmalloc_array(struct kunit *test, size_t n, size_t size, unsigned int gfp);
/** kunit_kfree() - free kunit memory early. */
void kunit_kfree(struct kunit *test, const void *ptr);

#pragma GCC visibility pop
#endif /* KFSIM_KUNIT_H */
