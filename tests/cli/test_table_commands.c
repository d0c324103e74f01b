// SPDX-License-Identifier: MIT
/*
 * nl, kernel, exec and tour on their option tables (src/cli/cli_opts.c): every bad command line
 * is exit 2 with one line naming the option (unknown, missing value, out of range, wrong
 * subcommand, required, excluded, operands), --help works for every subcommand, and what a
 * table cannot hold is still right: 'nl decode HEX --json' (options after the operands) and
 * 'exec PROGRAM --its-option' (everything from the program on passed through untouched).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/kernel.h>
#include "support/cli_assert.h"

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

struct usage_case {
	const char *const *args;
	const char *message;
};

static void check_usage_cases(const struct usage_case *cases, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct cli_result r;

		assert_int_equal(cli_run(&r, cases[i].args), 0);
		if (!strstr(r.err, cases[i].message))
			print_error("case %zu: expected '%s'\n", i, cases[i].message);
		assert_usage_error(&r, cases[i].message);
	}
}

/* Help on stdout, nothing on stderr, exit 0, for each of @args' command lines. */
static void check_help(const char *const *args, const char *usage)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, args), 0);
	if (r.status || !strstr(r.out, usage))
		print_error("status %d, stdout: %.200s, stderr: %s", r.status, r.out, r.err);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, usage));
	assert_non_null(strstr(r.out, "  --help, -h "));
	assert_string_equal(r.err, "");
	cli_result_free(&r);
}

static void test_nl_bad_input(void **state)
{
	const struct usage_case cases[] = {
		{ ARGS("nl", "policy", "--bogus"), "kfsim nl: unknown option '--bogus'" },
		{ ARGS("nl", "policy", "--family"), "kfsim nl: option '--family' needs a value" },
		{ ARGS("nl", "decode", "--family", "kfsim_demo", "--op"),
		  "kfsim nl: option '--op' needs a value" },
		{ ARGS("nl", "policy", "--family", "nlctrl", "--op", "256"),
		  "kfsim nl: invalid value '256' for --op: expected an integer from 0 to 255" },
		{ ARGS("nl", "policy", "--family", "nlctrl", "--op", "-1"),
		  "invalid value '-1' for --op" },
		{ ARGS("nl", "policy", "--family", "0123456789abcdef"),
		  "invalid value '0123456789abcdef' for --family: expected a family name of 1 to "
		  "15 characters" },
		{ ARGS("nl", "policy", "--family", ""), "invalid value '' for --family" },
		{ ARGS("nl", "policy", "--family", "nlctrl", "--dump"),
		  "kfsim nl: option '--dump' is for 'kfsim nl decode' only" },
		{ ARGS("nl", "decode", "--family", "kfsim_demo", "--op", "2", "--kernel", "00"),
		  "kfsim nl: option '--kernel' is for 'kfsim nl policy' only" },
		{ ARGS("nl", "decode", "--family", "kfsim_demo", "--op", "2", "--server", "x", "00"),
		  "kfsim nl: option '--server' is for 'kfsim nl policy' only" },
		{ ARGS("nl", "policy", "--family", "nlctrl", "--kernel", "--server", "/tmp/x"),
		  "kfsim nl: options '--kernel' and '--server' exclude each other" },
		{ ARGS("nl", "policy", "--server", "/tmp/x", "--kernel", "--family", "nlctrl"),
		  "kfsim nl: options '--kernel' and '--server' exclude each other" },
		{ ARGS("nl", "policy"), "kfsim nl: option '--family' is required" },
		{ ARGS("nl", "decode", "--op", "2", "00"), "kfsim nl: option '--family' is required" },
		{ ARGS("nl", "decode", "--family", "kfsim_demo", "00"),
		  "kfsim nl: option '--op' is required for 'kfsim nl decode'" },
		{ ARGS("nl", "decode", "--family", "kfsim_demo", "--op", "2"),
		  "kfsim nl: missing HEX (see 'kfsim nl --help')" },
		{ ARGS("nl", "policy", "--family", "nlctrl", "extra"),
		  "kfsim nl: unexpected argument 'extra'" },
		{ ARGS("nl"), "kfsim nl: missing subcommand: expected policy or decode" },
		{ ARGS("nl", "frob"), "kfsim nl: unknown subcommand 'frob': expected policy or decode" },
		{ ARGS("nl", "policy", "--json=1", "--family", "nlctrl"),
		  "kfsim nl: option '--json' takes no value" },
	};

	check_usage_cases(cases, ARRAY_SIZE(cases));
	check_help(ARGS("nl", "--help"), "Usage: kfsim nl policy");
	check_help(ARGS("nl", "policy", "--help"), "Usage: kfsim nl policy");
	check_help(ARGS("nl", "decode", "-h"), "Usage: kfsim nl policy");
	check_help(ARGS("nl", "decode", "--family", "kfsim_demo", "--dump", "-h"), "Usage: kfsim nl");
}

/* The help lists the in-process families from the built-in table, and says what applies where. */
static void test_nl_help_text(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, ARGS("nl", "--help")), 0);
	assert_non_null(strstr(r.out, "In-process families: nlctrl, "));
	assert_non_null(strstr(r.out, "kfsim_demo"));
	assert_non_null(strstr(r.out, "  --dump "));
	assert_non_null(strstr(r.out, "[decode]\n"));
	assert_non_null(strstr(r.out, "[policy]\n"));
	cli_result_free(&r);
}

/* GNU permutation as before the table: options may follow the HEX words. */
static void test_nl_options_after_operands(void **state)
{
	struct cli_result before, after;

	assert_int_equal(cli_run(&before, ARGS("nl", "decode", "--family", "kfsim_demo", "--op",
					       "2", "--json", "0500 0600 fb000000")), 0);
	assert_int_equal(cli_run(&after, ARGS("nl", "decode", "0500 0600", "--family",
					      "kfsim_demo", "fb000000", "--op", "2", "--json")), 0);
	assert_int_equal(before.status, 0);
	assert_int_equal(after.status, 0);
	assert_non_null(strstr(before.out, "\"valid\": true"));
	assert_string_equal(before.out, after.out);
	cli_result_free(&before);
	cli_result_free(&after);
}

static void test_kernel_bad_input(void **state)
{
	const struct usage_case cases[] = {
		{ ARGS("kernel", "--bogus"), "kfsim kernel: unknown option '--bogus'" },
		{ ARGS("kernel", "--listen"), "kfsim kernel: option '--listen' needs a value" },
		{ ARGS("kernel", "--stop"), "kfsim kernel: option '--stop' needs a value" },
		{ ARGS("kernel", "--listen", ""), "kfsim kernel: invalid value '' for --listen" },
		{ ARGS("kernel", "--listen", "/tmp/x", "--config"),
		  "kfsim kernel: option '--config' needs a value" },
		{ ARGS("kernel", "--mode", "0999"),
		  "kfsim kernel: invalid value '0999' for --mode: expected octal permission bits "
		  "such as 0660" },
		{ ARGS("kernel", "--group", "no group"),
		  "kfsim kernel: invalid value 'no group' for --group: expected a group name or "
		  "number" },
		{ ARGS("kernel", "--stop", "/tmp/x", "--mode", "0600"),
		  "kfsim kernel: options '--mode' and '--stop' exclude each other" },
		{ ARGS("kernel", "--print-path", "--listen", "/tmp/x"),
		  "kfsim kernel: options '--print-path' and '--listen' exclude each other" },
		{ ARGS("kernel", "--stop", "/tmp/x", "--listen", "/tmp/y"),
		  "kfsim kernel: options '--stop' and '--listen' exclude each other" },
		{ ARGS("kernel", "--background", "--stop", "/tmp/x"),
		  "kfsim kernel: options '--stop' and '--background' exclude each other" },
		{ ARGS("kernel", "--stop", "/tmp/x", "--config", "c"),
		  "kfsim kernel: options '--stop' and '--config' exclude each other" },
		{ ARGS("kernel", "--listen", "/tmp/x", "extra"),
		  "kfsim kernel: unexpected argument 'extra'" },
		{ ARGS("kernel", "--background=1", "--listen", "/tmp/x"),
		  "kfsim kernel: option '--background' takes no value" },
	};

	check_usage_cases(cases, ARRAY_SIZE(cases));
	check_help(ARGS("kernel", "--help"), "Usage: kfsim kernel [--listen PATH]");
	check_help(ARGS("kernel", "--listen", "/tmp/x", "-h"), "Usage: kfsim kernel");
}

/* --stop of a socket nobody serves is a runtime failure (exit 1), not a usage error. */
static void test_kernel_stop_nothing(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, ARGS("kernel", "--stop", KFSIM_BINARY_DIR "/no-such.sock")), 0);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim kernel: -E"));
	assert_int_equal(count_lines(r.err), 1);
	cli_result_free(&r);
}

static void test_exec_bad_input(void **state)
{
	const struct usage_case cases[] = {
		{ ARGS("exec", "--bogus", "true"), "kfsim exec: unknown option '--bogus'" },
		{ ARGS("exec", "-x", "true"), "kfsim exec: unknown option '-x'" },
		{ ARGS("exec", "--server"), "kfsim exec: option '--server' needs a value" },
		{ ARGS("exec", "--server", "", "true"), "kfsim exec: invalid value '' for --server" },
		{ ARGS("exec"), "kfsim exec: missing PROGRAM (see 'kfsim exec --help')" },
		{ ARGS("exec", "--server", "/tmp/x"), "kfsim exec: missing PROGRAM" },
		{ ARGS("exec", "--"), "kfsim exec: missing PROGRAM" },
	};

	check_usage_cases(cases, ARRAY_SIZE(cases));
	check_help(ARGS("exec", "--help"), "Usage: kfsim exec [--server PATH] [--] PROGRAM");
	check_help(ARGS("exec", "--server", "/tmp/x", "-h", "true"), "Usage: kfsim exec");
}

/*
 * From the program on, nothing is kfsim's: its options reach it untouched, "--help" and "-h"
 * included, and with "--" even a program whose name starts with '-'.
 */
static void test_exec_passes_the_rest_through(void **state)
{
	struct cli_result r;

	setenv("KFSIM_NETLINK_SHIM", KFSIM_BINARY_DIR "/libkfsim-netlink.so", 1);
	assert_int_equal(cli_run(&r, ARGS("exec", "/bin/sh", "-c", "echo \"$*\"", "sh", "--server",
					  "x", "--help", "-h", "--", "--bogus")), 0);
	if (r.status)
		print_error("status %d: %s", r.status, r.err);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "--server x --help -h -- --bogus\n");
	cli_result_free(&r);

	assert_int_equal(cli_run(&r, ARGS("exec", "--", "/bin/sh", "-c", "echo \"$KFSIM_KERNEL.\"")),
			 0);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, ".\n"); /* without --server: the program's own kernel */
	cli_result_free(&r);

	assert_int_equal(cli_run(&r, ARGS("exec", "--server=/tmp/kfsim-x.sock", "--", "/bin/sh",
					  "-c", "echo \"$KFSIM_KERNEL\"")), 0);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.out, "/tmp/kfsim-x.sock\n");
	cli_result_free(&r);

	/*
	 * The program runs as the child of an init of its own PID namespace (cli_exec_netns.c),
	 * yet kfsim exec ends as it does: its exit status, or 128 + the signal that ended it;
	 * it is not the namespace's init itself (pid 1 would ignore an unhandled SIGTERM).
	 */
	assert_int_equal(cli_run(&r, ARGS("exec", "--", "/bin/sh", "-c", "exit 7")), 0);
	assert_int_equal(r.status, 7);
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, ARGS("exec", "--", "/bin/sh", "-c", "kill -TERM $$; sleep 5")),
			 0);
	assert_int_equal(r.status, 128 + SIGTERM);
	cli_result_free(&r);

	/* after "--" a word starting with '-' is the program, not an option or help */
	assert_int_equal(cli_run(&r, ARGS("exec", "--", "--help")), 0);
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	assert_non_null(strstr(r.err, "kfsim exec: -ENOENT: cannot run '--help'"));
	cli_result_free(&r);
	unsetenv("KFSIM_NETLINK_SHIM");
}

static void test_tour_bad_input(void **state)
{
	const struct usage_case cases[] = {
		{ ARGS("tour", "--bogus"), "kfsim tour: unknown option '--bogus'" },
		{ ARGS("tour", "--out"), "kfsim tour: option '--out' needs a value" },
		{ ARGS("tour", "--out", ""), "kfsim tour: invalid value '' for --out" },
		{ ARGS("tour", "--json", "--html"),
		  "kfsim tour: options '--json' and '--html' exclude each other" },
		{ ARGS("tour", "--html", "--out", "x", "--json"),
		  "kfsim tour: options '--json' and '--html' exclude each other" },
		{ ARGS("tour", "--html=1"), "kfsim tour: option '--html' takes no value" },
		{ ARGS("tour", "now"), "kfsim tour: unexpected argument 'now'" },
	};

	check_usage_cases(cases, ARRAY_SIZE(cases));
	check_help(ARGS("tour", "--help"), "Usage: kfsim tour [--out DIR]");
	check_help(ARGS("tour", "--json", "-h"), "Usage: kfsim tour");
}

/* The tour's default directory is stated from the value the command uses. */
static void test_tour_help_default(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, ARGS("tour", "--help")), 0);
	assert_non_null(strstr(r.out, "(default: kfsim-tour)"));
	cli_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nl_bad_input),
		cmocka_unit_test(test_nl_help_text),
		cmocka_unit_test(test_nl_options_after_operands),
		cmocka_unit_test(test_kernel_bad_input),
		cmocka_unit_test(test_kernel_stop_nothing),
		cmocka_unit_test(test_exec_bad_input),
		cmocka_unit_test(test_exec_passes_the_rest_through),
		cmocka_unit_test(test_tour_bad_input),
		cmocka_unit_test(test_tour_help_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
