/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PLCA_ETHTOOL_PLCA_NL_H
#define KFSIM_PLCA_ETHTOOL_PLCA_NL_H

/* The ethtool PLCA family's kernel side, shared by ethtool_plca.c and ethtool_genl.c. */
#include "ethtool_nlattr.h"
#include "plca_internal.h"

extern const struct nla_policy ethnl_plca_get_cfg_policy[ETHTOOL_A_PLCA_HEADER + 1];
extern const struct nla_policy ethnl_plca_get_status_policy[ETHTOOL_A_PLCA_HEADER + 1];
extern const struct nla_policy ethnl_plca_set_cfg_policy[ETHTOOL_A_PLCA_MAX + 1];

/* ethnl_parse_header_dev_get(): the device a request header names (NULL if none given). */
int ethnl_parse_header_dev_get(struct kfsim_plca_net *net, const struct nlattr *header,
			       bool require_dev, struct net_device **devp,
			       struct netlink_ext_ack *extack);
int plca_get_cfg_prepare_data(struct kfsim_plca_net *net, struct net_device *dev,
			      struct phy_plca_cfg *cfg);
int plca_get_status_prepare_data(struct kfsim_plca_net *net, struct net_device *dev,
				 struct phy_plca_status *st);
int plca_get_cfg_fill_reply(struct kfsim_nlbuf *buf, const struct net_device *dev,
			    const struct phy_plca_cfg *cfg);
int plca_get_status_fill_reply(struct kfsim_nlbuf *buf, const struct net_device *dev,
			       const struct phy_plca_status *st);
/* ethnl_set_plca(): 1 applied (notify), 0 nothing to do, or a negative errno. */
int ethnl_set_plca(struct kfsim_plca_net *net, struct net_device *dev, struct nlattr **tb,
		   const struct nlmsghdr *nlh, struct netlink_ext_ack *extack);

#endif /* KFSIM_PLCA_ETHTOOL_PLCA_NL_H */
