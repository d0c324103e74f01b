// SPDX-License-Identifier: MIT
/*
 * Data sockets for a server that may not make a network namespace (any user but root).
 *
 * A socket carries the network namespace it was made in, and an interface ioctl on it
 * (SIOCSIFMTU, SIOCSIFFLAGS, SIOCETHTOOL) acts on that namespace's devices with the caller's
 * capabilities over it.  A server that is not root made its clients' data sockets in its own
 * namespace, the machine's; root's program under `kfsim exec --server PATH --server-owner USER`
 * received one through the shim and, with syscall(SYS_ioctl) past the shim, set a real
 * interface's MTU (measured here on 2026-12-07: vk0 of the stand-in namespace, 1500 to 1333;
 * attacks.py "exec_nonroot_server").  Root's own server makes them in an empty namespace
 * (nl_server.c); another user may make one only inside a user namespace of their own, and may
 * not setns() a thread of theirs into it (that needs CAP_SYS_ADMIN where they are).  So a
 * helper process does: forked once, it unshares a user and a network namespace, and makes each
 * socket pair the server asks for there, handing both ends back (SCM_RIGHTS).  The namespace
 * holds a loopback device alone (down), and is owned by the helper's user namespace, over which
 * root's program holds every capability, and finds nothing to change.
 *
 * The helper holds no descriptor of the server's but its end of their connection, calls only
 * system calls (it may be forked from a threaded program), and ends when that connection does.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fd_send.h"
#include "nl_socket_maker.h"

#ifndef P_PIDFD
#define P_PIDFD 3	/* <linux/wait.h>: waitid() on a pidfd (Linux 5.4) */
#endif

/* How long the server waits for one pair: the helper answers at once unless it is stopped. */
#define MAKER_TIMEOUT_S 5

/* Send @err, and the pair @sv with it when there is one. */
static int maker_send(int fd, int err, const int *sv)
{
	return kfsim_fd_send(fd, &err, sizeof(err), sv, sv ? 2 : 0);
}

/* The helper: its namespaces, then one pair per request byte until the connection ends. */
static void __attribute__((noreturn)) maker_main(int fd)
{
	int err;

	/* the server's descriptors (its clients' connections) are not the helper's to hold */
	for (int i = 0; i < fd; i++)
		close(i);
	close_range((unsigned int)fd + 1, ~0U, 0);
	signal(SIGPIPE, SIG_IGN);
	err = unshare(CLONE_NEWUSER | CLONE_NEWNET) ? -errno : 0;
	if (maker_send(fd, err, NULL) || err)
		_exit(1);
	for (;;) {
		int sv[2];
		char req;
		ssize_t n = recv(fd, &req, 1, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);	/* the server is done */
		if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
			maker_send(fd, -errno, NULL);
			continue;
		}
		maker_send(fd, 0, sv);	/* the server has them now, or is gone */
		close(sv[0]);
		close(sv[1]);
	}
}

/*
 * One answer of the helper: its error (-EPIPE when it is gone), and with 0 the pair it made
 * into @sv (a 0 without a pair is -EPROTO); without @sv, an answer that carries none.
 */
static int maker_recv(int fd, int *sv)
{
	union {
		char buf[CMSG_SPACE(2 * sizeof(int))];
		struct cmsghdr align;
	} control;
	int err = -EPIPE;
	struct iovec iov = { .iov_base = &err, .iov_len = sizeof(err) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;
	ssize_t n;

	do {
		n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(err))
		return n < 0 && errno == EAGAIN ? -ETIMEDOUT : -EPIPE;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (cmsg && cmsg->cmsg_level == SOL_SOCKET && cmsg->cmsg_type == SCM_RIGHTS &&
	    cmsg->cmsg_len == CMSG_LEN(2 * sizeof(int))) {
		int got[2];

		memcpy(got, CMSG_DATA(cmsg), sizeof(got));
		if (sv && !err) {
			sv[0] = got[0];
			sv[1] = got[1];
			return 0;
		}
		close(got[0]);
		close(got[1]);
		return err ? err : -EPROTO;
	}
	return sv && !err ? -EPROTO : err;
}

int kfsim_nl_socket_maker_start(struct nl_socket_maker *m)
{
	struct timeval tv = { .tv_sec = MAKER_TIMEOUT_S };
	int pair[2], err;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(pair[0]);
		close(pair[1]);
		return err;
	}
	if (pid == 0)
		maker_main(pair[1]);
	close(pair[1]);
	setsockopt(pair[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	/* pinned while it is our unreaped child: stop() may signal and wait for it safely */
	m->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	m->fd = pair[0];
	err = maker_recv(m->fd, NULL);	/* whether it has its namespaces */
	if (err || m->pidfd < 0) {
		kfsim_nl_socket_maker_stop(m);
		return err ? err : -ENOSYS;
	}
	m->started = true;
	return 0;
}

int kfsim_nl_socket_maker_pair(struct nl_socket_maker *m, int sv[2])
{
	for (int attempt = 0; attempt < 2; attempt++) {
		int err;

		/* a helper gone (killed by its user) is started again, once */
		if (m->fd < 0 && (err = kfsim_nl_socket_maker_start(m)))
			return err;
		if (send(m->fd, "p", 1, MSG_NOSIGNAL) == 1) {
			err = maker_recv(m->fd, sv);
			if (err != -EPIPE && err != -ETIMEDOUT)
				return err;
		}
		kfsim_nl_socket_maker_stop(m);
	}
	return -EPIPE;
}

void kfsim_nl_socket_maker_stop(struct nl_socket_maker *m)
{
	if (m->fd >= 0)
		close(m->fd);
	if (m->pidfd >= 0) {
		/*
		 * At once, even if stopped; then reaped, by the pidfd (a process that forked after
		 * starting it, as `kfsim kernel --background` does, is not its parent: ECHILD)
		 */
		syscall(SYS_pidfd_send_signal, m->pidfd, SIGKILL, NULL, 0);
		waitid((idtype_t)P_PIDFD, (id_t)m->pidfd, &(siginfo_t){ 0 }, WEXITED);
		close(m->pidfd);
	}
	m->fd = m->pidfd = -1;
}
