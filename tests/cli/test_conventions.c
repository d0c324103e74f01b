// SPDX-License-Identifier: MIT
/*
 * One set of command-line conventions across commands (issue 21 items 6, 7, 10-12): times with
 * units, '-h' as a value, hex, JSON error documents, out-of-range settings naming the option,
 * nothing clamped, --kver below a part's oldest release, budgets, progress and --trace-max.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "support/cli_assert.h"

#define RUN(result, ...) assert_int_equal(cli_run(result, (const char *const[]){ __VA_ARGS__, NULL }), 0)
#define JOB "rw=randread,bs=4k,iodepth=4"

static void assert_ok(struct cli_result *r)
{
	if (r->status)
		print_error("status %d, stderr: %s\n", r->status, r->err);
	assert_int_equal(r->status, 0);
}

/* Item 10: --duration takes units everywhere; a bare number keeps each command's old unit. */
static void test_duration_units(void **state)
{
	struct cli_result a, b;

	RUN(&a, "plca", "sim", "--duration", "20", "--json");
	RUN(&b, "plca", "sim", "--duration", "20ms", "--json");
	assert_ok(&a);
	assert_ok(&b);
	assert_string_equal(a.out, b.out); /* bare plca numbers are milliseconds */
	assert_non_null(strstr(a.out, "\"duration_ms\": 20"));
	cli_result_free(&a);
	cli_result_free(&b);

	RUN(&a, "bfq", "sim", "--job", JOB, "--duration", "0.05", "--json");
	RUN(&b, "bfq", "sim", "--job", JOB, "--duration", "50ms", "--json");
	assert_ok(&a);
	assert_ok(&b);
	assert_string_equal(a.out, b.out); /* bare bfq numbers are seconds */
	cli_result_free(&a);
	cli_result_free(&b);
	RUN(&a, "bfq", "sim", "--job", JOB, "--duration", "50000us", "--json");
	assert_ok(&a);
	assert_non_null(strstr(a.out, "\"duration_s\": 0.05"));
	cli_result_free(&a);

	RUN(&a, "plca", "sim", "--duration", "5m");
	assert_usage_error(&a, "invalid value '5m' for --duration: expected a time from 1us to "
			       "600s (units ns, us, ms, s)");
	RUN(&a, "bfq", "sim", "--job", JOB, "--duration", "2h");
	assert_usage_error(&a, "for --duration");
	RUN(&a, "bfq", "sim", "--job", JOB, "--duration", "0s");
	assert_usage_error(&a, "for --duration");
	RUN(&a, "bfq", "sim", "--job", JOB, "--duration", "nan");
	assert_usage_error(&a, "for --duration");

	RUN(&a, "bfq", "--help");
	assert_non_null(strstr(a.out, "--duration TIME"));
	assert_non_null(strstr(a.out, "a bare number is seconds"));
	cli_result_free(&a);
	RUN(&a, "plca", "--help");
	assert_non_null(strstr(a.out, "a bare number is milliseconds"));
	cli_result_free(&a);
}

/* Item 11: '-h' as an option's value is a value, never help. */
static void test_h_is_a_value(void **state)
{
	char dir[] = "/tmp/kfsim-conv-XXXXXX", path[64];
	struct cli_result r;
	struct stat st;

	assert_non_null(mkdtemp(dir));
	assert_int_equal(cli_run_in(&r, dir, (const char *const[]){ "bfq", "sim", "--job", JOB,
					 "--duration", "20ms", "--trace", "-h", NULL }), 0);
	assert_ok(&r);
	assert_null(strstr(r.out, "Usage:"));
	cli_result_free(&r);
	snprintf(path, sizeof(path), "%s/-h", dir);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 0);
	unlink(path);
	rmdir(dir);

	/* the commands that scan for help themselves follow the same rule */
	assert_non_null(mkdtemp(strcpy(dir, "/tmp/kfsim-conv-XXXXXX")));
	assert_int_equal(cli_run_in(&r, dir, (const char *const[]){ "bpf", "demo", "--rounds",
					 "10", "--svg", "-h", NULL }), 0);
	assert_ok(&r);
	assert_null(strstr(r.out, "Usage:"));
	cli_result_free(&r);
	snprintf(path, sizeof(path), "%s/-h", dir);
	assert_int_equal(stat(path, &st), 0);
	unlink(path);
	rmdir(dir);
	RUN(&r, "bpf", "demo", "--json", "-h");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "Usage: kfsim bpf"));
	cli_result_free(&r);
	RUN(&r, "nl", "policy", "--kernel", "-h");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "Usage: kfsim nl"));
	cli_result_free(&r);

	/* as an option it still is help, anywhere */
	RUN(&r, "bfq", "sim", "--job", JOB, "-h");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "Usage: kfsim bfq"));
	cli_result_free(&r);
}

/* Item 11: hex as documented (0xa was refused: isdigit() after 0x). */
static void test_hex(void **state)
{
	struct cli_result r;

	RUN(&r, "plca", "sim", "--nodes", "0xa", "--duration", "5");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "segment: 10 nodes"));
	cli_result_free(&r);
	RUN(&r, "plca", "sim", "--nodes", "0xG");
	assert_usage_error(&r, "invalid value '0xG' for --nodes");
	RUN(&r, "bfq", "sim", "--job", JOB, "--seed", "0xff", "--duration", "10ms", "--json");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "\"seed\": 255"));
	cli_result_free(&r);
}

/* Item 11: every --json failure prints a JSON error document on stdout. */
static void test_json_errors(void **state)
{
	struct cli_result r;

	RUN(&r, "bfq", "sim", "--json", "--bogus");
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.out, "\"error\": {"));
	assert_non_null(strstr(r.out, "\"status\": 2"));
	assert_non_null(strstr(r.out, "unknown option '--bogus'"));
	assert_int_equal(count_lines(r.err), 1);
	cli_result_free(&r);

	RUN(&r, "plca", "sim", "--json", "--duration", "5", "--trace", "/dev/full");
	assert_int_equal(r.status, 1);
	assert_int_equal(r.out[0], '{');
	assert_non_null(strstr(r.out, "\"errno\": \"ENOSPC\""));
	assert_null(strstr(r.out, "\"nodes\"")); /* no result printed before the failure */
	cli_result_free(&r);

	/* ynl-gen too (its own driver, shared with kfsim-ynl-gen) */
	RUN(&r, "ynl-gen", "--json", "/nonexistent/spec.yaml");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "\"error\": {"));
	assert_non_null(strstr(r.out, "\"command\": \"ynl-gen\""));
	assert_non_null(strstr(r.out, "\"status\": 1"));
	assert_non_null(strstr(r.out, "\"errno\": \"ENOENT\""));
	cli_result_free(&r);
	/* and its help says what --mode all is */
	RUN(&r, "ynl-gen", "--help");
	assert_non_null(strstr(r.out, "all     uapi, kernel and user (not test"));
	cli_result_free(&r);

	/* a bad global option is found before the command's --json is parsed: JSON all the same
	 * (found by tests/cli/cli_fuzz.py) */
	RUN(&r, "--kver", "x", "rbtree", "--json");
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.out, "\"status\": 2"));
	assert_non_null(strstr(r.out, "invalid value 'x' for --kver"));
	cli_result_free(&r);
	RUN(&r, "--cmdline", "a=\"", "refcount", "demo", "--json");
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.out, "malformed kernel command line"));
	cli_result_free(&r);
	RUN(&r, "--kver", "x", "rbtree", "--", "--json"); /* after "--" it is no option */
	assert_usage_error(&r, "for --kver");

	/* without --json, stdout stays empty */
	RUN(&r, "bfq", "sim", "--bogus");
	assert_usage_error(&r, "unknown option '--bogus'");
}

/*
 * An unknown letter inside a bundle ("-xy") is named as itself: getopt had not moved past the
 * bundle, and the error named the argument before it ("unknown option '--json'"; found by
 * tests/cli/cli_fuzz.py).  A known letter first, the unknown one second, is named too.
 */
static void test_unknown_letter_in_bundle(void **state)
{
	struct cli_result r;

	RUN(&r, "nl", "decode", "--json", "-xyz");
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "unknown option '-x'"));
	assert_null(strstr(r.err, "--json"));
	cli_result_free(&r);
	RUN(&r, "rbtree", "--steps", "-qq");
	assert_usage_error(&r, "unknown option '-q' (see 'kfsim rbtree --help')");
	RUN(&r, "rbtree", "--insert", "1", "-hq"); /* -h first in the bundle: help, as before */
	assert_int_equal(r.status, 0);
	cli_result_free(&r);
	RUN(&r, "rbtree", "--insert", "1", "-qh");
	assert_usage_error(&r, "unknown option '-q'");
}

/* Item 11: out-of-range settings exit 2 naming the option; nothing is clamped silently. */
static void test_out_of_range(void **state)
{
	static const char *const bad[][2] = {
		{ "--disk-param", "rpm=0" },
		{ "--disk-param", "capacity=0" },
		{ "--job", "bs=64m,size=1" },
		{ "--job", "offset=100%" },
		{ "--job", "offset=20t" },
		{ "--disk-param", "capacity=1e30" },
		{ "--disk-param", "spt_od=1.5" },
		{ "--disk-param", "ncq_depth=0" },
	};
	struct cli_result a, b;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *job = !strcmp(bad[i][0], "--job") ? bad[i][1] : JOB;
		const char *extra = !strcmp(bad[i][0], "--job") ? "--seed" : bad[i][0];
		const char *value = !strcmp(bad[i][0], "--job") ? "1" : bad[i][1];

		RUN(&a, "bfq", "sim", "--job", job, extra, value);
		assert_int_equal(a.status, 2);
		assert_non_null(strstr(a.err, bad[i][0]));
		assert_int_equal(count_lines(a.err), 1);
		assert_string_equal(a.out, "");
		cli_result_free(&a);
	}
	/* a bin width that makes too many bins is refused, not widened behind the user's back */
	RUN(&a, "bfq", "sim", "--job", JOB, "--duration", "3600", "--bin-ms", "1", "--force");
	assert_usage_error(&a, "invalid value for --bin-ms: 3600000 bins");

	/*
	 * size=N% past what the offset leaves is not out of range: fio 3.33 caps it there
	 * (setup_files(); fio reads 1 MiB of a 100 MiB file for offset=99%,size=50%), as kfsim
	 */
	RUN(&a, "bfq", "sim", "--job", "rw=read,offset=99%,size=50%", "--duration", "20ms");
	assert_ok(&a);
	cli_result_free(&a);

	/* size=0 and size=0% both mean "to the end of the disk" */
	RUN(&a, "bfq", "sim", "--job", "rw=randread,offset=50%,size=0", "--duration", "20ms",
	    "--json");
	RUN(&b, "bfq", "sim", "--job", "rw=randread,offset=50%,size=0%", "--duration", "20ms",
	    "--json");
	assert_ok(&a);
	assert_ok(&b);
	assert_string_equal(a.out, b.out);
	cli_result_free(&a);
	cli_result_free(&b);
}

/* Item 12: a --kver older than a part models is refused, naming why. */
static void test_kver_floor(void **state)
{
	struct cli_result r;

	RUN(&r, "--kver", "6.2", "bpf", "demo");
	assert_usage_error(&r, "--kver 6.2.0 is older than the oldest release 'kfsim bpf' models, "
			       "6.3.0");
	RUN(&r, "--kver", "4.0", "tour");
	assert_usage_error(&r, "'kfsim tour' models, 6.3.0");
	RUN(&r, "--kver", "6.1", "plca", "sim");
	assert_usage_error(&r, "'kfsim plca' models");
	RUN(&r, "--kver", "6.2", "bfq", "sim", "--job", JOB, "--duration", "10ms");
	assert_ok(&r); /* bfq-6.2 is modelled */
	cli_result_free(&r);
	RUN(&r, "--kver", "4.19", "rbtree", "--insert", "1");
	assert_ok(&r);
	cli_result_free(&r);
	RUN(&r, "--help");
	assert_non_null(strstr(r.out, "Oldest release each command models"));
	cli_result_free(&r);
}

/* Item 7: a run beyond its documented budget asks for --force, before it starts. */
static void test_budget(void **state)
{
	struct cli_result r;

	RUN(&r, "plca", "sweep", "--nodes", "255", "--duration", "600s");
	assert_usage_error(&r, "pass --force");
	/* a load faster than the wire: every arrival is an event, sent or dropped */
	RUN(&r, "plca", "sim", "--nodes", "32", "--load", "poisson:0.1", "--duration", "10s");
	assert_usage_error(&r, "3.2e+09 simulated events");
	RUN(&r, "plca", "sim", "--config", "builtin", "--load", "periodic:0.1", "--duration", "1s");
	assert_usage_error(&r, "pass --force");
	RUN(&r, "plca", "sim", "--nodes", "32", "--load", "poisson:10000", "--duration", "2s",
	    "--json");
	assert_ok(&r);
	cli_result_free(&r);
	RUN(&r, "bfq", "sim", "--job", JOB, "--actuators", "16", "--duration", "3600");
	assert_usage_error(&r, "beyond the budget");
	RUN(&r, "bfq", "compare", "--job", JOB, "--duration", "1000s");
	assert_usage_error(&r, "simulated requests");
}

/* Item 6: progress on stderr only for a terminal (forced here), off with --quiet. */
static void test_progress(void **state)
{
	struct cli_result r;

	/* not a terminal: nothing on stderr */
	RUN(&r, "plca", "sim", "--duration", "50", "--json");
	assert_ok(&r);
	assert_string_equal(r.err, "");
	cli_result_free(&r);

	setenv("KFSIM_PROGRESS", "always", 1);
	RUN(&r, "plca", "sim", "--duration", "50", "--json");
	assert_ok(&r);
	assert_non_null(strstr(r.err, "\rkfsim plca sim: "));
	assert_non_null(strstr(r.err, "% "));
	assert_non_null(strstr(r.err, "s simulated"));
	assert_non_null(strstr(r.err, "ETA"));
	assert_int_equal(r.out[0], '{'); /* --json output unaffected */
	cli_result_free(&r);
	RUN(&r, "bfq", "compare", "--job", JOB, "--duration", "20ms", "--json");
	assert_ok(&r);
	assert_non_null(strstr(r.err, "\rkfsim bfq: "));
	assert_int_equal(r.out[0], '{');
	cli_result_free(&r);
	RUN(&r, "plca", "sweep", "--nodes", "3", "--duration", "5", "--json");
	assert_ok(&r);
	assert_non_null(strstr(r.err, "\rkfsim plca sweep: "));
	assert_int_equal(r.out[0], '{');
	cli_result_free(&r);
	RUN(&r, "bfq", "sim", "--job", "rw=read", "--duration", "2s", "--json");
	assert_ok(&r);
	assert_non_null(strstr(r.err, "\rkfsim bfq sim: "));
	assert_int_equal(r.out[0], '{');
	cli_result_free(&r);
	RUN(&r, "plca", "sim", "--duration", "50", "--json", "--quiet");
	assert_ok(&r);
	assert_string_equal(r.err, "");
	cli_result_free(&r);
	unsetenv("KFSIM_PROGRESS");
}

/* Item 7: --trace-max caps the file and says which window was traced. */
static void test_trace_max(void **state)
{
	char path[] = "/tmp/kfsim-conv-trace-XXXXXX";
	struct cli_result r;
	struct stat st;
	int fd = mkstemp(path);

	close(fd);
	RUN(&r, "bfq", "sim", "--job", "rw=read,bs=4k,iodepth=4", "--duration", "200ms", "--trace",
	    path, "--trace-max", "8k");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "trace capped at 8192 bytes (--trace-max): 0.000 ms to "));
	assert_non_null(strstr(r.out, "later events dropped"));
	cli_result_free(&r);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= 8192 && st.st_size > 4096);

	RUN(&r, "plca", "sim", "--duration", "200", "--trace", path, "--trace-max", "16k");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "trace capped at 16384 bytes"));
	cli_result_free(&r);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size <= 16384);
	unlink(path);

	RUN(&r, "bfq", "sim", "--job", JOB, "--trace-max", "1q");
	assert_usage_error(&r, "invalid value '1q' for --trace-max");
}

/* Item 11: one name for SVG output; the old documented names stay accepted. */
static void test_names(void **state)
{
	char path[] = "/tmp/kfsim-conv-svg-XXXXXX";
	struct cli_result r;
	int fd = mkstemp(path);

	close(fd);
	RUN(&r, "bfq", "sim", "--job", JOB, "--duration", "20ms", "--svg", path);
	assert_ok(&r);
	cli_result_free(&r);
	RUN(&r, "bfq", "sim", "--job", JOB, "--duration", "20ms", "--plot", path);
	assert_ok(&r);
	cli_result_free(&r);
	unlink(path);
	RUN(&r, "bfq", "--help");
	assert_non_null(strstr(r.out, "--svg FILE"));
	assert_non_null(strstr(r.out, "(also --plot)"));
	cli_result_free(&r);
	RUN(&r, "plca", "--help");
	assert_non_null(strstr(r.out, "--svg PREFIX"));
	assert_non_null(strstr(r.out, "(also --svg-prefix)"));
	cli_result_free(&r);
	/* one word for subcommands */
	RUN(&r, "plca");
	assert_usage_error(&r, "missing subcommand");
	RUN(&r, "bfq");
	assert_usage_error(&r, "missing subcommand");
	RUN(&r, "bpf");
	assert_usage_error(&r, "missing subcommand");
	RUN(&r, "plca", "sim", "--csv", "x.csv");
	assert_usage_error(&r, "option '--csv' is for 'kfsim plca sweep' only");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duration_units),
		cmocka_unit_test(test_h_is_a_value),
		cmocka_unit_test(test_hex),
		cmocka_unit_test(test_json_errors),
		cmocka_unit_test(test_unknown_letter_in_bundle),
		cmocka_unit_test(test_out_of_range),
		cmocka_unit_test(test_kver_floor),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_trace_max),
		cmocka_unit_test(test_names),
	};

	unsetenv("KFSIM_PROGRESS");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
