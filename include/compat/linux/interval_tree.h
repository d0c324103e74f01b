/* SPDX-License-Identifier: MIT */
/* <linux/interval_tree.h> for kernel code built against kfsim: struct interval_tree_node and its functions, <kfsim/interval_tree.h>. */
#ifndef KFSIM_COMPAT_LINUX_INTERVAL_TREE_H
#define KFSIM_COMPAT_LINUX_INTERVAL_TREE_H
#include <kfsim/interval_tree.h>
#endif /* KFSIM_COMPAT_LINUX_INTERVAL_TREE_H */
