// SPDX-License-Identifier: MIT
/*
 * A kfsim netlink server: the in-process kernel served to other processes over a UNIX socket
 * (the protocol is described in <kfsim/nl_server.h>, the control messages in <kfsim/nl_remote.h>).
 *
 * Invariants kept:
 *  - One thread runs the kernel: every request (a data packet or a control message) runs to
 *    completion before the next one is read, so requests of different clients never interleave.
 *  - Users are served in turns (kfsim_nl_server_run()): in each, every user (a uid with its
 *    subordinate uids, kfsim_nl_peer_account()) gets at most
 *    KFSIM_NL_SERVER_TURN_BYTES of requests run, whole messages, taken from its connections in
 *    rotation; a buffer's unrun rest waits in its client (pending) for the next turn.  A user's
 *    request waits for one turn of each other user, however many connections they hold.
 *  - After every request, every socket's queue is drained into its client's outgoing list, so a
 *    notification one client caused reaches every subscribed client in the order it was made.
 *  - A client is released when the last client-side copy of its data descriptor is closed
 *    (POLLHUP on the server's end), whatever state its dump or control connection is in.
 *  - Nothing a client does can take more than its share (the limits of <kfsim/nl_server.h>):
 *    connections are counted per user and in all before anything is allocated for them, bytes
 *    waiting for readers are counted as the memory they take, per client and, for the clients
 *    of unprivileged users, in all (root's are never starved), a connection that does not open a
 *    socket in time is closed, and a spare descriptor keeps accept() able to shed a
 *    connection when descriptors run out, so the loop never spins on a readable listener.
 *  - What a client may do follows the capabilities of the process that opened it, read once
 *    when it connects (the kernel's file_ns_capable() on the opener), and those of the process
 *    that sent the request, read with each message that needs them (ns_capable(current)):
 *    SO_PASSCRED on both of the server's ends makes the kernel name each sender, and
 *    SO_PASSPIDFD pin it when it sends (nl_peer_cred.c reads both).  Every pidfd received is
 *    closed once its message is judged, or at once when nothing asks.  No other descriptor
 *    reaches us: SO_PASSRIGHTS off on both ends (refuse_passed_fds()), since closing one may
 *    block the thread that runs the kernel.
 *  - The socket file is made by bind() with its final mode (the umask), at the end of a path
 *    whose every directory, from /, nobody else can write to (or is sticky) and whose every
 *    symbolic link is ours or root's; it is only ever removed through its directory's
 *    descriptor after checking it is still our inode.
 */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include <kfsim/nl_server.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/nl_client.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>
#include "fd_send.h"
#include "nl_peer_cred.h"
#include "nl_socket_maker.h"

#ifndef SO_PASSPIDFD
#define SO_PASSPIDFD 76
#endif
#ifndef SO_PASSRIGHTS
#define SO_PASSRIGHTS 83	/* Linux 6.16: 0 refuses SCM_RIGHTS sent to this socket (EPERM) */
#endif
#ifndef SCM_PIDFD
#define SCM_PIDFD 0x04
#endif

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
#define NL_SERVER_SOCK_RCVBUF 212992	     /* net.core.rmem_default: a reader's socket */
#define NL_SERVER_FLAG_OPTS 16		     /* SOL_NETLINK option numbers we keep a value for */


struct nl_server_buf {
	struct nl_server_buf *next;
	size_t len;
	u8 data[];
};

struct nl_server_client {
	struct nl_server_client *next;
	struct kfsim_nl_sock *sock;	/* NULL until OPEN */
	struct kfsim_nl_cred cred;	/* the opener's */
	uid_t uid;			/* the peer's, for SHUTDOWN */
	uid_t account;			/* whose share it takes (kfsim_nl_peer_account()) */
	bool privileged;		/* root's or the server's own user's: no share to keep */
	int ctl_fd;			/* -1 once the client closed it */
	int data_fd;			/* the server's end; -1 until OPEN */
	bool ctl_pidfd, data_pidfd;	/* SO_PASSPIDFD took: each sender comes with SCM_PIDFD */
	pid_t logged_sender;		/* the last sender whose pinning went to the log */
	bool bound;			/* bound explicitly, or autobound by a first send */
	u32 opt[NL_SERVER_FLAG_OPTS];
	struct nl_server_buf *out_head, *out_tail;
	size_t out_bytes;		/* the memory its queue takes (buf_cost()) */
	unsigned long dropped;
	bool congested;			/* NETLINK_S_CONGESTED: dropping until drained */
	bool overrun_pending;		/* the ENOBUFS marker still has to be sent */
	bool deaf;			/* its end reads no more (shutdown(SHUT_RD)): released */
	bool data_ready;		/* this turn: requests wait (read or pending) */
	struct timespec connected;	/* for KFSIM_NL_SERVER_OPEN_TIMEOUT_MS */
	u8 *pending;			/* a buffer's messages not run yet (a later turn's) */
	size_t pending_len;
	struct kfsim_nl_cred pending_cred; /* its sender's */
};

struct kfsim_nl_server {
	struct kfsim_nl_kernel *kernel;
	int listen_fd;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	bool unlink_path;
	int dir_fd;			/* the socket file's directory, for a safe unlink */
	const char *file_name;		/* the socket file's name in it (points into path) */
	dev_t file_dev;			/* the socket file bind() made */
	ino_t file_ino;
	int spare_fd;			/* given up to accept() and shed one connection */
	bool own_process;		/* kfsim_nl_listen_opts.own_process */
	int home_netns, empty_netns;	/* where data sockets are made (-1: where we are) */
	struct nl_socket_maker maker;	/* or who makes them (not root: nl_socket_maker.c) */
	unsigned int max_clients;	/* KFSIM_NL_SERVER_MAX_CLIENTS, or what RLIMIT_NOFILE allows */
	unsigned int nr_clients;	/* connections, opened or not */
	size_t queued_bytes;		/* unprivileged clients' out_bytes together */
	struct nl_server_client *clients;
	unsigned int nr_sockets;
	bool shutdown;			/* a SHUTDOWN request was accepted */
	unsigned int turn;		/* rotates where each turn starts */
	u8 *buf;
};

#define listen_fail(err, ...) (snprintf(errbuf, errsize, __VA_ARGS__), (err))

/*
 * Links followed in one --listen path before giving up (the kernel's MAXSYMLINKS), and the
 * longest path text the walk handles: a socket path fits in 108 bytes, a link's target in this.
 */
#define LISTEN_WALK_MAX_LINKS 40
#define LISTEN_WALK_PATH_MAX 1024

/* One walk of the socket's directory path: what it has followed, where to say why it stopped. */
struct dir_walk {
	unsigned int links;
	char *errbuf;
	size_t errsize;
};

#define walk_fail(w, err, ...) (snprintf((w)->errbuf, (w)->errsize, __VA_ARGS__), (err))

static bool ours_or_roots(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/*
 * The owner's own group, writable by nobody else: the group of Debian's user private groups
 * (adduser's USERGROUPS), named as the owner, whose primary group it is, with no members
 * listed.  A umask of 002 makes files and directories group-writable there, and refusing those
 * would refuse the owner's own files; Debian's OpenSSH makes the same exception for its
 * StrictModes checks.
 */
static bool owners_private_group(const struct stat *st)
{
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;
	char pwbuf[4096], grbuf[4096];

	if (getpwuid_r(st->st_uid, &pw, pwbuf, sizeof(pwbuf), &pwp) || !pwp ||
	    pw.pw_gid != st->st_gid)
		return false;
	if (getgrgid_r(st->st_gid, &gr, grbuf, sizeof(grbuf), &grp) || !grp)
		return false;
	return !strcmp(gr.gr_name, pw.pw_name) && (!gr.gr_mem || !gr.gr_mem[0]);
}

/* Someone other than the owner (and root) may write to what @st describes. */
static bool others_may_write(const struct stat *st)
{
	return (st->st_mode & S_IWOTH) || ((st->st_mode & S_IWGRP) && !owners_private_group(st));
}

/*
 * A directory on the way (@fd, reached as @shown) is trusted when only we or root may change
 * it: ours or root's, and writable by nobody else unless sticky (where others cannot rename or
 * remove our entries).  Anything weaker lets another user swap what lies below it for a link.
 */
static int check_dir(struct dir_walk *w, int fd, const char *shown)
{
	struct stat st;

	if (fstat(fd, &st))
		return walk_fail(w, -errno, "cannot stat %s", shown);
	if (!S_ISDIR(st.st_mode))
		return walk_fail(w, -ENOTDIR, "%s is not a directory", shown);
	if (!ours_or_roots(st.st_uid))
		return walk_fail(w, -EPERM, "the directory %s belongs to uid %u: another user could "
				 "replace what lies below it", shown, (unsigned int)st.st_uid);
	if (others_may_write(&st) && !(st.st_mode & S_ISVTX))
		return walk_fail(w, -EPERM, "the directory %s is writable by others and not "
				 "sticky: another user could replace what lies below it", shown);
	return 0;
}

/* @shown with /@name appended, for messages (cut short when it does not fit). */
static void shown_append(char *shown, size_t size, const char *name)
{
	size_t len = strlen(shown);

	snprintf(shown + len, size - len, "%s%s", len && shown[len - 1] == '/' ? "" : "/", name);
}

static int walk_dirs(struct dir_walk *w, int at, const char *rel, char *shown, size_t shown_size,
		     bool make_last);

/*
 * The symbolic link @link_fd (an O_PATH descriptor of the link itself), judged before it is
 * followed: its owner must be us or root (another user's link would choose @chooses), and no
 * more than LISTEN_WALK_MAX_LINKS on the way.  Its target into @target; 0 or -errno.
 */
static int link_read_judged(struct dir_walk *w, int link_fd, const char *shown,
			    const char *chooses, char *target, size_t size)
{
	struct stat st;
	ssize_t len;

	if (fstat(link_fd, &st))
		return walk_fail(w, -errno, "cannot stat %s", shown);
	if (!ours_or_roots(st.st_uid))
		return walk_fail(w, -EPERM, "%s is a symbolic link of uid %u: another user would "
				 "choose %s", shown, (unsigned int)st.st_uid, chooses);
	if (++w->links > LISTEN_WALK_MAX_LINKS)
		return walk_fail(w, -ELOOP, "more than %d symbolic links on the way",
				 LISTEN_WALK_MAX_LINKS);
	len = readlinkat(link_fd, "", target, size);
	if (len < 0 || (size_t)len >= size)
		return walk_fail(w, len < 0 ? -errno : -ENAMETOOLONG, "cannot read the link %s",
				 shown);
	target[len] = '\0';
	return 0;
}

/*
 * A symbolic link on the way (@link_fd, an O_PATH descriptor of the link @name itself, in the
 * directory @at reached as @shown): only ours or root's may say where the socket goes, and
 * what it points to is walked as the rest of the path is.  Return: an O_PATH descriptor of the
 * directory it leads to, or -errno.
 */
static int follow_link(struct dir_walk *w, int at, int link_fd, const char *name,
		       char *shown, size_t shown_size)
{
	char target[LISTEN_WALK_PATH_MAX];
	size_t dir_len = strlen(shown);
	int err;

	shown_append(shown, shown_size, name);	/* the link's own name, while it is judged */
	err = link_read_judged(w, link_fd, shown, "where the socket goes", target, sizeof(target));
	if (err)
		return err;
	shown[dir_len] = '\0';	/* a relative target goes on from the link's directory */
	return walk_dirs(w, at, target, shown, shown_size, false);
}

/* Is @name the last component, with only slashes (or nothing) in @rest after it? */
static bool last_component(const char *rest)
{
	return !rest || !rest[strspn(rest, "/")];
}

/*
 * Walk @rel from the directory @at (or from / when it is absolute) one component at a time,
 * opening each with O_PATH | O_NOFOLLOW and judging it before going on: every directory must
 * pass check_dir(), every symbolic link follow_link(), as OpenSSH's secure-path check does.
 * @shown is where the walk stands, for messages, extended as it goes.  With @make_last, a
 * missing last component is made (0700).  Return: an O_PATH descriptor of the directory
 * reached, or -errno.
 */
static int walk_dirs(struct dir_walk *w, int at, const char *rel, char *shown, size_t shown_size,
		     bool make_last)
{
	char rest[LISTEN_WALK_PATH_MAX], *name, *save = NULL;
	int fd, err = 0;

	if (snprintf(rest, sizeof(rest), "%s", rel) >= (int)sizeof(rest))
		return walk_fail(w, -ENAMETOOLONG, "a path on the way is longer than %d bytes",
				 LISTEN_WALK_PATH_MAX - 1);
	if (rest[0] == '/') {
		snprintf(shown, shown_size, "/");
		fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return walk_fail(w, -errno, "cannot open /");
		err = check_dir(w, fd, shown);
	} else {
		fd = fcntl(at, F_DUPFD_CLOEXEC, 0);	/* @at was judged already */
		if (fd < 0)
			return walk_fail(w, -errno, "cannot duplicate a descriptor");
	}
	for (name = strtok_r(rest, "/", &save); name && !err; name = strtok_r(NULL, "/", &save)) {
		struct stat st;
		int next;

		if (!strcmp(name, "."))
			continue;
		next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && make_last && last_component(save) &&
		    (!mkdirat(fd, name, 0700) || errno == EEXIST))
			next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 || fstat(next, &st)) {
			err = -errno;
			if (next >= 0)
				close(next);
			shown_append(shown, shown_size, name);
			err = walk_fail(w, err, "cannot open the directory %s", shown);
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			int linked = follow_link(w, fd, next, name, shown, shown_size);

			close(next);
			if (linked < 0) {
				err = linked;
				break;
			}
			next = linked;
		} else {
			shown_append(shown, shown_size, name);
			err = check_dir(w, next, shown);
		}
		close(fd);
		fd = next;
	}
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/*
 * The directory @path's last component is in, reached by walk_dirs() from / (a relative path
 * from the working directory, as getcwd() names it), made (0700, one level) if missing and
 * @make_last.  @name is set to the last component.  Return: an O_PATH descriptor, or -errno.
 */
static int walk_to_parent(const char *path, bool make_last, const char **name, char *shown,
			  size_t shown_size, char *errbuf, size_t errsize)
{
	char dir[LISTEN_WALK_PATH_MAX];
	struct dir_walk w = { .errbuf = errbuf, .errsize = errsize };
	const char *slash = strrchr(path, '/');

	*name = slash ? slash + 1 : path;
	if (!**name)
		return listen_fail(-EINVAL, "%s names a directory, not a file", path);
	if (path[0] == '/')
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	else if (!getcwd(dir, sizeof(dir)))
		return listen_fail(-errno, "cannot name the working directory for %s", path);
	if (path[0] != '/' && slash) {
		size_t cwd_len = strlen(dir);

		/* cut short, the walk would check and make another directory than the one asked */
		if (snprintf(dir + cwd_len, sizeof(dir) - cwd_len, "/%.*s", (int)(slash - path),
			     path) >= (int)(sizeof(dir) - cwd_len))
			return listen_fail(-ENAMETOOLONG, "the working directory and %s are longer "
					   "than %d bytes together", path,
					   LISTEN_WALK_PATH_MAX - 1);
	}
	return walk_dirs(&w, -1, dir, shown, shown_size, make_last);
}

/*
 * The directory the socket file goes in (walk_to_parent()), held open: the socket is bound
 * and only ever removed through it.
 */
static int open_socket_dir(struct kfsim_nl_server *s, char *errbuf, size_t errsize)
{
	char shown[LISTEN_WALK_PATH_MAX];
	int walked = walk_to_parent(s->path, true, &s->file_name, shown, sizeof(shown), errbuf,
				    errsize);

	if (walked < 0)
		return walked;
	s->dir_fd = openat(walked, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	close(walked);
	if (s->dir_fd < 0)
		return listen_fail(-errno, "cannot open the directory %s", shown);
	return 0;
}

/*
 * A link as the last component of --config: ours or root's, and what it points to is reached
 * as the rest of the path was, every directory on the way judged (walk_dirs()).  The target's
 * directories were not: root's link to root's file in a directory of another user's was read,
 * and that user could rename a link of theirs to a secret over the file between this check and
 * the read (attacks.py "config").  Replaces *@dir and @name with the target's; 0 or -errno.
 */
static int config_follow(struct dir_walk *w, int *dir, int link_fd, char *name, size_t name_size,
			 char *shown, size_t shown_size)
{
	char target[LISTEN_WALK_PATH_MAX], *slash;
	int next, err;

	err = link_read_judged(w, link_fd, shown, "what the server reads", target, sizeof(target));
	if (err)
		return err;
	slash = strrchr(target, '/');
	if (snprintf(name, name_size, "%s", slash ? slash + 1 : target) >= (int)name_size || !*name)
		return walk_fail(w, -EINVAL, "the link %s does not name a file", shown);
	if (slash)
		slash[slash == target ? 1 : 0] = '\0';	/* "/x" keeps its "/" */
	/* a relative target goes on from the link's directory, which was judged */
	*strrchr(shown, '/') = '\0';
	if (!*shown)
		snprintf(shown, shown_size, "/");
	next = walk_dirs(w, *dir, slash ? target : ".", shown, shown_size, false);
	if (next < 0)
		return next;
	close(*dir);
	*dir = next;
	shown_append(shown, shown_size, name);
	return 0;
}

int kfsim_nl_server_check_config(const char *path, char *errbuf, size_t errsize)
{
	struct dir_walk w = { .errbuf = errbuf, .errsize = errsize };
	char shown[LISTEN_WALK_PATH_MAX], name[NAME_MAX + 1];
	const char *last;
	struct stat st, dir_st;
	int dir, fd, err = 0;

	dir = walk_to_parent(path, false, &last, shown, sizeof(shown), errbuf, errsize);
	if (dir < 0)
		return dir;
	snprintf(name, sizeof(name), "%s", last);
	shown_append(shown, sizeof(shown), name);
	/* the name itself first, each link it is followed to the end, its directories judged */
	for (;;) {
		fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st)) {
			err = listen_fail(-errno, "cannot open %s", shown);
			break;
		}
		if (!S_ISLNK(st.st_mode))
			break;
		err = config_follow(&w, &dir, fd, name, sizeof(name), shown, sizeof(shown));
		close(fd);
		fd = -1;
		if (err)
			break;
	}
	if (fd >= 0)
		close(fd);
	/* then what it names, without waiting for a writer should it be a FIFO */
	fd = err ? -1 :
		   openat(dir, name, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
	if (fstat(dir, &dir_st))
		dir_st.st_mode = S_IWOTH;	/* unknown: as one others may write to */
	close(dir);
	if (!err && (fd < 0 || fstat(fd, &st)))
		err = listen_fail(-errno, "cannot open %s", shown);
	else if (!err && !ours_or_roots(st.st_uid))
		err = listen_fail(-EPERM, "%s belongs to uid %u: another user chose its contents",
				  shown, (unsigned int)st.st_uid);
	else if (!err && S_ISFIFO(st.st_mode))
		err = listen_fail(-EINVAL, "%s is a FIFO: the server would wait for a writer",
				  shown);
	else if (!err && !S_ISREG(st.st_mode))
		err = listen_fail(-EINVAL, "%s is not a regular file", shown);
	else if (!err && others_may_write(&st))
		err = listen_fail(-EPERM, "%s is writable by others: another user could change "
				  "its contents", shown);
	/*
	 * A file of root's with another name too, in a directory anyone may add to (/tmp): where
	 * fs.protected_hardlinks is 0, anyone may link a file of root's there (/etc/shadow, whose
	 * lines the parse errors would quote), and it would pass every test above
	 */
	else if (!err && st.st_nlink > 1 && others_may_write(&dir_st))
		err = listen_fail(-EPERM, "%s has %lu links in a directory others may write to: "
				  "another user may have linked it there", shown,
				  (unsigned long)st.st_nlink);
	/*
	 * The same link once the file's first name was replaced, as passwd(1) and editors do (a
	 * new file renamed over it): the link is its only name, one link counted, and its lines
	 * were quoted (attacks.py "config").  Who made a name there cannot be told, so there a
	 * file others may not read is refused: one all may read discloses nothing
	 */
	else if (!err && !(st.st_mode & S_IROTH) && others_may_write(&dir_st))
		err = listen_fail(-EPERM, "%s is not readable by others and lies in a directory "
				  "others may write to: another user may have linked it there",
				  shown);
	if (fd >= 0)
		close(fd);
	return err;
}

/* What is at the path already: nothing, or a stale socket of ours (removed); else refused. */
static int clear_stale(struct kfsim_nl_server *s, const struct sockaddr_un *sun, socklen_t len,
		       char *errbuf, size_t errsize)
{
	struct stat st;
	int probe;

	if (fstatat(s->dir_fd, s->file_name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : listen_fail(-errno, "cannot stat %s", s->path);
	if (!S_ISSOCK(st.st_mode))
		return listen_fail(-EEXIST, "%s exists and is %s, not a socket: left alone",
				   s->path, S_ISLNK(st.st_mode) ? "a symbolic link" :
				   S_ISREG(st.st_mode) ? "a regular file" :
				   S_ISDIR(st.st_mode) ? "a directory" : "a special file");
	probe = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (probe >= 0 && (!connect(probe, (const struct sockaddr *)sun, len) ||
			   errno == EAGAIN)) {
		close(probe);
		return listen_fail(-EADDRINUSE, "a server (uid %u) answers on %s", st.st_uid,
				   s->path);
	}
	if (probe >= 0)
		close(probe);
	if (st.st_uid != geteuid() && geteuid() != 0)
		return listen_fail(-EEXIST, "%s is a socket of uid %u that nobody answers on: "
				   "left alone", s->path, (unsigned int)st.st_uid);
	if (unlinkat(s->dir_fd, s->file_name, 0) && errno != ENOENT)
		return listen_fail(-errno, "cannot remove the stale socket %s", s->path);
	return 0;
}

/*
 * bind() through the held directory (/proc/self/fd/N/name, when it fits), with the umask set so
 * the file is born with its final mode: nothing follows the path afterwards.
 */
static int bind_file(struct kfsim_nl_server *s, const struct kfsim_nl_listen_opts *opts,
		     char *errbuf, size_t errsize)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	mode_t old_umask = 0;
	struct stat st;
	int n, ret;

	n = snprintf(sun.sun_path, sizeof(sun.sun_path), "/proc/self/fd/%d/%s", s->dir_fd,
		     s->file_name);
	if (n < 0 || (size_t)n >= sizeof(sun.sun_path) || access("/proc/self/fd", X_OK))
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", s->path);
	if (opts->mode >= 0)
		old_umask = umask(~(mode_t)opts->mode & 0777);
	ret = bind(s->listen_fd, (struct sockaddr *)&sun, sizeof(sun)) ? -errno : 0;
	if (opts->mode >= 0)
		umask(old_umask);
	if (ret)
		return listen_fail(ret, "cannot bind %s", s->path);
	s->unlink_path = true;
	if (fstatat(s->dir_fd, s->file_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISSOCK(st.st_mode))
		return listen_fail(-EEXIST, "%s changed under us", s->path);
	s->file_dev = st.st_dev;
	s->file_ino = st.st_ino;
	if (opts->group != (gid_t)-1 &&
	    fchownat(s->dir_fd, s->file_name, (uid_t)-1, opts->group, AT_SYMLINK_NOFOLLOW))
		return listen_fail(-errno, "cannot give %s to group %u", s->path,
				   (unsigned int)opts->group);
	return 0;
}

/*
 * No descriptor a client sends reaches us: the kernel refuses the sendmsg() (EPERM).  Received,
 * a descriptor is closed by the server, and closing the last copy runs its release in the
 * server's thread: a TCP socket with SO_LINGER and unsent data held the server in close() as
 * long as it lingered (measured: root's request timed out; attacks.py "passed_fds"), as would
 * a FUSE file whose daemon never answers its flush.  Kernels before 6.16 lack the option
 * (ENOPROTOOPT): there the descriptors still arrive, and are closed.  Set on the listening
 * socket, it is inherited by every connection from its first packet on.
 */
static void refuse_passed_fds(int fd)
{
	setsockopt(fd, SOL_SOCKET, SO_PASSRIGHTS, &(int){ 0 }, sizeof(int));
}

static int listen_on(struct kfsim_nl_server *s, const char *path,
		     const struct kfsim_nl_listen_opts *opts, char *errbuf, size_t errsize)
{
	struct sockaddr_un sun;
	socklen_t len;
	int err;

	err = kfsim_nl_sockaddr(path, &sun, &len);
	if (err)
		return listen_fail(err, "%s does not fit a UNIX socket address", path);
	s->listen_fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s->listen_fd < 0)
		return listen_fail(-errno, "cannot create a socket");
	refuse_passed_fds(s->listen_fd);
	if (path[0] == '@') {
		if (bind(s->listen_fd, (struct sockaddr *)&sun, len))
			return listen_fail(errno == EADDRINUSE ? -EADDRINUSE : -errno,
					   "cannot bind %s", path);
	} else {
		snprintf(s->path, sizeof(s->path), "%s", path);
		err = open_socket_dir(s, errbuf, errsize);
		if (!err)
			err = clear_stale(s, &sun, len, errbuf, errsize);
		if (!err)
			err = bind_file(s, opts, errbuf, errsize);
		if (err)
			return err;
	}
	if (listen(s->listen_fd, 64))
		return listen_fail(-errno, "cannot listen on %s", path);
	return 0;
}

/*
 * Two descriptors per connection and a few for ourselves, within RLIMIT_NOFILE as it is (the
 * library never changes a program's limits; `kfsim kernel` raises its own first).
 */
static unsigned int client_capacity(void)
{
	const rlim_t want = 2 * KFSIM_NL_SERVER_MAX_CLIENTS + 64;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 16;
	if (rl.rlim_cur >= want)
		return KFSIM_NL_SERVER_MAX_CLIENTS;
	return rl.rlim_cur > 96 ? (unsigned int)((rl.rlim_cur - 64) / 2) : 16;
}

/*
 * A network namespace with nothing in it, for the data sockets handed to clients.  A socket
 * carries the namespace it was made in: an interface ioctl on it (SIOCSIFMTU, SIOCSIFFLAGS,
 * SIOCETHTOOL, made with syscall() past the shim) acts on that namespace's devices, and
 * SIOCGSKNS hands the namespace out.  Made in ours, the shim's socket would take a root program
 * under `kfsim exec` back to the machine's interfaces (measured: SIOCSIFMTU changed a real
 * one).  A server allowed to make a namespace (root, CAP_SYS_ADMIN) makes one here; another
 * has a helper make the sockets in one of a user namespace of its own (nl_socket_maker.c), and
 * only where neither can be (user namespaces not allowed) do data sockets stay in our
 * namespace, where a client's ioctls need its own capabilities over the machine's (root's
 * have them).  Where we cannot come back (setns() refused, as by `kfsim exec`'s seccomp
 * filter), the namespace is not made here.
 */
static int make_empty_netns(struct kfsim_nl_server *s, char *errbuf, size_t errsize)
{
	s->home_netns = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (s->home_netns < 0 || setns(s->home_netns, CLONE_NEWNET) || unshare(CLONE_NEWNET)) {
		kfsim_nl_socket_maker_start(&s->maker);	/* else data sockets in our namespace */
		return 0;
	}
	s->empty_netns = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (setns(s->home_netns, CLONE_NEWNET))
		return listen_fail(-errno, "cannot return to the server's network namespace");
	return 0;
}

/* socketpair() in the empty namespace, if there is one; this thread comes back either way. */
static int data_socketpair(struct kfsim_nl_server *s, int sv[2])
{
	int err = 0;

	if (s->maker.started)
		return kfsim_nl_socket_maker_pair(&s->maker, sv);

	if (s->empty_netns >= 0 && setns(s->empty_netns, CLONE_NEWNET))
		return -errno;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		err = -errno;
	if (s->empty_netns >= 0 && setns(s->home_netns, CLONE_NEWNET)) {
		/* stranded in the empty one: no later socket may be made there by mistake */
		pr_err("kfsim-netlink: cannot return to the server's network namespace\n");
		abort();
	}
	return err;
}

struct kfsim_nl_server *kfsim_nl_server_listen(struct kfsim_nl_kernel *k, const char *path,
					       const struct kfsim_nl_listen_opts *opts,
					       char *err, size_t err_size)
{
	static const struct kfsim_nl_listen_opts defaults = { .mode = -1, .group = (gid_t)-1 };
	char scratch[8];
	struct kfsim_nl_server *s;
	int ret;

	if (!err || !err_size) {
		err = scratch;
		err_size = sizeof(scratch);
	}
	err[0] = '\0';
	if (!k || !path)
		return ERR_PTR(-EINVAL);
	if (!opts)
		opts = &defaults;
	if (opts->mode > 07777)
		return ERR_PTR(-EINVAL);
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	s->kernel = k;
	s->listen_fd = -1;
	s->dir_fd = -1;
	s->home_netns = s->empty_netns = -1;
	s->maker = (struct nl_socket_maker){ .pidfd = -1, .fd = -1, .started = false };
	s->max_clients = client_capacity();
	s->own_process = opts->own_process;
	s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	s->buf = kmalloc(NL_SERVER_BUF_SIZE, GFP_KERNEL);
	if (!s->buf) {
		kfsim_nl_server_destroy(s);
		return ERR_PTR(-ENOMEM);
	}
	ret = listen_on(s, path, opts, err, err_size);
	if (!ret && !s->own_process)
		ret = make_empty_netns(s, err, err_size);
	if (ret) {
		kfsim_nl_server_destroy(s);
		return ERR_PTR(ret);
	}
	return s;
}

struct kfsim_nl_server *kfsim_nl_server_create(struct kfsim_nl_kernel *k, const char *path)
{
	return kfsim_nl_server_listen(k, path, NULL, NULL, 0);
}

int kfsim_nl_server_default_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/kfsim-kernel.sock", xdg);
	else
		n = snprintf(buf, size, "/tmp/kfsim-%u/kernel.sock", (unsigned int)geteuid());
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/*
 * What a queued buffer of @len bytes takes: the slab object it is (ksize()), as the kernel
 * charges a socket an skb's truesize, not its length.  Counted by length, replies of 52 bytes
 * (a 2000-request buffer's ACKs) filled the 64 MiB of all readers with 176 MiB of the
 * server's memory (attacks.py "queue_total").
 */
static size_t buf_cost(size_t len)
{
	return kmalloc_size_roundup(sizeof(struct nl_server_buf) + len);
}

/* Everything queued for @c goes, off the server's total too. */
static void client_drop_queue(struct kfsim_nl_server *s, struct nl_server_client *c)
{
	while (c->out_head) {
		struct nl_server_buf *b = c->out_head;

		c->out_head = b->next;
		kfree(b);
	}
	c->out_tail = NULL;
	if (!c->privileged)
		s->queued_bytes -= c->out_bytes;
	c->out_bytes = 0;
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
	kfree(c->pending);
	client_drop_queue(s, c);
	s->nr_clients--;
	kfree(c);
}

/* Only the file bind() made, through the directory we checked: never a replacement. */
static void remove_socket_file(struct kfsim_nl_server *s)
{
	struct stat st;

	if (!fstatat(s->dir_fd, s->file_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISSOCK(st.st_mode) &&
	    st.st_dev == s->file_dev && st.st_ino == s->file_ino)
		unlinkat(s->dir_fd, s->file_name, 0);
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
		remove_socket_file(s);
	if (s->dir_fd >= 0)
		close(s->dir_fd);
	if (s->spare_fd >= 0)
		close(s->spare_fd);
	if (s->home_netns >= 0)
		close(s->home_netns);
	if (s->empty_netns >= 0)
		close(s->empty_netns);
	kfsim_nl_socket_maker_stop(&s->maker);
	kfree(s->buf);
	kfree(s);
}

unsigned int kfsim_nl_server_clients(const struct kfsim_nl_server *s)
{
	return __atomic_load_n(&s->nr_sockets, __ATOMIC_RELAXED); /* read from other threads */
}

/*
 * Packets read from a refused connection before hanging up: a client sends one request (OPEN)
 * before it reads the answer.  Bounded, because a refused client that keeps sending from a few
 * threads would otherwise hold the server in the loop below as long as it liked (measured:
 * root's request took 1 to 3.4 s instead of 0.03 s; attacks.py "refused").
 */
#define NL_SERVER_REFUSE_DRAIN 8

/* Refuse a connection with a reply the client reads as the OPEN's answer, then hang up. */
static void refuse(int fd, int err)
{
	struct kfsim_nl_wire_rep rep = { .err = err };
	struct kfsim_nl_wire_req req;

	send(fd, &rep, sizeof(rep), MSG_DONTWAIT | MSG_NOSIGNAL);
	/* closing with its request unread would reset the client before it reads why */
	for (int i = 0; i < NL_SERVER_REFUSE_DRAIN &&
	     recv(fd, &req, sizeof(req), MSG_DONTWAIT | MSG_TRUNC) > 0; i++)
		;
	close(fd);
}

/*
 * Room for one more connection of the user @account?  Root and the server's own user
 * (@privileged) share the whole table; every other user gets KFSIM_NL_SERVER_MAX_PER_UID, and
 * all of them together leave KFSIM_NL_SERVER_RESERVED free, so no unprivileged user can lock
 * the owner out.  A user's subordinate uids are that user's (kfsim_nl_peer_account()).
 */
static int admit(const struct kfsim_nl_server *s, uid_t account, bool privileged)
{
	const struct nl_server_client *c;
	unsigned int mine = 0, others = 0;

	if (s->nr_clients >= s->max_clients)
		return -ENFILE;
	if (privileged)
		return 0;
	for (c = s->clients; c; c = c->next) {
		if (c->privileged)
			continue;
		others++;
		mine += c->account == account;
	}
	if (mine >= KFSIM_NL_SERVER_MAX_PER_UID)
		return -EMFILE;
	if (others + min(KFSIM_NL_SERVER_RESERVED, s->max_clients / 4) >= s->max_clients)
		return -ENFILE;
	return 0;
}

/* accept() failed for want of descriptors: free the spare, shed one connection, take it back. */
static void shed_one(struct kfsim_nl_server *s)
{
	int fd;

	if (s->spare_fd < 0)
		return;
	close(s->spare_fd);
	fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd >= 0)
		refuse(fd, -ENFILE);
	s->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* Returns false when nothing more is waiting. */
static bool accept_client(struct kfsim_nl_server *s)
{
	struct nl_server_client *c;
	struct ucred peer;
	socklen_t len = sizeof(peer);
	bool privileged;
	uid_t account;
	int fd, err;

	fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (fd < 0) {
		if (errno == EMFILE || errno == ENFILE)
			shed_one(s);
		return errno == EINTR || errno == ECONNABORTED;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len)) {
		close(fd);
		return true;
	}
	if (s->own_process && peer.pid != getpid()) {
		refuse(fd, -EACCES);
		return true;
	}
	privileged = peer.uid == 0 || peer.uid == geteuid();
	account = privileged || s->own_process ? peer.uid : kfsim_nl_peer_account(fd, &peer);
	err = admit(s, account, privileged);
	if (err) {
		refuse(fd, err);
		return true;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c || setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &(int){ 1 }, sizeof(int))) {
		err = c ? -errno : -ENOMEM;
		kfree(c);
		refuse(fd, err);
		return true;
	}
	c->ctl_pidfd = !setsockopt(fd, SOL_SOCKET, SO_PASSPIDFD, &(int){ 1 }, sizeof(int));
	c->cred = kfsim_nl_peer_cred(fd, &peer);
	c->uid = peer.uid;
	c->account = account;
	c->privileged = privileged;
	c->ctl_fd = fd;
	c->data_fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &c->connected);
	c->next = s->clients;
	s->clients = c;
	s->nr_clients++;
	return true;
}

/*
 * A client whose end will never read again: everything queued for it goes, and the main loop
 * releases it as a closed one.  A netlink socket has no such state (shutdown() is EOPNOTSUPP
 * there, and the shim answers so), but a client speaking the protocol itself may shut its
 * end for reading (SHUT_RD): every send() to it then fails with EPIPE while poll() still
 * reports it writable, and keeping its queue, or the ENOBUFS marker still to be sent, had
 * the loop poll it for POLLOUT and wake at once, for ever (measured: root's server used a
 * whole CPU for as long as one connection of `nobody` stayed open; attacks.py "deaf").
 */
static void client_deaf(struct kfsim_nl_server *s, struct nl_server_client *c)
{
	c->deaf = true;
	c->overrun_pending = false;
	client_drop_queue(s, c);
}

/* A send() error that says the client's end will never read again: closed, or shut (SHUT_RD). */
static bool never_reads(int err)
{
	return err == EPIPE || err == ECONNRESET || err == ENOTCONN;
}

/* Try to hand queued buffers to the client; keep what its socket cannot take now. */
static void client_push(struct kfsim_nl_server *s, struct nl_server_client *c)
{
	while (c->out_head) {
		struct nl_server_buf *b = c->out_head;
		ssize_t n = send(c->data_fd, b->data, b->len, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n < 0 && never_reads(errno)) {
			client_deaf(s, c);	/* gone, or reading no more */
			return;
		}
		/* sent, or lost (out of kernel memory: as a reply the kernel could not queue) */
		c->out_head = b->next;
		if (!c->out_head)
			c->out_tail = NULL;
		c->out_bytes -= buf_cost(b->len);
		if (!c->privileged)
			s->queued_bytes -= buf_cost(b->len);
		kfree(b);
		if (n < 0)
			return;
	}
	/* netlink_rcv_wake(): a drained reader is no longer congested; then say what was lost */
	if (c->overrun_pending) {
		if (send(c->data_fd, KFSIM_NL_WIRE_OVERRUN, KFSIM_NL_WIRE_OVERRUN_LEN,
			 MSG_DONTWAIT | MSG_NOSIGNAL) >= 0)
			c->overrun_pending = false;
		else if (never_reads(errno))
			client_deaf(s, c);
	}
	if (!c->overrun_pending)
		c->congested = false;
}

/*
 * netlink_overrun(): a reader whose queue is full loses the message, and its next recv() fails
 * with ENOBUFS (unless it set NETLINK_NO_ENOBUFS); it stays congested, losing everything, until
 * it has read what was queued.
 */
static void client_overrun(struct nl_server_client *c)
{
	if (!c->congested && !c->opt[NETLINK_NO_ENOBUFS])
		c->overrun_pending = true;
	c->congested = true;
	/* once per episode, and rate-limited: a reader may start episodes as often as it likes */
	if (!c->dropped++)
		pr_warn_ratelimited("kfsim-netlink: port %u does not read: dropping its messages\n",
			kfsim_nl_sock_portid(c->sock));
}

/*
 * Queue @len bytes for @c, within its reader's limit and, for a client of an unprivileged user,
 * within what all of those together may hold: root's and the owner's readers are not held to
 * that total, or users that fill it (five of them, 60 readers each that never read) would have
 * every reply to root dropped (its --get-plca-cfg: -ENOBUFS, attacks.py "queue_total"), as
 * KFSIM_NL_SERVER_RESERVED keeps connections for them.
 */
static void client_enqueue(struct kfsim_nl_server *s, struct nl_server_client *c,
			   const u8 *data, size_t len)
{
	struct nl_server_buf *b;
	size_t cost = buf_cost(len);

	if (c->deaf)
		return;
	if (c->congested || c->out_bytes + cost > KFSIM_NL_SERVER_QUEUE_MAX ||
	    (!c->privileged && s->queued_bytes + cost > KFSIM_NL_SERVER_QUEUE_TOTAL)) {
		client_overrun(c);
		return;
	}
	b = kmalloc(sizeof(*b) + len, GFP_KERNEL);
	if (!b) {
		client_overrun(c);
		return;
	}
	b->next = NULL;
	b->len = len;
	memcpy(b->data, data, len);
	if (c->out_tail)
		c->out_tail->next = b;
	else
		c->out_head = b;
	c->out_tail = b;
	c->out_bytes += cost;
	if (!c->privileged)
		s->queued_bytes += cost;
	c->dropped = 0;
}

/*
 * Every reply, dump step and notification the last request made goes to its reader, under the
 * reader's limits (client_enqueue()).  A client whose buffer is only partly run gets what is
 * queued, but its dump does not advance: that would finish it between two messages of one
 * buffer, where Linux's netlink_rcv_skb() finds it still running (-EBUSY for a second one);
 * the dump's rest follows once the buffer is done, in the order it was made.  Left on its
 * socket instead, a partly run buffer's replies were held whole, beyond every limit: 32
 * connections of `nobody`, each with a 64 KiB buffer of GETFAMILY requests (each reply held
 * in a buffer of about 4 KiB) and never reading, grew root's server by 247 MiB (attacks.py
 * "pending").
 */
static void flush_all(struct kfsim_nl_server *s)
{
	struct nl_server_client *c;

	for (c = s->clients; c; c = c->next) {
		ssize_t n;

		if (!c->sock)
			continue;
		while ((n = c->pending ?
			    kfsim_nl_sock_recv_queued(c->sock, s->buf, NL_SERVER_BUF_SIZE) :
			    kfsim_nl_sock_recv(c->sock, s->buf, NL_SERVER_BUF_SIZE)) > 0)
			client_enqueue(s, c, s->buf, min_t(size_t, (size_t)n, NL_SERVER_BUF_SIZE));
		client_push(s, c);
	}
}

/* One packet's sender, as the kernel names it. */
struct nl_sender {
	struct ucred ucred;	/* SCM_CREDENTIALS; pid 0 when the kernel named none */
	int pidfd;		/* SCM_PIDFD: the sender pinned when it sent; -1 when none came */
	bool passpidfd;		/* the connection asked for one (SO_PASSPIDFD) */
};

/* A packet's sender nobody will ask about: its pidfd is closed. */
static void sender_drop(struct nl_sender *sender)
{
	if (sender->pidfd >= 0)
		close(sender->pidfd);
	sender->pidfd = -1;
}

/*
 * recv() of one packet and the process that sent it (SCM_CREDENTIALS, SCM_PIDFD where
 * @passpidfd).  Descriptors a client sends along are closed, never kept; when the control data
 * did not fit (MSG_CTRUNC, more descriptors than room) the sender counts as unnamed, since what
 * the kernel dropped cannot be told.  The caller closes sender->pidfd (sender_cred() or
 * sender_drop()).
 */
static ssize_t recv_from(int fd, void *buf, size_t size, bool passpidfd,
			 struct nl_sender *sender)
{
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int)) +
			 CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} control;
	struct iovec iov = { .iov_base = buf, .iov_len = size };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control.buf, .msg_controllen = sizeof(control.buf),
	};
	struct cmsghdr *cmsg;
	ssize_t n;

	*sender = (struct nl_sender){
		.ucred = { .pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1 },
		.pidfd = -1, .passpidfd = passpidfd,
	};
	n = recvmsg(fd, &msg, MSG_DONTWAIT | MSG_TRUNC | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return n;
	for (cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
		if (cmsg->cmsg_level != SOL_SOCKET)
			continue;
		if (cmsg->cmsg_type == SCM_CREDENTIALS &&
		    cmsg->cmsg_len >= CMSG_LEN(sizeof(sender->ucred))) {
			memcpy(&sender->ucred, CMSG_DATA(cmsg), sizeof(sender->ucred));
		} else if (cmsg->cmsg_type == SCM_PIDFD && cmsg->cmsg_len >= CMSG_LEN(sizeof(int))) {
			int pidfd;

			/* negative: the kernel's error (before 6.16, a sender already reaped) */
			memcpy(&pidfd, CMSG_DATA(cmsg), sizeof(int));
			sender_drop(sender);
			sender->pidfd = pidfd >= 0 ? pidfd : -1;
		} else if (cmsg->cmsg_type == SCM_RIGHTS) {
			for (size_t i = 0; i < (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
				int passed;

				memcpy(&passed, CMSG_DATA(cmsg) + i * sizeof(int), sizeof(int));
				close(passed);
			}
		}
	}
	if (msg.msg_flags & MSG_CTRUNC) {
		sender_drop(sender);
		sender->ucred.pid = 0;
	}
	return n;
}

/*
 * What the sender of the request just read holds: only asked when the opener holds something,
 * since both must (reading /proc per message would cost the unprivileged nothing to cause).
 * Consumes sender->pidfd.  On a connection with SO_PASSPIDFD, a message that came without a
 * pidfd has no sender to ask: pidfd_open() now could find another process with its pid.
 */
static struct kfsim_nl_cred sender_cred(struct nl_server_client *c, struct nl_sender *sender)
{
	int pidfd = sender->pidfd;

	sender->pidfd = -1;
	if (!c->cred.net_admin && !c->cred.net_admin_netns && !c->cred.sys_admin) {
		if (pidfd >= 0)
			close(pidfd);
		return KFSIM_NL_CRED_USER;
	}
	if (c->logged_sender != sender->ucred.pid) {
		/*
		 * once per sending process in turn, at KERN_DEBUG so the console shows it only when
		 * asked (`kfsim --cmdline loglevel=8 kernel`): a program under the shim, whose own
		 * kernel keeps the default console level, prints nothing
		 */
		c->logged_sender = sender->ucred.pid;
		printk(KERN_DEBUG "kfsim-netlink: sender pid %d (uid %u) on a connection of uid %u %s\n",
			(int)sender->ucred.pid, (unsigned int)sender->ucred.uid,
			(unsigned int)c->uid, pidfd >= 0 ? "pinned when it sent (SCM_PIDFD)" :
			sender->passpidfd ? "came without SCM_PIDFD: holds nothing" :
			"pinned when read (pidfd_open(): no SCM_PIDFD here)");
	}
	if (sender->passpidfd && pidfd < 0)
		return KFSIM_NL_CRED_USER;
	return kfsim_nl_sender_cred(&sender->ucred, pidfd);
}

static int reply(struct nl_server_client *c, int err, int pass_fd)
{
	struct kfsim_nl_wire_rep rep = {
		.err = err, .portid = c->sock ? kfsim_nl_sock_portid(c->sock) : 0,
	};

	return kfsim_fd_send(c->ctl_fd, &rep, sizeof(rep), &pass_fd, pass_fd >= 0);
}

static int do_open(struct kfsim_nl_server *s, struct nl_server_client *c, u32 protocol)
{
	int sv[2], err, sndbuf = NL_SERVER_SOCK_RCVBUF;

	if (c->sock)
		return reply(c, -EISCONN, -1);
	if (protocol != NETLINK_GENERIC)
		return reply(c, -EPROTONOSUPPORT, -1);
	err = data_socketpair(s, sv);
	if (err)
		return reply(c, err, -1);
	/*
	 * Before the client has the other end: every message it sends names its sender.  Without
	 * it every sender would read as pid 0 and a capable opener lose its rights in silence.
	 */
	if (setsockopt(sv[0], SOL_SOCKET, SO_PASSCRED, &(int){ 1 }, sizeof(int))) {
		err = -errno;
		close(sv[0]);
		close(sv[1]);
		return reply(c, err, -1);
	}
	/* and pins it as it sends, where the kernel can (6.5); else nl_peer_cred.c pins it later */
	c->data_pidfd = !setsockopt(sv[0], SOL_SOCKET, SO_PASSPIDFD, &(int){ 1 }, sizeof(int));
	refuse_passed_fds(sv[0]);
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

static int do_setsockopt(struct nl_server_client *c, u32 opt, u32 val,
			 const struct kfsim_nl_cred *sender)
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
		err = c->cred.net_admin && sender->net_admin ? 0 : -EPERM;
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
	struct kfsim_nl_cred cred;
	struct nl_sender sender;
	ssize_t n = recv_from(c->ctl_fd, &req, sizeof(req), c->ctl_pidfd, &sender);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR;
	if (n != (ssize_t)sizeof(req) || req.magic != KFSIM_NL_WIRE_MAGIC ||
	    req.version != KFSIM_NL_WIRE_VERSION) {
		sender_drop(&sender);
		return false;	/* the end, or not one of ours: hang up rather than guess */
	}
	if (req.op == KFSIM_NL_WIRE_SHUTDOWN) {
		/* the server's own user (or root) may stop it; nobody else */
		bool allowed = c->uid == 0 || c->uid == geteuid();

		sender_drop(&sender);
		s->shutdown |= allowed;
		reply(c, allowed ? 0 : -EPERM, -1);
		return true;
	}
	if (req.op != KFSIM_NL_WIRE_OPEN && !c->sock) {
		sender_drop(&sender);
		reply(c, -ENOTCONN, -1);
		return true;
	}
	/* BIND's groups and SETSOCKOPT's joins are checked against this sender too */
	cred = sender_cred(c, &sender);
	if (c->sock)
		kfsim_nl_sock_set_sender(c->sock, &cred);
	switch (req.op) {
	case KFSIM_NL_WIRE_OPEN:
		do_open(s, c, req.val);
		break;
	case KFSIM_NL_WIRE_BIND:
		do_bind(c, req.name, req.val);
		break;
	case KFSIM_NL_WIRE_SETSOCKOPT:
		do_setsockopt(c, req.name, req.val, &cred);
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

/*
 * How much of @buf to run now: whole messages up to @budget bytes (at least one), cut where
 * netlink_rcv_skb() would go on to the next message; a truncated or malformed tail, which ends
 * the kernel's walk, stays with the messages before it.
 */
static size_t turn_cut(const u8 *buf, size_t len, size_t budget)
{
	size_t off = 0;

	while (off < budget && len - off >= NLMSG_HDRLEN) {
		struct nlmsghdr nlh;

		memcpy(&nlh, buf + off, sizeof(nlh));
		if (nlh.nlmsg_len < NLMSG_HDRLEN || nlh.nlmsg_len > len - off)
			return len;	/* a malformed tail */
		/* whole messages within the budget; the first one whatever its size */
		if (off && NLMSG_ALIGN(nlh.nlmsg_len) > budget - off)
			break;
		if (NLMSG_ALIGN(nlh.nlmsg_len) >= len - off)
			return len;	/* the last message */
		off += NLMSG_ALIGN(nlh.nlmsg_len);
	}
	return off < len && len - off < NLMSG_HDRLEN ? len : off;
}

/*
 * Run up to @budget bytes of @c's requests: its pending rest, else a new buffer read now.
 * Return: the bytes run (0: none waiting), or -1 when every client copy is closed.
 */
static ssize_t serve_data(struct kfsim_nl_server *s, struct nl_server_client *c, size_t budget)
{
	struct kfsim_nl_cred cred;
	struct nl_sender sender;
	const u8 *buf;
	size_t len, cut;
	ssize_t n;

	if (c->pending) {
		buf = c->pending;
		len = c->pending_len;
		cred = c->pending_cred;
	} else {
		n = recv_from(c->data_fd, s->buf, NL_SERVER_BUF_SIZE, c->data_pidfd, &sender);
		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		if (n == 0 || (size_t)n > NL_SERVER_RX_MAX)
			sender_drop(&sender);	/* nothing to run */
		if (n == 0) {
			/* an empty packet, or the end: only a hang-up ends the socket */
			struct pollfd hup = { .fd = c->data_fd, .events = POLLRDHUP };

			return poll(&hup, 1, 0) <= 0 ||
			       !(hup.revents & (POLLHUP | POLLRDHUP | POLLERR)) ? 0 : -1;
		}
		c->bound = true;	/* netlink_sendmsg() autobinds */
		if ((size_t)n > NL_SERVER_RX_MAX)
			return n;	/* refused by the sender (the shim answers EMSGSIZE) */
		buf = s->buf;
		len = (size_t)n;
		/* who sent it, asked when it arrives; the buffer's rest keeps the answer */
		cred = sender_cred(c, &sender);
	}
	cut = turn_cut(buf, len, budget);
	kfsim_nl_sock_set_sender(c->sock, &cred);
	kfsim_nl_sock_send(c->sock, buf, cut);
	if (cut < len) {
		/* the rest for a later turn (copied first: buf may be the old pending copy) */
		u8 *rest = kmalloc(len - cut, GFP_KERNEL);

		if (rest)
			memcpy(rest, buf + cut, len - cut);
		kfree(c->pending);
		c->pending = rest;	/* NULL when out of memory: the rest is lost */
		c->pending_len = rest ? len - cut : 0;
		c->pending_cred = cred;
	} else if (c->pending) {
		kfree(c->pending);
		c->pending = NULL;
		c->pending_len = 0;
	}
	flush_all(s);
	return (ssize_t)cut;
}

/* A connection that has not opened its socket in time holds a slot for nothing. */
static bool open_overdue(const struct nl_server_client *c)
{
	struct timespec now;
	long long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (now.tv_sec - c->connected.tv_sec) * 1000LL +
	     (now.tv_nsec - c->connected.tv_nsec) / 1000000;
	return ms >= KFSIM_NL_SERVER_OPEN_TIMEOUT_MS;
}

/* The request bytes run for each user in this turn (root's own and its containers' apart). */
struct nl_server_turn_use {
	uid_t account;
	bool privileged;
	size_t used;
};

/*
 * One turn of requests: every client with some waiting, starting at a rotating place, each
 * taking what is left of its user's KFSIM_NL_SERVER_TURN_BYTES.  @ready and @use hold one entry
 * per client.
 */
static void serve_turn(struct kfsim_nl_server *s, struct nl_server_client **ready,
		       struct nl_server_turn_use *use)
{
	struct nl_server_client *c;
	size_t n = 0, users = 0;

	for (c = s->clients; c; c = c->next)
		if (c->data_ready && c->data_fd >= 0)
			ready[n++] = c;
	for (size_t k = 0; k < n; k++) {
		struct nl_server_turn_use *u = NULL;
		ssize_t ran;

		c = ready[(s->turn + k) % n];
		for (size_t j = 0; j < users && !u; j++)
			if (use[j].account == c->account && use[j].privileged == c->privileged)
				u = &use[j];
		if (!u) {
			u = &use[users++];
			*u = (struct nl_server_turn_use){ .account = c->account,
							   .privileged = c->privileged };
		}
		if (u->used >= KFSIM_NL_SERVER_TURN_BYTES)
			continue;	/* this user's turn is spent: next turn */
		ran = serve_data(s, c, KFSIM_NL_SERVER_TURN_BYTES - u->used);
		if (ran < 0)
			client_free(s, c);
		else
			u->used += (size_t)ran;
	}
	s->turn++;
}

int kfsim_nl_server_run(struct kfsim_nl_server *s, volatile sig_atomic_t *stop)
{
	struct nl_server_turn_use *use = NULL;
	struct nl_server_client **ready = NULL;
	struct pollfd *pfd = NULL;
	size_t cap = 0;
	int ret = 0;

	while (!*stop && !s->shutdown) {
		struct nl_server_client *c, *next;
		bool pending = false;
		size_t n = 0, i;

		for (c = s->clients, i = 1; c; c = c->next)
			i += 2;
		if (i > cap) {
			struct pollfd *grown = krealloc(pfd, i * 2 * sizeof(*pfd), GFP_KERNEL);
			/* more than a client each, for as long as pfd[] needs no growing */
			struct nl_server_client **r = krealloc(ready, i * 2 * sizeof(*r), GFP_KERNEL);
			struct nl_server_turn_use *u = krealloc(use, i * 2 * sizeof(*u), GFP_KERNEL);

			pfd = grown ? grown : pfd;
			ready = r ? r : ready;
			use = u ? u : use;
			if (!grown || !r || !u) {
				ret = -ENOMEM;
				break;
			}
			cap = i * 2;
		}
		pfd[n++] = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
		for (c = s->clients; c; c = c->next) {
			pfd[n++] = (struct pollfd){ .fd = c->ctl_fd, .events = POLLIN };
			pfd[n++] = (struct pollfd){ .fd = c->data_fd,
						    .events = POLLIN | (c->out_head ||
								c->overrun_pending ?
								POLLOUT : 0) };
			pending |= c->pending != NULL;
		}
		/* a client with a buffer's rest waiting is served without waiting for input */
		ret = poll(pfd, n, pending ? 0 : 100);
		if (ret < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		ret = 0;
		if (*stop)
			break;
		/* the list may shrink while we walk it: pfd[] was laid out in list order */
		for (c = s->clients, i = 1; c; c = next, i += 2) {
			short ctl = pfd[i].revents, data = pfd[i + 1].revents;
			bool alive = true;

			next = c->next;
			c->data_ready = false;
			/*
			 * On Linux sendmsg() has run a whole buffer before the sender's next
			 * setsockopt() can: a control request waits while its client's data does
			 */
			if ((data & POLLIN) || c->pending)
				ctl &= ~POLLIN;
			if (ctl && c->ctl_fd >= 0 && !handle_ctl(s, c)) {
				close(c->ctl_fd);
				c->ctl_fd = -1;
				if (!c->sock)
					alive = false;	/* connected, never opened */
			}
			if (alive && c->data_fd >= 0 && (data & POLLOUT))
				client_push(s, c);
			if (alive && c->data_fd >= 0 && ((data & POLLIN) || c->pending))
				c->data_ready = true;	/* served in the turn below */
			else if (alive && c->data_fd >= 0 && (data & (POLLHUP | POLLERR)))
				alive = false;
			if (alive && !c->sock && open_overdue(c))
				alive = false;
			if (c->deaf)
				alive = false;	/* reads no more: as if it had closed */
			if (!alive)
				client_free(s, c);
		}
		serve_turn(s, ready, use);
		/* a burst is taken at once, but bounded so clients already in are served too */
		for (int burst = 0; (pfd[0].revents & POLLIN) && burst < 64; burst++)
			if (!accept_client(s))
				break;
	}
	kfree(use);
	kfree(ready);
	kfree(pfd);
	return ret;
}
