// SPDX-License-Identifier: MIT
/*
 * What a server's peer may do: the capabilities its process really holds, not its uid.
 *
 * The kernel decides GENL_ADMIN_PERM with netlink_capable() and GENL_UNS_ADMIN_PERM with
 * netlink_ns_capable(skb, net->user_ns, CAP_NET_ADMIN): the credentials of the process that
 * opened the socket (file_ns_capable()) must hold the capability in the user namespace that owns
 * the network namespace.  Here the simulated namespace is owned by the server's user namespace,
 * and the opener is the process at the other end of the control connection:
 *
 *  - its effective set (CapEff in /proc/PID/status) is read once, when it connects, as the
 *    kernel keeps the opener's credentials with the file;
 *  - PID comes from SO_PEERCRED and is pinned with a pidfd (SO_PEERPIDFD where the kernel has it,
 *    6.5 and later, taken at connect(); else pidfd_open()), and the status is trusted only if
 *    that process is still alive after reading it, so a recycled PID cannot lend its
 *    capabilities; the status must also show the euid SO_PEERCRED recorded (a setuid exec in
 *    between is refused);
 *  - a process whose program was started by a secure exec (AT_SECURE in /proc/PID/auxv: file
 *    capabilities, set-id bits) holds nothing here.  The server reads the peer some time after
 *    connect(), and a program that connects and then execs a binary with cap_net_admin=ep (one
 *    ships with GStreamer) would lend it the capabilities the socket's opener never had;
 *    Linux takes the opener's credentials at socket() time.  Such a program cannot run the
 *    shim anyway (the loader ignores LD_PRELOAD paths for it, `kfsim exec` refuses set-id ones);
 *    an auxv the server may not read (another user's program that is not dumpable) counts as
 *    secure;
 *  - only a process in the server's own user namespace counts: a root inside a user namespace
 *    of its own (unshare -U) holds every capability there and none over ours, as on Linux.
 *
 * The kernel also asks whether the task that sends holds the capability (ns_capable(current)).
 * The server learns each sender from SCM_CREDENTIALS (SO_PASSCRED on its end of the
 * connection: the kernel fills in the sending process's pid and uid; a sender may state its
 * real, effective or saved uid (__scm_creds()), another pid only with CAP_SYS_ADMIN) and asks
 * kfsim_nl_sender_cred() the same questions about that process, checked to have that uid as its
 * real uid, so any other claim holds nothing.  The process is pinned by the pidfd the kernel
 * took when the message was sent (SCM_PIDFD, SO_PASSPIDFD on the server's end: Linux 6.5 and
 * later), so a pid reused after the sender exited never lends its capabilities: the answer is
 * read while the pinned process is still alive, or not at all.  A sender that has exited by the
 * time the server reads its message holds nothing (a reaped process's capabilities are kept
 * nowhere, and a zombie's program cannot be told secure or not).  Where the kernel has no
 * SCM_PIDFD the server pins the sender with pidfd_open() when it reads the message, and a pid
 * reused in between by a process of the same real uid would lend its capabilities.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kfsim/nl_client.h>
#include "nl_peer_cred.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif
#define CAP_NET_ADMIN 12
#define CAP_SYS_ADMIN 21
#define AT_SECURE_TYPE 23	/* <elf.h>'s AT_SECURE */
#define PIDFD_GET_USER_NAMESPACE _IO(0xFF, 9)	/* <linux/pidfd.h>, Linux 6.11 */
#define AUXV_MAX 4096		/* bytes: the kernel keeps fewer (AT_VECTOR_SIZE longs) */
#define AUXV_WAIT_MS 100	/* for another user's process's auxv, then it is secure */

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

int kfsim_nl_peer_pidfd(int fd, pid_t pid)
{
	socklen_t len = sizeof(int);
	int pidfd = -1;

	if (!getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) && pidfd >= 0)
		return pidfd;
	return open_pidfd(pid);
}

/* CapEff and the real and effective uids from /proc/PID/status; false if unreadable. */
static bool read_status(pid_t pid, unsigned long long *cap_eff, uid_t *ruid, uid_t *euid)
{
	char path[64], line[256];
	bool have_cap = false, have_uid = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned int r, e;

		if (sscanf(line, "CapEff: %llx", cap_eff) == 1)
			have_cap = true;
		else if (sscanf(line, "Uid: %u %u", &r, &e) == 2) {
			*ruid = r;
			*euid = e;
			have_uid = true;
		}
	}
	fclose(f);
	return have_cap && have_uid;
}

/* AT_SECURE in @len bytes of an auxv: true when it is set, or not there to tell. */
static bool auxv_secure(const unsigned long *auxv, size_t len)
{
	for (size_t i = 0; i + 1 < len / sizeof(*auxv) && auxv[i]; i += 2)
		if (auxv[i] == AT_SECURE_TYPE)
			return auxv[i + 1] != 0;
	return true;
}

/*
 * Was the program whose auxv is at @path (/proc/PID/auxv) started by a secure exec?  True
 * when it cannot be told.  System calls alone, no libc state: it also runs in a child of a
 * threaded program (secure_exec_unwaiting()).
 */
static bool secure_exec(const char *path)
{
	unsigned long auxv[AUXV_MAX / sizeof(unsigned long)];
	long fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;

	if (fd < 0)
		return true;
	while (got < sizeof(auxv)) {
		long n = syscall(SYS_read, fd, (char *)auxv + got, sizeof(auxv) - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	syscall(SYS_close, fd);
	return auxv_secure(auxv, got);
}

/*
 * The readers that did not answer in time, and whose: each stays stuck on its process (until
 * the exec goes on), and while it does, that user's next processes are not waited for.  So a
 * user holds the server AUXV_WAIT_MS once per stuck exec, not once per connection (20 peers
 * of a user with ambient CAP_NET_ADMIN held root's request 3.6 s at 200 ms each).
 */
#define AUXV_STUCK_MAX 16
static struct {
	uid_t uid;
	pid_t reader;	/* 0: a free slot */
} auxv_stuck[AUXV_STUCK_MAX];

/* Is a reader of @uid's still stuck?  Readers that have ended are reaped on the way. */
static bool reader_stuck(uid_t uid)
{
	bool stuck = false;

	for (int i = 0; i < AUXV_STUCK_MAX; i++) {
		if (!auxv_stuck[i].reader)
			continue;
		if (waitpid(auxv_stuck[i].reader, NULL, WNOHANG) != 0)
			auxv_stuck[i].reader = 0;	/* ended (or not ours to wait for) */
		else
			stuck |= auxv_stuck[i].uid == uid;
	}
	return stuck;
}

/* Keep @reader, stuck on a process of @uid's; with no slot free it is killed and reaped. */
static void reader_keep(uid_t uid, pid_t reader)
{
	for (int i = 0; i < AUXV_STUCK_MAX; i++) {
		if (!auxv_stuck[i].reader) {
			auxv_stuck[i].uid = uid;
			auxv_stuck[i].reader = reader;
			return;
		}
	}
	kill(reader, SIGKILL);	/* its wait is killable */
	waitpid(reader, NULL, 0);
}

/*
 * secure_exec() of a process of @uid in a child process given AUXV_WAIT_MS to answer: the open
 * waits for the process's exec_update_lock, which an exec holds while it closes the
 * close-on-exec files, and a FUSE file's flush lasts as long as its daemon likes.  Late, the
 * process counts as secure (holds nothing), and so do that user's next ones while the reader
 * stays stuck (reader_stuck()).  The child closes every descriptor but its answer's first: a
 * copy of the listening socket would answer clients after the server is gone.
 */
static bool secure_exec_unwaiting(const char *path, uid_t uid)
{
	struct pollfd answered;
	char answer = 1;
	int pipefd[2];
	pid_t child;

	if (reader_stuck(uid) || pipe2(pipefd, O_CLOEXEC))
		return true;
	/* no fork handlers (a threaded program's may take its locks): the child makes calls only */
	child = (pid_t)syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
	if (child == 0) {
		if (pipefd[1] > 0)
			syscall(SYS_close_range, 0U, (unsigned int)pipefd[1] - 1, 0U);
		syscall(SYS_close_range, (unsigned int)pipefd[1] + 1, ~0U, 0U);
		answer = secure_exec(path);
		syscall(SYS_write, pipefd[1], &answer, 1);
		syscall(SYS_exit_group, 0);
	}
	close(pipefd[1]);
	answered = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
	if (child < 0) {
		answer = 1;
	} else if (poll(&answered, 1, AUXV_WAIT_MS) == 1 && read(pipefd[0], &answer, 1) == 1) {
		waitpid(child, NULL, 0);	/* it has answered: it exits */
	} else {
		answer = 1;
		reader_keep(uid, child);
	}
	close(pipefd[0]);
	return answer != 0;
}

int kfsim_nl_pidfd_user_ns(int pidfd, pid_t pid)
{
	char path[64];
	int ns = ioctl(pidfd, PIDFD_GET_USER_NAMESPACE, 0);

	if (ns >= 0 || (errno != ENOTTY && errno != EINVAL))
		return ns;
	snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
	return open(path, O_RDONLY | O_CLOEXEC);	/* before 6.11: may wait out an exec */
}

/* Does the process @pidfd pins run in our user namespace? */
static bool same_user_ns(int pidfd, pid_t pid)
{
	struct stat mine, theirs;
	int ns = kfsim_nl_pidfd_user_ns(pidfd, pid);
	bool same;

	if (ns < 0)
		return false;
	same = !stat("/proc/self/ns/user", &mine) && !fstat(ns, &theirs) &&
	       mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino;
	close(ns);
	return same;
}

/*
 * The capabilities of @pid, pinned by @pidfd (closed here), whose real (@real) or effective uid
 * must be @uid; nothing when any of it cannot be read race-free.
 */
static struct kfsim_nl_cred pinned_cred(pid_t pid, int pidfd, uid_t uid, bool real)
{
	struct kfsim_nl_cred cred = KFSIM_NL_CRED_USER;
	unsigned long long cap_eff = 0;
	struct pollfd exited;
	uid_t ruid = (uid_t)-1, euid = (uid_t)-1;
	char auxv[64];
	bool ok;

	if (pidfd < 0)
		return cred;	/* cannot pin the process: no capabilities */
	ok = read_status(pid, &cap_eff, &ruid, &euid) && (real ? ruid : euid) == uid;
	/*
	 * A process holding none of them is told by its status alone, which the kernel makes
	 * without waiting on the process: its auxv (and /proc/PID/ns/ on 6.18) waits for the
	 * process's exec_update_lock, which an exec holds while it closes the close-on-exec
	 * files, and a FUSE file's flush lasts as long as its daemon likes (attacks.py
	 * "exec_lock": root's server stuck in the first accept() for as long as `nobody` held it)
	 */
	if (ok && !(cap_eff & ((1ULL << CAP_NET_ADMIN) | (1ULL << CAP_SYS_ADMIN))))
		ok = false;
	/* auxv after the status: a program exec'd in between shows its own AT_SECURE */
	snprintf(auxv, sizeof(auxv), "/proc/%d/auxv", (int)pid);
	/*
	 * root's own (or our own process, which is not in an exec while it runs this) read here;
	 * anyone else's in a child given a bounded time: a user with ambient CAP_NET_ADMIN held the
	 * server so as `nobody` did above (attacks.py "exec_lock")
	 */
	ok = ok && same_user_ns(pidfd, pid) &&
	     !((ruid == 0 && euid == 0) || pid == getpid() ? secure_exec(auxv) :
	       secure_exec_unwaiting(auxv, ruid));
	exited = (struct pollfd){ .fd = pidfd, .events = POLLIN };
	if (poll(&exited, 1, 0) != 0)
		ok = false;	/* gone (or unknown): the PID may name someone else now */
	close(pidfd);
	if (!ok)
		return cred;
	cred.net_admin = cap_eff & (1ULL << CAP_NET_ADMIN);
	cred.net_admin_netns = cred.net_admin;
	cred.sys_admin = cap_eff & (1ULL << CAP_SYS_ADMIN);
	return cred;
}

struct kfsim_nl_cred kfsim_nl_peer_cred(int fd, const struct ucred *peer)
{
	return pinned_cred(peer->pid, kfsim_nl_peer_pidfd(fd, peer->pid), peer->uid, false);
}

struct kfsim_nl_cred kfsim_nl_sender_cred(const struct ucred *sender, int pidfd)
{
	if (sender->pid <= 0) {
		if (pidfd >= 0)
			close(pidfd);
		return KFSIM_NL_CRED_USER;	/* not visible from our pid namespace */
	}
	if (pidfd < 0)
		pidfd = open_pidfd(sender->pid);	/* no SCM_PIDFD: pinned only now */
	return pinned_cred(sender->pid, pidfd, sender->uid, true);
}
