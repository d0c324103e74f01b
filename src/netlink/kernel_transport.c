// SPDX-License-Identifier: MIT
/*
 * The real-kernel transport: a NETLINK_GENERIC socket opened with libnl-3, with
 * NETLINK_EXT_ACK and NETLINK_CAP_ACK set so that errors come back with their extended ACK and
 * without the echoed request.  Requests and replies pass as raw bytes; the client does the
 * rest, identically for both transports.
 */
#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>
#include "nl_transport.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* The descriptor both socket kinds are read and written through. */
static int client_fd(const struct kfsim_nl_client *c)
{
	return c->server ? c->remote.data_fd : nl_socket_get_fd(c->nlsk);
}

int kfsim_nl_kernel_fd(const struct kfsim_nl_client *c)
{
	return client_fd(c);
}

/*
 * A kfsim server's socket (<kfsim/nl_server.h>) behaves as a NETLINK_GENERIC socket on its data
 * descriptor, so it shares this transport; only opening and options go through the server.
 */
int kfsim_nl_server_open(struct kfsim_nl_client *c, const char *path)
{
	int err = kfsim_nl_remote_open(path, NETLINK_GENERIC, SOCK_CLOEXEC, &c->remote);

	if (err)
		return err;
	c->server = true;
	err = kfsim_nl_remote_setsockopt(&c->remote, NETLINK_EXT_ACK, 1);
	if (!err)
		err = kfsim_nl_remote_setsockopt(&c->remote, NETLINK_CAP_ACK, 1);
	if (err) {
		kfsim_nl_kernel_close(c);
		return err;
	}
	c->portid = c->remote.portid;
	c->seq = 1;
	return 0;
}

int kfsim_nl_kernel_open(struct kfsim_nl_client *c)
{
	int one = 1, fd, err;

	c->nlsk = nl_socket_alloc();
	if (!c->nlsk)
		return -ENOMEM;
	errno = 0;
	err = nl_connect(c->nlsk, NETLINK_GENERIC);
	if (err < 0) {
		int saved = errno ? errno : EPROTONOSUPPORT;

		nl_socket_free(c->nlsk);
		c->nlsk = NULL;
		return -saved;
	}
	fd = nl_socket_get_fd(c->nlsk);
	if (setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one))) {
		err = -errno;
		kfsim_nl_kernel_close(c);
		return err;
	}
	c->portid = nl_socket_get_local_port(c->nlsk);
	/* libnl picked a starting sequence number from the clock; keep to it */
	c->seq = nl_socket_use_seq(c->nlsk);
	return 0;
}

void kfsim_nl_kernel_close(struct kfsim_nl_client *c)
{
	if (c->nlsk)
		nl_socket_free(c->nlsk);
	c->nlsk = NULL;
	if (c->server)
		kfsim_nl_remote_close(&c->remote);
	c->server = false;
}

ssize_t kfsim_nl_kernel_send(struct kfsim_nl_client *c, const void *buf, size_t len)
{
	ssize_t n = send(client_fd(c), buf, len, MSG_NOSIGNAL);

	return n < 0 ? -errno : n;
}

ssize_t kfsim_nl_kernel_recv(struct kfsim_nl_client *c, void *buf, size_t len, int timeout_ms)
{
	struct pollfd pfd = {.fd = client_fd(c), .events = POLLIN};
	ssize_t n;
	int r;

	r = poll(&pfd, 1, timeout_ms < 0 ? 10000 : timeout_ms);
	if (r < 0)
		return -errno;
	if (r == 0)
		return timeout_ms < 0 ? -ETIMEDOUT : -EAGAIN;
	n = recv(pfd.fd, buf, len, MSG_DONTWAIT);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	if (c->server && kfsim_nl_wire_is_overrun(buf, n))
		return -ENOBUFS;	/* the server dropped messages we did not read in time */
	if (c->server && n == 0)
		return -ECONNRESET;	/* a netlink socket never ends: the server is gone */
	return n;
}

int kfsim_nl_kernel_join(struct kfsim_nl_client *c, u32 group)
{
	int g = group;

	if (c->server)
		return kfsim_nl_remote_setsockopt(&c->remote, NETLINK_ADD_MEMBERSHIP, group);
	if (setsockopt(nl_socket_get_fd(c->nlsk), SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &g,
		       sizeof(g)))
		return -errno;
	return 0;
}
