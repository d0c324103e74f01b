// SPDX-License-Identifier: MIT
/*
 * The "kfsim_demo" family (see <kfsim/nl_demo.h>): a table of objects behind a policy that uses
 * every attribute type and constraint, written the way a kernel family is written: policies
 * validated by the core before the handler, GENL_REQ_ATTR_CHECK for required attributes,
 * replies with genlmsg_put/nla_put, dumps resumable from cb->args, notifications with
 * genlmsg_multicast.  A handler that fails leaves the table as it was.
 */
#include <kfsim/nl_demo.h>
#include "nl_internal.h"

#define DEMO_MAX_OBJECTS 1024

struct demo_object {
	u32 id;
	char name[16];
	u8 prio;
	u16 port;
	u64 size;
	bool enabled;
	u32 flags;
	u32 link_peer;
};

struct kfsim_nl_demo {
	struct genl_family family;
	u32 bcast_seq; /* the sequence number of the last notification */
	unsigned int nr_objects;
	struct demo_object objects[DEMO_MAX_OBJECTS];
};

static const struct nla_policy demo_link_policy[] = {
	[KFSIM_DEMO_LINK_A_PEER] = NLA_POLICY_RANGE(NLA_U32, 1, 4095),
	[KFSIM_DEMO_LINK_A_WEIGHT] = NLA_POLICY_MAX(NLA_U16, 100),
};

static const struct netlink_range_validation_signed demo_bias_range = {.min = -1000, .max = 1000};

static const struct nla_policy demo_policy[] = {
	[KFSIM_DEMO_A_ID] = NLA_POLICY_MIN(NLA_U32, 1),
	[KFSIM_DEMO_A_NAME] = {.type = NLA_NUL_STRING, .len = 15},
	[KFSIM_DEMO_A_PRIO] = NLA_POLICY_MAX(NLA_U8, 7),
	[KFSIM_DEMO_A_PORT] = NLA_POLICY_RANGE(NLA_U16, 1, 1023),
	[KFSIM_DEMO_A_SIZE] = {.type = NLA_U64},
	[KFSIM_DEMO_A_OFFSET] = NLA_POLICY_RANGE(NLA_S8, -5, 5),
	[KFSIM_DEMO_A_DELTA] = NLA_POLICY_MIN(NLA_S16, -100),
	[KFSIM_DEMO_A_TEMP] = NLA_POLICY_MAX(NLA_S32, 125),
	[KFSIM_DEMO_A_BALANCE] = {.type = NLA_S64},
	[KFSIM_DEMO_A_LABEL] = {.type = NLA_STRING, .len = 8},
	[KFSIM_DEMO_A_MAC] = NLA_POLICY_EXACT_LEN(6),
	[KFSIM_DEMO_A_BLOB] = {.type = NLA_BINARY, .len = 16},
	[KFSIM_DEMO_A_ENABLED] = {.type = NLA_FLAG},
	[KFSIM_DEMO_A_LINK] = NLA_POLICY_NESTED(demo_link_policy),
	[KFSIM_DEMO_A_LINKS] = NLA_POLICY_NESTED_ARRAY(demo_link_policy),
	[KFSIM_DEMO_A_FEATURES] = NLA_POLICY_BITFIELD32(0x7),
	[KFSIM_DEMO_A_FLAGS] = NLA_POLICY_MASK(NLA_U32, 0x3),
	[KFSIM_DEMO_A_COUNT] = {.type = NLA_UINT},
	[KFSIM_DEMO_A_BIAS] = NLA_POLICY_FULL_RANGE_SIGNED(NLA_SINT, &demo_bias_range),
	[KFSIM_DEMO_A_LEGACY] = {.type = NLA_REJECT,
				 .reject_message = "use KFSIM_DEMO_A_NAME instead"},
	[KFSIM_DEMO_A_RESERVED] = {.type = NLA_UNSPEC},
	[KFSIM_DEMO_A_KEY] = NLA_POLICY_MIN_LEN(4),
	[KFSIM_DEMO_A_TIMEOUT] = {.type = NLA_MSECS},
};

static struct kfsim_nl_demo *demo_of(const struct genl_family *family)
{
	return container_of(family, struct kfsim_nl_demo, family);
}

static struct demo_object *find(struct kfsim_nl_demo *demo, u32 id)
{
	for (unsigned int i = 0; i < demo->nr_objects; i++)
		if (demo->objects[i].id == id)
			return &demo->objects[i];
	return NULL;
}

/* The object KFSIM_DEMO_A_ID names; NULL with extack set (-EINVAL: no id, -ENOENT: no object). */
static struct demo_object *find_by_attr(struct kfsim_nl_demo *demo, struct genl_info *info,
					int *err)
{
	struct demo_object *obj;

	*err = -EINVAL;
	if (GENL_REQ_ATTR_CHECK(info, KFSIM_DEMO_A_ID))
		return NULL;
	obj = find(demo, nla_get_u32(info->attrs[KFSIM_DEMO_A_ID]));
	if (!obj) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[KFSIM_DEMO_A_ID],
				    "no object with this id");
		*err = -ENOENT;
	}
	return obj;
}

static int fill_object(struct sk_buff *skb, const struct genl_family *family,
		       const struct demo_object *obj, u32 portid, u32 seq, int flags, u8 cmd)
{
	void *hdr = genlmsg_put(skb, portid, seq, family, flags, cmd);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, KFSIM_DEMO_A_ID, obj->id) ||
	    (obj->name[0] && nla_put_string(skb, KFSIM_DEMO_A_NAME, obj->name)) ||
	    nla_put_u8(skb, KFSIM_DEMO_A_PRIO, obj->prio) ||
	    (obj->port && nla_put_u16(skb, KFSIM_DEMO_A_PORT, obj->port)) ||
	    nla_put_u64_64bit(skb, KFSIM_DEMO_A_SIZE, obj->size, 0) ||
	    (obj->enabled && nla_put_flag(skb, KFSIM_DEMO_A_ENABLED)) ||
	    nla_put_u32(skb, KFSIM_DEMO_A_FLAGS, obj->flags))
		goto cancel;
	if (obj->link_peer) {
		struct nlattr *nest = nla_nest_start(skb, KFSIM_DEMO_A_LINK);

		if (!nest || nla_put_u32(skb, KFSIM_DEMO_LINK_A_PEER, obj->link_peer))
			goto cancel;
		nla_nest_end(skb, nest);
	}
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

static void notify(struct kfsim_nl_demo *demo, const struct demo_object *obj,
		   struct genl_info *info)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&demo->family, NULL, 0))
		return;
	skb = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!skb)
		return;
	if (fill_object(skb, &demo->family, obj, 0, ++demo->bcast_seq, 0,
			KFSIM_DEMO_CMD_NTF)) {
		nlmsg_free(skb);
		return;
	}
	genl_notify(&demo->family, skb, info, 0, GFP_KERNEL);
}

static int demo_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kfsim_nl_demo *demo = demo_of(info->family);
	struct demo_object *obj;
	struct sk_buff *msg;
	int err;

	obj = find_by_attr(demo, info, &err);
	if (!obj)
		return err;
	msg = genlmsg_new(GENLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = fill_object(msg, info->family, obj, info->snd_portid, info->snd_seq, 0,
			  KFSIM_DEMO_CMD_GET);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

static int demo_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_info *info = genl_info_dump(cb);
	struct kfsim_nl_demo *demo = demo_of(info->family);
	unsigned long idx;

	for (idx = cb->args[0]; idx < demo->nr_objects; idx++) {
		if (fill_object(skb, info->family, &demo->objects[idx], NETLINK_CB(cb->skb).portid,
				cb->nlh->nlmsg_seq, NLM_F_MULTI, KFSIM_DEMO_CMD_GET))
			break;
	}
	cb->args[0] = idx;
	return skb->len;
}

static int demo_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kfsim_nl_demo *demo = demo_of(info->family);
	struct nlattr **tb = info->attrs;
	struct demo_object next, *obj;
	u32 id;

	if (GENL_REQ_ATTR_CHECK(info, KFSIM_DEMO_A_ID))
		return -EINVAL;
	id = nla_get_u32(tb[KFSIM_DEMO_A_ID]);
	obj = find(demo, id);
	if (!obj && demo->nr_objects == DEMO_MAX_OBJECTS) {
		NL_SET_ERR_MSG(info->extack, "object table full");
		return -ENOSPC;
	}
	/* Build the new state aside; commit only when nothing can fail any more. */
	next = obj ? *obj : (struct demo_object){.id = id};
	if (tb[KFSIM_DEMO_A_NAME])
		nla_strscpy(next.name, tb[KFSIM_DEMO_A_NAME], sizeof(next.name));
	if (tb[KFSIM_DEMO_A_PRIO])
		next.prio = nla_get_u8(tb[KFSIM_DEMO_A_PRIO]);
	if (tb[KFSIM_DEMO_A_PORT])
		next.port = nla_get_u16(tb[KFSIM_DEMO_A_PORT]);
	if (tb[KFSIM_DEMO_A_SIZE])
		next.size = nla_get_u64(tb[KFSIM_DEMO_A_SIZE]);
	if (tb[KFSIM_DEMO_A_ENABLED])
		next.enabled = true;
	if (tb[KFSIM_DEMO_A_FLAGS])
		next.flags = nla_get_u32(tb[KFSIM_DEMO_A_FLAGS]);
	if (tb[KFSIM_DEMO_A_LINK]) {
		struct nlattr *ltb[KFSIM_DEMO_LINK_A_MAX + 1];
		int err = nla_parse_nested(ltb, KFSIM_DEMO_LINK_A_MAX, tb[KFSIM_DEMO_A_LINK],
					   demo_link_policy, info->extack);

		if (err)
			return err;
		if (NL_REQ_ATTR_CHECK(info->extack, tb[KFSIM_DEMO_A_LINK], ltb,
				      KFSIM_DEMO_LINK_A_PEER))
			return -EINVAL;
		next.link_peer = nla_get_u32(ltb[KFSIM_DEMO_LINK_A_PEER]);
		if (next.link_peer == id) {
			NL_SET_ERR_MSG_ATTR(info->extack, ltb[KFSIM_DEMO_LINK_A_PEER],
					    "an object cannot link to itself");
			return -EINVAL;
		}
	}
	if (!obj)
		obj = &demo->objects[demo->nr_objects++];
	*obj = next;
	notify(demo, obj, info);
	return 0;
}

static int demo_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct kfsim_nl_demo *demo = demo_of(info->family);
	struct demo_object *obj, gone;
	int err;

	obj = find_by_attr(demo, info, &err);
	if (!obj)
		return err;
	gone = *obj;
	*obj = demo->objects[--demo->nr_objects];
	notify(demo, &gone, info);
	return 0;
}

static const struct genl_split_ops demo_ops[] = {
	{.cmd = KFSIM_DEMO_CMD_GET,
	 .doit = demo_get_doit,
	 .policy = demo_policy,
	 .maxattr = KFSIM_DEMO_A_MAX,
	 .flags = GENL_CMD_CAP_DO},
	{.cmd = KFSIM_DEMO_CMD_GET, .dumpit = demo_get_dumpit, .flags = GENL_CMD_CAP_DUMP},
	{.cmd = KFSIM_DEMO_CMD_SET,
	 .doit = demo_set_doit,
	 .policy = demo_policy,
	 .maxattr = KFSIM_DEMO_A_MAX,
	 .flags = GENL_CMD_CAP_DO | GENL_ADMIN_PERM},
	{.cmd = KFSIM_DEMO_CMD_DEL,
	 .doit = demo_del_doit,
	 .policy = demo_policy,
	 .maxattr = KFSIM_DEMO_A_MAX,
	 .flags = GENL_CMD_CAP_DO | GENL_UNS_ADMIN_PERM},
};

static const struct genl_multicast_group demo_mcgrps[] = {
	{.name = KFSIM_DEMO_MCGRP_EVENTS},
};

/* The kernel is going away: the family's objects go with it. */
static void demo_destroy(struct genl_family *family)
{
	kfree(demo_of(family));
}

int kfsim_nl_demo_register(struct kfsim_nl_kernel *k)
{
	struct kfsim_nl_demo *demo;
	int err;

	if (!k)
		return -EINVAL;
	demo = kzalloc(sizeof(*demo), GFP_KERNEL);
	if (!demo)
		return -ENOMEM;
	demo->family = (struct genl_family){
		.name = KFSIM_DEMO_FAMILY_NAME,
		.version = KFSIM_DEMO_FAMILY_VERSION,
		.netnsok = true,
		.split_ops = demo_ops,
		.n_split_ops = ARRAY_SIZE(demo_ops),
		.mcgrps = demo_mcgrps,
		.n_mcgrps = ARRAY_SIZE(demo_mcgrps),
		.priv = demo,
		.destroy = demo_destroy,
	};
	err = kfsim_genl_register_family(k, &demo->family);
	if (err) {
		kfree(demo);
		return err;
	}
	return 0;
}
