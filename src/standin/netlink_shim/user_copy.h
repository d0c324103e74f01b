/* SPDX-License-Identifier: MIT */
/* The program's memory read and written as the kernel does it (user_copy.c). */
#ifndef KFSIM_NETLINK_SHIM_USER_COPY_H
#define KFSIM_NETLINK_SHIM_USER_COPY_H

#include <stddef.h>

/* The shim's own, not exported (why: host_guard.h). */
#pragma GCC visibility push(hidden)

/*
 * Copy @len bytes of the program's memory at @src to @dst, as copy_from_user() does: 0, or
 * -EFAULT when the program may not read them.  errno is left as it was.
 */
int shim_copy_from_user(void *dst, const void *src, size_t len);

/* Copy @len bytes from @src to the program's memory at @dst, as copy_to_user(): 0 or -EFAULT. */
int shim_copy_to_user(void *dst, const void *src, size_t len);

#pragma GCC visibility pop

#endif
