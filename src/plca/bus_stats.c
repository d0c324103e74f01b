// SPDX-License-Identifier: MIT
/*
 * Statistics: a log-linear latency histogram per node (64 buckets per power of two, so any
 * quantile is at most 1/64 above the truth while a 100 s run needs no more memory than a 1 ms one),
 * the per-node figures and the segment's totals.
 *
 * Invariant: generated = delivered + dropped_attempts + dropped_queue + lost_fault + queued,
 * for every node at every instant between events.
 */
#include <math.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/slab.h>
#include "bus_internal.h"

int bus_hist_init(struct bus_hist *hist)
{
	hist->bucket = kcalloc(BUS_HIST_BUCKETS, sizeof(*hist->bucket), GFP_KERNEL);
	return hist->bucket ? 0 : -ENOMEM;
}

void bus_hist_free(struct bus_hist *hist)
{
	kfree(hist->bucket);
	hist->bucket = NULL;
}

static u32 hist_index(u64 value)
{
	u32 msb;

	if (value < BUS_HIST_SUB)
		return (u32)value;
	msb = 63 - (u32)__builtin_clzll(value);
	return (msb - 5) * BUS_HIST_SUB + (u32)((value >> (msb - 6)) & (BUS_HIST_SUB - 1));
}

/* The largest value of bucket @index: a quantile is never reported below the truth. */
static u64 hist_value(u32 index)
{
	u32 msb, sub;
	u64 low;

	if (index < BUS_HIST_SUB)
		return index;
	msb = index / BUS_HIST_SUB + 5;
	sub = index % BUS_HIST_SUB;
	low = (u64)(BUS_HIST_SUB + sub) << (msb - 6);
	return low + (1ull << (msb - 6)) - 1;
}

void bus_hist_add(struct bus_hist *hist, u64 value)
{
	hist->bucket[hist_index(value)]++;
	hist->count++;
	hist->sum += (double)value;
	if (value > hist->max)
		hist->max = value;
}

u64 bus_hist_quantile(const struct bus_hist *hist, double q)
{
	u64 want, seen = 0;

	if (!hist->count)
		return 0;
	want = (u64)ceil(q * (double)hist->count);
	if (!want)
		want = 1;
	for (u32 i = 0; i < BUS_HIST_BUCKETS; i++) {
		seen += hist->bucket[i];
		if (seen >= want)
			return min(hist_value(i), hist->max);
	}
	return hist->max;
}

int kfsim_plca_sim_node_stats(const struct plca_sim *sim, u32 node, struct plca_sim_node_stats *st)
{
	const struct bus_node *n;

	if (node >= sim->nr_nodes || !st)
		return -EINVAL;
	n = &sim->nodes[node];
	*st = n->st;
	st->queued = n->q_len;
	st->lat_mean_ns = n->lat.count ? n->lat.sum / (double)n->lat.count : 0;
	st->lat_p99_ns = bus_hist_quantile(&n->lat, 0.99);
	st->lat_max_ns = n->lat.max;
	st->access_mean_ns = n->lat.count ? n->access_sum / (double)n->lat.count : 0;
	st->plca_status = n->synced;
	return 0;
}

/* The 99th percentile over every node's frames: the histograms share their buckets. */
static u64 merged_p99(const struct plca_sim *sim)
{
	u64 count = 0, want, seen = 0, max_ns = 0;

	for (u32 i = 0; i < sim->nr_nodes; i++) {
		count += sim->nodes[i].lat.count;
		max_ns = max(max_ns, sim->nodes[i].lat.max);
	}
	if (!count)
		return 0;
	want = (u64)ceil(0.99 * (double)count);
	for (u32 b = 0; b < BUS_HIST_BUCKETS; b++) {
		for (u32 i = 0; i < sim->nr_nodes; i++)
			seen += sim->nodes[i].lat.bucket[b];
		if (seen >= want)
			return min(hist_value(b), max_ns);
	}
	return max_ns;
}

void kfsim_plca_sim_report(const struct plca_sim *sim, struct plca_sim_report *rep)
{
	double sum = 0, sum_sq = 0, lat_sum = 0, wire_ns = 0;
	u64 frames = 0, frame_bits = 0, payload_bits = 0;
	u32 loaded = 0;

	*rep = (struct plca_sim_report){.now_ns = sim->now,
					.events = sim->events,
					.cycles = sim->cycles,
					.misconfig = sim->misconfig};
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		const struct bus_node *n = &sim->nodes[i];
		double x = (double)n->st.frame_bytes;

		frames += n->st.delivered;
		frame_bits += n->st.frame_bytes * 8;
		payload_bits += n->st.payload_bytes * 8;
		wire_ns += (double)(n->st.frame_bytes + n->st.delivered * PLCA_SIM_WIRE_OVERHEAD) *
			   8 * PLCA_SIM_NS_PER_BT;
		lat_sum += n->lat.sum;
		if (n->lat.max > rep->lat_max_ns)
			rep->lat_max_ns = n->lat.max;
		rep->collisions += n->st.collisions;
		rep->phys_collisions += n->st.phys_collisions;
		if (n->cfg.load != PLCA_SIM_LOAD_NONE) {
			loaded++;
			sum += x;
			sum_sq += x * x;
		}
	}
	if (sim->now) {
		rep->throughput_mbps = (double)frame_bits * 1e3 / (double)sim->now;
		rep->goodput_mbps = (double)payload_bits * 1e3 / (double)sim->now;
		rep->utilisation = wire_ns / (double)sim->now;
	}
	rep->lat_mean_ns = frames ? lat_sum / (double)frames : 0;
	rep->lat_p99_ns = merged_p99(sim);
	rep->jain = sum_sq > 0 ? sum * sum / ((double)loaded * sum_sq) : 0;
}
