/* SPDX-License-Identifier: MIT */
/* <linux/minmax.h> for kernel code built against kfsim: min(), max(), clamp(), swap() from <kfsim/kernel.h>; min3/max3, umin/umax, clamp_val, min_not_zero. */
#ifndef KFSIM_COMPAT_LINUX_MINMAX_H
#define KFSIM_COMPAT_LINUX_MINMAX_H
#include <kfsim/kernel.h>

/* The rest of include/linux/minmax.h that kernel code uses. */
#define __kfsim_op3(op, x, y, z)                                                                  \
	({                                                                                        \
		__auto_type __kfsim_op3_a = (x);                                                   \
		__auto_type __kfsim_op3_b = (y);                                                   \
		__auto_type __kfsim_op3_c = (z);                                                   \
		__auto_type __kfsim_op3_ab =                                                       \
			__kfsim_op3_a op __kfsim_op3_b ? __kfsim_op3_a : __kfsim_op3_b;            \
		__kfsim_op3_ab op __kfsim_op3_c ? __kfsim_op3_ab : __kfsim_op3_c;                  \
	})
#define min3(x, y, z) __kfsim_op3(<, x, y, z)
#define max3(x, y, z) __kfsim_op3(>, x, y, z)
#define umin(x, y) min((x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)
#define umax(x, y) max((x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)
#define clamp_val(val, lo, hi) clamp_t(typeof(val), val, lo, hi)
#define min_not_zero(x, y)                                                                        \
	({                                                                                        \
		typeof(x) __kfsim_mnz_x = (x);                                                     \
		typeof(y) __kfsim_mnz_y = (y);                                                     \
		__kfsim_mnz_x == 0 ? __kfsim_mnz_y :                                               \
				     (__kfsim_mnz_y == 0 ? __kfsim_mnz_x :                         \
							   min(__kfsim_mnz_x, __kfsim_mnz_y)); \
	})
#endif /* KFSIM_COMPAT_LINUX_MINMAX_H */
