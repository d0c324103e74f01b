/* SPDX-License-Identifier: MIT */
/* <linux/log2.h> for kernel code built against kfsim: ilog2(), roundup_pow_of_two(), is_power_of_2(), <kfsim/kernel.h>. */
#ifndef KFSIM_COMPAT_LINUX_LOG2_H
#define KFSIM_COMPAT_LINUX_LOG2_H
#include <kfsim/kernel.h>
#endif /* KFSIM_COMPAT_LINUX_LOG2_H */
