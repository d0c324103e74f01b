// SPDX-License-Identifier: MIT
/*
 * B-WF2Q+ on small deterministic cases: backlogged queues share the device in proportion to
 * their weights, a queue keeps service for its budget, weights come from the I/O priority, and
 * virtual time only moves forward.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "bfq_test_util.h"

#define NR_PROCS 3

/* Keep each process backlogged with @depth sequential requests; serve @n dispatches. */
static void run_backlogged(struct bfq_data *bfqd, struct bfq_io_cq **bics, int nr, int depth,
			   int n, u64 *sectors, int *order)
{
	sector_t next[NR_PROCS];

	for (int p = 0; p < nr; p++) {
		next[p] = (sector_t)p * 100000;
		for (int d = 0; d < depth; d++) {
			test_rq(bfqd, bics[p], next[p], 8, false);
			next[p] += 8;
		}
	}
	for (int i = 0; i < n; i++) {
		struct request *rq;
		struct bfq_io_cq *bic;
		int p;

		bfqd->now_ns += 50000;	/* 50 us per request: budgets end before timeouts */
		rq = test_dispatch(bfqd);
		assert_non_null(rq);
		bic = rq->elv_priv[0];
		for (p = 0; p < nr && bics[p] != bic; p++)
			;
		assert_true(p < nr);
		sectors[p] += blk_rq_sectors(rq);
		if (order)
			order[i] = p;
		test_finish(bfqd, rq);
		test_rq(bfqd, bics[p], next[p], 8, false);
		next[p] += 8;
	}
}

static void drain(struct bfq_data *bfqd)
{
	struct request *rq;

	while ((rq = test_dispatch(bfqd))) {
		bfqd->now_ns += 100000;
		test_finish(bfqd, rq);
	}
}

static void test_weights_give_proportional_service(void **state)
{
	struct gendisk disk;
	struct bfq_tunables tun;
	struct bfq_data *bfqd;
	struct bfq_io_cq *bics[NR_PROCS];
	unsigned int weights[NR_PROCS] = { 10, 20, 30 };
	u64 sectors[NR_PROCS] = { 0 };
	u64 total = 0;

	bfq_tunables_default(&tun);
	tun.low_latency = false;
	bfqd = test_bfq(&disk, 1, KERNEL_VERSION(6, 3, 0), &tun);
	for (int p = 0; p < NR_PROCS; p++)
		bics[p] = bfq_create_icq(bfqd, p + 1, 0, weights[p]);
	run_backlogged(bfqd, bics, NR_PROCS, 4, 30000, sectors, NULL);
	for (int p = 0; p < NR_PROCS; p++)
		total += sectors[p];
	for (int p = 0; p < NR_PROCS; p++) {
		double share = (double)sectors[p] / (double)total;
		double want = weights[p] / 60.0;

		/* within one maximum budget's worth of the ideal share */
		assert_true(share > want - 0.05 && share < want + 0.05);
	}
	drain(bfqd);
	for (int p = 0; p < NR_PROCS; p++)
		bfq_exit_icq(bics[p]);
	bfq_exit_queue(bfqd);
}

static void test_queue_keeps_service_for_its_budget(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 1, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *bics[2];
	u64 sectors[2] = { 0 };
	static int order[4000];
	int first_switch = -1;

	for (int p = 0; p < 2; p++)
		bics[p] = bfq_create_icq(bfqd, p + 1, 0, 0);
	run_backlogged(bfqd, bics, 2, 2, 4000, sectors, order);
	/* the first queue activated is served first, without interleaving, for its budget */
	assert_int_equal(order[0], 0);
	for (int i = 1; i < 4000 && first_switch < 0; i++) {
		if (order[i] != order[0])
			first_switch = i;
	}
	/* new queues get 2/3 of the default maximum budget: 10922 sectors = 1365 requests */
	assert_int_equal(first_switch, (2 * 16384 / 3) / 8);
	drain(bfqd);
	for (int p = 0; p < 2; p++)
		bfq_exit_icq(bics[p]);
	bfq_exit_queue(bfqd);
}

/*
 * Seed 975 of fio_physics.py (docs/bfq.md, "Seed 975"), the step that leaves a raised queue
 * behind the others, as 6.12 has it: raising cuts a new queue's budget to 2 x bfq_min_budget()
 * (bfq_update_bfqq_wr_on_rq_arrival()) but not its max_budget (2/3 of 16384), and a second
 * request that becomes next_rq makes bfq_updated_next_req() put the budget back to max_budget.
 */
static void test_raised_new_queue_budget_back_to_max_budget(void **state)
{
	struct gendisk disk;
	struct bfq_tunables tun;
	struct bfq_data *bfqd;
	struct bfq_io_cq *bic;
	struct bfq_queue *bfqq;
	struct request *rq[2];

	bfq_tunables_default(&tun);	/* low_latency on */
	bfqd = test_bfq(&disk, 1, KERNEL_VERSION(6, 3, 0), &tun);
	assert_non_null(bfqd);
	bic = bfq_create_icq(bfqd, 1, 0, 0);
	rq[0] = test_rq(bfqd, bic, 1000, 1, false);
	bfqq = RQ_BFQQ_OF(rq[0]);
	assert_int_equal(bfqq->wr_coeff, 30);
	assert_int_equal(bfqq->entity.budget, 2 * (16384 / 32));
	assert_int_equal(bfqq->max_budget, 2 * 16384 / 3);
	/* nearer the head (last_position 0): the new next_rq */
	rq[1] = test_rq(bfqd, bic, 500, 1, false);
	assert_ptr_equal(bfqq->next_rq, rq[1]);
	assert_int_equal(bfqq->entity.budget, 2 * 16384 / 3);
	for (int i = 0; i < 2; i++) {
		struct request *d = test_dispatch(bfqd);

		assert_non_null(d);
		test_finish(bfqd, d);
	}
	bfq_exit_icq(bic);
	bfq_exit_queue(bfqd);
}

/*
 * bfq_updated_next_req() (6.12): the new budget is at least the service the queue has had, so
 * a queue that was served while not in service (by injection) keeps budget >= service.
 */
static void test_updated_next_req_budget_covers_service(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 1, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *bics[2];
	struct bfq_queue *bfqq;
	struct request *rq;

	for (int p = 0; p < 2; p++)
		bics[p] = bfq_create_icq(bfqd, p + 1, 0, 0);
	test_rq(bfqd, bics[0], 0, 8, false);
	rq = test_dispatch(bfqd);	/* the first queue is in service */
	assert_non_null(rq);
	bfqq = RQ_BFQQ_OF(test_rq(bfqd, bics[1], 500000, 8, false));
	assert_ptr_not_equal(bfqq, bfqd->in_service_queue);
	/* as if injection had served it 20000 sectors while the other queue was in service */
	bfqq->entity.service = 20000;
	test_rq(bfqd, bics[1], 400000, 8, false);	/* a new next_rq (nearer the head) */
	assert_int_equal(bfqq->entity.budget, 20000);
	bfqq->entity.service = 0;
	test_finish(bfqd, rq);
	drain(bfqd);
	for (int p = 0; p < 2; p++)
		bfq_exit_icq(bics[p]);
	bfq_exit_queue(bfqd);
}

static void test_ioprio_weights_and_vtime(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 1, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *hi = bfq_create_icq(bfqd, 1, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 0), 0);
	struct bfq_io_cq *lo = bfq_create_icq(bfqd, 2, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7), 0);
	struct bfq_io_cq *none = bfq_create_icq(bfqd, 3, 0, 0);
	struct request *r[3];
	u64 vtime = 0;

	assert_int_equal(bfq_ioprio_to_weight(0), 80);
	assert_int_equal(bfq_ioprio_to_weight(4), 40);
	assert_int_equal(bfq_ioprio_to_weight(7), 10);
	r[0] = test_rq(bfqd, hi, 0, 8, false);
	r[1] = test_rq(bfqd, lo, 1000, 8, false);
	r[2] = test_rq(bfqd, none, 2000, 8, false);
	assert_int_equal(((struct bfq_queue *)r[0]->elv_priv[1])->entity.weight, 80);
	assert_int_equal(((struct bfq_queue *)r[1]->elv_priv[1])->entity.weight, 10);
	assert_int_equal(((struct bfq_queue *)r[2]->elv_priv[1])->entity.weight, 40);
	assert_int_equal(bfqd->sd.service_tree[1].wsum, 130);
	for (int i = 0; i < 3; i++) {
		struct request *rq = test_dispatch(bfqd);

		assert_true(bfqd->sd.service_tree[1].vtime >= vtime);
		vtime = bfqd->sd.service_tree[1].vtime;
		bfqd->now_ns += 1000000;
		test_finish(bfqd, rq);
	}
	drain(bfqd);
	bfq_exit_icq(hi);
	bfq_exit_icq(lo);
	bfq_exit_icq(none);
	bfq_exit_queue(bfqd);
}

static void test_rt_class_before_best_effort(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 1, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *be = bfq_create_icq(bfqd, 1, 0, 0);
	struct bfq_io_cq *rt = bfq_create_icq(bfqd, 2, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 4), 0);
	struct request *rq;

	test_rq(bfqd, be, 0, 8, false);
	test_rq(bfqd, rt, 5000, 8, false);
	rq = test_dispatch(bfqd);
	assert_ptr_equal(rq->elv_priv[0], rt);
	test_finish(bfqd, rq);
	drain(bfqd);
	bfq_exit_icq(be);
	bfq_exit_icq(rt);
	bfq_exit_queue(bfqd);
}

static void test_requests_in_sector_order_with_fifo_expiry(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 1, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *a = bfq_create_icq(bfqd, 1, 0, 0);
	sector_t order[] = { 800, 100, 500, 300 }, got[4];
	struct request *rq;

	for (int i = 0; i < 4; i++)
		test_rq(bfqd, a, order[i], 8, false);
	for (int i = 0; i < 4; i++) {
		rq = test_dispatch(bfqd);
		got[i] = blk_rq_pos(rq);
		test_finish(bfqd, rq);
	}
	/* a one-way sweep up from the head position (sector 0) */
	assert_int_equal(got[0], 100);
	assert_int_equal(got[1], 300);
	assert_int_equal(got[2], 500);
	assert_int_equal(got[3], 800);
	drain(bfqd);
	/* an expired FIFO head jumps the sector order once per slot */
	test_rq(bfqd, a, 10, 8, false);
	test_rq(bfqd, a, 900, 8, false);
	test_rq(bfqd, a, 1000, 8, false);
	bfqd->now_ns += 200 * 1000000ULL;	/* beyond fifo_expire_sync (125 ms) */
	rq = test_dispatch(bfqd);
	assert_int_equal(blk_rq_pos(rq), 900);	/* the sweep from the head at 808 */
	test_finish(bfqd, rq);
	rq = test_dispatch(bfqd);
	assert_int_equal(blk_rq_pos(rq), 10);	/* the expired oldest, not 1000 */
	test_finish(bfqd, rq);
	drain(bfqd);
	bfq_exit_icq(a);
	bfq_exit_queue(bfqd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weights_give_proportional_service),
		cmocka_unit_test(test_queue_keeps_service_for_its_budget),
		cmocka_unit_test(test_raised_new_queue_budget_back_to_max_budget),
		cmocka_unit_test(test_updated_next_req_budget_covers_service),
		cmocka_unit_test(test_ioprio_weights_and_vtime),
		cmocka_unit_test(test_rt_class_before_best_effort),
		cmocka_unit_test(test_requests_in_sector_order_with_fifo_expiry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
