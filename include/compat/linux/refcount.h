/* SPDX-License-Identifier: MIT */
/* <linux/refcount.h> for kernel code built against kfsim: refcount_t, <kfsim/refcount.h>. */
#ifndef KFSIM_COMPAT_LINUX_REFCOUNT_H
#define KFSIM_COMPAT_LINUX_REFCOUNT_H
#include <kfsim/refcount.h>
#endif /* KFSIM_COMPAT_LINUX_REFCOUNT_H */
