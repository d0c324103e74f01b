/* SPDX-License-Identifier: MIT */
/* <linux/string.h> for kernel code built against kfsim: glibc's string functions plus memchr_inv() and strscpy() (lib/string.c), kstrdup()
 * and friends. */
#ifndef KFSIM_COMPAT_LINUX_STRING_H
#define KFSIM_COMPAT_LINUX_STRING_H
#include_next <linux/string.h> /* the uapi header of the same name comes first */
#include <limits.h>
#include <string.h>
#include <sys/types.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
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

/**
 * sized_strscpy() - lib/string.c's strscpy() with an explicit size
 *
 * Copies at most @count - 1 characters and always NUL-terminates (unless @count is 0).
 * Return: the characters copied, or -E2BIG when @src did not fit (or @count is 0 or above
 * INT_MAX, the kernel's WARN_ON_ONCE case).
 */
static inline ssize_t sized_strscpy(char *dest, const char *src, size_t count)
{
	size_t len;

	if (count == 0 || count > INT_MAX)
		return -E2BIG;
	len = strnlen(src, count);
	if (len == count) {	/* truncated */
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return (ssize_t)len;
}

/** sized_strscpy_pad() - sized_strscpy(), then zero the rest of @dest. */
static inline ssize_t sized_strscpy_pad(char *dest, const char *src, size_t count)
{
	ssize_t written = sized_strscpy(dest, src, count);

	if (written < 0 || (size_t)written == count - 1)
		return written;
	memset(dest + written + 1, 0, count - written - 1);
	return written;
}

/* strscpy(dst, src) takes the size of the array @dst; strscpy(dst, src, size) an explicit one. */
#define __kfsim_strscpy_pick(_1, _2, _3, name, ...) name
#define __kfsim_strscpy2(dst, src) sized_strscpy(dst, src, sizeof(dst) + __must_be_array(dst))
#define __kfsim_strscpy3(dst, src, size) sized_strscpy(dst, src, size)
#define strscpy(...) __kfsim_strscpy_pick(__VA_ARGS__, __kfsim_strscpy3, __kfsim_strscpy2, )(__VA_ARGS__)
#define __kfsim_strscpy_pad2(dst, src)                                                            \
	sized_strscpy_pad(dst, src, sizeof(dst) + __must_be_array(dst))
#define __kfsim_strscpy_pad3(dst, src, size) sized_strscpy_pad(dst, src, size)
#define strscpy_pad(...)                                                                          \
	__kfsim_strscpy_pick(__VA_ARGS__, __kfsim_strscpy_pad3, __kfsim_strscpy_pad2, )(__VA_ARGS__)
#endif /* KFSIM_COMPAT_LINUX_STRING_H */
