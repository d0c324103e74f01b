// SPDX-License-Identifier: MIT
/*
 * The running kernel as the oracle.  Over a real NETLINK_GENERIC socket (NETLINK_EXT_ACK and
 * NETLINK_CAP_ACK set): nlctrl and ethtool are resolved and their policies dumped and decoded;
 * then the same request bytes go to the running kernel and to kfsim's in-process kernel, and
 * the errno, extack message, offset, missing-attribute and policy TLVs must be identical.
 *
 * Skips (with the reason) when netlink sockets cannot be opened or a family is absent.
 * The ethtool side uses a kfsim family with the 6.18 PLCA SET_CFG policy
 * (net/ethtool/plca.c + the header policy with PHY_INDEX), registered under id-independent
 * bytes: only nlmsg_type differs between the two requests.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <kfsim/random.h>

#include <kfsim/netlink.h>
#include <kfsim/nl_client.h>

#define ETHTOOL_MSG_PLCA_SET_CFG 40

static const struct nla_policy header_policy[] = {
	[1] = {.type = NLA_U32},
	[2] = {.type = NLA_NUL_STRING, .len = 127},
	[3] = NLA_POLICY_MASK(NLA_U32, 0x3),
	[4] = NLA_POLICY_MIN(NLA_U32, 1),
};

static const struct nla_policy plca_set_policy[] = {
	[1] = NLA_POLICY_NESTED(header_policy), [3] = NLA_POLICY_MAX(NLA_U8, 1),
	[6] = NLA_POLICY_MAX(NLA_U32, 255),	[5] = NLA_POLICY_RANGE(NLA_U32, 1, 255),
	[7] = NLA_POLICY_MAX(NLA_U32, 255),	[8] = NLA_POLICY_MAX(NLA_U32, 255),
	[9] = NLA_POLICY_MAX(NLA_U32, 255),
};

/* What ethnl does next for a request that passed validation: look the device up by name. */
static int plca_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *htb[ARRAY_SIZE(header_policy)];

	if (GENL_REQ_ATTR_CHECK(info, 1))
		return -EINVAL;
	if (nla_parse_nested(htb, ARRAY_SIZE(header_policy) - 1, info->attrs[1], NULL, NULL))
		return -EINVAL;
	if (!htb[2])
		return -EINVAL;
	NL_SET_ERR_MSG_ATTR(info->extack, htb[2], "no device matches name");
	return -ENODEV; /* the tests only name devices that do not exist */
}

static const struct genl_split_ops plca_ops[] = {
	{.cmd = ETHTOOL_MSG_PLCA_SET_CFG,
	 .doit = plca_set_doit,
	 .policy = plca_set_policy,
	 .maxattr = ARRAY_SIZE(plca_set_policy) - 1,
	 .flags = GENL_CMD_CAP_DO | GENL_UNS_ADMIN_PERM},
};

struct env {
	struct kfsim_nl_client *kern;
	struct kfsim_nl_kernel *k;
	struct kfsim_nl_client *sim;
	struct genl_family ethtool;
	u16 kern_ethtool_id;
	bool kern_net_admin; /* the running kernel lets us send PLCA SET_CFG */
};

static struct sk_buff *plca_request(bool nested_flag);

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct kfsim_nl_family_info info;

	e->kern = kfsim_nl_client_open_kernel();
	if (IS_ERR(e->kern)) {
		printf("# kernel netlink unavailable: %s\n", kfsim_errname((int)PTR_ERR(e->kern)));
		e->kern = NULL;
	} else if (!kfsim_nl_resolve(e->kern, "ethtool", &info, NULL)) {
		struct sk_buff *probe = plca_request(true);

		e->kern_ethtool_id = info.id;
		nlmsg_end(probe, nlmsg_hdr(probe));
		nlmsg_hdr(probe)->nlmsg_type = info.id;
		/* SET_CFG is GENL_UNS_ADMIN_PERM: without CAP_NET_ADMIN every answer is -EPERM */
		e->kern_net_admin =
			kfsim_nl_request(e->kern, nlmsg_hdr(probe), NULL, NULL, NULL) != -EPERM;
		nlmsg_free(probe);
	}
	e->k = kfsim_nl_kernel_create();
	e->ethtool = (struct genl_family){.name = "ethtool",
					  .version = 1,
					  .split_ops = plca_ops,
					  .n_split_ops = 1,
					  .resv_start_op = 35};
	assert_int_equal(kfsim_genl_register_family(e->k, &e->ethtool), 0);
	e->sim = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_ROOT);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	kfsim_nl_client_close(e->kern);
	kfsim_nl_client_close(e->sim);
	kfsim_nl_kernel_destroy(e->k);
	free(e);
	return 0;
}

#define NEED_KERNEL(e)                                                                             \
	do {                                                                                       \
		if (!(e)->kern) {                                                                  \
			printf("# skipped: no NETLINK_GENERIC socket to the kernel\n");            \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

#define NEED_ETHTOOL(e)                                                                            \
	do {                                                                                       \
		NEED_KERNEL(e);                                                                    \
		if (!(e)->kern_ethtool_id) {                                                       \
			printf("# skipped: the running kernel has no ethtool family\n");           \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

#define NEED_ETHTOOL_ADMIN(e)                                                                      \
	do {                                                                                       \
		NEED_ETHTOOL(e);                                                                   \
		if (!(e)->kern_net_admin) {                                                        \
			printf("# skipped: PLCA SET_CFG needs CAP_NET_ADMIN on the running "       \
			       "kernel\n");                                                        \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

static void test_resolve_nlctrl_and_ethtool(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_family_info info;
	bool monitor = false;

	NEED_KERNEL(e);
	assert_int_equal(kfsim_nl_resolve(e->kern, "nlctrl", &info, NULL), 0);
	assert_int_equal(info.id, GENL_ID_CTRL);
	assert_int_equal(info.version, 2);
	assert_int_equal(info.mcgrps[0].id, GENL_ID_CTRL);
	NEED_ETHTOOL(e);
	assert_int_equal(kfsim_nl_resolve(e->kern, "ethtool", &info, NULL), 0);
	assert_int_equal(info.version, 1);
	for (u32 i = 0; i < info.nr_mcgrps; i++)
		monitor |= !strcmp(info.mcgrps[i].name, "monitor");
	assert_true(monitor);
	for (u32 i = 0; i < info.nr_ops; i++)
		if (info.ops[i].cmd == ETHTOOL_MSG_PLCA_SET_CFG)
			assert_true(info.ops[i].flags & GENL_UNS_ADMIN_PERM);
}

/* Render every op and attribute of a dump as text lines for comparison. */
static char *render(const struct kfsim_nl_policy_dump *d)
{
	size_t size = 65536, n = 0;
	char *out = malloc(size), line[128];

	out[0] = '\0';
	for (u32 i = 0; i < d->nr_ops; i++)
		n += snprintf(out + n, size - n, "op %u do %d dump %d\n", d->ops[i].cmd,
			      d->ops[i].do_policy, d->ops[i].dump_policy);
	for (u32 p = 0; p < d->nr_policies; p++)
		for (u32 a = 0; d->policies[p] && a <= d->maxtype[p]; a++)
			if (d->policies[p][a].type)
				n += snprintf(out + n, size - n, "policy %u attr %u %s\n", p, a,
					      kfsim_nl_policy_attr_format(&d->policies[p][a], line,
									  sizeof(line)));
	return out;
}

static void test_nlctrl_policy_same_as_kernel(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_policy_dump kd, sd;
	char *kt, *st;

	NEED_KERNEL(e);
	for (int op = -1; op <= CTRL_CMD_GETPOLICY; op += 1 + (op == -1 ? CTRL_CMD_GETFAMILY : 6)) {
		assert_int_equal(kfsim_nl_get_policy(e->kern, "nlctrl", op, &kd, NULL), 0);
		assert_int_equal(kfsim_nl_get_policy(e->sim, "nlctrl", op, &sd, NULL), 0);
		kt = render(&kd);
		st = render(&sd);
		assert_string_equal(st, kt);
		free(kt);
		free(st);
		kfsim_nl_policy_dump_free(&kd);
		kfsim_nl_policy_dump_free(&sd);
	}
}

static void test_ethtool_plca_policy_decoded(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_policy_dump kd, sd;
	char *kt, *st, line[128];

	NEED_ETHTOOL(e);
	assert_int_equal(
		kfsim_nl_get_policy(e->kern, "ethtool", ETHTOOL_MSG_PLCA_SET_CFG, &kd, NULL), 0);
	assert_int_equal(kd.nr_ops, 1);
	assert_int_equal(kd.ops[0].cmd, ETHTOOL_MSG_PLCA_SET_CFG);
	assert_string_equal(kfsim_nl_policy_attr_format(&kd.policies[0][5], line, sizeof(line)),
			    "u32 range 1..255");
	assert_string_equal(kfsim_nl_policy_attr_format(&kd.policies[0][1], line, sizeof(line)),
			    "nested policy 1 maxtype 4");
	assert_string_equal(kfsim_nl_policy_attr_format(&kd.policies[1][2], line, sizeof(line)),
			    "nul-string max-len 127");
	assert_string_equal(kfsim_nl_policy_attr_format(&kd.policies[1][3], line, sizeof(line)),
			    "u32 mask 0x3");
	/* kfsim's copy of the policy dumps identically */
	assert_int_equal(
		kfsim_nl_get_policy(e->sim, "ethtool", ETHTOOL_MSG_PLCA_SET_CFG, &sd, NULL), 0);
	kt = render(&kd);
	st = render(&sd);
	assert_string_equal(st, kt);
	free(kt);
	free(st);
	kfsim_nl_policy_dump_free(&kd);
	kfsim_nl_policy_dump_free(&sd);
}

/* Send the same bytes (but for nlmsg_type) to both kernels; Return: the kernel's answer. */
static int compare(struct env *e, struct sk_buff *skb, u16 kern_type, u16 sim_type,
		   struct kfsim_nl_error *ke, bool verbose)
{
	struct kfsim_nl_error se;
	int kr, sr;

	nlmsg_end(skb, nlmsg_hdr(skb));
	nlmsg_hdr(skb)->nlmsg_type = kern_type;
	kr = kfsim_nl_request(e->kern, nlmsg_hdr(skb), NULL, NULL, ke);
	nlmsg_hdr(skb)->nlmsg_type = sim_type;
	sr = kfsim_nl_request(e->sim, nlmsg_hdr(skb), NULL, NULL, &se);
	if (verbose || sr != kr || strcmp(se.msg, ke->msg) || se.offs != ke->offs)
		printf("# kernel %s '%s' offs %d:%u | kfsim %s '%s' offs %d:%u\n",
		       kfsim_errname(kr), ke->msg, ke->has_offs, ke->offs, kfsim_errname(sr),
		       se.msg, se.has_offs, se.offs);
	assert_int_equal(sr, kr);
	assert_string_equal(se.msg, ke->msg);
	assert_int_equal(se.has_offs, ke->has_offs);
	assert_int_equal(se.offs, ke->offs);
	assert_int_equal(se.has_miss_type, ke->has_miss_type);
	assert_int_equal(se.miss_type, ke->miss_type);
	assert_int_equal(se.has_miss_nest, ke->has_miss_nest);
	assert_int_equal(se.policy_len, ke->policy_len);
	assert_memory_equal(se.policy, ke->policy, ke->policy_len);
	return kr;
}

static void same_answer_any(struct env *e, struct sk_buff *skb, u16 kern_type, u16 sim_type)
{
	struct kfsim_nl_error ke;

	compare(e, skb, kern_type, sim_type, &ke, getenv("NL_VERBOSE") != NULL);
	nlmsg_free(skb);
}

/* compare(), and the kernel's answer must be @expected_errno with @expected_msg. */
static void same_answer(struct env *e, struct sk_buff *skb, u16 kern_type, u16 sim_type,
			int expected_errno, const char *expected_msg)
{
	struct kfsim_nl_error ke;
	int kr = compare(e, skb, kern_type, sim_type, &ke, true);

	assert_int_equal(kr, expected_errno);
	assert_string_equal(ke.msg, expected_msg);
	nlmsg_free(skb);
}

static struct sk_buff *request(u8 cmd, u16 flags)
{
	struct sk_buff *skb = nlmsg_new(512, GFP_KERNEL);
	struct nlmsghdr *nlh = nlmsg_put(skb, 0, 0, 0, GENL_HDRLEN, NLM_F_REQUEST | flags);

	((struct genlmsghdr *)nlmsg_data(nlh))->cmd = cmd;
	((struct genlmsghdr *)nlmsg_data(nlh))->version = 1;
	return skb;
}

static struct sk_buff *plca_request(bool nested_flag)
{
	struct sk_buff *skb = request(ETHTOOL_MSG_PLCA_SET_CFG, 0);
	struct nlattr *hdr = nested_flag ? nla_nest_start(skb, 1) : nla_nest_start_noflag(skb, 1);

	nla_put_string(skb, 2, "kfsimnodev0");
	nla_nest_end(skb, hdr);
	return skb;
}

static void test_invalid_plca_requests_match_kernel(void **state)
{
	struct env *e = *state;
	u16 kid, sid = e->ethtool.id;
	struct sk_buff *skb;

	NEED_ETHTOOL_ADMIN(e);
	kid = e->kern_ethtool_id;

	skb = plca_request(true);
	nla_put_u32(skb, 5, 0); /* NODE_CNT below 1 */
	same_answer(e, skb, kid, sid, -ERANGE, "integer out of range");

	skb = plca_request(true);
	nla_put_u32(skb, 6, 300); /* NODE_ID above 255 */
	same_answer(e, skb, kid, sid, -ERANGE, "integer out of range");

	skb = plca_request(true);
	nla_put_u32(skb, 3, 1); /* ENABLED as u32 */
	same_answer(e, skb, kid, sid, -EINVAL, "invalid attribute length");

	skb = plca_request(true);
	nla_put(skb, 5, 2, "\x01\x00"); /* NODE_CNT too short */
	same_answer(e, skb, kid, sid, -EINVAL, "invalid attribute length");

	skb = plca_request(true);
	nla_put_u32(skb, 20, 1); /* unknown type */
	same_answer(e, skb, kid, sid, -EINVAL, "Unknown attribute type");

	skb = plca_request(true);
	nla_put_u16(skb, 2, 1); /* VERSION: unspec slot in the SET policy */
	same_answer(e, skb, kid, sid, -EINVAL, "Unsupported attribute");

	skb = plca_request(false);
	same_answer(e, skb, kid, sid, -EINVAL, "NLA_F_NESTED is missing");

	skb = plca_request(true);
	nla_put_u8(skb, 3 | NLA_F_NESTED, 1);
	same_answer(e, skb, kid, sid, -EINVAL, "NLA_F_NESTED not expected");

	skb = plca_request(true);
	nla_put_u8(skb, 3, 1);
	memset(skb->data + skb->len, 0, 2); /* two bytes after the last attribute */
	skb->len += 2;
	same_answer(e, skb, kid, sid, -EINVAL, "bytes leftover after parsing attributes");

	skb = request(ETHTOOL_MSG_PLCA_SET_CFG, 0);
	{
		struct nlattr *hdr = nla_nest_start(skb, 1);

		nla_put_u32(skb, 3, 4); /* ETHTOOL_FLAG_STATS: not in the mask */
		nla_nest_end(skb, hdr);
	}
	same_answer(e, skb, kid, sid, -EINVAL, "reserved bit set");

	skb = request(ETHTOOL_MSG_PLCA_SET_CFG, 0);
	{
		struct nlattr *hdr = nla_nest_start(skb, 1);

		nla_put(skb, 2, 4, "eth0"); /* DEV_NAME without NUL */
		nla_nest_end(skb, hdr);
	}
	same_answer(e, skb, kid, sid, -EINVAL, "Attribute failed policy validation");

	skb = plca_request(true);
	((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(skb)))->reserved = 7;
	same_answer(e, skb, kid, sid, -EINVAL, "genlmsghdr.reserved field is not 0");

	skb = plca_request(true);
	nlmsg_hdr(skb)->nlmsg_flags |= NLM_F_REPLACE;
	same_answer(e, skb, kid, sid, -EINVAL, "ambiguous or reserved bits set in nlmsg_flags");
}

static void test_invalid_nlctrl_requests_match_kernel(void **state)
{
	struct env *e = *state;
	struct sk_buff *skb;

	NEED_KERNEL(e);
	skb = request(CTRL_CMD_GETFAMILY, 0);
	nla_put(skb, CTRL_ATTR_FAMILY_NAME, 6, "nlctrl"); /* no NUL */
	same_answer(e, skb, GENL_ID_CTRL, GENL_ID_CTRL, -EINVAL,
		    "Attribute failed policy validation");

	skb = request(CTRL_CMD_GETFAMILY, NLM_F_DUMP);
	nla_put_u32(skb, 20, 1);
	same_answer(e, skb, GENL_ID_CTRL, GENL_ID_CTRL, -EINVAL, "Unknown attribute type");

	skb = request(CTRL_CMD_GETFAMILY, 0);
	same_answer(e, skb, GENL_ID_CTRL, GENL_ID_CTRL, -EINVAL, "");

	skb = request(CTRL_CMD_GETFAMILY, 0);
	nla_put_string(skb, CTRL_ATTR_FAMILY_NAME, "kfsim-none");
	same_answer(e, skb, GENL_ID_CTRL, GENL_ID_CTRL, -ENOENT, "");

	skb = request(CTRL_CMD_GETPOLICY, NLM_F_DUMP);
	same_answer(e, skb, GENL_ID_CTRL, GENL_ID_CTRL, -EINVAL, "");

	skb = request(CTRL_CMD_GETPOLICY, NLM_F_DUMP);
	nla_put_string(skb, CTRL_ATTR_FAMILY_NAME, "nlctrl");
	nla_put_u32(skb, CTRL_ATTR_OP, 77);
	same_answer(e, skb, GENL_ID_CTRL, GENL_ID_CTRL, -ENOENT, "");

	skb = request(CTRL_CMD_GETPOLICY, 0); /* dump-only op asked as do */
	nla_put_string(skb, CTRL_ATTR_FAMILY_NAME, "nlctrl");
	same_answer(e, skb, GENL_ID_CTRL, GENL_ID_CTRL, -EOPNOTSUPP, "");

	skb = request(99, 0);
	same_answer(e, skb, GENL_ID_CTRL, GENL_ID_CTRL, -EOPNOTSUPP, "");

	skb = request(CTRL_CMD_GETFAMILY, 0);
	same_answer(e, skb, 0x3ff, 0x3ff, -ENOENT, "");
}

/* A random attribute: mostly near the policy's edges, sometimes malformed. */
static void random_attr(struct sk_buff *skb, struct rnd_state *rnd, const u16 *types, int nr_types)
{
	static const int lens[] = {0, 1, 2, 3, 4, 5, 8};
	u16 type = types[kfsim_prandom_below(rnd, nr_types)];
	int len = lens[kfsim_prandom_below(rnd, ARRAY_SIZE(lens))];
	u8 payload[8] = {0};
	u32 value = kfsim_prandom_below(rnd, 4) ? kfsim_prandom_below(rnd, 300)
						: prandom_u32_state(rnd);

	if (!kfsim_prandom_below(rnd, 10))
		type |= NLA_F_NESTED;
	if (kfsim_prandom_below(rnd, 3))
		memcpy(payload, &value, sizeof(value));
	else
		prandom_bytes_state(rnd, payload, sizeof(payload));
	nla_put(skb, type, len, payload);
}

static void trailing_garbage(struct sk_buff *skb, struct rnd_state *rnd)
{
	if (!kfsim_prandom_below(rnd, 10)) {
		int n = 1 + kfsim_prandom_below(rnd, 3);

		prandom_bytes_state(rnd, skb->data + skb->len, n);
		skb->len += n;
	}
}

static void test_random_plca_requests_match_kernel(void **state)
{
	static const u16 types[] = {0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20};
	struct env *e = *state;
	struct rnd_state rnd;

	NEED_ETHTOOL_ADMIN(e);
	prandom_seed_state(&rnd, 6);
	for (int i = 0; i < 300; i++) {
		struct sk_buff *skb = plca_request(true);
		int n = kfsim_prandom_below(&rnd, 5);

		while (n--)
			random_attr(skb, &rnd, types, ARRAY_SIZE(types));
		trailing_garbage(skb, &rnd);
		same_answer_any(e, skb, e->kern_ethtool_id, e->ethtool.id);
	}
}

static void test_random_nlctrl_dumps_match_kernel(void **state)
{
	static const u16 types[] = {0, 1, 2, 3, 10};
	struct env *e = *state;
	struct rnd_state rnd;

	NEED_KERNEL(e);
	prandom_seed_state(&rnd, 16);
	for (int i = 0; i < 300; i++) {
		struct sk_buff *skb = request(CTRL_CMD_GETFAMILY, NLM_F_DUMP);
		int n = kfsim_prandom_below(&rnd, 4);

		if (kfsim_prandom_below(&rnd, 3))
			nla_put_string(skb, CTRL_ATTR_FAMILY_NAME,
				       kfsim_prandom_below(&rnd, 2) ? "nlctrl"
								    : "a-name-longer-than-15");
		while (n--)
			random_attr(skb, &rnd, types, ARRAY_SIZE(types));
		trailing_garbage(skb, &rnd);
		same_answer_any(e, skb, GENL_ID_CTRL, GENL_ID_CTRL);
	}
}

#define ETHTOOL_MSG_FEATURES_SET 12
#define ETHTOOL_MSG_FEATURES_NTF 13

static int features_ntf_cb(const struct nlmsghdr *nlh, void *arg)
{
	if (nlh->nlmsg_pid == 0 &&
	    ((struct genlmsghdr *)nlmsg_data(nlh))->cmd == ETHTOOL_MSG_FEATURES_NTF)
		(*(int *)arg)++;
	return 0;
}

/*
 * In a child, in a private network namespace with a veth pair: join ethtool's "monitor"
 * group, turn rx-gro on with FEATURES_SET, and expect the FEATURES_NTF the kernel multicasts.
 * Exit status: 0 delivered, 77 cannot set up (reason printed), 1 not delivered.
 */
static int features_ntf_child(void)
{
	struct kfsim_nl_family_info info;
	struct kfsim_nl_client *c;
	struct sk_buff *skb;
	struct nlattr *n1, *n2, *n3;
	int ntf = 0, err;

	if (unshare(CLONE_NEWNET)) {
		printf("# skipped: no private network namespace (%s)\n", kfsim_errname(-errno));
		return 77;
	}
	if (system("ip link add kfsimv0 type veth peer name kfsimv1 2>/dev/null")) {
		printf("# skipped: cannot create a veth pair with ip(8)\n");
		return 77;
	}
	c = kfsim_nl_client_open_kernel();
	if (IS_ERR(c) || kfsim_nl_resolve(c, "ethtool", &info, NULL) ||
	    kfsim_nl_subscribe(c, "ethtool", "monitor"))
		return 77;
	skb = request(ETHTOOL_MSG_FEATURES_SET, 0);
	nlmsg_hdr(skb)->nlmsg_type = info.id;
	n1 = nla_nest_start(skb, 1);	   /* ETHTOOL_A_FEATURES_HEADER */
	nla_put_string(skb, 2, "kfsimv0"); /* ETHTOOL_A_HEADER_DEV_NAME */
	nla_nest_end(skb, n1);
	n1 = nla_nest_start(skb, 3);	  /* ETHTOOL_A_FEATURES_WANTED */
	n2 = nla_nest_start(skb, 3);	  /* ETHTOOL_A_BITSET_BITS */
	n3 = nla_nest_start(skb, 1);	  /* ETHTOOL_A_BITSET_BITS_BIT */
	nla_put_string(skb, 2, "rx-gro"); /* ETHTOOL_A_BITSET_BIT_NAME */
	nla_put_flag(skb, 3);		  /* ETHTOOL_A_BITSET_BIT_VALUE */
	nla_nest_end(skb, n3);
	nla_nest_end(skb, n2);
	nla_nest_end(skb, n1);
	nlmsg_end(skb, nlmsg_hdr(skb));
	err = kfsim_nl_request(c, nlmsg_hdr(skb), NULL, NULL, NULL);
	nlmsg_free(skb);
	if (err) {
		printf("# FEATURES_SET failed: %s\n", kfsim_errname(err));
		return 1;
	}
	kfsim_nl_notifications(c, features_ntf_cb, &ntf, 2000);
	kfsim_nl_client_close(c);
	printf("# %d FEATURES_NTF notification(s) received\n", ntf);
	return ntf >= 1 ? 0 : 1;
}

static void test_kernel_notification_delivered(void **state)
{
	struct env *e = *state;
	int status;
	pid_t pid;

	NEED_ETHTOOL_ADMIN(e);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int rc = features_ntf_child();

		fflush(stdout);
		_exit(rc);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		skip();
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_resolve_nlctrl_and_ethtool, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nlctrl_policy_same_as_kernel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ethtool_plca_policy_decoded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalid_plca_requests_match_kernel, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_invalid_nlctrl_requests_match_kernel, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_random_plca_requests_match_kernel, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_random_nlctrl_dumps_match_kernel, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_kernel_notification_delivered, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
