/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_EXEC_NETNS_H
#define KFSIM_CLI_EXEC_NETNS_H

#include <stddef.h>

/*
 * Give this process (and so the program `kfsim exec` runs next) a network namespace of its own,
 * with /sys showing it: whatever the program asks of the real kernel's network (NETLINK_ROUTE,
 * interface ioctls, io_uring, a raw syscall, a child without the shim) reaches an empty
 * namespace, never the machine's interfaces.  The ways back into the machine's namespaces by
 * descriptor are closed on this process and all it starts (kfsim_exec_seal_namespaces()).
 * 0, or -errno with the reason in @why.
 */
int kfsim_exec_own_netns(char *why, size_t size);

#endif
