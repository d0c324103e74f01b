/* SPDX-License-Identifier: MIT */
/* <linux/interval_tree_generic.h> for kernel code built against kfsim: INTERVAL_TREE_DEFINE(), <kfsim/interval_tree_generic.h>. */
#ifndef KFSIM_COMPAT_LINUX_INTERVAL_TREE_GENERIC_H
#define KFSIM_COMPAT_LINUX_INTERVAL_TREE_GENERIC_H
#include <kfsim/interval_tree_generic.h>
#endif /* KFSIM_COMPAT_LINUX_INTERVAL_TREE_GENERIC_H */
