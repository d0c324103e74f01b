/* SPDX-License-Identifier: MIT */
/* <linux/bug.h> for kernel code built against kfsim: WARN*(), BUG*(), BUILD_BUG_ON(), <kfsim/bug.h>. */
#ifndef KFSIM_COMPAT_LINUX_BUG_H
#define KFSIM_COMPAT_LINUX_BUG_H
#include <linux/build_bug.h>
#include <kfsim/bug.h>
#endif /* KFSIM_COMPAT_LINUX_BUG_H */
