// SPDX-License-Identifier: MIT
/*
 * Tour step "bfq": the headline of Linux 6.3's multi-actuator BFQ.  Two processes read small
 * sequential blocks, one from each half of a dual-actuator disk.  BFQ before 6.3 idles on one
 * process's queue at a time, so one actuator waits; 6.3 injects the other process's I/O for the
 * idle actuator.  The step prints both runs and writes the Perfetto trace and throughput plots.
 */
#include <stdio.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include <kfsim/svg_plot.h>
#include <kfsim/trace_event.h>
#include "cli.h"

static int tour_run_one(struct kfsim_tour_ctx *ctx, enum kfsim_bfq_sched sched,
			const char *trace_name, double *x, double (*y)[40])
{
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	struct kfsim_trace trace;
	char path[PATH_MAX];
	int err;

	kfsim_bfq_sim_config_default(&cfg);
	cfg.sched = sched;
	cfg.bfq.low_latency = false;	/* the throughput setting the BFQ docs recommend */
	cfg.duration_ns = 2000000000ULL;
	cfg.bin_ns = cfg.duration_ns / 40;
	cfg.trace_window_ns = 300000000ULL;
	kfsim_bfq_job_parse("name=a,rw=read,bs=4k,offset=0%,size=50%", &cfg.jobs[0], NULL, 0);
	kfsim_bfq_job_parse("name=b,rw=read,bs=4k,offset=50%,size=50%", &cfg.jobs[1], NULL, 0);
	cfg.nr_jobs = 2;
	err = kfsim_tour_path(ctx, trace_name, path);
	if (!err)
		err = kfsim_trace_open(&trace, path);
	if (err)
		return err;
	cfg.trace = &trace;
	sim = kfsim_bfq_sim_create(&cfg);
	if (IS_ERR(sim)) {
		kfsim_trace_close(&trace);
		return (int)PTR_ERR(sim);
	}
	err = kfsim_bfq_sim_run(sim);
	if (kfsim_trace_close(&trace) && !err)
		err = -EIO;
	if (err)
		goto out;
	kfsim_tour_file(ctx, path);
	res = kfsim_bfq_sim_result(sim);
	fprintf(ctx->out, "  %-8s %6.1f MB/s  actuator 0: %5.1f MB/s, busy %3.0f%%   actuator 1: "
			  "%5.1f MB/s, busy %3.0f%%   injected %llu\n",
		kfsim_bfq_sched_name(sched), res->mb_s, res->actuator[0].mb_s,
		res->actuator[0].utilisation * 100, res->actuator[1].mb_s,
		res->actuator[1].utilisation * 100,
		(unsigned long long)(res->actuator[0].injected + res->actuator[1].injected));
	for (size_t b = 0; b < res->nr_bins && b < 40; b++) {
		x[b] = (double)(b + 1) * 0.05;
		y[0][b] = res->series_mb_s[0][b];
		y[1][b] = res->series_mb_s[1][b];
	}
out:
	kfsim_bfq_sim_destroy(sim);
	return err;
}

static const char *const try_bfq[] = {
	"kfsim bfq compare --job 'name=a,rw=read,bs=4k,offset=0%,size=50%' --job "
	"'name=b,rw=read,bs=4k,offset=50%,size=50%' --low-latency 0",
	NULL,
};

static int tour_bfq(struct kfsim_tour_ctx *ctx)
{
	double x[40], old_y[2][40], new_y[2][40];
	struct kfsim_plot_series series[4] = {
		{ "before 6.3: actuator 0", x, old_y[0], 40 },
		{ "before 6.3: actuator 1", x, old_y[1], 40, .dashed = true },
		{ "6.3: actuator 0", x, new_y[0], 40 },
		/* dashed: 6.3 keeps both actuators equally busy, and 0 would hide under 1 */
		{ "6.3: actuator 1", x, new_y[1], 40, .dashed = true },
	};
	int err;

	fprintf(ctx->out, "Two processes read 4 KiB blocks sequentially, one per actuator of a "
			  "dual-actuator disk (2 s simulated):\n");
	err = tour_run_one(ctx, KFSIM_SCHED_BFQ_62, "bfq-6.2.trace.json", x, old_y);
	if (!err)
		err = tour_run_one(ctx, KFSIM_SCHED_BFQ, "bfq-6.3.trace.json", x, new_y);
	if (err)
		return err;
	fprintf(ctx->out, "Before 6.3 BFQ idles on the in-service queue, whose process is about to "
			  "send its next\nsequential request, so the other actuator waits; 6.3 "
			  "injects the other queue's requests\nwhenever an actuator has fewer than "
			  "actuator_load_threshold (4) requests in flight.\n");
	err = kfsim_tour_plot(ctx, "bfq-throughput.svg",
			      &(struct kfsim_plot){
				      .title = "Two sequential readers, one per actuator "
					       "(BFQ as in Linux 6.12, whose multi-actuator code is "
					       "6.3's)",
				      .x_label = "time (s)", .y_label = "throughput (MB/s)",
				      .y_from_zero = true, .series = series, .nr_series = 4 });
	if (err)
		return err;
	fprintf(ctx->out, "Open the traces in ui.perfetto.dev: one track per actuator, one for "
			  "BFQ's in-service queue.\nTry: %s\n", try_bfq[0]);
	return 0;
}

const struct kfsim_tour_step kfsim_tour_bfq = {
	.name = "bfq",
	.title = "BFQ on a dual-actuator disk: one actuator idle before 6.3, both busy after",
	.doc = "bfq.md",
	.try_cmds = try_bfq,
	.playground = "bfq",
	.run = tour_bfq,
};
