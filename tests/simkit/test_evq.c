// SPDX-License-Identifier: MIT
/*
 * The simulation toolkit's event queue: (time, priority, sequence) order whatever heap an event
 * waits in, ties broken by arming order, the payload and extreme times kept, and the one
 * out-of-memory policy (the event is refused, the error sticks).  Checked against a sorted
 * reference for random workloads.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/random.h>
#include <kfsim/sim_evq.h>
#include <kfsim/slab.h>

static u32 pop_data(struct kfsim_evq *q)
{
	struct kfsim_event ev;

	assert_true(kfsim_evq_pop(q, &ev));
	return kfsim_event_data(&ev);
}

/* Equal times: lower priority first; equal priority: armed first runs first. */
static void test_ties(void **state)
{
	struct kfsim_evq q;

	assert_int_equal(kfsim_evq_init(&q, 0, 0), 0);
	assert_null(kfsim_evq_peek(&q));
	assert_int_equal(kfsim_evq_push(&q, 0, 100, 2, 1), 0);
	assert_int_equal(kfsim_evq_push(&q, 0, 100, 1, 2), 0);
	assert_int_equal(kfsim_evq_push(&q, 0, 100, 1, 3), 0);
	assert_int_equal(kfsim_evq_push(&q, 0, 100, 0, 4), 0);
	assert_int_equal(kfsim_evq_push(&q, 0, 50, 3, 5), 0);
	assert_int_equal(kfsim_evq_len(&q), 5);
	assert_int_equal(pop_data(&q), 5);
	assert_int_equal(pop_data(&q), 4);
	assert_int_equal(pop_data(&q), 2);
	assert_int_equal(pop_data(&q), 3);
	assert_int_equal(pop_data(&q), 1);
	assert_false(kfsim_evq_pop(&q, &(struct kfsim_event){}));
	kfsim_evq_destroy(&q);
}

/* A sequence number taken early keeps the event's place, however late it is queued. */
static void test_seq_taken_early(void **state)
{
	struct kfsim_evq q;
	u64 early;
	struct kfsim_event ev;

	assert_int_equal(kfsim_evq_init(&q, 10, 4), 0);
	early = kfsim_evq_take_seq(&q);
	assert_int_equal(early, 1); /* 0 stays free for "never armed" */
	assert_int_equal(kfsim_evq_push(&q, 0, 7, 1, 100), 0);
	assert_int_equal(kfsim_evq_push_seq(&q, 0, 7, 1, early, 200), 0);
	assert_true(kfsim_evq_pop(&q, &ev));
	assert_int_equal(kfsim_event_data(&ev), 200);
	assert_int_equal(kfsim_event_seq(&ev), early);
	assert_int_equal(kfsim_event_time(&ev), 7);
	assert_int_equal(kfsim_event_prio(&ev), 1);
	assert_int_equal(pop_data(&q), 100);
	kfsim_evq_destroy(&q);
}

/* The payload keeps 24 bits; times beyond KFSIM_EVQ_TIME_MAX wait there, after everything. */
static void test_edges(void **state)
{
	struct kfsim_evq q;
	struct kfsim_event ev;

	assert_int_equal(kfsim_evq_init(&q, 0, 1), 0);
	assert_int_equal(kfsim_evq_push(&q, 0, UINT64_MAX, 0, KFSIM_EVQ_DATA_MASK), 0);
	assert_int_equal(kfsim_evq_push(&q, 0, KFSIM_EVQ_TIME_MAX - 1, 3, 0), 0);
	assert_int_equal(kfsim_evq_push(&q, 0, 0, 3, 7), 0);
	assert_int_equal(pop_data(&q), 7);
	assert_true(kfsim_evq_pop(&q, &ev));
	assert_int_equal(kfsim_event_time(&ev), KFSIM_EVQ_TIME_MAX - 1);
	assert_true(kfsim_evq_pop(&q, &ev));
	assert_int_equal(kfsim_event_time(&ev), KFSIM_EVQ_TIME_MAX);
	assert_int_equal(kfsim_event_data(&ev), KFSIM_EVQ_DATA_MASK);
	/* clear drops events, keeps numbering */
	assert_int_equal(kfsim_evq_push(&q, 0, 1, 0, 1), 0);
	kfsim_evq_clear(&q);
	assert_int_equal(kfsim_evq_len(&q), 0);
	assert_int_equal(q.seq, 5);
	kfsim_evq_destroy(&q);
}

/* Out of memory: the event is refused, the queue says so until the run ends, nothing is lost. */
static void test_oom(void **state)
{
	struct kfsim_evq q;

	assert_int_equal(kfsim_evq_init(&q, 0, 0), 0);
	kfsim_kmalloc_fail_nth(1);
	assert_int_equal(kfsim_evq_push(&q, 0, 5, 0, 1), -ENOMEM);
	kfsim_kmalloc_fail_nth(0);
	assert_int_equal(kfsim_evq_err(&q), -ENOMEM);
	assert_int_equal(kfsim_evq_len(&q), 0);
	/* growing later works, and the first error is the one remembered */
	for (u32 i = 0; i < 200; i++)
		assert_int_equal(kfsim_evq_push(&q, 0, 200 - i, 0, i), 0);
	kfsim_evq_fail(&q, -EINVAL);
	assert_int_equal(kfsim_evq_err(&q), -ENOMEM);
	kfsim_kmalloc_fail_nth(1); /* 200 events: the next grow (at 256) is not reached */
	assert_int_equal(kfsim_evq_push(&q, 0, 1000, 0, 999), 0);
	kfsim_kmalloc_fail_nth(0);
	for (u32 i = 0; i < 200; i++)
		assert_int_equal(pop_data(&q), 199 - i);
	assert_int_equal(pop_data(&q), 999);
	kfsim_evq_destroy(&q);

	/* init failing leaves a queue that can be destroyed */
	kfsim_kmalloc_fail_nth(2);
	assert_int_equal(kfsim_evq_init(&q, 0, 8), -ENOMEM);
	kfsim_kmalloc_fail_nth(0);
	kfsim_evq_destroy(&q);
}

struct ref_ev {
	u64 time, seq;
	u32 prio, data;
};

static int ref_cmp(const void *a, const void *b)
{
	const struct ref_ev *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->prio != y->prio)
		return x->prio < y->prio ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Random pushes and pops with time moving forward, near and far heaps both in use: the order is
 * the sorted reference's, so which heap held an event never shows.
 */
static void test_against_sorting(void **state)
{
	enum { N = 5000 };
	static struct ref_ev pending[N];
	struct rnd_state rnd;
	struct kfsim_evq q;
	u32 nr_pending = 0, pushed = 0;
	u64 now = 0;

	prandom_seed_state(&rnd, 18);
	assert_int_equal(kfsim_evq_init(&q, 100, 2), 0);
	while (pushed < N || nr_pending) {
		if (pushed < N && (!nr_pending || kfsim_prandom_below(&rnd, 3))) {
			u64 time = now + kfsim_prandom_below(&rnd, kfsim_prandom_below(&rnd, 2) ? 50 : 5000);
			u32 prio = kfsim_prandom_below(&rnd, 4);

			pending[nr_pending] = (struct ref_ev){time, q.seq, prio, pushed};
			assert_int_equal(kfsim_evq_push(&q, now, time, prio, pushed), 0);
			nr_pending++;
			pushed++;
		} else {
			struct kfsim_event ev;

			qsort(pending, nr_pending, sizeof(*pending), ref_cmp);
			assert_true(kfsim_evq_pop(&q, &ev));
			assert_int_equal(kfsim_event_data(&ev), pending[0].data);
			assert_int_equal(kfsim_event_time(&ev), pending[0].time);
			now = pending[0].time;
			pending[0] = pending[--nr_pending];
		}
	}
	assert_int_equal(kfsim_evq_len(&q), 0);
	assert_true(q.heap[0].cap > 2 && q.heap[1].cap > 2); /* both heaps were used */
	kfsim_evq_destroy(&q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_seq_taken_early),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_oom),
		cmocka_unit_test(test_against_sorting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
