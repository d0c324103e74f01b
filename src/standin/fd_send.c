// SPDX-License-Identifier: MIT
/*
 * One message with descriptors on a unix socket: the server's control replies (a data socket
 * for OPEN) and the socket maker's pairs (nl_socket_maker.c) both go out this way.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "fd_send.h"

int kfsim_fd_send(int fd, const void *buf, size_t len, const int *fds, unsigned int nr)
{
	union {
		char buf[CMSG_SPACE(KFSIM_FD_SEND_MAX * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (nr > KFSIM_FD_SEND_MAX)
		return -EINVAL;
	if (nr) {
		struct cmsghdr *cmsg;

		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = CMSG_SPACE(nr * sizeof(int));
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(nr * sizeof(int));
		memcpy(CMSG_DATA(cmsg), fds, nr * sizeof(int));
	}
	return sendmsg(fd, &msg, MSG_NOSIGNAL) < 0 ? -errno : 0;
}
