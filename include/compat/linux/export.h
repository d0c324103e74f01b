/* SPDX-License-Identifier: MIT */
/* <linux/export.h> for kernel code built against kfsim: EXPORT_SYMBOL*() have nothing to export from a userspace program. */
#ifndef KFSIM_COMPAT_LINUX_EXPORT_H
#define KFSIM_COMPAT_LINUX_EXPORT_H
#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#endif /* KFSIM_COMPAT_LINUX_EXPORT_H */
