// SPDX-License-Identifier: MIT
/*
 * Network namespaces (<kfsim/net_namespace.h>): a netlink kernel plus a list of subsystem parts,
 * each found by its ops pointer.  Invariant: an ops pointer appears at most once per namespace.
 */
#include <kfsim/err.h>
#include <kfsim/net_namespace.h>
#include <kfsim/nl_client.h>
#include <kfsim/slab.h>

struct kfsim_pernet {
	const struct kfsim_pernet_ops *ops;
	void *data;
	struct kfsim_pernet *next; /* newest first: exits run in that order */
};

struct kfsim_net {
	struct kfsim_nl_kernel *nlk;
	struct kfsim_pernet *subsys;
};

struct kfsim_net *kfsim_net_create(void)
{
	struct kfsim_net *net = kzalloc(sizeof(*net), GFP_KERNEL);

	if (!net)
		return ERR_PTR(-ENOMEM);
	net->nlk = kfsim_nl_kernel_create();
	if (IS_ERR(net->nlk)) {
		long err = PTR_ERR(net->nlk);

		kfree(net);
		return ERR_PTR(err);
	}
	return net;
}

void kfsim_net_destroy(struct kfsim_net *net)
{
	if (IS_ERR_OR_NULL(net))
		return;
	kfsim_nl_kernel_destroy(net->nlk);
	while (net->subsys) {
		struct kfsim_pernet *part = net->subsys;

		net->subsys = part->next;
		if (part->ops->exit)
			part->ops->exit(net, part->data);
		kfree(part);
	}
	kfree(net);
}

struct kfsim_nl_kernel *kfsim_net_nl(const struct kfsim_net *net)
{
	return net->nlk;
}

int kfsim_net_attach(struct kfsim_net *net, const struct kfsim_pernet_ops *ops, void *data)
{
	struct kfsim_pernet *part;

	if (!net || !ops)
		return -EINVAL;
	for (part = net->subsys; part; part = part->next) {
		if (part->ops == ops)
			return -EEXIST;
	}
	part = kzalloc(sizeof(*part), GFP_KERNEL);
	if (!part)
		return -ENOMEM;
	*part = (struct kfsim_pernet){.ops = ops, .data = data, .next = net->subsys};
	net->subsys = part;
	return 0;
}

void *kfsim_net_generic(const struct kfsim_net *net, const struct kfsim_pernet_ops *ops)
{
	for (const struct kfsim_pernet *part = net ? net->subsys : NULL; part; part = part->next) {
		if (part->ops == ops)
			return part->data;
	}
	return NULL;
}
