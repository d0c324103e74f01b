// SPDX-License-Identifier: MIT
/*
 * From configuration to bus: the nodes of a simulated segment taken from the PHYs of a
 * kfsim_plca_net, each with the PLCA settings its driver reports through
 * phy_ethtool_get_plca_cfg(), the same call `ethtool --get-plca-cfg` ends in.  So whatever
 * `kfsim ethtool --set-plca-cfg` (or a --config file) put in the PHY registers is what the bus
 * runs, driver quirks included (the NCN26000's TO timer, for one).
 *
 * The PHY's own behaviour on the wire comes from its registers too: a LAN867x whose collision
 * detector control (VEND2 0x0087) has bit 15 clear, as lan86xx_plca_set_cfg() (6.13+) leaves it
 * whenever PLCA is enabled, detects no physical collision (node.no_collision_detect); a LAN867x
 * coordinator stops its BEACONs when it hears another's (node.stops_on_foreign_beacon).
 *
 * Invariant: a segment is the set of PHYs sharing one phydev->segment, in ifindex order; a PHY
 * that cannot report PLCA settings is not a 10BASE-T1S node and is left out.
 */
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/plca.h>
#include <kfsim/printk.h>
#include "bus_internal.h"

static bool collision_detect_off(const struct phy_device *phydev)
{
	return kfsim_phy_implements(phydev, MDIO_MMD_VEND2, LAN86XX_REG_COL_DET_CTRL0) &&
	       !(kfsim_phy_peek(phydev, MDIO_MMD_VEND2, LAN86XX_REG_COL_DET_CTRL0) &
		 COL_DET_CTRL0_ENABLE_BIT_MASK);
}

static bool plca_capable(struct net_device *dev, struct phy_plca_cfg *cfg)
{
	return dev->phydev && !phy_ethtool_get_plca_cfg(dev->phydev, cfg);
}

int kfsim_plca_sim_nodes_from_net(struct kfsim_plca_net *net, const char *dev_name,
				  struct plca_sim_node_cfg *nodes, u32 max, char (*names)[16])
{
	const struct kfsim_plca_segment *segment = NULL;
	struct phy_plca_cfg cfg;
	struct net_device *dev;
	u32 nr = 0;

	for (int i = 0; (dev = kfsim_plca_net_dev_at(net, i)); i++) {
		if (dev_name ? !strcmp(dev->name, dev_name) : plca_capable(dev, &cfg)) {
			segment = dev->phydev ? dev->phydev->segment : NULL;
			break;
		}
	}
	/*
	 * Three cases the user mends differently, each with its own code, so that the caller's
	 * message follows from the code and the name it passed and no caller looks the device up
	 * again: -ENODEV for a name no device has, as ethtool's netlink answers; -EOPNOTSUPP for
	 * a device without a PHY or PLCA hooks, as plca_get_cfg_prepare_data() answers (6.12),
	 * also where the PHY's own call failed otherwise (a vendor map's -ENODEV would read as
	 * "no such device").
	 */
	if (!dev) {
		if (dev_name)
			pr_err("plca_sim: no device %s\n", dev_name);
		else
			pr_err("plca_sim: no device has a PHY with PLCA settings\n");
		return -ENODEV;
	}
	if (!plca_capable(dev, &cfg)) {
		pr_err("plca_sim: device %s has no PHY with PLCA settings\n", dev_name);
		return -EOPNOTSUPP;
	}
	for (int i = 0; (dev = kfsim_plca_net_dev_at(net, i)); i++) {
		if (!dev->phydev || dev->phydev->segment != segment || !plca_capable(dev, &cfg))
			continue;
		if (nr == max) {
			pr_err("plca_sim: more than %u PLCA PHYs on the segment\n", max);
			return -E2BIG;
		}
		nodes[nr] = (struct plca_sim_node_cfg){
			.plca = cfg, .no_collision_detect = collision_detect_off(dev->phydev),
			/* Microchip's LAN867x errata: a coordinator hearing a foreign BEACON stops */
			.stops_on_foreign_beacon = (dev->phydev->phy_id & PHY_ID_MATCH_MODEL_MASK) ==
						   (PHY_ID_LAN867X_REVB1 & PHY_ID_MATCH_MODEL_MASK)};
		if (names)
			snprintf(names[nr], sizeof(names[nr]), "%s", dev->name);
		nr++;
	}
	return (int)nr;
}
