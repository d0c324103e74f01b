// SPDX-License-Identifier: MIT
/*
 * phylib's ethtool_phy_ops for PLCA (drivers/net/phy/phy.c, Linux 6.3): the layer between
 * ethtool netlink and a PHY driver.  It takes phydev->lock around the driver hooks and checks a
 * SET request against what the PHY reports before any register is written, so that a request
 * it rejects leaves the PHY untouched.
 */
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/phy.h>
#include <kfsim/netlink.h>

int phy_ethtool_get_plca_cfg(struct phy_device *phydev, struct phy_plca_cfg *plca_cfg)
{
	int ret;

	if (!phydev->drv)
		return -EIO;
	if (!phydev->drv->get_plca_cfg)
		return -EOPNOTSUPP;
	mutex_lock(&phydev->lock);
	ret = phydev->drv->get_plca_cfg(phydev, plca_cfg);
	mutex_unlock(&phydev->lock);
	return ret;
}

/* A field the PHY cannot report (-1) cannot be changed either. */
static int check_supported(const struct phy_plca_cfg *curr, const struct phy_plca_cfg *req,
			   struct netlink_ext_ack *extack)
{
	static const struct {
		size_t offset;
		const char *msg;
	} fields[] = {
		{ offsetof(struct phy_plca_cfg, enabled),
		  "PHY does not support changing the PLCA 'enable' attribute" },
		{ offsetof(struct phy_plca_cfg, node_id),
		  "PHY does not support changing the PLCA 'local node ID' attribute" },
		{ offsetof(struct phy_plca_cfg, node_cnt),
		  "PHY does not support changing the PLCA 'node count' attribute" },
		{ offsetof(struct phy_plca_cfg, to_tmr),
		  "PHY does not support changing the PLCA 'TO timer' attribute" },
		{ offsetof(struct phy_plca_cfg, burst_cnt),
		  "PHY does not support changing the PLCA 'burst count' attribute" },
		{ offsetof(struct phy_plca_cfg, burst_tmr),
		  "PHY does not support changing the PLCA 'burst timer' attribute" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		int have = *(const int *)((const char *)curr + fields[i].offset);
		int want = *(const int *)((const char *)req + fields[i].offset);

		if (have < 0 && want >= 0) {
			NL_SET_ERR_MSG(extack, fields[i].msg);
			return -EINVAL;
		}
	}
	return 0;
}

/* Enabling PLCA needs a multidrop PHY and a node ID (the request's, else the current one). */
static int check_enable(struct phy_device *phydev, const struct phy_plca_cfg *curr,
			const struct phy_plca_cfg *req, struct netlink_ext_ack *extack)
{
	int node_id = req->node_id >= 0 ? req->node_id : curr->node_id;

	if (req->enabled <= 0)
		return 0;
	if (!phydev->p2mp) {
		NL_SET_ERR_MSG(extack, "Point to Multi-Point mode is not enabled");
		return -EOPNOTSUPP;
	}
	if (node_id >= 255) {
		NL_SET_ERR_MSG(extack, "PLCA node ID is not set");
		return -EINVAL;
	}
	return 0;
}

int phy_ethtool_set_plca_cfg(struct phy_device *phydev, const struct phy_plca_cfg *plca_cfg,
			     struct netlink_ext_ack *extack)
{
	struct phy_plca_cfg curr;
	int ret;

	if (!phydev->drv)
		return -EIO;
	if (!phydev->drv->set_plca_cfg || !phydev->drv->get_plca_cfg)
		return -EOPNOTSUPP;

	/* What the driver leaves untouched is "not supported". */
	memset(&curr, 0xff, sizeof(curr));
	mutex_lock(&phydev->lock);
	ret = phydev->drv->get_plca_cfg(phydev, &curr);
	if (!ret)
		ret = check_supported(&curr, plca_cfg, extack);
	if (!ret)
		ret = check_enable(phydev, &curr, plca_cfg, extack);
	if (!ret)
		ret = phydev->drv->set_plca_cfg(phydev, plca_cfg);
	mutex_unlock(&phydev->lock);
	return ret;
}

int phy_ethtool_get_plca_status(struct phy_device *phydev, struct phy_plca_status *plca_st)
{
	int ret;

	if (!phydev->drv)
		return -EIO;
	if (!phydev->drv->get_plca_status)
		return -EOPNOTSUPP;
	mutex_lock(&phydev->lock);
	ret = phydev->drv->get_plca_status(phydev, plca_st);
	mutex_unlock(&phydev->lock);
	return ret;
}

const struct ethtool_phy_ops phy_ethtool_phy_ops = {
	.get_plca_cfg = phy_ethtool_get_plca_cfg,
	.set_plca_cfg = phy_ethtool_set_plca_cfg,
	.get_plca_status = phy_ethtool_get_plca_status,
};
