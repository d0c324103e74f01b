// SPDX-License-Identifier: MIT
/*
 * Which interface names the stand-in kernel owns, for the netlink shim's interface ioctls: the
 * shim asks here and names no family.  Of the built-in families only ethtool has devices; its
 * requests carry a header naming one, and a kernel without that device answers -ENODEV
 * (ethnl_parse_header_dev_get(), 6.3+ for the PLCA GET asked here).
 */
#include <kfsim/err.h>
#include <kfsim/nl_server.h>
#include <kfsim/plca.h>

int kfsim_standin_owns_dev(const char *path, const char *name)
{
	struct kfsim_ethtool_chan *chan;
	struct kfsim_nl_error ack = { 0 };
	u8 req[256];
	int len, ret;

	if (!path || !*path) {
		ret = kfsim_standin_inproc_start(&path);
		if (ret)
			return ret;
	}
	chan = kfsim_ethtool_chan_server(path);
	if (IS_ERR(chan))
		return (int)PTR_ERR(chan);	/* nobody to ask */
	len = kfsim_ethtool_plca_request(req, sizeof(req), kfsim_ethtool_chan_family(chan),
					 ETHTOOL_MSG_PLCA_GET_CFG, NLM_F_REQUEST | NLM_F_ACK, 0,
					 name, 0, NULL, 0);
	ret = len > 0 ? kfsim_ethtool_chan_transact(chan, req, (size_t)len, NULL, NULL, &ack)
		      : len;
	kfsim_ethtool_chan_close(chan);
	if (ret)
		return ret < 0 ? ret : -EPROTO;
	return ack.error != -ENODEV;
}
