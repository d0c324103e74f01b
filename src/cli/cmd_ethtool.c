// SPDX-License-Identifier: MIT
/*
 * kfsim ethtool: the PLCA commands of ethtool 6.3+, byte for byte.
 *
 *   kfsim ethtool [--json] [--config FILE | --kernel | --server PATH] [--no-admin] [-I]
 *                 SUBCOMMAND DEV [PARAMS]
 *
 * SUBCOMMAND is --get-plca-cfg, --set-plca-cfg or --get-plca-status (ethtool's word for them,
 * as in "subcommand does not support wildcard dump"); DEV "*" dumps every device.
 * Each request is a real netlink message: to kfsim's in-process kernel holding the built-in
 * segment (or the --config file's), or with --kernel to the running kernel.  What reaches
 * stdout and stderr for ethtool's own arguments and for kernel errors is what ethtool prints,
 * with ethtool's exit codes (1 bad parameter or failed GET, 76 failed SET); kfsim's own options
 * follow the kfsim rules (exit 2, one line naming the option).
 *
 * Table driven, as ethtool is: the actions (ethtool.c's args[] rows) and the keywords of
 * --set-plca-cfg (netlink/plca.c's set_plca_params[]) are described once below; the parsing,
 * ethtool's errors and the help come from those tables (cli_params.c, cli_opts.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>

#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/plca.h>
#include <kfsim/cmdline.h>
#include "cli.h"

#define CMD "ethtool"
#define ETHTOOL_EXIT_NETLINK 76
#define WILDCARD_DEVNAME "*"

/* What --set-plca-cfg's keywords fill in; the attributes go out in command-line order. */
struct plca_set_values {
	bool enable;
	u32 node_id, node_cnt, to_tmr, burst_cnt, burst_tmr;
};

#define P(field) offsetof(struct plca_set_values, field)

/*
 * ethtool's set_plca_params[] (netlink/plca.c): each keyword, how ethtool parses it
 * (nl_parse_u8bool: on|off, sent as NLA_U8; nl_parse_direct_u32: parse_u32(), any u32, sent as
 * NLA_U32: the kernel's policy enforces the ranges) and the attribute it becomes.
 */
static const struct kfsim_cli_param plca_set_params[] = {
	{ "enable", KFSIM_OPT_ONOFF, P(enable), "on|off", "PLCA on or off",
	  ETHTOOL_A_PLCA_ENABLED },
	{ "node-id", KFSIM_OPT_UINT, P(node_id), "N",
	  "0 coordinator, 1..254 follower, 255 unconfigured (the kernel takes 0..255)",
	  ETHTOOL_A_PLCA_NODE_ID, 0, 0xffffffff },
	{ "node-cnt", KFSIM_OPT_UINT, P(node_cnt), "N",
	  "nodes on the segment, used by the coordinator (1..255)", ETHTOOL_A_PLCA_NODE_CNT, 0,
	  0xffffffff },
	{ "to-tmr", KFSIM_OPT_UINT, P(to_tmr), "N",
	  "transmit opportunity timer in bit times (0..255, usually 32)", ETHTOOL_A_PLCA_TO_TMR, 0,
	  0xffffffff },
	{ "burst-cnt", KFSIM_OPT_UINT, P(burst_cnt), "N",
	  "extra frames a node may send per opportunity (0..255; 0: no bursts)",
	  ETHTOOL_A_PLCA_BURST_CNT, 0, 0xffffffff },
	{ "burst-tmr", KFSIM_OPT_UINT, P(burst_tmr), "N",
	  "bit times to wait for the next frame of a burst (0..255, usually 128)",
	  ETHTOOL_A_PLCA_BURST_TMR, 0, 0xffffffff },
};

static const struct kfsim_cli_params plca_set_table = {
	.params = plca_set_params,
	.nr_params = ARRAY_SIZE(plca_set_params),
	.numbers = KFSIM_CLI_NUMBERS_STRTOUL, /* ethtool's parse_u32() */
};

/*
 * ethtool's args[] rows for PLCA (ethtool.c, ethtool 6.3+): the sub-command word, the netlink
 * message, the help line as "ethtool -h" prints it, and its keyword table (NULL: it takes
 * none, and a word after the device is "unexpected").
 */
static const struct ethtool_action {
	const char *name;
	u8 cmd;
	const char *help;
	const struct kfsim_cli_params *params;
	bool dump_ok;		/* DEVNAME "*" dumps (netlink_cmd_check()'s allow_wildcard) */
	int fail_status;	/* exit status when the kernel refuses (nlctx->exit_code) */
} ethtool_actions[] = {
	{ "--get-plca-cfg", ETHTOOL_MSG_PLCA_GET_CFG, "Get PLCA configuration", NULL, true, 1 },
	{ "--set-plca-cfg", ETHTOOL_MSG_PLCA_SET_CFG, "Set PLCA configuration", &plca_set_table,
	  false, ETHTOOL_EXIT_NETLINK },
	{ "--get-plca-status", ETHTOOL_MSG_PLCA_GET_STATUS, "Get PLCA status information", NULL,
	  true, 1 },
};

/* kfsim's own options come before the action, as ethtool's own flags come before its command */
struct ethtool_opts {
	bool json;
	bool kernel;
	bool no_admin;
	bool show_stats;	/* ethtool's -I: taken, and unused by the PLCA requests, as there */
	const char *config;
	const char *server;	/* a `kfsim kernel --listen` socket */
	unsigned int action_nr;	/* 1 + the index in ethtool_actions[], 0: none given */
	const struct ethtool_action *action;
	const char *devname;
	char **params;
	int nr_params;
};

struct print_ctx {
	bool json;
	bool dump;
	struct kfsim_json *out;
};

#define O(field) offsetof(struct ethtool_opts, field)

static const struct kfsim_opt ethtool_opts_table[] = {
	{ "json", KFSIM_OPT_FLAG, O(json), NULL, "print one JSON document instead of ethtool's text" },
	{ "config", KFSIM_OPT_INPUT, O(config), "FILE",
	  "the devices instead of the built-in segment; lines like\n"
	  "\"dev eth0 phy lan8670 enable on node-id 0 node-cnt 8\"" },
	{ "kernel", KFSIM_OPT_FLAG, O(kernel), NULL, "send the requests to the running kernel" },
	{ "server", KFSIM_OPT_STRING, O(server), "PATH",
	  "send them to the kfsim kernel serving PATH ('kfsim kernel\n"
	  "--listen PATH'), whose devices and settings persist" },
	{ "no-admin", KFSIM_OPT_FLAG, O(no_admin), NULL,
	  "send as a process without CAP_NET_ADMIN (in-process kernel)" },
	/*
	 * ethtool's own flag: its main() takes it before any command, and the PLCA handlers
	 * build their requests with header flags 0, so it changes nothing for them.
	 */
	{ "include-statistics", KFSIM_OPT_FLAG, O(show_stats), NULL,
	  "ethtool's flag, taken as ethtool takes it: the PLCA requests\n"
	  "ask no statistics (ethtool sends them without ETHTOOL_FLAG_STATS)",
	  .short_name = 'I' },
	/* ethtool_actions[] as option words: the first one ends kfsim's options */
	{ "get-plca-cfg", KFSIM_OPT_COMMAND, O(action_nr), .min = 1 },
	{ "set-plca-cfg", KFSIM_OPT_COMMAND, O(action_nr), .min = 2 },
	{ "get-plca-status", KFSIM_OPT_COMMAND, O(action_nr), .min = 3 },
};

static void ethtool_about(FILE *out);
static int ethtool_run(void *opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_spec ethtool_spec = {
	.name = CMD,
	.usage = "kfsim ethtool [--json] [--config FILE | --kernel | --server PATH] [--no-admin]\n"
		 "                     [-I] SUBCOMMAND DEV [PARAMS]",
	/* the about text: the actions, from ethtool_actions[] (ethtool_about()) */
	.more_about = ethtool_about,
	.opts = ethtool_opts_table,
	.nr_opts = ARRAY_SIZE(ethtool_opts_table),
	.notes = "Built-in segment: lo (no PHY), eth0 (LAN8670 Rev.B1, coordinator), eth1 (NCN26000,\n"
		 "follower 1), eth2 (generic OPEN Alliance TC14 PHY at reset), eth3 (PHY without\n"
		 "PLCA).  Without --server, state lives for one invocation.\n"
		 "Exit status: 0 ok; 1 bad parameter or failed get; 76 failed set (as ethtool);\n"
		 "2 bad kfsim option.\n",
	.max_positional = INT_MAX,	/* DEV and its keywords, after the action */
	.opts_size = sizeof(struct ethtool_opts),
	.run = ethtool_run,
};

/* The help's middle part: ethtool -h's lines for each action, then what each keyword means. */
static void ethtool_about(FILE *out)
{
	fprintf(out, "The PLCA (10BASE-T1S, IEEE 802.3cg Clause 148) commands of ethtool, sent as "
		     "netlink\nmessages to kfsim's in-process kernel (or, with --kernel, to the "
		     "running kernel).\n\nSubcommands (as ethtool -h prints them):\n");
	for (size_t i = 0; i < ARRAY_SIZE(ethtool_actions); i++) {
		fprintf(out, "        ethtool [ FLAGS ] %s DEVNAME\t%s\n", ethtool_actions[i].name,
			ethtool_actions[i].help);
		if (ethtool_actions[i].params)
			kfsim_cli_params_help(ethtool_actions[i].params, "\t\t", false, out);
	}
	fprintf(out, "DEVNAME \"*\" asks every device (a netlink dump; not for --set-plca-cfg).\n");
	for (size_t i = 0; i < ARRAY_SIZE(ethtool_actions); i++) {
		if (!ethtool_actions[i].params)
			continue;
		fprintf(out, "\nParameters of %s (integers decimal or 0x hex, as ethtool reads "
			     "them):\n", ethtool_actions[i].name);
		/* kfsim_cli_help() ends the paragraph with its own newline */
		kfsim_cli_params_help(ethtool_actions[i].params, "  ", true, out);
	}
}

/* ethtool's exit_bad_args(). */
static int bad_args(void)
{
	fprintf(stderr, "ethtool: bad command line argument(s)\n"
			"For more information run ethtool -h\n");
	return 1;
}

_Static_assert(ARRAY_SIZE(ethtool_actions) == 3, "one KFSIM_OPT_COMMAND row per action");

/*
 * What the table cannot say: which kfsim options go together, and the action and device
 * ethtool needs.  Return: 0 to go on; -1 for ethtool's "bad command line argument(s)"; else
 * the exit status to return now.
 */
static int check_cmdline(struct ethtool_opts *opts, const struct kfsim_cli_args *args)
{
	if (opts->server && (opts->kernel || opts->config || opts->no_admin))
		return kfsim_cli_usage(CMD, "--server excludes --kernel, --config and --no-admin: the server has its own devices and takes your credentials");
	if (opts->kernel && opts->config)
		return kfsim_cli_usage(CMD, "--config and --kernel exclude each other: the running kernel has its own devices");
	if (opts->kernel && opts->no_admin)
		return kfsim_cli_usage(CMD, "--no-admin applies to the in-process kernel only");
	/* a word before the action is none of kfsim's options: the action ends them */
	if (!opts->action_nr && args->nr_positional)
		return kfsim_cli_usage(CMD, "unexpected argument '%s'", args->positional[0]);
	if (!opts->action_nr) {
		char list[160];
		size_t len = 0;

		for (size_t a = 0; a < ARRAY_SIZE(ethtool_actions); a++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						!a ? "" : a + 1 < ARRAY_SIZE(ethtool_actions) ?
							  ", " : " or ", ethtool_actions[a].name);
		return kfsim_cli_usage(CMD, "missing subcommand: expected %s (see 'kfsim ethtool "
				       "--help')", list);
	}
	opts->action = &ethtool_actions[opts->action_nr - 1];
	if (args->nr_positional < 1)
		return -1;	/* ethtool: no device name */
	opts->devname = args->positional[0];
	opts->params = args->positional + 1;
	opts->nr_params = args->nr_positional - 1;
	return 0;
}

/* nl_parser() over the action's keyword table: attributes in command-line order. */
static int parse_set_params(const struct ethtool_opts *opts, struct kfsim_plca_attr *attrs,
			    int *nr_attrs)
{
	const struct kfsim_cli_params *table = opts->action->params;
	struct kfsim_cli_param_result res;
	struct plca_set_values values;
	char why[256];

	*nr_attrs = 0;
	if (!opts->nr_params) {
		fprintf(stderr, "ethtool (%s): parameters missing\n", opts->action->name);
		return -EINVAL;
	}
	if (kfsim_cli_parse_params(table, opts->params, opts->nr_params, &values, &res)) {
		fprintf(stderr, "ethtool (%s): %s\n", opts->action->name,
			kfsim_cli_param_error_text(&res, why, sizeof(why)));
		return -EINVAL;
	}
	for (unsigned int k = 0; k < res.nr_given; k++) {
		const struct kfsim_cli_param *p = &table->params[res.order[k]];
		const void *value = (const char *)&values + p->offset;

		attrs[*nr_attrs].type = (u16)p->id;
		attrs[*nr_attrs].value = p->kind == KFSIM_OPT_ONOFF ? *(const bool *)value :
								      *(const u32 *)value;
		(*nr_attrs)++;
	}
	return 0;
}

static bool has(const struct kfsim_plca_reply *reply, int attr)
{
	return reply->present & (1u << attr);
}

static void json_attr(struct kfsim_json *json, const struct kfsim_plca_reply *r, int attr,
		      const char *key)
{
	kfsim_json_key(json, key);
	if (!has(r, attr))
		kfsim_json_null(json);
	else if (attr == ETHTOOL_A_PLCA_ENABLED || attr == ETHTOOL_A_PLCA_STATUS)
		kfsim_json_bool(json, r->value[attr]);
	else
		kfsim_json_uint(json, r->value[attr]);
}

static void json_reply(struct kfsim_json *json, const struct kfsim_plca_reply *r)
{
	kfsim_json_object_begin(json);
	kfsim_json_kv_string(json, "ifname", r->devname);
	kfsim_json_kv_int(json, "ifindex", r->ifindex);
	if (r->cmd == ETHTOOL_MSG_PLCA_GET_STATUS_REPLY) {
		json_attr(json, r, ETHTOOL_A_PLCA_STATUS, "status");
	} else {
		json_attr(json, r, ETHTOOL_A_PLCA_VERSION, "version");
		json_attr(json, r, ETHTOOL_A_PLCA_ENABLED, "enabled");
		json_attr(json, r, ETHTOOL_A_PLCA_NODE_ID, "node_id");
		json_attr(json, r, ETHTOOL_A_PLCA_NODE_CNT, "node_cnt");
		json_attr(json, r, ETHTOOL_A_PLCA_TO_TMR, "to_tmr");
		json_attr(json, r, ETHTOOL_A_PLCA_BURST_CNT, "burst_cnt");
		json_attr(json, r, ETHTOOL_A_PLCA_BURST_TMR, "burst_tmr");
	}
	kfsim_json_object_end(json);
}

static int print_reply(const struct kfsim_plca_reply *reply, void *data)
{
	struct print_ctx *ctx = data;

	if (ctx->json) {
		json_reply(ctx->out, reply);
		return 0;
	}
	kfsim_ethtool_plca_print(stdout, reply, ctx->dump);
	return 0;
}

static struct kfsim_ethtool_chan *open_chan(const struct ethtool_opts *opts,
					    struct kfsim_plca_net **netp, int *status)
{
	struct kfsim_ethtool_chan *chan;
	char err[1024];

	*netp = NULL;
	if (opts->server) {
		chan = kfsim_ethtool_chan_server(opts->server);
		if (IS_ERR(chan))
			*status = kfsim_cli_fail(CMD, (int)PTR_ERR(chan),
						 "cannot reach a kfsim kernel at %s", opts->server);
		return chan;
	}
	if (opts->kernel) {
		chan = kfsim_ethtool_chan_kernel();
		if (IS_ERR(chan))
			*status = kfsim_cli_fail(CMD, (int)PTR_ERR(chan),
						 "cannot reach the running kernel's ethtool netlink family");
		return chan;
	}
	if (opts->config) {
		*netp = kfsim_plca_net_load(opts->config, err, sizeof(err));
		if (IS_ERR(*netp)) {
			*status = kfsim_cli_fail(CMD, (int)PTR_ERR(*netp), "%s: %s", opts->config, err);
			*netp = NULL;
			return ERR_PTR(-EINVAL);
		}
	} else {
		*netp = kfsim_plca_net_default();
		if (!*netp) {
			*status = kfsim_cli_fail(CMD, -ENOMEM, "cannot build the default segment");
			return ERR_PTR(-ENOMEM);
		}
	}
	chan = kfsim_ethtool_chan_inproc(*netp, !opts->no_admin);
	if (IS_ERR(chan))
		*status = kfsim_cli_fail(CMD, (int)PTR_ERR(chan), "cannot open the in-process netlink socket");
	return chan;
}

static int run_request(const struct ethtool_opts *opts, const struct kfsim_plca_attr *attrs,
		       int nr_attrs)
{
	bool dump = opts->action->dump_ok && !strcmp(opts->devname, WILDCARD_DEVNAME);
	struct kfsim_json json;
	struct print_ctx ctx = { .json = opts->json, .dump = dump, .out = &json };
	struct kfsim_ethtool_chan *chan;
	struct kfsim_plca_net *net;
	struct kfsim_nl_error ack;
	int status = 0, len, ret;
	u8 req[512];

	chan = open_chan(opts, &net, &status);
	if (IS_ERR(chan)) {
		kfsim_plca_net_destroy(net);
		return status;
	}
	len = kfsim_ethtool_plca_request(req, sizeof(req), kfsim_ethtool_chan_family(chan),
					 opts->action->cmd, NLM_F_REQUEST | NLM_F_ACK |
					 (dump ? NLM_F_DUMP : 0), 1, dump ? NULL : opts->devname,
					 0, attrs, nr_attrs);
	if (len < 0) {
		status = kfsim_cli_fail(CMD, len, "request does not fit in %zu bytes", sizeof(req));
		goto out;
	}
	if (opts->json) {
		kfsim_json_init(&json, stdout, true);
		kfsim_json_object_begin(&json);
		kfsim_json_kv_string(&json, "command", opts->action->name + 2);
		kfsim_json_kv_string(&json, "device", opts->devname);
		kfsim_json_kv_string(&json, "kernel", opts->kernel ? "running" : "kfsim");
		kfsim_json_key(&json, "replies");
		kfsim_json_array_begin(&json);
	}
	ret = kfsim_ethtool_chan_transact(chan, req, (size_t)len, print_reply, &ctx, &ack);
	if (ret < 0) {
		ack = (struct kfsim_nl_error){ .error = ret };
		snprintf(ack.msg, sizeof(ack.msg), "%s", "");
	}
	if (opts->json) {
		kfsim_json_array_end(&json);
		kfsim_json_kv_int(&json, "error", ack.error);
		kfsim_json_kv_string(&json, "errno", ack.error ? kfsim_errname(ack.error) : "");
		kfsim_json_kv_string(&json, "extack", ack.msg);
		if (ack.has_offs)
			kfsim_json_kv_uint(&json, "offset", ack.offs);
		kfsim_json_object_end(&json);
		kfsim_json_finish(&json);
	}
	/*
	 * A dump that ends in an error ends with NLMSG_DONE carrying it; libmnl's mnl_cb_stop()
	 * stops there without looking, so ethtool has printed the devices before it and exits 0.
	 * Errors a dump gets at its start come as NLMSG_ERROR and are reported.
	 */
	if (ack.error && !(dump && ack.in_done)) {
		kfsim_ethtool_print_ack_error(stderr, &ack);
		status = opts->action->fail_status;
	}
out:
	kfsim_ethtool_chan_close(chan);
	kfsim_plca_net_destroy(net);
	return status;
}

static int ethtool_run(void *ethtool_opts, const struct kfsim_cli_args *args)
{
	struct kfsim_plca_attr attrs[ARRAY_SIZE(plca_set_params)];
	struct ethtool_opts *opts = ethtool_opts;
	int nr_attrs = 0, ret;

	ret = check_cmdline(opts, args);
	if (ret < 0)
		return bad_args();
	if (ret)
		return ret;
	/* netlink_run_handler(): before anything is sent or parsed. */
	if (strlen(opts->devname) >= ALTIFNAMSIZ) {
		fprintf(stderr, "device name '%s' longer than %u characters\n", opts->devname,
			ALTIFNAMSIZ - 1);
		return 1;
	}
	/* netlink_cmd_check(ctx, cmd, allow_wildcard): no wildcard, params or not. */
	if (!opts->action->dump_ok && !strcmp(opts->devname, WILDCARD_DEVNAME)) {
		fprintf(stderr, "subcommand does not support wildcard dump\n");
		return 1;
	}
	if (opts->action->params) {
		/* At most one attribute per known parameter: duplicates are refused first. */
		if (parse_set_params(opts, attrs, &nr_attrs))
			return 1;
	} else if (opts->nr_params) {
		fprintf(stderr, "ethtool: unexpected parameter '%s'\n", opts->params[0]);
		return 1;
	}
	return run_request(opts, attrs, nr_attrs);
}

const struct kfsim_cli_command kfsim_cmd_ethtool = {
	.name = "ethtool",
	.summary = "ethtool's PLCA commands (--get-plca-cfg/--set-plca-cfg/--get-plca-status)",
	.spec = &ethtool_spec,
	.oldest_kver = KERNEL_VERSION(6, 3, 0),
	.kver_why = "ETHTOOL_MSG_PLCA_* arrived in 6.3",
};
