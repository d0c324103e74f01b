/* SPDX-License-Identifier: MIT */
/* <linux/math64.h> for kernel code built against kfsim: div_u64() and friends, do_div(), <kfsim/kernel.h>. */
#ifndef KFSIM_COMPAT_LINUX_MATH64_H
#define KFSIM_COMPAT_LINUX_MATH64_H
#include <kfsim/kernel.h>
#endif /* KFSIM_COMPAT_LINUX_MATH64_H */
