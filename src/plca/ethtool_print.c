// SPDX-License-Identifier: MIT
/*
 * ethtool's text for PLCA replies and netlink errors (ethtool netlink/plca.c and
 * netlink/nlsock.c, ethtool 6.3+), shared by kfsim ethtool and the tour.  Each missing
 * attribute prints "not supported"; a dump or a monitor prints a blank line before each block.
 */
#include <string.h>

#include <kfsim/plca.h>

static bool has(const struct kfsim_plca_reply *reply, int attr)
{
	return reply->present & (1u << attr);
}

/* plca_get_cfg_reply_cb(). */
static void print_cfg(FILE *out, const struct kfsim_plca_reply *r)
{
	u32 id = has(r, ETHTOOL_A_PLCA_NODE_ID) ? r->value[ETHTOOL_A_PLCA_NODE_ID] : 255;

	fprintf(out, "PLCA settings for %s:\n", r->devname);
	fprintf(out, "\tEnabled: ");
	if (!has(r, ETHTOOL_A_PLCA_ENABLED))
		fprintf(out, "not supported");
	else
		fprintf(out, r->value[ETHTOOL_A_PLCA_ENABLED] ? "Yes" : "No");
	fprintf(out, "\n\tlocal node ID: ");
	if (!has(r, ETHTOOL_A_PLCA_NODE_ID))
		fprintf(out, "not supported");
	else
		fprintf(out, "%u (%s)", id, id == 0 ? "coordinator" : id == 255 ? "unconfigured" : "follower");
	fprintf(out, "\n\tNode count: ");
	if (!has(r, ETHTOOL_A_PLCA_NODE_CNT)) {
		fprintf(out, "not supported");
	} else {
		fprintf(out, "%u", r->value[ETHTOOL_A_PLCA_NODE_CNT]);
		/* Followers ignore the count; it is kept for a fast coordinator switchover. */
		if (has(r, ETHTOOL_A_PLCA_NODE_ID) && id != 0)
			fprintf(out, " (ignored)");
	}
	fprintf(out, "\n\tTO timer: ");
	if (!has(r, ETHTOOL_A_PLCA_TO_TMR))
		fprintf(out, "not supported");
	else
		fprintf(out, "%u BT", r->value[ETHTOOL_A_PLCA_TO_TMR]);
	fprintf(out, "\n\tBurst count: ");
	if (!has(r, ETHTOOL_A_PLCA_BURST_CNT))
		fprintf(out, "not supported");
	else
		fprintf(out, "%u (%s)", r->value[ETHTOOL_A_PLCA_BURST_CNT],
		       r->value[ETHTOOL_A_PLCA_BURST_CNT] > 0 ? "enabled" : "disabled");
	fprintf(out, "\n\tBurst timer: ");
	if (!has(r, ETHTOOL_A_PLCA_BURST_TMR))
		fprintf(out, "not supported");
	else
		fprintf(out, "%u BT", r->value[ETHTOOL_A_PLCA_BURST_TMR]);
	fprintf(out, "\n");
}

static void print_status(FILE *out, const struct kfsim_plca_reply *r)
{
	fprintf(out, "PLCA status of %s:\n", r->devname);
	fprintf(out, "\tStatus: ");
	if (!has(r, ETHTOOL_A_PLCA_STATUS))
		fprintf(out, "not supported");
	else
		fprintf(out, r->value[ETHTOOL_A_PLCA_STATUS] ? "on" : "off");
	fprintf(out, "\n");
}

void kfsim_ethtool_plca_print(FILE *out, const struct kfsim_plca_reply *reply, bool blank_line)
{
	if (blank_line)
		fputc('\n', out);
	if (reply->cmd == ETHTOOL_MSG_PLCA_GET_CFG_REPLY || reply->cmd == ETHTOOL_MSG_PLCA_NTF)
		print_cfg(out, reply);
	else if (reply->cmd == ETHTOOL_MSG_PLCA_GET_STATUS_REPLY)
		print_status(out, reply);
}

void kfsim_ethtool_print_ack_error(FILE *out, const struct kfsim_nl_error *ack)
{
	if (ack->msg[0]) {
		fprintf(out, "netlink error: %s", ack->msg);
		if (ack->has_offs)
			fprintf(out, " (offset %u)", ack->offs);
		fputc('\n', out);
	}
	if (ack->error)
		fprintf(out, "netlink error: %s\n", strerror(-ack->error));
}
