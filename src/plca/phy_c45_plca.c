// SPDX-License-Identifier: MIT
/*
 * genphy_c45_plca_get_cfg/set_cfg/get_status: the OPEN Alliance TC14 PLCA register map as
 * drivers/net/phy/phy-c45.c drives it (Linux 6.3).
 *
 * The -1 convention: a field of struct phy_plca_cfg that is -1 is "not available" when read
 * and "leave unchanged" when written.  get_cfg therefore fills every field of a TC14 map (the
 * map has them all); set_cfg touches only the registers that hold a field that is not -1, and
 * orders its writes so that enabling happens last and disabling first.
 */
#include <kfsim/err.h>
#include <kfsim/phy.h>

static int field_get(u16 mask, int reg)
{
	return (reg & mask) >> __builtin_ctz(mask);
}

int genphy_c45_plca_get_cfg(struct phy_device *phydev, struct phy_plca_cfg *plca_cfg)
{
	int ret;

	ret = phy_read_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_IDVER);
	if (ret < 0)
		return ret;
	if ((ret & MDIO_OATC14_PLCA_IDM) != OATC14_IDM)
		return -ENODEV;
	plca_cfg->version = ret & ~MDIO_OATC14_PLCA_IDM;

	ret = phy_read_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0);
	if (ret < 0)
		return ret;
	plca_cfg->enabled = !!(ret & MDIO_OATC14_PLCA_EN);

	ret = phy_read_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL1);
	if (ret < 0)
		return ret;
	plca_cfg->node_cnt = field_get(MDIO_OATC14_PLCA_NCNT, ret);
	plca_cfg->node_id = field_get(MDIO_OATC14_PLCA_ID, ret);

	ret = phy_read_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_TOTMR);
	if (ret < 0)
		return ret;
	plca_cfg->to_tmr = field_get(MDIO_OATC14_PLCA_TOT, ret);

	ret = phy_read_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_BURST);
	if (ret < 0)
		return ret;
	plca_cfg->burst_cnt = field_get(MDIO_OATC14_PLCA_MAXBC, ret);
	plca_cfg->burst_tmr = field_get(MDIO_OATC14_PLCA_BTMR, ret);
	return 0;
}

/*
 * Write a register holding two 8-bit fields of which the caller gives @high, @low or both
 * (-1 = not given): when only one is given the other comes from the register's current value.
 * As in phy-c45.c the given values are shifted and OR-ed in without masking, then cut to 16
 * bits: a value above 255 reaching this through the C API (netlink's policy stops it earlier)
 * spills into the neighbouring field.  A kernel quirk, kept.
 */
static int write_pair(struct phy_device *phydev, u32 regnum, u16 high_mask, int high,
		      u16 low_mask, int low)
{
	u16 val = 0;
	int ret;

	if (high < 0 && low < 0)
		return 0;
	if (high < 0 || low < 0) {
		ret = phy_read_mmd(phydev, MDIO_MMD_VEND2, regnum);
		if (ret < 0)
			return ret;
		val = (u16)ret;
	}
	if (high >= 0)
		val = (u16)((val & ~high_mask) | ((unsigned int)high << __builtin_ctz(high_mask)));
	if (low >= 0)
		val = (u16)((val & ~low_mask) | (unsigned int)low);
	return phy_write_mmd(phydev, MDIO_MMD_VEND2, regnum, val);
}

int genphy_c45_plca_set_cfg(struct phy_device *phydev, const struct phy_plca_cfg *plca_cfg)
{
	int ret;

	/* The map version is read-only. */
	if (plca_cfg->version >= 0)
		return -EINVAL;

	/* Leave the segment first, so that the writes below never disturb it. */
	if (plca_cfg->enabled == 0) {
		ret = phy_clear_bits_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0,
					 MDIO_OATC14_PLCA_EN);
		if (ret < 0)
			return ret;
	}

	ret = write_pair(phydev, MDIO_OATC14_PLCA_CTRL1, MDIO_OATC14_PLCA_NCNT,
			 plca_cfg->node_cnt, MDIO_OATC14_PLCA_ID, plca_cfg->node_id);
	if (ret < 0)
		return ret;

	if (plca_cfg->to_tmr >= 0) {
		/* The whole register, unmasked: TOTMR keeps only its writable low byte. */
		ret = phy_write_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_TOTMR,
				    (u16)plca_cfg->to_tmr);
		if (ret < 0)
			return ret;
	}

	ret = write_pair(phydev, MDIO_OATC14_PLCA_BURST, MDIO_OATC14_PLCA_MAXBC,
			 plca_cfg->burst_cnt, MDIO_OATC14_PLCA_BTMR, plca_cfg->burst_tmr);
	if (ret < 0)
		return ret;

	/* Join the segment last, with the whole configuration in place. */
	if (plca_cfg->enabled > 0) {
		ret = phy_set_bits_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0,
				       MDIO_OATC14_PLCA_EN);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int genphy_c45_plca_get_status(struct phy_device *phydev, struct phy_plca_status *plca_st)
{
	int ret = phy_read_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_STATUS);

	if (ret < 0)
		return ret;
	plca_st->pst = !!(ret & MDIO_OATC14_PLCA_PST);
	return 0;
}

#include <kfsim/moduleparam.h>
/*
 * The "plca" module of the kernel command line: "plca.<param>=" is checked against its
 * parameters (none yet), and an unknown one is reported as the module loader reports it.
 */
KFSIM_MODULE(plca)
