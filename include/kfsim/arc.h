/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_ARC_H
#define KFSIM_ARC_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * Arc: the C shape of Rust-for-Linux's kernel::sync::Arc<T> (rust/kernel/sync/arc.rs, 6.3), a
 * reference-counted allocation counted by a refcount_t.
 *
 * Contract (the Rust type's, enforced where C can):
 * - One allocation: a header (refcount_t, drop callback, magic word) followed by the payload,
 *   aligned for any type.  Callers only ever see the payload pointer.
 * - A shared payload is `const`: no mutable access while it may be shared (Rust has no get_mut).
 *   Fields that synchronise themselves (a spinlock_t, an atomic) are reached by casting, the C
 *   counterpart of Rust's interior mutability.  Mutation before sharing goes through
 *   unique_arc_try_new() (UniqueArc: count known to be 1) and unique_arc_share().
 * - The count is never 0 while an Arc exists; arc_clone() is refcount_inc() (saturates, never
 *   wraps, so a leak instead of an early free), arc_put() is refcount_dec_and_test() and runs the
 *   drop callback then frees at zero.  No weak references.
 * - A borrow (ArcBorrow) is the payload pointer passed down without arc_clone(): it does not
 *   touch the count, and arc_clone() of a borrow makes a new owning Arc.
 * - Bad pointers (NULL, ERR_PTR, or a pointer whose header lacks the magic word) get -EINVAL and
 *   a message instead of corrupting memory.  A pointer to an Arc already freed is a
 *   use-after-free that kfsim cannot always see; ASan can.
 */
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/err.h>
#include <kfsim/slab.h>

/** typedef arc_drop_t - the payload's destructor, run once by the last arc_put() */
typedef void (*arc_drop_t)(void *data);

/**
 * unique_arc_try_new() - allocate an Arc whose payload the caller may still write (UniqueArc)
 * @size: payload size in bytes (0 allowed)
 * @drop: destructor for the payload, or NULL
 * @flags: GFP flags for kmalloc
 *
 * The payload is zeroed and the count is 1.
 *
 * Return: the writable payload, or ERR_PTR(-ENOMEM) when the allocation fails or @size is too
 * large.  Hand it out with unique_arc_share(), or release it with arc_put().
 */
void *unique_arc_try_new(size_t size, arc_drop_t drop, gfp_t flags);

/**
 * unique_arc_share() - turn a UniqueArc into a shared Arc (Arc::from(UniqueArc), free)
 * @unique: from unique_arc_try_new(); the caller must not write through it afterwards
 *
 * Return: the same payload as a shared pointer.
 */
static inline const void *unique_arc_share(void *unique)
{
	return unique;
}

/**
 * arc_try_new() - allocate an Arc holding a copy of @value (Arc::try_new)
 * @value: @size bytes to copy into the payload; NULL leaves it zeroed
 * @size: payload size
 * @drop: destructor run on the payload by the last arc_put(), or NULL
 * @flags: GFP flags
 *
 * Return: the shared payload with a count of 1, or ERR_PTR(-ENOMEM).
 */
const void *arc_try_new(const void *value, size_t size, arc_drop_t drop, gfp_t flags);

/**
 * arc_clone() - take another reference (Arc::clone / Arc::from(ArcBorrow))
 * @arc: a live Arc payload (owned or borrowed)
 *
 * refcount_inc(): saturates and warns "refcount_t: saturated; leaking memory." instead of
 * overflowing.
 *
 * Return: @arc, or ERR_PTR(-EINVAL) (with a message) when @arc is not an Arc.
 */
const void *arc_clone(const void *arc);

/**
 * arc_put() - drop a reference (Drop for Arc)
 * @arc: an owned Arc payload; the caller must not use it afterwards
 *
 * The last reference runs the drop callback on the payload, then frees the allocation.
 *
 * Return: 1 when this call freed the Arc, 0 when other references remain (or the count is
 * saturated), -EINVAL (with a message) when @arc is not an Arc.
 */
int arc_put(const void *arc);

/** arc_ptr_eq() - whether @a and @b are the same allocation (Arc::ptr_eq); no count change. */
static inline bool arc_ptr_eq(const void *a, const void *b)
{
	return a == b;
}

/**
 * arc_count() - the current reference count of @arc, for diagnostics and tests
 *
 * Return: refcount_read() of the header (0xc0000000 when saturated), 0 when @arc is not an Arc.
 */
unsigned int arc_count(const void *arc);

/** arc_is_arc() - whether @ptr is the payload of a live Arc (checks the header's magic word). */
bool arc_is_arc(const void *ptr);

#pragma GCC visibility pop
#endif /* KFSIM_ARC_H */
