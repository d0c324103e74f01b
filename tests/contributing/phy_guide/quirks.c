/*
 * The guide's example PHY driver (CONTRIBUTING.md, "A PHY driver"): "Guide T1S PHY", 6.6 on,
 * a TC14 part whose silicon resets the TO timer to 20 bit times instead of 32; its
 * config_init writes 32, as ncn26000_config_init() does for the NCN26000.
 */
#define PHY_ID_GUIDE_T1S 0x4b460020

static int guide_t1s_config_init(struct phy_device *phydev)
{
	return phy_write_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_TOTMR, 32);
}

