// SPDX-License-Identifier: MIT
/*
 * Simulated network devices in a namespace, and the mixing segments their PHYs share.
 *
 * Invariants: devices are kept sorted by ifindex; names and indexes are unique; a device's PHY
 * belongs to the device (freed with it); a PHY's segment pointer points into its namespace.
 * PLCA_STATUS.PST is not stored: it is worked out from the segment whenever it is read, so it
 * follows every configuration change on any node at once.
 */
#include <ctype.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/slab.h>
#include "plca_internal.h"


/* The namespace is going away, its netlink kernel (and so the ethtool family) already gone. */
static void plca_net_exit(struct kfsim_net *ns, void *data)
{
	struct kfsim_plca_net *net = data;

	for (int i = 0; i < net->nr_devs; i++) {
		kfsim_phy_destroy(net->devs[i]->phydev);
		kfree(net->devs[i]);
	}
	kfree(net);
}

static const struct kfsim_pernet_ops plca_net_ops = {
	.name = "plca",
	.exit = plca_net_exit,
};

int kfsim_plca_net_init(struct kfsim_net *ns)
{
	struct kfsim_plca_net *net;
	int ret;

	if (!ns)
		return -EINVAL;
	net = kzalloc(sizeof(*net), GFP_KERNEL);
	if (!net)
		return -ENOMEM;
	for (int i = 0; i < KFSIM_PLCA_MAX_SEGMENTS; i++)
		net->segments[i] = (struct kfsim_plca_segment){ .net = net, .id = i };
	net->phy_ops = &phy_ethtool_phy_ops;
	net->ns = ns;
	ret = kfsim_net_attach(ns, &plca_net_ops, net);
	if (ret) {
		kfree(net);
		return ret;
	}
	/* on failure the namespace's teardown frees @net */
	return kfsim_plca_register_family(net);
}

struct kfsim_plca_net *kfsim_plca_net_of(const struct kfsim_net *ns)
{
	return kfsim_net_generic(ns, &plca_net_ops);
}

struct kfsim_net *kfsim_plca_net_ns(const struct kfsim_plca_net *net)
{
	return net->ns;
}

struct kfsim_plca_net *kfsim_plca_net_create(void)
{
	struct kfsim_net *ns = kfsim_net_create();

	if (IS_ERR(ns))
		return NULL;
	if (kfsim_plca_net_init(ns)) {
		kfsim_net_destroy(ns);
		return NULL;
	}
	return kfsim_plca_net_of(ns);
}

void kfsim_plca_net_destroy(struct kfsim_plca_net *net)
{
	/* Closes the sockets still open, unregisters the families, then frees the devices. */
	if (net)
		kfsim_net_destroy(net->ns);
}

/* dev_valid_name(): what the kernel accepts as an interface name. */
static bool dev_valid_name(const char *name)
{
	size_t len = strlen(name);

	if (!len || len >= IFNAMSIZ || !strcmp(name, ".") || !strcmp(name, ".."))
		return false;
	for (; *name; name++)
		if (*name == '/' || *name == ':' || isspace((unsigned char)*name))
			return false;
	return true;
}

struct net_device *dev_get_by_name(struct kfsim_plca_net *net, const char *name)
{
	for (int i = 0; i < net->nr_devs; i++)
		if (!strcmp(net->devs[i]->name, name))
			return net->devs[i];
	return NULL;
}

struct net_device *dev_get_by_index(struct kfsim_plca_net *net, int ifindex)
{
	for (int i = 0; i < net->nr_devs; i++)
		if (net->devs[i]->ifindex == ifindex)
			return net->devs[i];
	return NULL;
}

struct net_device *kfsim_plca_net_dev_at(struct kfsim_plca_net *net, int i)
{
	return i >= 0 && i < net->nr_devs ? net->devs[i] : NULL;
}

void kfsim_plca_net_set_phy_ops(struct kfsim_plca_net *net, const struct ethtool_phy_ops *ops)
{
	net->phy_ops = ops;
}

static int next_ifindex(struct kfsim_plca_net *net)
{
	return net->nr_devs ? net->devs[net->nr_devs - 1]->ifindex + 1 : 1;
}

struct net_device *kfsim_plca_net_add_dev(struct kfsim_plca_net *net, const char *name,
					  int ifindex, bool with_phy, enum kfsim_phy_model model,
					  int segment)
{
	struct net_device *dev;
	int pos;

	if (!dev_valid_name(name) || ifindex < 0 || segment < 0 ||
	    segment >= KFSIM_PLCA_MAX_SEGMENTS)
		return ERR_PTR(-EINVAL);
	if (!ifindex)
		ifindex = next_ifindex(net);
	if (dev_get_by_name(net, name) || dev_get_by_index(net, ifindex))
		return ERR_PTR(-EEXIST);
	if (net->nr_devs >= KFSIM_PLCA_MAX_DEVS)
		return ERR_PTR(-ENOSPC);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	snprintf(dev->name, sizeof(dev->name), "%s", name);
	dev->ifindex = ifindex;
	netdev_register_features(dev);
	if (with_phy) {
		char phy_name[32];

		snprintf(phy_name, sizeof(phy_name), "%s-phy", name);
		dev->phydev = kfsim_phy_create(model, phy_name);
		if (IS_ERR(dev->phydev)) {
			long err = PTR_ERR(dev->phydev);

			kfree(dev);
			return ERR_PTR(err);
		}
		dev->phydev->segment = &net->segments[segment];
	}
	for (pos = net->nr_devs; pos > 0 && net->devs[pos - 1]->ifindex > ifindex; pos--)
		net->devs[pos] = net->devs[pos - 1];
	net->devs[pos] = dev;
	net->nr_devs++;
	return dev;
}

static bool plca_enabled(const struct phy_device *phydev)
{
	return kfsim_phy_peek(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0) &
	       MDIO_OATC14_PLCA_EN;
}

static int plca_node_id(const struct phy_device *phydev)
{
	return kfsim_phy_peek(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL1) &
	       MDIO_OATC14_PLCA_ID;
}

bool kfsim_plca_segment_pst(struct phy_device *phydev)
{
	struct kfsim_plca_segment *segment = phydev->segment;

	if (!plca_enabled(phydev) || plca_node_id(phydev) == 255)
		return false;
	if (plca_node_id(phydev) == 0)
		return true;	/* the coordinator sends the BEACONs */
	if (!segment)
		return false;
	for (int i = 0; i < segment->net->nr_devs; i++) {
		struct phy_device *other = segment->net->devs[i]->phydev;

		if (other && other->segment == segment && plca_enabled(other) &&
		    plca_node_id(other) == 0)
			return true;
	}
	return false;
}

static int configure(struct net_device *dev, int enabled, int node_id, int node_cnt)
{
	struct phy_plca_cfg cfg = { -1, enabled, node_id, node_cnt, -1, -1, -1 };

	return phy_ethtool_set_plca_cfg(dev->phydev, &cfg, NULL);
}

int kfsim_plca_net_add_builtin_segment(struct kfsim_plca_net *net)
{
	struct net_device *dev;
	int ret;

	dev = kfsim_plca_net_add_dev(net, "lo", 1, false, 0, 0);
	if (IS_ERR(dev))
		return (int)PTR_ERR(dev);
	dev = kfsim_plca_net_add_dev(net, "eth0", 2, true, KFSIM_PHY_LAN8670_REVB1, 0);
	if (IS_ERR(dev))
		return (int)PTR_ERR(dev);
	ret = configure(dev, 1, 0, 8);
	if (ret)
		return ret;
	dev = kfsim_plca_net_add_dev(net, "eth1", 3, true, KFSIM_PHY_NCN26000, 0);
	if (IS_ERR(dev))
		return (int)PTR_ERR(dev);
	ret = configure(dev, 1, 1, -1);
	if (ret)
		return ret;
	dev = kfsim_plca_net_add_dev(net, "eth2", 4, true, KFSIM_PHY_OA_TC14, 0);
	if (IS_ERR(dev))
		return (int)PTR_ERR(dev);
	dev = kfsim_plca_net_add_dev(net, "eth3", 5, true, KFSIM_PHY_NO_PLCA, 1);
	if (IS_ERR(dev))
		return (int)PTR_ERR(dev);
	for (int i = 0; i < net->nr_devs; i++)
		if (net->devs[i]->phydev)
			net->devs[i]->phydev->mdio_writes = net->devs[i]->phydev->mdio_logged = 0;
	return 0;
}

struct kfsim_plca_net *kfsim_plca_net_default(void)
{
	struct kfsim_plca_net *net = kfsim_plca_net_create();

	if (net && kfsim_plca_net_add_builtin_segment(net)) {
		kfsim_plca_net_destroy(net);
		return NULL;
	}
	return net;
}
