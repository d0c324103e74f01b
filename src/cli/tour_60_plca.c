// SPDX-License-Identifier: MIT
/*
 * Tour step "plca": configure the built-in 10BASE-T1S segment the way ethtool does — real
 * netlink messages to the in-process kernel — and show ethtool's output, the MDIO writes a SET
 * caused, the monitor notification, and a rejected SET that changed nothing.  Draws the path
 * of the SET as plca-set-path.dot (and .svg when Graphviz's dot is installed).
 */
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>

#include <kfsim/err.h>
#include <kfsim/graphviz.h>
#include <kfsim/plca.h>
#include "cli.h"

struct tour_plca {
	FILE *out;
	struct kfsim_plca_net *net;
	struct kfsim_ethtool_chan *chan;
	struct kfsim_nl_sock *monitor;
	u8 req[256];
	int len;
};

static int show(const struct kfsim_plca_reply *reply, void *data)
{
	kfsim_ethtool_plca_print(data, reply, false);
	return 0;
}

/* One ethtool command: print it, send it, print what ethtool would. */
static int ethtool(struct tour_plca *t, const char *line, u8 cmd, const char *dev,
		   const struct kfsim_plca_attr *attrs, int nr_attrs, struct kfsim_nl_error *ack)
{
	int ret;

	fprintf(t->out, "\n$ kfsim ethtool %s\n", line);
	t->len = kfsim_ethtool_plca_request(t->req, sizeof(t->req),
					    kfsim_ethtool_chan_family(t->chan), cmd,
					    NLM_F_REQUEST | NLM_F_ACK, 1, dev, 0, attrs, nr_attrs);
	if (t->len < 0)
		return t->len;
	ret = kfsim_ethtool_chan_transact(t->chan, t->req, (size_t)t->len, show, t->out, ack);
	if (ret)
		return ret;
	kfsim_ethtool_print_ack_error(t->out, ack);
	return 0;
}

static int count_notifications(struct tour_plca *t)
{
	u8 msg[4096];
	int count = 0;

	while (kfsim_nl_sock_recv(t->monitor, msg, sizeof(msg)) > 0)
		count++;
	return count;
}

struct set_picture {
	const struct tour_plca *t;
	const char *command;
	const struct kfsim_nl_error *ack;
	unsigned long log_from;
	int nr_ntf;
};

static int write_set_dot(FILE *out, const void *arg)
{
	const struct set_picture *p = arg;

	return kfsim_plca_set_dot(out, p->command, p->t->req, (size_t)p->t->len, p->ack,
				  dev_get_by_name(p->t->net, "eth2")->phydev, p->log_from,
				  p->nr_ntf);
}

static int draw_set(struct tour_plca *t, const char *command, const struct kfsim_nl_error *ack,
		    unsigned long log_from, int nr_ntf, struct kfsim_tour_ctx *ctx)
{
	const struct set_picture picture = { t, command, ack, log_from, nr_ntf };
	char dot_path[PATH_MAX], svg_path[PATH_MAX];
	int ret;

	ret = kfsim_tour_path(ctx, "plca-set-path.dot", dot_path);
	if (!ret)
		ret = kfsim_tour_path(ctx, "plca-set-path.svg", svg_path);
	if (!ret)
		ret = kfsim_tour_write(ctx, "plca-set-path.dot", write_set_dot, &picture);
	if (ret)
		return ret;
	/* the picture is optional (Graphviz may be missing), the DOT file is not */
	if (!kfsim_dot_file_to_svg(dot_path, svg_path, "tour"))
		kfsim_tour_file(ctx, svg_path);
	return 0;
}

static int tour_steps(struct tour_plca *t, struct kfsim_tour_ctx *ctx)
{
	static const struct kfsim_plca_attr join[] = {
		{ ETHTOOL_A_PLCA_NODE_ID, 2 }, { ETHTOOL_A_PLCA_ENABLED, 1 },
	};
	static const struct kfsim_plca_attr bad[] = { { ETHTOOL_A_PLCA_NODE_CNT, 0 } };
	struct phy_device *phydev = dev_get_by_name(t->net, "eth2")->phydev;
	unsigned long log_from;
	struct kfsim_nl_error ack;
	int ret, nr_ntf;

	fprintf(t->out, "Segment: eth0 (LAN8670, coordinator, node 0 of 8), eth1 (NCN26000, node 1),\n"
			"eth2 (generic OPEN Alliance TC14 PHY, still at reset).  Every command below is a\n"
			"netlink message to kfsim's in-process kernel, answered as Linux answers it.\n");
	ret = ethtool(t, "--get-plca-cfg eth2", ETHTOOL_MSG_PLCA_GET_CFG, "eth2", NULL, 0, &ack);
	if (ret)
		return ret;
	log_from = phydev->mdio_logged;
	ret = ethtool(t, "--set-plca-cfg eth2 node-id 2 enable on", ETHTOOL_MSG_PLCA_SET_CFG,
		      "eth2", join, 2, &ack);
	if (ret)
		return ret;
	nr_ntf = count_notifications(t);
	fprintf(t->out, "(ACK %d; %lu MDIO writes, the enable last:", ack.error,
		phydev->mdio_logged - log_from);
	for (unsigned long i = log_from; i < phydev->mdio_logged; i++) {
		const struct kfsim_mdio_write *w = &phydev->write_log[i % KFSIM_PHY_WRITE_LOG];

		fprintf(t->out, " 0x%04x: 0x%04x -> 0x%04x;", w->addr, w->before, w->after);
	}
	fprintf(t->out, " %d PLCA_NTF to the monitor group)\n", nr_ntf);
	ret = draw_set(t, "kfsim ethtool --set-plca-cfg eth2 node-id 2 enable on", &ack, log_from,
		       nr_ntf, ctx);
	if (ret)
		return ret;
	ret = ethtool(t, "--get-plca-status eth2", ETHTOOL_MSG_PLCA_GET_STATUS, "eth2", NULL, 0,
		      &ack);
	if (ret)
		return ret;
	log_from = phydev->mdio_logged;
	ret = ethtool(t, "--set-plca-cfg eth2 node-cnt 0", ETHTOOL_MSG_PLCA_SET_CFG, "eth2", bad, 1,
		      &ack);
	if (ret)
		return ret;
	fprintf(t->out, "(rejected by the policy before any handler ran: %lu MDIO writes, %d notifications)\n",
		phydev->mdio_logged - log_from, count_notifications(t));
	return 0;
}

static int tour_plca(struct kfsim_tour_ctx *ctx)
{
	struct tour_plca t = { .out = ctx->out };
	int ret;

	t.net = kfsim_plca_net_default();
	if (!t.net)
		return -ENOMEM;
	t.chan = kfsim_ethtool_chan_inproc(t.net, true);
	t.monitor = kfsim_nl_sock_open(kfsim_plca_net_kernel(t.net), &KFSIM_NL_CRED_USER);
	if (IS_ERR(t.chan) || IS_ERR(t.monitor)) {
		ret = IS_ERR(t.chan) ? (int)PTR_ERR(t.chan) : (int)PTR_ERR(t.monitor);
		if (!IS_ERR(t.chan))
			kfsim_ethtool_chan_close(t.chan);
		kfsim_plca_net_destroy(t.net);
		return ret;
	}
	kfsim_nl_sock_setsockopt(t.monitor, NETLINK_ADD_MEMBERSHIP,
				 kfsim_plca_net_monitor_group(t.net));
	ret = tour_steps(&t, ctx);
	kfsim_ethtool_chan_close(t.chan);
	kfsim_plca_net_destroy(t.net);	/* closes the monitor socket */
	return ret;
}

static const char *const try_plca[] = {
	"kfsim ethtool --get-plca-cfg eth0",
	"kfsim ethtool --set-plca-cfg eth2 node-id 2 enable on",
	"kfsim ethtool --json --get-plca-status eth1",
	NULL,
};

const struct kfsim_tour_step kfsim_tour_plca = {
	.name = "plca",
	.title = "PLCA (10BASE-T1S): ethtool's PLCA commands through netlink to PHY registers",
	.doc = "plca.md",
	.try_cmds = try_plca,
	.run = tour_plca,
};
