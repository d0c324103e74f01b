/* SPDX-License-Identifier: MIT */
/* <linux/bits.h> for kernel code built against kfsim: BIT(), BIT_ULL() from <kfsim/kernel.h>,
 * and GENMASK()/GENMASK_ULL() with the kernel's compile-time check that the high bit is not below
 * the low one (for constant arguments; GENMASK_INPUT_CHECK() is 0 otherwise). */
#ifndef KFSIM_COMPAT_LINUX_BITS_H
#define KFSIM_COMPAT_LINUX_BITS_H
#include <linux/build_bug.h>
#include <kfsim/kernel.h>

#define BITS_PER_BYTE 8
#define BITS_PER_LONG (8 * (int)sizeof(long))
#define BITS_PER_LONG_LONG 64
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_ULL_MASK(nr) (1ULL << ((nr) % BITS_PER_LONG_LONG))
#define BIT_ULL_WORD(nr) ((nr) / BITS_PER_LONG_LONG)

/* 0, or a build failure when constant @h < @l */
#define GENMASK_INPUT_CHECK(h, l)                                                                 \
	BUILD_BUG_ON_ZERO(__builtin_choose_expr(__builtin_constant_p((l) > (h)), (l) > (h), 0))
#define __KFSIM_GENMASK(h, l) (((~0UL) << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define __KFSIM_GENMASK_ULL(h, l) (((~0ULL) << (l)) & (~0ULL >> (BITS_PER_LONG_LONG - 1 - (h))))
#undef GENMASK
#define GENMASK(h, l) (GENMASK_INPUT_CHECK(h, l) + __KFSIM_GENMASK(h, l))
#define GENMASK_ULL(h, l) (GENMASK_INPUT_CHECK(h, l) + __KFSIM_GENMASK_ULL(h, l))
#endif /* KFSIM_COMPAT_LINUX_BITS_H */
