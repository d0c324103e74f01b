/* SPDX-License-Identifier: MIT */
/* <linux/minmax.h> for kernel code built against kfsim: min(), max(), clamp(), swap(), <kfsim/kernel.h>. */
#ifndef KFSIM_COMPAT_LINUX_MINMAX_H
#define KFSIM_COMPAT_LINUX_MINMAX_H
#include <kfsim/kernel.h>
#endif /* KFSIM_COMPAT_LINUX_MINMAX_H */
