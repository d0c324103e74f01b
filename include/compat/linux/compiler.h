/* SPDX-License-Identifier: MIT */
/* <linux/compiler.h> for kernel code built against kfsim: likely(), READ_ONCE(), __always_inline ..., <kfsim/kernel.h>. */
#ifndef KFSIM_COMPAT_LINUX_COMPILER_H
#define KFSIM_COMPAT_LINUX_COMPILER_H
#include <kfsim/kernel.h>
#ifndef __section
#define __section(s) __attribute__((__section__(s)))
#endif
#ifndef noinline
#define noinline __attribute__((__noinline__))
#endif
/* is_signed_type() - whether @type is signed (char is not: the kernel builds with -funsigned-char) */
#define is_signed_type(type) (((type)(-1)) < (type)1)
#define is_unsigned_type(type) (!is_signed_type(type))
/* The kernel builds with -fno-strict-overflow; __signed_wrap only tells UBSan a wrap is meant. */
#ifndef __signed_wrap
#define __signed_wrap __attribute__((no_sanitize("signed-integer-overflow")))
#endif
/* sparse's lock-context annotations (include/linux/compiler_types.h): nothing to the compiler */
#ifndef __acquires
#define __acquires(x)
#define __releases(x)
#define __cond_acquires(x)
#define __must_hold(x)
#endif
#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif
#endif /* KFSIM_COMPAT_LINUX_COMPILER_H */
