/* SPDX-License-Identifier: MIT */
/* <linux/errname.h> for kernel code built against kfsim: errname(), <kfsim/err.h>. */
#ifndef KFSIM_COMPAT_LINUX_ERRNAME_H
#define KFSIM_COMPAT_LINUX_ERRNAME_H
#include <kfsim/err.h>
#endif /* KFSIM_COMPAT_LINUX_ERRNAME_H */
