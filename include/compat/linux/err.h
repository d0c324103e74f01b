/* SPDX-License-Identifier: MIT */
/* <linux/err.h> for kernel code built against kfsim: ERR_PTR() and friends, <kfsim/err.h>. */
#ifndef KFSIM_COMPAT_LINUX_ERR_H
#define KFSIM_COMPAT_LINUX_ERR_H
#include <kfsim/err.h>
#endif /* KFSIM_COMPAT_LINUX_ERR_H */
