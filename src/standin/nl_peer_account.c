// SPDX-License-Identifier: MIT
/*
 * Whom a server's peer counts as, for the shares each user gets (connections, the requests run
 * per turn): the user of the server's user namespace it acts for, not the uid SO_PEERCRED shows.
 *
 * An unprivileged user may run processes under uids of their own besides their uid: the
 * subordinate ids /etc/subuid grants them (useradd gives every new user 65536 where the file
 * exists; newuidmap, setuid root, maps them into a user namespace the user creates).  The
 * kernel shows such a process to the server under that subordinate uid, a different one for
 * each, so counting by SO_PEERCRED's uid gave one user as many shares as uids: 224 of them with
 * two connections each held root's request 0.28 s, against 0.002 s alone and 0.009 s under 60
 * connections of one uid (measured here on 2026-12-07, attacks.py "subuids").  Every such
 * process lives in a user namespace below the server's, and the one of those directly below it
 * was created by, and belongs to, the user who acts: NS_GET_OWNER_UID of that namespace names
 * them, however deep the process's own namespace is (a user namespace cannot be left).
 *
 * The peer is found as nl_peer_cred.c finds it: by the pid SO_PEERCRED recorded, pinned by a
 * pidfd, and its namespace trusted only if the process is still alive once it is open (so a
 * recycled pid lends nothing).  A peer that is gone cannot be told: all such connections count
 * as one user, KFSIM_NL_ACCOUNT_UNKNOWN, so going away first gains no share.  A process the
 * server may not inspect (another user's, for a server that is not root) or cannot see (the
 * server runs in a PID namespace the client is outside of) counts under its uid as before.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <poll.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nl_peer_cred.h"

/* User namespaces nest at most 32 deep (the kernel's limit); a longer walk is not one. */
#define USERNS_MAX_DEPTH 33

static bool is_ns(int fd, const struct stat *ns)
{
	struct stat st;

	return !fstat(fd, &st) && st.st_dev == ns->st_dev && st.st_ino == ns->st_ino;
}

/*
 * Whom a process of user namespace @ns (closed here), whose uid in ours is @uid, acts for: @uid
 * when @ns is @ours or not below it (NS_GET_PARENT refuses to go above ours: EPERM), else the
 * owner of the namespace below @ours on the way up.
 */
static uid_t ns_account(int ns, const struct stat *ours, uid_t uid)
{
	uid_t account = uid;

	for (int depth = 0; depth < USERNS_MAX_DEPTH && !is_ns(ns, ours); depth++) {
		int parent = ioctl(ns, NS_GET_PARENT);
		uid_t owner;

		if (parent < 0)
			break;	/* not below ours: its uid is all we know */
		if (is_ns(parent, ours)) {
			account = ioctl(ns, NS_GET_OWNER_UID, &owner) ? KFSIM_NL_ACCOUNT_UNKNOWN : owner;
			close(parent);
			break;
		}
		close(ns);
		ns = parent;
	}
	close(ns);
	return account;
}

uid_t kfsim_nl_peer_account(int fd, const struct ucred *peer)
{
	struct stat ours;
	int pidfd, ns, err;

	if (stat("/proc/self/ns/user", &ours))
		return peer->uid;	/* no /proc, no user namespaces: the uid is the user */
	/*
	 * Outside our PID namespace (a server under `kfsim exec`, asked from the machine): the
	 * process cannot be found, and its uid is all there is, as before; it is the server's
	 * place, not the client's choice, so no client gains by it
	 */
	if (peer->pid <= 0)
		return peer->uid;
	pidfd = kfsim_nl_peer_pidfd(fd, peer->pid);
	/*
	 * Through the pidfd, not /proc/PID/ns/user, whose open waits for as long as the process
	 * execs: held by a FUSE file's flush, it held root's server (attacks.py "exec_lock")
	 */
	ns = pidfd >= 0 ? kfsim_nl_pidfd_user_ns(pidfd, peer->pid) : -1;
	err = ns < 0 ? errno : 0;
	/* opened while the pinned process lives: the pid still named it */
	if (pidfd < 0 || poll(&(struct pollfd){ .fd = pidfd, .events = POLLIN }, 1, 0) != 0) {
		if (ns >= 0)
			close(ns);
		ns = -1;
		err = ESRCH;
	}
	if (pidfd >= 0)
		close(pidfd);
	if (ns < 0)
		return err == EACCES || err == EPERM ? peer->uid : KFSIM_NL_ACCOUNT_UNKNOWN;
	return ns_account(ns, &ours, peer->uid);
}
