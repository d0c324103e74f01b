/* SPDX-License-Identifier: MIT */
/* What the shim keeps from the machine's network (host_guard.c). */
#ifndef KFSIM_NETLINK_SHIM_HOST_GUARD_H
#define KFSIM_NETLINK_SHIM_HOST_GUARD_H

#include <stdbool.h>

/*
 * Does the calling thread run in the network namespace `kfsim exec` made for the program
 * (KFSIM_EXEC_NETNS)?  Only there may a request the shim does not simulate reach the kernel.
 */
bool shim_in_exec_netns(void);

/*
 * Say once per kind (a @socket, else an ioctl) on stderr that @what was refused, and why.
 */
void shim_say_host_refused(bool socket, const char *what);

#endif
