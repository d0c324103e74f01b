// SPDX-License-Identifier: MIT
/*
 * refcount_t at every edge: each operation from 0, 1, 2, REFCOUNT_MAX, REFCOUNT_SATURATED and a
 * negative value, with the final value, the return value and the exact warning asserted; the
 * once-per-type reporting; the 6.11 change of refcount_sub_and_test(0); and a randomized
 * differential test against a model written with 64-bit arithmetic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/mutex.h>
#include <kfsim/random.h>
#include <kfsim/refcount.h>
#include <kfsim/spinlock.h>
#include "support/log_assert.h"

#define SAT REFCOUNT_SATURATED
#define TXT_OVF "refcount_t: saturated; leaking memory."
#define TXT_ADD_UAF "refcount_t: addition on 0; use-after-free."
#define TXT_SUB_UAF "refcount_t: underflow; use-after-free."
#define TXT_DEC_LEAK "refcount_t: decrement hit 0; leaking memory."
#define NO_WARN NULL

enum op {
	OP_INC, OP_ADD2, OP_INC_NOT_ZERO, OP_ADD2_NOT_ZERO, OP_DEC_AND_TEST, OP_SUB2_AND_TEST, OP_DEC,
	OP_DEC_IF_ONE, OP_DEC_NOT_ONE, OP_DEC_AND_LOCK, OP_DEC_AND_LOCK_IRQSAVE,
	OP_DEC_AND_MUTEX_LOCK,
};

struct edge_case {
	enum op op;
	int start;
	int end;
	int ret;		/* -1: the operation returns nothing */
	const char *warning;	/* exact text, or NO_WARN */
};

static const struct edge_case edge_cases[] = {
	{ OP_INC, 0, SAT, -1, TXT_ADD_UAF },
	{ OP_INC, 1, 2, -1, NO_WARN },
	{ OP_INC, REFCOUNT_MAX - 1, REFCOUNT_MAX, -1, NO_WARN },
	{ OP_INC, REFCOUNT_MAX, SAT, -1, TXT_OVF },
	{ OP_INC, SAT, SAT, -1, TXT_OVF },
	{ OP_INC, -1, SAT, -1, TXT_OVF },
	{ OP_ADD2, 0, SAT, -1, TXT_ADD_UAF },
	{ OP_ADD2, 1, 3, -1, NO_WARN },
	{ OP_ADD2, REFCOUNT_MAX - 1, SAT, -1, TXT_OVF },
	{ OP_ADD2, REFCOUNT_MAX, SAT, -1, TXT_OVF },
	{ OP_ADD2, SAT, SAT, -1, TXT_OVF },
	{ OP_ADD2, -1, SAT, -1, TXT_OVF },
	{ OP_INC_NOT_ZERO, 0, 0, false, NO_WARN },
	{ OP_INC_NOT_ZERO, 1, 2, true, NO_WARN },
	{ OP_INC_NOT_ZERO, REFCOUNT_MAX, SAT, true, TXT_OVF },
	{ OP_INC_NOT_ZERO, SAT, SAT, true, TXT_OVF },
	{ OP_INC_NOT_ZERO, -1, SAT, true, TXT_OVF },
	{ OP_ADD2_NOT_ZERO, 0, 0, false, NO_WARN },
	{ OP_ADD2_NOT_ZERO, 1, 3, true, NO_WARN },
	{ OP_ADD2_NOT_ZERO, REFCOUNT_MAX - 1, SAT, true, TXT_OVF },
	{ OP_ADD2_NOT_ZERO, SAT, SAT, true, TXT_OVF },
	{ OP_ADD2_NOT_ZERO, -1, SAT, true, TXT_OVF },
	{ OP_DEC_AND_TEST, 0, SAT, false, TXT_SUB_UAF },
	{ OP_DEC_AND_TEST, 1, 0, true, NO_WARN },
	{ OP_DEC_AND_TEST, 2, 1, false, NO_WARN },
	{ OP_DEC_AND_TEST, REFCOUNT_MAX, REFCOUNT_MAX - 1, false, NO_WARN },
	{ OP_DEC_AND_TEST, SAT, SAT, false, TXT_SUB_UAF },
	{ OP_DEC_AND_TEST, -1, SAT, false, TXT_SUB_UAF },
	{ OP_SUB2_AND_TEST, 0, SAT, false, TXT_SUB_UAF },
	{ OP_SUB2_AND_TEST, 1, SAT, false, TXT_SUB_UAF },
	{ OP_SUB2_AND_TEST, 2, 0, true, NO_WARN },
	{ OP_SUB2_AND_TEST, 3, 1, false, NO_WARN },
	{ OP_SUB2_AND_TEST, REFCOUNT_MAX, REFCOUNT_MAX - 2, false, NO_WARN },
	{ OP_SUB2_AND_TEST, SAT, SAT, false, TXT_SUB_UAF },
	{ OP_SUB2_AND_TEST, -1, SAT, false, TXT_SUB_UAF },
	{ OP_DEC, 0, SAT, -1, TXT_DEC_LEAK },
	{ OP_DEC, 1, SAT, -1, TXT_DEC_LEAK },
	{ OP_DEC, 2, 1, -1, NO_WARN },
	{ OP_DEC, REFCOUNT_MAX, REFCOUNT_MAX - 1, -1, NO_WARN },
	{ OP_DEC, SAT, SAT, -1, TXT_DEC_LEAK },
	{ OP_DEC, -1, SAT, -1, TXT_DEC_LEAK },
	{ OP_DEC_IF_ONE, 0, 0, false, NO_WARN },
	{ OP_DEC_IF_ONE, 1, 0, true, NO_WARN },
	{ OP_DEC_IF_ONE, 2, 2, false, NO_WARN },
	{ OP_DEC_IF_ONE, REFCOUNT_MAX, REFCOUNT_MAX, false, NO_WARN },
	{ OP_DEC_IF_ONE, SAT, SAT, false, NO_WARN },
	{ OP_DEC_IF_ONE, -1, -1, false, NO_WARN },
	{ OP_DEC_NOT_ONE, 0, 0, true, TXT_SUB_UAF },
	{ OP_DEC_NOT_ONE, 1, 1, false, NO_WARN },
	{ OP_DEC_NOT_ONE, 2, 1, true, NO_WARN },
	{ OP_DEC_NOT_ONE, REFCOUNT_MAX, REFCOUNT_MAX - 1, true, NO_WARN },
	{ OP_DEC_NOT_ONE, SAT, SAT, true, NO_WARN },
	{ OP_DEC_NOT_ONE, -1, -2, true, NO_WARN },
	{ OP_DEC_NOT_ONE, INT_MIN, INT_MAX, true, NO_WARN },
	/* The lock variants return true (lock held) only for the 1 -> 0 step. */
	{ OP_DEC_AND_LOCK, 0, 0, false, TXT_SUB_UAF },
	{ OP_DEC_AND_LOCK, 1, 0, true, NO_WARN },
	{ OP_DEC_AND_LOCK, 2, 1, false, NO_WARN },
	{ OP_DEC_AND_LOCK, REFCOUNT_MAX, REFCOUNT_MAX - 1, false, NO_WARN },
	{ OP_DEC_AND_LOCK, SAT, SAT, false, NO_WARN },
	{ OP_DEC_AND_LOCK, -1, -2, false, NO_WARN },
	{ OP_DEC_AND_LOCK_IRQSAVE, 0, 0, false, TXT_SUB_UAF },
	{ OP_DEC_AND_LOCK_IRQSAVE, 1, 0, true, NO_WARN },
	{ OP_DEC_AND_LOCK_IRQSAVE, 2, 1, false, NO_WARN },
	{ OP_DEC_AND_LOCK_IRQSAVE, SAT, SAT, false, NO_WARN },
	{ OP_DEC_AND_MUTEX_LOCK, 0, 0, false, TXT_SUB_UAF },
	{ OP_DEC_AND_MUTEX_LOCK, 1, 0, true, NO_WARN },
	{ OP_DEC_AND_MUTEX_LOCK, 2, 1, false, NO_WARN },
	{ OP_DEC_AND_MUTEX_LOCK, REFCOUNT_MAX, REFCOUNT_MAX - 1, false, NO_WARN },
	{ OP_DEC_AND_MUTEX_LOCK, SAT, SAT, false, NO_WARN },
	{ OP_DEC_AND_MUTEX_LOCK, -1, -2, false, NO_WARN },
};

static int setup(void **state)
{
	kfsim_console_loglevel_set(0);
	kfsim_refcount_clear_warn_once();
	return 0;
}

static int teardown(void **state)
{
	kfsim_set_kernel_version(KFSIM_KERNEL_VERSION_DEFAULT);
	return 0;
}

/* Runs @c->op on @r; checks that the lock variants hold their lock exactly when returning true. */
static int run_op(enum op op, refcount_t *r)
{
	DEFINE_SPINLOCK(lock);
	DEFINE_MUTEX(mutex);
	unsigned long flags = 1;
	int ret = -1;

	switch (op) {
	case OP_INC: refcount_inc(r); break;
	case OP_ADD2: refcount_add(2, r); break;
	case OP_INC_NOT_ZERO: ret = refcount_inc_not_zero(r); break;
	case OP_ADD2_NOT_ZERO: ret = refcount_add_not_zero(2, r); break;
	case OP_DEC_AND_TEST: ret = refcount_dec_and_test(r); break;
	case OP_SUB2_AND_TEST: ret = refcount_sub_and_test(2, r); break;
	case OP_DEC: refcount_dec(r); break;
	case OP_DEC_IF_ONE: ret = refcount_dec_if_one(r); break;
	case OP_DEC_NOT_ONE: ret = refcount_dec_not_one(r); break;
	case OP_DEC_AND_LOCK:
		ret = refcount_dec_and_lock(r, &lock);
		assert_int_equal(kfsim_spin_held_by_current(&lock), ret);
		if (ret)
			spin_unlock(&lock);
		break;
	case OP_DEC_AND_LOCK_IRQSAVE:
		ret = refcount_dec_and_lock_irqsave(r, &lock, &flags);
		assert_int_equal(kfsim_spin_held_by_current(&lock), ret);
		if (ret) {
			assert_int_equal(flags, 0);
			spin_unlock_irqrestore(&lock, flags);
		}
		break;
	case OP_DEC_AND_MUTEX_LOCK:
		ret = refcount_dec_and_mutex_lock(r, &mutex);
		assert_int_equal(kfsim_mutex_held_by_current(&mutex), ret);
		if (ret)
			mutex_unlock(&mutex);
		break;
	}
	return ret;
}

static void check_case(const struct edge_case *c, int index)
{
	refcount_t r = REFCOUNT_INIT(c->start);
	unsigned long warns = kfsim_warn_count();
	u64 mark = log_mark();
	int ret;

	kfsim_refcount_clear_warn_once();
	ret = run_op(c->op, &r);
	if (refcount_read(&r) != (unsigned int)c->end || ret != c->ret)
		print_error("edge case %d: op %d from %d: got %#x/%d, expected %#x/%d\n", index,
			    c->op, c->start, refcount_read(&r), ret, (unsigned int)c->end, c->ret);
	assert_int_equal(refcount_read(&r), (unsigned int)c->end);
	assert_int_equal(ret, c->ret);
	if (c->warning) {
		assert_logged(mark, c->warning, 1);
		assert_logged(mark, "------------[ cut here ]------------", 1);
		assert_int_equal(kfsim_warn_count(), warns + 1);
	} else {
		assert_logged(mark, "refcount_t:", 0);
		assert_int_equal(kfsim_warn_count(), warns);
	}
}

static void test_every_function_at_every_edge(void **state)
{
	for (size_t i = 0; i < ARRAY_SIZE(edge_cases); i++)
		check_case(&edge_cases[i], (int)i);
}

static void test_constants_and_read(void **state)
{
	refcount_t r = REFCOUNT_INIT(SAT);

	assert_int_equal(REFCOUNT_MAX, 0x7fffffff);
	assert_int_equal(REFCOUNT_SATURATED, -0x40000000);
	assert_int_equal(refcount_read(&r), 0xc0000000u);
	refcount_set(&r, 7);
	assert_int_equal(refcount_read(&r), 7);
	refcount_set(&r, -5);	/* stored unchecked */
	assert_int_equal(refcount_read(&r), (unsigned int)-5);
	assert_int_equal(REFCOUNT_ADD_NOT_ZERO_OVF, 0);
	assert_int_equal(REFCOUNT_DEC_LEAK, 4);
}

static void test_warning_report_names_refcount_warn_saturate(void **state)
{
	refcount_t r = REFCOUNT_INIT(0);
	u64 mark = log_mark();

	refcount_inc(&r);
	assert_logged(mark, "refcount_warn_saturate", 1);
	assert_logged(mark, "WARNING: CPU: 0 PID:", 1);
}

static void test_old_value_variants(void **state)
{
	refcount_t r = REFCOUNT_INIT(5);
	int old = 0;

	__refcount_inc(&r, &old);
	assert_int_equal(old, 5);
	__refcount_add(3, &r, &old);
	assert_int_equal(old, 6);
	assert_true(__refcount_inc_not_zero(&r, &old));
	assert_int_equal(old, 9);
	assert_true(__refcount_add_not_zero(2, &r, &old));
	assert_int_equal(old, 10);
	assert_false(__refcount_sub_and_test(4, &r, &old));
	assert_int_equal(old, 12);
	assert_false(__refcount_dec_and_test(&r, &old));
	assert_int_equal(old, 8);
	__refcount_dec(&r, &old);
	assert_int_equal(old, 7);
	assert_int_equal(refcount_read(&r), 6);
	refcount_set(&r, 0);
	assert_false(__refcount_inc_not_zero(&r, &old));
	assert_int_equal(old, 0);
	assert_int_equal(refcount_read(&r), 0);
}

/* Each type has its own once flag; ADD_NOT_ZERO_OVF and ADD_OVF share a text, not a flag. */
static void test_warnings_once_per_type(void **state)
{
	refcount_t r = REFCOUNT_INIT(0);
	u64 mark = log_mark();
	bool ret;

	kfsim_refcount_clear_warn_once();
	for (int i = 0; i < 3; i++) {
		refcount_set(&r, 0);
		refcount_inc(&r);			/* ADD_UAF */
		refcount_set(&r, REFCOUNT_MAX);
		refcount_inc(&r);			/* ADD_OVF */
		refcount_set(&r, REFCOUNT_MAX);
		ret = refcount_inc_not_zero(&r);	/* ADD_NOT_ZERO_OVF */
		assert_true(ret);
		refcount_set(&r, 0);
		ret = refcount_dec_and_test(&r);	/* SUB_UAF */
		assert_false(ret);
		refcount_set(&r, 1);
		refcount_dec(&r);			/* DEC_LEAK */
		refcount_set(&r, 0);
		ret = refcount_dec_not_one(&r);		/* its own WARN_ONCE */
		assert_true(ret);
		refcount_warn_saturate(&r, (enum refcount_saturation_type)42);
		assert_int_equal(refcount_read(&r), (unsigned int)SAT);
	}
	assert_logged(mark, TXT_ADD_UAF, 1);
	assert_logged(mark, TXT_OVF, 2);
	assert_logged(mark, TXT_SUB_UAF, 2);
	assert_logged(mark, TXT_DEC_LEAK, 1);
	assert_logged(mark, "refcount_t: unknown saturation event!?.", 1);

	/* Suppressed warnings still saturate; clearing re-arms every flag. */
	mark = log_mark();
	refcount_set(&r, 0);
	refcount_inc(&r);
	assert_int_equal(refcount_read(&r), (unsigned int)SAT);
	assert_logged(mark, "refcount_t:", 0);
	kfsim_refcount_clear_warn_once();
	refcount_set(&r, 0);
	refcount_inc(&r);
	assert_logged(mark, TXT_ADD_UAF, 1);
}

/* 6.3 lets refcount_sub_and_test(0) "succeed" on a dead counter; 6.11 reports it. */
static void test_sub_and_test_zero_by_version(void **state)
{
	refcount_t r = REFCOUNT_INIT(0);
	u64 mark = log_mark();

	kfsim_refcount_clear_warn_once();
	assert_int_equal(kfsim_set_kernel_version(KERNEL_VERSION(6, 3, 0)), 0);
	assert_true(refcount_sub_and_test(0, &r));
	assert_int_equal(refcount_read(&r), 0);
	refcount_set(&r, 0);
	assert_false(refcount_sub_and_test(-2, &r));	/* 0 - (-2) = 2: no report before 6.11 */
	assert_int_equal(refcount_read(&r), 2);
	refcount_set(&r, -3);
	assert_true(refcount_sub_and_test(-3, &r));
	assert_int_equal(refcount_read(&r), 0);
	assert_logged(mark, "refcount_t:", 0);

	assert_int_equal(kfsim_set_kernel_version(KERNEL_VERSION(6, 11, 0)), 0);
	refcount_set(&r, 0);
	assert_false(refcount_sub_and_test(0, &r));
	assert_int_equal(refcount_read(&r), (unsigned int)SAT);
	assert_logged(mark, TXT_SUB_UAF, 1);
	refcount_set(&r, 0);
	assert_false(refcount_sub_and_test(-2, &r));
	assert_int_equal(refcount_read(&r), (unsigned int)SAT);
	refcount_set(&r, -3);
	assert_false(refcount_sub_and_test(-3, &r));
	assert_int_equal(refcount_read(&r), (unsigned int)SAT);
	/* Ordinary use is the same in both. */
	refcount_set(&r, 1);
	assert_true(refcount_dec_and_test(&r));
	assert_int_equal(refcount_read(&r), 0);
}

/* A saturated counter never returns to 0: the object leaks instead of being freed early. */
static void test_saturated_counter_stays_saturated(void **state)
{
	refcount_t r = REFCOUNT_INIT(REFCOUNT_MAX);

	refcount_inc(&r);
	for (int i = 0; i < 1000; i++) {
		assert_false(refcount_dec_and_test(&r));
		refcount_dec(&r);
		refcount_inc(&r);
		assert_true(refcount_inc_not_zero(&r));
	}
	assert_int_equal(refcount_read(&r), (unsigned int)SAT);
}

/* The post-6.3 acquire variants from 6.15: the limit, and the wrapping limit test on bad counters. */
static void test_acquire_variants_6_15(void **state)
{
	refcount_t r = REFCOUNT_INIT(0);
	u64 mark = log_mark();
	int old = -7;

	assert_int_equal(kfsim_set_kernel_version(KERNEL_VERSION(6, 15, 0)), 0);
	kfsim_refcount_clear_warn_once();
	assert_false(refcount_inc_not_zero_acquire(&r));
	assert_int_equal(refcount_read(&r), 0);
	refcount_set_release(&r, 1);
	assert_true(refcount_inc_not_zero_acquire(&r));
	assert_true(refcount_add_not_zero_acquire(3, &r));
	assert_int_equal(refcount_read(&r), 5);
	assert_false(__refcount_inc_not_zero_limited_acquire(&r, &old, 5));
	assert_int_equal(old, 5);
	assert_int_equal(refcount_read(&r), 5);
	assert_true(__refcount_inc_not_zero_limited_acquire(&r, &old, 6));
	assert_int_equal(refcount_read(&r), 6);
	/* INT_MAX limit: REFCOUNT_MAX itself cannot be passed, so no saturation. */
	refcount_set(&r, REFCOUNT_MAX);
	assert_false(refcount_inc_not_zero_acquire(&r));
	assert_false(__refcount_inc_not_zero_acquire(&r, &old));
	assert_int_equal(old, REFCOUNT_MAX);
	assert_int_equal(refcount_read(&r), REFCOUNT_MAX);
	/* Any bad (negative) count: limit - old wraps negative, so the lookup fails, silently. */
	static const int bad[] = { SAT, -1, INT_MIN, -0x7fff0000 };
	for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
		refcount_set(&r, bad[k]);
		assert_false(refcount_inc_not_zero_acquire(&r));
		assert_false(refcount_add_not_zero_acquire(2, &r));
		assert_false(__refcount_add_not_zero_acquire(2, &r, &old));
		assert_int_equal(old, bad[k]);
		assert_int_equal(refcount_read(&r), (unsigned int)bad[k]);
	}
	assert_logged(mark, "refcount_t:", 0);
	/* The 6.3 function on the same counter: true, and it warns. */
	assert_true(refcount_inc_not_zero(&r));
	assert_logged(mark, TXT_OVF, 1);
}

/*
 * Before 6.15 (the form 6.12.y carries as a backport) the acquire variants have no limit: they
 * are refcount_add_not_zero() with ACQUIRE, so overflow and bad counters saturate, warn
 * "saturated; leaking memory." and return true.  (The kernel's own header is compared with
 * these in refcount/kernel-refcount.)
 */
static void test_acquire_variants_6_12(void **state)
{
	refcount_t r = REFCOUNT_INIT(REFCOUNT_MAX);
	u64 mark = log_mark();
	int old = -7;

	assert_int_equal(kfsim_set_kernel_version(KERNEL_VERSION(6, 12, 0)), 0);
	kfsim_refcount_clear_warn_once();
	assert_true(__refcount_inc_not_zero_acquire(&r, &old));
	assert_int_equal(old, REFCOUNT_MAX);
	assert_int_equal(refcount_read(&r), (unsigned int)SAT);
	assert_logged(mark, TXT_OVF, 1);
	static const int bad[] = { SAT, -1, INT_MIN, -0x7fff0000 };
	for (size_t k = 0; k < ARRAY_SIZE(bad); k++) {
		refcount_set(&r, bad[k]);
		assert_true(refcount_inc_not_zero_acquire(&r));
		assert_int_equal(refcount_read(&r), (unsigned int)SAT);
		refcount_set(&r, bad[k]);
		assert_true(__refcount_add_not_zero_acquire(2, &r, &old));
		assert_int_equal(old, bad[k]);
		assert_int_equal(refcount_read(&r), (unsigned int)SAT);
	}
	/* once per type: still the one report */
	assert_logged(mark, TXT_OVF, 1);
	/* 0 stays a silent failure; 1 + INT_MAX overflows and saturates */
	refcount_set(&r, 0);
	assert_false(refcount_add_not_zero_acquire(5, &r));
	assert_int_equal(refcount_read(&r), 0);
	refcount_set(&r, 1);
	assert_true(refcount_add_not_zero_acquire(INT_MAX, &r));
	assert_int_equal(refcount_read(&r), (unsigned int)SAT);
	/* the explicitly limited form is 6.15 API and always tests its limit */
	refcount_set(&r, 5);
	assert_false(__refcount_inc_not_zero_limited_acquire(&r, &old, 5));
	assert_int_equal(refcount_read(&r), 5);
}

/*
 * The model: the 6.3 rules written with 64-bit arithmetic, on the saturation boundaries rather
 * than on wrap-around.  Returns the warning type raised or -1.
 */
struct model {
	long long value;
};

static int model_add(struct model *m, int i, bool not_zero, int *ret)
{
	long long sum = m->value + i;

	*ret = m->value != 0;
	if (m->value == 0) {
		if (not_zero) {
			if (i < 0) {	/* the check still runs after the loop breaks */
				m->value = SAT;
				return REFCOUNT_ADD_NOT_ZERO_OVF;
			}
			return -1;
		}
		m->value = SAT;
		return REFCOUNT_ADD_UAF;
	}
	if (m->value < 0 || sum < 0 || sum > INT_MAX) {
		m->value = SAT;
		return not_zero ? REFCOUNT_ADD_NOT_ZERO_OVF : REFCOUNT_ADD_OVF;
	}
	m->value = sum;
	return -1;
}

static int model_sub_and_test(struct model *m, int i, int *ret)
{
	long long diff = m->value - i;

	*ret = 0;
	if (m->value == i) {
		m->value = 0;
		*ret = 1;
		return -1;
	}
	if (m->value < 0 || diff < 0 || diff > INT_MAX) {
		m->value = SAT;
		return REFCOUNT_SUB_UAF;
	}
	m->value = diff;
	return -1;
}

static int model_dec(struct model *m)
{
	if (m->value <= 1) {
		m->value = SAT;
		return REFCOUNT_DEC_LEAK;
	}
	m->value--;
	return -1;
}

static const char *const type_text[] = { TXT_OVF, TXT_OVF, TXT_ADD_UAF, TXT_SUB_UAF, TXT_DEC_LEAK };

static void test_random_against_model(void **state)
{
	static const int starts[] = { 0, 1, 2, 3, REFCOUNT_MAX, REFCOUNT_MAX - 1, SAT, -1, INT_MIN };
	static const int amounts[] = { 1, 2, 3, 0x3fffffff, INT_MAX, -1, -2 };
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 0x5eed);
	for (int step = 0; step < 20000; step++) {
		int start = starts[kfsim_prandom_below(&rnd, ARRAY_SIZE(starts))];
		int amount = amounts[kfsim_prandom_below(&rnd, ARRAY_SIZE(amounts))];
		unsigned int op = kfsim_prandom_below(&rnd, 4);
		refcount_t r = REFCOUNT_INIT(start);
		struct model m = { start };
		int want_ret = -1, got_ret = -1, type = -1;
		u64 mark = log_mark();

		/* The model skips the i == old == 0 and negative-i-to-zero quirks tested above. */
		if (op == 2 && amount <= 0)
			amount = 1;
		kfsim_refcount_clear_warn_once();
		switch (op) {
		case 0: type = model_add(&m, amount, false, &want_ret); want_ret = -1;
			refcount_add(amount, &r); break;
		case 1: type = model_add(&m, amount, true, &want_ret);
			got_ret = refcount_add_not_zero(amount, &r); break;
		case 2: type = model_sub_and_test(&m, amount, &want_ret);
			got_ret = refcount_sub_and_test(amount, &r); break;
		case 3: type = model_dec(&m); refcount_dec(&r); break;
		}
		if ((long long)(int)refcount_read(&r) != m.value || got_ret != want_ret)
			print_error("step %d: op %u start %d amount %d: got %d/%d, model %lld/%d\n",
				    step, op, start, amount, (int)refcount_read(&r), got_ret, m.value,
				    want_ret);
		assert_int_equal((int)refcount_read(&r), (int)m.value);
		assert_int_equal(got_ret, want_ret);
		if (type >= 0)
			assert_logged(mark, type_text[type], 1);
		else
			assert_logged(mark, "refcount_t:", 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_constants_and_read),
		cmocka_unit_test(test_every_function_at_every_edge),
		cmocka_unit_test(test_warning_report_names_refcount_warn_saturate),
		cmocka_unit_test(test_old_value_variants),
		cmocka_unit_test(test_warnings_once_per_type),
		cmocka_unit_test_teardown(test_sub_and_test_zero_by_version, teardown),
		cmocka_unit_test(test_saturated_counter_stays_saturated),
		cmocka_unit_test_teardown(test_acquire_variants_6_15, teardown),
		cmocka_unit_test_teardown(test_acquire_variants_6_12, teardown),
		cmocka_unit_test(test_random_against_model),
	};

	return cmocka_run_group_tests_name("refcount", tests, setup, NULL);
}
