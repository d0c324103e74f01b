// SPDX-License-Identifier: MIT
/* ERR_PTR round trips, errno names, and the kernel.h helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include "support/log_assert.h"

struct outer {
	int a;
	long member;
	char tail;
};

static void test_err_ptr_round_trips_every_errno(void **state)
{
	for (long err = -MAX_ERRNO; err < 0; err++) {
		void *ptr = ERR_PTR(err);

		assert_true(IS_ERR(ptr));
		assert_true(IS_ERR_OR_NULL(ptr));
		assert_int_equal(PTR_ERR(ptr), err);
		assert_int_equal(PTR_ERR_OR_ZERO(ptr), err);
	}
}

static void test_valid_pointers_are_not_errors(void **state)
{
	int object = 0;	/* only its address is used; gcc -O0 warns of the const pointer anyway */

	assert_false(IS_ERR(&object));
	assert_false(IS_ERR(NULL));
	assert_true(IS_ERR_OR_NULL(NULL));
	assert_false(IS_ERR_OR_NULL(&object));
	assert_int_equal(PTR_ERR_OR_ZERO(&object), 0);
	/* The boundary: -MAX_ERRNO - 1 is an ordinary (if odd) pointer value. */
	assert_false(IS_ERR(ERR_PTR(-MAX_ERRNO - 1)));
	assert_ptr_equal(ERR_CAST(ERR_PTR(-EINVAL)), ERR_PTR(-EINVAL));
}

static void test_errnames(void **state)
{
	assert_string_equal(kfsim_errname(-EINVAL), "EINVAL");
	assert_string_equal(kfsim_errname(EINVAL), "EINVAL");
	assert_string_equal(kfsim_errname(-EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(kfsim_errname(-ENOTSUPP), "ENOTSUPP");
	assert_string_equal(kfsim_errname(-EPROBE_DEFER), "EPROBE_DEFER");
	assert_string_equal(kfsim_errname(0), "E?");
	assert_string_equal(kfsim_errname(-4000), "E?");
	assert_string_equal(kfsim_errname(-2147483647), "E?");
	assert_string_equal(kfsim_errname(-2147483647 - 1), "E?");	/* INT_MIN: no -err */
	assert_string_equal(kfsim_errname(2147483647), "E?");
}

/* lib/errname.c: signed names, NULL for unknown codes, every code the kernel names. */
static void test_errname_as_the_kernel(void **state)
{
	static const struct { int nr; const char *name; } named[] = {
		{ ENOTUNIQ, "ENOTUNIQ" }, { ENOKEY, "ENOKEY" }, { ERESTARTNOINTR, "ERESTARTNOINTR" },
		{ ERESTART_RESTARTBLOCK, "ERESTART_RESTARTBLOCK" }, { EOPENSTALE, "EOPENSTALE" },
		{ ENOPARAM, "ENOPARAM" }, { ERECALLCONFLICT, "ERECALLCONFLICT" },
		{ EWOULDBLOCK, "EAGAIN" }, { EDEADLOCK, "EDEADLK" }, { ENOTSUP, "EOPNOTSUPP" },
		{ EHWPOISON, "EHWPOISON" }, { EXFULL, "EXFULL" }, { EBADHANDLE, "EBADHANDLE" },
	};

	assert_string_equal(errname(-EINVAL), "-EINVAL");
	assert_string_equal(errname(EINVAL), "EINVAL");
	assert_null(errname(0));
	assert_null(errname(ENOGRACE));	/* defined in errno.h, not named by errname.c */
	assert_null(errname(520));	/* a hole */
	assert_null(errname(-4000));
	assert_null(errname(-2147483647 - 1));
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		char minus[32];

		assert_string_equal(errname(named[i].nr), named[i].name);
		snprintf(minus, sizeof(minus), "-%s", named[i].name);
		assert_string_equal(errname(-named[i].nr), minus);
	}
	/* every code from 1 to 133 (x86's last, EHWPOISON) has a name */
	for (int nr = 1; nr <= EHWPOISON; nr++)
		if (nr != 41 && nr != 58)	/* never assigned on x86 */
			assert_non_null(errname(nr));
}

/* lib/cmdline.c, math64.h and log2.h helpers that kernel code calls. */
static void test_kernel_helpers(void **state)
{
	char list[] = "1,3-5,-2", *rest;
	int ints[8];
	u32 rem;
	u64 n = 1000000007ULL;

	rest = get_options(list, ARRAY_SIZE(ints), ints);
	assert_int_equal(ints[0], 5);
	assert_int_equal(ints[1], 1);
	assert_int_equal(ints[2], 3);
	assert_int_equal(ints[4], 5);
	assert_int_equal(ints[5], -2);
	assert_string_equal(rest, "");
	assert_int_equal(memparse("4K", &rest), 4096);
	assert_int_equal(memparse("2m", NULL), 2 << 20);
	assert_int_equal(memparse("1G", NULL), 1ULL << 30);
	assert_int_equal(memparse("0x10k", &rest), 16384);
	assert_int_equal(memparse("12x", &rest), 12);
	assert_string_equal(rest, "x");
	assert_true(parse_option_str("nokmem,nobpf", "nobpf"));
	assert_false(parse_option_str("nokmem,nobpf", "nob"));
	assert_int_equal(div_u64(10, 3), 3);
	assert_int_equal(div_u64_rem(10, 3, &rem), 3);
	assert_int_equal(rem, 1);
	assert_int_equal(div_s64(-10, 3), -3);
	assert_int_equal(div64_u64(1ULL << 40, 1ULL << 20), 1ULL << 20);
	assert_int_equal(do_div(n, 10), 7);
	assert_int_equal(n, 100000000ULL);
	assert_int_equal(DIV64_U64_ROUND_UP(10, 3), 4);
	assert_int_equal(ilog2(1), 0);
	assert_int_equal(ilog2(4096), 12);
	assert_int_equal(ilog2(4097), 12);
	assert_int_equal(ilog2(1ULL << 63), 63);
	assert_int_equal(roundup_pow_of_two(1), 1);
	assert_int_equal(roundup_pow_of_two(5), 8);
	assert_int_equal(roundup_pow_of_two(4096), 4096);
	assert_int_equal(rounddown_pow_of_two(5), 4);
	assert_int_equal(order_base_2(5), 3);
	assert_true(is_power_of_2(64));
	assert_false(is_power_of_2(0));
	assert_false(is_power_of_2(6));
}

static void test_kstrto(void **state)
{
	int v;
	unsigned int u;
	bool b;
	char *end;

	assert_int_equal(kstrtoint("0x10", 0, &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(kstrtoint("010", 0, &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(kstrtoint("-5\n", 0, &v), 0);
	assert_int_equal(v, -5);
	assert_int_equal(kstrtoint("+7", 10, &v), 0);
	assert_int_equal(kstrtoint("5x", 0, &v), -EINVAL);
	assert_int_equal(kstrtoint("", 0, &v), -EINVAL);
	assert_int_equal(kstrtoint(" 5", 0, &v), -EINVAL);
	assert_int_equal(kstrtoint("2147483648", 0, &v), -ERANGE);
	assert_int_equal(kstrtouint("-1", 0, &u), -EINVAL);
	assert_int_equal(kstrtobool("on", &b), 0);
	assert_true(b);
	assert_int_equal(kstrtobool("off", &b), 0);
	assert_false(b);
	assert_int_equal(kstrtobool("yes please", &b), 0);	/* only the first letter counts */
	assert_int_equal(kstrtobool("o", &b), -EINVAL);
	assert_int_equal(simple_strtoull("+5", &end, 0), 0);	/* no '+' here */
	assert_int_equal(simple_strtol("-0x1f", &end, 0), -31);
	assert_string_equal(end, "");
}

static void test_container_of_and_helpers(void **state)
{
	struct outer o = { .a = 1, .member = 2 };
	long *inner = &o.member;
	int arr[7];
	int calls = 0;

	assert_ptr_equal(container_of(inner, struct outer, member), &o);
	assert_int_equal(ARRAY_SIZE(arr), 7);
	assert_int_equal(min(3, 9), 3);
	assert_int_equal(max(3, 9), 9);
	assert_int_equal(min_t(long, 3, -9L), -9);
	assert_int_equal(clamp(15, 0, 10), 10);
	assert_int_equal(clamp(-5, 0, 10), 0);
	/* Arguments are evaluated once. */
	assert_int_equal(max(++calls, 0), 1);
	assert_int_equal(calls, 1);
	assert_int_equal(DIV_ROUND_UP(9, 4), 3);
	assert_int_equal(GENMASK(7, 4), 0xf0);
	int a = 1, b = 2;

	swap(a, b);
	assert_int_equal(a, 2);
	assert_int_equal(b, 1);
	BUILD_BUG_ON(sizeof(u64) != 8);
}

/* The kernel's values and types: long for the time units, each fixed-size type for its limits. */
#define assert_type(expr, type) assert_true(__builtin_types_compatible_p(__typeof__(expr), type))

static void test_limits_and_time_units(void **state)
{
	assert_type(NSEC_PER_MSEC, long);
	assert_type(NSEC_PER_SEC, long);
	assert_type(2 * NSEC_PER_MSEC, long);	/* stays an integer, unlike a double constant */
	assert_int_equal(NSEC_PER_SEC, NSEC_PER_MSEC * MSEC_PER_SEC);
	assert_int_equal(NSEC_PER_SEC, NSEC_PER_USEC * USEC_PER_SEC);
	assert_int_equal(USEC_PER_SEC, USEC_PER_MSEC * MSEC_PER_SEC);
	assert_type(U64_MAX, u64);
	assert_type(S64_MIN, s64);
	assert_type(U8_MAX, u8);
	assert_true(U64_MAX == UINT64_MAX && S64_MAX == INT64_MAX && S64_MIN == INT64_MIN);
	assert_true(U32_MAX == UINT32_MAX && S32_MIN == INT32_MIN && U32_MIN == 0);
	assert_true(U16_MAX == UINT16_MAX && S16_MAX == INT16_MAX && S16_MIN == INT16_MIN);
	assert_true(U8_MAX == UINT8_MAX && S8_MAX == INT8_MAX && S8_MIN == INT8_MIN);
}

/* include/linux/printk.h: without DEBUG, pr_debug()/pr_devel() are no_printk(): no record at all. */
static void test_pr_debug_needs_debug(void **state)
{
	u64 seq = log_mark();
	struct kfsim_log_record rec;
	int side = 0;

	kfsim_console_ignore_loglevel_set(true);
	pr_debug("hidden %d\n", ++side);
	pr_devel("hidden too\n");
	kfsim_console_ignore_loglevel_set(false);
	assert_int_equal(side, 0);	/* the arguments are not evaluated either */
	assert_int_equal(no_printk("x %d\n", 1), 0);
	assert_int_equal(kfsim_log_read(&seq, &rec), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_ptr_round_trips_every_errno),
		cmocka_unit_test(test_valid_pointers_are_not_errors),
		cmocka_unit_test(test_errnames),
		cmocka_unit_test(test_errname_as_the_kernel),
		cmocka_unit_test(test_kernel_helpers),
		cmocka_unit_test(test_kstrto),
		cmocka_unit_test(test_container_of_and_helpers),
		cmocka_unit_test(test_limits_and_time_units),
		cmocka_unit_test(test_pr_debug_needs_debug),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
