// SPDX-License-Identifier: MIT
/*
 * The disk model alone: tags, bad requests, every command completing once and in time order,
 * the seek curve and zoned rates; and the latency histogram against exact percentiles.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/hdd_sim.h>
#include <kfsim/random.h>
#include <kfsim/sim_hist.h>

static struct kfsim_hdd *make_hdd(unsigned int actuators, unsigned int depth)
{
	struct kfsim_hdd_params p;
	struct kfsim_hdd *hdd;

	kfsim_hdd_params_default(&p, actuators);
	p.ncq_depth = depth;
	hdd = kfsim_hdd_create(&p);
	assert_false(IS_ERR(hdd));
	return hdd;
}

static void test_tags_and_bad_requests(void **state)
{
	struct kfsim_hdd *hdd = make_hdd(2, 2);
	struct request rq[4];
	sector_t cap = kfsim_hdd_params_of(hdd)->capacity;

	for (int i = 0; i < 4; i++)
		blk_rq_init_from_bio(&rq[i], (sector_t)i * 1000, 4096, REQ_OP_READ, 0);
	assert_int_equal(kfsim_hdd_submit(hdd, &rq[0], 10), 0);
	assert_int_equal(kfsim_hdd_submit(hdd, &rq[1], 10), 0);
	assert_false(kfsim_hdd_can_queue(hdd));
	assert_int_equal(kfsim_hdd_submit(hdd, &rq[2], 10), -EBUSY);
	assert_int_equal(kfsim_hdd_submit(hdd, &rq[2], 5), -EINVAL);	/* time went back */
	blk_rq_init_from_bio(&rq[3], cap - 4, 4096, REQ_OP_READ, 0);	/* past the end */
	assert_int_equal(kfsim_hdd_submit(hdd, &rq[3], 10), -EINVAL);
	blk_rq_init_from_bio(&rq[3], 0, 1000, REQ_OP_READ, 0);		/* not whole sectors */
	assert_int_equal(kfsim_hdd_submit(hdd, &rq[3], 10), -EINVAL);
	kfsim_hdd_destroy(hdd);
}

static void test_every_command_completes_once_in_time_order(void **state)
{
	struct kfsim_hdd *hdd = make_hdd(2, 32);
	static struct request rq[2000];
	struct rnd_state rnd;
	int submitted = 0, completed = 0, seen[2000] = { 0 };
	u64 now = 0, last_done = 0;
	sector_t cap = kfsim_hdd_params_of(hdd)->capacity;

	prandom_seed_state(&rnd, 3);
	while (completed < 2000) {
		struct request *done;

		while (submitted < 2000 && kfsim_hdd_can_queue(hdd)) {
			bool write = kfsim_prandom_below(&rnd, 4) == 0;
			sector_t s = (sector_t)(kfsim_prandom_double(&rnd) * (double)(cap - 64));

			blk_rq_init_from_bio(&rq[submitted], s, 8 * 512,
					     write ? REQ_OP_WRITE : REQ_OP_READ, 0);
			rq[submitted].pid = submitted;
			assert_int_equal(kfsim_hdd_submit(hdd, &rq[submitted], now), 0);
			assert_int_equal(rq[submitted].actuator, s + 7 >= cap / 2);
			submitted++;
		}
		now = kfsim_hdd_next_event(hdd);
		assert_true(now != U64_MAX);
		while ((done = kfsim_hdd_step(hdd, now))) {
			assert_int_equal(seen[done->pid]++, 0);
			assert_true(done->done_ns >= last_done && done->done_ns <= now);
			assert_true(done->media_end_ns >= done->media_start_ns);
			assert_true(done->media_start_ns >= done->io_start_time_ns);
			last_done = done->done_ns;
			completed++;
		}
	}
	assert_int_equal(kfsim_hdd_in_flight(hdd), 0);
	assert_int_equal(kfsim_hdd_next_event(hdd), U64_MAX);
	assert_true(kfsim_hdd_actuator_stats(hdd, 0).nr_commands +
		    kfsim_hdd_actuator_stats(hdd, 1).nr_commands == 2000);
	assert_int_equal(kfsim_hdd_actuator_stats(hdd, 7).nr_commands, 0);
	kfsim_hdd_destroy(hdd);
}

static void test_write_cache_completes_early_and_destages(void **state)
{
	struct kfsim_hdd_params p;
	struct kfsim_hdd *hdd;
	static struct request rq[600];
	int submitted = 0, completed = 0;
	u64 now = 0;

	kfsim_hdd_params_default(&p, 2);
	p.write_cache = true;
	p.write_cache_mib = 1;		/* 256 writes of 4 KiB: the cache fills and writes through */
	hdd = kfsim_hdd_create(&p);
	assert_false(IS_ERR(hdd));
	while (completed < 600) {
		struct request *done;

		while (submitted < 600 && kfsim_hdd_can_queue(hdd)) {
			blk_rq_init_from_bio(&rq[submitted], (sector_t)submitted * 7919 * 4096, 4096,
					     REQ_OP_WRITE, 0);
			assert_int_equal(kfsim_hdd_submit(hdd, &rq[submitted], now), 0);
			submitted++;
		}
		now = kfsim_hdd_next_event(hdd);
		while ((done = kfsim_hdd_step(hdd, now)))
			completed++;
	}
	/* the first writes completed from the cache, in link time, not media time */
	assert_true(rq[0].cache_hit);
	assert_true(rq[0].done_ns < 200000);
	/* the rest of the dirty data still reaches the media, then the drive goes idle */
	while ((now = kfsim_hdd_next_event(hdd)) != U64_MAX)
		assert_null(kfsim_hdd_step(hdd, now));
	assert_int_equal(kfsim_hdd_actuator_stats(hdd, 0).nr_destages +
			 kfsim_hdd_actuator_stats(hdd, 1).nr_destages +
			 kfsim_hdd_actuator_stats(hdd, 0).nr_commands +
			 kfsim_hdd_actuator_stats(hdd, 1).nr_commands, 600);
	kfsim_hdd_destroy(hdd);
	p.write_cache_mib = 0;
	assert_ptr_equal(kfsim_hdd_create(&p), ERR_PTR(-EINVAL));
}

/* Drive @hdd until @rq completes; returns its completion time. */
static u64 run_until_done(struct kfsim_hdd *hdd, const struct request *rq, u64 now)
{
	while (!rq->done_ns) {
		now = kfsim_hdd_next_event(hdd);
		assert_true(now != U64_MAX);
		while (kfsim_hdd_step(hdd, now))
			;
	}
	return now;
}

/*
 * A request across the two actuators' ranges belongs to the actuator of its last sector, whose
 * head starts it at its own range's first sector: an ordinary cost that SATF weighs against the
 * others (it was NaN, which SATF picked before the read that continues the one just served).
 */
static void test_request_across_actuators_is_positioned_in_range(void **state)
{
	struct kfsim_hdd *hdd = make_hdd(2, 4);
	sector_t mid = kfsim_hdd_params_of(hdd)->capacity / 2 / 8 * 8, at = mid + mid / 2;
	struct request busy, across, next;
	u64 now = 1000;

	/*
	 * @busy occupies the idle drive (which starts what it gets at once); meanwhile @across,
	 * half a stroke back, and @next, which continues @busy, queue for SATF to choose.
	 */
	blk_rq_init_from_bio(&busy, at, 4096, REQ_OP_READ, 0);
	blk_rq_init_from_bio(&across, mid - 8, 16 * 512, REQ_OP_READ, 0);
	blk_rq_init_from_bio(&next, at + 8, 4096, REQ_OP_READ, 0);
	assert_int_equal(kfsim_hdd_submit(hdd, &busy, now), 0);
	assert_int_equal(kfsim_hdd_submit(hdd, &across, now), 0);
	assert_int_equal(kfsim_hdd_submit(hdd, &next, now), 0);
	assert_int_equal(across.actuator, 1);
	assert_int_equal(next.actuator, 1);
	run_until_done(hdd, &across, now);
	run_until_done(hdd, &next, now);
	assert_true(busy.done_ns < next.done_ns);
	assert_true(next.done_ns < across.done_ns);
	/* positioned like any command: one seek and at most one revolution (8.3 ms) */
	assert_true(across.done_ns - now < 40 * 1000 * 1000);
	kfsim_hdd_destroy(hdd);
}

static void test_seek_curve_and_zones(void **state)
{
	struct kfsim_hdd *hdd = make_hdd(2, 32);
	sector_t half = kfsim_hdd_params_of(hdd)->capacity / 2;

	assert_int_equal(kfsim_hdd_seek_ns(hdd, 0, false), 0);
	assert_int_equal(kfsim_hdd_seek_ns(hdd, 1, false), 12700000);	/* 0.7 + 12 ms */
	assert_int_equal(kfsim_hdd_seek_ns(hdd, 0.25, false), 6700000);
	assert_int_equal(kfsim_hdd_seek_ns(hdd, -0.25, true), 7200000);	/* + write settle */
	/* both halves start at the outer diameter: ~277 MB/s, inner half of that */
	assert_true(kfsim_hdd_media_rate(hdd, 0) > 276e6 && kfsim_hdd_media_rate(hdd, 0) < 278e6);
	assert_true(kfsim_hdd_media_rate(hdd, half) > 276e6);
	assert_true(kfsim_hdd_media_rate(hdd, half - 1) < 139e6);
	kfsim_hdd_destroy(hdd);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void test_latency_percentiles_against_sorting(void **state)
{
	static u64 values[20000];
	struct kfsim_hist hist;
	struct rnd_state rnd;

	assert_int_equal(kfsim_hist_init(&hist), 0);
	prandom_seed_state(&rnd, 11);
	for (int i = 0; i < 20000; i++) {
		values[i] = (u64)kfsim_prandom_exp(&rnd, 5e6) + kfsim_prandom_below(&rnd, 200);
		kfsim_hist_add(&hist, values[i]);
	}
	qsort(values, 20000, sizeof(values[0]), cmp_u64);
	/* nearest rank, bucket top: never below the truth, at most 1/64 above it */
	for (double q = 0.01; q < 1; q += 0.075) {
		u64 exact = values[(size_t)ceil(q * 20000) - 1];
		u64 got = kfsim_hist_quantile(&hist, q);

		assert_true(got >= exact && (double)got <= exact * (1 + 1.0 / 64));
	}
	assert_int_equal(kfsim_hist_quantile(&hist, 1), values[19999]);
	assert_int_equal(hist.max, values[19999]);
	kfsim_hist_free(&hist);
}

/*
 * A cache flush (fsync's REQ_PREFLUSH): the cached writes are destaged before the reads queued
 * behind them, and the flush is done once the cache is empty; without a write cache there is
 * nothing to flush.
 */
static void test_flush_destages_first(void **state)
{
	struct kfsim_hdd_params p;
	struct kfsim_hdd *hdd;
	static struct request rq[24];
	int reads_done = 0;
	u64 now = 0;

	(void)state;
	/* one actuator: another would serve its reads meanwhile */
	kfsim_hdd_params_default(&p, 1);
	hdd = kfsim_hdd_create(&p);
	assert_false(IS_ERR(hdd));
	assert_true(kfsim_hdd_flush(hdd, 0));	/* no write cache: done at once */
	kfsim_hdd_destroy(hdd);
	p.write_cache = true;
	hdd = kfsim_hdd_create(&p);
	assert_false(IS_ERR(hdd));
	for (int i = 0; i < 8; i++) {
		blk_rq_init_from_bio(&rq[i], (sector_t)i * 104729 * 8, 4096, REQ_OP_WRITE, 0);
		assert_int_equal(kfsim_hdd_submit(hdd, &rq[i], now), 0);
	}
	/* the writes complete from the cache, which destages them while idle */
	for (int writes_done = 0; writes_done < 8;) {
		now = kfsim_hdd_next_event(hdd);
		while (kfsim_hdd_step(hdd, now))
			writes_done++;
	}
	assert_true(rq[0].cache_hit && rq[7].cache_hit);
	for (int i = 8; i < 24; i++) {
		blk_rq_init_from_bio(&rq[i], (sector_t)i * 7919 * 64, 4096, REQ_OP_READ, 0);
		assert_int_equal(kfsim_hdd_submit(hdd, &rq[i], now), 0);
	}
	assert_false(kfsim_hdd_flush(hdd, now));
	while (!kfsim_hdd_flush_done(hdd)) {
		now = kfsim_hdd_next_event(hdd);
		assert_true(now != U64_MAX);
		while (kfsim_hdd_step(hdd, now))
			reads_done++;
	}
	/* at most the read the actuator had begun: the destages went first */
	print_message("flush done at %llu ns, %d of 16 reads done\n", (unsigned long long)now,
		      reads_done);
	assert_true(reads_done <= 1);
	while ((now = kfsim_hdd_next_event(hdd)) != U64_MAX)
		while (kfsim_hdd_step(hdd, now))
			reads_done++;
	assert_int_equal(reads_done, 16);
	kfsim_hdd_destroy(hdd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tags_and_bad_requests),
		cmocka_unit_test(test_every_command_completes_once_in_time_order),
		cmocka_unit_test(test_write_cache_completes_early_and_destages),
		cmocka_unit_test(test_flush_destages_first),
		cmocka_unit_test(test_request_across_actuators_is_positioned_in_range),
		cmocka_unit_test(test_seek_curve_and_zones),
		cmocka_unit_test(test_latency_percentiles_against_sorting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
