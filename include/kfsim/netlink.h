/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_NETLINK_H
#define KFSIM_NETLINK_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Generic netlink, the kernel's side, with the kernel's names (include/net/netlink.h,
 * include/net/genetlink.h, include/linux/netlink.h, lib/nlattr.c), following Linux 6.18:
 *
 *   - attribute policies (struct nla_policy, NLA_POLICY_RANGE/MIN/MAX/MASK/EXACT_LEN/NESTED...)
 *     and their validation, strict or liberal, with the kernel's extack texts, errnos and order
 *     of checks (nla_parse, nla_parse_nested, nla_validate, nlmsg_parse ... and _deprecated);
 *   - struct netlink_ext_ack and the NL_SET_ERR_MSG* / NL_SET_BAD_ATTR / NL_REQ_ATTR_CHECK
 *     macros;
 *   - message building on a fixed-size struct sk_buff (nlmsg_new, genlmsg_new, genlmsg_put,
 *     nla_put_u32, nla_nest_start ...), as the kernel builds replies: a put that does not fit
 *     fails with -EMSGSIZE and leaves the buffer as it was;
 *   - generic netlink families (struct genl_family with ops, small_ops or split_ops, policies,
 *     multicast groups) registered in an in-process kernel (struct kfsim_nl_kernel, see
 *     <kfsim/nl_client.h>), and the handler API (struct genl_info, genlmsg_reply,
 *     genlmsg_multicast, netlink_callback for dumps).
 *
 * The pieces, as the kernel has them: <kfsim/skbuff.h> (the message buffer), this header
 * (policies, extack, nlmsg_*, nla_*), <kfsim/genetlink.h> (families and their handler API) and
 * <kfsim/nl_print.h> (debug printers of attribute streams); this header includes the other three
 * so that existing users compile, but not the user side, <kfsim/nl_client.h>.
 *
 * Every kernel-named function here is static inline over a kfsim_-prefixed symbol, so libkfsim
 * links next to libnl-3 (which exports nla_parse, genlmsg_put ... with other meanings).  Like
 * kernel code, a translation unit including this header cannot also include libnl's headers:
 * the struct names clash.  User-space code that builds requests with libnl includes only
 * <kfsim/nl_client.h>.
 *
 * Architecture: x86-64 rules, as the kernel applies them there: efficient unaligned access, so
 * nla_put_u64_64bit() adds no pad attribute.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <endian.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/slab.h>
#include <kfsim/types.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <kfsim/skbuff.h>

struct kfsim_nl_kernel; /* the in-process kernel: <kfsim/nl_client.h> */
struct kfsim_nl_sock;

/* ==== attribute types and policies (include/net/netlink.h) ============================== */

/* Kernel-internal attribute types (not the uapi NL_ATTR_TYPE_* of policy dumps). */
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
	NLA_S8,
	NLA_S16,
	NLA_S32,
	NLA_S64,
	NLA_BITFIELD32,
	NLA_REJECT,
	NLA_BE16,
	NLA_BE32,
	NLA_SINT,
	NLA_UINT,
	__NLA_TYPE_MAX,
};
#define NLA_TYPE_MAX (__NLA_TYPE_MAX - 1)

/* What the union of struct nla_policy holds beyond the type's own checks. */
enum nla_policy_validation {
	NLA_VALIDATE_NONE,
	NLA_VALIDATE_RANGE,
	NLA_VALIDATE_RANGE_WARN_TOO_LONG,
	NLA_VALIDATE_MIN,
	NLA_VALIDATE_MAX,
	NLA_VALIDATE_MASK,
	NLA_VALIDATE_RANGE_PTR,
	NLA_VALIDATE_FUNCTION,
};

/** struct netlink_range_validation - a u64 range for NLA_POLICY_FULL_RANGE(). */
struct netlink_range_validation {
	u64 min, max;
};

/** struct netlink_range_validation_signed - an s64 range for NLA_POLICY_FULL_RANGE_SIGNED(). */
struct netlink_range_validation_signed {
	s64 min, max;
};

struct netlink_ext_ack;
struct nlattr;

/**
 * struct nla_policy - what one attribute type must look like
 * @type: NLA_U8 ... NLA_UINT
 * @validation_type: NLA_VALIDATE_*, which member of the union applies
 * @len: by type: NLA_STRING/NLA_NUL_STRING max length without the NUL; NLA_BINARY max length;
 *       NLA_NESTED/NLA_NESTED_ARRAY the nested policy's maxtype; NLA_UNSPEC and the integer
 *       types a minimum length (0: the type's size); NLA_POLICY_VALIDATE_FN's optional length
 * @strict_start_type: (policy[0] only) attribute types >= this are validated strictly even by
 *                     the liberal parsers
 * @bitfield32_valid: NLA_BITFIELD32's allowed bits
 * @mask: NLA_VALIDATE_MASK's allowed bits
 * @reject_message: NLA_REJECT's extack text
 * @nested_policy: NLA_NESTED/NLA_NESTED_ARRAY's policy (array of @len + 1)
 * @range / @range_signed: NLA_VALIDATE_RANGE_PTR's range
 * @min / @max: NLA_VALIDATE_RANGE/MIN/MAX bounds (value, or length for NLA_BINARY)
 * @validate: NLA_VALIDATE_FUNCTION's check, called after the type checks
 */
struct nla_policy {
	u8 type;
	u8 validation_type;
	u16 len;
	union {
		u16 strict_start_type;
		const u32 bitfield32_valid;
		const u32 mask;
		const char *reject_message;
		const struct nla_policy *nested_policy;
		const struct netlink_range_validation *range;
		const struct netlink_range_validation_signed *range_signed;
		struct {
			s16 min, max;
		};
		int (*validate)(const struct nlattr *attr, struct netlink_ext_ack *extack);
	};
};

#define NLA_POLICY_ETH_ADDR NLA_POLICY_EXACT_LEN(6)
#define NLA_POLICY_ETH_ADDR_COMPAT NLA_POLICY_EXACT_LEN_WARN(6)
#define _NLA_POLICY_NESTED(maxattr, policy) \
	{ .type = NLA_NESTED, .nested_policy = policy, .len = maxattr }
#define _NLA_POLICY_NESTED_ARRAY(maxattr, policy) \
	{ .type = NLA_NESTED_ARRAY, .nested_policy = policy, .len = maxattr }
/** NLA_POLICY_NESTED() - a nest validated against @policy (an array; maxtype from its size). */
#define NLA_POLICY_NESTED(policy) _NLA_POLICY_NESTED(ARRAY_SIZE(policy) - 1, policy)
/** NLA_POLICY_NESTED_ARRAY() - a nest of nests, each validated against @policy. */
#define NLA_POLICY_NESTED_ARRAY(policy) _NLA_POLICY_NESTED_ARRAY(ARRAY_SIZE(policy) - 1, policy)
#define NLA_POLICY_BITFIELD32(valid) { .type = NLA_BITFIELD32, .bitfield32_valid = valid }
/** NLA_POLICY_RANGE() - integer value (or NLA_BINARY length) within [@_min, @_max] (s16). */
#define NLA_POLICY_RANGE(tp, _min, _max) \
	{ .type = (tp), .validation_type = NLA_VALIDATE_RANGE, .min = _min, .max = _max }
#define NLA_POLICY_FULL_RANGE(tp, _range) \
	{ .type = (tp), .validation_type = NLA_VALIDATE_RANGE_PTR, .range = _range }
#define NLA_POLICY_FULL_RANGE_SIGNED(tp, _range) \
	{ .type = (tp), .validation_type = NLA_VALIDATE_RANGE_PTR, .range_signed = _range }
#define NLA_POLICY_MIN(tp, _min) { .type = (tp), .validation_type = NLA_VALIDATE_MIN, .min = _min }
#define NLA_POLICY_MAX(tp, _max) { .type = (tp), .validation_type = NLA_VALIDATE_MAX, .max = _max }
#define NLA_POLICY_MASK(tp, _mask) \
	{ .type = (tp), .validation_type = NLA_VALIDATE_MASK, .mask = _mask }
#define NLA_POLICY_VALIDATE_FN(tp, fn, ...) \
	{ .type = (tp), .validation_type = NLA_VALIDATE_FUNCTION, .validate = fn, .len = __VA_ARGS__ + 0 }
/** NLA_POLICY_EXACT_LEN() - NLA_BINARY of exactly @_len bytes. */
#define NLA_POLICY_EXACT_LEN(_len) NLA_POLICY_RANGE(NLA_BINARY, _len, _len)
/** NLA_POLICY_EXACT_LEN_WARN() - as above, but too long only warns unless strict. */
#define NLA_POLICY_EXACT_LEN_WARN(_len) \
	{ .type = NLA_BINARY, .validation_type = NLA_VALIDATE_RANGE_WARN_TOO_LONG, \
	  .min = _len, .max = _len }
#define NLA_POLICY_MIN_LEN(_len) NLA_POLICY_MIN(NLA_BINARY, _len)
#define NLA_POLICY_MAX_LEN(_len) NLA_POLICY_MAX(NLA_BINARY, _len)

/* Validation flags (lib/nlattr.c): what the strict parsers reject that the liberal ones skip. */
#define NL_VALIDATE_LIBERAL 0
#define NL_VALIDATE_TRAILING BIT(0)     /* bytes after the last attribute: -EINVAL */
#define NL_VALIDATE_MAXTYPE BIT(1)      /* type 0 or > maxtype: -EINVAL */
#define NL_VALIDATE_UNSPEC BIT(2)       /* NLA_UNSPEC policy slot: -EINVAL */
#define NL_VALIDATE_STRICT_ATTRS BIT(3) /* wrong fixed length: -EINVAL (else a log line) */
#define NL_VALIDATE_NESTED BIT(4)       /* NLA_F_NESTED must match the policy */
#define NL_VALIDATE_DEPRECATED_STRICT (NL_VALIDATE_TRAILING | NL_VALIDATE_MAXTYPE)
#define NL_VALIDATE_STRICT (NL_VALIDATE_TRAILING | NL_VALIDATE_MAXTYPE | NL_VALIDATE_UNSPEC | \
			    NL_VALIDATE_STRICT_ATTRS | NL_VALIDATE_NESTED)

/* lib/nlattr.c MAX_POLICY_RECURSION_DEPTH */
#define MAX_POLICY_RECURSION_DEPTH 10

/* ==== extended ACK (include/linux/netlink.h) ============================================ */

#define NETLINK_MAX_COOKIE_LEN 20
#define NETLINK_MAX_FMTMSG_LEN 80

/**
 * struct netlink_ext_ack - what a failing (or warning) request reports besides its errno
 * @_msg: the message (a string literal or @_msg_buf)
 * @bad_attr: the offending attribute, a pointer into the request; the ACK reports its offset
 *            from the request's nlmsghdr
 * @policy: the policy @bad_attr violated (reported as NLMSGERR_ATTR_POLICY)
 * @miss_nest: the nest a required attribute was missing from (NULL: top level)
 * @miss_type: the missing attribute's type (0: none)
 * @cookie / @cookie_len: NLMSGERR_ATTR_COOKIE, success ACKs only
 */
struct netlink_ext_ack {
	const char *_msg;
	const struct nlattr *bad_attr;
	const struct nla_policy *policy;
	const struct nlattr *miss_nest;
	u16 miss_type;
	u8 cookie[NETLINK_MAX_COOKIE_LEN];
	u8 cookie_len;
	char _msg_buf[NETLINK_MAX_FMTMSG_LEN];
};

#define NL_SET_ERR_MSG(extack, msg)                         \
	do {                                                \
		struct netlink_ext_ack *__extack = (extack); \
		if (__extack)                               \
			__extack->_msg = (msg);             \
	} while (0)

/** NL_SET_ERR_MSG_FMT() - a printf-formatted message (truncated to 79 characters). */
#define NL_SET_ERR_MSG_FMT(extack, fmt, ...)                                                 \
	do {                                                                                 \
		struct netlink_ext_ack *__extack = (extack);                                 \
		if (__extack) {                                                              \
			snprintf(__extack->_msg_buf, NETLINK_MAX_FMTMSG_LEN, fmt, ##__VA_ARGS__); \
			__extack->_msg = __extack->_msg_buf;                                 \
		}                                                                            \
	} while (0)

#ifdef KBUILD_MODNAME
#define NL_SET_ERR_MSG_MOD(extack, msg) NL_SET_ERR_MSG((extack), KBUILD_MODNAME ": " msg)
#else
#define NL_SET_ERR_MSG_MOD(extack, msg) NL_SET_ERR_MSG((extack), msg)
#endif

#define NL_SET_BAD_ATTR_POLICY(extack, attr, pol)           \
	do {                                                \
		struct netlink_ext_ack *__extack = (extack); \
		if (__extack) {                             \
			__extack->bad_attr = (attr);        \
			__extack->policy = (pol);           \
		}                                           \
	} while (0)
#define NL_SET_BAD_ATTR(extack, attr) NL_SET_BAD_ATTR_POLICY(extack, attr, NULL)

#define NL_SET_ERR_MSG_ATTR_POL(extack, attr, pol, msg)     \
	do {                                                \
		struct netlink_ext_ack *__extack = (extack); \
		if (__extack) {                             \
			__extack->_msg = (msg);             \
			__extack->bad_attr = (attr);        \
			__extack->policy = (pol);           \
		}                                           \
	} while (0)
#define NL_SET_ERR_MSG_ATTR(extack, attr, msg) NL_SET_ERR_MSG_ATTR_POL(extack, attr, NULL, msg)

/** NL_SET_ERR_MSG_ATTR_POL_FMT() - NL_SET_ERR_MSG_FMT() that also records @attr and @pol. */
#define NL_SET_ERR_MSG_ATTR_POL_FMT(extack, attr, pol, fmt, ...)                             \
	do {                                                                                 \
		struct netlink_ext_ack *__extack = (extack);                                 \
		if (!__extack)                                                               \
			break;                                                               \
		snprintf(__extack->_msg_buf, NETLINK_MAX_FMTMSG_LEN, fmt, ##__VA_ARGS__);    \
		__extack->_msg = __extack->_msg_buf;                                         \
		__extack->bad_attr = (attr);                                                 \
		__extack->policy = (pol);                                                    \
	} while (0)
#define NL_SET_ERR_MSG_ATTR_FMT(extack, attr, fmt, ...)                                      \
	NL_SET_ERR_MSG_ATTR_POL_FMT(extack, attr, NULL, fmt, ##__VA_ARGS__)

#ifdef KBUILD_MODNAME
#define NL_SET_ERR_MSG_FMT_MOD(extack, fmt, ...)                                             \
	NL_SET_ERR_MSG_FMT((extack), KBUILD_MODNAME ": " fmt, ##__VA_ARGS__)
#else
#define NL_SET_ERR_MSG_FMT_MOD(extack, fmt, ...) NL_SET_ERR_MSG_FMT((extack), fmt, ##__VA_ARGS__)
#endif

/** NL_SET_ERR_MSG_WEAK() - set the message only when none was set before (an inner one wins). */
#define NL_SET_ERR_MSG_WEAK(extack, msg)                                                     \
	do {                                                                                 \
		if ((extack) && !(extack)->_msg)                                             \
			NL_SET_ERR_MSG((extack), msg);                                       \
	} while (0)
#define NL_SET_ERR_MSG_WEAK_MOD(extack, msg)                                                 \
	do {                                                                                 \
		if ((extack) && !(extack)->_msg)                                             \
			NL_SET_ERR_MSG_MOD((extack), msg);                                   \
	} while (0)

/** NL_SET_ERR_ATTR_MISS() - record that attribute @type is missing from @nest (NULL: top). */
#define NL_SET_ERR_ATTR_MISS(extack, nest, type)            \
	do {                                                \
		struct netlink_ext_ack *__extack = (extack); \
		if (__extack) {                             \
			__extack->miss_nest = (nest);       \
			__extack->miss_type = (type);       \
		}                                           \
	} while (0)

/**
 * NL_REQ_ATTR_CHECK() - true (and the miss recorded, no message) when @tb[@type] is absent
 */
#define NL_REQ_ATTR_CHECK(extack, nest, tb, type)                    \
	({                                                           \
		struct nlattr **__tb = (tb);                         \
		u32 __attr = (type);                                 \
		int __retval = !__tb[__attr];                        \
		if (__retval)                                        \
			NL_SET_ERR_ATTR_MISS((extack), (nest), __attr); \
		__retval;                                            \
	})

/* ==== dumps (include/linux/netlink.h) ==================================================== */

/**
 * struct netlink_callback - a running dump
 * @skb: the request buffer; @nlh: the request
 * @extack: during start(), the request's extack
 * @seq / @prev_seq: what the dump may use for NLM_F_DUMP_INTR consistency
 * @args / @ctx: the dump's own state between calls, zeroed at start
 * @data: for the start/done pair
 * @strict_check: the request came on a socket with NETLINK_GET_STRICT_CHK (always false here)
 */
struct netlink_callback {
	struct sk_buff *skb;
	const struct nlmsghdr *nlh;
	struct netlink_ext_ack *extack;
	u16 family;
	u16 answer_flags;
	u32 min_dump_alloc;
	unsigned int prev_seq, seq;
	int flags;
	bool strict_check;
	union {
		u8 ctx[48];
		long args[6];
	};
	void *data;
	/* private: */
	void *kfsim_priv;
};

/* ==== netlink messages (include/net/netlink.h nlmsg_*) ================================== */

#define NLMSG_GOODSIZE 3776u /* SKB_WITH_OVERHEAD(4096) on x86-64 */
#define NLMSG_DEFAULT_SIZE (NLMSG_GOODSIZE - NLMSG_HDRLEN)

static inline int nlmsg_msg_size(int payload)
{
	return NLMSG_HDRLEN + payload;
}

static inline int nlmsg_total_size(int payload)
{
	return NLMSG_ALIGN(nlmsg_msg_size(payload));
}

static inline int nlmsg_padlen(int payload)
{
	return nlmsg_total_size(payload) - nlmsg_msg_size(payload);
}

static inline void *nlmsg_data(const struct nlmsghdr *nlh)
{
	return (unsigned char *)nlh + NLMSG_HDRLEN;
}

static inline int nlmsg_len(const struct nlmsghdr *nlh)
{
	return nlh->nlmsg_len - NLMSG_HDRLEN;
}

static inline struct nlattr *nlmsg_attrdata(const struct nlmsghdr *nlh, int hdrlen)
{
	return (struct nlattr *)((unsigned char *)nlmsg_data(nlh) + NLMSG_ALIGN(hdrlen));
}

static inline int nlmsg_attrlen(const struct nlmsghdr *nlh, int hdrlen)
{
	return nlmsg_len(nlh) - NLMSG_ALIGN(hdrlen);
}

/** nlmsg_ok() - whether @nlh is a whole message within the @remaining bytes. */
static inline int nlmsg_ok(const struct nlmsghdr *nlh, int remaining)
{
	return remaining >= (int)sizeof(struct nlmsghdr) &&
	       nlh->nlmsg_len >= sizeof(struct nlmsghdr) && nlh->nlmsg_len <= (u32)remaining;
}

static inline struct nlmsghdr *nlmsg_next(const struct nlmsghdr *nlh, int *remaining)
{
	int totlen = NLMSG_ALIGN(nlh->nlmsg_len);

	*remaining -= totlen;
	return (struct nlmsghdr *)((unsigned char *)nlh + totlen);
}

static inline struct nlmsghdr *nlmsg_hdr(const struct sk_buff *skb)
{
	return (struct nlmsghdr *)skb->data;
}

/**
 * nlmsg_put() - add a netlink message header and @payload zeroed bytes to @skb
 * Return: the header, or NULL when @skb lacks room (nothing is added then).
 */
static inline struct nlmsghdr *nlmsg_put(struct sk_buff *skb, u32 portid, u32 seq, int type,
					 int payload, int flags)
{
	struct nlmsghdr *nlh;
	int size = nlmsg_msg_size(payload);

	if (unlikely(skb_tailroom(skb) < (unsigned int)nlmsg_total_size(payload)))
		return NULL;
	nlh = (struct nlmsghdr *)skb_tail_pointer(skb);
	skb->len += NLMSG_ALIGN(size);
	nlh->nlmsg_type = type;
	nlh->nlmsg_len = size;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_pid = portid;
	nlh->nlmsg_seq = seq;
	memset((unsigned char *)nlmsg_data(nlh), 0, NLMSG_ALIGN(size) - NLMSG_HDRLEN);
	return nlh;
}

/** nlmsg_end() - set the message length to everything added since nlmsg_put(). */
static inline void nlmsg_end(struct sk_buff *skb, struct nlmsghdr *nlh)
{
	nlh->nlmsg_len = skb_tail_pointer(skb) - (unsigned char *)nlh;
}

/** nlmsg_trim() / nlmsg_cancel() - drop everything from @mark (a pointer into @skb) on. */
static inline void nlmsg_trim(struct sk_buff *skb, const void *mark)
{
	if (mark)
		skb_trim(skb, (const unsigned char *)mark - skb->data);
}

static inline void nlmsg_cancel(struct sk_buff *skb, struct nlmsghdr *nlh)
{
	nlmsg_trim(skb, nlh);
}

/** nlmsg_new() - a buffer for one message of @payload bytes. */
static inline struct sk_buff *nlmsg_new(size_t payload, gfp_t flags)
{
	return kfsim_skb_alloc(nlmsg_total_size(payload), flags);
}

/** nlmsg_free() - free a buffer from nlmsg_new(). */
static inline void nlmsg_free(struct sk_buff *skb)
{
	kfsim_skb_free(skb);
}

/* ==== attributes (include/net/netlink.h nla_*) ========================================== */

static inline int nla_attr_size(int payload)
{
	return NLA_HDRLEN + payload;
}

static inline int nla_total_size(int payload)
{
	return NLA_ALIGN(nla_attr_size(payload));
}

static inline int nla_padlen(int payload)
{
	return nla_total_size(payload) - nla_attr_size(payload);
}

/** nla_type() - the attribute type without NLA_F_NESTED / NLA_F_NET_BYTEORDER. */
static inline int nla_type(const struct nlattr *nla)
{
	return nla->nla_type & NLA_TYPE_MASK;
}

static inline void *nla_data(const struct nlattr *nla)
{
	return (unsigned char *)nla + NLA_HDRLEN;
}

static inline u16 nla_len(const struct nlattr *nla)
{
	return nla->nla_len - NLA_HDRLEN;
}

/** nla_ok() - whether @nla is a whole attribute within the @remaining bytes. */
static inline int nla_ok(const struct nlattr *nla, int remaining)
{
	return remaining >= (int)sizeof(*nla) && nla->nla_len >= sizeof(*nla) &&
	       nla->nla_len <= remaining;
}

static inline struct nlattr *nla_next(const struct nlattr *nla, int *remaining)
{
	unsigned int totlen = NLA_ALIGN(nla->nla_len);

	*remaining -= totlen;
	return (struct nlattr *)((unsigned char *)nla + totlen);
}

#define nla_for_each_attr(pos, head, len, rem) \
	for (pos = (head), rem = (len); nla_ok(pos, rem); pos = nla_next(pos, &(rem)))
#define nla_for_each_nested(pos, nla, rem) nla_for_each_attr(pos, nla_data(nla), nla_len(nla), rem)

static inline struct nlattr *nlmsg_find_attr_in(const struct nlattr *head, int len, int attrtype)
{
	const struct nlattr *nla;
	int rem;

	nla_for_each_attr(nla, head, len, rem)
		if (nla_type(nla) == attrtype)
			return (struct nlattr *)nla;
	return NULL;
}

/** nla_find() - the first attribute of type @attrtype in the stream, or NULL. */
static inline struct nlattr *nla_find(const struct nlattr *head, int len, int attrtype)
{
	return nlmsg_find_attr_in(head, len, attrtype);
}

/** nlmsg_find_attr() - the first attribute of type @attrtype after @nlh's @hdrlen header bytes. */
static inline struct nlattr *nlmsg_find_attr(const struct nlmsghdr *nlh, int hdrlen, int attrtype)
{
	return nla_find(nlmsg_attrdata(nlh, hdrlen), nlmsg_attrlen(nlh, hdrlen), attrtype);
}

static inline u8 nla_get_u8(const struct nlattr *nla) { return *(u8 *)nla_data(nla); }
static inline s8 nla_get_s8(const struct nlattr *nla) { return *(s8 *)nla_data(nla); }
static inline u16 nla_get_u16(const struct nlattr *nla)
{
	u16 v;

	memcpy(&v, nla_data(nla), sizeof(v));
	return v;
}
static inline s16 nla_get_s16(const struct nlattr *nla) { return (s16)nla_get_u16(nla); }
static inline u32 nla_get_u32(const struct nlattr *nla)
{
	u32 v;

	memcpy(&v, nla_data(nla), sizeof(v));
	return v;
}
static inline s32 nla_get_s32(const struct nlattr *nla) { return (s32)nla_get_u32(nla); }
static inline u64 nla_get_u64(const struct nlattr *nla)
{
	u64 v;

	memcpy(&v, nla_data(nla), sizeof(v));
	return v;
}
static inline s64 nla_get_s64(const struct nlattr *nla) { return (s64)nla_get_u64(nla); }
/**
 * nla_get_be16() - the payload of an NLA_BE16 attribute, as it is on the wire.
 * @nla: the attribute
 *
 * Like the kernel's, it returns network byte order (__be16): convert with be16toh()/ntohs().
 */
static inline __be16 nla_get_be16(const struct nlattr *nla)
{
	__be16 v;

	memcpy(&v, nla_data(nla), sizeof(v));
	return v;
}
/** nla_get_be32() - the payload of an NLA_BE32 attribute in network byte order (__be32). */
static inline __be32 nla_get_be32(const struct nlattr *nla)
{
	__be32 v;

	memcpy(&v, nla_data(nla), sizeof(v));
	return v;
}
/** nla_get_uint() - NLA_UINT: 4 or 8 bytes (validated). */
static inline u64 nla_get_uint(const struct nlattr *nla)
{
	return nla_len(nla) == sizeof(u32) ? nla_get_u32(nla) : nla_get_u64(nla);
}
/** nla_get_sint() - NLA_SINT: 4 or 8 bytes (validated). */
static inline s64 nla_get_sint(const struct nlattr *nla)
{
	return nla_len(nla) == sizeof(s32) ? nla_get_s32(nla) : nla_get_s64(nla);
}
/** nla_get_flag() - NLA_FLAG: present or not. */
static inline int nla_get_flag(const struct nlattr *nla) { return !!nla; }
/** nla_get_msecs() - NLA_MSECS as a u64 count of milliseconds. */
static inline u64 nla_get_msecs(const struct nlattr *nla) { return nla_get_u64(nla); }

/* struct nla_bitfield32 (value, selector) is NLA_BITFIELD32's payload, from the uapi header. */
static inline struct nla_bitfield32 nla_get_bitfield32(const struct nlattr *nla)
{
	struct nla_bitfield32 bf;

	memcpy(&bf, nla_data(nla), sizeof(bf));
	return bf;
}

/**
 * nla_strscpy() - copy a string attribute into @dst (always NUL-terminated)
 * Return: the length copied, or -E2BIG when it did not fit (truncated), -EINVAL for size 0.
 */
ssize_t kfsim_nla_strscpy(char *dst, const struct nlattr *nla, size_t dstsize);
static inline ssize_t nla_strscpy(char *dst, const struct nlattr *nla, size_t dstsize)
{
	return kfsim_nla_strscpy(dst, nla, dstsize);
}

/** nla_strcmp() - compare a string attribute (trailing NUL ignored) with @str, like strcmp. */
int kfsim_nla_strcmp(const struct nlattr *nla, const char *str);
static inline int nla_strcmp(const struct nlattr *nla, const char *str)
{
	return kfsim_nla_strcmp(nla, str);
}

/**
 * nla_policy_len() - the most room attributes of the @n policy slots @p can take
 *
 * Each slot counts nla_total_size() of its .len, else of its type's fixed or minimum size
 * (lib/nlattr.c; strings and binaries without .len count 0), for sizing a reply buffer.
 */
int kfsim_nla_policy_len(const struct nla_policy *p, int n);
static inline int nla_policy_len(const struct nla_policy *p, int n)
{
	return kfsim_nla_policy_len(p, n);
}

/** nla_memcmp() - payload length difference, then memcmp() of the payload with @data. */
static inline int nla_memcmp(const struct nlattr *nla, const void *data, size_t size)
{
	int d = nla_len(nla) - (int)size;

	if (d == 0)
		d = memcmp(nla_data(nla), data, size);
	return d;
}

/** nla_strdup() - a kmalloc()ed, NUL-terminated copy of a string attribute (one trailing NUL dropped). */
static inline char *nla_strdup(const struct nlattr *nla, gfp_t flags)
{
	size_t srclen = nla_len(nla);
	const char *src = nla_data(nla);
	char *dst;

	if (srclen > 0 && src[srclen - 1] == '\0')
		srclen--;
	dst = kmalloc(srclen + 1, flags);
	if (dst) {
		memcpy(dst, src, srclen);
		dst[srclen] = '\0';
	}
	return dst;
}

/** nla_memdup() - a kmalloc()ed copy of the payload. */
static inline void *nla_memdup(const struct nlattr *nla, gfp_t flags)
{
	return kmemdup(nla_data(nla), nla_len(nla), flags);
}

/** nla_memcpy() - copy at most @count payload bytes; Return: bytes copied. */
static inline int nla_memcpy(void *dest, const struct nlattr *src, int count)
{
	int minlen = min_t(int, count, nla_len(src));

	memcpy(dest, nla_data(src), minlen);
	if (count > minlen)
		memset((char *)dest + minlen, 0, count - minlen);
	return minlen;
}

/* -- building -- */

/**
 * nla_reserve() - add an attribute header and @attrlen zero-padded payload bytes
 * Return: the attribute, or NULL when @skb lacks room (nothing added).
 */
static inline struct nlattr *nla_reserve(struct sk_buff *skb, int attrtype, int attrlen)
{
	struct nlattr *nla;

	if (unlikely(skb_tailroom(skb) < (unsigned int)nla_total_size(attrlen)))
		return NULL;
	nla = (struct nlattr *)skb_tail_pointer(skb);
	nla->nla_type = attrtype;
	nla->nla_len = nla_attr_size(attrlen);
	memset((unsigned char *)nla + nla->nla_len, 0, nla_padlen(attrlen));
	skb->len += nla_total_size(attrlen);
	return nla;
}

/** nla_put() - add an attribute; Return: 0 or -EMSGSIZE (nothing added). */
static inline int nla_put(struct sk_buff *skb, int attrtype, int attrlen, const void *data)
{
	struct nlattr *nla = nla_reserve(skb, attrtype, attrlen);

	if (unlikely(!nla))
		return -EMSGSIZE;
	if (attrlen)
		memcpy(nla_data(nla), data, attrlen);
	return 0;
}

static inline int nla_put_u8(struct sk_buff *skb, int type, u8 v) { return nla_put(skb, type, 1, &v); }
static inline int nla_put_s8(struct sk_buff *skb, int type, s8 v) { return nla_put(skb, type, 1, &v); }
static inline int nla_put_u16(struct sk_buff *skb, int type, u16 v) { return nla_put(skb, type, 2, &v); }
static inline int nla_put_s16(struct sk_buff *skb, int type, s16 v) { return nla_put(skb, type, 2, &v); }
static inline int nla_put_u32(struct sk_buff *skb, int type, u32 v) { return nla_put(skb, type, 4, &v); }
static inline int nla_put_s32(struct sk_buff *skb, int type, s32 v) { return nla_put(skb, type, 4, &v); }
/**
 * nla_put_be16() - add an NLA_BE16 attribute.
 * @skb: the message
 * @type: attribute type
 * @value: already in network byte order, as in the kernel: nla_put_be16(skb, T, htons(0x1234))
 *	puts the bytes 12 34.
 *
 * Return: 0, or -EMSGSIZE when the message has no room.
 */
static inline int nla_put_be16(struct sk_buff *skb, int type, __be16 value)
{
	return nla_put(skb, type, sizeof(value), &value);
}
/** nla_put_be32() - add an NLA_BE32 attribute; @value is __be32 (network byte order). */
static inline int nla_put_be32(struct sk_buff *skb, int type, __be32 value)
{
	return nla_put(skb, type, sizeof(value), &value);
}
/** nla_put_net16() - nla_put_be16() with NLA_F_NET_BYTEORDER set in the type. */
static inline int nla_put_net16(struct sk_buff *skb, int type, __be16 value)
{
	return nla_put_be16(skb, type | NLA_F_NET_BYTEORDER, value);
}
/** nla_put_net32() - nla_put_be32() with NLA_F_NET_BYTEORDER set in the type. */
static inline int nla_put_net32(struct sk_buff *skb, int type, __be32 value)
{
	return nla_put_be32(skb, type | NLA_F_NET_BYTEORDER, value);
}
/** nla_put_u64_64bit() - a u64; x86-64 needs no alignment pad, so @padattr is unused. */
static inline int nla_put_u64_64bit(struct sk_buff *skb, int type, u64 v,
				    int padattr __maybe_unused)
{
	return nla_put(skb, type, 8, &v);
}
static inline int nla_put_s64(struct sk_buff *skb, int type, s64 v, int padattr __maybe_unused)
{
	return nla_put(skb, type, 8, &v);
}
/** nla_put_uint() - NLA_UINT: 4 bytes when the value fits, else 8. */
static inline int nla_put_uint(struct sk_buff *skb, int type, u64 v)
{
	u32 v32 = (u32)v;

	return v == v32 ? nla_put(skb, type, 4, &v32) : nla_put(skb, type, 8, &v);
}
/** nla_put_sint() - NLA_SINT: 4 bytes when the value fits, else 8. */
static inline int nla_put_sint(struct sk_buff *skb, int type, s64 v)
{
	s32 v32 = (s32)v;

	return v == v32 ? nla_put(skb, type, 4, &v32) : nla_put(skb, type, 8, &v);
}
static inline int nla_put_flag(struct sk_buff *skb, int type) { return nla_put(skb, type, 0, NULL); }
/** nla_put_string() - a string attribute including its NUL. */
static inline int nla_put_string(struct sk_buff *skb, int type, const char *str)
{
	return nla_put(skb, type, strlen(str) + 1, str);
}
static inline int nla_put_bitfield32(struct sk_buff *skb, int type, u32 value, u32 selector)
{
	struct nla_bitfield32 bf = { .value = value, .selector = selector };

	return nla_put(skb, type, sizeof(bf), &bf);
}
static inline int nla_put_msecs(struct sk_buff *skb, int type, u64 msecs,
				int padattr __maybe_unused)
{
	return nla_put(skb, type, 8, &msecs);
}

/*
 * The 64-bit, little-endian, address and raw-append helpers of include/net/netlink.h and
 * lib/nlattr.c.  x86-64 has efficient unaligned access, so the _64bit variants never add a
 * pad attribute (nla_need_padding_for_64bit() is false) and @padattr goes unused, as there.
 */
static inline bool nla_need_padding_for_64bit(struct sk_buff *skb __maybe_unused) { return false; }
static inline int nla_align_64bit(struct sk_buff *skb __maybe_unused, int padattr __maybe_unused)
{
	return 0;
}
static inline int nla_total_size_64bit(int payload) { return NLA_ALIGN(nla_attr_size(payload)); }
static inline struct nlattr *nla_reserve_64bit(struct sk_buff *skb, int attrtype, int attrlen,
					       int padattr __maybe_unused)
{
	return nla_reserve(skb, attrtype, attrlen);
}
static inline int nla_put_64bit(struct sk_buff *skb, int attrtype, int attrlen, const void *data,
				int padattr __maybe_unused)
{
	return nla_put(skb, attrtype, attrlen, data);
}
/** nla_put_be64() - @value is __be64 (network byte order), put as it is. */
static inline int nla_put_be64(struct sk_buff *skb, int type, __be64 value, int padattr)
{
	return nla_put_64bit(skb, type, sizeof(value), &value, padattr);
}
static inline int nla_put_net64(struct sk_buff *skb, int type, __be64 value, int padattr)
{
	return nla_put_be64(skb, type | NLA_F_NET_BYTEORDER, value, padattr);
}
static inline int nla_put_le16(struct sk_buff *skb, int type, __le16 value)
{
	return nla_put(skb, type, sizeof(value), &value);
}
static inline int nla_put_le32(struct sk_buff *skb, int type, __le32 value)
{
	return nla_put(skb, type, sizeof(value), &value);
}
static inline int nla_put_le64(struct sk_buff *skb, int type, __le64 value, int padattr)
{
	return nla_put_64bit(skb, type, sizeof(value), &value, padattr);
}
static inline int nla_put_in_addr(struct sk_buff *skb, int type, __be32 addr)
{
	return nla_put_be32(skb, type, addr);
}
#define KFSIM_NLA_GET_RAW(name, type)                                                             \
	static inline type name(const struct nlattr *nla)                                         \
	{                                                                                         \
		type v;                                                                           \
		memcpy(&v, nla_data(nla), sizeof(v));                                             \
		return v;                                                                         \
	}
KFSIM_NLA_GET_RAW(nla_get_be64, __be64)
KFSIM_NLA_GET_RAW(nla_get_le16, __le16)
KFSIM_NLA_GET_RAW(nla_get_le32, __le32)
KFSIM_NLA_GET_RAW(nla_get_le64, __le64)
KFSIM_NLA_GET_RAW(nla_get_in_addr, __be32)
#undef KFSIM_NLA_GET_RAW

/** nla_is_last() - whether @nla is the last attribute of the @rem bytes left. */
static inline bool nla_is_last(const struct nlattr *nla, int rem)
{
	return nla->nla_len == rem;
}

/** nla_put_nohdr() - append @attrlen bytes of @data, padded to NLA_ALIGN, without a header. */
static inline int nla_put_nohdr(struct sk_buff *skb, int attrlen, const void *data)
{
	unsigned char *start;

	if (unlikely(skb_tailroom(skb) < (unsigned int)NLA_ALIGN(attrlen)))
		return -EMSGSIZE;
	start = skb_tail_pointer(skb);
	if (attrlen)
		memcpy(start, data, attrlen);
	memset(start + attrlen, 0, NLA_ALIGN(attrlen) - attrlen);
	skb->len += NLA_ALIGN(attrlen);
	return 0;
}

/** nla_append() - append @attrlen bytes of @data, unpadded (room for the padding is required). */
static inline int nla_append(struct sk_buff *skb, int attrlen, const void *data)
{
	if (unlikely(skb_tailroom(skb) < (unsigned int)NLA_ALIGN(attrlen)))
		return -EMSGSIZE;
	if (attrlen)
		memcpy(skb_tail_pointer(skb), data, attrlen);
	skb->len += attrlen;
	return 0;
}

/** nla_nest_start_noflag() - open a nest without NLA_F_NESTED (old uapi); NULL if no room. */
static inline struct nlattr *nla_nest_start_noflag(struct sk_buff *skb, int attrtype)
{
	return nla_reserve(skb, attrtype, 0);
}

/** nla_nest_start() - open a nest, with NLA_F_NESTED as the kernel sets it since 5.2. */
static inline struct nlattr *nla_nest_start(struct sk_buff *skb, int attrtype)
{
	return nla_nest_start_noflag(skb, attrtype | NLA_F_NESTED);
}

/** nla_nest_end() - close @start; an empty nest is kept.  Return: @skb's length. */
static inline int nla_nest_end(struct sk_buff *skb, struct nlattr *start)
{
	start->nla_len = skb_tail_pointer(skb) - (unsigned char *)start;
	return skb->len;
}

/** nla_nest_cancel() - drop the nest @start and everything in it. */
static inline void nla_nest_cancel(struct sk_buff *skb, struct nlattr *start)
{
	nlmsg_trim(skb, start);
}

/* -- validation and parsing -- */

/**
 * kfsim_nla_validate_parse() - the kernel's __nla_validate_parse() at depth 0
 * @head: the attribute stream; @len: its length in bytes (negative: treated as empty)
 * @maxtype: highest attribute type the policy knows
 * @policy: an array of @maxtype + 1 (NULL: only the stream's framing is checked)
 * @validate: NL_VALIDATE_* flags
 * @extack: where the message and bad attribute go (may be NULL)
 * @tb: if not NULL, an array of @maxtype + 1 pointers, cleared and then filled with the last
 *      attribute of each known type
 *
 * Checks in the kernel's order for each attribute: type 0 or > @maxtype ("Unknown attribute
 * type", -EINVAL, only with NL_VALIDATE_MAXTYPE, else skipped), then validate_nla() (see the
 * table in docs/netlink.md), and after the loop leftover bytes ("bytes leftover after parsing
 * attributes": always the message and a log line, -EINVAL only with NL_VALIDATE_TRAILING).
 * Nested policies recurse to MAX_POLICY_RECURSION_DEPTH ("allowed policy recursion depth
 * exceeded").  Length mismatches of fixed-size types log "netlink: 'kfsim': attribute type N
 * has an invalid length." as the kernel logs it, even when not strict.
 *
 * Return: 0, -EINVAL, -ERANGE, or what a policy's validate function returned.
 */
int kfsim_nla_validate_parse(const struct nlattr *head, int len, int maxtype,
			     const struct nla_policy *policy, unsigned int validate,
			     struct netlink_ext_ack *extack, struct nlattr **tb);

/** __nla_validate() - validate with explicit NL_VALIDATE_* flags (no tb[]). */
static inline int __nla_validate(const struct nlattr *head, int len, int maxtype,
				 const struct nla_policy *policy, unsigned int validate,
				 struct netlink_ext_ack *extack)
{
	return kfsim_nla_validate_parse(head, len, maxtype, policy, validate, extack, NULL);
}

/** __nla_parse() - parse into @tb with explicit NL_VALIDATE_* flags. */
static inline int __nla_parse(struct nlattr **tb, int maxtype, const struct nlattr *head, int len,
			      const struct nla_policy *policy, unsigned int validate,
			      struct netlink_ext_ack *extack)
{
	return kfsim_nla_validate_parse(head, len, maxtype, policy, validate, extack, tb);
}

/** nla_parse() - strict parse (NL_VALIDATE_STRICT), what new code uses. */
static inline int nla_parse(struct nlattr **tb, int maxtype, const struct nlattr *head, int len,
			    const struct nla_policy *policy, struct netlink_ext_ack *extack)
{
	return __nla_parse(tb, maxtype, head, len, policy, NL_VALIDATE_STRICT, extack);
}

/** nla_parse_deprecated() - liberal parse (NL_VALIDATE_LIBERAL), for old families. */
static inline int nla_parse_deprecated(struct nlattr **tb, int maxtype, const struct nlattr *head,
				       int len, const struct nla_policy *policy,
				       struct netlink_ext_ack *extack)
{
	return __nla_parse(tb, maxtype, head, len, policy, NL_VALIDATE_LIBERAL, extack);
}

/** nla_parse_deprecated_strict() - NL_VALIDATE_DEPRECATED_STRICT (trailing + maxtype only). */
static inline int nla_parse_deprecated_strict(struct nlattr **tb, int maxtype,
					      const struct nlattr *head, int len,
					      const struct nla_policy *policy,
					      struct netlink_ext_ack *extack)
{
	return __nla_parse(tb, maxtype, head, len, policy, NL_VALIDATE_DEPRECATED_STRICT, extack);
}

/**
 * nla_parse_nested() - strict parse of a nest's payload
 * Return: as __nla_parse(); first -EINVAL "NLA_F_NESTED is missing" (bad attribute @nla) when
 * @nla lacks NLA_F_NESTED.
 */
static inline int nla_parse_nested(struct nlattr **tb, int maxtype, const struct nlattr *nla,
				   const struct nla_policy *policy, struct netlink_ext_ack *extack)
{
	if (!(nla->nla_type & NLA_F_NESTED)) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "NLA_F_NESTED is missing");
		return -EINVAL;
	}
	return __nla_parse(tb, maxtype, nla_data(nla), nla_len(nla), policy, NL_VALIDATE_STRICT,
			   extack);
}

/** nla_parse_nested_deprecated() - liberal parse of a nest's payload (flag not required). */
static inline int nla_parse_nested_deprecated(struct nlattr **tb, int maxtype,
					      const struct nlattr *nla,
					      const struct nla_policy *policy,
					      struct netlink_ext_ack *extack)
{
	return __nla_parse(tb, maxtype, nla_data(nla), nla_len(nla), policy, NL_VALIDATE_LIBERAL,
			   extack);
}

/** nla_validate() - strict validation without tb[]. */
static inline int nla_validate(const struct nlattr *head, int len, int maxtype,
			       const struct nla_policy *policy, struct netlink_ext_ack *extack)
{
	return __nla_validate(head, len, maxtype, policy, NL_VALIDATE_STRICT, extack);
}

/** nla_validate_deprecated() - liberal validation without tb[]. */
static inline int nla_validate_deprecated(const struct nlattr *head, int len, int maxtype,
					  const struct nla_policy *policy,
					  struct netlink_ext_ack *extack)
{
	return __nla_validate(head, len, maxtype, policy, NL_VALIDATE_LIBERAL, extack);
}

/** __nla_validate_nested() - validation of a nest's payload with explicit NL_VALIDATE_* flags. */
static inline int __nla_validate_nested(const struct nlattr *start, int maxtype,
					const struct nla_policy *policy, unsigned int validate,
					struct netlink_ext_ack *extack)
{
	return __nla_validate(nla_data(start), nla_len(start), maxtype, policy, validate, extack);
}

/** nla_validate_nested_deprecated() - liberal validation of a nest's payload. */
static inline int nla_validate_nested_deprecated(const struct nlattr *start, int maxtype,
						 const struct nla_policy *policy,
						 struct netlink_ext_ack *extack)
{
	return __nla_validate_nested(start, maxtype, policy, NL_VALIDATE_LIBERAL, extack);
}

/** nla_validate_nested() - strict validation of a nest's payload. */
static inline int nla_validate_nested(const struct nlattr *start, int maxtype,
				      const struct nla_policy *policy,
				      struct netlink_ext_ack *extack)
{
	return __nla_validate(nla_data(start), nla_len(start), maxtype, policy,
			      NL_VALIDATE_STRICT, extack);
}

/**
 * __nlmsg_parse() - parse a message's attributes after @hdrlen bytes of family header
 * Return: -EINVAL "Invalid header length" when the message is shorter than its headers, else
 * as __nla_parse().
 */
static inline int __nlmsg_parse(const struct nlmsghdr *nlh, int hdrlen, struct nlattr **tb,
				int maxtype, const struct nla_policy *policy, unsigned int validate,
				struct netlink_ext_ack *extack)
{
	if (nlh->nlmsg_len < (u32)nlmsg_msg_size(hdrlen)) {
		NL_SET_ERR_MSG(extack, "Invalid header length");
		return -EINVAL;
	}
	return __nla_parse(tb, maxtype, nlmsg_attrdata(nlh, hdrlen), nlmsg_attrlen(nlh, hdrlen),
			   policy, validate, extack);
}

static inline int nlmsg_parse(const struct nlmsghdr *nlh, int hdrlen, struct nlattr **tb,
			      int maxtype, const struct nla_policy *policy,
			      struct netlink_ext_ack *extack)
{
	return __nlmsg_parse(nlh, hdrlen, tb, maxtype, policy, NL_VALIDATE_STRICT, extack);
}

/** nlmsg_parse_deprecated_strict() - NL_VALIDATE_DEPRECATED_STRICT (trailing + maxtype only). */
static inline int nlmsg_parse_deprecated_strict(const struct nlmsghdr *nlh, int hdrlen,
						struct nlattr **tb, int maxtype,
						const struct nla_policy *policy,
						struct netlink_ext_ack *extack)
{
	return __nlmsg_parse(nlh, hdrlen, tb, maxtype, policy, NL_VALIDATE_DEPRECATED_STRICT,
			     extack);
}

/** nlmsg_validate_deprecated() - liberal validation; a short header is a bare -EINVAL. */
static inline int nlmsg_validate_deprecated(const struct nlmsghdr *nlh, int hdrlen, int maxtype,
					    const struct nla_policy *policy,
					    struct netlink_ext_ack *extack)
{
	if (nlh->nlmsg_len < (u32)nlmsg_msg_size(hdrlen))
		return -EINVAL;
	return __nla_validate(nlmsg_attrdata(nlh, hdrlen), nlmsg_attrlen(nlh, hdrlen), maxtype,
			      policy, NL_VALIDATE_LIBERAL, extack);
}

static inline int nlmsg_parse_deprecated(const struct nlmsghdr *nlh, int hdrlen,
					 struct nlattr **tb, int maxtype,
					 const struct nla_policy *policy,
					 struct netlink_ext_ack *extack)
{
	return __nlmsg_parse(nlh, hdrlen, tb, maxtype, policy, NL_VALIDATE_LIBERAL, extack);
}

/**
 * kfsim_nl_ext_ack_offset() - the byte offset of @extack's bad attribute from @base
 * Return: the offset, or -1 when there is no bad attribute or it lies outside [@base,
 * @base + @len).
 */
static inline long kfsim_nl_ext_ack_offset(const struct netlink_ext_ack *extack, const void *base,
					   size_t len)
{
	const unsigned char *p = (const unsigned char *)extack->bad_attr;

	if (!p || p < (const unsigned char *)base || p >= (const unsigned char *)base + len)
		return -1;
	return p - (const unsigned char *)base;
}

/**
 * kfsim_nla_policy_put() - write @pt as the kernel's policy dump does (NL_POLICY_TYPE_ATTR_*)
 * @skb: destination; @nestattr: the nest's type; @policy_idx: for NLA_NESTED(_ARRAY) with a
 *       nested policy, the index to report (negative: leave POLICY_IDX/MAXTYPE out, as the
 *       extack NLMSGERR_ATTR_POLICY does)
 *
 * Return: 0; -ENODATA for NLA_UNSPEC/NLA_REJECT, which a dump leaves out (nothing written);
 * -EMSGSIZE when @skb is full (nothing written).
 */
int kfsim_nla_policy_put(struct sk_buff *skb, const struct nla_policy *pt, int nestattr,
			 int policy_idx);

#pragma GCC visibility pop

/* The rest of what this header used to hold. */
#include <kfsim/genetlink.h>
#include <kfsim/nl_print.h>
#endif /* KFSIM_NETLINK_H */
