// SPDX-License-Identifier: MIT
/*
 * One policy slot written as the kernel describes policies to user space
 * (net/netlink/policy.c __netlink_policy_dump_write_attr), used by CTRL_CMD_GETPOLICY dumps and
 * by the NLMSGERR_ATTR_POLICY of an extended ACK.
 *
 * The byte layout was checked against Linux 6.18's answers: the properties come first (u64 for
 * values, u32 for lengths, indices and the bitfield mask) and NL_POLICY_TYPE_ATTR_TYPE last; a
 * u64 is not padded on x86-64.
 */
#include "nl_internal.h"

static int put_u64(struct sk_buff *skb, int type, u64 v)
{
	return nla_put_u64_64bit(skb, type, v, NL_POLICY_TYPE_ATTR_PAD);
}

static int put_props(struct sk_buff *skb, const struct nla_policy *pt, int policy_idx, u32 *type)
{
	switch (pt->type) {
	case NLA_NESTED:
	case NLA_NESTED_ARRAY:
		*type = pt->type == NLA_NESTED ? NL_ATTR_TYPE_NESTED : NL_ATTR_TYPE_NESTED_ARRAY;
		if (policy_idx >= 0 && pt->nested_policy && pt->len &&
		    (nla_put_u32(skb, NL_POLICY_TYPE_ATTR_POLICY_IDX, policy_idx) ||
		     nla_put_u32(skb, NL_POLICY_TYPE_ATTR_POLICY_MAXTYPE, pt->len)))
			return -EMSGSIZE;
		return 0;
	case NLA_U8:
	case NLA_U16:
	case NLA_U32:
	case NLA_U64:
	case NLA_UINT:
	case NLA_MSECS: {
		/* NLA_BE16/NLA_BE32 have no case here in the kernel either: never advertised. */
		u64 min, max;

		if (pt->type == NLA_U8)
			*type = NL_ATTR_TYPE_U8;
		else if (pt->type == NLA_U16)
			*type = NL_ATTR_TYPE_U16;
		else if (pt->type == NLA_U32)
			*type = NL_ATTR_TYPE_U32;
		else if (pt->type == NLA_U64)
			*type = NL_ATTR_TYPE_U64;
		else /* NLA_UINT and, as in the kernel, NLA_MSECS */
			*type = KFSIM_NL_ATTR_TYPE_UINT;
		if (pt->validation_type == NLA_VALIDATE_MASK)
			return put_u64(skb, NL_POLICY_TYPE_ATTR_MASK, pt->mask);
		/* NLA_VALIDATE_FUNCTION too: the type's full range (nla_get_range_unsigned) */
		kfsim_nla_get_range_unsigned(pt, &min, &max);
		if (put_u64(skb, NL_POLICY_TYPE_ATTR_MIN_VALUE_U, min) ||
		    put_u64(skb, NL_POLICY_TYPE_ATTR_MAX_VALUE_U, max))
			return -EMSGSIZE;
		return 0;
	}
	case NLA_S8:
	case NLA_S16:
	case NLA_S32:
	case NLA_S64:
	case NLA_SINT: {
		s64 min, max;

		if (pt->type == NLA_S8)
			*type = NL_ATTR_TYPE_S8;
		else if (pt->type == NLA_S16)
			*type = NL_ATTR_TYPE_S16;
		else if (pt->type == NLA_S32)
			*type = NL_ATTR_TYPE_S32;
		else if (pt->type == NLA_S64)
			*type = NL_ATTR_TYPE_S64;
		else
			*type = KFSIM_NL_ATTR_TYPE_SINT;
		kfsim_nla_get_range_signed(pt, &min, &max);
		if (put_u64(skb, NL_POLICY_TYPE_ATTR_MIN_VALUE_S, (u64)min) ||
		    put_u64(skb, NL_POLICY_TYPE_ATTR_MAX_VALUE_S, (u64)max))
			return -EMSGSIZE;
		return 0;
	}
	case NLA_BITFIELD32:
		*type = NL_ATTR_TYPE_BITFIELD32;
		return nla_put_u32(skb, NL_POLICY_TYPE_ATTR_BITFIELD32_MASK, pt->bitfield32_valid);
	case NLA_STRING:
	case NLA_NUL_STRING:
	case NLA_BINARY:
		if (pt->type == NLA_STRING)
			*type = NL_ATTR_TYPE_STRING;
		else if (pt->type == NLA_NUL_STRING)
			*type = NL_ATTR_TYPE_NUL_STRING;
		else
			*type = NL_ATTR_TYPE_BINARY;
		if (pt->validation_type == NLA_VALIDATE_RANGE ||
		    pt->validation_type == NLA_VALIDATE_RANGE_WARN_TOO_LONG) {
			u64 min, max;

			kfsim_nla_get_range_unsigned(pt, &min, &max);
			if (min && nla_put_u32(skb, NL_POLICY_TYPE_ATTR_MIN_LENGTH, min))
				return -EMSGSIZE;
			if (max < U16_MAX && nla_put_u32(skb, NL_POLICY_TYPE_ATTR_MAX_LENGTH, max))
				return -EMSGSIZE;
		} else if (pt->len && nla_put_u32(skb, NL_POLICY_TYPE_ATTR_MAX_LENGTH, pt->len)) {
			return -EMSGSIZE;
		}
		return 0;
	case NLA_FLAG:
		*type = NL_ATTR_TYPE_FLAG;
		return 0;
	default: /* NLA_UNSPEC, NLA_REJECT, NLA_BE16, NLA_BE32: not advertised */
		return -ENODATA;
	}
}

int kfsim_nla_policy_put(struct sk_buff *skb, const struct nla_policy *pt, int nestattr,
			 int policy_idx)
{
	struct nlattr *attr;
	u32 type = 0;
	int err;

	attr = nla_nest_start(skb, nestattr);
	if (!attr)
		return -EMSGSIZE;
	err = put_props(skb, pt, policy_idx, &type);
	if (!err && nla_put_u32(skb, NL_POLICY_TYPE_ATTR_TYPE, type))
		err = -EMSGSIZE;
	if (err) {
		nla_nest_cancel(skb, attr);
		return err;
	}
	nla_nest_end(skb, attr);
	return 0;
}
