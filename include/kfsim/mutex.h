/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_MUTEX_H
#define KFSIM_MUTEX_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * struct mutex (include/linux/mutex.h) with CONFIG_DEBUG_MUTEXES' check always on: releasing a
 * mutex the caller does not hold (or that nobody holds) WARNs "DEBUG_LOCKS_WARN_ON(__owner_task(
 * owner) != current)" and releases it anyway, as the kernel does; like every lock debugging
 * report it is printed only while debug_locks is on, and the first one turns it off.
 * Locking a mutex the caller already holds is a deadlock in the kernel; kfsim reports it with
 * "DEBUG_LOCKS_WARN_ON(__owner_task(owner) == current)" (first time) and calls BUG().
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <kfsim/bug.h>
#include <kfsim/spinlock.h>

/**
 * struct mutex - a sleeping lock
 * @wait_lock: guards @owner changes and the wait
 * @wait: where contenders sleep
 * @owner: kfsim thread id of the holder, 0 when free
 */
struct mutex {
	pthread_mutex_t wait_lock;
	pthread_cond_t wait;
	atomic_ulong owner;
};

/** __MUTEX_INITIALIZER() - static initialiser. */
#define __MUTEX_INITIALIZER(name)                                                                 \
	{ .wait_lock = PTHREAD_MUTEX_INITIALIZER, .wait = PTHREAD_COND_INITIALIZER, .owner = 0 }
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
/** mutex_unlock() - release @lock; a caller that does not hold it gets a WARN (and releases it). */
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
