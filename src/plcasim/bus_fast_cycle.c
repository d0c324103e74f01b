// SPDX-License-Identifier: MIT
/*
 * The wait for the next cycle in one step.  A frame whose TO has passed waits PENDING for the
 * next cycle; when the cycle ends (its last TO's idle run runs out, or the last TO's frame
 * ends), the bit-level path sends the BEACON, ends it (an event), begins TO 0 and decides it
 * (an event), runs silently up to the first pending id (the idle run's timer, an event) and
 * begins that TO, whose decision is the next event:
 *
 *   cycle end: BEACON (20 BT) | TO 0 decision: idle run ... | TO id: decision (the event loop's)
 *
 * bus_fast_next_cycle() does those steps at once when their outcome is known: some node is
 * PENDING, nothing is on the wire or on its way to the coordinator, no lazy pending_timer (the
 * TO 0 decision would settle or queue it), no MAC waits on the carrier, no timer is held that
 * runs out before the step's end (a held frame's hold timer may: the BEACON ends it), every
 * PLCA node is synchronised, no own clock, no trace, and nothing queued comes before the decision
 * but run timers of earlier idle runs that run out during the BEACON (there they find no idle run
 * and only count as an event).  It does what the bit-level path does, in its order: the
 * coordinator's BEACON counts, the BEACON on the signal ring (opened and ended, as carrier sense
 * reads it later), the lazily counted BEACON and TOs (bus_stats.c), the sequence numbers of the
 * BEACON's end and the idle run's timer, one event each for the BEACON's end, TO 0's decision
 * and the run timer, and it leaves the segment at the decision of the first pending id's TO, due
 * now, which the event loop then takes (commit, possibly in one step by bus_fast_commit()).
 *
 * A frame HELD in a delay line when the cycle ends (it arrived less than the hold time before)
 * meets the BEACON: a logical collision, its backoff draw and a lazy pending_timer, which the TO
 * 0 decision then reads.  With such frames the step runs the collisions as the bit-level path
 * does and ends by running TO 0's decision itself, at the BEACON's end, where nothing queued
 * may come first:
 *
 *   cycle end: BEACON, HELD frames collide | TO 0 decision (run here)
 *
 * tests/plcasim/test_sim_fastpath.c runs both paths and compares them to the bit.
 */
#include <kfsim/kernel.h>
#include "bus_internal.h"

/*
 * The BEACON starts now: the frames HELD in delay lines meet it, each a logical collision
 * (rs_signal_started(), in index order); their pending_timers are lazy, as outside an idle run.
 */
static void beacon_collides_held(struct plca_sim *sim)
{
	for (u32 w = 0; w * 64 < sim->nr_nodes; w++) {
		/* a collision changes only its own node's bit: the word read once is the walk's */
		for (u64 bits = sim->hold_bits[w]; bits; bits &= bits - 1) {
			u32 i = w * 64 + (u32)__builtin_ctzll(bits);

			if (rs_active(&sim->nodes[i]))
				rs_fast_collide(sim, i);
		}
	}
}

/*
 * The cycle ends now (begin_to() past the last TO, to_start now) while the running event does
 * nothing after it (sim->at_event_tail): the BEACON and the wait up to the first pending id's TO
 * in one step, when nothing can happen in between.  Return: false, nothing done, otherwise.
 * Outside kfsim_plca_sim_run_until() (a settings change) now is the end of the last run, so the
 * BEACON's end, which comes later, is never within the run.
 */
bool bus_fast_next_cycle(struct plca_sim *sim)
{
	struct bus_seg *seg = &sim->seg;
	struct kfsim_event stale[BUS_STALE_MAX];
	u64 t_end, t_dec, t_last;
	u32 id, coord, nr_stale;
	bool ok, held = sim->nr_hold != 0;

	if (sim->trace || sim->nr_oc || sim->any_stopper || seg->coord < 0 || !seg->to_ns ||
	    sim->nr_active || sim->nr_waiters || sim->nr_lazy_pend || sim->nr_unsynced ||
	    sim->nr_committed)
		return false;
	coord = (u32)seg->coord;
	/* the coordinator's own delay line would not meet its BEACON */
	if (held && (sim->hold_bits[coord / 64] >> (coord % 64) & 1))
		return false;
	/* nothing held: the first pending id's TO must be in the next cycle */
	id = bus_next_pending_id(sim, 0);
	if (!held && id >= seg->node_cnt)
		return false;
	t_end = sim->now + BT(PLCA_SIM_BEACON_BT);
	t_dec = t_end + (u64)id * seg->to_ns;
	/*
	 * With frames held the step ends at TO 0's decision; else at the first pending id's.
	 * The BEACON must not meet the tail of a signal on its way to the coordinator.
	 */
	t_last = held ? t_end : t_dec;
	if (t_last > sim->run_limit || bus_tail_in_flight(sim, coord, sim->now))
		return false;
	/*
	 * A held timer due in the step would run first.  None can today: with no TO committed and
	 * no own clock, a live held timer is a HELD frame's hold timer, which the BEACON's
	 * collision ends (one due later is left, as a queued one would be); the check stays for
	 * whatever else may be held one day.
	 */
	if (bus_held_live_by(sim, t_last))
		return false;
	/*
	 * Nothing queued before the step's end, nor at its instant (a node's event at the BEACON's
	 * end could run before it), but run timers that run out by the BEACON's end.  The held
	 * frames' collisions queue nothing before then: a MAC's next timer is a jam (32 BT) or a
	 * frame's length away.
	 */
	ok = bus_next_not_run(sim, t_last, stale, &nr_stale) > t_last;
	for (u32 i = 0; ok && i < nr_stale; i++)
		ok = kfsim_event_time(&stale[i]) <= t_end;
	bus_stale_runs_done(sim, stale, nr_stale, ok, t_end);
	if (!ok)
		return false;
	/* cycle_end() and send_beacon(): the coordinator's BEACON goes out */
	seg->owner = -1;
	seg->state = SEG_BEACON;
	seg_count_beacons(sim, &sim->nodes[coord], 1);
	seg->cycle_start = sim->now;
	bus_fast_signal_open(sim, coord, SIG_BEACON, t_end);
	if (held) {
		beacon_collides_held(sim);
		sim->fast_beacon_holds++;
	}
	/* its end (one event): every PLCA node heard it (rs_tx_end()), TO 0 begins */
	sim->now = t_end;
	sig_end(sim, coord);
	sim->nodes[coord].oc_beaconing = false;
	seg->last_beacon = t_end;
	sim->beacons_lazy++;
	seg->cur_id = 0;
	seg->to_start = t_end;
	seg->state = SEG_WAIT_TO;
	sim->nr_events++;
	sim->fast_next_cycles++;
	if (held) {
		/* TO 0's decision (one event), which the event loop would take next */
		bus_tos_begun(sim, 0, 1, 1);
		seg->eval_pending = true;
		sim->nr_events++;
		seg_eval_due(sim);
		return true;
	}
	if (id) {
		/*
		 * TO 0's decision (one event): nothing pending before id, an idle run up to it,
		 * whose timer (one event, its sequence number) begins TO id: TOs 1 .. id began
		 */
		kfsim_evq_take_seq(&sim->events);
		sim->nr_events += 2;
		seg->idle_to = id;
		seg->cur_id = id;
		seg->to_start = t_dec;
		sim->now = t_dec;
	}
	bus_tos_begun(sim, 0, id + 1, 1);
	seg->eval_pending = true;
	return true;
}
