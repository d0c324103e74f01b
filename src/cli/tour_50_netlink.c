// SPDX-License-Identifier: MIT
/*
 * Tour step "netlink": a generic netlink request through kfsim's in-process kernel, refused
 * the way the running kernel refuses it (errno, extack text, offset of the bad attribute),
 * then a permission refusal, a dump across small buffers, and, when the machine allows, the
 * running kernel's own nlctrl policy compared with kfsim's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/netlink.h>
#include <kfsim/nl_demo.h>
#include "cli.h"

static struct sk_buff *demo_set(u16 family_id, u32 id, u16 port)
{
	struct sk_buff *skb = nlmsg_new(256, GFP_KERNEL);
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;

	if (!skb)
		return NULL;
	nlh = nlmsg_put(skb, 0, 0, family_id, GENL_HDRLEN, NLM_F_REQUEST);
	g = nlmsg_data(nlh);
	g->cmd = KFSIM_DEMO_CMD_SET;
	g->version = 1;
	nla_put_u32(skb, KFSIM_DEMO_A_ID, id);
	nla_put_string(skb, KFSIM_DEMO_A_NAME, "tour");
	nla_put_u16(skb, KFSIM_DEMO_A_PORT, port);
	nlmsg_end(skb, nlh);
	return skb;
}

struct refused {
	const struct sk_buff *skb;
	long offs;
};

static int write_refused(FILE *out, const void *arg)
{
	const struct refused *r = arg;

	return kfsim_nl_svg_message(out, r->skb->data, r->skb->len, r->offs,
				    "kfsim_demo SET refused: -ERANGE \"integer out of range\"");
}

/* The picture is a bonus: a failure to write it is reported and the step goes on. */
static void write_svg(struct kfsim_tour_ctx *ctx, const struct sk_buff *skb, long offs)
{
	int ret = kfsim_tour_write(ctx, "netlink-request.svg", write_refused,
				   &(struct refused){ skb, offs });

	if (ret)
		fprintf(stderr, "kfsim tour: netlink-request.svg not written: -%s\n",
			kfsim_errname(ret));
}

static int count(const struct nlmsghdr *nlh, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

static void compare_with_kernel(FILE *out, struct kfsim_nl_client *sim)
{
	struct kfsim_nl_client *kern = kfsim_nl_client_open_kernel();
	struct kfsim_nl_policy_dump *a, *b;
	char la[128], lb[128];
	bool same = true;

	if (IS_ERR(kern)) {
		fprintf(out, "Running kernel: no netlink socket here (-%s); comparison skipped.\n",
			kfsim_errname((int)PTR_ERR(kern)));
		return;
	}
	a = calloc(1, sizeof(*a));
	b = calloc(1, sizeof(*b));
	if (a && b && !kfsim_nl_get_policy(kern, "nlctrl", -1, a, NULL) &&
	    !kfsim_nl_get_policy(sim, "nlctrl", -1, b, NULL)) {
		same = a->nr_ops == b->nr_ops && a->nr_policies == b->nr_policies;
		for (u32 p = 0; same && p < a->nr_policies; p++)
			for (u32 t = 0; same && t <= a->maxtype[p] && t <= b->maxtype[p]; t++)
				same = !strcmp(kfsim_nl_policy_attr_format(&a->policies[p][t], la,
									   sizeof(la)),
					       kfsim_nl_policy_attr_format(&b->policies[p][t], lb,
									   sizeof(lb)));
		fprintf(out, "Running kernel's nlctrl policy dump vs kfsim's: %s\n",
			same ? "identical"
			     : "DIFFERENT (see kfsim nl policy --family nlctrl [--kernel])");
		kfsim_nl_policy_dump_free(a);
		kfsim_nl_policy_dump_free(b);
	}
	free(a);
	free(b);
	kfsim_nl_client_close(kern);
}

static int tour_netlink(struct kfsim_tour_ctx *ctx)
{
	struct kfsim_nl_kernel *k = kfsim_nl_kernel_create();
	struct kfsim_nl_client *root = NULL, *user = NULL;
	struct kfsim_nl_family_info *info = calloc(1, sizeof(*info));
	struct kfsim_nl_error err;
	struct sk_buff *skb;
	char text[160];
	int ret, n = 0;
	FILE *out = ctx->out;

	if (IS_ERR(k) || !info) {
		free(info);
		return IS_ERR(k) ? (int)PTR_ERR(k) : -ENOMEM;
	}
	ret = kfsim_nl_demo_register(k);
	if (!ret) {
		root = kfsim_nl_client_open_sim(k, &KFSIM_NL_CRED_ROOT);
		user = kfsim_nl_client_open_sim(k, &KFSIM_NL_CRED_USER);
		ret = IS_ERR(root) ? (int)PTR_ERR(root) : IS_ERR(user) ? (int)PTR_ERR(user) : 0;
	}
	if (!ret)
		ret = kfsim_nl_resolve(root, KFSIM_DEMO_FAMILY_NAME, info, NULL);
	if (ret)
		goto out;
	fprintf(out, "nlctrl resolved family '%s' to id 0x%x (%u ops, group '%s' = %u).\n",
		info->name, info->id, info->nr_ops, info->mcgrps[0].name, info->mcgrps[0].id);

	skb = demo_set(info->id, 1, 2000); /* port policy: 1..1023 */
	ret = skb ? 0 : -ENOMEM;
	if (ret)
		goto out;
	ret = kfsim_nl_request(root, nlmsg_hdr(skb), NULL, NULL, &err);
	fprintf(out,
		"SET with port 2000 -> -%s, extack \"%s\" at offset %u; policy TLV %u bytes:\n",
		kfsim_errname(ret), err.msg, err.offs, err.policy_len);
	kfsim_nl_print_caret(out, skb->data, skb->len, err.has_offs ? (long)err.offs : -1);
	write_svg(ctx, skb, err.has_offs ? (long)err.offs : -1);
	nlmsg_free(skb);

	skb = demo_set(info->id, 1, 80);
	ret = skb ? kfsim_nl_request(user, nlmsg_hdr(skb), NULL, NULL, &err) : -ENOMEM;
	fprintf(out, "SET by a caller without CAP_NET_ADMIN -> -%s (GENL_ADMIN_PERM)\n",
		kfsim_errname(ret));
	ret = skb ? kfsim_nl_request(root, nlmsg_hdr(skb), NULL, NULL, &err) : -ENOMEM;
	fprintf(out, "SET by root -> %s\n",
		ret ? kfsim_nl_error_format(&err, text, sizeof(text)) : "ACK with error 0");
	nlmsg_free(skb);
	if (ret)
		goto out;

	for (u32 id = 2; id <= 30 && !ret; id++) {
		skb = demo_set(info->id, id, 80);
		ret = skb ? kfsim_nl_request(root, nlmsg_hdr(skb), NULL, NULL, NULL) : -ENOMEM;
		nlmsg_free(skb);
	}
	if (ret)
		goto out;
	skb = nlmsg_new(64, GFP_KERNEL);
	ret = -ENOMEM;
	if (skb) {
		struct nlmsghdr *nlh =
			nlmsg_put(skb, 0, 0, info->id, GENL_HDRLEN, NLM_F_REQUEST | NLM_F_DUMP);

		((struct genlmsghdr *)nlmsg_data(nlh))->cmd = KFSIM_DEMO_CMD_GET;
		ret = kfsim_nl_request(root, nlh, count, &n, &err);
		nlmsg_free(skb);
	}
	fprintf(out, "GET dump: %d objects, then NLMSG_DONE (%s)\n", n,
		ret ? kfsim_errname(ret) : "0");
	compare_with_kernel(out, root);
out:
	free(info);
	if (!IS_ERR_OR_NULL(root))
		kfsim_nl_client_close(root);
	if (!IS_ERR_OR_NULL(user))
		kfsim_nl_client_close(user);
	kfsim_nl_kernel_destroy(k);
	return ret;
}

static const char *const try_netlink[] = {
	"kfsim nl policy --family kfsim_demo",
	"kfsim nl policy --family nlctrl --kernel",
	"kfsim nl decode --family kfsim_demo --op 2 0800010001000000 06000400d0070000",
	NULL,
};

const struct kfsim_tour_step kfsim_tour_netlink = {
	.name = "netlink",
	.title = "Generic netlink: strict validation, extack, the running kernel as oracle",
	.doc = "netlink.md",
	.try_cmds = try_netlink,
	.run = tour_netlink,
};
