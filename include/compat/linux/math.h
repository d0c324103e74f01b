/* SPDX-License-Identifier: MIT */
/*
 * <linux/math.h> for kernel code built against kfsim: round_up()/round_down() (powers of two),
 * roundup()/rounddown() (any divisor), DIV_ROUND_CLOSEST() (rounding halves away from zero for
 * signed operands of opposite signs, as the kernel does), DIV_ROUND_UP_ULL(), mult_frac().
 */
#ifndef KFSIM_COMPAT_LINUX_MATH_H
#define KFSIM_COMPAT_LINUX_MATH_H
#include <kfsim/kernel.h>

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
