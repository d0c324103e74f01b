/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NL_WIRE_H
#define KFSIM_NL_WIRE_H

/*
 * The control protocol between a kfsim netlink server (nl_server.c) and its clients
 * (nl_remote.c): one fixed-size request, one fixed-size reply, on a SOCK_SEQPACKET connection.
 * Both ends are built from the same sources, so the layout is private to them; the magic and
 * version refuse a client of another build instead of misreading it.
 */
#include <stdbool.h>
#include <kfsim/types.h>

#define KFSIM_NL_WIRE_MAGIC 0x6b666e6cu /* "kfnl" */
#define KFSIM_NL_WIRE_VERSION 1u

enum kfsim_nl_wire_op {
	KFSIM_NL_WIRE_OPEN = 1,	     /* @val: protocol; reply carries the data fd */
	KFSIM_NL_WIRE_BIND,	     /* @name: port id; @val: legacy groups bitmask */
	KFSIM_NL_WIRE_SETSOCKOPT,    /* @name: SOL_NETLINK option; @val: its int */
	KFSIM_NL_WIRE_GETSOCKOPT,    /* @name: SOL_NETLINK option; reply @val */
	KFSIM_NL_WIRE_SHUTDOWN,	     /* stop the server (its owner or root only) */
};

struct kfsim_nl_wire_req {
	u32 magic;
	u32 version;
	u32 op;
	u32 name;
	u32 val;
};

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

static inline bool kfsim_nl_wire_is_overrun(const void *buf, long len)
{
	return len == (long)KFSIM_NL_WIRE_OVERRUN_LEN &&
	       !__builtin_memcmp(buf, KFSIM_NL_WIRE_OVERRUN, KFSIM_NL_WIRE_OVERRUN_LEN);
}

#endif /* KFSIM_NL_WIRE_H */
