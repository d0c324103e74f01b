// SPDX-License-Identifier: MIT
/*
 * The user side of the ethtool PLCA family: request building, reply decoding (the decoder
 * kfsim-ynl-gen generates from specs/ethtool.yaml), and a channel
 * over kfsim's netlink client — to the in-process kernel or to the running kernel's
 * NETLINK_GENERIC socket.  Requests are byte-for-byte what ethtool (netlink/plca.c) sends:
 * NLM_F_REQUEST|NLM_F_ACK, genl version 1, a header nest (NLA_F_NESTED) holding DEV_NAME,
 * then the SET attributes in command-line order, ENABLED as u8 and the rest as u32.
 *
 * This file uses only uapi netlink types (no <kfsim/netlink.h>): it is user space.
 * Invariant: parsing never reads past the message it is given.
 */
#include <string.h>

/*
 * The generated user side, with internal linkage (KFSIM_YNL_LOCAL): programs linking libkfsim
 * define the same names from their own generated code.  First: its uapi enums, then plca.h's
 * defines of the same names (equal values).
 */
#define KFSIM_YNL_LOCAL 1
#include "ethtool-user.c"

#include <kfsim/err.h>
#include <kfsim/slab.h>
#include <kfsim/plca.h>

struct kfsim_ethtool_chan {
	struct kfsim_nl_client *client;
	u16 family;
};

/* A netlink message being written into a caller's buffer. */
struct msg_writer {
	u8 *data;
	size_t len;
	size_t cap;
	bool overflow;
};

static void put_attr(struct msg_writer *w, u16 type, const void *payload, size_t size)
{
	struct nlattr nla = { .nla_len = (u16)(NLA_HDRLEN + size), .nla_type = type };
	size_t total = NLA_ALIGN(NLA_HDRLEN + size);

	if (w->overflow || w->len + total > w->cap) {
		w->overflow = true;
		return;
	}
	memcpy(w->data + w->len, &nla, sizeof(nla));
	if (size)
		memcpy(w->data + w->len + NLA_HDRLEN, payload, size);
	memset(w->data + w->len + NLA_HDRLEN + size, 0, total - NLA_HDRLEN - size);
	w->len += total;
}

int kfsim_ethtool_plca_request(void *out, size_t size, u16 family, u8 cmd, u16 nlflags, u32 seq,
			       const char *devname, int ifindex, const struct kfsim_plca_attr *attrs,
			       int nr_attrs)
{
	struct nlmsghdr nlh = { .nlmsg_type = family, .nlmsg_flags = nlflags, .nlmsg_seq = seq };
	struct genlmsghdr genl = { .cmd = cmd, .version = ETHTOOL_GENL_VERSION };
	struct msg_writer w = { .data = out, .cap = size };
	size_t nest;
	u16 nest_len;

	if (size < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EMSGSIZE;
	w.len = NLMSG_HDRLEN + GENL_HDRLEN;
	nest = w.len;
	put_attr(&w, ETHTOOL_A_PLCA_HEADER | NLA_F_NESTED, NULL, 0);
	if (ifindex) {
		u32 index = (u32)ifindex;

		put_attr(&w, ETHTOOL_A_HEADER_DEV_INDEX, &index, sizeof(index));
	}
	if (devname)
		put_attr(&w, ETHTOOL_A_HEADER_DEV_NAME, devname, strlen(devname) + 1);
	if (w.overflow)
		return -EMSGSIZE;
	nest_len = (u16)(w.len - nest);
	memcpy(w.data + nest, &nest_len, sizeof(nest_len));
	for (int i = 0; i < nr_attrs; i++) {
		u8 value8 = (u8)attrs[i].value;

		if (attrs[i].type == ETHTOOL_A_PLCA_ENABLED)
			put_attr(&w, attrs[i].type, &value8, sizeof(value8));
		else
			put_attr(&w, attrs[i].type, &attrs[i].value, sizeof(attrs[i].value));
	}
	if (w.overflow)
		return -EMSGSIZE;
	nlh.nlmsg_len = (u32)w.len;
	memcpy(w.data, &nlh, sizeof(nlh));
	memcpy(w.data + NLMSG_HDRLEN, &genl, sizeof(genl));
	return (int)w.len;
}

/* The generated decoder's result in kfsim_plca_reply's form (ids as bit numbers). */
static void copy_reply(struct kfsim_plca_reply *reply, const struct ethtool_plca_get_cfg_rsp *rsp)
{
	const struct {
		int type;
		bool present;
		u32 value;
	} fields[] = {
		{ ETHTOOL_A_PLCA_VERSION, rsp->_present.version, rsp->version },
		{ ETHTOOL_A_PLCA_ENABLED, rsp->_present.enabled, rsp->enabled },
		{ ETHTOOL_A_PLCA_STATUS, rsp->_present.status, rsp->status },
		{ ETHTOOL_A_PLCA_NODE_CNT, rsp->_present.node_cnt, rsp->node_cnt },
		{ ETHTOOL_A_PLCA_NODE_ID, rsp->_present.node_id, rsp->node_id },
		{ ETHTOOL_A_PLCA_TO_TMR, rsp->_present.to_tmr, rsp->to_tmr },
		{ ETHTOOL_A_PLCA_BURST_CNT, rsp->_present.burst_cnt, rsp->burst_cnt },
		{ ETHTOOL_A_PLCA_BURST_TMR, rsp->_present.burst_tmr, rsp->burst_tmr },
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (!fields[i].present)
			continue;
		reply->present |= 1u << fields[i].type;
		reply->value[fields[i].type] = fields[i].value;
	}
	if (rsp->_present.header) {
		reply->present |= 1u << ETHTOOL_A_PLCA_HEADER;
		if (rsp->header._present.dev_index)
			reply->ifindex = (int)rsp->header.dev_index;
		if (rsp->header._present.dev_name_len && rsp->header.dev_name)
			snprintf(reply->devname, sizeof(reply->devname), "%s",
				 rsp->header.dev_name);
	}
}

/*
 * Every PLCA message from the kernel (GET_CFG and GET_STATUS replies, PLCA_NTF) carries the
 * one "plca" attribute set: the generated plca-get-cfg reply decoder reads them all.
 */
int kfsim_ethtool_plca_parse(const void *msg, size_t len, struct kfsim_plca_reply *reply)
{
	struct ethtool_plca_get_cfg_rsp *rsp;
	struct ynl_error err = {};
	struct nlmsghdr nlh;
	struct genlmsghdr genl;
	int ret;

	memset(reply, 0, sizeof(*reply));
	if (len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EINVAL;
	memcpy(&nlh, msg, sizeof(nlh));
	if (nlh.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN || nlh.nlmsg_len > len)
		return -EINVAL;
	memcpy(&genl, (const u8 *)msg + NLMSG_HDRLEN, sizeof(genl));
	reply->cmd = genl.cmd;
	rsp = ethtool_plca_get_cfg_rsp_alloc();
	if (!rsp)
		return -ENOMEM;
	ret = ethtool_plca_get_cfg_rsp_parse(rsp, (const u8 *)msg + NLMSG_HDRLEN + GENL_HDRLEN,
					     nlh.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, &err);
	if (!ret)
		copy_reply(reply, rsp);
	ethtool_plca_get_cfg_rsp_free(rsp);
	return ret ? -EINVAL : 0;
}

struct transact_ctx {
	int (*reply_cb)(const struct kfsim_plca_reply *reply, void *ctx);
	void *ctx;
	u16 family;
	int cb_ret;
};

static int on_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct transact_ctx *t = arg;
	struct kfsim_plca_reply reply;

	if (nlh->nlmsg_type != t->family || !t->reply_cb || t->cb_ret)
		return 0;
	if (!kfsim_ethtool_plca_parse(nlh, nlh->nlmsg_len, &reply))
		t->cb_ret = t->reply_cb(&reply, t->ctx);
	return 0;
}

int kfsim_ethtool_chan_transact(struct kfsim_ethtool_chan *chan, const void *req, size_t len,
				int (*reply_cb)(const struct kfsim_plca_reply *reply, void *ctx),
				void *ctx, struct kfsim_nl_error *ack)
{
	struct transact_ctx t = { .reply_cb = reply_cb, .ctx = ctx, .family = chan->family };
	struct nlmsghdr *copy;
	int ret;

	if (len < NLMSG_HDRLEN || len > 65536)
		return -EINVAL;
	copy = kmalloc(len, GFP_KERNEL);	/* kfsim_nl_request() writes seq and portid */
	if (!copy)
		return -ENOMEM;
	memcpy(copy, req, len);
	memset(ack, 0, sizeof(*ack));
	ret = kfsim_nl_request(chan->client, copy, on_reply, &t, ack);
	kfree(copy);
	if (ret < 0 && ret == ack->error)
		ret = 0;	/* the kernel's answer: it is in @ack */
	return ret < 0 ? ret : t.cb_ret;
}

static struct kfsim_ethtool_chan *chan_resolve(struct kfsim_nl_client *client)
{
	struct kfsim_nl_family_info *info;
	struct kfsim_ethtool_chan *chan;
	int ret;

	if (IS_ERR(client))
		return ERR_CAST(client);
	chan = kzalloc(sizeof(*chan), GFP_KERNEL);
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!chan || !info) {
		ret = -ENOMEM;
		goto fail;
	}
	chan->client = client;
	ret = kfsim_nl_resolve(client, ETHTOOL_GENL_NAME, info, NULL);
	if (ret)
		goto fail;
	chan->family = info->id;
	kfree(info);
	return chan;
fail:
	kfree(info);
	kfree(chan);
	kfsim_nl_client_close(client);
	return ERR_PTR(ret);
}

struct kfsim_ethtool_chan *kfsim_ethtool_chan_inproc(struct kfsim_plca_net *net,
						     bool cap_net_admin)
{
	struct kfsim_nl_cred cred = cap_net_admin ? KFSIM_NL_CRED_ROOT : KFSIM_NL_CRED_USER;

	return chan_resolve(kfsim_nl_client_open_sim(kfsim_plca_net_kernel(net), &cred));
}

struct kfsim_ethtool_chan *kfsim_ethtool_chan_kernel(void)
{
	return chan_resolve(kfsim_nl_client_open_kernel());
}

struct kfsim_ethtool_chan *kfsim_ethtool_chan_server(const char *path)
{
	return chan_resolve(kfsim_nl_client_open_server(path));
}

void kfsim_ethtool_chan_close(struct kfsim_ethtool_chan *chan)
{
	if (!chan)
		return;
	kfsim_nl_client_close(chan->client);
	kfree(chan);
}

u16 kfsim_ethtool_chan_family(const struct kfsim_ethtool_chan *chan)
{
	return chan->family;
}
