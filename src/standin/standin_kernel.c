// SPDX-License-Identifier: MIT
/*
 * The kernel that `kfsim kernel` and the netlink shim (libkfsim-netlink.so) stand in with: every
 * built-in family (<kfsim/genl_builtin.h>) on one namespace, returned as the namespace.  The
 * one option, --config, is the ethtool family's own (its devices): handed to it unread.
 */
#include <kfsim/err.h>
#include <kfsim/genl_builtin.h>
#include <kfsim/nl_server.h>
#include <kfsim/plca.h>

struct kfsim_net *kfsim_standin_net_create(const char *config, char *err, size_t err_size)
{
	struct kfsim_net *ns = kfsim_net_create_builtin(err, err_size);
	int ret;

	if (IS_ERR(ns))
		return ns;
	ret = kfsim_plca_net_configure(ns, config, err, err_size);
	if (ret) {
		kfsim_net_destroy(ns);
		return ERR_PTR(ret);
	}
	return ns;
}
