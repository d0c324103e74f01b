// SPDX-License-Identifier: MIT
/*
 * Randomized robustness of the in-process ethtool family: mutated PLCA requests (bit flips,
 * wrong lengths, truncation), the same bytes sent as the requests of ethtool_default.c and as
 * dumps, and raw garbage never crash, never get more than one ACK, and a request answered with
 * an error changes no register and notifies nobody.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/genetlink.h>

#include <kfsim/err.h>
#include <kfsim/plca.h>
#include <kfsim/random.h>
#include "plca/plca_internal.h"
#include <kfsim/nl_client.h>

#define REGS (KFSIM_PLCA_MAX_DEVS * KFSIM_PHY_MAX_REGS)

static void snapshot(struct kfsim_plca_net *net, u16 *out)
{
	struct net_device *dev;

	memset(out, 0, REGS * sizeof(*out));
	for (int i = 0; (dev = kfsim_plca_net_dev_at(net, i)); i++)
		for (int r = 0; r < KFSIM_PHY_MAX_REGS && dev->phydev; r++)
			out[i * KFSIM_PHY_MAX_REGS + r] = dev->phydev->regs[r].value;
}

static int drain(struct kfsim_nl_sock *sk, int *nr_acks, int *ack_error)
{
	u8 msg[8192];
	long n;
	int count = 0;

	*nr_acks = 0;
	*ack_error = 0;
	while ((n = kfsim_nl_sock_recv(sk, msg, sizeof(msg))) > 0) {
		struct kfsim_nl_error ack;

		count++;
		if (!kfsim_nl_error_parse((const struct nlmsghdr *)msg, &ack)) {
			(*nr_acks)++;
			*ack_error = ack.error;
		}
	}
	return count;
}

static void test_mutated_requests(void **state)
{
	static const struct kfsim_plca_attr attrs[] = {
		{ ETHTOOL_A_PLCA_NODE_ID, 3 }, { ETHTOOL_A_PLCA_ENABLED, 1 },
		{ ETHTOOL_A_PLCA_NODE_CNT, 9 }, { ETHTOOL_A_PLCA_TO_TMR, 40 },
		{ ETHTOOL_A_PLCA_BURST_CNT, 1 }, { ETHTOOL_A_PLCA_BURST_TMR, 100 },
	};
	static const char *const devs[] = { "eth0", "eth1", "eth2", "eth3", "lo", "nope" };
	/* ethtool_default.c's GETs and SETs, and one kfsim lacks (45: PHY_GET) */
	static const u8 other_cmds[] = { 2, 4, 6, 7, 8, 9, 10, 13, 15, 17, 18, 19, 21, 22, 23, 24,
					 28, 29, 34, 42, 45 };
	struct kfsim_plca_net *net = kfsim_plca_net_default();
	struct kfsim_nl_sock *sk = kfsim_nl_sock_open(kfsim_plca_net_kernel(net), &KFSIM_NL_CRED_ROOT);
	struct kfsim_nl_sock *mon = kfsim_nl_sock_open(kfsim_plca_net_kernel(net), &KFSIM_NL_CRED_USER);
	static u16 before[REGS], after[REGS];
	struct rnd_state rnd;
	int errors = 0, successes = 0;

	kfsim_nl_sock_setsockopt(sk, NETLINK_EXT_ACK, 1);
	kfsim_nl_sock_setsockopt(mon, NETLINK_ADD_MEMBERSHIP, kfsim_plca_net_monitor_group(net));
	prandom_seed_state(&rnd, 0x8ca);
	for (int iter = 0; iter < 20000; iter++) {
		u8 cmd = ETHTOOL_MSG_PLCA_GET_CFG + kfsim_prandom_below(&rnd, 3);
		u16 dump = kfsim_prandom_below(&rnd, 8) ? 0 : NLM_F_DUMP;
		int nr = (int)kfsim_prandom_below(&rnd, ARRAY_SIZE(attrs) + 1), len, flips;
		u8 req[512];
		int nr_acks, ack_error, nr_ntf, unused;

		if (!kfsim_prandom_below(&rnd, 4))
			cmd = other_cmds[kfsim_prandom_below(&rnd, ARRAY_SIZE(other_cmds))];
		len = kfsim_ethtool_plca_request(req, sizeof(req), kfsim_plca_net_family_id(net), cmd,
						 NLM_F_REQUEST | NLM_F_ACK | dump, iter,
						 devs[kfsim_prandom_below(&rnd, ARRAY_SIZE(devs))], 0,
						 attrs, nr);
		assert_true(len > 0);
		flips = (int)kfsim_prandom_below(&rnd, 4);
		for (int i = 0; i < flips; i++) {
			/* Spare the nlmsghdr length most of the time so the body gets exercised. */
			int pos = 4 + (int)kfsim_prandom_below(&rnd, len - 4);

			req[pos] ^= (u8)(1u << kfsim_prandom_below(&rnd, 8));
		}
		if (!kfsim_prandom_below(&rnd, 8))
			len -= (int)kfsim_prandom_below(&rnd, len);	/* truncated buffer */
		snapshot(net, before);
		kfsim_nl_sock_send(sk, req, len);
		drain(sk, &nr_acks, &ack_error);
		nr_ntf = drain(mon, &unused, &unused);
		snapshot(net, after);
		assert_true(nr_acks <= 1);
		assert_true(nr_ntf <= 1);
		if (nr_acks && ack_error) {
			errors++;
			assert_memory_equal(before, after, sizeof(before));
			assert_int_equal(nr_ntf, 0);
		} else if (nr_acks) {
			successes++;
		}
	}
	/* Both outcomes occurred: the mutations reached the handlers, not only the parser. */
	assert_true(errors > 1000);
	assert_true(successes > 1000);
	kfsim_plca_net_destroy(net);
}

static void test_garbage_buffers(void **state)
{
	struct kfsim_plca_net *net = kfsim_plca_net_default();
	struct kfsim_nl_sock *sk = kfsim_nl_sock_open(kfsim_plca_net_kernel(net), &KFSIM_NL_CRED_ROOT);
	struct rnd_state rnd;
	u8 buf[600];

	kfsim_nl_sock_setsockopt(sk, NETLINK_EXT_ACK, 1);
	kfsim_nl_sock_setsockopt(sk, NETLINK_CAP_ACK, 1);
	prandom_seed_state(&rnd, 0xbad);
	for (int iter = 0; iter < 20000; iter++) {
		size_t len = kfsim_prandom_below(&rnd, sizeof(buf) + 1);
		int nr_acks, ack_error;

		for (size_t i = 0; i < len; i++)
			buf[i] = (u8)prandom_u32_state(&rnd);
		if (len >= 16 && kfsim_prandom_below(&rnd, 2)) {
			/* A plausible header, so some garbage reaches the genl layer. */
			u32 msg_len = (u32)len;
			u16 type = kfsim_prandom_below(&rnd, 2) ? kfsim_plca_net_family_id(net) : GENL_ID_CTRL;
			u16 flags = NLM_F_REQUEST | NLM_F_ACK;

			memcpy(buf, &msg_len, 4);
			memcpy(buf + 4, &type, 2);
			memcpy(buf + 6, &flags, 2);
		}
		kfsim_nl_sock_send(sk, buf, len);
		drain(sk, &nr_acks, &ack_error);
		assert_true(nr_acks <= 1);
	}
	kfsim_plca_net_destroy(net);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mutated_requests),
		cmocka_unit_test(test_garbage_buffers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
