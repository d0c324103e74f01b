// SPDX-License-Identifier: MIT
/*
 * Arc lifecycles: creation and its allocation failure, clone/put counting, drop exactly once at
 * zero, UniqueArc write-then-share, saturation instead of overflow, bad pointers rejected.
 * ASan checks that every path frees exactly what it allocated.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/arc.h>
#include <kfsim/slab.h>
#include "refcount/arc_internal.h"
#include "support/log_assert.h"

struct config {
	int version;
	char *name;	/* owned: freed by the drop callback */
};

static int drops;

static int setup(void **state)
{
	kfsim_console_loglevel_set(0);
	return 0;
}

static int reset(void **state)
{
	drops = 0;
	kfsim_refcount_clear_warn_once();
	kfsim_kmalloc_fail_nth(0);
	return 0;
}

static void config_drop(void *data)
{
	struct config *cfg = data;

	drops++;
	kfree(cfg->name);
}

static void test_new_clone_put(void **state)
{
	struct config value = { .version = 3, .name = kstrdup("eth0", GFP_KERNEL) };
	const struct config *a = arc_try_new(&value, sizeof(value), config_drop, GFP_KERNEL);
	const struct config *b;

	assert_false(IS_ERR(a));
	assert_true(arc_is_arc(a));
	assert_int_equal(((uintptr_t)a) % _Alignof(max_align_t), 0);
	assert_int_equal(a->version, 3);
	assert_string_equal(a->name, "eth0");
	assert_int_equal(arc_count(a), 1);
	b = arc_clone(a);
	assert_true(arc_ptr_eq(a, b));
	assert_int_equal(arc_count(a), 2);
	assert_int_equal(arc_put(b), 0);
	assert_int_equal(drops, 0);
	assert_int_equal(arc_put(a), 1);
	assert_int_equal(drops, 1);
}

static void test_ptr_eq_compares_allocations(void **state)
{
	int one = 1;
	const int *a = arc_try_new(&one, sizeof(one), NULL, GFP_KERNEL);
	const int *b = arc_try_new(&one, sizeof(one), NULL, GFP_KERNEL);

	assert_false(arc_ptr_eq(a, b));	/* equal values, different Arcs */
	assert_true(arc_ptr_eq(a, a));
	assert_int_equal(arc_put(a), 1);
	assert_int_equal(arc_put(b), 1);
}

static void test_allocation_failure_reports_enomem(void **state)
{
	const void *arc;
	void *unique;

	kfsim_kmalloc_fail_nth(1);
	arc = arc_try_new(NULL, 64, config_drop, GFP_KERNEL);
	assert_true(IS_ERR(arc));
	assert_int_equal(PTR_ERR(arc), -ENOMEM);
	unique = unique_arc_try_new(SIZE_MAX - 8, NULL, GFP_KERNEL);
	assert_int_equal(PTR_ERR(unique), -ENOMEM);
	unique = unique_arc_try_new(KMALLOC_MAX_SIZE, NULL, GFP_KERNEL | __GFP_NOWARN);
	assert_int_equal(PTR_ERR(unique), -ENOMEM);
	assert_int_equal(drops, 0);
}

/* A constructor with an early return on each failure, the shape of kernel probe code. */
static const struct config *config_create(const char *name, int *err)
{
	struct config *cfg = unique_arc_try_new(sizeof(*cfg), config_drop, GFP_KERNEL);

	if (IS_ERR(cfg)) {
		*err = (int)PTR_ERR(cfg);
		return NULL;
	}
	cfg->version = 1;
	cfg->name = kstrdup(name, GFP_KERNEL);
	if (!cfg->name) {
		arc_put(cfg);	/* drop runs: kfree(NULL) is fine */
		*err = -ENOMEM;
		return NULL;
	}
	*err = 0;
	return unique_arc_share(cfg);
}

static void test_unique_arc_error_paths(void **state)
{
	const struct config *cfg;
	int err;

	for (unsigned int nth = 1; nth <= 2; nth++) {
		kfsim_kmalloc_fail_nth(nth);
		cfg = config_create("wlan0", &err);
		assert_null(cfg);
		assert_int_equal(err, -ENOMEM);
	}
	assert_int_equal(drops, 1);	/* only the second failure had a payload to drop */
	kfsim_kmalloc_fail_nth(0);
	cfg = config_create("wlan0", &err);
	assert_int_equal(err, 0);
	assert_string_equal(cfg->name, "wlan0");
	assert_int_equal(arc_put(cfg), 1);
	assert_int_equal(drops, 2);
}

static void test_zero_sized_payload(void **state)
{
	const void *arc = arc_try_new(NULL, 0, NULL, GFP_KERNEL);

	assert_false(IS_ERR(arc));
	assert_int_equal(arc_count(arc), 1);
	assert_int_equal(arc_put(arc), 1);
}

/* Clone at REFCOUNT_MAX saturates: the Arc leaks instead of being freed while in use. */
static void test_saturation_leaks_instead_of_freeing(void **state)
{
	const struct config *arc = arc_try_new(NULL, sizeof(struct config), config_drop, GFP_KERNEL);
	refcount_t *count = &((struct arc_inner *)((unsigned char *)arc -
							 offsetof(struct arc_inner, data)))->refcount;
	u64 mark = log_mark();

	/* Reach the header's counter as the overflow would: through REFCOUNT_MAX clones. */
	assert_int_equal(refcount_read(count), 1);
	refcount_set(count, REFCOUNT_MAX);
	assert_ptr_equal(arc_clone(arc), arc);
	assert_int_equal(arc_count(arc), (unsigned int)REFCOUNT_SATURATED);
	assert_logged(mark, "refcount_t: saturated; leaking memory.", 1);
	for (int i = 0; i < 10; i++)
		assert_int_equal(arc_put(arc), 0);
	assert_int_equal(drops, 0);
	/* Clean up for ASan: this is what a leaked Arc would have kept forever. */
	refcount_set(count, 1);
	assert_int_equal(arc_put(arc), 1);
}

static void test_bad_pointers_are_rejected(void **state)
{
	unsigned char *buf = kzalloc(64, GFP_KERNEL);
	u64 mark = log_mark();

	assert_int_equal(arc_put(NULL), -EINVAL);
	assert_int_equal(arc_put(ERR_PTR(-ENOMEM)), -EINVAL);
	assert_int_equal(PTR_ERR(arc_clone(NULL)), -EINVAL);
	assert_int_equal(arc_put(buf + 32), -EINVAL);
	assert_false(arc_is_arc(buf + 32));
	assert_int_equal(arc_count(buf + 32), 0);
	assert_logged(mark, "arc: arc_put() of NULL pointer", 1);
	assert_logged(mark, "not an Arc (bad magic 0)", 2);
	kfree(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_new_clone_put, reset),
		cmocka_unit_test_setup(test_ptr_eq_compares_allocations, reset),
		cmocka_unit_test_setup(test_allocation_failure_reports_enomem, reset),
		cmocka_unit_test_setup(test_unique_arc_error_paths, reset),
		cmocka_unit_test_setup(test_zero_sized_payload, reset),
		cmocka_unit_test_setup(test_saturation_leaks_instead_of_freeing, reset),
		cmocka_unit_test_setup(test_bad_pointers_are_rejected, reset),
	};

	return cmocka_run_group_tests_name("arc", tests, setup, NULL);
}
