// SPDX-License-Identifier: MIT
/* kmalloc's contract, accounting to memory cgroups, fault injection, and concurrent charging. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/bug.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>
#include "support/log_assert.h"

static int quiet(void **state)
{
	kfsim_console_loglevel_set(0);
	return 0;
}

static void test_zero_size_and_null(void **state)
{
	void *p = kmalloc(0, GFP_KERNEL);

	assert_ptr_equal(p, ZERO_SIZE_PTR);
	assert_true(ZERO_OR_NULL_PTR(p));
	assert_int_equal(ksize(p), 0);
	kfree(p);
	kfree(NULL);
	kvfree(NULL);
	kfree_sensitive(NULL);
	assert_ptr_equal(krealloc(NULL, 0, GFP_KERNEL), ZERO_SIZE_PTR);
}

static void test_kzalloc_zeroes_and_alignment(void **state)
{
	for (size_t size = 1; size < 5000; size = size * 3 + 1) {
		unsigned char *p = kzalloc(size, GFP_KERNEL);

		assert_non_null(p);
		assert_int_equal((uintptr_t)p % 16, 0);
		assert_int_equal(ksize(p), kmalloc_size_roundup(size));
		assert_true(ksize(p) >= size);
		for (size_t i = 0; i < size; i++)
			assert_int_equal(p[i], 0);
		kfree(p);
	}
}

static void test_stats_go_up_and_back(void **state)
{
	struct kfsim_kmalloc_stats before, during, after;
	void *objs[10];

	kfsim_kmalloc_stats(&before);
	for (int i = 0; i < 10; i++)
		objs[i] = kmalloc(100, GFP_KERNEL);
	kfsim_kmalloc_stats(&during);
	assert_int_equal(during.bytes_live - before.bytes_live, 1000);
	assert_int_equal(during.nr_allocs - before.nr_allocs, 10);
	assert_true(during.bytes_peak >= during.bytes_live);
	for (int i = 0; i < 10; i++)
		kfree(objs[i]);
	kfsim_kmalloc_stats(&after);
	assert_int_equal(after.bytes_live, before.bytes_live);
	assert_int_equal(after.nr_frees - before.nr_frees, 10);
	if (!strcmp(kfsim_kmalloc_backend(), "jemalloc"))
		assert_true(after.allocator_bytes > 0);
}

static void test_overflow_and_too_large_fail(void **state)
{
	u64 mark = log_mark();

	assert_null(kmalloc_array(SIZE_MAX / 2, 4, GFP_KERNEL));
	assert_null(kcalloc(SIZE_MAX / 8, 16, GFP_KERNEL));
	assert_null(kvcalloc(SIZE_MAX / 8, 16, GFP_KERNEL));
	assert_null(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL));
	assert_logged(mark, "allocation failure: size:4194305", 1);
	assert_null(kmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL | __GFP_NOWARN));
	assert_logged(mark, "allocation failure", 1);
	/* kvmalloc has no such cap. */
	void *big = kvmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL);

	assert_non_null(big);
	kvfree(big);
}

/* Linux 5.15 on: kvmalloc() refuses sizes past INT_MAX outright, warning once. */
static void test_kvmalloc_refuses_crazy_sizes(void **state)
{
	unsigned long warns = kfsim_warn_count();

	assert_null(kvmalloc((size_t)INT_MAX + 1, GFP_KERNEL | __GFP_NOWARN));
	assert_int_equal(kfsim_warn_count(), warns);
	assert_null(kvzalloc((size_t)INT_MAX + 1, GFP_KERNEL));
	assert_int_equal(kfsim_warn_count(), warns + 1);
	assert_null(kvcalloc(1u << 16, 1u << 16, GFP_KERNEL));	/* 2^32 bytes */
	assert_int_equal(kfsim_warn_count(), warns + 1);	/* WARN_ON_ONCE */
}

static void test_krealloc_keeps_contents(void **state)
{
	char *p = kstrdup("hello", GFP_KERNEL);

	p = krealloc(p, 64, GFP_KERNEL | __GFP_ZERO);
	assert_non_null(p);
	assert_string_equal(p, "hello");
	assert_int_equal(p[63], 0);
	p = krealloc(p, 3, GFP_KERNEL);
	assert_memory_equal(p, "hel", 3);
	kfree(p);
	char *dup = kstrndup("abcdef", 3, GFP_KERNEL);

	assert_string_equal(dup, "abc");
	kfree(dup);
	assert_null(kstrdup(NULL, GFP_KERNEL));
}

static void test_fault_injection_fails_nth(void **state)
{
	void *a, *b, *c;

	kfsim_kmalloc_fail_nth(2);
	a = kmalloc(8, GFP_KERNEL | __GFP_NOWARN);
	b = kmalloc(8, GFP_KERNEL | __GFP_NOWARN);
	c = kmalloc(8, GFP_KERNEL | __GFP_NOWARN);
	assert_non_null(a);
	assert_null(b);
	assert_non_null(c);
	kfree(a);
	kfree(c);
	/* A failed krealloc leaves the old object intact. */
	char *s = kstrdup("keep", GFP_KERNEL);

	kfsim_kmalloc_fail_nth(1);
	assert_null(krealloc(s, 100, GFP_KERNEL | __GFP_NOWARN));
	assert_string_equal(s, "keep");
	kfree(s);
}

/* SLUB's kmalloc caches: ksize() is the cache's object size, krealloc() stays when it fits. */
static void test_ksize_and_krealloc_as_slub(void **state)
{
	static const size_t sizes[][2] = {
		{ 1, 8 }, { 8, 8 }, { 9, 16 }, { 65, 96 }, { 96, 96 }, { 97, 128 }, { 100, 128 },
		{ 129, 192 }, { 193, 256 }, { 1025, 2048 }, { 8192, 8192 }, { 8193, 16384 },
		{ 100000, 131072 }, { KMALLOC_MAX_SIZE, KMALLOC_MAX_SIZE },
	};
	char *p, *q;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		assert_int_equal(kmalloc_size_roundup(sizes[i][0]), sizes[i][1]);
		p = kmalloc(sizes[i][0], GFP_KERNEL);
		assert_int_equal(ksize(p), sizes[i][1]);
		kfree(p);
	}
	assert_int_equal(kmalloc_size_roundup(0), 0);
	/* beyond KMALLOC_MAX_SIZE mm/slab_common.c returns the size unchanged */
	assert_int_equal(kmalloc_size_roundup(KMALLOC_MAX_SIZE + 1), KMALLOC_MAX_SIZE + 1);
	assert_int_equal(kmalloc_size_roundup((size_t)1 << 40), (size_t)1 << 40);
	p = kvmalloc(KMALLOC_MAX_SIZE + 1, GFP_KERNEL);
	assert_non_null(p);
	assert_int_equal(ksize(p), KMALLOC_MAX_SIZE + PAGE_SIZE);
	kvfree(p);
	p = kmalloc(100, GFP_KERNEL);
	memset(p, 'x', 128);	/* the whole object is usable */
	q = krealloc(p, 128, GFP_KERNEL);
	assert_ptr_equal(q, p);	/* __do_krealloc(): it still fits */
	q = krealloc(p, 20, GFP_KERNEL | __GFP_ZERO);
	assert_ptr_equal(q, p);
	assert_int_equal(p[19], 'x');
	assert_int_equal(p[20], 0);	/* want_init_on_alloc(): the spare bytes are zeroed */
	assert_int_equal(p[127], 0);
	q = krealloc(p, 129, GFP_KERNEL);
	assert_ptr_not_equal(q, NULL);
	assert_int_equal(ksize(q), 192);
	assert_int_equal(q[19], 'x');
	kfree(q);
	assert_null(krealloc(ERR_PTR(-EINVAL), 10, GFP_KERNEL));	/* WARN, not a crash */
}

/*
 * mm/memcontrol.c: charged in pages, 64 at a time when they fit, through a byte stock for slab
 * objects (obj_full_size(): cache size + 8); every refused page-counter attempt counts.
 */
static void test_memcg_charges_in_pages(void **state)
{
	struct mem_cgroup *memcg = kfsim_memcg_create("test", 2 * PAGE_SIZE), *old;
	void *a, *b, *c, *d, *e, *f, *unaccounted;

	assert_false(IS_ERR(memcg));
	old = set_active_memcg(memcg);
	assert_null(old);
	/* 520 bytes: one page (the batch of 64 does not fit: one failed attempt) */
	a = kmalloc(400, GFP_KERNEL_ACCOUNT);
	assert_non_null(a);
	assert_int_equal(kfsim_memcg_usage(memcg), PAGE_SIZE);
	assert_int_equal(kfsim_memcg_failcnt(memcg), 1);
	/* served from the 3576 bytes left in the stock: no new page */
	f = kmalloc(1000, GFP_KERNEL_ACCOUNT);
	assert_int_equal(kfsim_memcg_usage(memcg), PAGE_SIZE);
	/* 4104 bytes need two pages: batch, exact, then the reclaim loop (drain + 16 retries) */
	b = kmalloc(3000, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	assert_null(b);
	assert_int_equal(kfsim_memcg_failcnt(memcg), 1 + 19);
	assert_int_equal(kfsim_memcg_events_max(memcg), 18);
	/* GFP_NOWAIT cannot reclaim: batch and exact attempts only, then -ENOMEM */
	e = kmalloc(3000, GFP_NOWAIT | __GFP_ACCOUNT | __GFP_NOWARN);
	assert_null(e);
	assert_int_equal(kfsim_memcg_failcnt(memcg), 22);
	/* GFP_ATOMIC (__GFP_HIGH) is forced over the limit, as the kernel forces it */
	c = kmalloc(3000, GFP_ATOMIC | __GFP_ACCOUNT);
	assert_non_null(c);
	assert_true(kfsim_memcg_usage(memcg) > 2 * PAGE_SIZE);
	unaccounted = kmalloc(5000, GFP_KERNEL);	/* no __GFP_ACCOUNT: not charged */
	d = kmalloc(20000, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);	/* 8 pages: over the limit */
	assert_null(d);
	set_active_memcg(old);
	assert_int_equal(kfsim_memcg_destroy(memcg), -EBUSY);
	kfree(a);
	kfree(c);
	kfree(f);
	kfree(unaccounted);
	/* the stocks still hold pages; draining them leaves nothing charged */
	kfsim_memcg_drain(memcg);
	assert_int_equal(kfsim_memcg_usage(memcg), 0);
	assert_string_equal(kfsim_memcg_name(memcg), "test");
	assert_int_equal(kfsim_memcg_destroy(memcg), 0);
}

/* krealloc() charges the new object where the old one was, before freeing the old one. */
static void test_memcg_krealloc(void **state)
{
	struct mem_cgroup *memcg = kfsim_memcg_create("realloc", PAGE_SIZE), *old;
	char *p, *q;

	old = set_active_memcg(memcg);
	p = kmalloc(1000, GFP_KERNEL_ACCOUNT);	/* 1024 + 8 of the one page */
	set_active_memcg(old);
	assert_non_null(p);
	assert_null(krealloc(p, 3000, GFP_KERNEL | __GFP_NOWARN));	/* 4104 more: no room */
	q = krealloc(p, 1024, GFP_KERNEL);	/* fits its object: no charge at all */
	assert_ptr_equal(q, p);
	kfree(q);
	kfsim_memcg_drain(memcg);
	assert_int_equal(kfsim_memcg_usage(memcg), 0);
	assert_int_equal(kfsim_memcg_destroy(memcg), 0);
}

static void test_memcg_bad_arguments(void **state)
{
	assert_int_equal(PTR_ERR(kfsim_memcg_create("", 10)), -EINVAL);
	assert_int_equal(PTR_ERR(kfsim_memcg_create(NULL, 10)), -EINVAL);
	assert_int_equal(kfsim_memcg_destroy(NULL), 0);
	assert_int_equal(kfsim_memcg_try_charge(NULL, SIZE_MAX), 0);
}

#define CHARGERS 4
#define CHARGE_ROUNDS 20000

static void *charger(void *arg)
{
	struct mem_cgroup *memcg = arg;

	set_active_memcg(memcg);
	for (int i = 0; i < CHARGE_ROUNDS; i++) {
		void *p = kmalloc(64, GFP_KERNEL_ACCOUNT | __GFP_NOWARN);

		if (p && kfsim_memcg_usage(memcg) > 8 * PAGE_SIZE)
			return (void *)1;	/* the limit was overshot */
		kfree(p);
	}
	return NULL;
}

static void test_concurrent_charging_never_overshoots(void **state)
{
	struct mem_cgroup *memcg = kfsim_memcg_create("race", 8 * PAGE_SIZE);
	pthread_t threads[CHARGERS];
	void *overshot;

	for (int i = 0; i < CHARGERS; i++)
		pthread_create(&threads[i], NULL, charger, memcg);
	for (int i = 0; i < CHARGERS; i++) {
		pthread_join(threads[i], &overshot);
		assert_null(overshot);
	}
	kfsim_memcg_drain(memcg);
	assert_int_equal(kfsim_memcg_usage(memcg), 0);
	assert_int_equal(kfsim_memcg_destroy(memcg), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zero_size_and_null),
		cmocka_unit_test(test_kzalloc_zeroes_and_alignment),
		cmocka_unit_test(test_stats_go_up_and_back),
		cmocka_unit_test(test_overflow_and_too_large_fail),
		cmocka_unit_test(test_kvmalloc_refuses_crazy_sizes),
		cmocka_unit_test(test_krealloc_keeps_contents),
		cmocka_unit_test(test_fault_injection_fails_nth),
		cmocka_unit_test(test_ksize_and_krealloc_as_slub),
		cmocka_unit_test(test_memcg_charges_in_pages),
		cmocka_unit_test(test_memcg_krealloc),
		cmocka_unit_test(test_memcg_bad_arguments),
		cmocka_unit_test(test_concurrent_charging_never_overshoots),
	};

	return cmocka_run_group_tests(tests, quiet, NULL);
}
