// SPDX-License-Identifier: MIT
/*
 * BFQ's policy details against the 6.12 kernel's code (block/bfq-iosched.c, bfq-wf2q.c), one
 * test per behaviour: time charging (bfq_bfqq_charge_time), who is weight-raised
 * (bfq_bfqq_handle_idle_busy_switch: weight 40, not in a large burst), burst detection
 * (bfq_handle_burst, threshold 8, 180 ms), class and weight details, the process-reference
 * rules of bfqq->bic and of process exit, and bfq_exit_icq(NULL).  Driven by hand, with
 * simulated time in bfqd->now_ns.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "bfq/bfq_internal.h"
#include "bfq_test_util.h"

#define MS 1000000ULL

static struct bfq_data *ll_bfq(struct gendisk *disk, bool low_latency)
{
	struct bfq_tunables tun;

	bfq_tunables_default(&tun);
	tun.low_latency = low_latency;
	return test_bfq(disk, 1, KERNEL_VERSION(6, 3, 0), &tun);
}

/* The processes exit, then the scheduler goes. */
static void teardown(struct bfq_data *bfqd, struct gendisk *disk, struct bfq_io_cq *const *bics,
		     int nr)
{
	for (int i = 0; i < nr; i++)
		bfq_exit_icq(bics[i]);
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(disk);
}

/* Run every request queued to completion, one at a time, and free them. */
static void drain(struct bfq_data *bfqd)
{
	struct request *rq;

	while ((rq = test_dispatch(bfqd))) {
		bfqd->now_ns += 1 * MS;
		test_finish(bfqd, rq);
	}
}

/*
 * bfq_bfqq_charge_time(): a queue charged for time pays bfq_max_budget * min(time, timeout) /
 * timeout.  Before the fix, a queue that used more than its whole timeout paid only its
 * sectors, so a slow queue starved the others.
 */
static void test_charge_time_caps_at_timeout(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, false);
	struct bfq_io_cq *bic = bfq_create_icq(bfqd, 1, 0, 0);
	struct request *rq = test_rq(bfqd, bic, 1000, 8, false);
	struct request *d = bfq_dispatch_request(bfqd);
	struct bfq_queue *bfqq = RQ_BFQQ_OF(rq);
	int max_budget = bfqd->bfq_max_budget;

	assert_ptr_equal(d, rq);
	assert_ptr_equal(bfqd->in_service_queue, bfqq);
	assert_int_equal(bfqq->entity.service, 8);
	/* 200 ms > the 125 ms timeout: charged a whole maximum budget */
	bfq_bfqq_charge_time(bfqd, bfqq, 200);
	assert_int_equal(bfqq->entity.service, max_budget);
	assert_true(bfqq->entity.budget >= max_budget);
	/* half the timeout: half the maximum budget (it already has more: unchanged) */
	bfq_bfqq_charge_time(bfqd, bfqq, 62);
	assert_int_equal(bfqq->entity.service, max_budget);
	test_finish(bfqd, d);
	drain(bfqd);
	teardown(bfqd, &disk, (struct bfq_io_cq *[]){ bic }, 1);
}

static void test_charge_time_proportional(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, false);
	struct bfq_io_cq *bic = bfq_create_icq(bfqd, 1, 0, 0);
	struct request *rq = test_rq(bfqd, bic, 1000, 8, false);
	struct request *d = bfq_dispatch_request(bfqd);
	struct bfq_queue *bfqq = RQ_BFQQ_OF(rq);

	bfq_bfqq_charge_time(bfqd, bfqq, 25);
	assert_int_equal(bfqq->entity.service, bfqd->bfq_max_budget * 25 / 125);
	test_finish(bfqd, d);
	teardown(bfqd, &disk, (struct bfq_io_cq *[]){ bic }, 1);
}

/*
 * Interactive weight raising needs entity.new_weight == 40: a queue whose weight the user set
 * (ioprio level 0 = weight 80, io.bfq.weight) is not raised; a default queue is.
 */
static void test_only_default_weight_is_raised(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, true);
	struct bfq_io_cq *def = bfq_create_icq(bfqd, 1, 0, 0);
	struct bfq_io_cq *prio0 = bfq_create_icq(bfqd, 2, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 0), 0);
	struct bfq_io_cq *w100 = bfq_create_icq(bfqd, 3, 0, 100);
	struct request *a = test_rq(bfqd, def, 1000, 8, false);
	struct request *b = test_rq(bfqd, prio0, 500000, 8, false);
	struct request *c = test_rq(bfqd, w100, 900000, 8, false);

	assert_int_equal(RQ_BFQQ_OF(a)->entity.new_weight, 40);
	assert_int_equal(RQ_BFQQ_OF(a)->wr_coeff, 30);
	assert_int_equal(RQ_BFQQ_OF(b)->entity.new_weight, 80);
	assert_int_equal(RQ_BFQQ_OF(b)->wr_coeff, 1);
	assert_int_equal(RQ_BFQQ_OF(c)->entity.new_weight, 100);
	assert_int_equal(RQ_BFQQ_OF(c)->wr_coeff, 1);
	drain(bfqd);
	teardown(bfqd, &disk, (struct bfq_io_cq *[]){ def, prio0, w100 }, 3);
}

/*
 * bfq_handle_burst(): ten processes starting I/O within 180 ms of each other are a large burst
 * (threshold 8).  From the 8th on they are marked in_large_burst and not raised; those raised
 * before lose raising at their next dispatch (bfq_update_wr_data()).
 */
static void test_large_burst_not_raised(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, true);
	struct bfq_io_cq *bic[10];
	struct request *rq[10];

	for (int i = 0; i < 10; i++) {
		bic[i] = bfq_create_icq(bfqd, i + 1, 0, 0);
		rq[i] = test_rq(bfqd, bic[i], 1000 + (sector_t)i * 50000, 8, false);
		bfqd->now_ns += 10 * MS;	/* 10 ms apart: one burst */
	}
	for (int i = 0; i < 10; i++)
		assert_true(bfq_bfqq_in_large_burst(RQ_BFQQ_OF(rq[i])));
	assert_true(bfqd->large_burst);
	/* the 8th and later were never raised */
	for (int i = 7; i < 10; i++)
		assert_int_equal(RQ_BFQQ_OF(rq[i])->wr_coeff, 1);
	/* a dispatch of one raised earlier ends its raising */
	for (int n = 0; n < 10; n++) {
		struct request *d = test_dispatch(bfqd);
		struct bfq_queue *bfqq = RQ_BFQQ_OF(d);

		assert_int_equal(bfqq->wr_coeff, 1);
		bfqd->now_ns += 1 * MS;
		test_finish(bfqd, d);
	}
	teardown(bfqd, &disk, bic, 10);
}

/* Seven queues 10 ms apart are not a large burst; a queue 180 ms later starts a new burst. */
static void test_small_burst_raised(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, true);
	struct bfq_io_cq *bic[8];
	struct request *rq[8];

	for (int i = 0; i < 8; i++) {
		bic[i] = bfq_create_icq(bfqd, i + 1, 0, 0);
		if (i == 7)
			bfqd->now_ns += 200 * MS;	/* past bfq_burst_interval */
		rq[i] = test_rq(bfqd, bic[i], 1000 + (sector_t)i * 50000, 8, false);
		bfqd->now_ns += 10 * MS;
	}
	assert_false(bfqd->large_burst);
	for (int i = 0; i < 8; i++) {
		assert_false(bfq_bfqq_in_large_burst(RQ_BFQQ_OF(rq[i])));
		assert_int_equal(RQ_BFQQ_OF(rq[i])->wr_coeff, 30);
	}
	drain(bfqd);
	teardown(bfqd, &disk, bic, 8);
}

/* bfq_set_next_ioprio_data(): the IDLE class is level 7, weight 10, whatever level is given. */
static void test_idle_class_weight(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, false);
	struct bfq_io_cq *idle = bfq_create_icq(bfqd, 1, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0), 0);
	struct request *rq = test_rq(bfqd, idle, 1000, 8, false);

	assert_int_equal(RQ_BFQQ_OF(rq)->ioprio_class, IOPRIO_CLASS_IDLE);
	assert_int_equal(RQ_BFQQ_OF(rq)->ioprio, IOPRIO_NR_LEVELS - 1);
	assert_int_equal(RQ_BFQQ_OF(rq)->entity.new_weight, 10);
	assert_int_equal(bfq_ioprio_to_weight(0), 80);
	assert_int_equal(bfq_ioprio_to_weight(7), 10);
	drain(bfqd);
	teardown(bfqd, &disk, (struct bfq_io_cq *[]){ idle }, 1);
}

/*
 * bfq_bfqq_higher_class_or_weight() compares weights when the newcomer's class is not higher:
 * a BE queue of weight 80 arriving while an RT queue of weight 10 idles preempts it.
 */
static void test_higher_weight_preempts_lower_class(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, false);
	struct bfq_io_cq *rt = bfq_create_icq(bfqd, 1, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 7), 0);
	struct bfq_io_cq *be = bfq_create_icq(bfqd, 2, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 0), 0);
	struct request *r = test_rq(bfqd, rt, 1000, 8, false);
	struct request *d = bfq_dispatch_request(bfqd);
	struct bfq_queue *rtq = RQ_BFQQ_OF(r);
	struct request *b;

	assert_ptr_equal(d, r);
	bfqd->now_ns += 1 * MS;
	test_finish(bfqd, d);
	/* the RT queue idles for its next request (it is alone: idling for guarantees) */
	assert_ptr_equal(bfqd->in_service_queue, rtq);
	assert_true(bfq_bfqq_wait_request(rtq));
	b = test_rq(bfqd, be, 500000, 8, false);
	assert_int_equal(rtq->nr_expirations[BFQQE_PREEMPTED], 1);
	assert_ptr_not_equal(bfqd->in_service_queue, rtq);
	d = test_dispatch(bfqd);
	assert_ptr_equal(d, b);
	test_finish(bfqd, d);
	teardown(bfqd, &disk, (struct bfq_io_cq *[]){ rt, be }, 2);
}

/*
 * bfq_init_rq(): bfqq->bic is set only while the queue has one process reference.  Two
 * processes of the same priority share the async queue: it stays with the first.
 */
static void test_shared_queue_keeps_first_bic(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, false);
	struct bfq_io_cq *p1 = bfq_create_icq(bfqd, 1, 0, 0);
	struct bfq_io_cq *p2 = bfq_create_icq(bfqd, 2, 0, 0);
	struct request *w1 = test_rq(bfqd, p1, 1000, 8, true);
	struct request *w2 = test_rq(bfqd, p2, 2000, 8, true);

	assert_ptr_equal(RQ_BFQQ_OF(w1), RQ_BFQQ_OF(w2));
	assert_ptr_equal(RQ_BFQQ_OF(w1)->bic, p1);
	drain(bfqd);
	teardown(bfqd, &disk, (struct bfq_io_cq *[]){ p1, p2 }, 2);
}

/*
 * bfq_release_process_ref(): a process exits while its queue, not in service, is busy and
 * empty with a request still on the device: the queue leaves the busy set at once.
 */
static void test_exit_unbusies_queue_with_request_in_flight(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, false);
	struct bfq_io_cq *bic = bfq_create_icq(bfqd, 1, 0, 0);
	struct request *rq = test_rq(bfqd, bic, 1000, 8, false);
	struct request *d = bfq_dispatch_request(bfqd);
	struct bfq_queue *bfqq = RQ_BFQQ_OF(rq);

	assert_ptr_equal(d, rq);
	/* preempted while alone: kept busy (idling for its guarantees), out of service */
	bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_PREEMPTED);
	assert_null(bfqd->in_service_queue);
	assert_true(bfq_bfqq_busy(bfqq));
	assert_int_equal(bfqq->dispatched, 1);
	bfq_exit_icq(bic);
	assert_false(bfq_bfqq_busy(bfqq));
	assert_int_equal(bfq_tot_busy_queues(bfqd), 0);
	test_finish(bfqd, d);
	bfq_exit_queue(bfqd);
	disk_free_ia_ranges(&disk);
}

static void test_exit_icq_null(void **state)
{
	bfq_exit_icq(NULL);	/* the kernel's icq_exit never passes NULL; kfsim accepts it */
}

/* bfq_completed_request(): a queue that went idle restarts its idle clock at its last completion. */
static void test_idle_clock_starts_at_completion(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, false);
	struct bfq_io_cq *a = bfq_create_icq(bfqd, 1, 0, 0);
	struct bfq_io_cq *b = bfq_create_icq(bfqd, 2, 0, 0);
	struct request *ra = test_rq(bfqd, a, 1000, 8, false);
	struct request *rb = test_rq(bfqd, b, 900000, 8, false);
	struct request *d1 = test_dispatch(bfqd), *d2;
	struct bfq_queue *q1 = RQ_BFQQ_OF(d1);

	(void)ra;
	(void)rb;
	/* the first queue expires (no more requests) while its request is on the device */
	bfq_bfqq_expire(bfqd, q1, false, BFQQE_NO_MORE_REQUESTS);
	d2 = test_dispatch(bfqd);
	bfqd->now_ns += 50 * MS;
	test_finish(bfqd, d1);
	if (!bfq_bfqq_busy(q1))
		assert_int_equal(q1->budget_timeout, bfq_jiffies(bfqd));
	test_finish(bfqd, d2);
	teardown(bfqd, &disk, (struct bfq_io_cq *[]){ a, b }, 2);
}

/* bfq_create_group(): one group per name, weights 1..1000; a process joins before its queues exist. */
static void test_group_api(void **state)
{
	struct gendisk disk;
	struct bfq_data *bfqd = ll_bfq(&disk, false);
	struct bfq_group *g = bfq_create_group(bfqd, "web", 300);
	struct bfq_io_cq *bic = bfq_create_icq(bfqd, 1, 0, 0);
	struct request *rq;

	assert_false(IS_ERR(g));
	assert_ptr_equal(bfq_create_group(bfqd, "web", 300), g);
	assert_ptr_equal(bfq_create_group(bfqd, "web", 200), ERR_PTR(-EINVAL));
	assert_ptr_equal(bfq_create_group(bfqd, "", 100), ERR_PTR(-EINVAL));
	assert_ptr_equal(bfq_create_group(bfqd, "x", 0), ERR_PTR(-EINVAL));
	assert_ptr_equal(bfq_create_group(bfqd, "x", 1001), ERR_PTR(-EINVAL));
	assert_int_equal(bfq_bic_set_group(bic, g), 0);
	rq = test_rq(bfqd, bic, 1000, 8, false);
	/* the queue is in the group; the group competes at the root with its weight */
	assert_ptr_equal(RQ_BFQQ_OF(rq)->entity.parent, &g->entity);
	assert_int_equal(RQ_BFQQ_OF(rq)->entity.new_weight, 40);
	assert_true(g->entity.on_st_or_in_serv);
	assert_int_equal(g->entity.weight, 300);
	assert_int_equal(bfq_bic_set_group(bic, NULL), -EBUSY);
	drain(bfqd);
	teardown(bfqd, &disk, &bic, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_charge_time_caps_at_timeout),
		cmocka_unit_test(test_charge_time_proportional),
		cmocka_unit_test(test_only_default_weight_is_raised),
		cmocka_unit_test(test_large_burst_not_raised),
		cmocka_unit_test(test_small_burst_raised),
		cmocka_unit_test(test_idle_class_weight),
		cmocka_unit_test(test_higher_weight_preempts_lower_class),
		cmocka_unit_test(test_shared_queue_keeps_first_bic),
		cmocka_unit_test(test_exit_unbusies_queue_with_request_in_flight),
		cmocka_unit_test(test_exit_icq_null),
		cmocka_unit_test(test_idle_clock_starts_at_completion),
		cmocka_unit_test(test_group_api),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
