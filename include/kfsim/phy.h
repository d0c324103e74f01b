/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PHY_H
#define KFSIM_PHY_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Ethernet PHY types (include/linux/phy.h).  The PLCA configuration and status structures are the
 * ones the kernel carries from ethtool netlink to a PHY driver (Linux 6.3); the PLCA part fills in
 * struct phy_device and the genphy helpers, and the bus simulator takes its nodes' settings from
 * the same struct phy_plca_cfg.
 *
 * A simulated PHY is a Clause 45 MDIO register file: a small table of implemented registers, each
 * with its reset value, the bits software may write and the bits that clear themselves.  The
 * OPEN Alliance TC14 PLCA registers live in MMD 31 (MDIO_MMD_VEND2) at 0xCA00..0xCA05.  Reads of
 * registers a PHY does not implement return 0, writes to them and to read-only bits are ignored,
 * as on real hardware.  A driver (struct phy_driver) supplies the PLCA hooks, usually the
 * genphy_c45_plca_*() trio, plus its documented quirks.
 */
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/mutex.h>
#include <kfsim/types.h>

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

/* MDIO manageable devices (include/uapi/linux/mdio.h). */
#define MDIO_MMD_PMAPMD 1
#define MDIO_MMD_VEND1 30
#define MDIO_MMD_VEND2 31
#define MDIO_MMD_OATC14 MDIO_MMD_VEND2	/* the 6.3 alias */

/* OPEN Alliance TC14 PLCA registers in MDIO_MMD_VEND2 (mdio-open-alliance.h, Linux 6.3). */
#define MDIO_OATC14_PLCA_IDVER 0xca00	/* PLCA ID and version */
#define MDIO_OATC14_PLCA_CTRL0 0xca01	/* PLCA control register 0 */
#define MDIO_OATC14_PLCA_CTRL1 0xca02	/* PLCA control register 1 */
#define MDIO_OATC14_PLCA_STATUS 0xca03	/* PLCA status register */
#define MDIO_OATC14_PLCA_TOTMR 0xca04	/* PLCA TO timer register */
#define MDIO_OATC14_PLCA_BURST 0xca05	/* PLCA BURST mode register */

#define MDIO_OATC14_PLCA_IDM 0xff00	/* PLCA map ID */
#define MDIO_OATC14_PLCA_VER 0x00ff	/* PLCA map version */
#define MDIO_OATC14_PLCA_EN 0x8000	/* PLCA enable */
#define MDIO_OATC14_PLCA_RST 0x4000	/* PLCA reset (self-clearing) */
#define MDIO_OATC14_PLCA_NCNT 0xff00	/* PLCA node count */
#define MDIO_OATC14_PLCA_ID 0x00ff	/* PLCA local node ID */
#define MDIO_OATC14_PLCA_PST 0x8000	/* PLCA status indication */
#define MDIO_OATC14_PLCA_TOT 0x00ff	/* PLCA TO timer */
#define MDIO_OATC14_PLCA_MAXBC 0xff00	/* PLCA max burst count */
#define MDIO_OATC14_PLCA_BTMR 0x00ff	/* PLCA burst timer */

#define OATC14_IDM 0x0a00	/* the map ID of the OPEN Alliance TC14 register map */

/* Microchip LAN86xx collision detection control (microchip_t1s.c), in MDIO_MMD_VEND2. */
#define LAN86XX_REG_COL_DET_CTRL0 0x0087
#define COL_DET_CTRL0_ENABLE_BIT_MASK 0x8000
/* Microchip LAN867x status 2: reset complete (microchip_t1s.c), in MDIO_MMD_VEND2. */
#define LAN867X_REG_STS2 0x0019
#define LAN867x_RESET_COMPLETE_STS 0x0800

/* PHY identifiers of the parts kfsim simulates (the drivers' PHY_ID_* values). */
#define PHY_ID_LAN867X_REVB1 0x0007c162
#define PHY_ID_LAN867X_REVC1 0x0007c164
#define PHY_ID_NCN26000 0x180ff5a1

/* Link mode bit the kernel requires before enabling PLCA (ethtool.h). */
#define ETHTOOL_LINK_MODE_10baseT1S_P2MP_Half_BIT 101

#define KFSIM_PHY_MAX_REGS 24
#define KFSIM_PHY_WRITE_LOG 16

/**
 * struct kfsim_mdio_write - one logged MDIO write
 * @mmd: the MMD written
 * @addr: the register written
 * @before: its value before the write
 * @after: its value after (read-only bits kept, self-clearing bits cleared)
 */
struct kfsim_mdio_write {
	u8 mmd;
	u16 addr;
	u16 before;
	u16 after;
};

/**
 * struct kfsim_mdio_reg - one implemented Clause 45 register
 * @mmd: the MMD (device address) it lives in
 * @addr: the register address within @mmd
 * @value: what a read returns now
 * @reset: the value after power-on or a PLCA reset (for PLCA registers)
 * @writable: bits a write changes; the others keep their value (read-only)
 * @self_clearing: writable bits that read back 0 once the action they start is done
 */
struct kfsim_mdio_reg {
	u8 mmd;
	u16 addr;
	u16 value;
	u16 reset;
	u16 writable;
	u16 self_clearing;
};

struct phy_device;

/** PHY_ID_MATCH_EXACT / PHY_ID_MATCH_MODEL - the kernel's match masks (phy.h). */
#define PHY_ID_MATCH_EXACT_MASK 0xffffffffU
#define PHY_ID_MATCH_MODEL_MASK 0xfffffff0U

/**
 * struct phy_driver - a PHY driver (the PLCA-relevant subset of the kernel's), one row of
 * kfsim's driver table
 * @phy_id: the PHY identifier it binds to
 * @phy_id_mask: the bits of @phy_id that must match (PHY_ID_MATCH_EXACT_MASK, _MODEL_MASK)
 * @name: the driver name the kernel prints
 * @t1s_p2mp: its features include PHY_BASIC_T1S_P2MP_FEATURES (link mode 10baseT1S_P2MP_Half),
 *            which phy_ethtool_set_plca_cfg() requires before enabling PLCA
 * @since: kfsim: the first release (KERNEL_VERSION()) that has this driver; 0 = always
 * @until: kfsim: the first release that no longer has it in this form; 0 = still there
 * @config_init: called once when the PHY is attached; may be NULL
 * @get_plca_cfg: read the PLCA configuration; NULL if the PHY has no PLCA
 * @set_plca_cfg: apply the fields of a configuration that are not -1
 * @get_plca_status: read the PLCA status
 */
struct phy_driver {
	u32 phy_id;
	u32 phy_id_mask;
	const char *name;
	bool t1s_p2mp;
	unsigned int since;
	unsigned int until;
	int (*config_init)(struct phy_device *phydev);
	int (*get_plca_cfg)(struct phy_device *phydev, struct phy_plca_cfg *plca_cfg);
	int (*set_plca_cfg)(struct phy_device *phydev, const struct phy_plca_cfg *plca_cfg);
	int (*get_plca_status)(struct phy_device *phydev, struct phy_plca_status *plca_st);
};

struct kfsim_plca_segment;

/**
 * struct phy_device - a simulated PHY
 * @name: a label for logs ("lan8670-0")
 * @phy_id: the identifier read from the PHY
 * @drv: the bound driver, or NULL (unbound)
 * @lock: phydev->lock, held around driver PLCA hooks as phylib does
 * @p2mp: whether the PHY advertises 10BASE-T1S point-to-multipoint (link mode bit 101): the
 *        bound driver's features decide, as in phylib
 * @regs: the implemented registers
 * @nr_regs: how many of @regs are in use
 * @mdio_fail_after: fault injection: the number of further MDIO accesses that succeed before
 *                   every access fails with -EIO; -1 (the default) never fails
 * @mdio_writes: the number of MDIO writes performed (for tests)
 * @write_log: the last KFSIM_PHY_WRITE_LOG writes to implemented registers, oldest first
 *             once wrapped: entry (@mdio_logged + i) % KFSIM_PHY_WRITE_LOG
 * @mdio_logged: the number of writes logged since creation (or since the caller zeroed it)
 * @segment: the mixing segment the PHY is attached to, or NULL; decides PLCA_STATUS.PST
 */
struct phy_device {
	char name[32];
	u32 phy_id;
	const struct phy_driver *drv;
	struct mutex lock;
	bool p2mp;
	struct kfsim_mdio_reg regs[KFSIM_PHY_MAX_REGS];
	int nr_regs;
	int mdio_fail_after;
	unsigned long mdio_writes;
	struct kfsim_mdio_write write_log[KFSIM_PHY_WRITE_LOG];
	unsigned long mdio_logged;
	struct kfsim_plca_segment *segment;
};

/**
 * enum kfsim_phy_model - the PHY silicon kfsim simulates (which driver binds to it depends on
 * the kernel release, see kfsim_phy_create())
 * @KFSIM_PHY_OA_TC14: a generic OPEN Alliance TC14 10BASE-T1S PHY using the genphy_c45 helpers
 * @KFSIM_PHY_LAN8670: Microchip LAN867x Rev.C1 (PHY ID 0x0007C164): bound by "LAN867X" (6.3,
 *                     6.4, model match), by no driver in 6.5..6.12, by "LAN867X Rev.C1" with
 *                     collision-detect control from 6.13
 * @KFSIM_PHY_NCN26000: onsemi NCN26000: TO timer resets to 24, config_init writes 32
 * @KFSIM_PHY_TC14_NOT_P2MP: a TC14 register map on a PHY without the P2MP link mode
 * @KFSIM_PHY_BAD_IDM: a PHY whose driver has PLCA hooks but whose IDVER map ID is not TC14
 * @KFSIM_PHY_NO_PLCA: a 100BASE-TX PHY whose driver has no PLCA hooks
 * @KFSIM_PHY_LAN8670_REVB1: Microchip LAN867x Rev.B1 (PHY ID 0x0007C162): "LAN867X" (6.3, 6.4),
 *                           "LAN867X Rev.B1" from 6.5, always the plain genphy_c45 helpers
 */
enum kfsim_phy_model {
	KFSIM_PHY_OA_TC14,
	KFSIM_PHY_LAN8670,
	KFSIM_PHY_NCN26000,
	KFSIM_PHY_TC14_NOT_P2MP,
	KFSIM_PHY_BAD_IDM,
	KFSIM_PHY_NO_PLCA,
	KFSIM_PHY_LAN8670_REVB1,
	KFSIM_PHY_NR_MODELS,
};

/**
 * kfsim_phy_create() - create a PHY of @model, bind its driver and run its config_init
 * @model: which PHY
 * @name: a label for logs (copied, truncated to 31 bytes)
 *
 * The driver is the first row of the driver table (the built-in rows, then those added with
 * phy_drivers_register()) whose ID matches under its mask and which exists in the release
 * kfsim_kernel_version() names; when none does, phylib's "Generic PHY" binds: it has no PLCA
 * hooks and no P2MP feature, so PLCA requests answer -EOPNOTSUPP.
 *
 * Return: the PHY, ERR_PTR(-EINVAL) for an unknown model, ERR_PTR(-ENOMEM), or the error of the
 * driver's config_init.
 */
struct phy_device *kfsim_phy_create(enum kfsim_phy_model model, const char *name);

/**
 * phy_drivers_register() - add @n driver rows to the driver table (module_phy_driver())
 * @new_driver: the rows; they must stay valid until phy_drivers_unregister()
 * @n: how many
 * @owner: unused (the kernel's struct module *)
 *
 * Rows added here are matched after the built-in ones, in registration order.  PHYs created
 * before keep their driver.
 *
 * Return: 0, -EINVAL for a NULL table, a row without name, or a non-positive @n, -EEXIST if a
 * row is already registered, -ENOSPC past 16 rows.
 */
int phy_drivers_register(struct phy_driver *new_driver, int n, void *owner);

/** phy_drivers_unregister() - remove @n rows added by phy_drivers_register(). */
void phy_drivers_unregister(struct phy_driver *drv, int n);

/** kfsim_phy_destroy() - free a PHY (NULL is ignored). */
void kfsim_phy_destroy(struct phy_device *phydev);

/**
 * kfsim_phy_model_name() - the configuration-file name of @model ("lan8670")
 *
 * Return: the name, or NULL for an unknown model.
 */
const char *kfsim_phy_model_name(enum kfsim_phy_model model);

/**
 * kfsim_phy_model_names() - the models' names, ", "-separated, into @buf (for messages)
 *
 * Return: the length written, or -ENOSPC when @buf is too small (truncated).
 */
int kfsim_phy_model_names(char *buf, size_t size);

/**
 * kfsim_phy_model_parse() - the model whose name is @name
 *
 * Return: 0 with *@model set, or -EINVAL.
 */
int kfsim_phy_model_parse(const char *name, enum kfsim_phy_model *model);

/**
 * kfsim_phy_peek() - the value register @mmd:@addr holds, read without an MDIO transaction
 *
 * For models built on the PHY (the bus simulator reads its collision-detect setting): nothing is
 * logged and no fault injection applies.  Return: the value, or 0 for a register the PHY does
 * not have (see kfsim_phy_implements()).
 */
int kfsim_phy_peek(const struct phy_device *phydev, int mmd, u16 addr);

/** kfsim_phy_implements() - whether the PHY has register @mmd:@addr at all. */
bool kfsim_phy_implements(const struct phy_device *phydev, int mmd, u16 addr);

/**
 * kfsim_phy_add_reg() - implement register @mmd:@addr with @reset value and @writable bits
 *
 * Return: 0, -EEXIST if already implemented, -ENOSPC if the table is full.
 */
int kfsim_phy_add_reg(struct phy_device *phydev, int mmd, u16 addr, u16 reset, u16 writable,
		      u16 self_clearing);

/**
 * phy_read_mmd() - read a Clause 45 register
 *
 * Return: the value (0..0xffff), 0 for an unimplemented register, -EIO after an injected MDIO
 * fault, -EINVAL for an MMD outside 0..31.
 */
int phy_read_mmd(struct phy_device *phydev, int devad, u32 regnum);

/**
 * phy_write_mmd() - write a Clause 45 register (read-only bits keep their value)
 *
 * Writing PLCA_CTRL0.RST resets every PLCA register to its reset value; RST reads back 0.
 *
 * Return: 0, -EIO after an injected MDIO fault, -EINVAL for an MMD outside 0..31.
 */
int phy_write_mmd(struct phy_device *phydev, int devad, u32 regnum, u16 val);

/**
 * phy_modify_mmd() - read, clear @mask, set @set, write back
 *
 * Return: 0 or the error of the read or the write.
 */
int phy_modify_mmd(struct phy_device *phydev, int devad, u32 regnum, u16 mask, u16 set);

/** phy_set_bits_mmd() - phy_modify_mmd(phydev, devad, regnum, 0, val). */
int phy_set_bits_mmd(struct phy_device *phydev, int devad, u32 regnum, u16 val);

/** phy_clear_bits_mmd() - phy_modify_mmd(phydev, devad, regnum, val, 0). */
int phy_clear_bits_mmd(struct phy_device *phydev, int devad, u32 regnum, u16 val);

/**
 * genphy_c45_plca_get_cfg() - read the PLCA configuration from the TC14 registers
 * @phydev: the PHY
 * @plca_cfg: filled in: version is the low byte of IDVER (0x10 = v1.0), the others decoded
 *            from CTRL0/CTRL1/TOTMR/BURST
 *
 * Return: 0, -ENODEV if IDVER's map ID is not 0x0a (not a TC14 map), or an MDIO error.
 */
int genphy_c45_plca_get_cfg(struct phy_device *phydev, struct phy_plca_cfg *plca_cfg);

/**
 * genphy_c45_plca_set_cfg() - write the fields of @plca_cfg that are not -1
 *
 * Order (as in Linux 6.3): a disable clears EN first, then CTRL1 (node count / ID, merged with
 * the current value when only one is given), TOTMR, BURST (merged likewise), and an enable sets
 * EN last, so the node never runs with a half-written configuration.  An MDIO error stops at
 * once; what was written before stays written (the kernel does not roll back).
 *
 * Return: 0, -EINVAL if @plca_cfg->version is set (read-only), or an MDIO error.
 */
int genphy_c45_plca_set_cfg(struct phy_device *phydev, const struct phy_plca_cfg *plca_cfg);

/**
 * genphy_c45_plca_get_status() - read PLCA_STATUS.PST into @plca_st
 *
 * Return: 0 or an MDIO error.
 */
int genphy_c45_plca_get_status(struct phy_device *phydev, struct phy_plca_status *plca_st);

/* The extack of the netlink core; the PHY layer only fills in its message. */
struct netlink_ext_ack;

/**
 * struct ethtool_phy_ops - the PHY hooks ethtool netlink calls (registered by phylib)
 * @get_plca_cfg: phy_ethtool_get_plca_cfg()
 * @set_plca_cfg: phy_ethtool_set_plca_cfg()
 * @get_plca_status: phy_ethtool_get_plca_status()
 */
struct ethtool_phy_ops {
	int (*get_plca_cfg)(struct phy_device *phydev, struct phy_plca_cfg *plca_cfg);
	int (*set_plca_cfg)(struct phy_device *phydev, const struct phy_plca_cfg *plca_cfg,
			    struct netlink_ext_ack *extack);
	int (*get_plca_status)(struct phy_device *phydev, struct phy_plca_status *plca_st);
};

/** phy_ethtool_phy_ops - phylib's ethtool_phy_ops (the three functions below). */
extern const struct ethtool_phy_ops phy_ethtool_phy_ops;

/**
 * phy_ethtool_get_plca_cfg() - the driver's get_plca_cfg under phydev->lock
 *
 * Return: 0, -EIO if no driver is bound, -EOPNOTSUPP if the driver has no PLCA, or the
 * driver's error (-ENODEV for a non-TC14 map).
 */
int phy_ethtool_get_plca_cfg(struct phy_device *phydev, struct phy_plca_cfg *plca_cfg);

/**
 * phy_ethtool_set_plca_cfg() - check a request against the PHY, then apply it
 *
 * Checks, in the kernel's order: a field the PHY reports as -1 cannot be set ("PHY does not
 * support changing the PLCA '<x>' attribute", -EINVAL); enabling needs the P2MP link mode
 * ("Point to Multi-Point mode is not enabled", -EOPNOTSUPP) and a node ID below 255 ("PLCA
 * node ID is not set", -EINVAL).  A request failing a check writes nothing.
 *
 * Return: 0, the errors above with @extack set, -EIO (no driver), -EOPNOTSUPP (no PLCA), or
 * the driver's error.
 */
int phy_ethtool_set_plca_cfg(struct phy_device *phydev, const struct phy_plca_cfg *plca_cfg,
			     struct netlink_ext_ack *extack);

/**
 * phy_ethtool_get_plca_status() - the driver's get_plca_status under phydev->lock
 *
 * Return: 0, -EIO (no driver), -EOPNOTSUPP (no PLCA), or the driver's error.
 */
int phy_ethtool_get_plca_status(struct phy_device *phydev, struct phy_plca_status *plca_st);

#pragma GCC visibility pop
#endif /* KFSIM_PHY_H */
