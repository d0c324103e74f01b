/* SPDX-License-Identifier: MIT */
/* <linux/wordpart.h> for kernel code built against kfsim: upper/lower_32_bits(), upper/lower_16_bits(). */
#ifndef KFSIM_COMPAT_LINUX_WORDPART_H
#define KFSIM_COMPAT_LINUX_WORDPART_H
#include <kfsim/types.h>

/* two shifts of 16: no warning when @n is a 32-bit value */
#define upper_32_bits(n) ((u32)(((n) >> 16) >> 16))
#define lower_32_bits(n) ((u32)((n) & 0xffffffff))
#define upper_16_bits(n) ((u16)((n) >> 16))
#define lower_16_bits(n) ((u16)((n) & 0xffff))
#endif /* KFSIM_COMPAT_LINUX_WORDPART_H */
