// SPDX-License-Identifier: MIT
/*
 * Tour step "plcasim": a 10BASE-T1S segment with PLCA against plain CSMA/CD.  A small sweep
 * (1..4 transmitting nodes), its two plots, and a Perfetto trace of a few PLCA cycles.
 */
#include <stdio.h>

#include <kfsim/err.h>
#include <kfsim/plca_sim.h>
#include <kfsim/trace_event.h>
#include "cli.h"

#define TOUR_NODES 4

static int tour_trace(struct kfsim_tour_ctx *ctx)
{
	struct plca_sim_segment seg = {
		.nr_nodes = TOUR_NODES,
		.mode = PLCA_SIM_MODE_PLCA,
		.to_tmr = 32,
		.burst_tmr = 128,
		.load = PLCA_SIM_LOAD_POISSON,
		.interval_us = 150,
		.payload_min = 46,
		.payload_max = 200,
		.length_m = 25,
	};
	struct plca_sim_node_cfg nodes[TOUR_NODES];
	struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = TOUR_NODES, .seed = 1};
	struct kfsim_trace trace;
	struct plca_sim *sim;
	char path[1024];
	int ret;

	ret = kfsim_plca_segment_nodes(&seg, nodes);
	if (ret)
		return ret;
	sim = kfsim_plca_sim_create(&cfg);
	if (IS_ERR(sim))
		return (int)PTR_ERR(sim);
	snprintf(path, sizeof(path), "%s/plca-cycle.trace.json", ctx->out_dir);
	ret = kfsim_trace_open(&trace, path);
	if (ret) {
		kfsim_plca_sim_destroy(sim);
		return ret;
	}
	kfsim_plca_sim_set_trace(sim, &trace, 1);
	kfsim_plca_sim_run_until(sim, 500000); /* 0.5 ms: a few cycles */
	kfsim_plca_sim_destroy(sim);
	ret = kfsim_trace_close(&trace);
	if (ret)
		return ret;
	kfsim_tour_file(ctx, path);
	fprintf(ctx->out,
		"A Perfetto trace of 0.5 ms of that segment under Poisson load shows the "
		"BEACON,\nthe transmit opportunities (TO 0..3) and each node's COMMIT and "
		"frames: open it in ui.perfetto.dev.\n");
	return 0;
}

static int tour_plcasim(struct kfsim_tour_ctx *ctx)
{
	struct plca_sim_segment seg = {
		.nr_nodes = TOUR_NODES,
		.to_tmr = 32,
		.burst_tmr = 128,
		.load = PLCA_SIM_LOAD_SATURATED,
		.payload_min = 64,
		.payload_max = 64,
		.length_m = 25,
	};
	struct plca_sweep_point points[2 * TOUR_NODES];
	char path[1024];
	FILE *csv;
	int nr, ret;

	fprintf(ctx->out,
		"10BASE-T1S: %d nodes on 25 m, 64-byte payloads, every sender saturated, "
		"100 ms each.\nPLCA (Clause 148, to_tmr 32 BT) against plain CSMA/CD:\n\n",
		TOUR_NODES);
	nr = kfsim_plca_sweep(&seg, 100000000, 1, points);
	if (nr < 0)
		return nr;
	fprintf(ctx->out,
		"senders   PLCA Mb/s  mean us  max us | CSMA/CD Mb/s  mean us    max us\n");
	for (int i = 0; i < nr; i += 2) {
		const struct plca_sim_report *p = &points[i].rep, *c = &points[i + 1].rep;

		fprintf(ctx->out, "%7u   %9.3f %8.1f %7.1f | %12.3f %8.1f %9.1f\n",
			points[i].senders, p->throughput_mbps, p->lat_mean_ns / 1e3,
			p->lat_max_ns / 1e3, c->throughput_mbps, c->lat_mean_ns / 1e3,
			c->lat_max_ns / 1e3);
	}
	fprintf(ctx->out, "\nPLCA stays flat and its worst case is one cycle; CSMA/CD loses "
			  "throughput to collisions\nand its worst case is set by binary "
			  "exponential backoff.\n");
	snprintf(path, sizeof(path), "%s/plca-sweep.csv", ctx->out_dir);
	csv = fopen(path, "w");
	if (!csv)
		return -EIO;
	ret = kfsim_plca_sweep_csv(points, (u32)nr, csv);
	if (fclose(csv) && !ret)
		ret = -EIO;
	if (ret)
		return ret;
	kfsim_tour_file(ctx, path);
	snprintf(path, sizeof(path), "%s/plca-sweep", ctx->out_dir);
	ret = kfsim_plca_sweep_svg(points, (u32)nr, path);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/plca-sweep-throughput.svg", ctx->out_dir);
	kfsim_tour_file(ctx, path);
	snprintf(path, sizeof(path), "%s/plca-sweep-latency.svg", ctx->out_dir);
	kfsim_tour_file(ctx, path);
	return tour_trace(ctx);
}

const struct kfsim_tour_step kfsim_tour_plcasim = {
	.name = "plcasim",
	.title = "10BASE-T1S bus: PLCA against CSMA/CD",
	.run = tour_plcasim,
};
