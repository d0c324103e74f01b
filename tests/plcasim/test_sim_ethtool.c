// SPDX-License-Identifier: MIT
/*
 * One configuration from ethtool to the bus: the simulator's nodes come from the PHYs of a
 * kfsim_plca_net with the settings their drivers report, so a --set-plca-cfg shows on the bus.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/plca.h>
#include "sim_helpers.h"

static void test_builtin_devices(void **state)
{
	struct kfsim_plca_net *net = kfsim_plca_net_default();
	struct plca_sim_node_cfg nodes[8];
	char names[8][16];
	struct plca_sim_report rep;
	struct plca_sim *sim;
	int nr;

	assert_non_null(net);
	nr = kfsim_plca_sim_nodes_from_net(net, NULL, nodes, 8, names);
	/* eth0 coordinator, eth1 follower, eth2 at reset (id 255, off); eth3 has no PLCA */
	assert_int_equal(nr, 3);
	assert_string_equal(names[0], "eth0");
	assert_string_equal(names[2], "eth2");
	assert_int_equal(nodes[0].plca.node_id, 0);
	assert_int_equal(nodes[0].plca.node_cnt, 8);
	assert_int_equal(nodes[1].plca.node_id, 1);
	assert_int_equal(nodes[1].plca.to_tmr, 32); /* NCN26000: config_init wrote 32 */
	assert_int_equal(nodes[2].plca.node_id, 255);
	assert_int_equal(nodes[2].plca.enabled, 0);
	for (int i = 0; i < nr; i++) {
		nodes[i].load = PLCA_SIM_LOAD_SATURATED;
		nodes[i].payload_min = nodes[i].payload_max = 64;
	}
	sim = make_sim(nodes, (u32)nr, 1);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_plca_sim_run_until(sim, 20000000), 0);
	kfsim_plca_sim_report(sim, &rep);
	assert_int_equal(rep.misconfig, 0);
	assert_true(node_stats(sim, 1).tos_used > 0);
	assert_int_equal(node_stats(sim, 2).tos, 0); /* plain CSMA/CD */
	kfsim_plca_sim_destroy(sim);

	/* ethtool --set-plca-cfg eth2 enable on node-id 2: now a PLCA follower on the bus */
	struct phy_plca_cfg set = {-1, 1, 2, -1, -1, -1, -1};

	assert_int_equal(phy_ethtool_set_plca_cfg(dev_get_by_name(net, "eth2")->phydev, &set, NULL),
			 0);
	nr = kfsim_plca_sim_nodes_from_net(net, "eth1", nodes, 8, NULL);
	assert_int_equal(nr, 3);
	assert_int_equal(nodes[2].plca.node_id, 2);
	assert_int_equal(nodes[2].plca.enabled, 1);
	assert_int_equal(kfsim_plca_sim_nodes_from_net(net, "lo", nodes, 8, NULL), -EOPNOTSUPP);
	assert_int_equal(kfsim_plca_sim_nodes_from_net(net, "eth3", nodes, 8, NULL), -EOPNOTSUPP);
	assert_int_equal(kfsim_plca_sim_nodes_from_net(net, "nosuch", nodes, 8, NULL), -ENODEV);
	assert_int_equal(kfsim_plca_sim_nodes_from_net(net, NULL, nodes, 2, NULL), -E2BIG);
	kfsim_plca_net_destroy(net);
}

static void test_config_file_segments(void **state)
{
	char path[] = "/tmp/kfsim-plcasim-net-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct plca_sim_node_cfg nodes[8];
	struct kfsim_plca_net *net;
	char names[8][16], err[128];
	struct plca_sim *sim;
	struct plca_sim_report rep;
	int nr;

	assert_non_null(f);
	fputs("dev eth0 phy lan8670 enable on node-id 0 node-cnt 4\n"
	      "dev eth1 phy ncn26000 enable on node-id 1\n"
	      "dev eth2 phy oa-tc14 enable on node-id 1 to-tmr 20\n"
	      "dev eth3 phy no-plca\n"
	      "dev eth4 phy oa-tc14 segment 1 enable on node-id 0 node-cnt 2\n",
	      f);
	fclose(f);
	net = kfsim_plca_net_load(path, err, sizeof(err));
	unlink(path);
	assert_false(IS_ERR_OR_NULL(net));
	nr = kfsim_plca_sim_nodes_from_net(net, NULL, nodes, 8, names);
	assert_int_equal(nr, 3);
	assert_string_equal(names[2], "eth2");
	sim = make_sim(nodes, (u32)nr, 1);
	kfsim_plca_sim_report(sim, &rep);
	/* as wired: eth1 and eth2 share id 1, and their TO timers differ */
	assert_int_equal(rep.misconfig, PLCA_SIM_MISCONF_DUP_ID | PLCA_SIM_MISCONF_TO_MISMATCH);
	kfsim_plca_sim_destroy(sim);
	nr = kfsim_plca_sim_nodes_from_net(net, "eth4", nodes, 8, names);
	assert_int_equal(nr, 1);
	assert_string_equal(names[0], "eth4");
	assert_int_equal(nodes[0].plca.node_cnt, 2);
	kfsim_plca_net_destroy(net);
}

/* Two nodes sharing node id 1 behind a coordinator, all LAN867x Rev.C1, from a file. */
static struct kfsim_plca_net *dup_id_segment(void)
{
	char path[] = "/tmp/kfsim-plcasim-net-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	struct kfsim_plca_net *net;
	char err[128];

	assert_non_null(f);
	fputs("dev eth0 phy lan8670 enable on node-id 0 node-cnt 2\n"
	      "dev eth1 phy lan8670 enable on node-id 1\n"
	      "dev eth2 phy lan8670 enable on node-id 1\n", f);
	fclose(f);
	net = kfsim_plca_net_load(path, err, sizeof(err));
	unlink(path);
	assert_false(IS_ERR_OR_NULL(net));
	return net;
}

/*
 * COL_DET reaches the bus: from 6.13 lan86xx_plca_set_cfg() turns a Rev.C1's collision
 * detection off with PLCA, and the simulated PHY then neither detects nor retries the collisions
 * of two nodes sharing an id: their frames are lost.  At 6.3 (the "LAN867X" driver, plain
 * genphy helpers) detection stays on and the MACs retry.
 */
static void test_col_det_register_reaches_the_bus(void **state)
{
	static const struct { unsigned int kver; bool off; } runs[] = {
		{ KERNEL_VERSION(6, 3, 0), false }, { KERNEL_VERSION(6, 13, 0), true },
	};

	for (size_t r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		struct plca_sim_node_cfg nodes[4];
		struct kfsim_plca_net *net;
		struct plca_sim *sim;
		int nr;

		kfsim_set_kernel_version(runs[r].kver);
		net = dup_id_segment();
		nr = kfsim_plca_sim_nodes_from_net(net, NULL, nodes, 4, NULL);
		assert_int_equal(nr, 3);
		for (int i = 0; i < nr; i++) {
			assert_int_equal(nodes[i].no_collision_detect, runs[r].off);
			nodes[i].load = PLCA_SIM_LOAD_SATURATED;
			nodes[i].payload_min = nodes[i].payload_max = 64;
		}
		sim = make_sim(nodes, (u32)nr, 1);
		assert_int_equal(kfsim_plca_sim_run_until(sim, 20000000), 0);
		for (int i = 1; i < nr; i++) {
			struct plca_sim_node_stats st = node_stats(sim, (u32)i);

			print_message("%u.%u node %d: phys %llu mac collisions %llu lost %llu delivered %llu\n",
				      runs[r].kver >> 16, (runs[r].kver >> 8) & 0xff, i,
				      (unsigned long long)st.phys_collisions,
				      (unsigned long long)(st.collisions - st.logical_collisions),
				      (unsigned long long)st.lost_fault,
				      (unsigned long long)st.delivered);
			assert_true(st.phys_collisions > 0);
			if (runs[r].off) {
				/* nothing detected: no jam, no retry, the frame is gone */
				assert_int_equal(st.collisions, st.logical_collisions);
				assert_true(st.lost_fault > 0);
			} else {
				assert_true(st.collisions > st.logical_collisions);
				assert_int_equal(st.lost_fault, 0);
			}
		}
		kfsim_plca_sim_destroy(sim);
		kfsim_plca_net_destroy(net);
	}
	kfsim_set_kernel_version(KFSIM_KERNEL_VERSION_DEFAULT);
}

/* The same on a CSMA/CD wire: two nodes start together; only the one that detects retries. */
static void test_no_collision_detect_csma(void **state)
{
	struct plca_sim_node_cfg nodes[2] = {
		{ .plca = { -1, 0, -1, -1, -1, -1, -1 } },
		{ .plca = { -1, 0, -1, -1, -1, -1, -1 }, .no_collision_detect = true },
	};
	struct plca_sim *sim = make_sim(nodes, 2, 1);
	struct plca_sim_node_stats on, off;

	assert_int_equal(kfsim_plca_sim_inject(sim, 0, 0, 46), 0);
	assert_int_equal(kfsim_plca_sim_inject(sim, 1, 0, 46), 0);
	assert_int_equal(kfsim_plca_sim_run_until(sim, 10000000), 0);
	on = node_stats(sim, 0);
	off = node_stats(sim, 1);
	assert_int_equal(on.phys_collisions, 1);
	assert_int_equal(on.collisions, 1);
	assert_int_equal(on.delivered, 1);	/* jammed, backed off, sent again */
	assert_int_equal(off.phys_collisions, 1);
	assert_int_equal(off.collisions, 0);
	assert_int_equal(off.delivered, 0);
	assert_int_equal(off.lost_fault, 1);	/* sent to its end over the collision */
	kfsim_plca_sim_destroy(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_builtin_devices),
		cmocka_unit_test(test_config_file_segments),
		cmocka_unit_test(test_col_det_register_reaches_the_bus),
		cmocka_unit_test(test_no_collision_detect_csma),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
