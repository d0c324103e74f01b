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
 * sockaddr_nl, recvfrom/recvmsg return the kernel's (port 0).  Every other socket goes to the
 * real kernel untouched, but other netlink protocols (NETLINK_ROUTE, ...) and the interface,
 * route and ARP ioctls only in the network namespace `kfsim exec` made (host_guard.c).
 *
 * Not supported, with the answer given: unicast to another user port (ECONNREFUSED, as for a
 * port nobody bound), sending to multicast groups (EOPNOTSUPP), NETLINK_LIST_MEMBERSHIPS and
 * NETLINK_PKTINFO control messages (ENOPROTOOPT / no cmsg).
 *
 * Invariants kept:
 *  - A simulated device never reaches the real kernel: an interface ioctl (SIOCETHTOOL, the MII
 *    and SIOC[GS]IF* requests) naming a device of the simulation answers EOPNOTSUPP, as a kernel
 *    without the feature would, and says so once on stderr; so does one naming it with an alias
 *    label (the kernel cuts "eth3:0" to eth3) or as a second device (a new name, a bond slave).
 *  - Outside the network namespace `kfsim exec` made, nothing the shim does not simulate reaches
 *    the real kernel through it: other netlink protocols and every interface, route and ARP
 *    ioctl are refused (host_guard.c), whatever device they name, and so are the requests that
 *    make a network device through another file (tun/tap, PPP, a network line discipline) and
 *    the socket options that configure the network beyond a socket (x_tables, IPVS, mroute).
 *    An ioctl's request is read as the kernel reads it, its low 32 bits.
 *  - dlsym() and dlvsym() find these wrappers, not libc's, also on libc's own handle (Python's
 *    ctypes.CDLL("libc.so.6")), by version, or by RTLD_NEXT from a library after the shim
 *    (dlsym_guard.c).
 *  - A netlink socket never reads end-of-file: when the server is gone every receive fails with
 *    ECONNRESET (poll reports POLLIN|POLLHUP, so a waiting program wakes up to see it), and the
 *    server's overrun marker (<kfsim/nl_remote.h>) becomes ENOBUFS as netlink_overrun() makes it,
 *    through every receive libc offers (recv, read, recvfrom, recvmsg, readv, recvmmsg and the
 *    _FORTIFY_SOURCE forms).
 *  - The descriptors in the table are checked to still be ours (same inode) before use: a
 *    number the program closed behind our back (close_range() by syscall, dup2() over it) and
 *    reused for another socket is forgotten, never written to; the hidden control descriptor
 *    cannot be closed by close()/close_range()/closefrom() while its socket lives.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>

#include <kfsim/err.h>
#include <kfsim/nl_client.h>
#include <kfsim/nl_server.h>
#include <kfsim/nl_remote.h>
#include "fd_table.h"
#include "host_guard.h"
#include "user_copy.h"

#define SHIM_SEND_MAX (64u * 1024u) /* what kfsim's kernel takes in one sendmsg() */

/* One netlink socket; several descriptors (dup, dup2, fcntl F_DUPFD) may share it. */
struct shim_sock {
	struct kfsim_nl_remote remote;
	int type;		/* SOCK_RAW or SOCK_DGRAM, for SO_TYPE */
	int refs;		/* descriptors of this process that refer to it */
	pthread_mutex_t ctl_lock; /* one control request at a time */
	int kept_err;		/* an error recvmmsg() met after some messages, for the next receive */
	dev_t data_dev, ctl_dev; /* what the descriptors were when we made them */
	ino_t data_ino, ctl_ino;
};

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;	/* fd_table.c's */
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;	/* the name cache's, below */

/*
 * table_lock is taken with every signal blocked: close(), dup2(), read() and write() of a
 * socket are async-signal-safe, and a handler's call on one of ours that interrupted its own
 * thread inside the lock waited for it for ever.  Each lets *@old go again at the end.
 */
static void table_lock_take(sigset_t *old)
{
	sigset_t all;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, old);
	pthread_mutex_lock(&table_lock);
}

static void table_lock_drop(const sigset_t *old)
{
	pthread_mutex_unlock(&table_lock);
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

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
static ssize_t (*real_recv)(int, void *, size_t, int);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_close_range)(unsigned int, unsigned int, int);
static void (*real_closefrom)(int);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_shutdown)(int, int);
static int (*real_sendmmsg)(int, struct mmsghdr *, unsigned int, int);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_readv)(int, const struct iovec *, int);
static int (*real_recvmmsg)(int, struct mmsghdr *, unsigned int, int, struct timespec *);
static int (*real_pidfd_getfd)(int, int, unsigned int);	/* glibc 2.36 */
static ssize_t (*real_pwritev)(int, const struct iovec *, int, off_t);
static ssize_t (*real_pwritev2)(int, const struct iovec *, int, off_t, int);
static ssize_t (*real_preadv)(int, const struct iovec *, int, off_t);
static ssize_t (*real_preadv2)(int, const struct iovec *, int, off_t, int);

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
	LOOKUP(recv);
	LOOKUP(read);
	LOOKUP(write);
	LOOKUP(close_range);
	LOOKUP(closefrom);
	LOOKUP(ioctl);
	LOOKUP(shutdown);
	LOOKUP(sendmmsg);
	LOOKUP(writev);
	LOOKUP(readv);
	LOOKUP(recvmmsg);
	LOOKUP(pidfd_getfd);
	LOOKUP(pwritev);
	LOOKUP(pwritev2);
	LOOKUP(preadv);
	LOOKUP(preadv2);
#undef LOOKUP
}

/* The libc function the program would have called. */
#define RESOLVE(name) (pthread_once(&resolve_once, resolve_all), real_##name)

/* ---- the descriptor table -------------------------------------------------------------- */

static bool same_file(int fd, dev_t dev, ino_t ino)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_dev == dev && st.st_ino == ino;
}

static void sock_put_locked(struct shim_sock *s)
{
	if (--s->refs)
		return;
	/*
	 * The data descriptor itself is closed by the caller's close(); only the control one here,
	 * and only if the number still holds it.  Its slot is left for a later tidy: this may run
	 * inside shim_fdt_for_each(), which must not lose a slot under it.
	 */
	if (s->remote.ctl_fd >= 0) {
		struct shim_fd_slot *slot = shim_fdt_find(s->remote.ctl_fd);

		if (slot && slot->ctl == s)
			shim_fdt_set_ctl(s->remote.ctl_fd, slot, NULL);
		if (same_file(s->remote.ctl_fd, s->ctl_dev, s->ctl_ino))
			RESOLVE(close)(s->remote.ctl_fd);
	}
	pthread_mutex_destroy(&s->ctl_lock);
	free(s);
}

/*
 * The socket @fd refers to, if it still does (a closed and reused number is forgotten), held
 * until sock_put(): another thread's close() of @fd meanwhile must not free it under the call
 * using it, as the kernel keeps a file while a system call uses it.  (Freed there, a bind()
 * waiting for its answer wrote the port id into freed memory, and the control descriptor's
 * number went to the program's next file: attacks.py "shim_threads".)
 */
static struct shim_sock *sock_get(int fd)
{
	struct shim_fd_slot *slot;
	struct shim_sock *s;
	int saved = errno;
	sigset_t old;

	if (!shim_fdt_may_hold(fd))
		return NULL;	/* the common case, without a lock: not one of ours */
	table_lock_take(&old);
	slot = shim_fdt_find(fd);
	s = slot ? slot->sock : NULL;
	if (s && !same_file(fd, s->data_dev, s->data_ino)) {
		shim_fdt_set_sock(fd, slot, NULL);
		sock_put_locked(s);
		shim_fdt_tidy(fd);
		s = NULL;
	}
	if (s)
		s->refs++;
	table_lock_drop(&old);
	errno = saved;	/* a stale number's fstat() is not the call's error */
	return s;
}

/* Drop sock_get()'s hold; errno is the call's, kept. */
static void sock_put(struct shim_sock *s)
{
	int saved = errno;
	sigset_t old;

	if (!s)
		return;
	table_lock_take(&old);
	sock_put_locked(s);
	table_lock_drop(&old);
	errno = saved;
}

/* Is @fd one of our sockets?  (For calls that use the descriptor alone.) */
static bool is_ours(int fd)
{
	struct shim_sock *s = sock_get(fd);

	sock_put(s);
	return s != NULL;
}

/*
 * Forget the far slots whose descriptor is gone (closed by syscall, or replaced past the shim)
 * each time they have doubled since the last sweep: so a program that dup2()s a socket to ever
 * new high numbers and closes them behind the shim's back keeps at most about twice the slots
 * it has descriptors (fd_table.c).
 */
static size_t far_sweep_at = 64;

static void sweep_slot(int fd, struct shim_fd_slot *slot, void *unused)
{
	struct shim_sock *s = slot->sock;

	(void)unused;
	if (s && !same_file(fd, s->data_dev, s->data_ino)) {
		shim_fdt_set_sock(fd, slot, NULL);
		sock_put_locked(s);
	}
	if (slot->ctl && !same_file(fd, slot->ctl->ctl_dev, slot->ctl->ctl_ino))
		shim_fdt_set_ctl(fd, slot, NULL);
}

/* The slot of @fd, made if needed (under table_lock); NULL when out of memory. */
static struct shim_fd_slot *table_add(int fd)
{
	if (shim_fdt_far_count() >= far_sweep_at) {
		shim_fdt_for_each(0, ~0u, sweep_slot, NULL);
		far_sweep_at = shim_fdt_far_count() * 2 > 64 ? shim_fdt_far_count() * 2 : 64;
	}
	return shim_fdt_add(fd);
}

/*
 * @fd now refers to @s too (a dup), or to nothing (@s NULL: it was closed or replaced).
 * Under table_lock.  -ENOMEM when @fd's slot cannot be made: @fd is not the shim's then.
 */
static int table_set_locked(int fd, struct shim_sock *s)
{
	struct shim_fd_slot *slot = s ? table_add(fd) : shim_fdt_find(fd);
	struct shim_sock *old;

	if (!slot)
		return s ? -ENOMEM : 0;
	old = slot->sock;
	if (s)
		s->refs++;	/* first: @old may be @s */
	shim_fdt_set_sock(fd, slot, s);
	if (old)
		sock_put_locked(old);
	shim_fdt_tidy(fd);
	return 0;
}

static int table_set(int fd, struct shim_sock *s)
{
	sigset_t old;
	int err;

	if (fd < 0)
		return 0;
	table_lock_take(&old);
	err = table_set_locked(fd, s);
	table_lock_drop(&old);
	return err;
}

/*
 * Is @fd a socket's hidden control descriptor?  Only while the number still holds the file we
 * made: one the program put there since (dup2() over it, or a number reused after a close by
 * syscall) is the program's own, to close as it likes.
 */
static bool is_hidden_ctl(int fd)
{
	struct shim_fd_slot *slot;
	struct shim_sock *owner;
	int saved = errno;
	sigset_t old;
	bool hidden;

	if (!shim_fdt_may_be_ctl(fd))
		return false;	/* every close() of the program's own files: without a lock */
	table_lock_take(&old);
	slot = shim_fdt_find(fd);
	owner = slot ? slot->ctl : NULL;
	hidden = owner && same_file(fd, owner->ctl_dev, owner->ctl_ino);
	if (owner && !hidden) {
		shim_fdt_set_ctl(fd, slot, NULL);
		shim_fdt_tidy(fd);
	}
	table_lock_drop(&old);
	errno = saved;
	return hidden;
}

/* A POSIX record lock on the control descriptor's whole file: @type F_WRLCK or F_UNLCK. */
static void ctl_record_lock(struct shim_sock *s, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };

	/* best effort: without it (ENOLCK) only processes sharing the socket may mix answers */
	while (RESOLVE(fcntl)(s->remote.ctl_fd, type == F_UNLCK ? F_SETLK : F_SETLKW, &fl) &&
	       errno == EINTR)
		;
}

/*
 * One control request at a time, and its answer read by the one who sent it: a mutex for this
 * process's threads, and a record lock for the processes that share the socket after fork(),
 * whose requests go out on the one control connection and whose answers came back to whichever
 * read first (measured: 13 of 600 getsockopt() answers each of a parent and its child were the
 * other's; attacks.py "shim_fork").  A control request may go out only on the descriptor we
 * made: else the socket lost it.
 */
static int ctl_begin(struct shim_sock *s)
{
	int saved = errno;

	pthread_mutex_lock(&s->ctl_lock);
	if (s->remote.ctl_fd < 0 || !same_file(s->remote.ctl_fd, s->ctl_dev, s->ctl_ino)) {
		pthread_mutex_unlock(&s->ctl_lock);
		return -ENOTCONN;
	}
	ctl_record_lock(s, F_WRLCK);
	errno = saved;
	return 0;
}

static void ctl_end(struct shim_sock *s)
{
	int saved = errno;

	ctl_record_lock(s, F_UNLCK);
	pthread_mutex_unlock(&s->ctl_lock);
	errno = saved;
}

/* ---- the kernel to talk to ------------------------------------------------------------- */
/*
 * fork() while another thread holds one of our locks: the child has that one thread only, and
 * a lock held by a thread it does not have stays held, so its first call that takes it hangs.
 * The table's and the name cache's locks are held for short steps: fork() waits for them.  A
 * control request's lock is held for a round trip to the server: the child starts each one
 * unlocked (the request in flight is the parent's, whose answer the record lock, not inherited
 * by the child, keeps from the child).  The forking thread holds the first two with every
 * signal blocked, as table_lock_take() does, so that no handler of its own waits for them.
 */
static sigset_t fork_mask;	/* the forking thread's signal mask, given back after */

static void shim_prefork(void)
{
	sigset_t all, old;

	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_mutex_lock(&names_lock);
	pthread_mutex_lock(&table_lock);
	fork_mask = old;
}

static void shim_postfork_parent(void)
{
	sigset_t old = fork_mask;

	pthread_mutex_unlock(&table_lock);
	pthread_mutex_unlock(&names_lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * Every live socket is behind a descriptor of the program's (its slot's sock) or its own hidden
 * control one (its slot's ctl, forgotten once the program dup2()s over that number); one met
 * twice is initialised twice, harmlessly: nobody holds it in the child.
 */
static void unlock_slot(int fd, struct shim_fd_slot *slot, void *unused)
{
	(void)fd;
	(void)unused;
	if (slot->sock)
		pthread_mutex_init(&slot->sock->ctl_lock, NULL);
	if (slot->ctl)
		pthread_mutex_init(&slot->ctl->ctl_lock, NULL);
}

static void shim_postfork_child(void)
{
	sigset_t old = fork_mask;

	shim_fdt_for_each(0, ~0u, unlock_slot, NULL);
	pthread_mutex_unlock(&table_lock);
	pthread_mutex_unlock(&names_lock);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * At load, before the program has threads: the table's lock is taken by close() and dup2() of
 * any descriptor that may be one of the shim's, and the name cache's by interface ioctls, with
 * no netlink socket ever opened.  Registered at the first socket() before, a child fork()ed
 * while another thread held one hung at its first close() of such a number (attacks.py
 * "shim_signals").  libc's calls are looked up here too, so that a signal handler's first call
 * never waits in pthread_once() for the thread it interrupted.
 */
__attribute__((constructor)) static void shim_load(void)
{
	pthread_atfork(shim_prefork, shim_postfork_parent, shim_postfork_child);
	pthread_once(&resolve_once, resolve_all);
}


static int shim_open(int type, int protocol, int flags)
{
	const char *path = getenv("KFSIM_KERNEL");
	struct shim_fd_slot *ctl_slot;
	struct shim_sock *s;
	sigset_t old;
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
		else if (err == -EACCES)
			fprintf(stderr, "kfsim-netlink: the kfsim kernel at %s runs as another user "
				"than root or you: refused (set KFSIM_KERNEL_OWNER to its user to "
				"trust it)\n", path);
		free(s);
		return err;
	}
	s->type = type;
	pthread_mutex_init(&s->ctl_lock, NULL);
	{
		struct stat data_st, ctl_st;

		if (fstat(s->remote.data_fd, &data_st) || fstat(s->remote.ctl_fd, &ctl_st)) {
			kfsim_nl_remote_close(&s->remote);
			free(s);
			return -EMFILE;
		}
		s->data_dev = data_st.st_dev;
		s->data_ino = data_st.st_ino;
		s->ctl_dev = ctl_st.st_dev;
		s->ctl_ino = ctl_st.st_ino;
	}
	table_lock_take(&old);
	ctl_slot = table_add(s->remote.ctl_fd);
	if (ctl_slot)
		shim_fdt_set_ctl(s->remote.ctl_fd, ctl_slot, s);
	err = ctl_slot ? table_set_locked(s->remote.data_fd, s) : -ENOMEM;
	if (err && ctl_slot) {
		shim_fdt_set_ctl(s->remote.ctl_fd, ctl_slot, NULL);
		shim_fdt_tidy(s->remote.ctl_fd);
	}
	table_lock_drop(&old);
	if (err) {
		kfsim_nl_remote_close(&s->remote);
		pthread_mutex_destroy(&s->ctl_lock);
		free(s);
		return err;
	}
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

	/*
	 * PF_KEY (RFC 2367) is the other way to the IPsec tables NETLINK_XFRM reaches: setkey's
	 * SADB_ADD and SADB_X_SPDADD add SAs and policies to the namespace's xfrm state, which
	 * outlive the socket (net/key/af_key.c, Linux 6.18; this kernel has no PF_KEY).  Refused
	 * where NETLINK_XFRM is, as sock_create() answers a family nobody registered.
	 */
	if (domain == AF_KEY && !shim_in_exec_netns()) {
		shim_say_host_refused_as("socket(AF_KEY, ...)", "EAFNOSUPPORT");
		return fail(-EAFNOSUPPORT);
	}
	if (domain != AF_NETLINK)
		return RESOLVE(socket)(domain, type, protocol);
	/* __sys_socket_create(): a flag bit above the type's other than these two is EINVAL */
	if (base & ~0xf)
		return fail(-EINVAL);
	if (base != SOCK_RAW && base != SOCK_DGRAM)
		return fail(-ESOCKTNOSUPPORT);	/* netlink_create() */
	if (protocol != NETLINK_GENERIC) {
		char what[64];

		if (shim_in_exec_netns())
			return RESOLVE(socket)(domain, type, protocol);
		/* as netlink_create() answers a protocol nobody registered (host_guard.c) */
		snprintf(what, sizeof(what), "socket(AF_NETLINK, ..., %s%d)",
			 protocol == NETLINK_ROUTE ? "NETLINK_ROUTE = " : "", protocol);
		shim_say_host_refused(true, what);
		return fail(-EPROTONOSUPPORT);
	}
	fd = shim_open(base, protocol, type & (SOCK_NONBLOCK | SOCK_CLOEXEC));
	return fd < 0 ? fail(fd) : fd;
}

int close(int fd)
{
	struct shim_sock *s = sock_get(fd);

	if (s) {
		table_set(fd, NULL);
		sock_put(s);
	} else if (is_hidden_ctl(fd))
		return fail(-EBADF);	/* not the program's: as if it were not open */
	return RESOLVE(close)(fd);
}

static void drop_sock(int fd, struct shim_fd_slot *slot, void *unused)
{
	struct shim_sock *s = slot->sock;

	(void)unused;
	if (s) {
		shim_fdt_set_sock(fd, slot, NULL);
		sock_put_locked(s);
	}
}

/* The lowest hidden control descriptor still ours, into *@arg (-1: none); the stale forgotten. */
static void lowest_hidden(int fd, struct shim_fd_slot *slot, void *arg)
{
	int *lowest = arg;

	if (!slot->ctl)
		return;
	if (!same_file(fd, slot->ctl->ctl_dev, slot->ctl->ctl_ino))
		shim_fdt_set_ctl(fd, slot, NULL);
	else if (*lowest < 0 || fd < *lowest)
		*lowest = fd;
}

/*
 * Close [first, last] except the hidden control descriptors of sockets that stay open, at any
 * number (a socket's descriptors may lie anywhere up to INT_MAX: fd_table.c).  Each hidden one
 * is found by a walk of the table's slots in the rest of the range, so no list is allocated.
 */
static int close_span(unsigned int first, unsigned int last, int flags)
{
	unsigned int from = first;
	bool done = false;
	sigset_t old;
	int err = 0;

	if (flags & CLOSE_RANGE_CLOEXEC)	/* marks only: nothing is closed */
		return RESOLVE(close_range)(first, last, flags);
	table_lock_take(&old);
	shim_fdt_for_each(first, last, drop_sock, NULL);
	table_lock_drop(&old);
	while (!done) {
		int hidden = -1;
		unsigned int upto = last;

		table_lock_take(&old);
		shim_fdt_for_each(from, last, lowest_hidden, &hidden);
		table_lock_drop(&old);
		if (hidden >= 0)
			upto = (unsigned int)hidden - 1;
		/* the first failure's errno, not a later fstat()'s */
		if ((hidden < 0 || (unsigned int)hidden > from) &&
		    RESOLVE(close_range)(from, upto, flags) && !err)
			err = errno;
		done = hidden < 0 || (unsigned int)hidden == last;
		from = (unsigned int)hidden + 1;
	}
	return err ? fail(-err) : 0;
}

/*
 * close_range() (fs/file.c, Linux 6.18): flags other than CLOSE_RANGE_UNSHARE and
 * CLOSE_RANGE_CLOEXEC are EINVAL before anything is closed.  Checked here first: passed to
 * close_span(), the sockets in the range were forgotten and then nothing was closed, so they
 * went on as bare UNIX sockets (their options, sends over 64 KiB and addresses unchecked).
 */
int close_range(unsigned int first, unsigned int last, int flags)
{
	if (first > last || (flags & ~(CLOSE_RANGE_UNSHARE | CLOSE_RANGE_CLOEXEC)))
		return fail(-EINVAL);
	if (!RESOLVE(close_range))
		return fail(-ENOSYS);
	return close_span(first, last, flags);
}

void closefrom(int lowfd)
{
	if (lowfd < 0)
		lowfd = 0;
	if (RESOLVE(close_range))
		close_span((unsigned int)lowfd, ~0u, 0);
	else if (RESOLVE(closefrom))
		real_closefrom(lowfd);
}

/*
 * The address a call names, as move_addr_to_kernel() takes it: longer than a sockaddr_storage
 * is EINVAL, unreadable EFAULT (checked first, as the kernel copies before the family looks).
 */
static int user_addr(const struct sockaddr *addr, socklen_t len, struct sockaddr_storage *kaddr)
{
	memset(kaddr, 0, sizeof(*kaddr));
	if ((int)len < 0 || len > sizeof(*kaddr))
		return -EINVAL;
	return shim_copy_from_user(kaddr, addr, len);
}

/* netlink_bind()'s checks of the address it was given, into @nl. */
static int nl_addr(const struct sockaddr *addr, socklen_t len, struct sockaddr_nl *nl)
{
	struct sockaddr_storage kaddr;
	int err = user_addr(addr, len, &kaddr);

	if (err)
		return err;
	if (len < sizeof(*nl) || kaddr.ss_family != AF_NETLINK)
		return -EINVAL;
	memcpy(nl, &kaddr, sizeof(*nl));
	return 0;
}

static int shim_bind(struct shim_sock *s, int fd, const struct sockaddr *addr, socklen_t len)
{
	struct sockaddr_nl nl;
	int err;

	err = nl_addr(addr, len, &nl);
	if (!err)
		err = ctl_begin(s);
	if (!err) {
		err = kfsim_nl_remote_bind(&s->remote, nl.nl_pid, nl.nl_groups);
		ctl_end(s);
	}
	return err ? fail(err) : 0;
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct shim_sock *s = sock_get(fd);
	int ret;

	if (!s)
		return RESOLVE(bind)(fd, addr, len);
	ret = shim_bind(s, fd, addr, len);
	sock_put(s);
	return ret;
}

static int shim_connect(struct shim_sock *s, int fd, const struct sockaddr *addr, socklen_t len)
{
	struct sockaddr_storage kaddr;
	struct sockaddr_nl nl;
	int err;

	err = user_addr(addr, len, &kaddr);
	if (err)
		return fail(err);
	/* netlink_connect() */
	if (len < sizeof(sa_family_t))
		return fail(-EINVAL);
	if (kaddr.ss_family == AF_UNSPEC)
		return 0;	/* disconnect */
	if (kaddr.ss_family != AF_NETLINK || len < sizeof(nl))
		return fail(-EINVAL);
	memcpy(&nl, &kaddr, sizeof(nl));
	if (nl.nl_groups)
		return fail(-EOPNOTSUPP);
	if (nl.nl_pid)
		return fail(-ECONNREFUSED);
	err = ctl_begin(s);
	if (err)
		return fail(err);
	err = kfsim_nl_remote_bind(&s->remote, 0, 0);	/* netlink_connect() autobinds */
	ctl_end(s);
	return err ? fail(err) : 0;
}

int connect(int fd, const struct sockaddr *addr, socklen_t len)
{
	struct shim_sock *s = sock_get(fd);
	int ret;

	if (!s)
		return RESOLVE(connect)(fd, addr, len);
	ret = shim_connect(s, fd, addr, len);
	sock_put(s);
	return ret;
}

/*
 * netlink_ops has no shutdown (sock_no_shutdown(): EOPNOTSUPP).  Passed on, it would shut the
 * descriptor's UNIX socket for reading, which a netlink socket never is.
 */
int shutdown(int fd, int how)
{
	if (!is_ours(fd))
		return RESOLVE(shutdown)(fd, how);
	return fail(-EOPNOTSUPP);
}

/*
 * move_addr_to_user() of the kernel's address (port @portid): at most *@len bytes of it to
 * @addr, its full length to *@len.  0, -EINVAL for a negative length, -EFAULT.
 */
static int put_nl_addr(struct sockaddr *addr, socklen_t *len, u32 portid)
{
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_pid = portid };
	int have, size = sizeof(nl);

	if (shim_copy_from_user(&have, len, sizeof(have)))
		return -EFAULT;
	if (have < 0)
		return -EINVAL;
	if (shim_copy_to_user(addr, &nl, have < size ? (size_t)have : sizeof(nl)) ||
	    shim_copy_to_user(len, &size, sizeof(size)))
		return -EFAULT;
	return 0;
}

int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	struct shim_sock *s = sock_get(fd);
	u32 portid;
	int err;

	if (!s)
		return RESOLVE(getsockname)(fd, addr, len);
	portid = s->remote.portid;
	sock_put(s);
	err = put_nl_addr(addr, len, portid);
	return err ? fail(err) : 0;
}

int getpeername(int fd, struct sockaddr *addr, socklen_t *len)
{
	int err;

	if (!is_ours(fd))
		return RESOLVE(getpeername)(fd, addr, len);
	err = put_nl_addr(addr, len, 0);
	return err ? fail(err) : 0;
}

static int shim_setsockopt(struct shim_sock *s, int fd, int level, int name, const void *val,
			   socklen_t len)
{
	int v = 0, err;

	if (level != SOL_NETLINK)
		return RESOLVE(setsockopt)(fd, level, name, val, len);
	/* netlink_setsockopt(): an int when optlen allows one, 0 otherwise */
	if (len >= sizeof(int) && shim_copy_from_user(&v, val, sizeof(v)))
		return fail(-EFAULT);
	err = ctl_begin(s);
	if (err)
		return fail(err);
	err = kfsim_nl_remote_setsockopt(&s->remote, name, (u32)v);
	ctl_end(s);
	return err ? fail(err) : 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	struct shim_sock *s = sock_get(fd);
	int ret;

	if (!s && shim_sockopt_configures(level, name) && !shim_in_exec_netns()) {
		char what[48];

		snprintf(what, sizeof(what), "setsockopt(..., %d, %d, ...)", level, name);
		shim_say_host_refused_as(what, "ENOPROTOOPT");
		/* as nf_setsockopt() answers without the table's module */
		return fail(-ENOPROTOOPT);
	}
	if (!s)
		return RESOLVE(setsockopt)(fd, level, name, val, len);
	ret = shim_setsockopt(s, fd, level, name, val, len);
	sock_put(s);
	return ret;
}

/* An int option's answer, as netlink_getsockopt() gives it: the length read first. */
static int put_int(void *val, socklen_t *len, int v)
{
	int have, size = sizeof(int);

	if (shim_copy_from_user(&have, len, sizeof(have)))
		return fail(-EFAULT);
	if (have < (int)sizeof(int))
		return fail(-EINVAL);
	if (shim_copy_to_user(len, &size, sizeof(size)) || shim_copy_to_user(val, &v, sizeof(v)))
		return fail(-EFAULT);
	return 0;
}

/*
 * A SOL_SOCKET int option's answer, as sk_getsockopt() (net/core/sock.c, Linux 6.18) gives it:
 * a negative length EINVAL, a shorter one than an int gets that many bytes of it (put_int()'s
 * EINVAL is netlink_getsockopt()'s, not this).
 */
static int put_sock_int(void *val, socklen_t *len, int v)
{
	int have;

	if (shim_copy_from_user(&have, len, sizeof(have)))
		return fail(-EFAULT);
	if (have < 0)
		return fail(-EINVAL);
	if (have > (int)sizeof(v))
		have = sizeof(v);
	if (shim_copy_to_user(val, &v, (size_t)have) ||
	    shim_copy_to_user(len, &have, sizeof(have)))
		return fail(-EFAULT);
	return 0;
}

static int shim_getsockopt(struct shim_sock *s, int fd, int level, int name, void *val,
			   socklen_t *len)
{
	u32 v = 0;
	int err;

	if (level == SOL_SOCKET && name == SO_TYPE)
		return put_sock_int(val, len, s->type);
	if (level == SOL_SOCKET && name == SO_DOMAIN)
		return put_sock_int(val, len, AF_NETLINK);
	if (level == SOL_SOCKET && name == SO_PROTOCOL)
		return put_sock_int(val, len, NETLINK_GENERIC);
	if (level != SOL_NETLINK)
		return RESOLVE(getsockopt)(fd, level, name, val, len);
	err = ctl_begin(s);
	if (err)
		return fail(err);
	err = kfsim_nl_remote_getsockopt(&s->remote, name, &v);
	ctl_end(s);
	return err ? fail(err) : put_int(val, len, (int)v);
}

int getsockopt(int fd, int level, int name, void *val, socklen_t *len)
{
	struct shim_sock *s = sock_get(fd);
	int ret;

	if (!s)
		return RESOLVE(getsockopt)(fd, level, name, val, len);
	ret = shim_getsockopt(s, fd, level, name, val, len);
	sock_put(s);
	return ret;
}

/* Where a sendto/sendmsg names a destination: only the kernel (port 0) is reachable. */
static int check_dest(const void *name, socklen_t len)
{
	struct sockaddr_storage kaddr;
	struct sockaddr_nl nl;
	int err;

	if (!name || !len)
		return 0;	/* no destination: the socket's own */
	err = user_addr(name, len, &kaddr);
	if (err)
		return err;
	if (len < sizeof(nl) || kaddr.ss_family != AF_NETLINK)
		return -EINVAL;
	memcpy(&nl, &kaddr, sizeof(nl));
	if (nl.nl_groups)
		return -EOPNOTSUPP;
	return nl.nl_pid ? -ECONNREFUSED : 0;
}

/*
 * netlink_sendmsg()'s first checks: MSG_OOB is EOPNOTSUPP, an empty message ENODATA (the socket
 * stays as it was), more than the kernel takes EMSGSIZE.
 */
static int check_send(size_t len, int flags)
{
	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (!len)
		return -ENODATA;
	return len > SHIM_SEND_MAX ? -EMSGSIZE : 0;
}

/* A send on a socket whose server is gone fails as a reset connection, not with SIGPIPE. */
static ssize_t sent(ssize_t n)
{
	if (n < 0 && errno == EPIPE)
		errno = ECONNRESET;
	return n;
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	int err;

	if (!is_ours(fd))
		return RESOLVE(send)(fd, buf, len, flags);
	err = check_send(len, flags);
	if (err)
		return fail(err);
	return sent(RESOLVE(send)(fd, buf, len, flags | MSG_NOSIGNAL));
}

ssize_t write(int fd, const void *buf, size_t len)
{
	int err;

	if (!is_ours(fd))
		return RESOLVE(write)(fd, buf, len);
	err = check_send(len, 0);
	if (err)
		return fail(err);
	return sent(RESOLVE(send)(fd, buf, len, MSG_NOSIGNAL));
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *to,
	       socklen_t tolen)
{
	int err;

	if (!is_ours(fd))
		return RESOLVE(sendto)(fd, buf, len, flags, to, tolen);
	err = check_send(len, flags);
	if (!err)
		err = check_dest(to, tolen);
	if (err)
		return fail(err);
	return sent(RESOLVE(send)(fd, buf, len, flags | MSG_NOSIGNAL));
}

#define SHIM_STACK_IOV 8

/*
 * The program's @nr iovecs at @uiov, copied as import_iovec() copies them (more than
 * UIO_MAXIOV: EMSGSIZE for a message, EINVAL for writev()/readv(): @too_many; unreadable:
 * EFAULT; a length past SSIZE_MAX in all: EINVAL), into @stack when they fit: the array, to
 * free() unless it is @stack, or NULL with *@err.  The copy is what goes to the kernel, so the
 * lengths checked are the lengths sent, whatever another thread writes meanwhile.
 */
static struct iovec *iov_copy(const struct iovec *uiov, size_t nr, int too_many,
			      struct iovec stack[SHIM_STACK_IOV], size_t *total, int *err)
{
	struct iovec *iov = stack;

	*total = 0;
	if (nr > UIO_MAXIOV) {
		*err = too_many;
		return NULL;
	}
	if (nr > SHIM_STACK_IOV && !(iov = malloc(nr * sizeof(*iov)))) {
		*err = -ENOMEM;
		return NULL;
	}
	*err = shim_copy_from_user(iov, uiov, nr * sizeof(*iov));
	for (size_t i = 0; !*err && i < nr; i++) {
		if (iov[i].iov_len > (size_t)SSIZE_MAX - *total)
			*err = -EINVAL;
		else
			*total += iov[i].iov_len;
	}
	if (*err && iov != stack)
		free(iov);
	return *err ? NULL : iov;
}

/* A message of @iov (copied) with @name (the program's): netlink_sendmsg()'s checks, then out. */
static ssize_t send_iov(int fd, struct iovec *iov, size_t nr, size_t total, const void *name,
			socklen_t namelen, int flags)
{
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = nr };
	int err = check_send(total, flags);

	if (!err)
		err = check_dest(name, namelen);
	if (err)
		return fail(err);
	/* the name is ours to interpret; no control messages cross */
	return sent(RESOLVE(sendmsg)(fd, &msg, flags | MSG_NOSIGNAL));
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct iovec stack[SHIM_STACK_IOV], *iov;
	struct msghdr kmsg;
	size_t total;
	ssize_t n;
	int err;

	if (!is_ours(fd))
		return RESOLVE(sendmsg)(fd, msg, flags);
	if (shim_copy_from_user(&kmsg, msg, sizeof(kmsg)))
		return fail(-EFAULT);	/* copy_msghdr_from_user() */
	iov = iov_copy(kmsg.msg_iov, kmsg.msg_iovlen, -EMSGSIZE, stack, &total, &err);
	if (!iov)
		return fail(err);
	n = send_iov(fd, iov, kmsg.msg_iovlen, total, kmsg.msg_name, kmsg.msg_namelen, flags);
	if (iov != stack)
		free(iov);
	return n;
}

/*
 * writev() is sendmsg() without a name (sock_write_iter()): the same checks, but nothing at
 * all is 0, never reaching the socket (vfs_writev()).  Passed to libc, a buffer over
 * SHIM_SEND_MAX went out whole, the server dropped it unrun, and the program waited for ever
 * for an answer (Linux runs it; send() of the same says EMSGSIZE).
 */
/* writev() of one of ours, with the send's @flags (MSG_DONTWAIT for pwritev2()'s RWF_NOWAIT) */
static ssize_t shim_writev(int fd, const struct iovec *uiov, int iovcnt, int flags)
{
	struct iovec stack[SHIM_STACK_IOV], *iov;
	size_t total;
	ssize_t n;
	int err;

	iov = iov_copy(uiov, (size_t)iovcnt, -EINVAL, stack, &total, &err);
	if (!iov)
		return fail(err);
	n = total ? send_iov(fd, iov, (size_t)iovcnt, total, NULL, 0, flags) : 0;
	if (iov != stack)
		free(iov);
	return n;
}

ssize_t writev(int fd, const struct iovec *uiov, int iovcnt)
{
	if (!is_ours(fd) || iovcnt < 0)
		return RESOLVE(writev)(fd, uiov, iovcnt);
	return shim_writev(fd, uiov, iovcnt, 0);
}

/*
 * __sys_sendmmsg(): each message as sendmsg() sends it (so each gets netlink_sendmsg()'s
 * checks: ENODATA, EMSGSIZE, a destination other than the kernel); the count sent, or the
 * first message's error.  Passed to libc whole, an empty or oversized message went to the
 * server unchecked, and its control messages along.
 */
int sendmmsg(int fd, struct mmsghdr *vec, unsigned int vlen, int flags)
{
	unsigned int i;

	if (!is_ours(fd) || !vec)
		return RESOLVE(sendmmsg)(fd, vec, vlen, flags);
	if (vlen > UIO_MAXIOV)
		vlen = UIO_MAXIOV;
	for (i = 0; i < vlen; i++) {
		ssize_t n = sendmsg(fd, &vec[i].msg_hdr, flags);
		unsigned int len = (unsigned int)n;

		if (n >= 0 && shim_copy_to_user(&vec[i].msg_len, &len, sizeof(len)))
			n = fail(-EFAULT);
		if (n < 0)
			return i ? (int)i : -1;
	}
	return (int)i;
}

/*
 * What a receive of @n bytes into @buf means on a netlink socket: the server's overrun marker
 * is ENOBUFS (consumed even by MSG_PEEK, as sock_error() clears sk_err), and the end of the
 * stream, which a netlink socket never has, is ECONNRESET.
 */
static ssize_t received(int fd, ssize_t n, const void *buf, size_t len, int flags)
{
	struct pollfd hup = { .fd = fd, .events = POLLRDHUP };
	char sink[KFSIM_NL_WIRE_OVERRUN_LEN];

	if (n == (ssize_t)KFSIM_NL_WIRE_OVERRUN_LEN && len >= KFSIM_NL_WIRE_OVERRUN_LEN &&
	    kfsim_nl_wire_is_overrun(buf, n)) {
		if (flags & MSG_PEEK)
			RESOLVE(recv)(fd, sink, sizeof(sink), MSG_DONTWAIT);
		return fail(-ENOBUFS);
	}
	if (n == 0 && poll(&hup, 1, 0) > 0 && (hup.revents & (POLLHUP | POLLRDHUP | POLLERR)))
		return fail(-ECONNRESET);
	return n;
}

/*
 * Before a receive on @fd: 1 when it is not ours, 0 when it is, or the error recvmmsg() kept
 * for this receive (-errno, then forgotten: sock_error() clears sk_err as it reports it).
 */
static int recv_begin(int fd)
{
	struct shim_sock *s = sock_get(fd);
	int err;

	if (!s)
		return 1;
	err = __atomic_exchange_n(&s->kept_err, 0, __ATOMIC_ACQ_REL);
	sock_put(s);
	return err;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	int begin = recv_begin(fd);

	if (begin > 0)
		return RESOLVE(recv)(fd, buf, len, flags);
	if (begin < 0)
		return fail(begin);
	return received(fd, RESOLVE(recv)(fd, buf, len, flags), buf, len, flags);
}

ssize_t read(int fd, void *buf, size_t len)
{
	int begin = recv_begin(fd);

	if (begin > 0)
		return RESOLVE(read)(fd, buf, len);
	if (begin < 0)
		return fail(begin);
	return received(fd, RESOLVE(recv)(fd, buf, len, 0), buf, len, 0);
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *from,
		 socklen_t *fromlen)
{
	int begin = recv_begin(fd);
	ssize_t n;

	if (begin > 0)
		return RESOLVE(recvfrom)(fd, buf, len, flags, from, fromlen);
	if (begin < 0)
		return fail(begin);
	n = received(fd, RESOLVE(recvfrom)(fd, buf, len, flags, NULL, NULL), buf, len, flags);
	if (n >= 0 && from) {
		int err = put_nl_addr(from, fromlen, 0);

		if (err)
			return fail(err);	/* as __sys_recvfrom(): the message is gone */
	}
	return n;
}

/*
 * ___sys_recvmsg(): the program's msghdr copied in (EFAULT), the message received, then what
 * the kernel writes back: the source address (the kernel's) where a name was given, and
 * msg_flags and msg_controllen.
 */
ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	struct msghdr kmsg;
	struct iovec first;
	void *name;
	ssize_t n;
	int begin;

	if (!is_ours(fd))
		return RESOLVE(recvmsg)(fd, msg, flags);
	if (shim_copy_from_user(&kmsg, msg, sizeof(kmsg)))
		return fail(-EFAULT);
	begin = recv_begin(fd);
	if (begin > 0)
		return RESOLVE(recvmsg)(fd, msg, flags);	/* closed meanwhile */
	if (begin < 0)
		return fail(begin);
	name = kmsg.msg_name;
	kmsg.msg_name = NULL;
	kmsg.msg_namelen = 0;
	n = RESOLVE(recvmsg)(fd, &kmsg, flags);
	if (n == (ssize_t)KFSIM_NL_WIRE_OVERRUN_LEN && kmsg.msg_iovlen &&
	    !shim_copy_from_user(&first, kmsg.msg_iov, sizeof(first)) &&
	    first.iov_len >= KFSIM_NL_WIRE_OVERRUN_LEN)
		n = received(fd, n, first.iov_base, first.iov_len, flags);
	else if (n == 0)
		n = received(fd, n, NULL, 0, flags);
	if (n < 0)
		return n;
	if (name) {
		int err = put_nl_addr(name, &msg->msg_namelen, 0);

		if (err)
			return fail(err);
	}
	if (shim_copy_to_user(&msg->msg_flags, &kmsg.msg_flags, sizeof(kmsg.msg_flags)) ||
	    shim_copy_to_user(&msg->msg_controllen, &kmsg.msg_controllen,
			      sizeof(kmsg.msg_controllen)))
		return fail(-EFAULT);
	return n;
}

/* readv() is recvmsg() without a name (sock_read_iter()): the overrun marker and a hang-up too. */
/* readv() of one of ours, with the receive's @flags (as shim_writev()) */
static ssize_t shim_readv(int fd, const struct iovec *uiov, int iovcnt, int flags)
{
	struct iovec stack[SHIM_STACK_IOV], *iov;
	struct msghdr msg = { 0 };
	size_t total;
	ssize_t n;
	int err;

	iov = iov_copy(uiov, (size_t)iovcnt, -EINVAL, stack, &total, &err);
	if (!iov)
		return fail(err);
	msg.msg_iov = iov;
	msg.msg_iovlen = (size_t)iovcnt;
	n = total ? recvmsg(fd, &msg, flags) : 0;	/* nothing to read into: 0, as vfs_readv() */
	if (iov != stack)
		free(iov);
	return n;
}

ssize_t readv(int fd, const struct iovec *uiov, int iovcnt)
{
	if (!is_ours(fd) || iovcnt < 0)
		return RESOLVE(readv)(fd, uiov, iovcnt);
	return shim_readv(fd, uiov, iovcnt, 0);
}

/*
 * pwritev(), pwritev2(), preadv() and preadv2() at offset -1 write and read a file as writev()
 * and readv() do (do_pwritev(), do_preadv()), and a socket has no other offset (ESPIPE): a 100
 * KiB pwritev(fd, ..., -1) went out whole past the shim, where writev() answers EMSGSIZE, and
 * the server dropped it unrun (measured 2026-12-07, attack "shim_iov").  RWF_NOWAIT is
 * MSG_DONTWAIT, as sock_write_iter() and sock_read_iter() make IOCB_NOWAIT; the other flags
 * change nothing on a socket.  The *64 names are the same calls on a 64-bit libc.
 */
static ssize_t shim_prwv(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags,
			 bool write)
{
	int msg_flags = (flags & RWF_NOWAIT) ? MSG_DONTWAIT : 0;

	if (offset != -1)
		return fail(-ESPIPE);
	return write ? shim_writev(fd, iov, iovcnt, msg_flags) :
		       shim_readv(fd, iov, iovcnt, msg_flags);
}

ssize_t pwritev(int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	if (!is_ours(fd) || iovcnt < 0)
		return RESOLVE(pwritev)(fd, iov, iovcnt, offset);
	return shim_prwv(fd, iov, iovcnt, offset, 0, true);
}

ssize_t pwritev2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
{
	if (is_ours(fd) && iovcnt >= 0)
		return shim_prwv(fd, iov, iovcnt, offset, flags, true);
	return RESOLVE(pwritev2) ? real_pwritev2(fd, iov, iovcnt, offset, flags) : fail(-ENOSYS);
}

ssize_t preadv(int fd, const struct iovec *iov, int iovcnt, off_t offset)
{
	if (!is_ours(fd) || iovcnt < 0)
		return RESOLVE(preadv)(fd, iov, iovcnt, offset);
	return shim_prwv(fd, iov, iovcnt, offset, 0, false);
}

ssize_t preadv2(int fd, const struct iovec *iov, int iovcnt, off_t offset, int flags)
{
	if (is_ours(fd) && iovcnt >= 0)
		return shim_prwv(fd, iov, iovcnt, offset, flags, false);
	return RESOLVE(preadv2) ? real_preadv2(fd, iov, iovcnt, offset, flags) : fail(-ENOSYS);
}

/* @err for @fd's next receive, as __sys_recvmmsg() leaves it in sk_err. */
static void keep_error(int fd, int err)
{
	struct shim_sock *s = sock_get(fd);

	if (s)
		__atomic_store_n(&s->kept_err, err, __ATOMIC_RELEASE);
	sock_put(s);
}

/*
 * __sys_recvmmsg(): each message as recvmsg() receives it (the source address, the overrun
 * marker as ENOBUFS, a hang-up as ECONNRESET); after the first, MSG_WAITFORONE waits no more;
 * the timeout is looked at only between messages, as the kernel does; an error after some
 * messages ends the batch with its count and is kept for the next receive (keep_error(): the
 * overrun marker is read once, and its ENOBUFS was lost in 1 of 5 runs before).  Passed to libc,
 * the names were left empty and the overrun marker read as a message.
 */
int recvmmsg(int fd, struct mmsghdr *vec, unsigned int vlen, int flags, struct timespec *timeout)
{
	struct timespec end, now, wait;
	unsigned int i;

	if (!is_ours(fd) || !vec)
		return RESOLVE(recvmmsg)(fd, vec, vlen, flags, timeout);
	if (timeout) {
		if (shim_copy_from_user(&wait, timeout, sizeof(wait)))
			return fail(-EFAULT);
		if (wait.tv_sec < 0 || wait.tv_nsec < 0 || wait.tv_nsec >= 1000000000L)
			return fail(-EINVAL);
		clock_gettime(CLOCK_MONOTONIC, &end);
		/*
		 * timespec64_add_safe() (Linux 6.18): a sum past the largest time is that time.  As it
		 * came, { LONG_MAX, 0 } overflowed end.tv_sec (undefined: a deadline in the past).
		 */
		if (wait.tv_sec > LONG_MAX - 1 - end.tv_sec) {
			end.tv_sec = LONG_MAX;	/* TIME64_MAX */
			end.tv_nsec = 0;
		} else {
			end.tv_sec += wait.tv_sec;
			end.tv_nsec += wait.tv_nsec;
			if (end.tv_nsec >= 1000000000L) {
				end.tv_sec++;
				end.tv_nsec -= 1000000000L;
			}
		}
	}
	if (vlen > UIO_MAXIOV)
		vlen = UIO_MAXIOV;
	for (i = 0; i < vlen; i++) {
		ssize_t n = recvmsg(fd, &vec[i].msg_hdr, flags & ~MSG_WAITFORONE);
		unsigned int len = (unsigned int)n;

		if (n >= 0 && shim_copy_to_user(&vec[i].msg_len, &len, sizeof(len)))
			n = fail(-EFAULT);
		if (n < 0 && i && errno != EAGAIN)
			keep_error(fd, -errno);	/* reported by the next receive */
		if (n < 0)
			return i ? (int)i : -1;
		if (flags & MSG_WAITFORONE)
			flags |= MSG_DONTWAIT;
		if (timeout) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > end.tv_sec ||
			    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec)) {
				i++;
				break;
			}
		}
	}
	if (timeout) {
		/* what is left, as a timespec: in nanoseconds it overflowed past 292 years */
		clock_gettime(CLOCK_MONOTONIC, &now);
		wait.tv_sec = end.tv_sec - now.tv_sec;
		wait.tv_nsec = end.tv_nsec - now.tv_nsec;
		if (wait.tv_nsec < 0) {
			wait.tv_sec--;
			wait.tv_nsec += 1000000000L;
		}
		if (wait.tv_sec < 0)
			wait.tv_sec = wait.tv_nsec = 0;
		if (shim_copy_to_user(timeout, &wait, sizeof(wait)))
			return i ? (int)i : fail(-EFAULT);
	}
	return (int)i;
}

/*
 * _FORTIFY_SOURCE turns recv(), recvfrom() and read() into a buffer you can see the size of into
 * these, and glibc's run its own receive inside, past the wrappers above: the overrun marker
 * read as a message, a hang-up as end-of-file, the source left as the UNIX socket's.
 */
extern void __chk_fail(void) __attribute__((noreturn));
ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags);
ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen, int flags,
		       struct sockaddr *from, socklen_t *fromlen);
ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen);

ssize_t __recv_chk(int fd, void *buf, size_t len, size_t buflen, int flags)
{
	if (len > buflen)
		__chk_fail();
	return recv(fd, buf, len, flags);
}

ssize_t __recvfrom_chk(int fd, void *buf, size_t len, size_t buflen, int flags,
		       struct sockaddr *from, socklen_t *fromlen)
{
	if (len > buflen)
		__chk_fail();
	return recvfrom(fd, buf, len, flags, from, fromlen);
}

ssize_t __read_chk(int fd, void *buf, size_t len, size_t buflen)
{
	if (len > buflen)
		__chk_fail();
	return read(fd, buf, len);
}

/*
 * @nfd (-1: the copy failed) is a new copy of the descriptor that referred to @s (NULL: none
 * of ours) when the copy began, @s held since: @nfd is of @s too, or of none of ours; @nfd, or
 * -1 with ENOMEM and @nfd closed when the shim cannot remember it (a far slot: fd_table.c), for
 * a copy the shim forgot would take the socket's options and sends to the kernel unchecked.
 * The socket is taken before the copy is made, so that another thread's close() of the old
 * number in between does not leave the copy forgotten, as the kernel's dup2() then close()
 * leaves the copy a netlink socket; and the copy is checked to be of that very file.
 * The copy's number's slot is touched only if it may hold a socket (dup2() over one of ours);
 * the other copies never take the lock (dup2() is async-signal-safe).
 */
static int dup_done(struct shim_sock *s, int nfd)
{
	int saved = errno, err = 0;

	if (nfd < 0) {
		sock_put(s);	/* keeps the copy's errno */
		return nfd;
	}
	if (s && !same_file(nfd, s->data_dev, s->data_ino)) {
		sock_put(s);	/* the old number held another file by the time it was copied */
		s = NULL;
	}
	if (s || shim_fdt_may_hold(nfd))
		err = table_set(nfd, s);
	sock_put(s);
	errno = saved;
	if (!err)
		return nfd;
	RESOLVE(close)(nfd);
	return fail(err);
}

int dup(int fd)
{
	struct shim_sock *s = sock_get(fd);

	return dup_done(s, RESOLVE(dup)(fd));
}

int dup2(int fd, int nfd)
{
	struct shim_sock *s;

	if (fd == nfd)	/* nothing copied: the number stays what it was */
		return RESOLVE(dup2)(fd, nfd);
	s = sock_get(fd);
	return dup_done(s, RESOLVE(dup2)(fd, nfd));
}

int dup3(int fd, int nfd, int flags)
{
	struct shim_sock *s = sock_get(fd);

	return dup_done(s, RESOLVE(dup3)(fd, nfd, flags));
}

static int fcntl_common(int (*real)(int, int, ...), int fd, int cmd, void *arg)
{
	struct shim_sock *s;

	if (cmd != F_DUPFD && cmd != F_DUPFD_CLOEXEC)
		return real(fd, cmd, arg);
	s = sock_get(fd);
	return dup_done(s, real(fd, cmd, arg));
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

/*
 * pidfd_getfd(): a copy of another process's descriptor.  Another process's netlink socket
 * reaches whatever its protocol reaches in the namespace it was made in: by hand, as root, a
 * copy of a NETLINK_ROUTE socket another process of the machine held (as a network daemon
 * does) took an RTM_NEWLINK that set a real MTU (measured 2026-12-07, attack
 * "shim_getfd"), past the socket() it never made.  Outside the namespace `kfsim exec` made,
 * a copy of a netlink or PF_KEY socket is closed at once and the call fails with EPERM, as
 * under `kfsim exec`, whose seccomp filter refuses the call whole; any other descriptor is
 * the program's, as one handed over (SCM_RIGHTS) is.
 */
int pidfd_getfd(int pidfd, int targetfd, unsigned int flags);	/* <sys/pidfd.h>, glibc 2.36 */
int pidfd_getfd(int pidfd, int targetfd, unsigned int flags)
{
	int fd = RESOLVE(pidfd_getfd) ? real_pidfd_getfd(pidfd, targetfd, flags) :
		 (int)syscall(SYS_pidfd_getfd, pidfd, targetfd, flags);
	socklen_t len = sizeof(int);
	int domain;

	if (fd < 0 || RESOLVE(getsockopt)(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) ||
	    (domain != AF_NETLINK && domain != AF_KEY) || shim_in_exec_netns())
		return fd;
	RESOLVE(close)(fd);
	shim_say_taken_refused("pidfd_getfd() of another process's netlink or PF_KEY socket");
	return fail(-EPERM);
}

/* ---- interface ioctls: a simulated device never reaches the real kernel ----------------- */

/*
 * Requests whose argument starts with an interface name (struct ifreq, or the name itself):
 * SIOCSIFLINK, SIOCGIFFLAGS..SIOCSIFHWBROADCAST (0x8937: dev_ifsioc() sets the device's
 * broadcast address with it), the queue lengths, ethtool and MII, SIOCWANDEV, the map, bonding,
 * bridge, time stamping and SIOCDEVPRIVATE; and the wireless extensions, SIOCIWFIRST..SIOCIWLAST
 * (0x8B00..0x8BFF, struct iwreq: the name first), which dev_ioctl() hands to
 * wext_handle_ioctl() on any socket: `iwconfig wlan0 essid X` or `txpower off` changes a real
 * radio's settings (read from Linux 6.18's net/wireless/wext-core.c; this machine has none).
 */
static bool names_interface(unsigned int req)
{
	return req == 0x8911 || (req >= 0x8913 && req <= 0x8937) || req == 0x8942 ||
	       req == 0x8943 || (req >= 0x8946 && req <= 0x894A) || req == 0x8970 ||
	       req == 0x8971 || (req >= 0x8990 && req <= 0x8995) ||
	       (req >= 0x89a0 && req <= 0x89a3) || req == 0x89b0 || req == 0x89b1 ||
	       (req >= 0x89F0 && req <= 0x89FF) || (req >= 0x8B00 && req <= 0x8BFF);
}

/*
 * Requests whose ifreq names a second device after the first (ifr_newname, ifr_slave):
 * SIOCSIFNAME, and the bonding requests that take a slave (enslave, release, change active).
 */
static bool names_second_interface(unsigned int req)
{
	return req == 0x8923 || req == 0x8990 || req == 0x8991 || req == 0x8995;
}

/*
 * SIOCGIFVLAN and SIOCSIFVLAN take a struct vlan_ioctl_args: an int command, then the name
 * of the device (device1, 24 bytes) a VLAN is added on, named or removed (vlan_ioctl_handler(),
 * net/8021q/vlan.c).  Its other name (device2) is an output or a name type, never a device.
 */
static bool names_vlan_device(unsigned int req)
{
	return req == 0x8982 || req == 0x8983;
}

/*
 * Requests that change the routing, neighbour (ARP, RARP) or DLCI tables: SIOCADDRT,
 * SIOCDELRT, SIOCRTMSG, SIOCDARP, SIOCSARP, SIOCDRARP, SIOCSRARP, SIOCADDDLCI, SIOCDELDLCI.
 * And SIOCGIFBR, SIOCSIFBR: the bridge's deviceless requests, whose argument (three longs)
 * may be BRCTL_ADD_BRIDGE or BRCTL_DEL_BRIDGE with a name, whichever of the two carries it
 * (old_deviceless(), net/bridge/br_ioctl.c): by hand, both made a real bridge (measured
 * 2026-12-07, attack "shim_host_devices").
 * They name no device the simulation could own, so only host_guard.c's rule applies.
 */
static bool changes_tables(unsigned int req)
{
	return (req >= 0x890B && req <= 0x890D) || req == 0x8953 || req == 0x8955 ||
	       req == 0x8960 || req == 0x8962 || req == 0x8980 || req == 0x8981 ||
	       req == 0x8940 || req == 0x8941;
}

/* Interface, VLAN and table requests: what the machine's network is configured with. */
static bool configures_network(unsigned int req)
{
	return names_interface(req) || names_vlan_device(req) || changes_tables(req);
}

#define SHIM_NAME_CACHE 16

static struct {
	char name[IFNAMSIZ];
	int answer;		/* kfsim_standin_owns_dev()'s; a failure is asked again */
	bool said;
} name_cache[SHIM_NAME_CACHE];
static unsigned int nr_names;

/*
 * Keep @name from the real kernel?  Yes for a device of the simulation, and for any name while
 * the simulation cannot be asked (a program told to use kfsim must not fall through to the
 * machine because its server is down).  Said once per name on stderr.
 */
static bool refuse_simulated(const char *name, unsigned int req)
{
	unsigned int i;
	bool say = false, said;
	int answer;

	pthread_mutex_lock(&names_lock);
	for (i = 0; i < nr_names && strncmp(name_cache[i].name, name, IFNAMSIZ); i++)
		;
	if (i == nr_names || name_cache[i].answer < 0) {
		said = i < nr_names && name_cache[i].said;
		pthread_mutex_unlock(&names_lock);
		answer = kfsim_standin_owns_dev(getenv("KFSIM_KERNEL"), name); /* unlocked: sockets */
		pthread_mutex_lock(&names_lock);
		if (i == nr_names)
			i = nr_names < SHIM_NAME_CACHE ? nr_names++ : SHIM_NAME_CACHE - 1;
		snprintf(name_cache[i].name, IFNAMSIZ, "%s", name);
		name_cache[i].answer = answer;
		name_cache[i].said = said;
	}
	answer = name_cache[i].answer;
	if (answer && !name_cache[i].said)
		say = name_cache[i].said = true;
	pthread_mutex_unlock(&names_lock);
	if (say && answer > 0)
		fprintf(stderr, "kfsim-netlink: ioctl 0x%x on %s refused (EOPNOTSUPP): %s is a "
			"simulated device; only its generic netlink is simulated, and the real "
			"kernel never sees it\n", req, name, name);
	else if (say)
		fprintf(stderr, "kfsim-netlink: ioctl 0x%x on %s refused (EOPNOTSUPP): the kfsim "
			"kernel cannot be asked whether %s is simulated (%s), so the real kernel "
			"does not see it either\n", req, name, name, strerror(-answer));
	return answer != 0;
}

/*
 * Does @given (an ifreq's name: NUL-terminated within IFNAMSIZ, or cut there as the kernel cuts
 * it) name a device of the simulation?  An alias label goes with its device: dev_ioctl() and
 * devinet_ioctl() cut the name at ':', so "eth3:0" is eth3 to the kernel, and so to us.
 */
static bool refuse_named(const char *given, unsigned int req)
{
	char name[IFNAMSIZ];
	size_t i;

	for (i = 0; i < IFNAMSIZ - 1 && given[i] && given[i] != ':'; i++)
		name[i] = given[i];	/* never read past its NUL */
	name[i] = '\0';
	return name[0] && refuse_simulated(name, req);
}

/*
 * Does a socket answer @req from the network namespace it was made in?  sock_ioctl() hands the
 * socket requests (type 0x89, no size bits) from SIOCADDRT on, and the wireless extensions',
 * to the namespace (dev_ioctl(), dev_ifconf(), brioctl, vlan_ioctl, SIOCGSKNS) whenever the
 * protocol does not take them, as netlink never does; those below (the owner, SIOCATMARK,
 * the time stamps) and the protocol's private ones are the socket's own.
 */
static bool asks_namespace(unsigned int req)
{
	unsigned int nr = req & 0xFF;

	if (req >> 16)
		return false;
	if ((req & 0xFF00) == 0x8B00)
		return true;	/* SIOCIWFIRST..SIOCIWLAST */
	return (req & 0xFF00) == 0x8900 && nr >= 0x0B && (nr < 0xE0 || nr > 0xEF);
}

/*
 * @req on a socket made now in the calling thread's network namespace: what a netlink socket
 * of this program would answer.  The shim's socket was made by the server, in a namespace of
 * its choosing (root's: an empty one; another user's without user namespaces, or a server one
 * trusts with KFSIM_KERNEL_OWNER: possibly the machine's), and an interface request on it
 * acted there: SIOCGIFINDEX of a device the program made in its own namespace under `kfsim
 * exec` was ENODEV, and a server's socket of the machine's namespace would have taken root's
 * SIOCSIFMTU to the machine (attacks.py "exec_ioctl_ns").  One descriptor more for the call:
 * with none free it is EMFILE, where Linux needs none.
 */
static int ioctl_in_own_netns(unsigned long req, void *arg)
{
	int fd = RESOLVE(socket)(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret, saved;

	if (fd < 0)
		return -1;
	ret = RESOLVE(ioctl)(fd, req, arg);
	saved = errno;
	real_close(fd);
	errno = saved;
	return ret;
}

int ioctl(int fd, unsigned long req, ...)
{
	/*
	 * The kernel's request is an unsigned int (SYSCALL_DEFINE3(ioctl, ..., unsigned int cmd,
	 * ...)): bits above 32 are dropped there, so they are here, or SIOCSIFMTU | 1 << 32 set a
	 * real MTU past every check below (measured 2026-12-07, attack "shim_host_devices").
	 */
	unsigned int cmd = (unsigned int)req;
	/* what is read of the argument: two interface names, or a VLAN command and its device */
	char names[2 * IFNAMSIZ];
	size_t need = names_second_interface(cmd) ? 2 * IFNAMSIZ :
		      names_vlan_device(cmd) ? sizeof(int) + IFNAMSIZ :
		      names_interface(cmd) ? IFNAMSIZ : 0;
	int ldisc;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);	/* glibc reads the argument the same way */
	va_end(ap);
	/*
	 * TIOCSETD's line discipline is read once, and that copy is what the kernel gets: another
	 * thread could change the program's int between the check and the kernel's read.
	 */
	if (cmd == TIOCSETD) {
		if (shim_copy_from_user(&ldisc, arg, sizeof(ldisc)))
			return fail(-EFAULT);
		arg = &ldisc;
	}
	if ((configures_network(cmd) ||
	     shim_makes_host_device(cmd, cmd == TIOCSETD ? &ldisc : NULL)) &&
	    !shim_in_exec_netns()) {
		char what[32];

		snprintf(what, sizeof(what), "ioctl 0x%x", cmd);
		shim_say_host_refused(false, what);
		return fail(-EOPNOTSUPP);
	}
	/* a name that cannot be read is the kernel's EFAULT, not a fault here */
	if (need && shim_copy_from_user(names, arg, need))
		return fail(-EFAULT);
	if (names_interface(cmd) &&
	    (refuse_named(names, cmd) ||
	     (names_second_interface(cmd) && refuse_named(names + IFNAMSIZ, cmd))))
		return fail(-EOPNOTSUPP);
	if (names_vlan_device(cmd) && refuse_named(names + sizeof(int), cmd))
		return fail(-EOPNOTSUPP);
	if (asks_namespace(cmd) && is_ours(fd))
		return ioctl_in_own_netns(req, arg);
	return RESOLVE(ioctl)(fd, req, arg);
}

/*
 * libc's other names for the calls above, exported beside them (glibc 2.36 on x86-64: __socket,
 * __recv, __sendmmsg, __libc_fcntl64 and the _nocancel forms as GLIBC_PRIVATE, the rest public):
 * libc's own code calls its hidden aliases, never these, but dlsym() finds them by name, and
 * past the shim __socket(AF_NETLINK, ..., NETLINK_ROUTE) opened a real rtnetlink socket whose
 * __send() set a real MTU (ctypes.CDLL(None).__socket, preloaded by hand, as root: measured
 * 2026-12-07, attack "shim_dlvsym").  Each is the shim's call of the same name without the
 * underscores; the _nocancel forms become cancellation points, which only glibc's own callers,
 * that never reach these, could mind.
 */
#define SHIM_ALIAS(other, name) __typeof__(name) other __attribute__((alias(#name)))
#if defined(__GNUC__) && !defined(__clang__)
/* glibc declares socket() and dup2() leaf and nothrow: the aliases need not promise it */
#pragma GCC diagnostic ignored "-Wmissing-attributes"
#endif
SHIM_ALIAS(__socket, socket);
SHIM_ALIAS(__connect, connect);
SHIM_ALIAS(__send, send);
SHIM_ALIAS(__recv, recv);
SHIM_ALIAS(__read, read);
SHIM_ALIAS(__read_nocancel, read);
SHIM_ALIAS(__write, write);
SHIM_ALIAS(__write_nocancel, write);
SHIM_ALIAS(__close, close);
SHIM_ALIAS(__close_nocancel, close);
SHIM_ALIAS(__dup2, dup2);
SHIM_ALIAS(__fcntl, fcntl);
SHIM_ALIAS(__libc_fcntl64, fcntl64);
SHIM_ALIAS(__sendmmsg, sendmmsg);
SHIM_ALIAS(pwritev64, pwritev);
SHIM_ALIAS(pwritev64v2, pwritev2);
SHIM_ALIAS(preadv64, preadv);
SHIM_ALIAS(preadv64v2, preadv2);
