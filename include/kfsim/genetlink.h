/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_GENETLINK_H
#define KFSIM_GENETLINK_H

/*
 * Generic netlink, the kernel's side (include/net/genetlink.h): families with their ops and
 * multicast groups, registered in an in-process kernel (<kfsim/nl_client.h>), and the handler
 * API (struct genl_info, genlmsg_put/reply/multicast, dumps).  Built on <kfsim/netlink.h>.
 */
#include <kfsim/netlink.h>
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

#define GENLMSG_DEFAULT_SIZE (NLMSG_DEFAULT_SIZE - GENL_HDRLEN)

/* ==== generic netlink (include/net/genetlink.h) ========================================= */

#define GENL_DONT_VALIDATE_STRICT BIT(0)
#define GENL_DONT_VALIDATE_DUMP BIT(1)
#define GENL_DONT_VALIDATE_DUMP_STRICT BIT(2)

#define GENL_MCAST_CAP_NET_ADMIN BIT(0)
#define GENL_MCAST_CAP_SYS_ADMIN BIT(1)

/** struct genl_multicast_group - a family's multicast group; @flags GENL_MCAST_CAP_*. */
struct genl_multicast_group {
	char name[GENL_NAMSIZ];
	u8 flags;
};

struct genl_family;
struct genl_split_ops;

/**
 * struct genl_info - what a doit handler (and a dump, via genl_info_dump()) receives
 * @snd_seq / @snd_portid: the request's sequence number and sender port
 * @family: the family
 * @nlhdr / @genlhdr: the request's headers
 * @attrs: the parsed attributes (tb[] of op maxattr + 1), NULL when the op has no maxattr
 * @user_ptr: for pre_doit/post_doit
 * @extack: the request's extended ACK
 */
struct genl_info {
	u32 snd_seq;
	u32 snd_portid;
	const struct genl_family *family;
	const struct nlmsghdr *nlhdr;
	struct genlmsghdr *genlhdr;
	struct nlattr **attrs;
	void *user_ptr[2];
	struct netlink_ext_ack *extack;
};

static inline void *genl_info_userhdr(const struct genl_info *info)
{
	return (u8 *)info->genlhdr + GENL_HDRLEN;
}

/** GENL_REQ_ATTR_CHECK() - NL_REQ_ATTR_CHECK at the top level of a genl request. */
#define GENL_REQ_ATTR_CHECK(info, attr) NL_REQ_ATTR_CHECK((info)->extack, NULL, (info)->attrs, attr)

#define GENL_SET_ERR_MSG(info, msg) NL_SET_ERR_MSG((info)->extack, msg)

/**
 * struct genl_ops - a command with both handlers in one entry (the classic form)
 * @doit: the non-dump request handler; @start/@dumpit/@done: the dump
 * @policy / @maxattr: the command's attribute policy (default: the family's)
 * @cmd: the command number; @flags: GENL_ADMIN_PERM / GENL_UNS_ADMIN_PERM ...
 * @validate: GENL_DONT_VALIDATE_* relaxations
 */
struct genl_ops {
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	int (*start)(struct netlink_callback *cb);
	int (*dumpit)(struct sk_buff *skb, struct netlink_callback *cb);
	int (*done)(struct netlink_callback *cb);
	const struct nla_policy *policy;
	unsigned int maxattr;
	u8 cmd;
	u8 internal_flags;
	u8 flags;
	u8 validate;
};

/** struct genl_small_ops - struct genl_ops without policy and dump start/done. */
struct genl_small_ops {
	int (*doit)(struct sk_buff *skb, struct genl_info *info);
	int (*dumpit)(struct sk_buff *skb, struct netlink_callback *cb);
	u8 cmd;
	u8 internal_flags;
	u8 flags;
	u8 validate;
};

/**
 * struct genl_split_ops - one half (do or dump) of a command, as YNL generates them
 * @flags: exactly one of GENL_CMD_CAP_DO / GENL_CMD_CAP_DUMP, plus permission flags.  Entries
 *         must be sorted by @cmd, do before dump.
 */
struct genl_split_ops {
	union {
		struct {
			int (*pre_doit)(const struct genl_split_ops *ops, struct sk_buff *skb,
					struct genl_info *info);
			int (*doit)(struct sk_buff *skb, struct genl_info *info);
			void (*post_doit)(const struct genl_split_ops *ops, struct sk_buff *skb,
					  struct genl_info *info);
		};
		struct {
			int (*start)(struct netlink_callback *cb);
			int (*dumpit)(struct sk_buff *skb, struct netlink_callback *cb);
			int (*done)(struct netlink_callback *cb);
		};
	};
	const struct nla_policy *policy;
	unsigned int maxattr;
	u8 cmd;
	u8 internal_flags;
	u8 flags;
	u8 validate;
};

/**
 * struct genl_dumpit_info - what genl_dumpit_info(cb) gives a dump
 * @op: the dump's op (policy filled from the family when the op has none)
 * @info: the request, with @info.attrs parsed by the start step
 */
struct genl_dumpit_info {
	struct genl_split_ops op;
	struct genl_info info;
};

/**
 * struct genl_family - a generic netlink family
 * @hdrsize: bytes of family header after struct genlmsghdr
 * @name: unique name (at most GENL_NAMSIZ - 1 characters)
 * @version: reported in replies' genlmsghdr and CTRL_ATTR_VERSION
 * @maxattr / @policy: the family-wide policy (used by ops that have none)
 * @netnsok / @parallel_ops: recorded only (one network namespace, no locking differences)
 * @resv_start_op: commands >= this get strict checks (reserved header byte, nlmsg_flags, no
 *                 GENL_DONT_VALIDATE_STRICT); 0 means every command
 * @pre_doit / @post_doit: run around every doit
 * @ops / @n_ops, @small_ops / @n_small_ops, @split_ops / @n_split_ops: the commands (split
 *      ops may not be combined with the others)
 * @mcgrps / @n_mcgrps: multicast groups (group index = array index)
 * @priv: kfsim: the owner's data (the kernel keeps it in globals; kfsim's kernels are values)
 * @destroy: kfsim: called once the family is unregistered by kfsim_nl_kernel_destroy(), to free
 *           what holds it (often the family is embedded in @priv's object), or NULL when its
 *           owner frees it
 * @id: private, set by registration (GENL_ID_CTRL for nlctrl, then from 0x13)
 */
struct genl_family {
	unsigned int hdrsize;
	char name[GENL_NAMSIZ];
	unsigned int version;
	unsigned int maxattr;
	u8 netnsok : 1;
	u8 parallel_ops : 1;
	u8 n_ops;
	u8 n_small_ops;
	u8 n_split_ops;
	u8 n_mcgrps;
	u8 resv_start_op;
	const struct nla_policy *policy;
	int (*pre_doit)(const struct genl_split_ops *ops, struct sk_buff *skb,
			struct genl_info *info);
	void (*post_doit)(const struct genl_split_ops *ops, struct sk_buff *skb,
			  struct genl_info *info);
	const struct genl_ops *ops;
	const struct genl_small_ops *small_ops;
	const struct genl_split_ops *split_ops;
	const struct genl_multicast_group *mcgrps;
	void *module;
	void *priv;
	void (*destroy)(struct genl_family *family);
	/* private: */
	int id;
	unsigned int mcgrp_offset;
	struct kfsim_nl_kernel *kfsim_kernel;
	struct genl_family *kfsim_next;
};

/**
 * kfsim_genl_register_family() - genl_register_family() into the in-process kernel @k
 *
 * Checks what genl_validate_ops() checks.  Return: 0 and @family->id set; -EINVAL for an empty
 * or unterminated name, an op without doit/dumpit, a duplicate command, split ops out of order
 * or with both/neither of GENL_CMD_CAP_DO/DUMP, GENL_DONT_VALIDATE_STRICT on a command >=
 * resv_start_op, a multicast group with an empty name; -EEXIST when a family of that name is
 * registered (or @family already is); -ENOMEM.
 */
int kfsim_genl_register_family(struct kfsim_nl_kernel *k, struct genl_family *family);

/**
 * kfsim_genl_unregister_family() - genl_unregister_family(); dumps in progress on it end
 * Return: 0 or -ENOENT when @family is not registered.
 */
int kfsim_genl_unregister_family(struct genl_family *family);

static inline int genl_unregister_family(struct genl_family *family)
{
	return kfsim_genl_unregister_family(family);
}

/** kfsim_genl_find_family() - the family registered in @k under @name, or NULL. */
const struct genl_family *kfsim_genl_find_family(struct kfsim_nl_kernel *k, const char *name);

/**
 * kfsim_genl_get_cmd() - the kernel's genl_get_cmd(): command @cmd's do (@dump false) or dump
 * half as a split op.  A legacy op gets the family's policy and maxattr where it has none, and
 * from resv_start_op on the reject-all policy; a split op is returned as registered.
 * Return: 0, or -ENOENT (and @op zeroed) when the family has no such half.
 */
int kfsim_genl_get_cmd(const struct genl_family *family, u32 cmd, bool dump,
		       struct genl_split_ops *op);

/**
 * kfsim_genl_validate_msg() - every check a request to @family passes before its handler
 * @family: the family the request is for (its nlmsg_type is not looked at)
 * @nlh: the whole request, nlmsg_len bytes
 * @op: filled with the op the request selects (do, or dump when NLM_F_DUMP is set)
 * @attrs: on success, the parsed attributes (kfree() them), or NULL when the op takes none
 * @extack: the kernel's extended ACK for the failure
 *
 * The path of genl_family_rcv_msg(): header length (bare -EINVAL), genl_header_check()
 * (reserved byte, nlmsg_flags), the op lookup (-EOPNOTSUPP), then attribute validation,
 * strict or not as the op says.  Permissions are not checked.
 * Return: 0 or the errno the kernel answers with.
 */
int kfsim_genl_validate_msg(const struct genl_family *family, const struct nlmsghdr *nlh,
			    struct genl_split_ops *op, struct nlattr ***attrs,
			    struct netlink_ext_ack *extack);

/** genlmsg_new() - a buffer for one genl message with @payload bytes of attributes. */
static inline struct sk_buff *genlmsg_new(size_t payload, gfp_t flags)
{
	return nlmsg_new(GENL_HDRLEN + payload, flags);
}

/**
 * genlmsg_put() - add nlmsghdr + genlmsghdr (@cmd, the family's version, reserved 0) + the
 * family's zeroed header
 * Return: the start of the family header / attributes, or NULL when @skb lacks room.
 */
static inline void *genlmsg_put(struct sk_buff *skb, u32 portid, u32 seq,
				const struct genl_family *family, int flags, u8 cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *hdr;

	nlh = nlmsg_put(skb, portid, seq, family->id, GENL_HDRLEN + family->hdrsize, flags);
	if (!nlh)
		return NULL;
	hdr = (struct genlmsghdr *)nlmsg_data(nlh);
	hdr->cmd = cmd;
	hdr->version = family->version;
	hdr->reserved = 0;
	return (char *)hdr + GENL_HDRLEN;
}

/** genlmsg_put_reply() - genlmsg_put() addressed to the sender of @info. */
static inline void *genlmsg_put_reply(struct sk_buff *skb, struct genl_info *info,
				      const struct genl_family *family, int flags, u8 cmd)
{
	return genlmsg_put(skb, info->snd_portid, info->snd_seq, family, flags, cmd);
}

static inline void genlmsg_end(struct sk_buff *skb, void *hdr)
{
	nlmsg_end(skb, (struct nlmsghdr *)((char *)hdr - GENL_HDRLEN - NLMSG_HDRLEN));
}

static inline void genlmsg_cancel(struct sk_buff *skb, void *hdr)
{
	if (hdr)
		nlmsg_cancel(skb, (struct nlmsghdr *)((char *)hdr - GENL_HDRLEN - NLMSG_HDRLEN));
}

/** genlmsg_msg_size() - a generic netlink payload plus its genlmsghdr. */
static inline int genlmsg_msg_size(int payload)
{
	return GENL_HDRLEN + payload;
}

/** genlmsg_total_size() - genlmsg_msg_size() aligned to NLMSG_ALIGNTO. */
static inline int genlmsg_total_size(int payload)
{
	return NLMSG_ALIGN(genlmsg_msg_size(payload));
}

static inline void *genlmsg_data(const struct genlmsghdr *gnlh)
{
	return (unsigned char *)gnlh + GENL_HDRLEN;
}

static inline int genlmsg_len(const struct genlmsghdr *gnlh)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)((const unsigned char *)gnlh -
							       NLMSG_HDRLEN);

	return nlh->nlmsg_len - GENL_HDRLEN - NLMSG_HDRLEN;
}

/**
 * kfsim_genlmsg_reply() - genlmsg_reply(): queue @skb (consumed) for the requester
 * Return: 0, or -ECONNREFUSED when the requesting socket is gone.
 */
int kfsim_genlmsg_reply(struct sk_buff *skb, struct genl_info *info);

static inline int genlmsg_reply(struct sk_buff *skb, struct genl_info *info)
{
	return kfsim_genlmsg_reply(skb, info);
}

/**
 * kfsim_genlmsg_multicast() - genlmsg_multicast(): send @skb (consumed) to every socket that
 * joined @family's group number @group (an index into @family->mcgrps), except @portid
 * Return: 0; -ESRCH when no one listens (the kernel's answer, usually ignored); -EINVAL for a
 * group index out of range or an unregistered family.
 */
int kfsim_genlmsg_multicast(const struct genl_family *family, struct sk_buff *skb, u32 portid,
			    unsigned int group, gfp_t flags);

static inline int genlmsg_multicast(const struct genl_family *family, struct sk_buff *skb,
				    u32 portid, unsigned int group, gfp_t flags)
{
	return kfsim_genlmsg_multicast(family, skb, portid, group, flags);
}

/** genl_notify() - multicast @skb to @group on behalf of the request @info. */
static inline void genl_notify(const struct genl_family *family, struct sk_buff *skb,
			       struct genl_info *info __maybe_unused, u32 group, gfp_t flags)
{
	kfsim_genlmsg_multicast(family, skb, 0, group, flags);
}

/** genl_has_listeners() - whether any socket joined @family's group @group. */
bool kfsim_genl_has_listeners(const struct genl_family *family, unsigned int group);

static inline bool genl_has_listeners(const struct genl_family *family, void *net __maybe_unused,
				      unsigned int group)
{
	return kfsim_genl_has_listeners(family, group);
}

/** genl_dumpit_info() - the op and parsed request of a running genl dump. */
static inline const struct genl_dumpit_info *genl_dumpit_info(struct netlink_callback *cb)
{
	return (const struct genl_dumpit_info *)cb->data;
}

static inline const struct genl_info *genl_info_dump(struct netlink_callback *cb)
{
	return &genl_dumpit_info(cb)->info;
}

/** kfsim_genl_family_kernel() - the in-process kernel @family is registered in, or NULL. */
static inline struct kfsim_nl_kernel *kfsim_genl_family_kernel(const struct genl_family *family)
{
	return family->kfsim_kernel;
}

/** kfsim_genl_mcgrp_id() - the global multicast group id of @family's group index @group. */
static inline u32 kfsim_genl_mcgrp_id(const struct genl_family *family, unsigned int group)
{
	return family->mcgrp_offset + group;
}

#pragma GCC visibility pop
#endif /* KFSIM_GENETLINK_H */
