// SPDX-License-Identifier: MIT
/*
 * The ethtool genetlink family's PLCA operations in kfsim's in-process kernel
 * (net/ethtool/plca.c and the shared request path of net/ethtool/netlink.c, Linux 6.3).
 *
 * Request path (doit): the genetlink layer has validated the attributes against the op's
 * policy; the header must be present (missing: -EINVAL with MISS_TYPE); the device comes from
 * DEV_INDEX or DEV_NAME; then, under the PHY's lock, prepare_data fills a phy_plca_cfg that
 * starts as all -1, and fill_reply emits only the fields that are not -1 (STATUS always).
 * SET: no attribute besides the header is a no-op (ACK 0, no notification); otherwise
 * phy_ethtool_set_plca_cfg() either rejects the request before writing anything or applies it,
 * and every successful SET notifies the monitor group, changed or not.
 *
 * Kernel-version behaviour: before Linux 6.6 (commit 8957261cd814) the SET handler read the u8
 * ENABLED attribute with nla_get_u32(), so the three padding bytes after the value took part:
 * kfsim does the same when kfsim_kernel_version() < 6.6 and reads one byte from 6.6 on.
 */
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include "ethtool_plca_nl.h"

static const struct nla_policy ethnl_header_policy[] = {
	[ETHTOOL_A_HEADER_DEV_INDEX] = { .type = NLA_U32 },
	[ETHTOOL_A_HEADER_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ALTIFNAMSIZ - 1 },
	[ETHTOOL_A_HEADER_FLAGS] = NLA_POLICY_MASK(NLA_U32, ETHTOOL_FLAG_COMPACT_BITSETS |
						   ETHTOOL_FLAG_OMIT_REPLY),
};

const struct nla_policy ethnl_plca_get_cfg_policy[ETHTOOL_A_PLCA_HEADER + 1] = {
	[ETHTOOL_A_PLCA_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
};

const struct nla_policy ethnl_plca_get_status_policy[ETHTOOL_A_PLCA_HEADER + 1] = {
	[ETHTOOL_A_PLCA_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
};

const struct nla_policy ethnl_plca_set_cfg_policy[ETHTOOL_A_PLCA_MAX + 1] = {
	[ETHTOOL_A_PLCA_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[ETHTOOL_A_PLCA_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
	[ETHTOOL_A_PLCA_NODE_ID] = NLA_POLICY_MAX(NLA_U32, 255),
	[ETHTOOL_A_PLCA_NODE_CNT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
	[ETHTOOL_A_PLCA_TO_TMR] = NLA_POLICY_MAX(NLA_U32, 255),
	[ETHTOOL_A_PLCA_BURST_CNT] = NLA_POLICY_MAX(NLA_U32, 255),
	[ETHTOOL_A_PLCA_BURST_TMR] = NLA_POLICY_MAX(NLA_U32, 255),
};

int ethnl_parse_header_dev_get(struct kfsim_plca_net *net, const struct nlattr *header,
			       bool require_dev, struct net_device **devp,
			       struct netlink_ext_ack *extack)
{
	struct nlattr *tb[ETHTOOL_A_HEADER_MAX + 1];
	const struct nlattr *name_attr;
	struct net_device *dev = NULL;
	int ret;

	*devp = NULL;
	ret = nla_parse_strict(tb, ETHTOOL_A_HEADER_MAX, nla_data(header), nla_len(header),
			       ethnl_header_policy, extack);
	if (ret)
		return ret;
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

int plca_get_cfg_prepare_data(struct kfsim_plca_net *net, struct net_device *dev,
			      struct phy_plca_cfg *cfg)
{
	if (!dev->phydev || !net->phy_ops || !net->phy_ops->get_plca_cfg)
		return -EOPNOTSUPP;
	memset(cfg, 0xff, sizeof(*cfg));
	return net->phy_ops->get_plca_cfg(dev->phydev, cfg);
}

int plca_get_status_prepare_data(struct kfsim_plca_net *net, struct net_device *dev,
				 struct phy_plca_status *st)
{
	if (!dev->phydev || !net->phy_ops || !net->phy_ops->get_plca_status)
		return -EOPNOTSUPP;
	memset(st, 0xff, sizeof(*st));
	return net->phy_ops->get_plca_status(dev->phydev, st);
}

static int fill_reply_header(struct kfsim_nlbuf *buf, const struct net_device *dev)
{
	int nest = kfsim_nlbuf_nest_start(buf, ETHTOOL_A_PLCA_HEADER);

	if (nest < 0)
		return nest;
	if (kfsim_nlbuf_put_u32(buf, ETHTOOL_A_HEADER_DEV_INDEX, (u32)dev->ifindex) ||
	    kfsim_nlbuf_put_string(buf, ETHTOOL_A_HEADER_DEV_NAME, dev->name))
		return -EMSGSIZE;
	kfsim_nlbuf_nest_end(buf, nest);
	return 0;
}

int plca_get_cfg_fill_reply(struct kfsim_nlbuf *buf, const struct net_device *dev,
			    const struct phy_plca_cfg *cfg)
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
	int ret = fill_reply_header(buf, dev);

	if (ret)
		return ret;
	if (cfg->version >= 0 &&
	    kfsim_nlbuf_put_u16(buf, ETHTOOL_A_PLCA_VERSION, (u16)cfg->version))
		return -EMSGSIZE;
	if (cfg->enabled >= 0 && kfsim_nlbuf_put_u8(buf, ETHTOOL_A_PLCA_ENABLED, !!cfg->enabled))
		return -EMSGSIZE;
	for (size_t i = 0; i < ARRAY_SIZE(u32_fields); i++) {
		int value = *(const int *)((const char *)cfg + u32_fields[i].offset);

		if (value >= 0 && kfsim_nlbuf_put_u32(buf, u32_fields[i].type, (u32)value))
			return -EMSGSIZE;
	}
	return 0;
}

int plca_get_status_fill_reply(struct kfsim_nlbuf *buf, const struct net_device *dev,
			       const struct phy_plca_status *st)
{
	int ret = fill_reply_header(buf, dev);
	u8 raw;

	if (ret)
		return ret;
	/*
	 * prepare_data filled the status with 0xff, as the kernel does, so a driver that sets
	 * nothing reports "on".  Read the byte, not the bool: 0xff is not a valid C bool.
	 */
	memcpy(&raw, &st->pst, sizeof(raw));
	return kfsim_nlbuf_put_u8(buf, ETHTOOL_A_PLCA_STATUS, !!raw);
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

int ethnl_set_plca(struct kfsim_plca_net *net, struct net_device *dev, struct nlattr **tb,
		   const struct nlmsghdr *nlh, struct netlink_ext_ack *extack)
{
	struct phy_plca_cfg cfg;
	bool mod = false;
	int ret;

	if (!dev->phydev || !net->phy_ops || !net->phy_ops->set_plca_cfg)
		return -EOPNOTSUPP;
	memset(&cfg, 0xff, sizeof(cfg));
	plca_update_sint(&cfg.enabled, tb[ETHTOOL_A_PLCA_ENABLED], nlh, &mod);
	plca_update_sint(&cfg.node_id, tb[ETHTOOL_A_PLCA_NODE_ID], nlh, &mod);
	plca_update_sint(&cfg.node_cnt, tb[ETHTOOL_A_PLCA_NODE_CNT], nlh, &mod);
	plca_update_sint(&cfg.to_tmr, tb[ETHTOOL_A_PLCA_TO_TMR], nlh, &mod);
	plca_update_sint(&cfg.burst_cnt, tb[ETHTOOL_A_PLCA_BURST_CNT], nlh, &mod);
	plca_update_sint(&cfg.burst_tmr, tb[ETHTOOL_A_PLCA_BURST_TMR], nlh, &mod);
	if (!mod)
		return 0;
	ret = net->phy_ops->set_plca_cfg(dev->phydev, &cfg, extack);
	return ret < 0 ? ret : 1;
}
