// SPDX-License-Identifier: MIT
/*
 * STRSET_GET, FEATURES_GET/SET (with FEATURES_NTF) and STATS_GET on a simulated device
 * (src/plca/ethtool_strset.c, ethtool_features.c, ethtool_stats.c), as Linux 6.18 answers for a
 * device whose MAC driver declares no features and has no statistics ops.  Before these files
 * every request here met no op: a bare -EOPNOTSUPP.  The running kernel answers the same
 * requests in ctest clients/tool_oracle (real ethtool, cli.py batches, pyroute2).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/netlink.h>
#include <kfsim/nl_client.h>
#include <kfsim/plca.h>
#include "put_attr.h"

#define GRO (1ULL << 14)
#define GSO (1ULL << 11)
#define NOCACHE_COPY (1ULL << 41)
#define GRO_FRAGLIST (1ULL << 57)
#define GRO_UDP_FWD (1ULL << 59)

struct fixture {
	struct kfsim_plca_net *net;
	struct kfsim_nl_sock *sk, *mon;
	u16 family;
	u8 buf[65536];
	long len; /* the last reply's */
};

static int setup_at(void **state, unsigned int kver)
{
	struct fixture *f = calloc(1, sizeof(*f));

	kfsim_set_kernel_version(kver);
	f->net = kfsim_plca_net_default();
	f->sk = kfsim_nl_sock_open(kfsim_plca_net_kernel(f->net), &KFSIM_NL_CRED_ROOT);
	f->mon = kfsim_nl_sock_open(kfsim_plca_net_kernel(f->net), &KFSIM_NL_CRED_ROOT);
	assert_false(IS_ERR(f->sk));
	assert_false(IS_ERR(f->mon));
	kfsim_nl_sock_setsockopt(f->sk, NETLINK_EXT_ACK, 1);
	assert_int_equal(kfsim_nl_sock_setsockopt(f->mon, NETLINK_ADD_MEMBERSHIP,
						  kfsim_plca_net_monitor_group(f->net)),
			 0);
	f->family = kfsim_plca_net_family_id(f->net);
	*state = f;
	return 0;
}

static int setup(void **state)
{
	return setup_at(state, KERNEL_VERSION(6, 18, 0));
}

static int setup_6_12(void **state)
{
	return setup_at(state, KERNEL_VERSION(6, 12, 0));
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	kfsim_plca_net_destroy(f->net);
	free(f);
	kfsim_set_kernel_version(KERNEL_VERSION(6, 3, 0));
	return 0;
}

static u8 *nest_start(u8 *p, u16 type, u8 **nest)
{
	*nest = p;
	(void)type;
	return p + NLA_HDRLEN;
}

static void nest_end(u8 *nest, u8 *end, u16 type)
{
	struct nlattr nla = {.nla_len = (u16)(end - nest), .nla_type = type | NLA_F_NESTED};

	memcpy(nest, &nla, sizeof(nla));
}

/* The request header nest @type {DEV_NAME @dev when not NULL, FLAGS @flags when not 0}. */
static u8 *put_header(u8 *p, u16 type, const char *dev, u32 flags)
{
	u8 *nest;

	p = nest_start(p, type, &nest);
	if (dev)
		p = put_attr(p, 2, dev, (u16)(strlen(dev) + 1));
	if (flags)
		p = put_attr(p, 3, &flags, 4);
	nest_end(nest, p, type);
	return p;
}

/* A verbose bitset nest @type naming one bit @name, set or clear, in the mask form. */
static u8 *put_bit(u8 *p, u16 type, const char *name, bool set)
{
	u8 *bitset, *bits, *bit;

	p = nest_start(p, type, &bitset);
	p = nest_start(p, 3, &bits); /* BITS */
	p = nest_start(p, 1, &bit); /* BIT */
	p = put_attr(p, 2, name, (u16)(strlen(name) + 1));
	if (set)
		p = put_attr(p, 3, NULL, 0);
	nest_end(bit, p, 1);
	nest_end(bits, p, 3);
	nest_end(bitset, p, type);
	return p;
}

/* Send the message built in @req up to @end: its replies (the last in f->buf), then the ACK. */
static struct kfsim_nl_error transact(struct fixture *f, u8 *req, const u8 *end, u8 cmd,
				      int *replies, u8 *reply_cmd)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)req;
	struct kfsim_nl_error ack = {0};
	u8 msg[65536];
	long n;

	*nlh = (struct nlmsghdr){.nlmsg_len = (u32)(end - req), .nlmsg_type = f->family,
				 .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK, .nlmsg_seq = 9};
	*(struct genlmsghdr *)(req + NLMSG_HDRLEN) = (struct genlmsghdr){.cmd = cmd, .version = 1};
	*replies = 0;
	assert_int_equal(kfsim_nl_sock_send(f->sk, req, (int)nlh->nlmsg_len), nlh->nlmsg_len);
	while ((n = kfsim_nl_sock_recv(f->sk, msg, sizeof(msg))) > 0) {
		for (long off = 0; off + NLMSG_HDRLEN <= n;) {
			const struct nlmsghdr *r = (const struct nlmsghdr *)(msg + off);

			if (r->nlmsg_type == NLMSG_ERROR || r->nlmsg_type == NLMSG_DONE) {
				assert_int_equal(kfsim_nl_error_parse(r, &ack), 0);
				return ack;
			}
			*reply_cmd = ((const struct genlmsghdr *)NLMSG_DATA(r))->cmd;
			memcpy(f->buf, r, r->nlmsg_len);
			f->len = r->nlmsg_len;
			++*replies;
			off += NLMSG_ALIGN(r->nlmsg_len);
		}
	}
	fail_msg("no ACK");
	return ack;
}

/* How many times the string @s occurs in the last reply. */
static int count_in_reply(const struct fixture *f, const char *s)
{
	size_t len = strlen(s) + 1;
	int n = 0;

	for (long i = 0; i + (long)len <= f->len; i++)
		n += !memcmp(f->buf + i, s, len);
	return n;
}

#define REQ_START(req) ((req) + NLMSG_HDRLEN + GENL_HDRLEN)

static void test_register_netdevice_features(void **state)
{
	struct fixture *f = *state;
	struct net_device *dev = dev_get_by_name(f->net, "eth0");

	/* the soft features; GSO wanted but dropped: it needs SG */
	assert_true(dev->hw_features == (GSO | GRO | GRO_FRAGLIST | GRO_UDP_FWD | NOCACHE_COPY));
	assert_true(dev->wanted_features == (GSO | GRO));
	assert_true(dev->features == GRO);
}

static void test_strset(void **state)
{
	struct fixture *f = *state;
	u8 req[512], *p, *sets, *set;
	struct kfsim_nl_error ack;
	int replies;
	u8 cmd;
	u32 id;

	/* no device: the global sets, the feature names among them */
	p = put_header(REQ_START(req), 1, NULL, 0);
	ack = transact(f, req, p, 1, &replies, &cmd);
	assert_int_equal(ack.error, 0);
	assert_int_equal(replies, 1);
	assert_int_equal(cmd, 1);
	assert_int_equal(count_in_reply(f, "tx-tcp-accecn-segmentation"), 1);
	assert_int_equal(count_in_reply(f, "800000baseVR4/Full"), 1);
	assert_int_equal(count_in_reply(f, "phydev"), 1);
	/* a device: its own sets, none */
	p = put_header(REQ_START(req), 1, "eth0", 0);
	ack = transact(f, req, p, 1, &replies, &cmd);
	assert_int_equal(ack.error, 0);
	assert_int_equal(count_in_reply(f, "rx-gro"), 0);
	/* bad ids: past ETH_SS_COUNT, a device's set without a device */
	for (int i = 0; i < 2; i++) {
		id = i ? 1 : 23;
		p = put_header(REQ_START(req), 1, NULL, 0);
		p = nest_start(p, 2, &sets);
		p = nest_start(p, 1, &set);
		p = put_attr(p, 1, &id, 4);
		nest_end(set, p, 1);
		nest_end(sets, p, 2);
		ack = transact(f, req, p, 1, &replies, &cmd);
		assert_int_equal(ack.error, i ? -EINVAL : -EOPNOTSUPP);
		assert_string_equal(ack.msg, i ? "requested per device strings without dev"
					       : "unknown string set id");
	}
}

/* 6.12's tables end earlier: 103 link modes, no "phydev" group, no ETH_SS_STATS_PHY. */
static void test_strset_6_12(void **state)
{
	struct fixture *f = *state;
	struct kfsim_nl_error ack;
	u8 req[512], *p, cmd;
	int replies;

	p = put_header(REQ_START(req), 1, NULL, 0);
	ack = transact(f, req, p, 1, &replies, &cmd);
	assert_int_equal(ack.error, 0);
	assert_int_equal(count_in_reply(f, "10baseT1BRR/Full"), 1);
	assert_int_equal(count_in_reply(f, "200000baseCR/Full"), 0);
	assert_int_equal(count_in_reply(f, "phydev"), 0);
	assert_int_equal(count_in_reply(f, "RxFrames"), 0);
}

static void test_features_set(void **state)
{
	struct fixture *f = *state;
	struct net_device *dev = dev_get_by_name(f->net, "eth0");
	struct kfsim_nl_error ack;
	u8 req[512], *p, ntf[4096], cmd;
	int replies;

	/* rx-gro-list on: ACTIVE says what changed; the monitor hears FEATURES_NTF */
	p = put_header(REQ_START(req), 1, "eth0", 0);
	p = put_bit(p, 3, "rx-gro-list", true);
	ack = transact(f, req, p, 12, &replies, &cmd);
	assert_int_equal(ack.error, 0);
	assert_int_equal(replies, 1);
	assert_int_equal(cmd, 12);
	assert_int_equal(count_in_reply(f, "rx-gro-list"), 1);
	assert_true(dev->features & GRO_FRAGLIST);
	assert_true(kfsim_nl_sock_recv(f->mon, ntf, sizeof(ntf)) > 0);
	assert_int_equal(((struct genlmsghdr *)NLMSG_DATA((struct nlmsghdr *)ntf))->cmd, 13);
	/* a fixed feature: nothing changes, WANTED says so, no notification */
	p = put_header(REQ_START(req), 1, "eth0", 0);
	p = put_bit(p, 3, "hw-tc-offload", true);
	ack = transact(f, req, p, 12, &replies, &cmd);
	assert_int_equal(ack.error, 0);
	assert_int_equal(count_in_reply(f, "hw-tc-offload"), 1);
	assert_int_equal(kfsim_nl_sock_recv(f->mon, ntf, sizeof(ntf)), -EAGAIN);
	/* bad input */
	p = put_header(REQ_START(req), 1, "eth0", 0);
	p = put_bit(p, 3, "no-such-feature", true);
	ack = transact(f, req, p, 12, &replies, &cmd);
	assert_int_equal(ack.error, -EOPNOTSUPP);
	assert_string_equal(ack.msg, "bit name not found");
	p = put_header(REQ_START(req), 1, "eth0", 0);
	p = put_bit(p, 3, "vlan-challenged", true);
	ack = transact(f, req, p, 12, &replies, &cmd);
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "attempt to change non-ethtool features");
	p = put_header(REQ_START(req), 1, "eth0", 0);
	ack = transact(f, req, p, 12, &replies, &cmd);
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "");
	/* FEATURES_GET: four bitsets, the names of the set bits */
	p = put_header(REQ_START(req), 1, "eth0", 0);
	ack = transact(f, req, p, 11, &replies, &cmd);
	assert_int_equal(ack.error, 0);
	assert_int_equal(cmd, 11);
	/* HW lists every bit (its mask is all of them), NOCHANGE the one that never changes */
	assert_int_equal(count_in_reply(f, "vlan-challenged"), 2);
	assert_int_equal(count_in_reply(f, "hw-tc-offload"), 1);
}

static void test_stats(void **state)
{
	struct fixture *f = *state;
	struct kfsim_nl_error ack;
	u8 req[512], *p, cmd;
	int replies;
	u32 src = 1;

	p = put_header(REQ_START(req), 2, "eth0", 0);
	ack = transact(f, req, p, 32, &replies, &cmd);
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "no stats requested");
	p = put_header(REQ_START(req), 2, "eth0", 0);
	p = put_bit(p, 3, "eth-mac", true);
	ack = transact(f, req, p, 32, &replies, &cmd);
	assert_int_equal(ack.error, 0);
	assert_int_equal(cmd, 33);
	p = put_header(REQ_START(req), 2, "eth0", 0);
	p = put_bit(p, 3, "no-such-group", true);
	ack = transact(f, req, p, 32, &replies, &cmd);
	assert_int_equal(ack.error, -EOPNOTSUPP);
	p = put_header(REQ_START(req), 2, "eth0", 0);
	p = put_bit(p, 3, "rmon", true);
	p = put_attr(p, 5, &src, 4);
	ack = transact(f, req, p, 32, &replies, &cmd);
	assert_int_equal(ack.error, -EOPNOTSUPP);
	assert_string_equal(ack.msg, "ethtool: Device does not support MAC merge layer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_register_netdevice_features, setup, teardown),
		cmocka_unit_test_setup_teardown(test_strset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_strset_6_12, setup_6_12, teardown),
		cmocka_unit_test_setup_teardown(test_features_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stats, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
