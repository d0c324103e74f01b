/* SPDX-License-Identifier: MIT */
/* <linux/sprintf.h> for kernel code built against kfsim: glibc's sprintf()/snprintf(), and
 * scnprintf()/vscnprintf() which return what was written, not what would have been. */
#ifndef KFSIM_COMPAT_LINUX_SPRINTF_H
#define KFSIM_COMPAT_LINUX_SPRINTF_H
#include <stdarg.h>
#include <stdio.h>

static inline int vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int n = vsnprintf(buf, size, fmt, args);

	if (n < 0 || !size)
		return 0;
	return (size_t)n < size ? n : (int)(size - 1);
}

static inline __attribute__((format(printf, 3, 4))) int scnprintf(char *buf, size_t size,
								   const char *fmt, ...)
{
	va_list args;
	int n;

	va_start(args, fmt);
	n = vscnprintf(buf, size, fmt, args);
	va_end(args);
	return n;
}
#endif /* KFSIM_COMPAT_LINUX_SPRINTF_H */
