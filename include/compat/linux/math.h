/* SPDX-License-Identifier: MIT */
/*
 * <linux/math.h> for kernel code built against kfsim: round_up()/round_down() (powers of two),
 * roundup()/rounddown() (any divisor), DIV_ROUND_CLOSEST() (rounding halves away from zero for
 * signed operands of opposite signs, as the kernel does), DIV_ROUND_UP_ULL(), mult_frac(), abs()
 * (type-generic), abs_diff().
 */
#ifndef KFSIM_COMPAT_LINUX_MATH_H
#define KFSIM_COMPAT_LINUX_MATH_H
#include <stdlib.h>	/* first: its int abs() is replaced by the kernel's type-generic one below */
#include <kfsim/kernel.h>

/*
 * abs() keeps its argument's signed type (long long, long, int, short, signed char; plain char,
 * unsigned under -funsigned-char, is taken as signed char), as 6.12's; glibc's int abs() would
 * truncate a long.  An unsigned argument is an error (the kernel's gives void).
 */
#undef abs
#define __kfsim_abs_as(x, type, other)                                                            \
	__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(x), signed type) ||         \
				      __builtin_types_compatible_p(__typeof__(x), unsigned type),   \
			      ({                                                                  \
				      signed type __kfsim_abs_x = (x);                            \
				      __kfsim_abs_x < 0 ? -__kfsim_abs_x : __kfsim_abs_x;         \
			      }),                                                                 \
			      other)
#define abs(x)                                                                                    \
	__kfsim_abs_as(x, long long, __kfsim_abs_as(x, long, __kfsim_abs_as(x, int,               \
		__kfsim_abs_as(x, short, __kfsim_abs_as(x, char,                                  \
		__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(x), char),          \
			(char)({ signed char __kfsim_abs_c = (x);                                 \
				 __kfsim_abs_c < 0 ? -__kfsim_abs_c : __kfsim_abs_c; }),          \
			(void)0))))))
/* abs_diff() - |a - b| without overflow, for two values of the same type. */
#define abs_diff(a, b)                                                                            \
	({                                                                                        \
		__typeof__(a) __kfsim_ad_a = (a);                                                 \
		__typeof__(b) __kfsim_ad_b = (b);                                                 \
		(void)(&__kfsim_ad_a == &__kfsim_ad_b);                                           \
		__kfsim_ad_a > __kfsim_ad_b ? (__kfsim_ad_a - __kfsim_ad_b)                       \
					    : (__kfsim_ad_b - __kfsim_ad_a);                      \
	})

#define __round_mask(x, y) ((__typeof__(x))((y) - 1))
#define round_up(x, y) ((((x) - 1) | __round_mask(x, y)) + 1)
#define round_down(x, y) ((x) & ~__round_mask(x, y))
#define roundup(x, y)                                                                             \
	({                                                                                        \
		typeof(y) __y = y;                                                                \
		(((x) + (__y - 1)) / __y) * __y;                                                  \
	})
#define rounddown(x, y)                                                                           \
	({                                                                                        \
		typeof(x) __x = (x);                                                              \
		__x - (__x % (y));                                                                \
	})
#define DIV_ROUND_DOWN_ULL(ll, d)                                                                 \
	({                                                                                        \
		unsigned long long _tmp = (ll);                                                   \
		_tmp / (d);                                                                       \
	})
#define DIV_ROUND_UP_ULL(ll, d) DIV_ROUND_DOWN_ULL((unsigned long long)(ll) + (d) - 1, (d))
#define DIV_ROUND_CLOSEST(x, divisor)                                                             \
	({                                                                                        \
		typeof(x) __x = x;                                                                \
		typeof(divisor) __d = divisor;                                                    \
		(((typeof(x))-1) > 0 || ((typeof(divisor))-1) > 0 ||                             \
		 (((__x) > 0) == ((__d) > 0))) ?                                                  \
			(((__x) + ((__d) / 2)) / (__d)) :                                         \
			(((__x) - ((__d) / 2)) / (__d));                                          \
	})
#define mult_frac(x, n, d)                                                                        \
	({                                                                                        \
		typeof(x) x_ = (x);                                                               \
		typeof(n) n_ = (n);                                                               \
		typeof(d) d_ = (d);                                                               \
		typeof(x_) q = x_ / d_;                                                           \
		typeof(x_) r = x_ % d_;                                                           \
		q * n_ + r * n_ / d_;                                                             \
	})
#endif /* KFSIM_COMPAT_LINUX_MATH_H */
