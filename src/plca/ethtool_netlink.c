// SPDX-License-Identifier: MIT
/*
 * The ethtool family's shared request path (net/ethtool/netlink.c; read in 6.12, answers
 * checked against the running 6.18): the request header, and the default GET handlers every
 * request with a struct ethnl_request_ops goes through, PLCA's (ethtool_plca.c) and the ones a
 * driver may lack (ethtool_default.c) alike.
 *
 * A GET is four steps, each the request's own (struct ethnl_request_ops), the order the kernel's:
 *   doit: GENL_REQ_ATTR_CHECK() on the header (-EINVAL, MISS_TYPE), the header's device
 *         (ethnl_parse_header_dev_get()), parse_request, prepare_data, then one reply: the
 *         header nest (DEV_INDEX, DEV_NAME) and fill_reply;
 *   dump: the header and parse_request once, at start (their errors are the dump's
 *         NLMSG_ERROR; a device the header names is ignored, its flags and PHY_INDEX apply to
 *         every device), then one reply per device, a device whose prepare_data answers
 *         -EOPNOTSUPP skipped; the extack message it set stays and rides in NLMSG_DONE.
 * In a dump prepare_data gets no header attribute: a PHY_INDEX naming no PHY of a device skips
 * it without a message, as the running 6.18 answers.
 */
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/netlink.h>
#include "ethtool-kernel.h"
#include "plca_internal.h"

int ethnl_parse_header_dev_get(struct kfsim_plca_net *net, const struct nlattr *header,
			       bool require_dev, struct plca_req_info *req,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[ETHTOOL_A_HEADER_PHY_INDEX + 1];
	const struct nlattr *name_attr;
	struct net_device *dev = NULL;
	int ret;

	*req = (struct plca_req_info){};
	if (!header) {
		if (!require_dev)
			return 0;
		NL_SET_ERR_MSG(extack, "request header missing");
		return -EINVAL;
	}
	/*
	 * The op's policy validated the header already (its own header policy: with or without
	 * ETHTOOL_FLAG_STATS, with or without PHY_INDEX); the kernel parses it again with no
	 * policy (6.3 and 6.12 alike), which must not undo that choice.
	 */
	ret = nla_parse_nested(tb, ETHTOOL_A_HEADER_PHY_INDEX, header, NULL, extack);
	if (ret)
		return ret;
	if (tb[ETHTOOL_A_HEADER_PHY_INDEX] && !kfsim_kernel_at_least(6, 11)) {
		/*
		 * Only reached when the release was lowered after the family was registered
		 * with the 6.11 header policy: answer as the 6.3 policy (maxtype 3) would.
		 */
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_HEADER_PHY_INDEX],
				    "Unknown attribute type");
		return -EINVAL;
	}
	name_attr = tb[ETHTOOL_A_HEADER_DEV_NAME];
	if (tb[ETHTOOL_A_HEADER_DEV_INDEX]) {
		dev = dev_get_by_index(net, (int)nla_get_u32(tb[ETHTOOL_A_HEADER_DEV_INDEX]));
		if (!dev) {
			NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_HEADER_DEV_INDEX],
					    "no device matches ifindex");
			return -ENODEV;
		}
		if (name_attr && strncmp(dev->name, nla_data(name_attr), IFNAMSIZ)) {
			NL_SET_ERR_MSG_ATTR(extack, header, "ifindex and name do not match");
			return -ENODEV;
		}
	} else if (name_attr) {
		dev = dev_get_by_name(net, nla_data(name_attr));
		if (!dev) {
			NL_SET_ERR_MSG_ATTR(extack, name_attr, "no device matches name");
			return -ENODEV;
		}
	} else if (require_dev) {
		NL_SET_ERR_MSG_ATTR(extack, header, "neither ifindex nor name specified");
		return -EINVAL;
	}
	if (tb[ETHTOOL_A_HEADER_PHY_INDEX]) {
		if (!dev) {
			NL_SET_ERR_MSG_ATTR(extack, header, "phy_index set without a netdev");
			return -EINVAL;
		}
		req->phy_index = nla_get_u32(tb[ETHTOOL_A_HEADER_PHY_INDEX]);
	}
	if (tb[ETHTOOL_A_HEADER_FLAGS])
		req->flags = nla_get_u32(tb[ETHTOOL_A_HEADER_FLAGS]);
	req->dev = dev;
	return 0;
}

int ethnl_fill_reply_header(struct sk_buff *skb, const struct net_device *dev, u16 attrtype)
{
	struct nlattr *nest;

	if (!dev) /* a STRSET_GET of the global sets: no header nest at all */
		return 0;
	nest = nla_nest_start(skb, attrtype);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, ETHTOOL_A_HEADER_DEV_INDEX, (u32)dev->ifindex) ||
	    nla_put_string(skb, ETHTOOL_A_HEADER_DEV_NAME, dev->name)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

int ethnl_fill_msg(struct sk_buff *skb, const struct kfsim_plca_net *net, u8 reply_cmd, u32 portid,
		   u32 seq, int flags, const struct ethnl_request_ops *ops,
		   const struct plca_req_info *req, const union ethnl_reply_data *data)
{
	void *hdr = genlmsg_put(skb, portid, seq, &net->family, flags, reply_cmd);
	int ret;

	if (!hdr)
		return -EMSGSIZE;
	ret = ethnl_fill_reply_header(skb, req->dev, ethnl_hdr_attr(ops));
	if (!ret && ops->fill_reply)
		ret = ops->fill_reply(skb, net, req, data);
	if (ret) {
		genlmsg_cancel(skb, hdr);
		return ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* The request's parse_request, when it has one. */
static int parse_request(const struct ethnl_request_ops *ops, struct plca_req_info *req,
			 struct nlattr **tb, struct netlink_ext_ack *extack)
{
	return ops->parse_request ? ops->parse_request(req, tb, extack) : 0;
}

int ethnl_default_doit(struct genl_info *info, const struct ethnl_request_ops *ops)
{
	struct kfsim_plca_net *net = ethnl_net_of(info->family);
	const struct nlattr *header = info->attrs[ethnl_hdr_attr(ops)];
	union ethnl_reply_data data;
	struct plca_req_info req;
	struct sk_buff *rskb;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, ethnl_hdr_attr(ops)))
		return -EINVAL;
	ret = ethnl_parse_header_dev_get(net, header, !ops->allow_nodev_do, &req, info->extack);
	if (!ret)
		ret = parse_request(ops, &req, info->attrs, info->extack);
	if (!ret)
		ret = ops->prepare_data(net, &req, header, &data, info->extack);
	if (ret < 0)
		return ret;
	/*
	 * The kernel sizes the buffer by the request's reply_size().  Most replies fit the
	 * default size; a larger one (STRSET's global sets, some 12 KiB) is built once in a
	 * buffer that holds the largest to learn its length, then in one of that length, so a
	 * reader's queue counts it as the kernel's would.
	 */
	rskb = genlmsg_new(GENLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!rskb)
		return -ENOMEM;
	ret = ethnl_fill_msg(rskb, net, ops->reply_cmd, info->snd_portid, info->snd_seq, 0, ops,
			     &req, &data);
	if (ret == -EMSGSIZE) {
		size_t payload;

		nlmsg_free(rskb);
		rskb = genlmsg_new(ETHNL_REPLY_MAX_SIZE, GFP_KERNEL);
		if (!rskb)
			return -ENOMEM;
		ret = ethnl_fill_msg(rskb, net, ops->reply_cmd, info->snd_portid, info->snd_seq, 0,
				     ops, &req, &data);
		payload = rskb->len - NLMSG_HDRLEN - GENL_HDRLEN;
		nlmsg_free(rskb);
		if (ret)
			return ret;
		rskb = genlmsg_new(payload, GFP_KERNEL);
		if (!rskb)
			return -ENOMEM;
		ret = ethnl_fill_msg(rskb, net, ops->reply_cmd, info->snd_portid, info->snd_seq, 0,
				     ops, &req, &data);
	}
	if (ret) {
		nlmsg_free(rskb);
		return ret;
	}
	return genlmsg_reply(rskb, info);
}

/*
 * The dump's state in cb->args: the next device, the header's flags and PHY_INDEX, and what
 * parse_request read (the kernel keeps the whole req_info in the dump's context).
 */
enum {
	DUMP_ARG_POS,
	DUMP_ARG_FLAGS,
	DUMP_ARG_PHY_INDEX,
	DUMP_ARG_REQ_IDS,	/* STRSET's req_ids, STATS' stat_mask */
	DUMP_ARG_REQ_MORE,	/* STRSET's counts_only, STATS' src */
};

int ethnl_default_start(struct netlink_callback *cb, const struct ethnl_request_ops *ops)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct plca_req_info req;
	int ret;

	ret = ethnl_parse_header_dev_get(ethnl_net_of(info->family),
					 info->attrs[ethnl_hdr_attr(ops)], false, &req, cb->extack);
	if (!ret)
		ret = parse_request(ops, &req, info->attrs, cb->extack);
	cb->args[DUMP_ARG_POS] = 0;
	cb->args[DUMP_ARG_FLAGS] = req.flags;
	cb->args[DUMP_ARG_PHY_INDEX] = req.phy_index;
	cb->args[DUMP_ARG_REQ_IDS] = (long)(req.req_ids | req.stat_mask);
	cb->args[DUMP_ARG_REQ_MORE] = (long)(req.counts_only | req.stats_src);
	return ret;
}

int ethnl_dump_header_start(struct netlink_callback *cb)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct plca_req_info req;

	return ethnl_parse_header_dev_get(ethnl_net_of(info->family),
					  info->attrs[ETHTOOL_A_REQ_HEADER], false, &req,
					  cb->extack);
}

/*
 * Resumable where the buffer filled.  Past the last device the step answers 0, so NLMSG_DONE
 * rides in the same buffer when it fits (netlink_dump()), before the answer to a request sent
 * after the dump in the same datagram.
 */
int ethnl_default_dumpit(struct sk_buff *skb, struct netlink_callback *cb,
			 const struct ethnl_request_ops *ops)
{
	struct kfsim_plca_net *net = ethnl_net_of(genl_info_dump(cb)->family);
	long idx;

	for (idx = cb->args[DUMP_ARG_POS]; idx < net->nr_devs; idx++) {
		struct plca_req_info req = {
			.dev = net->devs[idx],
			.phy_index = (u32)cb->args[DUMP_ARG_PHY_INDEX],
			.flags = (u32)cb->args[DUMP_ARG_FLAGS],
			/* one of each pair is the request's own, the other 0 */
			.req_ids = (u32)cb->args[DUMP_ARG_REQ_IDS],
			.stat_mask = (u32)cb->args[DUMP_ARG_REQ_IDS],
			.counts_only = cb->args[DUMP_ARG_REQ_MORE] != 0,
			.stats_src = (u32)cb->args[DUMP_ARG_REQ_MORE],
		};
		union ethnl_reply_data data;
		int ret = ops->prepare_data(net, &req, NULL, &data, cb->extack);

		/* -EMSGSIZE: the buffer is full, continue here next time */
		if (!ret)
			ret = ethnl_fill_msg(skb, net, ops->reply_cmd, NETLINK_CB(cb->skb).portid,
					     cb->nlh->nlmsg_seq, NLM_F_MULTI, ops, &req, &data);
		/* a device the request does not apply to (prepare_data or fill_reply) is skipped */
		if (ret == -EOPNOTSUPP)
			continue;
		if (ret < 0) {
			cb->args[DUMP_ARG_POS] = idx;
			return skb->len ? (int)skb->len : ret;
		}
	}
	cb->args[DUMP_ARG_POS] = idx;
	return 0;
}
