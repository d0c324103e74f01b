/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_FOREIGN_OWNABLE_H
#define KFSIM_FOREIGN_OWNABLE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * ForeignOwnable: the C shape of Rust-for-Linux's kernel::types::ForeignOwnable (6.3): hand an
 * owned object to C code as a void * (into_foreign), let that code borrow it while it keeps
 * ownership, and take the ownership back exactly once (from_foreign).  What the pointer means
 * is described by an ops table, one per owning kind:
 *
 *	foreign_box	a kmalloc()ed object owned by one holder (Box<T>): the cookie is the object;
 *			borrow gives const access, borrow_mut gives write access to the same object
 *	foreign_arc	an Arc payload (Arc<T>): the cookie is the Arc header (ArcInner address, as
 *			in 6.3) and owns the Arc's reference; borrow gives the payload (ArcBorrow)
 *			without touching the count; borrow_mut gives only shared access, as Rust's
 *			Arc::BorrowedMut does
 *	foreign_unit	no object (()): a fixed non-NULL cookie, everything a no-op
 *
 * Rules (the `unsafe fn` preconditions in Rust): borrow only a cookie not yet taken back; no
 * mutable borrow while any other borrow is live; take back once, with no borrow live.  In
 * Rust they are the caller's burden.  kfsim's debug mode (kfsim_foreign_debug_set()) checks them
 * at run time, like the kernel's debugobjects: it tracks each cookie's state in a process-global
 * table and turns a violation into a WARN with a clear message plus an error pointer, leaving
 * the object untouched:
 *	-EINVAL  take back twice, borrow after take-back, a cookie never handed out
 *	-EBUSY   mutable borrow while a borrow is live, any borrow while a mutable one is live,
 *		 take back while borrowed
 * Without debug mode only NULL and ERR_PTR cookies are rejected.
 *
 * Version notes: borrow_mut was removed in ≈6.6 (it allowed swapping the Box) and came back in
 * ≈6.13 as mutable access to the T only, which is what foreign_borrow_mut() gives;
 * try_from_foreign arrived in ≈6.8.
 */
#include <stdbool.h>
#include <kfsim/err.h>

/**
 * struct foreign_ownable_ops - how one owning kind converts to and from a cookie
 * @name: "box", "arc" or "unit", for messages
 * @into_foreign: owned object -> cookie
 * @borrow: cookie -> the object's data (no ownership change)
 * @from_foreign: cookie -> owned object
 * @shared_mut: borrow_mut gives shared access only (Arc)
 */
struct foreign_ownable_ops {
	const char *name;
	void *(*into_foreign)(void *owned);
	void *(*borrow)(void *foreign);
	void *(*from_foreign)(void *foreign);
	bool shared_mut;
};

extern const struct foreign_ownable_ops foreign_box;
extern const struct foreign_ownable_ops foreign_arc;
extern const struct foreign_ownable_ops foreign_unit;

/**
 * foreign_into() - give up ownership of @owned to C code (into_foreign)
 * @ops: the owning kind
 * @owned: a kmalloc()ed object (box), an owned Arc payload (arc), ignored (unit)
 *
 * Return: the cookie, or ERR_PTR(-EINVAL) (with a message) for a NULL/ERR_PTR object or, for
 * arc, a pointer that is not an Arc.
 */
void *foreign_into(const struct foreign_ownable_ops *ops, void *owned);

/**
 * foreign_borrow() - look at the object behind @foreign without taking ownership (borrow)
 *
 * In debug mode the borrow stays live until foreign_borrow_end().
 *
 * Return: the object's data (NULL for unit), or an error pointer (see the file comment).
 */
const void *foreign_borrow(const struct foreign_ownable_ops *ops, void *foreign);

/** foreign_borrow_end() - end a borrow from foreign_borrow() (a no-op outside debug mode). */
void foreign_borrow_end(const struct foreign_ownable_ops *ops, void *foreign);

/**
 * struct foreign_borrow_mut - a live mutable borrow; hands the object back when it ends
 * @ops: the owning kind (NULL when the borrow failed or ended)
 * @foreign: the cookie
 * @data: the object's data: writable for box, shared for arc
 */
struct foreign_borrow_mut {
	const struct foreign_ownable_ops *ops;
	void *foreign;
	void *data;
};

/**
 * foreign_borrow_mut() - borrow the object behind @foreign mutably (borrow_mut)
 * @ops: the owning kind
 * @foreign: the cookie
 * @guard: filled in; end it with foreign_borrow_mut_end(), or declare it with
 *         FOREIGN_BORROW_MUT() so that it ends with the scope
 *
 * Return: the data (also in @guard->data), or an error pointer with @guard left empty.
 */
void *foreign_borrow_mut(const struct foreign_ownable_ops *ops, void *foreign,
			 struct foreign_borrow_mut *guard);

/** foreign_borrow_mut_end() - end @guard's borrow (idempotent; empty guards are ignored). */
void foreign_borrow_mut_end(struct foreign_borrow_mut *guard);

/** FOREIGN_BORROW_MUT() - declare an empty mutable-borrow guard ended at scope exit. */
#define FOREIGN_BORROW_MUT(name)                                                                  \
	struct foreign_borrow_mut name                                                            \
		__attribute__((__cleanup__(foreign_borrow_mut_end), __unused__)) = { 0 }

/**
 * foreign_from() - take ownership back from C code (from_foreign)
 *
 * Return: the owned object (the caller now frees it / arc_put()s it; NULL for unit), or an error
 * pointer (see the file comment).
 */
void *foreign_from(const struct foreign_ownable_ops *ops, void *foreign);

/** foreign_try_from() - foreign_from() that maps a NULL cookie to NULL (try_from_foreign). */
void *foreign_try_from(const struct foreign_ownable_ops *ops, void *foreign);

/**
 * kfsim_foreign_debug_set() - switch the run-time checks of the rules above on or off
 *
 * Switching off forgets every tracked cookie.  Return: the previous setting.
 */
bool kfsim_foreign_debug_set(bool on);

#pragma GCC visibility pop
#endif /* KFSIM_FOREIGN_OWNABLE_H */
