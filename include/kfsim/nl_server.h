/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NL_SERVER_H
#define KFSIM_NL_SERVER_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * kfsim's in-process kernel as a stand-in kernel for other processes.
 *
 * A server (kfsim_nl_server_*) owns a struct kfsim_nl_kernel and serves it on a UNIX socket.
 * Each netlink socket a client opens is one connection to it:
 *
 *   control connection (SOCK_SEQPACKET, client -> server requests, one reply each)
 *       OPEN, BIND, SETSOCKOPT, GETSOCKOPT; the OPEN reply carries, by SCM_RIGHTS, ...
 *   data descriptor (one end of a SOCK_SEQPACKET socketpair)
 *       ... on which the client sends netlink requests and reads the kernel's buffers, one
 *       netlink buffer per packet, exactly as on an AF_NETLINK socket: poll, select, epoll,
 *       MSG_PEEK, MSG_TRUNC, dup and fork work on it unchanged.
 *
 * The socket lives as long as the data descriptor has a client-side copy: when the last copy is
 * closed (or the process dies, mid-dump included) the server closes the kfsim socket, as the
 * kernel releases a netlink socket on its last close.
 *
 * Credentials are the capabilities the connecting process really holds (not its uid): the
 * effective set of the SO_PEERCRED process (found race-free through SO_PEERPIDFD), counted only
 * when that process is in the server's user namespace, which owns the simulated network
 * namespace.  CAP_NET_ADMIN passes GENL_ADMIN_PERM and GENL_UNS_ADMIN_PERM, CAP_SYS_ADMIN the
 * GENL_MCAST_CAP_SYS_ADMIN groups; without them a request answers -EPERM as on Linux.  As Linux
 * asks the sending task too, so does the server: the process that sent each request (named by
 * the kernel in SCM_CREDENTIALS, SO_PASSCRED being set on the server's ends) must hold the
 * capability as well, so a descriptor passed on or kept after dropping it lends nothing.
 *
 * Limits (docs/own-tools.md, "Security model"): KFSIM_NL_SERVER_MAX_CLIENTS connections in all,
 * KFSIM_NL_SERVER_MAX_PER_UID for each user other than root and the server's own (a user's
 * subordinate uids, in a user namespace below the server's, count as that user), a connection
 * that has not opened its socket within KFSIM_NL_SERVER_OPEN_TIMEOUT_MS is closed, and at most
 * KFSIM_NL_SERVER_QUEUE_MAX bytes of memory wait for one reader (beyond, messages are dropped
 * and the reader's next recv() fails with ENOBUFS, as netlink_overrun() does), and
 * KFSIM_NL_SERVER_QUEUE_TOTAL for all readers of unprivileged users together (each message
 * counted as the slab object it takes, as the kernel charges an skb's truesize).
 *
 * The server is single-threaded: each request runs to completion before the next is read, so
 * two clients' SETs never interleave.  It serves users in turns: each turn runs, for each uid, at
 * most KFSIM_NL_SERVER_TURN_BYTES of its connections' requests (whole messages, at least one;
 * the rest of a larger buffer waits for the next turn), so one user's many connections and
 * full buffers delay another user's request by a turn, not by all their work.  Replies and
 * dump buffers are produced when the request arrives and queued for the reader (the kernel runs
 * dump steps as the reader reads; the bytes are the same, only the moment they are made differs).
 */
#include <signal.h>
#include <stdbool.h>
#include <kfsim/types.h>
#include <kfsim/nl_remote.h> /* the client side, which also stops a server */

struct kfsim_nl_kernel;
struct kfsim_nl_server;

/**
 * kfsim_nl_server_create() - listen on a UNIX socket for netlink clients
 * @k: the kernel to serve (stays owned by the caller; destroy it after the server)
 * @path: a filesystem path, or a name starting with '@' for the abstract namespace
 *
 * kfsim_nl_server_listen() with the defaults (mode from the umask, group unchanged).
 * Return: as kfsim_nl_server_listen().
 */
struct kfsim_nl_server *kfsim_nl_server_create(struct kfsim_nl_kernel *k, const char *path);

#define KFSIM_NL_SERVER_MAX_CLIENTS 512u	 /* connections in all */
#define KFSIM_NL_SERVER_MAX_PER_UID 64u	 /* per user other than root and the server's */
#define KFSIM_NL_SERVER_RESERVED 64u	 /* of the total, kept for root and the server's user */
#define KFSIM_NL_SERVER_OPEN_TIMEOUT_MS 5000 /* from connect to OPEN */
#define KFSIM_NL_SERVER_QUEUE_MAX (256u << 10) /* memory queued for one reader, beside its socket */
#define KFSIM_NL_SERVER_QUEUE_TOTAL (64u << 20) /* for all readers of unprivileged users together */
#define KFSIM_NL_SERVER_TURN_BYTES 4096u	 /* requests run per user per turn (or one message) */

/**
 * struct kfsim_nl_listen_opts - how the socket file is made
 * @mode: the file's permission bits, exactly (e.g. 0660 to share with @group); -1: 0777 less
 *        the process umask, as bind() makes it.  A mode is applied by setting the process's
 *        umask around bind(): create such a server before starting threads that create files
 * @group: the file's group ((gid_t)-1: the creator's)
 * @own_process: admit only connections made by the calling process (SO_PEERCRED's pid), and
 *               refuse others with -EACCES: for a kernel a process keeps to itself on an
 *               abstract name, which anyone on the machine may otherwise connect to
 */
struct kfsim_nl_listen_opts {
	int mode;
	gid_t group;
	bool own_process;
};

/**
 * kfsim_nl_server_listen() - listen on a UNIX socket for netlink clients, safely
 * @k: the kernel to serve (stays owned by the caller; destroy it after the server)
 * @path: a filesystem path, or a name starting with '@' for the abstract namespace
 * @opts: the file's mode and group (NULL: the defaults)
 * @err: receives a one-line reason on failure (may be NULL)
 *
 * The socket's directory is created (mode 0700, one level) if missing.  Every directory on
 * the way to it, from / (a relative @path from the working directory), must be owned by the
 * caller or root and not writable by its group or others unless sticky, and every symbolic
 * link on the way must be the caller's or root's (its target is walked the same way), so no
 * other user can swap the file for a link or choose where it goes; the mode is set at bind()
 * time (the umask), never by following the path.
 * An existing socket file is replaced only when no server answers on it and it is the
 * caller's (or the caller is root); anything else at @path is left alone.
 *
 * Return: the server; ERR_PTR(-ENAMETOOLONG) when @path does not fit a sockaddr_un,
 * -EADDRINUSE when a server answers on @path, -EEXIST when something that is not a stale
 * socket of ours is there, -EPERM when a directory or link on the way is unsafe, -ELOOP past
 * 40 links, -ENOTDIR when a component is no directory, or the errno of the calls.
 */
struct kfsim_nl_server *kfsim_nl_server_listen(struct kfsim_nl_kernel *k, const char *path,
					       const struct kfsim_nl_listen_opts *opts,
					       char *err, size_t err_size);

/**
 * kfsim_nl_server_check_config() - may a server trust the file at @path for its setup?
 * @path: the file (`kfsim kernel --config`), absolute or from the working directory
 * @err: where to say why not (the offending component and its owner), @err_size bytes
 *
 * A server may run as root while others share the machine, and reads its configuration
 * once, at start: a file another user made or could change would let them choose its devices,
 * a FIFO they made would hold it waiting for a writer, and a link of theirs would point it at a
 * secret that the parse errors then quote.  So the directories on the way are walked as for
 * kfsim_nl_server_listen() (none may be changed by another user), a symbolic link as the last
 * component must be the caller's or root's, and the file it names must be the caller's or
 * root's, writable by neither its group nor others, and a regular file (not a FIFO or pipe,
 * a device, a socket, a directory).  Nothing is read and nothing waits.
 * Return: 0; -EPERM (another user's, or writable by others), -EINVAL (not a regular file), or
 * as kfsim_nl_server_listen()'s walk.
 */
int kfsim_nl_server_check_config(const char *path, char *err, size_t err_size);

/**
 * kfsim_nl_server_default_path() - the caller's own socket path
 *
 * $XDG_RUNTIME_DIR/kfsim-kernel.sock when XDG_RUNTIME_DIR is set (an absolute path), else
 * /tmp/kfsim-UID/kernel.sock (the folder is made private by kfsim_nl_server_listen()).
 * Return: 0, or -ENAMETOOLONG when it does not fit @size.
 */
int kfsim_nl_server_default_path(char *buf, size_t size);

/**
 * kfsim_nl_server_run() - serve until *@stop becomes non-zero
 * @stop: checked at least every 100 ms and after every event (a signal handler may set it)
 *
 * Return: 0 when stopped, or a negative errno when polling fails.
 */
int kfsim_nl_server_run(struct kfsim_nl_server *s, volatile sig_atomic_t *stop);

/** kfsim_nl_server_clients() - how many netlink sockets are open on the server now. */
unsigned int kfsim_nl_server_clients(const struct kfsim_nl_server *s);

/**
 * kfsim_nl_server_destroy() - close every client socket and the listening socket
 *
 * A filesystem socket file the server created is removed.  NULL is fine.
 */
void kfsim_nl_server_destroy(struct kfsim_nl_server *s);

struct kfsim_net;

/**
 * kfsim_standin_net_create() - the namespace `kfsim kernel` and libkfsim-netlink.so serve
 * @config: the ethtool family's option: a segment file as for kfsim_plca_net_load()
 *          (<kfsim/plca.h>), or NULL for the built-in segment
 * @err: receives what is wrong on failure; @err_size: its size
 *
 * A namespace with every built-in family (<kfsim/genl_builtin.h>), @config handed to the
 * ethtool family (kfsim_plca_net_configure()); serve its kernel, kfsim_net_nl(), with
 * kfsim_nl_server_create().
 *
 * Return: the namespace (free with kfsim_net_destroy(), after its server) or an ERR_PTR() as
 * kfsim_plca_net_load() returns them.
 */
struct kfsim_net *kfsim_standin_net_create(const char *config, char *err, size_t err_size);

/**
 * kfsim_standin_inproc_start() - the process's own stand-in kernel, started on first call
 * @path: receives the abstract socket name its server thread listens on (for
 *        kfsim_nl_client_open_server())
 *
 * The built-in kfsim_standin_net_create(NULL) namespace, served by a detached thread for the
 * life of the process (libkfsim-netlink.so without KFSIM_KERNEL, ynl_sock_create() with
 * KFSIM_KERNEL=inproc).  Later calls return the same server; a child after fork() gets its own.
 * The stand-in provides it to the netlink client when libkfsim is loaded
 * (kfsim_nl_client_open_inproc(), <kfsim/nl_client.h>).
 * Return: 0, or a negative errno (the reason is also printed on stderr).
 */
int kfsim_standin_inproc_start(const char **path);

/**
 * kfsim_standin_owns_dev() - is @name a device of the stand-in kernel at @path?
 * @path: the server's socket (`kfsim kernel --listen`), or NULL/"" for this process's own
 *        (kfsim_standin_inproc_start())
 *
 * Asked of the family that has devices (ethtool's header names one: a kernel that has no such
 * device answers -ENODEV), so that the shim can keep a simulated device from the real kernel
 * without knowing any family.
 * Return: 1 when the kernel answers for @name; 0 when it answers that it has no such device; a
 * negative errno when it cannot be asked (no server, one the caller refuses, a timeout): then
 * nobody can tell, and the shim keeps the name from the real kernel.
 */
int kfsim_standin_owns_dev(const char *path, const char *name);

#pragma GCC visibility pop
#endif /* KFSIM_NL_SERVER_H */
