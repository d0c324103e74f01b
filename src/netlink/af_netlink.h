/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_AF_NETLINK_H
#define KFSIM_AF_NETLINK_H

/*
 * The netlink core as the protocols built on it see it (the kernel half of
 * include/linux/netlink.h, Linux 6.12): a protocol creates its kernel socket in a namespace with
 * netlink_kernel_create() and a struct netlink_kernel_cfg whose @input receives every message a
 * user socket sends it; it answers with netlink_unicast()/netlink_broadcast(), loops over a
 * request's messages with netlink_rcv_skb() (which sends the ACKs), and starts dumps with
 * netlink_dump_start().  The core names no protocol: generic netlink (genl_kernel.c) plugs in
 * here exactly as net/netlink/genetlink.c does.
 *
 * Real symbols are kfsim_netlink_*; the kernel's names are static inline over them, as in
 * <kfsim/netlink.h>, so that libkfsim.a links beside other netlink libraries.
 */
#include <linux/capability.h>
#include <kfsim/bug.h>
#include <kfsim/netlink.h>
#include <kfsim/nl_client.h> /* the namespace and its user sockets are declared there */

#define KFSIM_NL_MAX_GROUPS 256 /* multicast group ids 0..255, per protocol */
#define KFSIM_NL_MAX_LINKS 32	/* MAX_LINKS: protocol numbers */
#ifndef BITS_PER_LONG
#define BITS_PER_LONG (8 * sizeof(long))
#endif

/* netlink_kernel_cfg.flags (include/linux/netlink.h) */
#define NL_CFG_F_NONROOT_RECV (1 << 0)
#define NL_CFG_F_NONROOT_SEND (1 << 1)

/**
 * struct netlink_kernel_cfg - how a protocol plugs into the netlink core
 * @groups: multicast groups at creation (at least 32, as the kernel rounds up)
 * @flags: NL_CFG_F_*
 * @input: receives each buffer a user socket sends (NETLINK_CB(skb).sk is the sender); the
 *         buffer is the core's and freed after @input returns
 * @bind: called when a socket joins @group; an error refuses the join.  kfsim: it gets the
 *        joining socket instead of the namespace, as the caller's credentials are the socket's
 *        (the kernel reads them from current)
 * @release: kfsim: called by netlink_kernel_release() to free what @user_data points at
 * @user_data: the protocol's per-namespace state (kfsim: the kernel keeps it in globals and in
 *             struct net), found again with kfsim_netlink_kernel_data()
 */
struct netlink_kernel_cfg {
	unsigned int groups;
	unsigned int flags;
	void (*input)(struct sk_buff *skb);
	int (*bind)(struct kfsim_nl_sock *sk, int group);
	void (*release)(void *user_data);
	void *user_data;
};

/**
 * struct netlink_dump_control - what netlink_dump_start() runs
 * @start: once, before the first step, with cb->extack the request's (an error ends the dump
 *         before it starts and is the request's answer)
 * @dump: one step: fill the buffer, return > 0 while there is more, 0 at the end, or -errno
 * @done: once at the end, or when the dump is abandoned (socket closed, owner gone)
 * @data: cb->data at @start
 * @module: the owner (the kernel pins the module); kfsim_netlink_dump_abort_module() ends the
 *          dumps of one owner
 * @min_dump_alloc: the smallest step buffer
 */
struct netlink_dump_control {
	int (*start)(struct netlink_callback *cb);
	int (*dump)(struct sk_buff *skb, struct netlink_callback *cb);
	int (*done)(struct netlink_callback *cb);
	void *data;
	const void *module;
	u32 min_dump_alloc;
};

/* ---- namespaces and kernel sockets ----------------------------------------------------- */

/* The netlink tables of a new namespace: no kernel socket, no user socket.  ERR_PTR(-ENOMEM). */
struct kfsim_nl_kernel *kfsim_netlink_net_create(void);
/* Close every user socket (ending their dumps), then release every kernel socket; free @net. */
void kfsim_netlink_net_destroy(struct kfsim_nl_kernel *net);

struct kfsim_nl_sock *kfsim_netlink_kernel_create(struct kfsim_nl_kernel *net, int unit,
						  const struct netlink_kernel_cfg *cfg);
void kfsim_netlink_kernel_release(struct kfsim_nl_sock *ksk);
/* The kernel socket of protocol @unit in @net (net->genl_sock for NETLINK_GENERIC), or NULL. */
struct kfsim_nl_sock *kfsim_netlink_kernel_sock(const struct kfsim_nl_kernel *net, int unit);
/* A kernel socket's cfg.user_data. */
void *kfsim_netlink_kernel_data(const struct kfsim_nl_sock *ksk);
/* sock_net(): the namespace a socket lives in. */
struct kfsim_nl_kernel *kfsim_netlink_sock_net(const struct kfsim_nl_sock *sk);

static inline struct kfsim_nl_sock *netlink_kernel_create(struct kfsim_nl_kernel *net, int unit,
							  const struct netlink_kernel_cfg *cfg)
{
	return kfsim_netlink_kernel_create(net, unit, cfg);
}

static inline void netlink_kernel_release(struct kfsim_nl_sock *ksk)
{
	kfsim_netlink_kernel_release(ksk);
}

/* ---- delivery --------------------------------------------------------------------------- */

/* netlink_unicast(): queue @skb (consumed) on the socket of @portid.  0 or -ECONNREFUSED. */
int kfsim_netlink_unicast(struct kfsim_nl_sock *ssk, struct sk_buff *skb, u32 portid);
/*
 * netlink_broadcast(): a copy of @skb (consumed) to every socket of @ssk's protocol that joined
 * @group, except @portid.  0, or -ESRCH when no one got it.
 */
int kfsim_netlink_broadcast(struct kfsim_nl_sock *ssk, struct sk_buff *skb, u32 portid, u32 group,
			    gfp_t allocation);
/* netlink_has_listeners(): whether any socket of @ksk's protocol joined @group. */
bool kfsim_netlink_has_listeners(const struct kfsim_nl_sock *ksk, unsigned int group);
/* netlink_change_ngroups(): the protocol's group count grows to @groups (never shrinks). */
int kfsim_netlink_change_ngroups(struct kfsim_nl_sock *ksk, unsigned int groups);
/* __netlink_clear_multicast_users(): every socket leaves @group (its owner is going). */
void kfsim_netlink_clear_multicast_users(struct kfsim_nl_sock *ksk, unsigned int group);

static inline int netlink_unicast(struct kfsim_nl_sock *ssk, struct sk_buff *skb, u32 portid)
{
	return kfsim_netlink_unicast(ssk, skb, portid);
}

static inline int netlink_broadcast(struct kfsim_nl_sock *ssk, struct sk_buff *skb, u32 portid,
				    u32 group, gfp_t allocation)
{
	return kfsim_netlink_broadcast(ssk, skb, portid, group, allocation);
}

/* ---- receiving -------------------------------------------------------------------------- */

/*
 * netlink_rcv_skb(): run @cb on each message of @skb that is a request of a type >= NLMSG_MIN_TYPE
 * and ACK it (NLMSG_ERROR) when it failed or asked for it; -EINTR from @cb means "a dump
 * started", which answers with NLMSG_DONE instead.
 */
int kfsim_netlink_rcv_skb(struct sk_buff *skb,
			  int (*cb)(struct sk_buff *skb, const struct nlmsghdr *nlh,
				    struct netlink_ext_ack *extack));

static inline int netlink_rcv_skb(struct sk_buff *skb,
				  int (*cb)(struct sk_buff *skb, const struct nlmsghdr *nlh,
					    struct netlink_ext_ack *extack))
{
	return kfsim_netlink_rcv_skb(skb, cb);
}

/*
 * netlink_dump_start(): start the dump @control describes on the sender of @skb for the
 * request @nlh (which lies in @skb), and run its first step.  Return: -EINTR once it runs,
 * -EBUSY when the socket already runs one, the start callback's error, or -ENOMEM.
 */
int kfsim_netlink_dump_start(struct kfsim_nl_sock *ssk, struct sk_buff *skb,
			     const struct nlmsghdr *nlh, const struct netlink_dump_control *control,
			     struct netlink_ext_ack *extack);

static inline int netlink_dump_start(struct kfsim_nl_sock *ssk, struct sk_buff *skb,
				     const struct nlmsghdr *nlh,
				     const struct netlink_dump_control *control,
				     struct netlink_ext_ack *extack)
{
	return kfsim_netlink_dump_start(ssk, skb, nlh, control, extack);
}

/*
 * kfsim: end, with their done callback, the dumps of @ksk's protocol started with
 * control->module == @module.  The kernel pins the module instead; kfsim lets a family be
 * unregistered under a running dump, and ends that dump.
 */
void kfsim_netlink_dump_abort_module(struct kfsim_nl_sock *ksk, const void *module);

/* ---- the sender's credentials ----------------------------------------------------------- */

/*
 * netlink_ns_capable(skb, &init_user_ns, cap): CAP_NET_ADMIN or CAP_SYS_ADMIN, everywhere, held
 * by the socket's opener and by the task sending (kfsim_nl_sock_set_sender()).
 */
bool kfsim_netlink_sock_capable(const struct kfsim_nl_sock *sk, int cap);
/* The same in the user namespace owning the socket's network namespace. */
bool kfsim_netlink_sock_net_capable(const struct kfsim_nl_sock *sk, int cap);

static inline bool netlink_capable(const struct sk_buff *skb, int cap)
{
	return kfsim_netlink_sock_capable(NETLINK_CB(skb).sk, cap);
}

static inline bool netlink_net_capable(const struct sk_buff *skb, int cap)
{
	return kfsim_netlink_sock_net_capable(NETLINK_CB(skb).sk, cap);
}

#endif /* KFSIM_AF_NETLINK_H */
