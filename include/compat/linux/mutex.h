/* SPDX-License-Identifier: MIT */
/* <linux/mutex.h> for kernel code built against kfsim: struct mutex and its guards, <kfsim/mutex.h> and <kfsim/cleanup.h>. */
#ifndef KFSIM_COMPAT_LINUX_MUTEX_H
#define KFSIM_COMPAT_LINUX_MUTEX_H
#include <linux/export.h>	/* the kernel's comes through <linux/linkage.h> */
#include <kfsim/mutex.h>
#include <kfsim/cleanup.h>
#endif /* KFSIM_COMPAT_LINUX_MUTEX_H */
