/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_REFCOUNT_H
#define KFSIM_REFCOUNT_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * refcount_t (include/linux/refcount.h, lib/refcount.c), as in Linux 6.3 (the 5.5+ design), with
 * the later releases' changes under kfsim_kernel_version() (listed below).
 *
 * Invariants this file keeps:
 * - A counter holds an int.  1..REFCOUNT_MAX are live counts, 0 means "freed", and every
 *   negative value is "bad".  Whenever an operation sees or makes a bad value, or adds to 0, the
 *   counter is set to REFCOUNT_SATURATED (INT_MIN / 2, read back as 0xc0000000) and the kernel's
 *   warning is logged once per saturation type.  A saturated counter never comes back to 0, so
 *   a reference count bug leaks the object instead of freeing it while it is still in use.
 * - Every fast operation is ONE unconditional atomic read-modify-write followed by a check of
 *   the old value; the check and the saturating store are not atomic with it, by design (a
 *   racing operation may briefly see the unchecked value; SATURATED sits halfway between
 *   INT_MAX and 0, so 2^30 racing operations cannot walk it back to 0).
 * - Memory ordering (Documentation/core-api/refcount-vs-atomic.rst): increments are relaxed;
 *   decrements are RELEASE; refcount_dec_and_test()/refcount_sub_and_test() add ACQUIRE when they
 *   return true, so the caller's free comes after every other holder's last access.
 *   add_not_zero/inc_not_zero are relaxed (the kernel relies on a control dependency, which C11
 *   cannot express; the caller must reach the object through something ordered: a lock, RCU, an
 *   acquire load).
 *
 * Kernel-version differences (kfsim_kernel_version()):
 * - Before 6.11 refcount_sub_and_test(0, r) on a counter at 0 returns true without a warning
 *   (and a negative @i reaching 0 likewise); 6.11 (commit "refcount: Report UAF for
 *   refcount_sub_and_test(0) when counter==0") requires old > 0 for success and reports any
 *   old <= 0 as "underflow; use-after-free".
 * - The acquire variants of add/inc_not_zero (2025; in 6.12.y as a stable backport) saturate like
 *   refcount_add_not_zero() before 6.15 and fail silently on a bad counter from 6.15 (below).
 * - Kernels before 5.5 had a different implementation (cmpxchg loops saturating at UINT_MAX, or
 *   unchecked x86 asm); kfsim does not model them and gives 5.5+ behaviour for every version.
 *
 * ThreadSanitizer: the kernel's "release decrement, then acquire fence on success" is correct
 * but TSan does not model standalone fences and reports false races on the freed object.  When
 * built with TSan (KFSIM_TSAN, __SANITIZE_THREAD__ or __has_feature(thread_sanitizer)), the
 * decrement of dec_and_test/sub_and_test is an acq_rel RMW instead: strictly stronger, and
 * understood by TSan.  Release builds keep release + acquire fence (free on x86).
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <kfsim/kernel.h>

struct mutex;
struct spinlock;

/**
 * typedef refcount_t - a saturating reference counter
 * @refs: the count; use the functions below, never the atomic directly
 */
typedef struct refcount_struct {
	atomic_int refs;
} refcount_t;

/** REFCOUNT_INIT() - static initialiser for a counter holding @n. */
#define REFCOUNT_INIT(n) { .refs = (n) }
/** REFCOUNT_MAX - the largest good value (INT_MAX). */
#define REFCOUNT_MAX INT_MAX
/** REFCOUNT_SATURATED - where a counter is parked after misuse (INT_MIN / 2 = 0xc0000000). */
#define REFCOUNT_SATURATED (INT_MIN / 2)

/**
 * enum refcount_saturation_type - what refcount_warn_saturate() reports
 * @REFCOUNT_ADD_NOT_ZERO_OVF: add_not_zero/inc_not_zero overflowed ("saturated; leaking memory.")
 * @REFCOUNT_ADD_OVF: add/inc overflowed ("saturated; leaking memory.")
 * @REFCOUNT_ADD_UAF: add/inc on 0 ("addition on 0; use-after-free.")
 * @REFCOUNT_SUB_UAF: sub_and_test/dec_and_test went below 0 ("underflow; use-after-free.")
 * @REFCOUNT_DEC_LEAK: refcount_dec() reached 0 or below ("decrement hit 0; leaking memory.")
 */
enum refcount_saturation_type {
	REFCOUNT_ADD_NOT_ZERO_OVF,
	REFCOUNT_ADD_OVF,
	REFCOUNT_ADD_UAF,
	REFCOUNT_SUB_UAF,
	REFCOUNT_DEC_LEAK,
};

/**
 * refcount_warn_saturate() - saturate @r and report @t
 * @r: the counter
 * @t: what went wrong
 *
 * Stores REFCOUNT_SATURATED, then logs "refcount_t: <text>." as a WARN, once per type per
 * process (the kernel's WARN_ONCE in each case of one switch; kfsim_refcount_clear_warn_once()
 * re-arms them like /sys/kernel/debug/clear_warn_once).  An unknown @t saturates too and reports
 * "refcount_t: unknown saturation event!?." once.
 */
void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t);

/** kfsim_refcount_clear_warn_once() - re-arm every once-only refcount_t warning. */
void kfsim_refcount_clear_warn_once(void);

/* Before 6.11, sub_and_test() accepted old == i == 0; the check is out of line (cold path). */
bool __refcount_sub_zero_is_uaf(void);

/* Ordering of the decrement in sub_and_test(); see "ThreadSanitizer" above. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define __KFSIM_REFCOUNT_TSAN 1
#endif
#endif
#if defined(KFSIM_TSAN) || defined(__SANITIZE_THREAD__)
#define __KFSIM_REFCOUNT_TSAN 1
#endif
#ifdef __KFSIM_REFCOUNT_TSAN
#define __REFCOUNT_SUB_ORDER memory_order_acq_rel
#define __refcount_acquire_after_dec() do { } while (0)
#else
#define __REFCOUNT_SUB_ORDER memory_order_release
#define __refcount_acquire_after_dec() atomic_thread_fence(memory_order_acquire)
#endif

/* old + i and old - i with the wrap-around the kernel gets from -fno-strict-overflow. */
static __always_inline int __refcount_wrap_add(int old, int i)
{
	return (int)((unsigned int)old + (unsigned int)i);
}

static __always_inline int __refcount_wrap_sub(int old, int i)
{
	return (int)((unsigned int)old - (unsigned int)i);
}

/**
 * refcount_set() - set a counter's value
 * @r: the counter
 * @n: the value; stored unchecked (a negative value makes the counter "bad")
 *
 * No memory ordering.
 */
static inline void refcount_set(refcount_t *r, int n)
{
	atomic_store_explicit(&r->refs, n, memory_order_relaxed);
}

/**
 * refcount_read() - a counter's value
 * @r: the counter
 *
 * Return: the value as unsigned int, so a saturated counter reads 0xc0000000.  No ordering.
 */
static inline unsigned int refcount_read(const refcount_t *r)
{
	/* C11's atomic_load takes no const pointer; casting through uintptr_t keeps
	 * -Wcast-qual quiet in users' builds. */
	return (unsigned int)atomic_load_explicit((atomic_int *)(uintptr_t)&r->refs,
						  memory_order_relaxed);
}

/**
 * __refcount_add_not_zero() - refcount_add_not_zero() that also reports the old value
 * @i: amount to add
 * @r: the counter
 * @oldp: when not NULL, receives the value seen before the addition
 *
 * Return: false when the counter was 0 (left unchanged), true otherwise, even when the addition
 * saturated it (REFCOUNT_ADD_NOT_ZERO_OVF).
 */
static __always_inline __must_check bool __refcount_add_not_zero(int i, refcount_t *r, int *oldp)
{
	int old = atomic_load_explicit(&r->refs, memory_order_relaxed);

	do {
		if (!old)
			break;
	} while (!atomic_compare_exchange_weak_explicit(&r->refs, &old,
							 __refcount_wrap_add(old, i),
							 memory_order_relaxed,
							 memory_order_relaxed));
	if (oldp)
		*oldp = old;
	if (unlikely(old < 0 || __refcount_wrap_add(old, i) < 0))
		refcount_warn_saturate(r, REFCOUNT_ADD_NOT_ZERO_OVF);
	return old;
}

/**
 * refcount_add_not_zero() - add @i unless the counter is 0
 * @i: amount to add
 * @r: the counter
 *
 * Saturates and warns (REFCOUNT_ADD_NOT_ZERO_OVF) on overflow or a bad counter.  Relaxed: the
 * caller guarantees the object memory is stable (RCU, a lock).
 *
 * Return: false if the counter was 0, true otherwise.
 */
static inline __must_check bool refcount_add_not_zero(int i, refcount_t *r)
{
	return __refcount_add_not_zero(i, r, NULL);
}

/** __refcount_inc_not_zero() - refcount_inc_not_zero() that also reports the old value. */
static inline __must_check bool __refcount_inc_not_zero(refcount_t *r, int *oldp)
{
	return __refcount_add_not_zero(1, r, oldp);
}

/**
 * refcount_inc_not_zero() - take a reference unless the counter is 0
 * @r: the counter
 *
 * For lookups that may find an object whose last reference is being dropped.  Saturates and
 * warns at REFCOUNT_MAX.  Relaxed (see the file comment).
 *
 * Return: true if a reference was taken (or the counter saturated), false at 0.
 */
static inline __must_check bool refcount_inc_not_zero(refcount_t *r)
{
	return __refcount_inc_not_zero(r, NULL);
}

/*
 * Added after 6.3 (2025, for objects whose memory may be reused under RCU, SLAB_TYPESAFE_BY_RCU):
 * refcount_set_release() and the acquire variants of add/inc_not_zero.  They are offered
 * whatever kfsim_kernel_version() says (they add API), and behave as the release in force:
 * - before 6.15 (as backported to 6.12.y, e.g. Debian's 6.12.118): refcount_add_not_zero() with
 *   ACQUIRE on success: overflow or a bad counter saturates, warns and returns true;
 * - from 6.15 they are the INT_MAX case of __refcount_add_not_zero_limited_acquire() (new in
 *   6.15, for the VMA reference count): overflow or a bad counter fails the limit test and
 *   returns false, silently, leaving the counter unchanged.
 */

/* Whether the acquire variants test INT_MAX as a limit (6.15+); out of line, cold path only. */
bool __refcount_acquire_has_limit(void);

/**
 * refcount_set_release() - refcount_set() with RELEASE ordering
 * @r: the counter
 * @n: the value
 *
 * Publishes a fully initialised object: a lookup that then wins refcount_inc_not_zero_acquire()
 * sees the initialisation.
 */
static inline void refcount_set_release(refcount_t *r, int n)
{
	atomic_store_explicit(&r->refs, n, memory_order_release);
}

/* The acquire add_not_zero loop; @limit_always is false for the INT_MAX callers before 6.15. */
static __always_inline bool __refcount_add_not_zero_acquire_loop(int i, refcount_t *r, int *oldp,
								 int limit, bool limit_always)
{
	int old = atomic_load_explicit(&r->refs, memory_order_relaxed);

	do {
		if (!old)
			break;
		if (unlikely(i > __refcount_wrap_sub(limit, old)) &&
		    (limit_always || __refcount_acquire_has_limit())) {
			if (oldp)
				*oldp = old;
			return false;
		}
	} while (!atomic_compare_exchange_weak_explicit(&r->refs, &old,
							 __refcount_wrap_add(old, i),
							 memory_order_acquire,
							 memory_order_relaxed));
	if (oldp)
		*oldp = old;
	if (unlikely(old < 0 || __refcount_wrap_add(old, i) < 0))
		refcount_warn_saturate(r, REFCOUNT_ADD_NOT_ZERO_OVF);
	return old;
}

/**
 * __refcount_add_not_zero_limited_acquire() - add @i unless the counter is 0 or would pass @limit
 * @i: amount to add
 * @r: the counter
 * @oldp: when not NULL, receives the value seen
 * @limit: the largest value the addition may produce
 *
 * 6.15+.  ACQUIRE on success.  The limit test is done in wrapping int arithmetic as in the
 * kernel, so every bad (negative, e.g. saturated) counter fails it: returns false, silently,
 * unchanged, where refcount_add_not_zero() would return true, saturate and warn.
 *
 * Return: true if @i was added (or the counter saturated doing so), false otherwise.
 */
static __always_inline __must_check bool
__refcount_add_not_zero_limited_acquire(int i, refcount_t *r, int *oldp, int limit)
{
	return __refcount_add_not_zero_acquire_loop(i, r, oldp, limit, true);
}

/** __refcount_inc_not_zero_limited_acquire() - the limited acquire variant for @i = 1 (6.15+). */
static inline __must_check bool __refcount_inc_not_zero_limited_acquire(refcount_t *r, int *oldp,
									int limit)
{
	return __refcount_add_not_zero_limited_acquire(1, r, oldp, limit);
}

/**
 * __refcount_add_not_zero_acquire() - refcount_add_not_zero_acquire() that also reports the old value
 * @i: amount to add
 * @r: the counter
 * @oldp: when not NULL, receives the value seen
 *
 * Return: false at 0; on overflow or a bad counter true (saturated, warned) before 6.15 and
 * false (unchanged, silent) from 6.15; true otherwise.
 */
static __always_inline __must_check bool __refcount_add_not_zero_acquire(int i, refcount_t *r,
									  int *oldp)
{
	return __refcount_add_not_zero_acquire_loop(i, r, oldp, INT_MAX, false);
}

/**
 * refcount_add_not_zero_acquire() - refcount_add_not_zero() with ACQUIRE on success
 * @i: amount to add
 * @r: the counter
 *
 * Return: as __refcount_add_not_zero_acquire().
 */
static inline __must_check bool refcount_add_not_zero_acquire(int i, refcount_t *r)
{
	return __refcount_add_not_zero_acquire(i, r, NULL);
}

/** __refcount_inc_not_zero_acquire() - refcount_inc_not_zero_acquire() that also reports the old value. */
static inline __must_check bool __refcount_inc_not_zero_acquire(refcount_t *r, int *oldp)
{
	return __refcount_add_not_zero_acquire(1, r, oldp);
}

/**
 * refcount_inc_not_zero_acquire() - refcount_inc_not_zero() with ACQUIRE on success
 * @r: the counter
 *
 * Return: as __refcount_add_not_zero_acquire() with @i = 1.
 */
static inline __must_check bool refcount_inc_not_zero_acquire(refcount_t *r)
{
	return __refcount_inc_not_zero_acquire(r, NULL);
}

/** __refcount_add() - refcount_add() that also reports the old value in *@oldp (if not NULL). */
static __always_inline void __refcount_add(int i, refcount_t *r, int *oldp)
{
	int old = atomic_fetch_add_explicit(&r->refs, i, memory_order_relaxed);

	if (oldp)
		*oldp = old;
	if (unlikely(!old))
		refcount_warn_saturate(r, REFCOUNT_ADD_UAF);
	else if (unlikely(old < 0 || __refcount_wrap_add(old, i) < 0))
		refcount_warn_saturate(r, REFCOUNT_ADD_OVF);
}

/**
 * refcount_add() - add @i to a counter
 * @i: amount to add
 * @r: the counter
 *
 * Adding to 0 saturates and warns "addition on 0; use-after-free."; overflow or a bad counter
 * saturates and warns "saturated; leaking memory.".  No memory ordering.
 */
static inline void refcount_add(int i, refcount_t *r)
{
	__refcount_add(i, r, NULL);
}

/** __refcount_inc() - refcount_inc() that also reports the old value. */
static inline void __refcount_inc(refcount_t *r, int *oldp)
{
	__refcount_add(1, r, oldp);
}

/**
 * refcount_inc() - take a reference
 * @r: the counter; the caller must already hold a reference
 *
 * On 0 saturates and warns "addition on 0; use-after-free."; at REFCOUNT_MAX or on a bad counter
 * saturates and warns "saturated; leaking memory.".  Relaxed.
 */
static inline void refcount_inc(refcount_t *r)
{
	__refcount_inc(r, NULL);
}

/**
 * __refcount_sub_and_test() - refcount_sub_and_test() that also reports the old value
 * @i: amount to subtract
 * @r: the counter
 * @oldp: when not NULL, receives the value seen before the subtraction
 *
 * Return: true iff this call brought the counter to exactly 0.
 */
static __always_inline __must_check bool __refcount_sub_and_test(int i, refcount_t *r, int *oldp)
{
	int old = atomic_fetch_sub_explicit(&r->refs, i, __REFCOUNT_SUB_ORDER);

	if (oldp)
		*oldp = old;
	if (old == i && (likely(i > 0) || !__refcount_sub_zero_is_uaf())) {
		__refcount_acquire_after_dec();
		return true;
	}
	if (unlikely(old < 0 || __refcount_wrap_sub(old, i) < 0 ||
		     (old == 0 && __refcount_sub_zero_is_uaf())))
		refcount_warn_saturate(r, REFCOUNT_SUB_UAF);
	return false;
}

/**
 * refcount_sub_and_test() - subtract @i and report whether the counter reached 0
 * @i: amount to subtract
 * @r: the counter
 *
 * Going below 0, or a bad counter, saturates and warns "underflow; use-after-free." and returns
 * false.  A saturated counter stays saturated.  Before 6.11, @i == 0 on a counter at 0 returns
 * true silently; from 6.11 it is reported as underflow.  RELEASE; ACQUIRE when returning true.
 *
 * Return: true iff the counter is now 0 and the caller must free the object.
 */
static inline __must_check bool refcount_sub_and_test(int i, refcount_t *r)
{
	return __refcount_sub_and_test(i, r, NULL);
}

/** __refcount_dec_and_test() - refcount_dec_and_test() that also reports the old value. */
static inline __must_check bool __refcount_dec_and_test(refcount_t *r, int *oldp)
{
	return __refcount_sub_and_test(1, r, oldp);
}

/**
 * refcount_dec_and_test() - drop a reference and report whether it was the last
 * @r: the counter
 *
 * At 0 or on a bad counter saturates, warns "underflow; use-after-free." and returns false.
 * RELEASE; ACQUIRE when returning true.
 *
 * Return: true iff the counter went 1 -> 0.
 */
static inline __must_check bool refcount_dec_and_test(refcount_t *r)
{
	return __refcount_dec_and_test(r, NULL);
}

/** __refcount_dec() - refcount_dec() that also reports the old value. */
static __always_inline void __refcount_dec(refcount_t *r, int *oldp)
{
	int old = atomic_fetch_sub_explicit(&r->refs, 1, memory_order_release);

	if (oldp)
		*oldp = old;
	if (unlikely(old <= 1))
		refcount_warn_saturate(r, REFCOUNT_DEC_LEAK);
}

/**
 * refcount_dec() - drop a reference that is known not to be the last
 * @r: the counter
 *
 * Reaching 0 here is itself a bug (nobody frees the object): 1 -> 0, 0 and bad counters all
 * saturate and warn "decrement hit 0; leaking memory.".  RELEASE.
 */
static inline void refcount_dec(refcount_t *r)
{
	__refcount_dec(r, NULL);
}

/**
 * refcount_dec_if_one() - take the counter from 1 to 0, and only from 1
 * @r: the counter
 *
 * Never warns and never changes a counter that is not 1.  RELEASE on success.
 *
 * Return: true iff the counter went 1 -> 0.
 */
__must_check bool refcount_dec_if_one(refcount_t *r);

/**
 * refcount_dec_not_one() - decrement unless the counter is 1
 * @r: the counter
 *
 * A saturated counter is left alone (returns true).  At 0 warns once (its own flag, not
 * refcount_warn_saturate()) "refcount_t: underflow; use-after-free.", does not saturate and
 * returns true.  Other bad values are decremented without a warning, as in the kernel (it
 * compares as unsigned).  RELEASE.
 *
 * Return: false iff the counter is 1 (unchanged), true otherwise.
 */
__must_check bool refcount_dec_not_one(refcount_t *r);

/**
 * refcount_dec_and_mutex_lock() - drop a reference; take @lock when it is the last
 * @r: the counter
 * @lock: the mutex protecting the structure the object is found through
 *
 * Decrements without the lock while the count stays above 1; otherwise takes @lock and does
 * refcount_dec_and_test() under it.
 *
 * Return: true with @lock HELD iff the counter reached 0; false with @lock not held otherwise.
 */
__must_check bool refcount_dec_and_mutex_lock(refcount_t *r, struct mutex *lock);

/** refcount_dec_and_lock() - refcount_dec_and_mutex_lock() with a spinlock. */
__must_check bool refcount_dec_and_lock(refcount_t *r, struct spinlock *lock);

/**
 * refcount_dec_and_lock_irqsave() - refcount_dec_and_lock() with spin_lock_irqsave()
 * @flags: receives the saved flags (0 in userspace) when the lock is taken
 */
__must_check bool refcount_dec_and_lock_irqsave(refcount_t *r, struct spinlock *lock,
						unsigned long *flags);

#pragma GCC visibility pop
#endif /* KFSIM_REFCOUNT_H */
