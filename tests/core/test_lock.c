// SPDX-License-Identifier: MIT
/* Locks: mutual exclusion under contention, and the debug checks for misuse. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <cmocka.h>

#include <kfsim/bug.h>
#include <kfsim/mutex.h>
#include <kfsim/spinlock.h>
#include "support/log_assert.h"

static int quiet(void **state)
{
	kfsim_console_loglevel_set(0);
	return 0;
}

#define THREADS 4
#define ROUNDS 50000

static DEFINE_SPINLOCK(counter_spin);
static DEFINE_MUTEX(counter_mutex);
static long counter;

static void *spin_worker(void *arg)
{
	unsigned long flags;

	for (int i = 0; i < ROUNDS; i++) {
		spin_lock_irqsave(&counter_spin, flags);
		counter++;
		spin_unlock_irqrestore(&counter_spin, flags);
	}
	return NULL;
}

static void *mutex_worker(void *arg)
{
	for (int i = 0; i < ROUNDS; i++) {
		mutex_lock(&counter_mutex);
		counter++;
		mutex_unlock(&counter_mutex);
	}
	return NULL;
}

static void run_workers(void *(*worker)(void *))
{
	pthread_t threads[THREADS];

	counter = 0;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&threads[i], NULL, worker, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);
	assert_int_equal(counter, (long)THREADS * ROUNDS);
}

static void test_spinlock_excludes(void **state)
{
	run_workers(spin_worker);
	assert_false(spin_is_locked(&counter_spin));
}

static void test_mutex_excludes(void **state)
{
	run_workers(mutex_worker);
	assert_false(mutex_is_locked(&counter_mutex));
}

static int debug_locks_on(void **state)
{
	kfsim_debug_locks_on();
	return 0;
}

static void test_spin_unlock_not_locked(void **state)
{
	spinlock_t lock;
	u64 mark = log_mark();

	spin_lock_init(&lock);
	spin_unlock(&lock);
	assert_logged(mark, "BUG: spinlock already unlocked on CPU#0", 1);
	assert_false(spin_is_locked(&lock));
	assert_int_equal(debug_locks, 0);	/* debug_locks_off(): the first report only */
	spin_unlock(&lock);
	assert_logged(mark, "BUG: spinlock", 1);
	/* The lock still works afterwards. */
	assert_int_equal(spin_trylock(&lock), 1);
	assert_int_equal(spin_trylock(&lock), 0);
	assert_true(kfsim_spin_held_by_current(&lock));
	spin_unlock(&lock);
}

static void *unlock_from_other_thread(void *arg)
{
	spin_unlock(arg);
	return NULL;
}

static void *mutex_unlock_from_other_thread(void *arg)
{
	mutex_unlock(arg);
	return NULL;
}

/* do_raw_spin_unlock(): the report comes first, then the lock is released all the same. */
static void test_spin_unlock_wrong_owner_releases(void **state)
{
	DEFINE_SPINLOCK(lock);
	pthread_t thread;
	u64 mark = log_mark();

	spin_lock(&lock);
	pthread_create(&thread, NULL, unlock_from_other_thread, &lock);
	pthread_join(thread, NULL);
	assert_logged(mark, "BUG: spinlock wrong owner on CPU#0", 1);
	assert_false(spin_is_locked(&lock));
}

static void test_spin_bad_magic(void **state)
{
	spinlock_t lock = { 0 };	/* never initialised */
	u64 mark = log_mark();

	spin_lock(&lock);	/* reported, and taken: zero is an unlocked lock */
	assert_true(kfsim_spin_held_by_current(&lock));
	spin_unlock(&lock);
	assert_false(spin_is_locked(&lock));
	assert_logged(mark, "BUG: spinlock bad magic", 1);
	assert_int_equal(spin_trylock(&lock), 1);	/* trylock does not check the magic */
	spin_unlock(&lock);
}

/* No BUG(): the kernel would spin (until the lockup detector); kfsim reports and returns. */
static void test_spin_recursion_is_reported_not_a_bug(void **state)
{
	static spinlock_t lock;
	u64 mark = log_mark();

	spin_lock_init(&lock);
	spin_lock(&lock);
	spin_lock(&lock);
	assert_logged(mark, "BUG: spinlock recursion on CPU#0", 1);
	assert_logged(mark, "kernel BUG at", 0);
	assert_true(kfsim_spin_held_by_current(&lock));
	spin_unlock(&lock);
	assert_false(spin_is_locked(&lock));
}

/* __mutex_unlock_slowpath(): DEBUG_LOCKS_WARN_ON once, and the mutex is released anyway. */
static void test_mutex_unlock_misuse(void **state)
{
	struct mutex lock;
	pthread_t thread;
	u64 mark = log_mark();

	mutex_init(&lock);
	mutex_unlock(&lock);	/* not held at all */
	assert_logged(mark, "DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current)", 1);
	assert_int_equal(debug_locks, 0);
	mutex_lock(&lock);
	pthread_create(&thread, NULL, mutex_unlock_from_other_thread, &lock);
	pthread_join(thread, NULL);
	/* silent now (debug_locks is off), and released */
	assert_logged(mark, "DEBUG_LOCKS_WARN_ON", 1);
	assert_false(mutex_is_locked(&lock));
	assert_true(lockdep_assert_held(&lock));
	assert_int_equal(mutex_trylock(&lock), 1);
	assert_false(lockdep_assert_held(&lock));
	mutex_unlock(&lock);
	mutex_destroy(&lock);
}

static void test_mutex_released_by_other_thread_wakes_waiter(void **state)
{
	struct mutex lock;
	pthread_t thread;

	mutex_init(&lock);
	mutex_lock(&lock);
	pthread_create(&thread, NULL, mutex_unlock_from_other_thread, &lock);
	pthread_join(thread, NULL);
	mutex_lock(&lock);	/* would block forever if the foreign unlock had not released it */
	assert_true(kfsim_mutex_held_by_current(&lock));
	mutex_unlock(&lock);
	mutex_destroy(&lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spinlock_excludes),
		cmocka_unit_test(test_mutex_excludes),
		cmocka_unit_test_setup(test_spin_unlock_not_locked, debug_locks_on),
		cmocka_unit_test_setup(test_spin_unlock_wrong_owner_releases, debug_locks_on),
		cmocka_unit_test_setup(test_spin_bad_magic, debug_locks_on),
		cmocka_unit_test_setup(test_spin_recursion_is_reported_not_a_bug, debug_locks_on),
		cmocka_unit_test_setup(test_mutex_unlock_misuse, debug_locks_on),
		cmocka_unit_test_setup(test_mutex_released_by_other_thread_wakes_waiter, debug_locks_on),
	};

	return cmocka_run_group_tests(tests, quiet, NULL);
}
