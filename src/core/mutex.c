// SPDX-License-Identifier: MIT
/* struct mutex with CONFIG_DEBUG_MUTEXES' owner check (kernel/locking/mutex.c). */
#include <kfsim/bug.h>
#include <kfsim/mutex.h>

#define DEBUG_LOCKS_WARN_ON(c) WARN(c, "DEBUG_LOCKS_WARN_ON(%s)", #c)
#define __owner_task(owner) (owner)
#define current kfsim_current_tid()

void mutex_init(struct mutex *lock)
{
	pthread_mutex_init(&lock->lock, NULL);
	atomic_init(&lock->owner, 0);
}

void mutex_destroy(struct mutex *lock)
{
	if (WARN_ON(mutex_is_locked(lock)))
		return;
	pthread_mutex_destroy(&lock->lock);
}

void mutex_lock(struct mutex *lock)
{
	unsigned long owner = atomic_load_explicit(&lock->owner, memory_order_relaxed);

	if (DEBUG_LOCKS_WARN_ON(__owner_task(owner) == current))
		BUG();
	pthread_mutex_lock(&lock->lock);
	atomic_store_explicit(&lock->owner, current, memory_order_relaxed);
}

int mutex_lock_interruptible(struct mutex *lock)
{
	mutex_lock(lock);
	return 0;
}

int mutex_trylock(struct mutex *lock)
{
	if (pthread_mutex_trylock(&lock->lock))
		return 0;
	atomic_store_explicit(&lock->owner, current, memory_order_relaxed);
	return 1;
}

void mutex_unlock(struct mutex *lock)
{
	unsigned long owner = atomic_load_explicit(&lock->owner, memory_order_relaxed);

	if (DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current))
		return;
	atomic_store_explicit(&lock->owner, 0, memory_order_relaxed);
	pthread_mutex_unlock(&lock->lock);
}

bool mutex_is_locked(struct mutex *lock)
{
	return atomic_load_explicit(&lock->owner, memory_order_relaxed) != 0;
}

bool kfsim_mutex_held_by_current(struct mutex *lock)
{
	return atomic_load_explicit(&lock->owner, memory_order_relaxed) == current;
}
