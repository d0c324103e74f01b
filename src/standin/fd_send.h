/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_STANDIN_FD_SEND_H
#define KFSIM_STANDIN_FD_SEND_H

#include <stddef.h>

/* At most this many descriptors go with one message (a socket pair). */
#define KFSIM_FD_SEND_MAX 2

/*
 * kfsim_fd_send() - send @len bytes at @buf on the unix socket @fd, and with them the @nr
 * descriptors @fds (SCM_RIGHTS; none when @nr is 0, at most KFSIM_FD_SEND_MAX), without
 * SIGPIPE (fd_send.c).  Return: 0, or -errno of sendmsg().
 */
int kfsim_fd_send(int fd, const void *buf, size_t len, const int *fds, unsigned int nr);

#endif /* KFSIM_STANDIN_FD_SEND_H */
