// SPDX-License-Identifier: MIT
/*
 * The client side of a kfsim netlink server (<kfsim/nl_server.h>): open a socket, bind it,
 * set and read its options.  Used by kfsim's own client (--server) and by the LD_PRELOAD shim
 * libkfsim-netlink.so, so that both speak to a server the same way.
 */
#define _GNU_SOURCE 1 /* struct ucred */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <kfsim/nl_remote.h>

#ifndef NETLINK_GENERIC
#define NETLINK_GENERIC 16
#endif
#ifndef SO_PASSRIGHTS
#define SO_PASSRIGHTS 83	/* Linux 6.16: 0 refuses SCM_RIGHTS sent to this socket (EPERM) */
#endif

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
	if (n < 0 && errno != EPIPE && errno != ECONNRESET)
		return -errno;
	/* on a hang-up, a server that refused us left its reason to read */
	if (passed_fd) {
		msg.msg_control = control.buf;
		msg.msg_controllen = sizeof(control.buf);
	}
	/*
	 * A server that hangs up with our request unread resets us (AF_UNIX reports ECONNRESET
	 * when a socket closes with data queued), and a pending error is reported before what was
	 * queued for us.  Reading it clears it: a second read finds the refusal's reason, sent
	 * before the hang-up, if the race with our request went that way.
	 */
	for (bool reset = false;;) {
		n = recvmsg(ctl_fd, &msg, MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ECONNRESET && !reset) {
			reset = true;
			continue;
		}
		if (!n && reset)
			return -ECONNRESET;	/* reset, and no reason left behind */
		break;
	}
	if (n < 0)
		return errno == EAGAIN ? -ETIMEDOUT : -errno;
	if (n != (ssize_t)sizeof(*rep))
		return -EPROTO;	/* the server went away or speaks another version */
	if (passed_fd) {
		struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

		*passed_fd = -1;
		if (cmsg && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS &&
		    cmsg->cmsg_len == CMSG_LEN(sizeof(int)))
			memcpy(passed_fd, CMSG_DATA(cmsg), sizeof(int));
		/*
		 * MSG_CTRUNC: the descriptor came, but we had no free number for it (the kernel's
		 * scm_detach_fds() drops it), so socket() fails as Linux's does when the table is
		 * full (it said EPROTO, as for a server of another version)
		 */
		if (!rep->err && *passed_fd < 0)
			return msg.msg_flags & MSG_CTRUNC ? -EMFILE : -EPROTO;
	}
	return 0;
}

/* The uid $KFSIM_KERNEL_OWNER names (a number or a user), or -1. */
static uid_t trusted_owner(void)
{
	const char *name = getenv("KFSIM_KERNEL_OWNER");
	struct passwd *pw;
	char *end;
	unsigned long uid;

	if (!name || !*name)
		return (uid_t)-1;
	uid = strtoul(name, &end, 10);
	if (!*end)
		return (uid_t)uid;
	pw = getpwnam(name);
	return pw ? pw->pw_uid : (uid_t)-1;
}

/*
 * A connection to the server at @sun, with every wait bounded (a full backlog blocks connect()
 * on a UNIX socket; SO_SNDTIMEO bounds it), and refused unless root, we, or the user we were
 * told to trust runs the server: anyone may create a socket at a path we did not make.
 *
 * Without @check_owner (--stop, which may ask any server) whoever listens there is a stranger,
 * and no descriptor of theirs may reach us: one received, even into no room for it (the kernel
 * then drops it), is released by us, as the server's own ends refuse them for the same reason
 * (nl_server.c).  A socket lingering on close, passed in another that holds it in flight, held
 * root's `kfsim kernel --stop PATH` of a squatter's socket for its 4 s linger (attacks.py
 * "stop_squatter"); a linger of hours would hold it hours.
 */
static int connect_server(const struct sockaddr_un *sun, socklen_t len, bool check_owner)
{
	struct timeval tv = { .tv_sec = KFSIM_NL_CLIENT_TIMEOUT_MS / 1000,
			      .tv_usec = (KFSIM_NL_CLIENT_TIMEOUT_MS % 1000) * 1000 };
	struct ucred peer;
	socklen_t plen = sizeof(peer);
	int fd, err;

	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (!check_owner)
		setsockopt(fd, SOL_SOCKET, SO_PASSRIGHTS, &(int){ 0 }, sizeof(int));
	if (connect(fd, (const struct sockaddr *)sun, len)) {
		err = errno == EAGAIN || errno == EINPROGRESS ? -ETIMEDOUT : -errno;
		close(fd);
		return err;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &plen)) {
		err = -errno;
		close(fd);
		return err;
	}
	if (check_owner && peer.uid != 0 && peer.uid != geteuid() && peer.uid != trusted_owner()) {
		close(fd);
		return -EACCES;
	}
	return fd;
}

int kfsim_nl_remote_server_uid(const char *path, uid_t *uid)
{
	struct sockaddr_un sun;
	struct ucred peer;
	socklen_t len, plen = sizeof(peer);
	int fd, err;

	err = kfsim_nl_sockaddr(path, &sun, &len);
	if (err)
		return err;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	err = connect(fd, (struct sockaddr *)&sun, len) ? -errno : 0;
	if (!err && getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &plen))
		err = -errno;
	close(fd);
	if (!err)
		*uid = peer.uid;
	return err;
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
	r->ctl_fd = connect_server(&sun, len, true);
	if (r->ctl_fd < 0) {
		err = r->ctl_fd;
		r->ctl_fd = -1;
		return err;
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
	fd = connect_server(&sun, len, false);	/* anyone may be asked, nothing taken from them */
	if (fd < 0)
		return fd;
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
