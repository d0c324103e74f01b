// SPDX-License-Identifier: MIT
/*
 * The Clause 148 PLCA Reconciliation Sublayer: the cycle (148.4.4.6 control state machine, run
 * once for the segment on the coordinator's clock) and each node's data state machine
 * (148.4.5.7).
 *
 *   BEACON(20) | TO 0 | TO 1 ............. | TO N-1 | BEACON | ...
 *               yield  COMMIT + frame (+ burst)  yield
 *
 * An unused TO lasts to_timer; a used one lasts until the carrier drops after the owner's
 * frame(s).  A MAC that starts a frame outside its TO is HELD (the frame waits in the delay line,
 * the MAC is shown carrier); if anything is received meanwhile it gets a logical COLLISION, backs
 * off, and the RS remembers a PENDING frame, which it announces with COMMIT at the next TO
 * (WAIT_MAC, up to commit_timer 288 BT for the MAC to retry).
 *
 * Invariants: nr_pending counts nodes in HOLD or PENDING (a node whose lazy pending_timer has
 * run out stays DELAY_PENDING until the next TO decision, the first to look); seg.owner is the node committed in the
 * current TO (SEG_COMMIT) or -1; an idle run (several silent TOs) is one timer, and anything
 * that could end it early (a node becomes pending, a signal starts) first "materialises" the TO
 * that is current at that instant, so the outcome is the same as running every TO.
 * A node whose plca_status is FAIL (no BEACON for plca_status_timer, or not yet synchronised)
 * runs its MAC as plain CSMA/CD: that is this model's reading of a PLCA RS without status.
 */
#include <string.h>

#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include "bus_internal.h"

static bool rs_pending(const struct bus_node *n)
{
	return n->ds == DS_HOLD || n->ds == DS_PENDING;
}

/*
 * Arm the cycle's one timer.  The TO decision (SEGT_TO_EVAL) is not queued: it is due "after
 * every other event of this instant", which the event loop checks after each event
 * (seg_eval_due()), saving a heap round trip per transmit opportunity.
 * An armed SEGT_TO_RUN is never withdrawn (seg_cancel() only drops a due decision): when it
 * fires, seg_materialise() brings the cycle up to that instant.  That is not free of effect:
 * an idle run's TOs are counted for the owners that are active when the run is materialised,
 * so withdrawing stale run timers would change the TO counts of runs whose PLCA settings or
 * links change in the middle of an idle run (see docs/plca-bus.md, "Speed").
 */
static void lazy_pend_settle(struct plca_sim *sim, bool queue);

static void seg_timer(struct plca_sim *sim, u64 t, u32 what)
{
	sim->seg.eval_pending = what == SEGT_TO_EVAL;
	if (what == SEGT_TO_EVAL)
		return;
	bus_schedule_slot(sim, t, BUS_PRIO_CYCLE, 0, EV_SEG, what);
	if (sim->nr_lazy_pend) /* an idle run: pending_timers must run on time now */
		lazy_pend_settle(sim, true);
}

static void seg_cancel(struct plca_sim *sim)
{
	sim->seg.eval_pending = false;
}

static void rs_timer(struct plca_sim *sim, u32 node, u64 bt)
{
	sim->nodes[node].rs_due = sim->now + BT(bt);
	bus_timer(sim, node, EV_RS, sim->now + BT(bt));
}

static void trace_to(struct plca_sim *sim, u32 id, u64 start, u64 end)
{
	char name[24];

	if (!sim->trace)
		return;
	snprintf(name, sizeof(name), "TO %u", id);
	bus_trace_x(sim, 0, name, "to", start, end, NULL);
}

static void seg_stop(struct plca_sim *sim);

/* ---- data state machine (148.4.5.7) ------------------------------------------------------- */

static inline void set_ds(struct plca_sim *sim, struct bus_node *n, enum rs_data_state ds)
{
	bool was = rs_pending(n);

	if ((ds == DS_HOLD) != (n->ds == DS_HOLD)) {
		u32 i = (u32)(n - sim->nodes);

		sim->nr_hold += ds == DS_HOLD ? 1 : -1;
		sim->hold_bits[i / 64] ^= 1ull << (i % 64);
	}
	sim->nr_ds_busy += (ds != DS_IDLE) - (n->ds != DS_IDLE);
	n->ds = ds;
	if (was != rs_pending(n))
		bus_pending_count(sim, n, !was);
}

/* The node owns (@on) or no longer owns the current TO; nr_committed follows. */
static inline void set_committed(struct plca_sim *sim, struct bus_node *n, bool on)
{
	sim->nr_committed += on - n->committed;
	n->committed = on;
}

/* The cycle runs silently through TOs: a node turning PENDING must re-aim it at once. */
static bool seg_idle_run(const struct plca_sim *sim)
{
	return sim->seg.state == SEG_WAIT_TO && !sim->seg.eval_pending;
}

/*
 * DELAY_PENDING's pending_timer, @bt from now.  Turning PENDING only matters to the cycle: to
 * the TO decision, which reads the pending ids, and to an idle run, which it re-aims.  Outside an
 * idle run the timer is therefore not queued: it takes its place in the event order (sequence
 * number, slot) now, and lazy_pend_settle() makes the node PENDING at the next TO decision if
 * the timer has run out by then, or queues it for real when an idle run begins.  The MAC sees
 * the RS's carrier in both states, and every re-arming or cancelling of the node's EV_RS slot
 * happens outside DELAY_PENDING (or in rs_detach(), which treats both alike), so no one can
 * tell the difference.  This saves a heap round trip per logical collision, i.e. per frame of a
 * saturated segment.
 */
static void pending_timer(struct plca_sim *sim, u32 node, u64 bt)
{
	struct bus_node *n = &sim->nodes[node];
	u32 slot = node << BUS_SLOT_SHIFT | EV_RS;
	u64 seq;

	/* An own-clock node decides at its own TO, not at the cycle's: it needs the real timer. */
	if (seg_idle_run(sim) || n->oc) {
		rs_timer(sim, node, bt);
		return;
	}
	n->rs_due = sim->now + BT(bt);
	seq = kfsim_evq_take_seq(&sim->events);
	n->pend_tie = seq << BUS_SLOT_BITS | slot;
	sim->slot_seq[slot] = seq;
	if (!n->pend_lazy) {
		n->pend_lazy = true;
		sim->lazy_pend[sim->nr_lazy_pend++] = node;
	}
}

/* Out of line here: the bit-level path settles at most once per TO decision or idle run. */
static void lazy_pend_settle(struct plca_sim *sim, bool queue)
{
	bus_lazy_pend_settle(sim, queue);
}

/*
 * Logical collision: the RS tells the MAC its frame collided and discards the delay line.  COLLIDE
 * lasts while the MAC jams (32 BT, nothing on the wire); DELAY_PENDING's pending_timer starts when
 * the jam ends, so both are entered here with the timer set to the jam's end + 512 BT.  The MAC is
 * shown carrier throughout, as in both states.
 */
static void rs_collide(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	set_ds(sim, n, DS_DELAY_PENDING);
	n->st.logical_collisions++;
	if (sim->trace)
		kfsim_trace_instant(sim->trace, sim->trace_pid, (int)node + 1, "logical collision",
				    "plca", sim->now / 1000.0);
	if (n->cfg.ignores_collisions) {
		/* The faulty MAC neither jams nor retries: its frame is simply gone. */
		pending_timer(sim, node, PLCA_SIM_PENDING_BT);
		mac_frame_lost(sim, node);
		return;
	}
	pending_timer(sim, node, PLCA_SIM_JAM_BT + PLCA_SIM_PENDING_BT);
	n->st.collisions++;
	mac_collision(sim, node, true);
}

static void start_frame(struct plca_sim *sim, u32 node, bool from_commit)
{
	struct bus_node *n = &sim->nodes[node];
	u64 end = sim->now + bus_frame_wire_ns(n->queue[n->q_head].payload);

	set_ds(sim, n, DS_TRANSMIT);
	bus_cancel(sim, node, EV_RS);
	n->tx_start_wire = sim->now;
	if (from_commit)
		bus_signal_rekind(sim, node, SIG_DATA, end);
	else
		bus_signal_start(sim, node, SIG_DATA, end);
}

static void oc_pending(struct plca_sim *sim, u32 node);

/* The MAC asserted TX_EN (its deference is over). */
void rs_mac_tx_start(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	if (n->committed && (n->ds == DS_WAIT_MAC || n->in_burst)) {
		n->in_burst = false; /* start_frame() stops the burst_timer */
		start_frame(sim, node, true);
		return;
	}
	if (bus_receiving(sim, node)) {
		rs_collide(sim, node);
		return;
	}
	set_ds(sim, n, DS_HOLD);
	/*
	 * The hold timer is held, not queued, like the commit_timer: more than half the frames of
	 * a Poisson segment leave HOLD before it runs out (their TO's COMMIT, or a signal that
	 * collides them), and then it never reaches a heap.  A timer held before it goes to its
	 * heap now (bus_timer_held()): the later one is the likelier to be withdrawn unqueued
	 * (queueing the new one instead cost the bench's Poisson segment 14,000 instructions a
	 * simulated second more).
	 */
	n->rs_due = sim->now + BT(PLCA_SIM_HOLD_BT);
	bus_timer_held(sim, node, EV_RS, n->rs_due);
	seg_pending_changed(sim);
	if (n->oc)
		oc_pending(sim, node);
}

void rs_on_timer(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	if (n->in_burst) {
		/* burst_timer ran out: ABORT, the TO ends when the carrier drops */
		n->in_burst = false;
		if (n->sig >= 0)
			bus_signal_finish(sim, node);
		if (!sim->nr_active)
			seg_crs_drop(sim);
		mac_wake_waiters(sim);
		return;
	}
	switch (n->ds) {
	case DS_HOLD: /* delay line full */
		rs_collide(sim, node);
		break;
	case DS_DELAY_PENDING: /* pending_timer */
		set_ds(sim, n, DS_PENDING);
		/* a re-aimed idle run's timer may run at once: nothing follows but an own clock's */
		sim->at_event_tail = !n->oc;
		seg_pending_changed(sim);
		sim->at_event_tail = false;
		if (n->oc)
			oc_pending(sim, node);
		break;
	case DS_WAIT_MAC: /* commit_timer: the MAC did not come back in time */
		set_ds(sim, n, DS_IDLE);
		if (n->sig >= 0)
			bus_signal_finish(sim, node);
		if (!sim->nr_active)
			seg_crs_drop(sim);
		mac_wake_waiters(sim);
		break;
	default:
		break;
	}
}

/* The owner's frame left the wire: burst on, or end the TO. */
void rs_data_end(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	if (!rs_active(n))
		return;
	set_ds(sim, n, DS_IDLE);
	if (!n->committed)
		return;
	if (n->bc < (u32)n->cfg.plca.burst_cnt && n->sig < 0) {
		n->bc++;
		n->in_burst = true;
		bus_signal_start(sim, node, SIG_COMMIT, BUS_NEVER);
		/* burst_timer is a cycle timer: it runs before the nodes' events of its instant */
		bus_schedule(sim, sim->now + BT(n->cfg.plca.burst_tmr), BUS_PRIO_CYCLE, node, EV_RS, 0);
	}
}

/* The RS stops forcing CRS on: it notes when (rs_carrier_released()) and tells its MAC. */
static void rs_release_carrier(struct plca_sim *sim, u32 node)
{
	sim->nodes[node].rs_carrier_off = sim->now;
	mac_carrier_dropped(sim, node);
}

/* The node leaves PLCA operation (settings changed, reset, link down, plca_status FAIL). */
void rs_detach(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	struct bus_seg *seg = &sim->seg;
	enum rs_data_state ds = n->ds;

	bus_lazy_flush(sim); /* it may stop counting TOs and BEACONs */
	if (n->committed) {
		set_committed(sim, n, false);
		if (n->sig >= 0 && sim->sig[n->sig].kind == SIG_COMMIT) {
			bus_signal_finish(sim, node);
			if (!sim->nr_active)
				seg_crs_drop(sim);
		}
	}
	if ((int)node == seg->coord) {
		seg_stop(sim);
		seg->coord = -2; /* restart the cycle at the next reconfiguration */
	}
	bus_cancel(sim, node, EV_RS);
	set_ds(sim, n, DS_IDLE);
	n->in_burst = false;
	n->synced = false;
	seg_count_unsynced(sim);
	n->oc_frozen = false;
	n->oc_gen++;
	if (ds == DS_HOLD && n->mac == MAC_TX && !n->cfg.ignores_collisions) {
		n->st.collisions++;
		n->st.logical_collisions++;
		mac_collision(sim, node, true);
	} else if (ds == DS_HOLD && n->mac == MAC_TX) {
		mac_frame_lost(sim, node);
	} else if (ds == DS_PENDING || ds == DS_DELAY_PENDING || ds == DS_WAIT_MAC) {
		rs_release_carrier(sim, node); /* waits out the backoff if it is still running */
	}
}

/*
 * The first node from @from on that is in HOLD now (hold_bits), or nr_nodes: a walk in index
 * order that sees each change the collisions before it made, as a loop over every node would.
 */
static u32 next_held(const struct plca_sim *sim, u32 from)
{
	for (u32 w = from / 64; w * 64 < sim->nr_nodes; w++) {
		u64 bits = sim->hold_bits[w];

		if (w == from / 64)
			bits &= ~0ull << (from % 64);
		if (bits)
			return w * 64 + (u32)__builtin_ctzll(bits);
	}
	return sim->nr_nodes;
}

/* Any signal starts on the wire: HELD frames collide, a running TO becomes a reception. */
static void seg_materialise(struct plca_sim *sim);
static void oc_carrier_up(struct plca_sim *sim, u32 sender);

void rs_signal_started(struct plca_sim *sim, u32 node, u8 kind)
{
	struct bus_seg *seg = &sim->seg;
	/*
	 * An own clock committing in the very instant a TO of the cycle begins: nobody can have
	 * sensed it before deciding, so that TO's owners commit too (and collide on the wire).
	 */
	bool same_instant = sim->nr_oc && seg->state == SEG_WAIT_TO && seg->eval_pending &&
			    sim->nodes[node].oc;

	if (sim->nr_oc)
		oc_carrier_up(sim, node);
	if (sim->nr_hold) {
		for (u32 i = next_held(sim, 0); i < sim->nr_nodes; i = next_held(sim, i + 1)) {
			struct bus_node *n = &sim->nodes[i];

			if (i == node || !rs_active(n))
				continue;
			/* the owners of a TO whose decision is due this instant commit instead */
			if (n->oc || !same_instant || (u32)n->cfg.plca.node_id != seg->cur_id)
				rs_collide(sim, i);
		}
	}
	(void)kind;
	if (seg->state != SEG_WAIT_TO || same_instant)
		return;
	seg_materialise(sim);
	if (seg->state == SEG_WAIT_TO) {
		/* EARLY_RECEIVE -> RECEIVE: the TO lasts until the carrier drops */
		seg_cancel(sim);
		seg->eval_pending = false;
		seg->state = SEG_RECEIVE;
	}
}

/* ---- the cycle (148.4.4.6) ------------------------------------------------------------------ */

/* The TOs of ids [@lo, @hi) have begun: one for each of their active owners (bus_stats.c). */
static inline void tos_begun(struct plca_sim *sim, u32 lo, u32 hi)
{
	bus_tos_begun(sim, lo, hi, 1);
}

static inline void to_begun(struct plca_sim *sim, u32 id)
{
	bus_tos_begun(sim, id, id + 1, 1);
}

static void send_beacon(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *coord;

	if (seg->coord < 0)
		return;
	coord = &sim->nodes[seg->coord];
	if (!coord->synced) {
		bus_lazy_flush(sim); /* it begins counting its TOs */
		coord->synced = true;
		seg_count_unsynced(sim);
	}
	seg_count_beacons(sim, coord, 1);
	seg->state = SEG_BEACON;
	seg->cycle_start = sim->now;
	bus_signal_start(sim, (u32)seg->coord, SIG_BEACON, sim->now + BT(PLCA_SIM_BEACON_BT));
}

static void begin_to(struct plca_sim *sim);

static void cycle_end(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;

	seg->state = SEG_RESYNC;
	seg->owner = -1;
	if (!sim->nr_active)
		send_beacon(sim);
}

/* @node owns the TO now (its COMMIT goes out), with a burst count of 0. */
static inline void take_to(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	sim->seg.owner = (int)node;
	set_committed(sim, n, true);
	n->bc = 0;
	n->in_burst = false;
	n->st.tos_used++;
}

static void commit(struct plca_sim *sim, u32 id)
{
	struct bus_seg *seg = &sim->seg;
	u32 first = sim->owner_first[id], last = sim->owner_first[id + 1];

	seg_cancel(sim);
	seg->state = SEG_COMMIT;
	/* All pending owners commit first, then their signals start (duplicate ids collide). */
	for (u32 k = first; k < last; k++) {
		u32 node = sim->owners[k];
		struct bus_node *n = &sim->nodes[node];

		if (!rs_active(n) || !rs_pending(n))
			continue;
		take_to(sim, node);
		bus_cancel(sim, node, EV_RS);
		set_ds(sim, n, n->ds == DS_HOLD ? DS_TRANSMIT : DS_WAIT_MAC);
	}
	for (u32 k = first; k < last; k++) {
		u32 node = sim->owners[k];
		struct bus_node *n = &sim->nodes[node];

		if (!rs_active(n) || n->sig >= 0)
			continue;
		if (n->ds == DS_TRANSMIT) {
			/* HOLD: the delay line goes out behind the COMMIT at once */
			start_frame(sim, node, false);
		} else if (n->ds == DS_WAIT_MAC) {
			bus_signal_start(sim, node, SIG_COMMIT, BUS_NEVER);
			/* commit_timer: the MAC's IFG (96 BT) nearly always ends it first */
			n->rs_due = sim->now + BT(PLCA_SIM_COMMIT_BT);
			bus_timer_held(sim, node, EV_RS, n->rs_due);
			rs_release_carrier(sim, node);
		}
	}
}

/* WAIT_TO for cur_id; the commit/yield decision comes after this instant's node events. */
static void begin_to(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;

	seg->to_start = sim->now;
	if (seg->cur_id >= seg->node_cnt) {
		/*
		 * A frame waits for the next cycle (PENDING, or HELD: the BEACON collides it): up
		 * to its TO, or to TO 0's decision, in one step (bus_fast_cycle.c).
		 */
		if (sim->at_event_tail && sim->nr_pending && !sim->bit_level &&
		    bus_fast_next_cycle(sim))
			return;
		cycle_end(sim);
		return;
	}
	seg->state = SEG_WAIT_TO;
	seg->owner = -1;
	to_begun(sim, seg->cur_id);
	seg_timer(sim, sim->now, SEGT_TO_EVAL);
}


/*
 * The run timer at @t of the idle run that a TO decision begins, or that a pending_timer re-aims
 * (seg_materialise() where the event does nothing after it), when it is the next event of the
 * run: nothing live queued or held up to @t, no lazy pending_timer that the run's start queues
 * due by then (lazy_pend_settle(sim, true) has just run the ones due now), and @t within the run.
 * Then the event loop would pop it next: run it here instead of through the queue, as the loop
 * would (its sequence number, one event, seg_materialise() at @t), and return true.  Nothing
 * happens in between, so the run is never re-aimed before its timer, which therefore never goes
 * stale.  Not with struct plca_sim_cfg.bit_level (tests/plcasim/test_sim_fastpath.c compares the
 * two).  Always inlined: called out of line from its two places, it costs the TO decision more
 * than the re-aimed runs save (callgrind).
 */
static __always_inline bool seg_run_next(struct plca_sim *sim, u64 t)
{
	if (sim->bit_level || t > sim->run_limit || bus_held_live_by(sim, t) ||
	    bus_next_live(sim) <= t)
		return false;
	for (u32 i = 0; i < sim->nr_lazy_pend; i++) {
		u32 node = sim->lazy_pend[i];
		const struct bus_node *n = &sim->nodes[node];

		if (bus_lazy_pend_live(sim, n, node) && n->rs_due <= t)
			return false;
	}
	sim->seg.eval_pending = false;
	kfsim_evq_take_seq(&sim->events); /* seg_timer(): the run timer's arming */
	if (sim->nr_lazy_pend)
		lazy_pend_settle(sim, true);
	sim->now = t;
	sim->nr_events++;
	sim->fast_runs++;
	sim->at_event_tail = true; /* to_eval() returns after it */
	seg_materialise(sim);
	sim->at_event_tail = false;
	return true;
}

/* Commit, or run silently up to the next TO whose owner has a frame. */
static void to_eval(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;
	u32 next;
	u64 t;

	seg->eval_pending = false;
	if (sim->nr_lazy_pend)
		lazy_pend_settle(sim, false);
	next = bus_next_pending_id(sim, seg->cur_id);
	if (next == seg->cur_id) {
		/* the one owner: up to its frame's start in one step (bus_fast_frame.c) */
		if (!sim->bit_level && bus_fast_commit(sim, next))
			return;
		commit(sim, seg->cur_id);
		return;
	}
	if (sim->nr_active) {
		/* an own clock's signal started this instant: the TO is a reception */
		seg->state = SEG_RECEIVE;
		return;
	}
	/* nothing pending in the rest of the cycle: skip up to the next event (bus_fast.c) */
	if (next == seg->node_cnt && !sim->bit_level && bus_fast_idle(sim))
		next = seg->node_cnt;
	seg->idle_to = next;
	t = seg->to_start + (u64)(next - seg->cur_id) * seg->to_ns;
	if (!seg_run_next(sim, t))
		seg_timer(sim, t, SEGT_TO_RUN);
}

/*
 * The idle run goes on @passed TOs from cur_id: their slices in the trace, TOs cur_id + 1 ..
 * @hi - 1 counted as begun (the caller says where the count stops), cur_id and to_start on to
 * the last.
 */
static void idle_run_pass(struct plca_sim *sim, u32 passed, u32 hi)
{
	struct bus_seg *seg = &sim->seg;

	for (u32 j = 0; sim->trace && j < passed; j++)
		trace_to(sim, seg->cur_id + j, seg->to_start + j * seg->to_ns,
			 seg->to_start + (j + 1) * seg->to_ns);
	if (seg->cur_id + 1 < hi)
		tos_begun(sim, seg->cur_id + 1, hi);
	seg->cur_id += passed;
	seg->to_start += (u64)passed * seg->to_ns;
}

/*
 * The TOs of the idle run that began before now (strictly: one that begins right now is left to
 * seg_materialise() and begin_to(), whose decision it takes), 0 outside an idle run.  An idle run
 * counts its TOs when it is materialised; reading the counts, or changing who they belong to,
 * must not wait for that (seg_count_idle_run(), bus_stats.c).
 */
u32 seg_idle_run_begun(const struct plca_sim *sim)
{
	const struct bus_seg *seg = &sim->seg;

	if (seg->state != SEG_WAIT_TO || seg->eval_pending || !seg->to_ns ||
	    sim->now <= seg->to_start)
		return 0;
	/* the TO the run is aimed at begins by its timer, which has not run yet */
	return (u32)min_t(u64, (sim->now - seg->to_start - 1) / seg->to_ns,
			  seg->idle_to - seg->cur_id - 1);
}

/*
 * Bring the idle run up to now for the counts (and the trace): the TOs that began before now
 * (seg_idle_run_begun()) are counted for the owners active now, and the run goes on from the
 * last of them, still aimed where it was.  bus_lazy_flush() calls it before anything changes who
 * the counts belong to: so a TO counts for the owners that were active when it began, whenever
 * the run would next have been materialised.
 */
void seg_count_idle_run(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;
	u32 passed = seg_idle_run_begun(sim);

	if (passed)
		idle_run_pass(sim, passed, min(seg->cur_id + passed + 1, seg->node_cnt));
}

/* Bring cur_id/to_start up to now inside an idle run; begin the TO that starts right now. */
static void seg_materialise(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;
	u32 passed, span = seg->idle_to - seg->cur_id;
	u32 next;

	if (seg->state != SEG_WAIT_TO || seg->eval_pending)
		return;
	passed = seg->to_ns ? (u32)min_t(u64, (sim->now - seg->to_start) / seg->to_ns, span) : span;
	if (passed) {
		/* TOs cur_id + 1 .. cur_id + passed began; one that begins right now is begin_to()'s */
		u32 lo = seg->cur_id + 1, hi = min(seg->cur_id + passed + 1, seg->node_cnt);

		if (seg->to_start + (u64)passed * seg->to_ns == sim->now) /* to_ns 0: all began now */
			hi = min(hi, seg->to_ns ? seg->cur_id + passed : lo);
		idle_run_pass(sim, passed, hi);
	}
	if (passed && seg->to_start == sim->now) {
		/* begin_to() counts this TO */
		begin_to(sim);
		return;
	}
	/*
	 * Mid-TO: its owner already yielded; aim the run at the next pending owner.  Where the
	 * running event does nothing after this (sim->at_event_tail), the run's timer may run at
	 * once (seg_run_next()).
	 */
	next = bus_next_pending_id(sim, seg->cur_id + 1);
	if (next != seg->idle_to) {
		u64 t = seg->to_start + (u64)(next - seg->cur_id) * seg->to_ns;

		seg->idle_to = next;
		if (!sim->at_event_tail || !seg_run_next(sim, t))
			seg_timer(sim, t, SEGT_TO_RUN);
	}
}

static void next_to(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;

	trace_to(sim, seg->cur_id, seg->to_start, sim->now);
	if (seg->owner >= 0 && seg->cur_id < 255) {
		for (u32 k = sim->owner_first[seg->cur_id]; k < sim->owner_first[seg->cur_id + 1];
		     k++) {
			set_committed(sim, &sim->nodes[sim->owners[k]], false);
			sim->nodes[sim->owners[k]].in_burst = false;
		}
	}
	seg->owner = -1;
	seg->cur_id++;
	/* the cycle's last TO is over: its BEACON and the idle cycles after it may be skipped */
	if (seg->cur_id == seg->node_cnt && !sim->nr_active && !sim->bit_level) {
		seg->to_start = sim->now;
		if (bus_fast_idle(sim)) {
			seg_timer(sim, sim->now, SEGT_TO_EVAL);
			return;
		}
	}
	begin_to(sim);
}

void seg_eval_due(struct plca_sim *sim)
{
	if (sim->seg.eval_pending)
		to_eval(sim);
}

void seg_pending_changed(struct plca_sim *sim)
{
	seg_materialise(sim);
}

/* ---- for the per-TO model (bus_fast.c) ----------------------------------------------------- */

void rs_fast_collide(struct plca_sim *sim, u32 node)
{
	rs_collide(sim, node);
}

/* start_frame() from the COMMIT of @node, committed in WAIT_MAC. */
void rs_fast_frame_start(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	n->in_burst = false;
	set_ds(sim, n, DS_TRANSMIT);
	bus_cancel(sim, node, EV_RS);
	n->tx_start_wire = sim->now;
	bus_fast_signal_rekind(sim, node, sim->now + bus_frame_wire_ns(n->queue[n->q_head].payload));
}

/*
 * commit() of TO cur_id by @node, its one pending owner (bus_fast_frame.c): in WAIT_MAC up to its
 * COMMIT, which the caller sends; from HOLD with the delay line's frame on the wire.
 */
void seg_fast_commit(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	bool held = n->ds == DS_HOLD;

	seg_cancel(sim);
	sim->seg.state = SEG_COMMIT;
	take_to(sim, node);
	bus_cancel(sim, node, EV_RS);
	set_ds(sim, n, held ? DS_TRANSMIT : DS_WAIT_MAC);
	if (held)
		start_frame(sim, node, false);
}

/* The MAC's frame goes into the delay line (HOLD, hold timer armed): rs_mac_tx_start()'s. */
void rs_fast_hold(struct plca_sim *sim, u32 node)
{
	set_ds(sim, &sim->nodes[node], DS_HOLD);
	sim->nodes[node].rs_due = sim->now + BT(PLCA_SIM_HOLD_BT);
}

/* rs_data_end() of a committed owner without bursts. */
void rs_fast_frame_end(struct plca_sim *sim, u32 node)
{
	set_ds(sim, &sim->nodes[node], DS_IDLE);
}

/*
 * The carrier dropped after the owner's frame: next_to(), begin_to() and the TO decision, in
 * which @node, the next id's only owner, commits (bus_fast_tx_end() checked that it is pending).
 * commit() without asking the MAC about the wire: mac_fast_ifg() does that, and the
 * commit_timer, which the MAC's IFG always beats here, only takes its sequence number.
 */
void seg_fast_commit_next(struct plca_sim *sim, u32 node)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *n = &sim->nodes[node];

	trace_to(sim, seg->cur_id, seg->to_start, sim->now);
	for (u32 k = sim->owner_first[seg->cur_id]; k < sim->owner_first[seg->cur_id + 1]; k++) {
		set_committed(sim, &sim->nodes[sim->owners[k]], false);
		sim->nodes[sim->owners[k]].in_burst = false;
	}
	seg->cur_id++;
	seg->to_start = sim->now;
	to_begun(sim, seg->cur_id);
	if (sim->nr_lazy_pend)
		lazy_pend_settle(sim, false);
	seg->eval_pending = false;
	seg->state = SEG_COMMIT;
	take_to(sim, node);
	set_ds(sim, n, DS_WAIT_MAC);
	/* bus_signal_start(): nothing else is on the wire, no frame is HELD, the TO is committed */
	bus_fast_signal_open(sim, node, SIG_COMMIT, BUS_NEVER);
	sim->nr_active++;
	n->rs_due = sim->now + BT(PLCA_SIM_COMMIT_BT);
	sim->slot_seq[node << BUS_SLOT_SHIFT | EV_RS] = kfsim_evq_take_seq(&sim->events);
	sim->has_held = false;
	n->rs_carrier_off = sim->now;
}

/*
 * @m idle cycles from the decision of TO @k at @t0 (bus_fast_idle() checked that nothing can
 * happen in them): what materialising each idle run, sending each BEACON and hearing it end
 * would do, in the same order for the trace, the counts once for all.  It leaves the cycle at
 * the TO 0 decision of the last cycle, sim->now, which the caller has moved there.
 */
void seg_fast_idle_cycles(struct plca_sim *sim, u64 m, u32 k, u64 t0)
{
	struct bus_seg *seg = &sim->seg;
	u64 cycle = seg_cycle_ns(seg);
	u64 e0 = t0 + (seg->node_cnt - k) * seg->to_ns;

	for (u64 j = 0; sim->trace && j < m; j++) {
		u64 beacon = e0 + j * cycle;
		u32 first = j ? 0 : k;
		u64 start = beacon - (seg->node_cnt - first) * seg->to_ns;

		for (u32 id = first; id < seg->node_cnt; id++)
			trace_to(sim, id, start + (id - first) * seg->to_ns,
				 start + (id - first + 1) * seg->to_ns);
		bus_trace_x(sim, seg->coord + 1, "BEACON", "wire", beacon,
			    beacon + BT(PLCA_SIM_BEACON_BT), NULL);
		bus_trace_x(sim, 0, "BEACON", "beacon", beacon, beacon + BT(PLCA_SIM_BEACON_BT),
			    NULL);
	}
	/*
	 * Every TO began once per cycle: TOs k + 1 .. of the first, TO 0 after each BEACON, TOs
	 * 1 .. of the m - 1 whole cycles; so TOs 1 .. k began once less.  Their owners are the
	 * PLCA nodes with link (no own clocks here, all synchronised), which also heard every
	 * BEACON: the lazy counts (bus_stats.c) give each its share when read.
	 */
	bus_tos_begun(sim, 0, seg->node_cnt, m);
	if (k) /* k = node_cnt: from the BEACON, TOs 1 .. node_cnt - 1 */
		bus_tos_begun(sim, 1, min(k + 1, seg->node_cnt), -1ull);
	sim->beacons_lazy += m;
	seg_count_beacons(sim, &sim->nodes[seg->coord], m);
	seg->cycle_start = sim->now - BT(PLCA_SIM_BEACON_BT);
	seg->last_beacon = sim->now;
	seg->to_start = sim->now;
	seg->cur_id = 0;
	seg->state = SEG_WAIT_TO;
	seg->owner = -1;
}

/* ---- own clocks: a node that runs the control state machine itself ------------------------ */

/*
 * A follower whose to_tmr differs from the coordinator's counts its silent TOs with its own
 * to_timer: its curID drifts from everybody else's until a carrier drop or a BEACON, and it
 * commits when its own count says so, whatever the others think.  A second coordinator (another
 * node id 0) does the same and, when its count reaches its node_cnt, sends its own BEACON.
 * Everything else (the data state machine, COMMIT, bursts) is the common code: only the "whose
 * TO is it" question is answered by the node's own count.
 */
static u64 oc_to_start(const struct bus_node *n, u32 id)
{
	return n->oc_sync_t + (u64)(id - n->oc_sync_id) * n->oc_to_ns;
}

/* curID by the node's own count now (the frozen value while the carrier is up). */
static u32 oc_cur(const struct plca_sim *sim, const struct bus_node *n)
{
	u64 passed;

	if (n->oc_frozen)
		return n->oc_frozen_id;
	if (n->oc_sync_id > 255)
		return n->oc_sync_id;
	passed = n->oc_to_ns ? (sim->now - n->oc_sync_t) / n->oc_to_ns : 256;
	return (u32)min_t(u64, n->oc_sync_id + passed, 256);
}

/* Arm the node's next own-clock moment: its own TO, or (second coordinator) its cycle's end. */
static void oc_arm(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	u32 id = (u32)n->cfg.plca.node_id;
	u64 t = BUS_NEVER;

	n->oc_gen++;
	if (!n->oc || n->oc_frozen || !rs_active(n))
		return;
	if (n->oc_sync_id <= id) {
		u64 start = oc_to_start(n, id);

		if (start >= sim->now && start != n->oc_to_seen)
			t = start;
	}
	if (n->oc_coord && n->oc_sync_id <= (u32)n->cfg.plca.node_cnt)
		t = min(t, max(sim->now, oc_to_start(n, (u32)n->cfg.plca.node_cnt)));
	if (t != BUS_NEVER)
		bus_schedule(sim, t, BUS_PRIO_DECISION, node, EV_SEG, SEGT_OWN_CLOCK | n->oc_gen << 2);
}

static void oc_send_beacon(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	n->oc_resync = false;
	n->oc_beaconing = true;
	n->st.beacons++;
	n->st.beacons_sent++;
	bus_signal_start(sim, node, SIG_BEACON, sim->now + BT(PLCA_SIM_BEACON_BT));
}

/* COMMIT in the node's own TO: commit() for one node, without the cycle's bookkeeping. */
static void oc_commit(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	set_committed(sim, n, true);
	n->bc = 0;
	n->in_burst = false;
	n->st.tos_used++;
	bus_cancel(sim, node, EV_RS);
	if (n->ds == DS_HOLD) {
		set_ds(sim, n, DS_TRANSMIT);
		start_frame(sim, node, false);
		return;
	}
	set_ds(sim, n, DS_WAIT_MAC);
	/* bus_signal_start(): nothing else is on the wire, no frame is HELD, the TO is committed */
	bus_fast_signal_open(sim, node, SIG_COMMIT, BUS_NEVER);
	sim->nr_active++;
	n->rs_due = sim->now + BT(PLCA_SIM_COMMIT_BT);
	bus_timer_held(sim, node, EV_RS, n->rs_due);
	rs_release_carrier(sim, node);
}

/*
 * Whether the node's own count is at its own id now.  With a to_timer of 0 every TO from the
 * last synchronisation on begins and ends at that one instant, which oc_cur() counts as past
 * them all: its own TO is then that instant itself (as the cycle's own TOs of 0 BT are, in
 * seg_materialise()).
 */
static bool oc_at_own_id(const struct plca_sim *sim, const struct bus_node *n)
{
	u32 id = (u32)n->cfg.plca.node_id;

	if (!n->oc_to_ns && !n->oc_frozen)
		return n->oc_sync_id <= id && n->oc_sync_t == sim->now;
	return oc_cur(sim, n) == id;
}

static bool oc_in_own_to(const struct plca_sim *sim, const struct bus_node *n)
{
	return n->oc && rs_active(n) && !n->oc_frozen && !n->committed && sim->nr_active == 0 &&
	       oc_at_own_id(sim, n);
}

/* The node just turned pending: in its own TO it commits at once (WAIT_TO sees packetPending). */
static void oc_pending(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	if (oc_in_own_to(sim, n) && rs_pending(n))
		oc_commit(sim, node);
}

static void oc_on_timer(struct plca_sim *sim, u32 node, u32 gen)
{
	struct bus_node *n = &sim->nodes[node];

	u32 id = (u32)n->cfg.plca.node_id;

	if (gen != n->oc_gen || !n->oc || n->oc_frozen || !rs_active(n))
		return;
	if (n->oc_sync_id <= id && oc_to_start(n, id) == sim->now && n->oc_to_seen != sim->now &&
	    oc_at_own_id(sim, n)) {
		/* its own TO begins: commit or yield, once */
		n->oc_to_seen = sim->now;
		n->st.tos++;
		if (sim->nr_lazy_pend)
			lazy_pend_settle(sim, false);
		if (oc_in_own_to(sim, n) && rs_pending(n)) {
			oc_commit(sim, node);
			return;
		}
	}
	if (n->oc_coord && oc_cur(sim, n) >= (u32)n->cfg.plca.node_cnt) {
		/* its cycle is over: RESYNC, the BEACON goes out on a quiet wire */
		n->oc_resync = true;
		if (!sim->nr_active)
			oc_send_beacon(sim, node);
		return;
	}
	oc_arm(sim, node);
}

/* A signal starts: every own clock stops counting where it is (EARLY_RECEIVE / TRANSMIT). */
static void oc_carrier_up(struct plca_sim *sim, u32 sender)
{
	for (u32 i = 0; sim->nr_oc && i < sim->nr_nodes; i++) {
		struct bus_node *n = &sim->nodes[i];

		if (!n->oc || n->oc_frozen)
			continue;
		n->oc_frozen_id = i == sender && n->committed ? (u32)n->cfg.plca.node_id :
								oc_cur(sim, n);
		n->oc_frozen = true;
		n->oc_gen++;
	}
}

/* The carrier dropped: each own clock moves to the TO after the one it froze in. */
static void oc_carrier_down(struct plca_sim *sim)
{
	for (u32 i = 0; sim->nr_oc && i < sim->nr_nodes; i++) {
		struct bus_node *n = &sim->nodes[i];

		if (!n->oc || !n->oc_frozen)
			continue;
		n->oc_frozen = false;
		set_committed(sim, n, false);
		n->in_burst = false;
		n->oc_sync_t = sim->now;
		n->oc_sync_id = min(n->oc_frozen_id + 1, 256u);
		if (n->oc_coord && n->oc_resync && rs_active(n))
			oc_send_beacon(sim, i);
		else
			oc_arm(sim, i);
	}
}

/*
 * A BEACON from @sender ended: own clocks resynchronise (curID 0, to_timer from now); a
 * coordinator with the LAN867x errata behaviour that did not send it stops sending its own.
 * Return: whether such a coordinator stopped (the segment's roles are then recomputed).
 */
static bool oc_beacon_heard(struct plca_sim *sim, u32 sender)
{
	bool stopped = false;

	if (!sim->nr_oc && !sim->any_stopper)
		return false;
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		struct bus_node *n = &sim->nodes[i];
		bool coordinator = (int)i == sim->seg.coord || n->oc_coord;

		if (i != sender && coordinator && n->cfg.stops_on_foreign_beacon &&
		    !n->beacon_stopped && n->rs_on && n->up) {
			n->beacon_stopped = true;
			stopped = true;
			pr_info("plca_sim: node %u: foreign BEACON from node %u: stops its own\n", i,
				sender);
		}
		if (!n->oc || (n->oc_coord && i != sender))
			continue; /* a coordinator takes a foreign BEACON as a reception */
		if (i != sender)
			n->st.beacons++;
		n->oc_frozen = false;
		n->oc_resync = false;
		n->oc_sync_t = sim->now;
		n->oc_sync_id = 0;
		oc_arm(sim, i);
	}
	return stopped;
}

void seg_on_timer(struct plca_sim *sim, u32 node, u32 what)
{
	if ((what & 3) == SEGT_OWN_CLOCK) {
		oc_on_timer(sim, node, what >> 2);
		return;
	}
	sim->at_event_tail = true;
	seg_materialise(sim);
	sim->at_event_tail = false;
}

/*
 * The carrier dropped on the whole segment; with @last, that is the last thing the running
 * event does (sim->at_event_tail) but wake the MACs waiting on the carrier.
 */
static __always_inline void crs_drop(struct plca_sim *sim, bool last)
{
	struct bus_seg *seg = &sim->seg;

	if (sim->nr_oc)
		oc_carrier_down(sim);
	switch (seg->state) {
	case SEG_BEACON: /* SYNCING -> curID = 0 */
		seg->cur_id = 0;
		begin_to(sim);
		break;
	case SEG_COMMIT:
	case SEG_RECEIVE:
		sim->at_event_tail = last;
		next_to(sim);
		sim->at_event_tail = false;
		break;
	case SEG_RESYNC:
		send_beacon(sim);
		break;
	default:
		break;
	}
}

void seg_crs_drop(struct plca_sim *sim)
{
	crs_drop(sim, false);
}

/* The end of a signal (tx_end()) dropped the carrier: nothing follows but the waiters. */
void seg_crs_drop_last(struct plca_sim *sim)
{
	crs_drop(sim, true);
}

/* A BEACON ended: every PLCA follower (re)synchronises on the coordinator's; own clocks on any. */
void rs_tx_end(struct plca_sim *sim, u32 node)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *sender = &sim->nodes[node];
	bool ours = (int)node == seg->coord && seg->state == SEG_BEACON;

	if (!ours && !sender->oc_beaconing)
		return; /* a COMMIT that ran out */
	sender->oc_beaconing = false;
	if (sim->trace) {
		bus_trace_x(sim, 0, "BEACON", "beacon", sim->now - BT(PLCA_SIM_BEACON_BT), sim->now,
			    NULL);
	}
	if (oc_beacon_heard(sim, node)) {
		seg_reconfigure(sim);
		if (!ours)
			return;
	}
	if (!ours)
		return; /* a second coordinator's: the cycle's followers keep the coordinator's */
	seg->last_beacon = sim->now;
	/* every PLCA node with link and no own clock heard it: counted lazily (bus_stats.c) */
	sim->beacons_lazy++;
	if (!sim->nr_unsynced)
		return;
	bus_lazy_flush(sim); /* those that synchronise begin counting their TOs */
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		struct bus_node *n = &sim->nodes[i];

		if (i == node || !n->rs_on || !n->up || n->oc || n->synced)
			continue;
		n->synced = true;
		sim->nr_unsynced--;
		/* now under PLCA: its MAC re-reads the carrier */
		mac_try(sim, i);
	}
}

/* plca_status_timer: followers that heard no BEACON for that long fall back to CSMA/CD. */
void seg_on_status_timer(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;

	if (seg->coord >= 0 && sim->now - seg->last_beacon < BT(PLCA_SIM_STATUS_BT))
		return;
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		if (sim->nodes[i].synced && (int)i != seg->coord)
			rs_detach(sim, i);
	}
}

/* ---- settings ------------------------------------------------------------------------------ */

static u32 misconfig_of(struct plca_sim *sim, int coord)
{
	u8 seen[256] = {0};
	u32 flags = 0, nr_plca = 0;
	int to = -1;

	for (u32 i = 0; i < sim->nr_nodes; i++) {
		const struct bus_node *n = &sim->nodes[i];
		int id = n->cfg.plca.node_id;

		if (!n->rs_on)
			continue;
		nr_plca++;
		if (seen[id]++)
			flags |= PLCA_SIM_MISCONF_DUP_ID;
		if (coord >= 0 && id >= sim->nodes[coord].cfg.plca.node_cnt)
			flags |= PLCA_SIM_MISCONF_ID_BEYOND_CNT;
		if (to >= 0 && to != n->cfg.plca.to_tmr)
			flags |= PLCA_SIM_MISCONF_TO_MISMATCH;
		to = n->cfg.plca.to_tmr;
	}
	if (nr_plca && !seen[0])
		flags |= PLCA_SIM_MISCONF_NO_COORD;
	return flags;
}

static void build_owners(struct plca_sim *sim)
{
	u32 count[257] = {0};

	for (u32 i = 0; i < sim->nr_nodes; i++) {
		if (sim->nodes[i].rs_on && sim->nodes[i].up && !sim->nodes[i].oc)
			count[sim->nodes[i].cfg.plca.node_id + 1]++;
	}
	for (u32 id = 1; id <= 256; id++)
		count[id] += count[id - 1];
	memcpy(sim->owner_first, count, sizeof(count));
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		if (sim->nodes[i].rs_on && sim->nodes[i].up && !sim->nodes[i].oc)
			sim->owners[count[sim->nodes[i].cfg.plca.node_id]++] = i;
	}
}

static void seg_stop(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;

	seg_cancel(sim);
	seg->state = SEG_OFF;
	seg->owner = -1;
	for (u32 i = 0; i < sim->nr_nodes; i++)
		set_committed(sim, &sim->nodes[i], false);
	bus_schedule(sim, max(sim->now, seg->last_beacon + BT(PLCA_SIM_STATUS_BT)), BUS_PRIO_NODE,
		     0, EV_STATUS, 0);
}

/*
 * Who runs an own clock under coordinator @coord: a PLCA node whose to_tmr differs from the
 * coordinator's, and any other node id 0 that still sends BEACONs.  A node that starts one does
 * not know where the cycle is: it waits for a BEACON (a second coordinator sends one when the
 * wire is next quiet).
 */
static void oc_assign(struct plca_sim *sim, int coord)
{
	sim->nr_oc = 0;
	sim->any_stopper = false;
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		struct bus_node *n = &sim->nodes[i];
		bool was = n->oc;

		n->oc = coord >= 0 && (int)i != coord && n->rs_on && n->up &&
			(n->cfg.plca.to_tmr != sim->nodes[coord].cfg.plca.to_tmr ||
			 (n->cfg.plca.node_id == 0 && !n->beacon_stopped));
		n->oc_coord = n->oc && n->cfg.plca.node_id == 0 && !n->beacon_stopped;
		n->oc_to_ns = BT(n->cfg.plca.to_tmr);
		sim->nr_oc += n->oc;
		sim->any_stopper |= n->cfg.stops_on_foreign_beacon;
		if (n->oc == was)
			continue;
		/* a pending node leaves the cycle's pending ids, or joins them */
		if (rs_pending(n))
			bus_pending_id_count(sim, n, !n->oc);
		n->oc_gen++;
		n->oc_to_seen = BUS_NEVER;
		n->oc_frozen = false;
		n->oc_beaconing = false;
		n->oc_sync_t = sim->now;
		n->oc_sync_id = 256; /* no TO of its own before a BEACON */
		n->oc_resync = n->oc_coord;
		if (n->oc_coord && !sim->nr_active && rs_active(n))
			oc_send_beacon(sim, i);
	}
}

void seg_reconfigure(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;
	int coord = -1;
	u32 flags;

	bus_lazy_flush(sim); /* who counts TOs and BEACONs may change */
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		struct bus_node *n = &sim->nodes[i];

		n->rs_on = n->cfg.plca.enabled && n->cfg.plca.node_id < 255;
		if (!n->rs_on && n->synced)
			rs_detach(sim, i);
		if (coord < 0 && n->rs_on && n->up && n->cfg.plca.node_id == 0 && !n->beacon_stopped)
			coord = (int)i;
	}
	oc_assign(sim, coord);
	build_owners(sim);
	seg_count_unsynced(sim);
	flags = misconfig_of(sim, coord);
	if (flags & ~sim->misconfig) {
		for (u32 bit = 0; bit < 4; bit++) {
			if (flags & ~sim->misconfig & BIT(bit))
				pr_warn("plca_sim: misconfiguration: %s\n",
					kfsim_plca_misconf_name(BIT(bit)));
		}
	}
	sim->misconfig = flags;
	if (coord == seg->coord)
		return;
	if (seg->coord >= 0 && seg->state != SEG_OFF)
		seg_stop(sim);
	seg->coord = coord;
	if (coord < 0) {
		seg->coord = -1;
		sim->events.near_ns = BUS_NEAR_NS;
		return;
	}
	seg->node_cnt = (u32)sim->nodes[coord].cfg.plca.node_cnt;
	seg->to_ns = BT(sim->nodes[coord].cfg.plca.to_tmr);
	/*
	 * The cycle's run timers are near timers too: an idle run lasts up to a whole idle cycle,
	 * which on 32 nodes at 32 BT is a little longer than BUS_NEAR_NS, and in the far heap every
	 * run timer went down and up past the nodes' next arrivals.  Which heap holds an event never
	 * changes the order (<kfsim/sim_evq.h>).
	 */
	sim->events.near_ns = max_t(u64, BUS_NEAR_NS,
				    BT(PLCA_SIM_BEACON_BT) + (u64)seg->node_cnt * seg->to_ns);
	seg_cancel(sim);
	cycle_end(sim);
}

/*
 * A run starts on a segment that has been up for a while: with a coordinator present, every
 * PLCA follower has already seen BEACONs (plca_status OK).  Without one, nobody has.
 */
void seg_presync(struct plca_sim *sim)
{
	if (sim->seg.coord < 0)
		return;
	bus_lazy_flush(sim);
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		if (sim->nodes[i].rs_on && sim->nodes[i].up)
			sim->nodes[i].synced = true;
	}
	seg_count_unsynced(sim);
}

/* Count the PLCA nodes with link whose plca_status is FAIL (sim->nr_unsynced), after a change. */
void seg_count_unsynced(struct plca_sim *sim)
{
	sim->nr_unsynced = 0;
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		const struct bus_node *n = &sim->nodes[i];

		sim->nr_unsynced += n->rs_on && n->up && !n->synced;
	}
}
