/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_EXEC_SEAL_H
#define KFSIM_CLI_EXEC_SEAL_H

#include <stddef.h>

/*
 * Refuse this process and all it starts the system calls that reach a namespace by descriptor
 * (setns(), open_by_handle_at(), the SIOCGSKNS and pidfd namespace ioctls, pidfd_getfd(),
 * bpf()'s *_GET_FD_BY_ID): EPERM.  Called by kfsim_exec_own_netns() once its namespaces are
 * made, before it forks the PID namespace's init, so that init is under it too.  0, or -errno
 * with the reason in @why.
 */
int kfsim_exec_seal_namespaces(char *why, size_t size);

/*
 * Close every io_uring ring this process holds (inherited): a polling ring's thread would run
 * the program's requests as the ring's maker, outside the filter and the namespaces.  Called
 * by kfsim_exec_own_netns() before anything is made, while /proc is the machine's.  0, or
 * -errno with the reason in @why.
 */
int kfsim_exec_close_rings(char *why, size_t size);

#endif
