/* SPDX-License-Identifier: MIT */
/*
 * <ynl.h> for programs written against the kernel's YNL C library (tools/net/ynl/lib/ynl.h,
 * Linux 6.12), such as the samples in tools/net/ynl/samples: build them with -I<kfsim>/include/compat
 * and kfsim-ynl-gen's F-user.{h,c}, link libkfsim, and they run unchanged on the running
 * kernel or, with KFSIM_KERNEL set, on kfsim's (see <kfsim/ynl.h> and docs/ynl.md).
 */
#ifndef KFSIM_COMPAT_YNL_H
#define KFSIM_COMPAT_YNL_H
#include <kfsim/ynl.h>
#endif
