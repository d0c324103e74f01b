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
 * struct plca_sim_cfg.bit_level) goes the bit-level way.
 *
 * bus_fast_idle() skips idle cycles: at the decision of TO 0 with nothing pending or queued
 * anywhere, the whole cycles up to the next event are counted (BEACONs, TOs, trace events) and
 * the cycle resumes at the TO 0 decision of the last one.
 *
 * tests/plcasim/test_sim_fastpath.c runs both paths on a sweep of segments and compares them.
 */
#include <kfsim/kernel.h>
#include "bus_internal.h"

/* The time of the first live queued event, dropping withdrawn timers on the way (as the loop would). */
static u64 next_live(struct plca_sim *sim)
{
	for (;;) {
		struct kfsim_evheap *h = kfsim_evq_next_heap(&sim->events);
		const struct kfsim_event *ev;
		u32 slot;

		if (!h)
			return BUS_NEVER;
		ev = &h->ev[0];
		slot = kfsim_event_data(ev);
		if (slot < sim->nr_fixed && sim->slot_seq[slot] != kfsim_event_seq(ev)) {
			kfsim_evheap_pop(h);
			continue;
		}
		return kfsim_event_time(ev);
	}
}

/* A held timer that is still armed (it would run before anything the model skips). */
static bool held_live(const struct plca_sim *sim)
{
	return sim->has_held &&
	       sim->slot_seq[kfsim_event_data(&sim->held)] == kfsim_event_seq(&sim->held);
}

static u64 dist(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/*
 * EV_TX_END of @node's frame: run the rest of its TO and the next one up to the next owner's
 * frame start in one step when that is the situation above.  Return: false (nothing done) when
 * it is not.
 */
bool bus_fast_tx_end(struct plca_sim *sim, u32 node)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *o = &sim->nodes[node], *n;
	const struct bus_signal *s;
	u64 t0 = sim->now, crs_off, t_start;
	u32 id, next;
	bool retry;

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
	next = sim->owners[sim->owner_first[id]];
	n = &sim->nodes[next];
	if (!rs_active(n) || n->sig >= 0 || n->mac != MAC_DEFER || n->waiting || n->ifg_from ||
	    n->committed || n->backoff_end > t0 || n->cfg.ignores_collisions ||
	    sim->slot_seq[next << BUS_SLOT_SHIFT | EV_MAC] != BUS_SEQ_NONE ||
	    !rs_fast_pending_by(sim, n, t0) || held_live(sim))
		return false;
	/* B's carrier drops when A's frame has reached it; its IFG counts from then */
	crs_off = t0 + dist(n->pos_ns, o->pos_ns) + sim->crs_delay;
	t_start = crs_off + BT(PLCA_SIM_IFG_BT);
	if (t_start > sim->run_limit || next_live(sim) < t_start + mac_head_wire_ns(sim, next))
		return false;

	/* t0: A's frame ends (bus_on_tx_end()), the next TO begins, B commits (to_eval()) */
	bus_signal_finish(sim, node);
	o->own_tx_end = t0;
	retry = mac_fast_frame_done(sim, node);
	if (retry)
		mac_fast_ifg(sim, node, t0, false);
	seg_fast_commit_next(sim, next);
	mac_fast_ifg(sim, next, crs_off, crs_off > t0);
	sim->nr_events += 1 + retry + 1; /* the TO decision, the two IFGs' ends */
	sim->fast_tos++;
	/* A's IFG ends first (or in the same instant, armed first): B's COMMIT is on the wire */
	if (retry) {
		sim->now = t0 + BT(PLCA_SIM_IFG_BT);
		mac_fast_ifg_over(sim, node);
	}
	sim->now = t_start;
	mac_fast_ifg_over(sim, next);
	return true;
}

bool bus_fast_idle(struct plca_sim *sim)
{
	(void)sim;
	return false;
}
