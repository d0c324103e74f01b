// SPDX-License-Identifier: MIT
/*
 * The same program on libmnl, as its users write one: resolve ethtool with CTRL_CMD_GETFAMILY,
 * GET eth0's PLCA configuration or SET node-cnt, print "node-cnt N" / "ok" / the error and the
 * extack message.  Run unmodified under LD_PRELOAD=libkfsim-netlink.so by the tests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
/*
 * The ethtool uapi as of Linux 6.3+ (PLCA).  Debian 12's linux-libc-dev (6.1) predates PLCA, so
 * the build gives the header kfsim-ynl-gen made from specs/ethtool.yaml, which the YNL
 * conformance test keeps identical to the kernel's for these enums.
 */
#include "ethtool-uapi.h"
#include <linux/genetlink.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

static int family_cb(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID)
		*(int *)data = mnl_attr_get_u16(attr);
	return MNL_CB_OK;
}

static int family_reply(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_cb, data);
}

static int plca_cb(const struct nlattr *attr, void *data)
{
	if (mnl_attr_get_type(attr) == ETHTOOL_A_PLCA_NODE_CNT)
		*(int *)data = (int)mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

static int plca_reply(const struct nlmsghdr *nlh, void *data)
{
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), plca_cb, data);
}

static int talk(struct mnl_socket *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	unsigned int portid = mnl_socket_get_portid(nl), seq = nlh->nlmsg_seq;
	int ret;

	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	while ((ret = mnl_socket_recvfrom(nl, buf, sizeof(buf))) > 0) {
		ret = mnl_cb_run(buf, ret, seq, portid, cb, data);
		if (ret <= MNL_CB_STOP)
			break;
	}
	return ret < 0 ? -errno : 0;
}

int main(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);
	int family = -1, node_cnt = -1, one = 1, ret;
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;
	struct nlattr *hdr;

	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("libmnl: socket");
		return 1;
	}
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = (unsigned int)time(NULL);
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = CTRL_CMD_GETFAMILY;
	genl->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ETHTOOL_GENL_NAME);
	ret = talk(nl, nlh, family_reply, &family);
	if (ret < 0 || family < 0) {
		fprintf(stderr, "libmnl: no ethtool family: %s\n", strerror(-ret));
		return 1;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = (unsigned short)family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = (unsigned int)time(NULL) + 1;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = argc > 1 ? ETHTOOL_MSG_PLCA_SET_CFG : ETHTOOL_MSG_PLCA_GET_CFG;
	genl->version = 1;
	hdr = mnl_attr_nest_start(nlh, ETHTOOL_A_PLCA_HEADER);
	mnl_attr_put_strz(nlh, ETHTOOL_A_HEADER_DEV_NAME, "eth0");
	mnl_attr_nest_end(nlh, hdr);
	if (argc > 1)
		mnl_attr_put_u32(nlh, ETHTOOL_A_PLCA_NODE_CNT, (uint32_t)strtoul(argv[1], NULL, 0));
	ret = talk(nl, nlh, plca_reply, &node_cnt);
	if (ret < 0)
		printf("error %d (%s)\n", ret, strerror(-ret));
	else if (argc > 1)
		printf("ok\n");
	else
		printf("node-cnt %d\n", node_cnt);
	mnl_socket_close(nl);
	return ret < 0;
}
