// SPDX-License-Identifier: MIT
/*
 * Tour step "plcasim": a 10BASE-T1S segment with PLCA against plain CSMA/CD, in two regimes.
 *
 * Saturated (4 nodes, every sender always has a frame, 100 ms): throughput, and fairness, where
 * CSMA/CD's capture effect shows: the station that just succeeded sends again at once while the
 * others back off, so one station can hold the wire for the whole run.  That is also why
 * CSMA/CD's *mean* latency of the frames that do get through looks better than PLCA's there.
 *
 * Poisson (the regime of the onsemi figure: 8 nodes, 64-byte payloads, a frame per node every
 * 1 ms on average, 500 ms): latency against the number of transmitting nodes, where PLCA's
 * bounded cycle beats CSMA/CD's backoff as the load grows.
 *
 * Every point is run with several seeds: tables and plots show the median, the plots also the
 * spread (smallest to largest run), so that one run's noise is not read as a trend.  Then a
 * Perfetto trace of a few PLCA cycles.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/plca_sim.h>
#include <kfsim/svg_plot.h>
#include <kfsim/trace_event.h>
#include "cli.h"

#define TOUR_NODES 4
#define POISSON_NODES 8
#define NR_SEEDS 5
#define PLCA_COLOUR "#1f77b4"
#define CSMA_COLOUR "#d62728"

/* The library's default segment (kfsim plca's), with @nr_nodes nodes. */
static struct plca_sim_segment tour_segment(u32 nr_nodes)
{
	struct plca_sim_segment seg;

	kfsim_plca_segment_default(&seg);
	seg.nr_nodes = nr_nodes;
	return seg;
}

static int tour_trace(struct kfsim_tour_ctx *ctx)
{
	struct plca_sim_segment seg = tour_segment(TOUR_NODES);
	struct plca_sim_node_cfg nodes[TOUR_NODES];
	struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = TOUR_NODES, .seed = 1};
	struct kfsim_trace trace;
	struct plca_sim *sim;
	char path[PATH_MAX];
	int ret;

	/* a mixed, bursty load: the cycle's beacons, used and skipped TOs all show */
	seg.load = PLCA_SIM_LOAD_POISSON;
	seg.interval_us = 150;
	seg.payload_min = 46;
	seg.payload_max = 200;
	ret = kfsim_tour_path(ctx, "plca-cycle.trace.json", path);
	if (!ret)
		ret = kfsim_plca_segment_nodes(&seg, nodes);
	if (ret)
		return ret;
	sim = kfsim_plca_sim_create(&cfg);
	if (IS_ERR(sim))
		return (int)PTR_ERR(sim);
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
		"\nA Perfetto trace of 0.5 ms of the 4-node segment under Poisson load shows the "
		"BEACON,\nthe transmit opportunities (TO 0..3) and each node's COMMIT and "
		"frames: open it in ui.perfetto.dev.\n");
	return 0;
}

/* One regime, swept over 1..nr_nodes transmitting nodes with seeds 1..NR_SEEDS. */
struct regime {
	const char *name;
	struct plca_sim_segment seg;
	u64 duration_ns;
	int nr; /* points per seed: PLCA, CSMA/CD for each sender count */
	struct plca_sweep_point points[NR_SEEDS][2 * POISSON_NODES];
};

enum metric { THROUGHPUT, LAT_MEAN, LAT_P99, LAT_MAX, JAIN };

static double metric_of(const struct plca_sim_report *rep, enum metric m)
{
	switch (m) {
	case THROUGHPUT:
		return rep->throughput_mbps;
	case LAT_MEAN:
		return rep->lat_mean_ns / 1e3;
	case LAT_P99:
		return (double)rep->lat_p99_ns / 1e3;
	case LAT_MAX:
		return (double)rep->lat_max_ns / 1e3;
	default:
		return rep->jain;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct spread {
	double median, lo, hi;
};

/* @m over the seeds, for the @idx-th sender count; @csma picks CSMA/CD over PLCA. */
static struct spread regime_spread(const struct regime *r, int idx, bool csma, enum metric m)
{
	double v[NR_SEEDS];

	for (int s = 0; s < NR_SEEDS; s++)
		v[s] = metric_of(&r->points[s][2 * idx + csma].rep, m);
	qsort(v, NR_SEEDS, sizeof(v[0]), cmp_double);
	return (struct spread){v[NR_SEEDS / 2], v[0], v[NR_SEEDS - 1]};
}

static int regime_run(struct regime *r)
{
	for (int s = 0; s < NR_SEEDS; s++) {
		int nr = kfsim_plca_sweep(&r->seg, r->duration_ns, (u64)s + 1, r->points[s]);

		if (nr < 0)
			return nr;
		r->nr = nr;
	}
	return 0;
}

/* Every run of both regimes, one line each. */
static int write_csv(FILE *out, const void *arg)
{
	const struct regime *const *regimes = arg;

	fprintf(out, "regime,seed,senders,mode,throughput_mbps,lat_mean_us,lat_p99_us,lat_max_us,"
		     "jain,collisions\n");
	for (int g = 0; g < 2; g++)
		for (int s = 0; s < NR_SEEDS; s++)
			for (int i = 0; i < regimes[g]->nr; i++) {
				const struct plca_sweep_point *p = &regimes[g]->points[s][i];

				fprintf(out, "%s,%d,%u,%s,%.4f,%.2f,%.2f,%.2f,%.4f,%llu\n",
					regimes[g]->name, s + 1, p->senders,
					p->mode == PLCA_SIM_MODE_PLCA ? "plca" : "csma",
					metric_of(&p->rep, THROUGHPUT),
					metric_of(&p->rep, LAT_MEAN), metric_of(&p->rep, LAT_P99),
					metric_of(&p->rep, LAT_MAX), p->rep.jain,
					(unsigned long long)p->rep.collisions);
			}
	return ferror(out) ? -EIO : 0;
}

/* Room for the values of one plot: up to 4 series of up to POISSON_NODES points. */
struct plot_data {
	double x[POISSON_NODES];
	double y[4][POISSON_NODES], lo[4][POISSON_NODES], hi[4][POISSON_NODES];
	struct kfsim_plot_series series[4];
};

/* A latency of 0 (nothing delivered) cannot go on a log axis: draw it at 0.1 us. */
static double loggable(double us)
{
	return us > 0.1 ? us : 0.1;
}

static void plot_series(struct plot_data *d, int k, const char *name, const struct regime *r,
			bool csma, enum metric m, bool log)
{
	int n = r->nr / 2;

	for (int i = 0; i < n; i++) {
		struct spread v = regime_spread(r, i, csma, m);

		d->x[i] = r->points[0][2 * i].senders;
		d->y[k][i] = log ? loggable(v.median) : v.median;
		d->lo[k][i] = log ? loggable(v.lo) : v.lo;
		d->hi[k][i] = log ? loggable(v.hi) : v.hi;
	}
	d->series[k] = (struct kfsim_plot_series){name,
						  d->x,
						  d->y[k],
						  (size_t)n,
						  d->lo[k],
						  d->hi[k],
						  csma ? CSMA_COLOUR : PLCA_COLOUR,
						  m == LAT_P99};
}

static int draw_saturated(struct kfsim_tour_ctx *ctx, const struct regime *sat)
{
	struct kfsim_plot plot = {
		.x_label = "transmitting nodes",
		.y_from_zero = true,
		.nr_series = 2,
	};
	struct plot_data d;
	char title[160];
	int ret;

	plot.series = d.series;
	plot_series(&d, 0, "PLCA", sat, false, THROUGHPUT, false);
	plot_series(&d, 1, "CSMA/CD", sat, true, THROUGHPUT, false);
	snprintf(title, sizeof(title),
		 "10BASE-T1S, %d nodes, saturated, 100 ms: throughput (median and range of %d "
		 "seeds)",
		 TOUR_NODES, NR_SEEDS);
	plot.title = title;
	plot.y_label = "throughput of MAC frames (Mb/s)";
	ret = kfsim_tour_plot(ctx, "plca-sweep-throughput.svg", &plot);
	if (ret)
		return ret;
	plot_series(&d, 0, "PLCA", sat, false, JAIN, false);
	plot_series(&d, 1, "CSMA/CD", sat, true, JAIN, false);
	plot.title = "Saturated, 100 ms: fairness between the senders (1 = equal shares, 1/n = "
		     "one sender has the wire): CSMA/CD's capture effect";
	plot.y_label = "Jain's fairness index of per-node throughput";
	return kfsim_tour_plot(ctx, "plca-sweep-fairness.svg", &plot);
}

static int draw_poisson(struct kfsim_tour_ctx *ctx, const struct regime *poi)
{
	struct kfsim_plot plot = {
		.x_label = "transmitting nodes",
		.y_label = "latency, arrival to end of transmission (us, log scale)",
		.y_log = true,
		.nr_series = 4,
	};
	struct plot_data d;
	char title[160];

	plot.series = d.series;
	plot_series(&d, 0, "PLCA mean", poi, false, LAT_MEAN, true);
	plot_series(&d, 1, "CSMA/CD mean", poi, true, LAT_MEAN, true);
	plot_series(&d, 2, "PLCA p99", poi, false, LAT_P99, true);
	plot_series(&d, 3, "CSMA/CD p99", poi, true, LAT_P99, true);
	snprintf(title, sizeof(title),
		 "10BASE-T1S, %d nodes, Poisson arrivals (1 frame/ms per sender, 64 bytes), "
		 "500 ms: latency (median and range of %d seeds)",
		 POISSON_NODES, NR_SEEDS);
	plot.title = title;
	return kfsim_tour_plot(ctx, "plca-sweep-latency.svg", &plot);
}

/* Who got the wire: each sender's share of the frames delivered in one run. */
static int print_shares(FILE *out, const char *label, enum plca_sim_mode mode, u64 duration_ns)
{
	struct plca_sim_segment seg = tour_segment(TOUR_NODES);
	struct plca_sim_node_cfg nodes[TOUR_NODES];
	struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = TOUR_NODES, .seed = 1};
	struct plca_sim_node_stats st[TOUR_NODES];
	struct plca_sim_report rep;
	struct plca_sim *sim;
	u64 total = 0;
	int ret;

	seg.mode = mode;
	ret = kfsim_plca_segment_nodes(&seg, nodes);

	if (ret)
		return ret;
	sim = kfsim_plca_sim_create(&cfg);
	if (IS_ERR(sim))
		return (int)PTR_ERR(sim);
	ret = kfsim_plca_sim_run_until(sim, duration_ns);
	for (u32 i = 0; i < TOUR_NODES && !ret; i++) {
		ret = kfsim_plca_sim_node_stats(sim, i, &st[i]);
		total += st[i].delivered;
	}
	kfsim_plca_sim_report(sim, &rep);
	kfsim_plca_sim_destroy(sim);
	if (ret)
		return ret;
	fprintf(out, "  %-8s", label);
	for (u32 i = 0; i < TOUR_NODES; i++)
		fprintf(out, " %5.1f%%",
			total ? 100.0 * (double)st[i].delivered / (double)total : 0);
	fprintf(out, "   (Jain %.3f)\n", rep.jain);
	return 0;
}

static void print_saturated(FILE *out, const struct regime *sat)
{
	/* the figures of the segment that ran, so the text cannot drift from the defaults */
	fprintf(out,
		"10BASE-T1S: %u nodes on %g m, %u-byte payloads, every sender saturated, "
		"%llu ms each.\nPLCA (Clause 148, to_tmr %d BT) against plain CSMA/CD, median of "
		"%d runs (seeds 1..%d):\n\n",
		sat->seg.nr_nodes, sat->seg.length_m, sat->seg.payload_min,
		(unsigned long long)(sat->duration_ns / NSEC_PER_MSEC), sat->seg.to_tmr, NR_SEEDS,
		NR_SEEDS);
	fprintf(out, "senders   PLCA Mb/s  mean us  max us  Jain | CSMA/CD Mb/s  mean us    "
		     "max us  Jain\n");
	for (int i = 0; i < sat->nr / 2; i++)
		fprintf(out, "%7u   %9.3f %8.1f %7.1f %5.2f | %12.3f %8.1f %9.1f %5.2f\n",
			sat->points[0][2 * i].senders,
			regime_spread(sat, i, false, THROUGHPUT).median,
			regime_spread(sat, i, false, LAT_MEAN).median,
			regime_spread(sat, i, false, LAT_MAX).median,
			regime_spread(sat, i, false, JAIN).median,
			regime_spread(sat, i, true, THROUGHPUT).median,
			regime_spread(sat, i, true, LAT_MEAN).median,
			regime_spread(sat, i, true, LAT_MAX).median,
			regime_spread(sat, i, true, JAIN).median);
	fprintf(out, "\nPLCA stays flat and its worst case is one cycle; CSMA/CD loses "
		     "throughput to collisions\nand its worst case is set by binary "
		     "exponential backoff.  CSMA/CD's mean looks better only\nbecause of the "
		     "capture effect: the sender that just succeeded goes again at once while\n"
		     "the others back off, so the frames that get through waited little and the "
		     "rest wait on.\n");
}

static void print_poisson(FILE *out, const struct regime *poi)
{
	fprintf(out,
		"\nThe regime of the onsemi figure: %u nodes, a frame per sender every %g ms "
		"on average\n(Poisson), %u-byte payloads, %llu ms, median of %d runs:\n\n",
		poi->seg.nr_nodes, poi->seg.interval_us / 1000, poi->seg.payload_min,
		(unsigned long long)(poi->duration_ns / NSEC_PER_MSEC), NR_SEEDS);
	fprintf(out, "senders  offered Mb/s | PLCA mean us  p99 us | CSMA/CD mean us    p99 us\n");
	for (int i = 0; i < poi->nr / 2; i++)
		fprintf(out, "%7u  %12.2f | %12.1f %7.1f | %15.1f %9.1f\n",
			poi->points[0][2 * i].senders,
			/* MAC frame bits per microsecond are Mb/s */
			poi->points[0][2 * i].senders *
				(poi->seg.payload_min + PLCA_SIM_FRAME_OVERHEAD) * 8.0 /
				poi->seg.interval_us,
			regime_spread(poi, i, false, LAT_MEAN).median,
			regime_spread(poi, i, false, LAT_P99).median,
			regime_spread(poi, i, true, LAT_MEAN).median,
			regime_spread(poi, i, true, LAT_P99).median);
	fprintf(out, "\nAs the load approaches what the wire carries, CSMA/CD's collisions and "
		     "backoff make\nits latency grow by orders of magnitude; PLCA's stays within "
		     "a few cycles.\n");
}

static int tour_plcasim(struct kfsim_tour_ctx *ctx)
{
	struct regime *regimes = calloc(2, sizeof(*regimes));
	const struct regime *both[2] = {&regimes[0], &regimes[1]};
	int ret;

	if (!regimes)
		return -ENOMEM;
	regimes[0] = (struct regime){
		.name = "saturated",
		.duration_ns = 100 * NSEC_PER_MSEC,
		.seg = tour_segment(TOUR_NODES),
	};
	regimes[1] = (struct regime){
		.name = "poisson",
		.duration_ns = 500 * NSEC_PER_MSEC,
		.seg = tour_segment(POISSON_NODES),
	};
	regimes[1].seg.load = PLCA_SIM_LOAD_POISSON;
	regimes[1].seg.interval_us = 1000;
	ret = regime_run(&regimes[0]);
	if (!ret)
		ret = regime_run(&regimes[1]);
	if (ret)
		goto out;
	print_saturated(ctx->out, &regimes[0]);
	fprintf(ctx->out,
		"\nShare of the frames delivered per sender, %d saturated senders, "
		"100 ms (seed 1):\n",
		TOUR_NODES);
	ret = print_shares(ctx->out, "PLCA", PLCA_SIM_MODE_PLCA, regimes[0].duration_ns);
	if (!ret)
		ret = print_shares(ctx->out, "CSMA/CD", PLCA_SIM_MODE_CSMA, regimes[0].duration_ns);
	if (ret)
		goto out;
	print_poisson(ctx->out, &regimes[1]);
	ret = kfsim_tour_write(ctx, "plca-sweep.csv", write_csv, both);
	if (!ret)
		ret = draw_saturated(ctx, &regimes[0]);
	if (!ret)
		ret = draw_poisson(ctx, &regimes[1]);
	if (!ret)
		ret = tour_trace(ctx);
out:
	free(regimes);
	return ret;
}

static const char *const try_plcasim[] = {
	"kfsim plca sweep --nodes 8 --frame 64 --load poisson:1000 --duration 500 "
	"--svg-prefix sweep",
	"kfsim plca sim --nodes 4 --mode csma --duration 100",
	"kfsim plca sim --nodes 4 --load poisson:150 --frame 46-200 --duration 1 "
	"--trace cycle.json",
	NULL,
};

const struct kfsim_tour_step kfsim_tour_plcasim = {
	.name = "plcasim",
	.title = "10BASE-T1S bus: PLCA against CSMA/CD",
	.doc = "plca-bus.md",
	.try_cmds = try_plcasim,
	.playground = "plca",
	.run = tour_plcasim,
};
