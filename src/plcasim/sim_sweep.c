// SPDX-License-Identifier: MIT
/*
 * Uniform segments and the PLCA-versus-CSMA/CD sweep: the comparison of the onsemi tutorial
 * ("PLCA vs. CSMA/CD: 8 nodes, 64 bytes payload"), run for 1..N transmitting nodes on a segment
 * of N nodes, written as CSV and drawn as two SVG plots.
 *
 * Invariant: every point of a sweep runs the same segment (same positions, sizes, seed) and
 * differs only in access method and number of senders.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>
#include <kfsim/outfile.h>
#include <kfsim/svg_plot.h>
#include "bus_internal.h"

void kfsim_plca_segment_default(struct plca_sim_segment *seg)
{
	struct phy_plca_cfg reset;

	kfsim_plca_cfg_reset_default(&reset);
	*seg = (struct plca_sim_segment){
		.nr_nodes = (u32)reset.node_cnt,
		.mode = PLCA_SIM_MODE_PLCA,
		.to_tmr = reset.to_tmr,
		.burst_cnt = reset.burst_cnt,
		.burst_tmr = reset.burst_tmr,
		.load = PLCA_SIM_LOAD_SATURATED,
		.payload_min = 64,
		.payload_max = 64,
		.length_m = PLCA_SIM_MAX_SEGMENT_M,
	};
}

void kfsim_plca_bus_config_default(struct plca_sim_bus_config *cfg)
{
	kfsim_plca_segment_default(&cfg->seg);
	cfg->duration_ns = 1000 * NSEC_PER_MSEC;
	cfg->seed = 1;
}

void kfsim_plca_sweep_config_default(struct plca_sim_bus_config *cfg)
{
	kfsim_plca_bus_config_default(cfg);
	cfg->duration_ns = 200 * NSEC_PER_MSEC; /* per run, and a sweep makes 2N of them */
}

int kfsim_plca_segment_nodes(const struct plca_sim_segment *seg, struct plca_sim_node_cfg *nodes)
{
	u32 nr = seg->nr_nodes, nr_plca;

	if (!nr || nr > PLCA_SIM_MAX_NODES || seg->nr_senders > nr ||
	    seg->mode > PLCA_SIM_MODE_MIXED || !(seg->length_m >= 0 && seg->length_m <= 25.0)) {
		pr_err("plca_sim: segment of %u nodes (%u senders), length %g m: out of range\n",
		       nr, seg->nr_senders, seg->length_m);
		return -EINVAL;
	}
	nr_plca = seg->mode == PLCA_SIM_MODE_PLCA   ? nr
		  : seg->mode == PLCA_SIM_MODE_CSMA ? 0
						    : (nr + 1) / 2;
	for (u32 i = 0; i < nr; i++) {
		bool plca = i < nr_plca;

		nodes[i] = (struct plca_sim_node_cfg){
			.plca = {.version = -1,
				 .enabled = plca,
				 .node_id = plca ? (int)i : 255,
				 .node_cnt = plca ? (int)nr_plca : 8,
				 .to_tmr = seg->to_tmr,
				 .burst_cnt = seg->burst_cnt,
				 .burst_tmr = seg->burst_tmr},
			.position_m = nr > 1 ? seg->length_m * i / (nr - 1) : 0,
			.load = !seg->nr_senders || i < seg->nr_senders ? seg->load
									: PLCA_SIM_LOAD_NONE,
			.interval_us = seg->interval_us,
			.payload_min = seg->payload_min,
			.payload_max = seg->payload_max,
		};
	}
	return 0;
}

static int sweep_run(const struct plca_sim_segment *seg, struct plca_sim_node_cfg *nodes,
		     u64 duration_ns, u64 seed, struct plca_sweep_point *point)
{
	struct plca_sim_cfg cfg = {.nodes = nodes, .nr_nodes = seg->nr_nodes, .seed = seed};
	struct plca_sim *sim;
	int ret = kfsim_plca_segment_nodes(seg, nodes);

	if (ret)
		return ret;
	sim = kfsim_plca_sim_create(&cfg);
	if (IS_ERR(sim))
		return (int)PTR_ERR(sim);
	/* a run that could not go on (its event queue out of memory) has no figures to give */
	ret = kfsim_plca_sim_run_until(sim, duration_ns);
	kfsim_plca_sim_report(sim, &point->rep);
	point->senders = seg->nr_senders;
	point->mode = seg->mode;
	kfsim_plca_sim_destroy(sim);
	return ret;
}

int kfsim_plca_sweep(const struct plca_sim_segment *seg, u64 duration_ns, u64 seed,
		     struct plca_sweep_point *points)
{
	return kfsim_plca_sweep_progress(seg, duration_ns, seed, points, NULL, NULL);
}

int kfsim_plca_sweep_point(const struct plca_sim_segment *seg, u64 duration_ns, u64 seed, u32 idx,
			   struct plca_sweep_point *point)
{
	struct plca_sim_segment run = *seg;
	struct plca_sim_node_cfg *nodes;
	int ret;

	if (!seg->nr_nodes || seg->nr_nodes > PLCA_SIM_MAX_NODES || idx >= 2 * seg->nr_nodes)
		return -EINVAL;
	nodes = kcalloc(seg->nr_nodes, sizeof(*nodes), GFP_KERNEL);
	if (!nodes)
		return -ENOMEM;
	run.nr_senders = idx / 2 + 1;
	run.mode = idx % 2 ? PLCA_SIM_MODE_CSMA : PLCA_SIM_MODE_PLCA;
	ret = sweep_run(&run, nodes, duration_ns, seed, point);
	kfree(nodes);
	return ret;
}

int kfsim_plca_sweep_progress(const struct plca_sim_segment *seg, u64 duration_ns, u64 seed,
			      struct plca_sweep_point *points,
			      void (*progress)(void *arg, u32 done, u32 total), void *arg)
{
	u32 nr = 2 * seg->nr_nodes;
	int ret = 0;

	if (!seg->nr_nodes || seg->nr_nodes > PLCA_SIM_MAX_NODES)
		return -EINVAL;
	for (u32 idx = 0; idx < nr && !ret; idx++) {
		if (progress && idx % 2 == 0)
			progress(arg, idx, nr);
		ret = kfsim_plca_sweep_point(seg, duration_ns, seed, idx, &points[idx]);
	}
	return ret ? ret : (int)nr;
}

static const char *mode_name(enum plca_sim_mode mode)
{
	return mode == PLCA_SIM_MODE_PLCA ? "plca" : mode == PLCA_SIM_MODE_CSMA ? "csma" : "mixed";
}

int kfsim_plca_sweep_csv(const struct plca_sweep_point *points, u32 nr, FILE *out)
{
	fprintf(out, "senders,mode,throughput_mbps,goodput_mbps,utilisation,lat_mean_us,"
		     "lat_p99_us,lat_max_us,jain,collisions,phys_collisions\n");
	for (u32 i = 0; i < nr; i++) {
		const struct plca_sim_report *r = &points[i].rep;

		fprintf(out, "%u,%s,%.4f,%.4f,%.4f,%.2f,%.2f,%.2f,%.4f,%llu,%llu\n",
			points[i].senders, mode_name(points[i].mode), r->throughput_mbps,
			r->goodput_mbps, r->utilisation, r->lat_mean_ns / 1e3, r->lat_p99_ns / 1e3,
			r->lat_max_ns / 1e3, r->jain, (unsigned long long)r->collisions,
			(unsigned long long)r->phys_collisions);
	}
	return ferror(out) ? -EIO : 0;
}

/* A latency of 0 (nothing delivered) cannot go on a log axis: draw it at 0.1 us. */
static double plot_lat(double ns)
{
	return ns > 100 ? ns / 1e3 : 0.1;
}

int kfsim_plca_sweep_svg_write(const struct plca_sweep_point *points, u32 nr,
			       FILE *throughput, FILE *latency)
{
	u32 half = nr / 2;
	double *x = kcalloc(half, sizeof(double), GFP_KERNEL);
	double *y = kcalloc(8 * (size_t)half, sizeof(double), GFP_KERNEL);
	int ret = -ENOMEM;

	if (!half) {
		ret = -EINVAL;
		goto out;
	}
	if (!x || !y)
		goto out;
	for (u32 i = 0; i < half; i++) {
		const struct plca_sim_report *p = &points[2 * i].rep, *c = &points[2 * i + 1].rep;

		x[i] = points[2 * i].senders;
		y[0 * half + i] = p->throughput_mbps;
		y[1 * half + i] = c->throughput_mbps;
		y[2 * half + i] = plot_lat(p->lat_mean_ns);
		y[3 * half + i] = plot_lat(c->lat_mean_ns);
		y[4 * half + i] = plot_lat((double)p->lat_max_ns);
		y[5 * half + i] = plot_lat((double)c->lat_max_ns);
		y[6 * half + i] = plot_lat((double)p->lat_p99_ns);
		y[7 * half + i] = plot_lat((double)c->lat_p99_ns);
	}
	{
		const struct kfsim_plot_series thr[] = {
			{"PLCA", x, y, half},
			{"CSMA/CD", x, y + half, half},
		};
		const struct kfsim_plot_series lat[] = {
			{"PLCA mean", x, y + 2 * half, half},
			{"CSMA/CD mean", x, y + 3 * half, half},
			{"PLCA p99", x, y + 6 * half, half},
			{"CSMA/CD p99", x, y + 7 * half, half},
			{"PLCA max", x, y + 4 * half, half},
			{"CSMA/CD max", x, y + 5 * half, half},
		};
		struct kfsim_plot plot = {
			.title = "10BASE-T1S: aggregate throughput (MAC frames)",
			.x_label = "transmitting nodes",
			.y_label = "throughput (Mb/s)",
			.y_from_zero = true,
			.series = thr,
			.nr_series = 2,
		};

		ret = kfsim_plot_svg_write(&plot, throughput);
		if (!ret) {
			plot.title = "10BASE-T1S: latency, arrival to end of transmission";
			plot.y_label = "latency (us, log)";
			plot.y_log = true;
			plot.y_from_zero = false;
			plot.series = lat;
			plot.nr_series = 6;
			ret = kfsim_plot_svg_write(&plot, latency);
		}
	}
out:
	kfree(x);
	kfree(y);
	return ret;
}

int kfsim_plca_sweep_svg_open(const char *prefix, struct kfsim_outfile *files)
{
	static const char *const names[2] = { "%s-throughput.svg", "%s-latency.svg" };
	char path[2][PATH_MAX];
	int ret;

	/* both names are checked before either file is made */
	for (int i = 0; i < 2; i++)
		if (snprintf(path[i], sizeof(path[i]), names[i], prefix) >= (int)sizeof(path[i]) ||
		    kfsim_outfile_check_path(path[i]))
			return -ENAMETOOLONG;
	ret = kfsim_outfile_open(&files[0], path[0]);
	if (ret)
		return ret;
	ret = kfsim_outfile_open(&files[1], path[1]);
	if (ret)
		kfsim_outfile_abort(&files[0]);
	return ret;
}

int kfsim_plca_sweep_svg(const struct plca_sweep_point *points, u32 nr, const char *prefix)
{
	struct kfsim_outfile files[2];
	int ret = kfsim_plca_sweep_svg_open(prefix, files);

	if (ret)
		return ret;
	/* both files written and renamed together, or neither */
	ret = kfsim_plca_sweep_svg_write(points, nr, files[0].file, files[1].file);
	if (ret)
		kfsim_outfile_fail(&files[0], ret);
	return kfsim_outfile_commit_all(files, 2);
}
