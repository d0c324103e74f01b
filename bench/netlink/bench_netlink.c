// SPDX-License-Identifier: MIT
/*
 * Benchmark: a typical 6-attribute generic netlink request (ethtool PLCA SET_CFG: a header nest
 * with a device name, ENABLED u8, and NODE_ID, NODE_CNT, TO_TMR, BURST_CNT u32) built, strictly
 * validated and parsed by kfsim, against libnl-3's genlmsg_parse() and libmnl's
 * mnl_attr_parse() with per-type mnl_attr_validate() on the same bytes, in the same run.
 *
 * kfsim checks everything the kernel checks (exact lengths, ranges, NLA_F_NESTED, unknown
 * types, trailing bytes, the nested header's NUL-string and mask); libnl checks minimum
 * lengths; libmnl checks exact lengths of the types the callback names.
 *
 * Usage: bench_netlink [ITERATIONS [ROUNDS]] (defaults 2000000, 7).  Prints per case the median
 * ns/op over the rounds with the fastest and slowest round, and the ratios to the peers as the
 * median (and range) of the per-round ratios: each round runs every case back to back, so a
 * ratio compares times taken under the same load.  bench/netlink/run.sh adds callgrind's
 * instruction counts per operation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>

#include <kfsim/netlink.h>
#include "bench_peers.h"

static const struct nla_policy header_policy[] = {
	[1] = {.type = NLA_U32},
	[2] = {.type = NLA_NUL_STRING, .len = 127},
	[3] = NLA_POLICY_MASK(NLA_U32, 0x3),
	[4] = NLA_POLICY_MIN(NLA_U32, 1),
};

static const struct nla_policy plca_policy[] = {
	[1] = NLA_POLICY_NESTED(header_policy),	 [3] = NLA_POLICY_MAX(NLA_U8, 1),
	[5] = NLA_POLICY_RANGE(NLA_U32, 1, 255), [6] = NLA_POLICY_MAX(NLA_U32, 255),
	[7] = NLA_POLICY_MAX(NLA_U32, 255),	 [8] = NLA_POLICY_MAX(NLA_U32, 255),
	[9] = NLA_POLICY_MAX(NLA_U32, 255),
};

static const struct genl_family ethtool = {.name = "ethtool", .version = 1, .id = 0x15};

static void build(struct sk_buff *skb, u32 i)
{
	struct nlmsghdr *nlh;
	struct nlattr *hdr;
	void *gh;

	skb->len = 0;
	gh = genlmsg_put(skb, 0, i, &ethtool, NLM_F_REQUEST | NLM_F_ACK, 40);
	nlh = nlmsg_hdr(skb);
	hdr = nla_nest_start(skb, 1);
	nla_put_string(skb, 2, "eth0");
	nla_nest_end(skb, hdr);
	nla_put_u8(skb, 3, 1);
	nla_put_u32(skb, 6, i & 0x7f);
	nla_put_u32(skb, 5, 8);
	nla_put_u32(skb, 7, 32);
	nla_put_u32(skb, 8, 0);
	genlmsg_end(skb, gh);
	(void)nlh;
}

/* noinline: callgrind counts each parser by name (scripts/bench and bench/netlink/run.sh: --toggle-collect) */
__attribute__((noinline)) static long kfsim_parse(const struct nlmsghdr *nlh)
{
	struct nlattr *tb[ARRAY_SIZE(plca_policy)], *htb[ARRAY_SIZE(header_policy)];
	long sum = 0;

	if (nlmsg_parse(nlh, GENL_HDRLEN, tb, ARRAY_SIZE(plca_policy) - 1, plca_policy, NULL))
		return -1;
	/* the nest was validated with its policy already; take its tb[] without re-checking */
	if (!tb[1] || nla_parse_nested(htb, ARRAY_SIZE(header_policy) - 1, tb[1], NULL, NULL))
		return -1;
	sum += htb[2] ? nla_len(htb[2]) : 0;
	for (int i = 5; i <= 9; i++)
		if (tb[i])
			sum += nla_get_u32(tb[i]);
	if (tb[3])
		sum += nla_get_u8(tb[3]);
	return sum;
}

struct mnl_tb {
	const struct nlattr *tb[10];
};

static int mnl_hdr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, 4) < 0)
		return MNL_CB_ERROR;
	if (type == 2 ? mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0
		      : mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

static int mnl_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, 9) < 0)
		return MNL_CB_ERROR;
	switch (type) {
	case 1:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			return MNL_CB_ERROR;
		break;
	case 3:
		if (mnl_attr_validate(attr, MNL_TYPE_U8) < 0)
			return MNL_CB_ERROR;
		break;
	default:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
	}
	tb[type] = attr;
	return MNL_CB_OK;
}

__attribute__((noinline)) static long libmnl_parse(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[10] = {0}, *htb[5] = {0};
	long sum = 0;

	if (mnl_attr_parse(nlh, GENL_HDRLEN, mnl_cb, tb) != MNL_CB_OK)
		return -1;
	if (!tb[1] || mnl_attr_parse_nested(tb[1], mnl_hdr_cb, htb) != MNL_CB_OK)
		return -1;
	sum += htb[2] ? mnl_attr_get_payload_len(htb[2]) : 0;
	for (int i = 5; i <= 9; i++)
		if (tb[i])
			sum += mnl_attr_get_u32(tb[i]);
	if (tb[3])
		sum += mnl_attr_get_u8(tb[3]);
	return sum;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

enum { KFSIM_BUILD_PARSE, KFSIM_PARSE, LIBNL_PARSE, LIBMNL_PARSE, NR_CASES };

static const char *const case_names[NR_CASES] = {
	"kfsim build+strict validate+parse",
	"kfsim strict validate+parse",
	"libnl-3 genlmsg_parse+nested",
	"libmnl mnl_attr_parse+nested",
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median, min and max of @n values (sorted in place). */
static void stats(double *v, int n, double *med, double *min, double *max)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	*med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*min = v[0];
	*max = v[n - 1];
}

#define MAX_ROUNDS 64

int main(int argc, char **argv)
{
	long iters = argc > 1 ? atol(argv[1]) : 2000000;
	int rounds = argc > 2 ? atoi(argv[2]) : 7;
	struct sk_buff *skb = kfsim_skb_alloc(256, GFP_KERNEL);
	static double t[NR_CASES][MAX_ROUNDS], r_mnl[MAX_ROUNDS], r_nl[MAX_ROUNDS],
		r_build[MAX_ROUNDS];
	double med, min, max;
	volatile long sink = 0;

	if (argc > 1 && !strcmp(argv[1], "--help")) {
		printf("usage: bench_netlink [ITERATIONS > 0 [ROUNDS 1..%d]]\n", MAX_ROUNDS);
		return 0;
	}
	if (iters <= 0 || rounds <= 0 || rounds > MAX_ROUNDS || !skb) {
		fprintf(stderr, "usage: bench_netlink [ITERATIONS > 0 [ROUNDS 1..%d]]\n", MAX_ROUNDS);
		return 2;
	}
	build(skb, 1);
	/* every parser must accept the same bytes and read the same values */
	if (kfsim_parse(nlmsg_hdr(skb)) != bench_libnl_parse(nlmsg_hdr(skb)) ||
	    kfsim_parse(nlmsg_hdr(skb)) != libmnl_parse(nlmsg_hdr(skb)) ||
	    kfsim_parse(nlmsg_hdr(skb)) < 0) {
		fprintf(stderr, "bench_netlink: the parsers disagree on the message\n");
		return 1;
	}
	for (int round = 0; round < rounds; round++) {
		for (int c = 0; c < NR_CASES; c++) {
			double t0 = now_ns();

			for (long i = 0; i < iters; i++) {
				switch (c) {
				case KFSIM_BUILD_PARSE:
					build(skb, i);
					sink += kfsim_parse(nlmsg_hdr(skb));
					break;
				case KFSIM_PARSE:
					sink += kfsim_parse(nlmsg_hdr(skb));
					break;
				case LIBNL_PARSE:
					sink += bench_libnl_parse(nlmsg_hdr(skb));
					break;
				case LIBMNL_PARSE:
					sink += libmnl_parse(nlmsg_hdr(skb));
					break;
				}
			}
			t[c][round] = (now_ns() - t0) / iters;
		}
		r_mnl[round] = t[KFSIM_PARSE][round] / t[LIBMNL_PARSE][round];
		r_nl[round] = t[KFSIM_PARSE][round] / t[LIBNL_PARSE][round];
		r_build[round] = t[KFSIM_BUILD_PARSE][round] / t[LIBMNL_PARSE][round];
	}
	printf("netlink: %u-byte PLCA SET_CFG request, 6 attributes (1 nest), %ld iterations, "
	       "%d rounds\n", nlmsg_hdr(skb)->nlmsg_len, iters, rounds);
	for (int c = 0; c < NR_CASES; c++) {
		stats(t[c], rounds, &med, &min, &max);
		printf("  %-36s %7.1f ns/op median (rounds %.1f..%.1f)\n", case_names[c], med, min,
		       max);
	}
	stats(r_mnl, rounds, &med, &min, &max);
	printf("  ratio kfsim validate+parse / libmnl: %.2f (%.2f..%.2f)  (< 1 is faster)\n", med,
	       min, max);
	stats(r_nl, rounds, &med, &min, &max);
	printf("  ratio kfsim validate+parse / libnl-3: %.2f (%.2f..%.2f)\n", med, min, max);
	stats(r_build, rounds, &med, &min, &max);
	printf("  ratio kfsim build+validate+parse / libmnl parse: %.2f (%.2f..%.2f)\n", med, min,
	       max);
	kfsim_skb_free(skb);
	return sink == 42 ? 3 : 0;
}
