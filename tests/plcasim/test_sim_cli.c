// SPDX-License-Identifier: MIT
/* kfsim plca sim|sweep: output, JSON, trace, CSV/SVG files, and refused command lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/cli_assert.h"

#define RUN(result, ...)                                                                           \
	assert_int_equal(cli_run(result, (const char *const[]){__VA_ARGS__, NULL}), 0)

static void test_sim_table(void **state)
{
	struct cli_result r;

	RUN(&r, "plca", "sim", "--nodes", "4", "--duration", "20");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "10BASE-T1S segment: 4 nodes, plca, to_tmr 32 BT"));
	assert_non_null(strstr(r.out, "\ntotal "));
	assert_non_null(strstr(r.out, "Jain's fairness "));
	assert_true(strtod(strstr(r.out, "Jain's fairness ") + 16, NULL) > 0.999);
	/* header + 4 nodes + total */
	assert_true(count_lines(r.out) >= 8);
	cli_result_free(&r);
	RUN(&r, "plca", "--help");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "Usage: kfsim plca sim"));
	cli_result_free(&r);
}

static void test_sim_json_and_misconfig(void **state)
{
	struct cli_result r;

	RUN(&r, "plca", "sim", "--mode", "mixed", "--nodes", "5", "--load", "poisson:300",
	    "--frame", "46-1500", "--duration", "30", "--seed", "9", "--json");
	assert_int_equal(r.status, 0);
	assert_string_equal(r.err, "");
	assert_int_equal(r.out[0], '{');
	assert_non_null(strstr(r.out, "\"mode\": \"mixed\""));
	assert_non_null(strstr(r.out, "\"throughput_mbps\""));
	assert_non_null(strstr(r.out, "\"misconfig\": []"));
	assert_int_equal(strcmp(r.out + strlen(r.out) - 2, "}\n"), 0);
	cli_result_free(&r);
}

static void test_sim_is_reproducible(void **state)
{
	struct cli_result a, b;

	RUN(&a, "plca", "sim", "--mode", "csma", "--nodes", "6", "--duration", "50", "--seed", "4");
	RUN(&b, "plca", "sim", "--mode", "csma", "--nodes", "6", "--duration", "50", "--seed", "4");
	assert_int_equal(a.status, 0);
	assert_string_equal(a.out, b.out);
	cli_result_free(&a);
	cli_result_free(&b);
}

static void test_trace_file(void **state)
{
	char path[] = "/tmp/kfsim-plca-trace-XXXXXX";
	int fd = mkstemp(path);
	struct cli_result r;
	char *text;

	assert_true(fd >= 0);
	close(fd);
	RUN(&r, "plca", "sim", "--nodes", "3", "--duration", "1", "--trace", path);
	assert_int_equal(r.status, 0);
	cli_result_free(&r);
	text = read_whole_file(path);
	assert_non_null(strstr(text, "\"traceEvents\""));
	assert_non_null(strstr(text, "\"name\":\"BEACON\""));
	assert_non_null(strstr(text, "\"name\":\"TO 1\""));
	assert_non_null(strstr(text, "\"name\":\"COMMIT\""));
	assert_non_null(strstr(text, "\"name\":\"frame\""));
	assert_non_null(strstr(text, "\"ph\":\"X\""));
	free(text);
	unlink(path);
}

/* A fresh directory @dir (a mkdtemp() template), the sweep's @csv and its plots' @prefix in it. */
static void sweep_paths(char *dir, char csv[256], char prefix[256])
{
	assert_non_null(mkdtemp(dir));
	snprintf(csv, 256, "%s/sweep.csv", dir);
	snprintf(prefix, 256, "%s/plca", dir);
}

static void test_sweep_files(void **state)
{
	char dir[] = "/tmp/kfsim-plca-sweep-XXXXXX";
	char csv[256], prefix[256], svg[300];
	struct cli_result r;
	char *text;

	sweep_paths(dir, csv, prefix);
	RUN(&r, "plca", "sweep", "--nodes", "3", "--duration", "20", "--csv", csv, "--svg-prefix",
	    prefix);
	assert_int_equal(r.status, 0);
	cli_result_free(&r);
	text = read_whole_file(csv);
	assert_int_equal(count_lines(text), 1 + 2 * 3);
	assert_non_null(strstr(text, "senders,mode,throughput_mbps"));
	assert_non_null(strstr(text, "\n3,csma,"));
	free(text);
	snprintf(svg, sizeof(svg), "%s-throughput.svg", prefix);
	text = read_whole_file(svg);
	assert_non_null(strstr(text, "<svg"));
	free(text);
	unlink(svg);
	snprintf(svg, sizeof(svg), "%s-latency.svg", prefix);
	text = read_whole_file(svg);
	assert_non_null(strstr(text, "CSMA/CD p99"));
	free(text);
	unlink(svg);
	unlink(csv);
	rmdir(dir);
}

/*
 * A sweep whose plots cannot be written exits 1 and leaves the old CSV as it was (fuzzing
 * found "--csv a.csv --svg /nonexistent-dir/p" replacing a.csv), and one whose CSV cannot be
 * written leaves the old plots.
 */
static void test_sweep_failure_keeps_old_files(void **state)
{
	char dir[] = "/tmp/kfsim-plca-sweep-XXXXXX";
	char csv[256], prefix[256], svg[300];
	struct cli_result r;
	char *text;

	sweep_paths(dir, csv, prefix);
	snprintf(svg, sizeof(svg), "%s-throughput.svg", prefix);
	write_file(csv, "old csv\n");
	write_file(svg, "old svg\n");
	RUN(&r, "plca", "sweep", "--nodes", "2", "--duration", "1", "--csv", csv, "--svg",
	    "/nonexistent-dir/plca");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-ENOENT: cannot write plots"));
	cli_result_free(&r);
	text = read_whole_file(csv);
	assert_string_equal(text, "old csv\n");
	free(text);
	RUN(&r, "plca", "sweep", "--nodes", "2", "--duration", "1", "--csv", "/dev/full", "--svg",
	    prefix);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-ENOSPC: cannot write CSV file '/dev/full'"));
	cli_result_free(&r);
	text = read_whole_file(svg);
	assert_string_equal(text, "old svg\n");
	free(text);
	snprintf(svg, sizeof(svg), "%s-latency.svg", prefix);
	assert_int_equal(access(svg, F_OK), -1);
	snprintf(svg, sizeof(svg), "%s-throughput.svg", prefix);
	unlink(svg);
	unlink(csv);
	assert_int_equal(rmdir(dir), 0);
}

/*
 * The CSV named as one of the plots ("--csv P-latency.svg --svg P"): refused with the reason,
 * the old file kept; before, the plot was renamed over the new CSV and the sweep exited 0.
 */
static void test_sweep_csv_is_a_plot(void **state)
{
	char dir[] = "/tmp/kfsim-plca-sweep-XXXXXX";
	char csv[256], prefix[256], svg[300], want[1024];
	struct cli_result r;
	char *text;

	sweep_paths(dir, csv, prefix);
	snprintf(svg, sizeof(svg), "%s-latency.svg", prefix);
	write_file(svg, "old svg\n");
	RUN(&r, "plca", "sweep", "--nodes", "2", "--duration", "1", "--csv", svg, "--svg", prefix);
	assert_int_equal(r.status, 1);
	/* every file of the group named: which two collide is for the user to see */
	snprintf(want, sizeof(want), "kfsim plca: -EINVAL: cannot write '%s', '%s-throughput.svg' "
		 "and '%s': two of them name the same file\n", svg, prefix, svg);
	assert_string_equal(r.err, want);
	cli_result_free(&r);
	text = read_whole_file(svg);
	assert_string_equal(text, "old svg\n");
	free(text);
	unlink(svg);
	snprintf(svg, sizeof(svg), "%s-throughput.svg", prefix);
	assert_int_equal(access(svg, F_OK), -1);
	assert_int_equal(rmdir(dir), 0);
}

static void test_bad_command_lines(void **state)
{
	struct cli_result r;

	RUN(&r, "plca");
	assert_usage_error(&r, "missing subcommand");
	RUN(&r, "plca", "run");
	assert_usage_error(&r, "unknown subcommand 'run'");
	RUN(&r, "plca", "sim", "--to-tmr", "256");
	assert_usage_error(&r, "invalid value '256' for --to-tmr");
	RUN(&r, "plca", "sim", "--nodes", "0");
	assert_usage_error(&r, "invalid value '0' for --nodes");
	RUN(&r, "plca", "sim", "--burst-cnt", "-1");
	assert_usage_error(&r, "invalid value '-1' for --burst-cnt");
	RUN(&r, "plca", "sim", "--burst-tmr", "1000");
	assert_usage_error(&r, "invalid value '1000' for --burst-tmr");
	RUN(&r, "plca", "sim", "--mode", "tdma");
	assert_usage_error(&r, "invalid value 'tdma' for --mode");
	RUN(&r, "plca", "sim", "--load", "bursty");
	assert_usage_error(&r, "invalid value 'bursty' for --load");
	RUN(&r, "plca", "sim", "--load", "poisson:-3");
	assert_usage_error(&r, "for --load");
	RUN(&r, "plca", "sim", "--frame", "1501");
	assert_usage_error(&r, "invalid value '1501' for --frame");
	RUN(&r, "plca", "sim", "--frame", "100-50");
	assert_usage_error(&r, "invalid value '100-50' for --frame");
	RUN(&r, "plca", "sim", "--length", "30");
	assert_usage_error(&r, "invalid value '30' for --length");
	RUN(&r, "plca", "sim", "--duration", "0");
	assert_usage_error(&r, "invalid value '0' for --duration");
	RUN(&r, "plca", "sim", "--csv", "x.csv");
	assert_usage_error(&r, "option '--csv' is for 'kfsim plca sweep' only");
	RUN(&r, "plca", "sweep", "--svg-prefix", "");	/* would write ./-throughput.svg */
	assert_usage_error(&r, "invalid value '' for --svg-prefix: expected PREFIX");
	RUN(&r, "plca", "sweep", "--csv", "");
	assert_usage_error(&r, "invalid value '' for --csv: expected FILE");
	RUN(&r, "plca", "sweep", "--trace", "x.json");
	assert_usage_error(&r, "option '--trace' is for 'kfsim plca sim' only");
	RUN(&r, "plca", "sim", "--bogus");
	assert_usage_error(&r, "unknown option '--bogus'");
	RUN(&r, "plca", "sim", "--seed");
	assert_usage_error(&r, "needs a value");
	RUN(&r, "plca", "sim", "extra");
	assert_usage_error(&r, "unexpected argument 'extra'");
}

static void test_sim_from_ethtool_devices(void **state)
{
	struct cli_result r;

	RUN(&r, "plca", "sim", "--config", "builtin", "--duration", "20");
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "3 nodes from kfsim ethtool's built-in devices"));
	assert_non_null(strstr(r.out, "\neth0 "));
	assert_non_null(strstr(r.out, "\neth2     2 csma"));
	cli_result_free(&r);
	RUN(&r, "plca", "sim", "--config", "builtin", "--nodes", "4");
	assert_usage_error(&r, "--nodes does not go with --config");
	RUN(&r, "plca", "sim", "--dev", "eth0");
	assert_usage_error(&r, "--dev needs --config");
	RUN(&r, "plca", "sim", "--config", "builtin", "--dev", "eth3");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-EOPNOTSUPP: builtin: eth3 has no PHY with PLCA settings\n"));
	cli_result_free(&r);
	RUN(&r, "plca", "sim", "--config", "builtin", "--dev", "eth9");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-ENODEV: builtin: no device eth9\n"));
	cli_result_free(&r);
	/* lo exists but has no PHY at all; eth3's PHY cannot do PLCA: not a node either */
	RUN(&r, "plca", "sim", "--config", "builtin", "--dev", "lo");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-EOPNOTSUPP: builtin: lo has no PHY with PLCA settings\n"));
	assert_string_equal(r.out, "");
	cli_result_free(&r);
}

/* A config file of @nr devices, each with a PHY when @phy, on segment 0; its path in @path. */
static void write_config(char *path, int nr, bool phy)
{
	int fd = mkstemp(path);
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	for (int i = 0; i < nr; i++)
		fprintf(f, "dev t%d%s\n", i, phy ? " phy oa-tc14" : "");
	assert_int_equal(fclose(f), 0);
}

/* Each way a --config names no segment the bus can run says which, not "has no PHY" for all. */
static void test_config_without_segment(void **state)
{
	char path[] = "/tmp/kfsim-plca-config-XXXXXX";
	struct cli_result r;

	write_config(path, 3, false);
	RUN(&r, "plca", "sim", "--config", path, "--duration", "1");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, ": no device has a PHY with PLCA settings\n"));
	cli_result_free(&r);
	unlink(path);
	/* one device more than a namespace holds: the line that overflows, and why */
	strcpy(path, "/tmp/kfsim-plca-config-XXXXXX");
	write_config(path, 65, true);
	RUN(&r, "plca", "sim", "--config", path, "--duration", "1");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-ENOSPC: "));
	assert_non_null(strstr(r.err, ": line 65: t64: no room: a namespace holds at most 64 "
				      "devices\n"));
	assert_string_equal(r.out, "");
	cli_result_free(&r);
	unlink(path);
}

static void test_runtime_failure(void **state)
{
	struct cli_result r;

	RUN(&r, "plca", "sim", "--duration", "1", "--trace", "/nonexistent-dir/t.json");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim plca: -ENOENT: cannot create trace file"));
	assert_string_equal(r.out, "");
	cli_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_table),
		cmocka_unit_test(test_sim_json_and_misconfig),
		cmocka_unit_test(test_sim_is_reproducible),
		cmocka_unit_test(test_trace_file),
		cmocka_unit_test(test_sweep_files),
		cmocka_unit_test(test_sweep_failure_keeps_old_files),
		cmocka_unit_test(test_sweep_csv_is_a_plot),
		cmocka_unit_test(test_bad_command_lines),
		cmocka_unit_test(test_sim_from_ethtool_devices),
		cmocka_unit_test(test_config_without_segment),
		cmocka_unit_test(test_runtime_failure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
