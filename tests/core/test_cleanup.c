// SPDX-License-Identifier: MIT
/*
 * cleanup.h as Linux 6.12 has it: __free(kfree) skips error pointers (6.6+), conditional guards
 * (DEFINE_GUARD_COND, scoped_cond_guard), and the spinlock guards as DEFINE_LOCK_GUARD_1 classes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/cleanup.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include "support/log_assert.h"

static int setup(void **state)
{
	kfsim_console_loglevel_set(0);
	return 0;
}

static int restore_version(void **state)
{
	kfsim_set_kernel_version(KFSIM_KERNEL_VERSION_DEFAULT);
	return 0;
}

static void *make(long err)
{
	return err ? ERR_PTR(err) : kmalloc(32, GFP_KERNEL);
}

static int use_free_on(long err)
{
	void *p __free(kfree) = make(err);

	return IS_ERR(p) ? (int)PTR_ERR(p) : 0;
}

static void test_free_skips_error_pointers(void **state)
{
	u64 mark = log_mark();
	struct kfsim_kmalloc_stats before, after;

	kfsim_kmalloc_stats(&before);
	assert_int_equal(use_free_on(-ENOENT), -ENOENT);	/* 6.5 and before: an oops */
	assert_int_equal(use_free_on(0), 0);
	{
		void *v __free(kvfree) = ERR_PTR(-ENOMEM);
	}
	kfsim_kmalloc_stats(&after);
	assert_int_equal(after.nr_frees - before.nr_frees, 1);
	assert_logged(mark, "kfree() of error pointer", 0);
}

/* In 6.5 the ERR_PTR reaches kfree(), which refuses it with a WARN instead of crashing. */
static void test_free_before_6_6_reaches_kfree(void **state)
{
	u64 mark = log_mark();

	assert_int_equal(kfsim_set_kernel_version(KERNEL_VERSION(6, 5, 0)), 0);
	assert_int_equal(use_free_on(-EIO), -EIO);
	assert_logged(mark, "kfree() of error pointer -5 (EIO)", 1);
}

static DEFINE_MUTEX(m);
static DEFINE_SPINLOCK(l);

static int try_in_scope(void)
{
	int ran = 0;

	scoped_guard(mutex_try, &m)
		ran = 1;
	return ran;
}

static int cond_guard(struct mutex *lock)
{
	scoped_cond_guard(mutex_try, return -EBUSY, lock) {
		assert_true(kfsim_mutex_held_by_current(lock));
		return 0;
	}
	return 1;	/* never reached: either branch returns */
}

static void test_conditional_guards(void **state)
{
	assert_int_equal(try_in_scope(), 1);
	assert_false(mutex_is_locked(&m));
	assert_int_equal(cond_guard(&m), 0);
	assert_false(mutex_is_locked(&m));

	mutex_lock(&m);
	{
		/* a trylock of a held mutex fails: the guard holds NULL and unlocks nothing */
		guard(mutex_try)(&m);
	}
	assert_true(kfsim_mutex_held_by_current(&m));
	mutex_unlock(&m);

	spin_lock(&l);
	{
		CLASS(spinlock_try, g)(&l);
		assert_null(g.lock);
	}
	assert_true(kfsim_spin_held_by_current(&l));
	spin_unlock(&l);
	{
		CLASS(spinlock_irqsave_try, g)(&l);
		assert_ptr_equal(g.lock, &l);
		assert_true(kfsim_spin_held_by_current(&l));
	}
	assert_false(spin_is_locked(&l));
}

static int locked_mutex_cond(void)
{
	int ret;

	mutex_lock(&m);
	ret = 0;
	/* held by us: trylock fails, the failure statement runs */
	scoped_cond_guard(mutex_try, ret = -EBUSY, &m)
		ret = 1;
	mutex_unlock(&m);
	return ret;
}

static void test_scoped_cond_guard_failure_runs(void **state)
{
	assert_int_equal(locked_mutex_cond(), -EBUSY);
	assert_false(mutex_is_locked(&m));
}

/* The spinlock guard is a struct with the lock pointer (DEFINE_LOCK_GUARD_1), not the pointer. */
static void test_spinlock_guard_class_is_a_struct(void **state)
{
	_Static_assert(__builtin_types_compatible_p(__typeof__(((class_spinlock_t *)0)->lock),
						    spinlock_t *),
		       "guard(spinlock) is DEFINE_LOCK_GUARD_1");
	_Static_assert(__builtin_types_compatible_p(class_mutex_t, struct mutex *),
		       "guard(mutex) is DEFINE_GUARD");
	{
		guard(spinlock)(&l);
		assert_true(kfsim_spin_held_by_current(&l));
	}
	assert_false(spin_is_locked(&l));
	for (int i = 0; i < 3; i++) {
		scoped_guard(spinlock_irqsave, &l) {
			if (i == 1)
				break;	/* leaves the guarded statement only */
		}
		assert_false(spin_is_locked(&l));
	}
}

static int live_counters;
DEFINE_CLASS(counter, int *, if (_T) (*_T)--, ({ (*p)++; p; }), int *p)

/* scoped_class(): the object lives for one statement; retain_and_null_ptr() disarms __free(). */
static void test_scoped_class_and_retain(void **state)
{
	void *kept;

	scoped_class(counter, c, &live_counters) {
		assert_ptr_equal(c, &live_counters);
		assert_int_equal(live_counters, 1);
	}
	assert_int_equal(live_counters, 0);
	scoped_class(counter, c, &live_counters) {
		if (c)
			break;	/* leaves the statement, the destructor still runs */
		fail();
	}
	assert_int_equal(live_counters, 0);
	{
		void *p __free(kfree) = kmalloc(8, GFP_KERNEL);

		kept = p;
		retain_and_null_ptr(p);
		assert_null(p);
	}
	kfree(kept);	/* still allocated: the scope did not free it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_free_skips_error_pointers),
		cmocka_unit_test_teardown(test_free_before_6_6_reaches_kfree, restore_version),
		cmocka_unit_test(test_conditional_guards),
		cmocka_unit_test(test_scoped_cond_guard_failure_runs),
		cmocka_unit_test(test_spinlock_guard_class_is_a_struct),
		cmocka_unit_test(test_scoped_class_and_retain),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
