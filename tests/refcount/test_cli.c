// SPDX-License-Identifier: MIT
/*
 * "kfsim refcount demo": the walk's values and warnings, the JSON document, the kernel-version
 * switch, and the CLI rules for bad command lines.  Also the library walk itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/cmdline.h>
#include <kfsim/refcount.h>
#include <kfsim/refcount_demo.h>
#include "support/cli_run.h"
#include "support/log_assert.h"

static int setup(void **state)
{
	kfsim_console_loglevel_set(0);
	return 0;
}

static const struct kfsim_refcount_demo_step *find_step(const struct kfsim_refcount_demo_step *s,
							size_t n, const char *warning)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s[i].warning, warning))
			return &s[i];
	return NULL;
}

static void test_demo_walk_records_each_warning_once(void **state)
{
	struct kfsim_refcount_demo_step steps[KFSIM_REFCOUNT_DEMO_STEPS];
	const struct kfsim_refcount_demo_step *s;
	size_t n = kfsim_refcount_demo(steps);
	int warned = 0, atomic_early_free = 0;

	assert_true(n > 10 && n <= KFSIM_REFCOUNT_DEMO_STEPS);
	s = find_step(steps, n, "refcount_t: saturated; leaking memory.");
	assert_non_null(s);
	assert_int_equal(s->before, REFCOUNT_MAX);
	assert_int_equal(s->after, (u32)REFCOUNT_SATURATED);
	assert_int_equal(s->atomic_after, 0x80000000u);
	s = find_step(steps, n, "refcount_t: addition on 0; use-after-free.");
	assert_non_null(s);
	assert_int_equal(s->before, 0);
	s = find_step(steps, n, "refcount_t: decrement hit 0; leaking memory.");
	assert_non_null(s);
	assert_int_equal(s->before, 1);
	for (size_t i = 0; i < n; i++) {
		warned += steps[i].warning[0] != '\0';
		/* The point of saturation: where atomic_t frees early, refcount_t does not. */
		if (steps[i].atomic_freed && steps[i].returned == 0)
			atomic_early_free++;
	}
	assert_int_equal(warned, 5);
	assert_int_equal(atomic_early_free, 1);
}

static void expect_usage_error(const char *const args[], const char *message);

static void test_demo_text(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, (const char *const[]){ "refcount", "demo", NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "refcount_t as in Linux 6.3.0"));
	assert_non_null(strstr(r.out, "WARNING: refcount_t: saturated; leaking memory."));
	assert_non_null(strstr(r.out, "WARNING: refcount_t: addition on 0; use-after-free."));
	assert_non_null(strstr(r.out, "atomic_t: 0 (FREED)"));
	assert_string_equal(r.err, "");
	cli_result_free(&r);
}

static void test_demo_json_and_kernel_version(void **state)
{
	struct cli_result r;
	const char *last;

	assert_int_equal(cli_run(&r, (const char *const[]){ "refcount", "demo", "--json", NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.out[0], '{');
	assert_non_null(strstr(r.out, "\"refcount_saturated\": -1073741824"));
	assert_non_null(strstr(r.out, "\"warning\": \"refcount_t: underflow; use-after-free.\""));
	last = strstr(r.out, "refcount_sub_and_test(0, &obj)");
	assert_non_null(last);
	assert_non_null(strstr(last, "\"after\": 0,"));
	assert_non_null(strstr(last, "\"returned\": true"));
	assert_string_equal(r.err, "");
	cli_result_free(&r);

	assert_int_equal(cli_run(&r, (const char *const[]){ "--kver", "6.11", "refcount", "demo",
							    "--json", NULL }), 0);
	assert_int_equal(r.status, 0);
	last = strstr(r.out, "refcount_sub_and_test(0, &obj)");
	assert_non_null(last);
	assert_non_null(strstr(last, "\"after\": 3221225472"));
	assert_non_null(strstr(last, "\"returned\": false"));
	assert_non_null(strstr(last, "\"warning\": \"refcount_t: underflow; use-after-free.\""));
	cli_result_free(&r);
}

static void test_demo_svg(void **state)
{
	const char *path = KFSIM_BINARY_DIR "/refcount_demo_test.svg";
	struct cli_result r;
	char head[5] = "";
	FILE *svg;

	remove(path);
	assert_int_equal(cli_run(&r, (const char *const[]){ "refcount", "demo", "--svg", path,
							    NULL }), 0);
	assert_int_equal(r.status, 0);
	cli_result_free(&r);
	svg = fopen(path, "r");
	assert_non_null(svg);
	assert_int_equal(fread(head, 1, 4, svg), 4);
	assert_string_equal(head, "<svg");
	fclose(svg);
	remove(path);

	assert_int_equal(cli_run(&r, (const char *const[]){ "refcount", "demo", "--svg",
							    "/nonexistent-dir/x.svg", NULL }), 0);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim refcount: -ENOENT: cannot write"));
	cli_result_free(&r);
	expect_usage_error((const char *const[]){ "refcount", "demo", "--svg", NULL }, "--svg");
}

static void expect_usage_error(const char *const args[], const char *message)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, args), 0);
	assert_int_equal(r.status, 2);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, message));
	assert_ptr_equal(strchr(r.err, '\n'), r.err + strlen(r.err) - 1);	/* one line */
	cli_result_free(&r);
}

static void test_bad_command_lines(void **state)
{
	struct cli_result r;

	expect_usage_error((const char *const[]){ "refcount", NULL }, "missing subcommand");
	expect_usage_error((const char *const[]){ "refcount", "frob", NULL },
			   "unknown subcommand 'frob'");
	expect_usage_error((const char *const[]){ "refcount", "demo", "--bogus", NULL },
			   "'--bogus'");
	expect_usage_error((const char *const[]){ "refcount", "demo", "extra", NULL },
			   "unexpected argument 'extra'");
	assert_int_equal(cli_run(&r, (const char *const[]){ "refcount", "demo", "--help", NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Usage: kfsim"));
	cli_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demo_walk_records_each_warning_once),
		cmocka_unit_test(test_demo_text),
		cmocka_unit_test(test_demo_json_and_kernel_version),
		cmocka_unit_test(test_bad_command_lines),
		cmocka_unit_test(test_demo_svg),
	};

	return cmocka_run_group_tests_name("refcount_cli", tests, setup, NULL);
}
