/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_MUTEX_H
#define KFSIM_MUTEX_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * struct mutex (include/linux/mutex.h) over a pthread mutex, with CONFIG_DEBUG_MUTEXES' check
 * always on: unlocking a mutex the caller does not hold WARNs with the kernel's text
 * "DEBUG_LOCKS_WARN_ON(__owner_task(owner) != current)" and leaves the mutex as it was.
 * Locking a mutex the caller already holds is a deadlock in the kernel; kfsim reports it with
 * "DEBUG_LOCKS_WARN_ON(__owner_task(owner) == current)" and calls BUG().
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <kfsim/bug.h>
#include <kfsim/spinlock.h>

/**
 * struct mutex - a sleeping lock
 * @lock: the pthread mutex underneath
 * @owner: kfsim thread id of the holder, 0 when free
 */
struct mutex {
	pthread_mutex_t lock;
	atomic_ulong owner;
};

/** __MUTEX_INITIALIZER() - static initialiser. */
#define __MUTEX_INITIALIZER(name) { .lock = PTHREAD_MUTEX_INITIALIZER, .owner = 0 }
/** DEFINE_MUTEX() - define and initialise a mutex. */
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER(name)

/** mutex_init() - initialise @lock (unlocked). */
void mutex_init(struct mutex *lock);
/** mutex_destroy() - release @lock's resources; WARNs when it is still held. */
void mutex_destroy(struct mutex *lock);
/** mutex_lock() - take @lock, sleeping while another thread holds it. */
void mutex_lock(struct mutex *lock);
/** mutex_lock_interruptible() - mutex_lock(); there are no signals to interrupt it: returns 0. */
int mutex_lock_interruptible(struct mutex *lock);
/** mutex_trylock() - take @lock if free. Return: 1 when taken, 0 when contended. */
int mutex_trylock(struct mutex *lock);
/** mutex_unlock() - release @lock; a caller that does not hold it gets a WARN instead. */
void mutex_unlock(struct mutex *lock);
/** mutex_is_locked() - whether any thread holds @lock. */
bool mutex_is_locked(struct mutex *lock);
/** kfsim_mutex_held_by_current() - whether the calling thread holds @lock. */
bool kfsim_mutex_held_by_current(struct mutex *lock);

/** lockdep_assert_held() - WARN unless the calling thread holds @l (a spinlock_t or mutex). */
#define lockdep_assert_held(l)                                                                    \
	WARN_ON(!_Generic((l), struct mutex *: kfsim_mutex_held_by_current,                       \
			       spinlock_t *: kfsim_spin_held_by_current)(l))

#pragma GCC visibility pop
#endif /* KFSIM_MUTEX_H */
