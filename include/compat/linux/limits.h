/* SPDX-License-Identifier: MIT */
/* <linux/limits.h> for kernel code built against kfsim: the uapi header of the same name, C's
 * <limits.h> (LLONG_MIN ...) and the kernel's U8_MAX .. S64_MIN of the fixed-width types. */
#ifndef KFSIM_COMPAT_LINUX_LIMITS_H
#define KFSIM_COMPAT_LINUX_LIMITS_H
#include_next <linux/limits.h> /* the uapi header of the same name comes first */
#include <limits.h>
#include <stdint.h>
#include <kfsim/types.h>

#ifndef U8_MAX
#define U8_MAX ((u8)~0U)
#define S8_MAX ((s8)(U8_MAX >> 1))
#define S8_MIN ((s8)(-S8_MAX - 1))
#define U16_MAX ((u16)~0U)
#define S16_MAX ((s16)(U16_MAX >> 1))
#define S16_MIN ((s16)(-S16_MAX - 1))
#define U32_MAX ((u32)~0U)
#define U32_MIN ((u32)0)
#define S32_MAX ((s32)(U32_MAX >> 1))
#define S32_MIN ((s32)(-S32_MAX - 1))
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif
#ifndef S64_MAX
#define S64_MAX ((s64)(U64_MAX >> 1))
#define S64_MIN ((s64)(-S64_MAX - 1))
#endif
#endif /* KFSIM_COMPAT_LINUX_LIMITS_H */
