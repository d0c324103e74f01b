// SPDX-License-Identifier: MIT
/*
 * The 6.3 injection for underused actuators: when it fires, for which actuator, the load
 * threshold, patch 8's balance rule, budgets, and that pre-6.3 never injects.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "bfq_test_util.h"

#define HALF (TEST_CAPACITY / 2)

struct two_procs {
	struct gendisk disk;
	struct bfq_data *bfqd;
	struct bfq_io_cq *a, *b;	/* a reads on actuator 0, b on actuator 1 */
};

static void setup(struct two_procs *t, unsigned int kver, unsigned int threshold, bool balance)
{
	struct bfq_tunables tun;

	bfq_tunables_default(&tun);
	tun.low_latency = false;
	tun.actuator_load_threshold = threshold;
	tun.next_actuator_balance = balance;
	t->bfqd = test_bfq(&t->disk, 2, kver, &tun);
	assert_non_null(t->bfqd);
	t->a = bfq_create_icq(t->bfqd, 1, 0, 0);
	t->b = bfq_create_icq(t->bfqd, 2, 0, 0);
}

static void teardown(struct two_procs *t, struct request **rqs, int n)
{
	struct request *rq;

	for (int i = 0; i < n; i++) {
		if (rqs[i])
			test_finish(t->bfqd, rqs[i]);
	}
	while ((rq = test_dispatch(t->bfqd)))
		test_finish(t->bfqd, rq);
	bfq_exit_icq(t->a);
	bfq_exit_icq(t->b);
	bfq_exit_queue(t->bfqd);
	disk_free_ia_ranges(&t->disk);
}

static void test_idle_actuator_gets_injected_io(void **state)
{
	struct two_procs t;
	struct request *d[2];

	setup(&t, KERNEL_VERSION(6, 3, 0), 4, true);
	test_rq(t.bfqd, t.a, 8, 8, false);
	test_rq(t.bfqd, t.b, HALF + 8, 8, false);
	/* a's queue goes in service, but actuator 1 is idle: b's request is injected first */
	d[0] = test_dispatch(t.bfqd);
	assert_ptr_equal(d[0]->elv_priv[0], t.b);
	assert_true(d[0]->injected);
	assert_ptr_equal(t.bfqd->in_service_queue, bic_to_bfqq(t.a, true, 0));
	/* now actuator 0 (0 in flight) is below actuator 1 (1): the in-service queue serves it */
	d[1] = test_dispatch(t.bfqd);
	assert_ptr_equal(d[1]->elv_priv[0], t.a);
	assert_false(d[1]->injected);
	assert_int_equal(t.bfqd->rq_in_driver[0], 1);
	assert_int_equal(t.bfqd->rq_in_driver[1], 1);
	assert_int_equal(t.bfqd->tot_rq_in_driver, 2);
	assert_int_equal(t.bfqd->nr_injected[1], 1);
	assert_int_equal(t.bfqd->nr_injected[0], 0);
	teardown(&t, d, 2);
}

static void test_threshold_limits_injection(void **state)
{
	struct two_procs t;
	struct request *d[3];

	setup(&t, KERNEL_VERSION(6, 3, 0), 1, true);
	test_rq(t.bfqd, t.a, 8, 8, false);
	test_rq(t.bfqd, t.a, 16, 8, false);
	test_rq(t.bfqd, t.b, HALF + 8, 8, false);
	test_rq(t.bfqd, t.b, HALF + 16, 8, false);
	d[0] = test_dispatch(t.bfqd);
	assert_true(d[0]->injected);		/* actuator 1 had 0 < 1 in flight */
	d[1] = test_dispatch(t.bfqd);
	d[2] = test_dispatch(t.bfqd);
	/* actuator 1 is at the threshold: no second injection, the in-service queue goes on */
	assert_ptr_equal(d[1]->elv_priv[0], t.a);
	assert_ptr_equal(d[2]->elv_priv[0], t.a);
	assert_false(d[2]->injected);
	assert_int_equal(t.bfqd->rq_in_driver[1], 1);
	teardown(&t, d, 3);
}

static void test_find_active_returns_in_service_even_if_empty(void **state)
{
	struct two_procs t;
	struct request *d[1];
	struct bfq_queue *qa;

	setup(&t, KERNEL_VERSION(6, 3, 0), 4, true);
	test_rq(t.bfqd, t.a, 8, 8, false);
	d[0] = test_dispatch(t.bfqd);
	qa = bic_to_bfqq(t.a, true, 0);
	assert_ptr_equal(t.bfqd->in_service_queue, qa);
	assert_true(RB_EMPTY_ROOT(&qa->sort_list.rb_root));
	assert_ptr_equal(bfq_find_active_bfqq_for_actuator(t.bfqd, 0), qa);
	assert_null(bfq_find_active_bfqq_for_actuator(t.bfqd, 1));
	/* with loads (1, 0), actuator 0 is skipped (not below 0) and 1 has nothing */
	assert_null(bfq_find_bfqq_for_underused_actuator(t.bfqd));
	teardown(&t, d, 1);
}

static void test_no_injection_without_budget(void **state)
{
	struct two_procs t;
	struct request *d[2];
	struct bfq_queue *qb;

	setup(&t, KERNEL_VERSION(6, 3, 0), 4, true);
	test_rq(t.bfqd, t.a, 8, 8, false);
	test_rq(t.bfqd, t.b, HALF + 8, 8, false);
	qb = bic_to_bfqq(t.b, true, 1);
	qb->entity.service = qb->entity.budget;		/* b has used up its budget */
	assert_null(bfq_find_active_bfqq_for_actuator(t.bfqd, 1));
	qb->entity.service = 0;
	assert_ptr_equal(bfq_find_active_bfqq_for_actuator(t.bfqd, 1), qb);
	d[0] = test_dispatch(t.bfqd);
	d[1] = test_dispatch(t.bfqd);
	teardown(&t, d, 2);
}

static void test_balance_rule_prefers_less_loaded_actuator(void **state)
{
	struct two_procs with, without;
	struct request *d1[1], *d2[1];

	/* equal loads (0, 0): with patch 8 actuator 0 is skipped; without it, it is tried first */
	setup(&with, KERNEL_VERSION(6, 3, 0), 4, true);
	setup(&without, KERNEL_VERSION(6, 3, 0), 4, false);
	test_rq(with.bfqd, with.b, HALF + 8, 8, false);
	test_rq(with.bfqd, with.a, 8, 8, false);
	test_rq(without.bfqd, without.b, HALF + 8, 8, false);
	test_rq(without.bfqd, without.a, 8, 8, false);
	/* b's queue (actuator 1) is activated first and goes in service in both */
	d1[0] = test_dispatch(with.bfqd);
	d2[0] = test_dispatch(without.bfqd);
	assert_ptr_equal(d1[0]->elv_priv[0], with.b);		/* in-service, actuator 1 */
	assert_false(d1[0]->injected);
	assert_ptr_equal(d2[0]->elv_priv[0], without.a);	/* actuator 0 fed first */
	assert_true(d2[0]->injected);
	teardown(&with, d1, 1);
	teardown(&without, d2, 1);
}

static void test_pre_6_3_never_injects(void **state)
{
	struct two_procs t;
	struct request *d[2];

	setup(&t, KERNEL_VERSION(6, 2, 0), 4, true);
	test_rq(t.bfqd, t.a, 8, 8, false);
	test_rq(t.bfqd, t.b, HALF + 8, 8, false);
	d[0] = test_dispatch(t.bfqd);
	assert_ptr_equal(d[0]->elv_priv[0], t.a);
	assert_false(d[0]->injected);
	/* a's queue is in service and idled on: b waits although its actuator is idle */
	t.bfqd->now_ns += 1000000;
	test_finish(t.bfqd, d[0]);
	d[0] = NULL;
	assert_null(bfq_dispatch_request(t.bfqd));
	assert_int_not_equal(t.bfqd->idle_slice_timer_expires, 0);
	assert_int_equal(t.bfqd->nr_injected[0] + t.bfqd->nr_injected[1], 0);
	d[1] = NULL;
	teardown(&t, d, 2);
}

static void test_service_hole_injection(void **state)
{
	struct gendisk disk;
	struct bfq_tunables tun;
	struct bfq_data *bfqd;
	struct bfq_io_cq *heavy, *light;
	struct request *rq;
	struct bfq_queue *qh;

	bfq_tunables_default(&tun);
	tun.low_latency = false;
	bfqd = test_bfq(&disk, 1, KERNEL_VERSION(6, 2, 0), &tun);
	heavy = bfq_create_icq(bfqd, 1, 0, 300);
	light = bfq_create_icq(bfqd, 2, 0, 100);
	test_rq(bfqd, heavy, 8, 8, false);
	test_rq(bfqd, light, 500000, 8, false);
	qh = bic_to_bfqq(heavy, true, 0);
	qh->seek_history = ~0U;		/* seeky: idling does not pay for throughput ... */
	rq = bfq_dispatch_request(bfqd);
	assert_ptr_equal(rq->elv_priv[0], heavy);
	bfqd->now_ns += 5000000;
	test_finish(bfqd, rq);
	/* ... but the weights differ, so BFQ plugs the device for the heavier queue */
	assert_int_not_equal(bfqd->idle_slice_timer_expires, 0);
	assert_null(bfq_dispatch_request(bfqd));
	/* with no baseline service time yet, a whole slice_idle of plugging allows one request */
	bfqd->now_ns = bfqd->idle_slice_timer_expires;
	rq = bfq_dispatch_request(bfqd);
	assert_non_null(rq);
	assert_ptr_equal(rq->elv_priv[0], light);
	assert_false(rq->injected);	/* not the 6.3 actuator injection */
	assert_int_equal(bfqd->nr_hole_injected, 1);
	assert_ptr_equal(bfqd->in_service_queue, qh);
	test_finish(bfqd, rq);
	while ((rq = test_dispatch(bfqd)))
		test_finish(bfqd, rq);
	bfq_exit_icq(heavy);
	bfq_exit_icq(light);
	bfq_exit_queue(bfqd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_actuator_gets_injected_io),
		cmocka_unit_test(test_threshold_limits_injection),
		cmocka_unit_test(test_find_active_returns_in_service_even_if_empty),
		cmocka_unit_test(test_no_injection_without_budget),
		cmocka_unit_test(test_balance_rule_prefers_less_loaded_actuator),
		cmocka_unit_test(test_pre_6_3_never_injects),
		cmocka_unit_test(test_service_hole_injection),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
