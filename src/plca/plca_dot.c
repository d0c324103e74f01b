// SPDX-License-Identifier: MIT
/*
 * A picture of one PLCA SET: the command, the netlink request's attributes, the kernel layers
 * it crossed (genetlink policy, ethtool handler, phylib checks, the PHY driver), the MDIO
 * writes it caused and the answers (ACK, monitor notification).  Everything drawn comes from
 * the run itself — the request bytes, the ACK and the PHY's MDIO write log — so the picture
 * cannot drift from what the code does.
 */
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include "plca_internal.h"

static const char *plca_attr_name(int type)
{
	static const char *const names[ETHTOOL_A_PLCA_MAX + 1] = {
		[ETHTOOL_A_PLCA_HEADER] = "HEADER", [ETHTOOL_A_PLCA_VERSION] = "VERSION",
		[ETHTOOL_A_PLCA_ENABLED] = "ENABLED", [ETHTOOL_A_PLCA_STATUS] = "STATUS",
		[ETHTOOL_A_PLCA_NODE_CNT] = "NODE_CNT", [ETHTOOL_A_PLCA_NODE_ID] = "NODE_ID",
		[ETHTOOL_A_PLCA_TO_TMR] = "TO_TMR", [ETHTOOL_A_PLCA_BURST_CNT] = "BURST_CNT",
		[ETHTOOL_A_PLCA_BURST_TMR] = "BURST_TMR",
	};

	return type > 0 && type <= ETHTOOL_A_PLCA_MAX ? names[type] : "?";
}

static const char *plca_reg_name(int mmd, int addr)
{
	static const char *const names[] = { "IDVER", "CTRL0", "CTRL1", "STATUS", "TOTMR", "BURST" };

	if (mmd == MDIO_MMD_VEND2 && addr >= MDIO_OATC14_PLCA_IDVER &&
	    addr <= MDIO_OATC14_PLCA_BURST)
		return names[addr - MDIO_OATC14_PLCA_IDVER];
	if (mmd == MDIO_MMD_VEND2 && addr == LAN86XX_REG_COL_DET_CTRL0)
		return "COL_DET_CTRL0 (LAN867x)";
	return "vendor";
}

/* The request's attributes as "NODE_ID = 2\l..." (DOT left-justified lines). */
static int describe_request(const u8 *req, size_t len, char *text, size_t size)
{
	struct nlmsghdr nlh;
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN, used = 0;

	if (len < off)
		return -EINVAL;
	memcpy(&nlh, req, sizeof(nlh));
	if (nlh.nlmsg_len > len || nlh.nlmsg_len < off)
		return -EINVAL;
	used += snprintf(text, size, "genl cmd %u, %u bytes\\l", req[NLMSG_HDRLEN], nlh.nlmsg_len);
	while (off + NLA_HDRLEN <= nlh.nlmsg_len && used < size) {
		struct nlattr nla;
		u32 value = 0;

		memcpy(&nla, req + off, sizeof(nla));
		if (nla.nla_len < NLA_HDRLEN || off + nla.nla_len > nlh.nlmsg_len)
			return -EINVAL;
		if (nla_type(&nla) == ETHTOOL_A_PLCA_HEADER) {
			used += snprintf(text + used, size - used, "HEADER { DEV_NAME \\\"%.*s\\\" }\\l",
					 (int)min((size_t)IFNAMSIZ, (size_t)(nla.nla_len > 8 ? nla.nla_len - 9 : 0)),
					 (const char *)req + off + 8);
		} else {
			memcpy(&value, req + off + NLA_HDRLEN, min((size_t)4, (size_t)nla.nla_len - NLA_HDRLEN));
			if (nla.nla_len == NLA_HDRLEN + 1)
				value &= 0xff;
			used += snprintf(text + used, size - used, "%s = %u (%s)\\l",
					 plca_attr_name(nla_type(&nla)), value,
					 nla.nla_len == NLA_HDRLEN + 1 ? "u8" : "u32");
		}
		off += NLA_ALIGN(nla.nla_len);
	}
	return used < size ? 0 : -EINVAL;
}

int kfsim_plca_set_dot(FILE *out, const char *command, const void *req, size_t len,
		       const struct kfsim_nl_error *ack, const struct phy_device *phydev,
		       unsigned long log_from, int nr_notifications)
{
	char attrs[1024];
	unsigned long first = log_from, last = phydev ? phydev->mdio_logged : 0;
	const char *prev = "phylib";
	char kver[16];

	if (describe_request(req, len, attrs, sizeof(attrs)))
		return -EINVAL;
	if (last - first > KFSIM_PHY_WRITE_LOG)
		first = last - KFSIM_PHY_WRITE_LOG;
	fprintf(out, "digraph plca_set {\n"
		     "\trankdir=TB;\n"
		     "\tnode [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", fontname=\"Helvetica\", fontsize=11];\n"
		     "\tedge [fontname=\"Helvetica\", fontsize=10];\n"
		     "\tsubgraph cluster_user { label=\"user space\"; style=dashed;\n"
		     "\t\tcli [label=\"%s\", fillcolor=\"#fff4d6\"];\n"
		     "\t\treq [label=\"netlink request\\n%s\", fillcolor=\"#fff4d6\"];\n"
		     "\t}\n", command, attrs);
	fprintf(out, "\tsubgraph cluster_kernel { label=\"kfsim in-process kernel (Linux %s semantics)\"; style=dashed;\n"
		     "\t\tgenl [label=\"genetlink: family \\\"ethtool\\\", op PLCA_SET_CFG\\nGENL_UNS_ADMIN_PERM, strict policy:\\nENABLED 0..1, NODE_ID 0..255, NODE_CNT 1..255,\\nTO_TMR/BURST_CNT/BURST_TMR 0..255\"];\n"
		     "\t\tethnl [label=\"ethnl_set_plca()\\nall fields -1, then the attributes present\"];\n"
		     "\t\tphylib [label=\"phy_ethtool_set_plca_cfg()\\nunsupported field? P2MP? node ID < 255?\"];\n",
		kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver)));
	if (phydev && phydev->drv)
		fprintf(out, "\t\tdrv [label=\"%s: set_plca_cfg\\n(genphy_c45_plca_set_cfg: disable first, enable last)\"];\n",
			phydev->drv->name);
	fprintf(out, "\t}\n");
	fprintf(out, "\tcli -> req [label=\"sendmsg\"];\n\treq -> genl;\n\tgenl -> ethnl [label=\"valid\"];\n"
		     "\tethnl -> phylib;\n");
	if (phydev && phydev->drv) {
		fprintf(out, "\tphylib -> drv [label=\"checks passed\"];\n");
		prev = "drv";
	}
	if (phydev) {
		fprintf(out, "\tsubgraph cluster_phy { label=\"%s: MDIO, MMD 31\"; style=dashed;\n", phydev->name);
		for (unsigned long i = first; i < last; i++) {
			const struct kfsim_mdio_write *w = &phydev->write_log[i % KFSIM_PHY_WRITE_LOG];

			fprintf(out, "\t\tw%lu [shape=record, fillcolor=\"#e6f5e6\", label=\"{0x%04X %s|0x%04X → 0x%04X}\"];\n",
				i - first, w->addr, plca_reg_name(w->mmd, w->addr), w->before, w->after);
		}
		fprintf(out, "\t}\n");
		for (unsigned long i = first; i < last; i++)
			fprintf(out, "\t%s -> w%lu [label=\"write %lu\"];\n", prev, i - first,
				i - first + 1);
	}
	fprintf(out, "\tack [label=\"ACK: %s%s%s\", fillcolor=\"%s\"];\n",
		ack->error ? kfsim_errname(ack->error) : "0 (success)", ack->msg[0] ? "\\n" : "",
		ack->msg, ack->error ? "#fbe3e3" : "#e6f5e6");
	fprintf(out, "\tethnl -> ack [style=dashed, label=\"netlink_ack\"];\n\tack -> cli [style=dashed];\n");
	if (nr_notifications)
		fprintf(out, "\tntf [label=\"PLCA_NTF (cmd 41)\\nto the monitor group\", fillcolor=\"#fff4d6\"];\n"
			     "\tethnl -> ntf [style=dashed, label=\"ethtool_notify\"];\n");
	fprintf(out, "}\n");
	return ferror(out) ? -EIO : 0;
}
