/* SPDX-License-Identifier: MIT */
/* <linux/build_bug.h> for kernel code built against kfsim: BUILD_BUG_ON() from <kfsim/kernel.h>, and static_assert() whose
 * message is optional (include/linux/build_bug.h), where C11's <assert.h> requires one. */
#ifndef KFSIM_COMPAT_LINUX_BUILD_BUG_H
#define KFSIM_COMPAT_LINUX_BUILD_BUG_H
#include <assert.h>
#include <kfsim/kernel.h>
#undef static_assert
#define static_assert(expr, ...) __kfsim_static_assert(expr, ##__VA_ARGS__, #expr)
#define __kfsim_static_assert(expr, msg, ...) _Static_assert(expr, msg)
/* BUILD_BUG_ON_ZERO() - 0, or a build failure when @e is true (usable inside expressions). */
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))
#endif /* KFSIM_COMPAT_LINUX_BUILD_BUG_H */
