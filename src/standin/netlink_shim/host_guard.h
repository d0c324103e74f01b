/* SPDX-License-Identifier: MIT */
/* What the shim keeps from the machine's network (host_guard.c). */
#ifndef KFSIM_NETLINK_SHIM_HOST_GUARD_H
#define KFSIM_NETLINK_SHIM_HOST_GUARD_H

#include <stdbool.h>

/*
 * The shim's own, not exported: a program built with -rdynamic that defined one of these
 * took the shim's calls to it (shim_in_exec_netns() answering true let NETLINK_ROUTE through
 * by hand, measured 2026-12-07: attacks.py "shim_interpose").
 */
#pragma GCC visibility push(hidden)

/*
 * Does the calling thread run in the network namespace `kfsim exec` made for the program
 * (KFSIM_EXEC_NETNS)?  Only there may a request the shim does not simulate reach the kernel.
 */
bool shim_in_exec_netns(void);

/*
 * Say once per kind (a @socket, else an ioctl) on stderr that @what was refused, and why.
 */
void shim_say_host_refused(bool socket, const char *what);

/* The same for a socket option or family, answered @answer (an errno's name); said once. */
void shim_say_host_refused_as(const char *what, const char *answer);

/* The same for a descriptor taken from another process (pidfd_getfd()), answered EPERM. */
void shim_say_taken_refused(const char *what);

/* The same for a way of loading a library past the shim (dlopen_guard in dlsym_guard.c). */
void shim_say_loader_refused(const char *what);

/*
 * Does setsockopt(@level, @name) on a socket of another family than netlink configure the
 * machine's network beyond the socket's life (x_tables, IPVS, multicast routing)?
 */
bool shim_sockopt_configures(int level, int name);

/*
 * Is @cmd a request to a device other than a socket that makes or changes a network device of
 * the namespace the program runs in: a tun/tap interface, a PPP unit, TIOCSETD to a line
 * discipline that registers a network device (@ldisc: its argument, copied; NULL otherwise)?
 */
bool shim_makes_host_device(unsigned int cmd, const int *ldisc);

#pragma GCC visibility pop

#endif
