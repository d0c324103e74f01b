/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_PLCASIM_HELPERS_H
#define KFSIM_TESTS_PLCASIM_HELPERS_H
/* Building segments for the bus simulator tests. */
#include <kfsim/err.h>
#include <kfsim/plca_sim.h>

/* A PLCA node with id @id (node_cnt @cnt, to_tmr @to) and no load. */
static inline struct plca_sim_node_cfg plca_node(int id, int cnt, int to)
{
	return (struct plca_sim_node_cfg){
		.plca = {.version = -1,
			 .enabled = 1,
			 .node_id = id,
			 .node_cnt = cnt,
			 .to_tmr = to,
			 .burst_cnt = 0,
			 .burst_tmr = 128},
		.payload_min = 46,
		.payload_max = 46,
	};
}

/* A plain CSMA/CD node. */
static inline struct plca_sim_node_cfg csma_node(void)
{
	return (struct plca_sim_node_cfg){
		.plca = {.version = -1,
			 .enabled = 0,
			 .node_id = 255,
			 .node_cnt = -1,
			 .to_tmr = -1,
			 .burst_cnt = -1,
			 .burst_tmr = -1},
		.payload_min = 46,
		.payload_max = 46,
	};
}

static inline struct plca_sim *make_sim(struct plca_sim_node_cfg *nodes, u32 nr, u64 seed)
{
	struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = nr, .seed = seed};

	return kfsim_plca_sim_create(&cfg);
}

static inline struct plca_sim_node_stats node_stats(struct plca_sim *sim, u32 node)
{
	struct plca_sim_node_stats st;

	kfsim_plca_sim_node_stats(sim, node, &st);
	return st;
}

#endif
