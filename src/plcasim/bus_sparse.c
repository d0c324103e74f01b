// SPDX-License-Identifier: MIT
/*
 * The sparse engine: a second engine for the commonest segment users run, a uniform PLCA
 * segment whose frames are sparse (Poisson or periodic senders), where the bit-level path and
 * its fast paths spend most of their work on bookkeeping that keeps their whole state exact at
 * every event: lazy timers, the idle run's timers, held timers, the checks of the fast paths.
 *
 * It runs the same model (the MAC of bus_mac.c, the data state machine and cycle of bus_plca.c,
 * the wire's carrier of bus_medium.c) for that one kind of segment only, and keeps exact only
 * what can be read: every node's statistics and latency histogram, the TO and BEACON counts, the
 * cycle count and the random generator's state, which it draws from in the same order.  What it
 * does not keep is the rest of the bit-level state (the BEACONs and COMMITs on the signal ring,
 * the pending_timers, the idle run's timers, the event count): once it holds a run, the
 * simulator's bit-level state is stale.  Anything that needs it (a setting, a link, a scripted
 * frame, a trace) first rebuilds it by running the bit-level engine again from the start with the
 * same settings and seed (sparse_replay()), which gives the same figures: the run is
 * deterministic.  So does a run that meets something the sparse engine does not model (it gives
 * up: sim->sp_bails).
 *
 * The segment (sparse_eligible()): every node a synchronised PLCA node with link, one node per
 * id below the coordinator's node_cnt, no misconfiguration, no own clock, no bursts, no faulty
 * MAC, Poisson, periodic or no load, a TO longer than the wire's propagation (no signal can meet
 * the tail of another), no trace, no bit-level run, and nothing changed since creation.  It
 * takes over at an idle landing (bus_fast_idle_skip(): nothing pending, queued or on the wire
 * anywhere) and keeps the run from then on; a segment never quiet (offered load near or above the
 * wire's) stays with the bit-level engine.
 *
 * What it does differently, none of which anything can read:
 *   - an idle run has no timer while nobody waits for the cycle: the cycle, its TOs and its
 *     BEACONs run on by arithmetic until a frame makes a node wait (sp_idle_to()), and a
 *     waiting node's TO is aimed at directly, cycles later if need be (sp_aim());
 *   - the pending_timer is never a timer: a node in DELAY_PENDING counts as pending from its
 *     rs_due on, wherever the cycle asks (the bit-level path's lazy list, always);
 *   - the commit_timer is never armed: the MAC always comes back before it runs out, which it
 *     checks (sparse gives up otherwise), and the hold timer is an ordinary timer;
 *   - only frames go on the signal ring (carrier sense of a PLCA MAC sees nothing else), and a
 *     signal's start is checked against the tail of the last one instead of arming collisions
 *     (it gives up if one would collide);
 *   - its queue is its own (struct sparse_q): the arrivals in a heap, the rest in a short
 *     exact list;
 *   - the TOs of idle runs are counted where it walks past them, the rest by the reads
 *     (seg_idle_run_begun()).
 *
 * Events of one instant run as in the bit-level path: the cycle's run timer first, then the
 * nodes' timers in the order they were armed (the same sequence numbers, taken in the same
 * order), then the TO decision.  tests/plcasim/test_sim_sparse.c compares it with the bit-level
 * path on random segments, seeds, loads and run splits.
 */
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include <kfsim/random.h>
#include <kfsim/slab.h>
#include "bus_internal.h"

/* Why the sparse engine gave up on a run (it is then replayed bit-level). */
enum { SP_OK, SP_BAIL };

/* Free the sparse engine's queue (plca_sim_free_insides(), or a take-over that failed). */
void sparse_q_free(struct sparse_q *q)
{
	if (!q)
		return;
	kfree(q->arr);
	kfree(q->soon);
	kfree(q->owner);
	kfree(q);
}

/* Whether @n has a frame pending for a TO decision at @t (HOLD, PENDING, or its timer ran out). */
static inline bool sp_pending_at(const struct bus_node *n, u64 t)
{
	return n->ds == DS_HOLD || n->ds == DS_PENDING ||
	       (n->ds == DS_DELAY_PENDING && n->rs_due <= t);
}

/*
 * Where the idle run from TO cur_id (begun at to_start) ends: its cycle's BEACON starts.  Kept in
 * sim->sp_e (asked a dozen times a frame): set as sparse_run() begins and wherever a cycle's TO
 * begins other than by an idle run's step (sp_set_end()), which leaves it where it was.
 */
static inline u64 sp_cycle_end(const struct bus_seg *seg)
{
	return container_of(seg, struct plca_sim, seg)->sp_e;
}

static inline void sp_set_end(struct plca_sim *sim)
{
	const struct bus_seg *seg = &sim->seg;

	sim->sp_e = seg->to_start + (seg->node_cnt - seg->cur_id) * seg->to_ns;
}

/*
 * ---- its event queue ------------------------------------------------------------------------
 * The nodes' arrivals, far ahead, in a heap of one per node whose top is re-keyed when it runs
 * (the next arrival is armed by its own event); every other timer (MAC, hold, frame and BEACON
 * ends, the idle run's) in a short list sorted by (time, priority, sequence number), latest
 * first, withdrawn exactly when cancelled or re-armed, so nothing stale is ever popped.
 */
static inline void sp_soon_remove(struct plca_sim *sim, u32 slot)
{
	struct sparse_q *q = sim->sp_q;

	for (u32 i = q->nr_soon; i--;) {
		if (kfsim_event_data(&q->soon[i]) == slot) {
			memmove(&q->soon[i], &q->soon[i + 1], (q->nr_soon - i - 1) * sizeof(q->soon[0]));
			q->nr_soon--;
			return;
		}
	}
}

/* bus_timer_prio(): @node's one timer of @kind at @t, replacing any earlier arming. */
static inline void sp_timer_prio(struct plca_sim *sim, u32 node, u32 kind, u64 t, u32 prio)
{
	struct sparse_q *q = sim->sp_q;
	u32 slot = node << BUS_SLOT_SHIFT | kind, i;
	struct kfsim_event ev = kfsim_event_make(t, prio, kfsim_evq_take_seq(&sim->events), slot);

	if (q->armed[slot])
		sp_soon_remove(sim, slot);
	q->armed[slot] = true;
	for (i = q->nr_soon; i && kfsim_event_before(&q->soon[i - 1], &ev); i--)
		q->soon[i] = q->soon[i - 1];
	q->soon[i] = ev;
	q->nr_soon++;
}

static inline void sp_timer(struct plca_sim *sim, u32 node, u32 kind, u64 t)
{
	sp_timer_prio(sim, node, kind, t, BUS_PRIO_NODE);
}

static inline void sp_cancel(struct plca_sim *sim, u32 node, u32 kind)
{
	u32 slot = node << BUS_SLOT_SHIFT | kind;

	if (sim->sp_q->armed[slot]) {
		sim->sp_q->armed[slot] = false;
		sp_soon_remove(sim, slot);
	}
}

/* The heap of arrivals: its top, running now, is re-armed at @t (its node's next arrival). */
static inline void sp_arrival_rearm(struct plca_sim *sim, u64 t)
{
	struct sparse_q *q = sim->sp_q;
	struct kfsim_event *h = q->arr, ev;
	u32 n = q->nr_arr, i = 0, c;

	ev = kfsim_event_make(t, BUS_PRIO_NODE, kfsim_evq_take_seq(&sim->events),
			      kfsim_event_data(&h[0]));
	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && kfsim_event_before(&h[c + 1], &h[c]))
			c++;
		if (!kfsim_event_before(&h[c], &ev))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = ev;
}

/* The MAC starts an attempt now: bus_mac_sends() with this queue's cancel. */
static inline void sp_mac_sends(struct plca_sim *sim, struct bus_node *n, u32 node)
{
	n->mac = MAC_TX;
	n->mac_tx_start = sim->now;
	n->waiting = false;
	sp_cancel(sim, node, EV_MAC);
}

/* ---- the nodes that wait for the cycle (HOLD, DELAY_PENDING, PENDING) ---------------------- */

static void sp_busy_add(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	if (n->pend_lazy)
		return;
	n->pend_lazy = true; /* the bit-level path's lazy-list flag, here "on the busy list" */
	n->sp_busy_ix = sim->nr_lazy_pend;
	sim->lazy_pend[sim->nr_lazy_pend++] = node;
}

static void sp_busy_del(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	u32 last;

	if (!n->pend_lazy)
		return;
	n->pend_lazy = false;
	/* the last one takes its place, as a search from the front would have left it */
	last = sim->lazy_pend[--sim->nr_lazy_pend];
	sim->lazy_pend[n->sp_busy_ix] = last;
	sim->nodes[last].sp_busy_ix = n->sp_busy_ix;
}

/* ---- signals -------------------------------------------------------------------------------- */

/*
 * A signal of @node starts now: it must not meet the tail of another node's signal still on its
 * way to @node (check_overlaps() would arm a collision; one that ends right now is not looked
 * at).  Only the last signal that ended can: every signal lasts longer than the wire's
 * propagation (max_prop < a BEACON's 20 BT, checked at the take-over), so the one before it had
 * passed everybody before the last one began.  Only frames also go on the ring.
 */
static inline int sp_signal_ok(const struct plca_sim *sim, u32 node)
{
	const struct sparse_sig *s = &sim->sp_last;

	if (s->node == node || s->end == sim->now || s->end + sim->max_prop <= sim->now)
		return SP_OK;
	return s->end + bus_dist(sim->nodes[node].pos_ns, s->pos_ns) > sim->now ? SP_BAIL : SP_OK;
}

/* A signal of @node ended at @end: remember it for sp_signal_ok(). */
static inline void sp_signal_ended(struct plca_sim *sim, u32 node, u64 end)
{
	sim->sp_last = (struct sparse_sig){node, sim->nodes[node].pos_ns, end};
}

/* ---- the MAC (bus_mac.c) ------------------------------------------------------------------- */

static int sp_mac_try(struct plca_sim *sim, u32 node);
static int sp_rs_tx_start(struct plca_sim *sim, u32 node);

static void sp_wait_ifg(struct plca_sim *sim, u32 node, u64 off_at)
{
	struct bus_node *n = &sim->nodes[node];

	n->ifg_from = off_at;
	n->ifg_clear = !sim->carrier_unseen;
	n->ifg_rs = true;
	n->ifg_opens = sim->opens[1];
	sp_timer(sim, node, EV_MAC, off_at + BT(PLCA_SIM_IFG_BT));
}

/* mac_try() of bus_mac.c, for a node under the RS. */
static int sp_mac_try(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	u64 ignore_from = BUS_NEVER, off_at;
	bool busy;

	if (n->mac != MAC_DEFER)
		return SP_OK;
	if (sim->now < n->backoff_end) {
		sp_timer(sim, node, EV_MAC, n->backoff_end);
		return SP_OK;
	}
	if (n->ifg_from && bus_ifg_still_clear(sim, n)) {
		n->ifg_from = 0;
		n->ifg_clear = false;
		sp_mac_sends(sim, n, node);
		return sp_rs_tx_start(sim, node);
	}
	n->ifg_clear = false;
	if (n->ifg_from && sim->now >= n->ifg_from + BT(PLCA_SIM_IFG_BT))
		ignore_from = n->ifg_from + BT(PLCA_SIM_IFG_BT * 2 / 3);
	n->ifg_from = 0;
	/* rs_carrier_status(): forced on outside IDLE and WAIT_MAC, else the wire's frames */
	if (rs_forces_carrier(n)) {
		busy = true;
		off_at = BUS_FORCED;
	} else {
		busy = bus_carrier_at(sim, node, true, ignore_from, &off_at);
		if (!busy) {
			off_at = max(off_at, n->rs_carrier_off);
			off_at = max(off_at, n->own_tx_end);
		}
	}
	if (busy) {
		if (!n->deferred_this_attempt) {
			n->deferred_this_attempt = true;
			n->st.deferrals++;
		}
		sp_cancel(sim, node, EV_MAC);
		if (off_at == BUS_NEVER)
			bus_add_waiter(sim, node);
		else if (off_at != BUS_FORCED)
			sp_wait_ifg(sim, node, off_at);
		return SP_OK;
	}
	if (off_at && sim->now < off_at + BT(PLCA_SIM_IFG_BT)) {
		sp_wait_ifg(sim, node, off_at);
		return SP_OK;
	}
	sp_mac_sends(sim, n, node);
	return sp_rs_tx_start(sim, node);
}

static int sp_frame_ready(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	if (n->mac != MAC_IDLE || !n->q_len)
		return SP_OK;
	n->mac = MAC_DEFER;
	n->attempts = 0;
	n->backoff_end = 0;
	n->deferred_this_attempt = false;
	return sp_mac_try(sim, node);
}

/* mac_collision() with the jam still to come (a logical collision). */
static int sp_mac_collision(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	u64 jam_end = sim->now + BT(PLCA_SIM_JAM_BT);
	u32 r;

	n->attempts++;
	n->deferred_this_attempt = false;
	if (n->attempts >= PLCA_SIM_ATTEMPT_LIMIT)
		return SP_BAIL; /* excessive collisions: not on a segment like this */
	r = kfsim_prandom_below(&sim->rnd, 1u << min_t(u32, n->attempts, PLCA_SIM_BACKOFF_LIMIT));
	n->backoff_end = jam_end + (u64)r * BT(PLCA_SIM_SLOT_BT);
	if (rs_pending_by(n, n->backoff_end)) {
		n->mac = MAC_DEFER;
		n->deferred_this_attempt = true;
		n->st.deferrals++;
		sp_cancel(sim, node, EV_MAC);
		return SP_OK;
	}
	n->mac = MAC_BACKOFF;
	sp_timer(sim, node, EV_MAC, n->backoff_end);
	return SP_OK;
}

static int sp_mac_timer(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	switch (n->mac) {
	case MAC_DEFER:
		return sp_mac_try(sim, node);
	case MAC_BACKOFF:
		n->mac = MAC_DEFER;
		return sp_mac_try(sim, node);
	default:
		return SP_BAIL; /* a jam to its end, a faulty MAC's frame: not modelled here */
	}
}

static int sp_wake_waiters(struct plca_sim *sim)
{
	u32 nr = sim->nr_waiters;
	int ret = SP_OK;

	if (!nr)
		return SP_OK;
	memcpy(sim->waiters_scan, sim->waiters, nr * sizeof(*sim->waiters));
	sim->nr_waiters = 0;
	for (u32 i = 0; i < nr && ret == SP_OK; i++) {
		u32 node = sim->waiters_scan[i];

		if (!sim->nodes[node].waiting)
			continue;
		sim->nodes[node].waiting = false;
		ret = sp_mac_try(sim, node);
	}
	return ret;
}

/* ---- the data state machine (bus_plca.c) ---------------------------------------------------- */

/* rs_collide(): the logical collision, DELAY_PENDING until the jam's end + 512 BT. */
static int sp_collide(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	sim->sp_nr_held -= n->ds == DS_HOLD;
	n->ds = DS_DELAY_PENDING;
	n->st.logical_collisions++;
	n->rs_due = sim->now + BT(PLCA_SIM_JAM_BT + PLCA_SIM_PENDING_BT);
	sp_cancel(sim, node, EV_RS); /* the hold timer, if it was one */
	sp_busy_add(sim, node);
	n->st.collisions++;
	return sp_mac_collision(sim, node);
}

/* A signal of @node starts: the frames HELD in other nodes' delay lines collide, in index order. */
static int sp_held_collide(struct plca_sim *sim, u32 node)
{
	u32 held[PLCA_SIM_MAX_NODES], nr = 0;
	int ret = SP_OK;

	if (!sim->sp_nr_held)
		return SP_OK;
	for (u32 i = 0; i < sim->nr_lazy_pend; i++) {
		u32 b = sim->lazy_pend[i];

		if (b != node && sim->nodes[b].ds == DS_HOLD) {
			u32 j = nr++;

			for (; j && held[j - 1] > b; j--)
				held[j] = held[j - 1];
			held[j] = b;
		}
	}
	for (u32 i = 0; i < nr && ret == SP_OK; i++)
		ret = sp_collide(sim, held[i]);
	return ret;
}

static void sp_aim(struct plca_sim *sim);
static void sp_aim_one(struct plca_sim *sim, u32 node);
static int sp_idle_to(struct plca_sim *sim, u64 t, bool ended_at_t, bool at_event);

/*
 * start_frame(): @node's frame goes on the wire now, out of its delay line (@from_hold: a new
 * signal, which collides HELD frames) or behind its COMMIT.
 */
static int sp_frame_start(struct plca_sim *sim, u32 node, bool from_hold)
{
	struct bus_node *n = &sim->nodes[node];
	u64 end = sim->now + bus_frame_wire_ns(n->queue[n->q_head].payload);

	if (sp_signal_ok(sim, node))
		return SP_BAIL;
	sim->sp_nr_held -= n->ds == DS_HOLD;
	n->ds = DS_TRANSMIT;
	sp_busy_del(sim, node);
	sp_cancel(sim, node, EV_RS);
	n->tx_start_wire = sim->now;
	sig_prune(sim);
	if (sim->sig_head - sim->sig_tail >= BUS_SIG_RING)
		return SP_BAIL;
	sig_push(sim, node, SIG_DATA, end);
	sp_timer(sim, node, EV_TX_END, end);
	return from_hold ? sp_held_collide(sim, node) : SP_OK;
}

/* rs_mac_tx_start(): the MAC asserted TX_EN.  Not inlined: see sparse_run(). */
static __attribute__((noinline)) int sp_rs_tx_start(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	struct bus_seg *seg = &sim->seg;

	if (n->committed && n->ds == DS_WAIT_MAC) {
		/* behind its COMMIT, before the commit_timer (checked at the commit) */
		return sp_frame_start(sim, node, false);
	}
	if (seg->state == SEG_COMMIT) /* bus_receiving(): another node's COMMIT or frame */
		return sp_collide(sim, node);
	sim->sp_nr_held += n->ds != DS_HOLD;
	n->ds = DS_HOLD;
	n->rs_due = sim->now + BT(PLCA_SIM_HOLD_BT);
	sp_timer(sim, node, EV_RS, n->rs_due);
	sp_busy_add(sim, node);
	/* seg_pending_changed(): an idle run is brought up to now and re-aimed */
	if (seg->state == SEG_WAIT_TO && !seg->eval_pending) {
		if (sp_idle_to(sim, sim->now, false, true))
			return SP_BAIL;
		if (seg->state == SEG_WAIT_TO && !seg->eval_pending)
			sp_aim_one(sim, node);
	}
	return SP_OK;
}

/*
 * The hold timer runs out: the delay line is full, a logical collision.  In an idle run the node
 * now waits for a TO from its pending_timer's end on: the run is aimed again (the bit-level path
 * re-aims it when that timer runs out, at the same decision).
 */
static int sp_hold_out(struct plca_sim *sim, u32 node)
{
	const struct bus_seg *seg = &sim->seg;
	int ret;

	if (sim->nodes[node].ds != DS_HOLD)
		return SP_BAIL;
	ret = sp_collide(sim, node);
	if (!ret && seg->state == SEG_WAIT_TO && !seg->eval_pending)
		sp_aim_one(sim, node);
	return ret;
}

/* ---- the cycle ------------------------------------------------------------------------------ */

/* The TOs of ids [@lo, @hi) began once more. */
static inline void sp_tos(struct plca_sim *sim, u32 lo, u32 hi)
{
	if (lo < hi)
		bus_tos_begun(sim, lo, hi, 1);
}

/* send_beacon() now: the coordinator's BEACON (HELD frames but its own collide). */
static int sp_send_beacon(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;

	seg_count_beacons(sim, &sim->nodes[seg->coord], 1);
	seg->state = SEG_BEACON;
	seg->owner = -1;
	seg->cycle_start = sim->now;
	if (sp_signal_ok(sim, (u32)seg->coord))
		return SP_BAIL;
	sp_timer(sim, (u32)seg->coord, EV_TX_END, sim->now + BT(PLCA_SIM_BEACON_BT));
	return sp_held_collide(sim, (u32)seg->coord);
}

/*
 * The idle run from TO cur_id (begun at to_start, decided) up to @t: the TOs, BEACONs and their
 * ends on the way, counted.  With no timer (nobody waits for the cycle) the cycle's ends and
 * BEACONs come by themselves; with @at_event (an event at @t needs the cycle where it is now:
 * seg_materialise()) a TO that begins right at @t begins, its decision due next.  Otherwise the
 * TOs after the last decision are left to the reads (seg_idle_run_begun()).
 *
 * A BEACON that ends at @t itself: before the event being run (it was armed before the BEACON
 * began: nothing is armed in an idle stretch), unless @ended_at_t (the run ends at @t, and ends
 * run up to it).  One still on at @t is on the wire, its end queued as armed when it began.
 */
/*
 * sp_idle_to() ends in the last of its @m BEACONs, begun at @bl and on the wire at @t: out of
 * line, as it is rare (an event during a BEACON) and its timer's arming would make every call
 * of sp_idle_to() save registers for it.
 */
static __attribute__((noinline, cold)) void sp_idle_beacon_on(struct plca_sim *sim, u64 t, u64 m,
							      u64 bl)
{
	struct bus_seg *seg = &sim->seg;
	u64 beacon = BT(PLCA_SIM_BEACON_BT);

	sim->beacons_lazy += m - 1;
	if (m > 1)
		seg->last_beacon = bl - seg_cycle_ns(seg) + beacon;
	seg->state = SEG_BEACON;
	seg->owner = -1;
	sim->now = bl; /* its end's timer is armed as the BEACON starts */
	sp_timer(sim, (u32)seg->coord, EV_TX_END, bl + beacon);
	sim->now = t;
}

static int sp_idle_to(struct plca_sim *sim, u64 t, bool ended_at_t, bool at_event)
{
	struct bus_seg *seg = &sim->seg;
	u64 to = seg->to_ns, beacon = BT(PLCA_SIM_BEACON_BT), cycle = seg_cycle_ns(seg);
	u64 e = sp_cycle_end(seg), m, bl;
	u32 k;

	if (t >= e) {
		/* BEACONs start at e, e + cycle, ...: m of them by t, the last at bl */
		m = (t - e) / cycle + 1;
		bl = e + (m - 1) * cycle;
		sp_tos(sim, seg->cur_id + 1, seg->node_cnt);
		if (m > 1) { /* the whole cycles between */
			bus_tos_begun(sim, 0, seg->node_cnt, m - 1);
		}
		seg_count_beacons(sim, &sim->nodes[seg->coord], m);
		seg->cycle_start = bl;
		if (bl + beacon > t || (bl + beacon == t && !ended_at_t)) {
			sp_idle_beacon_on(sim, t, m, bl);
			return SP_OK;
		}
		sim->beacons_lazy += m;
		seg->last_beacon = bl + beacon;
		sp_signal_ended(sim, (u32)seg->coord, bl + beacon);
		/* TO 0 began as the BEACON ended: an event, counted and decided there */
		seg->cur_id = 0;
		seg->to_start = bl + beacon;
		sp_set_end(sim);
		sp_tos(sim, 0, 1);
		if (seg->to_start == t) {
			seg->eval_pending = true; /* its decision comes after this instant's events */
			return SP_OK;
		}
	}
	if (!at_event)
		return SP_OK;
	/* seg_materialise(): the TOs begun by t; one that begins right at t begins, decided next */
	k = seg->cur_id + (u32)((t - seg->to_start) / to);
	if (k == seg->cur_id)
		return SP_OK;
	sp_tos(sim, seg->cur_id + 1, k + 1);
	seg->to_start += (u64)(k - seg->cur_id) * to;
	seg->cur_id = k;
	if (seg->to_start == t)
		seg->eval_pending = true;
	return SP_OK;
}

/*
 * The start of the first TO of @n's id, from the current one on, by whose start @n has a frame
 * pending: in this cycle (its end at @e), or in the first later one that begins after its
 * pending_timer's end.
 */
static inline u64 sp_first_to(const struct plca_sim *sim, const struct bus_node *n, u64 e)
{
	const struct bus_seg *seg = &sim->seg;
	u64 to = seg->to_ns, cycle = seg_cycle_ns(seg);
	u64 from = n->ds == DS_DELAY_PENDING ? n->rs_due : 0, s;
	u32 id = (u32)n->cfg.plca.node_id;

	if (id > seg->cur_id) {
		s = seg->to_start + (u64)(id - seg->cur_id) * to;
		if (from <= s)
			return s;
	}
	s = e + BT(PLCA_SIM_BEACON_BT) + (u64)id * to;
	if (from > s)
		s += (from - s + cycle - 1) / cycle * cycle;
	return s;
}

/* Arm the idle run's timer at @t, unless it is armed there already. */
static inline void sp_aim_at(struct plca_sim *sim, u64 t)
{
	if (sim->sp_timer && sim->sp_aim_t == t)
		return;
	sim->sp_timer = true;
	sim->sp_aim_t = t;
	sp_timer_prio(sim, (u32)sim->seg.coord, EV_SEG, t, BUS_PRIO_CYCLE);
}

/*
 * Aim the idle run at the first TO whose owner has a frame pending by its start, in this cycle
 * or a later one, or at this cycle's end while a frame is HELD (the BEACON collides it); with
 * nobody waiting for the cycle, no timer at all.  The cycles it passes run on by themselves
 * (sp_idle_to()): nobody acts at their BEACONs.
 */
static void sp_aim(struct plca_sim *sim)
{
	const struct bus_seg *seg = &sim->seg;
	u64 e = sp_cycle_end(seg), best = BUS_NEVER;
	bool held = false;

	if (!sim->nr_lazy_pend) {
		sp_cancel(sim, (u32)seg->coord, EV_SEG);
		sim->sp_timer = false;
		return;
	}
	for (u32 i = 0; i < sim->nr_lazy_pend; i++) {
		const struct bus_node *n = &sim->nodes[sim->lazy_pend[i]];

		held |= n->ds == DS_HOLD;
		best = min(best, sp_first_to(sim, n, e));
	}
	sp_aim_at(sim, held ? min(best, e) : best);
}

/*
 * @node began to wait for the cycle (HELD) or waits from a new instant on (its hold timer's
 * collision): the run is aimed at its TO if that comes first.  An aim that no longer holds for
 * anybody is left: its TO's decision finds nobody pending and aims the run again, as the
 * bit-level path's stale run timers do.
 */
static void sp_aim_one(struct plca_sim *sim, u32 node)
{
	const struct bus_seg *seg = &sim->seg;
	const struct bus_node *n = &sim->nodes[node];
	u64 e = sp_cycle_end(seg);
	u64 t = sp_first_to(sim, n, e);

	if (n->ds == DS_HOLD)
		t = min(t, e);
	if (!sim->sp_timer || t < sim->sp_aim_t)
		sp_aim_at(sim, t);
}

/* commit() of TO cur_id by its owner @node, pending now. */
static int sp_commit(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	struct bus_seg *seg = &sim->seg;
	int ret;

	seg->state = SEG_COMMIT;
	seg->owner = (int)node;
	n->committed = true;
	n->bc = 0;
	n->in_burst = false;
	n->st.tos_used++;
	sp_cancel(sim, node, EV_RS);
	sp_cancel(sim, (u32)seg->coord, EV_SEG);
	sim->sp_timer = false;
	if (n->ds == DS_HOLD)
		return sp_frame_start(sim, node, true);
	n->ds = DS_WAIT_MAC;
	sp_busy_del(sim, node);
	/* its COMMIT goes out (HELD frames collide), the commit_timer, the RS lets the MAC go */
	if (sp_signal_ok(sim, node))
		return SP_BAIL;
	ret = sp_held_collide(sim, node);
	if (ret)
		return ret;
	n->rs_due = sim->now + BT(PLCA_SIM_COMMIT_BT);
	kfsim_evq_take_seq(&sim->events); /* the commit_timer's place, never queued */
	n->rs_carrier_off = sim->now;
	ret = sp_mac_try(sim, node);
	if (ret)
		return ret;
	/*
	 * The MAC must send before the commit_timer runs out (in the same instant the timer,
	 * armed first, would run first): its IFG timer is the one that ends WAIT_MAC.
	 */
	if (n->mac != MAC_DEFER || n->waiting ||
	    !sim->sp_q->armed[node << BUS_SLOT_SHIFT | EV_MAC] ||
	    n->ifg_from + BT(PLCA_SIM_IFG_BT) >= n->rs_due)
		return SP_BAIL;
	return SP_OK;
}

/* to_eval(): the decision of TO cur_id, after every other event of its instant. */
static int sp_decide(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;
	int owner = sim->sp_q->owner[seg->cur_id];

	seg->eval_pending = false;
	if (owner >= 0 && sp_pending_at(&sim->nodes[owner], sim->now))
		return sp_commit(sim, (u32)owner);
	sp_aim(sim);
	return SP_OK;
}

/*
 * The idle run's timer: the cycle ends (its BEACON collides HELD frames), or the TO it was aimed
 * at begins, cycles later perhaps, its decision due.
 */
static int sp_run_timer(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;
	u64 e = sp_cycle_end(seg);

	sim->sp_timer = false;
	if (seg->state == SEG_BEACON) /* aimed at TO 0: the BEACON's end, due now, begins it */
		return SP_OK;
	if (sim->now == e) {
		sp_tos(sim, seg->cur_id + 1, seg->node_cnt);
		seg->cur_id = seg->node_cnt;
		seg->to_start = e;
		return sp_send_beacon(sim);
	}
	return sp_idle_to(sim, sim->now, false, true);
}

/* next_to() and begin_to() as the carrier drops after the owner's frame. */
static int sp_next_to(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;

	if (seg->owner >= 0) {
		struct bus_node *o = &sim->nodes[seg->owner];

		o->committed = false;
		o->in_burst = false;
	}
	seg->owner = -1;
	seg->cur_id++;
	seg->to_start = sim->now;
	sp_set_end(sim);
	if (seg->cur_id >= seg->node_cnt)
		return sp_send_beacon(sim);
	seg->state = SEG_WAIT_TO;
	sp_tos(sim, seg->cur_id, seg->cur_id + 1);
	seg->eval_pending = true;
	return SP_OK;
}

/* EV_TX_END: the owner's frame, or the coordinator's BEACON, ends. */
static int sp_tx_end(struct plca_sim *sim, u32 node)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *n = &sim->nodes[node];
	int ret;

	if (seg->state == SEG_BEACON) {
		/* rs_tx_end(): every follower heard it; TO 0 begins */
		seg->last_beacon = sim->now;
		sim->beacons_lazy++;
		sp_signal_ended(sim, node, sim->now);
		seg->cur_id = 0;
		seg->to_start = sim->now;
		sp_set_end(sim);
		seg->state = SEG_WAIT_TO;
		sp_tos(sim, 0, 1);
		seg->eval_pending = true;
		return sp_wake_waiters(sim);
	}
	/* the frame: sig_end(), mac_tx_done(), rs_data_end(), dequeue() */
	sig_end_on_wire(sim, node);
	sp_signal_ended(sim, node, sim->now);
	n->own_tx_end = sim->now;
	bus_frame_count_delivered(sim, n);
	n->ds = DS_IDLE;
	bus_frame_pop(sim, n);
	sim->sp_frames++;
	ret = sp_frame_ready(sim, node);
	if (ret)
		return ret;
	ret = sp_next_to(sim);
	if (ret)
		return ret;
	return sp_wake_waiters(sim);
}

/* EV_ARRIVAL: mac_arrival(). */
static int sp_arrival(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	u64 next;
	int ret = SP_OK;

	if (bus_frame_push(sim, n, sim->now, bus_draw_payload(sim, n)))
		ret = sp_frame_ready(sim, node);
	if (ret)
		return ret;
	next = bus_next_arrival(sim, n); /* only Poisson and periodic senders have arrivals */
	if (n->cfg.load == PLCA_SIM_LOAD_PERIODIC)
		n->next_periodic = next;
	sp_arrival_rearm(sim, next);
	return SP_OK;
}

/* ---- taking over, running, giving back ----------------------------------------------------- */

/* The segment is one the sparse engine models (see the top of the file). */
static bool sparse_eligible(const struct plca_sim *sim)
{
	const struct bus_seg *seg = &sim->seg;

	if (sim->sparse_off || sim->bit_level || sim->trace || seg->coord < 0 || sim->nr_oc ||
	    sim->nr_unsynced || sim->misconfig || !seg->to_ns || seg->to_ns <= sim->max_prop ||
	    sim->max_prop >= BT(PLCA_SIM_BEACON_BT) || seg->node_cnt > 255)
		return false;
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		const struct bus_node *n = &sim->nodes[i];
		u32 id = (u32)n->cfg.plca.node_id;

		if (!rs_active(n) || n->oc || n->cfg.plca.burst_cnt || n->cfg.ignores_collisions ||
		    bus_sole_owner(sim, id) != (int)i)
			return false;
		if (n->cfg.load != PLCA_SIM_LOAD_NONE && n->cfg.load != PLCA_SIM_LOAD_POISSON &&
		    n->cfg.load != PLCA_SIM_LOAD_PERIODIC)
			return false;
	}
	return true;
}

/*
 * At an idle landing: nothing under way anywhere, the cycle in an idle run, and nothing queued
 * but the nodes' arrivals and the bit-level engine's run timers (which only ever bring its idle
 * runs up to date).  The arrivals move to the sparse engine's heap with their sequence numbers;
 * the last signal that ended is remembered for the tail check.  False (nothing changed) when any
 * of that does not hold, or there is no memory for the queue.  One pass over the queue both
 * checks and moves (an event of another kind refuses it all).
 */
static bool sparse_take_over(struct plca_sim *sim)
{
	const struct bus_seg *seg = &sim->seg;
	struct sparse_q *q;

	if (seg->state != SEG_WAIT_TO || seg->eval_pending || sim->nr_queued || sim->nr_ds_busy ||
	    sim->nr_committed || sim->nr_active || sim->nr_waiters || sim->nr_lazy_pend ||
	    sim->nr_pending || sim->nr_hold || bus_held_live(sim) || !sparse_eligible(sim))
		return false;
	q = kzalloc(sizeof(*q) + sim->nr_fixed * sizeof(q->armed[0]), GFP_KERNEL | __GFP_NOWARN);
	if (q) {
		q->arr = kmalloc_array(sim->nr_nodes, sizeof(*q->arr), GFP_KERNEL | __GFP_NOWARN);
		q->soon = kmalloc_array(4 * sim->nr_nodes + 4, sizeof(*q->soon),
					GFP_KERNEL | __GFP_NOWARN);
		q->owner = kmalloc_array(seg->node_cnt + 1, sizeof(*q->owner),
					 GFP_KERNEL | __GFP_NOWARN);
	}
	if (!q || !q->arr || !q->soon || !q->owner)
		goto refuse;
	/* and -1 at node_cnt, as bus_sole_owner() answers past the last id */
	for (u32 id = 0; id <= seg->node_cnt; id++)
		q->owner[id] = id < seg->node_cnt ? bus_sole_owner(sim, id) : -1;
	for (u32 h = 0; h < 2; h++) {
		const struct kfsim_evheap *heap = &sim->events.heap[h];

		for (u32 i = 0; i < heap->len; i++) {
			const struct kfsim_event *ev = &heap->ev[i];
			u32 slot = kfsim_event_data(ev), j;

			if (slot >= sim->nr_fixed) {
				if (!bus_is_run_timer(sim, ev))
					goto refuse;
				continue;
			}
			if (sim->slot_seq[slot] != kfsim_event_seq(ev))
				continue; /* withdrawn */
			if ((slot & (BIT(BUS_SLOT_SHIFT) - 1)) != EV_ARRIVAL)
				goto refuse;
			/* a heap insert (the events are distinct: no two are equal) */
			for (j = q->nr_arr++; j && kfsim_event_before(ev, &q->arr[(j - 1) / 2]);
			     j = (j - 1) / 2)
				q->arr[j] = q->arr[(j - 1) / 2];
			q->arr[j] = *ev;
		}
	}
	sim->sp_q = q;
	for (u32 i = 0; i < sim->nr_nodes; i++)
		sim->nodes[i].pend_lazy = false;
	sim->sp_last = (struct sparse_sig){UINT32_MAX, 0, 0};
	for (u32 k = sim->sig_head; k != sim->sig_tail;) {
		const struct bus_signal *sg = sig_at(sim, --k);

		if (sg->end != BUS_NEVER) {
			sim->sp_last = (struct sparse_sig){sg->node, sg->pos_ns, sg->end};
			break;
		}
	}
	sim->sp_timer = false;
	sim->sp_nr_held = 0;
	sim->sparse_on = true;
	sim->sp_takeovers++;
	return true;
refuse:
	sparse_q_free(q);
	return false;
}

/* The next event of the sparse engine's queue, or NULL; *@arrival: it is the arrivals' top. */
static inline struct kfsim_event *sp_next(struct sparse_q *q, bool *arrival)
{
	struct kfsim_event *a = q->nr_arr ? &q->arr[0] : NULL;
	struct kfsim_event *b = q->nr_soon ? &q->soon[q->nr_soon - 1] : NULL;

	*arrival = a && (!b || kfsim_event_before(a, b));
	return *arrival ? a : b;
}

/*
 * The run up to @t_ns in the sparse engine.  Return: SP_OK, or SP_BAIL (nothing is valid).
 * Flattened: the handlers of this file inline into the loop, which spares a frame's dozen calls
 * their register saves and argument set-up: 2,111 -> 1,883 instructions a frame on the bench's
 * Poisson segment (callgrind, 2026-12-08).  sp_rs_tx_start() stays a call (noinline): with it
 * the mutual calls of the MAC and the RS unrolled into a 71 KiB loop for 20 instructions less;
 * as it is, the loop is 27 KiB.
 */
static __attribute__((flatten)) int sparse_run(struct plca_sim *sim, u64 t_ns)
{
	struct sparse_q *q = sim->sp_q;
	struct bus_seg *seg = &sim->seg;

	sp_set_end(sim); /* the reads between two runs may have moved cur_id */
	for (;;) {
		struct kfsim_event *next, ev;
		bool arrival;
		u32 slot, node, kind;
		u64 t;
		int ret;

		next = sp_next(q, &arrival);
		if (seg->eval_pending && (!next || kfsim_event_time(next) > sim->now)) {
			if (sp_decide(sim))
				return SP_BAIL;
			continue;
		}
		if (!next || kfsim_event_time(next) > t_ns)
			break;
		ev = *next;
		if (!arrival) {
			q->nr_soon--;
			q->armed[kfsim_event_data(&ev)] = false;
		}
		slot = kfsim_event_data(&ev);
		node = slot >> BUS_SLOT_SHIFT;
		kind = slot & (BIT(BUS_SLOT_SHIFT) - 1);
		t = kfsim_event_time(&ev);
		/*
		 * An idle run up to here: the ends of the cycles it passed came by themselves (the
		 * run's own timer, at a cycle's end where a BEACON collides, walks its own way).
		 */
		if (seg->state == SEG_WAIT_TO && !seg->eval_pending && kind != EV_SEG &&
		    t >= sp_cycle_end(seg) &&
		    sp_idle_to(sim, t, false, false))
			return SP_BAIL;
		sim->now = t;
		sim->nr_events++;
		switch (kind) {
		case EV_ARRIVAL:
			ret = sp_arrival(sim, node);
			break;
		case EV_MAC:
			ret = sp_mac_timer(sim, node);
			break;
		case EV_RS:
			ret = sp_hold_out(sim, node);
			break;
		case EV_TX_END:
			ret = sp_tx_end(sim, node);
			break;
		case EV_SEG:
			ret = sp_run_timer(sim);
			break;
		default:
			ret = SP_BAIL;
			break;
		}
		if (ret)
			return SP_BAIL;
	}
	/* the run ends at t_ns: BEACONs that began or ended by then count, TOs are the reads' */
	if (seg->state == SEG_WAIT_TO && !seg->eval_pending && t_ns > sim->now &&
	    sp_idle_to(sim, t_ns, true, false))
		return SP_BAIL;
	sim->now = t_ns;
	if (seg->state == SEG_WAIT_TO) {
		/* the reads count the run's TOs up to the one it is aimed at, in this cycle */
		u64 e = sp_cycle_end(seg);

		seg->idle_to = sim->sp_timer && sim->sp_aim_t < e ?
			seg->cur_id + (u32)((sim->sp_aim_t - seg->to_start) / seg->to_ns) :
			seg->node_cnt;
	}
	return SP_OK;
}

/*
 * Rebuild the bit-level state at now: a new simulator from the same settings and seed, run by
 * the bit-level engine (fast paths and all, the sparse engine off) up to now, takes the place of
 * this one's insides.  Its figures are the sparse engine's: the run is deterministic.  The
 * caller's handle stays valid.  Return: 0 or -ENOMEM.
 */
int sparse_replay(struct plca_sim *sim)
{
	struct plca_sim_cfg cfg = sim->orig;
	struct plca_sim *fresh;
	u64 frames = sim->sp_frames, takeovers = sim->sp_takeovers, bails = sim->sp_bails;
	u64 replays = sim->sp_replays + 1;
	int ret;

	cfg.nodes = sim->orig_nodes;
	fresh = plca_sim_new(&cfg, true);
	if (IS_ERR(fresh))
		return PTR_ERR(fresh);
	ret = kfsim_plca_sim_run_until(fresh, sim->now);
	if (ret) {
		kfsim_plca_sim_destroy(fresh);
		return ret;
	}
	/* the new insides in place of the old (the new one holds its own copy of the settings) */
	plca_sim_free_insides(sim);
	*sim = *fresh;
	kfree(fresh);
	sim->sp_frames = frames;
	sim->sp_takeovers = takeovers;
	sim->sp_bails = bails;
	sim->sp_replays = replays;
	return 0;
}

/*
 * Run up to @t_ns in the sparse engine if it holds the run or may take it over now; false when
 * the caller's event loop goes on.  A run it gives up on is replayed bit-level up to @t_ns, and
 * the sparse engine is off for this simulator from then on.  *@ret: the run's result.
 */
bool sparse_maybe_run(struct plca_sim *sim, u64 t_ns, int *ret)
{
	u64 start = sim->now;

	sim->sparse_ready = false;
	if (!sim->sparse_on && !sparse_take_over(sim))
		return false;
	if (bus_oom(sim)) {
		*ret = -ENOMEM;
		return true;
	}
	*ret = 0;
	if (sparse_run(sim, t_ns) == SP_OK)
		return true;
	pr_debug("plca_sim: the sparse engine gave up at %llu ns (from %llu): replaying\n",
		 (unsigned long long)sim->now, (unsigned long long)start);
	sim->sp_bails++;
	sim->now = t_ns;
	*ret = sparse_replay(sim);
	if (*ret) /* its state is gone and the bit-level one stale: the run is over, as on -ENOMEM */
		kfsim_evq_fail(&sim->events, *ret);
	return true;
}
