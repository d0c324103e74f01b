// SPDX-License-Identifier: MIT
/* kfsim bpf kfuncs/demo: text, JSON, pictures, and the usage errors. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/cli_run.h"

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

static void test_demo_json_and_pictures(void **state)
{
	char dir[] = "/tmp/kfsim-bpf-cli-XXXXXX";
	char svg[128], trace[128];
	struct cli_result r;

	assert_non_null(mkdtemp(dir));
	snprintf(svg, sizeof(svg), "%s/t.svg", dir);
	snprintf(trace, sizeof(trace), "%s/t.json", dir);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kfuncs_text_and_json),
		cmocka_unit_test(test_demo_json_and_pictures),
		cmocka_unit_test(test_usage_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
