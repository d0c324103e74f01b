// SPDX-License-Identifier: MIT
/*
 * The kernel that `kfsim kernel` and the netlink shim (libkfsim-netlink.so) stand in with: a
 * PLCA namespace (the built-in segment or a --config file, with the ethtool family) plus every
 * other family kfsim has built in (the demo family), all on one in-process netlink kernel.
 */
#include <kfsim/err.h>
#include <kfsim/nl_demo.h>
#include <kfsim/plca.h>

struct kfsim_plca_net *kfsim_standin_net_create(const char *config, char *err, size_t err_size)
{
	struct kfsim_plca_net *net;
	int ret;

	if (config) {
		net = kfsim_plca_net_load(config, err, err_size);
		if (IS_ERR(net))
			return net;
	} else {
		net = kfsim_plca_net_default();
		if (!net) {
			snprintf(err, err_size, "cannot build the built-in segment");
			return ERR_PTR(-ENOMEM);
		}
	}
	ret = kfsim_nl_demo_register(kfsim_plca_net_kernel(net));
	if (ret) {
		snprintf(err, err_size, "cannot register the %s family", KFSIM_DEMO_FAMILY_NAME);
		kfsim_plca_net_destroy(net);
		return ERR_PTR(ret);
	}
	return net;
}
