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
 * Version notes (Linux 6.12 is what kfsim follows; older shapes are named where they differ):
 * - 6.5's DEFINE_GUARD unlocked unconditionally; from 6.6 the unlock is skipped for a NULL guard.
 * - From 6.6, __free(kfree) and __free(kvfree) skip error pointers as well as NULL
 *   (IS_ERR_OR_NULL), so `p __free(kfree) = foo_create()` may hold an ERR_PTR.  With
 *   kfsim_set_kernel_version() at 6.5 (the one release whose kfree helper tests only NULL) the
 *   pointer reaches kfree(), which reports the bad pointer (6.5 would oops there) and frees
 *   nothing.  For the versions before cleanup.h existed (6.4 and older, kfsim's default 6.3
 *   included) kfsim offers the 6.6 helpers.
 * - Conditional guards (DEFINE_GUARD_COND, DEFINE_LOCK_GUARD_1_COND, scoped_cond_guard, 6.8):
 *   guard(mutex_try) and scoped_guard(mutex_try, &m) take the lock only if trylock succeeds;
 *   scoped_guard() then skips its statement, scoped_cond_guard() runs its failure statement.
 * - The spinlock guards are DEFINE_LOCK_GUARD_1 classes (a struct holding the lock pointer, and
 *   flags for _irqsave), the mutex guard a DEFINE_GUARD class (the pointer itself), as in 6.12.
 * - 6.5's scoped_guard() named its variable "scope"; kfsim uses unique names so nested
 *   scoped_guard()s do not shadow each other (-Wshadow).  break inside a scoped_guard() leaves it.
 *
 * Guards defined here: mutex (+ mutex_try, mutex_intr), spinlock, spinlock_irq, spinlock_bh,
 * spinlock_irqsave (each + _try); free helpers: __free(kfree), __free(kvfree).
 */
#include <stdbool.h>
#include <stdint.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
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
 * retain_and_null_ptr() - disarm a __free() variable whose object now has another owner
 *
 * The variable becomes NULL and the value is discarded (include/linux/cleanup.h, in Debian's
 * 6.12 tree): for when a callee took over the object, e.g. after a successful fd_install().
 */
#define retain_and_null_ptr(p) ((void)no_free_ptr(p))

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

/**
 * EXTEND_CLASS() - a class @_name##@ext of @_name's type and destructor with another constructor
 */
#define EXTEND_CLASS(_name, ext, _init, _init_args...)                                            \
	typedef class_##_name##_t class_##_name##ext##_t;                                         \
	static inline void class_##_name##ext##_destructor(class_##_name##_t *p)                  \
	{                                                                                         \
		class_##_name##_destructor(p);                                                    \
	}                                                                                         \
	static inline class_##_name##_t class_##_name##ext##_constructor(_init_args)              \
	{                                                                                         \
		class_##_name##_t t = _init;                                                      \
		return t;                                                                         \
	}

/** CLASS() - declare @var of class @_name; follow with the constructor's arguments in (). */
#define CLASS(_name, var)                                                                         \
	class_##_name##_t var __cleanup(class_##_name##_destructor) __attribute__((__unused__)) =  \
		class_##_name##_constructor

/*
 * Whether a guard class may fail to take its lock (the _try/_intr variants).  The kernel's is a
 * static const bool that its BUILD_BUG_ON() (a link-time check, always at -O2) sees as a
 * constant; here it is an enumeration constant, so scoped_cond_guard()'s _Static_assert holds
 * at -O0 too.
 */
#define __DEFINE_CLASS_IS_CONDITIONAL(_name, _is_cond)                                            \
	enum { class_##_name##_is_conditional = (_is_cond) }
#define __guard_ptr(_name) class_##_name##_lock_ptr
#define __is_cond_ptr(_name) class_##_name##_is_conditional

/**
 * DEFINE_GUARD() - a class that takes a lock in its constructor and drops it in its destructor
 * @_name: guard name for guard() and scoped_guard()
 * @_type: the lock pointer type (the class is that pointer)
 * @_lock: statement taking the lock _T
 * @_unlock: statement dropping the lock _T
 */
#define DEFINE_GUARD(_name, _type, _lock, _unlock)                                                \
	__DEFINE_CLASS_IS_CONDITIONAL(_name, false);                                              \
	DEFINE_CLASS(_name, _type, if (_T) { _unlock; }, ({ _lock; _T; }), _type _T)              \
	static inline void *class_##_name##_lock_ptr(class_##_name##_t *_T)                       \
	{                                                                                         \
		return (void *)(uintptr_t)*_T;                                                    \
	}

/**
 * DEFINE_GUARD_COND() - guard @_name##@_ext that holds the lock only when @_condlock succeeds
 * @_name: an existing DEFINE_GUARD() class
 * @_ext: suffix of the new guard (_try, _intr)
 * @_condlock: expression, true when the lock _T was taken
 *
 * A guard that did not get the lock holds NULL, and its destructor unlocks nothing.
 */
#define DEFINE_GUARD_COND(_name, _ext, _condlock)                                                 \
	__DEFINE_CLASS_IS_CONDITIONAL(_name##_ext, true);                                         \
	EXTEND_CLASS(_name, _ext, ({                                                              \
			     void *_t = _T;                                                       \
			     if (_T && !(_condlock))                                              \
				     _t = NULL;                                                   \
			     _t;                                                                  \
		     }),                                                                          \
		     class_##_name##_t _T)                                                        \
	static inline void *class_##_name##_ext##_lock_ptr(class_##_name##_t *_T)                 \
	{                                                                                         \
		return class_##_name##_lock_ptr(_T);                                              \
	}

/**
 * scoped_class() - an object of class @_name named @var, alive for the following statement only
 *
 * scoped_class(fd, f, fdnum) { use(f); }: the destructor runs when the statement ends, however
 * it ends (break included).
 */
#define __scoped_class(_name, var, _done, args...)                                                \
	for (CLASS(_name, var)(args), *_done = NULL; !_done; _done = (void *)1)
#define scoped_class(_name, var, args...) __scoped_class(_name, var, __UNIQUE_ID(done), args)

/** guard() - hold the lock until the end of the enclosing scope: guard(mutex)(&lock); */
#define guard(_name) CLASS(_name, __UNIQUE_ID(guard))

#define __scoped_guard(_name, _var, _done, args...)                                               \
	for (CLASS(_name, _var)(args), *_done = NULL;                                             \
	     !_done && (__guard_ptr(_name)(&_var) || !__is_cond_ptr(_name));                      \
	     _done = (void *)1)

/**
 * scoped_guard() - hold the lock for the following statement only
 *
 * A one-iteration for loop: `break` or `continue` directly inside leaves the guarded statement
 * (and drops the lock), not an enclosing loop.  With a conditional guard (mutex_try) the
 * statement is skipped when the lock was not taken.
 */
#define scoped_guard(_name, args...)                                                              \
	__scoped_guard(_name, __UNIQUE_ID(scope), __UNIQUE_ID(done), args)

#define __scoped_cond_guard(_name, _fail, _var, _done, args...)                                   \
	for (CLASS(_name, _var)(args), *_done = NULL; !_done; _done = (void *)1)                  \
		if (!__guard_ptr(_name)(&_var)) {                                                 \
			BUILD_BUG_ON(!__builtin_constant_p(__is_cond_ptr(_name)) ||              \
				     !__is_cond_ptr(_name));                                      \
			_fail;                                                                    \
		} else

/**
 * scoped_cond_guard() - run the next statement holding a conditional lock, or @_fail without it
 * @_name: a conditional guard (mutex_intr, spinlock_try, ...); an unconditional one fails to build
 * @_fail: statement run when the lock was not taken (typically `return -EINTR`)
 */
#define scoped_cond_guard(_name, _fail, args...)                                                  \
	__scoped_cond_guard(_name, _fail, __UNIQUE_ID(scope), __UNIQUE_ID(done), args)

/* The class of a guard that holds a lock pointer plus extra state (flags). */
#define __DEFINE_UNLOCK_GUARD(_name, _type, _unlock, ...)                                         \
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
	static inline void *class_##_name##_lock_ptr(class_##_name##_t *_T)                       \
	{                                                                                         \
		return (void *)(uintptr_t)_T->lock;                                               \
	}

/**
 * DEFINE_LOCK_GUARD_1() - a guard whose class is a struct: the lock pointer and extra members
 * @_name: guard name
 * @_type: the lock type (not a pointer)
 * @_lock: statement taking _T->lock (the extra fields are _T->...)
 * @_unlock: statement dropping it
 * @...: extra member declarations of the guard
 */
#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)                                    \
	__DEFINE_CLASS_IS_CONDITIONAL(_name, false);                                              \
	__DEFINE_UNLOCK_GUARD(_name, _type, _unlock, __VA_ARGS__)                                 \
	static inline class_##_name##_t class_##_name##_constructor(_type *l)                     \
	{                                                                                         \
		class_##_name##_t _t = { .lock = l }, *_T = &_t;                                  \
		_lock;                                                                            \
		return _t;                                                                        \
	}

/** DEFINE_LOCK_GUARD_1_COND() - the conditional variant @_name##@_ext of a DEFINE_LOCK_GUARD_1 */
#define DEFINE_LOCK_GUARD_1_COND(_name, _ext, _condlock)                                          \
	__DEFINE_CLASS_IS_CONDITIONAL(_name##_ext, true);                                         \
	EXTEND_CLASS(_name, _ext, ({                                                              \
			     class_##_name##_t _t = { .lock = l }, *_T = &_t;                     \
			     if (_T->lock && !(_condlock))                                        \
				     _T->lock = NULL;                                             \
			     _t;                                                                  \
		     }),                                                                          \
		     __typeof__(((class_##_name##_t *)0)->lock) l)                                \
	static inline void *class_##_name##_ext##_lock_ptr(class_##_name##_t *_T)                 \
	{                                                                                         \
		return class_##_name##_lock_ptr(_T);                                              \
	}

/* 6.6+: error pointers are skipped too; in 6.5 they reach kfree(), which refuses them. */
#define __kfsim_free_skips(_T)                                                                    \
	(kfsim_kernel_at_least(6, 5) && !kfsim_kernel_at_least(6, 6) ? !(_T) : IS_ERR_OR_NULL(_T))
DEFINE_FREE(kfree, void *, if (!__kfsim_free_skips(_T)) kfree(_T))
DEFINE_FREE(kvfree, void *, if (!__kfsim_free_skips(_T)) kvfree(_T))

DEFINE_GUARD(mutex, struct mutex *, mutex_lock(_T), mutex_unlock(_T))
DEFINE_GUARD_COND(mutex, _try, mutex_trylock(_T))
DEFINE_GUARD_COND(mutex, _intr, mutex_lock_interruptible(_T) == 0)

DEFINE_LOCK_GUARD_1(spinlock, spinlock_t, spin_lock(_T->lock), spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1_COND(spinlock, _try, spin_trylock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irq, spinlock_t, spin_lock_irq(_T->lock), spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1_COND(spinlock_irq, _try, spin_trylock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_bh, spinlock_t, spin_lock_bh(_T->lock), spin_unlock_bh(_T->lock))
DEFINE_LOCK_GUARD_1_COND(spinlock_bh, _try, spin_trylock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irqsave, spinlock_t, spin_lock_irqsave(_T->lock, _T->flags),
		    spin_unlock_irqrestore(_T->lock, _T->flags), unsigned long flags)
DEFINE_LOCK_GUARD_1_COND(spinlock_irqsave, _try, ({
				 _T->flags = 0;
				 spin_trylock(_T->lock);
			 }))

#pragma GCC visibility pop
#endif /* KFSIM_CLEANUP_H */
