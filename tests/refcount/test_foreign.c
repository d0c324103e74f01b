// SPDX-License-Identifier: MIT
/*
 * ForeignOwnable: box, arc and unit round trips, borrows, mutable borrows handed back at scope
 * end, and the debug mode's verdicts on each rule violation (message + error, object intact).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/arc.h>
#include <kfsim/foreign_ownable.h>
#include <kfsim/slab.h>
#include "support/log_assert.h"

struct counter {
	int value;
};

static int drops;

static int setup(void **state)
{
	kfsim_console_loglevel_set(0);
	return 0;
}

static int debug_on(void **state)
{
	drops = 0;
	kfsim_foreign_debug_set(true);
	return 0;
}

static int debug_off(void **state)
{
	kfsim_foreign_debug_set(false);
	return 0;
}

static void counter_drop(void *data)
{
	drops++;
}

static void test_box_round_trip(void **state)
{
	struct counter *box = kzalloc(sizeof(*box), GFP_KERNEL);
	void *cookie = foreign_into(&foreign_box, box);
	const struct counter *seen;
	struct counter *back;

	assert_ptr_equal(cookie, box);
	seen = foreign_borrow(&foreign_box, cookie);
	assert_ptr_equal(seen, box);
	foreign_borrow_end(&foreign_box, cookie);
	{
		FOREIGN_BORROW_MUT(guard);
		struct counter *writable = foreign_borrow_mut(&foreign_box, cookie, &guard);

		assert_false(IS_ERR(writable));
		writable->value = 7;
	}
	back = foreign_from(&foreign_box, cookie);
	assert_ptr_equal(back, box);
	assert_int_equal(back->value, 7);
	kfree(back);
}

static void test_arc_round_trip_keeps_the_reference(void **state)
{
	struct counter init = { .value = 5 };
	const struct counter *arc = arc_try_new(&init, sizeof(init), counter_drop, GFP_KERNEL);
	const struct counter *seen;
	void *cookie;

	cookie = foreign_into(&foreign_arc, (void *)arc);
	assert_false(IS_ERR(cookie));
	assert_ptr_not_equal(cookie, arc);	/* the header, as Rust's ArcInner pointer */
	assert_int_equal(arc_count(arc), 1);	/* the cookie owns the only reference */
	seen = foreign_borrow(&foreign_arc, cookie);
	assert_ptr_equal(seen, arc);
	assert_int_equal(arc_count(arc), 1);	/* a borrow does not touch the count */
	assert_int_equal(seen->value, 5);
	foreign_borrow_end(&foreign_arc, cookie);
	arc = foreign_from(&foreign_arc, cookie);
	assert_int_equal(seen->value, 5);
	assert_int_equal(arc_put(arc), 1);
	assert_int_equal(drops, 1);
}

static void test_unit(void **state)
{
	void *cookie = foreign_into(&foreign_unit, NULL);

	assert_non_null(cookie);
	assert_false(IS_ERR(cookie));
	assert_null(foreign_borrow(&foreign_unit, cookie));
	foreign_borrow_end(&foreign_unit, cookie);
	assert_null(foreign_from(&foreign_unit, cookie));
}

static void test_try_from_null(void **state)
{
	assert_null(foreign_try_from(&foreign_box, NULL));
	assert_null(foreign_try_from(&foreign_arc, NULL));
}

static void test_debug_double_take_back(void **state)
{
	struct counter *box = kzalloc(sizeof(*box), GFP_KERNEL);
	void *cookie = foreign_into(&foreign_box, box);
	u64 mark = log_mark();

	assert_ptr_equal(foreign_from(&foreign_box, cookie), box);
	assert_int_equal(PTR_ERR(foreign_from(&foreign_box, cookie)), -EINVAL);
	assert_logged(mark, "foreign_ownable: box: from_foreign() of", 1);
	assert_logged(mark, "after from_foreign() took it back (double take-back)", 1);
	kfree(box);
}

static void test_debug_borrow_after_take_back(void **state)
{
	struct counter *box = kzalloc(sizeof(*box), GFP_KERNEL);
	void *cookie = foreign_into(&foreign_box, box);
	struct foreign_borrow_mut guard;
	u64 mark = log_mark();

	assert_ptr_equal(foreign_from(&foreign_box, cookie), box);
	assert_int_equal(PTR_ERR(foreign_borrow(&foreign_box, cookie)), -EINVAL);
	assert_logged(mark, "foreign_ownable: box: borrow() of", 1);
	assert_int_equal(PTR_ERR(foreign_borrow_mut(&foreign_box, cookie, &guard)), -EINVAL);
	assert_null(guard.ops);
	assert_logged(mark, "borrow_mut() of", 1);
	assert_logged(mark, "after from_foreign() took it back", 2);
	kfree(box);
}

static void test_debug_mut_borrow_while_borrowed(void **state)
{
	struct counter *box = kzalloc(sizeof(*box), GFP_KERNEL);
	void *cookie = foreign_into(&foreign_box, box);
	u64 mark = log_mark();

	assert_ptr_equal(foreign_borrow(&foreign_box, cookie), box);
	{
		FOREIGN_BORROW_MUT(guard);

		assert_int_equal(PTR_ERR(foreign_borrow_mut(&foreign_box, cookie, &guard)), -EBUSY);
		assert_logged(mark, "borrow_mut() of", 1);
		assert_logged(mark, "while 1 borrow() and no borrow_mut() are live", 1);
	}
	foreign_borrow_end(&foreign_box, cookie);
	{
		FOREIGN_BORROW_MUT(guard);
		FOREIGN_BORROW_MUT(second);

		assert_ptr_equal(foreign_borrow_mut(&foreign_box, cookie, &guard), box);
		assert_int_equal(PTR_ERR(foreign_borrow_mut(&foreign_box, cookie, &second)), -EBUSY);
		assert_int_equal(PTR_ERR(foreign_borrow(&foreign_box, cookie)), -EBUSY);
		assert_logged(mark, "box: borrow() of", 1);
		assert_logged(mark, "while a borrow_mut() is live", 1);
		/* Taking back while the mutable borrow lives is refused too. */
		assert_int_equal(PTR_ERR(foreign_from(&foreign_box, cookie)), -EBUSY);
	}
	/* The guard handed it back at scope end: borrowing works again. */
	assert_ptr_equal(foreign_borrow(&foreign_box, cookie), box);
	foreign_borrow_end(&foreign_box, cookie);
	assert_ptr_equal(foreign_from(&foreign_box, cookie), box);
	kfree(box);
}

static void test_debug_arc_clones_and_misuse(void **state)
{
	const struct counter *arc = arc_try_new(NULL, sizeof(struct counter), counter_drop,
						GFP_KERNEL);
	const struct counter *clone = arc_clone(arc);
	void *first = foreign_into(&foreign_arc, (void *)arc);
	void *second = foreign_into(&foreign_arc, (void *)clone);
	u64 mark = log_mark();
	int before = drops;

	assert_ptr_equal(first, second);	/* one header, two owned references */
	assert_ptr_equal(arc_put(foreign_from(&foreign_arc, first)), 0);
	assert_int_equal(arc_put(foreign_from(&foreign_arc, second)), 1);
	assert_int_equal(drops, before + 1);
	assert_logged(mark, "foreign_ownable", 0);
	/* A cookie never handed out, and a box cookie used as an arc. */
	assert_int_equal(PTR_ERR(foreign_borrow(&foreign_arc, &mark)), -EINVAL);
	assert_logged(mark, "which into_foreign() never returned", 1);
	{
		struct counter *box = kzalloc(sizeof(*box), GFP_KERNEL);
		void *cookie = foreign_into(&foreign_box, box);

		assert_int_equal(PTR_ERR(foreign_from(&foreign_arc, cookie)), -EINVAL);
		assert_logged(mark, "which into_foreign() made as a box", 1);
		assert_int_equal(PTR_ERR(foreign_into(&foreign_box, box)), -EINVAL);
		assert_logged(mark, "which C code already owns", 1);
		kfree(foreign_from(&foreign_box, cookie));
	}
}

static void test_bad_cookies_always_rejected(void **state)
{
	u64 mark = log_mark();
	struct foreign_borrow_mut guard;

	assert_int_equal(PTR_ERR(foreign_into(&foreign_box, NULL)), -EINVAL);
	assert_int_equal(PTR_ERR(foreign_into(&foreign_arc, ERR_PTR(-ENOMEM))), -EINVAL);
	assert_int_equal(PTR_ERR(foreign_borrow(&foreign_box, NULL)), -EINVAL);
	assert_int_equal(PTR_ERR(foreign_borrow_mut(&foreign_box, NULL, &guard)), -EINVAL);
	assert_int_equal(PTR_ERR(foreign_from(&foreign_box, ERR_PTR(-EIO))), -EINVAL);
	assert_logged(mark, "foreign_ownable: box: from_foreign() of a ERR_PTR cookie", 1);
	foreign_borrow_mut_end(&guard);	/* an empty guard is ignored */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_box_round_trip, debug_off),
		cmocka_unit_test_setup(test_arc_round_trip_keeps_the_reference, debug_off),
		cmocka_unit_test_setup(test_unit, debug_off),
		cmocka_unit_test_setup(test_try_from_null, debug_off),
		cmocka_unit_test_setup(test_bad_cookies_always_rejected, debug_off),
		cmocka_unit_test_setup_teardown(test_box_round_trip, debug_on, debug_off),
		cmocka_unit_test_setup_teardown(test_arc_round_trip_keeps_the_reference, debug_on,
						debug_off),
		cmocka_unit_test_setup_teardown(test_unit, debug_on, debug_off),
		cmocka_unit_test_setup_teardown(test_debug_double_take_back, debug_on, debug_off),
		cmocka_unit_test_setup_teardown(test_debug_borrow_after_take_back, debug_on, debug_off),
		cmocka_unit_test_setup_teardown(test_debug_mut_borrow_while_borrowed, debug_on,
						debug_off),
		cmocka_unit_test_setup_teardown(test_debug_arc_clones_and_misuse, debug_on, debug_off),
	};

	return cmocka_run_group_tests_name("foreign_ownable", tests, setup, NULL);
}
