/* SPDX-License-Identifier: MIT */
/* <linux/align.h> for kernel code built against kfsim: ALIGN(), ALIGN_DOWN(), PTR_ALIGN(), IS_ALIGNED(). */
#ifndef KFSIM_COMPAT_LINUX_ALIGN_H
#define KFSIM_COMPAT_LINUX_ALIGN_H
#include <linux/const.h> /* the uapi __ALIGN_KERNEL() the kernel builds these on */

#define ALIGN(x, a) __ALIGN_KERNEL((x), (a))
#define ALIGN_DOWN(x, a) __ALIGN_KERNEL((x) - ((a) - 1), (a))
#define __ALIGN_MASK(x, mask) __ALIGN_KERNEL_MASK((x), (mask))
#define PTR_ALIGN(p, a) ((typeof(p))ALIGN((unsigned long)(p), (a)))
#define PTR_ALIGN_DOWN(p, a) ((typeof(p))ALIGN_DOWN((unsigned long)(p), (a)))
#define PTR_IS_ALIGNED(x, a) IS_ALIGNED((unsigned long)(x), (a))
#define IS_ALIGNED(x, a) (((x) & ((typeof(x))(a) - 1)) == 0)
#endif /* KFSIM_COMPAT_LINUX_ALIGN_H */
