// SPDX-License-Identifier: MIT
/*
 * The Clause 45 register file of a simulated PHY: phy_read_mmd(), phy_write_mmd() and the
 * read-modify-write helpers built on them.
 *
 * Invariants: a register outside the implemented table reads 0 and ignores writes; a write
 * changes only the register's writable bits; self-clearing bits never read back as 1 (their
 * action completes within the write); every access first consumes one unit of the injected
 * fault budget, so a test can make "the third MDIO access" fail with -EIO.
 */
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/phy.h>
#include "plca_internal.h"

static struct kfsim_mdio_reg *find_reg(struct phy_device *phydev, int mmd, u32 addr)
{
	for (int i = 0; i < phydev->nr_regs; i++)
		if (phydev->regs[i].mmd == mmd && phydev->regs[i].addr == addr)
			return &phydev->regs[i];
	return NULL;
}

int kfsim_phy_add_reg(struct phy_device *phydev, int mmd, u16 addr, u16 reset, u16 writable,
		      u16 self_clearing)
{
	struct kfsim_mdio_reg *reg;

	if (mmd < 0 || mmd > 31)
		return -EINVAL;
	if (find_reg(phydev, mmd, addr))
		return -EEXIST;
	if (phydev->nr_regs >= KFSIM_PHY_MAX_REGS)
		return -ENOSPC;
	reg = &phydev->regs[phydev->nr_regs++];
	*reg = (struct kfsim_mdio_reg){ .mmd = mmd, .addr = addr, .value = reset, .reset = reset,
					.writable = writable, .self_clearing = self_clearing };
	return 0;
}

/* One MDIO transaction's worth of the injected fault budget. */
static int mdio_access(struct phy_device *phydev)
{
	if (phydev->mdio_fail_after < 0)
		return 0;
	if (phydev->mdio_fail_after == 0)
		return -EIO;
	phydev->mdio_fail_after--;
	return 0;
}

static bool is_plca_reg(int mmd, u32 addr)
{
	return mmd == MDIO_MMD_VEND2 && addr >= MDIO_OATC14_PLCA_IDVER &&
	       addr <= MDIO_OATC14_PLCA_BURST;
}

/* PLCA_CTRL0.RST: the PLCA reconciliation sublayer and its registers return to reset. */
static void plca_reset(struct phy_device *phydev)
{
	for (int i = 0; i < phydev->nr_regs; i++)
		if (is_plca_reg(phydev->regs[i].mmd, phydev->regs[i].addr))
			phydev->regs[i].value = phydev->regs[i].reset;
}

int phy_read_mmd(struct phy_device *phydev, int devad, u32 regnum)
{
	struct kfsim_mdio_reg *reg;
	int ret;

	if (devad < 0 || devad > 31 || regnum > 0xffff)
		return -EINVAL;
	ret = mdio_access(phydev);
	if (ret)
		return ret;
	reg = find_reg(phydev, devad, regnum);
	if (!reg)
		return 0;
	if (devad == MDIO_MMD_VEND2 && regnum == MDIO_OATC14_PLCA_STATUS)
		return kfsim_plca_segment_pst(phydev) ? MDIO_OATC14_PLCA_PST : 0;
	return reg->value;
}

int phy_write_mmd(struct phy_device *phydev, int devad, u32 regnum, u16 val)
{
	struct kfsim_mdio_write *log;
	struct kfsim_mdio_reg *reg;
	int ret;

	if (devad < 0 || devad > 31 || regnum > 0xffff)
		return -EINVAL;
	ret = mdio_access(phydev);
	if (ret)
		return ret;
	phydev->mdio_writes++;
	reg = find_reg(phydev, devad, regnum);
	if (!reg)
		return 0;
	log = &phydev->write_log[phydev->mdio_logged++ % KFSIM_PHY_WRITE_LOG];
	*log = (struct kfsim_mdio_write){ .mmd = devad, .addr = regnum, .before = reg->value };
	if (devad == MDIO_MMD_VEND2 && regnum == MDIO_OATC14_PLCA_CTRL0 &&
	    (val & reg->writable & MDIO_OATC14_PLCA_RST))
		plca_reset(phydev);
	else
		reg->value = (reg->value & ~reg->writable) | (val & reg->writable);
	reg->value &= ~reg->self_clearing;
	log->after = reg->value;
	return 0;
}

int phy_modify_mmd(struct phy_device *phydev, int devad, u32 regnum, u16 mask, u16 set)
{
	int ret = phy_read_mmd(phydev, devad, regnum);
	u16 new_value;

	if (ret < 0)
		return ret;
	/* As __mdiobus_modify_changed(): an unchanged value is not written back. */
	new_value = (u16)((ret & ~mask) | set);
	if (new_value == ret)
		return 0;
	return phy_write_mmd(phydev, devad, regnum, new_value);
}

int phy_set_bits_mmd(struct phy_device *phydev, int devad, u32 regnum, u16 val)
{
	return phy_modify_mmd(phydev, devad, regnum, 0, val);
}

int phy_clear_bits_mmd(struct phy_device *phydev, int devad, u32 regnum, u16 val)
{
	return phy_modify_mmd(phydev, devad, regnum, val, 0);
}

int kfsim_phy_peek(const struct phy_device *phydev, int mmd, u16 addr)
{
	for (int i = 0; i < phydev->nr_regs; i++)
		if (phydev->regs[i].mmd == mmd && phydev->regs[i].addr == addr)
			return phydev->regs[i].value;
	return 0;
}

bool kfsim_phy_implements(const struct phy_device *phydev, int mmd, u16 addr)
{
	for (int i = 0; i < phydev->nr_regs; i++)
		if (phydev->regs[i].mmd == mmd && phydev->regs[i].addr == addr)
			return true;
	return false;
}
