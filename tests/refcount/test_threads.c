// SPDX-License-Identifier: MIT
/*
 * refcount_t, kref and Arc under many threads: whatever the interleaving, an object is released
 * exactly once, never while someone still uses it, and the count never resurrects from 0.
 * Run under TSan in CI (label "threads"): the payload writes before each put and the read in the
 * release callback are the accesses the release/acquire ordering must order.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <cmocka.h>

#include <kfsim/arc.h>
#include <kfsim/foreign_ownable.h>
#include <kfsim/kref.h>
#include <kfsim/refcount.h>
#include <kfsim/slab.h>
#include "support/log_assert.h"

#define THREADS 4
#define ROUNDS 20000

static int setup(void **state)
{
	kfsim_console_loglevel_set(0);
	kfsim_refcount_clear_warn_once();
	return 0;
}

struct shared_obj {
	refcount_t ref;
	struct kref kref;
	long writes[THREADS];	/* each thread writes its own slot before dropping a reference */
	atomic_int releases;
};

static atomic_int frees;

/* The freeing thread reads every slot: ordered after each writer's last put by release/acquire. */
static void obj_free(struct shared_obj *obj)
{
	long sum = 0;

	for (int t = 0; t < THREADS; t++)
		sum += obj->writes[t];
	assert_true(sum > 0);
	atomic_fetch_add(&frees, 1);
	kfree(obj);
}

struct worker {
	struct shared_obj *obj;
	int index;
};

/* inc / dec_and_test pairs on top of the worker's own reference, then the final put. */
static void *inc_dec_worker(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < ROUNDS; i++) {
		refcount_inc(&w->obj->ref);
		w->obj->writes[w->index]++;
		if (refcount_dec_and_test(&w->obj->ref))
			obj_free(w->obj);	/* cannot happen: we still hold our reference */
	}
	w->obj->writes[w->index]++;
	if (refcount_dec_and_test(&w->obj->ref))
		obj_free(w->obj);
	return NULL;
}

static void run_workers(void *(*fn)(void *), struct shared_obj *obj)
{
	pthread_t threads[THREADS];
	struct worker workers[THREADS];

	for (int t = 0; t < THREADS; t++) {
		workers[t] = (struct worker){ .obj = obj, .index = t };
		assert_int_equal(pthread_create(&threads[t], NULL, fn, &workers[t]), 0);
	}
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);
}

static void test_inc_dec_and_test_frees_once(void **state)
{
	struct shared_obj *obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	u64 mark = log_mark();

	assert_non_null(obj);
	refcount_set(&obj->ref, THREADS);	/* one reference per worker */
	atomic_store(&frees, 0);
	run_workers(inc_dec_worker, obj);
	assert_int_equal(atomic_load(&frees), 1);
	assert_logged(mark, "refcount_t:", 0);
}

/*
 * Lookups racing with the last put: inc_not_zero succeeds while any worker still holds its
 * reference and fails for good once the count reached 0.  The object stays allocated until the
 * threads are joined (as RCU would keep it), so late lookups are legal.
 */
static void *inc_not_zero_worker(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < ROUNDS; i++) {
		if (refcount_inc_not_zero(&w->obj->ref)) {
			w->obj->writes[w->index]++;
			if (refcount_dec_and_test(&w->obj->ref))
				atomic_fetch_add(&w->obj->releases, 1);
		}
		if (i == ROUNDS / 2 + w->index) {
			w->obj->writes[w->index]++;
			if (refcount_dec_and_test(&w->obj->ref))
				atomic_fetch_add(&w->obj->releases, 1);
		}
	}
	return NULL;
}

static void test_inc_not_zero_races_release_once(void **state)
{
	struct shared_obj *obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	u64 mark = log_mark();

	assert_non_null(obj);
	refcount_set(&obj->ref, THREADS);
	run_workers(inc_not_zero_worker, obj);
	assert_int_equal(atomic_load(&obj->releases), 1);
	assert_int_equal(refcount_read(&obj->ref), 0);
	assert_false(refcount_inc_not_zero(&obj->ref));
	assert_logged(mark, "refcount_t:", 0);
	kfree(obj);
}

/*
 * The kref pattern of a lookup table: find under the mutex with kref_get_unless_zero(), put with
 * kref_put_mutex() whose release unlinks the object under that mutex and frees it.
 */
static DEFINE_MUTEX(table_lock);
static struct shared_obj *table_slot;
static atomic_int creator_ref_dropped;

static void table_release(struct kref *kref)
{
	struct shared_obj *obj = container_of(kref, struct shared_obj, kref);

	table_slot = NULL;	/* under table_lock, held by kref_put_mutex() */
	mutex_unlock(&table_lock);
	obj_free(obj);
}

static void *table_worker(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < ROUNDS; i++) {
		struct shared_obj *obj = NULL;

		mutex_lock(&table_lock);
		if (table_slot && kref_get_unless_zero(&table_slot->kref))
			obj = table_slot;
		mutex_unlock(&table_lock);
		if (w->index == 0 && i == ROUNDS / 4 && !atomic_exchange(&creator_ref_dropped, 1)) {
			/* The creator's reference: only reachable through the table from now on. */
			assert_non_null(obj);
			kref_put_mutex(&obj->kref, table_release, &table_lock);
		}
		if (!obj)
			continue;
		obj->writes[w->index]++;
		kref_put_mutex(&obj->kref, table_release, &table_lock);
	}
	return NULL;
}

static void test_kref_table_lookup_frees_once(void **state)
{
	struct shared_obj *obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	u64 mark = log_mark();

	assert_non_null(obj);
	kref_init(&obj->kref);
	obj->writes[0] = 1;
	table_slot = obj;
	atomic_store(&frees, 0);
	atomic_store(&creator_ref_dropped, 0);
	run_workers(table_worker, NULL);
	assert_int_equal(atomic_load(&frees), 1);
	assert_null(table_slot);
	assert_logged(mark, "refcount_t:", 0);
}

/* The same with refcount_dec_and_lock() and a spinlock. */
static DEFINE_SPINLOCK(spin_table_lock);

static void *spin_table_worker(void *arg)
{
	struct worker *w = arg;

	for (int i = 0; i < ROUNDS; i++) {
		struct shared_obj *obj = NULL;

		spin_lock(&spin_table_lock);
		if (table_slot && refcount_inc_not_zero(&table_slot->ref))
			obj = table_slot;
		spin_unlock(&spin_table_lock);
		if (w->index == 1 && i == ROUNDS / 3 && !atomic_exchange(&creator_ref_dropped, 1))
			refcount_dec(&obj->ref);	/* never the last: we hold one too */
		if (!obj)
			continue;
		obj->writes[w->index]++;
		if (refcount_dec_and_lock(&obj->ref, &spin_table_lock)) {
			table_slot = NULL;
			spin_unlock(&spin_table_lock);
			obj_free(obj);
		}
	}
	return NULL;
}

static void test_dec_and_lock_table_frees_once(void **state)
{
	struct shared_obj *obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	u64 mark = log_mark();

	assert_non_null(obj);
	refcount_set(&obj->ref, 1);
	obj->writes[0] = 1;
	table_slot = obj;
	atomic_store(&frees, 0);
	atomic_store(&creator_ref_dropped, 0);
	run_workers(spin_table_worker, NULL);
	assert_int_equal(atomic_load(&frees), 1);
	assert_null(table_slot);
	assert_logged(mark, "refcount_t:", 0);
}

/* Arc clones handed to threads, each thread cloning and putting, then putting its own. */
static atomic_int arc_drops;

static void payload_drop(void *data)
{
	long *payload = data;

	assert_int_equal(payload[0], 42);
	atomic_fetch_add(&arc_drops, 1);
}

static void *arc_worker(void *arg)
{
	const long *arc = arg;

	for (int i = 0; i < ROUNDS; i++) {
		const long *clone = arc_clone(arc);

		assert_true(arc_ptr_eq(clone, arc));
		assert_int_equal(clone[0], 42);
		assert_int_equal(arc_put(clone), 0);
	}
	arc_put(arc);
	return NULL;
}

static void test_arc_clone_put_drops_once(void **state)
{
	long value = 42;
	const long *arc = arc_try_new(&value, sizeof(value), payload_drop, GFP_KERNEL);
	pthread_t threads[THREADS];

	assert_false(IS_ERR(arc));
	atomic_store(&arc_drops, 0);
	for (int t = 0; t < THREADS; t++)
		assert_ptr_equal(arc_clone(arc), arc);
	assert_int_equal(arc_count(arc), THREADS + 1);
	for (int t = 0; t < THREADS; t++)
		assert_int_equal(pthread_create(&threads[t], NULL, arc_worker, (void *)arc), 0);
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);
	assert_int_equal(atomic_load(&arc_drops), 0);
	assert_int_equal(arc_count(arc), 1);
	assert_int_equal(arc_put(arc), 1);
	assert_int_equal(atomic_load(&arc_drops), 1);
}

/* ForeignOwnable's debug table under concurrent use: each thread hands out, borrows, takes back. */
static void *foreign_worker(void *arg)
{
	for (int i = 0; i < ROUNDS / 10; i++) {
		long *box = kmalloc(sizeof(*box), GFP_KERNEL);
		void *cookie;
		long *back;

		assert_non_null(box);
		*box = i;
		cookie = foreign_into(&foreign_box, box);
		assert_ptr_equal(foreign_borrow(&foreign_box, cookie), box);
		foreign_borrow_end(&foreign_box, cookie);
		{
			FOREIGN_BORROW_MUT(guard);
			long *writable = foreign_borrow_mut(&foreign_box, cookie, &guard);

			assert_false(IS_ERR(writable));
			*writable += 1;
		}
		back = foreign_from(&foreign_box, cookie);
		assert_int_equal(*back, i + 1);
		kfree(back);
	}
	return NULL;
}

static void test_foreign_debug_table_concurrent(void **state)
{
	pthread_t threads[THREADS];
	u64 mark = log_mark();
	bool was = kfsim_foreign_debug_set(true);

	for (int t = 0; t < THREADS; t++)
		assert_int_equal(pthread_create(&threads[t], NULL, foreign_worker, NULL), 0);
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);
	kfsim_foreign_debug_set(was);
	assert_logged(mark, "foreign_ownable", 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inc_dec_and_test_frees_once),
		cmocka_unit_test(test_inc_not_zero_races_release_once),
		cmocka_unit_test(test_kref_table_lookup_frees_once),
		cmocka_unit_test(test_dec_and_lock_table_frees_once),
		cmocka_unit_test(test_arc_clone_put_drops_once),
		cmocka_unit_test(test_foreign_debug_table_concurrent),
	};

	return cmocka_run_group_tests_name("refcount_threads", tests, setup, NULL);
}
