// SPDX-License-Identifier: MIT
/*
 * libnl-3's side of the benchmark: genlmsg_parse() with libnl's policy (type + minlen/maxlen,
 * which is all libnl's struct nla_policy can say), then nla_parse_nested() of the header nest.
 */
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include "bench_peers.h"

static struct nla_policy hdr_policy[5] = {
	[1] = {.type = NLA_U32},
	[2] = {.type = NLA_STRING, .maxlen = 128},
	[3] = {.type = NLA_U32},
	[4] = {.type = NLA_U32},
};

static struct nla_policy plca_policy[10] = {
	[1] = {.type = NLA_NESTED}, [3] = {.type = NLA_U8},  [5] = {.type = NLA_U32},
	[6] = {.type = NLA_U32},    [7] = {.type = NLA_U32}, [8] = {.type = NLA_U32},
	[9] = {.type = NLA_U32},
};

long bench_libnl_parse(const struct nlmsghdr *msg)
{
	struct nlattr *tb[10], *htb[5];
	long sum = 0;

	if (genlmsg_parse((struct nlmsghdr *)msg, 0, tb, 9, plca_policy) < 0)
		return -1;
	if (!tb[1] || nla_parse_nested(htb, 4, tb[1], hdr_policy) < 0)
		return -1;
	sum += htb[2] ? nla_len(htb[2]) : 0;
	for (int i = 5; i <= 9; i++)
		if (tb[i])
			sum += nla_get_u32(tb[i]);
	if (tb[3])
		sum += nla_get_u8(tb[3]);
	return sum;
}
