// SPDX-License-Identifier: MIT
/*
 * The kernel that `kfsim kernel` and the netlink shim (libkfsim-netlink.so) stand in with: every
 * built-in family (<kfsim/genl_builtin.h>) on one namespace, whose PLCA part then gets the
 * built-in segment or the devices of a --config file.
 */
#include <kfsim/err.h>
#include <kfsim/genl_builtin.h>
#include <kfsim/plca.h>

struct kfsim_plca_net *kfsim_standin_net_create(const char *config, char *err, size_t err_size)
{
	struct kfsim_net *ns = kfsim_net_create_builtin(err, err_size);
	struct kfsim_plca_net *net;
	int ret;

	if (IS_ERR(ns))
		return ERR_CAST(ns);
	net = kfsim_plca_net_of(ns); /* the ethtool row attached it */
	if (!net) {
		snprintf(err, err_size, "no PLCA namespace among the built-in families");
		ret = -ENOENT;
	} else if (config) {
		ret = kfsim_plca_net_load_into(net, config, err, err_size);
	} else {
		ret = kfsim_plca_net_add_builtin_segment(net);
		if (ret)
			snprintf(err, err_size, "cannot build the built-in segment");
	}
	if (ret) {
		kfsim_net_destroy(ns);
		return ERR_PTR(ret);
	}
	return net;
}
