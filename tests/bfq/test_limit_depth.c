// SPDX-License-Identifier: MIT
/*
 * BFQ's limit on scheduler tags (bfq_limit_depth(), bfq_update_depths(),
 * bfqq_request_over_limit(), Linux 6.12): the depths by direction and raising, a process over
 * its weight's share of the tags held to one, and in a simulation a buffered writer's
 * writeback that no longer takes the tags a reader needs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include "bfq_test_util.h"

/* async, sync write; then the same while a queue is raised: 1/2, 3/4, 3/16, 6/16, at least 1 */
static void test_depths(void **state)
{
	static const struct {
		unsigned int nr, d[4];
	} cases[] = {
		{ 64, { 32, 48, 12, 24 } },
		{ 256, { 128, 192, 48, 96 } },
		{ 62, { 31, 46, 11, 23 } },
		{ 3, { 1, 2, 1, 1 } },
		{ 1, { 1, 1, 1, 1 } },
	};
	struct gendisk disk = { 0 };
	struct bfq_data *bfqd = test_bfq(&disk, 1, 0, NULL);

	(void)state;
	assert_non_null(bfqd);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bfq_update_depths(bfqd, cases[i].nr);
		assert_int_equal(bfqd->async_depths[0][0], cases[i].d[0]);
		assert_int_equal(bfqd->async_depths[0][1], cases[i].d[1]);
		assert_int_equal(bfqd->async_depths[1][0], cases[i].d[2]);
		assert_int_equal(bfqd->async_depths[1][1], cases[i].d[3]);
	}
	bfq_exit_queue(bfqd);
}

/* Sync reads: every tag; sync writes and async I/O: their depth, smaller while one is raised. */
static void test_limit_by_direction(void **state)
{
	struct gendisk disk = { 0 };
	struct bfq_data *bfqd = test_bfq(&disk, 1, 0, NULL);
	struct bfq_io_cq *bic;

	(void)state;
	assert_non_null(bfqd);
	bfq_update_depths(bfqd, 64);
	bic = bfq_create_icq(bfqd, 1, 0, 0);
	assert_false(IS_ERR(bic));
	assert_int_equal(bfq_limit_depth(bfqd, bic, REQ_OP_READ, 64), 64);
	assert_int_equal(bfq_limit_depth(bfqd, bic, REQ_OP_WRITE, 64), 32);
	assert_int_equal(bfq_limit_depth(bfqd, bic, REQ_OP_WRITE | REQ_SYNC | REQ_IDLE, 64), 48);
	/* async_depths[!!wr_busy_queues]: some queue is being weight-raised */
	bfqd->wr_busy_queues = 1;
	assert_int_equal(bfq_limit_depth(bfqd, bic, REQ_OP_READ, 64), 64);
	assert_int_equal(bfq_limit_depth(bfqd, bic, REQ_OP_WRITE, 64), 12);
	assert_int_equal(bfq_limit_depth(bfqd, bic, REQ_OP_WRITE | REQ_SYNC, 64), 24);
	bfqd->wr_busy_queues = 0;
	/* no context (the kernel's bic lookup can fail): the direction's limit only */
	assert_int_equal(bfq_limit_depth(bfqd, NULL, REQ_OP_WRITE, 64), 32);
	bfq_exit_icq(bic);
	bfq_exit_queue(bfqd);
}

/*
 * Two readers of weight 40, both busy: each may hold DIV_ROUND_CLOSEST(64 * 40, 80) = 32 of the
 * 64 tags.  At 31 allocated a reader still gets full depth; at 32 it is held to 1, and only it.
 * A queue not on a service tree is never over its limit.
 */
static void test_over_limit(void **state)
{
	struct gendisk disk = { 0 };
	struct bfq_data *bfqd = test_bfq(&disk, 1, 0, NULL);
	struct request *rqs[40];
	struct bfq_io_cq *a, *b;
	struct request *rb;
	unsigned int n = 0;

	(void)state;
	assert_non_null(bfqd);
	bfq_update_depths(bfqd, 64);
	a = bfq_create_icq(bfqd, 1, 0, 0);
	b = bfq_create_icq(bfqd, 2, 0, 0);
	assert_false(IS_ERR(a));
	assert_false(IS_ERR(b));
	assert_int_equal(bfq_limit_depth(bfqd, a, REQ_OP_READ, 64), 64);	/* no queue yet */
	rb = test_rq(bfqd, b, 500000, 8, false);
	assert_non_null(rb);
	while (n < 31) {
		rqs[n] = test_rq(bfqd, a, 8ULL * n, 8, false);
		assert_non_null(rqs[n]);
		n++;
	}
	assert_int_equal(bfq_limit_depth(bfqd, a, REQ_OP_READ, 64), 64);
	rqs[n] = test_rq(bfqd, a, 8ULL * n, 8, false);
	assert_non_null(rqs[n]);
	n++;
	assert_int_equal(bfq_limit_depth(bfqd, a, REQ_OP_READ, 64), 1);
	assert_int_equal(bfq_limit_depth(bfqd, b, REQ_OP_READ, 64), 64);
	/* the async queue of a is a different queue: not on a tree, so no share is held */
	assert_int_equal(bfq_limit_depth(bfqd, a, REQ_OP_WRITE, 64), 32);
	for (unsigned int i = 0; i < n; i++)
		test_finish(bfqd, rqs[i]);
	test_finish(bfqd, rb);
	bfq_exit_icq(a);
	bfq_exit_icq(b);
	bfq_exit_queue(bfqd);
}

/*
 * A sequential 256k reader beside a buffered 1 MiB writer: the writeback flusher may hold only
 * async_depths[0][0] = 32 of the 64 tags, so the reader always finds one.  Without the limit
 * the writeback took every tag and the reader got 32.8 MB/s (kfsim before the limit, 10 s);
 * with none (no limit in blk-mq without an elevator) 7.5 MB/s.
 */
static void test_writer_leaves_reader_tags(void **state)
{
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char err[160];

	(void)state;
	kfsim_bfq_sim_config_default(&cfg);
	cfg.duration_ns = 10000000000ULL;
	assert_int_equal(kfsim_bfq_job_parse("name=r,rw=read,bs=256k", &cfg.jobs[0], err,
					     sizeof(err)), 0);
	assert_int_equal(kfsim_bfq_job_parse("name=w,rw=write,bs=1m,direct=0,offset=50%",
					     &cfg.jobs[1], err, sizeof(err)), 0);
	cfg.nr_jobs = 2;
	sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	print_message("reader %.1f MB/s beside writeback %.1f MB/s; %llu tags taken within a "
		      "limit, %llu allocations found none within it\n", res->jobs[0].mb_s,
		      res->jobs[2].mb_s, (unsigned long long)res->shallow_allocs,
		      (unsigned long long)res->shallow_waits);
	assert_true(res->shallow_allocs > 0);
	assert_true(res->jobs[0].mb_s > 100);
	assert_int_equal(res->completed + res->drained, res->submitted);
	kfsim_bfq_sim_destroy(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depths),
		cmocka_unit_test(test_limit_by_direction),
		cmocka_unit_test(test_over_limit),
		cmocka_unit_test(test_writer_leaves_reader_tags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
