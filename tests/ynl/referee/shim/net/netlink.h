/* SPDX-License-Identifier: MIT */
/* What the kernel's generated files take from <net/netlink.h>: kfsim's kernel-side netlink. */
#ifndef KFSIM_REFEREE_NET_NETLINK_H
#define KFSIM_REFEREE_NET_NETLINK_H
#include <kfsim/kernel.h>
#include <kfsim/netlink.h>
#ifndef THIS_MODULE
#define THIS_MODULE NULL
#endif
#define __ro_after_init
/* include/linux/limits.h */
#ifndef U8_MAX
#define U8_MAX ((u8)~0U)
#endif
#ifndef U16_MAX
#define U16_MAX ((u16)~0U)
#endif
#ifndef U32_MAX
#define U32_MAX ((u32)~0U)
#endif
#ifndef U64_MAX
#define U64_MAX ((u64)~0ULL)
#endif
#ifndef S8_MAX
#define S8_MAX ((s8)(U8_MAX >> 1))
#define S8_MIN ((s8)(-S8_MAX - 1))
#endif
#ifndef S16_MAX
#define S16_MAX ((s16)(U16_MAX >> 1))
#define S16_MIN ((s16)(-S16_MAX - 1))
#endif
#ifndef S32_MAX
#define S32_MAX ((s32)(U32_MAX >> 1))
#define S32_MIN ((s32)(-S32_MAX - 1))
#endif
#ifndef S64_MAX
#define S64_MAX ((s64)(U64_MAX >> 1))
#define S64_MIN ((s64)(-S64_MAX - 1))
#endif
#endif
