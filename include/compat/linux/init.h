/* SPDX-License-Identifier: MIT */
/* <linux/init.h> for kernel code built against kfsim: __init and friends (no init sections in userspace: the code stays). */
#ifndef KFSIM_COMPAT_LINUX_INIT_H
#define KFSIM_COMPAT_LINUX_INIT_H
#define __init
#define __exit
#define __initdata
#define __exitdata
#define __initconst
#define __init_or_module
#endif /* KFSIM_COMPAT_LINUX_INIT_H */
