// SPDX-License-Identifier: MIT
/*
 * STRSET_GET (net/ethtool/strset.c; read in 6.12, every table and answer checked against the
 * running 6.18): the names behind the bits and counters of other requests.
 *
 * Global sets (features, rss-hash-funcs, tunables, phy-tunables, link modes, msg classes, WoL
 * modes, SOF_TIMESTAMPING flags, time stamping tx types and rx filters, UDP tunnel types, the
 * standard statistics' groups and names) are the kernel's tables; per-device sets (TEST, STATS,
 * PRIV_FLAGS, PHY_STATS) come from the driver.  A simulated device has no MAC driver
 * ethtool_ops, and its PHY drivers keep no statistics (phy_ethtool_get_sset_count():
 * -EOPNOTSUPP), so each of its sets counts 0 and is left out of the reply.
 *   doit, header naming no device: the global sets (all, or those asked for); a per-device
 *         set asked for is -EINVAL "requested per device strings without dev";
 *   doit, header naming a device: its per-device sets (or those asked for; a global one asked
 *         for comes from the table);
 *   dump: every device, as the doit with that device.
 * An id past ETH_SS_COUNT is -EOPNOTSUPP "unknown string set id"; NTUPLE_FILTERS (3), which
 * has no table, makes the reply -EOPNOTSUPP when asked for (strset_fill_set()).
 *
 * Releases: the tables are 6.18's (features 64 bits, tx-tcp-accecn-segmentation among them;
 * 121 link modes; the stats groups with "phydev"; ETH_SS_STATS_PHY and ETH_SS_TS_FLAGS), read
 * from the running kernel's own answer.  6.12's ETH_SS_COUNT is 21 (to STATS_RMON) and its link
 * modes 103: the last two sets, the "phydev" group and the 18 newer link modes are answered
 * from 6.13 here (between 6.12 and 6.18: the releases they came in are not checked); the
 * SOF_TIMESTAMPING names follow ethtool_tsinfo.c's releases.  The feature bits' renumbering
 * (LLTX and NETNS_LOCAL gone by 6.12, GSO_ACCECN added after 6.12) is not modelled: an older
 * --kver gets 6.18's features table.
 */
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/netlink.h>
#include "plca_internal.h"

enum {
	ETHTOOL_A_STRSET_STRINGSETS = 2,
	ETHTOOL_A_STRSET_COUNTS_ONLY = 3,
	ETHTOOL_A_STRINGSETS_STRINGSET = 1,
	ETHTOOL_A_STRINGSET_ID = 1,
	ETHTOOL_A_STRINGSET_COUNT = 2,
	ETHTOOL_A_STRINGSET_STRINGS = 3,
	ETHTOOL_A_STRINGS_STRING = 1,
	ETHTOOL_A_STRING_INDEX = 1,
	ETHTOOL_A_STRING_VALUE = 2,
};
#define ETHTOOL_MSG_STRSET_GET_REPLY 1
#define ETH_SS_LINK_MODES 9
#define ETH_SS_SOF_TIMESTAMPING 12
#define ETH_SS_COUNT_6_12 21
#define ETH_SS_COUNT_6_18 23

/* The tables, by ETH_SS_* id (6.18's). */
const char ethnl_features_names[NETDEV_FEATURE_COUNT][ETH_GSTRING_LEN] = {
	"tx-scatter-gather", "tx-checksum-ipv4", "", "tx-checksum-ip-generic", "tx-checksum-ipv6",
	"highdma", "tx-scatter-gather-fraglist", "tx-vlan-hw-insert", "rx-vlan-hw-parse",
	"rx-vlan-filter", "vlan-challenged", "tx-generic-segmentation", "", "", "rx-gro", "rx-lro",
	"tx-tcp-segmentation", "tx-gso-robust", "tx-tcp-ecn-segmentation",
	"tx-tcp-mangleid-segmentation", "tx-tcp6-segmentation", "tx-fcoe-segmentation",
	"tx-gre-segmentation", "tx-gre-csum-segmentation", "tx-ipxip4-segmentation",
	"tx-ipxip6-segmentation", "tx-udp_tnl-segmentation", "tx-udp_tnl-csum-segmentation",
	"tx-gso-partial", "tx-tunnel-remcsum-segmentation", "tx-sctp-segmentation",
	"tx-esp-segmentation", "", "tx-udp-segmentation", "tx-gso-list", "tx-tcp-accecn-segmentation",
	"tx-checksum-fcoe-crc", "tx-checksum-sctp", "rx-ntuple-filter", "rx-hashing", "rx-checksum",
	"tx-nocache-copy", "loopback", "rx-fcs", "rx-all", "tx-vlan-stag-hw-insert",
	"rx-vlan-stag-hw-parse", "rx-vlan-stag-filter", "l2-fwd-offload", "hw-tc-offload",
	"esp-hw-offload", "esp-tx-csum-hw-offload", "rx-udp_tunnel-port-offload", "tls-hw-tx-offload",
	"tls-hw-rx-offload", "rx-gro-hw", "tls-hw-record", "rx-gro-list", "macsec-hw-offload",
	"rx-udp-gro-forwarding", "hsr-tag-ins-offload", "hsr-tag-rm-offload", "hsr-fwd-offload",
	"hsr-dup-offload",
};

static const char ethnl_rss_hash_funcs_names[3][ETH_GSTRING_LEN] = {
	"toeplitz", "xor", "crc32",
};

static const char ethnl_tunables_names[5][ETH_GSTRING_LEN] = {
	"Unspec", "rx-copybreak", "tx-copybreak", "pfc-prevention-tout", "tx-copybreak-buf-size",
};

static const char ethnl_phy_tunables_names[4][ETH_GSTRING_LEN] = {
	"Unspec", "phy-downshift", "phy-fast-link-down", "phy-energy-detect-power-down",
};

static const char ethnl_link_modes_names[121][ETH_GSTRING_LEN] = {
	"10baseT/Half", "10baseT/Full", "100baseT/Half", "100baseT/Full", "1000baseT/Half",
	"1000baseT/Full", "Autoneg", "TP", "AUI", "MII", "FIBRE", "BNC", "10000baseT/Full", "Pause",
	"Asym_Pause", "2500baseX/Full", "Backplane", "1000baseKX/Full", "10000baseKX4/Full",
	"10000baseKR/Full", "10000baseR_FEC", "20000baseMLD2/Full", "20000baseKR2/Full",
	"40000baseKR4/Full", "40000baseCR4/Full", "40000baseSR4/Full", "40000baseLR4/Full",
	"56000baseKR4/Full", "56000baseCR4/Full", "56000baseSR4/Full", "56000baseLR4/Full",
	"25000baseCR/Full", "25000baseKR/Full", "25000baseSR/Full", "50000baseCR2/Full",
	"50000baseKR2/Full", "100000baseKR4/Full", "100000baseSR4/Full", "100000baseCR4/Full",
	"100000baseLR4_ER4/Full", "50000baseSR2/Full", "1000baseX/Full", "10000baseCR/Full",
	"10000baseSR/Full", "10000baseLR/Full", "10000baseLRM/Full", "10000baseER/Full",
	"2500baseT/Full", "5000baseT/Full", "None", "RS", "BASER", "50000baseKR/Full",
	"50000baseSR/Full", "50000baseCR/Full", "50000baseLR_ER_FR/Full", "50000baseDR/Full",
	"100000baseKR2/Full", "100000baseSR2/Full", "100000baseCR2/Full",
	"100000baseLR2_ER2_FR2/Full", "100000baseDR2/Full", "200000baseKR4/Full",
	"200000baseSR4/Full", "200000baseLR4_ER4_FR4/Full", "200000baseDR4/Full",
	"200000baseCR4/Full", "100baseT1/Full", "1000baseT1/Full", "400000baseKR8/Full",
	"400000baseSR8/Full", "400000baseLR8_ER8_FR8/Full", "400000baseDR8/Full",
	"400000baseCR8/Full", "LLRS", "100000baseKR/Full", "100000baseSR/Full",
	"100000baseLR_ER_FR/Full", "100000baseCR/Full", "100000baseDR/Full", "200000baseKR2/Full",
	"200000baseSR2/Full", "200000baseLR2_ER2_FR2/Full", "200000baseDR2/Full",
	"200000baseCR2/Full", "400000baseKR4/Full", "400000baseSR4/Full",
	"400000baseLR4_ER4_FR4/Full", "400000baseDR4/Full", "400000baseCR4/Full", "100baseFX/Half",
	"100baseFX/Full", "10baseT1L/Full", "800000baseCR8/Full", "800000baseKR8/Full",
	"800000baseDR8/Full", "800000baseDR8_2/Full", "800000baseSR8/Full", "800000baseVR8/Full",
	"10baseT1S/Full", "10baseT1S/Half", "10baseT1S_P2MP/Half", "10baseT1BRR/Full",
	"200000baseCR/Full", "200000baseKR/Full", "200000baseDR/Full", "200000baseDR_2/Full",
	"200000baseSR/Full", "200000baseVR/Full", "400000baseCR2/Full", "400000baseKR2/Full",
	"400000baseDR2/Full", "400000baseDR2_2/Full", "400000baseSR2/Full", "400000baseVR2/Full",
	"800000baseCR4/Full", "800000baseKR4/Full", "800000baseDR4/Full", "800000baseDR4_2/Full",
	"800000baseSR4/Full", "800000baseVR4/Full",
};

static const char ethnl_msg_classes_names[15][ETH_GSTRING_LEN] = {
	"drv", "probe", "link", "timer", "ifdown", "ifup", "rx_err", "tx_err", "tx_queued", "intr",
	"tx_done", "rx_status", "pktdata", "hw", "wol",
};

static const char ethnl_wol_modes_names[8][ETH_GSTRING_LEN] = {
	"phy", "ucast", "mcast", "bcast", "arp", "magic", "magicsecure", "filter",
};

static const char ethnl_sof_timestamping_names[19][ETH_GSTRING_LEN] = {
	"hardware-transmit", "software-transmit", "hardware-receive", "software-receive",
	"software-system-clock", "hardware-legacy-clock", "hardware-raw-clock", "option-id",
	"sched-transmit", "ack-transmit", "option-cmsg", "option-tsonly", "option-stats",
	"option-pktinfo", "option-tx-swhw", "bind-phc", "option-id-tcp", "option-rx-filter",
	"tx-completion",
};

static const char ethnl_ts_tx_types_names[4][ETH_GSTRING_LEN] = {
	"off", "on", "onestep-sync", "onestep-p2p",
};

static const char ethnl_ts_rx_filters_names[16][ETH_GSTRING_LEN] = {
	"none", "all", "some", "ptpv1-l4-event", "ptpv1-l4-sync", "ptpv1-l4-delay-req",
	"ptpv2-l4-event", "ptpv2-l4-sync", "ptpv2-l4-delay-req", "ptpv2-l2-event", "ptpv2-l2-sync",
	"ptpv2-l2-delay-req", "ptpv2-event", "ptpv2-sync", "ptpv2-delay-req", "ntp-all",
};

static const char ethnl_udp_tunnel_types_names[3][ETH_GSTRING_LEN] = {
	"vxlan", "geneve", "vxlan-gpe",
};

const char ethnl_stats_std_names[5][ETH_GSTRING_LEN] = {
	"eth-phy", "eth-mac", "eth-ctrl", "rmon", "phydev",
};

static const char ethnl_stats_eth_phy_names[1][ETH_GSTRING_LEN] = {
	"SymbolErrorDuringCarrier",
};

static const char ethnl_stats_eth_mac_names[22][ETH_GSTRING_LEN] = {
	"FramesTransmittedOK", "SingleCollisionFrames", "MultipleCollisionFrames", "FramesReceivedOK",
	"FrameCheckSequenceErrors", "AlignmentErrors", "OctetsTransmittedOK",
	"FramesWithDeferredXmissions", "LateCollisions", "FramesAbortedDueToXSColls",
	"FramesLostDueToIntMACXmitError", "CarrierSenseErrors", "OctetsReceivedOK",
	"FramesLostDueToIntMACRcvError", "MulticastFramesXmittedOK", "BroadcastFramesXmittedOK",
	"FramesWithExcessiveDeferral", "MulticastFramesReceivedOK", "BroadcastFramesReceivedOK",
	"InRangeLengthErrors", "OutOfRangeLengthField", "FrameTooLongErrors",
};

static const char ethnl_stats_eth_ctrl_names[3][ETH_GSTRING_LEN] = {
	"MACControlFramesTransmitted", "MACControlFramesReceived", "UnsupportedOpcodesReceived",
};

static const char ethnl_stats_rmon_names[4][ETH_GSTRING_LEN] = {
	"etherStatsUndersizePkts", "etherStatsOversizePkts", "etherStatsFragments",
	"etherStatsJabbers",
};

static const char ethnl_stats_phy_names[6][ETH_GSTRING_LEN] = {
	"RxFrames", "RxOctets", "RxErrors", "TxFrames", "TxOctets", "TxErrors",
};

static const char ethnl_ts_flags_names[1][ETH_GSTRING_LEN] = {
	"bonded-phc-index",
};
/* info_template[]: per device, or a global table (NULL: none, NTUPLE_FILTERS). */
struct strset_info {
	bool per_dev;
	unsigned int count;
	const char (*strings)[ETH_GSTRING_LEN];
};

#define GLOBAL(table) {false, ARRAY_SIZE(table), table}

static const struct strset_info info_template[ETH_SS_COUNT_6_18] = {
	[0] = {true},  /* ETH_SS_TEST */
	[1] = {true},  /* ETH_SS_STATS */
	[2] = {true},  /* ETH_SS_PRIV_FLAGS */
	[ETH_SS_FEATURES] = GLOBAL(ethnl_features_names),
	[5] = GLOBAL(ethnl_rss_hash_funcs_names),
	[6] = GLOBAL(ethnl_tunables_names),
	[7] = {true},  /* ETH_SS_PHY_STATS */
	[8] = GLOBAL(ethnl_phy_tunables_names),
	[9] = GLOBAL(ethnl_link_modes_names),
	[10] = GLOBAL(ethnl_msg_classes_names),
	[11] = GLOBAL(ethnl_wol_modes_names),
	[12] = GLOBAL(ethnl_sof_timestamping_names),
	[13] = GLOBAL(ethnl_ts_tx_types_names),
	[14] = GLOBAL(ethnl_ts_rx_filters_names),
	[15] = GLOBAL(ethnl_udp_tunnel_types_names),
	[ETH_SS_STATS_STD] = GLOBAL(ethnl_stats_std_names),
	[ETH_SS_STATS_ETH_PHY] = GLOBAL(ethnl_stats_eth_phy_names),
	[ETH_SS_STATS_ETH_MAC] = GLOBAL(ethnl_stats_eth_mac_names),
	[ETH_SS_STATS_ETH_CTRL] = GLOBAL(ethnl_stats_eth_ctrl_names),
	[ETH_SS_STATS_RMON] = GLOBAL(ethnl_stats_rmon_names),
	[ETH_SS_STATS_PHY] = GLOBAL(ethnl_stats_phy_names),
	[22] = GLOBAL(ethnl_ts_flags_names), /* ETH_SS_TS_FLAGS */
};

/* ETH_SS_COUNT at the modelled release. */
static unsigned int eth_ss_count(void)
{
	return kfsim_kernel_at_least(6, 13) ? ETH_SS_COUNT_6_18 : ETH_SS_COUNT_6_12;
}

unsigned int ethnl_stats_std_count(void)
{
	return kfsim_kernel_at_least(6, 13) ? 5 : 4;
}

/* A set's count as the request sees it: a device's own sets count 0 (no driver strings). */
static unsigned int set_count(unsigned int id)
{
	if (info_template[id].per_dev)
		return 0;
	if (id == ETH_SS_STATS_STD)
		return ethnl_stats_std_count();
	/* __ETHTOOL_LINK_MODE_MASK_NBITS: 103 in 6.12 (to 10baseT1BRR/Full), 121 in 6.18 */
	if (id == ETH_SS_LINK_MODES && !kfsim_kernel_at_least(6, 13))
		return 103;
	/* __SOF_TIMESTAMPING_CNT: as ethtool_tsinfo.c's (17, 18 from 6.11, 19 from 6.16) */
	if (id == ETH_SS_SOF_TIMESTAMPING && !kfsim_kernel_at_least(6, 16))
		return kfsim_kernel_at_least(6, 11) ? 18 : 17;
	return info_template[id].count;
}

/* strset_include(): asked for, or (none asked for) every set of the kind the header names. */
static bool strset_include(const struct plca_req_info *req, unsigned int id)
{
	const struct strset_info *set = &info_template[id];

	if (req->req_ids)
		return req->req_ids & (1u << id);
	if (!set->per_dev && !set->strings)
		return false;
	return req->dev ? set->per_dev : !set->per_dev;
}

static const struct nla_policy get_stringset_policy[ETHTOOL_A_STRINGSET_ID + 1] = {
	[ETHTOOL_A_STRINGSET_ID] = {.type = NLA_U32},
};

static const struct nla_policy strset_stringsets_policy[ETHTOOL_A_STRINGSETS_STRINGSET + 1] = {
	[ETHTOOL_A_STRINGSETS_STRINGSET] = {.type = NLA_NESTED},
};

/* strset_parse_request(): the sets asked for, each a STRINGSET nest with its ID. */
static int strset_parse_request(struct plca_req_info *req, struct nlattr **tb,
				struct netlink_ext_ack *extack)
{
	const struct nlattr *nest = tb[ETHTOOL_A_STRSET_STRINGSETS];
	const struct nlattr *attr;
	int rem, ret;

	if (!nest)
		return 0;
	ret = nla_validate_nested(nest, ETHTOOL_A_STRINGSETS_STRINGSET, strset_stringsets_policy,
				  extack);
	if (ret < 0)
		return ret;
	req->counts_only = tb[ETHTOOL_A_STRSET_COUNTS_ONLY];
	nla_for_each_nested(attr, nest, rem) {
		struct nlattr *set_tb[ETHTOOL_A_STRINGSET_ID + 1];
		u32 id;

		/* the strict validation above let nothing but STRINGSET through */
		ret = nla_parse_nested(set_tb, ETHTOOL_A_STRINGSET_ID, attr, get_stringset_policy,
				       extack);
		if (ret < 0)
			return ret;
		if (NL_REQ_ATTR_CHECK(extack, attr, set_tb, ETHTOOL_A_STRINGSET_ID))
			return -EINVAL;
		id = nla_get_u32(set_tb[ETHTOOL_A_STRINGSET_ID]);
		if (id >= eth_ss_count()) {
			NL_SET_ERR_MSG_ATTR(extack, attr, "unknown string set id");
			return -EOPNOTSUPP;
		}
		req->req_ids |= 1u << id;
	}
	return 0;
}

/* strset_prepare_data(): without a device, no per-device set may be asked for. */
static int strset_prepare_data(struct kfsim_plca_net *net, const struct plca_req_info *req,
			       const struct nlattr *header, union ethnl_reply_data *data,
			       struct netlink_ext_ack *extack)
{
	struct phy_device *phydev;

	if (!req->dev) {
		for (unsigned int i = 0; i < eth_ss_count(); i++) {
			if ((req->req_ids & (1u << i)) && info_template[i].per_dev) {
				NL_SET_ERR_MSG(extack, "requested per device strings without dev");
				return -EINVAL;
			}
		}
		return 0;
	}
	phydev = ethnl_req_get_phydev(req, header, extack);
	return IS_ERR(phydev) ? (int)PTR_ERR(phydev) : 0;
}

/* strset_fill_set(): one set's ID, COUNT and (unless counts only) its strings. */
static int strset_fill_set(struct sk_buff *skb, unsigned int id, bool counts_only)
{
	const struct strset_info *set = &info_template[id];
	unsigned int count = set_count(id);
	struct nlattr *set_attr, *strings;

	if (!set->per_dev && !set->strings)
		return -EOPNOTSUPP;
	if (!count)
		return 0;
	set_attr = nla_nest_start(skb, ETHTOOL_A_STRINGSETS_STRINGSET);
	if (!set_attr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, ETHTOOL_A_STRINGSET_ID, id) ||
	    nla_put_u32(skb, ETHTOOL_A_STRINGSET_COUNT, count))
		goto nla_put_failure;
	if (!counts_only) {
		strings = nla_nest_start(skb, ETHTOOL_A_STRINGSET_STRINGS);
		if (!strings)
			goto nla_put_failure;
		for (unsigned int i = 0; i < count; i++) {
			struct nlattr *string = nla_nest_start(skb, ETHTOOL_A_STRINGS_STRING);

			if (!string || nla_put_u32(skb, ETHTOOL_A_STRING_INDEX, i) ||
			    ethnl_put_strz(skb, ETHTOOL_A_STRING_VALUE, set->strings[i]))
				goto nla_put_failure;
			nla_nest_end(skb, string);
		}
		nla_nest_end(skb, strings);
	}
	nla_nest_end(skb, set_attr);
	return 0;
nla_put_failure:
	nla_nest_cancel(skb, set_attr);
	return -EMSGSIZE;
}

static int strset_fill_reply(struct sk_buff *skb, const struct kfsim_plca_net *net,
			     const struct plca_req_info *req, const union ethnl_reply_data *data)
{
	struct nlattr *nest = nla_nest_start(skb, ETHTOOL_A_STRSET_STRINGSETS);

	if (!nest)
		return -EMSGSIZE;
	for (unsigned int i = 0; i < eth_ss_count(); i++) {
		int ret;

		if (!strset_include(req, i))
			continue;
		ret = strset_fill_set(skb, i, req->counts_only);
		if (ret < 0) {
			nla_nest_cancel(skb, nest);
			return ret;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

const struct ethnl_request_ops ethnl_strset_request_ops = {
	.reply_cmd = ETHTOOL_MSG_STRSET_GET_REPLY,
	.allow_nodev_do = true,
	.parse_request = strset_parse_request,
	.prepare_data = strset_prepare_data,
	.fill_reply = strset_fill_reply,
};
