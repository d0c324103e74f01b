// SPDX-License-Identifier: MIT
/*
 * The ethtool requests beyond PLCA, answered as Linux answers them for a device whose driver
 * implements none of them: a simulated device has a PHY (for PLCA) and no MAC driver
 * ethtool_ops.  Without these ops in the family, real ethtool (which reads the family's op
 * list) fell back to the SIOCETHTOOL ioctl for `ethtool -g eth0`, which the netlink shim
 * refuses, where the kernel says "netlink error: Operation not supported".
 *
 * The path is ethnl_default_doit(), ethnl_default_start() and ethnl_default_dumpit() of
 * net/ethtool/netlink.c with each request's parse_request and prepare_data (read in 6.12,
 * every answer checked against the running 6.18 by ctest netlink/kernel_referee, its random
 * twin and clients/tool_oracle):
 *   1. the header attribute must be there: -EINVAL with MISS_TYPE (GENL_REQ_ATTR_CHECK());
 *   2. the header names a device: ethnl_parse_header_dev_get() (-ENODEV "no device matches
 *      name", ...);
 *   3. parse_request: PAUSE_GET's STATS_SRC needs ETHTOOL_FLAG_STATS (-EINVAL);
 *   4. prepare_data finds the driver op missing: -EOPNOTSUPP; LINKINFO and LINKMODES say
 *      "failed to retrieve link settings" (__ethtool_get_link_ksettings() failed).  Two answer:
 *      MODULE_GET, with no get_module_power_mode, has nothing to report but the header;
 *      LINKSTATE_GET has no LINK (no get_link), no SQI (the PHY drivers have no get_sqi), no
 *      extended state, and with ETHTOOL_FLAG_STATS the PHY's EXT_DOWN_CNT
 *      (__phy_ethtool_get_link_ext_stats(): link_down_events, 0: a simulated link never drops).
 * A dump parses the header once, at start (its errors are the dump's NLMSG_ERROR), then skips
 * every device whose prepare_data answers -EOPNOTSUPP; the extack message prepare_data set
 * stays and rides in NLMSG_DONE, as the kernel's does.
 * TUNNEL_INFO_GET has handlers of its own (net/ethtool/tunnels.c): no GENL_REQ_ATTR_CHECK (a
 * missing header is "request header missing"), "device does not report tunnel offload info"
 * for a device without udp_tunnel_nic_info, and a dump whose devices all lack it ends with the
 * last one's -EOPNOTSUPP in NLMSG_DONE (its loop's last ret).
 *
 * The SETs take ethnl_default_set_doit(): the header attribute, the device, then set_validate,
 * which on such a device ends the request.  For DEBUG, WOL, CHANNELS, PAUSE, EEE, LINKINFO, FEC
 * and COALESCE (whose check of the attributes comes after the ops) it asks only for the
 * driver's ops: -EOPNOTSUPP.  LINKMODES, PRIVFLAGS, MODULE and RINGS look at an attribute first
 * (a set_validate of their own here): LINKMODES' master/slave value and lanes, PRIVFLAGS' flags
 * (required), MODULE's power mode policy (none asked for: nothing to do, ACK 0), RINGS' every
 * parameter against the driver's supported_ring_params.  SETs need CAP_NET_ADMIN in the
 * namespace (GENL_UNS_ADMIN_PERM); so does WOL_GET (its reply may carry the SecureOn
 * password): nobody gets -EPERM before any validation.
 *
 * TSINFO_GET, which every device answers (software time stamping), has its handlers in
 * ethtool_tsinfo.c and its row here.
 *
 * STRSET_GET, FEATURES_GET/SET and STATS_GET, which every device answers, have their handlers in
 * ethtool_strset.c, ethtool_features.c and ethtool_stats.c, and their rows here.
 *
 * Not here: the actions (cable tests, ...) and the requests whose ops are not modelled
 * (docs/own-tools.md, "Real tools, judged by the running kernel").
 *
 * Releases: the ops are from 5.6 (LINKINFO, LINKMODES, LINKSTATE, DEBUG, WOL), 5.7 (PRIVFLAGS,
 * RINGS, CHANNELS, COALESCE, PAUSE, EEE, TSINFO), 5.9 (TUNNEL_INFO), 5.14 (FEC), 5.17 (MODULE)
 * and 6.4 (MM, and PAUSE's STATS_SRC); STRSET and FEATURES are 5.6's, STATS 5.13's (SRC 6.4); kfsim models 6.3 on, so MM and STATS_SRC come with
 * kfsim_kernel_version() 6.4, and PAUSE_SET's policy reaches STATS_SRC from 6.17.
 */
#include <kfsim/cmdline.h>
#include <kfsim/netlink.h>
#include "ethtool-kernel.h"
#include "plca_internal.h"

/* The kernel's enum ethtool_msg_user_type values of the requests carried here. */
enum {
	ETHTOOL_MSG_STRSET_GET = 1,
	ETHTOOL_MSG_LINKINFO_GET = 2,
	ETHTOOL_MSG_LINKINFO_SET = 3,
	ETHTOOL_MSG_LINKMODES_GET = 4,
	ETHTOOL_MSG_LINKMODES_SET = 5,
	ETHTOOL_MSG_LINKSTATE_GET = 6,
	ETHTOOL_MSG_DEBUG_GET = 7,
	ETHTOOL_MSG_DEBUG_SET = 8,
	ETHTOOL_MSG_WOL_GET = 9,
	ETHTOOL_MSG_WOL_SET = 10,
	ETHTOOL_MSG_FEATURES_GET = 11,
	ETHTOOL_MSG_FEATURES_SET = 12,
	ETHTOOL_MSG_PRIVFLAGS_GET = 13,
	ETHTOOL_MSG_PRIVFLAGS_SET = 14,
	ETHTOOL_MSG_RINGS_GET = 15,
	ETHTOOL_MSG_RINGS_SET = 16,
	ETHTOOL_MSG_CHANNELS_GET = 17,
	ETHTOOL_MSG_CHANNELS_SET = 18,
	ETHTOOL_MSG_COALESCE_GET = 19,
	ETHTOOL_MSG_COALESCE_SET = 20,
	ETHTOOL_MSG_PAUSE_GET = 21,
	ETHTOOL_MSG_PAUSE_SET = 22,
	ETHTOOL_MSG_EEE_GET = 23,
	ETHTOOL_MSG_EEE_SET = 24,
	ETHTOOL_MSG_TSINFO_GET = 25,
	ETHTOOL_MSG_TUNNEL_INFO_GET = 28,
	ETHTOOL_MSG_FEC_GET = 29,
	ETHTOOL_MSG_FEC_SET = 30,
	ETHTOOL_MSG_STATS_GET = 32,
	/* ETHTOOL_MSG_MODULE_GET (34) is in <kfsim/plca.h> */
	ETHTOOL_MSG_MODULE_SET = 35,
	ETHTOOL_MSG_MM_GET = 42,
};

/* The replies' commands. */
#define ETHTOOL_MSG_LINKSTATE_GET_REPLY 6
#define ETHTOOL_MSG_MODULE_GET_REPLY 35
#define ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT 7
#define ETHTOOL_A_PAUSE_STATS_SRC 6
#define ETHTOOL_A_LINKMODES_MASTER_SLAVE_CFG 7
#define ETHTOOL_A_LINKMODES_LANES 9
#define ETHTOOL_A_PRIVFLAGS_FLAGS 2
#define ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS 28
#define ETHTOOL_A_COALESCE_TX_PROFILE 30
#define ETHTOOL_A_MODULE_POWER_MODE_POLICY 2
/* ETHTOOL_A_RINGS_*: the attributes RINGS_SET takes */
enum {
	ETHTOOL_A_RINGS_RX = 6,
	ETHTOOL_A_RINGS_TX = 9,
	ETHTOOL_A_RINGS_RX_BUF_LEN = 10,
	ETHTOOL_A_RINGS_TCP_DATA_SPLIT = 11,
	ETHTOOL_A_RINGS_CQE_SIZE = 12,
	ETHTOOL_A_RINGS_TX_PUSH = 13,
	ETHTOOL_A_RINGS_RX_PUSH = 14,
	ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN = 15,
	ETHTOOL_A_RINGS_HDS_THRESH = 17,
	ETHTOOL_A_RINGS_MAX_6_14 = 18, /* HDS_THRESH_MAX */
};
#define ETHTOOL_MAC_STATS_SRC_PMAC 2

/* ethnl_header_policy and ethnl_header_policy_stats: no PHY_INDEX (maxtype 3). */
static const struct nla_policy ethnl_header_policy[ETHTOOL_A_HEADER_FLAGS + 1] = {
	[ETHTOOL_A_HEADER_DEV_INDEX] = {.type = NLA_U32},
	[ETHTOOL_A_HEADER_DEV_NAME] = {.type = NLA_NUL_STRING, .len = ALTIFNAMSIZ - 1},
	[ETHTOOL_A_HEADER_FLAGS] =
		NLA_POLICY_MASK(NLA_U32, ETHTOOL_FLAG_COMPACT_BITSETS | ETHTOOL_FLAG_OMIT_REPLY),
};

static const struct nla_policy ethnl_header_policy_stats[ETHTOOL_A_HEADER_FLAGS + 1] = {
	[ETHTOOL_A_HEADER_DEV_INDEX] = {.type = NLA_U32},
	[ETHTOOL_A_HEADER_DEV_NAME] = {.type = NLA_NUL_STRING, .len = ALTIFNAMSIZ - 1},
	[ETHTOOL_A_HEADER_FLAGS] =
		NLA_POLICY_MASK(NLA_U32, ETHTOOL_FLAG_COMPACT_BITSETS | ETHTOOL_FLAG_OMIT_REPLY |
						 ETHTOOL_FLAG_STATS),
};

static const struct nla_policy get_policy[ETHTOOL_A_REQ_HEADER + 1] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
};

static const struct nla_policy get_policy_stats[ETHTOOL_A_REQ_HEADER + 1] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy_stats),
};

/*
 * The SETs whose set_validate asks only for the driver's get and set ops: their policies
 * (ethnl_<req>_set_policy, 6.12 = 6.18), attributes by number: DEBUG MSGMASK (2), WOL MODES (2)
 * and SOPASS (3), CHANNELS RX/TX/OTHER/COMBINED_COUNT (6..9), PAUSE AUTONEG/RX/TX (2..4), EEE
 * MODES_OURS (2), ENABLED (5), TX_LPI_ENABLED (6), TX_LPI_TIMER (7).  Bitsets are plain nests
 * here: ethnl_update_bitset() parses them only once the driver is known to have the ops.
 */
static const struct nla_policy debug_set_policy[3] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[2] = {.type = NLA_NESTED},
};

static const struct nla_policy wol_set_policy[4] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[2] = {.type = NLA_NESTED},
	[3] = {.type = NLA_BINARY, .len = 6}, /* SOPASS_MAX */
};

static const struct nla_policy channels_set_policy[10] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[6] = {.type = NLA_U32},
	[7] = {.type = NLA_U32},
	[8] = {.type = NLA_U32},
	[9] = {.type = NLA_U32},
};

static const struct nla_policy pause_set_policy[5] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[2] = {.type = NLA_U8},
	[3] = {.type = NLA_U8},
	[4] = {.type = NLA_U8},
};

/*
 * 6.17 (net-next "net: ethtool: avoid OOB accesses in PAUSE_SET", after SETs began to call
 * their GET's parse_request): the table reaches STATS_SRC, which it rejects, so STATS (5) is an
 * NLA_UNSPEC slot that strict validation calls "Unsupported attribute".
 */
static const struct nla_policy pause_set_policy_6_17[ETHTOOL_A_PAUSE_STATS_SRC + 1] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[2] = {.type = NLA_U8},
	[3] = {.type = NLA_U8},
	[4] = {.type = NLA_U8},
	[ETHTOOL_A_PAUSE_STATS_SRC] = {.type = NLA_REJECT},
};

static const struct nla_policy eee_set_policy[8] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[2] = {.type = NLA_NESTED},
	[5] = {.type = NLA_U8},
	[6] = {.type = NLA_U8},
	[7] = {.type = NLA_U32},
};

/*
 * The SETs whose set_validate looks at an attribute before the driver's ops, or whose ops are
 * all it asks for but whose policy is longer (6.12 = 6.18, the running kernel's policy dump
 * compared by ctest netlink/kernel_referee): LINKINFO PORT, PHYADDR, TP_MDIX_CTRL (2, 3, 5:
 * TP_MDIX, 4, is NLA_UNSPEC, which the liberal validation of a command below resv_start_op
 * lets through); LINKMODES AUTONEG (2), OURS (3), SPEED (5), DUPLEX (6), MASTER_SLAVE_CFG (7),
 * LANES (9); PRIVFLAGS FLAGS (2); FEC MODES (2), AUTO (3); MODULE POWER_MODE_POLICY (2, HIGH
 * to AUTO).
 */
static const struct nla_policy linkinfo_set_policy[6] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[2] = {.type = NLA_U8},
	[3] = {.type = NLA_U8},
	[5] = {.type = NLA_U8},
};

static const struct nla_policy linkmodes_set_policy[ETHTOOL_A_LINKMODES_LANES + 1] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[2] = {.type = NLA_U8},
	[3] = {.type = NLA_NESTED},
	[5] = {.type = NLA_U32},
	[6] = {.type = NLA_U8},
	[ETHTOOL_A_LINKMODES_MASTER_SLAVE_CFG] = {.type = NLA_U8},
	[ETHTOOL_A_LINKMODES_LANES] = NLA_POLICY_RANGE(NLA_U32, 1, 8),
};

static const struct nla_policy privflags_set_policy[ETHTOOL_A_PRIVFLAGS_FLAGS + 1] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[ETHTOOL_A_PRIVFLAGS_FLAGS] = {.type = NLA_NESTED},
};

static const struct nla_policy fec_set_policy[4] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[2] = {.type = NLA_NESTED},
	[3] = NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct nla_policy module_set_policy[ETHTOOL_A_MODULE_POWER_MODE_POLICY + 1] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[ETHTOOL_A_MODULE_POWER_MODE_POLICY] = NLA_POLICY_RANGE(NLA_U8, 1, 2),
};

/*
 * COALESCE_SET: 27 parameters, u32 but for USE_ADAPTIVE_RX/TX (11, 12: u8) and USE_CQE_MODE_TX/RX
 * (24, 25: u8, at most 1), to TX_AGGR_TIME_USECS (28); from 6.11 (commit f750dfe825b9, "ethtool:
 * provide customized dim profile management") RX_PROFILE and TX_PROFILE (29, 30), each a nest
 * of one IRQ_MODERATION nest of USEC, PKTS and COMPS (u32).
 */
static const struct nla_policy coalesce_irq_moderation_policy[4] = {
	[1] = {.type = NLA_U32},
	[2] = {.type = NLA_U32},
	[3] = {.type = NLA_U32},
};

static const struct nla_policy coalesce_profile_policy[2] = {
	[1] = NLA_POLICY_NESTED(coalesce_irq_moderation_policy),
};

#define COALESCE_SET_PARAMS                                                                        \
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),                           \
	[2 ... 10] = {.type = NLA_U32}, [11 ... 12] = {.type = NLA_U8},                            \
	[13 ... 23] = {.type = NLA_U32}, [24 ... 25] = NLA_POLICY_MAX(NLA_U8, 1),                  \
	[26 ... ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS] = {.type = NLA_U32}

/* before 6.11: no profiles */
static const struct nla_policy coalesce_set_6_3[ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS + 1] = {
	COALESCE_SET_PARAMS,
};

static const struct nla_policy coalesce_set_policy[ETHTOOL_A_COALESCE_TX_PROFILE + 1] = {
	COALESCE_SET_PARAMS,
	[29 ... ETHTOOL_A_COALESCE_TX_PROFILE] = NLA_POLICY_NESTED(coalesce_profile_policy),
};

/*
 * TSINFO_GET: before 6.10 the plain header; from 6.10 (time stamping statistics) the header that
 * takes ETHTOOL_FLAG_STATS; from 6.14 a HWTSTAMP_PROVIDER nest too (7), of INDEX (u32) and
 * QUALIFIER (PRECISE or APPROX); from 6.17 the table runs to ETHTOOL_A_TSINFO_MAX, past the
 * reply's HWTSTAMP_SOURCE (8) and HWTSTAMP_PHYINDEX (9): NLA_UNSPEC slots that strict
 * validation calls "Unsupported attribute" (6.18's answer; 6.17 read from the series' date).
 */
static const struct nla_policy hwtst_prov_policy[ETHTOOL_A_TS_HWTSTAMP_PROVIDER_QUALIFIER + 1] = {
	[ETHTOOL_A_TS_HWTSTAMP_PROVIDER_INDEX] = {.type = NLA_U32},
	[ETHTOOL_A_TS_HWTSTAMP_PROVIDER_QUALIFIER] = NLA_POLICY_MAX(NLA_U32, 1),
};

static const struct nla_policy tsinfo_get_policy[ETHTOOL_A_TSINFO_MAX_6_17 + 1] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy_stats),
	[ETHTOOL_A_TSINFO_HWTSTAMP_PROVIDER] = NLA_POLICY_NESTED(hwtst_prov_policy),
};

/*
 * RINGS_SET: RX, RX_MINI, RX_JUMBO, TX (u32), RX_BUF_LEN and CQE_SIZE (u32, at least 1),
 * TX_PUSH and RX_PUSH (u8, at most 1); TX_PUSH_BUF_LEN (u32) from 6.4, TCP_DATA_SPLIT (u8, at
 * most ENABLED, 2) from 6.9, and from 6.14 HDS_THRESH (u32) in a table that runs to
 * ETHTOOL_A_RINGS_MAX (HDS_THRESH_MAX, 18: "Unsupported attribute").  6.12's table read, 6.18's
 * dumped; the releases between from the commits' dates.
 */
#define RINGS_SET_POLICY_6_3                                                                       \
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),                           \
	[ETHTOOL_A_RINGS_RX] = {.type = NLA_U32}, [7] = {.type = NLA_U32},                         \
	[8] = {.type = NLA_U32}, [ETHTOOL_A_RINGS_TX] = {.type = NLA_U32},                         \
	[ETHTOOL_A_RINGS_RX_BUF_LEN] = NLA_POLICY_MIN(NLA_U32, 1),                                 \
	[ETHTOOL_A_RINGS_CQE_SIZE] = NLA_POLICY_MIN(NLA_U32, 1),                                   \
	[ETHTOOL_A_RINGS_TX_PUSH] = NLA_POLICY_MAX(NLA_U8, 1),                                     \
	[ETHTOOL_A_RINGS_RX_PUSH] = NLA_POLICY_MAX(NLA_U8, 1)

static const struct nla_policy rings_set_policy_6_3[ETHTOOL_A_RINGS_RX_PUSH + 1] = {
	RINGS_SET_POLICY_6_3,
};

static const struct nla_policy rings_set_policy_6_4[ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN + 1] = {
	RINGS_SET_POLICY_6_3,
	[ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN] = {.type = NLA_U32},
};

static const struct nla_policy rings_set_policy_6_9[ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN + 1] = {
	RINGS_SET_POLICY_6_3,
	[ETHTOOL_A_RINGS_TCP_DATA_SPLIT] = NLA_POLICY_MAX(NLA_U8, 2),
	[ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN] = {.type = NLA_U32},
};

static const struct nla_policy rings_set_policy[ETHTOOL_A_RINGS_MAX_6_14 + 1] = {
	RINGS_SET_POLICY_6_3,
	[ETHTOOL_A_RINGS_TCP_DATA_SPLIT] = NLA_POLICY_MAX(NLA_U8, 2),
	[ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN] = {.type = NLA_U32},
	[ETHTOOL_A_RINGS_HDS_THRESH] = {.type = NLA_U32},
};

/*
 * STRSET_GET: the header (with PHY_INDEX from 6.11: ethnl_header_policy_phy, the generated
 * ethtool_header_nl_policy), STRINGSETS (nest), COUNTS_ONLY (flag).  FEATURES_GET: the header;
 * FEATURES_SET: the header and WANTED (3, a bitset nest; HW, 2, is NLA_UNSPEC, let through by
 * the liberal validation below resv_start_op).  STATS_GET: HEADER is 2 (after PAD), GROUPS
 * (3, nest), from 6.4 SRC (5, at most ETHTOOL_MAC_STATS_SRC_PMAC); its header takes neither
 * ETHTOOL_FLAG_STATS nor PHY_INDEX.  Each checked against the running 6.18's policy dump.
 */
static const struct nla_policy strset_get_policy_6_3[4] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[2] = {.type = NLA_NESTED},
	[3] = {.type = NLA_FLAG},
};

static const struct nla_policy strset_get_policy[4] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethtool_header_nl_policy),
	[2] = {.type = NLA_NESTED},
	[3] = {.type = NLA_FLAG},
};

static const struct nla_policy features_set_policy[4] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy),
	[3] = {.type = NLA_NESTED},
};

static const struct nla_policy stats_get_policy[6] = {
	[2] = NLA_POLICY_NESTED(ethnl_header_policy),
	[3] = {.type = NLA_NESTED},
	[5] = NLA_POLICY_MAX(NLA_U32, ETHTOOL_MAC_STATS_SRC_PMAC),
};

/* pause_get_policy from 6.4 (before, the header alone: get_policy_stats). */
static const struct nla_policy pause_get_policy[ETHTOOL_A_PAUSE_STATS_SRC + 1] = {
	[ETHTOOL_A_REQ_HEADER] = NLA_POLICY_NESTED(ethnl_header_policy_stats),
	[ETHTOOL_A_PAUSE_STATS_SRC] = NLA_POLICY_MAX(NLA_U32, ETHTOOL_MAC_STATS_SRC_PMAC),
};

/* pause_parse_request() (6.4): a source of statistics needs the statistics. */
static int pause_parse_request(struct plca_req_info *req, struct nlattr **tb,
			       struct netlink_ext_ack *extack)
{
	if (!kfsim_kernel_at_least(6, 4))
		return 0;
	if (tb[ETHTOOL_A_PAUSE_STATS_SRC] && !(req->flags & ETHTOOL_FLAG_STATS)) {
		NL_SET_ERR_MSG(extack, "ethtool_nl: ETHTOOL_FLAG_STATS must be set when "
				       "requesting a source of stats");
		return -EINVAL;
	}
	return 0;
}

/* prepare_data of a request whose driver op is missing. */
static int missing_op_prepare_data(struct kfsim_plca_net *net, const struct plca_req_info *req,
				   const struct nlattr *header, union ethnl_reply_data *data,
				   struct netlink_ext_ack *extack)
{
	return -EOPNOTSUPP;
}

/* LINKINFO's and LINKMODES': __ethtool_get_link_ksettings() failed. */
static int link_settings_prepare_data(struct kfsim_plca_net *net, const struct plca_req_info *req,
				      const struct nlattr *header, union ethnl_reply_data *data,
				      struct netlink_ext_ack *extack)
{
	NL_SET_ERR_MSG(extack, "failed to retrieve link settings");
	return -EOPNOTSUPP;
}

/* LINKSTATE's and MODULE's: what there is to say is said by fill_reply. */
static int answer_prepare_data(struct kfsim_plca_net *net, const struct plca_req_info *req,
			       const struct nlattr *header, union ethnl_reply_data *data,
			       struct netlink_ext_ack *extack)
{
	return 0;
}

/* LINKSTATE_GET with ETHTOOL_FLAG_STATS on a device with a PHY: its link_down_events. */
static int linkstate_fill_reply(struct sk_buff *skb, const struct kfsim_plca_net *net,
				const struct plca_req_info *req, const union ethnl_reply_data *data)
{
	if ((req->flags & ETHTOOL_FLAG_STATS) && req->dev->phydev && net->phy_ops &&
	    nla_put_u32(skb, ETHTOOL_A_LINKSTATE_EXT_DOWN_CNT, 0))
		return -EMSGSIZE;
	return 0;
}

static const struct ethnl_request_ops missing_op_request_ops = {
	.prepare_data = missing_op_prepare_data,
};

static const struct ethnl_request_ops link_settings_request_ops = {
	.prepare_data = link_settings_prepare_data,
};

static const struct ethnl_request_ops pause_request_ops = {
	.parse_request = pause_parse_request,
	.prepare_data = missing_op_prepare_data,
};

static const struct ethnl_request_ops linkstate_request_ops = {
	.reply_cmd = ETHTOOL_MSG_LINKSTATE_GET_REPLY,
	.prepare_data = answer_prepare_data,
	.fill_reply = linkstate_fill_reply,
};

static const struct ethnl_request_ops module_request_ops = {
	.reply_cmd = ETHTOOL_MSG_MODULE_GET_REPLY,
	.prepare_data = answer_prepare_data,
};

/* The ops of @cmd, one of the GETs of default_requests[]. */
static const struct ethnl_request_ops *request_ops(u8 cmd)
{
	switch (cmd) {
	case ETHTOOL_MSG_LINKINFO_GET:
	case ETHTOOL_MSG_LINKMODES_GET:
		return &link_settings_request_ops;
	case ETHTOOL_MSG_LINKSTATE_GET:
		return &linkstate_request_ops;
	case ETHTOOL_MSG_MODULE_GET:
		return &module_request_ops;
	case ETHTOOL_MSG_PAUSE_GET:
		return &pause_request_ops;
	case ETHTOOL_MSG_STRSET_GET:
		return &ethnl_strset_request_ops;
	case ETHTOOL_MSG_FEATURES_GET:
		return &ethnl_features_request_ops;
	case ETHTOOL_MSG_STATS_GET:
		return &ethnl_stats_request_ops;
	default:
		return &missing_op_request_ops;
	}
}

static int default_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ethnl_default_doit(info, request_ops(info->genlhdr->cmd));
}

static int default_start(struct netlink_callback *cb)
{
	return ethnl_default_start(cb, request_ops(genl_info_dump(cb)->genlhdr->cmd));
}

static int default_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ethnl_default_dumpit(skb, cb, request_ops(genl_info_dump(cb)->genlhdr->cmd));
}

/*
 * The set_validate steps that look at an attribute before the driver's ops (6.12, 6.18 alike);
 * on a device without the ops each ends in an error, or in 0 (nothing to do: ACK).
 */

/* ethnl_set_linkmodes_validate(): ethnl_check_linkmodes() first. */
static int linkmodes_set_validate(struct genl_info *info)
{
	const struct nlattr *master_slave_cfg = info->attrs[ETHTOOL_A_LINKMODES_MASTER_SLAVE_CFG];
	const struct nlattr *lanes = info->attrs[ETHTOOL_A_LINKMODES_LANES];

	if (master_slave_cfg) {
		u8 cfg = nla_get_u8(master_slave_cfg);

		/* MASTER_PREFERRED, SLAVE_PREFERRED, MASTER_FORCE, SLAVE_FORCE */
		if (cfg < 2 || cfg > 5) {
			NL_SET_ERR_MSG_ATTR(info->extack, master_slave_cfg,
					    "master/slave value is invalid");
			return -EOPNOTSUPP;
		}
	}
	if (lanes && !is_power_of_2(nla_get_u32(lanes))) {
		NL_SET_ERR_MSG_ATTR(info->extack, lanes, "lanes value is invalid");
		return -EINVAL;
	}
	return -EOPNOTSUPP;
}

/* ethnl_set_privflags_validate(): the flags are required, without a message. */
static int privflags_set_validate(struct genl_info *info)
{
	return info->attrs[ETHTOOL_A_PRIVFLAGS_FLAGS] ? -EOPNOTSUPP : -EINVAL;
}

/* ethnl_set_module_validate(): no policy asked for is nothing to do. */
static int module_set_validate(struct genl_info *info)
{
	const struct nlattr *policy = info->attrs[ETHTOOL_A_MODULE_POWER_MODE_POLICY];

	if (!policy)
		return 0;
	NL_SET_ERR_MSG_ATTR(info->extack, policy,
			    "Setting power mode policy is not supported by this device");
	return -EOPNOTSUPP;
}

/* One request: its command, its policy, the release it appeared in, whether it is a SET. */
struct default_request {
	u8 cmd;
	const struct nla_policy *policy;
	unsigned int maxattr;
	int since_major, since_minor;
	bool set;
	u8 perm; /* GENL_UNS_ADMIN_PERM on a GET: WOL's SecureOn password is a secret */
	int (*set_validate)(struct genl_info *info); /* NULL: the driver's ops, -EOPNOTSUPP */
};

/*
 * ethnl_set_rings_validate(): each parameter the request sets is one the driver must have
 * declared in supported_ring_params, in this order (6.18's, probed one pair at a time; 6.12
 * reads the same without HDS_THRESH), before its get and set ops.
 */
static int rings_set_validate(struct genl_info *info)
{
	static const struct {
		u16 type;
		u8 since_minor; /* 6.x */
		const char *msg;
	} params[] = {
		{ETHTOOL_A_RINGS_RX_BUF_LEN, 3, "setting rx buf len not supported"},
		{ETHTOOL_A_RINGS_TCP_DATA_SPLIT, 9, "setting TCP data split is not supported"},
		{ETHTOOL_A_RINGS_HDS_THRESH, 14, "setting hds-thresh is not supported"},
		{ETHTOOL_A_RINGS_CQE_SIZE, 3, "setting cqe size not supported"},
		{ETHTOOL_A_RINGS_TX_PUSH, 3, "setting tx push not supported"},
		{ETHTOOL_A_RINGS_RX_PUSH, 3, "setting rx push not supported"},
		{ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN, 4, "setting tx push buf len is not supported"},
	};

	for (size_t i = 0; i < ARRAY_SIZE(params); i++) {
		const struct nlattr *attr;

		/* the release first: before it, @info->attrs ends short of the parameter */
		if (!kfsim_kernel_at_least(6, params[i].since_minor))
			continue;
		attr = info->attrs[params[i].type];
		if (attr) {
			NL_SET_ERR_MSG_ATTR(info->extack, attr, params[i].msg);
			return -EOPNOTSUPP;
		}
	}
	return -EOPNOTSUPP;
}

static const struct default_request *default_request_of(u8 cmd);

/*
 * ethnl_default_set_doit(): the header, then set_validate, which on a device without the
 * driver's get or set op ends the request: -EOPNOTSUPP (or an attribute's error before it,
 * or 0), nothing changed, no notification.
 */
static int ethnl_default_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	const struct default_request *request = default_request_of(info->genlhdr->cmd);
	struct plca_req_info req;
	int ret;

	if (GENL_REQ_ATTR_CHECK(info, ETHTOOL_A_REQ_HEADER))
		return -EINVAL;
	ret = ethnl_parse_header_dev_get(ethnl_net_of(info->family),
					 info->attrs[ETHTOOL_A_REQ_HEADER], true, &req,
					 info->extack);
	if (ret)
		return ret;
	return request->set_validate ? request->set_validate(info) : -EOPNOTSUPP;
}

/* ethnl_tunnel_info_doit(): no device here reports tunnel offload info. */
static int ethnl_tunnel_info_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct plca_req_info req;
	int ret;

	ret = ethnl_parse_header_dev_get(ethnl_net_of(info->family),
					 info->attrs[ETHTOOL_A_REQ_HEADER], true, &req,
					 info->extack);
	if (ret)
		return ret;
	NL_SET_ERR_MSG(info->extack, "device does not report tunnel offload info");
	return -EOPNOTSUPP;
}

/* ethnl_tunnel_info_dumpit(): every device skipped; the last skip's -EOPNOTSUPP is the end. */
static int ethnl_tunnel_info_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return ethnl_net_of(genl_info_dump(cb)->family)->nr_devs ? -EOPNOTSUPP : 0;
}

static const struct default_request default_requests[] = {
	{ETHTOOL_MSG_STRSET_GET, strset_get_policy, 3, 5, 6},
	{ETHTOOL_MSG_LINKINFO_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 6},
	{ETHTOOL_MSG_LINKINFO_SET, linkinfo_set_policy, 5, 5, 6, true},
	{ETHTOOL_MSG_LINKMODES_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 6},
	{ETHTOOL_MSG_LINKMODES_SET, linkmodes_set_policy, ETHTOOL_A_LINKMODES_LANES, 5, 6, true,
	 .set_validate = linkmodes_set_validate},
	{ETHTOOL_MSG_LINKSTATE_GET, get_policy_stats, ETHTOOL_A_REQ_HEADER, 5, 6},
	{ETHTOOL_MSG_DEBUG_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 6},
	{ETHTOOL_MSG_DEBUG_SET, debug_set_policy, 2, 5, 6, true},
	{ETHTOOL_MSG_WOL_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 6, .perm = GENL_UNS_ADMIN_PERM},
	{ETHTOOL_MSG_WOL_SET, wol_set_policy, 3, 5, 6, true},
	{ETHTOOL_MSG_FEATURES_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 6},
	{ETHTOOL_MSG_FEATURES_SET, features_set_policy, 3, 5, 6, true},
	{ETHTOOL_MSG_PRIVFLAGS_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 7},
	{ETHTOOL_MSG_PRIVFLAGS_SET, privflags_set_policy, ETHTOOL_A_PRIVFLAGS_FLAGS, 5, 7, true,
	 .set_validate = privflags_set_validate},
	{ETHTOOL_MSG_RINGS_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 7},
	{ETHTOOL_MSG_RINGS_SET, rings_set_policy, ETHTOOL_A_RINGS_MAX_6_14, 5, 7, true,
	 .set_validate = rings_set_validate},
	{ETHTOOL_MSG_CHANNELS_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 7},
	{ETHTOOL_MSG_CHANNELS_SET, channels_set_policy, 9, 5, 7, true},
	{ETHTOOL_MSG_COALESCE_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 7},
	{ETHTOOL_MSG_COALESCE_SET, coalesce_set_policy, ETHTOOL_A_COALESCE_TX_PROFILE, 5, 7, true},
	{ETHTOOL_MSG_PAUSE_GET, pause_get_policy, ETHTOOL_A_PAUSE_STATS_SRC, 5, 7},
	{ETHTOOL_MSG_PAUSE_SET, pause_set_policy, 4, 5, 7, true},
	{ETHTOOL_MSG_EEE_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 7},
	{ETHTOOL_MSG_EEE_SET, eee_set_policy, 7, 5, 7, true},
	{ETHTOOL_MSG_TSINFO_GET, tsinfo_get_policy, ETHTOOL_A_TSINFO_MAX_6_17, 5, 7},
	{ETHTOOL_MSG_TUNNEL_INFO_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 9},
	{ETHTOOL_MSG_FEC_GET, get_policy_stats, ETHTOOL_A_REQ_HEADER, 5, 14},
	{ETHTOOL_MSG_FEC_SET, fec_set_policy, 3, 5, 14, true},
	{ETHTOOL_MSG_STATS_GET, stats_get_policy, 5, 5, 13},
	{ETHTOOL_MSG_MODULE_GET, get_policy, ETHTOOL_A_REQ_HEADER, 5, 17},
	{ETHTOOL_MSG_MODULE_SET, module_set_policy, ETHTOOL_A_MODULE_POWER_MODE_POLICY, 5, 17, true,
	 .set_validate = module_set_validate},
	{ETHTOOL_MSG_MM_GET, get_policy_stats, ETHTOOL_A_REQ_HEADER, 6, 4},
};

static const struct default_request *default_request_of(u8 cmd)
{
	for (size_t i = 0; i < ARRAY_SIZE(default_requests); i++)
		if (default_requests[i].cmd == cmd)
			return &default_requests[i];
	return NULL; /* not reached: every op of ethnl_default_set_doit() is a row */
}

/* @req's do and dump halves at @ops[0] and @ops[1] (a SET: its do at @ops[0]); how many. */
static int default_request_ops(const struct default_request *req, struct genl_split_ops *ops)
{
	const struct nla_policy *policy = req->policy;
	unsigned int maxattr = req->maxattr;

	if (req->cmd == ETHTOOL_MSG_PAUSE_GET && !kfsim_kernel_at_least(6, 4)) {
		policy = get_policy_stats; /* no STATS_SRC before 6.4 */
		maxattr = ETHTOOL_A_REQ_HEADER;
	}
	if (req->cmd == ETHTOOL_MSG_PAUSE_SET && kfsim_kernel_at_least(6, 17)) {
		policy = pause_set_policy_6_17;
		maxattr = ETHTOOL_A_PAUSE_STATS_SRC;
	}
	if (req->cmd == ETHTOOL_MSG_TSINFO_GET && !kfsim_kernel_at_least(6, 17))
		maxattr = ETHTOOL_A_TSINFO_HWTSTAMP_PROVIDER;
	if (req->cmd == ETHTOOL_MSG_TSINFO_GET && !kfsim_kernel_at_least(6, 14)) {
		policy = kfsim_kernel_at_least(6, 10) ? get_policy_stats : get_policy;
		maxattr = ETHTOOL_A_REQ_HEADER;
	}
	if (req->cmd == ETHTOOL_MSG_RINGS_SET && !kfsim_kernel_at_least(6, 14)) {
		policy = kfsim_kernel_at_least(6, 9)   ? rings_set_policy_6_9
			 : kfsim_kernel_at_least(6, 4) ? rings_set_policy_6_4
						       : rings_set_policy_6_3;
		maxattr = kfsim_kernel_at_least(6, 4) ? ETHTOOL_A_RINGS_TX_PUSH_BUF_LEN
						      : ETHTOOL_A_RINGS_RX_PUSH;
	}
	if (req->cmd == ETHTOOL_MSG_STRSET_GET && !kfsim_kernel_at_least(6, 11))
		policy = strset_get_policy_6_3; /* no PHY_INDEX */
	if (req->cmd == ETHTOOL_MSG_STATS_GET && !kfsim_kernel_at_least(6, 4))
		maxattr = 3; /* no SRC */
	if (req->cmd == ETHTOOL_MSG_COALESCE_SET && !kfsim_kernel_at_least(6, 11)) {
		policy = coalesce_set_6_3; /* no RX_PROFILE, TX_PROFILE */
		maxattr = ETHTOOL_A_COALESCE_TX_AGGR_TIME_USECS;
	}
	if (req->set) {
		ops[0] = (struct genl_split_ops){.doit = req->cmd == ETHTOOL_MSG_FEATURES_SET
								 ? ethnl_set_features
								 : ethnl_default_set_doit,
						 .policy = policy,
						 .maxattr = maxattr,
						 .cmd = req->cmd,
						 .flags = GENL_CMD_CAP_DO | GENL_UNS_ADMIN_PERM};
		return 1;
	}
	ops[0] = (struct genl_split_ops){.doit = default_doit,
					 .policy = policy,
					 .maxattr = maxattr,
					 .cmd = req->cmd,
					 .flags = GENL_CMD_CAP_DO | req->perm};
	ops[1] = (struct genl_split_ops){.start = default_start,
					 .dumpit = default_dumpit,
					 .policy = policy,
					 .maxattr = maxattr,
					 .cmd = req->cmd,
					 .flags = GENL_CMD_CAP_DUMP | req->perm};
	if (req->cmd == ETHTOOL_MSG_TUNNEL_INFO_GET) {
		ops[0].doit = ethnl_tunnel_info_doit;
		ops[1].start = ethnl_dump_header_start; /* ethnl_tunnel_info_start() */
		ops[1].dumpit = ethnl_tunnel_info_dumpit;
	}
	if (req->cmd == ETHTOOL_MSG_TSINFO_GET) {
		ops[0].doit = ethnl_tsinfo_doit;
		ops[1].start = ethnl_tsinfo_start;
		ops[1].dumpit = ethnl_tsinfo_dumpit;
	}
	return 2;
}

int ethtool_default_ops_add(struct kfsim_plca_net *net, int nr)
{
	struct genl_split_ops merged[KFSIM_ETHTOOL_MAX_OPS];
	int n = 0, generated = 0;

	BUILD_BUG_ON(2 * ARRAY_SIZE(default_requests) + ARRAY_SIZE(ethtool_nl_ops) >
		     KFSIM_ETHTOOL_MAX_OPS);
	for (size_t i = 0; i < ARRAY_SIZE(default_requests); i++) {
		const struct default_request *req = &default_requests[i];

		if (!kfsim_kernel_at_least(req->since_major, req->since_minor))
			continue;
		while (generated < nr && net->ops[generated].cmd < req->cmd)
			merged[n++] = net->ops[generated++];
		n += default_request_ops(req, &merged[n]);
	}
	while (generated < nr)
		merged[n++] = net->ops[generated++];
	memcpy(net->ops, merged, sizeof(merged[0]) * (size_t)n);
	return n;
}
