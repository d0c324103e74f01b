// SPDX-License-Identifier: MIT
/*
 * ScopeGuard and cleanup.h: cleanups run on every way out of a scope (fall-through, return,
 * break, continue, goto out), in reverse order, exactly once, and never after dismiss() or
 * no_free_ptr(); lock guards release their lock whatever the exit.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/cleanup.h>
#include <kfsim/err.h>
#include <kfsim/scope_guard.h>
#include "support/log_assert.h"

static char trail[64];

static int setup(void **state)
{
	kfsim_console_loglevel_set(0);
	return 0;
}

static int reset(void **state)
{
	trail[0] = '\0';
	kfsim_kmalloc_fail_nth(0);
	return 0;
}

static void note(void *data)
{
	strncat(trail, data ? (const char *)data : "-", sizeof(trail) - strlen(trail) - 1);
}

static int guarded_return(int fail_at)
{
	SCOPE_GUARD(a, note, "a");
	if (fail_at == 1)
		return -EINVAL;
	SCOPE_GUARD(b, note, "b");
	if (fail_at == 2)
		return -ENOMEM;
	SCOPE_GUARD_FN(c, note);
	scope_guard_dismiss(&a);
	return 0;
}

static void test_scope_guard_runs_on_every_return(void **state)
{
	assert_int_equal(guarded_return(1), -EINVAL);
	assert_string_equal(trail, "a");
	trail[0] = '\0';
	assert_int_equal(guarded_return(2), -ENOMEM);
	assert_string_equal(trail, "ba");	/* reverse order of declaration */
	trail[0] = '\0';
	assert_int_equal(guarded_return(0), 0);
	assert_string_equal(trail, "-b");	/* a dismissed; c has no data */
}

static void test_scope_guard_break_continue_goto(void **state)
{
	for (int i = 0; i < 3; i++) {
		SCOPE_GUARD(loop, note, i == 0 ? "0" : i == 1 ? "1" : "2");
		if (i == 0)
			continue;
		if (i == 1)
			break;
	}
	assert_string_equal(trail, "01");
	{
		SCOPE_GUARD(g, note, "g");
		goto out;
	}
out:
	assert_string_equal(trail, "01g");
}

static void buf_free(void *buf)
{
	kfree(buf);
}

static void test_scope_guard_dismiss_returns_data(void **state)
{
	char *buf = kstrdup("payload", GFP_KERNEL);
	char *kept;

	{
		SCOPE_GUARD(g, buf_free, buf);
		assert_ptr_equal(scope_guard_data(&g), buf);
		kept = scope_guard_dismiss(&g);
	}
	assert_string_equal(kept, "payload");	/* not freed: ASan would object */
	{
		SCOPE_GUARD(g, buf_free, kept);	/* this one frees it */
		scope_guard_run(&g);
		scope_guard_run(&g);		/* once only */
	}
}

struct device_ctx {
	char *name;
	int *stats;
};

DEFINE_FREE(device_ctx_free, struct device_ctx *,
	    if (_T) { kfree(_T->name); kfree(_T->stats); kfree(_T); })

/* Kernel-style constructor on __free(): every failure returns with nothing leaked. */
static struct device_ctx *device_ctx_create(const char *name)
{
	struct device_ctx *ctx __free(device_ctx_free) = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return NULL;
	ctx->name = kstrdup(name, GFP_KERNEL);
	if (!ctx->name)
		return NULL;
	ctx->stats = kcalloc(4, sizeof(int), GFP_KERNEL);
	if (!ctx->stats)
		return NULL;
	return_ptr(ctx);
}

static void test_free_on_error_paths(void **state)
{
	struct device_ctx *ctx;

	for (unsigned int nth = 1; nth <= 3; nth++) {
		kfsim_kmalloc_fail_nth(nth);
		assert_null(device_ctx_create("sda"));
	}
	kfsim_kmalloc_fail_nth(0);
	ctx = device_ctx_create("sda");
	assert_non_null(ctx);
	assert_string_equal(ctx->name, "sda");
	{
		struct device_ctx *owned __free(device_ctx_free) = ctx;	/* freed at scope end */
	}
}

static void test_kfree_and_no_free_ptr(void **state)
{
	void *kept;

	{
		void *p __free(kfree) = kmalloc(32, GFP_KERNEL);
		void *q __free(kfree) = kmalloc(32, GFP_KERNEL);

		assert_non_null(p);
		kept = no_free_ptr(q);
		assert_null(q);
	}
	kfree(kept);
	{
		void *none __free(kfree) = NULL;	/* a NULL cleanup is a no-op */
		void *big __free(kvfree) = kvmalloc(1 << 16, GFP_KERNEL);

		assert_null(none);
		assert_non_null(big);
	}
}

static DEFINE_MUTEX(guarded_mutex);
static DEFINE_SPINLOCK(guarded_spin);

static int locked_work(int fail)
{
	guard(mutex)(&guarded_mutex);
	guard(spinlock)(&guarded_spin);
	assert_true(kfsim_mutex_held_by_current(&guarded_mutex));
	assert_true(kfsim_spin_held_by_current(&guarded_spin));
	if (fail)
		return -EBUSY;
	return 0;
}

static void test_guard_releases_on_every_exit(void **state)
{
	assert_int_equal(locked_work(1), -EBUSY);
	assert_false(mutex_is_locked(&guarded_mutex));
	assert_false(spin_is_locked(&guarded_spin));
	assert_int_equal(locked_work(0), 0);
	assert_false(mutex_is_locked(&guarded_mutex));
	assert_false(spin_is_locked(&guarded_spin));
}

static void test_scoped_guard_covers_one_statement(void **state)
{
	int iterations = 0;

	scoped_guard(mutex, &guarded_mutex) {
		assert_true(mutex_is_locked(&guarded_mutex));
		scoped_guard(spinlock_irqsave, &guarded_spin) {	/* nested: no shadowing */
			assert_true(spin_is_locked(&guarded_spin));
			iterations++;
		}
		assert_false(spin_is_locked(&guarded_spin));
	}
	assert_false(mutex_is_locked(&guarded_mutex));
	assert_int_equal(iterations, 1);

	/* break inside leaves the hidden one-iteration loop, not the enclosing one (6.5 gotcha). */
	for (int i = 0; i < 2; i++) {
		scoped_guard(spinlock_irq, &guarded_spin) {
			iterations++;
			break;
		}
		assert_false(spin_is_locked(&guarded_spin));
	}
	assert_int_equal(iterations, 3);
}

static void test_class_with_constructor_arguments(void **state)
{
	CLASS(spinlock, held)(&guarded_spin);

	assert_ptr_equal(held.lock, &guarded_spin);	/* DEFINE_LOCK_GUARD_1: a struct, as 6.12 */
	assert_true(kfsim_spin_held_by_current(&guarded_spin));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_scope_guard_runs_on_every_return, reset),
		cmocka_unit_test_setup(test_scope_guard_break_continue_goto, reset),
		cmocka_unit_test_setup(test_scope_guard_dismiss_returns_data, reset),
		cmocka_unit_test_setup(test_free_on_error_paths, reset),
		cmocka_unit_test_setup(test_kfree_and_no_free_ptr, reset),
		cmocka_unit_test_setup(test_guard_releases_on_every_exit, reset),
		cmocka_unit_test_setup(test_scoped_guard_covers_one_statement, reset),
		cmocka_unit_test_setup(test_class_with_constructor_arguments, reset),
	};
	int failed = cmocka_run_group_tests_name("cleanup", tests, setup, NULL);

	/* test_class_with_constructor_arguments's guard ended with its function. */
	return failed || spin_is_locked(&guarded_spin);
}
