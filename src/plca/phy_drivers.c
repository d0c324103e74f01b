// SPDX-License-Identifier: MIT
/*
 * The PHY driver table and the simulated PHY silicon.
 *
 * Two tables, one row each: the drivers (ID, mask, name, the releases that have them, config_init
 * and the PLCA ops: everything phylib matches and calls) and the silicon models (name, PHY ID,
 * registers).  kfsim_phy_create() builds the silicon and binds the first driver row that
 * matches its ID in the release kfsim_kernel_version() names, or phylib's "Generic PHY".
 *
 * Drivers by release (drivers/net/phy/microchip_t1s.c, ncn26000.c):
 * - 6.3, 6.4: "LAN867X", PHY_ID_MATCH_MODEL(0x0007C160): every LAN867x revision (Rev.B1
 *   0x0007C162 and Rev.C1 0x0007C164 alike) with the plain genphy_c45 PLCA helpers; config_init
 *   applies the AN1699 fixups.
 * - 6.5 .. 6.12: "LAN867X Rev.B1", PHY_ID_MATCH_EXACT(0x0007C162) (net-next 6.5, "update
 *   LAN867x PHY supported revision number"): a Rev.C1 no longer binds and gets the Generic PHY.
 * - 6.13 on: "LAN867X Rev.C1", PHY_ID_MATCH_EXACT(0x0007C164) with lan867x_revc_config_init (a
 *   reset-complete check, then the AN1760/AN1699 fixups) and lan86xx_plca_set_cfg(), which turns
 *   physical collision detection off when enabling PLCA and back on otherwise (commits
 *   662d9c5fe19d and 78341049fbcd, one net-next series merged for 6.13).  Rev.B1 keeps the
 *   plain helpers.
 * - NCN26000 (6.3 on), PHY_ID_MATCH_MODEL(0x180FF5A1): the silicon resets TOTMR to 24 instead of
 *   32, so config_init writes 32.
 *
 * Of the AN1699 fixups kfsim models only the one the bus can feel: collision detector control
 * 0 (VEND2 0x0087), bit 15 = physical collision detection on.  The other fixups tune analog
 * receive parameters the simulation has no use for; writes to registers a model does not
 * implement are ignored, as reads of them return 0.
 *
 * kfsim's own rows (no real part carries their IDs): a generic TC14 PHY, one without P2MP, one
 * with a vendor PLCA map, and a 100BASE-TX PHY without PLCA.
 */
#include <stdio.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/mutex.h>
#include <kfsim/phy.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>

#define PHY_ID_LAN867X 0x0007c160	/* 6.3: the model, matched with PHY_ID_MATCH_MODEL */
#define PHY_ID_KFSIM_OA_TC14 0x4b460001
#define PHY_ID_KFSIM_TC14_NOT_P2MP 0x4b460002
#define PHY_ID_KFSIM_BAD_IDM 0x4b460003
#define PHY_ID_KFSIM_100BTX 0x4b460010
#define NCN26000_TOTMR_RESET 24
#define LAN867X_COL_DET_RESET 0x8000	/* detection on: the driver "re-enables" it */
#define LAN867X_COL_DET_FIXUP_MASK 0x801c	/* AN1699: RMW 0x1F 0x0087 0x801C 0x801C */

static int lan867x_check_reset_complete(struct phy_device *phydev)
{
	int ret = phy_read_mmd(phydev, MDIO_MMD_VEND2, LAN867X_REG_STS2);

	if (ret < 0)
		return ret;
	/* The chip resets in 3 us; kfsim's silicon is always done (no second read needed). */
	if (!(ret & LAN867x_RESET_COMPLETE_STS)) {
		pr_err("%s: PHY reset failed\n", phydev->name);
		return -ENODEV;
	}
	return 0;
}

/* The one AN1699 fixup that reaches the bus: collision detection stays (or is turned) on. */
static int lan867x_an1699_fixup(struct phy_device *phydev)
{
	return phy_modify_mmd(phydev, MDIO_MMD_VEND2, LAN86XX_REG_COL_DET_CTRL0,
			      LAN867X_COL_DET_FIXUP_MASK, LAN867X_COL_DET_FIXUP_MASK);
}

/* 6.3/6.4 lan867x_config_init(): the AN1699 fixups. */
static int lan867x_config_init(struct phy_device *phydev)
{
	return lan867x_an1699_fixup(phydev);
}

/* 6.5+ lan867x_revb1_config_init(): reset-complete check, then the AN1699 fixups. */
static int lan867x_revb1_config_init(struct phy_device *phydev)
{
	int ret = lan867x_check_reset_complete(phydev);

	return ret ? ret : lan867x_an1699_fixup(phydev);
}

/* 6.13+ lan867x_revc_config_init(): reset-complete check; its fixups leave 0x0087 alone. */
static int lan867x_revc_config_init(struct phy_device *phydev)
{
	return lan867x_check_reset_complete(phydev);
}

static int lan86xx_plca_set_cfg(struct phy_device *phydev, const struct phy_plca_cfg *plca_cfg)
{
	int ret = genphy_c45_plca_set_cfg(phydev, plca_cfg);

	if (ret)
		return ret;
	/*
	 * Collision detection off in PLCA mode, back on in CSMA/CD mode (AN1699/AN1760).  The
	 * test is "if (plca_cfg->enabled)", so a request leaving @enabled at -1 (say, only a
	 * new node ID) also turns it off: kfsim does what the kernel does.
	 */
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

#define GENPHY_C45_PLCA_OPS					\
	.get_plca_cfg = genphy_c45_plca_get_cfg,		\
	.set_plca_cfg = genphy_c45_plca_set_cfg,		\
	.get_plca_status = genphy_c45_plca_get_status

/* The built-in driver table: one row per driver (and per release in which it changed). */
static const struct phy_driver phy_driver_table[] = {
	{ .phy_id = PHY_ID_KFSIM_OA_TC14, .phy_id_mask = PHY_ID_MATCH_EXACT_MASK,
	  .name = "Generic OPEN Alliance TC14 PHY", .t1s_p2mp = true, GENPHY_C45_PLCA_OPS },
	{ .phy_id = PHY_ID_LAN867X, .phy_id_mask = PHY_ID_MATCH_MODEL_MASK,
	  .name = "LAN867X", .t1s_p2mp = true, .until = KERNEL_VERSION(6, 5, 0),
	  .config_init = lan867x_config_init, GENPHY_C45_PLCA_OPS },
	{ .phy_id = PHY_ID_LAN867X_REVB1, .phy_id_mask = PHY_ID_MATCH_EXACT_MASK,
	  .name = "LAN867X Rev.B1", .t1s_p2mp = true, .since = KERNEL_VERSION(6, 5, 0),
	  .config_init = lan867x_revb1_config_init, GENPHY_C45_PLCA_OPS },
	{ .phy_id = PHY_ID_LAN867X_REVC1, .phy_id_mask = PHY_ID_MATCH_EXACT_MASK,
	  .name = "LAN867X Rev.C1", .t1s_p2mp = true, .since = KERNEL_VERSION(6, 13, 0),
	  .config_init = lan867x_revc_config_init,
	  .get_plca_cfg = genphy_c45_plca_get_cfg,
	  .set_plca_cfg = lan86xx_plca_set_cfg,
	  .get_plca_status = genphy_c45_plca_get_status },
	{ .phy_id = PHY_ID_NCN26000, .phy_id_mask = PHY_ID_MATCH_MODEL_MASK,
	  .name = "NCN26000", .t1s_p2mp = true, .config_init = ncn26000_config_init,
	  GENPHY_C45_PLCA_OPS },
	{ .phy_id = PHY_ID_KFSIM_TC14_NOT_P2MP, .phy_id_mask = PHY_ID_MATCH_EXACT_MASK,
	  .name = "Generic OPEN Alliance TC14 PHY (point-to-point only)", GENPHY_C45_PLCA_OPS },
	{ .phy_id = PHY_ID_KFSIM_BAD_IDM, .phy_id_mask = PHY_ID_MATCH_EXACT_MASK,
	  .name = "PHY with a vendor PLCA map", .t1s_p2mp = true, GENPHY_C45_PLCA_OPS },
};

/* phylib's fallback (genphy_driver): binds anything, offers no PLCA. */
static const struct phy_driver genphy_driver = { .name = "Generic PHY" };

#define PHY_DRIVERS_REGISTERED_MAX 16
static DEFINE_MUTEX(phy_drivers_lock);
static const struct phy_driver *phy_drivers_registered[PHY_DRIVERS_REGISTERED_MAX];
static int nr_phy_drivers_registered;

int phy_drivers_register(struct phy_driver *new_driver, int n, void *owner)
{
	int ret = 0;

	(void)owner;
	if (!new_driver || n <= 0)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		if (!new_driver[i].name)
			return -EINVAL;
	mutex_lock(&phy_drivers_lock);
	if (nr_phy_drivers_registered + n > PHY_DRIVERS_REGISTERED_MAX)
		ret = -ENOSPC;
	for (int i = 0; i < nr_phy_drivers_registered && !ret; i++)
		for (int k = 0; k < n; k++)
			if (phy_drivers_registered[i] == &new_driver[k])
				ret = -EEXIST;
	for (int k = 0; k < n && !ret; k++)
		phy_drivers_registered[nr_phy_drivers_registered++] = &new_driver[k];
	mutex_unlock(&phy_drivers_lock);
	return ret;
}

void phy_drivers_unregister(struct phy_driver *drv, int n)
{
	mutex_lock(&phy_drivers_lock);
	for (int k = 0; drv && k < n; k++) {
		for (int i = 0; i < nr_phy_drivers_registered; i++) {
			if (phy_drivers_registered[i] != &drv[k])
				continue;
			memmove(&phy_drivers_registered[i], &phy_drivers_registered[i + 1],
				(size_t)(nr_phy_drivers_registered - i - 1) *
					sizeof(phy_drivers_registered[0]));
			nr_phy_drivers_registered--;
			break;
		}
	}
	mutex_unlock(&phy_drivers_lock);
}

static bool phy_driver_matches(const struct phy_driver *drv, u32 phy_id, unsigned int kver)
{
	return !((drv->phy_id ^ phy_id) & drv->phy_id_mask) &&
	       (!drv->since || kver >= drv->since) && (!drv->until || kver < drv->until);
}

/* phy_bus_match() over the table: the first row that matches, else the Generic PHY. */
static const struct phy_driver *phy_driver_lookup(u32 phy_id)
{
	unsigned int kver = kfsim_kernel_version();
	const struct phy_driver *found = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(phy_driver_table) && !found; i++)
		if (phy_driver_matches(&phy_driver_table[i], phy_id, kver))
			found = &phy_driver_table[i];
	mutex_lock(&phy_drivers_lock);
	for (int i = 0; i < nr_phy_drivers_registered && !found; i++)
		if (phy_driver_matches(phy_drivers_registered[i], phy_id, kver))
			found = phy_drivers_registered[i];
	mutex_unlock(&phy_drivers_lock);
	return found ? found : &genphy_driver;
}

/* The OPEN Alliance TC14 PLCA map, with @idver and @totmr_reset as the silicon has them. */
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

	for (size_t i = 0; i < ARRAY_SIZE(tc14) && !ret; i++) {
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

static int tc14_regs(struct phy_device *phydev)
{
	return add_tc14_regs(phydev, OATC14_IDM | 0x10, 32);
}

static int lan867x_regs(struct phy_device *phydev)
{
	int ret = tc14_regs(phydev);

	if (!ret)
		ret = kfsim_phy_add_reg(phydev, MDIO_MMD_VEND2, LAN86XX_REG_COL_DET_CTRL0,
					LAN867X_COL_DET_RESET, 0xffff, 0);
	if (!ret)
		ret = kfsim_phy_add_reg(phydev, MDIO_MMD_VEND2, LAN867X_REG_STS2,
					LAN867x_RESET_COMPLETE_STS, 0, 0);
	return ret;
}

static int ncn26000_regs(struct phy_device *phydev)
{
	return add_tc14_regs(phydev, OATC14_IDM | 0x10, NCN26000_TOTMR_RESET);
}

static int bad_idm_regs(struct phy_device *phydev)
{
	return add_tc14_regs(phydev, 0x0b10, 32);
}

static int pma_only_regs(struct phy_device *phydev)
{
	/* PMA/PMD control 1: the only register this PHY needs for the simulation. */
	return kfsim_phy_add_reg(phydev, MDIO_MMD_PMAPMD, 0, 0x2040, 0xffff, 0x8000);
}

/* The silicon: one row per model, its configuration-file name listed here only. */
static const struct {
	const char *name;
	u32 phy_id;
	int (*add_regs)(struct phy_device *phydev);
} phy_models[KFSIM_PHY_NR_MODELS] = {
	[KFSIM_PHY_OA_TC14] = { "oa-tc14", PHY_ID_KFSIM_OA_TC14, tc14_regs },
	[KFSIM_PHY_LAN8670] = { "lan8670", PHY_ID_LAN867X_REVC1, lan867x_regs },
	[KFSIM_PHY_NCN26000] = { "ncn26000", PHY_ID_NCN26000, ncn26000_regs },
	[KFSIM_PHY_TC14_NOT_P2MP] = { "tc14-no-p2mp", PHY_ID_KFSIM_TC14_NOT_P2MP, tc14_regs },
	[KFSIM_PHY_BAD_IDM] = { "bad-idm", PHY_ID_KFSIM_BAD_IDM, bad_idm_regs },
	[KFSIM_PHY_NO_PLCA] = { "no-plca", PHY_ID_KFSIM_100BTX, pma_only_regs },
	[KFSIM_PHY_LAN8670_REVB1] = { "lan8670-b1", PHY_ID_LAN867X_REVB1, lan867x_regs },
};

const char *kfsim_phy_model_name(enum kfsim_phy_model model)
{
	if ((unsigned int)model >= KFSIM_PHY_NR_MODELS)
		return NULL;
	return phy_models[model].name;
}

int kfsim_phy_model_parse(const char *name, enum kfsim_phy_model *model)
{
	for (int i = 0; i < KFSIM_PHY_NR_MODELS; i++) {
		if (!strcmp(name, phy_models[i].name)) {
			*model = i;
			return 0;
		}
	}
	return -EINVAL;
}

int kfsim_phy_model_names(char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (int i = 0; i < KFSIM_PHY_NR_MODELS; i++) {
		int n = snprintf(buf + len, size > len ? size - len : 0, "%s%s", i ? ", " : "",
				 phy_models[i].name);

		if (n < 0)
			return -EINVAL;
		len += (size_t)n;
	}
	return len < size ? (int)len : -ENOSPC;
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
	phydev->phy_id = phy_models[model].phy_id;
	phydev->drv = phy_driver_lookup(phydev->phy_id);
	phydev->p2mp = phydev->drv->t1s_p2mp;
	ret = phy_models[model].add_regs(phydev);
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
