// SPDX-License-Identifier: MIT
/* kfsim bfq: the command line's contract (exit codes, one-line errors, one JSON document). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/elevator.h>

#include "support/cli_assert.h"
#include "support/cli_run.h"

#define JOB_A "name=a,rw=read,bs=4k,offset=0%,size=50%"
#define JOB_B "name=b,rw=read,bs=4k,offset=50%,size=50%"

static void expect_usage(const char *const args[], const char *needle)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, args), 0);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, needle));
	assert_string_equal(r.out, "");
	cli_result_free(&r);
}

static void test_bad_command_lines(void **state)
{
	expect_usage((const char *const[]){ "bfq", NULL }, "subcommand");
	expect_usage((const char *const[]){ "bfq", "frob", NULL }, "frob");
	expect_usage((const char *const[]){ "bfq", "sim", NULL }, "--job");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", "rw=trim", NULL }, "--job");
	/* fio reads a job file's size=12.5% as 12 bytes; on kfsim's own --job it is refused */
	expect_usage((const char *const[]){ "bfq", "sim", "--job", "rw=read,size=12.5%", NULL },
		     "percentages are whole (fio reads this as 12 bytes)");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", "rw=read,offset=0.%", NULL },
		     "offset: '0.%'");
	/*
	 * and so does every number with a fraction before its unit: fio 3.33 reads size=8192.5m
	 * as 8192 bytes, thinktime=1.5ms as 1 us, bs=4k,8.5k's write size as 8 bytes (measured
	 * with fio --debug=parse); --job once ran them so, with no word
	 */
	expect_usage((const char *const[]){ "bfq", "sim", "--job", "rw=read,size=8192.5m", NULL },
		     "size: '8192.5m': numbers are whole (fio stops at the '.' and reads 8192");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", "rw=read,thinktime=1.5ms",
					     NULL }, "thinktime: '1.5ms': numbers are whole");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", "rw=read,bs=4k,8.5k", NULL },
		     "bs: '4k,8.5k': numbers are whole (fio stops at the '.' and reads 8,");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", "rw=read,size=12.5e1%", NULL },
		     "size: '12.5e1%': numbers are whole");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", JOB_A, "--sched", "cfq", NULL },
		     "--sched");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", JOB_A, "--disk", "triple",
					     NULL }, "--disk");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", JOB_A, "--disk-param", "x=1",
					     NULL }, "--disk-param");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", JOB_A, "--threshold", "0",
					     NULL }, "--threshold");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", JOB_A, "--bogus", NULL },
		     "--bogus");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", JOB_A, "--tunable",
					     "quantum=4", NULL }, "--tunable");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", JOB_A, "--tunable",
					     "slice_idle=8ms", NULL }, "--tunable");
	expect_usage((const char *const[]){ "bfq", "sim", "--job", JOB_A, "--tunable",
					     "timeout_sync=99999", NULL }, "--tunable");
	expect_usage((const char *const[]){ "bfq", "ablate", "--job", JOB_A, "--param", "colour",
					     "--values", "1", NULL }, "--param");
}

static void test_runtime_failure(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--replay",
							    "/nonexistent/trace.txt", NULL }), 0);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim bfq: -ENOENT"));
	cli_result_free(&r);
	/* a job beyond a small disk is refused before the run, naming the option */
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job",
							    "rw=read,offset=1t", "--disk-param",
							    "capacity=1000000", NULL }), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--job"));
	cli_result_free(&r);
}

static void test_json_and_files(void **state)
{
	char trace[] = "/tmp/kfsim-bfq-trace-XXXXXX", plot[] = "/tmp/kfsim-bfq-plot-XXXXXX";
	int fd1 = mkstemp(trace), fd2 = mkstemp(plot);
	struct cli_result r;
	FILE *f;
	char buf[64] = "";

	close(fd1);
	close(fd2);
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job", JOB_A, "--job",
							    JOB_B, "--duration", "0.5", "--json",
							    "--trace", trace, "--plot", plot,
							    NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_int_equal(r.out[0], '{');
	assert_non_null(strstr(r.out, "\"sched\": \"bfq\""));
	assert_non_null(strstr(r.out, "\"injected\""));
	assert_non_null(strstr(r.out, "\"lat_p99_us\""));
	assert_non_null(strstr(r.out, "\"drained\": "));
	cli_result_free(&r);
	f = fopen(trace, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	assert_non_null(strstr(buf, "traceEvents"));
	fclose(f);
	f = fopen(plot, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	assert_non_null(strstr(buf, "<svg") ? buf : strstr(buf, "<?xml"));
	fclose(f);
	unlink(trace);
	unlink(plot);
}

/*
 * A run whose plot cannot be written fails, and the trace it did write is not put in place of
 * the old one: "a failed run leaves them as they were" (fuzzing found the old trace replaced
 * by "--trace t.json --svg /nonexistent/s.svg", exit 1).  And the other way round.
 */
static void test_failed_run_keeps_both_files(void **state)
{
	char trace[] = "/tmp/kfsim-bfq-trace-XXXXXX", plot[] = "/tmp/kfsim-bfq-plot-XXXXXX";
	int fd1 = mkstemp(trace), fd2 = mkstemp(plot);
	const char *const bad_plots[] = { "/nonexistent-dir/s.svg", "/dev/full", "/tmp" };
	struct cli_result r;
	char want[200];

	assert_int_equal(write(fd1, "old trace\n", 10), 10);
	assert_int_equal(write(fd2, "old plot\n", 9), 9);
	close(fd1);
	close(fd2);
	for (size_t i = 0; i < ARRAY_SIZE(bad_plots); i++) {
		assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job", JOB_A,
								    "--duration", "0.05", "--trace",
								    trace, "--svg", bad_plots[i],
								    NULL }), 0);
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, bad_plots[i]));
		cli_result_free(&r);
		assert_file_is(trace, "old trace\n");
	}
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job", JOB_A,
							    "--duration", "0.05", "--trace",
							    "/nonexistent-dir/t.json", "--svg", plot,
							    NULL }), 0);
	assert_int_equal(r.status, 1);
	cli_result_free(&r);
	assert_file_is(plot, "old plot\n");
	/* the trace and the plot named as one file: refused with the reason, the old one kept */
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job", JOB_A,
							    "--duration", "0.05", "--trace", trace,
							    "--svg", trace, NULL }), 0);
	assert_int_equal(r.status, 1);
	snprintf(want, sizeof(want), "kfsim bfq: -EINVAL: cannot write '%s' and '%s': two of them "
		 "name the same file\n", trace, trace);
	assert_string_equal(r.err, want);
	assert_string_equal(r.out, "");
	cli_result_free(&r);
	assert_file_is(trace, "old trace\n");
	unlink(trace);
	unlink(plot);
}

/*
 * --values and --scheds are read whole: they were copied into 256 bytes, so a long list was
 * cut short in silence ("1,000...0005" ran slice_idle_us=0; 40 schedulers ran the first 31
 * and part of a name).
 */
static void test_long_lists_read_whole(void **state)
{
	char values[400] = "1,", scheds[400] = "";
	struct cli_result r;

	memset(values + 2, '0', 300);
	strcat(values, "5");
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "ablate", "--job", JOB_A,
							    "--duration", "0.02", "--param",
							    "slice_idle_us", "--values", values,
							    NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "slice_idle_us=5 "));
	assert_null(strstr(r.out, "slice_idle_us=0 "));
	cli_result_free(&r);
	for (int i = 0; i < 40; i++)
		strcat(scheds, "bfq-6.2,");
	strcat(scheds, "none");
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "compare", "--job", JOB_A,
							    "--duration", "0.02", "--scheds",
							    scheds, NULL }), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "too many schedulers in --scheds"));
	assert_string_equal(r.out, "");
	cli_result_free(&r);
}

static void test_compare_ablate_and_kver(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "compare", "--job", JOB_A,
							    "--job", JOB_B, "--duration", "0.3",
							    "--low-latency", "0", NULL }), 0);
	assert_int_equal(r.status, 0);
	/* without --scheds: one row per registered scheduler, in the registry's order */
	assert_int_equal(count_lines(r.out), 1 + elv_nr_types());
	{
		const char *row = strchr(r.out, '\n');

		for (unsigned int i = 0; i < elv_nr_types(); i++) {
			const char *name = elv_type(i)->elevator_name;

			assert_non_null(row);
			assert_int_equal(strncmp(row + 1, name, strlen(name)), 0);
			assert_int_equal(row[1 + strlen(name)], ' ');
			row = strchr(row + 1, '\n');
		}
	}
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "ablate", "--job", JOB_A,
							    "--job", JOB_B, "--duration", "0.3",
							    "--param", "threshold", "--values",
							    "1,4,16", "--json", NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"threshold\": \"threshold=16\""));
	cli_result_free(&r);
	/* --kver 6.2 makes plain "bfq" the pre-6.3 scheduler: nothing injected */
	assert_int_equal(cli_run(&r, (const char *const[]){ "--kver", "6.2", "bfq", "sim", "--job",
							    JOB_A, "--job", JOB_B, "--duration",
							    "0.3", "--json", NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"injected\": 0"));
	assert_null(strstr(r.out, "\"injected\": 1"));
	cli_result_free(&r);
}

/* @text into a new file named after @path_template ("...XXXXXX"), which takes its name. */
static void temp_file(char *path_template, const char *text)
{
	int fd = mkstemp(path_template);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* The reason a run cannot start reaches the terminal (issue #15 item 7). */
static void test_reasons_and_fio(void **state)
{
	char trace[] = "/tmp/kfsim-bfq-replay-XXXXXX", job[] = "/tmp/kfsim-bfq-fio-XXXXXX";
	const char *bad_trace = "  8,0 0 1 0.1 1 Q R 8 + 8 [a]\n"
				"  8,0 0 2 99999999999.0 1 Q R 16 + 8 [a]\n";
	const char *jobs = "[global]\ndirect=1\nrw=read\n[a]\nsize=10%\n[b]\noffset=50%\n"
			   "size=10%\nss=iops\n";
	struct cli_result r;

	temp_file(trace, bad_trace);
	temp_file(job, jobs);
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--replay", trace,
							    NULL }), 0);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "line 2: timestamp"));
	cli_result_free(&r);
	expect_usage((const char *const[]){ "bfq", "sim", "--fio", job, NULL },
		     ":9: ss: steadystate threshold must be specified in addition to "
		     "criterion");
	/* a job beyond the disk: refused before the run (exit 2), naming the job and the reason */
	expect_usage((const char *const[]){ "bfq", "sim", "--job", "name=far,rw=read,offset=1t",
					    "--disk-param", "capacity=1000000", NULL },
		     "(job far): offset 1099511627776 is beyond the disk");
	unlink(trace);
	unlink(job);
}

/* --replay-closed follows the trace's completions; a trace without any is refused (exit 1). */
static void test_replay_closed(void **state)
{
	char bare[] = "/tmp/kfsim-bfq-bare-XXXXXX", done[] = "/tmp/kfsim-bfq-done-XXXXXX";
	const char *no_c = "  8,0 0 1 0.1 1 Q R 8 + 8 [a]\n  8,0 0 2 0.2 1 Q R 16 + 8 [a]\n";
	const char *with_c = "  8,0 0 1 0.100 1 Q R 8 + 8 [a]\n  8,0 0 2 0.101 0 C R 8 + 8 [0]\n"
			     "  8,0 0 3 0.102 1 Q R 16 + 8 [a]\n  8,0 0 4 0.103 0 C R 16 + 8 [0]\n";
	struct cli_result r;

	temp_file(bare, no_c);
	temp_file(done, with_c);
	expect_usage((const char *const[]){ "bfq", "sim", "--job", "rw=read", "--replay-closed",
					    NULL }, "option '--replay-closed' needs '--replay'");
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--replay", bare,
							    "--replay-closed", NULL }), 0);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "holds no completion (C event)"));
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--replay", done,
							    "--replay-closed", "--duration", "5s",
							    "--json", NULL }), 0);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "\"replay_closed\": true"));
	assert_non_null(strstr(r.out, "\"replay_issued\": 2"));
	cli_result_free(&r);
	unlink(bare);
	unlink(done);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_command_lines),
		cmocka_unit_test(test_runtime_failure),
		cmocka_unit_test(test_json_and_files),
		cmocka_unit_test(test_failed_run_keeps_both_files),
		cmocka_unit_test(test_long_lists_read_whole),
		cmocka_unit_test(test_compare_ablate_and_kver),
		cmocka_unit_test(test_reasons_and_fio),
		cmocka_unit_test(test_replay_closed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
