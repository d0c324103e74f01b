// SPDX-License-Identifier: MIT
/*
 * bench_ethtool_plca [--iterations N]: what one ethtool PLCA request costs end to end —
 * build, send, validate, handle, reply, ACK, parse — in kfsim's in-process kernel, next to the
 * same request answered by the running Linux kernel over a NETLINK_GENERIC socket (the peer).
 *
 * Rows:
 *   kfsim GET_CFG eth0     a full reply: header, 7 attributes, 5 MDIO reads of the TC14 map
 *   kfsim SET_CFG eth2     a SET that writes two registers, notifies, ACKs
 *   kfsim GET_CFG lo       -EOPNOTSUPP (no PHY): the request path without a reply message
 *   Linux GET_CFG lo       the same bytes to the running kernel: syscalls + the real path
 *   kfsim/Linux ratio of the two "lo" rows (the only request both can answer the same way)
 * Also genphy_c45_plca_get_cfg() alone on a simulated PHY.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/netlink.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/plca.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int count_reply(const struct kfsim_plca_reply *reply, void *data)
{
	(*(long *)data)++;
	return 0;
}

/*
 * ns per request of @iterations requests; -1 when a request did not get @want_error.  noinline:
 * scripts/bench counts each call's instructions (valgrind --dump-after=time_requests).
 */
static __attribute__((noinline)) double time_requests(struct kfsim_ethtool_chan *chan, u8 cmd,
							const char *dev,
							const struct kfsim_plca_attr *attrs, int nr,
							int want_error, long iterations)
{
	struct kfsim_nl_error ack;
	long replies = 0;
	u8 req[256];
	double start;
	int len = kfsim_ethtool_plca_request(req, sizeof(req), kfsim_ethtool_chan_family(chan), cmd,
					     NLM_F_REQUEST | NLM_F_ACK, 1, dev, 0, attrs, nr);

	if (len < 0)
		return -1;
	start = now_ns();
	for (long i = 0; i < iterations; i++) {
		if (kfsim_ethtool_chan_transact(chan, req, (size_t)len, count_reply, &replies, &ack) ||
		    ack.error != want_error)
			return -1;
	}
	return (now_ns() - start) / iterations;
}

int main(int argc, char **argv)
{
	static const struct kfsim_plca_attr set[] = {
		{ ETHTOOL_A_PLCA_NODE_ID, 2 }, { ETHTOOL_A_PLCA_ENABLED, 1 },
	};
	long iterations = 20000;
	struct kfsim_plca_net *net;
	struct kfsim_ethtool_chan *chan, *kernel;
	struct phy_device *phydev;
	struct phy_plca_cfg cfg;
	double get, set_ns, lo, linux_lo = -1, c45, start;
	char kver[16];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: bench_ethtool_plca [--iterations N]\n");
			return 0;
		} else if (!strcmp(argv[i], "--iterations") && i + 1 < argc) {
			iterations = strtol(argv[++i], NULL, 10);
		} else {
			fprintf(stderr, "usage: bench_ethtool_plca [--iterations N]\n");
			return 2;
		}
	}
	if (iterations < 1) {
		fprintf(stderr, "bench_ethtool_plca: --iterations must be at least 1\n");
		return 2;
	}
	net = kfsim_plca_net_default();
	chan = net ? kfsim_ethtool_chan_inproc(net, true) : ERR_PTR(-ENOMEM);
	if (IS_ERR(chan)) {
		fprintf(stderr, "bench_ethtool_plca: cannot set up the in-process kernel\n");
		return 1;
	}
	get = time_requests(chan, ETHTOOL_MSG_PLCA_GET_CFG, "eth0", NULL, 0, 0, iterations);
	set_ns = time_requests(chan, ETHTOOL_MSG_PLCA_SET_CFG, "eth2", set, 2, 0, iterations);
	lo = time_requests(chan, ETHTOOL_MSG_PLCA_GET_CFG, "lo", NULL, 0, -EOPNOTSUPP, iterations);
	phydev = dev_get_by_name(net, "eth0")->phydev;
	start = now_ns();
	for (long i = 0; i < iterations; i++)
		genphy_c45_plca_get_cfg(phydev, &cfg);
	c45 = (now_ns() - start) / iterations;
	kernel = kfsim_ethtool_chan_kernel();
	if (!IS_ERR(kernel)) {
		linux_lo = time_requests(kernel, ETHTOOL_MSG_PLCA_GET_CFG, "lo", NULL, 0,
					 -EOPNOTSUPP, iterations);
		kfsim_ethtool_chan_close(kernel);
	}
	if (get < 0 || set_ns < 0 || lo < 0) {
		fprintf(stderr, "bench_ethtool_plca: a request got an unexpected answer\n");
		return 1;
	}
	printf("ethtool PLCA requests, %ld iterations each (kernel version followed: %s)\n",
	       iterations, kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver)));
	printf("  %-32s %10.0f ns/op\n", "kfsim GET_CFG eth0 (reply)", get);
	printf("  %-32s %10.0f ns/op\n", "kfsim SET_CFG eth2 (+ntf)", set_ns);
	printf("  %-32s %10.0f ns/op\n", "kfsim GET_CFG lo (-EOPNOTSUPP)", lo);
	if (linux_lo >= 0) {
		printf("  %-32s %10.0f ns/op\n", "Linux GET_CFG lo (-EOPNOTSUPP)", linux_lo);
		printf("  %-32s %10.2f\n", "ratio Linux/kfsim (lo)", linux_lo / lo);
	} else {
		printf("  %-32s %10s (running kernel unreachable)\n", "Linux GET_CFG lo", "-");
	}
	printf("  %-32s %10.1f ns/op\n", "genphy_c45_plca_get_cfg()", c45);
	kfsim_ethtool_chan_close(chan);
	kfsim_plca_net_destroy(net);
	return 0;
}
