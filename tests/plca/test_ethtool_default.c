// SPDX-License-Identifier: MIT
/*
 * The ethtool requests a simulated device's driver lacks (src/plca/ethtool_default.c):
 * -EOPNOTSUPP after the header's checks (and, for a SET, the permission), LINKINFO/LINKMODES
 * with their extack message, LINKSTATE and MODULE answered with the header, dumps that skip
 * every device, PAUSE's STATS_SRC by release.  Before ethtool_default.c these requests met no
 * op (a bare -EOPNOTSUPP from the genl core): all but the assertions of a bare -EOPNOTSUPP
 * failed.  The running kernel answers the same requests in ctest netlink/kernel_referee (lo as
 * the device) and clients/tool_oracle (real ethtool, cli.py, pyroute2).
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

struct fixture {
	struct kfsim_plca_net *net;
	struct kfsim_nl_sock *sk;
	u16 family;
};

static struct fixture *open_at(unsigned int kver)
{
	struct fixture *f = calloc(1, sizeof(*f));

	kfsim_set_kernel_version(kver); /* the family registers the ops of its release */
	f->net = kfsim_plca_net_default();
	f->sk = kfsim_nl_sock_open(kfsim_plca_net_kernel(f->net), &KFSIM_NL_CRED_ROOT);
	assert_false(IS_ERR(f->sk));
	kfsim_nl_sock_setsockopt(f->sk, NETLINK_EXT_ACK, 1);
	f->family = kfsim_plca_net_family_id(f->net);
	return f;
}

static void close_fixture(struct fixture *f)
{
	kfsim_plca_net_destroy(f->net);
	free(f);
	kfsim_set_kernel_version(KERNEL_VERSION(6, 3, 0));
}

/*
 * A request as ethtool sends it: the header nest {DEV_NAME @dev, FLAGS @hdr_flags when not 0}
 * (no header at all when @dev is NULL and @hdr_flags 0), then u32 attribute @extra_type = 1.
 */
static int request(struct fixture *f, u8 *buf, u8 cmd, u16 nlflags, const char *dev, u32 hdr_flags,
		   u16 extra_type)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct genlmsghdr *g = (struct genlmsghdr *)(buf + NLMSG_HDRLEN);
	u8 *p = buf + NLMSG_HDRLEN + GENL_HDRLEN;
	u32 one = 1;

	*nlh = (struct nlmsghdr){.nlmsg_type = f->family, .nlmsg_flags = nlflags, .nlmsg_seq = 7};
	*g = (struct genlmsghdr){.cmd = cmd, .version = 1};
	if (dev || hdr_flags) {
		struct nlattr *nest = (struct nlattr *)p;

		p += NLA_HDRLEN;
		if (dev)
			p = put_attr(p, ETHTOOL_A_HEADER_DEV_NAME, dev, (u16)(strlen(dev) + 1));
		if (hdr_flags)
			p = put_attr(p, ETHTOOL_A_HEADER_FLAGS, &hdr_flags, 4);
		*nest = (struct nlattr){.nla_len = (u16)(p - (u8 *)nest),
					.nla_type = 1 | NLA_F_NESTED};
	}
	if (extra_type)
		p = put_attr(p, extra_type, &one, 4);
	nlh->nlmsg_len = (u32)(p - buf);
	return (int)nlh->nlmsg_len;
}

/*
 * Send; the replies' commands (and their last reply) before the ACK or NLMSG_DONE go to
 * @cmds/@last, the ACK to @ack.  Return: the number of replies.
 */
static int transact(struct fixture *f, const u8 *req, int len, struct kfsim_nl_error *ack, u8 *cmds,
		    u8 *last, long *last_len)
{
	u8 msg[8192];
	int replies = 0;
	long n;

	assert_int_equal(kfsim_nl_sock_send(f->sk, req, len), len);
	while ((n = kfsim_nl_sock_recv(f->sk, msg, sizeof(msg))) > 0) {
		for (long off = 0; off + NLMSG_HDRLEN <= n;) {
			const struct nlmsghdr *nlh = (const struct nlmsghdr *)(msg + off);

			if (nlh->nlmsg_type == NLMSG_ERROR || nlh->nlmsg_type == NLMSG_DONE) {
				assert_int_equal(kfsim_nl_error_parse(nlh, ack), 0);
				return replies;
			}
			if (cmds)
				cmds[replies] = ((const struct genlmsghdr *)NLMSG_DATA(nlh))->cmd;
			if (last) {
				memcpy(last, nlh, nlh->nlmsg_len);
				*last_len = nlh->nlmsg_len;
			}
			replies++;
			off += NLMSG_ALIGN(nlh->nlmsg_len);
		}
	}
	fail_msg("no ACK");
	return -1;
}

static void test_gets_a_driver_lacks(void **state)
{
	static const u8 cmds[] = {2, 4, 7, 9, 13, 15, 17, 19, 21, 23, 29, 42};
	struct fixture *f = open_at(KERNEL_VERSION(6, 18, 0));
	struct kfsim_nl_error ack;
	u8 req[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cmds); i++) {
		int len = request(f, req, cmds[i], NLM_F_REQUEST | NLM_F_ACK, "eth0", 0, 0);

		assert_int_equal(transact(f, req, len, &ack, NULL, NULL, NULL), 0);
		assert_int_equal(ack.error, -EOPNOTSUPP);
		assert_string_equal(ack.msg, cmds[i] == 2 || cmds[i] == 4
						     ? "failed to retrieve link settings"
						     : "");
	}
	/* The header is checked first: a device nobody has, no header, a flag the policy lacks. */
	assert_int_equal(transact(f, req,
				  request(f, req, 15, NLM_F_REQUEST | NLM_F_ACK, "nosuch0", 0, 0),
				  &ack, NULL, NULL, NULL),
			 0);
	assert_int_equal(ack.error, -ENODEV);
	assert_string_equal(ack.msg, "no device matches name");
	assert_int_equal(ack.offs, NLMSG_HDRLEN + GENL_HDRLEN + NLA_HDRLEN);
	assert_int_equal(transact(f, req,
				  request(f, req, 15, NLM_F_REQUEST | NLM_F_ACK, NULL, 0, 0), &ack,
				  NULL, NULL, NULL),
			 0);
	assert_int_equal(ack.error, -EINVAL);
	assert_true(ack.has_miss_type);
	assert_int_equal(ack.miss_type, 1);
	assert_int_equal(transact(f, req,
				  request(f, req, 15, NLM_F_REQUEST | NLM_F_ACK, "eth0",
					  ETHTOOL_FLAG_STATS, 0),
				  &ack, NULL, NULL, NULL),
			 0);
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "reserved bit set");
	close_fixture(f);
}

/* LINKSTATE and MODULE answer with the header; LINKSTATE's STATS add the PHY's down count. */
static void test_replies(void **state)
{
	struct fixture *f = open_at(KERNEL_VERSION(6, 18, 0));
	struct kfsim_nl_error ack;
	u8 req[256], cmd, reply[4096];
	long reply_len;
	struct nlattr *tb[8];

	(void)state;
	assert_int_equal(transact(f, req,
				  request(f, req, 34, NLM_F_REQUEST | NLM_F_ACK, "eth1", 0, 0),
				  &ack, &cmd, NULL, NULL),
			 1);
	assert_int_equal(ack.error, 0);
	assert_int_equal(cmd, 35); /* ETHTOOL_MSG_MODULE_GET_REPLY */
	assert_int_equal(transact(f, req,
				  request(f, req, 6, NLM_F_REQUEST | NLM_F_ACK, "eth1", 0, 0), &ack,
				  &cmd, reply, &reply_len),
			 1);
	assert_int_equal(cmd, 6); /* ETHTOOL_MSG_LINKSTATE_GET_REPLY */
	assert_int_equal(nla_parse(tb, 7, (struct nlattr *)(reply + NLMSG_HDRLEN + GENL_HDRLEN),
				   (int)reply_len - NLMSG_HDRLEN - GENL_HDRLEN, NULL, NULL),
			 0);
	assert_non_null(tb[1]);
	assert_null(tb[2]); /* no get_link: no LINK */
	assert_null(tb[7]);
	assert_int_equal(transact(f, req,
				  request(f, req, 6, NLM_F_REQUEST | NLM_F_ACK, "eth1",
					  ETHTOOL_FLAG_STATS, 0),
				  &ack, &cmd, reply, &reply_len),
			 1);
	assert_int_equal(nla_parse(tb, 7, (struct nlattr *)(reply + NLMSG_HDRLEN + GENL_HDRLEN),
				   (int)reply_len - NLMSG_HDRLEN - GENL_HDRLEN, NULL, NULL),
			 0);
	assert_non_null(tb[7]);
	assert_int_equal(nla_get_u32(tb[7]), 0);
	close_fixture(f);
}

/* Dumps skip the devices that answer -EOPNOTSUPP; LINKINFO's message rides in NLMSG_DONE. */
static void test_dumps(void **state)
{
	struct fixture *f = open_at(KERNEL_VERSION(6, 18, 0));
	u16 dump = NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP;
	struct kfsim_nl_error ack;
	u8 req[256], cmds[64];
	int replies;

	(void)state;
	assert_int_equal(
		transact(f, req, request(f, req, 15, dump, NULL, 0, 0), &ack, NULL, NULL, NULL), 0);
	assert_int_equal(ack.error, 0);
	assert_true(ack.in_done);
	assert_int_equal(
		transact(f, req, request(f, req, 2, dump, NULL, 0, 0), &ack, NULL, NULL, NULL), 0);
	assert_string_equal(ack.msg, "failed to retrieve link settings");
	replies = transact(f, req, request(f, req, 34, dump, NULL, 0, 0), &ack, cmds, NULL, NULL);
	assert_true(replies >= 3);
	for (int i = 0; i < replies; i++)
		assert_int_equal(cmds[i], 35);
	/* The header is parsed at the start: its error is the dump's NLMSG_ERROR. */
	assert_int_equal(transact(f, req, request(f, req, 15, dump, "nosuch0", 0, 0), &ack, NULL,
				  NULL, NULL),
			 0);
	assert_int_equal(ack.error, -ENODEV);
	assert_false(ack.in_done);
	close_fixture(f);
}

/* PAUSE's STATS_SRC (6.4): needs ETHTOOL_FLAG_STATS; before 6.4 an attribute nobody knows. */
static void test_pause_stats_src_by_release(void **state)
{
	struct fixture *f = open_at(KERNEL_VERSION(6, 4, 0));
	struct kfsim_nl_error ack;
	u8 req[256];

	(void)state;
	assert_int_equal(transact(f, req,
				  request(f, req, 21, NLM_F_REQUEST | NLM_F_ACK, "eth0", 0, 6),
				  &ack, NULL, NULL, NULL),
			 0);
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "ethtool_nl: ETHTOOL_FLAG_STATS must be set when "
				     "requesting a source of stats");
	assert_int_equal(transact(f, req,
				  request(f, req, 21, NLM_F_REQUEST | NLM_F_ACK, "eth0",
					  ETHTOOL_FLAG_STATS, 6),
				  &ack, NULL, NULL, NULL),
			 0);
	assert_int_equal(ack.error, -EOPNOTSUPP);
	close_fixture(f);
	/* 6.3: past the policy's last type; ethtool's ops validate strictly, whatever the cmd. */
	f = open_at(KERNEL_VERSION(6, 3, 0));
	assert_int_equal(transact(f, req,
				  request(f, req, 21, NLM_F_REQUEST | NLM_F_ACK, "eth0", 0, 6),
				  &ack, NULL, NULL, NULL),
			 0);
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "Unknown attribute type");
	close_fixture(f);
}

/* The SETs that only check the driver's ops: -EOPNOTSUPP for root, -EPERM for a user. */
static void test_sets(void **state)
{
	static const u8 sets[] = {8, 10, 18, 22, 24};
	struct fixture *f = open_at(KERNEL_VERSION(6, 18, 0));
	struct kfsim_nl_sock *user =
		kfsim_nl_sock_open(kfsim_plca_net_kernel(f->net), &KFSIM_NL_CRED_USER);
	struct kfsim_nl_error ack;
	u8 req[256], msg[4096];
	int len;

	(void)state;
	for (size_t i = 0; i < sizeof(sets); i++) {
		len = request(f, req, sets[i], NLM_F_REQUEST | NLM_F_ACK, "eth0", 0, 0);
		assert_int_equal(transact(f, req, len, &ack, NULL, NULL, NULL), 0);
		assert_int_equal(ack.error, -EOPNOTSUPP);
		assert_int_equal(kfsim_nl_sock_send(user, req, len), len);
		assert_true(kfsim_nl_sock_recv(user, msg, sizeof(msg)) > 0);
		assert_int_equal(kfsim_nl_error_parse((struct nlmsghdr *)msg, &ack), 0);
		assert_int_equal(ack.error, -EPERM);
	}
	/* WOL_GET too needs CAP_NET_ADMIN: its SecureOn password is a secret. */
	len = request(f, req, 9, NLM_F_REQUEST | NLM_F_ACK, "eth0", 0, 0);
	assert_int_equal(kfsim_nl_sock_send(user, req, len), len);
	assert_true(kfsim_nl_sock_recv(user, msg, sizeof(msg)) > 0);
	assert_int_equal(kfsim_nl_error_parse((struct nlmsghdr *)msg, &ack), 0);
	assert_int_equal(ack.error, -EPERM);
	/* The header comes first: a missing one, a device nobody has. */
	assert_int_equal(transact(f, req,
				  request(f, req, 18, NLM_F_REQUEST | NLM_F_ACK, NULL, 0, 6), &ack,
				  NULL, NULL, NULL),
			 0);
	assert_true(ack.has_miss_type);
	assert_int_equal(transact(f, req,
				  request(f, req, 18, NLM_F_REQUEST | NLM_F_ACK, "nosuch0", 0, 6),
				  &ack, NULL, NULL, NULL),
			 0);
	assert_int_equal(ack.error, -ENODEV);
	close_fixture(f); /* closes @user too */
}

/* A request with the header {DEV_NAME @dev} and the attributes of @attrs (already laid out). */
static int request_with(struct fixture *f, u8 *buf, u8 cmd, u16 nlflags, const char *dev,
			u32 hdr_flags, const u8 *attrs, size_t attrs_len)
{
	int len = request(f, buf, cmd, nlflags, dev, hdr_flags, 0);

	memcpy(buf + len, attrs, attrs_len);
	((struct nlmsghdr *)buf)->nlmsg_len = (u32)(len + (int)attrs_len);
	return len + (int)attrs_len;
}

/* One SET with one attribute @type of @len bytes @val: its ACK. */
static struct kfsim_nl_error set_one(struct fixture *f, u8 cmd, u16 type, const void *val, u16 len)
{
	struct kfsim_nl_error ack;
	u8 attrs[64], req[256];
	size_t n = (size_t)(put_attr(attrs, type, val, len) - attrs);

	assert_int_equal(transact(f, req,
				  request_with(f, req, cmd, NLM_F_REQUEST | NLM_F_ACK, "eth0", 0,
					       attrs, type ? n : 0),
				  &ack, NULL, NULL, NULL),
			 0);
	return ack;
}

/*
 * The SETs whose set_validate looks at an attribute before the driver's ops (6.12 = 6.18):
 * LINKMODES' master/slave value and lanes, PRIVFLAGS' required flags, MODULE's power mode
 * policy (none asked: nothing to do, ACK 0).  COALESCE, FEC and LINKINFO: the ops alone.
 * Before these ops were in the family, ethtool -s speed and --set-module exited 1 without a
 * word and -C/--set-fec/--set-priv-flags fell back to the refused ioctl.
 */
static void test_sets_validated_first(void **state)
{
	struct fixture *f = open_at(KERNEL_VERSION(6, 18, 0));
	u8 master_force = 4, unknown = 1, auto_policy = 2, bad_policy = 3;
	u32 lanes_3 = 3, lanes_2 = 2, usecs = 1;
	struct kfsim_nl_error ack;

	(void)state;
	ack = set_one(f, 5, 7, &unknown, 1); /* LINKMODES_SET MASTER_SLAVE_CFG UNKNOWN */
	assert_int_equal(ack.error, -EOPNOTSUPP);
	assert_string_equal(ack.msg, "master/slave value is invalid");
	assert_int_equal(set_one(f, 5, 7, &master_force, 1).error, -EOPNOTSUPP);
	ack = set_one(f, 5, 9, &lanes_3, 4); /* LANES */
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "lanes value is invalid");
	ack = set_one(f, 5, 9, &lanes_2, 4);
	assert_int_equal(ack.error, -EOPNOTSUPP);
	assert_string_equal(ack.msg, "");
	ack = set_one(f, 14, 0, NULL, 0); /* PRIVFLAGS_SET without FLAGS */
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "");
	assert_int_equal(set_one(f, 14, 2 | NLA_F_NESTED, NULL, 0).error, -EOPNOTSUPP);
	assert_int_equal(set_one(f, 35, 0, NULL, 0).error, 0); /* MODULE_SET: nothing to do */
	ack = set_one(f, 35, 2, &auto_policy, 1);
	assert_int_equal(ack.error, -EOPNOTSUPP);
	assert_string_equal(ack.msg, "Setting power mode policy is not supported by this device");
	ack = set_one(f, 35, 2, &bad_policy, 1); /* HIGH or AUTO only: the policy's range */
	assert_int_equal(ack.error, -ERANGE);
	assert_int_equal(set_one(f, 20, 2, &usecs, 4).error, -EOPNOTSUPP);   /* COALESCE rx-usecs */
	assert_int_equal(set_one(f, 30, 3, &unknown, 1).error, -EOPNOTSUPP); /* FEC AUTO */
	assert_int_equal(set_one(f, 3, 2, &unknown, 1).error, -EOPNOTSUPP);  /* LINKINFO PORT */
	assert_int_equal(set_one(f, 16, 6, &usecs, 4).error, -EOPNOTSUPP);   /* RINGS RX */
	ack = set_one(f, 16, 11, &unknown, 1); /* RINGS TCP_DATA_SPLIT (6.9) */
	assert_int_equal(ack.error, -EOPNOTSUPP);
	assert_string_equal(ack.msg, "setting TCP data split is not supported");
	ack = set_one(f, 16, 17, &usecs, 4); /* RINGS HDS_THRESH (6.14) */
	assert_string_equal(ack.msg, "setting hds-thresh is not supported");
	close_fixture(f);
	/* COALESCE's profiles are 6.11's: at 6.10 RX_PROFILE (29) is past the policy. */
	f = open_at(KERNEL_VERSION(6, 10, 0));
	ack = set_one(f, 20, 29 | NLA_F_NESTED, NULL, 0);
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "Unknown attribute type");
	ack = set_one(f, 16, 17, &usecs, 4); /* no HDS_THRESH before 6.14 */
	assert_string_equal(ack.msg, "Unknown attribute type");
	ack = set_one(f, 16, 11, &unknown, 1); /* a valid request: the checks stop at 6.10's */
	assert_string_equal(ack.msg, "setting TCP data split is not supported");
	assert_int_equal(set_one(f, 16, 6, &usecs, 4).error, -EOPNOTSUPP);
	close_fixture(f);
	/* 6.3: TCP_DATA_SPLIT is an empty slot of RINGS_SET's table, TX_PUSH_BUF_LEN past it. */
	f = open_at(KERNEL_VERSION(6, 3, 0));
	assert_string_equal(set_one(f, 16, 11, &unknown, 1).msg, "Unsupported attribute");
	assert_string_equal(set_one(f, 16, 15, &usecs, 4).msg, "Unknown attribute type");
	assert_int_equal(set_one(f, 16, 6, &usecs, 4).error, -EOPNOTSUPP);
	close_fixture(f);
}

/* The TIMESTAMPING bitset of a TSINFO reply @reply: its SIZE, and its set bits in @bits. */
static u32 tsinfo_bitset(const u8 *reply, long reply_len, u32 *bits, char names[][32])
{
	struct nlattr *tb[8], *bs[5], *pos;
	int rem, n = 0;

	assert_int_equal(nla_parse(tb, 7, (struct nlattr *)(reply + NLMSG_HDRLEN + GENL_HDRLEN),
				   (int)reply_len - NLMSG_HDRLEN - GENL_HDRLEN, NULL, NULL),
			 0);
	assert_non_null(tb[1]);
	assert_non_null(tb[2]);
	assert_null(tb[3]); /* no TX_TYPES, RX_FILTERS, PHC_INDEX to report */
	assert_null(tb[4]);
	assert_null(tb[5]);
	assert_int_equal(nla_parse_nested(bs, 4, tb[2], NULL, NULL), 0);
	assert_non_null(bs[1]); /* NOMASK */
	*bits = 0;
	if (bs[4]) { /* compact: the words */
		*bits = nla_get_u32(bs[4]);
		return nla_get_u32(bs[2]);
	}
	nla_for_each_nested(pos, bs[3], rem)
	{
		struct nlattr *bit[3];

		assert_int_equal(nla_parse_nested(bit, 2, pos, NULL, NULL), 0);
		*bits |= 1u << nla_get_u32(bit[1]);
		snprintf(names[n++], 32, "%s", (const char *)nla_data(bit[2]));
	}
	return nla_get_u32(bs[2]);
}

/*
 * TSINFO_GET: the software receive stamps every device has, by release: the bitset's size
 * (17, 18 from 6.11, 19 from 6.16), ETHTOOL_FLAG_STATS's empty STATS (6.10), the provider
 * (6.14: -ENODEV, none has a PHC), and a dump that lists every device before 6.14 and none
 * after.  Before ethtool_tsinfo.c, ethtool -T fell back to the refused ioctl.
 */
static void test_tsinfo(void **state)
{
	static const struct {
		unsigned int kver;
		u32 size;
	} releases[] = {{KERNEL_VERSION(6, 3, 0), 17},
			{KERNEL_VERSION(6, 12, 0), 18},
			{KERNEL_VERSION(6, 18, 0), 19}};
	u16 dump = NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP;
	struct kfsim_nl_error ack;
	u8 req[256], cmd, reply[4096];
	char names[4][32];
	long reply_len;
	u32 bits;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(releases); i++) {
		struct fixture *f = open_at(releases[i].kver);
		int replies;

		assert_int_equal(
			transact(f, req,
				 request(f, req, 25, NLM_F_REQUEST | NLM_F_ACK, "eth0", 0, 0), &ack,
				 &cmd, reply, &reply_len),
			1);
		assert_int_equal(cmd, 26); /* ETHTOOL_MSG_TSINFO_GET_REPLY */
		assert_int_equal(tsinfo_bitset(reply, reply_len, &bits, names), releases[i].size);
		assert_int_equal(bits, 0x18); /* RX_SOFTWARE, SOFTWARE */
		assert_string_equal(names[0], "software-receive");
		assert_string_equal(names[1], "software-system-clock");
		assert_int_equal(transact(f, req,
					  request(f, req, 25, NLM_F_REQUEST | NLM_F_ACK, "eth0",
						  ETHTOOL_FLAG_COMPACT_BITSETS, 0),
					  &ack, &cmd, reply, &reply_len),
				 1);
		assert_int_equal(tsinfo_bitset(reply, reply_len, &bits, names), releases[i].size);
		assert_int_equal(bits, 0x18);
		replies = transact(f, req, request(f, req, 25, dump, NULL, 0, 0), &ack, NULL, NULL,
				   NULL);
		assert_int_equal(ack.error, 0);
		if (releases[i].kver < KERNEL_VERSION(6, 14, 0))
			assert_true(replies >= 3);
		else
			assert_int_equal(replies, 0);
		close_fixture(f);
	}
}

/* TSINFO_GET at 6.18: STATS, and the hardware time stamp provider (6.14). */
static void test_tsinfo_stats_and_provider(void **state)
{
	struct fixture *f = open_at(KERNEL_VERSION(6, 18, 0));
	u8 req[256], cmd, reply[4096], attrs[64];
	u8 *p = attrs + NLA_HDRLEN;
	u32 zero = 0, none = 0xffffffff;
	struct kfsim_nl_error ack;
	long reply_len;

	(void)state;
	/* With ETHTOOL_FLAG_STATS: an empty STATS nest (6), no get_ts_stats. */
	assert_int_equal(transact(f, req,
				  request(f, req, 25, NLM_F_REQUEST | NLM_F_ACK, "eth0",
					  ETHTOOL_FLAG_STATS, 0),
				  &ack, &cmd, reply, &reply_len),
			 1);
	assert_int_equal(nla_len(nla_find((struct nlattr *)(reply + NLMSG_HDRLEN + GENL_HDRLEN),
					  (int)reply_len - NLMSG_HDRLEN - GENL_HDRLEN, 6)),
			 0);
	/* A provider: both attributes required; none matches; index -1 asks for none. */
	p = put_attr(p, 1, &zero, 4);
	*(struct nlattr *)attrs =
		(struct nlattr){.nla_len = (u16)(p - attrs), .nla_type = 7 | NLA_F_NESTED};
	assert_int_equal(transact(f, req,
				  request_with(f, req, 25, NLM_F_REQUEST | NLM_F_ACK, "eth0", 0,
					       attrs, (size_t)(p - attrs)),
				  &ack, NULL, NULL, NULL),
			 0);
	assert_int_equal(ack.error, -EINVAL);
	assert_true(ack.has_miss_type);
	assert_int_equal(ack.miss_type, 2);
	p = put_attr(p, 2, &zero, 4);
	((struct nlattr *)attrs)->nla_len = (u16)(p - attrs);
	assert_int_equal(transact(f, req,
				  request_with(f, req, 25, NLM_F_REQUEST | NLM_F_ACK, "eth0", 0,
					       attrs, (size_t)(p - attrs)),
				  &ack, NULL, NULL, NULL),
			 0);
	assert_int_equal(ack.error, -ENODEV);
	memcpy(attrs + NLA_HDRLEN + NLA_HDRLEN, &none, 4);
	assert_int_equal(transact(f, req,
				  request_with(f, req, 25, NLM_F_REQUEST | NLM_F_ACK, "eth0", 0,
					       attrs, (size_t)(p - attrs)),
				  &ack, NULL, NULL, NULL),
			 1);
	close_fixture(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gets_a_driver_lacks),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_dumps),
		cmocka_unit_test(test_pause_stats_src_by_release),
		cmocka_unit_test(test_sets),
		cmocka_unit_test(test_sets_validated_first),
		cmocka_unit_test(test_tsinfo),
		cmocka_unit_test(test_tsinfo_stats_and_provider),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
