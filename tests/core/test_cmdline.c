// SPDX-License-Identifier: MIT
/* Kernel command line parsing (good, unknown, malformed) and the kernel version setting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include "support/log_assert.h"

static int setup(void **state)
{
	kfsim_cmdline_reset();
	kfsim_console_loglevel_set(0);
	return 0;
}

static void test_known_parameters_are_stored(void **state)
{
	assert_int_equal(kfsim_cmdline_parse("cgroup.memory=nokmem,nobpf panic_on_warn=0"), 0);
	assert_true(kfsim_cmdline_has_option("cgroup.memory", "nobpf"));
	assert_true(kfsim_cmdline_has_option("cgroup.memory", "nokmem"));
	assert_false(kfsim_cmdline_has_option("cgroup.memory", "nosocket"));
	assert_false(kfsim_cmdline_has_option("cgroup.memory", "nob"));
	assert_string_equal(kfsim_cmdline_get("panic_on_warn"), "0");
	assert_null(kfsim_cmdline_get("quiet"));
	assert_string_equal(kfsim_cmdline_text(), "cgroup.memory=nokmem,nobpf panic_on_warn=0");
	assert_string_equal(kfsim_cmdline_unknown(), "");
}

static void test_quotes_dashes_and_last_wins(void **state)
{
	assert_int_equal(kfsim_cmdline_parse("  loglevel=3   panic-on-warn \"cgroup.memory=a b\" "
					     "loglevel=0 foo=\"x y\""), 0);
	assert_string_equal(kfsim_cmdline_get("loglevel"), "0");
	assert_string_equal(kfsim_cmdline_get("panic_on_warn"), "");
	assert_string_equal(kfsim_cmdline_get("cgroup.memory"), "a b");
	assert_string_equal(kfsim_cmdline_get("foo"), "x y");
}

static void test_unknown_parameters_reported_like_the_kernel(void **state)
{
	u64 mark = log_mark();

	assert_int_equal(kfsim_cmdline_parse("foo bar=1 quiet vendor.knob=2 bfq.nonsense=1 -- "
					     "init_arg=5"), 0);
	assert_logged(mark, "Unknown kernel command line parameters \"foo bar=1\", will be passed "
			    "to user space.", 1);
	assert_logged(mark, "bfq: unknown parameter 'nonsense' ignored", 1);
	/* A module kfsim does not have: kept quietly; after "--": init's, not ours. */
	assert_string_equal(kfsim_cmdline_get("vendor.knob"), "2");
	assert_null(kfsim_cmdline_get("init_arg"));
	assert_string_equal(kfsim_cmdline_unknown(), "foo bar=1");
	assert_logged(mark, "vendor.knob", 0);
}

static void test_malformed_lines_change_nothing(void **state)
{
	static const char *const bad[] = {
		"quiet foo=\"unterminated",
		"=value",
		"loglevel=x",
		"loglevel",
		"panic_on_warn=maybe",
		"cgroup.memory",
	};
	u64 mark = log_mark();

	assert_int_equal(kfsim_cmdline_parse("cgroup.memory=nobpf"), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(kfsim_cmdline_parse(bad[i]), -EINVAL);
		assert_true(kfsim_cmdline_has_option("cgroup.memory", "nobpf"));
		assert_string_equal(kfsim_cmdline_text(), "cgroup.memory=nobpf");
	}
	assert_logged(mark, "Malformed early option 'loglevel'", 2);
	assert_logged(mark, "unterminated quote", 1);
	assert_int_equal(kfsim_cmdline_parse(NULL), -EINVAL);
}

static void test_too_long_line(void **state)
{
	char line[COMMAND_LINE_SIZE + 10];

	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	assert_int_equal(kfsim_cmdline_parse(line), -E2BIG);
	line[COMMAND_LINE_SIZE - 1] = '\0';
	assert_int_equal(kfsim_cmdline_parse(line), 0);
}

static void test_empty_line_and_reset(void **state)
{
	assert_int_equal(kfsim_cmdline_parse("quiet"), 0);
	assert_int_equal(kfsim_cmdline_parse("   "), 0);
	assert_null(kfsim_cmdline_get("quiet"));
	kfsim_cmdline_parse("quiet");
	kfsim_cmdline_reset();
	assert_null(kfsim_cmdline_get("quiet"));
	assert_string_equal(kfsim_cmdline_text(), "");
}

static void test_kernel_version_setting(void **state)
{
	unsigned int code;
	char buf[16];

	assert_int_equal(kfsim_kernel_version(), KFSIM_KERNEL_VERSION_DEFAULT);
	assert_int_equal(kfsim_kver_parse("6.3", &code), 0);
	assert_int_equal(code, KERNEL_VERSION(6, 3, 0));
	assert_int_equal(kfsim_kver_parse("6.12.7", &code), 0);
	assert_int_equal(code, KERNEL_VERSION(6, 12, 7));
	assert_string_equal(kfsim_kver_format(code, buf, sizeof(buf)), "6.12.7");
	assert_true(KERNEL_VERSION(6, 2, 255) < KERNEL_VERSION(6, 3, 0));
	assert_true(KERNEL_VERSION(5, 19, 0) < KERNEL_VERSION(6, 0, 0));
	assert_int_equal(KERNEL_VERSION(6, 1, 300), KERNEL_VERSION(6, 1, 255));

	static const char *const bad[] = { "6", "6.", "6.x", "6.3-rc1", "6.256", "x.3", "",
					   "6.3.1.2", " 6.3", "-6.3" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(kfsim_kver_parse(bad[i], &code), -EINVAL);

	assert_int_equal(kfsim_set_kernel_version(KERNEL_VERSION(6, 16, 0)), 0);
	assert_true(kfsim_kernel_at_least(6, 4));
	assert_true(kfsim_kernel_at_least(6, 16));
	assert_false(kfsim_kernel_at_least(6, 17));
	assert_int_equal(kfsim_set_kernel_version(KERNEL_VERSION(3, 19, 0)), -EINVAL);
	assert_int_equal(kfsim_kernel_version(), KERNEL_VERSION(6, 16, 0));
	assert_int_equal(kfsim_set_kernel_version(KFSIM_KERNEL_VERSION_DEFAULT), 0);
	assert_false(kfsim_kernel_at_least(6, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_known_parameters_are_stored, setup),
		cmocka_unit_test_setup(test_quotes_dashes_and_last_wins, setup),
		cmocka_unit_test_setup(test_unknown_parameters_reported_like_the_kernel, setup),
		cmocka_unit_test_setup(test_malformed_lines_change_nothing, setup),
		cmocka_unit_test_setup(test_too_long_line, setup),
		cmocka_unit_test_setup(test_empty_line_and_reset, setup),
		cmocka_unit_test_setup(test_kernel_version_setting, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
