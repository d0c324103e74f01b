// SPDX-License-Identifier: MIT
/*
 * The segment simulator as a value: settings checked and copied at creation, its timers on the
 * simulation toolkit's event queue (<kfsim/sim_evq.h>: near and far heaps), and the loop that runs
 * them.
 *
 * Invariants: events run in (time, priority, insertion sequence) order, the smaller of the two
 * heap tops first, so a run depends only on the settings and the seed, never on which heap held
 * an event; stale timers (their slot re-armed or cancelled since) are skipped when popped; no
 * setting is changed unless all of it was valid.
 */
#include <math.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>
#include "bus_internal.h"

u64 kfsim_plca_wire_bt(u32 payload)
{
	return bus_wire_bt(payload);
}

u64 kfsim_plca_idle_cycle_bt(u32 node_cnt, u32 to_tmr)
{
	return PLCA_SIM_BEACON_BT + (u64)node_cnt * to_tmr;
}

/* ---- event queue --------------------------------------------------------------------------- */

/*
 * A new free-list slot for one EV_SEG or EV_INJECT event, or BUS_SLOT_MASK when out of memory:
 * the slow path of bus_schedule_slot(), taken when no slot is free.
 */
u32 bus_slot_grow(struct plca_sim *sim, u32 node, u32 kind, u32 arg)
{
	u32 idx;

	if (sim->nr_extra == sim->extra_cap) {
		u32 cap = sim->extra_cap * 2;
		struct bus_slot_info *info;
		u32 *free_slots;

		if (sim->nr_fixed + cap > BUS_SLOT_MASK)
			return BUS_SLOT_MASK;
		info = krealloc(sim->extra, cap * sizeof(*info), GFP_KERNEL | __GFP_NOWARN);
		if (!info)
			return BUS_SLOT_MASK;
		sim->extra = info;
		free_slots = krealloc(sim->free_slots, cap * sizeof(*free_slots),
				      GFP_KERNEL | __GFP_NOWARN);
		if (!free_slots)
			return BUS_SLOT_MASK;
		sim->free_slots = free_slots;
		sim->extra_cap = cap;
	}
	idx = sim->nr_extra++;
	sim->extra[idx] = (struct bus_slot_info){node, kind, arg};
	return sim->nr_fixed + idx;
}

static int queue_init(struct plca_sim *sim)
{
	sim->nr_fixed = sim->nr_nodes << BUS_SLOT_SHIFT;
	if (kfsim_evq_init(&sim->events, BUS_NEAR_NS, 64))
		return -ENOMEM;
	sim->extra_cap = 16;
	sim->slot_seq = kcalloc(sim->nr_fixed, sizeof(*sim->slot_seq), GFP_KERNEL);
	sim->extra = kmalloc_array(sim->extra_cap, sizeof(*sim->extra), GFP_KERNEL);
	sim->free_slots = kmalloc_array(sim->extra_cap, sizeof(*sim->free_slots), GFP_KERNEL);
	if (!sim->slot_seq || !sim->extra || !sim->free_slots)
		return -ENOMEM;
	return 0;
}

/*
 * Queue an event.  A node timer (and the status watchdog) replaces its slot's earlier arming;
 * cycle timers and scripted frames accumulate.  Ties in time and priority go in call order.
 */
void bus_schedule(struct plca_sim *sim, u64 t, u32 prio, u32 node, u32 kind, u32 arg)
{
	u64 seq;
	u32 slot;

	if (kind == EV_SEG || kind == EV_INJECT) {
		bus_schedule_slot(sim, t, prio, node, kind, arg);
		return;
	}
	seq = kfsim_evq_take_seq(&sim->events);
	slot = kind == EV_STATUS ? EV_STATUS : node << BUS_SLOT_SHIFT | kind;
	if (bus_queue_push(sim, t, prio, slot, seq))
		sim->slot_seq[slot] = seq;
}

static void dispatch(struct plca_sim *sim, u32 node, u32 kind, u32 arg)
{
	switch (kind) {
	case EV_ARRIVAL:
		if (sim->seg.state == SEG_WAIT_TO && !sim->bit_level && bus_fast_arrival(sim, node))
			break; /* a lone frame, up to its start (bus_fast_frame.c) */
		mac_arrival(sim, node);
		break;
	case EV_INJECT:
		mac_enqueue(sim, node, sim->now, arg);
		break;
	case EV_MAC:
		mac_on_timer(sim, node);
		break;
	case EV_TX_END:
		bus_on_tx_end(sim, node);
		break;
	case EV_COL:
		mac_phys_collision(sim, node);
		break;
	case EV_RS:
		rs_on_timer(sim, node);
		break;
	case EV_SEG:
		seg_on_timer(sim, node, arg);
		break;
	default:
		seg_on_status_timer(sim);
		break;
	}
}

int kfsim_plca_sim_run_until(struct plca_sim *sim, u64 t_ns)
{
	int ret;

	if (t_ns < sim->now)
		return -EINVAL;
	sim->run_limit = t_ns;
	if (unlikely(sim->sparse_on) && sparse_maybe_run(sim, t_ns, &ret))
		return ret;
	for (;;) {
		struct kfsim_evheap *h;
		struct kfsim_event ev;
		u32 slot, node, kind, arg;

		h = kfsim_evq_next_heap(&sim->events);
		if (unlikely(sim->has_held)) {
			/* a held timer goes into a heap only when it is live and due next */
			struct kfsim_event *held = &sim->held;

			if (sim->slot_seq[kfsim_event_data(held)] != kfsim_event_seq(held)) {
				sim->has_held = false;
			} else if (!h || kfsim_event_before(held, &h->ev[0])) {
				bus_flush_held(sim);
				h = kfsim_evq_next_heap(&sim->events);
			}
		}
		/* the TO decision comes after every other event of its instant */
		if (sim->seg.eval_pending && sim->now <= t_ns &&
		    (!h || kfsim_event_time(&h->ev[0]) > sim->now)) {
			sim->nr_events++;
			seg_eval_due(sim);
			continue;
		}
		/* an idle landing: the sparse engine may take the run over (bus_sparse.c) */
		if (unlikely(sim->sparse_ready) && sparse_maybe_run(sim, t_ns, &ret))
			return ret;
		if (bus_oom(sim) || !h || kfsim_event_time(&h->ev[0]) > t_ns)
			break;
		ev = h->ev[0];
		kfsim_evheap_pop(h);
		slot = kfsim_event_data(&ev);
		if (slot >= sim->nr_fixed) {
			const struct bus_slot_info *info = &sim->extra[slot - sim->nr_fixed];

			node = info->node;
			kind = info->kind;
			arg = info->arg;
			sim->free_slots[sim->nr_free++] = slot - sim->nr_fixed;
		} else {
			if (sim->slot_seq[slot] != kfsim_event_seq(&ev))
				continue; /* cancelled or re-armed */
			node = slot >> BUS_SLOT_SHIFT;
			kind = slot & (BIT(BUS_SLOT_SHIFT) - 1);
			arg = 0;
		}
		sim->now = kfsim_event_time(&ev);
		sim->nr_events++;
		dispatch(sim, node, kind, arg);
	}
	if (bus_oom(sim)) {
		pr_err("plca_sim: out of memory for the event queue at %llu ns\n",
		       (unsigned long long)sim->now);
		return -ENOMEM;
	}
	sim->now = t_ns;
	return 0;
}

u64 kfsim_plca_sim_now(const struct plca_sim *sim)
{
	return sim->now;
}

u32 kfsim_plca_sim_nr_nodes(const struct plca_sim *sim)
{
	return sim->nr_nodes;
}

/* ---- settings ------------------------------------------------------------------------------ */

/* One PLCA field: -1 takes @dflt, otherwise it must lie in [lo, hi]. */
static int plca_field(int *field, int dflt, int lo, int hi, u32 node, const char *name)
{
	if (*field == -1)
		*field = dflt;
	if (*field < lo || *field > hi) {
		pr_err("plca_sim: node %u: %s %d out of range %d..%d\n", node, name, *field, lo,
		       hi);
		return -EINVAL;
	}
	return 0;
}

/* Normalise @p against @base (-1 = keep @base's value): the bus's view of a PHY's registers. */
static int plca_cfg_check(struct phy_plca_cfg *p, const struct phy_plca_cfg *base, u32 node)
{
	int ret = 0;

	if (p->enabled > 0)
		p->enabled = 1;
	ret |= plca_field(&p->enabled, base->enabled, 0, 1, node, "enabled");
	ret |= plca_field(&p->node_id, base->node_id, 0, 255, node, "node_id");
	ret |= plca_field(&p->node_cnt, base->node_cnt, 1, 255, node, "node_cnt");
	ret |= plca_field(&p->to_tmr, base->to_tmr, 0, 255, node, "to_tmr");
	ret |= plca_field(&p->burst_cnt, base->burst_cnt, 0, 255, node, "burst_cnt");
	ret |= plca_field(&p->burst_tmr, base->burst_tmr, 0, 255, node, "burst_tmr");
	p->version = -1;
	return ret ? -EINVAL : 0;
}

void kfsim_plca_cfg_reset_default(struct phy_plca_cfg *cfg)
{
	*cfg = (struct phy_plca_cfg){
		.version = -1,
		.enabled = 0,
		.node_id = 255,
		.node_cnt = 8,
		.to_tmr = 32,
		.burst_cnt = 0,
		.burst_tmr = 128,
	};
}

static int node_cfg_check(struct plca_sim_node_cfg *c, u32 node)
{
	struct phy_plca_cfg reset;

	kfsim_plca_cfg_reset_default(&reset);
	if (plca_cfg_check(&c->plca, &reset, node))
		return -EINVAL;
	if (!(c->position_m >= 0 && c->position_m <= PLCA_SIM_MAX_SEGMENT_M)) {
		pr_err("plca_sim: node %u: position %g m outside the 0..25 m segment\n", node,
		       c->position_m);
		return -EINVAL;
	}
	if (c->load > PLCA_SIM_LOAD_PERIODIC) {
		pr_err("plca_sim: node %u: unknown load kind %d\n", node, (int)c->load);
		return -EINVAL;
	}
	if ((c->load == PLCA_SIM_LOAD_POISSON || c->load == PLCA_SIM_LOAD_PERIODIC) &&
	    !(isfinite(c->interval_us) && c->interval_us > 0 && c->interval_us <= 1e9)) {
		pr_err("plca_sim: node %u: interval %g us must be > 0 and <= 1e9\n", node,
		       c->interval_us);
		return -EINVAL;
	}
	if (c->payload_max > PLCA_SIM_MAX_PAYLOAD || c->payload_min > c->payload_max) {
		pr_err("plca_sim: node %u: payload %u..%u outside 0..1500 or reversed\n", node,
		       c->payload_min, c->payload_max);
		return -EINVAL;
	}
	if (!c->queue_limit)
		c->queue_limit = 256;
	if (c->queue_limit > 65536) {
		pr_err("plca_sim: node %u: queue_limit %u over 65536\n", node, c->queue_limit);
		return -EINVAL;
	}
	return 0;
}

/* Free what @sim holds (not @sim itself): the destroy, and the replay's swap (bus_sparse.c). */
void plca_sim_free_insides(struct plca_sim *sim)
{
	for (u32 i = 0; i < sim->nr_nodes && sim->nodes; i++) {
		kfree(sim->nodes[i].queue);
		kfsim_hist_free(&sim->nodes[i].lat);
	}
	kfree(sim->nodes);
	kfsim_evq_destroy(&sim->events);
	kfree(sim->slot_seq);
	kfree(sim->extra);
	kfree(sim->free_slots);
	kfree(sim->waiters);
	kfree(sim->waiters_scan);
	kfree(sim->owners);
	kfree(sim->lazy_pend);
	kfree(sim->hold_bits);
	kfree(sim->orig_nodes);
	sparse_q_free(sim->sp_q);
}

void kfsim_plca_sim_destroy(struct plca_sim *sim)
{
	if (IS_ERR_OR_NULL(sim))
		return;
	plca_sim_free_insides(sim);
	kfree(sim);
}

/*
 * Before anything that needs the bit-level state or changes the segment: if the sparse engine
 * holds the run, rebuild that state (bus_sparse.c); from then on the simulator runs bit-level.
 * Return: 0 or -ENOMEM.
 */
static int sparse_leave(struct plca_sim *sim)
{
	int ret = sim->sparse_on ? sparse_replay(sim) : 0;

	if (!ret)
		sim->sparse_off = true;
	return ret;
}

static int nodes_init(struct plca_sim *sim, const struct plca_sim_cfg *cfg)
{
	u64 min_pos = BUS_NEVER, max_pos = 0;

	for (u32 i = 0; i < cfg->nr_nodes; i++) {
		struct bus_node *n = &sim->nodes[i];

		n->cfg = cfg->nodes[i];
		if (node_cfg_check(&n->cfg, i))
			return -EINVAL;
		n->pos_ns = (u64)llround(n->cfg.position_m * BUS_NS_PER_M);
		min_pos = min(min_pos, n->pos_ns);
		max_pos = max(max_pos, n->pos_ns);
		n->q_cap = n->cfg.queue_limit;
		n->queue = kmalloc_array(n->q_cap, sizeof(*n->queue), GFP_KERNEL);
		if (!n->queue || kfsim_hist_init(&n->lat))
			return -ENOMEM;
		n->up = true;
		n->sig = -1;
		n->col_at = BUS_NEVER;
		n->mac = MAC_IDLE;
		n->ds = DS_IDLE;
	}
	sim->max_prop = max_pos - min_pos;
	return 0;
}

/* kfsim_plca_sim_create(), and the replay's (@sparse_off: a simulator that never uses it). */
struct plca_sim *plca_sim_new(const struct plca_sim_cfg *cfg, bool sparse_off)
{
	struct plca_sim *sim;
	int ret;

	if (!cfg || !cfg->nodes || !cfg->nr_nodes || cfg->nr_nodes > PLCA_SIM_MAX_NODES) {
		pr_err("plca_sim: need 1..%d nodes\n", PLCA_SIM_MAX_NODES);
		return ERR_PTR(-EINVAL);
	}
	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return ERR_PTR(-ENOMEM);
	sim->nr_nodes = cfg->nr_nodes;
	sim->nodes = kcalloc(cfg->nr_nodes, sizeof(*sim->nodes), GFP_KERNEL);
	sim->waiters = kcalloc(cfg->nr_nodes, sizeof(*sim->waiters), GFP_KERNEL);
	sim->waiters_scan = kcalloc(cfg->nr_nodes, sizeof(*sim->waiters), GFP_KERNEL);
	sim->owners = kcalloc(cfg->nr_nodes, sizeof(*sim->owners), GFP_KERNEL);
	sim->lazy_pend = kcalloc(cfg->nr_nodes, sizeof(*sim->lazy_pend), GFP_KERNEL);
	sim->hold_bits = kcalloc(cfg->nr_nodes / 64 + 1, sizeof(*sim->hold_bits), GFP_KERNEL);
	if (!sim->nodes || !sim->waiters || !sim->waiters_scan || !sim->owners || !sim->lazy_pend ||
	    !sim->hold_bits || queue_init(sim)) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = nodes_init(sim, cfg);
	if (ret)
		goto fail;
	if (cfg->crs_delay_ns < -1 || cfg->crs_delay_ns > PLCA_SIM_CRS_DELAY_MAX_NS) {
		pr_err("plca_sim: crs_delay_ns %d outside -1..%d\n", cfg->crs_delay_ns,
		       PLCA_SIM_CRS_DELAY_MAX_NS);
		ret = -EINVAL;
		goto fail;
	}
	sim->crs_delay = cfg->crs_delay_ns < 0 ? 0 :
			 cfg->crs_delay_ns ? (u64)cfg->crs_delay_ns : PLCA_SIM_CRS_DELAY_DEFAULT_NS;
	prandom_seed_state(&sim->rnd, cfg->seed);
	sim->bit_level = cfg->bit_level;
	sim->sparse_off = sparse_off || cfg->bit_level;
	sim->orig = *cfg;
	sim->orig_nodes = kmemdup(cfg->nodes, cfg->nr_nodes * sizeof(*cfg->nodes), GFP_KERNEL);
	sim->orig.nodes = NULL;
	if (!sim->orig_nodes) {
		ret = -ENOMEM;
		goto fail;
	}
	sim->seg.coord = -1;
	sim->seg.owner = -1;
	for (u32 i = 0; i < sim->nr_nodes; i++)
		mac_start_load(sim, i);
	seg_reconfigure(sim);
	seg_presync(sim);
	if (bus_oom(sim)) {
		ret = -ENOMEM;
		goto fail;
	}
	return sim;
fail:
	kfsim_plca_sim_destroy(sim);
	return ERR_PTR(ret);
}

struct plca_sim *kfsim_plca_sim_create(const struct plca_sim_cfg *cfg)
{
	return plca_sim_new(cfg, false);
}

static int check_node(const struct plca_sim *sim, u32 node)
{
	if (node >= sim->nr_nodes) {
		pr_err("plca_sim: no node %u (the segment has %u)\n", node, sim->nr_nodes);
		return -EINVAL;
	}
	return 0;
}

int kfsim_plca_sim_inject(struct plca_sim *sim, u32 node, u64 t_ns, u32 payload)
{
	if (check_node(sim, node))
		return -EINVAL;
	if (payload > PLCA_SIM_MAX_PAYLOAD || t_ns < sim->now) {
		pr_err("plca_sim: inject: payload %u (max 1500) or time %llu before now %llu\n",
		       payload, (unsigned long long)t_ns, (unsigned long long)sim->now);
		return -EINVAL;
	}
	if (bus_oom(sim) || sparse_leave(sim))
		return -ENOMEM;
	bus_schedule(sim, t_ns, BUS_PRIO_NODE, node, EV_INJECT, payload);
	return bus_oom(sim) ? -ENOMEM : 0;
}

int kfsim_plca_sim_set_plca(struct plca_sim *sim, u32 node, const struct phy_plca_cfg *cfg)
{
	struct phy_plca_cfg next;

	if (check_node(sim, node) || !cfg)
		return -EINVAL;
	next = *cfg;
	if (plca_cfg_check(&next, &sim->nodes[node].cfg.plca, node))
		return -EINVAL;
	if (sparse_leave(sim))
		return -ENOMEM;
	rs_detach(sim, node);
	sim->nodes[node].cfg.plca = next;
	seg_reconfigure(sim);
	return 0;
}

int kfsim_plca_sim_reset_plca(struct plca_sim *sim, u32 node)
{
	if (check_node(sim, node))
		return -EINVAL;
	if (sparse_leave(sim))
		return -ENOMEM;
	rs_detach(sim, node);
	seg_reconfigure(sim);
	return 0;
}

int kfsim_plca_sim_set_link(struct plca_sim *sim, u32 node, bool up)
{
	struct bus_node *n;

	if (check_node(sim, node))
		return -EINVAL;
	if (sim->nodes[node].up == up)
		return 0;
	if (sparse_leave(sim))
		return -ENOMEM;
	n = &sim->nodes[node]; /* after the replay, which puts new insides in place */
	if (!up) {
		rs_detach(sim, node);
		mac_link_down(sim, node);
		n->up = false;
	} else {
		bus_lazy_flush(sim); /* it begins hearing BEACONs */
		n->up = true;
		seg_count_unsynced(sim);
		mac_frame_ready(sim, node);
	}
	seg_reconfigure(sim);
	return 0;
}

int kfsim_plca_sim_get_plca_cfg(const struct plca_sim *sim, u32 node, struct phy_plca_cfg *cfg)
{
	if (check_node(sim, node) || !cfg)
		return -EINVAL;
	*cfg = sim->nodes[node].cfg.plca;
	return 0;
}

int kfsim_plca_sim_get_status(const struct plca_sim *sim, u32 node, struct phy_plca_status *st)
{
	if (check_node(sim, node) || !st)
		return -EINVAL;
	st->pst = sim->nodes[node].synced;
	return 0;
}

void kfsim_plca_sim_set_trace(struct plca_sim *sim, struct kfsim_trace *trace, int pid)
{
	char name[48];

	/* a trace is written by the bit-level engine: rebuild its state first */
	if (trace && sparse_leave(sim)) {
		pr_err("plca_sim: out of memory rebuilding the run for the trace: not tracing\n");
		return;
	}
	sim->trace = trace;
	sim->trace_pid = pid;
	if (!trace)
		return;
	kfsim_trace_name_process(trace, pid, "10BASE-T1S segment");
	kfsim_trace_name_thread(trace, pid, 0, "PLCA cycle (curID)");
	for (u32 i = 0; i < sim->nr_nodes; i++) {
		const struct bus_node *n = &sim->nodes[i];

		if (n->cfg.plca.enabled && n->cfg.plca.node_id < 255)
			snprintf(name, sizeof(name), "node %u (PLCA id %d)", i,
				 n->cfg.plca.node_id);
		else
			snprintf(name, sizeof(name), "node %u (CSMA/CD)", i);
		kfsim_trace_name_thread(trace, pid, (int)i + 1, name);
	}
}

void bus_trace_x(struct plca_sim *sim, int tid, const char *name, const char *cat, u64 start,
		 u64 end, const char *args)
{
	if (!sim->trace || end < start)
		return;
	kfsim_trace_complete(sim->trace, sim->trace_pid, tid, name, cat, start / 1000.0,
			     (end - start) / 1000.0, args);
}

const char *kfsim_plca_misconf_name(u32 bit)
{
	switch (bit) {
	case PLCA_SIM_MISCONF_DUP_ID:
		return "duplicate PLCA node id";
	case PLCA_SIM_MISCONF_ID_BEYOND_CNT:
		return "follower node id >= coordinator node count (never gets a TO)";
	case PLCA_SIM_MISCONF_NO_COORD:
		return "PLCA enabled but no coordinator (node id 0): no BEACON";
	case PLCA_SIM_MISCONF_TO_MISMATCH:
		return "to_tmr differs between PLCA nodes";
	default:
		return NULL;
	}
}
