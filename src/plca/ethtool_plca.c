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

/*
 * ethnl_req_get_phydev(): the device's PHY, or the one PHY_INDEX names in its link topology.
 * A simulated device has at most one PHY, attached first, so its index is 1
 * (phy_link_topo_add_phy() allocates from 1).  An index naming no PHY sets "no phy matching
 * phyindex" at the request's HEADER attribute (when there is one: notifications have none) and
 * is -ENODEV; the PLCA callers turn every failure here into -EOPNOTSUPP.
 */
struct phy_device *ethnl_req_get_phydev(const struct plca_req_info *req,
					   const struct nlattr *header,
					   struct netlink_ext_ack *extack)
{
	if (!req->dev)
		return NULL;
	if (!req->phy_index)
		return req->dev->phydev;
	if (req->phy_index == 1 && req->dev->phydev)
		return req->dev->phydev;
	if (!header)
		return NULL;
	NL_SET_ERR_MSG_ATTR(extack, header, "no phy matching phyindex");
	return ERR_PTR(-ENODEV);
}

/* prepare_data of either GET: all fields -1 (0xff bytes), then what the driver says. */
static int plca_prepare_data(struct kfsim_plca_net *net, const struct plca_req_info *req,
			     const struct nlattr *header, bool status,
			     union ethnl_reply_data *data, struct netlink_ext_ack *extack)
{
	const struct ethtool_phy_ops *ops = net->phy_ops;
	struct phy_device *phydev = ethnl_req_get_phydev(req, header, extack);

	if (IS_ERR_OR_NULL(phydev) || !ops)
		return -EOPNOTSUPP;
	if (status) {
		if (!ops->get_plca_status)
			return -EOPNOTSUPP;
		memset(&data->plca_status, 0xff, sizeof(data->plca_status));
		return ops->get_plca_status(phydev, &data->plca_status);
	}
	if (!ops->get_plca_cfg)
		return -EOPNOTSUPP;
	memset(&data->plca_cfg, 0xff, sizeof(data->plca_cfg));
	return ops->get_plca_cfg(phydev, &data->plca_cfg);
}

static int plca_get_cfg_prepare_data(struct kfsim_plca_net *net, const struct plca_req_info *req,
				     const struct nlattr *header, union ethnl_reply_data *data,
				     struct netlink_ext_ack *extack)
{
	return plca_prepare_data(net, req, header, false, data, extack);
}

static int plca_get_status_prepare_data(struct kfsim_plca_net *net,
					const struct plca_req_info *req,
					const struct nlattr *header, union ethnl_reply_data *data,
					struct netlink_ext_ack *extack)
{
	return plca_prepare_data(net, req, header, true, data, extack);
}

/* fill_reply of GET_CFG (and of the notification): only the fields that are not -1. */
static int plca_get_cfg_fill_reply(struct sk_buff *skb, const struct kfsim_plca_net *net,
				   const struct plca_req_info *req,
				   const union ethnl_reply_data *data)
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
	const struct phy_plca_cfg *cfg = &data->plca_cfg;

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

static int plca_get_status_fill_reply(struct sk_buff *skb, const struct kfsim_plca_net *net,
				      const struct plca_req_info *req,
				      const union ethnl_reply_data *data)
{
	u8 raw;

	/*
	 * prepare_data filled the status with 0xff, as the kernel does, so a driver that sets
	 * nothing reports "on".  Read the byte, not the bool: 0xff is not a valid C bool.
	 */
	memcpy(&raw, &data->plca_status.pst, sizeof(raw));
	return nla_put_u8(skb, ETHTOOL_A_PLCA_STATUS, !!raw);
}

/* ethnl_plca_cfg_request_ops and ethnl_plca_status_request_ops */
static const struct ethnl_request_ops plca_cfg_request_ops = {
	.reply_cmd = ETHTOOL_MSG_PLCA_GET_CFG_REPLY,
	.prepare_data = plca_get_cfg_prepare_data,
	.fill_reply = plca_get_cfg_fill_reply,
};

static const struct ethnl_request_ops plca_status_request_ops = {
	.reply_cmd = ETHTOOL_MSG_PLCA_GET_STATUS_REPLY,
	.prepare_data = plca_get_status_prepare_data,
	.fill_reply = plca_get_status_fill_reply,
};

/*
 * ethtool_notify(dev, ETHTOOL_MSG_PLCA_NTF) -> ethnl_default_notify(): GET_CFG's content to the
 * monitor group.  ethnl_bcastmsg_put() takes the sequence number (++ethnl_bcast_seq) only once
 * the data is prepared and the message allocated: a notification that is never built uses none.
 * It is taken whether or not anybody listens.
 */
static void ethnl_plca_notify(struct kfsim_plca_net *net, struct net_device *dev)
{
	struct plca_req_info req = { dev, 0, 0 };
	union ethnl_reply_data data;
	struct sk_buff *skb;

	if (plca_get_cfg_prepare_data(net, &req, NULL, &data, NULL) < 0)
		return;
	skb = genlmsg_new(GENLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (ethnl_fill_msg(skb, net, ETHTOOL_MSG_PLCA_NTF, 0, ++net->bcast_seq, 0,
			   &plca_cfg_request_ops, &req, &data)) {
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
		 * bytes that follow it in the message.  libmnl (so real ethtool) leaves that
		 * padding unzeroed, and "enable off" then reads as on.  Bytes past the end of the
		 * request read as 0.
		 */
		const u8 *data = nla_data(attr), *end = (const u8 *)nlh + nlh->nlmsg_len;
		u32 value = 0;

		for (int i = 0; i < 4 && data + i < end; i++)
			value |= (u32)data[i] << (8 * i);
		if (value > 0xff && !(value & 0xff))
			pr_warn_once("ethtool: PLCA 'enable off' read as on: this kernel (6.3-6.5) "
				     "reads the u8 ENABLED with its unzeroed padding, as libmnl sends "
				     "it; fixed in 6.6 by commit 8957261cd814 (kfsim --kver 6.6)\n");
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
	struct kfsim_plca_net *net = ethnl_net_of(info->family);
	struct nlattr **tb = info->attrs;
	struct plca_req_info req;
	struct phy_device *phydev;
	struct phy_plca_cfg cfg;
	bool mod = false;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, ETHTOOL_A_PLCA_HEADER))
		return -EINVAL;
	ret = ethnl_parse_header_dev_get(net, tb[ETHTOOL_A_PLCA_HEADER], true, &req, info->extack);
	if (ret)
		return ret;
	phydev = ethnl_req_get_phydev(&req, tb[ETHTOOL_A_PLCA_HEADER], info->extack);
	if (IS_ERR_OR_NULL(phydev) || !net->phy_ops || !net->phy_ops->set_plca_cfg)
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
	ret = net->phy_ops->set_plca_cfg(phydev, &cfg, info->extack);
	if (ret < 0)
		return ret;
	ethnl_plca_notify(net, req.dev);
	return 0;
}

/* The handlers the generated op table (ethtool-kernel.c, from specs/ethtool.yaml) calls. */
int ethtool_nl_plca_get_cfg_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ethnl_default_doit(info, &plca_cfg_request_ops);
}

int ethtool_nl_plca_get_cfg_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ethnl_default_dumpit(skb, cb, &plca_cfg_request_ops);
}

int ethtool_nl_plca_set_cfg_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ethnl_plca_set_doit(skb, info);
}

int ethtool_nl_plca_get_status_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ethnl_default_doit(info, &plca_status_request_ops);
}

int ethtool_nl_plca_get_status_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ethnl_default_dumpit(skb, cb, &plca_status_request_ops);
}

/* ethnl_default_start() with the ops of the dump's command. */
static int plca_dump_start(struct netlink_callback *cb)
{
	return ethnl_default_start(cb, genl_info_dump(cb)->genlhdr->cmd == ETHTOOL_MSG_PLCA_GET_CFG ?
					       &plca_cfg_request_ops : &plca_status_request_ops);
}

/*
 * Before 6.11 the header policy ended at FLAGS (maxtype 3): PHY_INDEX is an unknown attribute
 * to the nested validation, which runs before any attribute after the header is looked at, and
 * the policy dump says so.  The generated tables follow the current spec (maxtype 4); these are
 * the 6.3 ones the ops point to when the family is registered at an older release.
 */
static const struct nla_policy header_policy_6_3[ETHTOOL_A_HEADER_MAX + 1] = {
	[ETHTOOL_A_HEADER_DEV_INDEX] = { .type = NLA_U32 },
	[ETHTOOL_A_HEADER_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ALTIFNAMSIZ - 1 },
	[ETHTOOL_A_HEADER_FLAGS] = NLA_POLICY_MASK(NLA_U32, ETHTOOL_FLAG_COMPACT_BITSETS |
							    ETHTOOL_FLAG_OMIT_REPLY),
};

static const struct nla_policy get_policy_6_3[ETHTOOL_A_PLCA_HEADER + 1] = {
	[ETHTOOL_A_PLCA_HEADER] = NLA_POLICY_NESTED(header_policy_6_3),
};

static const struct nla_policy set_cfg_policy_6_3[ETHTOOL_A_PLCA_MAX + 1] = {
	[ETHTOOL_A_PLCA_HEADER] = NLA_POLICY_NESTED(header_policy_6_3),
	[ETHTOOL_A_PLCA_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
	[ETHTOOL_A_PLCA_NODE_CNT] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
	[ETHTOOL_A_PLCA_NODE_ID] = NLA_POLICY_MAX(NLA_U32, 255),
	[ETHTOOL_A_PLCA_TO_TMR] = NLA_POLICY_MAX(NLA_U32, 255),
	[ETHTOOL_A_PLCA_BURST_CNT] = NLA_POLICY_MAX(NLA_U32, 255),
	[ETHTOOL_A_PLCA_BURST_TMR] = NLA_POLICY_MAX(NLA_U32, 255),
};

int kfsim_plca_register_family(struct kfsim_plca_net *net)
{
	const size_t nr = ARRAY_SIZE(ethtool_nl_ops);

	net->family = (struct genl_family)ETHTOOL_NL_FAMILY_INIT;
	/* The kernel's value: strict handling from ETHTOOL_MSG_MODULE_GET + 1 on. */
	net->family.resv_start_op = ETHTOOL_MSG_MODULE_GET + 1;
	memcpy(net->ops, ethtool_nl_ops, sizeof(ethtool_nl_ops));
	/*
	 * The kernel's hand-written op table gives every ethtool dump .start =
	 * ethnl_default_start: the header is parsed there, so its errors are an NLMSG_ERROR with
	 * the offset, not an error inside NLMSG_DONE.  (The spec has no such hook to generate.)
	 */
	for (size_t i = 0; i < nr; i++)
		if (net->ops[i].flags & GENL_CMD_CAP_DUMP)
			net->ops[i].start = plca_dump_start;
	if (!kfsim_kernel_at_least(6, 11)) {
		for (size_t i = 0; i < nr; i++)
			net->ops[i].policy = net->ops[i].cmd == ETHTOOL_MSG_PLCA_SET_CFG ?
					     set_cfg_policy_6_3 : get_policy_6_3;
	}
	net->family.split_ops = net->ops;
	net->family.n_split_ops = (u8)ethtool_default_ops_add(net, (int)nr);
	return kfsim_genl_register_family(kfsim_net_nl(net->ns), &net->family);
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
	return kfsim_net_nl(net->ns);
}
