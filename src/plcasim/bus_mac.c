// SPDX-License-Identifier: MIT
/*
 * The Clause 4 CSMA/CD MAC of every node (half duplex) and the frame sources feeding it.
 *
 * Transmit: the head frame waits until the carrier, as the MAC sees it, has been off for the
 * inter-frame gap (96 BT), then goes out.  After a collision the MAC jams 32 BT and backs off
 * r slot times (512 BT), r uniform in [0, 2^min(attempts, 10) - 1]; after 16 attempts the frame
 * is dropped (excessive collisions).  Under PLCA the MAC is unchanged: the RS decides what
 * carrier and collision it sees (a "logical" collision holds a frame back without any signal).
 *
 * Invariants: the MAC works on the head of the node's queue whenever its state is not MAC_IDLE;
 * a frame leaves the queue exactly once, counted as delivered, dropped or lost; a saturated node
 * gets its next frame the moment one leaves.
 */
#include <string.h>

#include <kfsim/kernel.h>
#include "bus_internal.h"

static struct bus_frame *head_frame(struct bus_node *n)
{
	return &n->queue[n->q_head];
}

static void dequeue(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	bus_frame_pop(sim, n);
	if (n->cfg.load == PLCA_SIM_LOAD_SATURATED)
		mac_arrival(sim, node);
	mac_frame_ready(sim, node);
}

void mac_enqueue(struct plca_sim *sim, u32 node, u64 arrival, u32 payload)
{
	if (bus_frame_push(sim, &sim->nodes[node], arrival, payload))
		mac_frame_ready(sim, node);
}

/* EV_ARRIVAL (and a saturated node's refill): one generated frame, then the next arrival. */
void mac_arrival(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	mac_enqueue(sim, node, sim->now, bus_draw_payload(sim, n));
	switch (n->cfg.load) {
	case PLCA_SIM_LOAD_POISSON:
		bus_timer(sim, node, EV_ARRIVAL, bus_next_arrival(sim, n));
		break;
	case PLCA_SIM_LOAD_PERIODIC:
		n->next_periodic = bus_next_arrival(sim, n);
		bus_timer(sim, node, EV_ARRIVAL, n->next_periodic);
		break;
	default:
		break;
	}
}

void mac_start_load(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	u64 first = 0;

	switch (n->cfg.load) {
	case PLCA_SIM_LOAD_SATURATED:
		break;
	case PLCA_SIM_LOAD_POISSON:
		first = (u64)(kfsim_prandom_exp(&sim->rnd, n->cfg.interval_us * 1000.0) + 0.5);
		break;
	case PLCA_SIM_LOAD_PERIODIC:
		/* A random phase, so periodic senders do not all start in the same bit time. */
		first = (u64)(kfsim_prandom_double(&sim->rnd) * n->cfg.interval_us * 1000.0);
		n->next_periodic = first;
		break;
	default:
		return;
	}
	bus_timer(sim, node, EV_ARRIVAL, first);
}

/* Carrier as the MAC sees it: the wire, or under PLCA the RS's CARRIER_STATUS. */
static bool mac_sees_carrier(struct plca_sim *sim, u32 node, u64 ignore_from, u64 *off_at)
{
	struct bus_node *n = &sim->nodes[node];
	bool busy;

	if (rs_active(n))
		busy = rs_carrier_status(sim, node, ignore_from, off_at);
	else
		busy = bus_carrier(sim, node, false, ignore_from, off_at);
	if (!busy)
		*off_at = max(*off_at, n->own_tx_end);
	return busy;
}

static inline void start_tx(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	bus_mac_sends(sim, n, node);
	if (rs_active(n)) {
		rs_mac_tx_start(sim, node);
		return;
	}
	n->tx_start_wire = sim->now;
	bus_signal_start(sim, node, SIG_DATA, sim->now + bus_frame_wire_ns(head_frame(n)->payload));
}

/* Wait for the IFG from @off_at; @clear: the carrier check behind it can be trusted later. */
static void wait_ifg(struct plca_sim *sim, u32 node, u64 off_at, bool clear)
{
	struct bus_node *n = &sim->nodes[node];

	n->ifg_from = off_at;
	n->ifg_clear = clear && !sim->carrier_unseen;
	n->ifg_rs = rs_active(n);
	n->ifg_opens = sim->opens[n->ifg_rs];
	bus_timer(sim, node, EV_MAC, off_at + BT(PLCA_SIM_IFG_BT));
}

/*
 * Deference (4.2.3.2.1): send once the carrier has been off for the IFG.  Carrier that comes up
 * in the first two thirds of the IFG restarts it; in the last third the MAC no longer listens
 * and sends anyway, which is what keeps one station from capturing the wire for good.
 */
void mac_try(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	u64 ignore_from = BUS_NEVER, off_at;

	if (n->mac != MAC_DEFER || !n->up)
		return;
	if (sim->now < n->backoff_end) {
		bus_timer(sim, node, EV_MAC, n->backoff_end);
		return;
	}
	if (n->ifg_from && bus_ifg_still_clear(sim, n)) {
		/* the IFG's end: nothing new on the wire since it began */
		n->ifg_from = 0;
		n->ifg_clear = false;
		start_tx(sim, node);
		return;
	}
	n->ifg_clear = false;
	if (n->ifg_from && sim->now >= n->ifg_from + BT(PLCA_SIM_IFG_BT))
		ignore_from = n->ifg_from + BT(PLCA_SIM_IFG_BT * 2 / 3);
	n->ifg_from = 0;
	if (mac_sees_carrier(sim, node, ignore_from, &off_at)) {
		if (!n->deferred_this_attempt) {
			n->deferred_this_attempt = true;
			n->st.deferrals++;
		}
		if (off_at == BUS_FORCED) {
			bus_cancel(sim, node, EV_MAC);
		} else if (off_at == BUS_NEVER) {
			bus_cancel(sim, node, EV_MAC);
			bus_add_waiter(sim, node);
		} else {
			wait_ifg(sim, node, off_at, true);
		}
		return;
	}
	if (off_at && sim->now < off_at + BT(PLCA_SIM_IFG_BT)) {
		wait_ifg(sim, node, off_at, true);
		return;
	}
	start_tx(sim, node);
}

void mac_frame_ready(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	if (n->mac != MAC_IDLE || !n->q_len || !n->up)
		return;
	n->mac = MAC_DEFER;
	n->attempts = 0;
	n->backoff_end = 0;
	n->deferred_this_attempt = false;
	mac_try(sim, node);
}

/*
 * A collision reached the MAC: attempt n failed.  @jam_pending: the 32 BT jam is still to come
 * (under PLCA the jam never reaches the wire); otherwise it just ended on the wire.  The backoff
 * of r slot times follows the jam.  When the PLCA RS holds the carrier on past the backoff (the
 * usual case: DELAY_PENDING lasts 512 BT, r is 0 or 1 after a first collision), there is nothing
 * to time: the MAC simply defers until the RS lets go.
 */
void mac_collision(struct plca_sim *sim, u32 node, bool jam_pending)
{
	struct bus_node *n = &sim->nodes[node];
	u64 jam_end = sim->now + (jam_pending ? BT(PLCA_SIM_JAM_BT) : 0);
	u32 r;

	n->attempts++;
	n->deferred_this_attempt = false;
	if (n->attempts >= PLCA_SIM_ATTEMPT_LIMIT) {
		/* excessive collisions: the frame is given up once the jam is over */
		n->mac = MAC_JAM;
		bus_timer(sim, node, EV_MAC, jam_end);
		return;
	}
	r = kfsim_prandom_below(&sim->rnd, 1u << min_t(u32, n->attempts, PLCA_SIM_BACKOFF_LIMIT));
	n->backoff_end = jam_end + (u64)r * BT(PLCA_SIM_SLOT_BT);
	if (rs_pending_by(n, n->backoff_end)) {
		n->mac = MAC_DEFER;	/* deferring to the RS's carrier from the backoff's end */
		n->deferred_this_attempt = true;
		n->st.deferrals++;
		bus_cancel(sim, node, EV_MAC);
		return;
	}
	n->mac = MAC_BACKOFF;
	bus_timer(sim, node, EV_MAC, n->backoff_end);
}

/* The faulty MAC's frame vanished in the PLCA delay line: it only learns nothing. */
void mac_frame_lost(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	bus_timer(sim, node, EV_MAC, n->mac_tx_start + bus_frame_wire_ns(head_frame(n)->payload));
}

void mac_on_timer(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	switch (n->mac) {
	case MAC_DEFER:
		mac_try(sim, node);
		break;
	case MAC_JAM:
		n->st.dropped_attempts++;
		dequeue(sim, node);
		break;
	case MAC_BACKOFF:
		n->mac = MAC_DEFER;
		mac_try(sim, node);
		break;
	case MAC_TX:
		/* only the faulty MAC's virtual frame ends this way */
		n->st.lost_fault++;
		n->own_tx_end = sim->now;
		dequeue(sim, node);
		break;
	default:
		break;
	}
}

/* The MAC's frame left the wire: delivered, or (faulty MAC) collided unnoticed. */
void mac_tx_done(struct plca_sim *sim, u32 node, bool ok)
{
	struct bus_node *n = &sim->nodes[node];

	if (ok)
		bus_frame_count_delivered(sim, n);
	else
		n->st.lost_fault++;
	rs_data_end(sim, node);
	dequeue(sim, node);
}

/*
 * The per-TO model (bus_fast.c): mac_tx_done(ok) of a PLCA owner whose carrier check after the
 * frame is known (the wire is quiet but for its own frame, which just ended): the same counts,
 * the same refill (and payload draw) as dequeue(), but the MAC is left in DEFER without asking
 * the wire.  Return: whether it has another frame (bus_fast.c then starts its IFG).
 */
bool mac_fast_frame_done(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	rs_fast_frame_end(sim, node);
	if (!bus_frame_delivered(sim, n))
		return false;
	n->mac = MAC_DEFER;
	n->backoff_end = 0;
	n->deferred_this_attempt = false;
	return true;
}


void mac_wake_waiters(struct plca_sim *sim)
{
	u32 nr = sim->nr_waiters;

	if (!nr)
		return;
	/* mac_try() may queue nodes again (even others): scan a copy */
	memcpy(sim->waiters_scan, sim->waiters, nr * sizeof(*sim->waiters));
	sim->nr_waiters = 0;
	for (u32 i = 0; i < nr; i++) {
		u32 node = sim->waiters_scan[i];

		if (!sim->nodes[node].waiting)
			continue;
		sim->nodes[node].waiting = false;
		mac_try(sim, node);
	}
}

/* The RS stopped forcing the carrier on (it noted when: rs_carrier_released()). */
void mac_carrier_dropped(struct plca_sim *sim, u32 node)
{
	mac_try(sim, node);
}

/* The node drops off the segment: its transmission stops, its head frame stays queued. */
void mac_link_down(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	if (n->sig >= 0) {
		bus_signal_finish(sim, node);
		if (!sim->nr_active)
			seg_crs_drop(sim);
	}
	bus_cancel(sim, node, EV_MAC);
	n->waiting = false;
	n->mac = MAC_IDLE;
	n->attempts = 0;
}
