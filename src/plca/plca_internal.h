/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PLCA_INTERNAL_H
#define KFSIM_PLCA_INTERNAL_H

/* What the files of src/plca share and users do not see: the namespace's insides. */
#include <kfsim/netlink.h>
#include <kfsim/plca.h>

#define KFSIM_PLCA_MAX_DEVS 64
#define KFSIM_PLCA_MAX_SEGMENTS 8
/* The generated PLCA ops, and the do and dump halves of ethtool_default.c's requests. */
#define KFSIM_ETHTOOL_MAX_OPS 80

/** struct kfsim_plca_segment - a mixing segment: the PHYs whose @segment points here share it */
struct kfsim_plca_segment {
	struct kfsim_plca_net *net;
	int id;
};

/**
 * struct kfsim_plca_net - see plca.h
 * @devs: devices in ifindex order
 * @nr_devs: how many
 * @segments: the mixing segments
 * @phy_ops: phylib's ops, NULL when "phylib is not loaded"
 * @bcast_seq: ethnl_bcast_seq: the sequence number of the last notification
 * @ns: the namespace this is PLCA's part of (its netlink kernel has the ethtool family)
 * @family: the ethtool genetlink family (its PLCA ops)
 * @ops: the family's op table: the generated one, with the header policy of the release the
 *       family was registered at, and ethtool_default.c's GETs
 */
struct kfsim_plca_net {
	struct net_device *devs[KFSIM_PLCA_MAX_DEVS];
	int nr_devs;
	struct kfsim_plca_segment segments[KFSIM_PLCA_MAX_SEGMENTS];
	const struct ethtool_phy_ops *phy_ops;
	u32 bcast_seq;
	struct kfsim_net *ns;
	struct genl_family family;
	struct genl_split_ops ops[KFSIM_ETHTOOL_MAX_OPS];
};

/* What a request header names (struct ethnl_req_info's part kfsim needs). */
struct plca_req_info {
	struct net_device *dev;
	u32 phy_index;	/* 0 = the device's attached PHY */
	u32 flags;	/* ETHTOOL_A_HEADER_FLAGS */
	/* what a request's parse_request read (struct <req>_req_info's own fields) */
	u32 req_ids;	/* STRSET: the string sets asked for (bit = ETH_SS_*), 0: all */
	bool counts_only; /* STRSET: counts, no strings */
	u32 stat_mask;	/* STATS: the groups asked for (bit = ETHTOOL_STATS_*) */
	u32 stats_src;	/* STATS: enum ethtool_mac_stats_src */
};

/* The namespace whose ethtool family @family is (each namespace registers its own). */
static inline struct kfsim_plca_net *ethnl_net_of(const struct genl_family *family)
{
	return container_of(family, struct kfsim_plca_net, family);
}

/* Every request's header is its attribute 1 (ETHTOOL_A_<REQ>_HEADER). */
#define ETHTOOL_A_REQ_HEADER 1

/*
 * ethnl_parse_header_dev_get(): the device the header names (NULL when none and !require_dev)
 * and, from 6.11, the PHY_INDEX, which needs a device; -ENODEV or -EINVAL with the kernel's
 * extack otherwise.
 */
int ethnl_parse_header_dev_get(struct kfsim_plca_net *net, const struct nlattr *header,
			       bool require_dev, struct plca_req_info *req,
			       struct netlink_ext_ack *extack);

/*
 * ethnl_req_get_phydev(): the device's PHY or the one PHY_INDEX names (ethtool_plca.c); NULL
 * for none, ERR_PTR(-ENODEV) with "no phy matching phyindex" at @header for an index naming
 * none (no message and NULL when @header is NULL: a dump).
 */
struct phy_device *ethnl_req_get_phydev(const struct plca_req_info *req,
					const struct nlattr *header,
					struct netlink_ext_ack *extack);

/* ethnl_fill_reply_header(): the reply's header nest @attrtype: DEV_INDEX and DEV_NAME. */
int ethnl_fill_reply_header(struct sk_buff *skb, const struct net_device *dev, u16 attrtype);

/* What a request's prepare_data leaves for its fill_reply (struct ethnl_reply_data's union). */
union ethnl_reply_data {
	struct phy_plca_cfg plca_cfg;
	struct phy_plca_status plca_status;
	u32 so_timestamping;	/* TSINFO's SOF_TIMESTAMPING_* flags */
	struct {		/* FEATURES: hw, wanted, active, nochange, all (u32 words) */
		u32 hw[2], wanted[2], active[2], nochange[2], all[2];
	} features;
};

/**
 * struct ethnl_request_ops - one GET request's own steps (net/ethtool/netlink.h)
 * @reply_cmd: the reply's command
 * @hdr_attr: the request's and reply's header attribute when not 1 (STATS': 2, after PAD)
 * @allow_nodev_do: the doit's header may name no device (the reply then has no header nest)
 * @parse_request: the request's attributes besides the header (NULL: none to look at)
 * @prepare_data: what the device has to say; -EOPNOTSUPP when its driver lacks the op (a dump
 *	skips such a device).  @header is NULL in a dump.
 * @fill_reply: the reply's attributes after the header nest (NULL: the header alone)
 */
struct ethnl_request_ops {
	u8 reply_cmd;
	u8 hdr_attr;		/* the header's attribute: 0 for ETHTOOL_A_REQ_HEADER (1) */
	bool allow_nodev_do;	/* a doit whose header names no device answers (STRSET) */
	int (*parse_request)(struct plca_req_info *req, struct nlattr **tb,
			     struct netlink_ext_ack *extack);
	int (*prepare_data)(struct kfsim_plca_net *net, const struct plca_req_info *req,
			    const struct nlattr *header, union ethnl_reply_data *data,
			    struct netlink_ext_ack *extack);
	int (*fill_reply)(struct sk_buff *skb, const struct kfsim_plca_net *net,
			  const struct plca_req_info *req, const union ethnl_reply_data *data);
};

/* The header attribute of @ops' requests and replies. */
static inline u16 ethnl_hdr_attr(const struct ethnl_request_ops *ops)
{
	return ops->hdr_attr ? ops->hdr_attr : ETHTOOL_A_REQ_HEADER;
}

/*
 * The default handlers of ethtool_netlink.c, each a kernel function of net/ethtool/netlink.c
 * with the request's ops passed in (the kernel finds them in ethnl_default_requests[cmd]):
 * ethnl_default_doit(), ethnl_default_start(), ethnl_default_dumpit().
 */
int ethnl_default_doit(struct genl_info *info, const struct ethnl_request_ops *ops);
int ethnl_default_start(struct netlink_callback *cb, const struct ethnl_request_ops *ops);
int ethnl_default_dumpit(struct sk_buff *skb, struct netlink_callback *cb,
			 const struct ethnl_request_ops *ops);
/*
 * ethnl_dump_header_start() - the start of a dump whose own start handler only parses the
 * request header (TUNNEL_INFO's, and TSINFO's since 6.14): the header's errors, nothing kept.
 */
int ethnl_dump_header_start(struct netlink_callback *cb);

/*
 * ethnl_fill_msg() - one complete message of @ops's kind about @req->dev into @skb: the genl
 * header (@reply_cmd), the header nest, @ops->fill_reply; nothing left in @skb on failure
 * (-EMSGSIZE).  Replies, dump parts and notifications alike.
 */
int ethnl_fill_msg(struct sk_buff *skb, const struct kfsim_plca_net *net, u8 reply_cmd,
		   u32 portid, u32 seq, int flags, const struct ethnl_request_ops *ops,
		   const struct plca_req_info *req, const union ethnl_reply_data *data);

#define ETH_GSTRING_LEN 32

/* The buffer a reply is built in: room for the largest, STRSET's global sets. */
#define ETHNL_REPLY_MAX_SIZE 32768

/*
 * ethnl_put_bitset32() - the bitset @attrtype of @nbits bits @val (u32 words) without a mask,
 * in the list form (net/ethtool/bitset.c): compact (the words) or verbose (each set bit's index
 * and name from @names).  Return: 0, or -EMSGSIZE (nothing added).
 */
int ethnl_put_bitset32(struct sk_buff *skb, int attrtype, const u32 *val, unsigned int nbits,
		       const char (*names)[ETH_GSTRING_LEN], bool compact);

/* ethnl_put_bitset32() with a mask: the value/mask form (@mask NULL: the list form). */
int ethnl_put_bitset32_mask(struct sk_buff *skb, int attrtype, const u32 *val, const u32 *mask,
			    unsigned int nbits, const char (*names)[ETH_GSTRING_LEN], bool compact);

/* ethnl_put_strz(): a string of at most ETH_GSTRING_LEN bytes, NUL-terminated. */
int ethnl_put_strz(struct sk_buff *skb, u16 attrtype, const char *s);

/* The longest bitmap a request may set here: FEATURES' 64 bits. */
#define ETHNL_BITSET32_MAX_WORDS 2

/*
 * ethnl_parse_bitset() for u32 words: the value and mask (@nbits bits each) the bitset nest
 * @attr asks for, compact or verbose (names looked up in @names); nothing when @attr is NULL.
 * Return: 0, or the kernel's error with its extack message.
 */
int ethnl_parse_bitset32(u32 *val, u32 *mask, unsigned int nbits, const struct nlattr *attr,
			 const char (*names)[ETH_GSTRING_LEN], struct netlink_ext_ack *extack);

/*
 * ethnl_update_bitset32() - @bitmap (@nbits <= 32 * ETHNL_BITSET32_MAX_WORDS) updated as the
 * bitset nest @attr says; *@mod set when a bit changed.  Return: 0 or the kernel's error.
 */
int ethnl_update_bitset32(u32 *bitmap, unsigned int nbits, const struct nlattr *attr,
			  const char (*names)[ETH_GSTRING_LEN], struct netlink_ext_ack *extack,
			  bool *mod);

/* ethtool_strset.c: the kernel's global string sets (6.18's), by ETH_SS_* id. */
#define ETH_SS_FEATURES 4
#define ETH_SS_STATS_STD 16
#define ETH_SS_STATS_ETH_PHY 17
#define ETH_SS_STATS_ETH_MAC 18
#define ETH_SS_STATS_ETH_CTRL 19
#define ETH_SS_STATS_RMON 20
#define ETH_SS_STATS_PHY 21
#define NETDEV_FEATURE_COUNT 64
extern const char ethnl_features_names[NETDEV_FEATURE_COUNT][ETH_GSTRING_LEN];
extern const char ethnl_stats_std_names[5][ETH_GSTRING_LEN];
/* __ETHTOOL_STATS_CNT at the modelled release: 5 with the PHY's group ("phydev"), else 4. */
unsigned int ethnl_stats_std_count(void);

/*
 * netdev_register_features() - a new device's features as register_netdevice() leaves them for
 * a driver that declares none (lan865x's, the PLCA MAC-PHY): the software ones (ethtool_features.c)
 */
void netdev_register_features(struct net_device *dev);

/*
 * The request ops of STRSET, FEATURES and STATS (ethtool_strset.c, _features.c, _stats.c), run
 * by the default handlers as the kernel's ethnl_default_requests[] has them
 * (ethtool_default.c's request_ops()); FEATURES_SET has a handler of its own.
 */
extern const struct ethnl_request_ops ethnl_strset_request_ops;
extern const struct ethnl_request_ops ethnl_features_request_ops;
extern const struct ethnl_request_ops ethnl_stats_request_ops;
int ethnl_set_features(struct sk_buff *skb, struct genl_info *info);

/* TSINFO_GET's attributes the op table names (ETHTOOL_A_TSINFO_*, ETHTOOL_A_TS_*). */
#define ETHTOOL_A_TSINFO_HWTSTAMP_PROVIDER 7
#define ETHTOOL_A_TSINFO_MAX_6_17 9
#define ETHTOOL_A_TS_HWTSTAMP_PROVIDER_INDEX 1
#define ETHTOOL_A_TS_HWTSTAMP_PROVIDER_QUALIFIER 2

/* ethtool_tsinfo.c's handlers of TSINFO_GET (ethnl_tsinfo_*; the dump's are 6.14's). */
int ethnl_tsinfo_doit(struct sk_buff *skb, struct genl_info *info);
int ethnl_tsinfo_start(struct netlink_callback *cb);
int ethnl_tsinfo_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

/*
 * ethtool_default_ops_add() - the ethtool GET ops of ethtool_default.c in @net->ops, merged with
 * the @nr generated ones already there in command order, as the kernel's table is ordered
 * Return: how many ops the table holds now.
 */
int ethtool_default_ops_add(struct kfsim_plca_net *net, int nr);


/* genl_register_family() of the ethtool family (PLCA ops) into @net->nlk. */
int kfsim_plca_register_family(struct kfsim_plca_net *net);

#endif /* KFSIM_PLCA_INTERNAL_H */
