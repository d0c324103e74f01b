// SPDX-License-Identifier: MIT
/*
 * Netlink level: the ethtool PLCA family of the in-process kernel byte for byte — requests,
 * replies, ACKs, notifications — its reply rules, permission, policy rejections (every
 * out-of-range value, with no state change), the 6.3 ENABLED-as-u32 behaviour, dumps.  The same
 * requests sent to the running kernel: test_kernel_oracle.c.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/plca.h>
#include "plca/plca_internal.h"
#include <kfsim/nl_client.h>
#include "support/log_assert.h"

/* The family id and the requester's port id, as the in-process kernel assigned them. */
static u16 FAM;
static u32 PORTID;

struct fixture {
	struct kfsim_plca_net *net;
	struct kfsim_nl_sock *sk;	/* the requester (admin) */
	struct kfsim_nl_sock *mon;	/* a monitor-group member */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	f->net = kfsim_plca_net_default();
	f->sk = kfsim_nl_sock_open(kfsim_plca_net_kernel(f->net), &KFSIM_NL_CRED_ROOT);
	f->mon = kfsim_nl_sock_open(kfsim_plca_net_kernel(f->net), &KFSIM_NL_CRED_USER);
	assert_false(IS_ERR(f->sk));
	assert_false(IS_ERR(f->mon));
	kfsim_nl_sock_setsockopt(f->sk, NETLINK_EXT_ACK, 1);
	assert_int_equal(kfsim_nl_sock_setsockopt(f->mon, NETLINK_ADD_MEMBERSHIP,
						  kfsim_plca_net_monitor_group(f->net)), 0);
	FAM = kfsim_plca_net_family_id(f->net);
	PORTID = kfsim_nl_sock_portid(f->sk);
	kfsim_set_kernel_version(KERNEL_VERSION(6, 3, 0));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	kfsim_plca_net_destroy(f->net);	/* closes the sockets */
	free(f);
	kfsim_set_kernel_version(KERNEL_VERSION(6, 3, 0));
	return 0;
}

static int build(u8 *buf, u8 cmd, const char *dev, const struct kfsim_plca_attr *attrs, int n)
{
	int len = kfsim_ethtool_plca_request(buf, 256, FAM, cmd, NLM_F_REQUEST | NLM_F_ACK, 1, dev,
					     0, attrs, n);

	assert_true(len > 0);
	return len;
}

/* Send, then expect exactly one ACK on the requester's queue (after @nr_replies replies). */
static int send_for_ack(struct fixture *f, const u8 *req, int len, struct kfsim_nl_error *ack,
			u8 *reply, long *reply_len)
{
	u8 msg[8192];
	long n;

	assert_int_equal(kfsim_nl_sock_send(f->sk, req, len), len);
	n = kfsim_nl_sock_recv(f->sk, msg, sizeof(msg));
	assert_true(n > 0);
	if (((struct nlmsghdr *)msg)->nlmsg_type != NLMSG_ERROR) {
		if (reply) {
			memcpy(reply, msg, n);
			*reply_len = n;
		}
		n = kfsim_nl_sock_recv(f->sk, msg, sizeof(msg));
		assert_true(n > 0);
	}
	assert_int_equal(kfsim_nl_error_parse((const struct nlmsghdr *)msg, ack), 0);
	assert_int_equal(kfsim_nl_sock_recv(f->sk, msg, sizeof(msg)), -EAGAIN);
	return ack->error;
}

static int pending_notifications(struct fixture *f)
{
	u8 msg[4096];
	int count = 0;

	while (kfsim_nl_sock_recv(f->mon, msg, sizeof(msg)) > 0)
		count++;
	return count;
}

/* A copy of every PLCA register of every PHY, to show a rejected request changed nothing. */
static void snapshot(struct kfsim_plca_net *net, u16 *out)
{
	struct net_device *dev;

	for (int i = 0; (dev = kfsim_plca_net_dev_at(net, i)); i++)
		for (int r = 0; r < KFSIM_PHY_MAX_REGS; r++)
			out[i * KFSIM_PHY_MAX_REGS + r] = dev->phydev ? dev->phydev->regs[r].value : 0;
}

static void test_get_cfg_golden_bytes(void **state)
{
	u8 want_req[] = {
		0x24, 0, 0, 0, 0, 0, 0x05, 0, 1, 0, 0, 0, 0, 0, 0, 0,
		0x27, 0x01, 0, 0,
		0x10, 0, 0x01, 0x80, 0x09, 0, 0x02, 0, 'e', 't', 'h', '0', 0, 0, 0, 0,
	};
	u8 want_reply[] = {
		100, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
		0x27, 0x01, 0, 0,
		0x18, 0, 0x01, 0x80, 0x08, 0, 0x01, 0, 2, 0, 0, 0,
		0x09, 0, 0x02, 0, 'e', 't', 'h', '0', 0, 0, 0, 0,
		0x06, 0, 0x02, 0, 0x10, 0, 0, 0,	/* VERSION 0x10 = v1.0 */
		0x05, 0, 0x03, 0, 0x01, 0, 0, 0,	/* ENABLED */
		0x08, 0, 0x06, 0, 0, 0, 0, 0,		/* NODE_ID 0 (before NODE_CNT) */
		0x08, 0, 0x05, 0, 8, 0, 0, 0,		/* NODE_CNT 8 */
		0x08, 0, 0x07, 0, 32, 0, 0, 0,		/* TO_TMR */
		0x08, 0, 0x08, 0, 0, 0, 0, 0,		/* BURST_CNT */
		0x08, 0, 0x09, 0, 128, 0, 0, 0,		/* BURST_TMR */
	};
	struct fixture *f = *state;
	struct kfsim_nl_error ack;
	u8 req[256], reply[4096];
	long reply_len = 0;
	int len = build(req, ETHTOOL_MSG_PLCA_GET_CFG, "eth0", NULL, 0);

	memcpy(want_req + 4, &FAM, 2);
	memcpy(want_reply + 4, &FAM, 2);
	memcpy(want_reply + 12, &PORTID, 4);
	assert_int_equal(len, sizeof(want_req));
	assert_memory_equal(req, want_req, sizeof(want_req));
	assert_int_equal(send_for_ack(f, req, len, &ack, reply, &reply_len), 0);
	assert_int_equal(reply_len, sizeof(want_reply));
	assert_memory_equal(reply, want_reply, sizeof(want_reply));
	/* The (generated) decoder is strict about lengths: a 4-byte ENABLED is refused. */
	{
		struct kfsim_plca_reply parsed;

		assert_int_equal(kfsim_ethtool_plca_parse(reply, reply_len, &parsed), 0);
		assert_int_equal(parsed.present, 0x3ee);	/* all but UNSPEC and STATUS */
		reply[52] = 8;
		assert_int_equal(kfsim_ethtool_plca_parse(reply, reply_len, &parsed), -EINVAL);
	}
	assert_int_equal(pending_notifications(f), 0);
}

/* SET_CFG and GET_STATUS requests, byte for byte, as ethtool sends them. */
static void test_set_and_status_request_bytes(void **state)
{
	u8 want_set[] = {
		0x3c, 0, 0, 0, 0, 0, 0x05, 0, 1, 0, 0, 0, 0, 0, 0, 0,
		0x28, 0x01, 0, 0,
		0x10, 0, 0x01, 0x80, 0x09, 0, 0x02, 0, 'e', 't', 'h', '2', 0, 0, 0, 0,
		0x05, 0, 0x03, 0, 0x01, 0, 0, 0,	/* enable on: u8, 3 zero pad bytes */
		0x08, 0, 0x06, 0, 0x02, 0, 0, 0,	/* node-id 2 */
		0x08, 0, 0x07, 0, 0x20, 0, 0, 0,	/* to-tmr 0x20: command-line order kept */
	};
	u8 want_status[] = {
		0x24, 0, 0, 0, 0, 0, 0x05, 0, 1, 0, 0, 0, 0, 0, 0, 0,
		0x29, 0x01, 0, 0,
		0x10, 0, 0x01, 0x80, 0x09, 0, 0x02, 0, 'e', 't', 'h', '1', 0, 0, 0, 0,
	};
	static const struct kfsim_plca_attr attrs[] = {
		{ ETHTOOL_A_PLCA_ENABLED, 1 }, { ETHTOOL_A_PLCA_NODE_ID, 2 },
		{ ETHTOOL_A_PLCA_TO_TMR, 0x20 },
	};
	u8 req[256];

	memcpy(want_set + 4, &FAM, 2);
	memcpy(want_status + 4, &FAM, 2);
	assert_int_equal(build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", attrs, 3), sizeof(want_set));
	assert_memory_equal(req, want_set, sizeof(want_set));
	assert_int_equal(build(req, ETHTOOL_MSG_PLCA_GET_STATUS, "eth1", NULL, 0),
			 sizeof(want_status));
	assert_memory_equal(req, want_status, sizeof(want_status));
	/* A buffer too small for the request: -EMSGSIZE, nothing half-built returned. */
	assert_int_equal(kfsim_ethtool_plca_request(req, 40, FAM, ETHTOOL_MSG_PLCA_SET_CFG,
						    NLM_F_REQUEST | NLM_F_ACK, 1, "eth2", 0,
						    attrs, 3), -EMSGSIZE);
}

static void test_get_status_and_ack_bytes(void **state)
{
	static const u8 want_tail[] = { 0x05, 0, 0x04, 0, 0x01, 0, 0, 0 };
	struct fixture *f = *state;
	struct kfsim_plca_reply parsed;
	struct kfsim_nl_error ack;
	u8 req[256], reply[4096], msg[256];
	long reply_len = 0;
	int len = build(req, ETHTOOL_MSG_PLCA_GET_STATUS, "eth1", NULL, 0);

	assert_int_equal(send_for_ack(f, req, len, &ack, reply, &reply_len), 0);
	/* cmd 40 is GET_STATUS_REPLY in the kernel-to-user enum. */
	assert_int_equal(reply[16], ETHTOOL_MSG_PLCA_GET_STATUS_REPLY);
	assert_int_equal(reply_len, 16 + 4 + 24 + 8);
	assert_memory_equal(reply + reply_len - 8, want_tail, sizeof(want_tail));
	assert_int_equal(kfsim_ethtool_plca_parse(reply, reply_len, &parsed), 0);
	assert_string_equal(parsed.devname, "eth1");
	assert_int_equal(parsed.ifindex, 3);
	assert_int_equal(parsed.present, 1u << ETHTOOL_A_PLCA_HEADER | 1u << ETHTOOL_A_PLCA_STATUS);

	/* The success ACK, raw: 36 bytes, NLM_F_CAPPED, the request header echoed. */
	assert_int_equal(kfsim_nl_sock_send(f->sk, req, len), len);
	assert_true(kfsim_nl_sock_recv(f->sk, msg, sizeof(msg)) > 0);
	assert_int_equal(kfsim_nl_sock_recv(f->sk, msg, sizeof(msg)), 36);
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_type, NLMSG_ERROR);
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_flags, NLM_F_CAPPED);
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_pid, PORTID);
	assert_memory_equal(msg + 20, req, 16);
}

static void test_set_notifies_monitor(void **state)
{
	static const struct kfsim_plca_attr attrs[] = {
		{ ETHTOOL_A_PLCA_NODE_ID, 2 }, { ETHTOOL_A_PLCA_ENABLED, 1 },
		{ ETHTOOL_A_PLCA_TO_TMR, 0x20 },
	};
	struct fixture *f = *state;
	struct kfsim_plca_reply ntf;
	struct kfsim_nl_error ack;
	struct phy_device *phydev = dev_get_by_name(f->net, "eth2")->phydev;
	u8 req[256], msg[4096];
	int len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", attrs, 3);
	long n;

	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), 0);
	assert_int_equal(kfsim_phy_peek(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0), 0x8000);
	assert_int_equal(kfsim_phy_peek(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL1), 0x0802);
	n = kfsim_nl_sock_recv(f->mon, msg, sizeof(msg));
	assert_true(n > 0);
	/* The notification: cmd PLCA_NTF, portid 0, seq 1 (first broadcast), GET_CFG content. */
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_pid, 0);
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_seq, 1);
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_flags, 0);
	assert_int_equal(n, 100);
	assert_int_equal(kfsim_ethtool_plca_parse(msg, n, &ntf), 0);
	assert_int_equal(ntf.cmd, ETHTOOL_MSG_PLCA_NTF);
	{
		/* Byte for byte a GET_CFG reply, but cmd 41, portid 0, the broadcast seq. */
		u8 get[256], reply[4096];
		struct kfsim_nl_error get_ack;
		long reply_len = 0;
		int get_len = build(get, ETHTOOL_MSG_PLCA_GET_CFG, "eth2", NULL, 0);

		assert_int_equal(send_for_ack(f, get, get_len, &get_ack, reply, &reply_len), 0);
		assert_int_equal(reply_len, n);
		assert_memory_equal(reply + 20, msg + 20, n - 20);
		assert_int_equal(reply[16], ETHTOOL_MSG_PLCA_GET_CFG_REPLY);
		assert_int_equal(msg[16], ETHTOOL_MSG_PLCA_NTF);
	}
	assert_int_equal(ntf.value[ETHTOOL_A_PLCA_NODE_ID], 2);
	assert_int_equal(ntf.value[ETHTOOL_A_PLCA_ENABLED], 1);
	/* The same SET again changes nothing and still notifies, with the next sequence. */
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), 0);
	n = kfsim_nl_sock_recv(f->mon, msg, sizeof(msg));
	assert_int_equal(n, 100);
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_seq, 2);
	/* The requester is not in the group: nothing extra on its queue. */
	assert_int_equal(kfsim_nl_sock_recv(f->sk, msg, sizeof(msg)), -EAGAIN);
}

static void test_set_without_attributes_is_silent(void **state)
{
	struct fixture *f = *state;
	struct kfsim_nl_error ack;
	u16 before[KFSIM_PLCA_MAX_DEVS * KFSIM_PHY_MAX_REGS] = {};
	u16 after[KFSIM_PLCA_MAX_DEVS * KFSIM_PHY_MAX_REGS] = {};
	u8 req[256];
	int len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth0", NULL, 0);

	snapshot(f->net, before);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), 0);
	assert_string_equal(ack.msg, "");
	snapshot(f->net, after);
	assert_memory_equal(before, after, sizeof(before));
	assert_int_equal(dev_get_by_name(f->net, "eth0")->phydev->mdio_writes, 0);
	assert_int_equal(pending_notifications(f), 0);
}

static void test_set_needs_admin(void **state)
{
	static const struct kfsim_plca_attr attrs[] = { { ETHTOOL_A_PLCA_NODE_ID, 3 } };
	struct fixture *f = *state;
	struct kfsim_nl_sock *user = kfsim_nl_sock_open(kfsim_plca_net_kernel(f->net),
							&KFSIM_NL_CRED_USER);
	struct kfsim_nl_error ack;
	u8 req[256], msg[4096];
	int len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", attrs, 1);
	long n;

	assert_int_equal(kfsim_nl_sock_send(user, req, len), len);
	n = kfsim_nl_sock_recv(user, msg, sizeof(msg));
	assert_true(n > 0);
	assert_int_equal(kfsim_nl_error_parse((const struct nlmsghdr *)msg, &ack), 0);
	assert_int_equal(ack.error, -EPERM);
	assert_int_equal(dev_get_by_name(f->net, "eth2")->phydev->mdio_writes, 0);
	assert_int_equal(pending_notifications(f), 0);
	/* GETs need no privilege. */
	len = build(req, ETHTOOL_MSG_PLCA_GET_CFG, "eth2", NULL, 0);
	assert_int_equal(kfsim_nl_sock_send(user, req, len), len);
	n = kfsim_nl_sock_recv(user, msg, sizeof(msg));
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_type, FAM);
	kfsim_nl_sock_close(user);
}

static void test_every_out_of_range_value_rejected(void **state)
{
	static const struct {
		u16 type;
		u32 value;
		u64 min, max;
	} cases[] = {
		{ ETHTOOL_A_PLCA_ENABLED, 2, 0, 1 },	{ ETHTOOL_A_PLCA_ENABLED, 255, 0, 1 },
		{ ETHTOOL_A_PLCA_NODE_ID, 256, 0, 255 }, { ETHTOOL_A_PLCA_NODE_ID, 0xffffffff, 0, 255 },
		{ ETHTOOL_A_PLCA_NODE_CNT, 0, 1, 255 }, { ETHTOOL_A_PLCA_NODE_CNT, 256, 1, 255 },
		{ ETHTOOL_A_PLCA_TO_TMR, 256, 0, 255 }, { ETHTOOL_A_PLCA_TO_TMR, 0x80000000, 0, 255 },
		{ ETHTOOL_A_PLCA_BURST_CNT, 256, 0, 255 }, { ETHTOOL_A_PLCA_BURST_TMR, 256, 0, 255 },
	};
	struct fixture *f = *state;
	u16 before[KFSIM_PLCA_MAX_DEVS * KFSIM_PHY_MAX_REGS] = {};
	u16 after[KFSIM_PLCA_MAX_DEVS * KFSIM_PHY_MAX_REGS] = {};

	snapshot(f->net, before);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		/* A valid attribute first, so the bad one is the second: nothing may apply. */
		struct kfsim_plca_attr attrs[] = { { ETHTOOL_A_PLCA_BURST_CNT, 1 },
						   { cases[i].type, cases[i].value } };
		struct kfsim_nl_error ack;
		u8 req[256];
		int len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth0", attrs, 2);
		u64 pmin, pmax;

		assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -ERANGE);
		assert_string_equal(ack.msg, "integer out of range");
		assert_true(ack.has_offs);
		assert_int_equal(ack.offs, 16 + 4 + 16 + 8);
		/* POLICY: MIN_VALUE_U, MAX_VALUE_U (u64 each), then TYPE. */
		assert_int_equal(ack.policy_len, 12 + 12 + 8);
		memcpy(&pmin, ack.policy + 4, 8);
		memcpy(&pmax, ack.policy + 16, 8);
		assert_int_equal(pmin, cases[i].min);
		assert_int_equal(pmax, cases[i].max);
		assert_int_equal(ack.policy[28], cases[i].type == ETHTOOL_A_PLCA_ENABLED
							 ? NL_ATTR_TYPE_U8 : NL_ATTR_TYPE_U32);
	}
	snapshot(f->net, after);
	assert_memory_equal(before, after, sizeof(before));
	assert_int_equal(pending_notifications(f), 0);
}

static void test_wrong_lengths_and_types(void **state)
{
	struct fixture *f = *state;
	struct kfsim_nl_error ack;
	u8 req[256];
	int len;

	/* ENABLED sent as a u32: "invalid attribute length" (its policy attached). */
	len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth0",
		    (struct kfsim_plca_attr[]){ { ETHTOOL_A_PLCA_NODE_ID, 1 } }, 1);
	req[36 + 2] = ETHTOOL_A_PLCA_ENABLED;
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "invalid attribute length");
	assert_int_equal(ack.offs, 36);
	assert_true(ack.policy_len > 0);
	/* VERSION and STATUS have no SET policy: "Unsupported attribute". */
	len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth0",
		    (struct kfsim_plca_attr[]){ { ETHTOOL_A_PLCA_STATUS, 1 } }, 1);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "Unsupported attribute");
	/* Type 10 is beyond ETHTOOL_A_PLCA_MAX; a GET accepts only the header. */
	len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth0",
		    (struct kfsim_plca_attr[]){ { 10, 1 } }, 1);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "Unknown attribute type");
	len = build(req, ETHTOOL_MSG_PLCA_GET_CFG, "eth0",
		    (struct kfsim_plca_attr[]){ { ETHTOOL_A_PLCA_NODE_ID, 1 } }, 1);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "Unknown attribute type");
	/* The header without NLA_F_NESTED. */
	len = build(req, ETHTOOL_MSG_PLCA_GET_CFG, "eth0", NULL, 0);
	req[23] = 0;
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "NLA_F_NESTED is missing");
	assert_int_equal(ack.offs, 20);
	/* A device name without its NUL. */
	len = build(req, ETHTOOL_MSG_PLCA_GET_CFG, "eth0", NULL, 0);
	req[24] = 8;
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "Attribute failed policy validation");
	/* Trailing garbage after the last attribute. */
	len = build(req, ETHTOOL_MSG_PLCA_GET_CFG, "eth0", NULL, 0);
	memset(req + len, 0, 4);
	req[len] = 2;
	((struct nlmsghdr *)req)->nlmsg_len = len + 4;
	assert_int_equal(send_for_ack(f, req, len + 4, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "bytes leftover after parsing attributes");
	assert_int_equal(pending_notifications(f), 0);
}

/* A GET_CFG request whose header holds DEV_NAME @dev and FLAGS @flags (built by hand). */
static int build_with_flags(u8 *buf, u16 family, const char *dev, u32 flags)
{
	int len = kfsim_ethtool_plca_request(buf, 256, family, ETHTOOL_MSG_PLCA_GET_CFG,
					     NLM_F_REQUEST | NLM_F_ACK, 1, dev, 0, NULL, 0);
	u16 nest_len, attr_len = 8, attr_type = ETHTOOL_A_HEADER_FLAGS;

	memcpy(buf + len, &attr_len, 2);
	memcpy(buf + len + 2, &attr_type, 2);
	memcpy(buf + len + 4, &flags, 4);
	memcpy(&nest_len, buf + 20, 2);
	nest_len += 8;
	memcpy(buf + 20, &nest_len, 2);
	len += 8;
	((struct nlmsghdr *)buf)->nlmsg_len = len;
	return len;
}

/* The fixture again, with the family registered at release @kver. */
static void reopen_at(void **state, unsigned int kver)
{
	teardown(state);	/* the setup makes the namespace before choosing 6.3 */
	kfsim_set_kernel_version(kver);
	setup(state);
	kfsim_set_kernel_version(kver);
}

/* PHY_INDEX (header type 4) arrived in 6.11: unknown to 6.3's header policy, accepted later. */
static void test_header_phy_index_by_version(void **state)
{
	struct kfsim_nl_error ack;
	u8 req[256], reply[4096];
	long reply_len;
	struct fixture *f;
	int len;

	reopen_at(state, KERNEL_VERSION(6, 3, 0));
	f = *state;
	len = build_with_flags(req, FAM, "eth0", 1);
	req[len - 6] = ETHTOOL_A_HEADER_PHY_INDEX;	/* the FLAGS attribute becomes PHY_INDEX 1 */
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "Unknown attribute type");
	assert_int_equal(ack.offs, 16 + 4 + 4 + 12);
	/* Validation of the nest comes first: a bad value after the header is not looked at. */
	req[len - 4] = 0;
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "Unknown attribute type");
	req[len - 4] = 1;
	reopen_at(state, KERNEL_VERSION(6, 11, 0));
	f = *state;
	req[4] = (u8)FAM;
	assert_int_equal(send_for_ack(f, req, len, &ack, reply, &reply_len), 0);
	assert_int_equal(reply_len, 100);
	/* PHY_INDEX 0 breaks the policy's minimum of 1. */
	req[len - 4] = 0;
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -ERANGE);
	assert_string_equal(ack.msg, "integer out of range");
	/* An index naming no PHY of eth0 (its one PHY is index 1): -EOPNOTSUPP, at the header. */
	req[len - 4] = 2;
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EOPNOTSUPP);
	assert_string_equal(ack.msg, "no phy matching phyindex");
	assert_int_equal(ack.offs, 16 + 4);
}

/* A dump's header is parsed at start: its errors are NLMSG_ERROR with the offset. */
static void test_dump_header_errors(void **state)
{
	struct fixture *f;
	struct kfsim_nl_error ack;
	u8 req[256], msg[8192];
	int len;
	long n;

	reopen_at(state, KERNEL_VERSION(6, 12, 0));
	f = *state;
	len = kfsim_ethtool_plca_request(req, sizeof(req), FAM, ETHTOOL_MSG_PLCA_GET_CFG,
					 NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, 9, "nosuch0", 0,
					 NULL, 0);
	assert_int_equal(kfsim_nl_sock_send(f->sk, req, len), len);
	n = kfsim_nl_sock_recv(f->sk, msg, sizeof(msg));
	assert_true(n > 0);
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_type, NLMSG_ERROR);
	assert_int_equal(kfsim_nl_error_parse((struct nlmsghdr *)msg, &ack), 0);
	assert_int_equal(ack.error, -ENODEV);
	assert_string_equal(ack.msg, "no device matches name");
	assert_int_equal(ack.offs, 16 + 4 + 4);
	assert_false(ack.in_done);
	assert_int_equal(kfsim_nl_sock_recv(f->sk, msg, sizeof(msg)), -EAGAIN);
	/* Only PHY_INDEX in the header: it needs a device. */
	len = kfsim_ethtool_plca_request(req, sizeof(req), FAM, ETHTOOL_MSG_PLCA_GET_STATUS,
					 NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, 10, NULL, 0,
					 NULL, 0);
	memcpy(req + len, (const u8[]){ 8, 0, ETHTOOL_A_HEADER_PHY_INDEX, 0, 1, 0, 0, 0 }, 8);
	req[20] += 8;
	len += 8;
	((struct nlmsghdr *)req)->nlmsg_len = len;
	assert_int_equal(kfsim_nl_sock_send(f->sk, req, len), len);
	n = kfsim_nl_sock_recv(f->sk, msg, sizeof(msg));
	assert_int_equal(((struct nlmsghdr *)msg)->nlmsg_type, NLMSG_ERROR);
	assert_int_equal(kfsim_nl_error_parse((struct nlmsghdr *)msg, &ack), 0);
	assert_int_equal(ack.error, -EINVAL);
	assert_string_equal(ack.msg, "phy_index set without a netdev");
	assert_int_equal(ack.offs, 16 + 4);
	assert_int_equal(kfsim_nl_sock_recv(f->sk, msg, sizeof(msg)), -EAGAIN);
}

/* Count the replies of a dump until NLMSG_DONE; its error goes to *@done_error. */
static int dump_replies(struct fixture *f, int *done_error)
{
	u8 msg[8192];
	int replies = 0;
	long n;

	while ((n = kfsim_nl_sock_recv(f->sk, msg, sizeof(msg))) > 0) {
		for (long off = 0; off + NLMSG_HDRLEN <= n;) {
			const struct nlmsghdr *nlh = (const struct nlmsghdr *)(msg + off);

			if (nlh->nlmsg_type == NLMSG_DONE) {
				*done_error = *(const int *)NLMSG_DATA(nlh);
				return replies;
			}
			replies++;
			off += NLMSG_ALIGN(nlh->nlmsg_len);
		}
	}
	return -1;
}

/* A dump's PHY_INDEX applies to every device (the named one is ignored); no match is silent. */
static void test_dump_phy_index(void **state)
{
	u8 req[256];
	int len, done_error = -1;
	struct fixture *f;

	reopen_at(state, KERNEL_VERSION(6, 12, 0));
	f = *state;
	for (u32 index = 1; index <= 2; index++) {
		len = kfsim_ethtool_plca_request(req, sizeof(req), FAM, ETHTOOL_MSG_PLCA_GET_CFG,
						 NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, 11, "lo", 0,
						 NULL, 0);
		memcpy(req + len, (const u8[]){ 8, 0, ETHTOOL_A_HEADER_PHY_INDEX, 0, 0, 0, 0, 0 }, 8);
		req[len + 4] = (u8)index;
		req[20] += 8;
		len += 8;
		((struct nlmsghdr *)req)->nlmsg_len = len;
		assert_int_equal(kfsim_nl_sock_send(f->sk, req, len), len);
		/* eth0..eth2 have a PLCA PHY, index 1 of each; nothing has an index 2 */
		assert_int_equal(dump_replies(f, &done_error), index == 1 ? 3 : 0);
		assert_int_equal(done_error, 0);
	}
}

/*
 * ethnl_bcast_seq advances only for a notification that is built: a SET that changes nothing (no
 * attribute) or fails takes no number, nor does a successful SET whose notification cannot be
 * prepared (here the PHY's MDIO fails right after the SET's own accesses); every other
 * successful SET takes one, listeners or not.
 */
static void test_notification_sequence(void **state)
{
	struct fixture *f = *state;
	struct phy_device *phydev = dev_get_by_name(f->net, "eth2")->phydev;
	struct kfsim_plca_attr id = { ETHTOOL_A_PLCA_NODE_ID, 3 };
	struct kfsim_plca_attr bad = { ETHTOOL_A_PLCA_ENABLED, 1 };
	struct kfsim_nl_error ack;
	u8 req[256], msg[4096];
	u32 seqs[2];
	int len;

	for (int i = 0; i < 2; i++) {
		len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", &id, 1);
		assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), 0);
		assert_true(kfsim_nl_sock_recv(f->mon, msg, sizeof(msg)) > 0);
		seqs[i] = ((struct nlmsghdr *)msg)->nlmsg_seq;
		/* In between: a SET without attributes, a refused SET, a SET on a PHY-less lo, */
		len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", NULL, 0);
		assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), 0);
		len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth3", &bad, 1);
		assert_true(send_for_ack(f, req, len, &ack, NULL, NULL) < 0);
		len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "lo", &id, 1);
		assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EOPNOTSUPP);
		/*
		 * and a SET that succeeds but whose notification cannot be prepared: 5 reads of
		 * the current settings, CTRL1 read + write, then the MDIO bus fails.
		 */
		phydev->mdio_fail_after = 7;
		len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", &id, 1);
		assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), 0);
		phydev->mdio_fail_after = -1;
		assert_int_equal(kfsim_nl_sock_recv(f->mon, msg, sizeof(msg)), -EAGAIN);
	}
	assert_int_equal(seqs[1], seqs[0] + 1);
	assert_int_equal(kfsim_nl_sock_recv(f->mon, msg, sizeof(msg)), -EAGAIN);
}

static void test_header_flags(void **state)
{
	struct fixture *f = *state;
	struct kfsim_nl_error ack;
	u8 req[256], reply[4096];
	long reply_len;
	int len;

	/* COMPACT_BITSETS | OMIT_REPLY are accepted (a GET replies all the same). */
	len = build_with_flags(req, FAM, "eth0", ETHTOOL_FLAG_COMPACT_BITSETS | ETHTOOL_FLAG_OMIT_REPLY);
	assert_int_equal(send_for_ack(f, req, len, &ack, reply, &reply_len), 0);
	assert_int_equal(reply_len, 100);
	/* STATS is not in ETHTOOL_FLAGS_BASIC: "reserved bit set" at the FLAGS attribute. */
	len = build_with_flags(req, FAM, "eth0", ETHTOOL_FLAG_STATS);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "reserved bit set");
	assert_int_equal(ack.offs, 16 + 4 + 4 + 12);
}

static void test_header_rules(void **state)
{
	struct fixture *f = *state;
	struct kfsim_plca_reply parsed;
	struct kfsim_nl_error ack;
	u8 req[256], reply[4096];
	long reply_len;
	int len;

	/* No header at all: -EINVAL with MISS_TYPE = HEADER and no message. */
	len = kfsim_ethtool_plca_request(req, sizeof(req), FAM, ETHTOOL_MSG_PLCA_GET_CFG,
					 NLM_F_REQUEST | NLM_F_ACK, 1, NULL, 0, NULL, 0);
	((struct nlmsghdr *)req)->nlmsg_len = 20;
	assert_int_equal(send_for_ack(f, req, 20, &ack, NULL, NULL), -EINVAL);
	assert_int_equal(ack.miss_type, ETHTOOL_A_PLCA_HEADER);
	assert_string_equal(ack.msg, "");
	/* An empty header nest. */
	((struct nlmsghdr *)req)->nlmsg_len = len;
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "neither ifindex nor name specified");
	/* By index only. */
	len = kfsim_ethtool_plca_request(req, sizeof(req), FAM, ETHTOOL_MSG_PLCA_GET_CFG,
					 NLM_F_REQUEST | NLM_F_ACK, 1, NULL, 3, NULL, 0);
	assert_int_equal(send_for_ack(f, req, len, &ack, reply, &reply_len), 0);
	assert_int_equal(kfsim_ethtool_plca_parse(reply, reply_len, &parsed), 0);
	assert_string_equal(parsed.devname, "eth1");
	/* Index and name must agree; unknown index. */
	len = kfsim_ethtool_plca_request(req, sizeof(req), FAM, ETHTOOL_MSG_PLCA_GET_CFG,
					 NLM_F_REQUEST | NLM_F_ACK, 1, "eth0", 3, NULL, 0);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -ENODEV);
	assert_string_equal(ack.msg, "ifindex and name do not match");
	len = kfsim_ethtool_plca_request(req, sizeof(req), FAM, ETHTOOL_MSG_PLCA_GET_CFG,
					 NLM_F_REQUEST | NLM_F_ACK, 1, NULL, 99, NULL, 0);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -ENODEV);
	assert_string_equal(ack.msg, "no device matches ifindex");
	/* Reserved genl byte, reserved nlmsg flag, unknown command. */
	len = build(req, ETHTOOL_MSG_PLCA_GET_CFG, "eth0", NULL, 0);
	req[18] = 1;
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "genlmsghdr.reserved field is not 0");
	req[18] = 0;
	((struct nlmsghdr *)req)->nlmsg_flags |= NLM_F_ROOT;
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "ambiguous or reserved bits set in nlmsg_flags");
	len = build(req, 45, "eth0", NULL, 0);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EOPNOTSUPP);
}

/* A driver reporting only some fields: the reply omits the -1 ones; they cannot be set. */
static int partial_get_cfg(struct phy_device *phydev, struct phy_plca_cfg *cfg)
{
	cfg->enabled = 0;
	cfg->node_id = 5;
	return 0;
}

static int partial_get_status(struct phy_device *phydev, struct phy_plca_status *st)
{
	return 0;	/* leaves pst as prepared: STATUS is still sent */
}

static int partial_set_cfg(struct phy_device *phydev, const struct phy_plca_cfg *cfg)
{
	return 0;
}

static const struct phy_driver partial_driver = {
	.name = "partial", .get_plca_cfg = partial_get_cfg, .set_plca_cfg = partial_set_cfg,
	.get_plca_status = partial_get_status,
};

static void test_reply_rules(void **state)
{
	static const struct kfsim_plca_attr set_to[] = { { ETHTOOL_A_PLCA_TO_TMR, 40 } };
	struct fixture *f = *state;
	struct kfsim_plca_reply parsed;
	struct kfsim_nl_error ack;
	u8 req[256], reply[4096];
	long reply_len;
	int len;

	dev_get_by_name(f->net, "eth2")->phydev->drv = &partial_driver;
	len = build(req, ETHTOOL_MSG_PLCA_GET_CFG, "eth2", NULL, 0);
	assert_int_equal(send_for_ack(f, req, len, &ack, reply, &reply_len), 0);
	assert_int_equal(kfsim_ethtool_plca_parse(reply, reply_len, &parsed), 0);
	assert_int_equal(parsed.present, 1u << ETHTOOL_A_PLCA_HEADER |
					 1u << ETHTOOL_A_PLCA_ENABLED |
					 1u << ETHTOOL_A_PLCA_NODE_ID);
	len = build(req, ETHTOOL_MSG_PLCA_GET_STATUS, "eth2", NULL, 0);
	assert_int_equal(send_for_ack(f, req, len, &ack, reply, &reply_len), 0);
	assert_int_equal(kfsim_ethtool_plca_parse(reply, reply_len, &parsed), 0);
	assert_true(parsed.present & 1u << ETHTOOL_A_PLCA_STATUS);
	assert_int_equal(parsed.value[ETHTOOL_A_PLCA_STATUS], 1);	/* left at 0xff: "on" */
	len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", set_to, 1);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "PHY does not support changing the PLCA 'TO timer' attribute");
	assert_false(ack.has_offs);
	assert_int_equal(pending_notifications(f), 0);
}

static void test_phy_errors(void **state)
{
	static const struct kfsim_plca_attr enable[] = { { ETHTOOL_A_PLCA_ENABLED, 1 } };
	struct fixture *f = *state;
	struct kfsim_nl_error ack;
	u8 req[256];
	int len;

	/* eth2 is at reset (node ID 255): enabling is refused, nothing written. */
	len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", enable, 1);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EINVAL);
	assert_string_equal(ack.msg, "PLCA node ID is not set");
	assert_int_equal(dev_get_by_name(f->net, "eth2")->phydev->mdio_writes, 0);
	/* No PHY, a PHY without PLCA, phylib not registered: -EOPNOTSUPP without a message. */
	len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "lo", enable, 1);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EOPNOTSUPP);
	len = build(req, ETHTOOL_MSG_PLCA_GET_CFG, "eth3", NULL, 0);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EOPNOTSUPP);
	assert_string_equal(ack.msg, "");
	kfsim_plca_net_set_phy_ops(f->net, NULL);
	len = build(req, ETHTOOL_MSG_PLCA_GET_STATUS, "eth0", NULL, 0);
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), -EOPNOTSUPP);
	assert_int_equal(pending_notifications(f), 0);
}

/* 6.3..6.5 read ENABLED with nla_get_u32(): a nonzero padding byte turns "off" into "on". */
static void test_enabled_read_as_u32_before_6_6(void **state)
{
	struct fixture *f = *state;
	struct kfsim_plca_attr attrs[] = { { ETHTOOL_A_PLCA_NODE_ID, 4 },
					   { ETHTOOL_A_PLCA_ENABLED, 0 } };
	struct phy_device *phydev = dev_get_by_name(f->net, "eth2")->phydev;
	struct kfsim_nl_error ack;
	u8 req[256];
	int len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", attrs, 2);

	u64 mark = log_mark();

	req[len - 2] = 0x01;	/* the second padding byte after ENABLED's value */
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), 0);
	assert_int_equal(kfsim_phy_peek(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0), 0x8000);
	/* said where a real ethtool's user meets it: libmnl leaves the padding unzeroed */
	assert_logged(mark, "PLCA 'enable off' read as on", 1);
	kfsim_set_kernel_version(KERNEL_VERSION(6, 6, 0));
	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), 0);
	assert_int_equal(kfsim_phy_peek(phydev, MDIO_MMD_VEND2, MDIO_OATC14_PLCA_CTRL0), 0);
}

static void test_dump_skips_devices_without_plca(void **state)
{
	struct fixture *f = *state;
	struct kfsim_plca_reply parsed;
	u8 req[256], msg[8192];
	const char *want[] = { "eth0", "eth1", "eth2" };
	size_t seen = 0;
	bool done = false;
	int len = kfsim_ethtool_plca_request(req, sizeof(req), FAM, ETHTOOL_MSG_PLCA_GET_CFG,
					     NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP, 9, NULL, 0,
					     NULL, 0);
	long n;

	assert_int_equal(kfsim_nl_sock_send(f->sk, req, len), len);
	/* The kernel packs dump messages into buffers: walk each buffer message by message. */
	while (!done && (n = kfsim_nl_sock_recv(f->sk, msg, sizeof(msg))) > 0) {
		for (long off = 0; off + NLMSG_HDRLEN <= n;) {
			const struct nlmsghdr *nlh = (const struct nlmsghdr *)(msg + off);

			if (nlh->nlmsg_type == NLMSG_DONE) {
				assert_int_equal(nlh->nlmsg_len, 20);
				assert_int_equal(*(const int *)NLMSG_DATA(nlh), 0);
				done = true;
				break;
			}
			assert_true(seen < ARRAY_SIZE(want));
			assert_int_equal(kfsim_ethtool_plca_parse(nlh, nlh->nlmsg_len, &parsed), 0);
			assert_string_equal(parsed.devname, want[seen++]);
			assert_int_equal(nlh->nlmsg_flags, NLM_F_MULTI);
			off += NLMSG_ALIGN(nlh->nlmsg_len);
		}
	}
	assert_true(done);
	assert_int_equal(seen, ARRAY_SIZE(want));
	assert_int_equal(kfsim_nl_sock_recv(f->sk, msg, sizeof(msg)), -EAGAIN);
}

/* The DOT drawing of a SET: what the run did, with names escaped for DOT. */
static void test_set_dot(void **state)
{
	static const struct kfsim_plca_attr attrs[] = { { ETHTOOL_A_PLCA_NODE_ID, 7 } };
	struct fixture *f = *state;
	struct phy_device *phydev = dev_get_by_name(f->net, "eth2")->phydev;
	unsigned long log_from = phydev->mdio_logged;
	struct kfsim_nl_error ack;
	char *text = NULL;
	size_t text_len = 0;
	u8 req[256];
	int len = build(req, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", attrs, 1);
	FILE *out;

	assert_int_equal(send_for_ack(f, req, len, &ack, NULL, NULL), 0);
	out = open_memstream(&text, &text_len);
	assert_int_equal(kfsim_plca_set_dot(out, "say \"hi\"", req, len, &ack, phydev, log_from, 1), 0);
	fclose(out);
	assert_non_null(strstr(text, "say \\\"hi\\\""));
	assert_non_null(strstr(text, "NODE_ID = 7 (u32)"));
	assert_non_null(strstr(text, "0xCA02 CTRL1|0x08FF → 0x0807"));
	assert_non_null(strstr(text, "PLCA_NTF"));
	free(text);
	/* Not a PLCA request: nothing drawn. */
	out = open_memstream(&text, &text_len);
	assert_int_equal(kfsim_plca_set_dot(out, "x", req, 10, &ack, phydev, log_from, 0), -EINVAL);
	fclose(out);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_get_cfg_golden_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_and_status_request_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_get_status_and_ack_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_notifies_monitor, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_without_attributes_is_silent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_needs_admin, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_out_of_range_value_rejected, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_wrong_lengths_and_types, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_header_phy_index_by_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dump_header_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dump_phy_index, setup, teardown),
		cmocka_unit_test_setup_teardown(test_notification_sequence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reply_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_phy_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enabled_read_as_u32_before_6_6, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dump_skips_devices_without_plca, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_dot, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
