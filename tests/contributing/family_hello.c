// SPDX-License-Identifier: MIT
/*
 * The guide's example generic netlink family (CONTRIBUTING.md, "A generic netlink family"):
 * one command whose one attribute is range-checked by its policy before the handler runs.
 * check_guide.sh puts it at src/standin/family_hello.c and adds its row to genl_builtin.c.
 */
#include <kfsim/genetlink.h>
#include <kfsim/net_namespace.h>
#include <kfsim/nl_client.h>

enum { HELLO_A_UNSPEC, HELLO_A_COUNT, __HELLO_A_MAX };
enum { HELLO_CMD_UNSPEC, HELLO_CMD_GREET };

struct hello {
	struct genl_family family;
	u32 greeted;
};

static const struct nla_policy hello_policy[] = {
	[HELLO_A_COUNT] = NLA_POLICY_RANGE(NLA_U32, 1, 10),
};

/* Counts the greetings and answers with the total. */
static int hello_greet(struct sk_buff *skb, struct genl_info *info)
{
	struct hello *hello = info->family->priv;
	struct sk_buff *msg;
	void *hdr;

	if (GENL_REQ_ATTR_CHECK(info, HELLO_A_COUNT))
		return -EINVAL;
	hello->greeted += nla_get_u32(info->attrs[HELLO_A_COUNT]);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, info->family, 0, HELLO_CMD_GREET);
	if (!hdr || nla_put_u32(msg, HELLO_A_COUNT, hello->greeted)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

static const struct genl_split_ops hello_ops[] = {
	{
		.cmd = HELLO_CMD_GREET,
		.doit = hello_greet,
		.policy = hello_policy,
		.maxattr = HELLO_A_COUNT,
		.flags = GENL_CMD_CAP_DO,
	},
};

static void hello_destroy(struct genl_family *family)
{
	kfree(family->priv);
}

/* Its row in src/standin/genl_builtin.c declares it too; this line is for -Wmissing-prototypes. */
int kfsim_hello_genl_init(struct kfsim_net *net);

int kfsim_hello_genl_init(struct kfsim_net *net)
{
	struct hello *hello = kzalloc(sizeof(*hello), GFP_KERNEL);
	int err;

	if (!hello)
		return -ENOMEM;
	hello->family = (struct genl_family){
		.name = "kfsim_hello",
		.version = 1,
		.maxattr = HELLO_A_COUNT,
		.split_ops = hello_ops,
		.n_split_ops = ARRAY_SIZE(hello_ops),
		.priv = hello,
		.destroy = hello_destroy,
	};
	err = kfsim_genl_register_family(kfsim_net_nl(net), &hello->family);
	if (err)
		kfree(hello);
	return err;
}
