// SPDX-License-Identifier: MIT
/*
 * A lone frame's own path in few steps: where one node's frame makes its way through the PLCA
 * RS and nothing else on the segment can act in the meantime, the steps whose outcome is known
 * are done at once instead of as events.  Three such stretches are modelled:
 *
 *   (1) from the frame's arrival to its start on the wire, when its TO begins within the delay
 *       line's hold time (HOLD, then COMMIT sends the delay line out), bus_fast_arrival();
 *   (2) from the arrival to the logical collision of its hold timer, when its TO is further
 *       away (HOLD, the idle run re-aimed, the hold timer's collision), bus_fast_arrival();
 *   (3) from the decision of a TO whose one owner has a frame PENDING (after its logical
 *       collision) to that frame's start on the wire: COMMIT, the MAC's IFG into it, the frame,
 *       bus_fast_commit(); and on to the frame's end when that is the event loop's next event,
 *       which it then runs as the loop would (bus_on_tx_end(), not queued).
 *
 *   arrival | HOLD ......... | TO x: COMMIT, delay line out ====== frame ====== |     (1)
 *   arrival | HOLD ........................ | collision, backoff; DELAY_PENDING     (2)
 *   TO x decision: COMMIT ---- IFG (96 BT) ---- | ====== frame ====== |              (3)
 *
 * Each runs only when nothing else can act in the stretch: no signal on the wire or its tail on
 * the way, no MAC waiting on the carrier, no frame held, no other node committed, every PLCA
 * node synchronised, no own clock, the node alone with its id, the next queued event after the
 * stretch (but run timers of earlier idle runs, which in a committed TO only count as one event
 * each), and the run going on at least until its end; (1) and (2) also need the segment at rest
 * in an idle run aimed at the cycle's end, with no frame queued anywhere, and no trace.  (3)
 * lets other nodes wait with frames PENDING or DELAY_PENDING (their pending_timers queued after
 * the stretch, or lazy): nothing in the stretch acts on them (sim->fast_commit_shared counts
 * those TOs).  What the bit-level path does is then done in the same order: the same state,
 * statistics, random draws, trace events, event counts and sequence numbers (timers that the
 * bit-level path would arm and later withdraw take theirs without being queued).  What follows
 * the frame's start stays with the event loop (and the per-TO model of bus_fast.c): (3) only
 * saves the end's trip through the heap, and runs the end by the same handler.
 * Anything else is left to the bit-level path, as is every run with struct
 * plca_sim_cfg.bit_level set.
 *
 * tests/plcasim/test_sim_fastpath.c runs both paths and compares them to the bit.
 */
#include <kfsim/bug.h>
#include <kfsim/kernel.h>
#include "bus_internal.h"

/*
 * Whether no queued event but run timers comes before or at @t.  If so, the run timers due by
 * @t are taken out of the queue and counted as the one event each is in a committed TO
 * (seg_materialise() finds no idle run), their slots freed as the loop frees them; otherwise the
 * queue is left as it was.  The caller commits the TO before anything of that instant could run
 * them.
 */
static bool only_run_timers_until(struct plca_sim *sim, u64 t)
{
	struct kfsim_event stale[BUS_STALE_MAX];
	u32 nr;
	bool ok = bus_next_not_run(sim, t, stale, &nr) > t;

	bus_stale_runs_done(sim, stale, nr, ok, t);
	return ok;
}

/*
 * The segment is at rest but for what the caller looks at and for nodes that only wait: nothing
 * else can act on its own before its next queued event.  Other nodes may be PENDING, or
 * DELAY_PENDING with their pending_timer queued or lazy (the caller says which it allows): a
 * signal that starts does nothing to them (only HELD frames collide, rs_signal_started()), and
 * a lazy pending_timer acts at a TO decision only, none of which falls in a stretch.
 */
static bool segment_quiet(const struct plca_sim *sim)
{
	return !sim->nr_oc && !sim->nr_active && !sim->nr_waiters && !sim->nr_hold &&
	       !sim->nr_unsynced && !sim->nr_committed && !bus_held_live(sim) &&
	       sim->seg.coord >= 0;
}

/*
 * The end of that IFG with nothing new on the wire: mac_try() finds it still clear and sends
 * (start_tx()); the RS, committed and waiting for the MAC, puts the frame behind the COMMIT
 * (rs_mac_tx_start()).  Return: when the frame ends (its EV_TX_END took its number, not queued).
 */
static u64 lone_ifg_over(struct plca_sim *sim, u32 node)
{
	bus_fast_ifg_over(sim, node);
	rs_fast_frame_start(sim, node);
	return sim->sig[sim->nodes[node].sig].end;
}

/*
 * The frame's end at @t_end, armed with its number: when it would be the event loop's next
 * event (nothing live queued up to its instant, none of it held, the run not over, the queue
 * not out of memory), the loop would pop it, move the time there, count it and run
 * bus_on_tx_end() before anything else: do that here, the heap round trip saved (the TO then
 * carries its frame to its end in one step).  Otherwise queue it.  Only where the running
 * event does nothing after the frame's start: the event loop's own TO decision, whose last
 * step bus_fast_commit() is; not the decision that bus_fast_next_cycle() runs inside the event
 * that ended the cycle (sim->at_event_tail), which still wakes MAC waiters after it.
 */
static void lone_frame_end(struct plca_sim *sim, u32 node, u64 t_end)
{
	u32 slot = node << BUS_SLOT_SHIFT | EV_TX_END;

	if (sim->at_event_tail || t_end > sim->run_limit || bus_oom(sim) || bus_held_live(sim) ||
	    bus_next_live(sim) <= t_end) {
		bus_queue_push(sim, t_end, BUS_PRIO_NODE, slot, sim->slot_seq[slot]);
		return;
	}
	sim->now = t_end;
	sim->nr_events++;
	sim->fast_commit_ends++;
	bus_on_tx_end(sim, node);
}

/*
 * The decision of TO @id, now, finds its owner pending: commit() and what follows up to the
 * frame's start, when the segment is quiet but for nodes that wait (segment_quiet()) and nothing
 * queued comes before the end of the owner's IFG.  Return: false (nothing done) otherwise.
 */
bool bus_fast_commit(struct plca_sim *sim, u32 id)
{
	u64 now = sim->now, off_at, t_ifg, t_end;
	struct bus_node *n;
	int node;

	if (!segment_quiet(sim))
		return false;
	node = bus_sole_owner(sim, id);
	if (node < 0)
		return false;
	n = &sim->nodes[node];
	if (!rs_active(n) || n->ds != DS_PENDING || n->mac != MAC_DEFER || n->waiting ||
	    n->ifg_from || n->backoff_end > now || n->sig >= 0 ||
	    sim->slot_seq[(u32)node << BUS_SLOT_SHIFT | EV_MAC] != BUS_SEQ_NONE)
		return false;
	/*
	 * The MAC's carrier check after the COMMIT (mac_try() from rs_release_carrier()): no data
	 * signal in view or on its way, so it waits the IFG from now.  Neither the COMMIT nor the
	 * frame meets the tail of an earlier signal.
	 */
	t_ifg = now + BT(PLCA_SIM_IFG_BT);
	if (t_ifg > sim->run_limit || bus_tail_in_flight(sim, (u32)node, now) ||
	    bus_carrier(sim, (u32)node, true, BUS_NEVER, &off_at) || sim->carrier_unseen ||
	    max(off_at, n->own_tx_end) > now || !only_run_timers_until(sim, t_ifg))
		return false;
	/* commit(): the one owner takes the TO, its COMMIT goes out, the commit_timer is armed */
	seg_fast_commit(sim, (u32)node);
	bus_fast_signal_open(sim, (u32)node, SIG_COMMIT, BUS_NEVER);
	sim->nr_active++;
	n->rs_due = now + BT(PLCA_SIM_COMMIT_BT);
	sim->slot_seq[(u32)node << BUS_SLOT_SHIFT | EV_RS] = kfsim_evq_take_seq(&sim->events);
	sim->has_held = false; /* the commit_timer, withdrawn at the frame's start */
	n->rs_carrier_off = now;
	bus_fast_ifg(sim, (u32)node, now, false);
	/* the IFG's end (one event): the frame goes out behind the COMMIT */
	sim->now = t_ifg;
	sim->nr_events++;
	t_end = lone_ifg_over(sim, (u32)node);
	sim->fast_commits++;
	sim->fast_commit_shared += sim->nr_ds_busy > 1; /* another node's RS is not at rest */
	lone_frame_end(sim, (u32)node, t_end);
	return true;
}

/* What the arrival does (bus_fast_arrival() worked it out), and where its path goes next. */
struct lone_arrival {
	u32 payload;
	u64 t_next;    /* the node's next arrival */
	u32 cur;       /* the TO current at the arrival (seg_materialise()) */
	u64 cur_start; /* and its start */
	bool reaim;    /* the idle run is re-aimed at the node's TO, which begins at ... */
	u64 t_to;
	bool commits; /* ... within the hold time: it commits there, or the hold timer runs out */
};

/*
 * The frame that arrives now at @node under mac_arrival(): the MAC finds the carrier off and
 * sends into the delay line (HOLD, the hold timer armed), the idle run is brought up to now and
 * re-aimed at the node's TO if that is still to come in this cycle, and the next arrival is
 * armed.  The hold timer takes its sequence number but is not queued: the caller runs it out or
 * the commit withdraws it.  The run timer is queued unless the caller runs it (@la->commits).
 */
static void lone_arrival(struct plca_sim *sim, u32 node, const struct lone_arrival *la)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *n = &sim->nodes[node];
	u32 id = (u32)n->cfg.plca.node_id;

	/* the queue (empty: nr_queued is 0) and mac_frame_ready(): the carrier is off, start_tx() */
	bus_frame_push(sim, n, sim->now, la->payload);
	n->attempts = 0;
	n->backoff_end = 0;
	n->deferred_this_attempt = false;
	n->ifg_clear = false;
	bus_mac_sends(sim, n, node);
	/* rs_mac_tx_start(): HOLD, then seg_materialise() */
	rs_fast_hold(sim, node);
	sim->slot_seq[node << BUS_SLOT_SHIFT | EV_RS] = kfsim_evq_take_seq(&sim->events);
	if (la->cur > seg->cur_id) /* TOs cur_id + 1 .. cur began */
		bus_tos_begun(sim, seg->cur_id + 1, la->cur + 1, 1);
	seg->cur_id = la->cur;
	seg->to_start = la->cur_start;
	if (la->reaim) {
		seg->idle_to = id;
		if (la->commits)
			kfsim_evq_take_seq(&sim->events);
		else
			bus_schedule_slot(sim, la->t_to, BUS_PRIO_CYCLE, 0, EV_SEG, SEGT_TO_RUN);
	}
	/* the next arrival */
	if (n->cfg.load == PLCA_SIM_LOAD_PERIODIC)
		n->next_periodic = la->t_next;
	bus_timer(sim, node, EV_ARRIVAL, la->t_next);
}

/*
 * The node's TO begins at @la->t_to, within the hold time: its run timer, then the decision (two
 * events).  The TOs after the current one up to the node's began (the run timer's
 * seg_materialise() counts them, begin_to() the node's), and it commits: the delay line goes out.
 */
static void lone_commit_from_hold(struct plca_sim *sim, u32 node, const struct lone_arrival *la)
{
	struct bus_seg *seg = &sim->seg;
	u32 id = (u32)sim->nodes[node].cfg.plca.node_id;

	sim->now = la->t_to;
	sim->nr_events += 2;
	bus_tos_begun(sim, la->cur + 1, id + 1, 1);
	seg->to_start = la->t_to;
	seg->cur_id = id;
	seg->owner = -1;
	seg_fast_commit(sim, node);
}

/*
 * Where the frame arriving now at @node goes, when the segment is at rest in an idle run
 * (nothing queued or busy anywhere, the run aimed at the cycle's end): into HOLD, and from there
 * either out behind the COMMIT of its TO, when that begins within the hold time, or into the
 * logical collision of the hold timer.  False when something queued could act first (an event,
 * or a run timer, which in the idle run would act), when the run ends first, or when the carrier
 * would keep the MAC from sending.
 */
static bool lone_arrival_plan(struct plca_sim *sim, u32 node, struct lone_arrival *la)
{
	struct bus_seg *seg = &sim->seg;
	struct bus_node *n = &sim->nodes[node];
	u64 now = sim->now, off_at, t_hold = now + BT(PLCA_SIM_HOLD_BT), until;
	u32 id = (u32)n->cfg.plca.node_id, passed;

	if (seg->state != SEG_WAIT_TO || seg->eval_pending || sim->nr_queued || sim->nr_ds_busy ||
	    sim->trace || !segment_quiet(sim) || sim->nr_lazy_pend ||
	    seg->idle_to != seg->node_cnt || !seg->to_ns || !rs_active(n) || n->mac != MAC_IDLE ||
	    n->ifg_from || n->in_burst || n->cfg.ignores_collisions ||
	    bus_sole_owner(sim, id) != (int)node)
		return false;
	/* seg_materialise() at the arrival: the TO current now, which must not begin right now */
	passed = (u32)min_t(u64, (now - seg->to_start) / seg->to_ns, seg->node_cnt - seg->cur_id);
	la->cur = seg->cur_id + passed;
	la->cur_start = seg->to_start + (u64)passed * seg->to_ns;
	if ((passed && la->cur_start == now) || la->cur >= seg->node_cnt)
		return false;
	la->reaim = id > la->cur;
	la->t_to = la->cur_start + (u64)(id - la->cur) * seg->to_ns;
	/* the run timer of the node's TO comes before a hold timer of the same instant */
	la->commits = la->reaim && la->t_to <= t_hold;
	until = la->commits ? la->t_to : t_hold;
	/* a queued event in the stretch (another node's timer, most often) refuses it: ask first */
	if (until > sim->run_limit || bus_next_live(sim) <= until ||
	    (la->commits && bus_tail_in_flight(sim, node, la->t_to)))
		return false;
	/* mac_try(): the carrier, as the RS passes it through, has been off for the IFG */
	if (bus_carrier(sim, node, true, BUS_NEVER, &off_at))
		return false;
	off_at = max(off_at, n->rs_carrier_off);
	off_at = max(off_at, n->own_tx_end);
	return !(off_at && now < off_at + BT(PLCA_SIM_IFG_BT));
}

/*
 * EV_ARRIVAL of @node: a lone frame's way from its arrival to the wire, or to the logical
 * collision of its hold timer, in one step (lone_arrival_plan() says when).  Return: false,
 * nothing done (the random generator as it was), otherwise.
 */
bool bus_fast_arrival(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	struct rnd_state saved = sim->rnd;
	struct lone_arrival la;

	if (!lone_arrival_plan(sim, node, &la))
		return false;
	la.payload = bus_draw_payload(sim, n);
	la.t_next = bus_next_arrival(sim, n);
	if (la.t_next <= (la.commits ? la.t_to : sim->now + BT(PLCA_SIM_HOLD_BT))) {
		sim->rnd = saved; /* the next arrival comes first */
		return false;
	}
	lone_arrival(sim, node, &la);
	if (la.commits) {
		lone_commit_from_hold(sim, node, &la);
		sim->fast_arrivals++;
		return true;
	}
	/* the hold timer runs out (one event): the logical collision, the backoff draw */
	sim->now = n->rs_due;
	sim->nr_events++;
	rs_on_timer(sim, node);
	sim->fast_holds++;
	return true;
}
