/* SPDX-License-Identifier: MIT */
/* <linux/kernel.h> for kernel code built against kfsim: what the kernel's kernel.h gathers: <kfsim/kernel.h>
 * (container_of, min/max, ARRAY_SIZE, kstrto*(), div_u64(), ilog2()), printk, WARN/BUG, the
 * lib/cmdline.c helpers (get_option(), memparse(), next_arg()), sprintf() and scnprintf(),
 * static_assert(). */
#ifndef KFSIM_COMPAT_LINUX_KERNEL_H
#define KFSIM_COMPAT_LINUX_KERNEL_H
#include_next <linux/kernel.h> /* the uapi header of the same name comes first */
#include <linux/align.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/sprintf.h>
#include <linux/types.h>
#include <linux/wordpart.h>
#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#endif /* KFSIM_COMPAT_LINUX_KERNEL_H */
