// SPDX-License-Identifier: MIT
/*
 * Strict attribute validation and a message builder, after lib/nlattr.c and
 * include/net/netlink.h (Linux 6.3).  See ethtool_nlattr.h for what this covers.
 *
 * Check order per attribute (validate_nla): type in 1..maxtype, exact length of fixed-size
 * types, NLA_F_NESTED present exactly on nests, the type's own rules, then the range or mask.
 * A nested error is returned as is so the extack names the innermost attribute.
 */
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/printk.h>
#include "ethtool_nlattr.h"

#define NL_VALIDATE_MAX_DEPTH 10
#define U8_MAX 0xffULL
#define U16_MAX 0xffffULL
#define U32_MAX 0xffffffffULL
#define U64_MAX (~0ULL)
#define fallthrough __attribute__((__fallthrough__))

static const u8 nla_attr_len[] = {
	[NLA_U8] = sizeof(u8), [NLA_U16] = sizeof(u16), [NLA_U32] = sizeof(u32),
	[NLA_U64] = sizeof(u64), [NLA_MSECS] = sizeof(u64),
};

static int validate_range(const struct nla_policy *pt, const struct nlattr *nla,
			  struct netlink_ext_ack *extack)
{
	u64 value, min = 0, max;

	switch (pt->type) {
	case NLA_U8:
		value = nla_get_u8(nla);
		max = U8_MAX;
		break;
	case NLA_U16:
		value = nla_get_u16(nla);
		max = U16_MAX;
		break;
	case NLA_U32:
		value = nla_get_u32(nla);
		max = U32_MAX;
		break;
	default:
		return 0;
	}
	if (pt->validation_type == NLA_VALIDATE_MASK) {
		if (value & ~pt->mask) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "reserved bit set");
			return -EINVAL;
		}
		return 0;
	}
	if (pt->validation_type == NLA_VALIDATE_RANGE || pt->validation_type == NLA_VALIDATE_MIN)
		min = (u64)pt->min;
	if (pt->validation_type == NLA_VALIDATE_RANGE || pt->validation_type == NLA_VALIDATE_MAX)
		max = (u64)pt->max;
	if (value < min || value > max) {
		NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "integer out of range");
		return -ERANGE;
	}
	return 0;
}

static int validate_parse(struct nlattr **tb, int maxtype, const struct nlattr *head, int len,
			  const struct nla_policy *policy, struct netlink_ext_ack *extack,
			  int depth);

static int validate_nla(const struct nlattr *nla, int maxtype, const struct nla_policy *policy,
			struct netlink_ext_ack *extack, int depth)
{
	int type = nla_type(nla), attrlen = nla_len(nla), err = -ERANGE;
	const struct nla_policy *pt;

	if (type <= 0 || type > maxtype) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "Unknown attribute type");
		return -EINVAL;
	}
	pt = &policy[type];
	if (pt->type < ARRAY_SIZE(nla_attr_len) && nla_attr_len[pt->type] &&
	    attrlen != nla_attr_len[pt->type]) {
		pr_warn("netlink: 'kfsim': attribute type %d has an invalid length.\n", type);
		NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "invalid attribute length");
		return -EINVAL;
	}
	if (pt->type == NLA_NESTED || pt->type == NLA_NESTED_ARRAY) {
		if (!(nla->nla_type & NLA_F_NESTED)) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "NLA_F_NESTED is missing");
			return -EINVAL;
		}
	} else if (pt->type != NLA_UNSPEC && (nla->nla_type & NLA_F_NESTED)) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "NLA_F_NESTED not expected");
		return -EINVAL;
	}

	switch (pt->type) {
	case NLA_NUL_STRING: {
		int minlen = pt->len ? min(attrlen, pt->len + 1) : attrlen;

		if (!minlen || !memchr(nla_data(nla), '\0', minlen)) {
			err = -EINVAL;
			goto out_err;
		}
	}
		fallthrough;
	case NLA_STRING:
		if (attrlen < 1)
			goto out_err;
		if (pt->len) {
			const char *str = nla_data(nla);

			if (str[attrlen - 1] == '\0')
				attrlen--;
			if (attrlen > pt->len)
				goto out_err;
		}
		break;
	case NLA_NESTED:
		if (attrlen == 0)
			break;
		if (attrlen < NLA_HDRLEN)
			goto out_err;
		if (depth >= NL_VALIDATE_MAX_DEPTH) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "allowed policy recursion depth exceeded");
			return -EINVAL;
		}
		/* The inner error is returned as is: it names the inner attribute. */
		return validate_parse(NULL, pt->len, nla_data(nla), attrlen, pt->nested_policy,
				      extack, depth + 1);
	case NLA_UNSPEC:
		NL_SET_ERR_MSG_ATTR(extack, nla, "Unsupported attribute");
		return -EINVAL;
	default:
		break;
	}
	return validate_range(pt, nla, extack);
out_err:
	NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "Attribute failed policy validation");
	return err;
}

static int validate_parse(struct nlattr **tb, int maxtype, const struct nlattr *head, int len,
			  const struct nla_policy *policy, struct netlink_ext_ack *extack,
			  int depth)
{
	const struct nlattr *nla;
	int rem, err;

	if (tb)
		memset(tb, 0, sizeof(*tb) * (maxtype + 1));
	nla_for_each_attr(nla, head, len, rem) {
		err = validate_nla(nla, maxtype, policy, extack, depth);
		if (err)
			return err;
		if (tb)
			tb[nla_type(nla)] = (struct nlattr *)nla;
	}
	if (rem > 0) {
		pr_warn("netlink: %d bytes leftover after parsing attributes in process `kfsim'.\n",
			rem);
		NL_SET_ERR_MSG(extack, "bytes leftover after parsing attributes");
		return -EINVAL;
	}
	return 0;
}

int nla_parse_strict(struct nlattr **tb, int maxtype, const struct nlattr *head, int len,
		     const struct nla_policy *policy, struct netlink_ext_ack *extack)
{
	return validate_parse(tb, maxtype, head, len, policy, extack, 0);
}

int kfsim_nlbuf_put(struct kfsim_nlbuf *buf, u16 type, const void *payload, size_t size)
{
	struct nlattr nla = { .nla_len = (u16)(NLA_HDRLEN + size), .nla_type = type };
	size_t total = NLA_ALIGN(NLA_HDRLEN + size);

	if (size > 0xffff - NLA_HDRLEN || buf->len + total > buf->cap)
		return -EMSGSIZE;
	memcpy(buf->data + buf->len, &nla, sizeof(nla));
	if (size)
		memcpy(buf->data + buf->len + NLA_HDRLEN, payload, size);
	memset(buf->data + buf->len + NLA_HDRLEN + size, 0, total - NLA_HDRLEN - size);
	buf->len += total;
	return 0;
}

int kfsim_nlbuf_put_u8(struct kfsim_nlbuf *buf, u16 type, u8 value)
{
	return kfsim_nlbuf_put(buf, type, &value, sizeof(value));
}

int kfsim_nlbuf_put_u16(struct kfsim_nlbuf *buf, u16 type, u16 value)
{
	return kfsim_nlbuf_put(buf, type, &value, sizeof(value));
}

int kfsim_nlbuf_put_u32(struct kfsim_nlbuf *buf, u16 type, u32 value)
{
	return kfsim_nlbuf_put(buf, type, &value, sizeof(value));
}

int kfsim_nlbuf_put_u64(struct kfsim_nlbuf *buf, u16 type, u64 value)
{
	return kfsim_nlbuf_put(buf, type, &value, sizeof(value));
}

int kfsim_nlbuf_put_string(struct kfsim_nlbuf *buf, u16 type, const char *str)
{
	return kfsim_nlbuf_put(buf, type, str, strlen(str) + 1);
}

int kfsim_nlbuf_nest_start(struct kfsim_nlbuf *buf, u16 type)
{
	int offset = (int)buf->len;
	int ret = kfsim_nlbuf_put(buf, type | NLA_F_NESTED, NULL, 0);

	return ret ? ret : offset;
}

void kfsim_nlbuf_nest_end(struct kfsim_nlbuf *buf, int offset)
{
	u16 len = (u16)(buf->len - offset);

	memcpy(buf->data + offset, &len, sizeof(len));
}

int kfsim_nlbuf_genlmsg(struct kfsim_nlbuf *buf, u16 nl_type, u16 flags, u32 seq, u32 portid,
			u8 cmd, u8 version)
{
	struct nlmsghdr nlh = { .nlmsg_len = NLMSG_HDRLEN + GENL_HDRLEN, .nlmsg_type = nl_type,
				.nlmsg_flags = flags, .nlmsg_seq = seq, .nlmsg_pid = portid };
	struct genlmsghdr genl = { .cmd = cmd, .version = version };

	if (buf->cap < NLMSG_HDRLEN + GENL_HDRLEN)
		return -EMSGSIZE;
	memcpy(buf->data, &nlh, sizeof(nlh));
	memcpy(buf->data + NLMSG_HDRLEN, &genl, sizeof(genl));
	buf->len = NLMSG_HDRLEN + GENL_HDRLEN;
	return 0;
}

void kfsim_nlbuf_finish(struct kfsim_nlbuf *buf)
{
	u32 len = (u32)buf->len;

	memcpy(buf->data, &len, sizeof(len));
}

static u32 policy_attr_type(u8 type)
{
	switch (type) {
	case NLA_U8:
		return NL_ATTR_TYPE_U8;
	case NLA_U16:
		return NL_ATTR_TYPE_U16;
	case NLA_U32:
		return NL_ATTR_TYPE_U32;
	case NLA_U64:
		return NL_ATTR_TYPE_U64;
	case NLA_NUL_STRING:
		return NL_ATTR_TYPE_NUL_STRING;
	case NLA_STRING:
		return NL_ATTR_TYPE_STRING;
	case NLA_NESTED:
		return NL_ATTR_TYPE_NESTED;
	default:
		return NL_ATTR_TYPE_INVALID;
	}
}

int kfsim_nla_policy_dump(struct kfsim_nlbuf *buf, const struct nla_policy *pt, u16 attrtype)
{
	int nest = kfsim_nlbuf_nest_start(buf, attrtype);
	int ret = 0;

	if (nest < 0)
		return nest;
	switch (pt->type) {
	case NLA_U8:
	case NLA_U16:
	case NLA_U32:
	case NLA_U64: {
		u64 min = 0, max = pt->type == NLA_U8 ? U8_MAX : pt->type == NLA_U16 ? U16_MAX :
				 pt->type == NLA_U32 ? U32_MAX : U64_MAX;

		if (pt->validation_type == NLA_VALIDATE_MASK) {
			ret = kfsim_nlbuf_put_u64(buf, NL_POLICY_TYPE_ATTR_MASK, pt->mask);
			break;
		}
		if (pt->validation_type == NLA_VALIDATE_RANGE ||
		    pt->validation_type == NLA_VALIDATE_MIN)
			min = (u64)pt->min;
		if (pt->validation_type == NLA_VALIDATE_RANGE ||
		    pt->validation_type == NLA_VALIDATE_MAX)
			max = (u64)pt->max;
		ret = kfsim_nlbuf_put_u64(buf, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, min) ?:
		      kfsim_nlbuf_put_u64(buf, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, max);
		break;
	}
	case NLA_STRING:
	case NLA_NUL_STRING:
		if (pt->len)
			ret = kfsim_nlbuf_put_u32(buf, NL_POLICY_TYPE_ATTR_MAX_LENGTH, pt->len);
		break;
	default:
		break;
	}
	ret = ret ?: kfsim_nlbuf_put_u32(buf, NL_POLICY_TYPE_ATTR_TYPE, policy_attr_type(pt->type));
	if (ret) {
		buf->len = nest;
		return ret;
	}
	kfsim_nlbuf_nest_end(buf, nest);
	return 0;
}
