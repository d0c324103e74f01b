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
 * Credentials are taken from the control connection's SO_PEERCRED: uid 0 gets CAP_NET_ADMIN and
 * CAP_SYS_ADMIN (KFSIM_NL_CRED_ROOT), any other uid none (KFSIM_NL_CRED_USER), so
 * GENL_ADMIN_PERM operations answer -EPERM to non-root clients as on Linux.
 *
 * The server is single-threaded: each request runs to completion before the next is read, so
 * two clients' SETs never interleave.  Replies and dump buffers are produced when the request
 * arrives and queued for the reader (the kernel runs dump steps as the reader reads; the bytes
 * are the same, only the moment they are made differs).
 */
#include <signal.h>
#include <stdbool.h>
#include <kfsim/types.h>

struct kfsim_nl_kernel;
struct kfsim_nl_server;

/**
 * kfsim_nl_server_create() - listen on a UNIX socket for netlink clients
 * @k: the kernel to serve (stays owned by the caller; destroy it after the server)
 * @path: a filesystem path (created with mode 0666, since any user may open a netlink socket
 *        and the peer's uid decides what it may do; an existing socket file is replaced only
 *        if no server answers on it), or a name starting with '@' for the abstract namespace
 *
 * Return: the server, ERR_PTR(-ENAMETOOLONG) when @path does not fit a sockaddr_un,
 * ERR_PTR(-EADDRINUSE) when another server answers on @path, or the errno of socket/bind/listen.
 */
struct kfsim_nl_server *kfsim_nl_server_create(struct kfsim_nl_kernel *k, const char *path);

/**
 * kfsim_nl_server_run() - serve until *@stop becomes non-zero
 * @stop: checked at least every 100 ms and after every event (a signal handler may set it)
 *
 * Return: 0 when stopped, or a negative errno when polling fails.
 */
int kfsim_nl_server_run(struct kfsim_nl_server *s, volatile sig_atomic_t *stop);

/**
 * kfsim_nl_server_stop() - ask the server listening at @path to stop, as SIGTERM would
 *
 * Only the user the server runs as, or root, may stop it.
 * Return: 0 (the server stops after the request), -EPERM, -ENOENT/-ECONNREFUSED when nothing
 * listens at @path, -ENAMETOOLONG.
 */
int kfsim_nl_server_stop(const char *path);

/** kfsim_nl_server_clients() - how many netlink sockets are open on the server now. */
unsigned int kfsim_nl_server_clients(const struct kfsim_nl_server *s);

/**
 * kfsim_nl_server_destroy() - close every client socket and the listening socket
 *
 * A filesystem socket file the server created is removed.  NULL is fine.
 */
void kfsim_nl_server_destroy(struct kfsim_nl_server *s);

/**
 * struct kfsim_nl_remote - the client side of one netlink socket on a server
 * @data_fd: the descriptor to send requests on and read replies from
 * @ctl_fd: the control connection (options, bind)
 * @portid: the port id the server's kernel gave the socket
 */
struct kfsim_nl_remote {
	int data_fd;
	int ctl_fd;
	u32 portid;
};

/**
 * kfsim_nl_remote_open() - open a netlink socket on the server at @path
 * @protocol: the netlink protocol; only NETLINK_GENERIC is served
 * @flags: SOCK_CLOEXEC and/or SOCK_NONBLOCK for the data descriptor
 *
 * Return: 0, -ECONNREFUSED/-ENOENT when no server listens at @path, -EPROTONOSUPPORT for
 * another protocol, -ENAMETOOLONG, or the errno of the socket calls.
 */
int kfsim_nl_remote_open(const char *path, int protocol, int flags, struct kfsim_nl_remote *r);

/**
 * kfsim_nl_remote_setsockopt() - setsockopt(SOL_NETLINK, @opt) on the server's socket
 *
 * Return: 0 or the kernel's negative errno (-ENOPROTOOPT, -EINVAL, -EPERM, ...).
 */
int kfsim_nl_remote_setsockopt(struct kfsim_nl_remote *r, int opt, u32 val);

/**
 * kfsim_nl_remote_getsockopt() - getsockopt(SOL_NETLINK, @opt): a flag's value in *@val
 *
 * Return: 0 or a negative errno (-ENOPROTOOPT for an option the server does not report).
 */
int kfsim_nl_remote_getsockopt(struct kfsim_nl_remote *r, int opt, u32 *val);

/**
 * kfsim_nl_remote_bind() - bind() with a sockaddr_nl's @portid and legacy @groups bitmask
 *
 * A @portid of 0 keeps the one the server chose; another one is taken if free (as the kernel
 * lets a socket choose its port id once).  Each bit of @groups joins group (bit + 1).
 *
 * Return: 0, -EADDRINUSE, -EINVAL (already bound to another port id), or a join's error.
 * On success r->portid is the port id in force.
 */
int kfsim_nl_remote_bind(struct kfsim_nl_remote *r, u32 portid, u32 groups);

/** kfsim_nl_remote_close() - close both descriptors (either may be -1). */
void kfsim_nl_remote_close(struct kfsim_nl_remote *r);

/**
 * kfsim_standin_inproc_start() - the process's own stand-in kernel, started on first call
 * @path: receives the abstract socket name its server thread listens on (for
 *        kfsim_nl_client_open_server())
 *
 * The built-in kfsim_standin_net_create(NULL) namespace, served by a detached thread for the
 * life of the process (libkfsim-netlink.so without KFSIM_KERNEL, ynl_sock_create() with
 * KFSIM_KERNEL=inproc).  Later calls return the same server; a child after fork() gets its own.
 * Return: 0, or a negative errno (the reason is also printed on stderr).
 */
int kfsim_standin_inproc_start(const char **path);

#pragma GCC visibility pop
#endif /* KFSIM_NL_SERVER_H */
