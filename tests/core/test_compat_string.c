// SPDX-License-Identifier: MIT
/*
 * Compatibility headers used as kernel code uses them: <linux/string.h> strscpy()/strscpy_pad()
 * as lib/string.c, and the <linux/kernel.h> arithmetic (align, math, overflow, wordpart, minmax).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/string.h>

/* 6.12 minmax.h: harmless signedness mixes compile; clamp()'s formula; the array and range helpers. */
static void test_minmax_6_12(void **state)
{
	unsigned char u8v = 200;
	int iv = -3;
	unsigned int uv = 7;
	unsigned long sz = 9;
	long lv = -4;
	static const unsigned short arr[] = { 40, 7, 300, 12 };
	int calls = 0;

	assert_int_equal(min(u8v, iv), -3);	/* u8 promotes to int: usable as signed */
	assert_int_equal(max(uv, 5), 7);	/* a non-negative constant: usable as unsigned */
	assert_int_equal(min(sz, 1), 1);
	assert_int_equal(min(lv, iv), -4);
	assert_int_equal(max((unsigned short)65535, uv), 65535);
	assert_int_equal(min(++calls, 5), 1);	/* evaluated once */
	assert_int_equal(calls, 1);
	/* clamp: val >= hi ? hi : (val <= lo ? lo : val); with lo > hi at run time that gives lo */
	int lo = 10, hi = 5;
	assert_int_equal(clamp(3, lo, hi), 10);
	assert_int_equal(clamp(7, lo, hi), 5);
	assert_int_equal(clamp(iv, 0, 10), 0);
	assert_int_equal(clamp(uv, 1, 5u), 5);
	int big = 300;

	assert_int_equal(clamp_t(u8, big, 0, 255), 44);	/* 300 is converted to u8 first */
	assert_int_equal(min_t(int, uv, iv), -3);
	assert_int_equal(min3(u8v, uv, 100), 7);
	assert_int_equal(min_not_zero(uv, 3), 3);
	assert_int_equal(min_not_zero(0u, uv), 7);
	assert_int_equal(min_array(arr, ARRAY_SIZE(arr)), 7);
	assert_int_equal(max_array(arr, ARRAY_SIZE(arr)), 300);
	assert_true(in_range(5, 5, 1));
	assert_false(in_range(6, 5, 1));
	assert_true(in_range(0x100000000ull, 0xffffffffull, 2));	/* u64 arithmetic */
	assert_false(in_range(4u, 5u, 1u));	/* wraps to a huge value */
	assert_int_equal(MIN(3, 4) + MAX(3, 4) + MIN_T(int, 3u, -1), 6);
}

/* <linux/atomic.h>: the kernel's argument order and return values (Documentation/atomic_t.txt). */
static void test_atomic_t(void **state)
{
	atomic_t v = ATOMIC_INIT(5);
	int old = 6;

	assert_int_equal(atomic_read(&v), 5);
	atomic_add(3, &v);	/* (i, v), as the kernel; not C11's (obj, arg) */
	assert_int_equal(atomic_fetch_add(2, &v), 8);
	assert_int_equal(atomic_fetch_sub_release(1, &v), 10);
	assert_int_equal(atomic_add_return_relaxed(1, &v), 10);
	assert_int_equal(atomic_inc_return(&v), 11);
	assert_int_equal(atomic_fetch_andnot(1, &v), 11);
	assert_int_equal(atomic_read(&v), 10);
	assert_int_equal(atomic_fetch_or_acquire(1, &v), 10);
	assert_int_equal(atomic_xchg(&v, 2), 11);
	assert_false(atomic_try_cmpxchg(&v, &old, 9));	/* fails: old gets the current value */
	assert_int_equal(old, 2);
	assert_true(atomic_try_cmpxchg_acquire(&v, &old, 1));
	assert_int_equal(atomic_cmpxchg(&v, 7, 3), 1);	/* returns the value seen */
	assert_true(atomic_dec_and_test(&v));
	assert_false(atomic_inc_not_zero(&v));
	assert_int_equal(atomic_fetch_add_unless(&v, 1, 0), 0);
	assert_int_equal(atomic_dec_if_positive(&v), -1);	/* old - 1, no store */
	assert_int_equal(atomic_read(&v), 0);
	assert_true(atomic_add_negative(-1, &v));
	assert_true(atomic_inc_and_test(&v));
	atomic_set_release(&v, 4);
	assert_true(atomic_add_unless(&v, 2, 5));
	assert_false(atomic_add_unless(&v, 2, 6));
	assert_true(atomic_sub_and_test(6, &v));
	assert_int_equal(atomic_read_acquire(&v), 0);
}

/* ilog2() at 0 and 1 as 6.12's log2.h; abs() keeps the type (glibc's int abs() would truncate). */
static void test_ilog2_and_abs(void **state)
{
	volatile unsigned int zero = 0, one = 1;
	volatile unsigned long long top = 1ull << 63;
	volatile long big_neg = -5000000000L;
	volatile short sh = -4;

	assert_int_equal(ilog2(zero), -1);	/* fls(0) - 1 at run time */
	assert_int_equal(ilog2(0), 0);	/* a constant below 2 */
	assert_int_equal(ilog2(one), 0);
	assert_int_equal(ilog2(top), 63);
	_Static_assert(ilog2(4096) == 12, "ilog2() of a constant is a constant expression");
	assert_true(abs(big_neg) == 5000000000L);
	assert_int_equal(sizeof(abs(big_neg)), sizeof(long));
	assert_int_equal(abs(sh), 4);
	assert_int_equal(sizeof(abs(sh)), sizeof(int));	/* promoted, as the kernel's */
	assert_int_equal(abs(-7), 7);
	assert_int_equal(abs_diff(3u, 5u), 2);
	assert_int_equal(abs_diff(-2, 5), 7);
}

static void test_strscpy(void **state)
{
	char buf[6], big[16];

	assert_int_equal(strscpy(buf, "abc"), 3);	/* the array's size */
	assert_string_equal(buf, "abc");
	assert_int_equal(strscpy(buf, "abcde"), 5);	/* exactly fits with its NUL */
	assert_int_equal(strscpy(buf, "abcdef"), -E2BIG);	/* truncated, still terminated */
	assert_string_equal(buf, "abcde");
	assert_int_equal(strscpy(buf, "xyz", 2), -E2BIG);
	assert_string_equal(buf, "x");
	assert_int_equal(strscpy(buf, "xyz", 0), -E2BIG);
	assert_string_equal(buf, "x");	/* size 0 writes nothing */
	memset(big, 'Z', sizeof(big));
	assert_int_equal(strscpy_pad(big, "hi"), 2);
	for (size_t i = 2; i < sizeof(big); i++)
		assert_int_equal(big[i], 0);
	memset(big, 'Z', sizeof(big));
	assert_int_equal(strscpy_pad(big, "hello", 4), -E2BIG);
	assert_string_equal(big, "hel");
	assert_int_equal(big[4], 'Z');
}

struct flex {
	int n;
	u64 items[];
};

static void test_kernel_arithmetic(void **state)
{
	struct flex *f = NULL;
	int neg = -7;
	size_t big = SIZE_MAX / 2 + 1;
	u64 v = 0x1122334455667788ULL;
	u32 sum;

	assert_int_equal(ALIGN(13, 8), 16);
	assert_int_equal(ALIGN_DOWN(13, 8), 8);
	assert_true(IS_ALIGNED(4096UL, 4096));
	assert_false(IS_ALIGNED(4097UL, 4096));
	assert_int_equal(round_up(17, 16), 32);
	assert_int_equal(round_down(17, 16), 16);
	assert_int_equal(roundup(17, 10), 20);
	assert_int_equal(rounddown(17, 10), 10);
	assert_int_equal(DIV_ROUND_CLOSEST(7, 2), 4);
	assert_int_equal(DIV_ROUND_CLOSEST(neg, 2), -4);	/* halves away from zero */
	assert_int_equal(DIV_ROUND_UP_ULL(10ULL, 4), 3);
	assert_int_equal(mult_frac(10, 3, 4), 7);
	assert_int_equal(upper_32_bits(v), 0x11223344);
	assert_int_equal(lower_32_bits(v), 0x55667788);
	assert_true(check_add_overflow(UINT32_MAX, 1u, &sum));
	assert_false(check_mul_overflow(3u, 4u, &sum));
	assert_int_equal(sum, 12);
	assert_int_equal(size_mul(big, 2), SIZE_MAX);
	assert_int_equal(size_add(SIZE_MAX, 1), SIZE_MAX);
	assert_int_equal(size_sub(SIZE_MAX, 1), SIZE_MAX);	/* saturation sticks */
	assert_int_equal(struct_size(f, items, 3), sizeof(*f) + 3 * sizeof(u64));
	assert_int_equal(struct_size(f, items, SIZE_MAX), SIZE_MAX);
	assert_int_equal(min3(4, 2, 3), 2);
	assert_int_equal(max3(4, 2, 3), 4);
	assert_int_equal(min_not_zero(0, 5), 5);
	assert_int_equal(min_not_zero(3, 5), 3);
	assert_int_equal(clamp_val(300, 0, 255), 255);
	assert_true(umin(neg, 1) == 1);	/* -7 compares as a huge unsigned value */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minmax_6_12),
		cmocka_unit_test(test_atomic_t),
		cmocka_unit_test(test_ilog2_and_abs),
		cmocka_unit_test(test_strscpy),
		cmocka_unit_test(test_kernel_arithmetic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
