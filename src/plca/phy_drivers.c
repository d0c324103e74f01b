// SPDX-License-Identifier: MIT
/*
 * The simulated PHY models and their drivers, each with the quirks its kernel driver documents.
 *
 * - Generic OPEN Alliance TC14 PHY: the TC14 map with the datasheet reset values (PLCA off,
 *   node count 8, node ID 255, TO timer 32 BT, burst count 0, burst timer 128 BT) and the
 *   genphy_c45 PLCA trio.  Not a kernel driver: the reference for what a TC14 PHY does.
 * - Microchip LAN867x Rev.C1 (microchip_t1s.c, collision-detect handling since Linux 6.12):
 *   set_plca_cfg runs genphy_c45_plca_set_cfg and then turns physical collision detection
 *   (VEND2 0x0087 bit 15) off when plca_cfg->enabled is non-zero and on otherwise.  The test is
 *   "if (plca_cfg->enabled)", so a request that leaves @enabled at -1 (for example only a new
 *   node ID) also turns collision detection off: kfsim reproduces that as the kernel does it.
 * - onsemi NCN26000 (ncn26000.c, Linux 6.3): the silicon resets TOTMR to 24 instead of 32, so
 *   config_init writes 32.
 * - TC14 without P2MP: a TC14 map on a PHY lacking 10BASE-T1S multidrop, so enabling PLCA fails
 *   phy_ethtool_set_plca_cfg's link-mode check.
 * - Bad IDM: a driver with PLCA hooks on a PHY whose IDVER map ID is 0x0b, so
 *   genphy_c45_plca_get_cfg answers -ENODEV.
 * - No PLCA: a 100BASE-TX PHY bound to a driver without PLCA hooks (-EOPNOTSUPP).
 */
#include <stdio.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/phy.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>

#define PHY_ID_KFSIM_OA_TC14 0x4b460001	/* kfsim's own: no real part carries it */
#define PHY_ID_LAN867X_REVC1 0x0007c164
#define PHY_ID_NCN26000 0x180ff5a1
#define PHY_ID_KFSIM_100BTX 0x4b460010
#define NCN26000_TOTMR_RESET 24

static int lan86xx_plca_set_cfg(struct phy_device *phydev, const struct phy_plca_cfg *plca_cfg)
{
	int ret = genphy_c45_plca_set_cfg(phydev, plca_cfg);

	if (ret)
		return ret;
	/* Collision detection must be off in PLCA mode and back on in CSMA/CD mode (AN1699). */
	if (plca_cfg->enabled)
		return phy_modify_mmd(phydev, MDIO_MMD_VEND2, LAN86XX_REG_COL_DET_CTRL0,
				      COL_DET_CTRL0_ENABLE_BIT_MASK, 0);
	return phy_modify_mmd(phydev, MDIO_MMD_VEND2, LAN86XX_REG_COL_DET_CTRL0,
			      COL_DET_CTRL0_ENABLE_BIT_MASK, COL_DET_CTRL0_ENABLE_BIT_MASK);
}

static int ncn26000_config_init(struct phy_device *phydev)
{
	/* HW bug workaround: the TO timer default should be 32, this revision reports 24. */
	return phy_write_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_TOTMR, 32);
}

static const struct phy_driver kfsim_phy_drivers[KFSIM_PHY_NR_MODELS] = {
	[KFSIM_PHY_OA_TC14] = {
		.phy_id = PHY_ID_KFSIM_OA_TC14, .phy_id_mask = 0xffffffff,
		.name = "Generic OPEN Alliance TC14 PHY",
		.get_plca_cfg = genphy_c45_plca_get_cfg,
		.set_plca_cfg = genphy_c45_plca_set_cfg,
		.get_plca_status = genphy_c45_plca_get_status,
	},
	[KFSIM_PHY_LAN8670] = {
		.phy_id = PHY_ID_LAN867X_REVC1, .phy_id_mask = 0xffffffff,
		.name = "LAN867X Rev.C1",
		.get_plca_cfg = genphy_c45_plca_get_cfg,
		.set_plca_cfg = lan86xx_plca_set_cfg,
		.get_plca_status = genphy_c45_plca_get_status,
	},
	[KFSIM_PHY_NCN26000] = {
		.phy_id = PHY_ID_NCN26000, .phy_id_mask = 0xffffffff,
		.name = "NCN26000",
		.config_init = ncn26000_config_init,
		.get_plca_cfg = genphy_c45_plca_get_cfg,
		.set_plca_cfg = genphy_c45_plca_set_cfg,
		.get_plca_status = genphy_c45_plca_get_status,
	},
	[KFSIM_PHY_TC14_NOT_P2MP] = {
		.phy_id = PHY_ID_KFSIM_OA_TC14 + 1, .phy_id_mask = 0xffffffff,
		.name = "Generic OPEN Alliance TC14 PHY (point-to-point only)",
		.get_plca_cfg = genphy_c45_plca_get_cfg,
		.set_plca_cfg = genphy_c45_plca_set_cfg,
		.get_plca_status = genphy_c45_plca_get_status,
	},
	[KFSIM_PHY_BAD_IDM] = {
		.phy_id = PHY_ID_KFSIM_OA_TC14 + 2, .phy_id_mask = 0xffffffff,
		.name = "PHY with a vendor PLCA map",
		.get_plca_cfg = genphy_c45_plca_get_cfg,
		.set_plca_cfg = genphy_c45_plca_set_cfg,
		.get_plca_status = genphy_c45_plca_get_status,
	},
	[KFSIM_PHY_NO_PLCA] = {
		.phy_id = PHY_ID_KFSIM_100BTX, .phy_id_mask = 0xffffffff,
		.name = "Generic PHY",
	},
};

static const char *const kfsim_phy_model_names[KFSIM_PHY_NR_MODELS] = {
	[KFSIM_PHY_OA_TC14] = "oa-tc14",
	[KFSIM_PHY_LAN8670] = "lan8670",
	[KFSIM_PHY_NCN26000] = "ncn26000",
	[KFSIM_PHY_TC14_NOT_P2MP] = "tc14-no-p2mp",
	[KFSIM_PHY_BAD_IDM] = "bad-idm",
	[KFSIM_PHY_NO_PLCA] = "no-plca",
};

const char *kfsim_phy_model_name(enum kfsim_phy_model model)
{
	if ((unsigned int)model >= KFSIM_PHY_NR_MODELS)
		return NULL;
	return kfsim_phy_model_names[model];
}

int kfsim_phy_model_parse(const char *name, enum kfsim_phy_model *model)
{
	for (int i = 0; i < KFSIM_PHY_NR_MODELS; i++) {
		if (!strcmp(name, kfsim_phy_model_names[i])) {
			*model = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* The OPEN Alliance TC14 PLCA map, with @idver and @totmr_reset as the model has them. */
static int add_tc14_regs(struct phy_device *phydev, u16 idver, u16 totmr_reset)
{
	static const struct { u16 addr, reset, writable, self_clearing; } tc14[] = {
		{ MDIO_OATC14_PLCA_IDVER, 0, 0, 0 },
		{ MDIO_OATC14_PLCA_CTRL0, 0, MDIO_OATC14_PLCA_EN | MDIO_OATC14_PLCA_RST,
		  MDIO_OATC14_PLCA_RST },
		{ MDIO_OATC14_PLCA_CTRL1, 0x08ff, 0xffff, 0 },
		{ MDIO_OATC14_PLCA_STATUS, 0, 0, 0 },
		{ MDIO_OATC14_PLCA_TOTMR, 0, MDIO_OATC14_PLCA_TOT, 0 },
		{ MDIO_OATC14_PLCA_BURST, 0x0080, 0xffff, 0 },
	};
	int ret = 0;

	for (size_t i = 0; i < sizeof(tc14) / sizeof(tc14[0]) && !ret; i++) {
		u16 reset = tc14[i].reset;

		if (tc14[i].addr == MDIO_OATC14_PLCA_IDVER)
			reset = idver;
		else if (tc14[i].addr == MDIO_OATC14_PLCA_TOTMR)
			reset = totmr_reset;
		ret = kfsim_phy_add_reg(phydev, MDIO_MMD_VEND2, tc14[i].addr, reset,
					tc14[i].writable, tc14[i].self_clearing);
	}
	return ret;
}

static int add_model_regs(struct phy_device *phydev, enum kfsim_phy_model model)
{
	int ret;

	switch (model) {
	case KFSIM_PHY_OA_TC14:
	case KFSIM_PHY_TC14_NOT_P2MP:
		return add_tc14_regs(phydev, OATC14_IDM | 0x10, 32);
	case KFSIM_PHY_LAN8670:
		ret = add_tc14_regs(phydev, OATC14_IDM | 0x10, 32);
		if (ret)
			return ret;
		return kfsim_phy_add_reg(phydev, MDIO_MMD_VEND2, LAN86XX_REG_COL_DET_CTRL0,
					 COL_DET_CTRL0_ENABLE_BIT_MASK, 0xffff, 0);
	case KFSIM_PHY_NCN26000:
		return add_tc14_regs(phydev, OATC14_IDM | 0x10, NCN26000_TOTMR_RESET);
	case KFSIM_PHY_BAD_IDM:
		return add_tc14_regs(phydev, 0x0b10, 32);
	case KFSIM_PHY_NO_PLCA:
		/* PMA/PMD control 1: the only register this PHY needs for the simulation. */
		return kfsim_phy_add_reg(phydev, MDIO_MMD_PMAPMD, 0, 0x2040, 0xffff, 0x8000);
	default:
		return -EINVAL;
	}
}

struct phy_device *kfsim_phy_create(enum kfsim_phy_model model, const char *name)
{
	struct phy_device *phydev;
	int ret;

	if ((unsigned int)model >= KFSIM_PHY_NR_MODELS)
		return ERR_PTR(-EINVAL);
	phydev = kzalloc(sizeof(*phydev), GFP_KERNEL);
	if (!phydev)
		return ERR_PTR(-ENOMEM);
	snprintf(phydev->name, sizeof(phydev->name), "%s", name ? name : "phy");
	mutex_init(&phydev->lock);
	phydev->mdio_fail_after = -1;
	phydev->drv = &kfsim_phy_drivers[model];
	phydev->phy_id = phydev->drv->phy_id;
	phydev->p2mp = model != KFSIM_PHY_TC14_NOT_P2MP && model != KFSIM_PHY_NO_PLCA;
	ret = add_model_regs(phydev, model);
	if (!ret && phydev->drv->config_init)
		ret = phydev->drv->config_init(phydev);
	if (ret) {
		pr_err("%s: %s: config_init failed: %d\n", phydev->name, phydev->drv->name, ret);
		kfree(phydev);
		return ERR_PTR(ret);
	}
	phydev->mdio_writes = 0;
	phydev->mdio_logged = 0;
	return phydev;
}

void kfsim_phy_destroy(struct phy_device *phydev)
{
	kfree(phydev);
}
