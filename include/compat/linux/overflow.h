/* SPDX-License-Identifier: MIT */
/*
 * <linux/overflow.h> for kernel code built against kfsim: check_{add,sub,mul}_overflow() (true
 * when the result did not fit *@d), and the saturating size helpers size_mul(), size_add(),
 * size_sub(), array_size(), array3_size(), flex_array_size(), struct_size(), struct_size_t():
 * SIZE_MAX on overflow, so an allocation of the result fails instead of being too small.
 */
#ifndef KFSIM_COMPAT_LINUX_OVERFLOW_H
#define KFSIM_COMPAT_LINUX_OVERFLOW_H
#include <stdbool.h>
#include <stdint.h>
#include <kfsim/kernel.h>

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d) __builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)

static inline size_t __attribute__((warn_unused_result)) size_mul(size_t factor1, size_t factor2)
{
	size_t bytes;

	if (check_mul_overflow(factor1, factor2, &bytes))
		return SIZE_MAX;
	return bytes;
}

static inline size_t __attribute__((warn_unused_result)) size_add(size_t addend1, size_t addend2)
{
	size_t bytes;

	if (check_add_overflow(addend1, addend2, &bytes))
		return SIZE_MAX;
	return bytes;
}

static inline size_t __attribute__((warn_unused_result)) size_sub(size_t minuend, size_t subtrahend)
{
	size_t bytes;

	/* SIZE_MAX stays SIZE_MAX: an earlier overflow is not undone */
	if (minuend == SIZE_MAX || subtrahend == SIZE_MAX ||
	    check_sub_overflow(minuend, subtrahend, &bytes))
		return SIZE_MAX;
	return bytes;
}

#define array_size(a, b) size_mul(a, b)
#define array3_size(a, b, c) size_mul(size_mul(a, b), c)
#define flex_array_size(p, member, count)                                                         \
	size_mul(count, sizeof(*(p)->member) + 0 * __must_be_array((p)->member))
#define struct_size(p, member, count) size_add(sizeof(*(p)), flex_array_size(p, member, count))
#define struct_size_t(type, member, count) struct_size((type *)NULL, member, count)
#endif /* KFSIM_COMPAT_LINUX_OVERFLOW_H */
