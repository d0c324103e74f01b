// SPDX-License-Identifier: MIT
/*
 * Attribute validation and parsing, lib/nlattr.c's rules as of Linux 6.18.
 *
 * Invariants kept:
 *  - Nothing outside [head, head + len) is ever read: every attribute is framed by nla_ok()
 *    before its header or payload is touched, and each type check reads at most nla_len bytes.
 *  - The order of checks, the errno of each and the extack text are the kernel's (observed on
 *    the running 6.18 kernel where the source left a doubt; see docs/netlink.md):
 *      unknown type -> fixed length -> NLA_F_NESTED -> type rules -> range/mask/function,
 *    then leftover bytes after the loop.
 *  - On error, tb[] holds the attributes accepted before the failing one (the kernel's too).
 */
#include <stdio.h>
#include <string.h>
#include <kfsim/netlink.h>
#include <kfsim/printk.h>
#include "nl_internal.h"

/* Exact payload sizes of the fixed-size types (nla_attr_len[]). */
static const u8 nla_attr_len[NLA_TYPE_MAX + 1] = {
	[NLA_U8] = sizeof(u8),	  [NLA_U16] = sizeof(u16), [NLA_U32] = sizeof(u32),
	[NLA_U64] = sizeof(u64),  [NLA_S8] = sizeof(s8),   [NLA_S16] = sizeof(s16),
	[NLA_S32] = sizeof(s32),  [NLA_S64] = sizeof(s64), [NLA_BE16] = sizeof(u16),
	[NLA_BE32] = sizeof(u32),
};

/* Minimum payload sizes when the policy's .len is 0 (nla_attr_minlen[]). */
static const u8 nla_attr_minlen[NLA_TYPE_MAX + 1] = {
	[NLA_U8] = sizeof(u8),	 [NLA_U16] = sizeof(u16),   [NLA_U32] = sizeof(u32),
	[NLA_U64] = sizeof(u64), [NLA_MSECS] = sizeof(u64), [NLA_NESTED] = NLA_HDRLEN,
	[NLA_S8] = sizeof(s8),	 [NLA_S16] = sizeof(s16),   [NLA_S32] = sizeof(s32),
	[NLA_S64] = sizeof(s64), [NLA_BE16] = sizeof(u16),  [NLA_BE32] = sizeof(u32),
};

static int validate_parse(const struct nlattr *head, int len, int maxtype,
			  const struct nla_policy *policy, unsigned int validate,
			  struct netlink_ext_ack *extack, struct nlattr **tb, unsigned int depth);

/* The unsigned [min, max] a policy allows (nla_get_range_unsigned). */
static void range_unsigned(const struct nla_policy *pt, u64 *min, u64 *max)
{
	*min = 0;
	switch (pt->type) {
	case NLA_U8:
		*max = U8_MAX;
		break;
	case NLA_U16:
	case NLA_BE16:
	case NLA_BINARY:
		*max = U16_MAX;
		break;
	case NLA_U32:
	case NLA_BE32:
		*max = U32_MAX;
		break;
	default:
		*max = U64_MAX;
		break;
	}
	switch (pt->validation_type) {
	case NLA_VALIDATE_RANGE:
	case NLA_VALIDATE_RANGE_WARN_TOO_LONG:
		*min = (u64)(s64)pt->min;
		*max = (u64)(s64)pt->max;
		break;
	case NLA_VALIDATE_RANGE_PTR:
		*min = pt->range->min;
		*max = pt->range->max;
		break;
	case NLA_VALIDATE_MIN:
		*min = (u64)(s64)pt->min;
		break;
	case NLA_VALIDATE_MAX:
		*max = (u64)(s64)pt->max;
		break;
	default:
		break;
	}
}

/* The signed [min, max] a policy allows (nla_get_range_signed). */
static void range_signed(const struct nla_policy *pt, s64 *min, s64 *max)
{
	switch (pt->type) {
	case NLA_S8:
		*min = S8_MIN;
		*max = S8_MAX;
		break;
	case NLA_S16:
		*min = S16_MIN;
		*max = S16_MAX;
		break;
	case NLA_S32:
		*min = S32_MIN;
		*max = S32_MAX;
		break;
	default:
		*min = S64_MIN;
		*max = S64_MAX;
		break;
	}
	switch (pt->validation_type) {
	case NLA_VALIDATE_RANGE:
		*min = pt->min;
		*max = pt->max;
		break;
	case NLA_VALIDATE_RANGE_PTR:
		*min = pt->range_signed->min;
		*max = pt->range_signed->max;
		break;
	case NLA_VALIDATE_MIN:
		*min = pt->min;
		break;
	case NLA_VALIDATE_MAX:
		*max = pt->max;
		break;
	default:
		break;
	}
}

void kfsim_nla_get_range_unsigned(const struct nla_policy *pt, u64 *min, u64 *max)
{
	range_unsigned(pt, min, max);
}

void kfsim_nla_get_range_signed(const struct nla_policy *pt, s64 *min, s64 *max)
{
	range_signed(pt, min, max);
}

static int validate_range_unsigned(const struct nla_policy *pt, const struct nlattr *nla,
				   struct netlink_ext_ack *extack, unsigned int validate)
{
	u64 value, min, max;

	switch (pt->type) {
	case NLA_U8:
		value = nla_get_u8(nla);
		break;
	case NLA_U16:
		value = nla_get_u16(nla);
		break;
	case NLA_U32:
		value = nla_get_u32(nla);
		break;
	case NLA_U64:
	case NLA_MSECS:
		value = nla_get_u64(nla);
		break;
	case NLA_UINT:
		value = nla_get_uint(nla);
		break;
	case NLA_BE16:
		value = be16toh(nla_get_be16(nla));
		break;
	case NLA_BE32:
		value = be32toh(nla_get_be32(nla));
		break;
	case NLA_BINARY:
		value = nla_len(nla);
		break;
	default:
		return -EINVAL;
	}

	range_unsigned(pt, &min, &max);
	if (pt->validation_type == NLA_VALIDATE_RANGE_WARN_TOO_LONG && pt->type == NLA_BINARY &&
	    value > max) {
		pr_warn_ratelimited("netlink: 'kfsim': attribute type %d has an invalid length.\n",
				    pt->type);
		if (validate & NL_VALIDATE_STRICT_ATTRS) {
			NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "invalid attribute length");
			return -EINVAL;
		}
		return 0; /* too long is only a warning; min is not checked (min <= max) */
	}
	if (value < min || value > max) {
		if (pt->type == NLA_BINARY)
			NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt,
						"binary attribute size out of range");
		else
			NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "integer out of range");
		return -ERANGE;
	}
	return 0;
}

static int validate_range_signed(const struct nla_policy *pt, const struct nlattr *nla,
				 struct netlink_ext_ack *extack)
{
	s64 value, min, max;

	switch (pt->type) {
	case NLA_S8:
		value = nla_get_s8(nla);
		break;
	case NLA_S16:
		value = nla_get_s16(nla);
		break;
	case NLA_S32:
		value = nla_get_s32(nla);
		break;
	case NLA_S64:
		value = nla_get_s64(nla);
		break;
	case NLA_SINT:
		value = nla_get_sint(nla);
		break;
	default:
		return -EINVAL;
	}
	range_signed(pt, &min, &max);
	if (value < min || value > max) {
		NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "integer out of range");
		return -ERANGE;
	}
	return 0;
}

static int validate_int_range(const struct nla_policy *pt, const struct nlattr *nla,
			      struct netlink_ext_ack *extack, unsigned int validate)
{
	switch (pt->type) {
	case NLA_U8:
	case NLA_U16:
	case NLA_U32:
	case NLA_U64:
	case NLA_UINT:
	case NLA_MSECS:
	case NLA_BINARY:
	case NLA_BE16:
	case NLA_BE32:
		return validate_range_unsigned(pt, nla, extack, validate);
	case NLA_S8:
	case NLA_S16:
	case NLA_S32:
	case NLA_S64:
	case NLA_SINT:
		return validate_range_signed(pt, nla, extack);
	default:
		WARN_ON_ONCE(1); /* a range on a type without values: a policy bug */
		return -EINVAL;
	}
}

static int validate_mask(const struct nla_policy *pt, const struct nlattr *nla,
			 struct netlink_ext_ack *extack)
{
	u64 value;

	switch (pt->type) {
	case NLA_U8:
		value = nla_get_u8(nla);
		break;
	case NLA_U16:
		value = nla_get_u16(nla);
		break;
	case NLA_U32:
		value = nla_get_u32(nla);
		break;
	case NLA_U64:
		value = nla_get_u64(nla);
		break;
	case NLA_UINT:
		value = nla_get_uint(nla);
		break;
	case NLA_BE16:
		value = be16toh(nla_get_be16(nla));
		break;
	case NLA_BE32:
		value = be32toh(nla_get_be32(nla));
		break;
	default:
		return -EINVAL;
	}
	if (value & ~(u64)pt->mask) {
		NL_SET_ERR_MSG_ATTR(extack, nla, "reserved bit set");
		return -EINVAL;
	}
	return 0;
}

static int validate_bitfield32(const struct nlattr *nla, u32 valid)
{
	struct nla_bitfield32 bf = nla_get_bitfield32(nla);

	if (!valid)
		return -EINVAL;
	if (bf.selector & ~valid) /* selects a bit the policy does not allow */
		return -EINVAL;
	if (bf.value & ~valid) /* sets a bit the policy does not allow */
		return -EINVAL;
	if (bf.value & ~bf.selector) /* sets a bit it does not select */
		return -EINVAL;
	return 0;
}

static int validate_array(const struct nlattr *head, int len, int maxtype,
			  const struct nla_policy *policy, struct netlink_ext_ack *extack,
			  unsigned int validate, unsigned int depth)
{
	const struct nlattr *entry;
	int rem;

	nla_for_each_attr(entry, head, len, rem)
	{
		int err;

		if (nla_len(entry) == 0)
			continue;
		if (nla_len(entry) < NLA_HDRLEN) {
			NL_SET_ERR_MSG_ATTR_POL(extack, entry, policy, "Array element too short");
			return -ERANGE;
		}
		err = validate_parse(nla_data(entry), nla_len(entry), maxtype, policy, validate,
				     extack, NULL, depth + 1);
		if (err < 0)
			return err;
	}
	return 0;
}

/* One attribute against its policy slot (validate_nla). */
static int validate_nla(const struct nlattr *nla, int maxtype, const struct nla_policy *policy,
			unsigned int validate, struct netlink_ext_ack *extack, unsigned int depth)
{
	u16 strict_start_type = policy[0].strict_start_type;
	int type = nla_type(nla), attrlen = nla_len(nla), minlen;
	const struct nla_policy *pt;
	int err = -ERANGE;

	if (strict_start_type && type >= strict_start_type)
		validate |= NL_VALIDATE_STRICT;
	if (type <= 0 || type > maxtype)
		return 0;
	pt = &policy[type];
	if (WARN_ON_ONCE(pt->type > NLA_TYPE_MAX))
		return -EINVAL;

	if (nla_attr_len[pt->type] && attrlen != nla_attr_len[pt->type]) {
		pr_warn_ratelimited("netlink: 'kfsim': attribute type %d has an invalid length.\n",
				    type);
		if (validate & NL_VALIDATE_STRICT_ATTRS) {
			NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "invalid attribute length");
			return -EINVAL;
		}
	}

	if (validate & NL_VALIDATE_NESTED) {
		bool nest_type = pt->type == NLA_NESTED || pt->type == NLA_NESTED_ARRAY;

		if (nest_type && !(nla->nla_type & NLA_F_NESTED)) {
			NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "NLA_F_NESTED is missing");
			return -EINVAL;
		}
		if (!nest_type && pt->type != NLA_UNSPEC && (nla->nla_type & NLA_F_NESTED)) {
			NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "NLA_F_NESTED not expected");
			return -EINVAL;
		}
	}

	switch (pt->type) {
	case NLA_REJECT:
		if (extack && pt->reject_message) {
			NL_SET_BAD_ATTR(extack, nla);
			extack->_msg = pt->reject_message;
			return -EINVAL;
		}
		err = -EINVAL;
		goto out_err;
	case NLA_FLAG:
		if (attrlen > 0)
			goto out_err;
		break;
	case NLA_SINT:
	case NLA_UINT:
		if (attrlen != sizeof(u32) && attrlen != sizeof(u64)) {
			NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "invalid attribute length");
			return -EINVAL;
		}
		break;
	case NLA_BITFIELD32:
		if (attrlen != sizeof(struct nla_bitfield32))
			goto out_err;
		err = validate_bitfield32(nla, pt->bitfield32_valid);
		if (err)
			goto out_err;
		break;
	case NLA_NUL_STRING:
		minlen = pt->len ? min_t(int, attrlen, pt->len + 1) : attrlen;
		if (!minlen || !memchr(nla_data(nla), '\0', minlen)) {
			err = -EINVAL;
			goto out_err;
		}
		/* fall through: the NLA_STRING length rule applies as well */
		__attribute__((fallthrough));
	case NLA_STRING:
		if (attrlen < 1)
			goto out_err;
		if (pt->len) {
			const char *buf = nla_data(nla);

			if (buf[attrlen - 1] == '\0')
				attrlen--;
			if (attrlen > pt->len)
				goto out_err;
		}
		break;
	case NLA_BINARY:
		if (pt->len && attrlen > pt->len)
			goto out_err;
		break;
	case NLA_NESTED:
	case NLA_NESTED_ARRAY:
		/* Empty is allowed; otherwise it must hold at least one attribute header. */
		if (attrlen == 0)
			break;
		if (attrlen < NLA_HDRLEN)
			goto out_err;
		if (pt->nested_policy) {
			if (pt->type == NLA_NESTED)
				err = validate_parse(nla_data(nla), nla_len(nla), pt->len,
						     pt->nested_policy, validate, extack, NULL,
						     depth + 1);
			else
				err = validate_array(nla_data(nla), nla_len(nla), pt->len,
						     pt->nested_policy, extack, validate, depth);
			if (err < 0)
				return err; /* keep the inner message and attribute */
		}
		break;
	case NLA_UNSPEC:
		if (validate & NL_VALIDATE_UNSPEC) {
			NL_SET_ERR_MSG_ATTR(extack, nla, "Unsupported attribute");
			return -EINVAL;
		}
		if (attrlen < pt->len)
			goto out_err;
		break;
	default:
		minlen = pt->len ? pt->len : nla_attr_minlen[pt->type];
		if (attrlen < minlen)
			goto out_err;
	}

	switch (pt->validation_type) {
	case NLA_VALIDATE_NONE:
		break;
	case NLA_VALIDATE_RANGE_PTR:
	case NLA_VALIDATE_RANGE:
	case NLA_VALIDATE_RANGE_WARN_TOO_LONG:
	case NLA_VALIDATE_MIN:
	case NLA_VALIDATE_MAX:
		err = validate_int_range(pt, nla, extack, validate);
		if (err)
			return err;
		break;
	case NLA_VALIDATE_MASK:
		err = validate_mask(pt, nla, extack);
		if (err)
			return err;
		break;
	case NLA_VALIDATE_FUNCTION:
		if (pt->validate) {
			err = pt->validate(nla, extack);
			if (err)
				return err;
		}
		break;
	}
	return 0;

out_err:
	NL_SET_ERR_MSG_ATTR_POL(extack, nla, pt, "Attribute failed policy validation");
	return err;
}

static int validate_parse(const struct nlattr *head, int len, int maxtype,
			  const struct nla_policy *policy, unsigned int validate,
			  struct netlink_ext_ack *extack, struct nlattr **tb, unsigned int depth)
{
	const struct nlattr *nla;
	int rem;

	if (depth >= MAX_POLICY_RECURSION_DEPTH) {
		NL_SET_ERR_MSG(extack, "allowed policy recursion depth exceeded");
		return -EINVAL;
	}
	if (maxtype < 0)
		return -EINVAL;
	if (tb)
		memset(tb, 0, sizeof(struct nlattr *) * (maxtype + 1));
	if (len < 0 || !head)
		len = 0;

	nla_for_each_attr(nla, head, len, rem)
	{
		u16 type = nla_type(nla);

		if (type == 0 || type > maxtype) {
			if (validate & NL_VALIDATE_MAXTYPE) {
				NL_SET_ERR_MSG_ATTR(extack, nla, "Unknown attribute type");
				return -EINVAL;
			}
			continue;
		}
		if (policy) {
			int err = validate_nla(nla, maxtype, policy, validate, extack, depth);

			if (err < 0)
				return err;
		}
		if (tb)
			tb[type] = (struct nlattr *)nla;
	}

	if (unlikely(rem > 0)) {
		pr_warn_ratelimited("netlink: %d bytes leftover after parsing attributes in process "
				    "`kfsim'.\n", rem);
		NL_SET_ERR_MSG(extack, "bytes leftover after parsing attributes");
		if (validate & NL_VALIDATE_TRAILING)
			return -EINVAL;
	}
	return 0;
}

int kfsim_nla_policy_len(const struct nla_policy *p, int n)
{
	int len = 0;

	for (int i = 0; i < n; i++, p++) {
		if (p->len)
			len += nla_total_size(p->len);
		else if (nla_attr_len[p->type])
			len += nla_total_size(nla_attr_len[p->type]);
		else if (nla_attr_minlen[p->type])
			len += nla_total_size(nla_attr_minlen[p->type]);
	}
	return len;
}

int kfsim_nla_validate_parse(const struct nlattr *head, int len, int maxtype,
			     const struct nla_policy *policy, unsigned int validate,
			     struct netlink_ext_ack *extack, struct nlattr **tb)
{
	return validate_parse(head, len, maxtype, policy, validate, extack, tb, 0);
}

ssize_t kfsim_nla_strscpy(char *dst, const struct nlattr *nla, size_t dstsize)
{
	size_t srclen = nla_len(nla);
	const char *src = nla_data(nla);
	ssize_t ret;
	size_t len;

	/* lib/nlattr.c: sizes up to U16_MAX are valid; a larger one is a caller bug (WARN) */
	if (dstsize == 0 || WARN_ON_ONCE(dstsize > U16_MAX))
		return -E2BIG;
	if (srclen > 0 && src[srclen - 1] == '\0')
		srclen--;
	if (srclen >= dstsize) {
		len = dstsize - 1;
		ret = -E2BIG;
	} else {
		len = srclen;
		ret = len;
	}
	memcpy(dst, src, len);
	memset(dst + len, 0, dstsize - len);
	return ret;
}

int kfsim_nla_strcmp(const struct nlattr *nla, const char *str)
{
	int len = nla_len(nla);
	const char *buf = nla_data(nla);
	int attrlen, d;

	/* lib/nlattr.c: every trailing NUL is ignored, not only the first */
	while (len > 0 && buf[len - 1] == '\0')
		len--;
	attrlen = strlen(str);
	d = len - attrlen;
	if (d == 0)
		d = memcmp(buf, str, len);
	return d;
}
