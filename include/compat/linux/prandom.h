/* SPDX-License-Identifier: MIT */
/* <linux/prandom.h> for kernel code built against kfsim: struct rnd_state, prandom_seed_state(), prandom_u32_state(),
 * <kfsim/random.h>. */
#ifndef KFSIM_COMPAT_LINUX_PRANDOM_H
#define KFSIM_COMPAT_LINUX_PRANDOM_H
#include <kfsim/random.h>
#endif /* KFSIM_COMPAT_LINUX_PRANDOM_H */
