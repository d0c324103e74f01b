// SPDX-License-Identifier: MIT
/*
 * struct mutex with CONFIG_DEBUG_MUTEXES' checks (kernel/locking/mutex.c, Linux 6.12).  Any
 * thread may release it, as in the kernel: a release by a thread that does not own it is
 * reported with DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current) -- a WARN while debug_locks is
 * on, which the first report turns off -- and the mutex is released anyway.  Hence a wait lock
 * and a condition variable underneath rather than a pthread mutex, which only its owner may
 * unlock.
 */
#include <kfsim/bug.h>
#include <kfsim/mutex.h>

/* include/linux/debug_locks.h: report once per process, then stay silent */
#define DEBUG_LOCKS_WARN_ON(c)                                                                    \
	({                                                                                        \
		int __ret = 0;                                                                    \
		if (unlikely(c)) {                                                                \
			if (debug_locks_off())                                                    \
				WARN(1, "DEBUG_LOCKS_WARN_ON(%s)", #c);                           \
			__ret = 1;                                                                \
		}                                                                                 \
		__ret;                                                                            \
	})
#define __owner_task(owner) (owner)
#define current kfsim_current_tid()

void mutex_init(struct mutex *lock)
{
	pthread_mutex_init(&lock->wait_lock, NULL);
	pthread_cond_init(&lock->wait, NULL);
	atomic_init(&lock->owner, 0);
}

void mutex_destroy(struct mutex *lock)
{
	if (DEBUG_LOCKS_WARN_ON(mutex_is_locked(lock)))
		return;
	pthread_cond_destroy(&lock->wait);
	pthread_mutex_destroy(&lock->wait_lock);
}

void mutex_lock(struct mutex *lock)
{
	unsigned long owner = atomic_load_explicit(&lock->owner, memory_order_relaxed);

	/* lockdep would say "possible recursive locking"; it is a sure deadlock: stop here */
	if (__owner_task(owner) == current) {
		DEBUG_LOCKS_WARN_ON(__owner_task(owner) == current);
		BUG();
	}
	pthread_mutex_lock(&lock->wait_lock);
	while (atomic_load_explicit(&lock->owner, memory_order_relaxed))
		pthread_cond_wait(&lock->wait, &lock->wait_lock);
	atomic_store_explicit(&lock->owner, current, memory_order_relaxed);
	pthread_mutex_unlock(&lock->wait_lock);
}

int mutex_lock_interruptible(struct mutex *lock)
{
	mutex_lock(lock);
	return 0;
}

int mutex_trylock(struct mutex *lock)
{
	int taken = 0;

	pthread_mutex_lock(&lock->wait_lock);
	if (!atomic_load_explicit(&lock->owner, memory_order_relaxed)) {
		atomic_store_explicit(&lock->owner, current, memory_order_relaxed);
		taken = 1;
	}
	pthread_mutex_unlock(&lock->wait_lock);
	return taken;
}

void mutex_unlock(struct mutex *lock)
{
	unsigned long owner = atomic_load_explicit(&lock->owner, memory_order_relaxed);

	DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current);
	pthread_mutex_lock(&lock->wait_lock);
	atomic_store_explicit(&lock->owner, 0, memory_order_relaxed);
	pthread_cond_signal(&lock->wait);
	pthread_mutex_unlock(&lock->wait_lock);
}

bool mutex_is_locked(struct mutex *lock)
{
	return atomic_load_explicit(&lock->owner, memory_order_relaxed) != 0;
}

bool kfsim_mutex_held_by_current(struct mutex *lock)
{
	return atomic_load_explicit(&lock->owner, memory_order_relaxed) == current;
}
