/* SPDX-License-Identifier: MIT */
/* <linux/kstrtox.h> for kernel code built against kfsim: kstrto*() and simple_strto*(), <kfsim/kernel.h>. */
#ifndef KFSIM_COMPAT_LINUX_KSTRTOX_H
#define KFSIM_COMPAT_LINUX_KSTRTOX_H
#include <kfsim/kernel.h>
#endif /* KFSIM_COMPAT_LINUX_KSTRTOX_H */
