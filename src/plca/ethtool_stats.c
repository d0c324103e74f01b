// SPDX-License-Identifier: MIT
/*
 * STATS_GET (net/ethtool/stats.c; read in 6.12, answers checked against the running 6.18): the
 * standard statistics groups of a device whose MAC driver has no get_eth_phy_stats,
 * get_eth_mac_stats, get_eth_ctrl_stats or get_rmon_stats, and whose PHY driver has no
 * get_phy_stats: every counter stays ETHTOOL_STAT_NOT_SET and is left out, so each group asked
 * for is a GRP nest of its ID and its string set's ID alone.
 *
 *   parse_request: GROUPS is a bitset of the group names ("eth-phy", "eth-mac", "eth-ctrl",
 *     "rmon", from 6.13 "phydev"; ethnl_update_bitset()'s errors); none set is -EINVAL "no
 *     stats requested"; SRC (aggregate, eMAC, pMAC) defaults to aggregate.
 *   prepare_data: the header's PHY_INDEX must name a PHY of the device (6.11); an eMAC or pMAC
 *     source needs the MAC merge layer, which no simulated device has: -EOPNOTSUPP "Device
 *     does not support MAC merge layer" (NL_SET_ERR_MSG_MOD: "ethtool: " in front).
 *   reply: SRC, then one GRP per group asked for, in group order.
 * A dump answers every device so.
 */
#include <kfsim/cmdline.h>
#include <kfsim/netlink.h>
#include "plca_internal.h"

enum {
	ETHTOOL_A_STATS_HEADER = 2,
	ETHTOOL_A_STATS_GROUPS = 3,
	ETHTOOL_A_STATS_GRP = 4,
	ETHTOOL_A_STATS_SRC = 5,
	ETHTOOL_A_STATS_GRP_ID = 2,
	ETHTOOL_A_STATS_GRP_SS_ID = 3,
};
#define ETHTOOL_MSG_STATS_GET_REPLY 33
#define ETHTOOL_MAC_STATS_SRC_AGGREGATE 0

static int stats_parse_request(struct plca_req_info *req, struct nlattr **tb,
			       struct netlink_ext_ack *extack)
{
	u32 mask[ETHNL_BITSET32_MAX_WORDS] = {0};
	bool mod = false;
	int err;

	err = ethnl_update_bitset32(mask, ethnl_stats_std_count(), tb[ETHTOOL_A_STATS_GROUPS],
				    ethnl_stats_std_names, extack, &mod);
	if (err)
		return err;
	if (!mod) {
		NL_SET_ERR_MSG(extack, "no stats requested");
		return -EINVAL;
	}
	req->stat_mask = mask[0];
	req->stats_src = tb[ETHTOOL_A_STATS_SRC] ? nla_get_u32(tb[ETHTOOL_A_STATS_SRC])
						 : ETHTOOL_MAC_STATS_SRC_AGGREGATE;
	return 0;
}

static int stats_prepare_data(struct kfsim_plca_net *net, const struct plca_req_info *req,
			      const struct nlattr *header, union ethnl_reply_data *data,
			      struct netlink_ext_ack *extack)
{
	struct phy_device *phydev = ethnl_req_get_phydev(req, header, extack);

	if (IS_ERR(phydev))
		return (int)PTR_ERR(phydev);
	/* __ethtool_dev_mm_supported(): no get_mm */
	if (req->stats_src != ETHTOOL_MAC_STATS_SRC_AGGREGATE) {
		NL_SET_ERR_MSG(extack, "ethtool: Device does not support MAC merge layer");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int stats_fill_reply(struct sk_buff *skb, const struct kfsim_plca_net *net,
			    const struct plca_req_info *req, const union ethnl_reply_data *data)
{
	/* the groups' string sets: eth-phy, eth-mac, eth-ctrl, rmon, phydev */
	static const u32 ss_ids[] = {ETH_SS_STATS_ETH_PHY, ETH_SS_STATS_ETH_MAC,
				     ETH_SS_STATS_ETH_CTRL, ETH_SS_STATS_RMON, ETH_SS_STATS_PHY};

	if (nla_put_u32(skb, ETHTOOL_A_STATS_SRC, req->stats_src))
		return -EMSGSIZE;
	for (u32 id = 0; id < ethnl_stats_std_count(); id++) {
		struct nlattr *nest;

		if (!(req->stat_mask & (1u << id)))
			continue;
		nest = nla_nest_start(skb, ETHTOOL_A_STATS_GRP);
		if (!nest)
			return -EMSGSIZE;
		if (nla_put_u32(skb, ETHTOOL_A_STATS_GRP_ID, id) ||
		    nla_put_u32(skb, ETHTOOL_A_STATS_GRP_SS_ID, ss_ids[id])) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, nest);
	}
	return 0;
}

const struct ethnl_request_ops ethnl_stats_request_ops = {
	.reply_cmd = ETHTOOL_MSG_STATS_GET_REPLY,
	.hdr_attr = ETHTOOL_A_STATS_HEADER,
	.parse_request = stats_parse_request,
	.prepare_data = stats_prepare_data,
	.fill_reply = stats_fill_reply,
};
