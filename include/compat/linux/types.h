/* SPDX-License-Identifier: MIT */
/* <linux/types.h> for kernel code built against kfsim: the uapi __u32 types plus u8..s64, bool and size_t,
 * <kfsim/types.h> (uint, ulong come from glibc's <sys/types.h>). */
#ifndef KFSIM_COMPAT_LINUX_TYPES_H
#define KFSIM_COMPAT_LINUX_TYPES_H
#include_next <linux/types.h> /* the uapi header of the same name comes first */
#include <kfsim/types.h>
#endif /* KFSIM_COMPAT_LINUX_TYPES_H */
