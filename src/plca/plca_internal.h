/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PLCA_INTERNAL_H
#define KFSIM_PLCA_INTERNAL_H

/* What the files of src/plca share and users do not see: the namespace's insides. */
#include <kfsim/netlink.h>
#include <kfsim/plca.h>

#define KFSIM_PLCA_MAX_DEVS 64
#define KFSIM_PLCA_MAX_SEGMENTS 8

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
 *       family was registered at
 */
struct kfsim_plca_net {
	struct net_device *devs[KFSIM_PLCA_MAX_DEVS];
	int nr_devs;
	struct kfsim_plca_segment segments[KFSIM_PLCA_MAX_SEGMENTS];
	const struct ethtool_phy_ops *phy_ops;
	u32 bcast_seq;
	struct kfsim_net *ns;
	struct genl_family family;
	struct genl_split_ops ops[5];
};


/* genl_register_family() of the ethtool family (PLCA ops) into @net->nlk. */
int kfsim_plca_register_family(struct kfsim_plca_net *net);

#endif /* KFSIM_PLCA_INTERNAL_H */
