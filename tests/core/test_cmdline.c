// SPDX-License-Identifier: MIT
/* Kernel command line parsing (good, unknown, malformed) and the kernel version setting. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/moduleparam.h>
#include "support/cli_run.h"
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
	assert_int_equal(kfsim_cmdline_parse("  loglevel=3   panic-on-warn=1 \"cgroup.memory=a b\" "
					     "loglevel=0 foo=\"x y\""), 0);
	assert_string_equal(kfsim_cmdline_get("loglevel"), "0");
	assert_string_equal(kfsim_cmdline_get("panic_on_warn"), "1");
	assert_int_equal(panic_on_warn, 1);
	assert_string_equal(kfsim_cmdline_get("cgroup.memory"), "a b");
	assert_string_equal(kfsim_cmdline_get("foo"), "x y");
	kfsim_cmdline_reset();
	assert_int_equal(panic_on_warn, 0);
}

/* kernel/panic.c core_param(panic_on_warn, int): any int, and a value is required. */
static void test_panic_on_warn_is_an_int(void **state)
{
	u64 mark = log_mark();

	assert_int_equal(kfsim_cmdline_parse("panic_on_warn=2"), 0);
	assert_int_equal(panic_on_warn, 2);
	assert_int_equal(kfsim_cmdline_parse("panic_on_warn"), 0);	/* refused, the line stands */
	assert_int_equal(panic_on_warn, 0);
	assert_logged(mark, "Booting kernel: `' invalid for parameter `panic_on_warn'", 1);
	assert_int_equal(kfsim_cmdline_parse("panic_on_warn=yes quiet"), 0);
	assert_logged(mark, "Booting kernel: `yes' invalid for parameter `panic_on_warn'", 1);
	assert_int_equal(panic_on_warn, 0);
	assert_non_null(kfsim_cmdline_get("quiet"));
	assert_int_equal(kfsim_cmdline_parse_strict("panic_on_warn"), -EINVAL);
}

/* init/main.c: debug = 10, quiet = 4, loglevel= any int, ignore_loglevel separate and sticky. */
static void test_console_options(void **state)
{
	u64 mark = log_mark();

	kfsim_console_loglevel_set(7);
	assert_int_equal(kfsim_cmdline_parse("debug"), 0);
	assert_int_equal(kfsim_console_loglevel_set(0), CONSOLE_LOGLEVEL_DEBUG);
	assert_int_equal(kfsim_cmdline_parse("quiet"), 0);
	assert_int_equal(kfsim_console_loglevel_set(0), CONSOLE_LOGLEVEL_QUIET);
	assert_int_equal(kfsim_cmdline_parse("loglevel=12"), 0);
	assert_int_equal(kfsim_console_loglevel_set(0), 12);
	assert_int_equal(kfsim_cmdline_parse("loglevel=-1"), 0);
	assert_int_equal(kfsim_console_loglevel_set(0), -1);
	assert_int_equal(kfsim_cmdline_parse("loglevel=3x"), 0);	/* get_option() reads 3 */
	assert_int_equal(kfsim_console_loglevel_set(0), 3);
	/* ignore_loglevel is not a console level: a later loglevel= does not cancel it */
	assert_int_equal(kfsim_cmdline_parse("ignore_loglevel loglevel=1"), 0);
	assert_true(kfsim_console_ignore_loglevel_set(false));
	assert_int_equal(kfsim_console_loglevel_set(0), 1);
	assert_logged(mark, "debug: ignoring loglevel setting.", 1);
	/* and its module parameter twin (kernel/printk/printk.c module_param(ignore_loglevel)) */
	assert_int_equal(kfsim_cmdline_parse("printk.ignore_loglevel=1"), 0);
	assert_true(kfsim_console_ignore_loglevel_set(false));
	assert_int_equal(kfsim_cmdline_parse("printk.ignore_loglevel=maybe"), 0);
	assert_logged(mark, "Booting kernel: `maybe' invalid for parameter `printk.ignore_loglevel'", 1);
	assert_false(kfsim_console_ignore_loglevel_set(false));
}

/* A malformed early option is a warning; the rest of the line still applies. */
static void test_malformed_early_option_is_a_warning(void **state)
{
	u64 mark = log_mark();

	kfsim_console_loglevel_set(5);
	assert_int_equal(kfsim_cmdline_parse("loglevel=x cgroup.memory=nobpf loglevel"), 0);
	assert_logged(mark, "Malformed early option 'loglevel'", 2);
	assert_true(kfsim_cmdline_has_option("cgroup.memory", "nobpf"));
	assert_int_equal(kfsim_console_loglevel_set(0), 5);	/* unchanged */
	assert_string_equal(kfsim_cmdline_unknown(), "");
}

/* print_unknown_bootoptions(): argv words first, then environment words (last value wins). */
static void test_unknown_order_argv_then_env(void **state)
{
	u64 mark = log_mark();

	assert_int_equal(kfsim_cmdline_parse("A=1 foo B=2 A=3 bar TERM=vt100 =x"), 0);
	assert_string_equal(kfsim_cmdline_unknown(), "foo bar =x A=3 B=2");
	assert_logged(mark, "Unknown kernel command line parameters \"foo bar =x A=3 B=2\", will be "
			    "passed to user space.", 1);
	/* bootloader identifiers are not reported */
	assert_int_equal(kfsim_cmdline_parse("BOOT_IMAGE=/vmlinuz kexec x"), 0);
	assert_string_equal(kfsim_cmdline_unknown(), "x");
}

/* next_arg(): an unterminated quote is accepted as the kernel accepts it. */
static void test_lenient_quotes(void **state)
{
	assert_int_equal(kfsim_cmdline_parse("foo=bar \""), 0);
	assert_string_equal(kfsim_cmdline_get("foo"), "bar");
	assert_int_equal(kfsim_cmdline_parse("quiet foo=\"unterminated value"), 0);
	assert_string_equal(kfsim_cmdline_get("foo"), "unterminated value");
	assert_int_equal(kfsim_cmdline_parse_strict("foo=bar \""), -EINVAL);
}

static void test_init_limits(void **state)
{
	char line[COMMAND_LINE_SIZE];
	size_t used = 0;

	for (int i = 0; i < 40; i++)
		used += (size_t)snprintf(line + used, sizeof(line) - used, "w%d ", i);
	assert_int_equal(kfsim_cmdline_parse("quiet"), 0);
	assert_int_equal(kfsim_cmdline_parse(line), -E2BIG);	/* 40 argv words: init's limit is 32 */
	assert_string_equal(kfsim_cmdline_text(), "quiet");
}

static unsigned int test_nnodes = 100;
static bool test_check;
static char *test_name = "default";
static const struct kernel_param testmod_params[] = {
	KFSIM_PARAM_NAMED(testmod, nnodes, test_nnodes, uint, 0444),
	KFSIM_PARAM_NAMED(testmod, check, test_check, bool, 0644),
	KFSIM_PARAM_NAMED(testmod, name, test_name, charp, 0644),
};

/* A module's parameters, declared in its own table: set from the line, checked by type. */
static void test_module_params(void **state)
{
	u64 mark = log_mark();

	assert_int_equal(kfsim_module_params_register("testmod", testmod_params, 3), 0);
	assert_int_equal(kfsim_cmdline_parse("testmod.nnodes=7 testmod.check testmod.name=x"), 0);
	assert_int_equal(test_nnodes, 7);
	assert_true(test_check);
	assert_string_equal(test_name, "x");
	assert_int_equal(kfsim_cmdline_parse("testmod.nnodes=-1 testmod.check=n testmod.bogus=1"), 0);
	assert_logged(mark, "Booting kernel: `-1' invalid for parameter `testmod.nnodes'", 1);
	assert_logged(mark, "testmod: unknown parameter 'bogus' ignored", 1);
	assert_int_equal(test_nnodes, 7);
	assert_false(test_check);
	assert_int_equal(kfsim_cmdline_parse_strict("testmod.nnodes=x"), -EINVAL);
	assert_int_equal(test_nnodes, 7);
	assert_int_equal(kfsim_module_params_register("bad.name", NULL, 0), -EINVAL);
	assert_int_equal(kfsim_module_params_register("", NULL, 0), -EINVAL);
}

static void test_unknown_parameters_reported_like_the_kernel(void **state)
{
	u64 mark = log_mark();

	assert_int_equal(kfsim_module_params_register("bfq", NULL, 0), 0);
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

	/* kfsim's opt-in strict parse refuses what the kernel only warns about */
	assert_int_equal(kfsim_cmdline_parse("cgroup.memory=nobpf"), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(kfsim_cmdline_parse_strict(bad[i]), -EINVAL);
		assert_true(kfsim_cmdline_has_option("cgroup.memory", "nobpf"));
		assert_string_equal(kfsim_cmdline_text(), "cgroup.memory=nobpf");
	}
	assert_logged(mark, "Malformed early option 'loglevel'", 2);
	assert_logged(mark, "unterminated quote", 1);
	assert_int_equal(kfsim_cmdline_parse(NULL), -EINVAL);
}

/* The kernel's own __setup()/early_param() words are consumed, not passed to init. */
static void test_kernel_setup_words_are_not_for_init(void **state)
{
	assert_int_equal(kfsim_cmdline_parse("console=ttyS0 root=/dev/vda ro quiet splash mem=4G "
					     "nosmp panic=10 init=/bin/sh rdinit=/init"),
			 0);
	assert_string_equal(kfsim_cmdline_unknown(), "splash");
	assert_string_equal(kfsim_cmdline_get("root"), "/dev/vda");
	/* the handlers' own rules: "root" needs its '=', "ro"/"rootwait" refuse trailing text */
	assert_int_equal(kfsim_cmdline_parse("root rootwait=1 ro=1 rootwait Console=x"), 0);
	assert_string_equal(kfsim_cmdline_unknown(), "root rootwait=1 ro=1 Console=x");
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

static int run_init_result;
static bool run_exit_called;

static int run_init(void)
{
	if (run_init_result == 1) {
		WARN_ON(1);
		return 0;
	}
	return run_init_result;
}

static void run_exit(void)
{
	run_exit_called = true;
}

/* A module as a program: insmod-style "param=value", init, exit, and insmod's exit codes. */
static void test_module_run(void **state)
{
	char *argv[] = { "prog", "nnodes=5", "runmod.check", "quiet", NULL };

	assert_int_equal(kfsim_module_params_register("runmod", testmod_params, 3), 0);
	test_nnodes = 100;
	test_check = false;
	run_init_result = 0;
	run_exit_called = false;
	assert_int_equal(kfsim_module_run("runmod", run_init, run_exit, 4, argv), 0);
	assert_int_equal(test_nnodes, 5);	/* a bare "nnodes=5" is this module's, as insmod */
	assert_true(test_check);
	assert_true(run_exit_called);	/* init succeeded: the module is unloaded again */
	run_exit_called = false;
	run_init_result = -ENOMEM;
	assert_int_equal(kfsim_module_run("runmod", run_init, run_exit, 1, argv), 2);
	assert_false(run_exit_called);	/* a failed init is never followed by exit */
	run_init_result = 1;	/* WARNs */
	assert_int_equal(kfsim_module_run("runmod", run_init, run_exit, 1, argv), 1);
	assert_int_equal(kfsim_module_run("runmod", NULL, NULL, 1, argv), 0);
}

/* issue #21 item 9: the kfsim program shows the panic report before dying of SIGABRT. */
static void test_cli_panic_on_warn_prints_the_report(void **state)
{
	static const char *const panics[] = { "--cmdline", "panic_on_warn=1", "refcount", "demo",
					      NULL };
	static const char *const bare[] = { "--cmdline", "panic_on_warn", "refcount", "demo",
					    NULL };
	struct cli_result r;

	assert_int_equal(cli_run(&r, panics), 0);
	assert_int_equal(r.status, 128 + 6);	/* SIGABRT: 134 in a shell */
	assert_non_null(strstr(r.err, "------------[ cut here ]------------"));
	assert_non_null(strstr(r.err, "WARNING: CPU: 0 PID: "));
	assert_non_null(strstr(r.err, "Kernel panic - not syncing: kernel: panic_on_warn set ..."));
	assert_non_null(strstr(r.err, "---[ end Kernel panic - not syncing: kernel: panic_on_warn set ... ]---"));
	cli_result_free(&r);
	/* a bare panic_on_warn is refused (an int needs a value): one line, exit 2 */
	assert_int_equal(cli_run(&r, bare), 0);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	cli_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_known_parameters_are_stored, setup),
		cmocka_unit_test_setup(test_quotes_dashes_and_last_wins, setup),
		cmocka_unit_test_setup(test_panic_on_warn_is_an_int, setup),
		cmocka_unit_test_setup(test_console_options, setup),
		cmocka_unit_test_setup(test_malformed_early_option_is_a_warning, setup),
		cmocka_unit_test_setup(test_unknown_order_argv_then_env, setup),
		cmocka_unit_test_setup(test_lenient_quotes, setup),
		cmocka_unit_test_setup(test_init_limits, setup),
		cmocka_unit_test_setup(test_module_params, setup),
		cmocka_unit_test_setup(test_module_run, setup),
		cmocka_unit_test_setup(test_cli_panic_on_warn_prints_the_report, setup),
		cmocka_unit_test_setup(test_unknown_parameters_reported_like_the_kernel, setup),
		cmocka_unit_test_setup(test_malformed_lines_change_nothing, setup),
		cmocka_unit_test_setup(test_too_long_line, setup),
		cmocka_unit_test_setup(test_empty_line_and_reset, setup),
		cmocka_unit_test_setup(test_kernel_setup_words_are_not_for_init, setup),
		cmocka_unit_test_setup(test_kernel_version_setting, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
