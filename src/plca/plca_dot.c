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

/* Append @str to @text for a DOT double-quoted string: '"' and '\\' escaped. */
static size_t dot_escape(char *text, size_t used, size_t size, const char *str)
{
	for (; *str && used + 2 < size; str++) {
		if (*str == '"' || *str == '\\')
			text[used++] = '\\';
		text[used++] = *str;
	}
	text[used] = '\0';
	return used;
}

/* The request's attributes in message order as "NODE_ID = 2\l..." (DOT left-justified lines). */
static int describe_request(const u8 *req, size_t len, char *text, size_t size)
{
	struct kfsim_plca_reply parsed;
	struct nlmsghdr nlh;
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN, used;

	if (kfsim_ethtool_plca_parse(req, len, &parsed))
		return -EINVAL;	/* also checks every length the walk below relies on */
	memcpy(&nlh, req, sizeof(nlh));
	used = snprintf(text, size, "genl cmd %u, %u bytes\\l", parsed.cmd, nlh.nlmsg_len);
	while (off + NLA_HDRLEN <= nlh.nlmsg_len && used + 64 < size) {
		struct nlattr nla;
		int type;

		memcpy(&nla, req + off, sizeof(nla));
		type = nla.nla_type & NLA_TYPE_MASK;
		if (type == ETHTOOL_A_PLCA_HEADER) {
			used += snprintf(text + used, size - used, "HEADER {");
			if (parsed.ifindex)
				used += snprintf(text + used, size - used, " DEV_INDEX %d",
						 parsed.ifindex);
			if (parsed.devname[0]) {
				used += snprintf(text + used, size - used, " DEV_NAME \\\"");
				used = dot_escape(text, used, size - 32, parsed.devname);
				used += snprintf(text + used, size - used, "\\\"");
			}
			used += snprintf(text + used, size - used, " }\\l");
		} else if (type > ETHTOOL_A_PLCA_HEADER && type <= ETHTOOL_A_PLCA_MAX) {
			used += snprintf(text + used, size - used, "%s = %u (%s)\\l",
					 plca_attr_name(type), parsed.value[type],
					 nla.nla_len == NLA_HDRLEN + 1 ? "u8" : "u32");
		}
		off += NLA_ALIGN(nla.nla_len);
	}
	return used < size ? 0 : -EINVAL;
}

static void emit_user(FILE *out, const char *label, const char *attrs)
{
	fprintf(out, "digraph plca_set {\n"
		     "\trankdir=TB;\n"
		     "\tnode [shape=box, style=\"rounded,filled\", fillcolor=\"#eef3fb\", "
		     "fontname=\"Helvetica\", fontsize=11];\n"
		     "\tedge [fontname=\"Helvetica\", fontsize=10];\n"
		     "\tsubgraph cluster_user { label=\"user space\"; style=dashed;\n"
		     "\t\tcli [label=\"%s\", fillcolor=\"#fff4d6\"];\n"
		     "\t\treq [label=\"netlink request\\n%s\", fillcolor=\"#fff4d6\"];\n"
		     "\t}\n", label, attrs);
}

static void emit_kernel(FILE *out, const char *drv_name)
{
	char kver[16];

	fprintf(out, "\tsubgraph cluster_kernel { label=\"kfsim in-process kernel "
		     "(Linux %s semantics)\"; style=dashed;\n"
		     "\t\tgenl [label=\"genetlink: family \\\"ethtool\\\", op PLCA_SET_CFG\\n"
		     "GENL_UNS_ADMIN_PERM, strict policy:\\n"
		     "ENABLED 0..1, NODE_ID 0..255, NODE_CNT 1..255,\\n"
		     "TO_TMR/BURST_CNT/BURST_TMR 0..255\"];\n"
		     "\t\tethnl [label=\"ethnl_set_plca()\\nall fields -1, then the attributes "
		     "present\"];\n"
		     "\t\tphylib [label=\"phy_ethtool_set_plca_cfg()\\n"
		     "unsupported field? P2MP? node ID < 255?\"];\n",
		kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver)));
	if (drv_name)
		fprintf(out, "\t\tdrv [label=\"%s: set_plca_cfg\\n"
			     "(genphy_c45_plca_set_cfg: disable first, enable last)\"];\n", drv_name);
	fprintf(out, "\t}\n"
		     "\tcli -> req [label=\"sendmsg\"];\n\treq -> genl;\n"
		     "\tgenl -> ethnl [label=\"valid\"];\n\tethnl -> phylib;\n");
	if (drv_name)
		fprintf(out, "\tphylib -> drv [label=\"checks passed\"];\n");
}

/* The MDIO writes logged from @first to @last, each a register node: old -> new value. */
static void emit_writes(FILE *out, const struct phy_device *phydev, unsigned long first,
			unsigned long last, const char *from)
{
	char name[64];

	dot_escape(name, 0, sizeof(name), phydev->name);
	fprintf(out, "\tsubgraph cluster_phy { label=\"%s: MDIO, MMD 31\"; style=dashed;\n", name);
	for (unsigned long i = first; i < last; i++) {
		const struct kfsim_mdio_write *w = &phydev->write_log[i % KFSIM_PHY_WRITE_LOG];

		fprintf(out, "\t\tw%lu [shape=record, fillcolor=\"#e6f5e6\", "
			     "label=\"{0x%04X %s|0x%04X → 0x%04X}\"];\n",
			i - first, w->addr, plca_reg_name(w->mmd, w->addr), w->before, w->after);
	}
	fprintf(out, "\t}\n");
	for (unsigned long i = first; i < last; i++)
		fprintf(out, "\t%s -> w%lu [label=\"write %lu\"];\n", from, i - first, i - first + 1);
}

static void emit_answers(FILE *out, const struct kfsim_nl_error *ack, int nr_notifications)
{
	char msg[300];

	dot_escape(msg, 0, sizeof(msg), ack->msg);
	fprintf(out, "\tack [label=\"ACK: %s%s%s\", fillcolor=\"%s\"];\n",
		ack->error ? kfsim_errname(ack->error) : "0 (success)", msg[0] ? "\\n" : "", msg,
		ack->error ? "#fbe3e3" : "#e6f5e6");
	fprintf(out, "\tethnl -> ack [style=dashed, label=\"netlink_ack\"];\n"
		     "\tack -> cli [style=dashed];\n");
	if (nr_notifications)
		fprintf(out, "\tntf [label=\"PLCA_NTF (cmd 41)\\nto the monitor group\", "
			     "fillcolor=\"#fff4d6\"];\n"
			     "\tethnl -> ntf [style=dashed, label=\"ethtool_notify\"];\n");
	fprintf(out, "}\n");
}

int kfsim_plca_set_dot(FILE *out, const char *command, const void *req, size_t len,
		       const struct kfsim_nl_error *ack, const struct phy_device *phydev,
		       unsigned long log_from, int nr_notifications)
{
	unsigned long first = log_from, last = phydev ? phydev->mdio_logged : 0;
	char attrs[1024], label[512], drv_name[128];
	bool has_drv = phydev && phydev->drv;

	if (describe_request(req, len, attrs, sizeof(attrs)))
		return -EINVAL;
	dot_escape(label, 0, sizeof(label), command);
	if (has_drv)
		dot_escape(drv_name, 0, sizeof(drv_name), phydev->drv->name);
	if (last - first > KFSIM_PHY_WRITE_LOG)
		first = last - KFSIM_PHY_WRITE_LOG;
	emit_user(out, label, attrs);
	emit_kernel(out, has_drv ? drv_name : NULL);
	if (phydev)
		emit_writes(out, phydev, first, last, has_drv ? "drv" : "phylib");
	emit_answers(out, ack, nr_notifications);
	return ferror(out) ? -EIO : 0;
}
