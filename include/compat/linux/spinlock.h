/* SPDX-License-Identifier: MIT */
/* <linux/spinlock.h> for kernel code built against kfsim: spinlock_t and its guards, <kfsim/spinlock.h> and
 * <kfsim/cleanup.h>. */
#ifndef KFSIM_COMPAT_LINUX_SPINLOCK_H
#define KFSIM_COMPAT_LINUX_SPINLOCK_H
#include <linux/export.h>	/* the kernel's comes through <linux/linkage.h> */
#include <kfsim/spinlock.h>
#include <kfsim/cleanup.h>
#endif /* KFSIM_COMPAT_LINUX_SPINLOCK_H */
