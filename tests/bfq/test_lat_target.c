// SPDX-License-Identifier: MIT
/*
 * fio's latency-target depth search (src/bfq/sim_lat_target.c), step by step: completions with
 * chosen latencies, and the depths fio 3.33's io_u.c reaches from them (worked by hand from
 * lat_target_success() and __lat_target_failed()).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include "../../src/bfq/sim_jobs.h"

#define WINDOW 1000	/* ns */
#define TARGET 100	/* ns */

static struct kfsim_bfq_job lat_job(unsigned int iodepth, double percentile)
{
	struct kfsim_bfq_job job;

	kfsim_bfq_job_default(&job);
	job.iodepth = iodepth;
	job.latency_target_ns = TARGET;
	job.latency_window_ns = WINDOW;
	job.latency_percentile = percentile;
	return job;
}

/* Each window met: the depth doubles to the iodepth, settles, runs a last window, ends. */
static void test_doubles_settles_ends(void **state)
{
	struct kfsim_bfq_job job = lat_job(8, 100);
	struct sim_lat_target lt;
	const unsigned int depths[] = { 2, 4, 8 };
	u64 ios = 0;

	sim_lat_target_init(&lt, &job, 0, 0);
	assert_int_equal(lt.qd, 1);
	/* inside the window nothing is judged */
	sim_lat_target_complete(&lt, &job, 50, WINDOW - 1, ++ios);
	assert_int_equal(lt.qd, 1);
	for (unsigned int i = 0; i < 3; i++) {
		sim_lat_target_complete(&lt, &job, 50, (i + 1) * WINDOW, ++ios);
		assert_int_equal(lt.qd, depths[i]);
		assert_false(lt.drain_cycle);
	}
	/* 8 again (16 capped at the iodepth): drain, figures start again, one more window */
	sim_lat_target_complete(&lt, &job, 50, 4 * WINDOW, ++ios);
	assert_int_equal(lt.qd, 8);
	assert_true(lt.drain_cycle && lt.drain_reset);
	assert_false(lt.end_run);
	/* a completion reaped while draining that succeeds again does not end the search */
	sim_lat_target_complete(&lt, &job, 50, 4 * WINDOW + 10, ++ios);
	assert_false(lt.done);
	assert_true(sim_lat_target_drained(&lt));
	assert_true(lt.end_run);
	ios = 0;
	sim_lat_target_new_cycle(&lt, 4 * WINDOW + 20, ios);
	sim_lat_target_complete(&lt, &job, 50, 5 * WINDOW + 20, ++ios);
	assert_true(lt.done);
	assert_int_equal(lt.qd, 8);
}

/* A late I/O with a 100 % target fails at once: bisect down, drain, then bisect up. */
static void test_fails_bisects(void **state)
{
	struct kfsim_bfq_job job = lat_job(8, 100);
	struct sim_lat_target lt;
	u64 ios = 0;

	sim_lat_target_init(&lt, &job, 0, 0);
	for (unsigned int i = 1; i <= 3; i++)
		sim_lat_target_complete(&lt, &job, 50, i * WINDOW, ++ios);
	assert_int_equal(lt.qd, 8);
	assert_int_equal(lt.qd_low, 4);
	sim_lat_target_complete(&lt, &job, TARGET + 1, 3 * WINDOW + 10, ++ios);
	assert_int_equal(lt.qd, 6);	/* (8 + 4) / 2 */
	assert_int_equal(lt.qd_high, 8);
	assert_true(lt.drain_cycle);
	/* another late one while draining: judged too, as fio's quiesce reaps it */
	sim_lat_target_complete(&lt, &job, TARGET + 1, 3 * WINDOW + 20, ++ios);
	assert_int_equal(lt.qd, 5);	/* (6 + 4) / 2 */
	assert_int_equal(lt.qd_high, 6);
	assert_false(sim_lat_target_drained(&lt));
	assert_false(lt.end_run);
	sim_lat_target_new_cycle(&lt, 3 * WINDOW + 30, ios);
	/* met at 5, one below the failing 6: the ceiling creeps up on the third in a row */
	sim_lat_target_complete(&lt, &job, 50, 4 * WINDOW + 30, ++ios);
	assert_int_equal(lt.qd_low, 5);
	assert_int_equal(lt.qd, 5);	/* (5 + 6) / 2: settled */
	assert_true(lt.drain_reset);
}

/* Below 100 %, late I/Os are counted and the window judged by its share of them. */
static void test_percentile(void **state)
{
	struct kfsim_bfq_job job = lat_job(4, 90);
	struct sim_lat_target lt;
	u64 ios = 0;

	sim_lat_target_init(&lt, &job, 0, 0);
	for (unsigned int i = 0; i < 8; i++)
		sim_lat_target_complete(&lt, &job, 50, 10 + i, ++ios);
	sim_lat_target_complete(&lt, &job, TARGET + 1, 100, ++ios);
	assert_int_equal(lt.failed, 1);
	sim_lat_target_complete(&lt, &job, 50, WINDOW, ++ios);	/* 9 of 10: 90 % */
	assert_int_equal(lt.qd, 2);
	/* 2 of 4 late at depth 2: down to 1 */
	sim_lat_target_complete(&lt, &job, TARGET + 1, WINDOW + 1, ++ios);
	sim_lat_target_complete(&lt, &job, TARGET + 1, WINDOW + 2, ++ios);
	sim_lat_target_complete(&lt, &job, 50, WINDOW + 3, ++ios);
	sim_lat_target_complete(&lt, &job, 50, 2 * WINDOW, ++ios);
	assert_int_equal(lt.qd, 1);
	assert_false(sim_lat_target_drained(&lt));
	sim_lat_target_new_cycle(&lt, 2 * WINDOW, ios);
	/* at depth 1 a failed window goes on and is judged again at each completion */
	sim_lat_target_complete(&lt, &job, TARGET + 1, 3 * WINDOW, ++ios);
	assert_int_equal(lt.qd, 1);
	assert_false(lt.drain_cycle);
	for (unsigned int i = 0; i < 9; i++)
		sim_lat_target_complete(&lt, &job, 50, 3 * WINDOW + 1 + i, ++ios);
	/* 9 of 10 met: success at 1, one below the failing 2, which bisects to 1: settled */
	assert_int_equal(lt.qd, 1);
	assert_int_equal(lt.qd_high, 2);
	assert_true(lt.drain_reset);
	assert_false(lt.fatal);
}

/* 100 %: a late I/O at depth 1 ends the job (lat_fatal(): ETIMEDOUT). */
static void test_fatal_at_depth_one(void **state)
{
	struct kfsim_bfq_job job = lat_job(4, 100);
	struct sim_lat_target lt;

	sim_lat_target_init(&lt, &job, 0, 0);
	sim_lat_target_complete(&lt, &job, TARGET, 10, 1);	/* at the target is within it */
	assert_false(lt.fatal);
	sim_lat_target_complete(&lt, &job, TARGET + 1, 20, 2);
	assert_true(lt.fatal);
}

/* latency_run: a settled depth keeps being searched rather than ending the job. */
static void test_latency_run(void **state)
{
	struct kfsim_bfq_job job = lat_job(2, 100);
	struct sim_lat_target lt;
	u64 ios = 0;

	job.latency_run = true;
	sim_lat_target_init(&lt, &job, 0, 0);
	for (unsigned int i = 1; i <= 6; i++) {
		sim_lat_target_complete(&lt, &job, 50, i * WINDOW, ++ios);
		assert_int_equal(lt.qd, 2);
		assert_false(lt.drain_cycle || lt.done);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doubles_settles_ends),
		cmocka_unit_test(test_fails_bisects),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_fatal_at_depth_one),
		cmocka_unit_test(test_latency_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
