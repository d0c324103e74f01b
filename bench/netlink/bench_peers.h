/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BENCH_NETLINK_PEERS_H
#define KFSIM_BENCH_NETLINK_PEERS_H

/*
 * The peers of bench_netlink.c, each in its own translation unit because libnl-3's headers
 * and kfsim's kernel-side header use the same names.  Each function parses the attributes of
 * the genetlink message @msg (nlmsg_len bytes) the way that library is meant to be used and
 * returns the sum of the values it read (so the work cannot be optimised away), or -1 when the
 * library rejected the message.
 */
#include <linux/netlink.h>

long bench_libnl_parse(const struct nlmsghdr *msg);

#endif /* KFSIM_BENCH_NETLINK_PEERS_H */
