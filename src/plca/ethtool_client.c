// SPDX-License-Identifier: MIT
/*
 * The user side of the ethtool PLCA family: request building, reply and ACK parsing, and the
 * two channels a request can travel on — kfsim's in-process kernel or the running kernel's
 * NETLINK_GENERIC socket.  Requests are byte-for-byte what ethtool (netlink/plca.c) sends:
 * NLM_F_REQUEST|NLM_F_ACK, genl version 1, a header nest (NLA_F_NESTED) holding DEV_NAME,
 * then the SET attributes in command-line order, ENABLED as u8 and the rest as u32.
 *
 * Invariants: parsing never reads past the message it is given; an ACK is recognised only
 * when it echoes the sequence number of the request just sent.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <kfsim/err.h>
#include <kfsim/slab.h>
#include "ethtool_nlattr.h"
#include "plca_internal.h"

#define CHAN_BUF_SIZE 8192

struct kfsim_ethtool_chan {
	struct kfsim_ethnl_sock *sk;	/* in-process, or NULL */
	int fd;				/* running kernel, or -1 */
	u16 family;
	u32 seq;
};

int kfsim_ethtool_plca_request(void *out, size_t size, u16 family, u8 cmd, u16 nlflags, u32 seq,
			       const char *devname, int ifindex, const struct kfsim_plca_attr *attrs,
			       int nr_attrs)
{
	struct kfsim_nlbuf buf = { .data = out, .cap = size };
	int nest;

	if (kfsim_nlbuf_genlmsg(&buf, family, nlflags, seq, 0, cmd, ETHTOOL_GENL_VERSION))
		return -EMSGSIZE;
	nest = kfsim_nlbuf_nest_start(&buf, ETHTOOL_A_PLCA_HEADER);
	if (nest < 0)
		return -EMSGSIZE;
	if (ifindex && kfsim_nlbuf_put_u32(&buf, ETHTOOL_A_HEADER_DEV_INDEX, (u32)ifindex))
		return -EMSGSIZE;
	if (devname && kfsim_nlbuf_put_string(&buf, ETHTOOL_A_HEADER_DEV_NAME, devname))
		return -EMSGSIZE;
	kfsim_nlbuf_nest_end(&buf, nest);
	for (int i = 0; i < nr_attrs; i++) {
		int ret = attrs[i].type == ETHTOOL_A_PLCA_ENABLED
				  ? kfsim_nlbuf_put_u8(&buf, attrs[i].type, (u8)attrs[i].value)
				  : kfsim_nlbuf_put_u32(&buf, attrs[i].type, attrs[i].value);

		if (ret)
			return ret;
	}
	kfsim_nlbuf_finish(&buf);
	return (int)buf.len;
}

/* Walk attributes; calls @fn for each well-formed one.  -EINVAL on a malformed stream. */
static int for_each_attr(const u8 *head, size_t len,
			 int (*fn)(const struct nlattr *nla, void *ctx), void *ctx)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr nla;
		int ret;

		memcpy(&nla, head, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || nla.nla_len > len)
			return -EINVAL;
		ret = fn((const struct nlattr *)head, ctx);
		if (ret)
			return ret;
		if ((size_t)NLA_ALIGN(nla.nla_len) >= len)
			return 0;
		head += NLA_ALIGN(nla.nla_len);
		len -= NLA_ALIGN(nla.nla_len);
	}
	return len ? -EINVAL : 0;
}

static int header_attr(const struct nlattr *nla, void *ctx)
{
	struct kfsim_plca_reply *reply = ctx;
	int len = nla_len(nla);

	switch (nla_type(nla)) {
	case ETHTOOL_A_HEADER_DEV_INDEX:
		if (len != 4)
			return -EINVAL;
		reply->ifindex = (int)nla_get_u32(nla);
		break;
	case ETHTOOL_A_HEADER_DEV_NAME:
		if (len < 1 || len > (int)sizeof(reply->devname) || ((const char *)nla_data(nla))[len - 1])
			return -EINVAL;
		memcpy(reply->devname, nla_data(nla), len);
		break;
	}
	return 0;
}

static int plca_attr(const struct nlattr *nla, void *ctx)
{
	struct kfsim_plca_reply *reply = ctx;
	int type = nla_type(nla), len = nla_len(nla);

	switch (type) {
	case ETHTOOL_A_PLCA_HEADER:
		if (for_each_attr(nla_data(nla), len, header_attr, reply))
			return -EINVAL;
		break;
	case ETHTOOL_A_PLCA_VERSION:
		if (len != 2)
			return -EINVAL;
		reply->value[type] = nla_get_u16(nla);
		break;
	case ETHTOOL_A_PLCA_ENABLED:
	case ETHTOOL_A_PLCA_STATUS:
		if (len != 1)
			return -EINVAL;
		reply->value[type] = nla_get_u8(nla);
		break;
	case ETHTOOL_A_PLCA_NODE_CNT ... ETHTOOL_A_PLCA_BURST_TMR:
		if (len != 4)
			return -EINVAL;
		reply->value[type] = nla_get_u32(nla);
		break;
	default:
		return 0;	/* newer kernels may add attributes */
	}
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

static int ack_attr(const struct nlattr *nla, void *ctx)
{
	struct kfsim_nl_ack *ack = ctx;
	int len = nla_len(nla);

	switch (nla_type(nla)) {
	case NLMSGERR_ATTR_MSG:
		if (len < 1)
			return -EINVAL;
		snprintf(ack->msg, sizeof(ack->msg), "%.*s", len, (const char *)nla_data(nla));
		break;
	case NLMSGERR_ATTR_OFFS:
		if (len != 4)
			return -EINVAL;
		ack->has_offs = true;
		ack->offs = nla_get_u32(nla);
		break;
	case NLMSGERR_ATTR_MISS_TYPE:
		if (len != 4)
			return -EINVAL;
		ack->miss_type = nla_get_u32(nla);
		break;
	case NLMSGERR_ATTR_POLICY:
		ack->policy_len = min((size_t)len, sizeof(ack->policy));
		memcpy(ack->policy, nla_data(nla), ack->policy_len);
		break;
	}
	return 0;
}

int kfsim_nl_ack_parse(const void *msg, size_t len, struct kfsim_nl_ack *ack)
{
	struct nlmsghdr nlh, echoed;
	size_t tlv;

	memset(ack, 0, sizeof(*ack));
	if (len < NLMSG_HDRLEN + sizeof(int) + sizeof(struct nlmsghdr))
		return -EINVAL;
	memcpy(&nlh, msg, sizeof(nlh));
	if (nlh.nlmsg_type != NLMSG_ERROR || nlh.nlmsg_len > len ||
	    nlh.nlmsg_len < NLMSG_HDRLEN + sizeof(int) + sizeof(struct nlmsghdr))
		return -EINVAL;
	memcpy(&ack->error, (const u8 *)msg + NLMSG_HDRLEN, sizeof(int));
	memcpy(&echoed, (const u8 *)msg + NLMSG_HDRLEN + sizeof(int), sizeof(echoed));
	if (!(nlh.nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	tlv = NLMSG_HDRLEN + sizeof(int) + sizeof(struct nlmsghdr);
	if (!(nlh.nlmsg_flags & NLM_F_CAPPED))
		tlv = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(int) + echoed.nlmsg_len);
	if (tlv > nlh.nlmsg_len)
		return -EINVAL;
	return for_each_attr((const u8 *)msg + tlv, nlh.nlmsg_len - tlv, ack_attr, ack);
}

static long chan_send(struct kfsim_ethtool_chan *chan, const void *buf, size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	ssize_t ret;

	if (chan->sk)
		return kfsim_ethnl_send(chan->sk, buf, len);
	ret = sendto(chan->fd, buf, len, 0, (struct sockaddr *)&kernel, sizeof(kernel));
	return ret < 0 ? -errno : ret;
}

static long chan_recv(struct kfsim_ethtool_chan *chan, void *buf, size_t size)
{
	ssize_t ret;

	if (chan->sk)
		return kfsim_ethnl_recv(chan->sk, buf, size);
	ret = recv(chan->fd, buf, size, 0);
	return ret < 0 ? -errno : ret;
}

int kfsim_ethtool_chan_transact(struct kfsim_ethtool_chan *chan, const void *req, size_t len,
				int (*reply_cb)(const struct kfsim_plca_reply *reply, void *ctx),
				void *ctx, struct kfsim_nl_ack *ack)
{
	struct kfsim_plca_reply reply;
	struct nlmsghdr sent;
	int cb_ret = 0;
	u8 *buf;
	long ret;

	if (len < NLMSG_HDRLEN)
		return -EINVAL;
	memcpy(&sent, req, sizeof(sent));
	ret = chan_send(chan, req, len);
	if (ret < 0)
		return (int)ret;
	buf = kmalloc(CHAN_BUF_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		size_t off = 0;

		ret = chan_recv(chan, buf, CHAN_BUF_SIZE);
		if (ret < 0)
			goto out;
		while (off + NLMSG_HDRLEN <= (size_t)ret) {
			struct nlmsghdr nlh;

			memcpy(&nlh, buf + off, sizeof(nlh));
			if (nlh.nlmsg_len < NLMSG_HDRLEN || off + nlh.nlmsg_len > (size_t)ret)
				break;
			if (nlh.nlmsg_seq == sent.nlmsg_seq && nlh.nlmsg_type == NLMSG_ERROR) {
				ret = kfsim_nl_ack_parse(buf + off, nlh.nlmsg_len, ack);
				goto out;
			}
			if (nlh.nlmsg_seq == sent.nlmsg_seq && nlh.nlmsg_type == NLMSG_DONE) {
				memset(ack, 0, sizeof(*ack));
				if (nlh.nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
					memcpy(&ack->error, buf + off + NLMSG_HDRLEN, sizeof(int));
				ret = 0;
				goto out;
			}
			if (nlh.nlmsg_seq == sent.nlmsg_seq && nlh.nlmsg_type == chan->family &&
			    reply_cb && !cb_ret &&
			    !kfsim_ethtool_plca_parse(buf + off, nlh.nlmsg_len, &reply))
				cb_ret = reply_cb(&reply, ctx);
			off += NLMSG_ALIGN(nlh.nlmsg_len);
		}
	}
out:
	kfree(buf);
	return ret < 0 ? (int)ret : cb_ret;
}

static int family_attr(const struct nlattr *nla, void *ctx)
{
	if (nla_type(nla) == CTRL_ATTR_FAMILY_ID && nla_len(nla) == 2)
		*(u16 *)ctx = nla_get_u16(nla);
	return 0;
}

/* CTRL_CMD_GETFAMILY "ethtool": the family id on this channel. */
static int resolve_family(struct kfsim_ethtool_chan *chan)
{
	u8 req[64], reply[CHAN_BUF_SIZE];
	struct kfsim_nlbuf buf = { .data = req, .cap = sizeof(req) };
	struct kfsim_nl_ack ack;
	u16 id = 0;
	long ret;

	kfsim_nlbuf_genlmsg(&buf, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK, ++chan->seq, 0,
			    CTRL_CMD_GETFAMILY, 1);
	kfsim_nlbuf_put_string(&buf, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	kfsim_nlbuf_finish(&buf);
	ret = chan_send(chan, req, buf.len);
	if (ret < 0)
		return (int)ret;
	for (;;) {
		struct nlmsghdr nlh;

		ret = chan_recv(chan, reply, sizeof(reply));
		if (ret < 0)
			return (int)ret;
		if ((size_t)ret < NLMSG_HDRLEN)
			return -EIO;
		memcpy(&nlh, reply, sizeof(nlh));
		if (nlh.nlmsg_type == NLMSG_ERROR) {
			if (kfsim_nl_ack_parse(reply, (size_t)ret, &ack))
				return -EIO;
			if (ack.error)
				return ack.error;
			break;
		}
		if (nlh.nlmsg_type == GENL_ID_CTRL && nlh.nlmsg_len <= (size_t)ret &&
		    nlh.nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN)
			for_each_attr(reply + NLMSG_HDRLEN + GENL_HDRLEN,
				      nlh.nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN, family_attr, &id);
	}
	if (!id)
		return -ENOENT;
	chan->family = id;
	return 0;
}

struct kfsim_ethtool_chan *kfsim_ethtool_chan_inproc(struct kfsim_plca_net *net,
						     bool cap_net_admin)
{
	struct kfsim_ethtool_chan *chan = kzalloc(sizeof(*chan), GFP_KERNEL);
	int ret;

	if (!chan)
		return ERR_PTR(-ENOMEM);
	chan->fd = -1;
	chan->sk = kfsim_ethnl_sock_open(net, 4242, cap_net_admin);
	if (!chan->sk) {
		kfree(chan);
		return ERR_PTR(-ENOMEM);
	}
	kfsim_ethnl_sock_setopt(chan->sk, NETLINK_EXT_ACK, 1);
	ret = resolve_family(chan);
	if (ret) {
		kfsim_ethtool_chan_close(chan);
		return ERR_PTR(ret);
	}
	return chan;
}

struct kfsim_ethtool_chan *kfsim_ethtool_chan_kernel(void)
{
	struct kfsim_ethtool_chan *chan = kzalloc(sizeof(*chan), GFP_KERNEL);
	struct sockaddr_nl local = { .nl_family = AF_NETLINK };
	struct timeval timeout = { .tv_sec = 5 };
	int one = 1, ret;

	if (!chan)
		return ERR_PTR(-ENOMEM);
	chan->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (chan->fd < 0) {
		ret = -errno;
		kfree(chan);
		return ERR_PTR(ret);
	}
	if (setsockopt(chan->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    setsockopt(chan->fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) ||
	    bind(chan->fd, (struct sockaddr *)&local, sizeof(local))) {
		ret = -errno;
		kfsim_ethtool_chan_close(chan);
		return ERR_PTR(ret);
	}
	ret = resolve_family(chan);
	if (ret) {
		kfsim_ethtool_chan_close(chan);
		return ERR_PTR(ret);
	}
	return chan;
}

void kfsim_ethtool_chan_close(struct kfsim_ethtool_chan *chan)
{
	if (!chan)
		return;
	if (chan->fd >= 0)
		close(chan->fd);
	kfsim_ethnl_sock_close(chan->sk);
	kfree(chan);
}

u16 kfsim_ethtool_chan_family(const struct kfsim_ethtool_chan *chan)
{
	return chan->family;
}
