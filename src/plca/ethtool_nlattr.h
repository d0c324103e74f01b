/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PLCA_ETHTOOL_NLATTR_H
#define KFSIM_PLCA_ETHTOOL_NLATTR_H

/*
 * The slice of the kernel's netlink attribute layer (include/net/netlink.h, lib/nlattr.c) the
 * ethtool PLCA family needs: policies, strict validation with the kernel's errno and extack,
 * and a message builder.  Written here because kfsim's netlink core had not landed when the
 * PLCA part was built; the semantics follow lib/nlattr.c (Linux 6.3) so the swap is mechanical.
 *
 * Invariants: a message built with kfsim_nlbuf never exceeds its buffer (a put that does not
 * fit fails with -EMSGSIZE and leaves the message as it was); validation never reads outside
 * the attribute stream it is given.
 */
#include <stddef.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <kfsim/kernel.h>
#include <kfsim/types.h>

/* Attribute policy types (include/net/netlink.h order). */
enum {
	NLA_UNSPEC,
	NLA_U8,
	NLA_U16,
	NLA_U32,
	NLA_U64,
	NLA_STRING,
	NLA_FLAG,
	NLA_MSECS,
	NLA_NESTED,
	NLA_NESTED_ARRAY,
	NLA_NUL_STRING,
	NLA_BINARY,
};

enum nla_validation {
	NLA_VALIDATE_NONE,
	NLA_VALIDATE_RANGE,
	NLA_VALIDATE_MIN,
	NLA_VALIDATE_MAX,
	NLA_VALIDATE_MASK,
};

/**
 * struct nla_policy - how one attribute type is validated
 * @type: NLA_*
 * @validation_type: NLA_VALIDATE_*
 * @len: max string length (NUL_STRING) or max type of the nested policy (NESTED)
 * @nested_policy: the nested policy (NESTED)
 * @min: range minimum (RANGE, MIN)
 * @max: range maximum (RANGE, MAX)
 * @mask: allowed bits (MASK)
 */
struct nla_policy {
	u8 type;
	u8 validation_type;
	u16 len;
	const struct nla_policy *nested_policy;
	s64 min;
	s64 max;
	u64 mask;
};

#define NLA_POLICY_NESTED(policy) \
	{ .type = NLA_NESTED, .len = ARRAY_SIZE(policy) - 1, .nested_policy = policy }
#define NLA_POLICY_MAX(tp, maxval) \
	{ .type = tp, .validation_type = NLA_VALIDATE_MAX, .max = maxval }
#define NLA_POLICY_RANGE(tp, minval, maxval) \
	{ .type = tp, .validation_type = NLA_VALIDATE_RANGE, .min = minval, .max = maxval }
#define NLA_POLICY_MASK(tp, bits) \
	{ .type = tp, .validation_type = NLA_VALIDATE_MASK, .mask = bits }

/**
 * struct netlink_ext_ack - what a failed (or warned) request reports back
 * @_msg: a static message, or NULL
 * @bad_attr: the offending attribute (inside the request), or NULL
 * @policy: the policy entry it violated, or NULL
 * @miss_type: the type of a missing required attribute, or 0
 * @miss_nest: the nest it is missing from (inside the request), or NULL
 */
struct netlink_ext_ack {
	const char *_msg;
	const struct nlattr *bad_attr;
	const struct nla_policy *policy;
	u32 miss_type;
	const struct nlattr *miss_nest;
};

#define NL_SET_ERR_MSG(extack, msg)                          \
	do {                                                 \
		struct netlink_ext_ack *__extack = (extack); \
		if (__extack)                                \
			__extack->_msg = (msg);              \
	} while (0)

#define NL_SET_ERR_MSG_ATTR_POL(extack, attr, pol, msg)      \
	do {                                                 \
		struct netlink_ext_ack *__extack = (extack); \
		if (__extack) {                              \
			__extack->_msg = (msg);              \
			__extack->bad_attr = (attr);         \
			__extack->policy = (pol);            \
		}                                            \
	} while (0)

#define NL_SET_ERR_MSG_ATTR(extack, attr, msg) NL_SET_ERR_MSG_ATTR_POL(extack, attr, NULL, msg)

static inline int nla_type(const struct nlattr *nla)
{
	return nla->nla_type & NLA_TYPE_MASK;
}

static inline void *nla_data(const struct nlattr *nla)
{
	return (char *)nla + NLA_HDRLEN;
}

static inline int nla_len(const struct nlattr *nla)
{
	return nla->nla_len - NLA_HDRLEN;
}

static inline u8 nla_get_u8(const struct nlattr *nla)
{
	return *(const u8 *)nla_data(nla);
}

static inline u16 nla_get_u16(const struct nlattr *nla)
{
	u16 v;

	__builtin_memcpy(&v, nla_data(nla), sizeof(v));
	return v;
}

static inline u32 nla_get_u32(const struct nlattr *nla)
{
	u32 v;

	__builtin_memcpy(&v, nla_data(nla), sizeof(v));
	return v;
}

/* Walk the attributes in [@head, @head + @len). */
#define nla_for_each_attr(pos, head, len, rem)                                   \
	for (pos = (head), rem = (len);                                           \
	     rem >= (int)sizeof(*pos) && pos->nla_len >= sizeof(*pos) &&          \
	     pos->nla_len <= rem;                                                 \
	     rem -= NLA_ALIGN(pos->nla_len),                                      \
	     pos = (struct nlattr *)((char *)pos + NLA_ALIGN(pos->nla_len)))

/**
 * nla_parse_strict() - validate @len bytes of attributes at @head against @policy and fill @tb
 * @tb: [0..@maxtype], cleared first; the last of duplicate attributes wins
 *
 * Validation is NL_VALIDATE_STRICT: unknown types, wrong fixed lengths, a missing or
 * unexpected NLA_F_NESTED, NLA_UNSPEC slots and trailing bytes are all errors.
 *
 * Return: 0 or the kernel's errno with @extack set as lib/nlattr.c sets it.
 */
int nla_parse_strict(struct nlattr **tb, int maxtype, const struct nlattr *head, int len,
		     const struct nla_policy *policy, struct netlink_ext_ack *extack);

/**
 * struct kfsim_nlbuf - a netlink message being built in a fixed buffer
 * @data: the bytes
 * @len: bytes used
 * @cap: bytes available
 */
struct kfsim_nlbuf {
	u8 *data;
	size_t len;
	size_t cap;
};

/** kfsim_nlbuf_put() - append an attribute; -EMSGSIZE if it does not fit. */
int kfsim_nlbuf_put(struct kfsim_nlbuf *buf, u16 type, const void *payload, size_t size);
int kfsim_nlbuf_put_u8(struct kfsim_nlbuf *buf, u16 type, u8 value);
int kfsim_nlbuf_put_u16(struct kfsim_nlbuf *buf, u16 type, u16 value);
int kfsim_nlbuf_put_u32(struct kfsim_nlbuf *buf, u16 type, u32 value);
int kfsim_nlbuf_put_u64(struct kfsim_nlbuf *buf, u16 type, u64 value);
int kfsim_nlbuf_put_string(struct kfsim_nlbuf *buf, u16 type, const char *str);
/** kfsim_nlbuf_nest_start() - open a nest (NLA_F_NESTED set); returns its offset or -EMSGSIZE. */
int kfsim_nlbuf_nest_start(struct kfsim_nlbuf *buf, u16 type);
/** kfsim_nlbuf_nest_end() - close the nest opened at @offset (empty nests are kept). */
void kfsim_nlbuf_nest_end(struct kfsim_nlbuf *buf, int offset);
/** kfsim_nlbuf_genlmsg() - start a message: nlmsghdr + genlmsghdr; -EMSGSIZE if no room. */
int kfsim_nlbuf_genlmsg(struct kfsim_nlbuf *buf, u16 nl_type, u16 flags, u32 seq, u32 portid,
			u8 cmd, u8 version);
/** kfsim_nlbuf_finish() - write the final nlmsg_len of the message that starts the buffer. */
void kfsim_nlbuf_finish(struct kfsim_nlbuf *buf);

/**
 * kfsim_nla_policy_dump() - append the NL_POLICY_TYPE_ATTR_* description of @pt as the
 * nest @attrtype, as netlink_policy_dump_write_attr() writes it into an extack.
 */
int kfsim_nla_policy_dump(struct kfsim_nlbuf *buf, const struct nla_policy *pt, u16 attrtype);

#endif /* KFSIM_PLCA_ETHTOOL_NLATTR_H */
