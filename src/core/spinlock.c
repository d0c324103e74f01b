// SPDX-License-Identifier: MIT
/*
 * spinlock_t with CONFIG_DEBUG_SPINLOCK's checks (kernel/locking/spinlock_debug.c, Linux 6.12),
 * and the debug_locks switch of lib/debug_locks.c that they share with the mutex checks.
 * Acquire and release orderings on @locked give the lock its memory semantics; @owner is only
 * for the checks.
 *
 * As in the kernel, a check reports ("BUG: spinlock <what> on CPU#0, ...") only while debug_locks
 * is on, and the first report turns it off (debug_locks_off()), so only the first lock bug of a
 * process is printed.  A report never stops the operation: an unlock by the wrong owner or of an
 * unlocked lock still releases it, a lock with a bad magic is still taken.  The one exception is
 * recursion: the kernel would spin until the lockup detector fires; kfsim returns at once
 * (the caller already holds the lock) so that a test does not hang.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <unistd.h>

#include <kfsim/bug.h>
#include <kfsim/spinlock.h>

int debug_locks = 1;

int debug_locks_off(void)
{
	return __atomic_exchange_n(&debug_locks, 0, __ATOMIC_RELAXED) != 0;
}

void kfsim_debug_locks_on(void)
{
	__atomic_store_n(&debug_locks, 1, __ATOMIC_RELAXED);
}

unsigned long kfsim_current_tid(void)
{
	static _Thread_local unsigned long tid;

	if (!tid)
		tid = (unsigned long)gettid();
	return tid;
}

/* cpu_relax(): the kernel's per-architecture spin-wait hint (x86: PAUSE); none on wasm32. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* spin_bug() and spin_dump() */
static void spin_bug(spinlock_t *lock, const char *msg)
{
	unsigned long owner = atomic_load_explicit(&lock->owner, memory_order_relaxed);

	if (!debug_locks_off())
		return;
	pr_emerg("BUG: spinlock %s on CPU#0, kfsim/%lu\n", msg, kfsim_current_tid());
	pr_emerg(" lock: %p, .magic: %08x, .owner: %s/%ld, .owner_cpu: %d\n", (void *)lock,
		 lock->magic, owner ? "kfsim" : "<none>", owner ? (long)owner : -1L, owner ? 0 : -1);
}

void spin_lock_init(spinlock_t *lock)
{
	atomic_init(&lock->locked, 0);
	atomic_init(&lock->owner, 0);
	lock->magic = SPINLOCK_MAGIC;
}

static void spin_set_owner(spinlock_t *lock)
{
	atomic_store_explicit(&lock->owner, kfsim_current_tid(), memory_order_relaxed);
}

void spin_lock(spinlock_t *lock)
{
	unsigned int spins = 0;

	if (lock->magic != SPINLOCK_MAGIC)
		spin_bug(lock, "bad magic");
	if (atomic_load_explicit(&lock->owner, memory_order_relaxed) == kfsim_current_tid()) {
		spin_bug(lock, "recursion");
		return;	/* the kernel deadlocks here; the caller holds the lock already */
	}
	for (;;) {
		if (!atomic_exchange_explicit(&lock->locked, 1, memory_order_acquire))
			break;
		while (atomic_load_explicit(&lock->locked, memory_order_relaxed)) {
			/* Two CPUs, many threads: spinning long only steals the holder's CPU. */
			if (++spins > 64)
				sched_yield();
			else
				cpu_relax();
		}
	}
	spin_set_owner(lock);
}

int spin_trylock(spinlock_t *lock)
{
	/* do_raw_spin_trylock() does not check the magic */
	if (atomic_exchange_explicit(&lock->locked, 1, memory_order_acquire))
		return 0;
	spin_set_owner(lock);
	return 1;
}

void spin_unlock(spinlock_t *lock)
{
	if (lock->magic != SPINLOCK_MAGIC)
		spin_bug(lock, "bad magic");
	if (!atomic_load_explicit(&lock->locked, memory_order_relaxed))
		spin_bug(lock, "already unlocked");
	if (atomic_load_explicit(&lock->owner, memory_order_relaxed) != kfsim_current_tid())
		spin_bug(lock, "wrong owner");
	/* released whatever the checks said, as do_raw_spin_unlock() releases it */
	atomic_store_explicit(&lock->owner, 0, memory_order_relaxed);
	atomic_store_explicit(&lock->locked, 0, memory_order_release);
}

bool spin_is_locked(spinlock_t *lock)
{
	return atomic_load_explicit(&lock->locked, memory_order_relaxed);
}

bool kfsim_spin_held_by_current(spinlock_t *lock)
{
	return atomic_load_explicit(&lock->locked, memory_order_relaxed) &&
	       atomic_load_explicit(&lock->owner, memory_order_relaxed) == kfsim_current_tid();
}
