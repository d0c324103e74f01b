/* SPDX-License-Identifier: MIT */
/* <net/genetlink.h> for kernel code built against kfsim: struct genl_family and genl ops, <kfsim/netlink.h>. */
#ifndef KFSIM_COMPAT_NET_GENETLINK_H
#define KFSIM_COMPAT_NET_GENETLINK_H
#include <kfsim/netlink.h>
#endif /* KFSIM_COMPAT_NET_GENETLINK_H */
