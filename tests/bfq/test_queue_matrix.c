// SPDX-License-Identifier: MIT
/*
 * The bfq_io_cq queue matrix: one queue per (process, sync/async, actuator) in 6.3, one per
 * process before; shared async queues; the life of queues and io contexts (run under ASan for
 * leaks and use-after-free).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/bug.h>
#include "bfq_test_util.h"

static void test_matrix_has_one_queue_per_actuator_and_direction(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 2, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *a = bfq_create_icq(bfqd, 1, 0, 0);
	struct bfq_io_cq *b = bfq_create_icq(bfqd, 2, 0, 0);
	struct request *rqs[6];
	struct request *rq;

	rqs[0] = test_rq(bfqd, a, 100, 8, false);
	rqs[1] = test_rq(bfqd, a, TEST_CAPACITY / 2 + 100, 8, false);
	rqs[2] = test_rq(bfqd, a, 200, 8, true);
	rqs[3] = test_rq(bfqd, a, TEST_CAPACITY / 2 + 200, 8, true);
	rqs[4] = test_rq(bfqd, b, 300, 8, true);
	rqs[5] = test_rq(bfqd, b, 400, 8, false);
	for (int sync = 0; sync < 2; sync++) {
		for (unsigned int act = 0; act < 2; act++) {
			struct bfq_queue *bfqq = bic_to_bfqq(a, sync, act);

			assert_non_null(bfqq);
			assert_int_equal(bfqq->actuator_idx, act);
			assert_int_equal(!!(bfqq->flags & (1UL << 6 /* BFQQF_sync */)), sync);
		}
	}
	assert_ptr_not_equal(bic_to_bfqq(a, true, 0), bic_to_bfqq(a, true, 1));
	assert_ptr_not_equal(bic_to_bfqq(a, true, 0), bic_to_bfqq(b, true, 0));
	/* async queues are shared by processes of the same priority, per actuator */
	assert_ptr_equal(bic_to_bfqq(a, false, 0), bic_to_bfqq(b, false, 0));
	assert_ptr_equal(bfqd->async_bfqq[1][BFQ_DEFAULT_QUEUE_IOPRIO][0], bic_to_bfqq(a, false, 0));
	assert_null(bic_to_bfqq(b, false, 1));
	assert_ptr_equal(RQ_BFQQ_OF(rqs[1]), bic_to_bfqq(a, true, 1));
	/* drain: everything dispatched and finished once */
	for (int n = 0; n < 6; n++) {
		bfqd->now_ns += 1000;
		rq = test_dispatch(bfqd);
		assert_non_null(rq);
		test_finish(bfqd, rq);
	}
	assert_null(bfq_dispatch_request(bfqd));
	/* the last queue idles for its next request; the timer ends the slot */
	assert_int_not_equal(bfqd->idle_slice_timer_expires, 0);
	bfqd->now_ns = bfqd->idle_slice_timer_expires;
	bfq_idle_slice_timer(bfqd);
	assert_null(bfqd->in_service_queue);
	assert_int_equal(bfqd->tot_rq_in_driver, 0);
	bfq_exit_icq(a);
	bfq_exit_icq(b);
	/* only the root group's async queues remain */
	assert_false(blk_list_empty(&bfqd->all_queues));
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_pre_6_3_has_one_queue_per_process(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 2, KERNEL_VERSION(6, 2, 0), NULL);
	struct bfq_io_cq *a = bfq_create_icq(bfqd, 1, 0, 0);
	struct request *r0 = test_rq(bfqd, a, 100, 8, false);
	struct request *r1 = test_rq(bfqd, a, TEST_CAPACITY / 2 + 100, 8, false);

	assert_ptr_equal(RQ_BFQQ_OF(r0), RQ_BFQQ_OF(r1));
	assert_ptr_equal(bic_to_bfqq(a, true, 0), RQ_BFQQ_OF(r0));
	assert_null(bic_to_bfqq(a, true, 1));
	for (int n = 0; n < 2; n++)
		test_finish(bfqd, test_dispatch(bfqd));
	bfq_exit_icq(a);
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_exit_with_requests_pending_keeps_queues_alive(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 2, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *a = bfq_create_icq(bfqd, 1, 0, 0);
	struct request *rq, *queued[4];
	int n = 0;

	for (int i = 0; i < 4; i++)
		queued[i] = test_rq(bfqd, a, (sector_t)i * (TEST_CAPACITY / 4) + 8, 8, false);
	/* one in the driver, three still queued when the process exits */
	rq = test_dispatch(bfqd);
	assert_non_null(rq);
	bfq_exit_icq(a);
	assert_null(bic_to_bfqq(a, true, 0));	/* slots cleared first ... */
	assert_null(bic_to_bfqq(a, true, 1));
	test_finish(bfqd, rq);			/* ... the queues live on for their requests */
	while ((rq = test_dispatch(bfqd))) {
		bfqd->now_ns += 1000;
		test_finish(bfqd, rq);
		n++;
	}
	assert_int_equal(n, 3);			/* the bic went with the last one (ASan checks) */
	assert_true(blk_list_empty(&bfqd->all_queues));
	(void)queued;
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_exit_queue_before_icq(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 4, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *a = bfq_create_icq(bfqd, 1, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 2), 0);
	struct request *rq = test_rq(bfqd, a, 3 * TEST_CAPACITY / 4 + 8, 8, true);

	assert_ptr_equal(bfqd->async_bfqq[0][2][3], bic_to_bfqq(a, false, 3));
	test_finish(bfqd, test_dispatch(bfqd));
	(void)rq;
	bfq_exit_queue(bfqd);		/* the scheduler goes first: the bic loses its queues */
	assert_null(a->bfqd);
	assert_null(bic_to_bfqq(a, false, 3));
	bfq_exit_icq(a);		/* walks all BFQ_MAX_ACTUATORS columns, all NULL */
	disk_free_ia_ranges(&disk);
}

static void test_bic_set_bfqq_forgets_back_pointer(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 2, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *a = bfq_create_icq(bfqd, 1, 0, 0);
	struct request *rq = test_rq(bfqd, a, 8, 8, false);
	struct bfq_queue *bfqq = bic_to_bfqq(a, true, 0);

	assert_ptr_equal(bfqq->bic, a);
	bic_set_bfqq(a, NULL, true, 0);
	assert_null(bfqq->bic);
	assert_null(bic_to_bfqq(a, true, 0));
	bic_set_bfqq(a, bfqq, true, 0);	/* give the slot (and its reference) back */
	test_finish(bfqd, test_dispatch(bfqd));
	(void)rq;
	bfq_exit_icq(a);
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_state_is_saved_per_actuator(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 2, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_io_cq *a = bfq_create_icq(bfqd, 1, 0, 0);
	struct request *r0 = test_rq(bfqd, a, 8, 8, false);
	struct request *r1 = test_rq(bfqd, a, TEST_CAPACITY / 2 + 8, 8, false);
	struct bfq_queue *q0 = bic_to_bfqq(a, true, 0), *q1 = bic_to_bfqq(a, true, 1);

	q0->ttime.ttime_mean = 1234;
	q1->ttime.ttime_mean = 5678;
	bfq_bfqq_save_state(q0);
	bfq_bfqq_save_state(q1);
	assert_true(a->bfqq_data[0].saved && a->bfqq_data[1].saved);
	assert_int_equal(a->bfqq_data[0].saved_ttime.ttime_mean, 1234);
	assert_int_equal(a->bfqq_data[1].saved_ttime.ttime_mean, 5678);
	q0->ttime.ttime_mean = 0;
	bfq_bfqq_resume_state(q0, a);
	assert_int_equal(q0->ttime.ttime_mean, 1234);
	assert_false(a->bfqq_data[0].saved);
	assert_true(a->bfqq_data[1].saved);
	(void)r0;
	(void)r1;
	for (int n = 0; n < 2; n++)
		test_finish(bfqd, test_dispatch(bfqd));
	bfq_exit_icq(a);
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_bad_icq_and_tunables(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = test_bfq(&disk, 1, KERNEL_VERSION(6, 3, 0), NULL);
	struct bfq_tunables tun;

	assert_ptr_equal(bfq_create_icq(bfqd, 1, IOPRIO_PRIO_VALUE(5, 0), 0), ERR_PTR(-EINVAL));
	assert_ptr_equal(bfq_create_icq(bfqd, 1, 0, 1001), ERR_PTR(-EINVAL));
	bfq_exit_queue(bfqd);
	bfq_tunables_default(&tun);
	tun.actuator_load_threshold = 0;
	assert_ptr_equal(bfq_init_queue(&disk, &tun), ERR_PTR(-EINVAL));
	bfq_tunables_default(&tun);
	tun.timeout_ms = 0;
	assert_ptr_equal(bfq_init_queue(&disk, &tun), ERR_PTR(-EINVAL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_has_one_queue_per_actuator_and_direction),
		cmocka_unit_test(test_pre_6_3_has_one_queue_per_process),
		cmocka_unit_test(test_exit_with_requests_pending_keeps_queues_alive),
		cmocka_unit_test(test_exit_queue_before_icq),
		cmocka_unit_test(test_bic_set_bfqq_forgets_back_pointer),
		cmocka_unit_test(test_state_is_saved_per_actuator),
		cmocka_unit_test(test_bad_icq_and_tunables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
