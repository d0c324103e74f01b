/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_KREF_H
#define KFSIM_KREF_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * struct kref (include/linux/kref.h): a refcount_t with a release callback, as in Linux 6.3
 * (unchanged in substance since).  Every misuse behaves as the refcount_t underneath: kref_get()
 * on a released kref warns "addition on 0; use-after-free." and saturates, kref_put() on it warns
 * "underflow; use-after-free." and does not call release again.
 *
 * The release callback gets the kref and frees the containing object (container_of); it may not
 * be NULL or kfree itself, since the kref is embedded.
 */
#include <kfsim/bug.h>
#include <kfsim/mutex.h>
#include <kfsim/refcount.h>
#include <kfsim/spinlock.h>

/** struct kref - an embedded reference count with a release callback at zero */
struct kref {
	refcount_t refcount;
};

/** KREF_INIT() - static initialiser holding @n references. */
#define KREF_INIT(n) { .refcount = REFCOUNT_INIT(n), }

/** kref_init() - initialise @kref with one reference (the caller's). */
static inline void kref_init(struct kref *kref)
{
	refcount_set(&kref->refcount, 1);
}

/** kref_read() - the current count (0xc0000000 when saturated). */
static inline unsigned int kref_read(const struct kref *kref)
{
	return refcount_read(&kref->refcount);
}

/** kref_get() - take a reference; the caller must already hold one (refcount_inc()). */
static inline void kref_get(struct kref *kref)
{
	refcount_inc(&kref->refcount);
}

/**
 * kref_put() - drop a reference, calling @release when it was the last
 * @kref: the reference count
 * @release: frees the containing object; must not be NULL
 *
 * Return: 1 when @release was called, 0 otherwise.  0 does not mean the object is still alive:
 * another thread may release it at any moment.  A NULL @release is a bug the kernel would crash
 * on; kfsim WARNs once and returns 0 without dropping the reference.
 */
static inline int kref_put(struct kref *kref, void (*release)(struct kref *kref))
{
	if (WARN_ON_ONCE(!release))
		return 0;
	if (refcount_dec_and_test(&kref->refcount)) {
		release(kref);
		return 1;
	}
	return 0;
}

/**
 * kref_put_mutex() - kref_put() that takes @lock for the last reference
 * @kref: the reference count
 * @release: called with @lock HELD; it must unlock @lock (NULL: WARN, nothing done)
 * @lock: the mutex of the structure through which the object can be found
 *
 * Return: 1 when @release was called, 0 otherwise (and @lock is not held).
 */
static inline int kref_put_mutex(struct kref *kref, void (*release)(struct kref *kref),
				 struct mutex *lock)
{
	if (WARN_ON_ONCE(!release))
		return 0;
	if (refcount_dec_and_mutex_lock(&kref->refcount, lock)) {
		release(kref);
		return 1;
	}
	return 0;
}

/** kref_put_lock() - kref_put_mutex() with a spinlock; @release must spin_unlock(@lock). */
static inline int kref_put_lock(struct kref *kref, void (*release)(struct kref *kref),
				spinlock_t *lock)
{
	if (WARN_ON_ONCE(!release))
		return 0;
	if (refcount_dec_and_lock(&kref->refcount, lock)) {
		release(kref);
		return 1;
	}
	return 0;
}

/**
 * kref_get_unless_zero() - take a reference unless the object is already being released
 * @kref: the reference count
 *
 * For lookups under a lock (or RCU) in a structure the release callback removes the object from.
 *
 * Return: nonzero when a reference was taken, 0 when the count was 0.
 */
static inline int __must_check kref_get_unless_zero(struct kref *kref)
{
	return refcount_inc_not_zero(&kref->refcount);
}

#pragma GCC visibility pop
#endif /* KFSIM_KREF_H */
