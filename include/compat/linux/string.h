/* SPDX-License-Identifier: MIT */
/* <linux/string.h> for kernel code built against kfsim: glibc's string functions plus memchr_inv() (lib/string.c), kstrdup()
 * and friends. */
#ifndef KFSIM_COMPAT_LINUX_STRING_H
#define KFSIM_COMPAT_LINUX_STRING_H
#include_next <linux/string.h> /* the uapi header of the same name comes first */
#include <string.h>
#include <kfsim/slab.h>

/** memchr_inv() - the first byte of @start[0..@bytes) that is not @c, or NULL. */
static inline void *memchr_inv(const void *start, int c, size_t bytes)
{
	const unsigned char *p = start;

	for (size_t i = 0; i < bytes; i++)
		if (p[i] != (unsigned char)c)
			return (void *)(p + i);
	return NULL;
}
#endif /* KFSIM_COMPAT_LINUX_STRING_H */
