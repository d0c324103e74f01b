/* SPDX-License-Identifier: MIT */
/* <linux/container_of.h> for kernel code built against kfsim: container_of(), <kfsim/kernel.h>. */
#ifndef KFSIM_COMPAT_LINUX_CONTAINER_OF_H
#define KFSIM_COMPAT_LINUX_CONTAINER_OF_H
#include <kfsim/kernel.h>
#endif /* KFSIM_COMPAT_LINUX_CONTAINER_OF_H */
