// SPDX-License-Identifier: MIT
/*
 * The "nlctrl" family (net/netlink/genetlink.c genl_ctrl, Linux 6.18): CTRL_CMD_GETFAMILY
 * (do and dump) and CTRL_CMD_GETPOLICY (dump) answered for every family of the kernel, in the
 * byte format the running kernel answers with (checked against 6.18):
 *
 *  - GETFAMILY replies are CTRL_CMD_NEWFAMILY, version 2: FAMILY_NAME, FAMILY_ID (u16),
 *    VERSION, HDRSIZE, MAXATTR, OPS {i: {OP_ID, OP_FLAGS}}, MCAST_GROUPS {i: {GRP_ID,
 *    GRP_NAME}}, nests without NLA_F_NESTED; a do request prefers FAMILY_NAME over FAMILY_ID.
 *  - GETPOLICY replies (cmd GETPOLICY, NLM_F_MULTI) are first one message per op,
 *    OP_POLICY {cmd: {POLICY_DO idx, POLICY_DUMP idx}}, then one message per advertised
 *    attribute, POLICY {policy idx: {attr: {NL_POLICY_TYPE_ATTR_*}}}.  The op nest's type is
 *    the command of the op's do half, so a dump-only op appears as nest 0: the kernel's quirk,
 *    kept.  Policies are numbered in the order they are first reached, ops first, breadth
 *    first through nested policies; a (policy, maxtype) pair gets one number.
 */
#include "nl_internal.h"

/* netlink_policy_dump_add_policy() grows its table as needed; so does this one, by this step */
#define POLICY_DUMP_STEP 16

static const struct nla_policy ctrl_policy_family[] = {
	[CTRL_ATTR_FAMILY_ID] = {.type = NLA_U16},
	[CTRL_ATTR_FAMILY_NAME] = {.type = NLA_NUL_STRING, .len = GENL_NAMSIZ - 1},
};

static const struct nla_policy ctrl_policy_policy[] = {
	[CTRL_ATTR_FAMILY_ID] = {.type = NLA_U16},
	[CTRL_ATTR_FAMILY_NAME] = {.type = NLA_NUL_STRING, .len = GENL_NAMSIZ - 1},
	[CTRL_ATTR_OP] = {.type = NLA_U32},
};

static const struct genl_family *ctrl_family(const struct genl_info *info)
{
	return info->family;
}

static u32 op_flags(const struct genl_split_ops *doit, const struct genl_split_ops *dumpit)
{
	u32 flags = (doit->flags | dumpit->flags) & ~(GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP);

	if (doit->doit)
		flags |= GENL_CMD_CAP_DO;
	if (dumpit->dumpit)
		flags |= GENL_CMD_CAP_DUMP;
	if (doit->policy || dumpit->policy)
		flags |= GENL_CMD_CAP_HASPOL;
	return flags;
}

static u32 op_cmd(const struct genl_split_ops *doit, const struct genl_split_ops *dumpit)
{
	return doit->flags ? doit->cmd : dumpit->cmd;
}

static int fill_info(const struct genl_family *ctrl, const struct genl_family *family, u32 portid,
		     u32 seq, int flags, struct sk_buff *skb, u8 cmd)
{
	struct genl_split_ops doit, dumpit;
	struct nlattr *nest, *item;
	unsigned int pos = 0, i = 0;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, ctrl, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, CTRL_ATTR_FAMILY_NAME, family->name) ||
	    nla_put_u16(skb, CTRL_ATTR_FAMILY_ID, family->id) ||
	    nla_put_u32(skb, CTRL_ATTR_VERSION, family->version) ||
	    nla_put_u32(skb, CTRL_ATTR_HDRSIZE, family->hdrsize) ||
	    nla_put_u32(skb, CTRL_ATTR_MAXATTR, family->maxattr))
		goto nla_put_failure;

	if (family->n_ops || family->n_small_ops || family->n_split_ops) {
		nest = nla_nest_start_noflag(skb, CTRL_ATTR_OPS);
		if (!nest)
			goto nla_put_failure;
		while (kfsim_genl_op_iter(family, &pos, &doit, &dumpit)) {
			item = nla_nest_start_noflag(skb, ++i);
			if (!item || nla_put_u32(skb, CTRL_ATTR_OP_ID, op_cmd(&doit, &dumpit)) ||
			    nla_put_u32(skb, CTRL_ATTR_OP_FLAGS, op_flags(&doit, &dumpit)))
				goto nla_put_failure;
			nla_nest_end(skb, item);
		}
		nla_nest_end(skb, nest);
	}
	if (family->n_mcgrps) {
		nest = nla_nest_start_noflag(skb, CTRL_ATTR_MCAST_GROUPS);
		if (!nest)
			goto nla_put_failure;
		for (i = 0; i < family->n_mcgrps; i++) {
			item = nla_nest_start_noflag(skb, i + 1);
			if (!item ||
			    nla_put_u32(skb, CTRL_ATTR_MCAST_GRP_ID, family->mcgrp_offset + i) ||
			    nla_put_string(skb, CTRL_ATTR_MCAST_GRP_NAME, family->mcgrps[i].name))
				goto nla_put_failure;
			nla_nest_end(skb, item);
		}
		nla_nest_end(skb, nest);
	}
	genlmsg_end(skb, hdr);
	return 0;

nla_put_failure:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static int ctrl_getfamily(struct sk_buff *skb, struct genl_info *info)
{
	struct kfsim_nl_kernel *k = kfsim_genl_family_kernel(ctrl_family(info));
	const struct genl_family *res = NULL;
	struct sk_buff *msg;
	int err = -EINVAL;

	if (info->attrs[CTRL_ATTR_FAMILY_ID]) {
		res = kfsim_genl_find_byid(k, nla_get_u16(info->attrs[CTRL_ATTR_FAMILY_ID]));
		err = -ENOENT;
	}
	if (info->attrs[CTRL_ATTR_FAMILY_NAME]) {
		res = kfsim_genl_find_family(k, nla_data(info->attrs[CTRL_ATTR_FAMILY_NAME]));
		err = -ENOENT;
	}
	if (!res)
		return err;

	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOBUFS;
	err = fill_info(ctrl_family(info), res, info->snd_portid, info->snd_seq, 0, msg,
			CTRL_CMD_NEWFAMILY);
	if (err) {
		nlmsg_free(msg);
		return -ENOBUFS;
	}
	return genlmsg_reply(msg, info);
}

static int ctrl_dumpfamily(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	const struct genl_family *ctrl = di->info.family;
	struct kfsim_nl_kernel *k = kfsim_genl_family_kernel(ctrl);
	long n = 0, start = cb->args[0];

	for (const struct genl_family *f = kfsim_genl_net(k)->families; f; f = f->kfsim_next, n++) {
		if (n < start)
			continue;
		if (fill_info(ctrl, f, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, NLM_F_MULTI,
			      skb, CTRL_CMD_NEWFAMILY) < 0)
			break;
	}
	cb->args[0] = n;
	return skb->len;
}

/* ---- CTRL_CMD_GETPOLICY ---- */

struct policy_dump_ctx {
	const struct genl_family *rt;
	bool single_op;
	u32 op;
	bool ops_done;
	unsigned int op_pos;
	unsigned int n_policies, max_policies;
	struct {
		const struct nla_policy *policy;
		unsigned int maxtype;
	} *pol;
	unsigned int policy_idx, attr_idx;
};

static int policy_idx(const struct policy_dump_ctx *ctx, const struct nla_policy *policy,
		      unsigned int maxtype)
{
	for (unsigned int i = 0; i < ctx->n_policies; i++)
		if (ctx->pol[i].policy == policy && ctx->pol[i].maxtype == maxtype)
			return i;
	return -1;
}

static int add_one(struct policy_dump_ctx *ctx, const struct nla_policy *policy,
		   unsigned int maxtype)
{
	if (!policy || policy_idx(ctx, policy, maxtype) >= 0)
		return 0;
	if (ctx->n_policies == ctx->max_policies) {
		void *grown = krealloc(ctx->pol, (ctx->max_policies + POLICY_DUMP_STEP) *
				       sizeof(*ctx->pol), GFP_KERNEL);

		if (!grown)
			return -ENOMEM;
		ctx->pol = grown;
		ctx->max_policies += POLICY_DUMP_STEP;
	}
	ctx->pol[ctx->n_policies].policy = policy;
	ctx->pol[ctx->n_policies].maxtype = maxtype;
	ctx->n_policies++;
	return 0;
}

/* netlink_policy_dump_add_policy(): the policy, then breadth first what it nests. */
static int add_policy(struct policy_dump_ctx *ctx, const struct nla_policy *policy,
		      unsigned int maxtype)
{
	int err = add_one(ctx, policy, maxtype);

	for (unsigned int i = 0; !err && i < ctx->n_policies; i++) {
		const struct nla_policy *p = ctx->pol[i].policy;

		for (unsigned int type = 0; !err && type <= ctx->pol[i].maxtype; type++) {
			if ((p[type].type == NLA_NESTED || p[type].type == NLA_NESTED_ARRAY) &&
			    p[type].nested_policy && p[type].len)
				err = add_one(ctx, p[type].nested_policy, p[type].len);
		}
	}
	return err;
}

static int ctrl_dumppolicy_start(struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct kfsim_nl_kernel *k = kfsim_genl_family_kernel(di->info.family);
	struct nlattr **tb = di->info.attrs;
	struct genl_split_ops doit, dumpit;
	struct policy_dump_ctx *ctx;
	const struct genl_family *rt;
	unsigned int pos = 0;
	int err = 0;

	if (!tb[CTRL_ATTR_FAMILY_ID] && !tb[CTRL_ATTR_FAMILY_NAME])
		return -EINVAL;
	if (tb[CTRL_ATTR_FAMILY_ID])
		rt = kfsim_genl_find_byid(k, nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]));
	else
		rt = kfsim_genl_find_family(k, nla_data(tb[CTRL_ATTR_FAMILY_NAME]));
	if (!rt)
		return -ENOENT;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->rt = rt;
	if (tb[CTRL_ATTR_OP]) {
		int err_do, err_dump;

		ctx->single_op = true;
		ctx->op = nla_get_u32(tb[CTRL_ATTR_OP]);
		err_do = kfsim_genl_get_cmd(rt, ctx->op, false, &doit);
		err_dump = kfsim_genl_get_cmd(rt, ctx->op, true, &dumpit);
		if (err_do && err_dump) {
			NL_SET_BAD_ATTR(cb->extack, tb[CTRL_ATTR_OP]);
			kfree(ctx->pol);
			kfree(ctx);
			return -ENOENT;
		}
		if (!err_do && doit.doit)
			err = add_policy(ctx, doit.policy, doit.maxattr);
		if (!err && !err_dump && dumpit.dumpit)
			err = add_policy(ctx, dumpit.policy, dumpit.maxattr);
	} else {
		while (!err && kfsim_genl_op_iter(rt, &pos, &doit, &dumpit)) {
			err = add_policy(ctx, doit.policy, doit.maxattr);
			if (!err)
				err = add_policy(ctx, dumpit.policy, dumpit.maxattr);
		}
	}
	if (!err && !ctx->n_policies)
		err = -ENODATA;
	if (err) {
		kfree(ctx->pol);
		kfree(ctx);
		return err;
	}
	cb->args[0] = (long)ctx;
	return 0;
}

static void *dumppolicy_prep(struct sk_buff *skb, struct netlink_callback *cb,
			     const struct policy_dump_ctx *ctx)
{
	const struct genl_family *ctrl = genl_dumpit_info(cb)->info.family;
	void *hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, ctrl,
				NLM_F_MULTI, CTRL_CMD_GETPOLICY);

	if (!hdr)
		return NULL;
	if (nla_put_u16(skb, CTRL_ATTR_FAMILY_ID, ctx->rt->id)) {
		genlmsg_cancel(skb, hdr);
		return NULL;
	}
	return hdr;
}

static int put_op(struct sk_buff *skb, struct netlink_callback *cb,
		  const struct policy_dump_ctx *ctx, const struct genl_split_ops *doit,
		  const struct genl_split_ops *dumpit)
{
	struct nlattr *nest_pol, *nest_op;
	void *hdr;

	/* nothing to show: an op without any policy (below resv_start_op) is left out */
	if (!(doit->doit && doit->policy) && !(dumpit->dumpit && dumpit->policy))
		return 0;
	hdr = dumppolicy_prep(skb, cb, ctx);
	if (!hdr)
		return -ENOBUFS;
	nest_pol = nla_nest_start(skb, CTRL_ATTR_OP_POLICY);
	if (!nest_pol)
		goto err;
	nest_op = nla_nest_start(skb, doit->doit ? doit->cmd : 0);
	if (!nest_op)
		goto err;
	if (doit->doit && doit->policy &&
	    nla_put_u32(skb, CTRL_ATTR_POLICY_DO, policy_idx(ctx, doit->policy, doit->maxattr)))
		goto err;
	if (dumpit->dumpit && dumpit->policy &&
	    nla_put_u32(skb, CTRL_ATTR_POLICY_DUMP,
			policy_idx(ctx, dumpit->policy, dumpit->maxattr)))
		goto err;
	nla_nest_end(skb, nest_op);
	nla_nest_end(skb, nest_pol);
	genlmsg_end(skb, hdr);
	return 0;
err:
	genlmsg_cancel(skb, hdr);
	return -ENOBUFS;
}

static int dump_ops(struct sk_buff *skb, struct netlink_callback *cb, struct policy_dump_ctx *ctx)
{
	struct genl_split_ops doit, dumpit;

	if (ctx->single_op) {
		if (kfsim_genl_get_cmd(ctx->rt, ctx->op, false, &doit) || !doit.doit)
			memset(&doit, 0, sizeof(doit));
		if (kfsim_genl_get_cmd(ctx->rt, ctx->op, true, &dumpit) || !dumpit.dumpit)
			memset(&dumpit, 0, sizeof(dumpit));
		return put_op(skb, cb, ctx, &doit, &dumpit);
	}
	for (;;) {
		unsigned int pos = ctx->op_pos;

		if (!kfsim_genl_op_iter(ctx->rt, &pos, &doit, &dumpit))
			return 0;
		if (put_op(skb, cb, ctx, &doit, &dumpit))
			return -ENOBUFS;
		ctx->op_pos = pos;
	}
}

/* One message for the current (policy, attribute); Return: 0, -ENODATA (skipped), -ENOBUFS. */
static int dump_attr(struct sk_buff *skb, struct netlink_callback *cb,
		     const struct policy_dump_ctx *ctx)
{
	const struct nla_policy *pt = &ctx->pol[ctx->policy_idx].policy[ctx->attr_idx];
	struct nlattr *nest_pol, *nest_idx;
	int nested = -1, err;
	void *hdr;

	if (pt->type == NLA_UNSPEC || pt->type == NLA_REJECT)
		return -ENODATA;
	if ((pt->type == NLA_NESTED || pt->type == NLA_NESTED_ARRAY) && pt->nested_policy &&
	    pt->len)
		nested = policy_idx(ctx, pt->nested_policy, pt->len);
	hdr = dumppolicy_prep(skb, cb, ctx);
	if (!hdr)
		return -ENOBUFS;
	nest_pol = nla_nest_start(skb, CTRL_ATTR_POLICY);
	nest_idx = nest_pol ? nla_nest_start(skb, ctx->policy_idx) : NULL;
	err = nest_idx ? kfsim_nla_policy_put(skb, pt, ctx->attr_idx, nested) : -ENOBUFS;
	if (err) {
		genlmsg_cancel(skb, hdr);
		return err == -ENODATA ? -ENODATA : -ENOBUFS;
	}
	nla_nest_end(skb, nest_idx);
	nla_nest_end(skb, nest_pol);
	genlmsg_end(skb, hdr);
	return 0;
}

static int ctrl_dumppolicy(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct policy_dump_ctx *ctx = (struct policy_dump_ctx *)cb->args[0];

	if (!ctx->ops_done) {
		if (dump_ops(skb, cb, ctx))
			return skb->len;
		ctx->ops_done = true;
	}
	while (ctx->policy_idx < ctx->n_policies) {
		if (ctx->attr_idx > ctx->pol[ctx->policy_idx].maxtype) {
			ctx->attr_idx = 0;
			ctx->policy_idx++;
			continue;
		}
		if (dump_attr(skb, cb, ctx) == -ENOBUFS)
			return skb->len;
		ctx->attr_idx++;
	}
	return skb->len;
}

static int ctrl_dumppolicy_done(struct netlink_callback *cb)
{
	struct policy_dump_ctx *ctx = (struct policy_dump_ctx *)cb->args[0];

	if (ctx)
		kfree(ctx->pol);
	kfree(ctx);
	cb->args[0] = 0;
	return 0;
}

static const struct genl_ops genl_ctrl_ops[] = {
	{
		.cmd = CTRL_CMD_GETFAMILY,
		.validate = GENL_DONT_VALIDATE_STRICT,
		.policy = ctrl_policy_family,
		.maxattr = ARRAY_SIZE(ctrl_policy_family) - 1,
		.doit = ctrl_getfamily,
		.dumpit = ctrl_dumpfamily,
	},
	{
		.cmd = CTRL_CMD_GETPOLICY,
		.policy = ctrl_policy_policy,
		.maxattr = ARRAY_SIZE(ctrl_policy_policy) - 1,
		.start = ctrl_dumppolicy_start,
		.dumpit = ctrl_dumppolicy,
		.done = ctrl_dumppolicy_done,
	},
};

static const struct genl_multicast_group genl_ctrl_groups[] = {
	{.name = "notify"},
};

void kfsim_genl_ctrl_init(struct genl_family *ctrl)
{
	*ctrl = (struct genl_family){
		.name = "nlctrl",
		.version = 0x2,
		.netnsok = true,
		.ops = genl_ctrl_ops,
		.n_ops = ARRAY_SIZE(genl_ctrl_ops),
		.resv_start_op = CTRL_CMD_GETPOLICY + 1,
		.mcgrps = genl_ctrl_groups,
		.n_mcgrps = ARRAY_SIZE(genl_ctrl_groups),
	};
}
