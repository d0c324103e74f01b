/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NL_TRANSPORT_H
#define KFSIM_NL_TRANSPORT_H

/*
 * The client's two transports behind one set of calls.  This header stays free of kernel names
 * (<kfsim/netlink.h>) so that the libnl-based transport can include it.
 */
#include <kfsim/nl_client.h>
#include <kfsim/nl_remote.h>

struct nl_sock;

struct kfsim_nl_client {
	bool kernel;
	struct kfsim_nl_sock *sim; /* in-process transport */
	struct nl_sock *nlsk;	   /* real-kernel transport (libnl-3 socket) */
	bool server;		   /* a kfsim server's socket (remote), through the same calls */
	struct kfsim_nl_remote remote;
	u32 portid;
	u32 seq;
	struct kfsim_nl_queued *ntf_head, *ntf_tail;
	u8 *rxbuf;
	size_t rxbuf_size;
};

struct kfsim_nl_queued {
	struct kfsim_nl_queued *next;
	size_t len;
	u8 data[];
};

/* kernel_transport.c */
int kfsim_nl_kernel_open(struct kfsim_nl_client *c);
int kfsim_nl_server_open(struct kfsim_nl_client *c, const char *path);
void kfsim_nl_kernel_close(struct kfsim_nl_client *c);
ssize_t kfsim_nl_kernel_send(struct kfsim_nl_client *c, const void *buf, size_t len);
/* @timeout_ms < 0: wait as long as it takes (bounded by 10 s); Return: bytes or -EAGAIN. */
ssize_t kfsim_nl_kernel_recv(struct kfsim_nl_client *c, void *buf, size_t len, int timeout_ms);
int kfsim_nl_kernel_join(struct kfsim_nl_client *c, u32 group);
/* The socket of either descriptor transport. */
int kfsim_nl_kernel_fd(const struct kfsim_nl_client *c);

#endif /* KFSIM_NL_TRANSPORT_H */
