/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NL_REMOTE_H
#define KFSIM_NL_REMOTE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * A netlink socket on a served stand-in kernel (<kfsim/nl_server.h>), the client's side, and
 * the control protocol both ends speak: one fixed-size request, one fixed-size reply, on a
 * SOCK_SEQPACKET connection.  The netlink part holds the client (nl_remote.c, used by
 * kfsim_nl_client_open_server()); the stand-in kernel's server (src/standin/nl_server.c) and
 * its LD_PRELOAD shim build on this header, never the other way round.  Both ends are built
 * from the same sources; the magic and version refuse a client of another build instead of
 * misreading it.
 */
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>
#include <kfsim/types.h>

#define KFSIM_NL_CLIENT_TIMEOUT_MS 5000	 /* a client waits this long for connect and replies */

/* ---- the control protocol ---------------------------------------------------------------- */

#define KFSIM_NL_WIRE_MAGIC 0x6b666e6cu /* "kfnl" */
#define KFSIM_NL_WIRE_VERSION 1u

/** enum kfsim_nl_wire_op - the control requests, one reply each. */
enum kfsim_nl_wire_op {
	KFSIM_NL_WIRE_OPEN = 1,	     /* @val: protocol; reply carries the data fd */
	KFSIM_NL_WIRE_BIND,	     /* @name: port id; @val: legacy groups bitmask */
	KFSIM_NL_WIRE_SETSOCKOPT,    /* @name: SOL_NETLINK option; @val: its int */
	KFSIM_NL_WIRE_GETSOCKOPT,    /* @name: SOL_NETLINK option; reply @val */
	KFSIM_NL_WIRE_SHUTDOWN,	     /* stop the server (its owner or root only) */
};

/** struct kfsim_nl_wire_req - a control request; @op: enum kfsim_nl_wire_op. */
struct kfsim_nl_wire_req {
	u32 magic;
	u32 version;
	u32 op;
	u32 name;
	u32 val;
};

/** struct kfsim_nl_wire_rep - the answer to one control request. */
struct kfsim_nl_wire_rep {
	s32 err;	/* 0 or a negative errno */
	u32 portid;	/* the socket's port id after the request */
	u32 val;	/* GETSOCKOPT's value */
};

/*
 * What the server puts on a data descriptor, in order, when it dropped messages for a reader
 * that did not keep up (netlink_overrun(): the kernel sets ENOBUFS on the socket).  Eight bytes
 * are shorter than any netlink buffer (NLMSG_HDRLEN is 16), so no real message looks like it;
 * the shim and kfsim's own client turn it into a recv() failing with ENOBUFS.
 */
#define KFSIM_NL_WIRE_OVERRUN "kfnlOVRN"
#define KFSIM_NL_WIRE_OVERRUN_LEN 8u

/** kfsim_nl_wire_is_overrun() - whether a packet read from a data descriptor is the marker. */
static inline bool kfsim_nl_wire_is_overrun(const void *buf, long len)
{
	return len == (long)KFSIM_NL_WIRE_OVERRUN_LEN &&
	       !__builtin_memcmp(buf, KFSIM_NL_WIRE_OVERRUN, KFSIM_NL_WIRE_OVERRUN_LEN);
}


/**
 * kfsim_nl_sockaddr() - the UNIX socket address of a server @path ('@name': abstract)
 * Return: 0, or -ENAMETOOLONG / -EINVAL when @path does not fit or is empty.
 */
int kfsim_nl_sockaddr(const char *path, struct sockaddr_un *sun, socklen_t *len);

/* ---- the client --------------------------------------------------------------------------- */

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
 * The server must run as root, as the caller's effective uid, or as the uid named by
 * $KFSIM_KERNEL_OWNER (a number or a user name): a server squatting a path under another
 * user's name is refused.  Connecting and every control reply wait at most
 * KFSIM_NL_CLIENT_TIMEOUT_MS.
 *
 * Return: 0, -ECONNREFUSED/-ENOENT when no server listens at @path, -EACCES when another user
 * runs it, -EMFILE/-ENFILE when the server's per-user or total limit is reached, -ETIMEDOUT,
 * -EPROTONOSUPPORT for another protocol, -ENAMETOOLONG, or the errno of the socket calls.
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

/**
 * kfsim_nl_remote_server_uid() - the uid of the process listening at @path (SO_PEERCRED)
 *
 * For messages: who squats a path.  Return: 0, or the errno of connect().
 */
int kfsim_nl_remote_server_uid(const char *path, uid_t *uid);

/** kfsim_nl_remote_close() - close both descriptors (either may be -1). */
void kfsim_nl_remote_close(struct kfsim_nl_remote *r);

/**
 * kfsim_nl_server_stop() - ask the server listening at @path to stop, as SIGTERM would
 *
 * Only the user the server runs as, or root, may stop it.  Waits at most
 * KFSIM_NL_CLIENT_TIMEOUT_MS for the connection and the answer.
 * Return: 0 (the server stops after the request), -EPERM, -ENOENT/-ECONNREFUSED when nothing
 * listens at @path, -ETIMEDOUT when nothing answers, -ENAMETOOLONG.
 */
int kfsim_nl_server_stop(const char *path);

#pragma GCC visibility pop
#endif /* KFSIM_NL_REMOTE_H */
