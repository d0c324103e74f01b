// SPDX-License-Identifier: MIT
/*
 * Generic netlink families and the request path (net/netlink/genetlink.c, Linux 6.18).
 *
 * Invariants kept:
 *  - A request reaches a handler only after, in this order: family lookup by nlmsg_type
 *    (-ENOENT), header length (-EINVAL), for commands >= resv_start_op the reserved byte and
 *    the nlmsg_flags whitelist (-EINVAL with the kernel's messages), command lookup
 *    (-EOPNOTSUPP), permission (-EPERM) and attribute validation.  A request refused at any
 *    step changes nothing.
 *  - Family ids are unique per kernel and allocated cyclically from GENL_START_ALLOC; group ids
 *    come from a bitmap in which 0, 1 and the fixed families' ids are reserved.
 *  - Everything reaches user sockets through the netlink core (af_netlink.h): requests come in
 *    through genl_rcv() (the kernel socket's input), replies leave by netlink_unicast(),
 *    notifications by netlink_broadcast(), dumps run under netlink_dump_start().
 */
#include <stdio.h>
#include <kfsim/cmdline.h>
#include "nl_internal.h"

static bool family_uses_split_ops(const struct genl_family *family)
{
	return family->split_ops;
}

/*
 * genl_policy_reject_all: what a command at or above resv_start_op without a policy gets (a
 * legacy op always, a split op in policy dumps), so that any attribute it is sent is refused.
 * Two entries because maxattr must be 1.
 */
static const struct nla_policy genl_policy_reject_all[] = {
	{.type = NLA_REJECT},
	{.type = NLA_REJECT},
};

/* genl_op_fill_in_reject_policy(): legacy ops, only from resv_start_op on. */
static void fill_in_reject_policy(const struct genl_family *family, struct genl_ops *op)
{
	if (op->policy || op->cmd < family->resv_start_op)
		return;
	op->policy = genl_policy_reject_all;
	op->maxattr = 1;
}

/* genl_op_fill_in_reject_policy_split(): split ops, whatever the command (dumps only). */
static void fill_in_reject_policy_split(struct genl_split_ops *op)
{
	if (op->policy)
		return;
	op->policy = genl_policy_reject_all;
	op->maxattr = 1;
}

/*
 * genl_cmd_full_to_split(): one half of a legacy op.  @full already carries the family's
 * policy and maxattr where it had none (genl_op_from_full/_small).  Return: -ENOENT (and a
 * zeroed @op) when that half has no handler.
 */
static int op_from_full(const struct genl_family *family, const struct genl_ops *full, bool dump,
			struct genl_split_ops *op)
{
	memset(op, 0, sizeof(*op));
	if ((!dump && !full->doit) || (dump && !full->dumpit))
		return -ENOENT;
	if (dump) {
		op->start = full->start;
		op->dumpit = full->dumpit;
		op->done = full->done;
	} else {
		op->pre_doit = family->pre_doit;
		op->doit = full->doit;
		op->post_doit = family->post_doit;
	}
	if (dump && (full->validate & GENL_DONT_VALIDATE_DUMP)) {
		op->policy = NULL;
		op->maxattr = 0;
	} else {
		op->policy = full->policy;
		op->maxattr = full->maxattr;
	}
	op->cmd = full->cmd;
	op->internal_flags = full->internal_flags;
	op->flags = full->flags | (dump ? GENL_CMD_CAP_DUMP : GENL_CMD_CAP_DO);
	op->validate = full->validate;
	return 0;
}

/* genl_get_cmd_full() then genl_get_cmd_small(), with genl_op_from_full/_small's defaults. */
static bool get_full(const struct genl_family *family, u32 cmd, struct genl_ops *full)
{
	for (unsigned int i = 0; i < family->n_ops; i++) {
		if (family->ops[i].cmd == cmd) {
			*full = family->ops[i];
			if (!full->maxattr)
				full->maxattr = family->maxattr;
			if (!full->policy)
				full->policy = family->policy;
			fill_in_reject_policy(family, full);
			return true;
		}
	}
	for (unsigned int i = 0; i < family->n_small_ops; i++) {
		const struct genl_small_ops *s = &family->small_ops[i];

		if (s->cmd == cmd) {
			*full = (struct genl_ops){.doit = s->doit,
						  .dumpit = s->dumpit,
						  .cmd = s->cmd,
						  .internal_flags = s->internal_flags,
						  .flags = s->flags,
						  .validate = s->validate,
						  .maxattr = family->maxattr,
						  .policy = family->policy};
			fill_in_reject_policy(family, full);
			return true;
		}
	}
	return false;
}

/*
 * genl_get_cmd(): the request path.  A split op is used exactly as registered: without a
 * policy it takes no attributes at all (maxattr 0), it does not inherit the family's.
 */
int kfsim_genl_get_cmd(const struct genl_family *family, u32 cmd, bool dump,
		       struct genl_split_ops *op)
{
	u8 cap = dump ? GENL_CMD_CAP_DUMP : GENL_CMD_CAP_DO;
	struct genl_ops full;

	if (get_full(family, cmd, &full))
		return op_from_full(family, &full, dump, op);
	for (unsigned int i = 0; family_uses_split_ops(family) && i < family->n_split_ops; i++) {
		const struct genl_split_ops *s = &family->split_ops[i];

		if (s->cmd == cmd && (s->flags & cap)) {
			*op = *s;
			return 0;
		}
	}
	memset(op, 0, sizeof(*op));
	return -ENOENT;
}

/* genl_op_iter_next(): both halves of the next command, as policy dumps see them. */
int kfsim_genl_op_iter(const struct genl_family *family, unsigned int *pos,
		       struct genl_split_ops *doit, struct genl_split_ops *dumpit)
{
	unsigned int n_full = family->n_ops + family->n_small_ops;

	memset(doit, 0, sizeof(*doit));
	memset(dumpit, 0, sizeof(*dumpit));
	if (*pos < n_full) {
		struct genl_ops full;
		u32 cmd = *pos < family->n_ops ? family->ops[*pos].cmd
					       : family->small_ops[*pos - family->n_ops].cmd;

		get_full(family, cmd, &full);
		op_from_full(family, &full, false, doit);
		op_from_full(family, &full, true, dumpit);
		(*pos)++;
		return 1;
	}
	if (!family->split_ops || *pos - n_full >= family->n_split_ops)
		return 0;
	{
		const struct genl_split_ops *s = &family->split_ops[*pos - n_full];

		(*pos)++;
		if (s->flags & GENL_CMD_CAP_DO) {
			*doit = *s;
			fill_in_reject_policy_split(doit);
			if (*pos - n_full < family->n_split_ops &&
			    (family->split_ops[*pos - n_full].flags & GENL_CMD_CAP_DUMP) &&
			    family->split_ops[*pos - n_full].cmd == s->cmd) {
				*dumpit = family->split_ops[*pos - n_full];
				fill_in_reject_policy_split(dumpit);
				(*pos)++;
			}
		} else {
			*dumpit = *s;
			fill_in_reject_policy_split(dumpit);
		}
	}
	return 1;
}

/* genl_validate_ops() per command: a handler, and no validate flag at all from resv_start_op. */
static int validate_one(const struct genl_family *family, u8 cmd, u8 flags, u8 validate,
			bool has_handler)
{
	if (!has_handler)
		return -EINVAL;
	if (cmd >= family->resv_start_op && validate)
		return -EINVAL;
	return 0;
}

/* genl_validate_ops(): the table must describe each command once and sensibly. */
static int validate_ops(const struct genl_family *family)
{
	unsigned int n_full = family->n_ops + family->n_small_ops;

	if ((family->n_ops && !family->ops) || (family->n_small_ops && !family->small_ops) ||
	    (family->n_split_ops && !family->split_ops) || (family->n_mcgrps && !family->mcgrps))
		return -EINVAL;
	if (family->n_split_ops && n_full)
		return -EINVAL;
	for (unsigned int i = 0; i < family->n_ops; i++) {
		const struct genl_ops *o = &family->ops[i];

		if (validate_one(family, o->cmd, o->flags, o->validate, o->doit || o->dumpit))
			return -EINVAL;
	}
	for (unsigned int i = 0; i < family->n_small_ops; i++) {
		const struct genl_small_ops *o = &family->small_ops[i];

		if (validate_one(family, o->cmd, o->flags, o->validate, o->doit || o->dumpit))
			return -EINVAL;
	}
	for (unsigned int i = 0; i < n_full; i++) {
		for (unsigned int j = i + 1; j < n_full; j++) {
			u32 a = i < family->n_ops ? family->ops[i].cmd
						  : family->small_ops[i - family->n_ops].cmd;
			u32 b = j < family->n_ops ? family->ops[j].cmd
						  : family->small_ops[j - family->n_ops].cmd;

			if (a == b)
				return -EINVAL;
		}
	}
	for (unsigned int i = 0; i < family->n_split_ops; i++) {
		const struct genl_split_ops *o = &family->split_ops[i];
		u8 cap = o->flags & (GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP);

		if (cap != GENL_CMD_CAP_DO && cap != GENL_CMD_CAP_DUMP)
			return -EINVAL;
		if (validate_one(family, o->cmd, o->flags, o->validate,
				 cap == GENL_CMD_CAP_DO ? !!o->doit : !!o->dumpit))
			return -EINVAL;
		if (i) {
			const struct genl_split_ops *prev = &family->split_ops[i - 1];

			/* sorted by cmd, do before dump, each half at most once */
			if (prev->cmd > o->cmd ||
			    (prev->cmd == o->cmd &&
			     !((prev->flags & GENL_CMD_CAP_DO) && (o->flags & GENL_CMD_CAP_DUMP))))
				return -EINVAL;
			/* the two halves of one command agree on everything but DO/DUMP */
			if (prev->cmd == o->cmd &&
			    (prev->internal_flags != o->internal_flags ||
			     ((prev->flags ^ o->flags) & ~(GENL_CMD_CAP_DO | GENL_CMD_CAP_DUMP))))
				return -EINVAL;
		}
	}
	for (unsigned int i = 0; i < family->n_mcgrps; i++) {
		const char *name = family->mcgrps[i].name;

		if (!name[0] || !memchr(name, '\0', GENL_NAMSIZ))
			return -EINVAL;
	}
	return 0;
}

const struct genl_family *kfsim_genl_find_family(struct kfsim_nl_kernel *k, const char *name)
{
	struct genl_net *gn = k ? kfsim_genl_net(k) : NULL;

	if (!gn || !name)
		return NULL;
	for (struct genl_family *f = gn->families; f; f = f->kfsim_next)
		if (!strncmp(f->name, name, GENL_NAMSIZ))
			return f;
	return NULL;
}

const struct genl_family *kfsim_genl_find_byid(struct kfsim_nl_kernel *k, int id)
{
	for (struct genl_family *f = kfsim_genl_net(k)->families; f; f = f->kfsim_next)
		if (f->id == id)
			return f;
	return NULL;
}

static bool id_used(struct kfsim_nl_kernel *k, int id)
{
	return id <= 0x12 || kfsim_genl_find_byid(k, id);
}

static int alloc_family_id(struct kfsim_nl_kernel *k)
{
	struct genl_net *gn = kfsim_genl_net(k);
	int span = KFSIM_GENL_MAX_ID - GENL_START_ALLOC + 1;

	for (int i = 0; i < span; i++) {
		int id = GENL_START_ALLOC + (gn->next_family_id - GENL_START_ALLOC + i) % span;

		if (!id_used(k, id)) {
			gn->next_family_id = id + 1 > KFSIM_GENL_MAX_ID ? GENL_START_ALLOC : id + 1;
			return id;
		}
	}
	return -ENOSPC;
}

static bool group_used(const struct genl_net *gn, unsigned int id)
{
	return gn->mc_groups[id / BITS_PER_LONG] & (1UL << (id % BITS_PER_LONG));
}

static void group_mark(struct genl_net *gn, unsigned int id, bool used)
{
	unsigned long bit = 1UL << (id % BITS_PER_LONG);

	if (used)
		gn->mc_groups[id / BITS_PER_LONG] |= bit;
	else
		gn->mc_groups[id / BITS_PER_LONG] &= ~bit;
}

/*
 * genl_validate_assign_mc_groups(): nlctrl's one group is GENL_ID_CTRL, others the first gap
 * (genl_allocate_reserve_groups()).  The bitmap grows by whole longs and the protocol's group
 * count follows it (netlink_change_ngroups()), except for nlctrl, registered while generic
 * netlink is still initializing.
 */
static int alloc_groups(struct kfsim_nl_kernel *k, struct genl_family *family)
{
	struct genl_net *gn = kfsim_genl_net(k);
	unsigned int n = family->n_mcgrps, start, longs;

	if (!n) {
		family->mcgrp_offset = 0;
		return 0;
	}
	if (family->id == GENL_ID_CTRL && n == 1) {
		start = GENL_ID_CTRL;
	} else {
		for (start = 2; start + n <= KFSIM_NL_MAX_GROUPS; start++) {
			unsigned int i;

			for (i = 0; i < n && !group_used(gn, start + i); i++)
				;
			if (i == n)
				break;
		}
		if (start + n > KFSIM_NL_MAX_GROUPS)
			return -ENOMEM;
	}
	for (unsigned int i = 0; i < n; i++)
		group_mark(gn, start + i, true);
	family->mcgrp_offset = start;
	longs = (start + n + BITS_PER_LONG - 1) / BITS_PER_LONG;
	if (longs > gn->mc_groups_longs)
		gn->mc_groups_longs = longs;
	if (family == &gn->ctrl)
		return 0;
	return kfsim_netlink_change_ngroups(gn->sock, gn->mc_groups_longs * BITS_PER_LONG);
}

int kfsim_genl_family_register_locked(struct kfsim_nl_kernel *k, struct genl_family *family, int id)
{
	struct genl_family **tail;
	int err;

	if (!family->name[0] || !memchr(family->name, '\0', GENL_NAMSIZ))
		return -EINVAL;
	err = validate_ops(family);
	if (err)
		return err;
	if (family->kfsim_kernel || kfsim_genl_find_family(k, family->name))
		return -EEXIST;
	if (id <= 0)
		id = alloc_family_id(k);
	if (id < 0)
		return id;
	family->id = id;
	err = alloc_groups(k, family);
	if (err)
		return err;
	family->kfsim_kernel = k;
	family->kfsim_next = NULL;
	for (tail = &kfsim_genl_net(k)->families; *tail; tail = &(*tail)->kfsim_next)
		;
	*tail = family;
	return 0;
}

int kfsim_genl_register_family(struct kfsim_nl_kernel *k, struct genl_family *family)
{
	if (!k || !family)
		return -EINVAL;
	return kfsim_genl_family_register_locked(k, family, 0);
}

int kfsim_genl_unregister_family(struct genl_family *family)
{
	struct kfsim_nl_kernel *k = family ? family->kfsim_kernel : NULL;
	struct genl_family **pp;
	struct genl_net *gn;

	if (!k)
		return -ENOENT;
	gn = kfsim_genl_net(k);
	for (pp = &gn->families; *pp && *pp != family; pp = &(*pp)->kfsim_next)
		;
	if (!*pp)
		return -ENOENT;
	*pp = family->kfsim_next;
	kfsim_netlink_dump_abort_module(gn->sock, family);
	/* genl_unregister_mc_groups() */
	for (unsigned int i = 0; i < family->n_mcgrps; i++) {
		kfsim_netlink_clear_multicast_users(gn->sock, family->mcgrp_offset + i);
		group_mark(gn, family->mcgrp_offset + i, false);
	}
	family->kfsim_kernel = NULL;
	family->kfsim_next = NULL;
	return 0;
}

/* The kernel socket @family sends through (net->genl_sock), or NULL when unregistered. */
static struct kfsim_nl_sock *family_sock(const struct genl_family *family)
{
	return family->kfsim_kernel ? kfsim_genl_net(family->kfsim_kernel)->sock : NULL;
}

bool kfsim_genl_has_listeners(const struct genl_family *family, unsigned int group)
{
	struct kfsim_nl_sock *sock = family_sock(family);

	if (!sock || group >= family->n_mcgrps)
		return false;
	return kfsim_netlink_has_listeners(sock, family->mcgrp_offset + group);
}

/* genlmsg_reply() -> genlmsg_unicast() -> netlink_unicast() to the requester's port. */
int kfsim_genlmsg_reply(struct sk_buff *skb, struct genl_info *info)
{
	struct kfsim_nl_sock *sock = info->family ? family_sock(info->family) : NULL;

	if (!sock) {
		kfsim_skb_free(skb);
		return -ECONNREFUSED;
	}
	return netlink_unicast(sock, skb, info->snd_portid);
}

/* genlmsg_multicast() -> nlmsg_multicast() -> netlink_broadcast() on the family's group. */
int kfsim_genlmsg_multicast(const struct genl_family *family, struct sk_buff *skb, u32 portid,
			    unsigned int group, gfp_t flags)
{
	struct kfsim_nl_sock *sock = family_sock(family);

	if (!sock || WARN_ON_ONCE(group >= family->n_mcgrps)) {
		kfsim_skb_free(skb);
		return -EINVAL;
	}
	NETLINK_CB(skb).dst_group = family->mcgrp_offset + group;
	return netlink_broadcast(sock, skb, portid, family->mcgrp_offset + group, flags);
}

/*
 * genl_bind(): a group no family owns is joined and simply never hears anything.  The
 * GENL_MCAST_CAP_* flags are enforced since Linux 6.6; older kernels let anyone join.
 */
int kfsim_genl_bind(struct kfsim_nl_sock *sk, int group)
{
	const struct genl_net *gn = kfsim_genl_net(kfsim_netlink_sock_net(sk));

	if (!kfsim_kernel_at_least(6, 6))
		return 0;
	for (const struct genl_family *f = gn->families; f; f = f->kfsim_next) {
		int i = group - (int)f->mcgrp_offset;
		u8 flags;

		if (!f->n_mcgrps || i < 0 || i >= f->n_mcgrps)
			continue;
		flags = f->mcgrps[i].flags;
		if ((flags & GENL_MCAST_CAP_NET_ADMIN) &&
		    !kfsim_netlink_sock_net_capable(sk, CAP_NET_ADMIN))
			return -EPERM;
		if ((flags & GENL_MCAST_CAP_SYS_ADMIN) &&
		    !kfsim_netlink_sock_net_capable(sk, CAP_SYS_ADMIN))
			return -EPERM;
		break;
	}
	return 0;
}

/* genl_header_check(): new commands get a checked reserved byte and nlmsg_flags. */
static int header_check(const struct genl_family *family, const struct nlmsghdr *nlh,
			const struct genlmsghdr *hdr, struct netlink_ext_ack *extack)
{
	u16 flags = nlh->nlmsg_flags;

	/* resv_start_op and these checks arrived in Linux 6.1 */
	if (hdr->cmd < family->resv_start_op || !kfsim_kernel_at_least(6, 1))
		return 0;
	if (hdr->reserved) {
		NL_SET_ERR_MSG(extack, "genlmsghdr.reserved field is not 0");
		return -EINVAL;
	}
	if ((flags & NLM_F_DUMP) == NLM_F_DUMP)
		flags &= ~NLM_F_DUMP;
	if (flags & ~(NLM_F_REQUEST | NLM_F_ACK | NLM_F_ECHO)) {
		NL_SET_ERR_MSG(extack, "ambiguous or reserved bits set in nlmsg_flags");
		return -EINVAL;
	}
	return 0;
}

/* genl_family_rcv_msg_attrs_parse(): NULL when the op takes no attributes. */
static struct nlattr **parse_attrs(const struct nlmsghdr *nlh, const struct genl_split_ops *op,
				   int hdrlen, u8 no_strict_flag, struct netlink_ext_ack *extack)
{
	unsigned int validate =
		(op->validate & no_strict_flag) ? NL_VALIDATE_LIBERAL : NL_VALIDATE_STRICT;
	struct nlattr **attrs;
	int err;

	if (!op->maxattr)
		return NULL;
	attrs = kmalloc_array(op->maxattr + 1, sizeof(*attrs), GFP_KERNEL);
	if (!attrs)
		return ERR_PTR(-ENOMEM);
	err = __nlmsg_parse(nlh, hdrlen, attrs, op->maxattr, op->policy, validate, extack);
	if (err) {
		kfree(attrs);
		return ERR_PTR(err);
	}
	return attrs;
}

static int rcv_doit(struct sk_buff *in_skb, const struct genl_family *family,
		    const struct nlmsghdr *nlh, const struct genl_split_ops *op, int hdrlen,
		    struct netlink_ext_ack *extack)
{
	struct sk_buff skb = {.data = (unsigned char *)nlh,
			      .len = nlh->nlmsg_len,
			      .end = nlh->nlmsg_len,
			      .cb = NETLINK_CB(in_skb)};
	struct genl_info info = {0};
	struct nlattr **attrs;
	int err;

	attrs = parse_attrs(nlh, op, hdrlen, GENL_DONT_VALIDATE_STRICT, extack);
	if (IS_ERR(attrs))
		return (int)PTR_ERR(attrs);

	info.snd_seq = nlh->nlmsg_seq;
	info.snd_portid = NETLINK_CB(in_skb).portid;
	info.family = family;
	info.nlhdr = nlh;
	info.genlhdr = nlmsg_data(nlh);
	info.attrs = attrs;
	info.extack = extack;

	if (op->pre_doit) {
		err = op->pre_doit(op, &skb, &info);
		if (err)
			goto out;
	}
	err = op->doit(&skb, &info);
	if (op->post_doit)
		op->post_doit(op, &skb, &info);
out:
	kfree(attrs);
	return err;
}

/* The header-level checks of genl_family_rcv_msg(): length, then genl_header_check(). */
static int check_header(const struct genl_family *family, const struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack)
{
	int hdrlen = GENL_HDRLEN + family->hdrsize;

	if (nlh->nlmsg_len < (u32)nlmsg_msg_size(hdrlen))
		return -EINVAL;
	if (header_check(family, nlh, nlmsg_data(nlh), extack))
		return -EINVAL;
	return 0;
}

int kfsim_genl_validate_msg(const struct genl_family *family, const struct nlmsghdr *nlh,
			    struct genl_split_ops *op, struct nlattr ***attrs,
			    struct netlink_ext_ack *extack)
{
	int hdrlen = GENL_HDRLEN + family->hdrsize;
	bool dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	struct nlattr **tb = NULL;
	int err;

	*attrs = NULL;
	err = check_header(family, nlh, extack);
	if (err)
		return err;
	if (kfsim_genl_get_cmd(family, ((const struct genlmsghdr *)nlmsg_data(nlh))->cmd, dump,
			       op))
		return -EOPNOTSUPP;
	if (!dump)
		tb = parse_attrs(nlh, op, hdrlen, GENL_DONT_VALIDATE_STRICT, extack);
	else if (!(op->validate & GENL_DONT_VALIDATE_DUMP))
		tb = parse_attrs(nlh, op, hdrlen, GENL_DONT_VALIDATE_DUMP_STRICT, extack);
	if (IS_ERR(tb))
		return (int)PTR_ERR(tb);
	*attrs = tb;
	return 0;
}

/* What genl_start() needs to know about the request (struct genl_start_context). */
struct genl_start_context {
	const struct genl_family *family;
	const struct genl_split_ops *ops;
	int hdrlen;
};

static void genl_dumpit_info_free(struct genl_dumpit_info *info)
{
	if (!info)
		return;
	kfree(info->info.attrs);
	kfree(info);
}

/* genl_start(): parse and validate the dump request once, then the op's own start. */
static int genl_start(struct netlink_callback *cb)
{
	const struct genl_start_context *ctx = cb->data;
	const struct nlmsghdr *nlh = cb->nlh;
	struct genl_dumpit_info *info;
	struct nlattr **attrs = NULL;
	int rc = 0;

	if (!(ctx->ops->validate & GENL_DONT_VALIDATE_DUMP)) {
		attrs = parse_attrs(nlh, ctx->ops, ctx->hdrlen, GENL_DONT_VALIDATE_DUMP_STRICT,
				    cb->extack);
		if (IS_ERR(attrs))
			return (int)PTR_ERR(attrs);
	}
	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info) {
		kfree(attrs);
		return -ENOMEM;
	}
	info->op = *ctx->ops;
	info->info.snd_seq = nlh->nlmsg_seq;
	info->info.snd_portid = NETLINK_CB(cb->skb).portid;
	info->info.family = ctx->family;
	info->info.nlhdr = nlh;
	info->info.genlhdr = nlmsg_data(nlh);
	info->info.attrs = attrs;
	info->info.extack = cb->extack;
	cb->family = ctx->family->id;
	cb->data = info;
	if (info->op.start)
		rc = info->op.start(cb);
	if (rc) {
		genl_dumpit_info_free(info);
		cb->data = NULL;
	}
	return rc;
}

static int genl_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct genl_dumpit_info *info = cb->data;

	info->info.extack = cb->extack;
	return info->op.dumpit(skb, cb);
}

static int genl_done(struct netlink_callback *cb)
{
	struct genl_dumpit_info *info = cb->data;
	int rc = 0;

	if (info->op.done)
		rc = info->op.done(cb);
	genl_dumpit_info_free(info);
	return rc;
}

/* genl_family_rcv_msg(): checks in the kernel's order, then the doit or the dump. */
static int genl_rcv_msg(struct sk_buff *skb, const struct nlmsghdr *nlh,
			struct netlink_ext_ack *extack)
{
	struct kfsim_nl_kernel *net = kfsim_netlink_sock_net(NETLINK_CB(skb).sk);
	const struct genl_family *family;
	const struct genlmsghdr *hdr;
	struct genl_split_ops op;
	bool dump;
	int hdrlen;

	family = kfsim_genl_find_byid(net, nlh->nlmsg_type);
	if (!family)
		return -ENOENT;
	hdrlen = GENL_HDRLEN + family->hdrsize;
	if (check_header(family, nlh, extack))
		return -EINVAL;
	hdr = nlmsg_data(nlh);

	dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	if (kfsim_genl_get_cmd(family, hdr->cmd, dump, &op))
		return -EOPNOTSUPP;
	if ((op.flags & GENL_ADMIN_PERM) && !netlink_capable(skb, CAP_NET_ADMIN))
		return -EPERM;
	if ((op.flags & GENL_UNS_ADMIN_PERM) && !netlink_net_capable(skb, CAP_NET_ADMIN))
		return -EPERM;

	if (dump) {
		/* genl_family_rcv_msg_dumpit() */
		struct genl_start_context ctx = {.family = family, .ops = &op, .hdrlen = hdrlen};
		struct netlink_dump_control c = {
			.start = genl_start,
			.dump = genl_dumpit,
			.done = genl_done,
			.data = &ctx,
			.module = family,
		};

		return netlink_dump_start(kfsim_genl_net(net)->sock, skb, nlh, &c, extack);
	}
	return rcv_doit(skb, family, nlh, &op, hdrlen, extack);
}

/* genl_rcv(): the input of the NETLINK_GENERIC kernel socket. */
void kfsim_genl_rcv(struct sk_buff *skb)
{
	netlink_rcv_skb(skb, genl_rcv_msg);
}

#include <kfsim/moduleparam.h>
/*
 * The "netlink" module of the kernel command line: "netlink.<param>=" is checked against its
 * parameters (none yet), and an unknown one is reported as the module loader reports it.
 */
KFSIM_MODULE(netlink)
