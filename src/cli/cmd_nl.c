// SPDX-License-Identifier: MIT
/*
 * kfsim nl policy --family NAME [--op CMD] [--kernel | --server PATH] [--json]
 * kfsim nl decode --family NAME --op CMD [--dump] [--json] HEX...
 *
 * "policy" asks nlctrl's CTRL_CMD_GETPOLICY, of kfsim's in-process kernel or (--kernel) of the
 * running kernel, and prints the answer in one format whichever kernel gave it, so that the two
 * can be compared with diff.  "decode" validates a message against the in-process family's
 * policy with the kernel's rules and prints it attribute by attribute, or prints the extack
 * error with a caret under the bad attribute.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/genl_builtin.h>
#include <kfsim/json.h>
#include <kfsim/netlink.h>
#include <kfsim/nl_client.h>
#include <kfsim/slab.h>
#include "cli.h"

#define NL_MAX_MSG 4096

struct nl_opts {
	const char *family;
	const char *server;
	int op; /* -1: not given (policy: every op) */
	bool dump;
	bool kernel;
	bool json;
};

enum { VERB_POLICY, VERB_DECODE };

static int parse_family(void *opts, const char *value, char *why, size_t why_size)
{
	if (!*value || strlen(value) >= GENL_NAMSIZ) {
		snprintf(why, why_size, "expected a family name of 1 to %d characters",
			 GENL_NAMSIZ - 1);
		return -EINVAL;
	}
	((struct nl_opts *)opts)->family = value;
	return 0;
}

/* The in-process families: the built-in table's rows (<kfsim/genl_builtin.h>). */
static void nl_more_help(FILE *out)
{
	fprintf(out, "\nIn-process families: nlctrl");
	for (size_t i = 0; i < kfsim_genl_nr_builtins; i++) {
		fprintf(out, ", %s", kfsim_genl_builtins[i].name);
		if (kfsim_genl_builtins[i].note)
			fprintf(out, " (%s)", kfsim_genl_builtins[i].note);
	}
	fprintf(out, "\n");
}

#define O(field) offsetof(struct nl_opts, field)

static int nl_policy(void *opts, const struct kfsim_cli_args *args);
static int nl_decode(void *opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_verb nl_verbs[] = {
	[VERB_POLICY] = { "policy", "a family's attribute policies (CTRL_CMD_GETPOLICY)",
			  .run = nl_policy },
	[VERB_DECODE] = { "decode", "validate a message as the kernel would, and print it",
			  .operands = "HEX", .min_positional = 1, .max_positional = INT_MAX,
			  .run = nl_decode },
};

static const struct kfsim_opt nl_opts_table[] = {
	{ "family", KFSIM_OPT_CALL, 0, "NAME",
	  "a family of kfsim's in-process kernel (below), or any family\n"
	  "of the running kernel",
	  .call = parse_family, .required = 1u << VERB_POLICY | 1u << VERB_DECODE },
	{ "op", KFSIM_OPT_INT, O(op), "CMD", "the command number, 0..255 (policy: all when not given)",
	  .max = 255, .required = 1u << VERB_DECODE },
	{ "dump", KFSIM_OPT_FLAG, O(dump), NULL,
	  "decode against the op's dump policy instead of its do policy",
	  .verbs = 1u << VERB_DECODE },
	{ "kernel", KFSIM_OPT_FLAG, O(kernel), NULL, "ask the running kernel instead of kfsim's",
	  .verbs = 1u << VERB_POLICY, .excludes = (const char *const[]){ "server", NULL } },
	{ "server", KFSIM_OPT_STRING, O(server), "PATH",
	  "ask the kfsim kernel at PATH ('kfsim kernel --listen PATH')",
	  .verbs = 1u << VERB_POLICY },
	{ "json", KFSIM_OPT_FLAG, O(json), NULL, "one JSON document on stdout" },
};

static const struct kfsim_cli_spec nl_spec = {
	.name = "nl",
	.usage = "kfsim nl policy --family NAME [--op CMD] [--kernel | --server PATH] [--json]\n"
		 "       kfsim nl decode --family NAME --op CMD [--dump] [--json] HEX...",
	.about = "Generic netlink the kernel's way.  'policy' prints the attribute policies as\n"
		 "nlctrl's CTRL_CMD_GETPOLICY reports them, in the same format for kfsim's\n"
		 "in-process kernel and, with --kernel, the running kernel, so the two diff cleanly.\n"
		 "'decode' validates a message (strictly, as the kernel would for that op) and prints\n"
		 "its attributes, or the extack error with a caret at the bad attribute.  HEX is\n"
		 "either a whole message (nlmsghdr first) or only the attributes after the genetlink\n"
		 "header; blanks, ':', ',' and 0x prefixes are ignored.",
	.verbs = nl_verbs,
	.nr_verbs = ARRAY_SIZE(nl_verbs),
	.opts = nl_opts_table,
	.nr_opts = ARRAY_SIZE(nl_opts_table),
	.options_anywhere = true,
	.more_help = nl_more_help,
	.notes = "Exit status: 0 ok, 1 runtime failure, 2 bad command line.\n",
	.opts_size = sizeof(struct nl_opts),
};

/* The in-process kernel: a namespace with every built-in family (<kfsim/genl_builtin.h>). */
static struct kfsim_net *sim_net(void)
{
	return kfsim_net_create_builtin(NULL, 0);
}

static void policy_text(const char *family, const struct kfsim_nl_policy_dump *d)
{
	char line[160];

	printf("family %s\n", family);
	for (u32 i = 0; i < d->nr_ops; i++) {
		printf("op %u:", d->ops[i].cmd);
		if (d->ops[i].do_policy >= 0)
			printf(" do policy %d", d->ops[i].do_policy);
		if (d->ops[i].dump_policy >= 0)
			printf(" dump policy %d", d->ops[i].dump_policy);
		printf("\n");
	}
	for (u32 p = 0; p < d->nr_policies; p++) {
		printf("policy %u:\n", p);
		for (u32 a = 0; d->policies[p] && a <= d->maxtype[p]; a++)
			if (d->policies[p][a].type)
				printf("  attr %u: %s\n", a,
				       kfsim_nl_policy_attr_format(&d->policies[p][a], line,
								   sizeof(line)));
	}
}

static void policy_json(const char *family, bool kernel, const struct kfsim_nl_policy_dump *d)
{
	struct kfsim_json json;
	char line[160];

	kfsim_json_init(&json, stdout, true);
	kfsim_json_object_begin(&json);
	kfsim_json_kv_string(&json, "family", family);
	kfsim_json_kv_string(&json, "source", kernel ? "kernel" : "kfsim");
	kfsim_json_kv_uint(&json, "family_id", d->family_id);
	kfsim_json_key(&json, "ops");
	kfsim_json_array_begin(&json);
	for (u32 i = 0; i < d->nr_ops; i++) {
		kfsim_json_object_begin(&json);
		kfsim_json_kv_uint(&json, "cmd", d->ops[i].cmd);
		kfsim_json_kv_int(&json, "do_policy", d->ops[i].do_policy);
		kfsim_json_kv_int(&json, "dump_policy", d->ops[i].dump_policy);
		kfsim_json_object_end(&json);
	}
	kfsim_json_array_end(&json);
	kfsim_json_key(&json, "policies");
	kfsim_json_array_begin(&json);
	for (u32 p = 0; p < d->nr_policies; p++) {
		kfsim_json_object_begin(&json);
		kfsim_json_kv_uint(&json, "index", p);
		kfsim_json_key(&json, "attrs");
		kfsim_json_array_begin(&json);
		for (u32 a = 0; d->policies[p] && a <= d->maxtype[p]; a++) {
			const struct kfsim_nl_policy_attr *at = &d->policies[p][a];

			if (!at->type)
				continue;
			kfsim_json_object_begin(&json);
			kfsim_json_kv_uint(&json, "type", a);
			kfsim_json_kv_string(&json, "policy",
					     kfsim_nl_policy_attr_format(at, line, sizeof(line)));
			kfsim_json_kv_uint(&json, "nl_attr_type", at->type);
			if (at->has_min_u || at->has_max_u) {
				kfsim_json_kv_uint(&json, "min", at->min_u);
				kfsim_json_kv_uint(&json, "max", at->max_u);
			}
			if (at->has_min_s || at->has_max_s) {
				kfsim_json_kv_int(&json, "min", at->min_s);
				kfsim_json_kv_int(&json, "max", at->max_s);
			}
			if (at->has_min_len)
				kfsim_json_kv_uint(&json, "min_len", at->min_len);
			if (at->has_max_len)
				kfsim_json_kv_uint(&json, "max_len", at->max_len);
			if (at->has_mask)
				kfsim_json_kv_uint(&json, "mask", at->mask);
			if (at->has_bitfield32_mask)
				kfsim_json_kv_uint(&json, "bitfield32_mask", at->bitfield32_mask);
			if (at->has_policy_idx) {
				kfsim_json_kv_uint(&json, "policy_idx", at->policy_idx);
				kfsim_json_kv_uint(&json, "policy_maxtype", at->policy_maxtype);
			}
			kfsim_json_object_end(&json);
		}
		kfsim_json_array_end(&json);
		kfsim_json_object_end(&json);
	}
	kfsim_json_array_end(&json);
	kfsim_json_object_end(&json);
	kfsim_json_finish(&json);
}

static int do_policy(const char *family, long op, bool kernel, const char *server, bool json)
{
	struct kfsim_net *net = NULL;
	struct kfsim_nl_client *c;
	struct kfsim_nl_policy_dump *dump = malloc(sizeof(*dump));
	struct kfsim_nl_error err;
	char text[200];
	int ret;

	if (!dump)
		return kfsim_cli_fail("nl", -ENOMEM, "no memory");
	if (kernel) {
		c = kfsim_nl_client_open_kernel();
	} else if (server) {
		c = kfsim_nl_client_open_server(server);
	} else {
		net = sim_net();
		c = IS_ERR(net) ? ERR_CAST(net)
				: kfsim_nl_client_open_sim(kfsim_net_nl(net),
							   &KFSIM_NL_CRED_ROOT);
	}
	if (IS_ERR(c)) {
		free(dump);
		if (!IS_ERR_OR_NULL(net))
			kfsim_net_destroy(net);
		return kfsim_cli_fail("nl", (int)PTR_ERR(c), "cannot open a netlink socket%s%s",
				      kernel ? " to the running kernel" : server ? " on " : "",
				      server ? server : "");
	}
	ret = kfsim_nl_get_policy(c, family, op, dump, &err);
	if (ret) {
		kfsim_nl_error_format(&err, text, sizeof(text));
		if (ret == -ENODATA)
			snprintf(text, sizeof(text), "family '%s' has no attribute policies",
				 family);
		else if (ret == -ENOENT && !err.has_offs)
			snprintf(text, sizeof(text), "no family '%s'", family);
		else if (ret == -ENOENT)
			snprintf(text, sizeof(text), "family '%s' has no op %ld", family, op);
		ret = kfsim_cli_fail("nl", ret, "%s", text);
	} else {
		if (json)
			policy_json(family, kernel, dump);
		else
			policy_text(family, dump);
		kfsim_nl_policy_dump_free(dump);
		ret = KFSIM_EXIT_OK;
	}
	free(dump);
	kfsim_nl_client_close(c);
	kfsim_net_destroy(net);
	return ret;
}

/* Hex words to bytes; Return: the length, or -EINVAL naming nothing (the caller reports). */
static int parse_hex(int argc, char **argv, u8 *buf, size_t size)
{
	size_t n = 0;
	int half = -1;

	for (int i = 0; i < argc; i++) {
		bool word_start = true;

		for (const char *s = argv[i]; *s; s++) {
			int v;

			/* separators as hexdump, xxd and C arrays write them: "0x08, 0x00" */
			if (isspace((unsigned char)*s) || *s == ':' || *s == ',') {
				word_start = true;
				continue;
			}
			if (word_start && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
				s++;
				word_start = false;
				continue;
			}
			word_start = false;
			if (!isxdigit((unsigned char)*s))
				return -EINVAL;
			v = isdigit((unsigned char)*s) ? *s - '0'
						       : tolower((unsigned char)*s) - 'a' + 10;
			if (half < 0) {
				half = v;
				continue;
			}
			if (n == size)
				return -E2BIG;
			buf[n++] = half << 4 | v;
			half = -1;
		}
	}
	return half >= 0 ? -EINVAL : (int)n;
}

static int do_decode(const char *family_name, u32 cmd, bool dump, bool json, int argc, char **argv)
{
	struct kfsim_net *net;
	const struct genl_family *family;
	struct netlink_ext_ack extack = {0};
	struct genl_split_ops op;
	struct nlattr **tb = NULL;
	const struct nlmsghdr *nlh;
	struct sk_buff *skb = NULL;
	u8 *raw = malloc(NL_MAX_MSG);
	int len, ret, hdrlen;
	long offs;

	if (!raw)
		return kfsim_cli_fail("nl", -ENOMEM, "no memory");
	len = parse_hex(argc, argv, raw, NL_MAX_MSG);
	if (len < 0) {
		free(raw);
		return kfsim_cli_usage(
			"nl",
			"invalid HEX argument: expected pairs of hex digits (at most %d bytes)",
			NL_MAX_MSG);
	}
	net = sim_net();
	if (IS_ERR(net)) {
		free(raw);
		return kfsim_cli_fail("nl", (int)PTR_ERR(net), "cannot create the in-process kernel");
	}
	family = kfsim_genl_find_family(kfsim_net_nl(net), family_name);
	if (!family) {
		ret = kfsim_cli_fail("nl", -ENOENT, "no family '%s' in kfsim's in-process kernel",
				     family_name);
		goto out;
	}
	hdrlen = GENL_HDRLEN + family->hdrsize;
	if (len >= NLMSG_HDRLEN && ((struct nlmsghdr *)raw)->nlmsg_len == (u32)len) {
		const struct nlmsghdr *whole = (const struct nlmsghdr *)raw;
		const struct genlmsghdr *g = nlmsg_data(whole);
		bool whole_dump = (whole->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;

		/* a whole message: the kernel dispatches on its own command and flags */
		if ((size_t)len >= NLMSG_HDRLEN + GENL_HDRLEN && g->cmd != cmd) {
			ret = kfsim_cli_usage("nl",
					      "invalid value '%u' for --op: the message's genetlink "
					      "command is %u",
					      cmd, g->cmd);
			goto out;
		}
		if (dump && !whole_dump) {
			ret = kfsim_cli_usage("nl", "option '--dump' given but the message's "
					      "nlmsg_flags have no NLM_F_DUMP");
			goto out;
		}
		if (!(whole->nlmsg_flags & NLM_F_REQUEST)) {
			ret = kfsim_cli_fail("nl", -EINVAL, "not a request: the kernel does not "
					     "process a message without NLM_F_REQUEST");
			goto out;
		}
		dump = whole_dump;
		nlh = whole;
	} else {
		/* the attributes alone: put them behind the family's headers, unpadded */
		void *hdr;

		skb = genlmsg_new(family->hdrsize + len, GFP_KERNEL);
		hdr = skb ? genlmsg_put(skb, 0, 0, family, NLM_F_REQUEST | (dump ? NLM_F_DUMP : 0),
					(u8)cmd) : NULL;
		if (!hdr || nla_append(skb, len, raw)) {
			ret = kfsim_cli_fail("nl", -ENOMEM, "no memory for the message");
			goto out;
		}
		genlmsg_end(skb, hdr);
		nlh = nlmsg_hdr(skb);
	}
	/* the op must exist whatever the message holds (a short one cannot name it) */
	if (kfsim_genl_get_cmd(family, cmd, dump, &op)) {
		ret = kfsim_cli_fail("nl", -EOPNOTSUPP, "family '%s' has no %s op %u", family_name,
				     dump ? "dump" : "do", cmd);
		goto out;
	}
	/* the request path itself: header length, genl_header_check, op, attributes */
	ret = kfsim_genl_validate_msg(family, nlh, &op, &tb, &extack);
	offs = kfsim_nl_ext_ack_offset(&extack, nlh, nlh->nlmsg_len);
	if (json) {
		struct kfsim_json j;

		kfsim_json_init(&j, stdout, true);
		kfsim_json_object_begin(&j);
		kfsim_json_kv_string(&j, "family", family_name);
		kfsim_json_kv_uint(&j, "cmd", cmd);
		kfsim_json_kv_uint(&j, "length", nlh->nlmsg_len);
		kfsim_json_kv_bool(&j, "valid", !ret);
		if (ret)
			kfsim_json_kv_string(&j, "errno", kfsim_errname(ret));
		if (extack._msg)
			kfsim_json_kv_string(&j, "message", extack._msg);
		if (offs >= 0)
			kfsim_json_kv_int(&j, "offset", offs);
		if (!ret) {
			kfsim_json_key(&j, "attrs");
			kfsim_nla_print_json(&j, nlmsg_attrdata(nlh, hdrlen),
					     nlmsg_attrlen(nlh, hdrlen), op.maxattr, op.policy, nlh);
		}
		kfsim_json_object_end(&j);
		kfsim_json_finish(&j);
	} else {
		printf("%s op %u%s, %u bytes: %s\n", family_name, cmd, dump ? " (dump)" : "",
		       nlh->nlmsg_len, ret ? "INVALID" : "valid");
		if (ret) {
			printf("error: -%s: %s\n", kfsim_errname(ret),
			       extack._msg ? extack._msg : strerror(-ret));
			kfsim_nl_print_caret(stdout, nlh, nlh->nlmsg_len, offs);
		} else {
			if (extack._msg)
				printf("warning: %s\n", extack._msg);
			kfsim_nla_print(stdout, nlmsg_attrdata(nlh, hdrlen),
					nlmsg_attrlen(nlh, hdrlen), op.maxattr, op.policy, nlh);
		}
	}
	if (ret) {
		/* with --json the verdict above is the one document and says why: no second one */
		if (json)
			kfsim_cli_json_errors(false);
		if (offs >= 0)
			kfsim_cli_fail("nl", ret, "%s (offset %ld)",
				       extack._msg ? extack._msg : strerror(-ret), offs);
		else
			kfsim_cli_fail("nl", ret, "%s", extack._msg ? extack._msg : strerror(-ret));
		if (json)
			kfsim_cli_json_errors(true);
		ret = KFSIM_EXIT_FAILURE;
	}
out:
	kfree(tb);
	kfsim_skb_free(skb);
	free(raw);
	kfsim_net_destroy(net);
	return ret;
}

static int nl_policy(void *opts, const struct kfsim_cli_args *args)
{
	const struct nl_opts *o = opts;

	/* without --op: every op of the family */
	return do_policy(o->family, kfsim_cli_given(&nl_spec, args, "op") ? o->op : -1, o->kernel,
			 o->server, o->json);
}

static int nl_decode(void *opts, const struct kfsim_cli_args *args)
{
	const struct nl_opts *o = opts;

	return do_decode(o->family, (u32)o->op, o->dump, o->json, args->nr_positional,
			 args->positional);
}

const struct kfsim_cli_command kfsim_cmd_nl = {
	.name = "nl",
	.summary = "generic netlink: policies (kfsim or running kernel), strict decode with extack",
	.spec = &nl_spec,
};
