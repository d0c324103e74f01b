/* SPDX-License-Identifier: MIT */
/* <linux/printk.h> for kernel code built against kfsim: printk() and pr_*(), <kfsim/printk.h>. */
#ifndef KFSIM_COMPAT_LINUX_PRINTK_H
#define KFSIM_COMPAT_LINUX_PRINTK_H
#include <kfsim/printk.h>
#endif /* KFSIM_COMPAT_LINUX_PRINTK_H */
