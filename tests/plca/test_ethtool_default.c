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

static u8 *put_attr(u8 *p, u16 type, const void *data, u16 len)
{
	struct nlattr nla = {.nla_len = NLA_HDRLEN + len, .nla_type = type};

	memcpy(p, &nla, sizeof(nla));
	memcpy(p + NLA_HDRLEN, data, len);
	memset(p + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	return p + NLA_HDRLEN + NLA_ALIGN(len);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gets_a_driver_lacks),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_dumps),
		cmocka_unit_test(test_pause_stats_src_by_release),
		cmocka_unit_test(test_sets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
