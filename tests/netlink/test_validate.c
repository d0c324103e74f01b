// SPDX-License-Identifier: MIT
/*
 * Attribute validation, type by type and constraint by constraint, strict and liberal: the
 * errno, the extack message (the kernel's exact text) and the bad attribute's offset.
 * Messages are built with the kernel-side builders on a struct sk_buff, as a kernel test would.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/netlink.h>
#include <kfsim/nl_demo.h>

static const struct nla_policy link_policy[] = {
	[1] = NLA_POLICY_RANGE(NLA_U32, 1, 4095),
	[2] = NLA_POLICY_MAX(NLA_U16, 100),
};

static const struct netlink_range_validation big_range = {.min = 10, .max = 1ULL << 40};
static const struct netlink_range_validation_signed sbig = {.min = -1000, .max = 1000};

static int validate_even(const struct nlattr *attr, struct netlink_ext_ack *extack)
{
	if (nla_get_u32(attr) & 1) {
		NL_SET_ERR_MSG_ATTR(extack, attr, "value must be even");
		return -EDOM;
	}
	return 0;
}

enum {
	A_U8 = 1,
	A_U16,
	A_U32,
	A_U64,
	A_S8,
	A_S16,
	A_S32,
	A_S64,
	A_STR,
	A_NULSTR,
	A_BIN,
	A_FLAG,
	A_NEST,
	A_ARRAY,
	A_BF32,
	A_MASK,
	A_UINT,
	A_SINT,
	A_REJECT,
	A_UNSPEC,
	A_EXACT,
	A_MINLEN,
	A_FULL,
	A_FN,
	A_MSECS,
	A_WARN,
	A_BE16,
	A_REJECT_PLAIN,
	A_NESTNOPOL,
	A_UNSPEC_LEN,
	A_MAX = A_UNSPEC_LEN
};

static const struct nla_policy policy[A_MAX + 1] = {
	[A_U8] = NLA_POLICY_MAX(NLA_U8, 7),
	[A_U16] = NLA_POLICY_RANGE(NLA_U16, 1, 1023),
	[A_U32] = NLA_POLICY_MIN(NLA_U32, 1),
	[A_U64] = {.type = NLA_U64},
	[A_S8] = NLA_POLICY_RANGE(NLA_S8, -5, 5),
	[A_S16] = NLA_POLICY_MIN(NLA_S16, -100),
	[A_S32] = NLA_POLICY_MAX(NLA_S32, 125),
	[A_S64] = {.type = NLA_S64},
	[A_STR] = {.type = NLA_STRING, .len = 4},
	[A_NULSTR] = {.type = NLA_NUL_STRING, .len = 4},
	[A_BIN] = {.type = NLA_BINARY, .len = 3},
	[A_FLAG] = {.type = NLA_FLAG},
	[A_NEST] = NLA_POLICY_NESTED(link_policy),
	[A_ARRAY] = NLA_POLICY_NESTED_ARRAY(link_policy),
	[A_BF32] = NLA_POLICY_BITFIELD32(0x7),
	[A_MASK] = NLA_POLICY_MASK(NLA_U32, 0x3),
	[A_UINT] = {.type = NLA_UINT},
	[A_SINT] = NLA_POLICY_FULL_RANGE_SIGNED(NLA_SINT, &sbig),
	[A_REJECT] = {.type = NLA_REJECT, .reject_message = "legacy, do not use"},
	[A_UNSPEC] = {.type = NLA_UNSPEC},
	[A_EXACT] = NLA_POLICY_EXACT_LEN(6),
	[A_MINLEN] = NLA_POLICY_MIN_LEN(4),
	[A_FULL] = NLA_POLICY_FULL_RANGE(NLA_U64, &big_range),
	[A_FN] = NLA_POLICY_VALIDATE_FN(NLA_U32, validate_even),
	[A_MSECS] = {.type = NLA_MSECS},
	[A_WARN] = NLA_POLICY_EXACT_LEN_WARN(2),
	[A_BE16] = NLA_POLICY_MAX(NLA_BE16, 0x100),
	[A_REJECT_PLAIN] = {.type = NLA_REJECT},
	[A_NESTNOPOL] = {.type = NLA_NESTED},
	[A_UNSPEC_LEN] = {.type = NLA_UNSPEC, .len = 2},
};

struct msg {
	struct sk_buff *skb;
};

static struct sk_buff *new_attrs(void)
{
	struct sk_buff *skb = kfsim_skb_alloc(1024, GFP_KERNEL);

	assert_non_null(skb);
	/* a leading well-formed attribute so that offsets are not trivially 0 */
	assert_int_equal(nla_put_u32(skb, A_U64 + 0, 0), 0);
	skb->len = 0;
	assert_int_equal(nla_put_u64_64bit(skb, A_U64, 42, 0), 0);
	return skb;
}

/* Run @validate over the buffer, check errno, message (NULL: none) and offset (-1: none). */
static void expect(struct sk_buff *skb, unsigned int validate, int err, const char *msg, long offs)
{
	struct netlink_ext_ack extack = {0};
	struct nlattr *tb[A_MAX + 1];
	int ret;

	ret = __nla_parse(tb, A_MAX, (struct nlattr *)skb->data, skb->len, policy, validate,
			  &extack);
	assert_int_equal(ret, err);
	if (msg) {
		assert_non_null(extack._msg);
		assert_string_equal(extack._msg, msg);
	} else {
		assert_null(extack._msg);
	}
	assert_int_equal(kfsim_nl_ext_ack_offset(&extack, skb->data, skb->len), offs);
	if (!err)
		assert_non_null(tb[A_U64]);
}

static void both(struct sk_buff *skb, int strict_err, const char *strict_msg, long strict_offs,
		 int liberal_err, const char *liberal_msg, long liberal_offs)
{
	expect(skb, NL_VALIDATE_STRICT, strict_err, strict_msg, strict_offs);
	expect(skb, NL_VALIDATE_LIBERAL, liberal_err, liberal_msg, liberal_offs);
	kfsim_skb_free(skb);
}

#define OFF 12 /* the u64 attribute before each case */

static void test_valid_message_parses_into_tb(void **state)
{
	struct sk_buff *skb = new_attrs();
	struct netlink_ext_ack extack = {0};
	struct nlattr *tb[A_MAX + 1], *nest;

	nla_put_u8(skb, A_U8, 7);
	nla_put_u16(skb, A_U16, 1023);
	nla_put_string(skb, A_STR, "abcd");
	nla_put_flag(skb, A_FLAG);
	nest = nla_nest_start(skb, A_NEST);
	nla_put_u32(skb, 1, 4095);
	nla_nest_end(skb, nest);
	nla_put_bitfield32(skb, A_BF32, 0x5, 0x7);
	nla_put_uint(skb, A_UINT, 1ULL << 40);
	nla_put_sint(skb, A_SINT, -1000);
	nla_put_u8(skb, A_U8, 3); /* duplicate: the last one wins */
	assert_int_equal(
		nla_parse(tb, A_MAX, (struct nlattr *)skb->data, skb->len, policy, &extack), 0);
	assert_null(extack._msg);
	assert_int_equal(nla_get_u8(tb[A_U8]), 3);
	assert_int_equal(nla_get_u16(tb[A_U16]), 1023);
	assert_int_equal(nla_strcmp(tb[A_STR], "abcd"), 0);
	assert_true(nla_get_flag(tb[A_FLAG]));
	assert_int_equal(nla_get_uint(tb[A_UINT]), 1ULL << 40);
	assert_int_equal(nla_get_sint(tb[A_SINT]), -1000);
	assert_int_equal(nla_get_bitfield32(tb[A_BF32]).value, 5);
	assert_null(tb[A_S8]);
	kfsim_skb_free(skb);
}

static void test_unknown_and_zero_type(void **state)
{
	struct sk_buff *skb = new_attrs();

	nla_put_u32(skb, A_MAX + 1, 1);
	both(skb, -EINVAL, "Unknown attribute type", OFF, 0, NULL, -1);
	skb = new_attrs();
	nla_put_u32(skb, 0, 1);
	both(skb, -EINVAL, "Unknown attribute type", OFF, 0, NULL, -1);
}

static void test_fixed_lengths(void **state)
{
	static const struct {
		int type, len;
	} cases[] = {
		{A_U8, 4}, {A_U16, 1}, {A_U16, 4}, {A_U32, 2}, {A_U32, 8},  {A_U64, 4},
		{A_S8, 2}, {A_S16, 4}, {A_S32, 8}, {A_S64, 9}, {A_BE16, 4},
	};
	static const u8 zero[16];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sk_buff *skb = new_attrs();
		int min = cases[i].type == A_U64 || cases[i].type == A_S64   ? 8
			  : cases[i].type == A_U32 || cases[i].type == A_S32 ? 4
			  : cases[i].type == A_U16 || cases[i].type == A_S16 ||
					  cases[i].type == A_BE16
				  ? 2
				  : 1;
		bool too_short = cases[i].len < min;

		nla_put(skb, cases[i].type, cases[i].len, zero);
		/* strict: exact length; liberal: only a minimum (values are in range when 0...) */
		expect(skb, NL_VALIDATE_STRICT, -EINVAL, "invalid attribute length", OFF);
		if (too_short) {
			expect(skb, NL_VALIDATE_LIBERAL, -ERANGE,
			       "Attribute failed policy validation", OFF);
		} else if (cases[i].type == A_U16 || cases[i].type == A_U32) {
			/* 0 is below these minimums: the range check sees the value */
			expect(skb, NL_VALIDATE_LIBERAL, -ERANGE, "integer out of range", OFF);
		} else {
			expect(skb, NL_VALIDATE_LIBERAL, 0, NULL, -1);
		}
		kfsim_skb_free(skb);
	}
}

static void test_nested_flag(void **state)
{
	struct sk_buff *skb = new_attrs();
	struct nlattr *nest = nla_nest_start_noflag(skb, A_NEST);

	nla_put_u32(skb, 1, 5);
	nla_nest_end(skb, nest);
	both(skb, -EINVAL, "NLA_F_NESTED is missing", OFF, 0, NULL, -1);

	skb = new_attrs();
	nla_put_u8(skb, A_U8 | NLA_F_NESTED, 1);
	both(skb, -EINVAL, "NLA_F_NESTED not expected", OFF, 0, NULL, -1);

	skb = new_attrs();
	nest = nla_nest_start_noflag(skb, A_ARRAY);
	nla_nest_end(skb, nest);
	both(skb, -EINVAL, "NLA_F_NESTED is missing", OFF, 0, NULL, -1);
}

static void test_ranges(void **state)
{
	struct sk_buff *skb;

	skb = new_attrs();
	nla_put_u8(skb, A_U8, 8);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_u16(skb, A_U16, 0);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_u16(skb, A_U16, 1024);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_u32(skb, A_U32, 0);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_s8(skb, A_S8, -6);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_s8(skb, A_S8, -5);
	both(skb, 0, NULL, -1, 0, NULL, -1);
	skb = new_attrs();
	nla_put_s16(skb, A_S16, -101);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_s32(skb, A_S32, 126);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_u64_64bit(skb, A_FULL, 9, 0);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_u64_64bit(skb, A_FULL, (1ULL << 40) + 1, 0);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_u64_64bit(skb, A_FULL, 1ULL << 40, 0);
	both(skb, 0, NULL, -1, 0, NULL, -1);
	skb = new_attrs();
	nla_put_sint(skb, A_SINT, -1001);
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_sint(skb, A_SINT, 1LL << 40); /* 8-byte sint */
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_be16(skb, A_BE16, htobe16(0x101));
	both(skb, -ERANGE, "integer out of range", OFF, -ERANGE, "integer out of range", OFF);
	skb = new_attrs();
	nla_put_be16(skb, A_BE16, htobe16(0x100));
	both(skb, 0, NULL, -1, 0, NULL, -1);
}

static void test_policy_pointer_recorded(void **state)
{
	struct sk_buff *skb = new_attrs();
	struct netlink_ext_ack extack = {0};

	nla_put_u8(skb, A_U8, 9);
	assert_int_equal(
		nla_validate(((struct nlattr *)skb->data), skb->len, A_MAX, policy, &extack),
		-ERANGE);
	assert_ptr_equal(extack.policy, &policy[A_U8]);
	kfsim_skb_free(skb);
}

static void test_strings(void **state)
{
	struct sk_buff *skb;

	skb = new_attrs();
	nla_put_string(skb, A_STR, "abcd"); /* NUL not counted */
	both(skb, 0, NULL, -1, 0, NULL, -1);
	skb = new_attrs();
	nla_put(skb, A_STR, 4, "abcd"); /* no NUL: fine for NLA_STRING */
	both(skb, 0, NULL, -1, 0, NULL, -1);
	skb = new_attrs();
	nla_put_string(skb, A_STR, "abcde");
	both(skb, -ERANGE, "Attribute failed policy validation", OFF, -ERANGE,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put(skb, A_STR, 0, NULL);
	both(skb, -ERANGE, "Attribute failed policy validation", OFF, -ERANGE,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put(skb, A_NULSTR, 4, "abcd"); /* no NUL */
	both(skb, -EINVAL, "Attribute failed policy validation", OFF, -EINVAL,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put(skb, A_NULSTR, 7, "abcdef"); /* NUL past len + 1 */
	both(skb, -EINVAL, "Attribute failed policy validation", OFF, -EINVAL,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put(skb, A_NULSTR, 6, "ab\0cd"); /* NUL inside: ok, length 5 > 4 */
	both(skb, -ERANGE, "Attribute failed policy validation", OFF, -ERANGE,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put_string(skb, A_NULSTR, "abc");
	both(skb, 0, NULL, -1, 0, NULL, -1);
}

static void test_binary_flag_bitfield_mask(void **state)
{
	struct sk_buff *skb;

	skb = new_attrs();
	nla_put(skb, A_BIN, 4, "abcd");
	both(skb, -ERANGE, "Attribute failed policy validation", OFF, -ERANGE,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put(skb, A_EXACT, 5, "abcde");
	both(skb, -ERANGE, "binary attribute size out of range", OFF, -ERANGE,
	     "binary attribute size out of range", OFF);
	skb = new_attrs();
	nla_put(skb, A_MINLEN, 3, "abc");
	both(skb, -ERANGE, "binary attribute size out of range", OFF, -ERANGE,
	     "binary attribute size out of range", OFF);
	skb = new_attrs();
	nla_put(skb, A_WARN, 3, "abc"); /* too long: strict only */
	both(skb, -EINVAL, "invalid attribute length", OFF, 0, NULL, -1);
	skb = new_attrs();
	nla_put(skb, A_WARN, 1, "a"); /* too short is an error in both */
	both(skb, -ERANGE, "binary attribute size out of range", OFF, -ERANGE,
	     "binary attribute size out of range", OFF);
	skb = new_attrs();
	nla_put(skb, A_FLAG, 1, "a");
	both(skb, -ERANGE, "Attribute failed policy validation", OFF, -ERANGE,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put_bitfield32(skb, A_BF32, 0x8, 0x8);
	both(skb, -EINVAL, "Attribute failed policy validation", OFF, -EINVAL,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put_bitfield32(skb, A_BF32, 0x3, 0x1); /* value not selected */
	both(skb, -EINVAL, "Attribute failed policy validation", OFF, -EINVAL,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put(skb, A_BF32, 4, "abcd");
	both(skb, -ERANGE, "Attribute failed policy validation", OFF, -ERANGE,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put_u32(skb, A_MASK, 0x4);
	both(skb, -EINVAL, "reserved bit set", OFF, -EINVAL, "reserved bit set", OFF);
	skb = new_attrs();
	nla_put(skb, A_UINT, 2, "ab");
	both(skb, -EINVAL, "invalid attribute length", OFF, -EINVAL, "invalid attribute length",
	     OFF);
	skb = new_attrs();
	nla_put(skb, A_MSECS, 4, "abcd");
	both(skb, -ERANGE, "Attribute failed policy validation", OFF, -ERANGE,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put_u32(skb, A_FN, 3);
	both(skb, -EDOM, "value must be even", OFF, -EDOM, "value must be even", OFF);
	skb = new_attrs();
	nla_put_u32(skb, A_FN, 4);
	both(skb, 0, NULL, -1, 0, NULL, -1);
}

static void test_reject_and_unspec(void **state)
{
	struct sk_buff *skb;

	skb = new_attrs();
	nla_put_u32(skb, A_REJECT, 1);
	both(skb, -EINVAL, "legacy, do not use", OFF, -EINVAL, "legacy, do not use", OFF);
	skb = new_attrs();
	nla_put_u32(skb, A_REJECT_PLAIN, 1);
	both(skb, -EINVAL, "Attribute failed policy validation", OFF, -EINVAL,
	     "Attribute failed policy validation", OFF);
	skb = new_attrs();
	nla_put_u32(skb, A_UNSPEC, 1);
	both(skb, -EINVAL, "Unsupported attribute", OFF, 0, NULL, -1);
	skb = new_attrs();
	nla_put_u8(skb, A_UNSPEC_LEN, 1);
	both(skb, -EINVAL, "Unsupported attribute", OFF, -ERANGE,
	     "Attribute failed policy validation", OFF);
}

static void test_nested_errors_keep_inner_offset(void **state)
{
	struct sk_buff *skb = new_attrs();
	struct nlattr *nest = nla_nest_start(skb, A_NEST), *el;

	nla_put_u32(skb, 1, 5);
	nla_put_u16(skb, 2, 101); /* inner offset: 12 + 4 + 8 */
	nla_nest_end(skb, nest);
	both(skb, -ERANGE, "integer out of range", OFF + 12, -ERANGE, "integer out of range",
	     OFF + 12);

	skb = new_attrs();
	nla_put(skb, A_NEST | NLA_F_NESTED, 2, "ab");
	both(skb, -ERANGE, "Attribute failed policy validation", OFF, -ERANGE,
	     "Attribute failed policy validation", OFF);

	skb = new_attrs();
	nest = nla_nest_start(skb, A_NEST);
	nla_put_u32(skb, 7, 1); /* unknown inside the nest */
	nla_nest_end(skb, nest);
	both(skb, -EINVAL, "Unknown attribute type", OFF + 4, 0, NULL, -1);

	skb = new_attrs();
	nest = nla_nest_start(skb, A_ARRAY);
	el = nla_nest_start(skb, 1);
	nla_put_u32(skb, 1, 1);
	nla_nest_end(skb, el);
	el = nla_nest_start(skb, 2);
	nla_put_u32(skb, 1, 0); /* out of range in the second element */
	nla_nest_end(skb, el);
	nla_nest_end(skb, nest);
	both(skb, -ERANGE, "integer out of range", OFF + 4 + 12 + 4, -ERANGE,
	     "integer out of range", OFF + 4 + 12 + 4);

	skb = new_attrs();
	nest = nla_nest_start(skb, A_ARRAY);
	nla_put(skb, 1, 2, "ab"); /* element too short */
	nla_nest_end(skb, nest);
	both(skb, -ERANGE, "Array element too short", OFF + 4, -ERANGE, "Array element too short",
	     OFF + 4);

	skb = new_attrs(); /* a nest without a policy accepts anything framed */
	nest = nla_nest_start(skb, A_NESTNOPOL);
	nla_put_u32(skb, 99, 1);
	nla_nest_end(skb, nest);
	both(skb, 0, NULL, -1, 0, NULL, -1);
}

static void test_trailing_bytes(void **state)
{
	struct sk_buff *skb = new_attrs();

	memset(skb->data + skb->len, 0xab, 3);
	skb->len += 3;
	both(skb, -EINVAL, "bytes leftover after parsing attributes", -1, 0,
	     "bytes leftover after parsing attributes", -1);

	skb = new_attrs(); /* an attribute claiming more than there is */
	nla_put_u32(skb, A_U32, 1);
	((struct nlattr *)(skb->data + OFF))->nla_len = 200;
	both(skb, -EINVAL, "bytes leftover after parsing attributes", -1, 0,
	     "bytes leftover after parsing attributes", -1);
}

static void test_deprecated_strict_and_strict_start_type(void **state)
{
	static const struct nla_policy pol[] = {
		[0] = {.strict_start_type = 2},
		[1] = {.type = NLA_U8},
		[2] = {.type = NLA_U8},
	};
	struct netlink_ext_ack extack = {0};
	struct sk_buff *skb = kfsim_skb_alloc(64, GFP_KERNEL);

	nla_put_u32(skb, 1, 1); /* wrong length, below strict_start_type */
	assert_int_equal(
		nla_parse_deprecated(NULL, 2, (struct nlattr *)skb->data, skb->len, pol, &extack),
		0);
	nla_put_u32(skb, 2, 1); /* wrong length, strict from type 2 on */
	assert_int_equal(
		nla_parse_deprecated(NULL, 2, (struct nlattr *)skb->data, skb->len, pol, &extack),
		-EINVAL);
	assert_string_equal(extack._msg, "invalid attribute length");
	assert_int_equal(kfsim_nl_ext_ack_offset(&extack, skb->data, skb->len), 8);
	kfsim_skb_free(skb);

	skb = new_attrs();
	nla_put_u8(skb, A_U8 | NLA_F_NESTED, 1);
	nla_put_u32(skb, A_MAX + 3, 1);
	expect(skb, NL_VALIDATE_DEPRECATED_STRICT, -EINVAL, "Unknown attribute type", OFF + 8);
	kfsim_skb_free(skb);
}

static void test_parse_nested_requires_flag(void **state)
{
	struct sk_buff *skb = kfsim_skb_alloc(64, GFP_KERNEL);
	struct netlink_ext_ack extack = {0};
	struct nlattr *tb[3], *nest = nla_nest_start_noflag(skb, 1);

	nla_put_u32(skb, 1, 7);
	nla_nest_end(skb, nest);
	assert_int_equal(nla_parse_nested(tb, 2, nest, link_policy, &extack), -EINVAL);
	assert_string_equal(extack._msg, "NLA_F_NESTED is missing");
	assert_ptr_equal(extack.bad_attr, nest);
	assert_int_equal(nla_parse_nested_deprecated(tb, 2, nest, link_policy, NULL), 0);
	assert_int_equal(nla_get_u32(tb[1]), 7);
	kfsim_skb_free(skb);
}

static void test_recursion_depth(void **state)
{
	static const struct nla_policy self[2] = {
		[1] = {.type = NLA_NESTED, .nested_policy = self, .len = 1},
	};
	struct sk_buff *skb = kfsim_skb_alloc(512, GFP_KERNEL);
	struct netlink_ext_ack extack = {0};
	struct nlattr *nests[12];

	for (int i = 0; i < 12; i++)
		nests[i] = nla_nest_start(skb, 1);
	for (int i = 11; i >= 0; i--)
		nla_nest_end(skb, nests[i]);
	assert_int_equal(nla_validate((struct nlattr *)skb->data, skb->len, 1, self, &extack),
			 -EINVAL);
	assert_string_equal(extack._msg, "allowed policy recursion depth exceeded");
	kfsim_skb_free(skb);
}

static void test_builders_fail_cleanly_when_full(void **state)
{
	struct sk_buff *skb = kfsim_skb_alloc(16, GFP_KERNEL);
	struct nlattr *nest;

	assert_int_equal(nla_put_u64_64bit(skb, 1, 1, 0), 0);
	assert_int_equal(skb->len, 12);
	assert_int_equal(nla_put_u32(skb, 2, 1), -EMSGSIZE);
	assert_int_equal(skb->len, 12);
	nest = nla_nest_start(skb, 3);
	assert_non_null(nest);
	assert_int_equal(nla_put_u8(skb, 1, 1), -EMSGSIZE);
	nla_nest_cancel(skb, nest);
	assert_int_equal(skb->len, 12);
	assert_null(nlmsg_put(skb, 0, 0, 0x20, 0, 0));
	kfsim_skb_free(skb);
}

/* lib/nlattr.c string helpers: nla_strcmp() drops every trailing NUL, nla_strscpy() takes up to U16_MAX. */
static void test_string_helpers(void **state)
{
	struct sk_buff *skb = kfsim_skb_alloc(256, GFP_KERNEL);
	static char big[40000];
	struct nlattr *nla;
	char *dup;

	assert_int_equal(nla_put(skb, 1, 5, "abc\0\0"), 0);
	nla = (struct nlattr *)skb->data;
	assert_int_equal(nla_strcmp(nla, "abc"), 0);
	assert_true(nla_strcmp(nla, "abcd") < 0);
	assert_int_equal(nla_memcmp(nla, "abc\0\0", 5), 0);
	assert_true(nla_memcmp(nla, "abc", 3) > 0);
	assert_int_equal(nla_strscpy(big, nla, sizeof(big)), 4);	/* one NUL dropped */
	assert_string_equal(big, "abc");
	assert_int_equal(nla_strscpy(big, nla, 3), -E2BIG);
	assert_string_equal(big, "ab");
	dup = nla_strdup(nla, GFP_KERNEL);
	assert_non_null(dup);
	assert_int_equal(ksize(dup), 8);
	assert_string_equal(dup, "abc");
	kfree(dup);
	kfsim_skb_free(skb);
}

/* The message-level deprecated variants: deprecated_strict refuses unknown types, liberal keeps them. */
static void test_nlmsg_deprecated_variants(void **state)
{
	struct sk_buff *skb = nlmsg_new(64, GFP_KERNEL);
	struct nlmsghdr *nlh = nlmsg_put(skb, 0, 1, 0x20, GENL_HDRLEN, 0);
	struct netlink_ext_ack extack = {0};
	struct nlattr *tb[A_MAX + 1];

	assert_int_equal(nla_put_u32(skb, A_MAX + 1, 7), 0);
	nlmsg_end(skb, nlh);
	assert_int_equal(nlmsg_validate_deprecated(nlh, GENL_HDRLEN, A_MAX, policy, &extack), 0);
	assert_int_equal(nlmsg_parse_deprecated_strict(nlh, GENL_HDRLEN, tb, A_MAX, policy, &extack),
			 -EINVAL);
	assert_string_equal(extack._msg, "Unknown attribute type");
	nlh->nlmsg_len = NLMSG_HDRLEN;	/* shorter than its family header */
	assert_int_equal(nlmsg_validate_deprecated(nlh, GENL_HDRLEN, A_MAX, policy, NULL), -EINVAL);
	nlmsg_free(skb);
}

/* The 64-bit, little-endian and raw helpers: wire bytes as include/net/netlink.h puts them. */
static void test_wire_helpers(void **state)
{
	struct sk_buff *skb = kfsim_skb_alloc(64, GFP_KERNEL);
	const unsigned char *d = skb->data;
	struct nlattr *nla;

	assert_int_equal(nla_put_be64(skb, 1, htobe64(0x0102030405060708ULL), 0), 0);
	assert_int_equal(skb->len, 12);	/* no pad attribute on x86-64 */
	assert_int_equal(d[4], 0x01);
	assert_int_equal(d[11], 0x08);
	nla = (struct nlattr *)d;
	assert_int_equal(be64toh(nla_get_be64(nla)), 0x0102030405060708ULL);
	assert_int_equal(nla_put_le16(skb, 2, htole16(0x1234)), 0);
	assert_int_equal(d[16], 0x34);
	assert_int_equal(nla_put_net64(skb, 3, 0, 0), 0);
	assert_int_equal(((struct nlattr *)(d + 20))->nla_type, 3 | NLA_F_NET_BYTEORDER);
	assert_int_equal(nla_total_size_64bit(8), 12);
	{
		static const struct nla_policy lens[] = {
			[0] = {.type = NLA_UNSPEC}, [1] = {.type = NLA_U8}, [2] = {.type = NLA_U64},
			[3] = {.type = NLA_STRING}, [4] = {.type = NLA_NUL_STRING, .len = 15},
			[5] = {.type = NLA_NESTED},
		};

		/* 0 + 8 + 12 + 0 + 20 + 8 (a nest counts its header, NLA_HDRLEN) */
		assert_int_equal(nla_policy_len(lens, ARRAY_SIZE(lens)), 48);
	}
	assert_int_equal(genlmsg_msg_size(1), GENL_HDRLEN + 1);
	assert_int_equal(genlmsg_total_size(1), 8);
	assert_int_equal(nla_put_nohdr(skb, 3, "abc"), 0);
	assert_int_equal(skb->len, 36);	/* padded to 4 */
	assert_int_equal(nla_append(skb, 3, "xyz"), 0);
	assert_int_equal(skb->len, 39);	/* not padded */
	assert_int_equal(nla_append(skb, 30, d), -EMSGSIZE);
	kfsim_skb_free(skb);
}

/* include/linux/netlink.h extack setters: the _FMT, _ATTR_FMT and _WEAK variants. */
static void test_extack_setters(void **state)
{
	struct netlink_ext_ack extack = {0}, *ea = &extack;
	struct nlattr attr = {.nla_len = 8, .nla_type = 3};

	NL_SET_ERR_MSG_WEAK(ea, "outer");
	assert_string_equal(extack._msg, "outer");
	NL_SET_ERR_MSG_WEAK(ea, "second");
	assert_string_equal(extack._msg, "outer");	/* an earlier message wins */
	NL_SET_ERR_MSG_ATTR_FMT(&extack, &attr, "value %d too big", 70000);
	assert_string_equal(extack._msg, "value 70000 too big");
	assert_ptr_equal(extack.bad_attr, &attr);
	assert_null(extack.policy);
	NL_SET_ERR_MSG_ATTR_POL_FMT(&extack, &attr, policy, "%s", "x");
	assert_ptr_equal(extack.policy, policy);
	NL_SET_ERR_MSG_FMT_MOD(&extack, "n=%u", 5u);
	assert_non_null(strstr(extack._msg, "n=5"));
	NL_SET_ERR_MSG_ATTR_FMT((struct netlink_ext_ack *)NULL, &attr, "ignored %d", 1);
}

static void test_nlmsg_parse_header_length(void **state)
{
	struct sk_buff *skb = nlmsg_new(64, GFP_KERNEL);
	struct nlmsghdr *nlh = nlmsg_put(skb, 0, 1, 0x20, 0, 0);
	struct netlink_ext_ack extack = {0};
	struct nlattr *tb[A_MAX + 1];

	nlmsg_end(skb, nlh);
	assert_int_equal(nlmsg_parse(nlh, GENL_HDRLEN, tb, A_MAX, policy, &extack), -EINVAL);
	assert_string_equal(extack._msg, "Invalid header length");
	nlmsg_free(skb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_message_parses_into_tb),
		cmocka_unit_test(test_unknown_and_zero_type),
		cmocka_unit_test(test_fixed_lengths),
		cmocka_unit_test(test_nested_flag),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_policy_pointer_recorded),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_binary_flag_bitfield_mask),
		cmocka_unit_test(test_reject_and_unspec),
		cmocka_unit_test(test_nested_errors_keep_inner_offset),
		cmocka_unit_test(test_trailing_bytes),
		cmocka_unit_test(test_deprecated_strict_and_strict_start_type),
		cmocka_unit_test(test_parse_nested_requires_flag),
		cmocka_unit_test(test_recursion_depth),
		cmocka_unit_test(test_builders_fail_cleanly_when_full),
		cmocka_unit_test(test_nlmsg_parse_header_length),
		cmocka_unit_test(test_string_helpers),
		cmocka_unit_test(test_extack_setters),
		cmocka_unit_test(test_wire_helpers),
		cmocka_unit_test(test_nlmsg_deprecated_variants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
