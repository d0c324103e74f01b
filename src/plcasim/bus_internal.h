/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_PLCA_BUS_INTERNAL_H
#define KFSIM_PLCA_BUS_INTERNAL_H

/*
 * The insides of the 10BASE-T1S segment simulator, shared by its files:
 *   bus_sim.c     the value: create/destroy, settings, the event queue and loop
 *   bus_medium.c  the wire: signals, carrier as each node sees it, physical collisions
 *   bus_mac.c     the Clause 4 CSMA/CD MAC and the arrival processes
 *   bus_plca.c    the Clause 148 PLCA RS: the cycle (control) and each node's data state machine
 *   bus_stats.c   the per-node figures and the report (latency: <kfsim/sim_hist.h>)
 *   bus_fast.c    the per-TO model: a TO in one step, idle cycles skipped, where nothing on the
 *                 wire can differ from the bit-level path (struct plca_sim_cfg.bit_level)
 *   bus_fast_round.c  the per-TO model's consecutive TOs, the BEACON's among them, in one loop,
 *                 without a trace
 *   bus_fast_frame.c a lone frame's own path in few steps: from its arrival, or from its TO's
 *                 decision, to its start on the wire
 *   bus_fast_cycle.c the wait for the next cycle in one step: from the cycle's end, through its
 *                 BEACON, to the decision of the first pending id's TO
 *   bus_sparse.c  the sparse engine: uniform PLCA segments with sparse frames, which keeps only
 *                 what can be read exact and rebuilds the rest by a replay when needed
 *
 * Invariants:
 * - time only moves forward; events at the same time run in (priority, insertion) order: the
 *   cycle's timers (to_timer, burst_timer) first, then the nodes' events, then the decision of
 *   a new TO (commit or yield), so a frame arriving at the very instant its node's transmit
 *   opportunity starts is sent in it, as INET's worst-case scenario has it;
 * - a node owns at most one signal on the wire at a time (sig >= 0 while it transmits);
 * - every frame is in exactly one place: a node's queue (the head is what the MAC works on), or
 *   counted once as delivered, dropped or lost;
 * - a cancelled or re-armed timer stays in the heap until popped, then is skipped: its slot's
 *   armed sequence number (slot_seq) is no longer its own;
 * - an armed timer has its sequence number from the moment it is armed, wherever it waits: in a
 *   heap, held (bus_timer_held()) or, for a pending_timer outside an idle run, on the lazy list
 *   (bus_plca.c), so the order of events never depends on where a timer waited.
 *
 * The PLCA cycle runs on one clock for the segment (the coordinator's): transmit opportunities
 * are the same for every synchronised follower whose to_timer equals the coordinator's, as
 * identical timers fed the same carrier count alike.  A node whose to_tmr differs, and a second
 * coordinator, run the control state machine themselves ("own clock", bus_plca.c): their curID
 * counts their own to_timer from their last BEACON or carrier drop.  Propagation delay (5 ns/m)
 * applies to carrier sense and physical collisions; PLCA's to_timer exists precisely to absorb
 * it, so the cycle does not model per-node skew.
 */
#include <stdint.h>
#include <kfsim/kernel.h>
#include <kfsim/plca_sim.h>
#include <kfsim/random.h>
#include <kfsim/sim_evq.h>
#include <kfsim/sim_hist.h>
#include <kfsim/trace_event.h>

/*
 * Everything declared below is private to the simulator: hidden, so that calls between its files
 * are direct and the compiler may inline a function into its callers in the same file (with
 * -fPIC a default-visibility function could be interposed, which rules both out).
 */
#pragma GCC visibility push(hidden)

#define BT(x) ((u64)(x)*PLCA_SIM_NS_PER_BT)
#define BUS_NS_PER_M 5.0
#define BUS_SIG_RING 1024 /* > 3 signals per node within max_prop + IFG */
#define BUS_NEVER UINT64_MAX
#define BUS_FORCED (UINT64_MAX - 1) /* carrier held on by the PLCA RS */

enum bus_ev_kind {
	EV_ARRIVAL, /* next generated frame of a node */
	EV_INJECT,  /* a scripted frame */
	EV_MAC,	    /* MAC timer: IFG over, backoff over, jam over, virtual TX end */
	EV_TX_END,  /* the node's signal on the wire ends */
	EV_COL,	    /* the node's PHY detects a collision */
	EV_RS,	    /* data SM timer: hold, pending, commit */
	EV_SEG,	    /* cycle timer: to_timer, burst_timer, idle run */
	EV_STATUS,  /* plca_status_timer watchdog */
	EV_NR_NODE_KINDS = EV_STATUS,
};

enum bus_sig_kind { SIG_DATA, SIG_JAM, SIG_BEACON, SIG_COMMIT };

struct bus_signal {
	u32 node;
	u8 kind;
	bool active;
	bool collided;
	u64 pos_ns; /* the sender's position (bus_node.pos_ns): no trip to the node to get it */
	u64 start;
	u64 end; /* planned end while active (U64_MAX: open, a COMMIT) */
	u64 gone_at; /* from then on nobody can sense it: end + max_prop + IFG, or BUS_NEVER */
};

/*
 * Every event has a slot: a node's timer of one kind has node << BUS_SLOT_SHIFT | kind (and the
 * status watchdog is node 0's spare kind EV_STATUS); cycle timers and scripted frames, of which
 * several can be queued, take a slot each from a free list.  A queued event is live while its
 * slot's armed sequence number is still its own: re-arming or cancelling a timer just changes
 * that number.
 */
#define BUS_SLOT_SHIFT 3
#define BUS_SLOT_BITS KFSIM_EVQ_DATA_BITS /* the slot is the event's payload */
#define BUS_SLOT_MASK KFSIM_EVQ_DATA_MASK
#define BUS_SEQ_NONE 0 /* no arming: the queue's sequence numbers start at 1 */
/* Event priorities at one instant: cycle timers, then nodes, then the TO decision. */
enum { BUS_PRIO_CYCLE, BUS_PRIO_NODE, BUS_PRIO_DECISION };

/* EV_SEG arguments: the cycle's run timer, its decision, and an own-clock node's timer. */
enum { SEGT_TO_RUN, SEGT_TO_EVAL, SEGT_OWN_CLOCK };

/* What a free-list slot (EV_SEG, EV_INJECT) stands for. */
struct bus_slot_info {
	u32 node;
	u32 kind;
	u32 arg;
};

#define BUS_NEAR_NS BT(2 * PLCA_SIM_SLOT_BT) /* IFG, jam, minimum frames, short backoffs */

enum mac_state {
	MAC_IDLE,    /* nothing to send */
	MAC_DEFER,   /* a frame waits for the carrier to drop and the IFG to pass */
	MAC_TX,	     /* transmitting (onto the wire or into the PLCA delay line) */
	MAC_JAM,     /* jamming after a collision */
	MAC_BACKOFF, /* waiting r slot times */
};

/* 148.4.5.7 data state machine (WAIT_IDLE is folded into IDLE: it only waits for CRS). */
enum rs_data_state {
	DS_IDLE,
	DS_HOLD,
	DS_COLLIDE, /* the MAC's jam; folded into DELAY_PENDING (see rs_collide()) */
	DS_DELAY_PENDING,
	DS_PENDING,
	DS_WAIT_MAC,
	DS_TRANSMIT,
};

struct bus_frame {
	u64 arrival;
	u32 payload;
};

struct bus_node {
	struct plca_sim_node_cfg cfg;
	u64 pos_ns; /* propagation time from position 0 */
	bool up;
	/* queue: ring of frames, head is the MAC's current frame when mac != MAC_IDLE */
	struct bus_frame *queue;
	u32 q_head, q_len, q_cap;
	/* MAC */
	enum mac_state mac;
	u32 attempts;
	bool waiting; /* on the carrier waiter list */
	bool deferred_this_attempt;
	u64 ifg_from;	   /* carrier-off time the running IFG counts from, or 0 */
	/*
	 * The running IFG's carrier check may be skipped when it ends (see mac_try()): set when
	 * every signal in view had ended, none was still on its way, and no signal the MAC looks
	 * at has opened since (sim->opens[rs view] == ifg_opens).
	 */
	bool ifg_clear;
	bool ifg_rs;	   /* rs_active() when it was set */
	u64 ifg_opens;
	u64 mac_tx_start;  /* when the MAC started the current attempt */
	u64 own_tx_end;	   /* end of its last transmission (IFG after own frame) */
	u64 tx_start_wire; /* when the current frame went onto the wire */
	u64 backoff_end;   /* the MAC may not send before this */
	int sig;	   /* index of its active signal, or -1 */
	u64 col_at;	   /* armed collision detection, or BUS_NEVER */
	/* PLCA RS */
	bool rs_on;  /* PLCA enabled with a node id < 255 */
	bool synced; /* plca_status OK: it follows the cycle */
	enum rs_data_state ds;
	u64 rs_carrier_off; /* when the RS last dropped a forced carrier */
	u32 bc;		    /* burst count in the current TO */
	/*
	 * Own clock (148.4.4.6 run by the node itself): @oc when its to_tmr differs from the
	 * coordinator's or it is a second coordinator (@oc_coord).  Its curID was @oc_sync_id at
	 * @oc_sync_t and counts @oc_to_ns per TO from there; while the carrier is up it is frozen
	 * at @oc_frozen_id.  @oc_gen tells its live timer from stale ones.
	 */
	bool oc;
	bool oc_coord;
	bool oc_frozen;
	bool oc_resync;	     /* second coordinator: BEACON due at the next quiet wire */
	bool oc_beaconing;   /* its BEACON is on the wire */
	bool beacon_stopped; /* stops_on_foreign_beacon acted: it sends no more BEACONs */
	u32 oc_sync_id, oc_frozen_id, oc_gen;
	u64 oc_sync_t, oc_to_ns;
	u64 oc_to_seen;	     /* start of the own TO already decided (commit or yield) */
	u64 rs_due;	    /* when the data state machine's timer runs out */
	bool in_burst;
	bool committed; /* it owns the current TO (COMMIT sent) */
	bool pend_lazy;	/* on the lazy pending_timer list (see pending_timer()) */
	u64 pend_tie;	/* that timer's place in the event order */
	u32 sp_busy_ix; /* the sparse engine: its place in lazy_pend[] while pend_lazy */
	/* statistics */
	struct plca_sim_node_stats st;
	struct kfsim_hist lat;
	double access_sum;
	/* arrivals */
	u64 next_periodic;
};

/*
 * The sparse engine's event queue (bus_sparse.c): the nodes' arrivals in a heap, every other
 * timer in a short list sorted latest first; @armed: a slot's timer is in the list; @owner: the
 * node of each TO id up to node_cnt, or -1 (bus_sole_owner(), fixed while it holds the run).
 */
struct sparse_q {
	struct kfsim_event *arr;
	u32 nr_arr;
	struct kfsim_event *soon;
	u32 nr_soon;
	int *owner;
	bool armed[];
};

/* A signal the sparse engine remembers for its tail check (bus_sparse.c). */
struct sparse_sig {
	u32 node;
	u64 pos_ns;
	u64 end; /* BUS_NEVER: none */
};

enum seg_state {
	SEG_OFF,     /* no coordinator: no cycle */
	SEG_RESYNC,  /* coordinator waits for a quiet wire to send the BEACON */
	SEG_BEACON,  /* BEACON on the wire */
	SEG_WAIT_TO, /* a transmit opportunity is running (to_timer) */
	SEG_COMMIT,  /* the owner committed: COMMIT, TRANSMIT, BURST */
	SEG_RECEIVE, /* carrier seen in the TO: wait for it to drop */
};

struct bus_seg {
	enum seg_state state;
	int coord; /* coordinator node index, or -1 */
	u32 node_cnt;
	u64 to_ns;
	u32 cur_id;
	u64 to_start;
	u32 idle_to;	   /* id up to which TOs run silently (idle run) */
	bool eval_pending; /* the current TO's commit/yield decision is due this instant */
	int owner;	   /* a committed node (several if ids repeat), or -1 */
	u64 last_beacon;
	u64 cycle_start;
};

struct plca_sim {
	struct bus_node *nodes;
	u32 nr_nodes;
	u64 now;
	u64 nr_events; /* run, for the report */
	struct rnd_state rnd;
	/*
	 * The event queue (<kfsim/sim_evq.h>), the slot as payload.  Timers due within BUS_NEAR_NS
	 * of their arming go to its near heap, long backoffs, long frames and arrivals to the far
	 * one, so the heap that churns stays shallow (a saturated CSMA/CD segment keeps dozens of
	 * backoffs queued).  With a PLCA coordinator the near window is at least one idle cycle
	 * (seg_reconfigure()), so that idle runs are near too.  Its error (out of memory) ends the
	 * run.
	 */
	struct kfsim_evq events;
	u64 *slot_seq;		     /* the live arming of each fixed slot, or BUS_SEQ_NONE */
	u32 nr_fixed;		     /* nr_nodes << BUS_SLOT_SHIFT */
	u32 nr_extra, extra_cap;     /* free-list slots handed out so far, and room */
	struct bus_slot_info *extra; /* their meaning (slot - nr_fixed) */
	u32 *free_slots;
	u32 nr_free;
	/*
	 * One timer armed but not yet queued (bus_timer_held()): the commit_timer, which the MAC
	 * nearly always beats, or the hold timer, which a COMMIT or a colliding signal often ends
	 * first, so it is usually withdrawn before it would ever reach a heap.
	 */
	struct kfsim_event held;
	bool has_held;
	/* wire */
	struct bus_signal sig[BUS_SIG_RING];
	u32 sig_head, sig_tail; /* live window [tail, head) modulo the ring */
	u32 nr_active;
	u64 max_prop;
	u64 crs_delay;	    /* MDI-to-CRS latency, ns (struct plca_sim_cfg.crs_delay_ns) */
	u64 opens[2];	    /* signals opened so far: [0] all, [1] frames and jams only */
	bool carrier_unseen; /* the last bus_carrier() skipped a signal not (yet) in view */
	/* MAC waiters (deferring on carrier) */
	u32 *waiters;
	u32 *waiters_scan;
	u32 nr_waiters;
	/* PLCA */
	struct bus_seg seg;
	u32 *owners;		/* node indices sorted by node id */
	u32 owner_first[257];	/* owners of id i: owners[owner_first[i] .. owner_first[i+1]) */
	u32 nr_pending;		/* nodes in HOLD or PENDING */
	u32 nr_hold;		/* nodes in HOLD */
	u64 *hold_bits;		/* bitmap of the nodes in HOLD, by node index */
	u8 pending_per_id[256]; /* of those, per node id */
	u64 pending_ids[4];	/* bitmap of ids with a pending node */
	u32 *lazy_pend;		/* nodes whose pending_timer is armed but not queued */
	u32 nr_lazy_pend;
	u32 misconfig;
	u32 nr_oc;		/* nodes running their own clock (bus_node.oc) */
	/*
	 * Nodes not at rest, kept where each node's state changes, so that bus_fast_idle() reads
	 * four numbers instead of every node: frames queued (a MAC not IDLE has one at its
	 * head), data state machines not IDLE (set_ds()), committed nodes, and PLCA nodes with
	 * link whose plca_status is FAIL (seg_count_unsynced(), and where a node synchronises).
	 */
	u32 nr_queued;
	u32 nr_ds_busy;
	u32 nr_committed;
	u32 nr_unsynced;
	/*
	 * Per-node counts of the cycle's TOs and BEACONs, kept per segment and only added to each
	 * node when read or when who counts them may change (bus_stats.c): tos_diff[] says how
	 * many TOs of each id began (a difference array: TOs of ids [lo, hi) are +1 at lo and -1
	 * at hi), each counted for the id's owners that are active; beacons_lazy the BEACONs of
	 * the coordinator every other PLCA node with link and no own clock heard.
	 */
	u64 tos_diff[257];
	bool tos_dirty;
	u64 beacons_lazy;
	bool any_stopper;	/* some node has stops_on_foreign_beacon */
	u64 cycles;
	/* trace */
	struct kfsim_trace *trace;
	int trace_pid;
	/* the per-TO model (bus_fast.c) */
	bool bit_level; /* struct plca_sim_cfg.bit_level: never use it */
	u64 run_limit;	/* the t_ns of the running kfsim_plca_sim_run_until() */
	u64 fast_tos;	/* TOs it ran in one step (tests check that it is used) */
	u64 fast_round_tos; /* of those, TOs run by bus_fast_round() */
	u64 fast_round_beacons; /* of those, TOs after a BEACON (its TO 0s) */
	u64 fast_round_parks;	/* BEACON TOs it stopped at their decision */
	u64 fast_cycles; /* idle cycles it skipped */
	u64 fast_mid_skips; /* skips that began at a TO decision after TO 0 */
	u64 fast_beacon_skips; /* skips that began at a BEACON after the last TO */
	u64 fast_commits;  /* lone TOs run from their decision to the frame (bus_fast_frame.c) */
	u64 fast_commit_ends; /* of those, frames whose end they ran too, not queued */
	u64 fast_commit_shared; /* of those, TOs taken while another node had a frame waiting */
	u64 fast_arrivals; /* lone frames run from their arrival to their start (the same) */
	u64 fast_holds;	   /* ... from their arrival to their hold timer's collision */
	u64 fast_runs;	   /* idle runs' timers run at once, not queued (bus_plca.c) */
	u64 fast_next_cycles; /* waits for the next cycle run in one step (bus_fast_cycle.c) */
	u64 fast_beacon_holds; /* of those, BEACONs that met frames HELD in delay lines */
	/*
	 * The cycle's end reached now is the last thing the running event does (the caller does
	 * nothing after it but wake MAC waiters): bus_fast_next_cycle() may move the time on.
	 */
	bool at_event_tail;
	/*
	 * The sparse engine (bus_sparse.c).  @sparse_ready: an idle landing, where it may take the
	 * run over; @sparse_on: it holds the run, the bit-level state is stale; @sparse_off: never
	 * (again) for this simulator (bit-level asked for, a setting changed, a trace, a run it
	 * gave up); @orig, @orig_nodes: the settings it was created with, for the replay.
	 */
	bool sparse_ready;
	bool sparse_on;
	bool sparse_off;
	bool sp_timer; /* its idle run has a timer (somebody waits for the cycle), due at: */
	u64 sp_aim_t;
	u32 sp_nr_held; /* its nodes in DS_HOLD (sp_held_collide() has nothing to do at 0) */
	u64 sp_e;	/* the end of the idle run's cycle (sp_cycle_end()) */
	struct plca_sim_cfg orig;
	struct plca_sim_node_cfg *orig_nodes;
	struct sparse_sig sp_last;
	struct sparse_q *sp_q;
	u64 sp_frames;	  /* frames it delivered (tests check that it is used) */
	u64 sp_takeovers; /* runs it took over */
	u64 sp_bails;	  /* runs it gave up on (replayed bit-level) */
	u64 sp_replays;	  /* bit-level states rebuilt */
};

/* bus_sim.c; the timer fast paths are inline below, as every event arms or cancels some */
struct plca_sim *plca_sim_new(const struct plca_sim_cfg *cfg, bool sparse_off);
void plca_sim_free_insides(struct plca_sim *sim);
void bus_schedule(struct plca_sim *sim, u64 t, u32 prio, u32 node, u32 kind, u32 arg);
u32 bus_slot_grow(struct plca_sim *sim, u32 node, u32 kind, u32 arg);

/* Queue @slot at (@t, @prio) as number @seq; false when out of memory (the run then stops). */
static inline bool bus_queue_push(struct plca_sim *sim, u64 t, u32 prio, u32 slot, u64 seq)
{
	return !kfsim_evq_push_seq(&sim->events, sim->now, t, prio, seq, slot);
}

/* The run is over: an event could not be queued (kfsim_evq_err()). */
static inline bool bus_oom(const struct plca_sim *sim)
{
	return kfsim_evq_err(&sim->events) != 0;
}

/*
 * bus_schedule() for an EV_SEG or EV_INJECT event, inline: a free slot from the free list
 * (bus_slot_grow() only when none is free), the sequence number taken before it, as
 * bus_schedule() always did.  The cycle's run timer is queued some 5,000 times a simulated
 * second on a lightly loaded segment.
 */
static inline void bus_schedule_slot(struct plca_sim *sim, u64 t, u32 prio, u32 node, u32 kind,
				     u32 arg)
{
	u64 seq = kfsim_evq_take_seq(&sim->events);
	u32 slot;

	if (likely(sim->nr_free)) {
		u32 idx = sim->free_slots[--sim->nr_free];

		sim->extra[idx] = (struct bus_slot_info){node, kind, arg};
		slot = sim->nr_fixed + idx;
	} else {
		slot = bus_slot_grow(sim, node, kind, arg);
		if (slot == BUS_SLOT_MASK) {
			kfsim_evq_fail(&sim->events, -ENOMEM);
			return;
		}
	}
	if (!bus_queue_push(sim, t, prio, slot, seq))
		sim->free_slots[sim->nr_free++] = slot - sim->nr_fixed;
}

/* Arm the node's one timer of @kind at @t with @prio, replacing any earlier arming. */
static inline void bus_timer_prio(struct plca_sim *sim, u32 node, u32 kind, u64 t, u32 prio)
{
	u64 seq = kfsim_evq_take_seq(&sim->events);
	u32 slot = node << BUS_SLOT_SHIFT | kind;

	if (bus_queue_push(sim, t, prio, slot, seq))
		sim->slot_seq[slot] = seq;
}

static inline void bus_timer(struct plca_sim *sim, u32 node, u32 kind, u64 t)
{
	bus_timer_prio(sim, node, kind, t, BUS_PRIO_NODE);
}

/* Queue the held timer if it is still armed; either way nothing is held afterwards. */
static inline void bus_flush_held(struct plca_sim *sim)
{
	u32 slot = kfsim_event_data(&sim->held);

	sim->has_held = false;
	if (sim->slot_seq[slot] == kfsim_event_seq(&sim->held))
		kfsim_evq_push_event(&sim->events, sim->now, &sim->held);
}

/*
 * bus_timer() for a timer that is likely withdrawn soon: it takes its sequence number (and so
 * its place among events of the same instant) now, but reaches a heap only when another timer
 * is held or when it is the next event due (the event loop checks), never if it is re-armed or
 * cancelled first.
 */
static inline void bus_timer_held(struct plca_sim *sim, u32 node, u32 kind, u64 t)
{
	u64 seq = kfsim_evq_take_seq(&sim->events);
	u32 slot = node << BUS_SLOT_SHIFT | kind;

	if (sim->has_held)
		bus_flush_held(sim);
	sim->held = kfsim_event_make(t, BUS_PRIO_NODE, seq, slot);
	sim->has_held = true;
	sim->slot_seq[slot] = seq;
}

static inline void bus_cancel(struct plca_sim *sim, u32 node, u32 kind)
{
	sim->slot_seq[node << BUS_SLOT_SHIFT | kind] = BUS_SEQ_NONE;
}

static inline u32 bus_payload_bytes(u32 payload)
{
	return payload > PLCA_SIM_MIN_PAYLOAD ? payload : PLCA_SIM_MIN_PAYLOAD;
}

static inline u64 bus_wire_bt(u32 payload)
{
	return (u64)(bus_payload_bytes(payload) + PLCA_SIM_FRAME_OVERHEAD +
		     PLCA_SIM_WIRE_OVERHEAD) *
	       8;
}

static inline u64 bus_frame_wire_ns(u32 payload)
{
	return BT(bus_wire_bt(payload));
}

void bus_trace_x(struct plca_sim *sim, int tid, const char *name, const char *cat, u64 start,
		 u64 end, const char *args);

/* bus_medium.c */
static inline struct bus_signal *sig_at(struct plca_sim *sim, u32 k)
{
	return &sim->sig[k % BUS_SIG_RING];
}

/* Drop the signals nobody can sense any more from the live window. */
static inline void sig_prune(struct plca_sim *sim)
{
	while (sim->sig_tail != sim->sig_head) {
		struct bus_signal *s = sig_at(sim, sim->sig_tail);

		if (s->gone_at >= sim->now)
			break;
		sim->sig_tail++;
	}
}

/* Put @node's new signal of @kind, from now to @end, on the ring (sig_open() and the model's). */
static inline void sig_push(struct plca_sim *sim, u32 node, u8 kind, u64 end)
{
	struct bus_node *n = &sim->nodes[node];

	*sig_at(sim, sim->sig_head) = (struct bus_signal){
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
}

/*
 * The part of sig_end() on the wire: the signal's end and when nobody senses it any more.  The
 * sparse engine, which keeps no collision timers and no bit-level queue, ends its frames with it.
 */
static inline struct bus_signal *sig_end_on_wire(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	struct bus_signal *s = &sim->sig[n->sig];

	s->end = sim->now;
	s->active = false;
	s->gone_at = sim->now + sim->max_prop + sim->crs_delay + BT(PLCA_SIM_IFG_BT);
	n->sig = -1;
	return s;
}

/*
 * End @node's signal now: the receivers see it go after the propagation, carrier-sense and
 * inter-frame delays.  Shared by bus_sig_close(), which then traces it, and the per-TO model's
 * close, which inlines it when there is no trace.
 */
static inline struct bus_signal *sig_end(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];
	struct bus_signal *s = sig_end_on_wire(sim, node);

	n->col_at = BUS_NEVER;
	bus_cancel(sim, node, EV_COL);
	bus_cancel(sim, node, EV_TX_END);
	return s;
}


int bus_signal_start(struct plca_sim *sim, u32 node, u8 kind, u64 end);
void bus_signal_rekind(struct plca_sim *sim, u32 node, u8 kind, u64 end);
void bus_signal_set_end(struct plca_sim *sim, u32 node, u64 end);
void bus_signal_finish(struct plca_sim *sim, u32 node);
void bus_on_tx_end(struct plca_sim *sim, u32 node);
bool bus_carrier(struct plca_sim *sim, u32 node, bool data_only, u64 ignore_from, u64 *off_at);
bool bus_receiving(const struct plca_sim *sim, u32 node);
void bus_tx_end_bit_level(struct plca_sim *sim, u32 node);
void bus_sig_close(struct plca_sim *sim, u32 node);

/* bus_stats.c */
void bus_lazy_flush(struct plca_sim *sim);

/*
 * The TOs of ids [@lo, @hi) began @m times more for each of their owners that is active (the
 * counts are modulo 2^64, so @m = -1 takes one off, as the idle skip does for TOs 1 .. k).
 */
static inline void bus_tos_begun(struct plca_sim *sim, u32 lo, u32 hi, u64 m)
{
	sim->tos_diff[lo] += m;
	sim->tos_diff[hi] -= m;
	sim->tos_dirty = true;
}

/* The length of an idle cycle: its BEACON and every TO at to_timer. */
static inline u64 seg_cycle_ns(const struct bus_seg *seg)
{
	return BT(PLCA_SIM_BEACON_BT) + seg->node_cnt * seg->to_ns;
}

/* The coordinator @c sent @m more BEACONs: its counts, and the segment's cycles. */
static inline void seg_count_beacons(struct plca_sim *sim, struct bus_node *c, u64 m)
{
	c->st.beacons += m;
	c->st.beacons_sent += m;
	sim->cycles += m;
}

/* bus_mac.c */
/*
 * A node's frame queue and its delivery, shared by the MAC and the models that run its steps
 * without it (bus_fast*.c), so that every path counts, pops and refills alike.
 */
static inline u32 bus_draw_payload(struct plca_sim *sim, const struct bus_node *n)
{
	u32 span = n->cfg.payload_max - n->cfg.payload_min;

	return n->cfg.payload_min + (span ? kfsim_prandom_below(&sim->rnd, span + 1) : 0);
}

/*
 * When @n's next frame arrives, a Poisson or periodic source's, after the one arriving now: the
 * interval drawn from the random generator (Poisson), or the period after the last (periodic,
 * which the caller then stores in next_periodic).
 */
static inline u64 bus_next_arrival(struct plca_sim *sim, const struct bus_node *n)
{
	u64 next;

	if (n->cfg.load == PLCA_SIM_LOAD_PERIODIC)
		return n->next_periodic + max_t(u64, (u64)(n->cfg.interval_us * 1000.0 + 0.5), 1);
	next = (u64)(kfsim_prandom_exp(&sim->rnd, n->cfg.interval_us * 1000.0) + 0.5);
	return sim->now + max_t(u64, next, 1);
}

/* Count an arrival and queue it; false when the queue is full (the frame is dropped). */
static inline bool bus_frame_push(struct plca_sim *sim, struct bus_node *n, u64 arrival,
				  u32 payload)
{
	u32 tail;

	n->st.generated++;
	if (n->q_len == n->q_cap) {
		n->st.dropped_queue++;
		return false;
	}
	tail = n->q_head + n->q_len;
	if (tail >= n->q_cap)
		tail -= n->q_cap;
	n->queue[tail] = (struct bus_frame){arrival, payload};
	n->q_len++;
	sim->nr_queued++;
	return true;
}

/* The head frame leaves the queue; the MAC has nothing in hand. */
static inline void bus_frame_pop(struct plca_sim *sim, struct bus_node *n)
{
	sim->nr_queued--;
	/* q_cap is any size, so the ring wraps by comparison, not by a division */
	if (++n->q_head == n->q_cap)
		n->q_head = 0;
	n->q_len--;
	n->mac = MAC_IDLE;
	n->attempts = 0;
}

/* The head frame, which left the wire now, counts as delivered (statistics, latency). */
static inline void bus_frame_count_delivered(struct plca_sim *sim, struct bus_node *n)
{
	const struct bus_frame *f = &n->queue[n->q_head];

	n->st.delivered++;
	n->st.payload_bytes += f->payload;
	n->st.frame_bytes += bus_payload_bytes(f->payload) + PLCA_SIM_FRAME_OVERHEAD;
	kfsim_hist_add(&n->lat, sim->now - f->arrival);
	n->access_sum += (double)(n->tx_start_wire - f->arrival);
	n->st.access_max_ns = max(n->st.access_max_ns, n->tx_start_wire - f->arrival);
}

/*
 * The head frame was delivered now: counted, popped (the MAC IDLE), a saturated node's refill
 * queued with its payload draw (mac_tx_done() without the RS and the MAC's next attempt, which
 * each caller does its own way).  Return: whether the node has another frame.  Always inlined:
 * gcc 12 calls it once it has two callers, 8 instructions more per frame of the round.
 */
static __always_inline bool bus_frame_delivered(struct plca_sim *sim, struct bus_node *n)
{
	bus_frame_count_delivered(sim, n);
	bus_frame_pop(sim, n);
	if (n->cfg.load == PLCA_SIM_LOAD_SATURATED)
		bus_frame_push(sim, n, sim->now, bus_draw_payload(sim, n));
	return n->q_len != 0;
}

/* @node's MAC waits for the carrier to drop (mac_wake_waiters() tries it again), once. */
static inline void bus_add_waiter(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	if (n->waiting)
		return;
	n->waiting = true;
	sim->waiters[sim->nr_waiters++] = node;
}

void mac_frame_ready(struct plca_sim *sim, u32 node);
void mac_try(struct plca_sim *sim, u32 node);
void mac_on_timer(struct plca_sim *sim, u32 node);
void mac_collision(struct plca_sim *sim, u32 node, bool logical);
void mac_tx_done(struct plca_sim *sim, u32 node, bool ok);
void mac_frame_lost(struct plca_sim *sim, u32 node);
void mac_wake_waiters(struct plca_sim *sim);
void mac_carrier_dropped(struct plca_sim *sim, u32 node);
void mac_enqueue(struct plca_sim *sim, u32 node, u64 arrival, u32 payload);
void mac_arrival(struct plca_sim *sim, u32 node);
void mac_start_load(struct plca_sim *sim, u32 node);
void mac_phys_collision(struct plca_sim *sim, u32 node);
void mac_link_down(struct plca_sim *sim, u32 node);

/* bus_mac.c, for the per-TO model */
bool mac_fast_frame_done(struct plca_sim *sim, u32 node);

/*
 * For the per-TO models (bus_fast.c, bus_fast_round.c, bus_fast_frame.c): questions they ask the
 * queue and the wire before taking a stretch in one step, and the IFG they run without its timer.
 */
static inline u64 bus_dist(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/*
 * Carrier as @node sees it now (@data_only: frames and jams only, what a PLCA MAC is shown).
 * Signals that reached the node at or after @ignore_from are not looked at (the last third of
 * the IFG, when a MAC no longer listens).
 * Return: true when busy; *@off_at is then when it clears if every signal in view has already
 * ended (BUS_NEVER otherwise); when idle, *@off_at is the last time it went off.  Unless it
 * returns BUS_NEVER, sim->carrier_unseen tells whether a signal was passed over as not yet (or
 * no longer) in view, i.e. whether the answer could change without a new signal.  Inline for the
 * sparse engine's MAC, where a call was a fifth of its cost; bus_carrier() for the rest.
 */
static __always_inline bool bus_carrier_at(struct plca_sim *sim, u32 node, bool data_only,
					   u64 ignore_from, u64 *off_at)
{
	u64 now = sim->now, last_off = 0, busy_until = 0, pos = sim->nodes[node].pos_ns;
	u64 crs = sim->crs_delay;
	bool busy = false, unseen = false;

	/* Signals too old to matter would only give an off_at whose IFG is over anyway. */
	sig_prune(sim);
	/* Newest first: an active signal in view settles the answer, and those are the newest. */
	for (u32 k = sim->sig_head; k != sim->sig_tail;) {
		const struct bus_signal *s = sig_at(sim, --k);
		u64 seen;

		if (s->node == node || (data_only && s->kind > SIG_JAM))
			continue;
		/* CRS follows the MDI by crs_delay, on and off */
		seen = s->start + bus_dist(pos, s->pos_ns) + crs;
		if (seen > now || seen >= ignore_from) {
			unseen = true;
			continue;
		}
		if (s->active) {
			*off_at = BUS_NEVER;
			return true;
		}
		seen = s->end + bus_dist(pos, s->pos_ns) + crs;
		if (seen > now) {
			busy = true;
			busy_until = max(busy_until, seen);
		} else {
			last_off = max(last_off, seen);
		}
	}
	*off_at = busy ? busy_until : last_off;
	sim->carrier_unseen = unseen;
	return busy;
}

/* A held timer that is still armed: it would run before anything a model skips. */
static inline bool bus_held_live(const struct plca_sim *sim)
{
	return sim->has_held &&
	       sim->slot_seq[kfsim_event_data(&sim->held)] == kfsim_event_seq(&sim->held);
}

/*
 * A held timer that is still armed and due by @t: it would run before, or in the same instant
 * as, a step that ends at @t (one due later would be left as it is, like a queued one).
 */
static inline bool bus_held_live_by(const struct plca_sim *sim, u64 t)
{
	return bus_held_live(sim) && kfsim_event_time(&sim->held) <= t;
}

/* A queued run timer of an idle run (SEGT_TO_RUN), not a frame, timer or own clock. */
static inline bool bus_is_run_timer(const struct plca_sim *sim, const struct kfsim_event *ev)
{
	u32 slot = kfsim_event_data(ev);
	const struct bus_slot_info *info;

	if (slot < sim->nr_fixed)
		return false;
	info = &sim->extra[slot - sim->nr_fixed];
	return info->kind == EV_SEG && (info->arg & 3) == SEGT_TO_RUN;
}

/*
 * The heap whose first event is the first live queued one, dropping withdrawn timers on the way
 * (as the loop would), or NULL when nothing live is queued.
 */
static inline struct kfsim_evheap *bus_live_heap(struct plca_sim *sim)
{
	for (;;) {
		struct kfsim_evheap *h = kfsim_evq_next_heap(&sim->events);
		u32 slot;

		if (!h)
			return NULL;
		slot = kfsim_event_data(&h->ev[0]);
		if (slot >= sim->nr_fixed || sim->slot_seq[slot] == kfsim_event_seq(&h->ev[0]))
			return h;
		kfsim_evheap_pop(h);
	}
}

/* The time of the first live queued event (bus_live_heap()). */
static inline u64 bus_next_live(struct plca_sim *sim)
{
	struct kfsim_evheap *h = bus_live_heap(sim);

	return h ? kfsim_event_time(&h->ev[0]) : BUS_NEVER;
}

#define BUS_STALE_MAX 8 /* run timers of earlier idle runs a model looks past, at most */

/*
 * The time of the first queued event that is not the run timer of an earlier idle run, or of
 * the first one after @until, whichever comes first; the run timers before it (at most
 * BUS_STALE_MAX, then the time of the next live event) are taken out of the queue into @stale,
 * in their order, their number in *@nr.  Withdrawn timers on the way are dropped, as the event
 * loop would.
 */
static inline u64 bus_next_not_run(struct plca_sim *sim, u64 until, struct kfsim_event *stale,
				   u32 *nr)
{
	*nr = 0;
	for (;;) {
		struct kfsim_evheap *h = bus_live_heap(sim);
		u64 t;

		if (!h)
			return BUS_NEVER;
		t = kfsim_event_time(&h->ev[0]);
		if (t > until || *nr == BUS_STALE_MAX || !bus_is_run_timer(sim, &h->ev[0]))
			return t;
		stale[(*nr)++] = h->ev[0];
		kfsim_evheap_pop(h);
	}
}

/*
 * Put the run timers @stale[0 .. @nr) (bus_next_not_run()) back into the queue, as they were,
 * but those due by @land, which the caller runs (@done): each is one event that frees its slot.
 * In a committed TO, and in a stretch of idle cycles that bus_fast_idle() allowed,
 * that event only brings the cycle up to its instant (seg_materialise()).
 */
static inline void bus_stale_runs_done(struct plca_sim *sim, const struct kfsim_event *stale,
				       u32 nr, bool done, u64 land)
{
	for (u32 i = 0; i < nr; i++) {
		if (!done || kfsim_event_time(&stale[i]) > land) {
			kfsim_evq_push_event(&sim->events, sim->now, &stale[i]);
			continue;
		}
		sim->free_slots[sim->nr_free++] = kfsim_event_data(&stale[i]) - sim->nr_fixed;
		sim->nr_events++;
	}
}

/*
 * Whether a signal that @node starts at @t would meet the tail of another node's signal still
 * on its way to it: check_overlaps() would arm a collision (a signal that ends at @t itself is
 * not looked at).  Only for a quiet wire: every signal on the ring has ended by now, so none can
 * when @t is max_prop or more from now.
 */
static inline bool bus_tail_in_flight(const struct plca_sim *sim, u32 node, u64 t)
{
	u64 pos = sim->nodes[node].pos_ns;

	for (u32 k = sim->sig_tail; k != sim->sig_head; k++) {
		const struct bus_signal *s = &sim->sig[k % BUS_SIG_RING];

		if (s->node != node && s->end != t && s->end + bus_dist(pos, s->pos_ns) > t)
			return true;
	}
	return false;
}

/*
 * What mac_try() does for a MAC whose carrier check a model knows: the carrier, clear of any
 * signal still unseen, goes (or went) off at @from; @busy: it is still on now (a deferral).
 * The IFG's timer is not queued: bus_fast_ifg_over() runs its end; only its sequence number is
 * taken, so that every later event keeps its place.
 */
static inline void bus_fast_ifg(struct plca_sim *sim, u32 node, u64 from, bool busy)
{
	struct bus_node *n = &sim->nodes[node];

	if (busy && !n->deferred_this_attempt) {
		n->deferred_this_attempt = true;
		n->st.deferrals++;
	}
	sim->carrier_unseen = false;
	n->ifg_from = from;
	n->ifg_clear = true;
	n->ifg_rs = true;
	n->ifg_opens = sim->opens[1];
	sim->slot_seq[node << BUS_SLOT_SHIFT | EV_MAC] = kfsim_evq_take_seq(&sim->events);
}

/*
 * The MAC starts an attempt now (start_tx()); what the RS or the wire does with it is up to the
 * caller.
 */
static inline void bus_mac_sends(struct plca_sim *sim, struct bus_node *n, u32 node)
{
	n->mac = MAC_TX;
	n->mac_tx_start = sim->now;
	n->waiting = false;
	bus_cancel(sim, node, EV_MAC);
}

/*
 * The end of that IFG, nothing new on the wire: the MAC sends (start_tx()); the RS takes the
 * frame (rs_mac_tx_start()), the caller's: into another node's COMMIT, a logical collision;
 * behind its own, the frame goes out.
 */
static inline void bus_fast_ifg_over(struct plca_sim *sim, u32 node)
{
	struct bus_node *n = &sim->nodes[node];

	n->ifg_from = 0;
	n->ifg_clear = false;
	bus_mac_sends(sim, n, node);
}

/*
 * After a one-step TO of bus_fast.c or bus_fast_round.c, @node's frame is on the wire: when its
 * end is the next event of the run (before @horizon, the first queued one, and within the run),
 * move there and count it as the event it would be, and return true; otherwise queue the end
 * with the sequence number its arming took, and return false.
 */
static inline bool bus_fast_next_end(struct plca_sim *sim, u32 node, u64 horizon)
{
	u32 slot = node << BUS_SLOT_SHIFT | EV_TX_END;
	u64 t_end = sim->sig[sim->nodes[node].sig].end;

	if (t_end > sim->run_limit || horizon <= t_end) {
		bus_queue_push(sim, t_end, BUS_PRIO_NODE, slot, sim->slot_seq[slot]);
		return false;
	}
	sim->now = t_end;
	sim->nr_events++;
	return true;
}

/* bus_fast.c */
bool bus_fast_tx_end(struct plca_sim *sim, u32 node);
bool bus_fast_idle_skip(struct plca_sim *sim);
void bus_fast_signal_open(struct plca_sim *sim, u32 node, u8 kind, u64 end);
void bus_fast_signal_rekind(struct plca_sim *sim, u32 node, u64 end);

/* bus_fast_round.c */
bool bus_fast_round(struct plca_sim *sim, u32 node, u64 horizon, u32 next, u64 crs_off,
		    u64 t_start);
/* bus_fast_frame.c */
bool bus_fast_commit(struct plca_sim *sim, u32 id);
bool bus_fast_arrival(struct plca_sim *sim, u32 node);
/* bus_fast_cycle.c */
bool bus_fast_next_cycle(struct plca_sim *sim);
/* bus_sparse.c */
bool sparse_maybe_run(struct plca_sim *sim, u64 t_ns, int *ret);
void sparse_q_free(struct sparse_q *q);
int sparse_replay(struct plca_sim *sim);

/*
 * Skip the idle cycles ahead from a TO decision or the cycle's end, if nothing can happen in
 * them (bus_fast.c, bus_fast_idle_skip()).  The checks that refuse most calls are inline: on
 * the bench's Poisson segment three calls in five stop at them, and the call cost them as much
 * again.
 */
static inline bool bus_fast_idle(struct plca_sim *sim)
{
	const struct bus_seg *seg = &sim->seg;

	if (sim->nr_oc || seg->coord < 0 || !seg->to_ns || sim->nr_pending || sim->nr_lazy_pend ||
	    sim->nr_hold || sim->nr_waiters || sim->nr_active || bus_held_live(sim) ||
	    seg->to_start != sim->now || seg->cur_id > seg->node_cnt)
		return false;
	/*
	 * No node busy: no frame queued (nor a MAC at work), every RS IDLE, none committed.  Asked
	 * before the wire: on a loaded segment a third of the calls stop here (a frame waits out a
	 * backoff), and the cycle's arithmetic and the tail check cost them more than this does.
	 */
	if (sim->nr_queued || sim->nr_ds_busy || sim->nr_committed || sim->nr_unsynced)
		return false;
	return bus_fast_idle_skip(sim);
}

/* bus_plca.c */
/* The node runs its MAC under the PLCA RS (enabled, synchronised, link up). */
static inline bool rs_active(const struct bus_node *n)
{
	return n->rs_on && n->synced && n->up;
}

/*
 * Whether the data state machine holds CRS on for the MAC (HOLD, COLLIDE, DELAY_PENDING,
 * PENDING, TRANSMIT): the MAC defers until the RS lets go; in IDLE and WAIT_MAC it passes the
 * wire's carrier through.
 */
static inline bool rs_forces_carrier(const struct bus_node *n)
{
	return n->ds != DS_IDLE && n->ds != DS_WAIT_MAC;
}

/* When the RS last stopped forcing carrier (0: never), for the MAC's IFG. */
static inline u64 rs_carrier_released(const struct bus_node *n)
{
	return n->rs_carrier_off;
}

/*
 * CARRIER_STATUS as the RS of an active node (rs_active()) gives it to its MAC (148.4.5): the
 * one place the MAC learns about carrier under PLCA.  Forced on (*@off_at = BUS_FORCED) while
 * rs_forces_carrier(); otherwise the wire's data signals (BEACON and COMMIT are not data), and
 * when they are off, *@off_at is the later of their end and the RS's own release.
 */
static inline bool rs_carrier_status(struct plca_sim *sim, u32 node, u64 ignore_from,
				     u64 *off_at)
{
	const struct bus_node *n = &sim->nodes[node];
	bool busy;

	if (rs_forces_carrier(n)) {
		*off_at = BUS_FORCED; /* the RS says when it lets go */
		return true;
	}
	busy = bus_carrier(sim, node, true, ignore_from, off_at);
	if (!busy)
		*off_at = max(*off_at, rs_carrier_released(n));
	return busy;
}

/*
 * Whether the RS will force carrier on from its pending_timer (DELAY_PENDING) no later than
 * @t: a MAC whose backoff ends by then defers to the RS rather than waking up to find CRS on.
 */
static inline bool rs_pending_by(const struct bus_node *n, u64 t)
{
	return rs_active(n) && n->ds == DS_DELAY_PENDING && t <= n->rs_due;
}

/*
 * The IFG that wait_ifg() started from a clear carrier check is over, and the check would give
 * the same answer now: no signal the MAC looks at has opened since (those in view had all ended
 * and none was on its way, so closing ones cannot matter), it looks at the same signals (the
 * same PLCA view, the RS not forcing carrier), and neither the RS's nor its own carrier-off time
 * moved past the IFG's start.  The carrier has then been off for the whole IFG.  mac_try() and
 * the sparse engine's ask it.
 */
static inline bool bus_ifg_still_clear(const struct plca_sim *sim, const struct bus_node *n)
{
	if (!n->ifg_clear || sim->now < n->ifg_from + BT(PLCA_SIM_IFG_BT) ||
	    rs_active(n) != n->ifg_rs || sim->opens[n->ifg_rs] != n->ifg_opens ||
	    max(rs_carrier_released(n), n->own_tx_end) > n->ifg_from)
		return false;
	return !n->ifg_rs || !rs_forces_carrier(n);
}

/* The one owner of TO @id (duplicate ids are left to the bit-level path), or -1. */
static inline int bus_sole_owner(const struct plca_sim *sim, u32 id)
{
	u32 first = sim->owner_first[id];

	if (id >= sim->seg.node_cnt || sim->owner_first[id + 1] != first + 1)
		return -1;
	return (int)sim->owners[first];
}

/*
 * The per-id counts of pending nodes, which the cycle's TO decision reads (pending_per_id[] and
 * the bitmap pending_ids[]): @n's id counts one more (@on) or one less.  Only the cycle's owners
 * are counted: a node that runs an own clock decides at its own TOs (oc_pending()), and the
 * cycle's TO of its id stays idle for it.
 */
static inline void bus_pending_id_count(struct plca_sim *sim, const struct bus_node *n, bool on)
{
	u32 id = (u32)n->cfg.plca.node_id;
	u64 bit = 1ull << (id % 64);

	if (on) {
		sim->pending_per_id[id]++;
		sim->pending_ids[id / 64] |= bit;
	} else if (!--sim->pending_per_id[id]) {
		sim->pending_ids[id / 64] &= ~bit;
	}
}

/*
 * @n enters (@on) or leaves HOLD/PENDING: nr_pending counts every such node; the per-id counts
 * of bus_pending_id_count() only the cycle's owners (oc_assign() moves a pending node in or out
 * of them when it starts or stops running an own clock).
 */
static inline void bus_pending_count(struct plca_sim *sim, const struct bus_node *n, bool on)
{
	sim->nr_pending += on ? 1 : -1;
	if (!n->oc)
		bus_pending_id_count(sim, n, on);
}

/* The first id >= @from, below node_cnt, whose owner in the cycle has a frame pending. */
static inline u32 bus_next_pending_id(const struct plca_sim *sim, u32 from)
{
	u32 limit = sim->seg.node_cnt;

	if (!sim->nr_pending)
		return limit;
	for (u32 word = from / 64; word < 4 && word * 64 < limit; word++) {
		u64 bits = sim->pending_ids[word];

		if (word == from / 64)
			bits &= ~0ull << (from % 64);
		if (bits) {
			u32 id = word * 64 + (u32)__builtin_ctzll(bits);

			return min(id, limit);
		}
	}
	return limit;
}

/*
 * The lazy pending_timers (pending_timer() of bus_plca.c): the node's timer is still its own
 * (not re-armed or cancelled since, the node still DELAY_PENDING), so it turns PENDING at the
 * TO decision of instant @t, where lazy_pend_settle() settles it.
 */
static inline bool bus_lazy_pend_live(const struct plca_sim *sim, const struct bus_node *n,
				      u32 node)
{
	return n->ds == DS_DELAY_PENDING &&
	       sim->slot_seq[node << BUS_SLOT_SHIFT | EV_RS] == n->pend_tie >> BUS_SLOT_BITS;
}

static inline bool bus_pending_by(const struct plca_sim *sim, const struct bus_node *n, u32 node,
				  u64 t)
{
	if (n->ds == DS_PENDING)
		return true;
	return n->pend_lazy && n->rs_due <= t && bus_lazy_pend_live(sim, n, node);
}

/*
 * Whether @node (@n), the next TO's one owner, waits for that TO as the per-TO models of
 * bus_fast.c and bus_fast_round.c run it: under the RS, nothing on the wire, its MAC deferring
 * with no IFG or backoff running (due by @t) and no timer, not yet committed, collisions seen,
 * and a frame pending by the TO decision at @t.
 */
static inline bool bus_next_owner_waits(const struct plca_sim *sim, const struct bus_node *n,
					u32 node, u64 t)
{
	return rs_active(n) && n->sig < 0 && n->mac == MAC_DEFER && !n->waiting && !n->ifg_from &&
	       !n->committed && n->backoff_end <= t && !n->cfg.ignores_collisions &&
	       sim->slot_seq[node << BUS_SLOT_SHIFT | EV_MAC] == BUS_SEQ_NONE &&
	       bus_pending_by(sim, n, node, t);
}

/*
 * Run the lazy pending_timers that are due now (the TO decision comes after every event of its
 * instant, so "due by now" is exact): DELAY_PENDING -> PENDING, where set_ds() changes only the
 * pending counts (neither state is HOLD or IDLE); with @queue, queue the others as real timers
 * (an idle run begins).  Timers re-armed or cancelled since leave the list.  Inline so that
 * the round of bus_fast_round.c, which never queues, loses the branch.
 */
static inline void bus_lazy_pend_settle(struct plca_sim *sim, bool queue)
{
	u32 keep = 0;

	for (u32 i = 0; i < sim->nr_lazy_pend; i++) {
		u32 node = sim->lazy_pend[i];
		struct bus_node *n = &sim->nodes[node];

		if (!bus_lazy_pend_live(sim, n, node)) {
			n->pend_lazy = false;
		} else if (n->rs_due <= sim->now) {
			n->pend_lazy = false;
			n->ds = DS_PENDING;
			bus_pending_count(sim, n, true);
		} else if (queue) {
			n->pend_lazy = false;
			bus_queue_push(sim, n->rs_due, BUS_PRIO_NODE, node << BUS_SLOT_SHIFT | EV_RS,
				       n->pend_tie >> BUS_SLOT_BITS);
		} else {
			sim->lazy_pend[keep++] = node;
		}
	}
	sim->nr_lazy_pend = keep;
}

void rs_mac_tx_start(struct plca_sim *sim, u32 node);
void rs_on_timer(struct plca_sim *sim, u32 node);
void rs_signal_started(struct plca_sim *sim, u32 node, u8 kind);
void rs_tx_end(struct plca_sim *sim, u32 node);
void rs_data_end(struct plca_sim *sim, u32 node);
void rs_detach(struct plca_sim *sim, u32 node);
void seg_crs_drop(struct plca_sim *sim);
void seg_crs_drop_last(struct plca_sim *sim);
void seg_on_timer(struct plca_sim *sim, u32 node, u32 arg);
void seg_on_status_timer(struct plca_sim *sim);
void seg_pending_changed(struct plca_sim *sim);
void seg_eval_due(struct plca_sim *sim);
void seg_reconfigure(struct plca_sim *sim);
void seg_presync(struct plca_sim *sim);
void seg_count_unsynced(struct plca_sim *sim);
/* for the per-TO model (bus_fast.c) */
void rs_fast_frame_end(struct plca_sim *sim, u32 node);
void rs_fast_collide(struct plca_sim *sim, u32 node);
void rs_fast_frame_start(struct plca_sim *sim, u32 node);
void seg_fast_commit_next(struct plca_sim *sim, u32 node);
void seg_fast_commit(struct plca_sim *sim, u32 node);
void rs_fast_hold(struct plca_sim *sim, u32 node);
void seg_fast_idle_cycles(struct plca_sim *sim, u64 m, u32 k, u64 t0);
u32 seg_idle_run_begun(const struct plca_sim *sim);
void seg_count_idle_run(struct plca_sim *sim);

#pragma GCC visibility pop

#endif /* KFSIM_PLCA_BUS_INTERNAL_H */
