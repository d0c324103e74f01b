// SPDX-License-Identifier: MIT
/*
 * Join eth2 of kfsim's built-in segment as PLCA node 2, the way ethtool does it, and print
 * what the monitor group hears: cc plca_join.c $(pkg-config --cflags --libs kfsim)
 */
#include <stdio.h>
#include <linux/netlink.h>
#include <kfsim/err.h>
#include <kfsim/plca.h>

int main(void)
{
	static const struct kfsim_plca_attr join[] = {
		{ ETHTOOL_A_PLCA_NODE_ID, 2 }, { ETHTOOL_A_PLCA_ENABLED, 1 },
	};
	struct kfsim_plca_net *net = kfsim_plca_net_default();
	struct kfsim_nl_sock *monitor = kfsim_nl_sock_open(kfsim_plca_net_kernel(net),
							     &KFSIM_NL_CRED_USER);
	struct kfsim_ethtool_chan *chan = kfsim_ethtool_chan_inproc(net, true);
	struct kfsim_plca_reply ntf;
	struct kfsim_nl_error ack;
	unsigned char req[256], msg[4096];
	long len;

	if (IS_ERR(chan) || IS_ERR(monitor))
		return 1;
	kfsim_nl_sock_setsockopt(monitor, NETLINK_ADD_MEMBERSHIP, kfsim_plca_net_monitor_group(net));
	len = kfsim_ethtool_plca_request(req, sizeof(req), kfsim_ethtool_chan_family(chan),
					 ETHTOOL_MSG_PLCA_SET_CFG, NLM_F_REQUEST | NLM_F_ACK, 1,
					 "eth2", 0, join, 2);
	if (kfsim_ethtool_chan_transact(chan, req, len, NULL, NULL, &ack) || ack.error) {
		kfsim_ethtool_print_ack_error(stderr, &ack);
		return 1;
	}
	len = kfsim_nl_sock_recv(monitor, msg, sizeof(msg));
	if (len > 0 && !kfsim_ethtool_plca_parse(msg, len, &ntf))
		kfsim_ethtool_plca_print(stdout, &ntf, false);	/* as "ethtool --monitor" shows it */
	kfsim_ethtool_chan_close(chan);
	kfsim_plca_net_destroy(net);
	return 0;
}
