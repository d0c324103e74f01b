/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLEANUP_H
#define KFSIM_CLEANUP_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * Scope-based cleanup (include/linux/cleanup.h, new in Linux 6.5): the kernel's own C answer to
 * Rust's Drop and ScopeGuard, offered here for kfsim's kmalloc, spinlock_t and struct mutex.
 *
 * Everything rests on __attribute__((cleanup)): when a variable goes out of scope (end of block,
 * return, break, continue, goto out of the block) a function is called with a pointer to it, in
 * reverse order of declaration.  Rules from the kernel's documentation, which kfsim keeps:
 * - declare and initialise a __free() variable at the point of use (not "= NULL" at the top),
 *   so cleanups run in the reverse order of acquisition;
 * - do not mix goto-based unwinding and cleanup helpers in one function (jumping into the scope
 *   of a cleanup variable is a clang error and silent misbehaviour with gcc).
 *
 * Version notes: 6.5's DEFINE_GUARD unlocked unconditionally; from 6.6 the unlock is skipped for
 * a NULL guard (kfsim does the latter, which only matters for hand-made NULL guards).  6.5's
 * scoped_guard() named its variable "scope"; kfsim, like later kernels, uses unique names so
 * nested scoped_guard()s do not shadow each other (-Wshadow).  No conditional guards
 * (DEFINE_GUARD_COND, ≈6.7) yet.
 *
 * Guards defined here: guard(mutex)(&m), guard(spinlock)(&l), guard(spinlock_irq)(&l),
 * guard(spinlock_irqsave)(&l); free helpers: __free(kfree), __free(kvfree).
 */
#include <kfsim/mutex.h>
#include <kfsim/slab.h>
#include <kfsim/spinlock.h>

#define __cleanup(func) __attribute__((__cleanup__(func)))

#ifndef __PASTE
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#endif
#ifndef __UNIQUE_ID
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)
#endif

/**
 * DEFINE_FREE() - define the cleanup __free(@_name)
 * @_name: the name used in __free()
 * @_type: the variable's type
 * @_free: statement run at scope end with the value in _T; test _T for NULL so that
 *         no_free_ptr() can disarm it
 */
#define DEFINE_FREE(_name, _type, _free)                                                          \
	static inline void __free_##_name(void *p)                                                \
	{                                                                                         \
		_type _T = *(_type *)p;                                                           \
		_free;                                                                            \
	}

/**
 * __free() - attach the cleanup @_name to a variable: `void *p __free(kfree) = kmalloc(...)`
 *
 * Also marked unused: a variable that exists only to be freed at scope end is legitimate, and
 * clang (unlike gcc) would warn about it.
 */
#define __free(_name) __cleanup(__free_##_name) __attribute__((__unused__))

/** no_free_ptr() - take the value out of a __free() variable, leaving NULL behind (disarms it). */
#define no_free_ptr(p)                                                                            \
	({                                                                                        \
		__auto_type __kfsim_ptr = (p);                                                     \
		(p) = NULL;                                                                        \
		__kfsim_ptr;                                                                       \
	})

/** return_ptr() - return the value of a __free() variable without freeing it. */
#define return_ptr(p) return no_free_ptr(p)

/**
 * DEFINE_CLASS() - define a type with a constructor and a destructor
 * @_name: class name, used in CLASS(@_name, var)(args)
 * @_type: the type of the variable
 * @_exit: destructor statement, with the value in _T
 * @_init: constructor expression, from @_init_args
 */
#define DEFINE_CLASS(_name, _type, _exit, _init, _init_args...)                                   \
	typedef _type class_##_name##_t;                                                          \
	static inline void class_##_name##_destructor(_type *p)                                   \
	{                                                                                         \
		_type _T = *p;                                                                    \
		_exit;                                                                            \
	}                                                                                         \
	static inline _type class_##_name##_constructor(_init_args)                               \
	{                                                                                         \
		_type t = _init;                                                                  \
		return t;                                                                         \
	}

/** CLASS() - declare @var of class @_name; follow with the constructor's arguments in (). */
#define CLASS(_name, var)                                                                         \
	class_##_name##_t var __cleanup(class_##_name##_destructor) __attribute__((__unused__)) =  \
		class_##_name##_constructor

/**
 * DEFINE_GUARD() - a class that takes a lock in its constructor and drops it in its destructor
 * @_name: guard name for guard() and scoped_guard()
 * @_type: the lock pointer type
 * @_lock: statement taking the lock _T
 * @_unlock: statement dropping the lock _T
 */
#define DEFINE_GUARD(_name, _type, _lock, _unlock)                                                \
	DEFINE_CLASS(_name, _type, if (_T) { _unlock; }, ({ _lock; _T; }), _type _T)

/** guard() - hold the lock until the end of the enclosing scope: guard(mutex)(&lock); */
#define guard(_name) CLASS(_name, __UNIQUE_ID(guard))

#define __scoped_guard(_name, _var, _done, args...)                                               \
	for (CLASS(_name, _var)(args), *_done = NULL; !_done; _done = (void *)1)

/**
 * scoped_guard() - hold the lock for the following statement only
 *
 * A one-iteration for loop, as in 6.5: `break` or `continue` directly inside leaves the guarded
 * statement (and drops the lock), not an enclosing loop.
 */
#define scoped_guard(_name, args...)                                                              \
	__scoped_guard(_name, __UNIQUE_ID(scope), __UNIQUE_ID(done), args)

/**
 * DEFINE_LOCK_GUARD_1() - a guard for a lock that needs extra state (flags)
 * @_name: guard name
 * @_type: the lock type (not a pointer)
 * @_lock: statement taking _T->lock (the extra fields are _T->...)
 * @_unlock: statement dropping it
 * @...: extra member declarations of the guard
 */
#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)                                    \
	typedef struct {                                                                          \
		_type *lock;                                                                      \
		__VA_ARGS__;                                                                      \
	} class_##_name##_t;                                                                      \
	static inline void class_##_name##_destructor(class_##_name##_t *_T)                      \
	{                                                                                         \
		if (_T->lock) {                                                                   \
			_unlock;                                                                  \
		}                                                                                 \
	}                                                                                         \
	static inline class_##_name##_t class_##_name##_constructor(_type *l)                     \
	{                                                                                         \
		class_##_name##_t _t = { .lock = l }, *_T = &_t;                                  \
		_lock;                                                                            \
		return _t;                                                                        \
	}

DEFINE_FREE(kfree, void *, if (_T) kfree(_T))
DEFINE_FREE(kvfree, void *, if (_T) kvfree(_T))

DEFINE_GUARD(mutex, struct mutex *, mutex_lock(_T), mutex_unlock(_T))
DEFINE_GUARD(spinlock, spinlock_t *, spin_lock(_T), spin_unlock(_T))
DEFINE_GUARD(spinlock_irq, spinlock_t *, spin_lock_irq(_T), spin_unlock_irq(_T))
DEFINE_LOCK_GUARD_1(spinlock_irqsave, spinlock_t, spin_lock_irqsave(_T->lock, _T->flags),
		    spin_unlock_irqrestore(_T->lock, _T->flags), unsigned long flags)

#pragma GCC visibility pop
#endif /* KFSIM_CLEANUP_H */
