// SPDX-License-Identifier: MIT
/* kref: the release callback runs once at zero, and misuse behaves as refcount_t's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/kref.h>
#include <kfsim/slab.h>
#include "support/log_assert.h"

struct widget {
	struct kref kref;
	int id;
};

static int releases;
static DEFINE_MUTEX(widget_mutex);
static DEFINE_SPINLOCK(widget_spin);

static int setup(void **state)
{
	kfsim_console_loglevel_set(0);
	return 0;
}

static int reset(void **state)
{
	releases = 0;
	kfsim_refcount_clear_warn_once();
	return 0;
}

static void widget_release(struct kref *kref)
{
	struct widget *w = container_of(kref, struct widget, kref);

	releases++;
	kfree(w);
}

static void widget_release_mutex(struct kref *kref)
{
	assert_true(kfsim_mutex_held_by_current(&widget_mutex));
	mutex_unlock(&widget_mutex);
	widget_release(kref);
}

static void widget_release_spin(struct kref *kref)
{
	assert_true(kfsim_spin_held_by_current(&widget_spin));
	spin_unlock(&widget_spin);
	widget_release(kref);
}

static struct widget *widget_new(void)
{
	struct widget *w = kzalloc(sizeof(*w), GFP_KERNEL);

	assert_non_null(w);
	kref_init(&w->kref);
	return w;
}

static void test_init_get_put(void **state)
{
	struct widget *w = widget_new();

	assert_int_equal(kref_read(&w->kref), 1);
	kref_get(&w->kref);
	assert_int_equal(kref_read(&w->kref), 2);
	assert_int_equal(kref_put(&w->kref, widget_release), 0);
	assert_int_equal(releases, 0);
	assert_int_equal(kref_put(&w->kref, widget_release), 1);
	assert_int_equal(releases, 1);
}

static void test_static_initialiser(void **state)
{
	struct kref k = KREF_INIT(3);

	assert_int_equal(kref_read(&k), 3);
}

static void test_put_mutex_and_lock_hold_lock_only_for_release(void **state)
{
	struct widget *w = widget_new();

	kref_get(&w->kref);
	assert_int_equal(kref_put_mutex(&w->kref, widget_release_mutex, &widget_mutex), 0);
	assert_false(mutex_is_locked(&widget_mutex));
	assert_int_equal(kref_put_mutex(&w->kref, widget_release_mutex, &widget_mutex), 1);
	assert_false(mutex_is_locked(&widget_mutex));
	assert_int_equal(releases, 1);

	w = widget_new();
	kref_get(&w->kref);
	assert_int_equal(kref_put_lock(&w->kref, widget_release_spin, &widget_spin), 0);
	assert_false(spin_is_locked(&widget_spin));
	assert_int_equal(kref_put_lock(&w->kref, widget_release_spin, &widget_spin), 1);
	assert_false(spin_is_locked(&widget_spin));
	assert_int_equal(releases, 2);
}

static void test_get_unless_zero(void **state)
{
	struct kref k = KREF_INIT(1);

	assert_true(kref_get_unless_zero(&k));
	assert_int_equal(kref_read(&k), 2);
	refcount_set(&k.refcount, 0);
	assert_false(kref_get_unless_zero(&k));
	assert_int_equal(kref_read(&k), 0);
}

/* A released kref (count 0) is a use-after-free: warn, saturate, never release twice. */
static void test_misuse_after_release(void **state)
{
	struct kref k = KREF_INIT(0);
	u64 mark = log_mark();

	assert_int_equal(kref_put(&k, widget_release), 0);
	assert_int_equal(kref_read(&k), (unsigned int)REFCOUNT_SATURATED);
	assert_logged(mark, "refcount_t: underflow; use-after-free.", 1);
	assert_int_equal(releases, 0);

	refcount_set(&k.refcount, 0);
	kref_get(&k);
	assert_int_equal(kref_read(&k), (unsigned int)REFCOUNT_SATURATED);
	assert_logged(mark, "refcount_t: addition on 0; use-after-free.", 1);

	refcount_set(&k.refcount, 0);
	assert_int_equal(kref_put_mutex(&k, widget_release_mutex, &widget_mutex), 0);
	assert_false(mutex_is_locked(&widget_mutex));
	assert_int_equal(kref_read(&k), 0);	/* dec_not_one does not saturate */
	assert_logged(mark, "refcount_t: underflow; use-after-free.", 2);
	assert_int_equal(releases, 0);
}

static void test_null_release_is_refused(void **state)
{
	struct kref k = KREF_INIT(1);
	unsigned long warns = kfsim_warn_count();

	assert_int_equal(kref_put(&k, NULL), 0);
	assert_int_equal(kref_put_mutex(&k, NULL, &widget_mutex), 0);
	assert_int_equal(kref_put_lock(&k, NULL, &widget_spin), 0);
	assert_int_equal(kref_read(&k), 1);	/* nothing dropped */
	assert_false(mutex_is_locked(&widget_mutex));
	assert_int_equal(kfsim_warn_count(), warns + 3);	/* once per call site */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_init_get_put, reset),
		cmocka_unit_test_setup(test_static_initialiser, reset),
		cmocka_unit_test_setup(test_put_mutex_and_lock_hold_lock_only_for_release, reset),
		cmocka_unit_test_setup(test_get_unless_zero, reset),
		cmocka_unit_test_setup(test_misuse_after_release, reset),
		cmocka_unit_test_setup(test_null_release_is_refused, reset),
	};

	return cmocka_run_group_tests_name("kref", tests, setup, NULL);
}
