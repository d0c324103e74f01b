// SPDX-License-Identifier: MIT
/*
 * Register level: the TC14 map's reset values and read-only bits, genphy_c45_plca_* against
 * the registers bit by bit, the driver quirks, and phy_ethtool_set_plca_cfg()'s checks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/phy.h>
#include <kfsim/plca.h>
#include <kfsim/random.h>
#include <kfsim/netlink.h>
#include "plca/plca_internal.h"

#define NOCFG { -1, -1, -1, -1, -1, -1, -1 }

static int reg(struct phy_device *phydev, u16 addr)
{
	return kfsim_phy_peek(phydev, MDIO_MMD_VEND2, addr);
}

static struct phy_device *make(enum kfsim_phy_model model)
{
	struct phy_device *phydev = kfsim_phy_create(model, "test");

	assert_false(IS_ERR(phydev));
	return phydev;
}

static void test_reset_values_decode(void **state)
{
	struct phy_device *phydev = make(KFSIM_PHY_OA_TC14);
	struct phy_plca_cfg cfg = NOCFG;

	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_IDVER), 0x0a10);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL1), 0x08ff);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_TOTMR), 0x0020);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_BURST), 0x0080);
	assert_int_equal(genphy_c45_plca_get_cfg(phydev, &cfg), 0);
	assert_int_equal(cfg.version, 0x10);
	assert_int_equal(cfg.enabled, 0);
	assert_int_equal(cfg.node_id, 255);
	assert_int_equal(cfg.node_cnt, 8);
	assert_int_equal(cfg.to_tmr, 32);
	assert_int_equal(cfg.burst_cnt, 0);
	assert_int_equal(cfg.burst_tmr, 128);
	kfsim_phy_destroy(phydev);
}

static void test_read_only_and_self_clearing_bits(void **state)
{
	struct phy_device *phydev = make(KFSIM_PHY_OA_TC14);

	assert_int_equal(phy_write_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_IDVER, 0xffff), 0);
	assert_int_equal(phy_read_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_IDVER), 0x0a10);
	assert_int_equal(phy_write_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_TOTMR, 0xff40), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_TOTMR), 0x0040);
	/* CTRL0: only EN and RST are writable; RST resets the map and reads back 0. */
	assert_int_equal(phy_write_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0, 0xbfff), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL0), 0x8000);
	assert_int_equal(phy_write_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0, 0x4000), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL0), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_TOTMR), 0x0020);
	/* Unimplemented registers read 0, ignore writes; bad MMDs are refused. */
	assert_int_equal(phy_write_mmd(phydev, MDIO_MMD_VEND2, 0x1234, 0xffff), 0);
	assert_int_equal(phy_read_mmd(phydev, MDIO_MMD_VEND2, 0x1234), 0);
	assert_int_equal(phy_read_mmd(phydev, 32, 0), -EINVAL);
	assert_int_equal(phy_write_mmd(phydev, -1, 0, 0), -EINVAL);
	kfsim_phy_destroy(phydev);
}

static void test_set_writes_exact_bits(void **state)
{
	struct phy_device *phydev = make(KFSIM_PHY_OA_TC14);
	struct phy_plca_cfg cfg = NOCFG;

	/* node_id alone: CTRL1 merged with the current node count. */
	cfg.node_id = 3;
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL1), 0x0803);
	assert_int_equal(phydev->mdio_writes, 1);
	/* node_cnt alone keeps the ID. */
	cfg = (struct phy_plca_cfg)NOCFG;
	cfg.node_cnt = 0x11;
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL1), 0x1103);
	/* burst_tmr alone keeps MAXBC; burst_cnt alone keeps BTMR. */
	cfg = (struct phy_plca_cfg)NOCFG;
	cfg.burst_cnt = 2;
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_BURST), 0x0280);
	cfg = (struct phy_plca_cfg)NOCFG;
	cfg.burst_tmr = 0x60;
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_BURST), 0x0260);
	/* Nothing given: nothing written. */
	cfg = (struct phy_plca_cfg)NOCFG;
	phydev->mdio_writes = 0;
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(phydev->mdio_writes, 0);
	/* Enable sets only EN; enabling again writes nothing (unchanged modify). */
	cfg.enabled = 1;
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL0), MDIO_OATC14_PLCA_EN);
	assert_int_equal(phydev->mdio_writes, 1);
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(phydev->mdio_writes, 1);
	/* version is read-only. */
	cfg.version = 0x10;
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), -EINVAL);
	kfsim_phy_destroy(phydev);
}

static void test_disable_first_enable_last(void **state)
{
	struct phy_device *phydev = make(KFSIM_PHY_OA_TC14);
	struct phy_plca_cfg cfg = { -1, 1, 1, 8, 40, -1, -1 };

	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	/* Disable + new ID with the second MDIO access failing: EN already clear, CTRL1 kept. */
	cfg = (struct phy_plca_cfg){ -1, 0, 5, -1, -1, -1, -1 };
	phydev->mdio_fail_after = 2;	/* the clear's read and write succeed */
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), -EIO);
	phydev->mdio_fail_after = -1;
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL0), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL1), 0x0801);
	/* Enable + to_tmr with the EN write failing: TOTMR written, EN never set (no rollback). */
	cfg = (struct phy_plca_cfg){ -1, 1, -1, -1, 50, -1, -1 };
	phydev->mdio_fail_after = 1;
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), -EIO);
	phydev->mdio_fail_after = -1;
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_TOTMR), 50);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL0), 0);
	kfsim_phy_destroy(phydev);
}

static void test_idm_mismatch(void **state)
{
	struct phy_device *phydev = make(KFSIM_PHY_BAD_IDM);
	struct phy_plca_cfg cfg = NOCFG, want = { -1, 1, 0, -1, -1, -1, -1 };
	struct netlink_ext_ack extack = {};

	assert_int_equal(genphy_c45_plca_get_cfg(phydev, &cfg), -ENODEV);
	assert_int_equal(phy_ethtool_get_plca_cfg(phydev, &cfg), -ENODEV);
	phydev->mdio_writes = 0;
	assert_int_equal(phy_ethtool_set_plca_cfg(phydev, &want, &extack), -ENODEV);
	assert_int_equal(phydev->mdio_writes, 0);
	kfsim_phy_destroy(phydev);
}

static void test_ncn26000_totmr_quirk(void **state)
{
	struct phy_device *phydev = make(KFSIM_PHY_NCN26000);
	struct phy_plca_cfg cfg = NOCFG;

	/* The silicon resets TOTMR to 24; config_init wrote 32. */
	assert_int_equal(phydev->regs[4].reset, 24);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_TOTMR), 32);
	assert_int_equal(genphy_c45_plca_get_cfg(phydev, &cfg), 0);
	assert_int_equal(cfg.to_tmr, 32);
	/* A PLCA reset brings the hardware default back, as on the real part. */
	assert_int_equal(phy_write_mmd(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0,
				       MDIO_OATC14_PLCA_RST), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_TOTMR), 24);
	kfsim_phy_destroy(phydev);
}

/* Restores the release the other tests run at, whatever a test chose. */
static int restore_kver(void **state)
{
	(void)state;
	kfsim_set_kernel_version(KFSIM_KERNEL_VERSION_DEFAULT);
	return 0;
}

static struct phy_device *make_at(unsigned int kver, enum kfsim_phy_model model)
{
	assert_int_equal(kfsim_set_kernel_version(kver), 0);
	return make(model);
}

static void test_lan867x_collision_detect_quirk(void **state)
{
	struct phy_device *phydev = make_at(KERNEL_VERSION(6, 13, 0), KFSIM_PHY_LAN8670);
	struct phy_plca_cfg cfg = { -1, 1, 0, 8, -1, -1, -1 };
	int coldet = LAN86XX_REG_COL_DET_CTRL0;

	assert_string_equal(phydev->drv->name, "LAN867X Rev.C1");
	assert_int_equal(kfsim_phy_peek(phydev, MDIO_MMD_VEND2, coldet), 0x8000);
	assert_int_equal(phy_ethtool_set_plca_cfg(phydev, &cfg, NULL), 0);
	assert_int_equal(kfsim_phy_peek(phydev, MDIO_MMD_VEND2, coldet), 0);
	cfg = (struct phy_plca_cfg){ -1, 0, -1, -1, -1, -1, -1 };
	assert_int_equal(phy_ethtool_set_plca_cfg(phydev, &cfg, NULL), 0);
	assert_int_equal(kfsim_phy_peek(phydev, MDIO_MMD_VEND2, coldet), 0x8000);
	/* "if (plca_cfg->enabled)": -1 (not given) counts as enabling. */
	cfg = (struct phy_plca_cfg){ -1, -1, 4, -1, -1, -1, -1 };
	assert_int_equal(phy_ethtool_set_plca_cfg(phydev, &cfg, NULL), 0);
	assert_int_equal(kfsim_phy_peek(phydev, MDIO_MMD_VEND2, coldet), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL0), 0);
	kfsim_phy_destroy(phydev);
}

/* Which driver binds each LAN867x revision, release by release, and what PLCA does then. */
static void test_drivers_by_release(void **state)
{
	static const struct {
		unsigned int kver;
		enum kfsim_phy_model model;
		const char *driver;
		bool plca;	/* has the PLCA hooks */
		bool col_det_follows_plca;
	} rows[] = {
		{ KERNEL_VERSION(6, 3, 0), KFSIM_PHY_LAN8670_REVB1, "LAN867X", true, false },
		{ KERNEL_VERSION(6, 3, 0), KFSIM_PHY_LAN8670, "LAN867X", true, false },
		{ KERNEL_VERSION(6, 4, 0), KFSIM_PHY_LAN8670, "LAN867X", true, false },
		{ KERNEL_VERSION(6, 5, 0), KFSIM_PHY_LAN8670_REVB1, "LAN867X Rev.B1", true, false },
		{ KERNEL_VERSION(6, 5, 0), KFSIM_PHY_LAN8670, "Generic PHY", false, false },
		{ KERNEL_VERSION(6, 12, 0), KFSIM_PHY_LAN8670, "Generic PHY", false, false },
		{ KERNEL_VERSION(6, 12, 0), KFSIM_PHY_LAN8670_REVB1, "LAN867X Rev.B1", true, false },
		{ KERNEL_VERSION(6, 13, 0), KFSIM_PHY_LAN8670_REVB1, "LAN867X Rev.B1", true, false },
		{ KERNEL_VERSION(6, 13, 0), KFSIM_PHY_LAN8670, "LAN867X Rev.C1", true, true },
		{ KERNEL_VERSION(6, 3, 0), KFSIM_PHY_NCN26000, "NCN26000", true, false },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct phy_device *phydev = make_at(rows[i].kver, rows[i].model);
		struct phy_plca_cfg cfg = { -1, 1, 0, 8, -1, -1, -1 };
		struct phy_plca_cfg got;
		struct netlink_ext_ack extack = {};

		print_message("%u.%u %s -> %s\n", rows[i].kver >> 16, (rows[i].kver >> 8) & 0xff,
			      kfsim_phy_model_name(rows[i].model), phydev->drv->name);
		assert_string_equal(phydev->drv->name, rows[i].driver);
		assert_int_equal(phydev->p2mp, rows[i].plca);
		if (!rows[i].plca) {
			assert_int_equal(phy_ethtool_get_plca_cfg(phydev, &got), -EOPNOTSUPP);
			assert_int_equal(phy_ethtool_set_plca_cfg(phydev, &cfg, &extack), -EOPNOTSUPP);
			kfsim_phy_destroy(phydev);
			continue;
		}
		assert_int_equal(phy_ethtool_set_plca_cfg(phydev, &cfg, &extack), 0);
		assert_int_equal(phy_ethtool_get_plca_cfg(phydev, &got), 0);
		assert_int_equal(got.enabled, 1);
		if (rows[i].model != KFSIM_PHY_NCN26000)
			/* AN1699 fixups (6.3, Rev.B1) leave detection on; only Rev.C1 turns it off. */
			assert_int_equal(kfsim_phy_peek(phydev, MDIO_MMD_VEND2,
							LAN86XX_REG_COL_DET_CTRL0) & 0x8000,
					 rows[i].col_det_follows_plca ? 0 : 0x8000);
		kfsim_phy_destroy(phydev);
	}
}

/* A new driver is one row: registered, it binds the PHY nothing else claims at its release. */
static void test_dummy_driver_row(void **state)
{
	static struct phy_driver dummy[] = { {
		.phy_id = PHY_ID_LAN867X_REVC1, .phy_id_mask = PHY_ID_MATCH_EXACT_MASK,
		.name = "dummy Rev.C1 backport", .t1s_p2mp = true,
		.since = KERNEL_VERSION(6, 5, 0), .until = KERNEL_VERSION(6, 13, 0),
		.get_plca_cfg = genphy_c45_plca_get_cfg, .set_plca_cfg = genphy_c45_plca_set_cfg,
		.get_plca_status = genphy_c45_plca_get_status,
	} };
	struct phy_plca_cfg got;
	struct phy_device *phydev;

	assert_int_equal(phy_drivers_register(dummy, 1, NULL), 0);
	assert_int_equal(phy_drivers_register(dummy, 1, NULL), -EEXIST);
	assert_int_equal(phy_drivers_register(NULL, 1, NULL), -EINVAL);
	phydev = make_at(KERNEL_VERSION(6, 8, 0), KFSIM_PHY_LAN8670);
	assert_string_equal(phydev->drv->name, "dummy Rev.C1 backport");
	assert_true(phydev->p2mp);
	assert_int_equal(phy_ethtool_get_plca_cfg(phydev, &got), 0);
	assert_int_equal(got.version, 0x10);
	kfsim_phy_destroy(phydev);
	/* The built-in rows come first: at 6.13 the kernel's Rev.C1 driver still binds. */
	phydev = make_at(KERNEL_VERSION(6, 13, 0), KFSIM_PHY_LAN8670);
	assert_string_equal(phydev->drv->name, "LAN867X Rev.C1");
	kfsim_phy_destroy(phydev);
	phy_drivers_unregister(dummy, 1);
	phydev = make_at(KERNEL_VERSION(6, 8, 0), KFSIM_PHY_LAN8670);
	assert_string_equal(phydev->drv->name, "Generic PHY");
	kfsim_phy_destroy(phydev);
}

/*
 * genphy_c45_plca_set_cfg() ORs the values in unmasked and cuts to 16 bits: through the C API
 * (no netlink policy in the way) a node ID of 300 spills into the node count.
 */
static void test_set_cfg_values_above_255(void **state)
{
	struct phy_device *phydev = make(KFSIM_PHY_OA_TC14);
	struct phy_plca_cfg cfg = { -1, -1, 300, 8, 300, 1, 300 };

	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL1), (8 << 8) | 300);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_TOTMR), 300 & 0xff);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_BURST), (1 << 8) | 300);
	/* Only the ID given: merged with the current count, the overflow still OR-ed in. */
	cfg = (struct phy_plca_cfg){ -1, -1, 0x1ff, -1, -1, -1, -1 };
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL1), 0x0900 | 0x1ff);
	/* A count of 300 is cut to 16 bits: (300 << 8) & 0xffff. */
	cfg = (struct phy_plca_cfg){ -1, -1, 1, 300, -1, -1, -1 };
	assert_int_equal(genphy_c45_plca_set_cfg(phydev, &cfg), 0);
	assert_int_equal(reg(phydev, MDIO_OATC14_PLCA_CTRL1), ((300 << 8) & 0xffff) | 1);
	kfsim_phy_destroy(phydev);
}

static void test_phy_ethtool_checks(void **state)
{
	struct phy_device *p2p = make(KFSIM_PHY_TC14_NOT_P2MP);
	struct phy_device *tc14 = make(KFSIM_PHY_OA_TC14);
	struct phy_device *none = make(KFSIM_PHY_NO_PLCA);
	struct phy_plca_cfg cfg = { -1, 1, 1, -1, -1, -1, -1 };
	struct phy_plca_status st;
	struct netlink_ext_ack extack = {};

	assert_int_equal(phy_ethtool_set_plca_cfg(p2p, &cfg, &extack), -EOPNOTSUPP);
	assert_string_equal(extack._msg, "Point to Multi-Point mode is not enabled");
	assert_int_equal(p2p->mdio_writes, 0);
	/* Enabling with the reset node ID 255 (and none in the request) is refused. */
	cfg.node_id = -1;
	extack = (struct netlink_ext_ack){};
	assert_int_equal(phy_ethtool_set_plca_cfg(tc14, &cfg, &extack), -EINVAL);
	assert_string_equal(extack._msg, "PLCA node ID is not set");
	assert_int_equal(tc14->mdio_writes, 0);
	cfg.node_id = 255;
	assert_int_equal(phy_ethtool_set_plca_cfg(tc14, &cfg, &extack), -EINVAL);
	cfg.node_id = 7;
	assert_int_equal(phy_ethtool_set_plca_cfg(tc14, &cfg, &extack), 0);
	assert_int_equal(reg(tc14, MDIO_OATC14_PLCA_CTRL1), 0x0807);
	/* No PLCA hooks: -EOPNOTSUPP; unbound: -EIO. */
	assert_int_equal(phy_ethtool_set_plca_cfg(none, &cfg, &extack), -EOPNOTSUPP);
	assert_int_equal(phy_ethtool_get_plca_cfg(none, &cfg), -EOPNOTSUPP);
	assert_int_equal(phy_ethtool_get_plca_status(none, &st), -EOPNOTSUPP);
	none->drv = NULL;
	assert_int_equal(phy_ethtool_get_plca_cfg(none, &cfg), -EIO);
	assert_int_equal(phy_ethtool_set_plca_cfg(none, &cfg, &extack), -EIO);
	assert_int_equal(phy_ethtool_get_plca_status(none, &st), -EIO);
	kfsim_phy_destroy(p2p);
	kfsim_phy_destroy(tc14);
	kfsim_phy_destroy(none);
}

static void test_segment_status(void **state)
{
	struct kfsim_plca_net *net = kfsim_plca_net_default();
	struct phy_plca_status st;
	struct phy_plca_cfg cfg = { -1, 0, -1, -1, -1, -1, -1 };

	assert_non_null(net);
	assert_int_equal(phy_ethtool_get_plca_status(dev_get_by_name(net, "eth0")->phydev, &st), 0);
	assert_true(st.pst);
	assert_int_equal(phy_ethtool_get_plca_status(dev_get_by_name(net, "eth1")->phydev, &st), 0);
	assert_true(st.pst);
	assert_int_equal(phy_ethtool_get_plca_status(dev_get_by_name(net, "eth2")->phydev, &st), 0);
	assert_false(st.pst);
	/* The coordinator leaves: the follower stops seeing BEACONs. */
	assert_int_equal(phy_ethtool_set_plca_cfg(dev_get_by_name(net, "eth0")->phydev, &cfg, NULL), 0);
	assert_int_equal(phy_ethtool_get_plca_status(dev_get_by_name(net, "eth1")->phydev, &st), 0);
	assert_false(st.pst);
	kfsim_plca_net_destroy(net);
}

/* Every way a --config file can be wrong is named by line, and nothing is kept. */
static void test_config_file_errors(void **state)
{
	static const struct {
		const char *text;
		const char *msg;
	} cases[] = {
		{ "dev\n", "line 1: 'dev' needs an interface name" },
		{ "# only a comment\n\n", "defines no device" },
		{ "dev a0\nlink a0\n", "line 2: unknown keyword 'link' (lines start with 'dev')" },
		{ "dev a0 phy\n", "line 1: unknown PHY model ''" },
		{ "dev a0 ifindex 0\n", "line 1: invalid ifindex '0': expected 1 to 2147483647" },
		{ "dev a0 segment 8\n", "line 1: invalid segment '8': expected 0 to 7" },
		{ "dev a0\ndev a0\n", "line 2: a0: name or ifindex already in use" },
		{ "dev a0 ifindex 3\ndev b0 ifindex 3\n", "line 2: b0: name or ifindex already in use" },
		{ "dev a:0\n", "line 1: invalid interface name 'a:0'" },
		{ "dev 0123456789abcdef\n", "line 1: invalid interface name '0123456789abcdef'" },
		{ "dev a0 node-id 1\n", "line 1: a0: PLCA settings need a 'phy'" },
		{ "dev a0 phy oa-tc14 node-id\n", "line 1: invalid value '' for 'node-id'" },
		{ "dev a0 phy oa-tc14 to-tmr 0x100\n", "line 1: invalid value '0x100' for 'to-tmr'" },
		{ "dev a0 phy oa-tc14 enable yes\n", "line 1: invalid value 'yes' for 'enable'" },
		{ "dev a0 phy oa-tc14 speed 10\n", "line 1: unknown keyword 'speed'" },
		{ "dev a0 phy no-plca node-id 1\n", "line 1: a0: PLCA settings rejected: -EOPNOTSUPP" },
		{ "dev a0 phy tc14-no-p2mp node-id 1 enable on\n",
		  "line 1: a0: Point to Multi-Point mode is not enabled" },
	};
	char path[] = "/tmp/kfsim-plca-cfg-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kfsim_plca_net *net;
		char err[256] = "";
		FILE *file = fopen(path, "w");

		fputs(cases[i].text, file);
		fclose(file);
		net = kfsim_plca_net_load(path, err, sizeof(err));
		if (!IS_ERR(net) || !strstr(err, cases[i].msg))
			print_error("case %zu: got '%s'\n", i, err);
		assert_true(IS_ERR(net));
		assert_non_null(strstr(err, cases[i].msg));
	}
	unlink(path);
}

/* Load @text from a scratch file; returns the error and leaves the message in @err. */
static int load_text(const char *text, size_t len, char *err, size_t err_size)
{
	char path[] = "/tmp/kfsim-plca-cfg-XXXXXX";
	struct kfsim_plca_net *net;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	err[0] = '\0';
	net = kfsim_plca_net_load(path, err, err_size);
	unlink(path);
	if (!IS_ERR(net)) {
		kfsim_plca_net_destroy(net);
		return 0;
	}
	return (int)PTR_ERR(net);
}

/*
 * A refused file names all its problems in one go, in file order, each bad key of a line
 * included; good lines between them neither hide nor add problems; the first problem's error
 * is returned; a line cut for length or with a NUL does not stop the lines after it.
 */
static void test_config_file_every_problem(void **state)
{
	static const char text[] =
		"dev a0 phy oa-tc14 node-id 300 speed 10 burst-cnt 256\n"	/* three */
		"dev a1 phy ncn26000 node-id 1 enable on\n"			/* good */
		"link a2\n"							/* one */
		"dev a1 phy oa-tc14\n"						/* one, a1 was added */
		"dev a3 node-id 2 node-id 3\n"				/* two */
		/* twelve unknown keys first: a repeat past the 16th key is still a repeat */
		"dev a4 u1 1 u2 2 u3 3 u4 4 u5 5 u6 6 u7 7 u8 8 u9 9 u10 0 u11 1 u12 2 "
		"phy oa-tc14 node-id 4 node-cnt 8 to-tmr 32 burst-cnt 0 node-id 5\n";
	static const char *const told[] = {
		"line 1: invalid value '300' for 'node-id'",
		"; line 1: unknown keyword 'speed'",
		"; line 1: invalid value '256' for 'burst-cnt'",
		"; line 3: unknown keyword 'link'",
		"; line 4: a1: name or ifindex already in use",
		"; line 5: duplicate keyword 'node-id'",
		"; line 5: a3: PLCA settings need a 'phy'",
		"; line 6: unknown keyword 'u1'",
		"; line 6: unknown keyword 'u12'",
		"; line 6: duplicate keyword 'node-id'",
	};
	char err[1024], big[2048];
	const char *at = err;

	(void)state;
	assert_int_equal(load_text(text, sizeof(text) - 1, err, sizeof(err)), -EINVAL);
	print_message("told: %s\n", err);
	for (size_t i = 0; i < ARRAY_SIZE(told); i++) {
		at = strstr(at, told[i]);
		assert_non_null(at);	/* present, and after the one before */
		at += strlen(told[i]);
	}
	assert_string_equal(at, "");	/* nothing else, no "and N more" */

	/* a line too long, then a NUL, then a bad line: all three, and the good line loads */
	memset(big, 'x', sizeof(big));
	memcpy(big, "dev a0\n", 7);
	memcpy(big + 1000, "\ndev b\0\ndev c0 phy x\ndev d0\n", 28);
	assert_int_equal(load_text(big, 1028, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "line 2: line longer than 511 bytes"));
	assert_non_null(strstr(err, "; line 3: a NUL byte: not a text line"));
	assert_non_null(strstr(err, "; line 4: unknown PHY model 'x'"));

	/* a small buffer keeps whole problems and counts the rest */
	assert_int_equal(load_text(text, sizeof(text) - 1, err, 100), -EINVAL);
	print_message("told in 100 bytes: %s\n", err);
	assert_true(strlen(err) < 100);
	assert_non_null(strstr(err, "line 1: invalid value '300' for 'node-id'"));
	assert_non_null(strstr(err, "; and 19 more problems"));
	/* the first problem is told even when it alone does not fit */
	assert_int_equal(load_text(text, sizeof(text) - 1, err, 20), -EINVAL);
	assert_string_equal(err, "line 1: invalid val");

	/* the first problem's error is the one returned, not the last one's */
	assert_int_equal(load_text("dev a0 phy no-plca node-id 1\nlink\n", 34, err, sizeof(err)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "; line 2: unknown keyword 'link'"));
}

/* A file that never ends (/dev/zero) or keeps going is read to 1 MiB, not to memory's end. */
static void test_config_file_bounded(void **state)
{
	char err[1024];
	struct kfsim_plca_net *net;
	char *text = malloc((1u << 20) + 4096);
	size_t len = 0;

	(void)state;
	net = kfsim_plca_net_load("/dev/zero", err, sizeof(err));
	assert_int_equal(PTR_ERR(net), -EFBIG);
	assert_non_null(strstr(err, "past 1048576 bytes"));

	/* a million bytes of bad lines: bounded work, the count of what was not told */
	assert_non_null(text);
	while (len < (1u << 20) + 2048)
		len += (size_t)sprintf(text + len, "dev a0 speed 1\n");
	assert_int_equal(load_text(text, len, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "; and "));	/* the -EFBIG stop is among the untold */
	free(text);
}

/* Randomized: any sequence of sets leaves the registers equal to a field-wise model. */
static void test_random_sets_match_model(void **state)
{
	struct phy_device *phydev = make(KFSIM_PHY_OA_TC14);
	struct phy_plca_cfg model = { 0x10, 0, 255, 8, 32, 0, 128 }, got;
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 8);
	for (int i = 0; i < 2000; i++) {
		struct phy_plca_cfg req = NOCFG;
		int *fields[] = { &req.enabled, &req.node_id, &req.node_cnt, &req.to_tmr,
				  &req.burst_cnt, &req.burst_tmr };
		int *mfields[] = { &model.enabled, &model.node_id, &model.node_cnt, &model.to_tmr,
				   &model.burst_cnt, &model.burst_tmr };

		for (int f = 0; f < 6; f++) {
			if (kfsim_prandom_below(&rnd, 2))
				continue;
			*fields[f] = f == 0 ? (int)kfsim_prandom_below(&rnd, 2)
					    : (int)kfsim_prandom_below(&rnd, 256);
			*mfields[f] = *fields[f];
		}
		assert_int_equal(genphy_c45_plca_set_cfg(phydev, &req), 0);
		assert_int_equal(genphy_c45_plca_get_cfg(phydev, &got), 0);
		assert_memory_equal(&got, &model, sizeof(got));
	}
	kfsim_phy_destroy(phydev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_values_decode),
		cmocka_unit_test(test_read_only_and_self_clearing_bits),
		cmocka_unit_test(test_set_writes_exact_bits),
		cmocka_unit_test(test_disable_first_enable_last),
		cmocka_unit_test(test_idm_mismatch),
		cmocka_unit_test(test_ncn26000_totmr_quirk),
		cmocka_unit_test_teardown(test_lan867x_collision_detect_quirk, restore_kver),
		cmocka_unit_test_teardown(test_drivers_by_release, restore_kver),
		cmocka_unit_test_teardown(test_dummy_driver_row, restore_kver),
		cmocka_unit_test(test_set_cfg_values_above_255),
		cmocka_unit_test(test_phy_ethtool_checks),
		cmocka_unit_test(test_segment_status),
		cmocka_unit_test(test_config_file_errors),
		cmocka_unit_test(test_config_file_every_problem),
		cmocka_unit_test(test_config_file_bounded),
		cmocka_unit_test(test_random_sets_match_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
