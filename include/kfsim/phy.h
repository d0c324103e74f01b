/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PHY_H
#define KFSIM_PHY_H

/*
 * Ethernet PHY types (include/linux/phy.h).  The PLCA configuration and status structures are the
 * ones the kernel carries from ethtool netlink to a PHY driver (Linux 6.3); the PLCA part fills in
 * struct phy_device and the genphy helpers, and the bus simulator takes its nodes' settings from
 * the same struct phy_plca_cfg.
 */
#include <stdbool.h>

/**
 * struct phy_plca_cfg - PLCA (Physical Layer Collision Avoidance) configuration
 * @version: read-only PLCA register map version; -1 = not available.  Ignored when setting.
 * @enabled: PLCA configured mode (enabled/disabled); -1 = not available / don't set; 0 = disabled,
 *           anything else = enabled
 * @node_id: PLCA local node identifier; -1 = not available / don't set.  0..254 set the ID,
 *           255 disables the node (no transmit opportunity)
 * @node_cnt: PLCA node count, the maximum number of nodes having a TO; -1 = not available / don't
 *            set.  Only meaningful for the coordinator (node_id 0).  1..255
 * @to_tmr: transmit opportunity timer in bit times; -1 = not available / don't set.  0..255, must
 *          be the same on every node of a segment (default 32)
 * @burst_cnt: extra packets a node may send in one TO; -1 = not available / don't set.  0..255,
 *             0 = one packet per TO
 * @burst_tmr: bit times to wait for the MAC to send a new frame before ending the burst;
 *             -1 = not available / don't set.  0..255, should exceed the inter-packet gap (96 BT)
 */
struct phy_plca_cfg {
	int version;
	int enabled;
	int node_id;
	int node_cnt;
	int to_tmr;
	int burst_cnt;
	int burst_tmr;
};

/**
 * struct phy_plca_status - PLCA status
 * @pst: the PLCA status as reported by the PST bit of the PLCA STATUS register: true when the
 *       node sees (follower) or sends (coordinator) BEACONs
 */
struct phy_plca_status {
	bool pst;
};

#endif /* KFSIM_PHY_H */
