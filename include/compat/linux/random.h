/* SPDX-License-Identifier: MIT */
/* <linux/random.h> for kernel code built against kfsim: the uapi random.h plus get_random_*() and the seeded prandom
 * generator (6.12's random.h includes prandom.h), <kfsim/random.h>. */
#ifndef KFSIM_COMPAT_LINUX_RANDOM_H
#define KFSIM_COMPAT_LINUX_RANDOM_H
#include_next <linux/random.h> /* the uapi header of the same name comes first */
#include <kfsim/random.h>
#endif /* KFSIM_COMPAT_LINUX_RANDOM_H */
