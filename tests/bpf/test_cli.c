// SPDX-License-Identifier: MIT
/* kfsim bpf kfuncs/demo/test: text, JSON, pictures, and the usage errors of each verb. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/cli_assert.h"
#include "support/cli_run.h"

#define RUN(result, ...) \
	assert_int_equal(cli_run(result, (const char *const[]){ "bpf", __VA_ARGS__, NULL }), 0)

static void test_kfuncs_text_and_json(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, (const char *const[]){"bpf", "kfuncs", NULL}), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "bpf_rbtree_remove"));
	assert_non_null(strstr(r.out, "KF_ACQUIRE | KF_RET_NULL"));
	/* 6.3: the 6.16 walkers are marked missing */
	assert_non_null(strstr(r.out, "- bpf_rbtree_root"));
	cli_result_free(&r);

	assert_int_equal(cli_run(&r, (const char *const[]){"--kver", "6.16", "bpf", "kfuncs",
							   "--json", NULL}),
			 0);
	assert_int_equal(r.status, 0);
	assert_int_equal(r.err[0], '\0');
	assert_int_equal(r.out[0], '{');
	assert_non_null(strstr(r.out, "\"name\": \"bpf_rbtree_left\""));
	/* the 6.3 inserts: removed in 6.4, no kernel flag says so */
	assert_null(strstr(r.out, "DEPRECATED"));
	assert_non_null(strstr(r.out, "\"removed_in\": \"6.4.0\""));
	assert_non_null(strstr(r.out, "\"kernel_version\": \"6.16.0\""));
	assert_non_null(strstr(r.out, "\"available\": false"));
	cli_result_free(&r);
}

/* A fresh directory @dir (a mkdtemp() template) and the demo's @svg and @trace paths in it. */
static void demo_paths(char *dir, char svg[128], char trace[128])
{
	assert_non_null(mkdtemp(dir));
	snprintf(svg, 128, "%s/t.svg", dir);
	snprintf(trace, 128, "%s/t.json", dir);
}

static void test_demo_json_and_pictures(void **state)
{
	char dir[] = "/tmp/kfsim-bpf-cli-XXXXXX";
	char svg[128], trace[128];
	struct cli_result r;

	demo_paths(dir, svg, trace);
	assert_int_equal(
		cli_run(&r, (const char *const[]){"bpf", "demo", "--json", "--rounds", "500",
						  "--svg", svg, "--trace", trace, NULL}),
		0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"first_data0\": 2"));
	assert_non_null(strstr(r.out, "\"removed_key\": 1"));
	assert_non_null(strstr(r.out, "\"first_data1\": 4"));
	assert_non_null(strstr(r.out, "\"share_permille_pid1\": 400"));
	assert_null(strstr(r.out, "\"violations\": 1"));
	cli_result_free(&r);
	assert_int_equal(access(svg, R_OK), 0);
	assert_int_equal(access(trace, R_OK), 0);
	unlink(svg);
	unlink(trace);
	rmdir(dir);
}

/*
 * A demo whose trace (or SVG) cannot be written exits 1 and leaves the other old file as it
 * was: fuzzing found "--svg s.svg --trace /nonexistent/t" replacing s.svg.
 */
static void test_demo_failure_keeps_old_pictures(void **state)
{
	char dir[] = "/tmp/kfsim-bpf-cli-XXXXXX";
	char svg[128], trace[128];
	struct cli_result r;

	demo_paths(dir, svg, trace);
	write_file(svg, "old svg\n");
	write_file(trace, "old trace\n");
	for (int i = 0; i < 2; i++) {
		const char *bad = i ? "/dev/full" : "/nonexistent-dir/t.json";

		RUN(&r, "demo", "--rounds", "5", "--svg", svg, "--trace", bad);
		assert_int_equal(r.status, 1);
		cli_result_free(&r);
		assert_file_is(svg, "old svg\n");
		RUN(&r, "demo", "--rounds", "5", "--svg", bad, "--trace", trace);
		assert_int_equal(r.status, 1);
		cli_result_free(&r);
		assert_file_is(trace, "old trace\n");
	}
	unlink(svg);
	unlink(trace);
	assert_int_equal(rmdir(dir), 0);
}

static void test_usage_errors(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, (const char *const[]){"bpf", NULL}), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "missing subcommand"));
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, (const char *const[]){"bpf", "frob", NULL}), 0);
	assert_int_equal(r.status, 2);
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, (const char *const[]){"bpf", "demo", "--rounds", "0", NULL}),
			 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--rounds"));
	assert_int_equal(count_lines(r.err), 1);
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, (const char *const[]){"bpf", "kfuncs", "--bogus", NULL}), 0);
	assert_int_equal(r.status, 2);
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, (const char *const[]){"bpf", "--help", NULL}), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Usage: kfsim bpf kfuncs"));
	cli_result_free(&r);
}

/* One option table for the three verbs: every bad command line is one line, exit status 2. */
static void test_bad_input_per_verb(void **state)
{
	struct cli_result r;

	RUN(&r, "frob");
	assert_usage_error(&r, "unknown subcommand 'frob': expected kfuncs, demo or test");
	RUN(&r, "--json");
	assert_usage_error(&r, "missing subcommand: expected kfuncs, demo or test");
	/* unknown options, missing values */
	RUN(&r, "test", "--bogus", "x.c");
	assert_usage_error(&r, "unknown option '--bogus' (see 'kfsim bpf --help')");
	RUN(&r, "test", "x.c", "-Q");
	assert_usage_error(&r, "unknown option '-Q'");
	RUN(&r, "test", "-I");
	assert_usage_error(&r, "option '-I' needs a value");
	RUN(&r, "test", "x.c", "--keep");
	assert_usage_error(&r, "option '--keep' needs a value");
	RUN(&r, "demo", "--rounds");
	assert_usage_error(&r, "option '--rounds' needs a value");
	RUN(&r, "kfuncs", "--json=yes");
	assert_usage_error(&r, "option '--json' takes no value");
	/* out of range */
	RUN(&r, "test", "--timeout", "0", "x.c");
	assert_usage_error(&r, "invalid value '0' for --timeout: expected an integer from 1 to");
	RUN(&r, "test", "--timeout", "4294967296", "x.c");
	assert_usage_error(&r, "invalid value '4294967296' for --timeout");
	RUN(&r, "demo", "--rounds", "1000001");
	assert_usage_error(&r, "invalid value '1000001' for --rounds: expected an integer from 1 "
			       "to 1000000");
	RUN(&r, "demo", "--svg", "");
	assert_usage_error(&r, "invalid value '' for --svg");
	RUN(&r, "test", "--keep", "", "x.c");
	assert_usage_error(&r, "invalid value '' for --keep");
	/* an option of another verb */
	RUN(&r, "kfuncs", "--rounds", "5");
	assert_usage_error(&r, "option '--rounds' is for 'kfsim bpf demo' only");
	RUN(&r, "test", "--svg", "a.svg", "x.c");
	assert_usage_error(&r, "option '--svg' is for 'kfsim bpf demo' only");
	RUN(&r, "demo", "-I", "include");
	assert_usage_error(&r, "option '-I' is for 'kfsim bpf test' only");
	RUN(&r, "kfuncs", "--kernel");
	assert_usage_error(&r, "option '--kernel' is for 'kfsim bpf test' only");
	RUN(&r, "test", "--json", "x.c");
	assert_usage_error(&r, "option '--json' is for 'kfsim bpf kfuncs or demo' only");
	/* arguments */
	RUN(&r, "test");
	assert_usage_error(&r, "missing the BPF C file");
	RUN(&r, "test", "-I", "include", "-DX=1");
	assert_usage_error(&r, "missing the BPF C file");
	RUN(&r, "kfuncs", "extra");
	assert_usage_error(&r, "unexpected argument 'extra'");
	RUN(&r, "demo", "--json", "extra");
	assert_usage_error(&r, "unexpected argument 'extra'");
}

/* --help after each verb, and as a value it is a value */
static void test_help_per_verb(void **state)
{
	static const char *const verbs[] = { "kfuncs", "demo", "test" };
	struct cli_result r;

	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		RUN(&r, verbs[i], "--help");
		assert_int_equal(r.status, 0);
		assert_string_equal(r.err, "");
		assert_non_null(strstr(r.out, "Usage: kfsim bpf kfuncs [--json]\n"));
		assert_non_null(strstr(r.out, "  -I, --include DIR"));
		assert_non_null(strstr(r.out, "  --rounds N"));
		assert_non_null(strstr(r.out, "[demo]"));
		cli_result_free(&r);
	}
	RUN(&r, "test", "x.c", "-h");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Usage: kfsim bpf"));
	cli_result_free(&r);
	/* "--keep -h": a directory named -h, so the file is still missing */
	RUN(&r, "test", "--keep", "-h");
	assert_usage_error(&r, "missing the BPF C file");
}

/*
 * bpf test: options anywhere (after the file too, as compilers take them), -D/-I passed on,
 * --timeout in hex reaches the program as the number (it reads decimal).
 */
static void test_test_verb_runs(void **state)
{
	struct cli_result r;

	RUN(&r, "test", KFSIM_SOURCE_DIR "/examples/bpf/vtime_queue.bpf.c", "--timeout", "0x10",
	    "vtime_dispatch", "-D", "KFSIM_CLI_TEST=1", "-I" KFSIM_SOURCE_DIR "/examples/bpf");
	if (r.status)
		print_error("status %d\nstdout: %s\nstderr: %s\n", r.status, r.out, r.err);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "PASS    vtime_dispatch"));
	assert_non_null(strstr(r.out, "1 programs run: 1 agree"));
	cli_result_free(&r);
	/* a program name that is not in the file: the program's own verdict, exit 1 or 2 */
	RUN(&r, "test", KFSIM_SOURCE_DIR "/examples/bpf/vtime_queue.bpf.c", "no_such_prog");
	assert_true(r.status == 1 || r.status == 2);
	cli_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kfuncs_text_and_json),
		cmocka_unit_test(test_demo_json_and_pictures),
		cmocka_unit_test(test_demo_failure_keeps_old_pictures),
		cmocka_unit_test(test_usage_errors),
		cmocka_unit_test(test_bad_input_per_verb),
		cmocka_unit_test(test_help_per_verb),
		cmocka_unit_test(test_test_verb_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
