/* SPDX-License-Identifier: MIT */
/* <linux/rbtree_augmented.h> for kernel code built against kfsim: augmented trees and RB_DECLARE_CALLBACKS*(), <kfsim/rbtree_augmented.h>. */
#ifndef KFSIM_COMPAT_LINUX_RBTREE_AUGMENTED_H
#define KFSIM_COMPAT_LINUX_RBTREE_AUGMENTED_H
#include <kfsim/rbtree_augmented.h>
#endif /* KFSIM_COMPAT_LINUX_RBTREE_AUGMENTED_H */
