// SPDX-License-Identifier: MIT
/*
 * The in-process kernel's netlink socket and genetlink dispatch for the ethtool family
 * (net/netlink/af_netlink.c, net/netlink/genetlink.c, net/ethtool/netlink.c; Linux 6.3).
 *
 * What a request meets, in order: whole-message framing; non-requests and control messages
 * are only ACKed; the family by id (the generic netlink controller answers GETFAMILY by name);
 * the genl header (cmd >= resv_start_op 35: reserved must be 0, nlmsg_flags only
 * REQUEST/ACK/ECHO[/DUMP]); the op (unknown: -EOPNOTSUPP); admin permission (SET:
 * -EPERM); strict attribute validation against the op's policy; then the ethtool handler.
 * An error or NLM_F_ACK produces an NLMSG_ERROR ACK built as netlink_ack() builds it, with
 * the request echoed unless NETLINK_CAP_ACK and the extack TLVs with NETLINK_EXT_ACK.
 *
 * Invariant: the requester's queue receives, per request, the replies and then at most one
 * ACK, in that order; a notification goes to every monitor member after the change it reports.
 */
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/slab.h>
#include "ethtool_plca_nl.h"

#define ETHTOOL_RESV_START_OP 35
#define ETHTOOL_MCGRP_MONITOR_ID 1	/* the monitor group's id in kfsim's kernel */
#define KFSIM_SOCK_QUEUE_MAX 64
#define KFSIM_MSG_MAX 4096

struct queued_msg {
	size_t len;
	u8 data[];
};

struct kfsim_ethnl_sock {
	struct kfsim_plca_net *net;
	u32 portid;
	bool cap_net_admin;
	bool ext_ack;
	bool cap_ack;
	bool monitor;
	struct queued_msg *queue[KFSIM_SOCK_QUEUE_MAX];
	int head, count;
};

struct kfsim_ethnl_sock *kfsim_ethnl_sock_open(struct kfsim_plca_net *net, u32 portid,
					       bool cap_net_admin)
{
	struct kfsim_ethnl_sock *sk;
	int slot;

	for (slot = 0; slot < KFSIM_PLCA_MAX_SOCKS && net->socks[slot]; slot++)
		;
	if (slot == KFSIM_PLCA_MAX_SOCKS)
		return NULL;
	sk = kzalloc(sizeof(*sk), GFP_KERNEL);
	if (!sk)
		return NULL;
	sk->net = net;
	sk->portid = portid;
	sk->cap_net_admin = cap_net_admin;
	net->socks[slot] = sk;
	return sk;
}

void kfsim_ethnl_sock_close(struct kfsim_ethnl_sock *sk)
{
	if (!sk)
		return;
	for (int i = 0; i < KFSIM_PLCA_MAX_SOCKS; i++)
		if (sk->net->socks[i] == sk)
			sk->net->socks[i] = NULL;
	while (sk->count) {
		kfree(sk->queue[sk->head]);
		sk->head = (sk->head + 1) % KFSIM_SOCK_QUEUE_MAX;
		sk->count--;
	}
	kfree(sk);
}

int kfsim_ethnl_sock_setopt(struct kfsim_ethnl_sock *sk, int option, int value)
{
	switch (option) {
	case NETLINK_EXT_ACK:
		sk->ext_ack = !!value;
		return 0;
	case NETLINK_CAP_ACK:
		sk->cap_ack = !!value;
		return 0;
	case NETLINK_ADD_MEMBERSHIP:
		if (value != ETHTOOL_MCGRP_MONITOR_ID)
			return -EINVAL;
		sk->monitor = true;
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

static int queue_msg(struct kfsim_ethnl_sock *sk, const void *data, size_t len)
{
	struct queued_msg *msg;

	if (sk->count == KFSIM_SOCK_QUEUE_MAX)
		return -ENOBUFS;
	msg = kmalloc(sizeof(*msg) + len, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	msg->len = len;
	memcpy(msg->data, data, len);
	sk->queue[(sk->head + sk->count) % KFSIM_SOCK_QUEUE_MAX] = msg;
	sk->count++;
	return 0;
}

long kfsim_ethnl_recv(struct kfsim_ethnl_sock *sk, void *buf, size_t size)
{
	struct queued_msg *msg;
	size_t len;

	if (!sk->count)
		return -EAGAIN;
	msg = sk->queue[sk->head];
	sk->head = (sk->head + 1) % KFSIM_SOCK_QUEUE_MAX;
	sk->count--;
	len = msg->len;
	memcpy(buf, msg->data, min(len, size));
	kfree(msg);
	return (long)len;
}

/* netlink_ack(): the NLMSG_ERROR answer to @nlh. */
static void netlink_ack(struct kfsim_ethnl_sock *sk, const struct nlmsghdr *nlh, int err,
			const struct netlink_ext_ack *extack)
{
	u8 data[2 * KFSIM_MSG_MAX];
	struct kfsim_nlbuf buf = { .data = data, .cap = sizeof(data) };
	struct nlmsghdr rep = { .nlmsg_type = NLMSG_ERROR, .nlmsg_seq = nlh->nlmsg_seq,
				.nlmsg_pid = sk->portid };
	size_t echo = sizeof(*nlh), tlv_start;
	bool tlvs = false;

	if (err && !sk->cap_ack)
		echo = nlh->nlmsg_len;
	else
		rep.nlmsg_flags |= NLM_F_CAPPED;
	/* Requests are at most KFSIM_MSG_MAX - 64 bytes (kfsim_ethnl_send), so the echo fits. */
	memset(data, 0, sizeof(data));
	memcpy(data + NLMSG_HDRLEN, &err, sizeof(err));
	memcpy(data + NLMSG_HDRLEN + sizeof(int), nlh, echo);
	tlv_start = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(int) + echo);
	buf.len = tlv_start;
	if (sk->ext_ack && extack) {
		if (extack->_msg)
			kfsim_nlbuf_put_string(&buf, NLMSGERR_ATTR_MSG, extack->_msg);
		if (err && extack->bad_attr)
			kfsim_nlbuf_put_u32(&buf, NLMSGERR_ATTR_OFFS,
					    (u32)((const u8 *)extack->bad_attr - (const u8 *)nlh));
		if (err && extack->policy)
			kfsim_nla_policy_dump(&buf, extack->policy, NLMSGERR_ATTR_POLICY);
		if (err && extack->miss_type)
			kfsim_nlbuf_put_u32(&buf, NLMSGERR_ATTR_MISS_TYPE, extack->miss_type);
		if (err && extack->miss_nest)
			kfsim_nlbuf_put_u32(&buf, NLMSGERR_ATTR_MISS_NEST,
					    (u32)((const u8 *)extack->miss_nest - (const u8 *)nlh));
		tlvs = buf.len > tlv_start;
	}
	if (tlvs)
		rep.nlmsg_flags |= NLM_F_ACK_TLVS;
	rep.nlmsg_len = (u32)buf.len;
	memcpy(data, &rep, sizeof(rep));
	queue_msg(sk, data, buf.len);
}

static void ethnl_notify_plca(struct kfsim_plca_net *net, struct net_device *dev)
{
	u8 data[KFSIM_MSG_MAX];
	struct kfsim_nlbuf buf = { .data = data, .cap = sizeof(data) };
	struct phy_plca_cfg cfg;
	u32 seq = ++net->bcast_seq;

	if (plca_get_cfg_prepare_data(net, dev, &cfg) < 0)
		return;
	if (kfsim_nlbuf_genlmsg(&buf, KFSIM_ETHTOOL_FAMILY_ID, 0, seq, 0, ETHTOOL_MSG_PLCA_NTF,
				ETHTOOL_GENL_VERSION) ||
	    plca_get_cfg_fill_reply(&buf, dev, &cfg))
		return;
	kfsim_nlbuf_finish(&buf);
	for (int i = 0; i < KFSIM_PLCA_MAX_SOCKS; i++)
		if (net->socks[i] && net->socks[i]->monitor)
			queue_msg(net->socks[i], data, buf.len);
}

/* One GET reply for @dev into @buf; -EOPNOTSUPP and other prepare errors pass through. */
static int plca_get_reply(struct kfsim_ethnl_sock *sk, struct kfsim_nlbuf *buf, u8 cmd,
			  struct net_device *dev, const struct nlmsghdr *nlh, u16 flags)
{
	u8 reply_cmd = cmd == ETHTOOL_MSG_PLCA_GET_CFG ? ETHTOOL_MSG_PLCA_GET_CFG_REPLY
						       : ETHTOOL_MSG_PLCA_GET_STATUS_REPLY;
	struct phy_plca_status st;
	struct phy_plca_cfg cfg;
	int ret;

	if (cmd == ETHTOOL_MSG_PLCA_GET_CFG)
		ret = plca_get_cfg_prepare_data(sk->net, dev, &cfg);
	else
		ret = plca_get_status_prepare_data(sk->net, dev, &st);
	if (ret < 0)
		return ret;
	ret = kfsim_nlbuf_genlmsg(buf, KFSIM_ETHTOOL_FAMILY_ID, flags, nlh->nlmsg_seq, sk->portid,
				  reply_cmd, ETHTOOL_GENL_VERSION);
	if (!ret && cmd == ETHTOOL_MSG_PLCA_GET_CFG)
		ret = plca_get_cfg_fill_reply(buf, dev, &cfg);
	else if (!ret)
		ret = plca_get_status_fill_reply(buf, dev, &st);
	if (ret)
		return ret;
	kfsim_nlbuf_finish(buf);
	return 0;
}

/* ethnl_default_dumpit(): one reply per device; devices without PLCA are skipped. */
static int plca_dump(struct kfsim_ethnl_sock *sk, u8 cmd, const struct nlmsghdr *nlh)
{
	u8 data[KFSIM_MSG_MAX];
	struct kfsim_nlbuf buf = { .data = data, .cap = sizeof(data) };
	struct nlmsghdr done = { .nlmsg_len = NLMSG_HDRLEN + sizeof(int), .nlmsg_type = NLMSG_DONE,
				 .nlmsg_flags = NLM_F_MULTI, .nlmsg_seq = nlh->nlmsg_seq,
				 .nlmsg_pid = sk->portid };
	int ret = 0;

	for (int i = 0; i < sk->net->nr_devs; i++) {
		ret = plca_get_reply(sk, &buf, cmd, sk->net->devs[i], nlh, NLM_F_MULTI);
		if (ret == -EOPNOTSUPP) {
			ret = 0;
			continue;
		}
		if (ret < 0)
			break;
		queue_msg(sk, data, buf.len);
	}
	memset(data, 0, sizeof(data));
	memcpy(data, &done, sizeof(done));
	memcpy(data + NLMSG_HDRLEN, &ret, sizeof(ret));
	queue_msg(sk, data, done.nlmsg_len);
	return -EINTR;	/* as netlink_dump_start(): the dump answers, no ACK follows */
}

static int ethnl_doit(struct kfsim_ethnl_sock *sk, u8 cmd, const struct nlmsghdr *nlh,
		      struct nlattr **tb, bool dump, struct netlink_ext_ack *extack)
{
	u8 data[KFSIM_MSG_MAX];
	struct kfsim_nlbuf buf = { .data = data, .cap = sizeof(data) };
	struct net_device *dev;
	int ret;

	if (!tb[ETHTOOL_A_PLCA_HEADER] && !dump) {
		extack->miss_type = ETHTOOL_A_PLCA_HEADER;	/* GENL_REQ_ATTR_CHECK */
		return -EINVAL;
	}
	if (tb[ETHTOOL_A_PLCA_HEADER]) {
		ret = ethnl_parse_header_dev_get(sk->net, tb[ETHTOOL_A_PLCA_HEADER], !dump, &dev,
						 extack);
		if (ret)
			return ret;
	}
	if (dump)
		return plca_dump(sk, cmd, nlh);	/* the header's device is ignored */
	if (cmd == ETHTOOL_MSG_PLCA_SET_CFG) {
		ret = ethnl_set_plca(sk->net, dev, tb, nlh, extack);
		if (ret > 0)
			ethnl_notify_plca(sk->net, dev);
		return ret < 0 ? ret : 0;
	}
	ret = plca_get_reply(sk, &buf, cmd, dev, nlh, 0);
	if (ret)
		return ret;
	return queue_msg(sk, data, buf.len);
}

/* The generic netlink controller, CTRL_CMD_GETFAMILY by name: just enough to resolve ethtool. */
static int ctrl_getfamily(struct kfsim_ethnl_sock *sk, const struct nlmsghdr *nlh)
{
	static const struct nla_policy ctrl_policy[CTRL_ATTR_FAMILY_NAME + 1] = {
		[CTRL_ATTR_FAMILY_ID] = { .type = NLA_U16 },
		[CTRL_ATTR_FAMILY_NAME] = { .type = NLA_NUL_STRING, .len = GENL_NAMSIZ - 1 },
	};
	const struct genlmsghdr *genl = NLMSG_DATA(nlh);
	struct nlattr *tb[CTRL_ATTR_FAMILY_NAME + 1];
	u8 data[KFSIM_MSG_MAX];
	struct kfsim_nlbuf buf = { .data = data, .cap = sizeof(data) };
	int ret, groups, group;

	if (genl->cmd != CTRL_CMD_GETFAMILY)
		return -EOPNOTSUPP;
	ret = nla_parse_strict(tb, CTRL_ATTR_FAMILY_NAME,
			       (const struct nlattr *)((const u8 *)genl + GENL_HDRLEN),
			       (int)(nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN), ctrl_policy,
			       NULL);
	if (ret)
		return ret;
	if (!tb[CTRL_ATTR_FAMILY_NAME] ||
	    strcmp(nla_data(tb[CTRL_ATTR_FAMILY_NAME]), ETHTOOL_GENL_NAME))
		return -ENOENT;
	if (kfsim_nlbuf_genlmsg(&buf, GENL_ID_CTRL, 0, nlh->nlmsg_seq, sk->portid,
				CTRL_CMD_NEWFAMILY, 2) ||
	    kfsim_nlbuf_put_string(&buf, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME) ||
	    kfsim_nlbuf_put_u16(&buf, CTRL_ATTR_FAMILY_ID, KFSIM_ETHTOOL_FAMILY_ID) ||
	    kfsim_nlbuf_put_u32(&buf, CTRL_ATTR_VERSION, ETHTOOL_GENL_VERSION) ||
	    kfsim_nlbuf_put_u32(&buf, CTRL_ATTR_HDRSIZE, 0) ||
	    kfsim_nlbuf_put_u32(&buf, CTRL_ATTR_MAXATTR, 0))
		return -EMSGSIZE;
	groups = kfsim_nlbuf_nest_start(&buf, CTRL_ATTR_MCAST_GROUPS);
	group = groups < 0 ? groups : kfsim_nlbuf_nest_start(&buf, 1);
	if (group < 0 ||
	    kfsim_nlbuf_put_string(&buf, CTRL_ATTR_MCAST_GRP_NAME, ETHTOOL_MCGRP_MONITOR_NAME) ||
	    kfsim_nlbuf_put_u32(&buf, CTRL_ATTR_MCAST_GRP_ID, ETHTOOL_MCGRP_MONITOR_ID))
		return -EMSGSIZE;
	kfsim_nlbuf_nest_end(&buf, group);
	kfsim_nlbuf_nest_end(&buf, groups);
	kfsim_nlbuf_finish(&buf);
	return queue_msg(sk, data, buf.len);
}

static const struct nla_policy *op_policy(u8 cmd, int *maxattr)
{
	switch (cmd) {
	case ETHTOOL_MSG_PLCA_GET_CFG:
		*maxattr = ETHTOOL_A_PLCA_HEADER;
		return ethnl_plca_get_cfg_policy;
	case ETHTOOL_MSG_PLCA_SET_CFG:
		*maxattr = ETHTOOL_A_PLCA_MAX;
		return ethnl_plca_set_cfg_policy;
	case ETHTOOL_MSG_PLCA_GET_STATUS:
		*maxattr = ETHTOOL_A_PLCA_HEADER;
		return ethnl_plca_get_status_policy;
	default:
		return NULL;
	}
}

/* genl_family_rcv_msg() for the ethtool family. */
static int genl_rcv_ethtool(struct kfsim_ethnl_sock *sk, const struct nlmsghdr *nlh,
			    struct netlink_ext_ack *extack)
{
	const struct genlmsghdr *genl = NLMSG_DATA(nlh);
	bool dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	u16 allowed = NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO | (dump ? NLM_F_DUMP : 0);
	struct nlattr *tb[ETHTOOL_A_PLCA_MAX + 1];
	const struct nla_policy *policy;
	int maxattr, ret;

	if (genl->cmd >= ETHTOOL_RESV_START_OP && genl->reserved) {
		NL_SET_ERR_MSG(extack, "genlmsghdr.reserved field is not 0");
		return -EINVAL;
	}
	policy = op_policy(genl->cmd, &maxattr);
	if (!policy || (dump && genl->cmd == ETHTOOL_MSG_PLCA_SET_CFG))
		return -EOPNOTSUPP;
	if (genl->cmd == ETHTOOL_MSG_PLCA_SET_CFG && !sk->cap_net_admin)
		return -EPERM;	/* GENL_UNS_ADMIN_PERM */
	if (nlh->nlmsg_flags & ~allowed) {
		NL_SET_ERR_MSG(extack, "ambiguous or reserved bits set in nlmsg_flags");
		return -EINVAL;
	}
	ret = nla_parse_strict(tb, maxattr,
			       (const struct nlattr *)((const u8 *)genl + GENL_HDRLEN),
			       (int)(nlh->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN), policy, extack);
	if (ret)
		return ret;
	for (int i = maxattr + 1; i <= ETHTOOL_A_PLCA_MAX; i++)
		tb[i] = NULL;
	return ethnl_doit(sk, genl->cmd, nlh, tb, dump, extack);
}

void kfsim_ethnl_rcv_msg(struct kfsim_ethnl_sock *sk, const struct nlmsghdr *nlh)
{
	struct netlink_ext_ack extack = {};
	int err = 0;

	if (!(nlh->nlmsg_flags & NLM_F_REQUEST) || nlh->nlmsg_type < NLMSG_MIN_TYPE)
		goto ack;
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		err = -EINVAL;
		goto ack;
	}
	if (nlh->nlmsg_type == GENL_ID_CTRL)
		err = ctrl_getfamily(sk, nlh);
	else if (nlh->nlmsg_type == KFSIM_ETHTOOL_FAMILY_ID)
		err = genl_rcv_ethtool(sk, nlh, &extack);
	else
		err = -ENOENT;
	if (err == -EINTR)
		return;
ack:
	if ((nlh->nlmsg_flags & NLM_F_ACK) || err)
		netlink_ack(sk, nlh, err, &extack);
}

long kfsim_ethnl_send(struct kfsim_ethnl_sock *sk, const void *buf, size_t len)
{
	const u8 *pos = buf;
	size_t rem = len;

	if (len > KFSIM_MSG_MAX - 64)
		return -EMSGSIZE;
	while (rem >= NLMSG_HDRLEN) {
		u8 copy[KFSIM_MSG_MAX] __attribute__((aligned(8)));
		struct nlmsghdr nlh;
		size_t msglen;

		memcpy(&nlh, pos, sizeof(nlh));
		if (nlh.nlmsg_len < NLMSG_HDRLEN || nlh.nlmsg_len > rem)
			break;
		/* An aligned private copy: handlers read it as the kernel reads its skb. */
		memset(copy, 0, sizeof(copy));
		memcpy(copy, pos, nlh.nlmsg_len);
		kfsim_ethnl_rcv_msg(sk, (const struct nlmsghdr *)copy);
		msglen = min((size_t)NLMSG_ALIGN(nlh.nlmsg_len), rem);
		pos += msglen;
		rem -= msglen;
	}
	return (long)len;
}
