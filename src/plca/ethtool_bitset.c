// SPDX-License-Identifier: MIT
/*
 * ethnl_put_bitset32() of net/ethtool/bitset.c (6.12 = 6.18), for a bitset without a mask: the
 * list form, which says only which bits are set.
 *
 *   nest @attrtype
 *     NOMASK (flag)          no mask follows: what is listed is set, the rest clear
 *     SIZE (u32)             @nbits
 *   compact (ETHTOOL_FLAG_COMPACT_BITSETS):
 *     VALUE (binary)         ceil(@nbits / 32) u32 words, bits at and past @nbits clear
 *   verbose:
 *     BITS (nest)            one BIT nest per set bit, from bit 0 up:
 *       BIT (nest)             INDEX (u32) and NAME (string: @names[index])
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
	ETHTOOL_A_BITSET_BITS_BIT = 1,
	ETHTOOL_A_BITSET_BIT_INDEX = 1,
	ETHTOOL_A_BITSET_BIT_NAME = 2,
};

static int put_compact_value(struct sk_buff *skb, const u32 *val, unsigned int nbits)
{
	unsigned int words = (nbits + 31) / 32;
	struct nlattr *attr = nla_reserve(skb, ETHTOOL_A_BITSET_VALUE, (int)(words * 4));
	u32 *dst;

	if (!attr)
		return -EMSGSIZE;
	dst = nla_data(attr);
	memcpy(dst, val, words * 4);
	if (nbits % 32)
		dst[words - 1] &= (1u << (nbits % 32)) - 1;
	return 0;
}

static int put_bit_list(struct sk_buff *skb, const u32 *val, unsigned int nbits,
			const char (*names)[ETH_GSTRING_LEN])
{
	struct nlattr *bits = nla_nest_start(skb, ETHTOOL_A_BITSET_BITS);

	if (!bits)
		return -EMSGSIZE;
	for (unsigned int idx = 0; idx < nbits; idx++) {
		struct nlattr *bit;

		if (!(val[idx / 32] & (1u << (idx % 32))))
			continue;
		bit = nla_nest_start(skb, ETHTOOL_A_BITSET_BITS_BIT);
		if (!bit || nla_put_u32(skb, ETHTOOL_A_BITSET_BIT_INDEX, idx) ||
		    nla_put_string(skb, ETHTOOL_A_BITSET_BIT_NAME, names[idx])) {
			nla_nest_cancel(skb, bits);
			return -EMSGSIZE;
		}
		nla_nest_end(skb, bit);
	}
	nla_nest_end(skb, bits);
	return 0;
}

int ethnl_put_bitset32(struct sk_buff *skb, int attrtype, const u32 *val, unsigned int nbits,
		       const char (*names)[ETH_GSTRING_LEN], bool compact)
{
	struct nlattr *nest = nla_nest_start(skb, attrtype);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_flag(skb, ETHTOOL_A_BITSET_NOMASK) ||
	    nla_put_u32(skb, ETHTOOL_A_BITSET_SIZE, nbits) ||
	    (compact ? put_compact_value(skb, val, nbits) : put_bit_list(skb, val, nbits, names))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}
