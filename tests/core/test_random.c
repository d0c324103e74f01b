// SPDX-License-Identifier: MIT
/* The seeded generator: reproducibility, the kernel's seeding, ranges. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <cmocka.h>

#include <kfsim/random.h>

static void test_same_seed_same_sequence(void **state)
{
	struct rnd_state a, b, c;

	prandom_seed_state(&a, 42);
	prandom_seed_state(&b, 42);
	prandom_seed_state(&c, 43);
	int differ = 0;

	for (int i = 0; i < 1000; i++) {
		u32 x = prandom_u32_state(&a);

		assert_int_equal(x, prandom_u32_state(&b));
		differ += x != prandom_u32_state(&c);
	}
	assert_true(differ > 990);
}

static void test_seed_zero_does_not_degenerate(void **state)
{
	struct rnd_state s;
	u32 seen_or = 0, seen_and = ~0u;

	/* Each component is lifted above its minimum, so even seed 0 gives a live stream. */
	prandom_seed_state(&s, 0);
	assert_true(s.s1 >= 2 && s.s2 >= 8 && s.s3 >= 16 && s.s4 >= 128);
	for (int i = 0; i < 100; i++) {
		u32 x = prandom_u32_state(&s);

		seen_or |= x;
		seen_and &= x;
	}
	assert_int_equal(seen_or, 0xffffffffu);
	assert_int_equal(seen_and, 0);
}

static void test_below_is_in_range_and_uniform(void **state)
{
	struct rnd_state s;
	unsigned int counts[6] = { 0 };

	prandom_seed_state(&s, 7);
	assert_int_equal(kfsim_prandom_below(&s, 0), 0);
	assert_int_equal(kfsim_prandom_below(&s, 1), 0);
	for (int i = 0; i < 60000; i++) {
		u32 v = kfsim_prandom_below(&s, 6);

		assert_true(v < 6);
		counts[v]++;
	}
	for (int i = 0; i < 6; i++)	/* 10000 expected, 5 sigma is about 460 */
		assert_true(counts[i] > 9500 && counts[i] < 10500);
}

static void test_double_and_exponential(void **state)
{
	struct rnd_state s;
	double sum = 0;

	prandom_seed_state(&s, 99);
	for (int i = 0; i < 100000; i++) {
		double d = kfsim_prandom_double(&s);

		assert_true(d >= 0.0 && d < 1.0);
		sum += kfsim_prandom_exp(&s, 5.0);
	}
	assert_true(fabs(sum / 100000 - 5.0) < 0.1);
}

/* include/linux/prandom.h: no warm-up in prandom_seed_state(). */
static void test_seed_one_is_the_kernels_sequence(void **state)
{
	struct rnd_state s;

	prandom_seed_state(&s, 1);
	assert_int_equal(s.s1, 1024 ^ 1);
	assert_int_equal(prandom_u32_state(&s), 276959246u);
	assert_int_equal(prandom_u32_state(&s), 18909696u);
	assert_int_equal(prandom_u32_state(&s), 2298495022u);
}

/*
 * lib/random32.c's self-test (CONFIG_RANDOM32_SELFTEST): its own LCG seeding, then ten warm-up
 * rounds (prandom_warmup()), then the GSL taus113 vectors.  The step function must match them.
 */
static void selftest_seed(struct rnd_state *s, u32 seed)
{
	s->s1 = seed * 69069u < 2 ? seed * 69069u + 2 : seed * 69069u;
	s->s2 = s->s1 * 69069u < 8 ? s->s1 * 69069u + 8 : s->s1 * 69069u;
	s->s3 = s->s2 * 69069u < 16 ? s->s2 * 69069u + 16 : s->s2 * 69069u;
	s->s4 = s->s3 * 69069u < 128 ? s->s3 * 69069u + 128 : s->s3 * 69069u;
	for (int i = 0; i < 10; i++)
		prandom_u32_state(s);
}

static void test_random32_selftest_vectors(void **state)
{
	static const u32 boundary[][2] = {
		{ 1, 3484351685u }, { 2, 2623130059u }, { 3, 3125133893u }, { 4, 984847254u },
	};
	static const u32 gsl[][3] = {
		{ 931557656u, 959, 2975593782u }, { 1339693295u, 876, 3887776532u },
		{ 1545556285u, 961, 1615538833u }, { 407983964u, 921, 728767059u },
	};
	struct rnd_state s;

	for (size_t i = 0; i < sizeof(boundary) / sizeof(boundary[0]); i++) {
		selftest_seed(&s, boundary[i][0]);
		assert_int_equal(prandom_u32_state(&s), boundary[i][1]);
	}
	for (size_t i = 0; i < sizeof(gsl) / sizeof(gsl[0]); i++) {
		selftest_seed(&s, gsl[i][0]);
		for (u32 j = 0; j < gsl[i][1] - 1; j++)
			prandom_u32_state(&s);
		assert_int_equal(prandom_u32_state(&s), gsl[i][2]);
	}
}

static void test_crng_helpers(void **state)
{
	unsigned int seen = 0;
	u32 a = get_random_u32(), b = get_random_u32(), c = get_random_u32();

	/* three equal 32-bit draws: 2^-64 */
	assert_false(a == b && b == c);
	/* include/linux/random.h ranges: (floor, U32_MAX] and [floor, ceil] */
	for (int i = 0; i < 200; i++) {
		u32 v = get_random_u32_inclusive(10, 12);

		assert_true(v >= 10 && v <= 12);
		assert_true(get_random_u32_above(UINT32_MAX - 2) > UINT32_MAX - 2);
		assert_int_equal(get_random_u32_inclusive(7, 7), 7);
	}
	assert_true(get_random_u32_inclusive(0, UINT32_MAX) <= UINT32_MAX);	/* ceil - floor + 1 == 0 */
	(void)get_random_long();
	for (int i = 0; i < 2000; i++) {
		u32 v = get_random_u32_below(7);

		assert_true(v < 7);
		seen |= 1u << v;
	}
	assert_int_equal(seen, 0x7f);
	assert_int_equal(get_random_u32_below(1), 0);
	assert_int_equal(next_pseudo_random32(0), 1013904223u);
}

static void test_bytes(void **state)
{
	struct rnd_state a, b;
	unsigned char buf[7];
	u32 first;

	prandom_seed_state(&a, 5);
	prandom_seed_state(&b, 5);
	prandom_bytes_state(&a, buf, sizeof(buf));
	first = prandom_u32_state(&b);
	assert_memory_equal(buf, &first, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_seed_same_sequence),
		cmocka_unit_test(test_seed_zero_does_not_degenerate),
		cmocka_unit_test(test_below_is_in_range_and_uniform),
		cmocka_unit_test(test_double_and_exponential),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_seed_one_is_the_kernels_sequence),
		cmocka_unit_test(test_random32_selftest_vectors),
		cmocka_unit_test(test_crng_helpers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
