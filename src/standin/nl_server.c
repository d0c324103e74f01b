// SPDX-License-Identifier: MIT
/*
 * A kfsim netlink server: the in-process kernel served to other processes over a UNIX socket
 * (the protocol is described in <kfsim/nl_server.h>, the control messages in nl_wire.h).
 *
 * Invariants kept:
 *  - One thread runs the kernel: every request (a data packet or a control message) runs to
 *    completion before the next one is read, so requests of different clients never interleave.
 *  - After every request, every socket's queue is drained into its client's outgoing list, so a
 *    notification one client caused reaches every subscribed client in the order it was made.
 *  - A client is released when the last client-side copy of its data descriptor is closed
 *    (POLLHUP on the server's end), whatever state its dump or control connection is in.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <kfsim/nl_server.h>
#include "netlink/nl_internal.h"
#include "netlink/nl_wire.h"

/* Options every netlink socket accepts that the in-process socket has no use for. */
#ifndef NETLINK_PKTINFO
#define NETLINK_PKTINFO 3
#endif
#ifndef NETLINK_BROADCAST_ERROR
#define NETLINK_BROADCAST_ERROR 4
#endif
#ifndef NETLINK_NO_ENOBUFS
#define NETLINK_NO_ENOBUFS 5
#endif
#ifndef NETLINK_LISTEN_ALL_NSID
#define NETLINK_LISTEN_ALL_NSID 8
#endif
#ifndef NETLINK_GET_STRICT_CHK
#define NETLINK_GET_STRICT_CHK 12
#endif

#define NL_SERVER_RX_MAX (64u * 1024u)	     /* what kfsim_nl_sock_send() takes */
#define NL_SERVER_BUF_SIZE (128u * 1024u)    /* one kernel buffer (dump steps are <= 64 KiB) */
#define NL_SERVER_QUEUE_MAX (16u << 20)	     /* per client; beyond it buffers are dropped */
#define NL_SERVER_FLAG_OPTS 16		     /* SOL_NETLINK option numbers we keep a value for */

int kfsim_nl_sockaddr(const char *path, struct sockaddr_un *sun, socklen_t *len);

struct nl_server_buf {
	struct nl_server_buf *next;
	size_t len;
	u8 data[];
};

struct nl_server_client {
	struct nl_server_client *next;
	struct kfsim_nl_sock *sock;	/* NULL until OPEN */
	struct kfsim_nl_cred cred;
	uid_t uid;			/* the peer's, for SHUTDOWN */
	int ctl_fd;			/* -1 once the client closed it */
	int data_fd;			/* the server's end; -1 until OPEN */
	bool bound;			/* bound explicitly, or autobound by a first send */
	u32 opt[NL_SERVER_FLAG_OPTS];
	struct nl_server_buf *out_head, *out_tail;
	size_t out_bytes;
	unsigned long dropped;
};

struct kfsim_nl_server {
	struct kfsim_nl_kernel *kernel;
	int listen_fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	bool unlink_path;
	struct nl_server_client *clients;
	unsigned int nr_sockets;
	bool shutdown;			/* a SHUTDOWN request was accepted */
	u8 *buf;
};

static int listen_on(struct kfsim_nl_server *s, const char *path)
{
	struct sockaddr_un sun;
	socklen_t len;
	struct stat st;
	int err;

	err = kfsim_nl_sockaddr(path, &sun, &len);
	if (err)
		return err;
	s->listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->listen_fd < 0)
		return -errno;
	if (path[0] != '@' && !lstat(path, &st) && S_ISSOCK(st.st_mode)) {
		/* A stale socket file is replaced; one a live server answers on is not. */
		int probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

		if (probe >= 0 && !connect(probe, (struct sockaddr *)&sun, len)) {
			close(probe);
			return -EADDRINUSE;
		}
		if (probe >= 0)
			close(probe);
		unlink(path);
	}
	if (bind(s->listen_fd, (struct sockaddr *)&sun, len) || listen(s->listen_fd, 64))
		return -errno;
	if (path[0] != '@') {
		snprintf(s->path, sizeof(s->path), "%s", path);
		s->unlink_path = true;
		/*
		 * Any process may open a netlink socket on Linux; what it may do is decided by its
		 * capabilities, per request.  So every local user may connect, and the peer's uid
		 * decides (SO_PEERCRED).
		 */
		if (chmod(path, 0666))
			return -errno;
	}
	return 0;
}

struct kfsim_nl_server *kfsim_nl_server_create(struct kfsim_nl_kernel *k, const char *path)
{
	struct kfsim_nl_server *s;
	int err;

	if (!k || !path)
		return ERR_PTR(-EINVAL);
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	s->kernel = k;
	s->listen_fd = -1;
	s->buf = kmalloc(NL_SERVER_BUF_SIZE, GFP_KERNEL);
	if (!s->buf) {
		kfree(s);
		return ERR_PTR(-ENOMEM);
	}
	err = listen_on(s, path);
	if (err) {
		kfsim_nl_server_destroy(s);
		return ERR_PTR(err);
	}
	return s;
}

static void client_free(struct kfsim_nl_server *s, struct nl_server_client *c)
{
	struct nl_server_client **pp;

	for (pp = &s->clients; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	if (c->sock) {
		kfsim_nl_sock_close(c->sock);
		__atomic_sub_fetch(&s->nr_sockets, 1, __ATOMIC_RELAXED);
	}
	if (c->ctl_fd >= 0)
		close(c->ctl_fd);
	if (c->data_fd >= 0)
		close(c->data_fd);
	while (c->out_head) {
		struct nl_server_buf *b = c->out_head;

		c->out_head = b->next;
		kfree(b);
	}
	kfree(c);
}

void kfsim_nl_server_destroy(struct kfsim_nl_server *s)
{
	if (!s)
		return;
	while (s->clients)
		client_free(s, s->clients);
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	if (s->unlink_path)
		unlink(s->path);
	kfree(s->buf);
	kfree(s);
}

unsigned int kfsim_nl_server_clients(const struct kfsim_nl_server *s)
{
	return __atomic_load_n(&s->nr_sockets, __ATOMIC_RELAXED); /* read from other threads */
}

static void accept_client(struct kfsim_nl_server *s)
{
	struct nl_server_client *c;
	struct ucred peer;
	socklen_t len = sizeof(peer);
	int fd;

	fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0)
		return;
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len)) {
		kfree(c);
		close(fd);
		return;
	}
	/* CAP_NET_ADMIN / CAP_SYS_ADMIN follow the peer's uid, as for a root or plain process. */
	c->cred = peer.uid == 0 ? KFSIM_NL_CRED_ROOT : KFSIM_NL_CRED_USER;
	c->uid = peer.uid;
	c->ctl_fd = fd;
	c->data_fd = -1;
	c->next = s->clients;
	s->clients = c;
}

/* Try to hand queued buffers to the client; keep what its socket cannot take now. */
static void client_push(struct nl_server_client *c)
{
	while (c->out_head) {
		struct nl_server_buf *b = c->out_head;
		ssize_t n = send(c->data_fd, b->data, b->len, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		/* sent, or the client is gone (its hang-up is seen by the poll loop) */
		c->out_head = b->next;
		if (!c->out_head)
			c->out_tail = NULL;
		c->out_bytes -= b->len;
		kfree(b);
		if (n < 0)
			return;
	}
}

static void client_enqueue(struct nl_server_client *c, const u8 *data, size_t len)
{
	struct nl_server_buf *b;

	if (c->out_bytes + len > NL_SERVER_QUEUE_MAX) {
		/* the kernel drops too (the reader gets ENOBUFS); say so once per run of drops */
		if (!c->dropped++)
			pr_warn("kfsim-netlink: port %u does not read: dropping its messages\n",
				kfsim_nl_sock_portid(c->sock));
		return;
	}
	b = kmalloc(sizeof(*b) + len, GFP_KERNEL);
	if (!b)
		return;
	b->next = NULL;
	b->len = len;
	memcpy(b->data, data, len);
	if (c->out_tail)
		c->out_tail->next = b;
	else
		c->out_head = b;
	c->out_tail = b;
	c->out_bytes += len;
	c->dropped = 0;
}

/* Every reply, dump step and notification the last request made goes to its reader. */
static void flush_all(struct kfsim_nl_server *s)
{
	struct nl_server_client *c;

	for (c = s->clients; c; c = c->next) {
		ssize_t n;

		if (!c->sock)
			continue;
		while ((n = kfsim_nl_sock_recv(c->sock, s->buf, NL_SERVER_BUF_SIZE)) > 0)
			client_enqueue(c, s->buf, min_t(size_t, (size_t)n, NL_SERVER_BUF_SIZE));
		client_push(c);
	}
}

static int reply(struct nl_server_client *c, int err, int pass_fd)
{
	struct kfsim_nl_wire_rep rep = {
		.err = err, .portid = c->sock ? kfsim_nl_sock_portid(c->sock) : 0,
	};
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = &rep, .iov_len = sizeof(rep) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (pass_fd >= 0) {
		struct cmsghdr *cmsg;

		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cmsg), &pass_fd, sizeof(int));
	}
	return sendmsg(c->ctl_fd, &msg, MSG_NOSIGNAL) < 0 ? -errno : 0;
}

static int do_open(struct kfsim_nl_server *s, struct nl_server_client *c, u32 protocol)
{
	int sv[2], err, sndbuf = 4 << 20;

	if (c->sock)
		return reply(c, -EISCONN, -1);
	if (protocol != NETLINK_GENERIC)
		return reply(c, -EPROTONOSUPPORT, -1);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return reply(c, -errno, -1);
	c->sock = kfsim_nl_sock_open(s->kernel, &c->cred);
	if (IS_ERR(c->sock)) {
		err = (int)PTR_ERR(c->sock);
		c->sock = NULL;
		close(sv[0]);
		close(sv[1]);
		return reply(c, err, -1);
	}
	__atomic_add_fetch(&s->nr_sockets, 1, __ATOMIC_RELAXED);
	c->data_fd = sv[0];
	fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	err = reply(c, 0, sv[1]);
	close(sv[1]);
	return err;
}

static int do_bind(struct nl_server_client *c, u32 portid, u32 groups)
{
	int err = 0;

	/* netlink_bind(): a socket chooses its port id once; later binds must name the same. */
	if (c->bound && portid && portid != kfsim_nl_sock_portid(c->sock))
		return reply(c, -EINVAL, -1);
	if (!c->bound) {
		err = kfsim_nl_sock_bind(c->sock, portid);
		if (err)
			return reply(c, err, -1);
	}
	c->bound = true;
	for (unsigned int bit = 0; bit < 32 && !err; bit++)
		if (groups & (1u << bit))
			err = kfsim_nl_sock_setsockopt(c->sock, NETLINK_ADD_MEMBERSHIP, bit + 1);
	return reply(c, err, -1);
}

static int do_setsockopt(struct nl_server_client *c, u32 opt, u32 val)
{
	int err;

	switch (opt) {
	case NETLINK_EXT_ACK:
	case NETLINK_CAP_ACK:
	case NETLINK_ADD_MEMBERSHIP:
	case NETLINK_DROP_MEMBERSHIP:
		err = kfsim_nl_sock_setsockopt(c->sock, (int)opt, val);
		break;
	case NETLINK_LISTEN_ALL_NSID:
		/* netlink_setsockopt(): listening to other namespaces needs CAP_NET_BROADCAST */
		err = c->cred.net_admin ? 0 : -EPERM;
		break;
	case NETLINK_PKTINFO:
	case NETLINK_BROADCAST_ERROR:
	case NETLINK_NO_ENOBUFS:
	case NETLINK_GET_STRICT_CHK:
		err = 0;
		break;
	default:
		err = -ENOPROTOOPT;
	}
	if (!err && opt < NL_SERVER_FLAG_OPTS && opt != NETLINK_ADD_MEMBERSHIP &&
	    opt != NETLINK_DROP_MEMBERSHIP)
		c->opt[opt] = !!val;
	return reply(c, err, -1);
}

static int do_getsockopt(struct nl_server_client *c, u32 opt)
{
	struct kfsim_nl_wire_rep rep = { .portid = kfsim_nl_sock_portid(c->sock) };

	switch (opt) {
	case NETLINK_PKTINFO:
	case NETLINK_BROADCAST_ERROR:
	case NETLINK_NO_ENOBUFS:
	case NETLINK_CAP_ACK:
	case NETLINK_EXT_ACK:
	case NETLINK_GET_STRICT_CHK:
		rep.val = c->opt[opt];
		break;
	default:
		rep.err = -ENOPROTOOPT;
	}
	return send(c->ctl_fd, &rep, sizeof(rep), MSG_NOSIGNAL) < 0 ? -errno : 0;
}

/* One control message; false when the control connection is closed. */
static bool handle_ctl(struct kfsim_nl_server *s, struct nl_server_client *c)
{
	struct kfsim_nl_wire_req req;
	ssize_t n = recv(c->ctl_fd, &req, sizeof(req), MSG_DONTWAIT | MSG_TRUNC);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR;
	if (n == 0)
		return false;
	if (n != (ssize_t)sizeof(req) || req.magic != KFSIM_NL_WIRE_MAGIC ||
	    req.version != KFSIM_NL_WIRE_VERSION)
		return false;	/* not one of ours: hang up rather than guess */
	if (req.op == KFSIM_NL_WIRE_SHUTDOWN) {
		/* the server's own user (or root) may stop it; nobody else */
		bool allowed = c->uid == 0 || c->uid == geteuid();

		s->shutdown |= allowed;
		reply(c, allowed ? 0 : -EPERM, -1);
		return true;
	}
	if (req.op != KFSIM_NL_WIRE_OPEN && !c->sock) {
		reply(c, -ENOTCONN, -1);
		return true;
	}
	switch (req.op) {
	case KFSIM_NL_WIRE_OPEN:
		do_open(s, c, req.val);
		break;
	case KFSIM_NL_WIRE_BIND:
		do_bind(c, req.name, req.val);
		break;
	case KFSIM_NL_WIRE_SETSOCKOPT:
		do_setsockopt(c, req.name, req.val);
		break;
	case KFSIM_NL_WIRE_GETSOCKOPT:
		do_getsockopt(c, req.name);
		break;
	default:
		reply(c, -EOPNOTSUPP, -1);
	}
	flush_all(s);	/* a join may have made nothing, a bind nothing: cheap either way */
	return true;
}

/* One netlink buffer from the client; false when every client copy is closed. */
static bool handle_data(struct kfsim_nl_server *s, struct nl_server_client *c)
{
	ssize_t n = recv(c->data_fd, s->buf, NL_SERVER_BUF_SIZE, MSG_DONTWAIT | MSG_TRUNC);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR;
	if (n == 0)
		return false;
	c->bound = true;	/* netlink_sendmsg() autobinds */
	if ((size_t)n <= NL_SERVER_RX_MAX)
		kfsim_nl_sock_send(c->sock, s->buf, (size_t)n);
	/* larger buffers are refused by the sender (the shim answers EMSGSIZE) */
	flush_all(s);
	return true;
}

int kfsim_nl_server_run(struct kfsim_nl_server *s, volatile sig_atomic_t *stop)
{
	struct pollfd *pfd = NULL;
	size_t cap = 0;

	while (!*stop && !s->shutdown) {
		struct nl_server_client *c, *next;
		size_t n = 0, i;
		int ret;

		for (c = s->clients, i = 1; c; c = c->next)
			i += 2;
		if (i > cap) {
			struct pollfd *grown = krealloc(pfd, i * 2 * sizeof(*pfd), GFP_KERNEL);

			if (!grown) {
				kfree(pfd);
				return -ENOMEM;
			}
			pfd = grown;
			cap = i * 2;
		}
		pfd[n++] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
		for (c = s->clients; c; c = c->next) {
			pfd[n++] = (struct pollfd){ .fd = c->ctl_fd, .events = POLLIN };
			pfd[n++] = (struct pollfd){ .fd = c->data_fd,
						    .events = POLLIN | (c->out_head ? POLLOUT : 0) };
		}
		ret = poll(pfd, n, 100);
		if (ret < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			kfree(pfd);
			return ret;
		}
		if (ret == 0)
			continue;
		/* the list may shrink while we walk it: pfd[] was laid out in list order */
		for (c = s->clients, i = 1; c; c = next, i += 2) {
			short ctl = pfd[i].revents, data = pfd[i + 1].revents;
			bool alive = true;

			next = c->next;
			if (ctl && c->ctl_fd >= 0 && !handle_ctl(s, c)) {
				close(c->ctl_fd);
				c->ctl_fd = -1;
				if (!c->sock)
					alive = false;	/* connected, never opened */
			}
			if (alive && c->data_fd >= 0 && (data & POLLOUT))
				client_push(c);
			if (alive && c->data_fd >= 0 && (data & POLLIN))
				alive = handle_data(s, c);
			else if (alive && c->data_fd >= 0 && (data & (POLLHUP | POLLERR)))
				alive = false;
			if (!alive)
				client_free(s, c);
		}
		if (pfd[0].revents & POLLIN)
			accept_client(s);
	}
	kfree(pfd);
	return 0;
}
