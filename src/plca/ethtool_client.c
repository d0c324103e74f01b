// SPDX-License-Identifier: MIT
/*
 * The user side of the ethtool PLCA family: request building, reply parsing, and a channel
 * over kfsim's netlink client — to the in-process kernel or to the running kernel's
 * NETLINK_GENERIC socket.  Requests are byte-for-byte what ethtool (netlink/plca.c) sends:
 * NLM_F_REQUEST|NLM_F_ACK, genl version 1, a header nest (NLA_F_NESTED) holding DEV_NAME,
 * then the SET attributes in command-line order, ENABLED as u8 and the rest as u32.
 *
 * This file uses only uapi netlink types (no <kfsim/netlink.h>): it is user space.
 * Invariant: parsing never reads past the message it is given.
 */
#include <string.h>

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

/* Walk attributes; calls @fn for each well-formed one.  -EINVAL on a malformed stream. */
static int for_each_attr(const u8 *head, size_t len,
			 int (*fn)(const struct nlattr *nla, const u8 *data, int len, void *ctx),
			 void *ctx)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr nla;
		int ret;

		memcpy(&nla, head, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || nla.nla_len > len)
			return -EINVAL;
		ret = fn(&nla, head + NLA_HDRLEN, nla.nla_len - NLA_HDRLEN, ctx);
		if (ret)
			return ret;
		if ((size_t)NLA_ALIGN(nla.nla_len) >= len)
			return 0;
		head += NLA_ALIGN(nla.nla_len);
		len -= NLA_ALIGN(nla.nla_len);
	}
	return len ? -EINVAL : 0;
}

static u32 get_uint(const u8 *data, int len)
{
	u32 value = 0;

	if (len == 1)
		return data[0];
	if (len == 2) {
		u16 v16;

		memcpy(&v16, data, sizeof(v16));
		return v16;
	}
	memcpy(&value, data, sizeof(value));
	return value;
}

static int header_attr(const struct nlattr *nla, const u8 *data, int len, void *ctx)
{
	struct kfsim_plca_reply *reply = ctx;

	switch (nla->nla_type & NLA_TYPE_MASK) {
	case ETHTOOL_A_HEADER_DEV_INDEX:
		if (len != 4)
			return -EINVAL;
		reply->ifindex = (int)get_uint(data, len);
		break;
	case ETHTOOL_A_HEADER_DEV_NAME:
		if (len < 1 || len > (int)sizeof(reply->devname) || data[len - 1])
			return -EINVAL;
		memcpy(reply->devname, data, len);
		break;
	}
	return 0;
}

static int plca_attr(const struct nlattr *nla, const u8 *data, int len, void *ctx)
{
	struct kfsim_plca_reply *reply = ctx;
	int type = nla->nla_type & NLA_TYPE_MASK;

	switch (type) {
	case ETHTOOL_A_PLCA_HEADER:
		if (for_each_attr(data, len, header_attr, reply))
			return -EINVAL;
		reply->present |= 1u << type;
		return 0;
	case ETHTOOL_A_PLCA_VERSION:
		if (len != 2)
			return -EINVAL;
		break;
	case ETHTOOL_A_PLCA_ENABLED:
	case ETHTOOL_A_PLCA_STATUS:
		if (len != 1)
			return -EINVAL;
		break;
	case ETHTOOL_A_PLCA_NODE_CNT ... ETHTOOL_A_PLCA_BURST_TMR:
		if (len != 4)
			return -EINVAL;
		break;
	default:
		return 0;	/* newer kernels may add attributes */
	}
	reply->value[type] = get_uint(data, len);
	reply->present |= 1u << type;
	return 0;
}

int kfsim_ethtool_plca_parse(const void *msg, size_t len, struct kfsim_plca_reply *reply)
{
	struct nlmsghdr nlh;
	struct genlmsghdr genl;

	memset(reply, 0, sizeof(*reply));
	if (len < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EINVAL;
	memcpy(&nlh, msg, sizeof(nlh));
	if (nlh.nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN || nlh.nlmsg_len > len)
		return -EINVAL;
	memcpy(&genl, (const u8 *)msg + NLMSG_HDRLEN, sizeof(genl));
	reply->cmd = genl.cmd;
	return for_each_attr((const u8 *)msg + NLMSG_HDRLEN + GENL_HDRLEN,
			     nlh.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, plca_attr, reply);
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
