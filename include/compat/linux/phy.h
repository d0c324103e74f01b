/* SPDX-License-Identifier: MIT */
/* <linux/phy.h> for kernel code built against kfsim: struct phy_device, PLCA configuration and status, <kfsim/phy.h>. */
#ifndef KFSIM_COMPAT_LINUX_PHY_H
#define KFSIM_COMPAT_LINUX_PHY_H
#include <kfsim/phy.h>
#endif /* KFSIM_COMPAT_LINUX_PHY_H */
