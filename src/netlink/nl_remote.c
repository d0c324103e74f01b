// SPDX-License-Identifier: MIT
/*
 * The client side of a kfsim netlink server (<kfsim/nl_server.h>): open a socket, bind it,
 * set and read its options.  Used by kfsim's own client (--server) and by the LD_PRELOAD shim
 * libkfsim-netlink.so, so that both speak to a server the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <kfsim/nl_server.h>
#include "nl_wire.h"

#ifndef NETLINK_GENERIC
#define NETLINK_GENERIC 16
#endif

/* Shared with nl_server.c: a path (or "@name" for the abstract namespace) as a sockaddr_un. */
int kfsim_nl_sockaddr(const char *path, struct sockaddr_un *sun, socklen_t *len);

int kfsim_nl_sockaddr(const char *path, struct sockaddr_un *sun, socklen_t *len)
{
	size_t n;

	if (!path || !*path)
		return -EINVAL;
	n = strlen(path);
	if (n >= sizeof(sun->sun_path))
		return -ENAMETOOLONG;
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	memcpy(sun->sun_path, path, n);
	if (path[0] == '@')
		sun->sun_path[0] = '\0';	/* abstract: the name is not NUL-terminated */
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n + (path[0] == '@' ? 0 : 1));
	return 0;
}

static int transact(int ctl_fd, u32 op, u32 name, u32 val, struct kfsim_nl_wire_rep *rep,
		    int *passed_fd)
{
	struct kfsim_nl_wire_req req = {
		.magic = KFSIM_NL_WIRE_MAGIC, .version = KFSIM_NL_WIRE_VERSION,
		.op = op, .name = name, .val = val,
	};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = rep, .iov_len = sizeof(*rep) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	do {
		n = send(ctl_fd, &req, sizeof(req), MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (passed_fd) {
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
	}
	do {
		n = recvmsg(ctl_fd, &msg, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)sizeof(*rep))
		return -EPROTO;	/* the server went away or speaks another version */
	if (passed_fd) {
		struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

		*passed_fd = -1;
		if (cmsg && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS &&
		    cmsg->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(passed_fd, CMSG_DATA(cmsg), sizeof(int));
		if (!rep->err && *passed_fd < 0)
			return -EPROTO;
	}
	return 0;
}

int kfsim_nl_remote_open(const char *path, int protocol, int flags, struct kfsim_nl_remote *r)
{
	struct kfsim_nl_wire_rep rep;
	struct sockaddr_un sun;
	socklen_t len;
	int err, fd = -1;

	r->data_fd = r->ctl_fd = -1;
	r->portid = 0;
	if (protocol != NETLINK_GENERIC)
		return -EPROTONOSUPPORT;
	err = kfsim_nl_sockaddr(path, &sun, &len);
	if (err)
		return err;
	r->ctl_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (r->ctl_fd < 0)
		return -errno;
	if (connect(r->ctl_fd, (struct sockaddr *)&sun, len)) {
		err = -errno;
		goto fail;
	}
	err = transact(r->ctl_fd, KFSIM_NL_WIRE_OPEN, 0, (u32)protocol, &rep, &fd);
	if (!err)
		err = rep.err;
	if (err)
		goto fail;
	r->data_fd = fd;
	r->portid = rep.portid;
	if (!(flags & SOCK_CLOEXEC) && fcntl(fd, F_SETFD, 0)) {
		err = -errno;
		goto fail;
	}
	if ((flags & SOCK_NONBLOCK) && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)) {
		err = -errno;
		goto fail;
	}
	return 0;
fail:
	kfsim_nl_remote_close(r);
	return err;
}

int kfsim_nl_server_stop(const char *path)
{
	struct kfsim_nl_wire_rep rep;
	struct sockaddr_un sun;
	socklen_t len;
	int fd, err;

	err = kfsim_nl_sockaddr(path, &sun, &len);
	if (err)
		return err;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	err = connect(fd, (struct sockaddr *)&sun, len) ? -errno : 0;
	if (!err)
		err = transact(fd, KFSIM_NL_WIRE_SHUTDOWN, 0, 0, &rep, NULL);
	if (!err)
		err = rep.err;
	close(fd);
	return err;
}

int kfsim_nl_remote_setsockopt(struct kfsim_nl_remote *r, int opt, u32 val)
{
	struct kfsim_nl_wire_rep rep;
	int err = transact(r->ctl_fd, KFSIM_NL_WIRE_SETSOCKOPT, (u32)opt, val, &rep, NULL);

	return err ? err : rep.err;
}

int kfsim_nl_remote_getsockopt(struct kfsim_nl_remote *r, int opt, u32 *val)
{
	struct kfsim_nl_wire_rep rep;
	int err = transact(r->ctl_fd, KFSIM_NL_WIRE_GETSOCKOPT, (u32)opt, 0, &rep, NULL);

	if (err)
		return err;
	if (!rep.err)
		*val = rep.val;
	return rep.err;
}

int kfsim_nl_remote_bind(struct kfsim_nl_remote *r, u32 portid, u32 groups)
{
	struct kfsim_nl_wire_rep rep;
	int err = transact(r->ctl_fd, KFSIM_NL_WIRE_BIND, portid, groups, &rep, NULL);

	if (err)
		return err;
	if (!rep.err)
		r->portid = rep.portid;
	return rep.err;
}

void kfsim_nl_remote_close(struct kfsim_nl_remote *r)
{
	if (r->data_fd >= 0)
		close(r->data_fd);
	if (r->ctl_fd >= 0)
		close(r->ctl_fd);
	r->data_fd = r->ctl_fd = -1;
}
