// SPDX-License-Identifier: MIT
/*
 * A simulated device's netdev features, and FEATURES_GET, FEATURES_SET and FEATURES_NTF
 * (net/ethtool/features.c, net/core/dev.c; read in 6.12, answers checked against the running
 * 6.18).
 *
 * The device's MAC driver (a PLCA MAC-PHY such as lan865x, 6.12) declares no features, so
 * register_netdevice() gives it only the software ones: hw_features GSO, GRO (the soft
 * features), GRO_FRAGLIST, GRO_UDP_FWD (off by default) and NOCACHE_COPY (every device but a
 * loopback); features GSO and GRO, wanted the same.  __netdev_update_features() then drops GSO,
 * which needs SG (netdev_fix_features(): "Software GSO depends on SG"): ethtool -k shows
 * "generic-segmentation-offload: off [requested on]".
 *
 * FEATURES_SET (ethnl_set_features()): WANTED is required (-EINVAL without a message, before
 * the header is looked at); the header names the device; WANTED is a bitset of the 64 feature
 * names (ethnl_parse_bitset(): its errors, e.g. "bit name not found"); a bit outside
 * NETIF_F_ETHTOOL_BITS (VLAN_CHALLENGED, NETIF_F_NEVER_CHANGE) is "attempt to change non-ethtool
 * features".  The wanted bits the device can change (hw_features) are taken, the rest kept;
 * __netdev_update_features() recomputes the active set.  Unless ETHTOOL_FLAG_OMIT_REPLY, the
 * reply (FEATURES_SET_REPLY) carries WANTED: what was asked for and did not come out so, and
 * ACTIVE: what changed, each a value/mask bitset.  A change of the active set notifies the
 * monitor group (netdev_features_change() -> NETDEV_FEAT_CHANGE -> FEATURES_NTF: the GET reply,
 * compact bitsets).
 *
 * Bits are 6.18's (NETDEV_FEATURE_COUNT 64: LLTX and NETNS_LOCAL gone by 6.12,
 * GSO_ACCECN after 6.12, in 6.18: 6.12 numbers the features after GSO_FRAGLIST one lower); older
 * releases' numbering is not modelled.
 */
#include <string.h>

#include <kfsim/netlink.h>
#include "plca_internal.h"

enum {
	ETHTOOL_A_FEATURES_HEADER = 1,
	ETHTOOL_A_FEATURES_HW = 2,
	ETHTOOL_A_FEATURES_WANTED = 3,
	ETHTOOL_A_FEATURES_ACTIVE = 4,
	ETHTOOL_A_FEATURES_NOCHANGE = 5,
};
#define ETHTOOL_MSG_FEATURES_GET_REPLY 11
#define ETHTOOL_MSG_FEATURES_SET_REPLY 12
#define ETHTOOL_MSG_FEATURES_NTF 13

/* The NETIF_F_* bits (6.18's numbers) the rules below look at. */
#define NETIF_F(bit) (1ULL << (bit))
#define NETIF_F_SG NETIF_F(0)
#define NETIF_F_IP_CSUM NETIF_F(1)
#define NETIF_F_HW_CSUM NETIF_F(3)
#define NETIF_F_IPV6_CSUM NETIF_F(4)
#define NETIF_F_VLAN_CHALLENGED NETIF_F(10)
#define NETIF_F_GSO NETIF_F(11)
#define NETIF_F_GRO NETIF_F(14)
#define NETIF_F_LRO NETIF_F(15)
#define NETIF_F_TSO NETIF_F(16)
#define NETIF_F_TSO_ECN NETIF_F(18)
#define NETIF_F_TSO_MANGLEID NETIF_F(19)
#define NETIF_F_TSO6 NETIF_F(20)
#define NETIF_F_GSO_UDP_L4 NETIF_F(33)
#define NETIF_F_RXCSUM NETIF_F(40)
#define NETIF_F_NOCACHE_COPY NETIF_F(41)
#define NETIF_F_RXFCS NETIF_F(43)
#define NETIF_F_HW_TLS_TX NETIF_F(53)
#define NETIF_F_HW_TLS_RX NETIF_F(54)
#define NETIF_F_GRO_HW NETIF_F(55)
#define NETIF_F_GRO_FRAGLIST NETIF_F(57)
#define NETIF_F_GRO_UDP_FWD NETIF_F(59)
#define NETIF_F_ALL_TSO (NETIF_F_TSO | NETIF_F_TSO6 | NETIF_F_TSO_ECN | NETIF_F_TSO_MANGLEID)
#define NETIF_F_SOFT_FEATURES (NETIF_F_GSO | NETIF_F_GRO)
#define NETIF_F_SOFT_FEATURES_OFF (NETIF_F_GRO_FRAGLIST | NETIF_F_GRO_UDP_FWD)
#define NETIF_F_NEVER_CHANGE NETIF_F_VLAN_CHALLENGED
#define NETIF_F_ETHTOOL_BITS (~0ULL & ~NETIF_F_NEVER_CHANGE) /* all 64 bits but those */

/* netdev_fix_features(): the dependencies between features a driver cannot break. */
static u64 netdev_fix_features(u64 features)
{
	bool ip_or_hw_csum;

	if ((features & NETIF_F_HW_CSUM) && (features & (NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM)))
		features &= ~(NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM);
	if ((features & NETIF_F_ALL_TSO) && !(features & NETIF_F_SG))
		features &= ~NETIF_F_ALL_TSO;
	if ((features & NETIF_F_TSO) && !(features & NETIF_F_HW_CSUM) &&
	    !(features & NETIF_F_IP_CSUM))
		features &= ~(NETIF_F_TSO | NETIF_F_TSO_ECN);
	if ((features & NETIF_F_TSO6) && !(features & NETIF_F_HW_CSUM) &&
	    !(features & NETIF_F_IPV6_CSUM))
		features &= ~NETIF_F_TSO6;
	if ((features & NETIF_F_TSO_MANGLEID) && !(features & NETIF_F_TSO))
		features &= ~NETIF_F_TSO_MANGLEID;
	if ((features & NETIF_F_ALL_TSO) == NETIF_F_TSO_ECN)
		features &= ~NETIF_F_TSO_ECN;
	if ((features & NETIF_F_GSO) && !(features & NETIF_F_SG))
		features &= ~NETIF_F_GSO;
	if (!(features & NETIF_F_RXCSUM) && (features & NETIF_F_GRO_HW))
		features &= ~NETIF_F_GRO_HW;
	if ((features & NETIF_F_RXFCS) && (features & NETIF_F_LRO))
		features &= ~NETIF_F_LRO;
	if ((features & NETIF_F_RXFCS) && (features & NETIF_F_GRO_HW))
		features &= ~NETIF_F_GRO_HW;
	if ((features & NETIF_F_GRO_HW) && (features & NETIF_F_LRO))
		features &= ~NETIF_F_LRO;
	ip_or_hw_csum = features & (NETIF_F_HW_CSUM | NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM);
	if ((features & NETIF_F_HW_TLS_TX) && !ip_or_hw_csum)
		features &= ~NETIF_F_HW_TLS_TX;
	if ((features & NETIF_F_HW_TLS_RX) && !(features & NETIF_F_RXCSUM))
		features &= ~NETIF_F_HW_TLS_RX;
	if ((features & NETIF_F_GSO_UDP_L4) && !ip_or_hw_csum)
		features &= ~NETIF_F_GSO_UDP_L4;
	return features;
}

/*
 * __netdev_update_features() of a device without upper or lower devices, ndo_fix_features or
 * ndo_set_features: the wanted features, fixed, become the active ones.  Return: whether they
 * changed.
 */
static bool netdev_update_features(struct net_device *dev)
{
	u64 wanted = (dev->features & ~dev->hw_features) | dev->wanted_features;
	u64 features = netdev_fix_features(wanted);

	if (features == dev->features)
		return false;
	dev->features = features;
	return true;
}

void netdev_register_features(struct net_device *dev)
{
	dev->hw_features |= NETIF_F_SOFT_FEATURES | NETIF_F_SOFT_FEATURES_OFF;
	dev->features |= NETIF_F_SOFT_FEATURES;
	dev->wanted_features = dev->features & dev->hw_features;
	dev->hw_features |= NETIF_F_NOCACHE_COPY; /* not a loopback device */
	netdev_update_features(dev);
}

static void to_words(u32 *dst, u64 features)
{
	dst[0] = (u32)features;
	dst[1] = (u32)(features >> 32);
}

static u64 from_words(const u32 *src)
{
	return src[0] | (u64)src[1] << 32;
}

static int features_prepare_data(struct kfsim_plca_net *net, const struct plca_req_info *req,
				 const struct nlattr *header, union ethnl_reply_data *data,
				 struct netlink_ext_ack *extack)
{
	to_words(data->features.hw, req->dev->hw_features);
	to_words(data->features.wanted, req->dev->wanted_features);
	to_words(data->features.active, req->dev->features);
	to_words(data->features.nochange, NETIF_F_NEVER_CHANGE);
	to_words(data->features.all, ~0ULL);
	return 0;
}

/* features_fill_reply(): HW as a value/mask pair over all features, the others as lists. */
static int features_fill_reply(struct sk_buff *skb, const struct kfsim_plca_net *net,
			       const struct plca_req_info *req, const union ethnl_reply_data *data)
{
	bool compact = req->flags & ETHTOOL_FLAG_COMPACT_BITSETS;
	const char (*names)[ETH_GSTRING_LEN] = ethnl_features_names;

	if (ethnl_put_bitset32_mask(skb, ETHTOOL_A_FEATURES_HW, data->features.hw,
				    data->features.all, NETDEV_FEATURE_COUNT, names, compact) ||
	    ethnl_put_bitset32(skb, ETHTOOL_A_FEATURES_WANTED, data->features.wanted,
			       NETDEV_FEATURE_COUNT, names, compact) ||
	    ethnl_put_bitset32(skb, ETHTOOL_A_FEATURES_ACTIVE, data->features.active,
			       NETDEV_FEATURE_COUNT, names, compact) ||
	    ethnl_put_bitset32(skb, ETHTOOL_A_FEATURES_NOCHANGE, data->features.nochange,
			       NETDEV_FEATURE_COUNT, names, compact))
		return -EMSGSIZE;
	return 0;
}

const struct ethnl_request_ops ethnl_features_request_ops = {
	.reply_cmd = ETHTOOL_MSG_FEATURES_GET_REPLY,
	.prepare_data = features_prepare_data,
	.fill_reply = features_fill_reply,
};

/*
 * ethnl_default_notify() of FEATURES_NTF: the GET reply's content with compact bitsets, to the
 * monitor group, with the next broadcast sequence number.
 */
static void ethnl_features_notify(struct kfsim_plca_net *net, struct net_device *dev)
{
	struct plca_req_info req = {.dev = dev, .flags = ETHTOOL_FLAG_COMPACT_BITSETS};
	union ethnl_reply_data data;
	struct sk_buff *skb;

	features_prepare_data(net, &req, NULL, &data, NULL);
	skb = genlmsg_new(GENLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (ethnl_fill_msg(skb, net, ETHTOOL_MSG_FEATURES_NTF, 0, ++net->bcast_seq, 0,
			   &ethnl_features_request_ops, &req, &data)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_multicast(&net->family, skb, 0, 0, GFP_KERNEL);
}

/* features_send_reply(): WANTED and ACTIVE as value/mask bitsets. */
static int features_send_reply(struct kfsim_plca_net *net, struct genl_info *info,
			       const struct plca_req_info *req, const u32 *wanted,
			       const u32 *wanted_mask, const u32 *active, const u32 *active_mask)
{
	bool compact = req->flags & ETHTOOL_FLAG_COMPACT_BITSETS;
	struct sk_buff *rskb = genlmsg_new(GENLMSG_DEFAULT_SIZE, GFP_KERNEL);
	void *hdr;

	if (!rskb) {
		GENL_SET_ERR_MSG(info, "failed to send reply message");
		return -ENOMEM;
	}
	hdr = genlmsg_put(rskb, info->snd_portid, info->snd_seq, &net->family, 0,
			  ETHTOOL_MSG_FEATURES_SET_REPLY);
	if (!hdr || ethnl_fill_reply_header(rskb, req->dev, ETHTOOL_A_FEATURES_HEADER) ||
	    ethnl_put_bitset32_mask(rskb, ETHTOOL_A_FEATURES_WANTED, wanted, wanted_mask,
				    NETDEV_FEATURE_COUNT, ethnl_features_names, compact) ||
	    ethnl_put_bitset32_mask(rskb, ETHTOOL_A_FEATURES_ACTIVE, active, active_mask,
				    NETDEV_FEATURE_COUNT, ethnl_features_names, compact)) {
		nlmsg_free(rskb);
		GENL_SET_ERR_MSG(info, "failed to send reply message");
		return -EMSGSIZE;
	}
	genlmsg_end(rskb, hdr);
	return genlmsg_reply(rskb, info);
}

int ethnl_set_features(struct sk_buff *skb, struct genl_info *info)
{
	struct kfsim_plca_net *net = ethnl_net_of(info->family);
	u32 req_wanted[2], req_mask[2], words[2];
	u32 wanted_diff[2], active_diff[2], new_active[2];
	u64 old_active, old_wanted, wanted, mask;
	struct plca_req_info req;
	struct net_device *dev;
	int ret;

	if (!info->attrs[ETHTOOL_A_FEATURES_WANTED])
		return -EINVAL;
	ret = ethnl_parse_header_dev_get(net, info->attrs[ETHTOOL_A_FEATURES_HEADER], true, &req,
					 info->extack);
	if (ret < 0)
		return ret;
	dev = req.dev;
	old_active = dev->features;
	old_wanted = dev->wanted_features;
	ret = ethnl_parse_bitset32(req_wanted, req_mask, NETDEV_FEATURE_COUNT,
				   info->attrs[ETHTOOL_A_FEATURES_WANTED], ethnl_features_names,
				   info->extack);
	if (ret < 0)
		return ret;
	mask = from_words(req_mask);
	if (mask & ~NETIF_F_ETHTOOL_BITS) {
		GENL_SET_ERR_MSG(info, "attempt to change non-ethtool features");
		return -EINVAL;
	}
	/* the bits asked for, the others as they were wanted */
	wanted = (from_words(req_wanted) & mask) | (old_wanted & ~mask);
	if (wanted != old_wanted) {
		dev->wanted_features &= ~dev->hw_features;
		dev->wanted_features |= wanted & dev->hw_features;
		netdev_update_features(dev);
	}
	ret = 0;
	if (!(req.flags & ETHTOOL_FLAG_OMIT_REPLY)) {
		/* WANTED: asked for and not so; ACTIVE: what changed, with its new value */
		to_words(wanted_diff, (wanted ^ dev->features) & mask);
		to_words(words, wanted & from_words(wanted_diff));
		to_words(active_diff, old_active ^ dev->features);
		to_words(new_active, dev->features & from_words(active_diff));
		ret = features_send_reply(net, info, &req, words, wanted_diff, new_active,
					  active_diff);
	}
	if (dev->features != old_active)
		ethnl_features_notify(net, dev);
	return ret;
}
