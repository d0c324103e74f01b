// SPDX-License-Identifier: MIT
/*
 * The per-transmit-opportunity wire model: where nothing on the wire can differ, a TO is one
 * step instead of a handful of events, carrier checks and timers.  It takes over exactly one
 * situation, the most common one of a loaded PLCA segment:
 *
 *   owner A's frame ends | TO of B begins, B (pending) commits | A's MAC retries after its IFG,
 *   meets B's COMMIT: logical collision, backoff draw | B's IFG ends: B's frame starts
 *
 * and only when nothing else can happen in between: the frame that ended was the only signal on
 * the wire and collided with nothing, no MAC waits on the carrier and no frame is held in a
 * delay line, B is the one owner of the next id and has a frame pending by the TO decision, no
 * queued event (arrival, injected frame, timer) falls before the end of B's frame, no node runs
 * its own clock, and the run goes on at least until B's frame starts.  The carrier checks then
 * have known answers (A's frame ended everywhere IFG later than the carrier of anything older),
 * so what the bit-level path would do is done in the same order: the same state, statistics,
 * random draws (A's payload, then A's backoff), trace events and event sequence numbers.  Any
 * other case (a BEACON, a yielded TO, bursts, collisions, mixed segments, misconfigurations,
 * struct plca_sim_cfg.bit_level) goes the bit-level way.  Without a trace bus_fast_round.c runs
 * those TOs in one loop, and the BEACON's TO between two of them as well.
 *
 * bus_fast_idle() skips idle cycles: at the decision of any TO (or the BEACON after the last
 * TO's frame) with nothing pending or queued anywhere, the rest of the cycle and the whole
 * cycles up to the next event are counted (TOs, BEACONs, trace events, the run timers of earlier
 * idle runs that fall in between) and the cycle resumes at the TO 0 decision of the last one.
 *
 * tests/plcasim/test_sim_fastpath.c runs both paths on a sweep of segments and compares them.
 */
#include <kfsim/bug.h>
#include <kfsim/kernel.h>
#include "bus_internal.h"

/*
 * Whether @node's frame, ending now, is followed by the situation above, with no queued event
 * before @horizon; if so, the next owner in *@next, when its carrier drops in *@crs_off and when
 * its frame starts in *@t_start.
 */
static bool fast_to_ok(struct plca_sim *sim, u32 node, u64 horizon, u32 *next, u64 *crs_off,
		       u64 *t_start)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *o = &sim->nodes[node], *n;
	const struct bus_signal *s;
	u64 t0 = sim->now;
	u32 id;

	if (sim->nr_oc || sim->nr_active != 1 || sim->nr_waiters || sim->nr_hold ||
	    seg->state != SEG_COMMIT || seg->owner != (int)node || seg->eval_pending)
		return false;
	s = &sim->sig[o->sig];
	if (s->kind != SIG_DATA || s->collided || !rs_active(o) || !o->committed ||
	    o->cfg.plca.burst_cnt || o->cfg.ignores_collisions)
		return false;
	id = seg->cur_id + 1;
	if (id >= seg->node_cnt || sim->owner_first[id + 1] != sim->owner_first[id] + 1)
		return false;
	*next = sim->owners[sim->owner_first[id]];
	n = &sim->nodes[*next];
	if (!bus_next_owner_waits(sim, n, *next, t0) || bus_held_live(sim))
		return false;
	/* B's carrier drops when A's frame has reached it; its IFG counts from then */
	*crs_off = t0 + bus_dist(n->pos_ns, o->pos_ns) + sim->crs_delay;
	*t_start = *crs_off + BT(PLCA_SIM_IFG_BT);
	return *t_start <= sim->run_limit &&
	       horizon >= *t_start + bus_frame_wire_ns(n->queue[n->q_head].payload);
}

/* sig_close() and the end of the signal (bus_signal_finish()) without the trace, or with it. */
static inline void fast_close(struct plca_sim *sim, u32 node)
{
	if (sim->trace)
		bus_sig_close(sim, node);
	else
		sig_end(sim, node);
}

/*
 * sig_open() for the per-TO model, which knows that the new signal overlaps nothing
 * (check_overlaps() would arm no collision): a signal with an end takes its EV_TX_END arming
 * (sequence number) but is not queued; bus_fast_tx_end() queues it or runs it.
 */
void bus_fast_signal_open(struct plca_sim *sim, u32 node, u8 kind, u64 end)
{
	sig_prune(sim);
	BUG_ON(sim->sig_head - sim->sig_tail >= BUS_SIG_RING);
	sig_push(sim, node, kind, end);
	if (end != BUS_NEVER)
		sim->slot_seq[node << BUS_SLOT_SHIFT | EV_TX_END] = kfsim_evq_take_seq(&sim->events);
}

/* bus_signal_rekind() to a frame, as bus_fast_signal_open() opens it. */
void bus_fast_signal_rekind(struct plca_sim *sim, u32 node, u64 end)
{
	fast_close(sim, node);
	bus_fast_signal_open(sim, node, SIG_DATA, end);
}

/* The TO after @node's frame up to the start of @next's frame (fast_to_ok() said so). */
static void fast_to(struct plca_sim *sim, u32 node, u32 next, u64 crs_off, u64 t_start)
{
	struct bus_node *o = &sim->nodes[node];
	u64 t0 = sim->now;
	bool retry;

	/* t0: A's frame ends (bus_on_tx_end()), the next TO begins, B commits (to_eval()) */
	fast_close(sim, node);
	sim->nr_active--;
	o->own_tx_end = t0;
	retry = mac_fast_frame_done(sim, node);
	if (retry)
		bus_fast_ifg(sim, node, t0, false);
	seg_fast_commit_next(sim, next);
	bus_fast_ifg(sim, next, crs_off, crs_off > t0);
	sim->nr_events += 1 + retry + 1; /* the TO decision, the two IFGs' ends */
	sim->fast_tos++;
	/* A's IFG ends first (or in the same instant, armed first): B's COMMIT is on the wire */
	if (retry) {
		sim->now = t0 + BT(PLCA_SIM_IFG_BT);
		bus_fast_ifg_over(sim, node);
		rs_fast_collide(sim, node);
	}
	sim->now = t_start;
	bus_fast_ifg_over(sim, next);
	rs_fast_frame_start(sim, next);
}

/*
 * EV_TX_END of @node's frame: when the situation above follows, run TOs in one step each, one
 * after the other while each frame's end is the next event of the run, then queue the end of
 * the last frame started (with the sequence number its arming took).  Nothing the steps do
 * queues an event, so the first queued one stays where it was.  Return: false (nothing done)
 * when the situation does not follow this frame.
 */
bool bus_fast_tx_end(struct plca_sim *sim, u32 node)
{
	u64 horizon, crs_off, t_start;
	const struct bus_node *n;
	u32 next;

	/* not a committed PLCA TO (a CSMA/CD segment, say): nothing to look at */
	if (sim->seg.state != SEG_COMMIT || sim->seg.owner != (int)node)
		return false;
	/*
	 * The checks first, as if nothing were queued, then the queue: on a lightly loaded segment
	 * the checks refuse most frames' ends, and finding the next live event (dropping withdrawn
	 * timers on the way) cost more than they do.
	 */
	if (!fast_to_ok(sim, node, BUS_NEVER, &next, &crs_off, &t_start))
		return false;
	n = &sim->nodes[next];
	horizon = bus_next_live(sim);
	if (horizon < t_start + bus_frame_wire_ns(n->queue[n->q_head].payload))
		return false;
	/* without a trace, the TOs that follow run in one loop (bus_fast_round.c) */
	if (!sim->trace)
		return bus_fast_round(sim, node, horizon, next, crs_off, t_start);
	for (;;) {
		fast_to(sim, node, next, crs_off, t_start);
		node = next;
		/* the frame's end is the next event: run it here instead of through the heap */
		if (!bus_fast_next_end(sim, node, horizon))
			return true;
		if (!fast_to_ok(sim, node, horizon, &next, &crs_off, &t_start)) {
			bus_tx_end_bit_level(sim, node);
			return true;
		}
	}
}

/*
 * Whether the run timers @stale[0 .. @nr) of earlier idle runs that fall in a stretch skipped
 * from the decision of a TO at @t0 (its cycle's BEACON at @e0) up to @land would each only have
 * brought the cycle up to their instant (seg_materialise()), one event apiece: true unless one
 * falls on the start of a TO 1 .. node_cnt - 1, which it would begin early, making that TO's
 * decision an event of its own with an idle run (a timer) of its own.  The skip leaves that rare
 * case to the bit-level path.
 */
static bool stale_runs_only_materialise(const struct plca_sim *sim, const struct kfsim_event *stale,
					u32 nr, u64 t0, u64 e0, u64 land)
{
	const struct bus_seg *seg = &sim->seg;
	u64 cycle = seg_cycle_ns(seg);

	for (u32 i = 0; i < nr; i++) {
		u64 t = kfsim_event_time(&stale[i]), x;

		if (t > land)
			break;
		/* x: how long after the start of a TO of the stretch it falls */
		if (t < e0) {
			x = t - t0;
		} else {
			x = (t - e0) % cycle;
			if (x <= BT(PLCA_SIM_BEACON_BT))
				continue; /* in a BEACON, or as it ends: before TO 0 begins */
			x -= BT(PLCA_SIM_BEACON_BT);
		}
		if (!(x % seg->to_ns))
			return false;
	}
	return true;
}

/*
 * The decision of TO k of an idle cycle (nothing pending), or with k = node_cnt the start of
 * its BEACON after the last TO's frame: when nothing at all is under way (no
 * frame queued, held or pending anywhere, no signal, no waiter, every PLCA node synchronised,
 * no own clock), the rest of the cycle and the ones after it run exactly as the closed form says
 * until the next queued event other than the run timers of earlier idle runs: skip the TOs k ..
 * node_cnt - 1, the BEACON and the whole cycles before that event (and before the end of the
 * run), and leave the segment at the TO 0 decision of the last cycle skipped, which the caller
 * then takes (to_eval() at once, next_to() by arming it).  Return: whether it skipped.
 * bus_fast_idle() (bus_internal.h) has checked that nothing is under way; the rest is here.
 */
bool bus_fast_idle_skip(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;
	struct kfsim_event stale[BUS_STALE_MAX];
	u64 cycle, e0, limit, land, m, seen, t, t0 = sim->now;
	u32 coord, nr_stale, k = seg->cur_id;
	bool from_beacon = k == seg->node_cnt;

	cycle = seg_cycle_ns(seg);
	e0 = t0 + (seg->node_cnt - k) * seg->to_ns;
	coord = (u32)seg->coord;
	/*
	 * A signal that just ended may not have passed the coordinator when its BEACON starts (it
	 * would see a collision), or a BEACON the next one: then the cycle runs the bit-level way.
	 */
	if (sim->max_prop >= cycle ||
	    (e0 < t0 + sim->max_prop && bus_tail_in_flight(sim, coord, e0)))
		return false;
	/* the last BEACON skipped must end before the next event and by the end of the run */
	limit = min(bus_next_not_run(sim, BUS_NEVER, stale, &nr_stale) - 1, sim->run_limit);
	m = e0 + BT(PLCA_SIM_BEACON_BT) > limit ? 0
						: (limit - e0 - BT(PLCA_SIM_BEACON_BT)) / cycle + 1;
	land = m ? e0 + (m - 1) * cycle + BT(PLCA_SIM_BEACON_BT) : 0;
	if (!m || !stale_runs_only_materialise(sim, stale, nr_stale, t0, e0, land)) {
		bus_stale_runs_done(sim, stale, nr_stale, false, 0);
		return false;
	}
	bus_stale_runs_done(sim, stale, nr_stale, true, land);
	/*
	 * The BEACONs that carrier sense can still see at the landing go on the wire (and the
	 * ring): those that ended at most max_prop + CRS latency + IFG before it.  Older ones
	 * would be pruned before anybody looked.
	 */
	seen = min(m, (sim->max_prop + sim->crs_delay + BT(PLCA_SIM_IFG_BT)) / cycle + 1);
	for (u64 j = m - seen; j < m; j++) {
		sim->now = e0 + j * cycle;
		bus_fast_signal_open(sim, coord, SIG_BEACON, sim->now + BT(PLCA_SIM_BEACON_BT));
		sim->now += BT(PLCA_SIM_BEACON_BT);
		sim->nodes[coord].sig = -1;
		t = sim->now;
		sig_at(sim, sim->sig_head - 1)->active = false;
		sig_at(sim, sim->sig_head - 1)->gone_at =
			t + sim->max_prop + sim->crs_delay + BT(PLCA_SIM_IFG_BT);
	}
	sim->opens[0] += m - seen;
	sim->slot_seq[coord << BUS_SLOT_SHIFT | EV_TX_END] = BUS_SEQ_NONE;
	sim->slot_seq[coord << BUS_SLOT_SHIFT | EV_COL] = BUS_SEQ_NONE;
	sim->nodes[coord].col_at = BUS_NEVER;
	/*
	 * The sequence numbers of the run timers and BEACON ends skipped, and the events: per
	 * cycle its run timer, its BEACON's end and the next TO 0 decision.  From a BEACON the
	 * first cycle has no run timer, and the decision it lands at is still to come (the event
	 * loop runs and counts it).
	 */
	sim->events.seq += 2 * m - seen - from_beacon;
	seg_fast_idle_cycles(sim, m, k, t0);
	sim->nr_events += 3 * m - 2 * from_beacon;
	sim->fast_cycles += m;
	sim->sparse_ready = !sim->sparse_off; /* the sparse engine may take over (bus_sparse.c) */
	sim->fast_mid_skips += k > 0 && !from_beacon;
	sim->fast_beacon_skips += from_beacon;
	return true;
}
