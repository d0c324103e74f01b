// SPDX-License-Identifier: MIT
/*
 * Split ops whose do and dump requests are equal share one policy table (the generated code of
 * specs/ynlshare.yaml): one nla_policy array in ynlshare-kernel.c, both ops pointing at it, and
 * nlctrl's CTRL_CMD_GETPOLICY reporting one policy index for do and dump, as Linux does for a
 * family whose genl_ops share a policy (ethtool's PLCA ops).  Ops whose requests differ keep a
 * _do_ and a _dump_ table, reported as two policies.  Needs no running kernel.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define KFSIM_YNL_LOCAL 1
#include "support/cli_assert.h"
#include "ynlshare-uapi.h"
#include "ynlshare-kernel.c"

#include <kfsim/nl_client.h>

/* Only the policies are under test: nlctrl never calls the handlers. */
static int ynlshare_nl_obj_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	(void)skb;
	(void)info;
	return -EOPNOTSUPP;
}

static int ynlshare_nl_obj_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	(void)skb;
	(void)cb;
	return -EOPNOTSUPP;
}

static int ynlshare_nl_obj_list_doit(struct sk_buff *skb, struct genl_info *info)
{
	(void)skb;
	(void)info;
	return -EOPNOTSUPP;
}

static int ynlshare_nl_obj_list_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	(void)skb;
	(void)cb;
	return -EOPNOTSUPP;
}

static int ynlshare_nl_obj_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	(void)skb;
	(void)info;
	return -EOPNOTSUPP;
}

static int count(const char *text, const char *needle)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void test_generated_code_has_one_table_for_equal_requests(void **state)
{
	char *src = read_whole_file(YNLSHARE_GEN_DIR "/ynlshare-kernel.c");

	(void)state;
	/* obj-get: one table, printed once, named as ynl-gen-c.py names a single op policy. */
	assert_int_equal(count(src, "const struct nla_policy ynlshare_obj_get"), 1);
	assert_int_equal(count(src, "const struct nla_policy ynlshare_obj_get_nl_policy[3] = {"), 1);
	assert_int_equal(count(src, "obj_get_do_nl_policy"), 0);
	assert_int_equal(count(src, "obj_get_dump_nl_policy"), 0);
	assert_int_equal(count(src, ".policy\t\t= ynlshare_obj_get_nl_policy,"), 2);
	/* obj-list: different requests, two tables of their own sizes. */
	assert_int_equal(count(src, "const struct nla_policy ynlshare_obj_list_do_nl_policy[2]"), 1);
	assert_int_equal(count(src, "const struct nla_policy ynlshare_obj_list_dump_nl_policy[3]"),
			 1);
	/* Four op tables in all (set has its own), for five split ops. */
	assert_int_equal(count(src, "const struct nla_policy "), 4);
	assert_int_equal(ARRAY_SIZE(ynlshare_nl_ops), 5);
	free(src);

	/* The compiled op table: both halves of obj-get point at the very same array. */
	assert_int_equal(ynlshare_nl_ops[0].cmd, YNLSHARE_CMD_OBJ_GET);
	assert_int_equal(ynlshare_nl_ops[1].cmd, YNLSHARE_CMD_OBJ_GET);
	assert_ptr_equal(ynlshare_nl_ops[0].policy, ynlshare_obj_get_nl_policy);
	assert_ptr_equal(ynlshare_nl_ops[1].policy, ynlshare_obj_get_nl_policy);
	assert_int_equal(ynlshare_nl_ops[0].maxattr, ynlshare_nl_ops[1].maxattr);
	assert_ptr_not_equal(ynlshare_nl_ops[2].policy, ynlshare_nl_ops[3].policy);
	assert_int_equal(ynlshare_nl_ops[2].maxattr, YNLSHARE_A_OBJ_ID);
	assert_int_equal(ynlshare_nl_ops[3].maxattr, YNLSHARE_A_OBJ_NAME);
}

struct env {
	struct kfsim_nl_kernel *k;
	struct genl_family fam;
	struct kfsim_nl_client *c;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct genl_family init = YNLSHARE_NL_FAMILY_INIT;

	if (!e)
		return -1;
	e->fam = init;
	e->k = kfsim_nl_kernel_create();
	if (IS_ERR(e->k) || kfsim_genl_register_family(e->k, &e->fam))
		return -1;
	e->c = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_USER);
	if (IS_ERR(e->c))
		return -1;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	kfsim_nl_client_close(e->c);
	kfsim_genl_unregister_family(&e->fam);
	kfsim_nl_kernel_destroy(e->k);
	free(e);
	return 0;
}

static void test_nlctrl_reports_one_policy_for_do_and_dump(void **state)
{
	struct env *e = *state;
	struct kfsim_nl_policy_dump d;
	struct kfsim_nl_error err;

	/* One op: do and dump name policy 0, and there is no other policy. */
	assert_int_equal(kfsim_nl_get_policy(e->c, "ynlshare", YNLSHARE_CMD_OBJ_GET, &d, &err), 0);
	assert_int_equal(d.nr_ops, 1);
	assert_int_equal(d.ops[0].cmd, YNLSHARE_CMD_OBJ_GET);
	assert_int_equal(d.ops[0].do_policy, 0);
	assert_int_equal(d.ops[0].dump_policy, 0);
	assert_int_equal(d.nr_policies, 1);
	assert_int_equal(d.maxtype[0], YNLSHARE_A_OBJ_NAME);
	assert_true(d.policies[0][YNLSHARE_A_OBJ_ID].has_min_u);
	assert_int_equal(d.policies[0][YNLSHARE_A_OBJ_ID].min_u, 1);
	kfsim_nl_policy_dump_free(&d);

	/* Different requests: two policies, each with its own maxtype. */
	assert_int_equal(kfsim_nl_get_policy(e->c, "ynlshare", YNLSHARE_CMD_OBJ_LIST, &d, &err), 0);
	assert_int_equal(d.nr_ops, 1);
	assert_int_equal(d.ops[0].do_policy, 0);
	assert_int_equal(d.ops[0].dump_policy, 1);
	assert_int_equal(d.nr_policies, 2);
	assert_int_equal(d.maxtype[0], YNLSHARE_A_OBJ_ID);
	assert_int_equal(d.maxtype[1], YNLSHARE_A_OBJ_NAME);
	kfsim_nl_policy_dump_free(&d);

	/* The whole family: obj-get's shared table counted once. */
	assert_int_equal(kfsim_nl_get_policy(e->c, "ynlshare", -1, &d, &err), 0);
	assert_int_equal(d.nr_ops, 3);
	assert_int_equal(d.ops[0].do_policy, d.ops[0].dump_policy);
	assert_int_not_equal(d.ops[1].do_policy, d.ops[1].dump_policy);
	assert_int_equal(d.ops[2].dump_policy, -1);
	assert_int_equal(d.nr_policies, 4);
	kfsim_nl_policy_dump_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated_code_has_one_table_for_equal_requests),
		cmocka_unit_test_setup_teardown(test_nlctrl_reports_one_policy_for_do_and_dump,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
