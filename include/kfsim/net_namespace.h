/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NET_NAMESPACE_H
#define KFSIM_NET_NAMESPACE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * A network namespace (include/net/net_namespace.h's struct net, reduced): one in-process
 * generic netlink kernel (<kfsim/nl_client.h>) and what each subsystem keeps per namespace,
 * found by the subsystem's own ops as the kernel finds it with net_generic(net, id).  The
 * namespace names none of its subsystems: PLCA attaches its devices and its ethtool family
 * (kfsim_plca_net_init(), <kfsim/plca.h>), other families register on kfsim_net_nl().
 *
 * Teardown, as cleanup_net() orders it: sockets closed and families unregistered first (each
 * handed to its destroy hook, struct genl_family), then every subsystem's exit, last attached
 * first.  Not thread-safe: a namespace belongs to one thread at a time.
 */
#include <kfsim/types.h>

struct kfsim_net;
struct kfsim_nl_kernel;

/**
 * struct kfsim_pernet_ops - a subsystem's part of a namespace (struct pernet_operations)
 * @name: for messages
 * @exit: free the subsystem's @data of @net (called by kfsim_net_destroy(), after the netlink
 *        kernel is gone); may be NULL
 */
struct kfsim_pernet_ops {
	const char *name;
	void (*exit)(struct kfsim_net *net, void *data);
};

/**
 * kfsim_net_create() - a namespace with its netlink kernel (nlctrl registered) and no subsystem
 *
 * Return: the namespace, or ERR_PTR(-ENOMEM).
 */
struct kfsim_net *kfsim_net_create(void);

/** kfsim_net_destroy() - tear @net down (see above); NULL is ignored. */
void kfsim_net_destroy(struct kfsim_net *net);

/** kfsim_net_nl() - the namespace's in-process netlink kernel. */
struct kfsim_nl_kernel *kfsim_net_nl(const struct kfsim_net *net);

/**
 * kfsim_net_attach() - give @net the subsystem @ops with its @data
 *
 * Return: 0; -EINVAL for a NULL argument; -EEXIST when @ops is attached already; -ENOMEM.
 */
int kfsim_net_attach(struct kfsim_net *net, const struct kfsim_pernet_ops *ops, void *data);

/** kfsim_net_generic() - the data @ops attached to @net (net_generic()), or NULL. */
void *kfsim_net_generic(const struct kfsim_net *net, const struct kfsim_pernet_ops *ops);

#pragma GCC visibility pop
#endif /* KFSIM_NET_NAMESPACE_H */
