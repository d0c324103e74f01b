/* SPDX-License-Identifier: MIT */
/* <linux/cleanup.h> for kernel code built against kfsim: __free(), guard(), scoped_guard(), DEFINE_*(), <kfsim/cleanup.h>. */
#ifndef KFSIM_COMPAT_LINUX_CLEANUP_H
#define KFSIM_COMPAT_LINUX_CLEANUP_H
#include <kfsim/cleanup.h>
#endif /* KFSIM_COMPAT_LINUX_CLEANUP_H */
