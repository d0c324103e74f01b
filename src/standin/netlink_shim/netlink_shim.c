// SPDX-License-Identifier: MIT
/*
 * libkfsim-netlink.so: point unmodified netlink programs at kfsim's kernel.
 *
 *   LD_PRELOAD=libkfsim-netlink.so KFSIM_KERNEL=/run/kfsim.sock genl ctrl list
 *
 * socket(AF_NETLINK, SOCK_RAW or SOCK_DGRAM, NETLINK_GENERIC) opens a socket on the kfsim
 * server at $KFSIM_KERNEL (`kfsim kernel --listen`), or, without it, on a kernel this process
 * starts for itself in a thread (the built-in segment and families, as `kfsim kernel` without
 * --config).  The descriptor the program gets is a real one (a SOCK_SEQPACKET socket carrying
 * one netlink buffer per packet), so read, write, send, recv, poll, select, epoll, MSG_PEEK,
 * MSG_TRUNC, MSG_DONTWAIT, dup and fork need nothing from us.  What differs from a UNIX socket
 * is wrapped here: bind/connect/getsockname/getpeername speak sockaddr_nl, SOL_NETLINK options
 * go to the server, SO_TYPE/SO_DOMAIN/SO_PROTOCOL answer as netlink's, sendto/sendmsg take a
 * sockaddr_nl, recvfrom/recvmsg return the kernel's (port 0).  Every other socket, other netlink
 * protocols (NETLINK_ROUTE, ...) included, goes to the real kernel untouched.
 *
 * Not supported, with the answer given: unicast to another user port (ECONNREFUSED, as for a
 * port nobody bound), sending to multicast groups (EOPNOTSUPP), NETLINK_LIST_MEMBERSHIPS and
 * NETLINK_PKTINFO control messages (ENOPROTOOPT / no cmsg), recvmmsg/sendmmsg (their names are
 * left empty).
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>

#include <kfsim/err.h>
#include <kfsim/nl_server.h>
#include <kfsim/plca.h>

#define SHIM_MAX_FD 65536
#define SHIM_SEND_MAX (64u * 1024u) /* what kfsim's kernel takes in one sendmsg() */

/* One netlink socket; several descriptors (dup, dup2, fcntl F_DUPFD) may share it. */
struct shim_sock {
	struct kfsim_nl_remote remote;
	int type;		/* SOCK_RAW or SOCK_DGRAM, for SO_TYPE */
	int refs;		/* descriptors of this process that refer to it */
	pthread_mutex_t ctl_lock; /* one control request at a time */
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct shim_sock *table[SHIM_MAX_FD];

static int (*real_socket)(int, int, int);
static int (*real_close)(int);
static int (*real_bind)(int, const struct sockaddr *, socklen_t);
static int (*real_connect)(int, const struct sockaddr *, socklen_t);
static int (*real_getsockname)(int, struct sockaddr *, socklen_t *);
static int (*real_getpeername)(int, struct sockaddr *, socklen_t *);
static int (*real_setsockopt)(int, int, int, const void *, socklen_t);
static int (*real_getsockopt)(int, int, int, void *, socklen_t *);
static ssize_t (*real_send)(int, const void *, size_t, int);
static ssize_t (*real_sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static int (*real_dup)(int);
static int (*real_dup2)(int, int);
static int (*real_dup3)(int, int, int);
static int (*real_fcntl)(int, int, ...);
static int (*real_fcntl64)(int, int, ...);

static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;

static void resolve_all(void)
{
#define LOOKUP(name) (real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name))
	LOOKUP(socket);
	LOOKUP(close);
	LOOKUP(bind);
	LOOKUP(connect);
	LOOKUP(getsockname);
	LOOKUP(getpeername);
	LOOKUP(setsockopt);
	LOOKUP(getsockopt);
	LOOKUP(send);
	LOOKUP(sendto);
	LOOKUP(sendmsg);
	LOOKUP(recvfrom);
	LOOKUP(recvmsg);
	LOOKUP(dup);
	LOOKUP(dup2);
	LOOKUP(dup3);
	LOOKUP(fcntl);
	LOOKUP(fcntl64);
#undef LOOKUP
}

/* The libc function the program would have called. */
#define RESOLVE(name) (pthread_once(&resolve_once, resolve_all), real_##name)

/* ---- the descriptor table -------------------------------------------------------------- */

static struct shim_sock *sock_get(int fd)
{
	struct shim_sock *s = NULL;

	if (fd < 0 || fd >= SHIM_MAX_FD)
		return NULL;
	pthread_mutex_lock(&table_lock);
	s = table[fd];
	pthread_mutex_unlock(&table_lock);
	return s;
}

static void sock_put_locked(struct shim_sock *s)
{
	if (--s->refs)
		return;
	/* the data descriptor itself is closed by the caller's close(); only the control one here */
	if (s->remote.ctl_fd >= 0)
		RESOLVE(close)(s->remote.ctl_fd);
	pthread_mutex_destroy(&s->ctl_lock);
	free(s);
}

/* @fd now refers to @s too (a dup), or to nothing (@s NULL: it was closed or replaced). */
static void table_set(int fd, struct shim_sock *s)
{
	if (fd < 0 || fd >= SHIM_MAX_FD)
		return;
	pthread_mutex_lock(&table_lock);
	if (table[fd])
		sock_put_locked(table[fd]);
	if (s)
		s->refs++;
	table[fd] = s;
	pthread_mutex_unlock(&table_lock);
}

/* ---- the kernel to talk to ------------------------------------------------------------- */

static int shim_open(int type, int protocol, int flags)
{
	const char *path = getenv("KFSIM_KERNEL");
	struct shim_sock *s;
	int err;

	if (!path || !*path) {
		err = kfsim_standin_inproc_start(&path);
		if (err)
			return err;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	err = kfsim_nl_remote_open(path, protocol, flags, &s->remote);
	if (err) {
		if (err == -ENOENT || err == -ECONNREFUSED)
			fprintf(stderr, "kfsim-netlink: no kfsim kernel listens at %s "
				"(start one with: kfsim kernel --listen %s)\n", path, path);
		free(s);
		return err;
	}
	s->type = type;
	pthread_mutex_init(&s->ctl_lock, NULL);
	table_set(s->remote.data_fd, s);
	return s->remote.data_fd;
}

static int fail(int err)
{
	errno = -err;
	return -1;
}

/* ---- the calls ------------------------------------------------------------------------- */

int socket(int domain, int type, int protocol)
{
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC), fd;

	if (domain != AF_NETLINK || protocol != NETLINK_GENERIC)
		return RESOLVE(socket)(domain, type, protocol);
	if (base != SOCK_RAW && base != SOCK_DGRAM)
		return fail(-ESOCKTNOSUPPORT);	/* netlink_create() */
	fd = shim_open(base, protocol, type & (SOCK_NONBLOCK | SOCK_CLOEXEC));
	return fd < 0 ? fail(fd) : fd;
}

int close(int fd)
{
	if (sock_get(fd))
		table_set(fd, NULL);
	return RESOLVE(close)(fd);
}

static int nl_addr(const struct sockaddr *addr, socklen_t len, const struct sockaddr_nl **nl)
{
	if (!addr || len < sizeof(struct sockaddr_nl))
		return -EINVAL;
	if (addr->sa_family != AF_NETLINK)
		return -EINVAL;
	*nl = (const struct sockaddr_nl *)addr;
	return 0;
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct shim_sock *s = sock_get(fd);
	const struct sockaddr_nl *nl;
	int err;

	if (!s)
		return RESOLVE(bind)(fd, addr, len);
	err = nl_addr(addr, len, &nl);
	if (!err) {
		pthread_mutex_lock(&s->ctl_lock);
		err = kfsim_nl_remote_bind(&s->remote, nl->nl_pid, nl->nl_groups);
		pthread_mutex_unlock(&s->ctl_lock);
	}
	return err ? fail(err) : 0;
}

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct shim_sock *s = sock_get(fd);
	const struct sockaddr_nl *nl;
	int err;

	if (!s)
		return RESOLVE(connect)(fd, addr, len);
	if (addr && len >= sizeof(sa_family_t) && addr->sa_family == AF_UNSPEC)
		return 0;	/* netlink_connect(): disconnect */
	err = nl_addr(addr, len, &nl);
	if (err)
		return fail(err);
	if (nl->nl_groups)
		return fail(-EOPNOTSUPP);
	if (nl->nl_pid)
		return fail(-ECONNREFUSED);
	pthread_mutex_lock(&s->ctl_lock);
	err = kfsim_nl_remote_bind(&s->remote, 0, 0);	/* netlink_connect() autobinds */
	pthread_mutex_unlock(&s->ctl_lock);
	return err ? fail(err) : 0;
}

static void put_nl_addr(struct sockaddr *addr, socklen_t *len, u32 portid)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_pid = portid };

	if (!addr || !len)
		return;
	memcpy(addr, &nl, *len < sizeof(nl) ? *len : sizeof(nl));
	*len = sizeof(nl);
}

int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	struct shim_sock *s = sock_get(fd);

	if (!s)
		return RESOLVE(getsockname)(fd, addr, len);
	if (!addr || !len)
		return fail(-EFAULT);
	put_nl_addr(addr, len, s->remote.portid);
	return 0;
}

int getpeername(int fd, struct sockaddr *addr, socklen_t *len)
{
	struct shim_sock *s = sock_get(fd);

	if (!s)
		return RESOLVE(getpeername)(fd, addr, len);
	if (!addr || !len)
		return fail(-EFAULT);
	put_nl_addr(addr, len, 0);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct shim_sock *s = sock_get(fd);
	int v = 0, err;

	if (!s || level != SOL_NETLINK)
		return RESOLVE(setsockopt)(fd, level, name, val, len);
	/* netlink_setsockopt(): an int when optlen allows one, 0 otherwise */
	if (len >= sizeof(int)) {
		if (!val)
			return fail(-EFAULT);
		memcpy(&v, val, sizeof(v));
	}
	pthread_mutex_lock(&s->ctl_lock);
	err = kfsim_nl_remote_setsockopt(&s->remote, name, (u32)v);
	pthread_mutex_unlock(&s->ctl_lock);
	return err ? fail(err) : 0;
}

static int put_int(void *val, socklen_t *len, int v)
{
	if (!val || !len)
		return fail(-EFAULT);
	if (*len < sizeof(int))
		return fail(-EINVAL);
	memcpy(val, &v, sizeof(v));
	*len = sizeof(int);
	return 0;
}

int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	struct shim_sock *s = sock_get(fd);
	u32 v = 0;
	int err;

	if (!s)
		return RESOLVE(getsockopt)(fd, level, name, val, len);
	if (level == SOL_SOCKET && name == SO_TYPE)
		return put_int(val, len, s->type);
	if (level == SOL_SOCKET && name == SO_DOMAIN)
		return put_int(val, len, AF_NETLINK);
	if (level == SOL_SOCKET && name == SO_PROTOCOL)
		return put_int(val, len, NETLINK_GENERIC);
	if (level != SOL_NETLINK)
		return RESOLVE(getsockopt)(fd, level, name, val, len);
	pthread_mutex_lock(&s->ctl_lock);
	err = kfsim_nl_remote_getsockopt(&s->remote, name, &v);
	pthread_mutex_unlock(&s->ctl_lock);
	return err ? fail(err) : put_int(val, len, (int)v);
}

/* Where a sendto/sendmsg names a destination: only the kernel (port 0) is reachable. */
static int check_dest(const void *name, socklen_t len)
{
	const struct sockaddr_nl *nl;
	int err;

	if (!name)
		return 0;
	err = nl_addr(name, len, &nl);
	if (err)
		return err;
	if (nl->nl_groups)
		return -EOPNOTSUPP;
	return nl->nl_pid ? -ECONNREFUSED : 0;
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	if (sock_get(fd) && len > SHIM_SEND_MAX)
		return fail(-EMSGSIZE);
	return RESOLVE(send)(fd, buf, len, flags | (sock_get(fd) ? MSG_NOSIGNAL : 0));
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to,
	       socklen_t tolen)
{
	int err;

	if (!sock_get(fd))
		return RESOLVE(sendto)(fd, buf, len, flags, to, tolen);
	err = check_dest(to, tolen);
	if (!err && len > SHIM_SEND_MAX)
		err = -EMSGSIZE;
	if (err)
		return fail(err);
	return RESOLVE(send)(fd, buf, len, flags | MSG_NOSIGNAL);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct msghdr copy;
	size_t total = 0;
	int err;

	if (!sock_get(fd) || !msg)
		return RESOLVE(sendmsg)(fd, msg, flags);
	err = check_dest(msg->msg_name, msg->msg_namelen);
	for (size_t i = 0; !err && i < msg->msg_iovlen; i++)
		total += msg->msg_iov[i].iov_len;
	if (!err && total > SHIM_SEND_MAX)
		err = -EMSGSIZE;
	if (err)
		return fail(err);
	copy = *msg;	/* the name is ours to interpret; no control messages cross */
	copy.msg_name = NULL;
	copy.msg_namelen = 0;
	copy.msg_control = NULL;
	copy.msg_controllen = 0;
	return RESOLVE(sendmsg)(fd, &copy, flags | MSG_NOSIGNAL);
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
		 socklen_t *fromlen)
{
	ssize_t n;

	if (!sock_get(fd))
		return RESOLVE(recvfrom)(fd, buf, len, flags, from, fromlen);
	n = RESOLVE(recvfrom)(fd, buf, len, flags, NULL, NULL);
	if (n >= 0)
		put_nl_addr(from, fromlen, 0);
	return n;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	void *name;
	socklen_t namelen;
	ssize_t n;

	if (!sock_get(fd) || !msg)
		return RESOLVE(recvmsg)(fd, msg, flags);
	name = msg->msg_name;
	namelen = msg->msg_namelen;
	msg->msg_name = NULL;
	msg->msg_namelen = 0;
	n = RESOLVE(recvmsg)(fd, msg, flags);
	msg->msg_name = name;
	msg->msg_namelen = namelen;
	if (n >= 0 && name)
		put_nl_addr(name, &msg->msg_namelen, 0);
	return n;
}

int dup(int fd)
{
	int nfd = RESOLVE(dup)(fd);
	struct shim_sock *s = sock_get(fd);

	if (nfd >= 0 && s)
		table_set(nfd, s);
	return nfd;
}

int dup2(int fd, int nfd)
{
	int ret = RESOLVE(dup2)(fd, nfd);

	if (ret >= 0 && fd != nfd)
		table_set(ret, sock_get(fd));
	return ret;
}

int dup3(int fd, int nfd, int flags)
{
	int ret = RESOLVE(dup3)(fd, nfd, flags);

	if (ret >= 0)
		table_set(ret, sock_get(fd));
	return ret;
}

static int fcntl_common(int (*real)(int, int, ...), int fd, int cmd, void *arg)
{
	int ret = real(fd, cmd, arg);

	if (ret >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) && sock_get(fd))
		table_set(ret, sock_get(fd));
	return ret;
}

int fcntl(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);	/* glibc reads the argument the same way */
	va_end(ap);
	return fcntl_common(RESOLVE(fcntl), fd, cmd, arg);
}

int fcntl64(int fd, int cmd, ...);
int fcntl64(int fd, int cmd, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, cmd);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!RESOLVE(fcntl64))
		return fcntl_common(RESOLVE(fcntl), fd, cmd, arg);
	return fcntl_common(real_fcntl64, fd, cmd, arg);
}
