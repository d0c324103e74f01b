/* The guide's example silicon: a TC14 register map whose TO timer resets to 20. */
static int guide_t1s_regs(struct phy_device *phydev)
{
	return add_tc14_regs(phydev, OATC14_IDM | 0x10, 20);
}

