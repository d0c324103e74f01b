// SPDX-License-Identifier: MIT
/*
 * Generic netlink plugged into the netlink core, per namespace (net/netlink/genetlink.c's
 * genl_pernet_init() and genl_init(), Linux 6.12): the NETLINK_GENERIC kernel socket, whose
 * input is genl_rcv() and whose bind callback is genl_bind(), and nlctrl, registered by generic
 * netlink's own init.  The netlink core (af_netlink.c) knows none of this.
 *
 * kfsim_nl_kernel_create() is what creating a namespace does in the kernel: the core's tables,
 * then each protocol's pernet init; generic netlink is the one protocol kfsim has.  The kernel
 * registers nlctrl once, before any namespace exists, and keeps families global; kfsim's
 * kernels are values, so each has its own families and registers its own nlctrl, after its
 * kernel socket.
 */
#include "nl_internal.h"

struct genl_net *kfsim_genl_net(const struct kfsim_nl_kernel *k)
{
	return kfsim_netlink_kernel_data(kfsim_netlink_kernel_sock(k, NETLINK_GENERIC));
}

static void genl_release(void *user_data)
{
	kfree(user_data);
}

/* genl_pernet_init(): the kernel socket, with the group bitmap generic netlink starts with. */
static int genl_pernet_init(struct kfsim_nl_kernel *net)
{
	struct genl_net *gn = kzalloc(sizeof(*gn), GFP_KERNEL);
	struct netlink_kernel_cfg cfg = {
		.input = kfsim_genl_rcv,
		.flags = NL_CFG_F_NONROOT_RECV,
		.bind = kfsim_genl_bind,
		.release = genl_release,
		.user_data = gn,
	};

	if (!gn)
		return -ENOMEM;
	gn->next_family_id = GENL_START_ALLOC;
	/* mc_group_start: group ids 0, 1 and the three fixed families' ids are reserved */
	gn->mc_groups[0] = 0x3 | BIT(GENL_ID_CTRL) | BIT(GENL_ID_VFS_DQUOT) | BIT(GENL_ID_PMCRAID);
	gn->mc_groups_longs = 1;
	gn->sock = netlink_kernel_create(net, NETLINK_GENERIC, &cfg);
	if (!gn->sock) {
		kfree(gn);
		return -ENOMEM;
	}
	return 0;
}

/* genl_init(): generic netlink in @net, with nlctrl registered as GENL_ID_CTRL. */
static int genl_init(struct kfsim_nl_kernel *net)
{
	struct genl_net *gn;
	int err;

	err = genl_pernet_init(net);
	if (err)
		return err;
	gn = kfsim_genl_net(net);
	kfsim_genl_ctrl_init(&gn->ctrl);
	return kfsim_genl_family_register_locked(net, &gn->ctrl, GENL_ID_CTRL);
}

struct kfsim_nl_kernel *kfsim_nl_kernel_create(void)
{
	struct kfsim_nl_kernel *net = kfsim_netlink_net_create();
	int err;

	if (IS_ERR(net))
		return net;
	err = genl_init(net);
	if (err) {
		kfsim_netlink_net_destroy(net);
		return ERR_PTR(err);
	}
	return net;
}

/*
 * Every family leaves (its dumps end, its listeners leave its groups) and is handed to its
 * destroy hook; then the core closes the sockets and releases generic netlink's kernel socket
 * (genl_pernet_exit()), which frees generic netlink's state.
 */
void kfsim_nl_kernel_destroy(struct kfsim_nl_kernel *k)
{
	struct genl_net *gn;

	if (!k)
		return;
	gn = kfsim_genl_net(k);
	while (gn && gn->families) {
		struct genl_family *family = gn->families;

		kfsim_genl_unregister_family(family);
		if (family->destroy)
			family->destroy(family);
	}
	kfsim_netlink_net_destroy(k);
}
