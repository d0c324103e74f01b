// SPDX-License-Identifier: MIT
/*
 * The code generated from specs/ethtool.yaml, end to end through kfsim's in-process kernel: the
 * generated op table and policies register the family, a small PLCA device behind handlers
 * written here answers, and the generated user API drives it.  Checks the netlink contract of
 * the PLCA commands (plca-and-netlink.md §1): range errors with the kernel's extack and the
 * attribute named, the missing header, permissions, the reply and notification contents.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define KFSIM_YNL_LOCAL 1
#include <kfsim/nl_client.h>
#include "ethtool-uapi.h"
#include "ethtool-kernel.c"
#include "ethtool-user.c"

/* The test's one PLCA device (the handlers are plain functions, as in the kernel). */
static struct {
	u32 node_id, node_cnt, to_tmr, burst_cnt, burst_tmr;
	u8 enabled;
} plca_dev;

static int put_header(struct sk_buff *skb)
{
	struct nlattr *nest = nla_nest_start(skb, ETHTOOL_A_PLCA_HEADER);

	if (!nest || nla_put_u32(skb, ETHTOOL_A_HEADER_DEV_INDEX, 2) ||
	    nla_put_string(skb, ETHTOOL_A_HEADER_DEV_NAME, "eth0"))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/* Set by a test: the device answers with a VERSION of the wrong size (a u32). */
static bool broken_version;

/* GET_CFG_REPLY content, in the kernel's emission order (node-id before node-cnt). */
static int put_cfg(struct sk_buff *skb)
{
	if (put_header(skb) || (broken_version ? nla_put_u32(skb, ETHTOOL_A_PLCA_VERSION, 0x10) :
				nla_put_u16(skb, ETHTOOL_A_PLCA_VERSION, 0x10)) ||
	    nla_put_u8(skb, ETHTOOL_A_PLCA_ENABLED, plca_dev.enabled) ||
	    nla_put_u32(skb, ETHTOOL_A_PLCA_NODE_ID, plca_dev.node_id) ||
	    nla_put_u32(skb, ETHTOOL_A_PLCA_NODE_CNT, plca_dev.node_cnt) ||
	    nla_put_u32(skb, ETHTOOL_A_PLCA_TO_TMR, plca_dev.to_tmr) ||
	    nla_put_u32(skb, ETHTOOL_A_PLCA_BURST_CNT, plca_dev.burst_cnt) ||
	    nla_put_u32(skb, ETHTOOL_A_PLCA_BURST_TMR, plca_dev.burst_tmr))
		return -EMSGSIZE;
	return 0;
}

static int reply(struct genl_info *info, u8 cmd, bool status)
{
	struct sk_buff *skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	void *hdr;

	if (!skb)
		return -ENOMEM;
	hdr = genlmsg_put_reply(skb, info, info->family, 0, cmd);
	if (!hdr || (status ? put_header(skb) || nla_put_u8(skb, ETHTOOL_A_PLCA_STATUS, 1) :
			      put_cfg(skb))) {
		kfree_skb(skb);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return genlmsg_reply(skb, info);
}

static int ethtool_nl_plca_get_cfg_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, ETHTOOL_A_PLCA_HEADER))
		return -EINVAL;
	return reply(info, ETHTOOL_MSG_PLCA_GET_CFG_REPLY, false);
}

static int ethtool_nl_plca_get_status_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, ETHTOOL_A_PLCA_HEADER))
		return -EINVAL;
	return reply(info, ETHTOOL_MSG_PLCA_GET_STATUS_REPLY, true);
}

static int dump_one(struct sk_buff *skb, struct netlink_callback *cb, u8 cmd)
{
	void *hdr;

	if (cb->args[0])
		return 0;
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, &ethtool_nl_family,
			  NLM_F_MULTI, cmd);
	if (!hdr || put_cfg(skb))
		return -EMSGSIZE;
	genlmsg_end(skb, hdr);
	cb->args[0] = 1;
	return (int)skb->len;
}

static int ethtool_nl_plca_get_cfg_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return dump_one(skb, cb, ETHTOOL_MSG_PLCA_GET_CFG_REPLY);
}

static int ethtool_nl_plca_get_status_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	return dump_one(skb, cb, ETHTOOL_MSG_PLCA_GET_STATUS_REPLY);
}

static int ethtool_nl_plca_set_cfg_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct sk_buff *ntf;
	void *hdr;

	if (GENL_REQ_ATTR_CHECK(info, ETHTOOL_A_PLCA_HEADER))
		return -EINVAL;
	if (tb[ETHTOOL_A_PLCA_ENABLED])
		plca_dev.enabled = nla_get_u8(tb[ETHTOOL_A_PLCA_ENABLED]);
	if (tb[ETHTOOL_A_PLCA_NODE_ID])
		plca_dev.node_id = nla_get_u32(tb[ETHTOOL_A_PLCA_NODE_ID]);
	if (tb[ETHTOOL_A_PLCA_NODE_CNT])
		plca_dev.node_cnt = nla_get_u32(tb[ETHTOOL_A_PLCA_NODE_CNT]);
	if (tb[ETHTOOL_A_PLCA_TO_TMR])
		plca_dev.to_tmr = nla_get_u32(tb[ETHTOOL_A_PLCA_TO_TMR]);
	/* The notification every successful SET sends (ethtool_notify). */
	ntf = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!ntf)
		return -ENOMEM;
	hdr = genlmsg_put(ntf, 0, 1, info->family, 0, ETHTOOL_MSG_PLCA_NTF);
	if (!hdr || put_cfg(ntf)) {
		kfree_skb(ntf);
		return -EMSGSIZE;
	}
	genlmsg_end(ntf, hdr);
	genlmsg_multicast(info->family, ntf, 0, ETHTOOL_NLGRP_MONITOR, GFP_KERNEL);
	return 0;
}

struct env {
	struct kfsim_nl_kernel *k;
	struct genl_family fam;
	struct kfsim_nl_client *root, *user;
	struct ynl_sock *ys, *ys_user;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct genl_family init = ETHTOOL_NL_FAMILY_INIT;
	struct ynl_error err;

	if (!e)
		return -1;
	e->fam = init;
	e->k = kfsim_nl_kernel_create();
	if (IS_ERR(e->k) || kfsim_genl_register_family(e->k, &e->fam))
		return -1;
	e->root = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_ROOT);
	e->user = kfsim_nl_client_open_sim(e->k, &KFSIM_NL_CRED_USER);
	if (IS_ERR(e->root) || IS_ERR(e->user))
		return -1;
	e->ys = kfsim_ynl_sock_create(e->root, &ynl_ethtool_family, &err);
	e->ys_user = kfsim_ynl_sock_create(e->user, &ynl_ethtool_family, &err);
	if (!e->ys || !e->ys_user)
		return -1;
	memset(&plca_dev, 0, sizeof(plca_dev));
	plca_dev.node_id = 255;
	plca_dev.node_cnt = 8;
	plca_dev.to_tmr = 32;
	plca_dev.burst_tmr = 128;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	ynl_sock_destroy(e->ys);
	ynl_sock_destroy(e->ys_user);
	kfsim_nl_client_close(e->root);
	kfsim_nl_client_close(e->user);
	kfsim_genl_unregister_family(&e->fam);
	kfsim_nl_kernel_destroy(e->k);
	free(e);
	return 0;
}

static struct ethtool_plca_set_cfg_req *set_req(void)
{
	struct ethtool_plca_set_cfg_req *req = ethtool_plca_set_cfg_req_alloc();

	assert_non_null(req);
	ethtool_plca_set_cfg_req_set_header_dev_name(req, "eth0");
	return req;
}

static void test_set_then_get_round_trips(void **state)
{
	struct env *e = *state;
	struct ethtool_plca_set_cfg_req *req = set_req();
	struct ethtool_plca_get_cfg_req *get = ethtool_plca_get_cfg_req_alloc();
	struct ethtool_plca_get_cfg_rsp *rsp;

	ethtool_plca_set_cfg_req_set_enabled(req, 1);
	ethtool_plca_set_cfg_req_set_node_id(req, 0);
	ethtool_plca_set_cfg_req_set_node_cnt(req, 5);
	assert_int_equal(ethtool_plca_set_cfg(e->ys, req), 0);
	ethtool_plca_get_cfg_req_set_header_dev_index(get, 2);
	rsp = ethtool_plca_get_cfg(e->ys, get);
	assert_non_null(rsp);
	assert_int_equal(e->ys->err.code, 0);
	assert_true(rsp->_present.enabled && rsp->_present.node_cnt && rsp->_present.version);
	assert_int_equal(rsp->enabled, 1);
	assert_int_equal(rsp->node_id, 0);
	assert_int_equal(rsp->node_cnt, 5);
	assert_int_equal(rsp->to_tmr, 32);
	assert_int_equal(rsp->version, 0x10);
	assert_false(rsp->_present.status);
	assert_true(rsp->_present.header);
	assert_int_equal(rsp->header._present.dev_name_len, 4);
	assert_string_equal(rsp->header.dev_name, "eth0");
	assert_int_equal(rsp->header.dev_index, 2);
	ethtool_plca_get_cfg_rsp_free(rsp);
	ethtool_plca_get_cfg_req_free(get);
	ethtool_plca_set_cfg_req_free(req);
}

static void test_out_of_range_is_erange_naming_the_attribute(void **state)
{
	struct env *e = *state;
	struct ethtool_plca_set_cfg_req *req = set_req();
	const struct kfsim_nl_error *nl;

	ethtool_plca_set_cfg_req_set_node_cnt(req, 0);
	assert_int_equal(ethtool_plca_set_cfg(e->ys, req), -1);
	assert_int_equal(e->ys->err.code, ERANGE);	/* a positive errno, as the kernel's library */
	assert_int_equal(e->ys->err.attr_offs, 36);
	assert_string_equal(e->ys->err.msg,
			    "Kernel error: 'integer out of range' (bad attribute: .node-cnt)");
	nl = kfsim_ynl_sock_nl_err(e->ys);
	/* nlmsghdr 16 + genlmsghdr 4 + header nest 16 (DEV_NAME "eth0"): offset 36 (§1.6). */
	assert_true(nl->has_offs);
	assert_int_equal(nl->offs, 36);
	assert_true(nl->policy_len > 0);
	assert_int_equal(plca_dev.node_cnt, 8);	/* nothing changed */

	ethtool_plca_set_cfg_req_set_node_cnt(req, 8);
	ethtool_plca_set_cfg_req_set_enabled(req, 2);
	assert_int_equal(ethtool_plca_set_cfg(e->ys, req), -1);
	assert_int_equal(e->ys->err.code, ERANGE);
	assert_string_equal(e->ys->err.msg,
			    "Kernel error: 'integer out of range' (bad attribute: .enabled)");
	ethtool_plca_set_cfg_req_set_enabled(req, 1);
	ethtool_plca_set_cfg_req_set_node_id(req, 256);
	assert_int_equal(ethtool_plca_set_cfg(e->ys, req), -1);
	assert_int_equal(e->ys->err.code, ERANGE);
	assert_string_equal(e->ys->err.msg,
			    "Kernel error: 'integer out of range' (bad attribute: .node-id)");
	ethtool_plca_set_cfg_req_free(req);
}

static void test_nested_header_errors_name_the_path(void **state)
{
	struct env *e = *state;
	struct ethtool_plca_get_cfg_req *get = ethtool_plca_get_cfg_req_alloc();
	struct ethtool_plca_get_cfg_rsp *rsp;
	char name[200];

	/* ALTIFNAMSIZ - 1 = 127 characters fit; 128 do not. */
	memset(name, 'x', 128);
	name[128] = '\0';
	ethtool_plca_get_cfg_req_set_header_dev_name(get, name);
	rsp = ethtool_plca_get_cfg(e->ys, get);
	assert_null(rsp);
	assert_int_equal(e->ys->err.code, EINVAL);
	assert_string_equal(e->ys->err.msg,
			    "Kernel error: 'Attribute failed policy validation' (bad attribute: "
			    ".header.dev-name)");
	name[127] = '\0';
	ethtool_plca_get_cfg_req_set_header_dev_name(get, name);
	ethtool_plca_get_cfg_req_set_header_flags(get, 4);	/* STATS */
	assert_null(ethtool_plca_get_cfg(e->ys, get));
	assert_string_equal(e->ys->err.msg,
			    "Kernel error: 'reserved bit set' (bad attribute: .header.flags)");
	ethtool_plca_get_cfg_req_free(get);
}

static void test_missing_header_and_permissions(void **state)
{
	struct env *e = *state;
	struct ethtool_plca_get_status_req *get = ethtool_plca_get_status_req_alloc();
	struct ethtool_plca_get_status_rsp *rsp;
	struct ethtool_plca_set_cfg_req *req = set_req();

	assert_null(ethtool_plca_get_status(e->ys, get));
	assert_int_equal(e->ys->err.code, EINVAL);
	assert_string_equal(e->ys->err.msg, "Kernel error: missing attribute: .header");
	ethtool_plca_get_status_req_set_header_dev_name(get, "eth0");
	rsp = ethtool_plca_get_status(e->ys_user, get);	/* GET: anyone */
	assert_non_null(rsp);
	assert_true(rsp->_present.status);
	assert_int_equal(rsp->status, 1);
	ethtool_plca_get_status_rsp_free(rsp);
	ethtool_plca_set_cfg_req_set_enabled(req, 0);
	assert_int_equal(ethtool_plca_set_cfg(e->ys_user, req), -1);	/* uns-admin-perm */
	assert_int_equal(e->ys_user->err.code, EPERM);
	/* no extack: the kernel library's text is strerror() */
	assert_string_equal(e->ys_user->err.msg, "Operation not permitted");
	ethtool_plca_set_cfg_req_free(req);
	ethtool_plca_get_status_req_free(get);
}

static void test_a_malformed_reply_is_refused_by_the_user_side(void **state)
{
	struct env *e = *state;
	struct ethtool_plca_get_cfg_req *get = ethtool_plca_get_cfg_req_alloc();
	struct ethtool_plca_get_cfg_rsp *rsp;

	ethtool_plca_get_cfg_req_set_header_dev_name(get, "eth0");
	broken_version = true;
	rsp = ethtool_plca_get_cfg(e->ys, get);
	broken_version = false;
	assert_null(rsp);
	assert_int_equal(e->ys->err.code, YNL_ERROR_ATTR_INVALID);
	assert_string_equal(e->ys->err.msg, "Invalid attribute (u16 version)");
	/* The socket is still in step: the next request works. */
	rsp = ethtool_plca_get_cfg(e->ys, get);
	assert_non_null(rsp);
	assert_int_equal(e->ys->err.code, 0);
	assert_int_equal(rsp->version, 0x10);
	ethtool_plca_get_cfg_rsp_free(rsp);
	ethtool_plca_get_cfg_req_free(get);
}

static void test_dump_and_notification(void **state)
{
	struct env *e = *state;
	struct ethtool_plca_get_cfg_req_dump *dreq = ethtool_plca_get_cfg_req_dump_alloc();
	struct ethtool_plca_get_cfg_list *list;
	struct ethtool_plca_set_cfg_req *req = set_req();
	struct ynl_ntf_base_type *ntf;
	struct ethtool_plca_get_cfg_ntf *plca;
	int n = 0;

	list = ethtool_plca_get_cfg_dump(e->ys, dreq);
	assert_non_null(list);
	assert_false(ynl_dump_empty(list));
	ynl_dump_foreach(list, it) {
		assert_int_equal(it->node_cnt, 8);
		n++;
	}
	assert_int_equal(n, 1);
	ethtool_plca_get_cfg_list_free(list);

	assert_int_equal(ynl_subscribe(e->ys_user, "no-such-group"), -1);
	assert_int_equal(e->ys_user->err.code, ENOENT);
	assert_string_equal(e->ys_user->err.msg, "Multicast group 'no-such-group' not found");
	assert_int_equal(ynl_subscribe(e->ys_user, ETHTOOL_MCGRP_MONITOR_NAME), 0);
	ethtool_plca_set_cfg_req_set_to_tmr(req, 40);
	assert_int_equal(ethtool_plca_set_cfg(e->ys, req), 0);
	assert_false(ynl_has_ntf(e->ys_user));	/* only parsed ones count */
	assert_int_equal(ynl_ntf_check(e->ys_user), 0);
	assert_true(ynl_has_ntf(e->ys_user));
	assert_int_equal(ynl_socket_get_fd(e->ys_user), -1);	/* in-process: nothing to poll */
	ntf = ynl_ntf_dequeue(e->ys_user);
	assert_non_null(ntf);
	assert_int_equal(ntf->cmd, ETHTOOL_MSG_PLCA_NTF);
	plca = (struct ethtool_plca_get_cfg_ntf *)ntf;
	assert_int_equal(plca->obj.to_tmr, 40);
	assert_string_equal(plca->obj.header.dev_name, "eth0");
	/* the object sits where the kernel library's samples look for it */
	assert_ptr_equal((void *)&plca->obj, (void *)ntf->data);
	ynl_ntf_free(ntf);
	assert_null(ynl_ntf_dequeue(e->ys_user));
	assert_false(ynl_has_ntf(e->ys_user));
	ethtool_plca_set_cfg_req_free(req);
	ethtool_plca_get_cfg_req_dump_free(dreq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_set_then_get_round_trips, setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_of_range_is_erange_naming_the_attribute,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_nested_header_errors_name_the_path, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_header_and_permissions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_malformed_reply_is_refused_by_the_user_side,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_dump_and_notification, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
