/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PLCA_H
#define KFSIM_PLCA_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * PLCA configuration end to end: simulated network devices with their PHYs, the ethtool
 * netlink PLCA family registered with kfsim's in-process netlink kernel (<kfsim/netlink.h>),
 * and the user side ethtool uses to talk to it or to the running kernel.
 *
 * A struct kfsim_plca_net is PLCA's part of a network namespace (<kfsim/net_namespace.h>): its
 * devices (name, ifindex, attached PHY), the mixing segments their PHYs share, whether phylib
 * registered its ethtool_phy_ops, and the ethtool family's broadcast sequence number.  Every request is
 * handled as the kernel handles it (Linux 6.3 semantics, kernel version from
 * kfsim_kernel_version()): strict attribute validation against the ethtool policies,
 * device lookup by name or index, the PHY checks, the reply rules, the monitor notification.
 *
 * The ethtool ids below are macros with the uapi's names (the 6.1 uapi headers Debian ships
 * have no PLCA): do not include <linux/ethtool_netlink.h> in the same translation unit.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <kfsim/net_namespace.h>
#include <kfsim/nl_client.h>
#include <kfsim/phy.h>
#include <kfsim/types.h>

#ifndef IFNAMSIZ
#define IFNAMSIZ 16
#endif
#ifndef ALTIFNAMSIZ
#define ALTIFNAMSIZ 128
#endif

/* ethtool genetlink family (include/uapi/linux/ethtool_netlink.h, Linux 6.3). */
#define ETHTOOL_GENL_NAME "ethtool"
#define ETHTOOL_GENL_VERSION 1
#define ETHTOOL_MCGRP_MONITOR_NAME "monitor"

/* Message ids: requests (user to kernel) and replies (kernel to user) are separate enums. */
#define ETHTOOL_MSG_MODULE_GET 34	/* the last command before resv_start_op */
#define ETHTOOL_MSG_PLCA_GET_CFG 39
#define ETHTOOL_MSG_PLCA_SET_CFG 40
#define ETHTOOL_MSG_PLCA_GET_STATUS 41
#define ETHTOOL_MSG_PLCA_GET_CFG_REPLY 39
#define ETHTOOL_MSG_PLCA_GET_STATUS_REPLY 40
#define ETHTOOL_MSG_PLCA_NTF 41

/* Request/reply header nest. */
#define ETHTOOL_A_HEADER_DEV_INDEX 1
#define ETHTOOL_A_HEADER_DEV_NAME 2
#define ETHTOOL_A_HEADER_FLAGS 3
#define ETHTOOL_A_HEADER_MAX 3		/* Linux 6.3 */
#define ETHTOOL_A_HEADER_PHY_INDEX 4	/* Linux 6.11 and later */
#define ETHTOOL_FLAG_COMPACT_BITSETS (1 << 0)
#define ETHTOOL_FLAG_OMIT_REPLY (1 << 1)
#define ETHTOOL_FLAG_STATS (1 << 2)

/* PLCA attributes (one set for all three operations). */
#define ETHTOOL_A_PLCA_HEADER 1
#define ETHTOOL_A_PLCA_VERSION 2
#define ETHTOOL_A_PLCA_ENABLED 3
#define ETHTOOL_A_PLCA_STATUS 4
#define ETHTOOL_A_PLCA_NODE_CNT 5
#define ETHTOOL_A_PLCA_NODE_ID 6
#define ETHTOOL_A_PLCA_TO_TMR 7
#define ETHTOOL_A_PLCA_BURST_CNT 8
#define ETHTOOL_A_PLCA_BURST_TMR 9
#define ETHTOOL_A_PLCA_MAX 9

/**
 * struct net_device - a simulated network device
 * @name: interface name
 * @ifindex: interface index (> 0, unique in its namespace)
 * @phydev: the attached PHY, or NULL
 */
struct net_device {
	char name[IFNAMSIZ];
	int ifindex;
	struct phy_device *phydev;
	/* netdev features (netdev_features_t, Linux 6.18's bit numbers): active, changeable, wanted */
	u64 features;
	u64 hw_features;
	u64 wanted_features;
};

/** struct kfsim_plca_net - a network namespace of simulated devices (opaque). */
struct kfsim_plca_net;

/**
 * kfsim_plca_net_create() - a new namespace with only a PLCA part (kfsim_plca_net_init()): no
 * devices, phylib's ethtool_phy_ops registered
 *
 * Return: the namespace's PLCA part, or NULL when out of memory.
 */
struct kfsim_plca_net *kfsim_plca_net_create(void);

/**
 * kfsim_plca_net_destroy() - free the whole namespace @net is part of (kfsim_net_destroy()): its
 * sockets, families, devices and PHYs (NULL is ignored)
 */
void kfsim_plca_net_destroy(struct kfsim_plca_net *net);

/**
 * kfsim_plca_net_add_dev() - add a device, optionally with a new PHY of @model on @segment
 * @name: interface name (1..15 bytes, no '/', ':' or whitespace, not "." or "..")
 * @ifindex: the index, or 0 for the next free one
 * @with_phy: whether to attach a PHY
 * @model: the PHY model (ignored without a PHY)
 * @segment: the mixing segment (0..7) the PHY is wired to
 *
 * Return: the device, or ERR_PTR(-EINVAL) (bad name/index/segment), ERR_PTR(-EEXIST) (name
 * or index taken), ERR_PTR(-ENOSPC) (64 devices), ERR_PTR(-ENOMEM), or the PHY's error.
 */
struct net_device *kfsim_plca_net_add_dev(struct kfsim_plca_net *net, const char *name,
					  int ifindex, bool with_phy, enum kfsim_phy_model model,
					  int segment);

/** dev_get_by_name() - the device called @name in @net, or NULL. */
struct net_device *dev_get_by_name(struct kfsim_plca_net *net, const char *name);

/** dev_get_by_index() - the device with index @ifindex in @net, or NULL. */
struct net_device *dev_get_by_index(struct kfsim_plca_net *net, int ifindex);

/** kfsim_plca_net_dev_at() - the @i-th device in ifindex order, or NULL past the end. */
struct net_device *kfsim_plca_net_dev_at(struct kfsim_plca_net *net, int i);

/**
 * kfsim_plca_net_set_phy_ops() - register (or, with NULL, unregister) phylib's ops, as
 * ethtool_set_ethtool_phy_ops() does; without them every PLCA request is -EOPNOTSUPP.
 */
void kfsim_plca_net_set_phy_ops(struct kfsim_plca_net *net, const struct ethtool_phy_ops *ops);

/**
 * kfsim_plca_net_init() - give the namespace @ns its PLCA part: no devices yet, phylib's ops
 * registered, and the ethtool family (PLCA ops) on its netlink kernel
 *
 * The row of the ethtool family in <kfsim/genl_builtin.h>.  The part lives until
 * kfsim_net_destroy(@ns).  Return: 0, -EEXIST when @ns has one, -ENOMEM, or the family's
 * registration error (destroy @ns then).
 */
int kfsim_plca_net_init(struct kfsim_net *ns);

/** kfsim_plca_net_of() - the PLCA part of @ns, or NULL when it has none. */
struct kfsim_plca_net *kfsim_plca_net_of(const struct kfsim_net *ns);

/** kfsim_plca_net_ns() - the namespace @net is the PLCA part of. */
struct kfsim_net *kfsim_plca_net_ns(const struct kfsim_plca_net *net);

/**
 * kfsim_plca_net_add_builtin_segment() - add the devices of kfsim_plca_net_default() to @net
 *
 * Return: 0, or the error of adding or configuring a device (-EEXIST for a name already there).
 */
int kfsim_plca_net_add_builtin_segment(struct kfsim_plca_net *net);

/**
 * kfsim_plca_net_default() - the built-in segment
 *
 * lo (1, no PHY); eth0 (2, LAN8670 Rev.B1, coordinator: enabled, node 0 of 8); eth1 (3, NCN26000,
 * follower node 1, enabled); eth2 (4, generic OA TC14 at reset: node ID 255, disabled);
 * eth3 (5, 100BASE-TX PHY without PLCA).  eth0..eth2 share segment 0.
 *
 * Return: the namespace, or NULL when out of memory.
 */
struct kfsim_plca_net *kfsim_plca_net_default(void);

/**
 * kfsim_plca_net_configure() - the ethtool family's option: the devices of namespace @ns
 * @config: a segment file as for kfsim_plca_net_load() (`kfsim kernel --config`), or NULL for
 *          the built-in segment (kfsim_plca_net_add_builtin_segment())
 * @err: receives what is wrong on failure; @err_size: its size
 *
 * @ns must have its PLCA part (kfsim_plca_net_init(), the ethtool row of the built-in table).
 * Return: 0, -ENOENT when @ns has no PLCA part, or the errors of kfsim_plca_net_load_into()
 * and kfsim_plca_net_add_builtin_segment(); on error @ns may hold some devices (destroy it).
 */
int kfsim_plca_net_configure(struct kfsim_net *ns, const char *config, char *err,
			     size_t err_size);

/**
 * kfsim_plca_net_load() - build a namespace from a configuration file
 * @path: the file; one device per line, '#' starts a comment:
 *        "dev NAME [ifindex N] [phy MODEL] [segment S] [enable on|off] [node-id N]
 *        [node-cnt N] [to-tmr N] [burst-cnt N] [burst-tmr N]"
 *        MODEL is one of oa-tc14, lan8670 (Rev.C1), lan8670-b1, ncn26000, tc14-no-p2mp, bad-idm,
 *        no-plca; the PLCA settings of a line go to phy_ethtool_set_plca_cfg() as one request
 * @err: receives every problem of a refused file, "line N: what is wrong" each, joined by
 *       "; " (ending "; and K more problems" when @err cannot hold them all)
 * @err_size: size of @err
 *
 * A file loads whole or not at all.  Reading stops at 1 MiB.
 *
 * Return: the namespace, or ERR_PTR(-ENOENT and friends) when the file cannot be read, or the
 * first problem's error: -EINVAL for a bad line, -EFBIG past 1 MiB, or the error of applying
 * a setting.
 */
struct kfsim_plca_net *kfsim_plca_net_load(const char *path, char *err, size_t err_size);

/**
 * kfsim_plca_net_load_into() - kfsim_plca_net_load() into the existing PLCA part @net
 *
 * Return: 0 or the errors of kfsim_plca_net_load(); on error @net may hold part of the file
 * (destroy it).
 */
int kfsim_plca_net_load_into(struct kfsim_plca_net *net, const char *path, char *err,
			     size_t err_size);

/**
 * kfsim_plca_segment_pst() - what PLCA_STATUS.PST of @phydev reads: PLCA enabled with a node
 * ID below 255 and an enabled coordinator (node ID 0) on its segment (itself included)
 */
bool kfsim_plca_segment_pst(struct phy_device *phydev);

/**
 * kfsim_plca_net_kernel() - the in-process netlink kernel of @net
 *
 * Open sockets on it with kfsim_nl_sock_open() (<kfsim/nl_client.h>) to send ethtool requests
 * by hand; KFSIM_NL_CRED_USER lacks the CAP_NET_ADMIN a SET needs.
 */
struct kfsim_nl_kernel *kfsim_plca_net_kernel(struct kfsim_plca_net *net);

/** kfsim_plca_net_family_id() - the id the in-process kernel gave the ethtool family. */
u16 kfsim_plca_net_family_id(const struct kfsim_plca_net *net);

/** kfsim_plca_net_monitor_group() - the multicast id of the family's "monitor" group. */
u32 kfsim_plca_net_monitor_group(const struct kfsim_plca_net *net);

/*
 * The user side: what ethtool does to talk to the family, over either kfsim's in-process
 * kernel or the running kernel's NETLINK_GENERIC socket (the same bytes either way).
 */

/** struct kfsim_plca_attr - one SET attribute, in the order the command line gave it */
struct kfsim_plca_attr {
	u16 type;
	u32 value;
};

/**
 * kfsim_ethtool_plca_request() - build a PLCA request as ethtool builds it
 * @buf: where to write (@size bytes)
 * @family: the ethtool family id
 * @cmd: ETHTOOL_MSG_PLCA_GET_CFG, _SET_CFG or _GET_STATUS
 * @nlflags: nlmsg_flags (ethtool: NLM_F_REQUEST | NLM_F_ACK)
 * @seq: nlmsg_seq
 * @devname: the device name for the header nest, or NULL
 * @ifindex: the device index for the header nest, or 0
 * @attrs: SET attributes (ENABLED as u8, the others as u32), @nr_attrs of them
 *
 * Return: the message length, or -EMSGSIZE.
 */
int kfsim_ethtool_plca_request(void *buf, size_t size, u16 family, u8 cmd, u16 nlflags, u32 seq,
			       const char *devname, int ifindex, const struct kfsim_plca_attr *attrs,
			       int nr_attrs);

/**
 * struct kfsim_plca_reply - a parsed GET_CFG / GET_STATUS reply or PLCA notification
 * @cmd: the genl command of the message
 * @devname: the device name from the reply header
 * @ifindex: the device index from the reply header
 * @present: bit N set when attribute N was present
 * @value: attribute values (u8/u16/u32 widened)
 */
struct kfsim_plca_reply {
	u8 cmd;
	char devname[ALTIFNAMSIZ];
	int ifindex;
	u32 present;
	u32 value[ETHTOOL_A_PLCA_MAX + 1];
};

/**
 * kfsim_ethtool_plca_parse() - parse one PLCA message from the kernel
 *
 * Return: 0, or -EINVAL when it is not a well-formed ethtool PLCA message.
 */
int kfsim_ethtool_plca_parse(const void *msg, size_t len, struct kfsim_plca_reply *reply);

/** struct kfsim_ethtool_chan - a channel to an ethtool family (opaque). */
struct kfsim_ethtool_chan;

/**
 * kfsim_ethtool_chan_inproc() - a channel to the in-process kernel of @net, with the ethtool
 * family resolved by name as on the running kernel
 * @cap_net_admin: whether the caller counts as holding CAP_NET_ADMIN
 *
 * Close the channel before destroying @net.
 *
 * Return: the channel, or ERR_PTR(-ENOMEM) or the error of the family lookup.
 */
struct kfsim_ethtool_chan *kfsim_ethtool_chan_inproc(struct kfsim_plca_net *net,
						     bool cap_net_admin);

/**
 * kfsim_ethtool_chan_kernel() - a NETLINK_GENERIC socket to the running kernel, with
 * NETLINK_EXT_ACK set (as ethtool sets it) and the ethtool family resolved by name
 *
 * Return: the channel, or ERR_PTR(-errno) of the socket, or of the family lookup
 * (-ENOENT: the kernel has no ethtool netlink).
 */
struct kfsim_ethtool_chan *kfsim_ethtool_chan_kernel(void);

/**
 * kfsim_ethtool_chan_server() - a socket on the kfsim kernel serving @path (`kfsim kernel
 * --listen`), with the ethtool family resolved; its devices and settings persist across
 * channels.  Return: the channel or ERR_PTR(-ENOENT / -ECONNREFUSED when nothing listens).
 */
struct kfsim_ethtool_chan *kfsim_ethtool_chan_server(const char *path);

/** kfsim_ethtool_chan_close() - close a channel (NULL is ignored). */
void kfsim_ethtool_chan_close(struct kfsim_ethtool_chan *chan);

/** kfsim_ethtool_chan_family() - the ethtool family id on this channel. */
u16 kfsim_ethtool_chan_family(const struct kfsim_ethtool_chan *chan);

/**
 * kfsim_ethtool_chan_transact() - send the request @req (@len bytes; its seq and portid are
 * the channel's to set), then collect the answers until the ACK (or, for a dump, NLMSG_DONE)
 * @reply_cb: called for each PLCA message answering the request (may be NULL); a non-zero
 *            return is remembered and returned after the ACK has been read
 * @ctx: passed to @reply_cb
 * @ack: receives the ACK (for a dump: the error NLMSG_DONE carries)
 *
 * Return: 0 or @reply_cb's result once the ACK arrived (its error is in @ack), or a negative
 * errno of the transport.
 */
int kfsim_ethtool_chan_transact(struct kfsim_ethtool_chan *chan, const void *req, size_t len,
				int (*reply_cb)(const struct kfsim_plca_reply *reply, void *ctx),
				void *ctx, struct kfsim_nl_error *ack);

/**
 * kfsim_plca_set_dot() - draw, as a Graphviz DOT digraph, how one SET request travelled
 * @out: where the DOT text goes
 * @command: the command line that made the request (a label)
 * @req: the request bytes, @len of them
 * @ack: the ACK the request got
 * @phydev: the PHY the request addressed, or NULL
 * @log_from: the value of @phydev->mdio_logged before the request: the writes logged since
 *            are drawn as register nodes (old value -> new value)
 * @nr_notifications: how many PLCA_NTF messages the monitor group received
 *
 * Return: 0, -EINVAL if @req is not an ethtool PLCA request, or -EIO if writing failed.
 */
int kfsim_plca_set_dot(FILE *out, const char *command, const void *req, size_t len,
		       const struct kfsim_nl_error *ack, const struct phy_device *phydev,
		       unsigned long log_from, int nr_notifications);

/**
 * kfsim_ethtool_plca_print() - print a GET_CFG/GET_STATUS reply or a PLCA notification as
 * ethtool prints it ("PLCA settings for eth0:" ...), after a blank line if @blank_line (dumps)
 */
void kfsim_ethtool_plca_print(FILE *out, const struct kfsim_plca_reply *reply, bool blank_line);

/**
 * kfsim_ethtool_print_ack_error() - print a failed ACK as ethtool does: "netlink error: <extack>
 * (offset N)" when there is a message, then "netlink error: <strerror>"
 */
void kfsim_ethtool_print_ack_error(FILE *out, const struct kfsim_nl_error *ack);

#pragma GCC visibility pop
#endif /* KFSIM_PLCA_H */
