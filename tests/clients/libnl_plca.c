// SPDX-License-Identifier: MIT
/*
 * A netlink program of our own on libnl-3, written as for Linux and nothing else: resolve the
 * ethtool family, then either GET eth0's PLCA configuration (print "node-cnt N") or, with an
 * argument, SET node-cnt to it (print "ok" or the error and the extack message).  The tests
 * run it unmodified under LD_PRELOAD=libkfsim-netlink.so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/*
 * The ethtool uapi as of Linux 6.3+ (PLCA).  Debian 12's linux-libc-dev (6.1) predates PLCA, so
 * the build gives the header kfsim-ynl-gen made from specs/ethtool.yaml, which the YNL
 * conformance test keeps identical to the kernel's for these enums.
 */
#include "ethtool-uapi.h"
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

static int on_reply(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[ETHTOOL_A_PLCA_MAX + 1];

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, ETHTOOL_A_PLCA_MAX, NULL) < 0)
		return NL_SKIP;
	if (tb[ETHTOOL_A_PLCA_NODE_CNT])
		*(int *)arg = (int)nla_get_u32(tb[ETHTOOL_A_PLCA_NODE_CNT]);
	return NL_OK;
}

static int on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	(void)who;
	*(int *)arg = e->error;
	return NL_STOP;
}

int main(int argc, char **argv)
{
	struct nl_sock *sk = nl_socket_alloc();
	int family, node_cnt = -1, err = 0, ret;
	struct nl_msg *msg;
	struct nlattr *hdr;
	struct nl_cb *cb;

	if (!sk || genl_connect(sk)) {
		fprintf(stderr, "libnl: cannot open a generic netlink socket\n");
		return 1;
	}
	family = genl_ctrl_resolve(sk, ETHTOOL_GENL_NAME);
	if (family < 0) {
		fprintf(stderr, "libnl: no ethtool family: %s\n", nl_geterror(family));
		return 1;
	}
	msg = nlmsg_alloc();
	genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_REQUEST | NLM_F_ACK,
		    argc > 1 ? ETHTOOL_MSG_PLCA_SET_CFG : ETHTOOL_MSG_PLCA_GET_CFG, 1);
	hdr = nla_nest_start(msg, ETHTOOL_A_PLCA_HEADER);
	nla_put_string(msg, ETHTOOL_A_HEADER_DEV_NAME, "eth0");
	nla_nest_end(msg, hdr);
	if (argc > 1)
		nla_put_u32(msg, ETHTOOL_A_PLCA_NODE_CNT, (uint32_t)strtoul(argv[1], NULL, 0));
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_reply, &node_cnt);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &err);
	ret = nl_send_auto(sk, msg);
	if (ret >= 0)
		ret = nl_recvmsgs(sk, cb);
	if (ret >= 0 && !err && argc <= 1)
		ret = nl_wait_for_ack(sk);
	if (err) {
		printf("error %d (%s)\n", err, strerror(-err));
	} else if (ret < 0) {
		printf("libnl error: %s\n", nl_geterror(ret));
	} else if (argc > 1) {
		printf("ok\n");
	} else {
		printf("node-cnt %d\n", node_cnt);
	}
	nlmsg_free(msg);
	nl_cb_put(cb);
	nl_socket_free(sk);
	return err || ret < 0;
}
