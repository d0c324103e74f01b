/* SPDX-License-Identifier: MIT */
/* <linux/minmax.h> for kernel code built against kfsim: min(), max(), clamp(), swap() from <kfsim/kernel.h>; min3/max3, umin/umax, clamp_val, min_not_zero, min_array/max_array, in_range, MIN/MAX. */
#ifndef KFSIM_COMPAT_LINUX_MINMAX_H
#define KFSIM_COMPAT_LINUX_MINMAX_H
#include <kfsim/kernel.h>

/* The rest of 6.12's include/linux/minmax.h, with min()'s signedness check where it has one. */
#define __kfsim_careful_op3(op, name, x, y, z)                                                    \
	({                                                                                        \
		__auto_type __kfsim_op3_x = (x);                                                   \
		__auto_type __kfsim_op3_y = (y);                                                   \
		__auto_type __kfsim_op3_z = (z);                                                   \
		_Static_assert(__kfsim_sign_use(x, __kfsim_op3_x) &                                \
				       __kfsim_sign_use(y, __kfsim_op3_y) &                        \
				       __kfsim_sign_use(z, __kfsim_op3_z),                         \
			       #name "3(" #x ", " #y ", " #z ") signedness error");                 \
		__typeof__(__kfsim_op3_x + __kfsim_op3_y + __kfsim_op3_z) __kfsim_op3_a =          \
			__kfsim_op3_x, __kfsim_op3_b = __kfsim_op3_y, __kfsim_op3_c = __kfsim_op3_z;\
		__kfsim_op3_b = __kfsim_op3_b op __kfsim_op3_c ? __kfsim_op3_b : __kfsim_op3_c;    \
		__kfsim_op3_a op __kfsim_op3_b ? __kfsim_op3_a : __kfsim_op3_b;                    \
	})
#define min3(x, y, z) __kfsim_careful_op3(<, min, x, y, z)
#define max3(x, y, z) __kfsim_careful_op3(>, max, x, y, z)
#define umin(x, y) min((x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)
#define umax(x, y) max((x) + 0u + 0ul + 0ull, (y) + 0u + 0ul + 0ull)
#define clamp_val(val, lo, hi) clamp_t(typeof(val), val, lo, hi)
/* min_not_zero(): 0 means "no limit"; the signedness check sees the arguments as written. */
#define min_not_zero(x, y)                                                                        \
	({                                                                                        \
		typeof(x) __kfsim_mnz_x = (x);                                                     \
		typeof(y) __kfsim_mnz_y = (y);                                                     \
		_Static_assert(__kfsim_types_ok(x, __kfsim_mnz_x, y, __kfsim_mnz_y),               \
			       "min(__x, __y) signedness error");                                  \
		__typeof__(__kfsim_mnz_x + __kfsim_mnz_y) __kfsim_mnz_a = __kfsim_mnz_x,           \
						       __kfsim_mnz_b = __kfsim_mnz_y;              \
		__kfsim_mnz_a == 0 ? __kfsim_mnz_b :                                               \
		__kfsim_mnz_b == 0 ? __kfsim_mnz_a :                                               \
		(__kfsim_mnz_a < __kfsim_mnz_b ? __kfsim_mnz_a : __kfsim_mnz_b);                   \
	})
/* min_array()/max_array(): the extreme of @len (> 0) elements, compared with min()/max(). */
#define __kfsim_minmax_array(op, array, len)                                                      \
	({                                                                                        \
		typeof(&(array)[0]) __kfsim_arr = (array);                                         \
		typeof(len) __kfsim_len = (len);                                                   \
		__auto_type __kfsim_elem = __kfsim_arr[--__kfsim_len]; /* unqualified */          \
		while (__kfsim_len--)                                                              \
			__kfsim_elem = op(__kfsim_elem, __kfsim_arr[__kfsim_len]);                 \
		__kfsim_elem;                                                                      \
	})
#define min_array(array, len) __kfsim_minmax_array(min, array, len)
#define max_array(array, len) __kfsim_minmax_array(max, array, len)
/* in_range(): start <= val < start + len, in u32 or u64 arithmetic (wrapping). */
static inline bool in_range64(u64 val, u64 start, u64 len)
{
	return (val - start) < len;
}

static inline bool in_range32(u32 val, u32 start, u32 len)
{
	return (val - start) < len;
}

#define in_range(val, start, len)                                                                 \
	((sizeof(start) | sizeof(len) | sizeof(val)) <= sizeof(u32) ? in_range32(val, start, len) \
								    : in_range64(val, start, len))
/* MIN()/MAX(): for constant expressions (evaluate twice, no checks). */
#ifndef MIN	/* glibc's <sys/param.h> has the same two */
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif
#define MIN_T(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define MAX_T(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#endif /* KFSIM_COMPAT_LINUX_MINMAX_H */
