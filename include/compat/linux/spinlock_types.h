/* SPDX-License-Identifier: MIT */
/* <linux/spinlock_types.h> for kernel code built against kfsim: spinlock_t, <kfsim/spinlock.h>. */
#ifndef KFSIM_COMPAT_LINUX_SPINLOCK_TYPES_H
#define KFSIM_COMPAT_LINUX_SPINLOCK_TYPES_H
#include <kfsim/spinlock.h>
#endif /* KFSIM_COMPAT_LINUX_SPINLOCK_TYPES_H */
