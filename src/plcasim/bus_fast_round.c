// SPDX-License-Identifier: MIT
/*
 * A round of one-step TOs in one loop: the per-TO model of bus_fast.c (read its comment first)
 * for a run of consecutive TOs, when no trace is being written.
 *
 * bus_fast_tx_end() checks that the TO after a frame can be run in one step (fast_to_ok()), then
 * runs it and the ones after it while each frame's end is the next event.  Most of those checks
 * are about the whole segment (no own clock, one signal on the wire, no waiter, nothing HELD or
 * held, the cycle committed to the node whose frame ends) and the TOs themselves keep them true:
 * a one-step TO opens only its COMMIT and frame, adds no waiter, HOLDs nothing, queues no event
 * and holds no timer.  So bus_fast_round() checks them once, with the first TO, and per TO only
 * what belongs to the next owner and the horizon (round_next()).  Each TO is then one function
 * (round_to()) that does, in the same order, what fast_to() does through the helpers of
 * bus_mac.c and bus_plca.c, written out for the transitions it knows:
 *
 *   the ending owner A: TRANSMIT -> IDLE, its delivery counted (latency histogram), its queue
 *   refilled (payload draw), its IFG; the next TO: the owners of the current id released, B
 *   committed (lazy pending_timers settled first, PENDING -> WAIT_MAC, COMMIT on the wire,
 *   commit_timer's sequence number); B's IFG; A's retry into B's COMMIT 96 BT later (IDLE ->
 *   DELAY_PENDING, lazy pending_timer, attempt 1 and its backoff draw, r of 0 or 1 always ends
 *   within the pending_timer, so the MAC defers to the RS); B's frame replaces its COMMIT.
 *
 * Every sequence number is taken in the same order, the signal ring gets the same COMMIT and
 * frame signals, the counts (nr_ds_busy, nr_pending, pending_per_id, pending_ids, nr_committed,
 * nr_queued, opens[]) change as set_ds(), take_to() and the queue would change them.  With a
 * trace bus_fast_tx_end() keeps to the helpers, which write the trace's slices.
 *
 * tests/plcasim/test_sim_fastpath.c compares it with the bit-level path (and counts its TOs,
 * sim->fast_round_tos, so the comparison cannot pass by never taking it).
 */
#include <kfsim/bug.h>
#include <kfsim/kernel.h>
#include <kfsim/random.h>
#include "bus_internal.h"

/* @n enters (@on) or leaves PENDING: pending_changed() of bus_plca.c. */
static inline void round_pending(struct plca_sim *sim, const struct bus_node *n, bool on)
{
	u32 id = (u32)n->cfg.plca.node_id;
	u64 bit = 1ull << (id % 64);

	if (on) {
		sim->nr_pending++;
		sim->pending_per_id[id]++;
		sim->pending_ids[id / 64] |= bit;
	} else {
		sim->nr_pending--;
		if (!--sim->pending_per_id[id])
			sim->pending_ids[id / 64] &= ~bit;
	}
}

/*
 * lazy_pend_settle(sim, false) of bus_plca.c at a TO decision: a node whose lazy pending_timer
 * ran out by now goes DELAY_PENDING -> PENDING (set_ds(): neither HOLD nor IDLE changes).
 */
static inline void round_settle(struct plca_sim *sim)
{
	u32 keep = 0;

	for (u32 i = 0; i < sim->nr_lazy_pend; i++) {
		u32 node = sim->lazy_pend[i];
		struct bus_node *n = &sim->nodes[node];
		u64 seq = n->pend_tie >> BUS_SLOT_BITS;

		if (sim->slot_seq[node << BUS_SLOT_SHIFT | EV_RS] != seq ||
		    n->ds != DS_DELAY_PENDING) {
			n->pend_lazy = false;
		} else if (n->rs_due <= sim->now) {
			n->pend_lazy = false;
			n->ds = DS_PENDING;
			round_pending(sim, n, true);
		} else {
			sim->lazy_pend[keep++] = node;
		}
	}
	sim->nr_lazy_pend = keep;
}

/*
 * The TO after @node's frame can be run by round_to(), the segment-wide conditions of
 * fast_to_ok() holding: the frame's node neither bursts nor ignores collisions, the next id has
 * one owner, which waits for its TO with a frame pending by the decision, and the run and the
 * queue leave room up to the end of its frame.  Its results as fast_to_ok()'s.
 */
static inline bool round_next(struct plca_sim *sim, u32 node, u64 horizon, u32 *next,
			      u64 *crs_off, u64 *t_start)
{
	const struct bus_node *o = &sim->nodes[node], *n;
	u32 id = sim->seg.cur_id + 1, first;
	u64 t0 = sim->now;

	if (o->cfg.plca.burst_cnt || o->cfg.ignores_collisions || id >= sim->seg.node_cnt)
		return false;
	first = sim->owner_first[id];
	if (sim->owner_first[id + 1] != first + 1)
		return false;
	*next = sim->owners[first];
	n = &sim->nodes[*next];
	if (!rs_active(n) || n->sig >= 0 || n->mac != MAC_DEFER || n->waiting || n->ifg_from ||
	    n->committed || n->backoff_end > t0 || n->cfg.ignores_collisions ||
	    sim->slot_seq[*next << BUS_SLOT_SHIFT | EV_MAC] != BUS_SEQ_NONE)
		return false;
	/* PENDING now, or by the decision (its lazy pending_timer runs out by now) */
	if (n->ds != DS_PENDING &&
	    (n->ds != DS_DELAY_PENDING || !n->pend_lazy || n->rs_due > t0 ||
	     sim->slot_seq[*next << BUS_SLOT_SHIFT | EV_RS] != n->pend_tie >> BUS_SLOT_BITS))
		return false;
	*crs_off = t0 + (n->pos_ns > o->pos_ns ? n->pos_ns - o->pos_ns : o->pos_ns - n->pos_ns) +
		   sim->crs_delay;
	*t_start = *crs_off + BT(PLCA_SIM_IFG_BT);
	return *t_start <= sim->run_limit &&
	       horizon >= *t_start + bus_frame_wire_ns(n->queue[n->q_head].payload);
}

/* No lazy pending_timer carried from the TO before (round_to()). */
#define ROUND_NO_NODE UINT32_MAX

/*
 * The lazy pending_timer of the previous TO's owner @node: its place on the lazy list
 * (pending_timer()), taken now, when the round ends without the TO decision that would settle it.
 */
static inline void round_lazy_put(struct plca_sim *sim, u32 node)
{
	sim->nodes[node].pend_lazy = true;
	sim->lazy_pend[sim->nr_lazy_pend++] = node;
}

/*
 * fast_to() of bus_fast.c without a trace, in one function: see the comment at the top.  The
 * owners of the TO that ends are released (committed, in_burst) by the caller.  *@lazy carries a
 * node whose lazy pending_timer was armed in the TO before and that was not on the lazy list:
 * the pending_timer runs out before this TO's decision (it lasts 544 BT, a frame at least 584
 * BT), so instead of going onto the list and off it at once the node turns PENDING here, where
 * lazy_pend_settle() would take it (it would be the last on the list).  This TO's A goes into
 * *@lazy in turn.
 */
static inline void round_to(struct plca_sim *sim, u32 a, u32 b, u64 crs_off, u64 t_start,
			    u32 *lazy)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *o = &sim->nodes[a], *n = &sim->nodes[b];
	const struct bus_frame *f;
	struct bus_signal *s;
	u64 t0 = sim->now, t_a, seq, gone = sim->max_prop + sim->crs_delay + BT(PLCA_SIM_IFG_BT);
	u32 id, r;
	bool retry;

	/*
	 * t0: A's frame ends (sig_end(), bus_on_tx_end()).  nr_active stays 1: A's frame goes
	 * off the wire as B's COMMIT comes on.
	 */
	s = &sim->sig[o->sig];
	s->end = t0;
	s->active = false;
	s->gone_at = t0 + gone;
	o->sig = -1;
	o->col_at = BUS_NEVER;
	sim->slot_seq[a << BUS_SLOT_SHIFT | EV_COL] = BUS_SEQ_NONE;
	sim->slot_seq[a << BUS_SLOT_SHIFT | EV_TX_END] = BUS_SEQ_NONE;
	o->own_tx_end = t0;
	/* mac_fast_frame_done(): delivered, TRANSMIT -> IDLE, the queue's head leaves, refill */
	f = &o->queue[o->q_head];
	o->st.delivered++;
	o->st.payload_bytes += f->payload;
	o->st.frame_bytes += bus_payload_bytes(f->payload) + PLCA_SIM_FRAME_OVERHEAD;
	kfsim_hist_add(&o->lat, t0 - f->arrival);
	o->access_sum += (double)(o->tx_start_wire - f->arrival);
	o->st.access_max_ns = max(o->st.access_max_ns, o->tx_start_wire - f->arrival);
	o->ds = DS_IDLE;
	sim->nr_ds_busy--;
	sim->nr_queued--;
	if (++o->q_head == o->q_cap)
		o->q_head = 0;
	o->q_len--;
	o->attempts = 0;
	if (o->cfg.load == PLCA_SIM_LOAD_SATURATED) {
		u32 span = o->cfg.payload_max - o->cfg.payload_min;
		u32 payload = o->cfg.payload_min + (span ? kfsim_prandom_below(&sim->rnd, span + 1) : 0);

		o->st.generated++;
		if (o->q_len == o->q_cap) {
			o->st.dropped_queue++;
		} else {
			u32 tail = o->q_head + o->q_len;

			if (tail >= o->q_cap)
				tail -= o->q_cap;
			o->queue[tail] = (struct bus_frame){t0, payload};
			o->q_len++;
			sim->nr_queued++;
		}
	}
	retry = o->q_len != 0;
	o->mac = MAC_IDLE;
	if (retry) {
		/* DEFER, and its IFG from its own frame's end, whose timer only takes its number */
		o->ifg_rs = true;
		o->ifg_opens = sim->opens[1];
		kfsim_evq_take_seq(&sim->events);
	}
	/* seg_fast_commit_next(): A lets go (set_committed()), the next TO begins */
	sim->nr_committed -= o->committed;
	o->committed = false;
	o->in_burst = false;
	id = ++seg->cur_id;
	seg->to_start = t0;
	bus_tos_begun(sim, id, id + 1, 1);
	if (sim->nr_lazy_pend)
		round_settle(sim);
	if (*lazy != ROUND_NO_NODE) {
		struct bus_node *p = &sim->nodes[*lazy];

		if (p->rs_due <= t0) {
			p->ds = DS_PENDING;
			round_pending(sim, p, true);
		} else {
			round_lazy_put(sim, *lazy);
		}
		*lazy = ROUND_NO_NODE;
	}
	/* take_to(), and PENDING -> WAIT_MAC (set_ds()) */
	seg->owner = (int)b;
	sim->nr_committed++;
	n->committed = true;
	n->bc = 0;
	n->in_burst = false;
	n->st.tos_used++;
	n->ds = DS_WAIT_MAC;
	round_pending(sim, n, false);
	n->rs_due = t0 + BT(PLCA_SIM_COMMIT_BT);
	n->rs_carrier_off = t0;
	sim->has_held = false;
	/* the commit_timer and B's IFG (fast_ifg()): only their numbers */
	sim->events.seq += 2;
	if (crs_off > t0 && !n->deferred_this_attempt) {
		n->deferred_this_attempt = true;
		n->st.deferrals++;
	}
	sim->carrier_unseen = false;
	n->ifg_rs = true;
	n->ifg_opens = sim->opens[1];
	sim->nr_events += 2 + retry; /* the TO decision, the two IFGs' ends */
	sim->fast_tos++;
	sim->fast_round_tos++;
	if (retry) {
		/*
		 * A's IFG ends: it sends into B's COMMIT (start_tx(), rs_collide()), a logical
		 * collision: DELAY_PENDING with a lazy pending_timer from the jam's end, attempt
		 * 1, whose backoff (r slot times, r < 2) ends within that timer: the MAC defers
		 * to the RS (mac_collision()).
		 */
		t_a = t0 + BT(PLCA_SIM_IFG_BT);
		o->ifg_from = 0;
		o->ifg_clear = false;
		o->mac_tx_start = t_a;
		o->waiting = false;
		o->ds = DS_DELAY_PENDING;
		sim->nr_ds_busy++;
		o->st.logical_collisions++;
		o->rs_due = t_a + BT(PLCA_SIM_JAM_BT + PLCA_SIM_PENDING_BT);
		seq = kfsim_evq_take_seq(&sim->events);
		o->pend_tie = seq << BUS_SLOT_BITS | (a << BUS_SLOT_SHIFT | EV_RS);
		sim->slot_seq[a << BUS_SLOT_SHIFT | EV_RS] = seq;
		if (!o->pend_lazy)
			*lazy = a;
		o->st.collisions++;
		o->attempts = 1;
		/*
		 * kfsim_prandom_below(rnd, 2) is one draw's top bit (Lemire's method rejects
		 * nothing for a power of two): the same draw, the same state, without the call.
		 */
		r = prandom_u32_state(&sim->rnd) >> 31;
		o->backoff_end = t_a + BT(PLCA_SIM_JAM_BT) + r * BT(PLCA_SIM_SLOT_BT);
		o->mac = MAC_DEFER;
		o->deferred_this_attempt = true;
		o->st.deferrals++;
		sim->slot_seq[a << BUS_SLOT_SHIFT | EV_MAC] = BUS_SEQ_NONE;
	}
	/* B's IFG ends: its frame replaces the COMMIT (rs_fast_frame_start()) */
	sim->now = t_start;
	n->ifg_from = 0;
	n->ifg_clear = false;
	n->mac = MAC_TX;
	n->mac_tx_start = t_start;
	n->waiting = false;
	n->ds = DS_TRANSMIT;
	n->tx_start_wire = t_start;
	sim->slot_seq[b << BUS_SLOT_SHIFT | EV_MAC] = BUS_SEQ_NONE;
	sim->slot_seq[b << BUS_SLOT_SHIFT | EV_RS] = BUS_SEQ_NONE;
	sim->slot_seq[b << BUS_SLOT_SHIFT | EV_COL] = BUS_SEQ_NONE;
	n->col_at = BUS_NEVER;
	/*
	 * The ring: the COMMIT from t0 to now, the frame from now.  Nothing reads the ring in
	 * between, so the COMMIT goes on it once, ended, and the signals that the bit-level path
	 * prunes at t0 are pruned now with those it prunes now: a signal gone before t0 is gone
	 * before now, so one prune leaves the tail where the two leave it.
	 */
	sig_prune(sim);
	BUG_ON(sim->sig_head - sim->sig_tail >= BUS_SIG_RING - 1);
	*sig_at(sim, sim->sig_head) = (struct bus_signal){
		.node = b,
		.kind = SIG_COMMIT,
		.pos_ns = n->pos_ns,
		.start = t0,
		.end = t_start,
		.gone_at = t_start + gone};
	sim->sig_head++;
	sim->opens[0]++;
	sig_push(sim, b, SIG_DATA, t_start + bus_frame_wire_ns(n->queue[n->q_head].payload));
	sim->slot_seq[b << BUS_SLOT_SHIFT | EV_TX_END] = kfsim_evq_take_seq(&sim->events);
}

/*
 * bus_fast_tx_end() without a trace, from its first fast_to_ok(): @node's frame ends now, the
 * TO to @next (its carrier off at @crs_off, its frame at @t_start) follows in one step.  Run
 * TOs while each frame's end is the next event, then queue the end of the last frame started,
 * or run it bit-level where the TO after it cannot be one step.  Return: true (it always runs
 * at least the first TO).
 */
bool bus_fast_round(struct plca_sim *sim, u32 node, u64 horizon, u32 next, u64 crs_off,
		    u64 t_start)
{
	u32 slot, lazy = ROUND_NO_NODE, id = sim->seg.cur_id;
	u64 t_end;

	/* the owners of the current TO let go (later TOs of the round have one, its A) */
	for (u32 k = sim->owner_first[id]; k < sim->owner_first[id + 1]; k++) {
		struct bus_node *x = &sim->nodes[sim->owners[k]];

		sim->nr_committed -= x->committed;
		x->committed = false;
		x->in_burst = false;
	}
	for (;;) {
		round_to(sim, node, next, crs_off, t_start, &lazy);
		node = next;
		slot = node << BUS_SLOT_SHIFT | EV_TX_END;
		t_end = sim->sig[sim->nodes[node].sig].end;
		if (t_end > sim->run_limit || horizon <= t_end)
			break;
		/* the frame's end is the next event: run it here instead of through the heap */
		sim->now = t_end;
		sim->nr_events++;
		if (!round_next(sim, node, horizon, &next, &crs_off, &t_start)) {
			if (lazy != ROUND_NO_NODE)
				round_lazy_put(sim, lazy);
			bus_tx_end_bit_level(sim, node);
			return true;
		}
	}
	if (lazy != ROUND_NO_NODE)
		round_lazy_put(sim, lazy);
	bus_queue_push(sim, t_end, BUS_PRIO_NODE, slot, sim->slot_seq[slot]);
	return true;
}
