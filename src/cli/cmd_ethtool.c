// SPDX-License-Identifier: MIT
/*
 * kfsim ethtool: the PLCA commands of ethtool 6.3+, byte for byte.
 *
 *   kfsim ethtool [--json] [--config FILE | --kernel] [--no-admin] ACTION DEV [PARAMS]
 *
 * ACTION is --get-plca-cfg, --set-plca-cfg or --get-plca-status; DEV "*" dumps every device.
 * Each request is a real netlink message: to kfsim's in-process kernel holding the built-in
 * segment (or the --config file's), or with --kernel to the running kernel.  What reaches
 * stdout and stderr for ethtool's own arguments and for kernel errors is what ethtool prints,
 * with ethtool's exit codes (1 bad parameter or failed GET, 76 failed SET); kfsim's own options
 * follow the kfsim rules (exit 2, one line naming the option).
 */
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

struct ethtool_opts {
	bool json;
	bool kernel;
	bool no_admin;
	const char *config;
	const char *server;	/* a `kfsim kernel --listen` socket */
	const char *action;	/* "--get-plca-cfg" ... */
	u8 cmd;
	const char *devname;
	char **params;
	int nr_params;
};

struct print_ctx {
	bool json;
	bool dump;
	struct kfsim_json *out;
};

static void print_help(void)
{
	printf("Usage: kfsim ethtool [--json] [--config FILE | --kernel | --server PATH] [--no-admin]\n"
	       "                     ACTION DEV [PARAMS]\n\n"
	       "The PLCA (10BASE-T1S, IEEE 802.3cg Clause 148) commands of ethtool, sent as netlink\n"
	       "messages to kfsim's in-process kernel (or, with --kernel, to the running kernel).\n\n"
	       "Actions (as ethtool -h prints them):\n"
	       "        ethtool [ FLAGS ] --get-plca-cfg DEVNAME\tGet PLCA configuration\n"
	       "        ethtool [ FLAGS ] --set-plca-cfg DEVNAME\tSet PLCA configuration\n"
	       "\t\t[ enable on|off ]\n"
	       "\t\t[ node-id N ]\n"
	       "\t\t[ node-cnt N ]\n"
	       "\t\t[ to-tmr N ]\n"
	       "\t\t[ burst-cnt N ]\n"
	       "\t\t[ burst-tmr N ]\n"
	       "        ethtool [ FLAGS ] --get-plca-status DEVNAME\tGet PLCA status information\n"
	       "DEVNAME \"*\" asks every device (a netlink dump; not for --set-plca-cfg).\n\n"
	       "Options:\n"
	       "  --json          print one JSON document instead of ethtool's text\n"
	       "  --config FILE   the devices instead of the built-in segment; lines like\n"
	       "                  \"dev eth0 phy lan8670 enable on node-id 0 node-cnt 8\"\n"
	       "  --kernel        send the requests to the running kernel\n"
	       "  --server PATH   send them to the kfsim kernel serving PATH ('kfsim kernel\n"
	       "                  --listen PATH'), whose devices and settings persist\n"
	       "  --no-admin      send as a process without CAP_NET_ADMIN (in-process kernel)\n\n"
	       "Built-in segment: lo (no PHY), eth0 (LAN8670 Rev.B1, coordinator), eth1 (NCN26000,\n"
	       "follower 1), eth2 (generic OPEN Alliance TC14 PHY at reset), eth3 (PHY without PLCA).\n"
	       "Without --server, state lives for one invocation.  Exit status: 0 ok; 1 bad parameter or failed get;\n"
	       "76 failed set (as ethtool); 2 bad kfsim option.\n");
}

/* ethtool's exit_bad_args(). */
static int bad_args(void)
{
	fprintf(stderr, "ethtool: bad command line argument(s)\n"
			"For more information run ethtool -h\n");
	return 1;
}

static int parse_cmdline(int argc, char **argv, struct ethtool_opts *opts)
{
	static const struct { const char *name; u8 cmd; } actions[] = {
		{ "--get-plca-cfg", ETHTOOL_MSG_PLCA_GET_CFG },
		{ "--set-plca-cfg", ETHTOOL_MSG_PLCA_SET_CFG },
		{ "--get-plca-status", ETHTOOL_MSG_PLCA_GET_STATUS },
	};
	int i;

	for (i = 1; i < argc && !opts->action; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--json")) {
			opts->json = true;
		} else if (!strcmp(arg, "--kernel")) {
			opts->kernel = true;
		} else if (!strcmp(arg, "--no-admin")) {
			opts->no_admin = true;
		} else if (!strcmp(arg, "--server") || !strncmp(arg, "--server=", 9)) {
			if (arg[8] == '=')
				opts->server = arg + 9;
			else if (i + 1 < argc)
				opts->server = argv[++i];
			else
				return kfsim_cli_usage(CMD, "option '--server' needs a value");
			if (!*opts->server)
				return kfsim_cli_usage(CMD, "invalid value '' for --server: expected a socket path");
		} else if (!strcmp(arg, "--config") || !strncmp(arg, "--config=", 9)) {
			if (arg[8] == '=')
				opts->config = arg + 9;
			else if (i + 1 < argc)
				opts->config = argv[++i];
			else
				return kfsim_cli_usage(CMD, "option '--config' needs a value");
			if (!*opts->config)
				return kfsim_cli_usage(CMD, "invalid value '' for --config: expected a file name");
		} else {
			for (size_t a = 0; a < ARRAY_SIZE(actions); a++) {
				if (!strcmp(arg, actions[a].name)) {
					opts->action = actions[a].name;
					opts->cmd = actions[a].cmd;
				}
			}
			if (!opts->action)
				return kfsim_cli_usage(CMD, "unknown option '%s' (see 'kfsim ethtool --help')",
						       arg);
		}
	}
	if (opts->server && (opts->kernel || opts->config || opts->no_admin))
		return kfsim_cli_usage(CMD, "--server excludes --kernel, --config and --no-admin: the server has its own devices and takes your credentials");
	if (opts->kernel && opts->config)
		return kfsim_cli_usage(CMD, "--config and --kernel exclude each other: the running kernel has its own devices");
	if (opts->kernel && opts->no_admin)
		return kfsim_cli_usage(CMD, "--no-admin applies to the in-process kernel only");
	if (!opts->action)
		return kfsim_cli_usage(CMD, "expected an action: --get-plca-cfg, --set-plca-cfg or --get-plca-status (see 'kfsim ethtool --help')");
	if (i >= argc)
		return -1;	/* ethtool: no device name */
	opts->devname = argv[i++];
	opts->params = argv + i;
	opts->nr_params = argc - i;
	return 0;
}

/*
 * ethtool's parse_u32(): hexadecimal after "0x"/"0X", else decimal, through strtoul(), so what
 * strtoul() takes is taken (" 5", "+5", "-0"; "-1" wraps past 0xffffffff and is refused); the
 * whole word must be used and not be empty.
 */
static bool parse_u32(const char *text, u32 *out)
{
	unsigned long long value;
	int base = 10;
	char *end;

	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		text += 2;
		base = 16;
	}
	if (!*text)
		return false;
	value = strtoul(text, &end, base);
	if (*end || value > 0xffffffffULL)
		return false;
	*out = (u32)value;
	return true;
}

/* nl_parser() with set_plca_params[]: attributes in command-line order. */
static int parse_set_params(const struct ethtool_opts *opts, struct kfsim_plca_attr *attrs,
			    int *nr_attrs)
{
	static const struct { const char *name; u16 type; } params[] = {
		{ "enable", ETHTOOL_A_PLCA_ENABLED },
		{ "node-id", ETHTOOL_A_PLCA_NODE_ID },
		{ "node-cnt", ETHTOOL_A_PLCA_NODE_CNT },
		{ "to-tmr", ETHTOOL_A_PLCA_TO_TMR },
		{ "burst-cnt", ETHTOOL_A_PLCA_BURST_CNT },
		{ "burst-tmr", ETHTOOL_A_PLCA_BURST_TMR },
	};
	bool seen[ARRAY_SIZE(params)] = {};
	int i = 0;

	*nr_attrs = 0;
	if (!opts->nr_params) {
		fprintf(stderr, "ethtool (--set-plca-cfg): parameters missing\n");
		return -EINVAL;
	}
	while (i < opts->nr_params) {
		const char *param = opts->params[i++], *value;
		size_t p;

		for (p = 0; p < ARRAY_SIZE(params) && strcmp(param, params[p].name); p++)
			;
		if (p == ARRAY_SIZE(params)) {
			fprintf(stderr, "ethtool (--set-plca-cfg): unknown parameter '%s'\n", param);
			return -EINVAL;
		}
		if (seen[p]) {
			fprintf(stderr, "ethtool (--set-plca-cfg): duplicate parameter '%s'\n", param);
			return -EINVAL;
		}
		if (i >= opts->nr_params) {
			fprintf(stderr, "ethtool (--set-plca-cfg): no value for parameter '%s'\n", param);
			return -EINVAL;
		}
		seen[p] = true;
		value = opts->params[i++];
		attrs[*nr_attrs].type = params[p].type;
		if (params[p].type == ETHTOOL_A_PLCA_ENABLED) {
			if (strcmp(value, "on") && strcmp(value, "off")) {
				fprintf(stderr, "ethtool (--set-plca-cfg): invalid value '%s' for parameter '%s'\n",
					value, param);
				return -EINVAL;
			}
			attrs[*nr_attrs].value = !strcmp(value, "on");
		} else if (!parse_u32(value, &attrs[*nr_attrs].value)) {
			fprintf(stderr, "ethtool (--set-plca-cfg): invalid value '%s' for parameter '%s'\n",
				value, param);
			return -EINVAL;
		}
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
	char err[256];

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
	bool dump = opts->cmd != ETHTOOL_MSG_PLCA_SET_CFG && !strcmp(opts->devname, WILDCARD_DEVNAME);
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
					 opts->cmd, NLM_F_REQUEST | NLM_F_ACK |
					 (dump ? NLM_F_DUMP : 0), 1, dump ? NULL : opts->devname,
					 0, attrs, nr_attrs);
	if (len < 0) {
		status = kfsim_cli_fail(CMD, len, "request does not fit in %zu bytes", sizeof(req));
		goto out;
	}
	if (opts->json) {
		kfsim_json_init(&json, stdout, true);
		kfsim_json_object_begin(&json);
		kfsim_json_kv_string(&json, "command", opts->action + 2);
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
		status = opts->cmd == ETHTOOL_MSG_PLCA_SET_CFG ? ETHTOOL_EXIT_NETLINK : 1;
	}
out:
	kfsim_ethtool_chan_close(chan);
	kfsim_plca_net_destroy(net);
	return status;
}

static int ethtool_main(int argc, char **argv)
{
	struct kfsim_plca_attr attrs[6];
	struct ethtool_opts opts = {};
	int nr_attrs = 0, ret;

	if (kfsim_cli_wants_help(argc, argv)) {
		print_help();
		return 0;
	}
	ret = parse_cmdline(argc, argv, &opts);
	if (ret < 0)
		return bad_args();
	if (ret)
		return ret;
	/* netlink_run_handler(): before anything is sent or parsed. */
	if (strlen(opts.devname) >= ALTIFNAMSIZ) {
		fprintf(stderr, "device name '%s' longer than %u characters\n", opts.devname,
			ALTIFNAMSIZ - 1);
		return 1;
	}
	/* netlink_cmd_check(ctx, ETHTOOL_MSG_PLCA_SET_CFG, false): no wildcard, params or not. */
	if (opts.cmd == ETHTOOL_MSG_PLCA_SET_CFG && !strcmp(opts.devname, WILDCARD_DEVNAME)) {
		fprintf(stderr, "subcommand does not support wildcard dump\n");
		return 1;
	}
	if (opts.cmd == ETHTOOL_MSG_PLCA_SET_CFG) {
		/* At most one attribute per known parameter: duplicates are refused first. */
		if (parse_set_params(&opts, attrs, &nr_attrs))
			return 1;
	} else if (opts.nr_params) {
		fprintf(stderr, "ethtool: unexpected parameter '%s'\n", opts.params[0]);
		return 1;
	}
	return run_request(&opts, attrs, nr_attrs);
}

const struct kfsim_cli_command kfsim_cmd_ethtool = {
	.name = "ethtool",
	.summary = "ethtool's PLCA commands (--get-plca-cfg/--set-plca-cfg/--get-plca-status)",
	.run = ethtool_main,
	.oldest_kver = KERNEL_VERSION(6, 3, 0),
	.kver_why = "ETHTOOL_MSG_PLCA_* arrived in 6.3",
};
