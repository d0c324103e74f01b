// SPDX-License-Identifier: MIT
/*
 * The ethtool genetlink family's PLCA operations, registered with kfsim's in-process netlink
 * kernel (net/ethtool/plca.c and the shared request path of net/ethtool/netlink.c, Linux 6.3).
 *
 * The genetlink core has already checked the header, the permission (SET: GENL_UNS_ADMIN_PERM)
 * and every attribute against the op's policy when a handler runs.  Request path (doit): the
 * header must be present (missing: -EINVAL with MISS_TYPE); the device comes from DEV_INDEX or
 * DEV_NAME; prepare_data fills a phy_plca_cfg that starts as all -1, and fill_reply emits only
 * the fields that are not -1 (STATUS always).  SET: no attribute besides the header is a no-op
 * (ACK 0, no notification); otherwise phy_ethtool_set_plca_cfg() either rejects the request
 * before writing anything or applies it, and every successful SET notifies the monitor group,
 * changed or not.  Dumps walk every device and skip those answering -EOPNOTSUPP.
 *
 * Kernel-version behaviour: before Linux 6.6 (commit 8957261cd814) the SET handler read the u8
 * ENABLED attribute with nla_get_u32(), so the three padding bytes after the value took part:
 * kfsim does the same when kfsim_kernel_version() < 6.6 and reads one byte from 6.6 on.
 */
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/netlink.h>
#include "ethtool-kernel.h"
#include "plca_internal.h"

static struct kfsim_plca_net *net_of(const struct genl_family *family)
{
	return container_of(family, struct kfsim_plca_net, family);
}

/* ethnl_parse_header_dev_get(): the device the header names (NULL when none and !require_dev). */
static int parse_header_dev_get(struct kfsim_plca_net *net, const struct nlattr *header,
				bool require_dev, struct net_device **devp,
				struct netlink_ext_ack *extack)
{
	struct nlattr *tb[ETHTOOL_A_HEADER_PHY_INDEX + 1];
	const struct nlattr *name_attr;
	struct net_device *dev = NULL;
	int ret;

	*devp = NULL;
	if (!header)
		return 0;	/* only dumps get here without one */
	ret = nla_parse_nested(tb, ETHTOOL_A_HEADER_PHY_INDEX, header, ethtool_header_nl_policy, extack);
	if (ret)
		return ret;
	if (tb[ETHTOOL_A_HEADER_PHY_INDEX] && !kfsim_kernel_at_least(6, 11)) {
		/* The header policy before 6.11 ended at FLAGS: type 4 was unknown. */
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_HEADER_PHY_INDEX], "Unknown attribute type");
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
	*devp = dev;
	return 0;
}

/* The prepared data of either GET: a configuration, or a status. */
struct plca_reply_data {
	struct phy_plca_cfg cfg;
	struct phy_plca_status st;
};

static int plca_prepare_data(struct kfsim_plca_net *net, struct net_device *dev, u8 cmd,
			     struct plca_reply_data *data)
{
	const struct ethtool_phy_ops *ops = net->phy_ops;

	if (!dev->phydev || !ops)
		return -EOPNOTSUPP;
	if (cmd == ETHTOOL_MSG_PLCA_GET_STATUS) {
		if (!ops->get_plca_status)
			return -EOPNOTSUPP;
		memset(&data->st, 0xff, sizeof(data->st));
		return ops->get_plca_status(dev->phydev, &data->st);
	}
	if (!ops->get_plca_cfg)
		return -EOPNOTSUPP;
	memset(&data->cfg, 0xff, sizeof(data->cfg));
	return ops->get_plca_cfg(dev->phydev, &data->cfg);
}

static int fill_reply_header(struct sk_buff *skb, const struct net_device *dev)
{
	struct nlattr *nest = nla_nest_start(skb, ETHTOOL_A_PLCA_HEADER);

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

static int plca_get_cfg_fill_reply(struct sk_buff *skb, const struct phy_plca_cfg *cfg)
{
	static const struct {
		u16 type;
		size_t offset;
	} u32_fields[] = {
		{ ETHTOOL_A_PLCA_NODE_ID, offsetof(struct phy_plca_cfg, node_id) },
		{ ETHTOOL_A_PLCA_NODE_CNT, offsetof(struct phy_plca_cfg, node_cnt) },
		{ ETHTOOL_A_PLCA_TO_TMR, offsetof(struct phy_plca_cfg, to_tmr) },
		{ ETHTOOL_A_PLCA_BURST_CNT, offsetof(struct phy_plca_cfg, burst_cnt) },
		{ ETHTOOL_A_PLCA_BURST_TMR, offsetof(struct phy_plca_cfg, burst_tmr) },
	};

	if (cfg->version >= 0 && nla_put_u16(skb, ETHTOOL_A_PLCA_VERSION, (u16)cfg->version))
		return -EMSGSIZE;
	if (cfg->enabled >= 0 && nla_put_u8(skb, ETHTOOL_A_PLCA_ENABLED, !!cfg->enabled))
		return -EMSGSIZE;
	for (size_t i = 0; i < ARRAY_SIZE(u32_fields); i++) {
		int value = *(const int *)((const char *)cfg + u32_fields[i].offset);

		if (value >= 0 && nla_put_u32(skb, u32_fields[i].type, (u32)value))
			return -EMSGSIZE;
	}
	return 0;
}

static int plca_get_status_fill_reply(struct sk_buff *skb, const struct phy_plca_status *st)
{
	u8 raw;

	/*
	 * prepare_data filled the status with 0xff, as the kernel does, so a driver that sets
	 * nothing reports "on".  Read the byte, not the bool: 0xff is not a valid C bool.
	 */
	memcpy(&raw, &st->pst, sizeof(raw));
	return nla_put_u8(skb, ETHTOOL_A_PLCA_STATUS, !!raw);
}

/* One complete reply message for @dev into @skb (nothing left in it on failure). */
static int plca_fill_msg(struct sk_buff *skb, const struct genl_family *family, u32 portid,
			 u32 seq, int flags, u8 reply_cmd, const struct net_device *dev,
			 const struct plca_reply_data *data)
{
	void *hdr = genlmsg_put(skb, portid, seq, family, flags, reply_cmd);
	int ret;

	if (!hdr)
		return -EMSGSIZE;
	ret = fill_reply_header(skb, dev);
	if (!ret && reply_cmd == ETHTOOL_MSG_PLCA_GET_STATUS_REPLY)
		ret = plca_get_status_fill_reply(skb, &data->st);
	else if (!ret)
		ret = plca_get_cfg_fill_reply(skb, &data->cfg);
	if (ret) {
		genlmsg_cancel(skb, hdr);
		return ret;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static u8 reply_cmd_of(u8 cmd)
{
	return cmd == ETHTOOL_MSG_PLCA_GET_CFG ? ETHTOOL_MSG_PLCA_GET_CFG_REPLY
					       : ETHTOOL_MSG_PLCA_GET_STATUS_REPLY;
}

/* ethnl_default_doit() for GET_CFG and GET_STATUS. */
static int ethnl_plca_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kfsim_plca_net *net = net_of(info->family);
	struct plca_reply_data data;
	struct net_device *dev;
	struct sk_buff *rskb;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, ETHTOOL_A_PLCA_HEADER))
		return -EINVAL;
	ret = parse_header_dev_get(net, info->attrs[ETHTOOL_A_PLCA_HEADER], true, &dev,
				   info->extack);
	if (ret)
		return ret;
	ret = plca_prepare_data(net, dev, info->genlhdr->cmd, &data);
	if (ret < 0)
		return ret;
	rskb = genlmsg_new(GENLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!rskb)
		return -ENOMEM;
	ret = plca_fill_msg(rskb, info->family, info->snd_portid, info->snd_seq, 0,
			    reply_cmd_of(info->genlhdr->cmd), dev, &data);
	if (ret) {
		nlmsg_free(rskb);
		return ret;
	}
	return genlmsg_reply(rskb, info);
}

/*
 * ethnl_default_start() + ethnl_default_dumpit(): on the first step the header is parsed (and
 * may fail) but its device is ignored; then one reply per device, resumable from cb->args[0].
 */
static int ethnl_plca_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct kfsim_plca_net *net = net_of(info->family);
	u8 cmd = info->genlhdr->cmd;
	long idx;

	if (!cb->args[1]) {
		struct net_device *dev;
		int ret = parse_header_dev_get(net, info->attrs[ETHTOOL_A_PLCA_HEADER], false, &dev,
					       cb->extack);

		if (ret)
			return ret;
		cb->args[1] = 1;
	}
	for (idx = cb->args[0]; idx < net->nr_devs; idx++) {
		struct plca_reply_data data;
		int ret = plca_prepare_data(net, net->devs[idx], cmd, &data);

		if (ret == -EOPNOTSUPP)
			continue;
		if (ret < 0) {
			cb->args[0] = idx;
			return ret;
		}
		if (plca_fill_msg(skb, info->family, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, NLM_F_MULTI, reply_cmd_of(cmd),
				  net->devs[idx], &data))
			break;	/* the buffer is full: continue here next time */
	}
	cb->args[0] = idx;
	return skb->len;
}

/* ethtool_notify(dev, ETHTOOL_MSG_PLCA_NTF): GET_CFG's content to the monitor group. */
static void ethnl_plca_notify(struct kfsim_plca_net *net, struct net_device *dev)
{
	u32 seq = ++net->bcast_seq;	/* ethnl_bcast_seq: counted even without listeners */
	struct plca_reply_data data;
	struct sk_buff *skb;

	if (plca_prepare_data(net, dev, ETHTOOL_MSG_PLCA_GET_CFG, &data) < 0)
		return;
	skb = genlmsg_new(GENLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (plca_fill_msg(skb, &net->family, 0, seq, 0, ETHTOOL_MSG_PLCA_NTF, dev, &data)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&net->family, skb, 0, 0, GFP_KERNEL);
}

/* plca_update_sint(): the attribute's value into *@dst, if present. */
static void plca_update_sint(int *dst, const struct nlattr *attr, const struct nlmsghdr *nlh,
			     bool *mod)
{
	if (!attr)
		return;
	if (nla_type(attr) == ETHTOOL_A_PLCA_ENABLED && !kfsim_kernel_at_least(6, 6)) {
		/*
		 * Linux 6.3..6.5 read the u8 as a u32: the value byte plus the three padding
		 * bytes that follow it in the message (zero from every sane sender).  Bytes past
		 * the end of the request read as 0.
		 */
		const u8 *data = nla_data(attr), *end = (const u8 *)nlh + nlh->nlmsg_len;
		u32 value = 0;

		for (int i = 0; i < 4 && data + i < end; i++)
			value |= (u32)data[i] << (8 * i);
		*dst = (int)value;
	} else if (nla_type(attr) == ETHTOOL_A_PLCA_ENABLED) {
		*dst = nla_get_u8(attr);
	} else {
		*dst = (int)nla_get_u32(attr);
	}
	*mod = true;
}

/* ethnl_default_set_doit() + ethnl_set_plca(). */
static int ethnl_plca_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kfsim_plca_net *net = net_of(info->family);
	struct nlattr **tb = info->attrs;
	struct phy_plca_cfg cfg;
	struct net_device *dev;
	bool mod = false;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, ETHTOOL_A_PLCA_HEADER))
		return -EINVAL;
	ret = parse_header_dev_get(net, tb[ETHTOOL_A_PLCA_HEADER], true, &dev, info->extack);
	if (ret)
		return ret;
	if (!dev->phydev || !net->phy_ops || !net->phy_ops->set_plca_cfg)
		return -EOPNOTSUPP;
	memset(&cfg, 0xff, sizeof(cfg));
	plca_update_sint(&cfg.enabled, tb[ETHTOOL_A_PLCA_ENABLED], info->nlhdr, &mod);
	plca_update_sint(&cfg.node_id, tb[ETHTOOL_A_PLCA_NODE_ID], info->nlhdr, &mod);
	plca_update_sint(&cfg.node_cnt, tb[ETHTOOL_A_PLCA_NODE_CNT], info->nlhdr, &mod);
	plca_update_sint(&cfg.to_tmr, tb[ETHTOOL_A_PLCA_TO_TMR], info->nlhdr, &mod);
	plca_update_sint(&cfg.burst_cnt, tb[ETHTOOL_A_PLCA_BURST_CNT], info->nlhdr, &mod);
	plca_update_sint(&cfg.burst_tmr, tb[ETHTOOL_A_PLCA_BURST_TMR], info->nlhdr, &mod);
	if (!mod)
		return 0;	/* nothing to do: no notification either */
	ret = net->phy_ops->set_plca_cfg(dev->phydev, &cfg, info->extack);
	if (ret < 0)
		return ret;
	ethnl_plca_notify(net, dev);
	return 0;
}

/* The handlers the generated op table (ethtool-kernel.c, from specs/ethtool.yaml) calls. */
int ethtool_nl_plca_get_cfg_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ethnl_plca_get_doit(skb, info);
}

int ethtool_nl_plca_get_cfg_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ethnl_plca_dumpit(skb, cb);
}

int ethtool_nl_plca_set_cfg_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ethnl_plca_set_doit(skb, info);
}

int ethtool_nl_plca_get_status_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ethnl_plca_get_doit(skb, info);
}

int ethtool_nl_plca_get_status_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ethnl_plca_dumpit(skb, cb);
}

int kfsim_plca_register_family(struct kfsim_plca_net *net)
{
	net->family = (struct genl_family)ETHTOOL_NL_FAMILY_INIT;
	/* The kernel's value: strict handling from ETHTOOL_MSG_MODULE_GET + 1 on. */
	net->family.resv_start_op = ETHTOOL_MSG_MODULE_GET + 1;
	return kfsim_genl_register_family(net->nlk, &net->family);
}

u16 kfsim_plca_net_family_id(const struct kfsim_plca_net *net)
{
	return (u16)net->family.id;
}

u32 kfsim_plca_net_monitor_group(const struct kfsim_plca_net *net)
{
	return kfsim_genl_mcgrp_id(&net->family, 0);
}

struct kfsim_nl_kernel *kfsim_plca_net_kernel(struct kfsim_plca_net *net)
{
	return net->nlk;
}
