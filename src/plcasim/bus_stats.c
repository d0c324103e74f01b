// SPDX-License-Identifier: MIT
/*
 * Statistics: the per-node figures and the segment's totals.  Latency goes into a log-linear
 * histogram per node (<kfsim/sim_hist.h>, with its quantile convention), so a 100 s run needs no
 * more memory than a 1 ms one.
 *
 * Invariant: generated = delivered + dropped_attempts + dropped_queue + lost_fault + queued,
 * for every node at every instant between events.
 */
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/slab.h>
#include "bus_internal.h"

/* A node that hears the coordinator's BEACONs as the cycle counts them (rs_tx_end()). */
static bool beacon_listener(const struct plca_sim *sim, u32 i)
{
	const struct bus_node *n = &sim->nodes[i];

	return (int)i != sim->seg.coord && n->rs_on && n->up && !n->oc;
}

/* Whether @node is one of its id's owners (owners[], as the cycle counts TOs for them). */
static bool is_owner(const struct plca_sim *sim, u32 node, u32 id)
{
	for (u32 k = sim->owner_first[id]; k < sim->owner_first[id + 1]; k++) {
		if (sim->owners[k] == node)
			return true;
	}
	return false;
}

/*
 * The TOs counted for @node in tos_diff[] and not yet in its statistics, and those of the idle
 * run that began before now (seg_idle_run_begun()), which the run counts when materialised.
 */
static u64 lazy_tos(const struct plca_sim *sim, u32 node)
{
	const struct bus_node *n = &sim->nodes[node];
	u32 id = (u32)n->cfg.plca.node_id, cur = sim->seg.cur_id;
	u64 run = 0;

	if (!rs_active(n) || id > 255 || !is_owner(sim, node, id))
		return 0;
	for (u32 j = 0; sim->tos_dirty && j <= id; j++)
		run += sim->tos_diff[j];
	return run + (id > cur && id <= cur + seg_idle_run_begun(sim));
}

/*
 * Add the lazy TO and BEACON counts to the nodes they belong to.  Called before anything that
 * changes who they belong to: a node's plca_status, link, PLCA settings, own clock, the
 * coordinator or the owners of an id.
 */
void bus_lazy_flush(struct plca_sim *sim)
{
	seg_count_idle_run(sim);
	if (sim->tos_dirty) {
		u64 run = 0;

		for (u32 id = 0; id < 256; id++) {
			run += sim->tos_diff[id];
			sim->tos_diff[id] = 0;
			for (u32 k = sim->owner_first[id]; run && k < sim->owner_first[id + 1]; k++) {
				struct bus_node *n = &sim->nodes[sim->owners[k]];

				if (rs_active(n))
					n->st.tos += run;
			}
		}
		sim->tos_diff[256] = 0;
		sim->tos_dirty = false;
	}
	if (sim->beacons_lazy) {
		for (u32 i = 0; i < sim->nr_nodes; i++) {
			if (beacon_listener(sim, i))
				sim->nodes[i].st.beacons += sim->beacons_lazy;
		}
		sim->beacons_lazy = 0;
	}
}

int kfsim_plca_sim_node_stats(const struct plca_sim *sim, u32 node, struct plca_sim_node_stats *st)
{
	const struct bus_node *n;

	if (node >= sim->nr_nodes || !st)
		return -EINVAL;
	n = &sim->nodes[node];
	*st = n->st;
	st->tos += lazy_tos(sim, node);
	st->beacons += beacon_listener(sim, node) ? sim->beacons_lazy : 0;
	st->queued = n->q_len;
	st->lat_mean_ns = kfsim_hist_mean(&n->lat);
	st->lat_p99_ns = kfsim_hist_quantile(&n->lat, 0.99);
	st->lat_max_ns = n->lat.max;
	st->access_mean_ns = n->lat.count ? n->access_sum / (double)n->lat.count : 0;
	st->plca_status = n->synced;
	return 0;
}

/* The 99th percentile over every node's frames: the histograms share their buckets. */
static u64 merged_p99(const struct plca_sim *sim)
{
	u64 count = 0, rank, seen = 0, max_ns = 0;

	for (u32 i = 0; i < sim->nr_nodes; i++) {
		count += sim->nodes[i].lat.count;
		max_ns = max(max_ns, sim->nodes[i].lat.max);
	}
	rank = kfsim_hist_rank(count, 0.99);
	if (!rank)
		return 0;
	for (u32 b = 0; b < KFSIM_HIST_BUCKETS; b++) {
		for (u32 i = 0; i < sim->nr_nodes; i++)
			seen += sim->nodes[i].lat.bucket[b];
		if (seen >= rank)
			return min(kfsim_hist_bucket_top(b), max_ns);
	}
	return max_ns;
}

void kfsim_plca_sim_report(const struct plca_sim *sim, struct plca_sim_report *rep)
{
	double sum = 0, sum_sq = 0, lat_sum = 0, wire_ns = 0;
	u64 frames = 0, frame_bits = 0, payload_bits = 0;
	u32 loaded = 0;

	*rep = (struct plca_sim_report){.now_ns = sim->now,
					.events = sim->nr_events,
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
		lat_sum += (double)n->lat.sum;
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
