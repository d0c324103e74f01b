/* SPDX-License-Identifier: MIT */
/* <linux/refcount_types.h> for kernel code built against kfsim: refcount_t, <kfsim/refcount.h>. */
#ifndef KFSIM_COMPAT_LINUX_REFCOUNT_TYPES_H
#define KFSIM_COMPAT_LINUX_REFCOUNT_TYPES_H
#include <kfsim/refcount.h>
#endif /* KFSIM_COMPAT_LINUX_REFCOUNT_TYPES_H */
