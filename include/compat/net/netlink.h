/* SPDX-License-Identifier: MIT */
/* <net/netlink.h> for kernel code built against kfsim: attributes, policies and extack, the kernel side of <kfsim/netlink.h>. */
#ifndef KFSIM_COMPAT_NET_NETLINK_H
#define KFSIM_COMPAT_NET_NETLINK_H
#include <kfsim/netlink.h>
#endif /* KFSIM_COMPAT_NET_NETLINK_H */
