// SPDX-License-Identifier: MIT
/*
 * The wire: every transmission is a signal [start, end) from one node, seen at another node
 * d = |position difference| * 5 ns later, and sensed as carrier (CRS) crs_delay after that.
 * Carrier sense and collision detection are questions asked of the recent signals, so a node
 * costs nothing while nobody asks about it.  Collision detection sees the MDI itself (no CRS
 * latency): two nodes that both start within propagation + crs_delay of each other collide.
 *
 *   node A  |====== frame ======|                 A's signal reaches B d later:
 *   node B        |====         B starts before A's signal arrives (B sensed no carrier),
 *                 ^   ^ B detects A at A.start + d; A detects B at B.start + d
 *
 * Invariants: the live window [sig_tail, sig_head) holds every signal that is active or ended
 * less than max_prop + IFG ago (older ones can no longer affect carrier sense or the IFG);
 * nr_active counts active signals; a node's collision detection is armed at most once, at the
 * earliest overlap.
 */
#include <kfsim/bug.h>
#include <kfsim/kernel.h>
#include "bus_internal.h"

/* Propagation time between a node at @pa and the sender of @s. */
static inline u64 prop(u64 pa, const struct bus_signal *s)
{
	return pa > s->pos_ns ? pa - s->pos_ns : s->pos_ns - pa;
}

static void arm_collision(struct plca_sim *sim, u32 node, u64 at)
{
	struct bus_node *n = &sim->nodes[node];

	if (n->col_at <= at)
		return;
	n->col_at = at;
	bus_timer(sim, node, EV_COL, at);
}

/* Arm detection for the new signal of @node against every other signal still on the wire. */
static void check_overlaps(struct plca_sim *sim, u32 node, u64 end)
{
	u64 now = sim->now, pos = sim->nodes[node].pos_ns;

	for (u32 k = sim->sig_tail; k != sim->sig_head; k++) {
		struct bus_signal *s = sig_at(sim, k);
		u64 d;

		if (s->node == node || s->end == now)
			continue;
		d = prop(pos, s);
		if (s->end != BUS_NEVER && s->end + d <= now)
			continue; /* gone past this node already */
		/* This node sees s from max(now, s.start + d) while it transmits. */
		if (max(now, s->start + d) < end)
			arm_collision(sim, node, max(now, s->start + d));
		/* s's node sees this signal from now + d while it still transmits. */
		if (s->active && now + d < s->end)
			arm_collision(sim, s->node, now + d);
	}
}

/*
 * The ring push is sig_push()'s, written out here: with the helper gcc 12 lays this hot path
 * out longer (callgrind: 0.4 % more instructions for 8 saturated 64-byte CSMA/CD nodes).
 */
static int sig_open(struct plca_sim *sim, u32 node, u8 kind, u64 end)
{
	struct bus_node *n = &sim->nodes[node];
	struct bus_signal *s;

	sig_prune(sim);
	BUG_ON(sim->sig_head - sim->sig_tail >= BUS_SIG_RING);
	check_overlaps(sim, node, end);
	s = sig_at(sim, sim->sig_head);
	*s = (struct bus_signal){
		.node = node,
		.kind = kind,
		.active = true,
		.pos_ns = n->pos_ns,
		.start = sim->now,
		.end = end,
		.gone_at = BUS_NEVER};
	n->sig = (int)(sim->sig_head % BUS_SIG_RING);
	sim->sig_head++;
	sim->opens[0]++;
	sim->opens[1] += kind <= SIG_JAM;
	if (end != BUS_NEVER)
		bus_timer(sim, node, EV_TX_END, end);
	return n->sig;
}

static const char *const sig_names[] = {
	[SIG_DATA] = "frame",
	[SIG_JAM] = "jam",
	[SIG_BEACON] = "BEACON",
	[SIG_COMMIT] = "COMMIT",
};

void bus_sig_close(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	struct bus_signal *s = sig_end(sim, node);

	if (sim->trace) {
		char args[96];

		snprintf(args, sizeof(args), "\"collided\": %s, \"attempt\": %u",
			 s->collided ? "true" : "false", n->attempts + 1);
		bus_trace_x(sim, (int)node + 1, sig_names[s->kind],
			    s->collided ? "collision" : "wire", s->start, s->end,
			    s->kind == SIG_DATA ? args : NULL);
	}
}

int bus_signal_start(struct plca_sim *sim, u32 node, u8 kind, u64 end)
{
	int idx = sig_open(sim, node, kind, end);

	sim->nr_active++;
	rs_signal_started(sim, node, kind);
	return idx;
}

/* The node's signal changes kind without a gap (COMMIT -> frame -> COMMIT of a burst). */
void bus_signal_rekind(struct plca_sim *sim, u32 node, u8 kind, u64 end)
{
	bus_sig_close(sim, node);
	sig_open(sim, node, kind, end);
}

void bus_signal_set_end(struct plca_sim *sim, u32 node, u64 end)
{
	struct bus_node *n = &sim->nodes[node];

	sim->sig[n->sig].end = end;
	bus_timer(sim, node, EV_TX_END, end);
}

void bus_signal_finish(struct plca_sim *sim, u32 node)
{
	bus_sig_close(sim, node);
	sim->nr_active--;
}

/* The node's signal is over; tell its owner, then the cycle, then deferring MACs. */
static inline void tx_end(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	struct bus_signal *s = &sim->sig[n->sig];
	u8 kind = s->kind;
	bool collided = s->collided;

	bus_signal_finish(sim, node);
	if (kind <= SIG_JAM) /* the MAC's own IFG; BEACON and COMMIT are the RS's */
		n->own_tx_end = sim->now;
	switch (kind) {
	case SIG_DATA:
		mac_tx_done(sim, node, !collided);
		break;
	case SIG_JAM:
		mac_collision(sim, node, false);
		break;
	default:
		rs_tx_end(sim, node); /* BEACON, or a COMMIT that ran out */
		break;
	}
	if (!sim->nr_active)
		seg_crs_drop_last(sim);
	mac_wake_waiters(sim);
}

/*
 * EV_TX_END; the end of an owner's frame in a committed TO may start a one-step TO (bus_fast.c),
 * which needs the next owner pending, or lazily pending (bus_next_owner_waits()): on a lightly
 * loaded segment, where nobody is, the call is not made at all.
 */
void bus_on_tx_end(struct plca_sim *sim, u32 node)
{
	if (sim->seg.state == SEG_COMMIT && sim->seg.owner == (int)node && !sim->bit_level &&
	    (sim->nr_pending || sim->nr_lazy_pend) && bus_fast_tx_end(sim, node))
		return;
	tx_end(sim, node);
}

/* EV_TX_END as the bit-level path runs it. */
void bus_tx_end_bit_level(struct plca_sim *sim, u32 node)
{
	tx_end(sim, node);
}

/* EV_COL: the node's PHY sees a foreign signal while it transmits. */
void mac_phys_collision(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	struct bus_signal *s;

	n->col_at = BUS_NEVER;
	if (n->sig < 0)
		return;
	s = &sim->sig[n->sig];
	if (s->collided)
		return;
	s->collided = true;
	n->st.phys_collisions++;
	/*
	 * BEACON/COMMIT go on; a faulty MAC ignores COL; a PHY with collision detection off
	 * never raises it: the frame runs to its end and is lost.
	 */
	if (s->kind != SIG_DATA || n->cfg.ignores_collisions || n->cfg.no_collision_detect)
		return;
	n->st.collisions++;
	if (rs_active(n)) {
		/* PLCA does not put the MAC's jam on the wire: the frame just stops. */
		bus_signal_finish(sim, node);
		n->own_tx_end = sim->now;
		rs_data_end(sim, node);
		mac_collision(sim, node, true);
		if (!sim->nr_active)
			seg_crs_drop(sim);
		mac_wake_waiters(sim);
		return;
	}
	bus_signal_rekind(sim, node, SIG_JAM, sim->now + BT(PLCA_SIM_JAM_BT));
	sim->sig[n->sig].collided = true;
	n->mac = MAC_JAM;
	if (sim->trace)
		kfsim_trace_instant(sim->trace, sim->trace_pid, (int)node + 1, "collision",
				    "collision", sim->now / 1000.0);
}

/* Carrier as @node sees it now: bus_carrier_at() (bus_internal.h), for the callers outside. */
bool bus_carrier(struct plca_sim *sim, u32 node, bool data_only, u64 ignore_from, u64 *off_at)
{
	return bus_carrier_at(sim, node, data_only, ignore_from, off_at);
}

/* PLCA's "receiving": another node's COMMIT or frame is on the wire (the segment's view). */
bool bus_receiving(const struct plca_sim *sim, u32 node)
{
	for (u32 k = sim->sig_tail; k != sim->sig_head; k++) {
		const struct bus_signal *s = &sim->sig[k % BUS_SIG_RING];

		if (s->active && s->node != node && s->kind != SIG_BEACON)
			return true;
	}
	return false;
}
