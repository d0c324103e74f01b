/* SPDX-License-Identifier: MIT */
/*
 * <linux/atomic.h> for kernel code built against kfsim: atomic_t and the atomic_*() operations of
 * Documentation/atomic_t.txt (6.12), on GCC's __atomic builtins.
 *
 * Ordering follows the kernel's naming: plain atomic_read/set and the void RMW ops are relaxed;
 * value-returning RMW ops without a suffix are fully ordered (seq_cst); _relaxed, _acquire and
 * _release mean what they say.  A failed (try_)cmpxchg is relaxed, as in the kernel.
 *
 * <stdatomic.h> (which kfsim's own headers use) defines atomic_fetch_add/sub/and/or/xor() as
 * C11 generic functions taking (object, value); the kernel's take (value, atomic_t *).  This
 * header includes <stdatomic.h> first and replaces those five names with the kernel's: code that
 * includes <linux/atomic.h> is kernel code and means the kernel's.
 */
#ifndef KFSIM_COMPAT_LINUX_ATOMIC_H
#define KFSIM_COMPAT_LINUX_ATOMIC_H
#include <stdatomic.h>
#include <stdbool.h>
#include <linux/types.h>

/*
 * The barriers of <asm/barrier.h>, which the kernel's <linux/atomic.h> brings in.
 * smp_acquire__after_ctrl_dep() upgrades a control dependency to ACQUIRE: a fence here.
 */
#ifndef smp_mb
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#endif
#ifndef smp_acquire__after_ctrl_dep
#define smp_acquire__after_ctrl_dep() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#endif
#ifndef smp_mb__before_atomic
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()
#endif
#ifndef smp_load_acquire
#define smp_load_acquire(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#endif

/* The kernel's layout (include/linux/types.h): one int, read through the helpers below. */
typedef struct {
	int counter;
} atomic_t;

#define ATOMIC_INIT(i) { (i) }

#undef atomic_fetch_add
#undef atomic_fetch_sub
#undef atomic_fetch_and
#undef atomic_fetch_or
#undef atomic_fetch_xor

#define __KFSIM_ATOMIC_ORDER_ __ATOMIC_SEQ_CST
#define __KFSIM_ATOMIC_ORDER__relaxed __ATOMIC_RELAXED
#define __KFSIM_ATOMIC_ORDER__acquire __ATOMIC_ACQUIRE
#define __KFSIM_ATOMIC_ORDER__release __ATOMIC_RELEASE

static inline int atomic_read(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

static inline int atomic_read_acquire(const atomic_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE);
}

static inline void atomic_set(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

static inline void atomic_set_release(atomic_t *v, int i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELEASE);
}

/* atomic_<op>(i, v): relaxed, no value (the kernel's void RMW ops order nothing). */
#define __KFSIM_ATOMIC_VOID_OP(op, builtin)                                                       \
	static inline void atomic_##op(int i, atomic_t *v)                                        \
	{                                                                                         \
		(void)builtin(&v->counter, i, __ATOMIC_RELAXED);                                  \
	}
__KFSIM_ATOMIC_VOID_OP(add, __atomic_fetch_add)
__KFSIM_ATOMIC_VOID_OP(sub, __atomic_fetch_sub)
__KFSIM_ATOMIC_VOID_OP(and, __atomic_fetch_and)
__KFSIM_ATOMIC_VOID_OP(or, __atomic_fetch_or)
__KFSIM_ATOMIC_VOID_OP(xor, __atomic_fetch_xor)

static inline void atomic_andnot(int i, atomic_t *v)
{
	atomic_and(~i, v);
}

static inline void atomic_inc(atomic_t *v)
{
	atomic_add(1, v);
}

static inline void atomic_dec(atomic_t *v)
{
	atomic_sub(1, v);
}

/* One ordering variant (suffix sfx) of the value-returning operations. */
#define __KFSIM_ATOMIC_RETURN_OPS(sfx)                                                            \
	static inline int atomic_fetch_add##sfx(int i, atomic_t *v)                               \
	{                                                                                         \
		return __atomic_fetch_add(&v->counter, i, __KFSIM_ATOMIC_ORDER_##sfx);            \
	}                                                                                         \
	static inline int atomic_fetch_sub##sfx(int i, atomic_t *v)                               \
	{                                                                                         \
		return __atomic_fetch_sub(&v->counter, i, __KFSIM_ATOMIC_ORDER_##sfx);            \
	}                                                                                         \
	static inline int atomic_fetch_and##sfx(int i, atomic_t *v)                               \
	{                                                                                         \
		return __atomic_fetch_and(&v->counter, i, __KFSIM_ATOMIC_ORDER_##sfx);            \
	}                                                                                         \
	static inline int atomic_fetch_andnot##sfx(int i, atomic_t *v)                            \
	{                                                                                         \
		return __atomic_fetch_and(&v->counter, ~i, __KFSIM_ATOMIC_ORDER_##sfx);           \
	}                                                                                         \
	static inline int atomic_fetch_or##sfx(int i, atomic_t *v)                                \
	{                                                                                         \
		return __atomic_fetch_or(&v->counter, i, __KFSIM_ATOMIC_ORDER_##sfx);             \
	}                                                                                         \
	static inline int atomic_fetch_xor##sfx(int i, atomic_t *v)                               \
	{                                                                                         \
		return __atomic_fetch_xor(&v->counter, i, __KFSIM_ATOMIC_ORDER_##sfx);            \
	}                                                                                         \
	static inline int atomic_fetch_inc##sfx(atomic_t *v)                                      \
	{                                                                                         \
		return atomic_fetch_add##sfx(1, v);                                               \
	}                                                                                         \
	static inline int atomic_fetch_dec##sfx(atomic_t *v)                                      \
	{                                                                                         \
		return atomic_fetch_sub##sfx(1, v);                                               \
	}                                                                                         \
	static inline int atomic_add_return##sfx(int i, atomic_t *v)                              \
	{                                                                                         \
		return __atomic_add_fetch(&v->counter, i, __KFSIM_ATOMIC_ORDER_##sfx);            \
	}                                                                                         \
	static inline int atomic_sub_return##sfx(int i, atomic_t *v)                              \
	{                                                                                         \
		return __atomic_sub_fetch(&v->counter, i, __KFSIM_ATOMIC_ORDER_##sfx);            \
	}                                                                                         \
	static inline int atomic_inc_return##sfx(atomic_t *v)                                     \
	{                                                                                         \
		return atomic_add_return##sfx(1, v);                                              \
	}                                                                                         \
	static inline int atomic_dec_return##sfx(atomic_t *v)                                     \
	{                                                                                         \
		return atomic_sub_return##sfx(1, v);                                              \
	}                                                                                         \
	static inline int atomic_xchg##sfx(atomic_t *v, int new)                                  \
	{                                                                                         \
		return __atomic_exchange_n(&v->counter, new, __KFSIM_ATOMIC_ORDER_##sfx);         \
	}                                                                                         \
	static inline bool atomic_try_cmpxchg##sfx(atomic_t *v, int *old, int new)                \
	{                                                                                         \
		return __atomic_compare_exchange_n(&v->counter, old, new, false,                  \
						   __KFSIM_ATOMIC_ORDER_##sfx, __ATOMIC_RELAXED); \
	}                                                                                         \
	static inline int atomic_cmpxchg##sfx(atomic_t *v, int old, int new)                      \
	{                                                                                         \
		(void)atomic_try_cmpxchg##sfx(v, &old, new);                                      \
		return old;                                                                       \
	}
__KFSIM_ATOMIC_RETURN_OPS()
__KFSIM_ATOMIC_RETURN_OPS(_relaxed)
__KFSIM_ATOMIC_RETURN_OPS(_acquire)
__KFSIM_ATOMIC_RETURN_OPS(_release)

/* The fully ordered conditional operations (include/linux/atomic/atomic-instrumented.h). */
static inline bool atomic_sub_and_test(int i, atomic_t *v)
{
	return atomic_sub_return(i, v) == 0;
}

static inline bool atomic_dec_and_test(atomic_t *v)
{
	return atomic_dec_return(v) == 0;
}

static inline bool atomic_inc_and_test(atomic_t *v)
{
	return atomic_inc_return(v) == 0;
}

static inline bool atomic_add_negative(int i, atomic_t *v)
{
	return atomic_add_return(i, v) < 0;
}

/* atomic_fetch_add_unless() - add @a unless the value is @u; returns the old value. */
static inline int atomic_fetch_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	do {
		if (c == u)
			break;
	} while (!atomic_try_cmpxchg(v, &c, c + a));
	return c;
}

static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	return atomic_fetch_add_unless(v, a, u) != u;
}

static inline bool atomic_inc_not_zero(atomic_t *v)
{
	return atomic_add_unless(v, 1, 0);
}

/* atomic_dec_if_positive() - decrement unless the result would be negative; returns old - 1. */
static inline int atomic_dec_if_positive(atomic_t *v)
{
	int c = atomic_read(v);
	int dec;

	do {
		dec = c - 1;
		if (dec < 0)
			break;
	} while (!atomic_try_cmpxchg(v, &c, dec));
	return dec;
}
#endif /* KFSIM_COMPAT_LINUX_ATOMIC_H */
