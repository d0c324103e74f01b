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
 * frame signals (the COMMIT written once, ended, as nothing reads it in between), the counts
 * (nr_ds_busy, nr_pending, pending_per_id, pending_ids, nr_committed, nr_queued, opens[]) change
 * as set_ds(), take_to() and the queue would change them.  A's lazy pending_timer is carried to
 * the next TO's decision, where it has always run out, instead of going through the lazy list.
 *
 * The TO after the cycle's last one, which bus_fast.c leaves to the bit-level path, is a step of
 * the round too (round_beacon_to()): the frame's end, the coordinator's BEACON, TO 0 at its end,
 * the decision (the coordinator commits), A's retry into that COMMIT, the coordinator's frame.
 * Its two carrier checks are the real ones (bus_carrier()); when the coordinator's frame cannot
 * follow within the run and before the next queued event, the step stops at the decision with
 * the two IFG timers queued and the commit_timer held, as the bit-level path leaves them.
 *
 * With a trace bus_fast_tx_end() keeps to the per-TO helpers of bus_fast.c, which write the
 * trace's slices, and the BEACON's TO stays bit-level.
 *
 * tests/plcasim/test_sim_fastpath.c compares it with the bit-level path (and counts its TOs,
 * BEACON TOs and stops, sim->fast_round_*, so the comparison cannot pass by never taking them).
 */
#include <kfsim/bug.h>
#include <kfsim/kernel.h>
#include <kfsim/random.h>
#include "bus_internal.h"

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
	if (!bus_next_owner_waits(sim, n, *next, t0))
		return false;
	*crs_off = t0 + bus_dist(n->pos_ns, o->pos_ns) + sim->crs_delay;
	*t_start = *crs_off + BT(PLCA_SIM_IFG_BT);
	return *t_start <= sim->run_limit &&
	       horizon >= *t_start + bus_frame_wire_ns(n->queue[n->q_head].payload);
}

/* No lazy pending_timer carried from the TO before (round_to()). */
#define ROUND_NO_NODE UINT32_MAX

/*
 * The lazy pending_timer of the previous TO's owner @node: its place on the lazy list
 * (pending_timer()), taken now, where round_to() does not settle it: the round ends, or the
 * BEACON's TO settles the list itself at its decision.  Nothing went onto the list in between,
 * so its place is the one pending_timer() gave it.
 */
static inline void round_lazy_put(struct plca_sim *sim, u32 node)
{
	sim->nodes[node].pend_lazy = true;
	sim->lazy_pend[sim->nr_lazy_pend++] = node;
}

/*
 * A's frame ends now (sig_end(), bus_on_tx_end()) and mac_fast_frame_done() follows: delivered,
 * TRANSMIT -> IDLE, the queue's head leaves, the refill (and its payload draw).  nr_active is the
 * caller's.  Return: whether A has another frame: its IFG then counts from now, and the IFG's
 * timer only takes its sequence number (the caller runs its end).  Unlike mac_fast_frame_done()
 * it leaves the MAC IDLE, not DEFER with its backoff and deferral reset: round_retry() sets all
 * three at A's IFG end, before anything reads them, and the round saves the stores.  Inlined into
 * both steps by force: gcc 12 calls it once it has two callers (callgrind: 540 against 559
 * instructions per frame, 32 saturated 64-byte nodes).
 */
static __always_inline bool round_frame_done(struct plca_sim *sim, u32 a)
{
	struct bus_node *o = &sim->nodes[a];

	sig_end(sim, a);
	o->own_tx_end = sim->now;
	/* set_ds(DS_IDLE) from TRANSMIT: neither HOLD nor pending, only nr_ds_busy changes */
	o->ds = DS_IDLE;
	sim->nr_ds_busy--;
	if (!bus_frame_delivered(sim, o))
		return false;
	o->ifg_rs = true;
	o->ifg_opens = sim->opens[1];
	kfsim_evq_take_seq(&sim->events);
	return true;
}

/*
 * A's IFG ends at @t_a: it sends into the next owner's COMMIT (start_tx(), rs_collide()), a
 * logical collision: DELAY_PENDING with a lazy pending_timer from the jam's end, attempt 1, whose
 * backoff (r slot times, r < 2) ends within that timer: the MAC defers to the RS
 * (mac_collision()).  A goes into *@lazy unless it is on the lazy list already.
 */
static inline void round_retry(struct plca_sim *sim, u32 a, u64 t_a, u32 *lazy)
{
	struct bus_node *o = &sim->nodes[a];
	u64 seq;
	u32 r;

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
	 * kfsim_prandom_below(rnd, 2) is one draw's top bit (Lemire's method rejects nothing for a
	 * power of two): the same draw, the same state, without the call.
	 */
	r = prandom_u32_state(&sim->rnd) >> 31;
	o->backoff_end = t_a + BT(PLCA_SIM_JAM_BT) + r * BT(PLCA_SIM_SLOT_BT);
	o->mac = MAC_DEFER;
	o->deferred_this_attempt = true;
	o->st.deferrals++;
	sim->slot_seq[a << BUS_SLOT_SHIFT | EV_MAC] = BUS_SEQ_NONE;
}

/*
 * The TO decision at now (after the lazy pending_timers are settled): the next owner B, the
 * id's only owner, PENDING, commits (take_to(), PENDING -> WAIT_MAC); its COMMIT is the caller's.
 */
static inline void round_commit(struct plca_sim *sim, u32 b)
{
	struct bus_node *n = &sim->nodes[b];

	sim->seg.owner = (int)b;
	sim->nr_committed++;
	n->committed = true;
	n->bc = 0;
	n->in_burst = false;
	n->st.tos_used++;
	n->ds = DS_WAIT_MAC;
	bus_pending_count(sim, n, false);
	n->rs_due = sim->now + BT(PLCA_SIM_COMMIT_BT);
	n->rs_carrier_off = sim->now;
}

/* B's IFG ends now: its MAC sends and its frame follows its COMMIT (rs_fast_frame_start()). */
static inline void round_frame_start(struct plca_sim *sim, u32 b)
{
	struct bus_node *n = &sim->nodes[b];
	u64 t = sim->now;

	n->ifg_from = 0;
	n->ifg_clear = false;
	n->mac = MAC_TX;
	n->mac_tx_start = t;
	n->waiting = false;
	n->ds = DS_TRANSMIT;
	n->tx_start_wire = t;
	sim->slot_seq[b << BUS_SLOT_SHIFT | EV_MAC] = BUS_SEQ_NONE;
	sim->slot_seq[b << BUS_SLOT_SHIFT | EV_RS] = BUS_SEQ_NONE;
	sim->slot_seq[b << BUS_SLOT_SHIFT | EV_COL] = BUS_SEQ_NONE;
	n->col_at = BUS_NEVER;
}

/* B's frame goes on the ring (sig_push(), its end's sequence number), the ring pruned first. */
static inline void round_frame_open(struct plca_sim *sim, u32 b)
{
	struct bus_node *n = &sim->nodes[b];

	sig_push(sim, b, SIG_DATA, sim->now + bus_frame_wire_ns(n->queue[n->q_head].payload));
	sim->slot_seq[b << BUS_SLOT_SHIFT | EV_TX_END] = kfsim_evq_take_seq(&sim->events);
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
	u64 t0 = sim->now;
	bool retry;
	u32 id;

	/* t0: A's frame ends; nr_active stays 1, B's COMMIT comes on as A's frame goes off */
	retry = round_frame_done(sim, a);
	/* seg_fast_commit_next(): A lets go (set_committed()), the next TO begins */
	sim->nr_committed -= o->committed;
	o->committed = false;
	o->in_burst = false;
	id = ++seg->cur_id;
	seg->to_start = t0;
	bus_tos_begun(sim, id, id + 1, 1);
	if (sim->nr_lazy_pend)
		bus_lazy_pend_settle(sim, false);
	if (*lazy != ROUND_NO_NODE) {
		struct bus_node *p = &sim->nodes[*lazy];

		if (p->rs_due <= t0) {
			p->ds = DS_PENDING;
			bus_pending_count(sim, p, true);
		} else {
			round_lazy_put(sim, *lazy);
		}
		*lazy = ROUND_NO_NODE;
	}
	round_commit(sim, b);
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
	if (retry)
		round_retry(sim, a, t0 + BT(PLCA_SIM_IFG_BT), lazy);
	sim->now = t_start;
	round_frame_start(sim, b);
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
		.gone_at = t_start + sim->max_prop + sim->crs_delay + BT(PLCA_SIM_IFG_BT)};
	sim->sig_head++;
	sim->opens[0]++;
	round_frame_open(sim, b);
}

/* A new signal of @node on the ring now, overlapping nothing: bus_fast_signal_open() inline. */
static inline void round_open(struct plca_sim *sim, u32 node, u8 kind, u64 end)
{
	sig_prune(sim);
	BUG_ON(sim->sig_head - sim->sig_tail >= BUS_SIG_RING);
	sig_push(sim, node, kind, end);
}

/*
 * The TO after the cycle's last one, its BEACON between them: @node, the owner of the last id,
 * ends its frame now, the coordinator C sends the BEACON, the cycle's TO 0 begins at its end and
 * C, its only owner, commits; @node retries into that COMMIT 96 BT after its frame (before C's
 * IFG ends: C's carrier dropped 20 BT later at least) and C's frame follows its IFG.  What the
 * bit-level path does in between is known when (round_beacon_next()): nobody runs an own clock,
 * stops on a foreign BEACON or still has to synchronise (rs_tx_end() and oc_beacon_heard() do
 * nothing but count); the idle skip at the carrier drop finds a node pending (C, or a lazy
 * pending_timer) and returns at once; no signal is still on its way to C when its BEACON and
 * its COMMIT start (max_prop < 20 BT: the frame that ended has passed it by the BEACON's end,
 * every older signal ended a frame earlier), so check_overlaps() arms nothing; and the carrier
 * checks of the two MACs are the real ones (bus_carrier()), at the same instants.
 */
static bool round_beacon_next(struct plca_sim *sim, u32 node, u64 horizon, u32 lazy, u32 *next)
{
	const struct bus_seg *seg = &sim->seg;
	const struct bus_node *o = &sim->nodes[node], *c;
	u64 t0 = sim->now, t_b = t0 + BT(PLCA_SIM_BEACON_BT), off;
	u32 coord;

	if (o->cfg.plca.burst_cnt || o->cfg.ignores_collisions ||
	    seg->cur_id + 1 != seg->node_cnt || seg->coord < 0 || sim->any_stopper ||
	    sim->nr_unsynced || sim->max_prop >= BT(PLCA_SIM_BEACON_BT))
		return false;
	coord = (u32)seg->coord;
	if (coord == node || sim->owner_first[1] != sim->owner_first[0] + 1 ||
	    sim->owners[sim->owner_first[0]] != coord)
		return false;
	c = &sim->nodes[coord];
	if (!rs_active(c) || c->sig >= 0 || c->mac != MAC_DEFER || c->waiting || c->ifg_from ||
	    c->committed || c->backoff_end > t_b || c->cfg.ignores_collisions ||
	    c->own_tx_end > t_b || sim->slot_seq[coord << BUS_SLOT_SHIFT | EV_MAC] != BUS_SEQ_NONE)
		return false;
	/* C PENDING by the decision at the BEACON's end: now, or from a lazy pending_timer */
	if (c->ds != DS_PENDING &&
	    (c->ds != DS_DELAY_PENDING || !(c->pend_lazy || lazy == coord) || c->rs_due > t_b ||
	     sim->slot_seq[coord << BUS_SLOT_SHIFT | EV_RS] != c->pend_tie >> BUS_SLOT_BITS))
		return false;
	/* the events up to the decision come before any queued one, within the run */
	if (t_b > sim->run_limit || horizon <= t_b)
		return false;
	/*
	 * The carrier check of @node's MAC after its frame (mac_try()), asked now as it would be
	 * (its own frame does not count, so whether it has ended yet does not matter): nothing in
	 * view, the carrier off by now, nothing unseen, so its IFG runs from now and its end will
	 * find it still clear (bus_ifg_still_clear()).
	 */
	if (bus_carrier(sim, node, true, BUS_NEVER, &off) || sim->carrier_unseen ||
	    max(off, o->rs_carrier_off) > t0)
		return false;
	*next = coord;
	return true;
}

/*
 * Bring the run to where the bit-level path is after the TO decision at the BEACON's end, and
 * stop there: @node's IFG end (when it retries) and C's queued, the commit_timer held (the
 * nodes' state is already the bit-level one).
 */
static void round_beacon_park(struct plca_sim *sim, u32 node, u32 coord, bool retry,
			      u64 seq_ifg_a, u64 seq_held, u64 seq_ifg_c)
{
	struct bus_node *o = &sim->nodes[node], *c = &sim->nodes[coord];
	u64 t_b = sim->now;

	if (retry) {
		/* A's IFG timer (wait_ifg()), armed at its frame's end */
		sim->now = o->own_tx_end;
		bus_queue_push(sim, o->own_tx_end + BT(PLCA_SIM_IFG_BT), BUS_PRIO_NODE,
			       node << BUS_SLOT_SHIFT | EV_MAC, seq_ifg_a);
		sim->slot_seq[node << BUS_SLOT_SHIFT | EV_MAC] = seq_ifg_a;
		sim->now = t_b;
	}
	sim->held = kfsim_event_make(c->rs_due, BUS_PRIO_NODE, seq_held,
				     coord << BUS_SLOT_SHIFT | EV_RS);
	sim->has_held = true;
	sim->slot_seq[coord << BUS_SLOT_SHIFT | EV_RS] = seq_held;
	bus_queue_push(sim, c->ifg_from + BT(PLCA_SIM_IFG_BT), BUS_PRIO_NODE,
		       coord << BUS_SLOT_SHIFT | EV_MAC, seq_ifg_c);
	sim->slot_seq[coord << BUS_SLOT_SHIFT | EV_MAC] = seq_ifg_c;
}

/*
 * The BEACON's TO after @node's frame (round_beacon_next() said so), in the bit-level order:
 * the frame's end, the BEACON, its end (TO 0 begins), the decision (C commits, its MAC asks the
 * wire), @node's retry, C's frame.  Return: false when it stopped at the decision
 * (round_beacon_park()): C's frame would start beyond the run, after a queued event or after its
 * commit_timer, or C's IFG could not be trusted to its end.
 */
static bool round_beacon_to(struct plca_sim *sim, u32 node, u32 coord, u64 horizon, u32 *lazy)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *o = &sim->nodes[node], *c = &sim->nodes[coord];
	u64 t0 = sim->now, t_b = t0 + BT(PLCA_SIM_BEACON_BT), seq_a = 0, seq_held, seq_c, off;
	bool retry, busy;

	/* the previous owner's lazy pending_timer is on the list, as in the bit-level path */
	if (*lazy != ROUND_NO_NODE) {
		round_lazy_put(sim, *lazy);
		*lazy = ROUND_NO_NODE;
	}
	/* t0: the frame ends (tx_end(), mac_tx_done(), its MAC's IFG: wait_ifg()) */
	seq_a = sim->events.seq;
	retry = round_frame_done(sim, node);
	if (retry) {
		o->mac = MAC_DEFER;
		o->backoff_end = 0;
		o->deferred_this_attempt = false;
		o->ifg_from = t0;
		o->ifg_clear = true;
	}
	/* the carrier drops: next_to(), cycle_end(), send_beacon() */
	sim->nr_committed -= o->committed;
	o->committed = false;
	o->in_burst = false;
	seg->owner = -1;
	seg->cur_id++;
	seg_count_beacons(sim, c, 1);
	seg->state = SEG_BEACON;
	seg->cycle_start = t0;
	round_open(sim, coord, SIG_BEACON, t_b); /* nr_active: A's frame went off, the BEACON on */
	sim->slot_seq[coord << BUS_SLOT_SHIFT | EV_TX_END] = kfsim_evq_take_seq(&sim->events);
	/* t_b: the BEACON ends (rs_tx_end(), seg_crs_drop(): TO 0 begins), then the decision */
	sim->now = t_b;
	sig_end(sim, coord);
	c->oc_beaconing = false;
	seg->last_beacon = t_b;
	sim->beacons_lazy++;
	seg->cur_id = 0;
	seg->to_start = t_b;
	bus_tos_begun(sim, 0, 1, 1);
	if (sim->nr_lazy_pend)
		bus_lazy_pend_settle(sim, false);
	seg->state = SEG_COMMIT;
	seg->eval_pending = false;
	round_commit(sim, coord);
	round_open(sim, coord, SIG_COMMIT, BUS_NEVER);
	seq_held = kfsim_evq_take_seq(&sim->events);
	/* C's MAC asks the wire (rs_release_carrier(), mac_try()) */
	busy = bus_carrier(sim, coord, true, BUS_NEVER, &off);
	BUG_ON(off == BUS_NEVER); /* no data signal is on the wire: none can keep it on */
	if (busy) {
		if (!c->deferred_this_attempt) {
			c->deferred_this_attempt = true;
			c->st.deferrals++;
		}
	} else {
		u64 released = max(t_b, c->own_tx_end); /* the RS's release, its own frame */

		off = max(off, released);
	}
	c->ifg_from = off;
	c->ifg_clear = !sim->carrier_unseen;
	c->ifg_rs = true;
	c->ifg_opens = sim->opens[1];
	seq_c = kfsim_evq_take_seq(&sim->events);
	sim->nr_events += 2; /* the BEACON's end, the decision */
	if (!c->ifg_clear || off + BT(PLCA_SIM_IFG_BT) >= c->rs_due ||
	    off + BT(PLCA_SIM_IFG_BT) > sim->run_limit ||
	    horizon < off + BT(PLCA_SIM_IFG_BT) + bus_frame_wire_ns(c->queue[c->q_head].payload)) {
		round_beacon_park(sim, node, coord, retry, seq_a, seq_held, seq_c);
		sim->fast_round_parks++;
		return false;
	}
	sim->fast_tos++;
	sim->fast_round_tos++;
	sim->fast_round_beacons++;
	/* t0 + 96 BT: the retry into C's COMMIT; then C's IFG ends, its frame replaces the COMMIT */
	sim->nr_events += 1 + retry;
	if (retry)
		round_retry(sim, node, t0 + BT(PLCA_SIM_IFG_BT), lazy);
	sim->now = off + BT(PLCA_SIM_IFG_BT);
	round_frame_start(sim, coord);
	sim->has_held = false;
	sig_end(sim, coord);
	sig_prune(sim);
	BUG_ON(sim->sig_head - sim->sig_tail >= BUS_SIG_RING);
	round_frame_open(sim, coord);
	return true;
}

/*
 * bus_fast_tx_end() without a trace, from its first fast_to_ok(): @node's frame ends now, the
 * TO to @next (its carrier off at @crs_off, its frame at @t_start) follows in one step.  Run
 * TOs while each frame's end is the next event (the BEACON's TO too), then queue the end of the
 * last frame started, or run it bit-level where the TO after it cannot be one step.  Return:
 * true (it always runs at least the first TO).
 */
bool bus_fast_round(struct plca_sim *sim, u32 node, u64 horizon, u32 next, u64 crs_off,
		    u64 t_start)
{
	u32 lazy = ROUND_NO_NODE, id = sim->seg.cur_id;
	bool beacon = false;

	/* the owners of the current TO let go (later TOs of the round have one, its A) */
	for (u32 k = sim->owner_first[id]; k < sim->owner_first[id + 1]; k++) {
		struct bus_node *x = &sim->nodes[sim->owners[k]];

		sim->nr_committed -= x->committed;
		x->committed = false;
		x->in_burst = false;
	}
	for (;;) {
		if (!beacon)
			round_to(sim, node, next, crs_off, t_start, &lazy);
		else if (!round_beacon_to(sim, node, next, horizon, &lazy))
			return true; /* stopped at the decision, the rest queued */
		node = next;
		/* the frame's end is the next event: run it here instead of through the heap */
		if (!bus_fast_next_end(sim, node, horizon))
			break;
		beacon = !round_next(sim, node, horizon, &next, &crs_off, &t_start);
		if (beacon && !round_beacon_next(sim, node, horizon, lazy, &next)) {
			if (lazy != ROUND_NO_NODE)
				round_lazy_put(sim, lazy);
			bus_tx_end_bit_level(sim, node);
			return true;
		}
	}
	/* the last frame's end is queued (bus_fast_next_end()); the lazy list is apart from it */
	if (lazy != ROUND_NO_NODE)
		round_lazy_put(sim, lazy);
	return true;
}
