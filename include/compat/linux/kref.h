/* SPDX-License-Identifier: MIT */
/* <linux/kref.h> for kernel code built against kfsim: struct kref, <kfsim/kref.h>. */
#ifndef KFSIM_COMPAT_LINUX_KREF_H
#define KFSIM_COMPAT_LINUX_KREF_H
#include <kfsim/kref.h>
#endif /* KFSIM_COMPAT_LINUX_KREF_H */
