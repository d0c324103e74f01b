// SPDX-License-Identifier: MIT
/*
 * TSINFO_GET (net/ethtool/tsinfo.c; read in 6.12, answers checked against the running 6.18 on
 * an ifb device, whose driver has no get_ts_info either): what time stamping a simulated
 * device offers.  Its MAC driver has no get_ts_info and its PHY no time stamping, so
 * __ethtool_get_ts_info() gives the software receive stamps every device has
 * (SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE) and no PHC (index -1).  The reply:
 * the header, TIMESTAMPING as a bitset; no TX_TYPES, RX_FILTERS or PHC_INDEX (none to report);
 * with ETHTOOL_FLAG_STATS (6.10 on) an empty STATS nest (no get_ts_stats).
 *
 * Releases: the bitset's size is __SOF_TIMESTAMPING_CNT, 17 (OPT_ID_TCP the last flag) before
 * 6.11, 18 from 6.11 (OPT_RX_FILTER), 19 from 6.16 (TX_COMPLETION); 6.12's 18 read, 6.18's 19
 * seen.  From 6.14 (the hardware time stamp provider series) the request may name a
 * HWTSTAMP_PROVIDER (INDEX and QUALIFIER, both required): none matches a device without a PHC,
 * -ENODEV, unless INDEX is -1 (none asked for); and a dump skips every device whose driver has
 * no get_ts_info and whose PHYs do no time stamping, all the simulated ones, named in the
 * header or not, and the provider is not looked at there.  Before 6.14 a dump is
 * ethnl_default_dumpit(): every device answers.
 */
#include <kfsim/cmdline.h>
#include <kfsim/netlink.h>
#include "plca_internal.h"

enum {
	ETHTOOL_A_TSINFO_TIMESTAMPING = 2,
	ETHTOOL_A_TSINFO_STATS = 6,
};
#define ETHTOOL_MSG_TSINFO_GET_REPLY 26
#define SOF_TIMESTAMPING_RX_SOFTWARE (1u << 3)
#define SOF_TIMESTAMPING_SOFTWARE (1u << 4)

/* sof_timestamping_names[]: the SOF_TIMESTAMPING_* flags' names, by bit (6.18's STRSET, 19). */
static const char sof_timestamping_names[][ETH_GSTRING_LEN] = {
	"hardware-transmit",	 /* 0 */
	"software-transmit",	 /* 1 */
	"hardware-receive",	 /* 2 */
	"software-receive",	 /* 3 */
	"software-system-clock", /* 4 */
	"hardware-legacy-clock", /* 5 */
	"hardware-raw-clock",	 /* 6 */
	"option-id",		 /* 7 */
	"sched-transmit",	 /* 8 */
	"ack-transmit",		 /* 9 */
	"option-cmsg",		 /* 10 */
	"option-tsonly",	 /* 11 */
	"option-stats",		 /* 12 */
	"option-pktinfo",	 /* 13 */
	"option-tx-swhw",	 /* 14 */
	"bind-phc",		 /* 15 */
	"option-id-tcp",	 /* 16 */
	"option-rx-filter",	 /* 17 */
	"tx-completion",	 /* 18 */
};

/* __SOF_TIMESTAMPING_CNT at the modelled release. */
static unsigned int sof_timestamping_cnt(void)
{
	if (kfsim_kernel_at_least(6, 16))
		return 19;
	return kfsim_kernel_at_least(6, 11) ? 18 : 17;
}

/*
 * tsinfo_parse_request() (6.14): a provider needs its index and qualifier; an index of -1 asks
 * for none.  The op's policy validated the nest (ethtool_default.c); parsed again without one,
 * as ethnl_parse_header_dev_get() parses the header.  The kernel's -ENODEV for a provider no
 * PHC of the device has comes from prepare_data, the next step, where nothing else can fail
 * first: answered here.
 */
static int tsinfo_parse_request(struct plca_req_info *req, struct nlattr **tb,
				struct netlink_ext_ack *extack)
{
	struct nlattr *prov[ETHTOOL_A_TS_HWTSTAMP_PROVIDER_QUALIFIER + 1];
	const struct nlattr *nest;
	int ret;

	/* before 6.14 @tb ends at the header: the op's policy has no provider */
	if (!kfsim_kernel_at_least(6, 14))
		return 0;
	nest = tb[ETHTOOL_A_TSINFO_HWTSTAMP_PROVIDER];
	if (!nest)
		return 0;
	ret = nla_parse_nested(prov, ETHTOOL_A_TS_HWTSTAMP_PROVIDER_QUALIFIER, nest, NULL, extack);
	if (ret < 0)
		return ret;
	if (NL_REQ_ATTR_CHECK(extack, nest, prov, ETHTOOL_A_TS_HWTSTAMP_PROVIDER_INDEX) ||
	    NL_REQ_ATTR_CHECK(extack, nest, prov, ETHTOOL_A_TS_HWTSTAMP_PROVIDER_QUALIFIER))
		return -EINVAL;
	/* ethtool_get_ts_info_by_phc(): no PHC of this device has the index */
	return nla_get_u32(prov[ETHTOOL_A_TS_HWTSTAMP_PROVIDER_INDEX]) == (u32)-1 ? 0 : -ENODEV;
}

/* tsinfo_prepare_data(): __ethtool_get_ts_info() of a device without time stamping. */
static int tsinfo_prepare_data(struct kfsim_plca_net *net, const struct plca_req_info *req,
			       const struct nlattr *header, union ethnl_reply_data *data,
			       struct netlink_ext_ack *extack)
{
	data->so_timestamping = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	return 0;
}

static int tsinfo_fill_reply(struct sk_buff *skb, const struct kfsim_plca_net *net,
			     const struct plca_req_info *req, const union ethnl_reply_data *data)
{
	bool compact = req->flags & ETHTOOL_FLAG_COMPACT_BITSETS;
	struct nlattr *stats;
	int ret;

	ret = ethnl_put_bitset32(skb, ETHTOOL_A_TSINFO_TIMESTAMPING, &data->so_timestamping,
				 sof_timestamping_cnt(), sof_timestamping_names, compact);
	if (ret < 0 || !(req->flags & ETHTOOL_FLAG_STATS))
		return ret;
	stats = nla_nest_start(skb, ETHTOOL_A_TSINFO_STATS); /* tsinfo_put_stats(): none set */
	if (!stats)
		return -EMSGSIZE;
	nla_nest_end(skb, stats);
	return 0;
}

static const struct ethnl_request_ops ethnl_tsinfo_request_ops = {
	.reply_cmd = ETHTOOL_MSG_TSINFO_GET_REPLY,
	.parse_request = tsinfo_parse_request,
	.prepare_data = tsinfo_prepare_data,
	.fill_reply = tsinfo_fill_reply,
};

int ethnl_tsinfo_doit(struct sk_buff *skb, struct genl_info *info)
{
	return ethnl_default_doit(info, &ethnl_tsinfo_request_ops);
}

/* ethnl_tsinfo_start(): the header's errors (6.14); before, ethnl_default_start(). */
int ethnl_tsinfo_start(struct netlink_callback *cb)
{
	if (!kfsim_kernel_at_least(6, 14))
		return ethnl_default_start(cb, &ethnl_tsinfo_request_ops);
	return ethnl_dump_header_start(cb);
}

/* ethnl_tsinfo_dumpit(): no simulated device time stamps (6.14); before, every one answers. */
int ethnl_tsinfo_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	if (!kfsim_kernel_at_least(6, 14))
		return ethnl_default_dumpit(skb, cb, &ethnl_tsinfo_request_ops);
	return 0;
}
