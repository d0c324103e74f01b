/* SPDX-License-Identifier: MIT */
/* <linux/limits.h> for kernel code built against kfsim: the uapi header of the same name, C's
 * <limits.h> (LLONG_MIN ...) and the kernel's U8_MAX .. S64_MIN of the fixed-width types
 * (<kfsim/kernel.h>). */
#ifndef KFSIM_COMPAT_LINUX_LIMITS_H
#define KFSIM_COMPAT_LINUX_LIMITS_H
#include_next <linux/limits.h> /* the uapi header of the same name comes first */
#include <limits.h>
#include <stdint.h>
#include <kfsim/kernel.h>	/* U8_MAX .. S64_MIN, defined once there */

#endif /* KFSIM_COMPAT_LINUX_LIMITS_H */
