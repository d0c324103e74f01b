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

static void test_spin_unlock_not_locked(void **state)
{
	spinlock_t lock;
	u64 mark = log_mark();

	spin_lock_init(&lock);
	spin_unlock(&lock);
	assert_logged(mark, "BUG: spinlock already unlocked on CPU#0", 1);
	assert_false(spin_is_locked(&lock));
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

static void test_spin_unlock_wrong_owner_keeps_lock(void **state)
{
	DEFINE_SPINLOCK(lock);
	pthread_t thread;
	u64 mark = log_mark();

	spin_lock(&lock);
	pthread_create(&thread, NULL, unlock_from_other_thread, &lock);
	pthread_join(thread, NULL);
	assert_logged(mark, "BUG: spinlock wrong owner on CPU#0", 1);
	assert_true(spin_is_locked(&lock));
	assert_true(kfsim_spin_held_by_current(&lock));
	spin_unlock(&lock);
	assert_false(spin_is_locked(&lock));
}

static void test_spin_bad_magic(void **state)
{
	spinlock_t lock = { 0 };	/* never initialised */
	u64 mark = log_mark();

	assert_int_equal(spin_trylock(&lock), 0);
	spin_unlock(&lock);
	assert_logged(mark, "BUG: spinlock bad magic", 2);
}

static jmp_buf bug_jump;
static void bug_to_longjmp(const char *file, int line, const char *func)
{
	longjmp(bug_jump, 1);
}

static void test_spin_recursion_is_a_bug(void **state)
{
	static spinlock_t lock;
	u64 mark = log_mark();

	spin_lock_init(&lock);
	spin_lock(&lock);
	kfsim_bug_handler_set(bug_to_longjmp);
	if (!setjmp(bug_jump))
		spin_lock(&lock);
	kfsim_bug_handler_set(NULL);
	assert_logged(mark, "BUG: spinlock recursion on CPU#0", 1);
	spin_unlock(&lock);
}

static void test_mutex_unlock_misuse(void **state)
{
	struct mutex lock;
	pthread_t thread;
	u64 mark = log_mark();

	mutex_init(&lock);
	mutex_unlock(&lock);	/* not held at all */
	assert_logged(mark, "DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current)", 1);
	mutex_lock(&lock);
	pthread_create(&thread, NULL, mutex_unlock_from_other_thread, &lock);
	pthread_join(thread, NULL);
	assert_logged(mark, "DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current)", 2);
	assert_true(kfsim_mutex_held_by_current(&lock));
	assert_false(lockdep_assert_held(&lock));
	mutex_unlock(&lock);
	assert_true(lockdep_assert_held(&lock));
	assert_int_equal(mutex_trylock(&lock), 1);
	mutex_unlock(&lock);
	mutex_destroy(&lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spinlock_excludes),
		cmocka_unit_test(test_mutex_excludes),
		cmocka_unit_test(test_spin_unlock_not_locked),
		cmocka_unit_test(test_spin_unlock_wrong_owner_keeps_lock),
		cmocka_unit_test(test_spin_bad_magic),
		cmocka_unit_test(test_spin_recursion_is_a_bug),
		cmocka_unit_test(test_mutex_unlock_misuse),
	};

	return cmocka_run_group_tests(tests, quiet, NULL);
}
