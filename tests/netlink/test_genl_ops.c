// SPDX-License-Identifier: MIT
/*
 * How the generic netlink core reads a family's ops table, as net/netlink/genetlink.c does
 * (6.12): the reject-all policy given to ops without one (legacy ops from resv_start_op on,
 * split ops in policy dumps), split ops never inheriting the family policy, the validate flags
 * refused from resv_start_op on; and how attributes are advertised (NLA_BE16/NLA_BE32 never,
 * function-validated integers with the type's full range, NLA_MSECS as uint), plus the
 * kernel's big-endian accessors (__be16 in, __be16 out).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/netlink.h>
#include <kfsim/nl_client.h>

enum { T_A_UNSPEC, T_A_BE16, T_A_FN, T_A_MSECS, T_A_BE32, T_A_U32, __T_A_MAX };
#define T_A_MAX (__T_A_MAX - 1)

static int validate_even(const struct nlattr *attr, struct netlink_ext_ack *extack)
{
	if (nla_get_u32(attr) & 1) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "odd value");
		return -EINVAL;
	}
	return 0;
}

static const struct nla_policy t_policy[T_A_MAX + 1] = {
	[T_A_BE16] = NLA_POLICY_MAX(NLA_BE16, 0x100),
	[T_A_FN] = NLA_POLICY_VALIDATE_FN(NLA_U32, validate_even),
	[T_A_MSECS] = {.type = NLA_MSECS},
	[T_A_BE32] = {.type = NLA_BE32},
	[T_A_U32] = {.type = NLA_U32},
};

static int handled;

static int ok_doit(struct sk_buff *skb, struct genl_info *info)
{
	handled++;
	return 0;
}

static int ok_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return 0;
}

/* Split ops: cmd 1 with a policy (do only), cmd 2 do+dump without one. */
static const struct genl_split_ops t_split_ops[] = {
	{.cmd = 1, .doit = ok_doit, .policy = t_policy, .maxattr = T_A_MAX,
	 .flags = GENL_CMD_CAP_DO},
	{.cmd = 2, .doit = ok_doit, .flags = GENL_CMD_CAP_DO},
	{.cmd = 2, .dumpit = ok_dumpit, .flags = GENL_CMD_CAP_DUMP},
};

/* Legacy small ops: cmd 1 below resv_start_op, cmd 2 and 3 from it on; no policy anywhere. */
static const struct genl_small_ops t_small_ops[] = {
	{.cmd = 1, .doit = ok_doit},
	{.cmd = 2, .doit = ok_doit},
	{.cmd = 3, .doit = ok_doit, .dumpit = ok_dumpit},
};

struct env {
	struct kfsim_nl_kernel *k;
	struct kfsim_nl_client *c;
	struct genl_family split, legacy;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	e->k = kfsim_nl_kernel_create();
	assert_false(IS_ERR(e->k));
	e->split = (struct genl_family){.name = "t_split", .version = 1, .resv_start_op = 1,
					.split_ops = t_split_ops,
					.n_split_ops = ARRAY_SIZE(t_split_ops),
					.policy = t_policy, .maxattr = T_A_MAX};
	e->legacy = (struct genl_family){.name = "t_legacy", .version = 1, .resv_start_op = 2,
					 .small_ops = t_small_ops,
					 .n_small_ops = ARRAY_SIZE(t_small_ops)};
	assert_int_equal(kfsim_genl_register_family(e->k, &e->split), 0);
	assert_int_equal(kfsim_genl_register_family(e->k, &e->legacy), 0);
	e->c = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_ROOT);
	assert_false(IS_ERR(e->c));
	handled = 0;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	kfsim_nl_client_close(e->c);
	kfsim_nl_kernel_destroy(e->k);
	free(e);
	return 0;
}

static struct sk_buff *req(u16 type, u8 cmd, u16 flags)
{
	struct sk_buff *skb = nlmsg_new(512, GFP_KERNEL);
	struct nlmsghdr *nlh = nlmsg_put(skb, 0, 0, type, GENL_HDRLEN, NLM_F_REQUEST | flags);
	struct genlmsghdr *g = nlmsg_data(nlh);

	g->cmd = cmd;
	g->version = 1;
	return skb;
}

static int send_req(struct env *e, struct sk_buff *skb, struct kfsim_nl_error *err)
{
	int ret;

	nlmsg_end(skb, nlmsg_hdr(skb));
	ret = kfsim_nl_request(e->c, nlmsg_hdr(skb), NULL, NULL, err);
	nlmsg_free(skb);
	return ret;
}

static void test_be16_accessors_take_network_order(void **state)
{
	struct sk_buff *skb = nlmsg_new(64, GFP_KERNEL);
	struct nlattr *nla = (struct nlattr *)skb_tail_pointer(skb);
	const u8 *p;

	(void)state;
	assert_int_equal(nla_put_be16(skb, 1, htobe16(0x1234)), 0);
	p = nla_data(nla);
	assert_int_equal(p[0], 0x12);
	assert_int_equal(p[1], 0x34);
	assert_int_equal(nla_get_be16(nla), htobe16(0x1234));
	nla = (struct nlattr *)skb_tail_pointer(skb);
	assert_int_equal(nla_put_be32(skb, 2, htobe32(0x01020304)), 0);
	p = nla_data(nla);
	assert_memory_equal(p, "\x01\x02\x03\x04", 4);
	assert_int_equal(nla_get_be32(nla), htobe32(0x01020304));
	nla = (struct nlattr *)skb_tail_pointer(skb);
	assert_int_equal(nla_put_net16(skb, 3, htobe16(7)), 0);
	assert_int_equal(nla->nla_type, 3 | NLA_F_NET_BYTEORDER);
	assert_int_equal(nla_type(nla), 3);
	nlmsg_free(skb);
}

/* The range check reads the wire's big-endian value; the failing policy is not advertised. */
static void test_be16_range_error_has_no_policy_tlv(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_error err;
	struct sk_buff *skb;

	skb = req(e->split.id, 1, NLM_F_ACK);
	nla_put_be16(skb, T_A_BE16, htobe16(0x100));
	assert_int_equal(send_req(e, skb, &err), 0);
	skb = req(e->split.id, 1, NLM_F_ACK);
	nla_put_be16(skb, T_A_BE16, htobe16(0x101));
	assert_int_equal(send_req(e, skb, &err), -ERANGE);
	assert_string_equal(err.msg, "integer out of range");
	assert_true(err.has_offs);
	assert_int_equal(err.offs, NLMSG_HDRLEN + GENL_HDRLEN);
	assert_int_equal(err.policy_len, 0);
}

static void test_policy_dump_advertisement(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_policy_dump dump;
	char line[128];

	assert_int_equal(kfsim_nl_get_policy(e->c, "t_split", 1, &dump, NULL), 0);
	assert_int_equal(dump.nr_policies, 1);
	assert_int_equal(dump.policies[0][T_A_BE16].type, 0); /* not advertised */
	assert_int_equal(dump.policies[0][T_A_BE32].type, 0);
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[0][T_A_FN], line,
							sizeof(line)),
			    "u32 range 0..4294967295");
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[0][T_A_MSECS], line,
							sizeof(line)),
			    "uint range 0..18446744073709551615");
	assert_string_equal(kfsim_nl_policy_attr_format(&dump.policies[0][T_A_U32], line,
							sizeof(line)),
			    "u32 range 0..4294967295");
	kfsim_nl_policy_dump_free(&dump);
}

/* A split op without a policy: {do X, dump Y} with the reject-all policy in dumps ... */
static void test_split_op_without_policy(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_policy_dump dump;
	struct kfsim_nl_error err;
	struct sk_buff *skb;

	assert_int_equal(kfsim_nl_get_policy(e->c, "t_split", -1, &dump, NULL), 0);
	assert_int_equal(dump.nr_ops, 2);
	assert_int_equal(dump.ops[0].cmd, 1);
	assert_int_equal(dump.ops[0].do_policy, 0);
	assert_int_equal(dump.ops[0].dump_policy, -1);
	assert_int_equal(dump.ops[1].cmd, 2);
	assert_int_equal(dump.ops[1].do_policy, 1);
	assert_int_equal(dump.ops[1].dump_policy, 1);
	kfsim_nl_policy_dump_free(&dump);

	/* ... but a request takes no attributes at all: not the family's policy, not reject */
	skb = req(e->split.id, 2, NLM_F_ACK);
	nla_put_u32(skb, T_A_FN, 1);
	nla_put_u32(skb, 40, 1);
	assert_int_equal(send_req(e, skb, &err), 0);
	assert_int_equal(handled, 1);
}

static void test_legacy_op_reject_all_from_resv_start_op(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_policy_dump dump;
	struct kfsim_nl_error err;
	struct sk_buff *skb;

	/* below resv_start_op: no policy, attributes ignored */
	skb = req(e->legacy.id, 1, NLM_F_ACK);
	nla_put_u32(skb, 1, 5);
	assert_int_equal(send_req(e, skb, &err), 0);
	assert_int_equal(handled, 1);

	/* from it on: genl_policy_reject_all, maxattr 1 */
	skb = req(e->legacy.id, 2, NLM_F_ACK);
	nla_put_u32(skb, 1, 5);
	assert_int_equal(send_req(e, skb, &err), -EINVAL);
	assert_string_equal(err.msg, "Attribute failed policy validation");
	assert_true(err.has_offs);
	assert_int_equal(err.offs, NLMSG_HDRLEN + GENL_HDRLEN);
	skb = req(e->legacy.id, 2, NLM_F_ACK);
	nla_put_u32(skb, 2, 5);
	assert_int_equal(send_req(e, skb, &err), -EINVAL);
	assert_string_equal(err.msg, "Unknown attribute type");
	skb = req(e->legacy.id, 2, NLM_F_ACK);
	assert_int_equal(send_req(e, skb, &err), 0);
	assert_int_equal(handled, 2);

	/* dumps show it as a policy with nothing advertised; cmd 1 has none */
	assert_int_equal(kfsim_nl_get_policy(e->c, "t_legacy", -1, &dump, NULL), 0);
	assert_int_equal(dump.nr_ops, 2);
	assert_int_equal(dump.ops[0].cmd, 2);
	assert_int_equal(dump.ops[0].do_policy, 0);
	assert_int_equal(dump.ops[0].dump_policy, -1);
	assert_int_equal(dump.ops[1].cmd, 3);
	assert_int_equal(dump.ops[1].do_policy, 0);
	assert_int_equal(dump.ops[1].dump_policy, 0);
	assert_int_equal(dump.nr_policies, 0);
	kfsim_nl_policy_dump_free(&dump);
}

/* genl_validate_ops(): no validate flag at all from resv_start_op on, not even dump ones. */
static void test_no_validate_flags_from_resv_start_op(void **state)
{
	static const struct genl_small_ops dump_liberal[] = {
		{.cmd = 5, .dumpit = ok_dumpit, .validate = GENL_DONT_VALIDATE_DUMP},
	};
	static const struct genl_small_ops dump_loose[] = {
		{.cmd = 5, .dumpit = ok_dumpit, .validate = GENL_DONT_VALIDATE_DUMP_STRICT},
	};
	static const struct genl_split_ops split_loose[] = {
		{.cmd = 5, .dumpit = ok_dumpit, .validate = GENL_DONT_VALIDATE_DUMP,
		 .flags = GENL_CMD_CAP_DUMP},
	};
	struct env *e = *state;
	struct genl_family a = {.name = "v1", .small_ops = dump_liberal, .n_small_ops = 1,
				.resv_start_op = 5};
	struct genl_family b = {.name = "v2", .small_ops = dump_loose, .n_small_ops = 1,
				.resv_start_op = 3};
	struct genl_family c = {.name = "v3", .split_ops = split_loose, .n_split_ops = 1};
	struct genl_family d = {.name = "v4", .small_ops = dump_loose, .n_small_ops = 1,
				.resv_start_op = 6};

	assert_int_equal(kfsim_genl_register_family(e->k, &a), -EINVAL);
	assert_int_equal(kfsim_genl_register_family(e->k, &b), -EINVAL);
	assert_int_equal(kfsim_genl_register_family(e->k, &c), -EINVAL);
	assert_int_equal(kfsim_genl_register_family(e->k, &d), 0);
	assert_int_equal(genl_unregister_family(&d), 0);
}

/* Two halves of one split command must agree on their flags and internal flags. */
static void test_split_halves_agree(void **state)
{
	static const struct genl_split_ops mismatch[] = {
		{.cmd = 1, .doit = ok_doit, .flags = GENL_CMD_CAP_DO | GENL_ADMIN_PERM},
		{.cmd = 1, .dumpit = ok_dumpit, .flags = GENL_CMD_CAP_DUMP},
	};
	struct env *e = *state;
	struct genl_family f = {.name = "v5", .split_ops = mismatch, .n_split_ops = 2};

	assert_int_equal(kfsim_genl_register_family(e->k, &f), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_be16_accessors_take_network_order),
		cmocka_unit_test_setup_teardown(test_be16_range_error_has_no_policy_tlv, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_policy_dump_advertisement, setup, teardown),
		cmocka_unit_test_setup_teardown(test_split_op_without_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_legacy_op_reject_all_from_resv_start_op, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_validate_flags_from_resv_start_op, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_split_halves_agree, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
