/* SPDX-License-Identifier: MIT */
/* <linux/errno.h> for kernel code built against kfsim: the uapi errno numbers plus the kernel-internal ones
 * (ERESTARTSYS .. ENOGRACE) and errname(), <kfsim/err.h>. */
#ifndef KFSIM_COMPAT_LINUX_ERRNO_H
#define KFSIM_COMPAT_LINUX_ERRNO_H
#include_next <linux/errno.h> /* the uapi header of the same name comes first */
#include <kfsim/err.h>
#endif /* KFSIM_COMPAT_LINUX_ERRNO_H */
