/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_SPINLOCK_H
#define KFSIM_SPINLOCK_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * spinlock_t (include/linux/spinlock.h) over C11 atomics, with the checks of the kernel's
 * CONFIG_DEBUG_SPINLOCK always on (kernel/locking/spinlock_debug.c, Linux 6.12): each lock records
 * its owning thread, and misuse logs the kernel's report ("BUG: spinlock already unlocked on
 * CPU#0, ...", "wrong owner", "bad magic", "recursion") -- only the first time in the process,
 * as the report turns debug_locks off -- and then carries on as the kernel does: the unlock
 * releases the lock, a lock with a bad magic is taken.  There is no BUG().  Taking a lock the
 * caller already holds would spin forever; kfsim reports it and returns instead.
 *
 * There are no interrupts in userspace: the _irq, _irqsave and _bh variants take the lock and set
 * flags to 0.  A contended lock spins briefly, then yields the CPU (the machines are small).
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <kfsim/types.h>

#define SPINLOCK_MAGIC 0xdead4eadu

/**
 * typedef spinlock_t - a spin lock
 * @locked: 1 while held
 * @magic: SPINLOCK_MAGIC once initialised (catches use of an uninitialised lock)
 * @owner: kfsim thread id of the holder, 0 when free
 */
typedef struct spinlock {
	atomic_int locked;
	unsigned int magic;
	atomic_ulong owner;
} spinlock_t;

/** __SPIN_LOCK_UNLOCKED() - static initialiser; @name is for symmetry with the kernel. */
#define __SPIN_LOCK_UNLOCKED(name) { .locked = 0, .magic = SPINLOCK_MAGIC, .owner = 0 }
/** DEFINE_SPINLOCK() - define and initialise a spin lock. */
#define DEFINE_SPINLOCK(x) spinlock_t x = __SPIN_LOCK_UNLOCKED(x)

/** spin_lock_init() - initialise @lock (unlocked). */
void spin_lock_init(spinlock_t *lock);
/** spin_lock() - take @lock, spinning (then yielding) while another thread holds it. */
void spin_lock(spinlock_t *lock);
/** spin_trylock() - take @lock if free. Return: 1 when taken, 0 otherwise (kernel convention). */
int spin_trylock(spinlock_t *lock);
/** spin_unlock() - release @lock; a caller that does not hold it gets a BUG report (once). */
void spin_unlock(spinlock_t *lock);
/** spin_is_locked() - whether any thread holds @lock. */
bool spin_is_locked(spinlock_t *lock);
/** kfsim_spin_held_by_current() - whether the calling thread holds @lock (for lockdep asserts). */
bool kfsim_spin_held_by_current(spinlock_t *lock);

#define spin_lock_irq(lock) spin_lock(lock)
#define spin_unlock_irq(lock) spin_unlock(lock)
#define spin_lock_bh(lock) spin_lock(lock)
#define spin_unlock_bh(lock) spin_unlock(lock)
/** spin_lock_irqsave() - spin_lock(); @flags is set to 0 (no interrupts in userspace). */
#define spin_lock_irqsave(lock, flags)                                                            \
	do {                                                                                      \
		(flags) = 0;                                                                       \
		spin_lock(lock);                                                                   \
	} while (0)
/** spin_unlock_irqrestore() - spin_unlock(); @flags is unused. */
#define spin_unlock_irqrestore(lock, flags)                                                       \
	do {                                                                                      \
		(void)(flags);                                                                     \
		spin_unlock(lock);                                                                 \
	} while (0)

/**
 * debug_locks - lib/debug_locks.c: 1 while lock debugging reports are printed
 *
 * The first report of a lock bug (spinlock or mutex) turns it off, so each process reports one.
 */
extern int debug_locks;
/** debug_locks_off() - turn lock debugging reports off. Return: 1 if it was on. */
int debug_locks_off(void);
/** kfsim_debug_locks_on() - turn them on again (for tests that provoke several lock bugs). */
void kfsim_debug_locks_on(void);

/**
 * kfsim_current_tid() - a small, stable, non-zero id for the calling thread
 *
 * Lock owners and WARN reports use it; it is the thread's Linux TID.
 */
unsigned long kfsim_current_tid(void);

#pragma GCC visibility pop
#endif /* KFSIM_SPINLOCK_H */
