// SPDX-License-Identifier: MIT
/* The kfsim program's global behaviour: help, version, exit statuses and messages, the tour. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/child_run.h"
#include "support/cli_assert.h"

#define RUN(result, ...) assert_int_equal(cli_run(result, (const char *const[]){ __VA_ARGS__, NULL }), 0)

static void test_help_and_version(void **state)
{
	struct cli_result r;

	RUN(&r, "--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Usage: kfsim"));
	assert_non_null(strstr(r.out, "  tour "));
	cli_result_free(&r);
	RUN(&r, "--version");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "kfsim 0."));
	assert_non_null(strstr(r.out, "Linux 6.3.0"));
	cli_result_free(&r);
	RUN(&r, "tour", "--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Usage: kfsim tour"));
	cli_result_free(&r);
}

static void test_bad_command_lines(void **state)
{
	struct cli_result r;

	RUN(&r, "nosuch");
	assert_usage_error(&r, "kfsim: unknown command 'nosuch'");
	RUN(&r, "--bogus");
	assert_usage_error(&r, "unknown option '--bogus'");
	RUN(&r, "--kver", "6.x", "tour");
	assert_usage_error(&r, "invalid value '6.x' for --kver");
	RUN(&r, "--kver=3.2", "tour");
	assert_usage_error(&r, "invalid value '3.2' for --kver");
	RUN(&r, "--kver");
	assert_usage_error(&r, "option '--kver' needs a value");
	RUN(&r, "--cmdline", "foo=\"open", "tour");
	assert_usage_error(&r, "invalid value for --cmdline");
	RUN(&r, "--cmdline");
	assert_usage_error(&r, "option '--cmdline' needs a value");
	RUN(&r, "--kver", "6.3");
	assert_usage_error(&r, "no command given");
	RUN(&r, "tour", "--bogus");
	assert_usage_error(&r, "kfsim tour: unknown option '--bogus'");
	RUN(&r, "tour", "--json=1");
	assert_usage_error(&r, "kfsim tour: option '--json' takes no value");
	RUN(&r, "tour", "--js=1");
	assert_usage_error(&r, "kfsim tour: option '--js' takes no value");
	RUN(&r, "tour", "--out");
	assert_usage_error(&r, "kfsim tour: option '--out' needs a value");
	RUN(&r, "tour", "--out", "");
	assert_usage_error(&r, "invalid value '' for --out");
	RUN(&r, "--version", "extra");
	assert_usage_error(&r, "kfsim: unexpected argument 'extra' after '--version'");
	RUN(&r, "--help", "tour");
	assert_usage_error(&r, "kfsim: unexpected argument 'tour' after '--help'");
	RUN(&r, "tour", "extra");
	assert_usage_error(&r, "unexpected argument 'extra'");
}

/* Numbers on the command line: decimal or 0x hex, nothing strtoull()/strtod() let through. */
static void test_number_values(void **state)
{
	struct cli_result r;

	RUN(&r, "plca", "sim", "--seed", " -1");	/* would wrap to 2^64 - 1 */
	assert_usage_error(&r, "invalid value ' -1' for --seed: expected an integer from 0 to");
	RUN(&r, "plca", "sim", "--nodes", "+3");
	assert_usage_error(&r, "invalid value '+3' for --nodes");
	RUN(&r, "plca", "sim", "--nodes", "0x");
	assert_usage_error(&r, "invalid value '0x' for --nodes");
	RUN(&r, "nl", "policy", "--family", "nlctrl", "--op", " 3");
	assert_usage_error(&r, "invalid value ' 3' for --op");
	RUN(&r, "plca", "sim", "--length", " 5");
	assert_usage_error(&r, "invalid value ' 5' for --length");
	RUN(&r, "plca", "sim", "--length", "0x10");
	assert_usage_error(&r, "invalid value '0x10' for --length: expected a number from 0 to 25");

	RUN(&r, "plca", "sim", "--nodes", "010", "--duration", "0x1");	/* ten, not octal */
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "segment: 10 nodes, plca"));
	assert_non_null(strstr(r.out, " 1 ms,"));
	cli_result_free(&r);
}

static void test_no_arguments_prints_help_to_stderr(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, (const char *const[]){ NULL }), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "Usage: kfsim"));
	cli_result_free(&r);
}

static void test_tour_runs_and_shows_dmesg(void **state)
{
	struct cli_result r;

	RUN(&r, "--cmdline", "cgroup.memory=nobpf foo", "tour", "--out", KFSIM_BINARY_DIR "/test-tour");
	if (r.status)
		print_error("%s\n%s", r.out, r.err);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "cgroup.memory=nobpf given: yes"));
	assert_non_null(strstr(r.out, "== Kernel log of this run (dmesg) =="));
	assert_non_null(strstr(r.out, "Unknown kernel command line parameters \"foo\""));
	assert_non_null(strstr(r.out, " failed\n"));
	assert_non_null(strstr(r.out, "steps, 0 failed"));
	cli_result_free(&r);
}

static void test_tour_json_is_one_document(void **state)
{
	struct cli_result r;

	RUN(&r, "--kver", "6.12", "tour", "--json", "--out", KFSIM_BINARY_DIR "/test-tour");
	assert_int_equal(r.status, 0);
	assert_int_equal(r.out[0], '{');
	assert_non_null(strstr(r.out, "\"kernel_version\": \"6.12.0\""));
	assert_non_null(strstr(r.out, "\"name\": \"core\""));
	assert_non_null(strstr(r.out, "\"dmesg\": ["));
	assert_null(strstr(r.out, "=="));	/* no narrative on stdout */
	assert_string_equal(r.out + strlen(r.out) - 2, "}\n");
	cli_result_free(&r);
}

static void test_tour_runtime_failure_exits_1(void **state)
{
	struct cli_result r;

	RUN(&r, "tour", "--out", "/proc/kfsim-cannot-create/x");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim tour: -ENOENT: cannot create output directory"));
	cli_result_free(&r);
	/* an existing file is not a directory: refused before any step writes */
	RUN(&r, "tour", "--out", KFSIM_CLI_PATH);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim tour: -ENOTDIR: cannot create output directory"));
	assert_int_equal(count_lines(r.err), 1);
	assert_string_equal(r.out, "");
	cli_result_free(&r);
}

/* In the child: kfsim with stdout on /dev/full. */
static int exec_to_dev_full(void *arg, int fd)
{
	const char *const *args = arg;
	const char *argv[16] = { KFSIM_CLI_PATH };
	int full = open("/dev/full", O_WRONLY);

	for (int i = 0; args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	dup2(full, STDOUT_FILENO);
	execv(KFSIM_CLI_PATH, (char *const *)argv);
	return 127;
}

/* Run kfsim with stdout on /dev/full; Return: the exit status, stderr in @err. */
static int run_to_dev_full(const char *const args[], char *err, size_t size)
{
	struct kfsim_child c = { .capture = KFSIM_CHILD_STDERR, .timeout_ms = 60000 };
	int status;

	assert_int_equal(kfsim_child_run(&c, exec_to_dev_full, (void *)args), 0);
	snprintf(err, size, "%s", c.err.data);
	status = WIFEXITED(c.status) ? WEXITSTATUS(c.status) : -1;
	kfsim_child_release(&c);
	return status;
}

/* Output that cannot be written is a runtime failure, not a success. */
static void test_unwritable_stdout_fails(void **state)
{
	struct stat st;
	char err[4096];

	if (stat("/dev/full", &st) || !S_ISCHR(st.st_mode))
		skip();
	assert_int_equal(run_to_dev_full((const char *const[]){ "--version", NULL }, err,
					 sizeof(err)), 1);
	assert_string_equal(err, "kfsim: -ENOSPC: cannot write standard output\n");
	assert_int_equal(run_to_dev_full((const char *const[]){ "nl", "policy", "--family",
								"nlctrl", NULL }, err, sizeof(err)), 1);
	assert_string_equal(err, "kfsim nl: -ENOSPC: cannot write standard output\n");
	assert_int_equal(run_to_dev_full((const char *const[]){ "refcount", "demo", "--json",
								NULL }, err, sizeof(err)), 1);
	assert_string_equal(err, "kfsim refcount: -EIO: cannot write the JSON document\n");
	/* a usage error keeps its own status */
	assert_int_equal(run_to_dev_full((const char *const[]){ "nosuch", NULL }, err,
					 sizeof(err)), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_and_version),
		cmocka_unit_test(test_bad_command_lines),
		cmocka_unit_test(test_number_values),
		cmocka_unit_test(test_no_arguments_prints_help_to_stderr),
		cmocka_unit_test(test_tour_runs_and_shows_dmesg),
		cmocka_unit_test(test_tour_json_is_one_document),
		cmocka_unit_test(test_tour_runtime_failure_exits_1),
		cmocka_unit_test(test_unwritable_stdout_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
