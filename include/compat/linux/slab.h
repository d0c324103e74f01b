/* SPDX-License-Identifier: MIT */
/* <linux/slab.h> for kernel code built against kfsim: kmalloc() and friends, <kfsim/slab.h>
 * (__free(kfree) comes with <linux/cleanup.h>, as the kernel's slab.h gives it). */
#ifndef KFSIM_COMPAT_LINUX_SLAB_H
#define KFSIM_COMPAT_LINUX_SLAB_H
#include <linux/kernel.h>
#include <kfsim/slab.h>
#include <kfsim/cleanup.h>
#endif /* KFSIM_COMPAT_LINUX_SLAB_H */
