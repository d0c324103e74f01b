// SPDX-License-Identifier: MIT
/*
 * The defaults `kfsim plca --help` and `kfsim bfq --help` state are the library's: each
 * "(default: X)" is read back from the help text with a parser of this test's own and compared
 * with the struct the *_default() constructor fills, and a run without options is shown to use
 * them (its JSON configuration).  A default changed in the library but not in the help, or the
 * other way round, fails here.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/kernel.h>
#include <kfsim/plca_sim.h>
#include <kfsim/trace_event.h>
#include "support/cli_run.h"

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/* The help of `kfsim @cmd --help` (malloc'd). */
static char *help_of(const char *cmd)
{
	struct cli_result r;
	char *text;

	assert_int_equal(cli_run(&r, ARGS(cmd, "--help")), 0);
	assert_int_equal(r.status, 0);
	text = r.out;
	r.out = NULL;
	cli_result_free(&r);
	return text;
}

/*
 * What the row of option @name says after "(default: ", up to ")" (a row may go on over
 * several lines; it ends where the next option starts).  NULL when it states none.
 */
static char *stated_default(const char *help, const char *name)
{
	char head[64], *value;
	const char *row, *end, *dflt, *close;

	snprintf(head, sizeof(head), "\n  --%s ", name);
	row = strstr(help, head);
	if (!row)
		fail_msg("no row for --%s in the help", name);
	end = strstr(row + 1, "\n  --");
	dflt = strstr(row, "(default: ");
	if (!dflt || (end && dflt > end))
		return NULL;
	dflt += strlen("(default: ");
	close = strchr(dflt, ')');
	assert_non_null(close);
	value = strndup(dflt, (size_t)(close - dflt));
	assert_non_null(value);
	return value;
}

/* "2s", "500ms", "8ms", "10us", "250ns" in nanoseconds (this test's own reading). */
static u64 duration_ns(const char *text)
{
	char *unit;
	double v = strtod(text, &unit);

	if (!strcmp(unit, "s"))
		return (u64)(v * 1e9);
	if (!strcmp(unit, "ms"))
		return (u64)(v * 1e6);
	if (!strcmp(unit, "us"))
		return (u64)(v * 1e3);
	if (!strcmp(unit, "ns"))
		return (u64)v;
	fail_msg("not a duration: '%s'", text);
	return 0;
}

static u64 size_bytes(const char *text)
{
	char *unit;
	u64 v = strtoull(text, &unit, 10);

	return !*unit ? v : *unit == 'k' ? v << 10 : *unit == 'm' ? v << 20 : v << 30;
}

static void expect_u64(const char *help, const char *name, u64 value)
{
	char *stated = stated_default(help, name);

	if (!stated)
		fail_msg("--%s states no default", name);
	if (strtoull(stated, NULL, 10) != value)
		fail_msg("--%s: help says %s, the library %llu", name, stated,
			 (unsigned long long)value);
	free(stated);
}

static void expect_text(const char *help, const char *name, const char *value)
{
	char *stated = stated_default(help, name);

	if (!stated || strcmp(stated, value))
		fail_msg("--%s: help says %s, the library %s", name, stated ? stated : "nothing",
			 value);
	free(stated);
}

static void expect_duration(const char *help, const char *name, u64 ns)
{
	char *stated = stated_default(help, name);

	assert_non_null(stated);
	if (duration_ns(stated) != ns)
		fail_msg("--%s: help says %s, the library %llu ns", name, stated,
			 (unsigned long long)ns);
	free(stated);
}

static void test_plca_help_states_the_library_defaults(void **state)
{
	struct plca_sim_bus_config sim, sweep;
	char *help = help_of("plca"), *stated;
	double length;

	kfsim_plca_bus_config_default(&sim);
	kfsim_plca_sweep_config_default(&sweep);
	expect_u64(help, "nodes", sim.seg.nr_nodes);
	expect_text(help, "mode", sim.seg.mode == PLCA_SIM_MODE_PLCA ? "plca" : "?");
	expect_u64(help, "to-tmr", (u64)sim.seg.to_tmr);
	expect_u64(help, "burst-cnt", (u64)sim.seg.burst_cnt);
	expect_u64(help, "burst-tmr", (u64)sim.seg.burst_tmr);
	expect_text(help, "load", sim.seg.load == PLCA_SIM_LOAD_SATURATED ? "saturated" : "?");
	assert_int_equal(sim.seg.payload_min, sim.seg.payload_max);
	expect_u64(help, "frame", sim.seg.payload_min);
	stated = stated_default(help, "length");
	assert_non_null(stated);
	length = strtod(stated, NULL);
	assert_true(length == sim.seg.length_m);
	free(stated);
	expect_u64(help, "seed", sim.seed);
	assert_true(sweep.seed == sim.seed);

	/* the two verbs' durations differ: the row states both */
	stated = stated_default(help, "duration");
	assert_non_null(stated);
	assert_true(sim.duration_ns != sweep.duration_ns);
	{
		char sim_text[32], sweep_text[32];

		assert_int_equal(sscanf(stated, "%31s for sim, %31s for sweep", sim_text,
					sweep_text), 2);
		assert_true(duration_ns(sim_text) == sim.duration_ns);
		assert_true(duration_ns(sweep_text) == sweep.duration_ns);
	}
	free(stated);

	stated = stated_default(help, "trace-max");
	assert_non_null(stated);
	assert_true(size_bytes(stated) == KFSIM_TRACE_MAX_DEFAULT);
	free(stated);

	/* rows without a value state nothing */
	assert_null(stated_default(help, "json"));
	assert_null(stated_default(help, "config"));
	free(help);
}

/* The library's segment: the one the OPEN Alliance reset values describe. */
static void test_plca_segment_default_is_the_reset_segment(void **state)
{
	struct plca_sim_segment seg;
	struct phy_plca_cfg reset;

	kfsim_plca_cfg_reset_default(&reset);
	kfsim_plca_segment_default(&seg);
	assert_int_equal(reset.enabled, 0);
	assert_int_equal(reset.node_id, 255);
	assert_int_equal(reset.node_cnt, 8);
	assert_int_equal(reset.to_tmr, 32);
	assert_int_equal(reset.burst_cnt, 0);
	assert_int_equal(reset.burst_tmr, 128);
	assert_int_equal(seg.nr_nodes, (u32)reset.node_cnt);
	assert_int_equal(seg.to_tmr, reset.to_tmr);
	assert_int_equal(seg.burst_cnt, reset.burst_cnt);
	assert_int_equal(seg.burst_tmr, reset.burst_tmr);
	assert_int_equal(seg.nr_senders, 0);
	assert_true(seg.length_m == PLCA_SIM_MAX_SEGMENT_M);
}

/* A run without options uses them: its JSON configuration. */
static void test_plca_runs_use_them(void **state)
{
	struct plca_sim_bus_config sim, sweep;
	struct cli_result r;
	char want[64];

	kfsim_plca_bus_config_default(&sim);
	kfsim_plca_sweep_config_default(&sweep);
	assert_int_equal(cli_run(&r, ARGS("plca", "sim", "--json")), 0);
	assert_int_equal(r.status, 0);
	snprintf(want, sizeof(want), "\"nodes\": %u,", sim.seg.nr_nodes);
	assert_non_null(strstr(r.out, want));
	snprintf(want, sizeof(want), "\"to_tmr\": %d,", sim.seg.to_tmr);
	assert_non_null(strstr(r.out, want));
	snprintf(want, sizeof(want), "\"burst_tmr\": %d,", sim.seg.burst_tmr);
	assert_non_null(strstr(r.out, want));
	snprintf(want, sizeof(want), "\"payload_min\": %u,", sim.seg.payload_min);
	assert_non_null(strstr(r.out, want));
	snprintf(want, sizeof(want), "\"duration_ms\": %llu,",
		 (unsigned long long)(sim.duration_ns / NSEC_PER_MSEC));
	assert_non_null(strstr(r.out, want));
	snprintf(want, sizeof(want), "\"seed\": %llu", (unsigned long long)sim.seed);
	assert_non_null(strstr(r.out, want));
	cli_result_free(&r);

	assert_int_equal(cli_run(&r, ARGS("plca", "sweep", "--nodes", "1", "--json")), 0);
	assert_int_equal(r.status, 0);
	snprintf(want, sizeof(want), "\"duration_ms\": %llu,",
		 (unsigned long long)(sweep.duration_ns / NSEC_PER_MSEC));
	assert_non_null(strstr(r.out, want));
	cli_result_free(&r);
}

static void test_bfq_help_states_the_library_defaults(void **state)
{
	struct kfsim_bfq_sim_config cfg;
	char *help = help_of("bfq");

	kfsim_bfq_sim_config_default(&cfg);
	expect_u64(help, "actuators", cfg.disk.nr_actuators);
	expect_text(help, "disk", cfg.disk.nr_actuators == 2 ? "dual" : "single");
	expect_text(help, "sched", kfsim_bfq_sched_name(cfg.sched));
	expect_u64(help, "threshold", cfg.bfq.actuator_load_threshold);
	expect_duration(help, "slice-idle-us", cfg.bfq.slice_idle_ns);
	expect_u64(help, "low-latency", cfg.bfq.low_latency);
	expect_u64(help, "nr-requests", cfg.nr_requests);
	expect_duration(help, "duration", cfg.duration_ns);
	expect_u64(help, "seed", cfg.seed);
	expect_duration(help, "trace-window", cfg.trace_window_ns);
	expect_duration(help, "bin-ms", cfg.bin_ns);
	free(help);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plca_help_states_the_library_defaults),
		cmocka_unit_test(test_plca_segment_default_is_the_reset_segment),
		cmocka_unit_test(test_plca_runs_use_them),
		cmocka_unit_test(test_bfq_help_states_the_library_defaults),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
