// SPDX-License-Identifier: MIT
/*
 * The simulation toolkit's histogram and its one quantile convention: nearest rank, bucket top,
 * capped at the maximum; exact below 128, never below the truth, at most 1/64 above it; the edges
 * (empty, q = 0, q = 1, out of range, NaN, the largest u64).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/random.h>
#include <kfsim/sim_hist.h>
#include <kfsim/slab.h>

static void test_buckets(void **state)
{
	u32 prev = 0;

	for (u64 v = 0; v < 128; v++) {
		assert_int_equal(kfsim_hist_bucket(v), v);
		assert_int_equal(kfsim_hist_bucket_top((u32)v), v);
	}
	/* 128..255: 64 buckets of 2 */
	assert_int_equal(kfsim_hist_bucket(128), 128);
	assert_int_equal(kfsim_hist_bucket(129), 128);
	assert_int_equal(kfsim_hist_bucket_top(128), 129);
	assert_int_equal(kfsim_hist_bucket(255), 191);
	assert_int_equal(kfsim_hist_bucket(256), 192);
	assert_int_equal(kfsim_hist_bucket(UINT64_MAX), KFSIM_HIST_BUCKETS - 1);
	assert_int_equal(kfsim_hist_bucket_top(KFSIM_HIST_BUCKETS - 1), UINT64_MAX);
	/* every bucket's top is in it, the next value is in the next one */
	for (u32 b = 0; b < KFSIM_HIST_BUCKETS - 1; b++) {
		u64 top = kfsim_hist_bucket_top(b);

		assert_int_equal(kfsim_hist_bucket(top), b);
		assert_int_equal(kfsim_hist_bucket(top + 1), b + 1);
		assert_true(b == 0 || kfsim_hist_bucket_top(b) > kfsim_hist_bucket_top(prev));
		prev = b;
	}
}

static void test_rank(void **state)
{
	assert_int_equal(kfsim_hist_rank(0, 0.5), 0);
	assert_int_equal(kfsim_hist_rank(10, 0), 1);
	assert_int_equal(kfsim_hist_rank(10, -3), 1);
	assert_int_equal(kfsim_hist_rank(10, NAN), 1);
	assert_int_equal(kfsim_hist_rank(10, 0.01), 1);
	assert_int_equal(kfsim_hist_rank(10, 0.1), 1);
	assert_int_equal(kfsim_hist_rank(10, 0.11), 2);
	assert_int_equal(kfsim_hist_rank(10, 0.5), 5);
	assert_int_equal(kfsim_hist_rank(10, 1), 10);
	assert_int_equal(kfsim_hist_rank(10, 7), 10);
	assert_int_equal(kfsim_hist_rank(1000, 0.99), 990);
}

static void test_quantile_edges(void **state)
{
	struct kfsim_hist hist;

	assert_int_equal(kfsim_hist_init(&hist), 0);
	assert_int_equal(kfsim_hist_quantile(&hist, 0.99), 0); /* empty */
	assert_int_equal(kfsim_hist_mean(&hist), 0);
	kfsim_hist_add(&hist, 1000); /* bucket 1000..1007 */
	assert_int_equal(kfsim_hist_quantile(&hist, 0), 1000); /* capped at the maximum */
	assert_int_equal(kfsim_hist_quantile(&hist, 1), 1000);
	kfsim_hist_add(&hist, 3);
	kfsim_hist_add(&hist, 1001);
	kfsim_hist_add(&hist, 5000); /* bucket 4992..5055 */
	assert_int_equal(kfsim_hist_quantile(&hist, 0), 3);
	assert_int_equal(kfsim_hist_quantile(&hist, 0.25), 3);
	assert_int_equal(kfsim_hist_quantile(&hist, 0.26), 1007); /* the bucket's top */
	assert_int_equal(kfsim_hist_quantile(&hist, 0.75), 1007);
	assert_int_equal(kfsim_hist_quantile(&hist, 0.76), 5000);
	assert_int_equal(kfsim_hist_quantile(&hist, 1), 5000);
	assert_int_equal(kfsim_hist_quantile(&hist, 2), 5000);
	assert_int_equal(hist.count, 4);
	assert_int_equal(hist.sum, 7004);
	assert_true(kfsim_hist_mean(&hist) == 1751.0);
	kfsim_hist_add(&hist, UINT64_MAX);
	assert_int_equal(kfsim_hist_quantile(&hist, 1), UINT64_MAX);
	kfsim_hist_free(&hist);
	kfsim_hist_free(&hist); /* twice is harmless */

	kfsim_kmalloc_fail_nth(1);
	assert_int_equal(kfsim_hist_init(&hist), -ENOMEM);
	kfsim_kmalloc_fail_nth(0);
	kfsim_hist_free(&hist);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Against sorting: never below the nearest-rank sample, at most 1/64 above it. */
static void test_against_sorting(void **state)
{
	enum { N = 30000 };
	static u64 values[N];
	struct kfsim_hist hist;
	struct rnd_state rnd;

	assert_int_equal(kfsim_hist_init(&hist), 0);
	prandom_seed_state(&rnd, 64);
	for (int i = 0; i < N; i++) {
		values[i] = (u64)kfsim_prandom_exp(&rnd, 2e5) + kfsim_prandom_below(&rnd, 300);
		kfsim_hist_add(&hist, values[i]);
	}
	qsort(values, N, sizeof(values[0]), cmp_u64);
	for (double q = 0; q <= 1; q += 0.0125) {
		u64 exact = values[kfsim_hist_rank(N, q) - 1];
		u64 got = kfsim_hist_quantile(&hist, q);

		assert_true(got >= exact);
		assert_true(exact < 128 ? got == exact : (double)got <= exact * (1 + 1.0 / 64));
	}
	assert_int_equal(kfsim_hist_quantile(&hist, 1), values[N - 1]);
	kfsim_hist_free(&hist);
}

/* A reset histogram is an empty one, and counts again from nothing. */
static void test_reset(void **state)
{
	struct kfsim_hist hist;

	assert_int_equal(kfsim_hist_init(&hist), 0);
	for (u64 v = 1; v <= 1000; v++)
		kfsim_hist_add(&hist, v * 1000);
	kfsim_hist_reset(&hist);
	assert_int_equal(hist.count, 0);
	assert_int_equal(kfsim_hist_quantile(&hist, 0.99), 0);
	assert_true(kfsim_hist_mean(&hist) == 0);
	kfsim_hist_add(&hist, 5);
	assert_int_equal(hist.count, 1);
	assert_int_equal(kfsim_hist_quantile(&hist, 1.0), 5);
	assert_int_equal(kfsim_hist_quantile(&hist, 0.5), 5);
	kfsim_hist_free(&hist);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buckets),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_quantile_edges),
		cmocka_unit_test(test_against_sorting),
		cmocka_unit_test(test_reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
