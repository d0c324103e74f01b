/* SPDX-License-Identifier: MIT */
/* <linux/rbtree.h> for kernel code built against kfsim: the kernel's red-black tree, <kfsim/rbtree.h>. */
#ifndef KFSIM_COMPAT_LINUX_RBTREE_H
#define KFSIM_COMPAT_LINUX_RBTREE_H
#include <kfsim/rbtree.h>
#endif /* KFSIM_COMPAT_LINUX_RBTREE_H */
