// SPDX-License-Identifier: MIT
/*
 * net/ethtool/bitset.c (6.12 = 6.18) for u32-word bitmaps: putting a bitset into a message,
 * and reading one a request carries (ethnl_parse_bitset(), ethnl_update_bitset32()).
 *
 *   nest @attrtype
 *     NOMASK (flag)          no mask: the list form, what is listed is set, the rest clear
 *     SIZE (u32)             the number of bits
 *   compact (ETHTOOL_FLAG_COMPACT_BITSETS):
 *     VALUE (binary)         ceil(SIZE / 32) u32 words, bits at and past SIZE clear
 *     MASK (binary)          as VALUE, unless NOMASK: which bits the value speaks for
 *   verbose:
 *     BITS (nest)            one BIT nest per bit the mask (or, without one, the value) has:
 *       BIT (nest)             INDEX (u32), NAME (string), VALUE (flag: set; mask form only)
 * A request may name a bit by INDEX, by NAME or both (they must agree).  Every error below is
 * the kernel's, with its message, attribute and return code.
 */
#include <string.h>

#include <kfsim/netlink.h>
#include "plca_internal.h"

/* The kernel's ETHTOOL_A_BITSET_*, _BITS_* and _BIT_* attributes. */
enum {
	ETHTOOL_A_BITSET_NOMASK = 1,
	ETHTOOL_A_BITSET_SIZE = 2,
	ETHTOOL_A_BITSET_BITS = 3,
	ETHTOOL_A_BITSET_VALUE = 4,
	ETHTOOL_A_BITSET_MASK = 5,
	ETHTOOL_A_BITSET_BITS_BIT = 1,
	ETHTOOL_A_BITSET_BIT_INDEX = 1,
	ETHTOOL_A_BITSET_BIT_NAME = 2,
	ETHTOOL_A_BITSET_BIT_VALUE = 3,
};
#define ETHNL_MAX_BITSET_SIZE 32767 /* S16_MAX */

static bool test_bit32(const u32 *map, unsigned int bit)
{
	return map[bit / 32] & (1u << (bit % 32));
}

static void set_bit32(u32 *map, unsigned int bit)
{
	map[bit / 32] |= 1u << (bit % 32);
}

/* ethnl_put_strz(): the string up to ETH_GSTRING_LEN bytes, always NUL-terminated. */
int ethnl_put_strz(struct sk_buff *skb, u16 attrtype, const char *s)
{
	size_t len = strnlen(s, ETH_GSTRING_LEN);
	struct nlattr *attr = nla_reserve(skb, attrtype, (int)len + 1);
	char *dst;

	if (!attr)
		return -EMSGSIZE;
	dst = nla_data(attr);
	memcpy(dst, s, len);
	dst[len] = '\0';
	return 0;
}

static int put_words(struct sk_buff *skb, int type, const u32 *val, unsigned int nbits)
{
	unsigned int words = (nbits + 31) / 32;
	struct nlattr *attr = nla_reserve(skb, type, (int)(words * 4));
	u32 *dst;

	if (!attr)
		return -EMSGSIZE;
	dst = nla_data(attr);
	memcpy(dst, val, words * 4);
	if (nbits % 32)
		dst[words - 1] &= (1u << (nbits % 32)) - 1;
	return 0;
}

static int put_bit_list(struct sk_buff *skb, const u32 *val, const u32 *mask, unsigned int nbits,
			const char (*names)[ETH_GSTRING_LEN])
{
	struct nlattr *bits = nla_nest_start(skb, ETHTOOL_A_BITSET_BITS);

	if (!bits)
		return -EMSGSIZE;
	for (unsigned int idx = 0; idx < nbits; idx++) {
		struct nlattr *bit;

		if (!test_bit32(mask ? mask : val, idx))
			continue;
		bit = nla_nest_start(skb, ETHTOOL_A_BITSET_BITS_BIT);
		if (!bit || nla_put_u32(skb, ETHTOOL_A_BITSET_BIT_INDEX, idx) ||
		    (names && ethnl_put_strz(skb, ETHTOOL_A_BITSET_BIT_NAME, names[idx])) ||
		    (mask && test_bit32(val, idx) && nla_put_flag(skb, ETHTOOL_A_BITSET_BIT_VALUE))) {
			nla_nest_cancel(skb, bits);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, bit);
	}
	nla_nest_end(skb, bits);
	return 0;
}

int ethnl_put_bitset32_mask(struct sk_buff *skb, int attrtype, const u32 *val, const u32 *mask,
			    unsigned int nbits, const char (*names)[ETH_GSTRING_LEN], bool compact)
{
	struct nlattr *nest = nla_nest_start(skb, attrtype);
	int ret;

	if (!nest)
		return -EMSGSIZE;
	ret = (!mask && nla_put_flag(skb, ETHTOOL_A_BITSET_NOMASK)) ||
	      nla_put_u32(skb, ETHTOOL_A_BITSET_SIZE, nbits);
	if (!ret && compact)
		ret = put_words(skb, ETHTOOL_A_BITSET_VALUE, val, nbits) ||
		      (mask && put_words(skb, ETHTOOL_A_BITSET_MASK, mask, nbits));
	else if (!ret)
		ret = put_bit_list(skb, val, mask, nbits, names);
	if (ret) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

int ethnl_put_bitset32(struct sk_buff *skb, int attrtype, const u32 *val, unsigned int nbits,
		       const char (*names)[ETH_GSTRING_LEN], bool compact)
{
	return ethnl_put_bitset32_mask(skb, attrtype, val, NULL, nbits, names, compact);
}

static const struct nla_policy bitset_policy[ETHTOOL_A_BITSET_MASK + 1] = {
	[ETHTOOL_A_BITSET_NOMASK] = {.type = NLA_FLAG},
	[ETHTOOL_A_BITSET_SIZE] = NLA_POLICY_MAX(NLA_U32, ETHNL_MAX_BITSET_SIZE),
	[ETHTOOL_A_BITSET_BITS] = {.type = NLA_NESTED},
	[ETHTOOL_A_BITSET_VALUE] = {.type = NLA_BINARY},
	[ETHTOOL_A_BITSET_MASK] = {.type = NLA_BINARY},
};

static const struct nla_policy bit_policy[ETHTOOL_A_BITSET_BIT_VALUE + 1] = {
	[ETHTOOL_A_BITSET_BIT_INDEX] = {.type = NLA_U32},
	[ETHTOOL_A_BITSET_BIT_NAME] = {.type = NLA_NUL_STRING},
	[ETHTOOL_A_BITSET_BIT_VALUE] = {.type = NLA_FLAG},
};

/* ethnl_name_to_idx(): a name matches the first ETH_GSTRING_LEN bytes of one of @names. */
static int name_to_idx(const char (*names)[ETH_GSTRING_LEN], unsigned int n, const char *name)
{
	for (unsigned int i = 0; names && i < n; i++)
		if (!strncmp(names[i], name, ETH_GSTRING_LEN) && strlen(name) <= ETH_GSTRING_LEN)
			return (int)i;
	return -ENOENT;
}

/* ethnl_parse_bit(): one BIT nest: its index (by INDEX or NAME) and whether it is set. */
static int parse_bit(unsigned int *index, bool *val, unsigned int nbits,
		     const struct nlattr *bit_attr, bool no_mask,
		     const char (*names)[ETH_GSTRING_LEN], struct netlink_ext_ack *extack)
{
	struct nlattr *tb[ETHTOOL_A_BITSET_BIT_VALUE + 1];
	const struct nlattr *name_attr;
	int ret, idx;

	ret = nla_parse_nested(tb, ETHTOOL_A_BITSET_BIT_VALUE, bit_attr, bit_policy, extack);
	if (ret < 0)
		return ret;
	name_attr = tb[ETHTOOL_A_BITSET_BIT_NAME];
	if (tb[ETHTOOL_A_BITSET_BIT_INDEX]) {
		u32 raw = nla_get_u32(tb[ETHTOOL_A_BITSET_BIT_INDEX]);

		/* int against unsigned int in the kernel: compared unsigned */
		if (raw >= nbits) {
			NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_BITSET_BIT_INDEX],
					    "bit index too high");
			return -EOPNOTSUPP;
		}
		idx = (int)raw;
		if (name_attr && names &&
		    strncmp(nla_data(name_attr), names[idx], (size_t)nla_len(name_attr))) {
			NL_SET_ERR_MSG_ATTR(extack, bit_attr, "bit index and name mismatch");
			return -EINVAL;
		}
	} else if (name_attr) {
		idx = name_to_idx(names, nbits, nla_data(name_attr));
		if (idx < 0) {
			NL_SET_ERR_MSG_ATTR(extack, name_attr, "bit name not found");
			return -EOPNOTSUPP;
		}
	} else {
		NL_SET_ERR_MSG_ATTR(extack, bit_attr, "neither bit index nor name specified");
		return -EINVAL;
	}
	*index = (unsigned int)idx;
	*val = no_mask || tb[ETHTOOL_A_BITSET_BIT_VALUE];
	return 0;
}

/* ethnl_bitmap32_not_zero() of the bits [@start, @end) */
static bool words_not_zero(const u32 *map, unsigned int start, unsigned int end)
{
	for (unsigned int i = start; i < end; i++)
		if (test_bit32(map, i))
			return true;
	return false;
}

/* ethnl_compact_sanity_checks(): the compact form's attributes agree with each other. */
static int compact_sanity_checks(unsigned int nbits, const struct nlattr *nest, struct nlattr **tb,
				 struct netlink_ext_ack *extack)
{
	bool no_mask = tb[ETHTOOL_A_BITSET_NOMASK];
	const struct nlattr *test_attr;
	unsigned int attr_nbits, attr_nwords;

	if (no_mask && tb[ETHTOOL_A_BITSET_MASK]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_BITSET_MASK],
				    "mask not allowed in list bitset");
		return -EINVAL;
	}
	if (!tb[ETHTOOL_A_BITSET_SIZE]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "missing size in compact bitset");
		return -EINVAL;
	}
	if (!tb[ETHTOOL_A_BITSET_VALUE]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "missing value in compact bitset");
		return -EINVAL;
	}
	if (!no_mask && !tb[ETHTOOL_A_BITSET_MASK]) {
		NL_SET_ERR_MSG_ATTR(extack, nest, "missing mask in compact nonlist bitset");
		return -EINVAL;
	}
	attr_nbits = nla_get_u32(tb[ETHTOOL_A_BITSET_SIZE]);
	attr_nwords = (attr_nbits + 31) / 32;
	if ((unsigned int)nla_len(tb[ETHTOOL_A_BITSET_VALUE]) != attr_nwords * 4) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_BITSET_VALUE],
				    "bitset value length does not match size");
		return -EINVAL;
	}
	if (tb[ETHTOOL_A_BITSET_MASK] &&
	    (unsigned int)nla_len(tb[ETHTOOL_A_BITSET_MASK]) != attr_nwords * 4) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_BITSET_MASK],
				    "bitset mask length does not match size");
		return -EINVAL;
	}
	if (attr_nbits <= nbits)
		return 0;
	test_attr = no_mask ? tb[ETHTOOL_A_BITSET_VALUE] : tb[ETHTOOL_A_BITSET_MASK];
	if (words_not_zero(nla_data(test_attr), nbits, attr_nbits)) {
		NL_SET_ERR_MSG_ATTR(extack, test_attr, "cannot modify bits past kernel bitset size");
		return -EINVAL;
	}
	return 0;
}

/* The first @nbits bits of the words at @src into @dst (@dst zeroed past them). */
static void copy_bits(u32 *dst, const void *src, unsigned int nbits, unsigned int dst_words)
{
	memset(dst, 0, dst_words * 4);
	memcpy(dst, src, (nbits + 31) / 32 * 4);
	if (nbits % 32)
		dst[nbits / 32] &= (1u << (nbits % 32)) - 1;
}

int ethnl_parse_bitset32(u32 *val, u32 *mask, unsigned int nbits, const struct nlattr *attr,
			 const char (*names)[ETH_GSTRING_LEN], struct netlink_ext_ack *extack)
{
	unsigned int words = (nbits + 31) / 32;
	struct nlattr *tb[ETHTOOL_A_BITSET_MASK + 1];
	const struct nlattr *bit_attr;
	bool no_mask;
	int rem, ret;

	if (!attr)
		return 0;
	ret = nla_parse_nested(tb, ETHTOOL_A_BITSET_MASK, attr, bitset_policy, extack);
	if (ret < 0)
		return ret;
	no_mask = tb[ETHTOOL_A_BITSET_NOMASK];
	if (!tb[ETHTOOL_A_BITSET_BITS]) {
		unsigned int change_bits;

		ret = compact_sanity_checks(nbits, attr, tb, extack);
		if (ret < 0)
			return ret;
		change_bits = nla_get_u32(tb[ETHTOOL_A_BITSET_SIZE]);
		if (change_bits > nbits)
			change_bits = nbits;
		copy_bits(val, nla_data(tb[ETHTOOL_A_BITSET_VALUE]), change_bits, words);
		if (no_mask) {
			memset(mask, 0, words * 4);
			for (unsigned int i = 0; i < nbits; i++)
				set_bit32(mask, i);
		} else {
			copy_bits(mask, nla_data(tb[ETHTOOL_A_BITSET_MASK]), change_bits, words);
		}
		return 0;
	}
	if (tb[ETHTOOL_A_BITSET_VALUE]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_BITSET_VALUE],
				    "value only allowed in compact bitset");
		return -EINVAL;
	}
	if (tb[ETHTOOL_A_BITSET_MASK]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_BITSET_MASK],
				    "mask only allowed in compact bitset");
		return -EINVAL;
	}
	memset(val, 0, words * 4);
	memset(mask, 0, words * 4);
	if (no_mask)
		for (unsigned int i = 0; i < nbits; i++)
			set_bit32(mask, i);
	nla_for_each_nested(bit_attr, tb[ETHTOOL_A_BITSET_BITS], rem) {
		unsigned int idx;
		bool bit_val;

		ret = parse_bit(&idx, &bit_val, nbits, bit_attr, no_mask, names, extack);
		if (ret < 0)
			return ret;
		if (bit_val)
			set_bit32(val, idx);
		if (!no_mask)
			set_bit32(mask, idx);
	}
	return 0;
}

int ethnl_update_bitset32(u32 *bitmap, unsigned int nbits, const struct nlattr *attr,
			  const char (*names)[ETH_GSTRING_LEN], struct netlink_ext_ack *extack,
			  bool *mod)
{
	u32 val[ETHNL_BITSET32_MAX_WORDS], mask[ETHNL_BITSET32_MAX_WORDS];
	unsigned int words = (nbits + 31) / 32;
	struct nlattr *tb[ETHTOOL_A_BITSET_MASK + 1];
	int ret;

	if (!attr)
		return 0;
	/*
	 * ethnl_update_bitset32(): a verbose list form clears every bit it does not name, a
	 * compact one every bit past its SIZE; a mask form touches only the masked bits: the value
	 * ethnl_parse_bitset() reads, under its mask.  On an error the bitmap may be half
	 * updated, as the kernel's: its callers throw it away.
	 */
	ret = nla_parse_nested(tb, ETHTOOL_A_BITSET_MASK, attr, bitset_policy, extack);
	if (ret < 0)
		return ret;
	if (tb[ETHTOOL_A_BITSET_BITS] && tb[ETHTOOL_A_BITSET_VALUE]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_BITSET_VALUE],
				    "value only allowed in compact bitset");
		return -EINVAL;
	}
	if (tb[ETHTOOL_A_BITSET_BITS] && tb[ETHTOOL_A_BITSET_MASK]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ETHTOOL_A_BITSET_MASK],
				    "mask only allowed in compact bitset");
		return -EINVAL;
	}
	if (tb[ETHTOOL_A_BITSET_BITS]) {
		const struct nlattr *bit_attr;
		bool no_mask = tb[ETHTOOL_A_BITSET_NOMASK];
		u32 old[ETHNL_BITSET32_MAX_WORDS];
		int rem;

		memcpy(old, bitmap, words * 4);
		if (no_mask)
			memset(bitmap, 0, words * 4);
		nla_for_each_nested(bit_attr, tb[ETHTOOL_A_BITSET_BITS], rem) {
			unsigned int idx;
			bool bit_val;

			if (nla_type(bit_attr) != ETHTOOL_A_BITSET_BITS_BIT) {
				NL_SET_ERR_MSG_ATTR(extack, bit_attr,
						    "only ETHTOOL_A_BITSET_BITS_BIT allowed in "
						    "ETHTOOL_A_BITSET_BITS");
				return -EINVAL;
			}
			ret = parse_bit(&idx, &bit_val, nbits, bit_attr, no_mask, names, extack);
			if (ret < 0)
				return ret;
			if (bit_val)
				set_bit32(bitmap, idx);
			else
				bitmap[idx / 32] &= ~(1u << (idx % 32));
		}
		if (memcmp(old, bitmap, words * 4))
			*mod = true;
		return 0;
	}
	ret = ethnl_parse_bitset32(val, mask, nbits, attr, names, extack);
	if (ret < 0)
		return ret;
	for (unsigned int i = 0; i < words; i++) {
		u32 next = (bitmap[i] & ~mask[i]) | (val[i] & mask[i]);

		if (next != bitmap[i])
			*mod = true;
		bitmap[i] = next;
	}
	return 0;
}
