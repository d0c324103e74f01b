// SPDX-License-Identifier: MIT
/*
 * B-WF2Q+, BFQ's internal fair-queueing scheduler (block/bfq-wf2q.c), hierarchical: the root
 * group's scheduler data (bfqd->sd) holds queues and the entities of groups (struct bfq_group,
 * one level), each group's scheduler data its queues.  Selection descends from the root.
 *
 * Each class has a service tree with a virtual time.  An entity that becomes busy gets a start
 * time (the tree's vtime, or its old finish time when it comes back from the idle tree) and a
 * finish time start + budget/weight.  The next entity served is the eligible one (start <= vtime)
 * with the smallest finish; serving s sectors advances vtime by s/wsum.  So over time each busy
 * entity gets service in proportion to its weight, with a lag bounded by a maximum budget.
 *
 * Invariants:
 * - an entity is in at most one tree (@tree says which), and only when on_st_or_in_serv;
 * - an in-service entity is in no tree, except between its requeue at expiration and
 *   __bfq_bfqd_reset_in_service(); a queue entity in the active tree is also on
 *   bfqd->active_list[actuator_idx], one in the idle tree on bfqd->idle_list;
 * - a group's entity is active (in its parent's active tree, or in service) exactly while one
 *   of the group's entities is; group entities hold no queue references;
 * - wsum is the sum of weights of entities with on_st_or_in_serv set;
 * - first_idle/last_idle are the idle entities with the smallest and largest finish.
 *
 * Difference from the kernel: the kernel's active trees are augmented with each subtree's
 * smallest start, making the eligible-entity search O(log n).  Here the active tree is a plain
 * rb_root_cached by finish, walked from its leftmost node until an eligible entity is found, and
 * the smallest start is found by a walk: same choices, O(n) in the number of busy queues, which
 * for the processes of a simulation is a handful.
 */
#include <kfsim/bug.h>
#include <kfsim/kernel.h>
#include "bfq_internal.h"

static inline bool bfq_gt(u64 a, u64 b)
{
	return (s64)(a - b) > 0;
}

static u64 bfq_delta(unsigned long service, unsigned long weight)
{
	return ((u64)service << WFQ_SERVICE_SHIFT) / weight;
}

static void bfq_calc_finish(struct bfq_entity *entity, unsigned long service)
{
	entity->finish = entity->start + bfq_delta(service, (unsigned long)entity->weight);
}

static struct bfq_entity *bfq_entity_of(struct rb_node *node)
{
	return node ? rb_entry(node, struct bfq_entity, rb_node) : NULL;
}

static bool bfq_entity_less(struct rb_node *a, const struct rb_node *b)
{
	const struct bfq_entity *ea = rb_entry(a, struct bfq_entity, rb_node);
	const struct bfq_entity *eb = rb_entry(b, struct bfq_entity, rb_node);

	return bfq_gt(eb->finish, ea->finish);
}

/* The scheduler data @entity is queued in: its group's, or the root's. */
static struct bfq_sched_data *bfq_entity_sd(struct bfq_data *bfqd, struct bfq_entity *entity)
{
	return entity->sched_data ? entity->sched_data : &bfqd->sd;
}

struct bfq_service_tree *bfq_entity_service_tree(struct bfq_data *bfqd, struct bfq_entity *entity)
{
	return &bfq_entity_sd(bfqd, entity)->service_tree[bfq_class_idx(entity)];
}

static bool bfq_entity_in_service(struct bfq_data *bfqd, struct bfq_entity *entity)
{
	return bfq_entity_sd(bfqd, entity)->in_service_entity == entity;
}

static void bfq_active_insert(struct bfq_data *bfqd, struct bfq_service_tree *st,
			      struct bfq_entity *entity)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	rb_add_cached(&entity->rb_node, &st->active, bfq_entity_less);
	entity->tree = &st->active;
	if (bfqq)
		blk_list_add(&bfqq->bfqq_list, &bfqd->active_list[bfqq->actuator_idx]);
}

static void bfq_active_extract(struct bfq_service_tree *st, struct bfq_entity *entity)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	rb_erase_cached(&entity->rb_node, &st->active);
	RB_CLEAR_NODE(&entity->rb_node);
	entity->tree = NULL;
	if (bfqq)
		blk_list_del_init(&bfqq->bfqq_list);
}

static void bfq_idle_insert(struct bfq_data *bfqd, struct bfq_service_tree *st,
			    struct bfq_entity *entity)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);
	struct bfq_entity *first_idle = st->first_idle, *last_idle = st->last_idle;

	if (!first_idle || bfq_gt(first_idle->finish, entity->finish))
		st->first_idle = entity;
	if (!last_idle || bfq_gt(entity->finish, last_idle->finish))
		st->last_idle = entity;
	rb_add_cached(&entity->rb_node, &st->idle, bfq_entity_less);
	entity->tree = &st->idle;
	if (bfqq)
		blk_list_add(&bfqq->bfqq_list, &bfqd->idle_list);
}

static void bfq_idle_extract(struct bfq_service_tree *st, struct bfq_entity *entity)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	if (entity == st->first_idle)
		st->first_idle = bfq_entity_of(rb_next(&entity->rb_node));
	if (entity == st->last_idle)
		st->last_idle = bfq_entity_of(rb_prev(&entity->rb_node));
	rb_erase_cached(&entity->rb_node, &st->idle);
	RB_CLEAR_NODE(&entity->rb_node);
	entity->tree = NULL;
	if (bfqq)
		blk_list_del_init(&bfqq->bfqq_list);
}

/* The entity leaves the scheduler: its weight leaves wsum, its tree reference goes. */
static void bfq_forget_entity(struct bfq_service_tree *st, struct bfq_entity *entity,
			      bool is_in_service)
{
	entity->on_st_or_in_serv = false;
	st->wsum -= (unsigned long)entity->weight;
	if (!is_in_service && bfq_entity_to_bfqq(entity))
		bfq_put_queue(bfq_entity_to_bfqq(entity));
}

static void bfq_put_idle_entity(struct bfq_data *bfqd, struct bfq_service_tree *st,
				struct bfq_entity *entity)
{
	bfq_idle_extract(st, entity);
	bfq_forget_entity(st, entity, bfq_entity_in_service(bfqd, entity));
}

/* Idle entities whose finish time vtime has passed can no longer claim their lag: drop one. */
static void bfq_forget_idle(struct bfq_data *bfqd, struct bfq_service_tree *st)
{
	struct bfq_entity *first_idle = st->first_idle, *last_idle = st->last_idle;

	if (RB_EMPTY_ROOT(&st->active.rb_root) && last_idle &&
	    !bfq_gt(last_idle->finish, st->vtime))
		st->vtime = last_idle->finish;	/* forget the whole idle tree */
	if (first_idle && !bfq_gt(first_idle->finish, st->vtime))
		bfq_put_idle_entity(bfqd, st, first_idle);
}

void bfq_entity_update_weight(struct bfq_data *bfqd, struct bfq_entity *entity)
{
	struct bfq_service_tree *st = bfq_entity_service_tree(bfqd, entity);
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);
	int prev_weight = entity->weight;

	if (!entity->prio_changed)
		return;
	entity->prio_changed = 0;
	entity->orig_weight = entity->new_weight;
	entity->weight = entity->orig_weight * (int)(bfqq ? bfqq->wr_coeff : 1);
	if (entity->on_st_or_in_serv)
		st->wsum = st->wsum - (unsigned long)prev_weight + (unsigned long)entity->weight;
}

static void bfq_update_fin_time_enqueue(struct bfq_data *bfqd, struct bfq_entity *entity,
					struct bfq_service_tree *st, bool backshifted)
{
	struct bfq_queue *bfqq = bfq_entity_to_bfqq(entity);

	bfq_entity_update_weight(bfqd, entity);
	bfq_calc_finish(entity, (unsigned long)entity->budget);
	/*
	 * A queue coming back after a short wait without plugging keeps its old timestamps
	 * (back-shifting); if even so it would be served in the past, push it to vtime, less
	 * so for a weight-raised queue.
	 */
	if (backshifted && bfq_gt(st->vtime, entity->finish)) {
		u64 delta = (st->vtime - entity->finish) / (bfqq ? bfqq->wr_coeff : 1);

		entity->start += delta;
		entity->finish += delta;
	}
	bfq_active_insert(bfqd, st, entity);
}

static void __bfq_activate_entity(struct bfq_data *bfqd, struct bfq_entity *entity,
				  bool non_blocking_wait_rq)
{
	struct bfq_service_tree *st = bfq_entity_service_tree(bfqd, entity);
	bool backshifted = false;
	u64 min_vstart;

	if (non_blocking_wait_rq && bfq_gt(st->vtime, entity->finish)) {
		backshifted = true;
		min_vstart = entity->finish;
	} else {
		min_vstart = st->vtime;
	}
	if (entity->tree == &st->idle) {
		bfq_idle_extract(st, entity);
		entity->start = bfq_gt(min_vstart, entity->finish) ? min_vstart : entity->finish;
	} else {
		entity->start = min_vstart;
		st->wsum += (unsigned long)entity->weight;
		if (bfq_entity_to_bfqq(entity))
			bfq_entity_to_bfqq(entity)->ref++;	/* bfq_get_entity() */
		entity->on_st_or_in_serv = true;
	}
	bfq_update_fin_time_enqueue(bfqd, entity, st, backshifted);
}

static void __bfq_requeue_entity(struct bfq_data *bfqd, struct bfq_entity *entity)
{
	struct bfq_service_tree *st = bfq_entity_service_tree(bfqd, entity);

	if (bfq_entity_in_service(bfqd, entity)) {
		/* charge what it got, then it starts again from there */
		bfq_calc_finish(entity, (unsigned long)entity->service);
		entity->start = entity->finish;
		if (entity->tree)
			bfq_active_extract(st, entity);
	} else {
		/* its budget changed: same start, new finish */
		bfq_active_extract(st, entity);
	}
	bfq_update_fin_time_enqueue(bfqd, entity, st, false);
}

static void bfq_activate_requeue_entity(struct bfq_data *bfqd, struct bfq_entity *entity,
					bool non_blocking_wait_rq)
{
	struct bfq_service_tree *st = bfq_entity_service_tree(bfqd, entity);

	if (bfq_entity_in_service(bfqd, entity) || entity->tree == &st->active)
		__bfq_requeue_entity(bfqd, entity);
	else
		__bfq_activate_entity(bfqd, entity, non_blocking_wait_rq);
}

/*
 * A group's entity goes on its parent's trees when the first of its entities becomes active,
 * with that entity's budget (bfq_update_parent_budget()); an ancestor already active or in
 * service stays where it is, as bfq_update_next_in_service() finds no change for it.
 */
static void bfq_activate_ancestors(struct bfq_data *bfqd, struct bfq_entity *entity)
{
	for (struct bfq_entity *parent = entity->parent; parent;
	     entity = parent, parent = parent->parent) {
		struct bfq_service_tree *st = bfq_entity_service_tree(bfqd, parent);

		if (bfq_entity_in_service(bfqd, parent) || parent->tree == &st->active)
			break;
		parent->budget = entity->budget;
		__bfq_activate_entity(bfqd, parent, false);
	}
}

void bfq_activate_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	bfq_activate_requeue_entity(bfqd, &bfqq->entity, bfq_bfqq_non_blocking_wait_rq(bfqq));
	bfq_clear_bfqq_non_blocking_wait_rq(bfqq);
	bfq_activate_ancestors(bfqd, &bfqq->entity);
}

/* A requeue moves the queue and every ancestor: the in-service ones are charged what they got. */
void bfq_requeue_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool expiration)
{
	bfq_activate_requeue_entity(bfqd, &bfqq->entity, false);
	for (struct bfq_entity *e = bfqq->entity.parent; e; e = e->parent)
		bfq_activate_requeue_entity(bfqd, e, false);
}

static void __bfq_deactivate_entity(struct bfq_data *bfqd, struct bfq_entity *entity,
				    bool ins_into_idle_tree)
{
	struct bfq_service_tree *st = bfq_entity_service_tree(bfqd, entity);
	bool is_in_service = bfq_entity_in_service(bfqd, entity);

	if (!entity->on_st_or_in_serv)
		return;
	bfq_calc_finish(entity, (unsigned long)entity->service);
	if (!is_in_service)
		entity->service = 0;
	if (entity->tree == &st->active)
		bfq_active_extract(st, entity);
	else if (!is_in_service && entity->tree == &st->idle)
		bfq_idle_extract(st, entity);
	/* an entity that got less than its share keeps its weight in wsum until vtime passes it */
	if (!ins_into_idle_tree || !bfq_gt(entity->finish, st->vtime))
		bfq_forget_entity(st, entity, is_in_service);
	else
		bfq_idle_insert(bfqd, st, entity);
}

/* Whether @sd still has an entity to serve besides @gone (bfq_deactivate_entity()'s test). */
static bool bfq_sd_has_work(const struct bfq_sched_data *sd, const struct bfq_entity *gone)
{
	for (int i = 0; i < BFQ_IOPRIO_CLASSES; i++) {
		if (!RB_EMPTY_ROOT(&sd->service_tree[i].active.rb_root))
			return true;
	}
	return sd->in_service_entity && sd->in_service_entity != gone;
}

/*
 * bfq_deactivate_entity(): the queue leaves; a group left with nothing to serve leaves its
 * parent too (into the idle tree, to keep its timestamps); the ancestors that still have work
 * are requeued, the in-service ones charged for what they got.
 */
void bfq_deactivate_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool ins_into_idle_tree,
			 bool expiration)
{
	struct bfq_entity *entity = &bfqq->entity, *parent = entity->parent;

	/* read before: dropping the tree's reference may free the queue */
	__bfq_deactivate_entity(bfqd, entity, ins_into_idle_tree);
	for (; parent; entity = parent, parent = parent->parent) {
		if (bfq_sd_has_work(parent->my_sched_data, entity))
			break;
		__bfq_deactivate_entity(bfqd, parent, true);
	}
	for (; parent; parent = parent->parent) {
		if (!bfq_entity_in_service(bfqd, parent))
			break;
		bfq_activate_requeue_entity(bfqd, parent, false);
	}
}

/* Service goes to the queue and to every group above it, each in its own tree's vtime. */
void bfq_bfqq_served(struct bfq_queue *bfqq, int served)
{
	struct bfq_data *bfqd = bfqq->bfqd;

	if (bfqq->wr_coeff > 1)
		bfqq->service_from_wr += (unsigned long)served;
	for (struct bfq_entity *entity = &bfqq->entity; entity; entity = entity->parent) {
		struct bfq_service_tree *st = bfq_entity_service_tree(bfqd, entity);

		entity->service += served;
		if (st->wsum)
			st->vtime += bfq_delta((unsigned long)served, st->wsum);
		bfq_forget_idle(bfqd, st);
	}
}

void bfq_bfqq_charge_time(struct bfq_data *bfqd, struct bfq_queue *bfqq, unsigned long time_ms)
{
	struct bfq_entity *entity = &bfqq->entity;
	unsigned long timeout_ms = bfqd->tun.timeout_ms;
	/*
	 * A slow queue pays for the time it held the device, not for what it got done: the time,
	 * capped at the budget timeout, as the share of bfqd->bfq_max_budget that a queue served
	 * at the peak rate would have received in it (6.12 bfq-wf2q.c).  A queue that used its
	 * whole timeout pays a whole maximum budget.
	 */
	unsigned long bounded_time_ms = min(time_ms, timeout_ms);
	int serv_to_charge_for_time = (int)((unsigned long)bfqd->bfq_max_budget * bounded_time_ms /
					    timeout_ms);
	int tot_serv_to_charge = max(serv_to_charge_for_time, entity->service);

	if (tot_serv_to_charge > entity->budget)
		entity->budget = tot_serv_to_charge;
	bfq_bfqq_served(bfqq, max(0, tot_serv_to_charge - entity->service));
}

static u64 bfq_min_start(struct bfq_service_tree *st)
{
	struct rb_node *node = rb_first_cached(&st->active);
	u64 min_start = bfq_entity_of(node)->start;

	for (node = rb_next(node); node; node = rb_next(node)) {
		struct bfq_entity *entity = bfq_entity_of(node);

		if (bfq_gt(min_start, entity->start))
			min_start = entity->start;
	}
	return min_start;
}

static struct bfq_entity *__bfq_lookup_next_entity(struct bfq_data *bfqd,
						   struct bfq_service_tree *st, bool in_service)
{
	u64 new_vtime;

	if (RB_EMPTY_ROOT(&st->active.rb_root))
		return NULL;
	/* with nothing in service, jump vtime to the first start so someone is eligible */
	new_vtime = st->vtime;
	if (bfq_gt(bfq_min_start(st), new_vtime))
		new_vtime = bfq_min_start(st);
	if (!in_service && new_vtime != st->vtime) {
		st->vtime = new_vtime;
		bfq_forget_idle(bfqd, st);
	}
	for (struct rb_node *node = rb_first_cached(&st->active); node; node = rb_next(node)) {
		struct bfq_entity *entity = bfq_entity_of(node);

		if (!bfq_gt(entity->start, new_vtime))
			return entity;
	}
	return NULL;
}

static struct bfq_entity *bfq_lookup_next_entity(struct bfq_data *bfqd, struct bfq_sched_data *sd)
{
	struct bfq_service_tree *idle_class_st = &sd->service_tree[BFQ_IOPRIO_CLASSES - 1];
	struct bfq_entity *entity = NULL;
	unsigned int class_idx = 0;

	/* strict priority RT > BE > IDLE, but IDLE gets a turn every BFQ_CL_IDLE_TIMEOUT */
	if (bfq_time_before_now(bfqd, sd->bfq_class_idle_last_service + BFQ_CL_IDLE_TIMEOUT)) {
		if (!RB_EMPTY_ROOT(&idle_class_st->active.rb_root))
			class_idx = BFQ_IOPRIO_CLASSES - 1;
		sd->bfq_class_idle_last_service = bfq_jiffies(bfqd);
	}
	for (; class_idx < BFQ_IOPRIO_CLASSES; class_idx++) {
		entity = __bfq_lookup_next_entity(bfqd, &sd->service_tree[class_idx],
						  sd->in_service_entity != NULL);
		if (entity)
			break;
	}
	return entity;
}

/* Descend from the root: at each level the next entity; a group's leads into its trees. */
struct bfq_queue *bfq_get_next_queue(struct bfq_data *bfqd)
{
	struct bfq_sched_data *sd = &bfqd->sd;
	struct bfq_entity *entity;

	if (!bfq_tot_busy_queues(bfqd))
		return NULL;
	for (;;) {
		entity = bfq_lookup_next_entity(bfqd, sd);
		if (!entity) {
			/* an active group always has an active entity */
			WARN_ON_ONCE(sd != &bfqd->sd);
			return NULL;
		}
		sd->in_service_entity = entity;
		bfq_active_extract(bfq_entity_service_tree(bfqd, entity), entity);
		entity->service = 0;
		if (!entity->my_sched_data)
			break;
		sd = entity->my_sched_data;
	}
	if (bfq_class_idle(bfq_entity_to_bfqq(entity)))
		sd->bfq_class_idle_last_service = bfq_jiffies(bfqd);
	return bfq_entity_to_bfqq(entity);
}

bool __bfq_bfqd_reset_in_service(struct bfq_data *bfqd)
{
	struct bfq_queue *in_serv_bfqq = bfqd->in_service_queue;
	struct bfq_entity *in_serv_entity = &in_serv_bfqq->entity;

	bfq_clear_bfqq_wait_request(in_serv_bfqq);
	bfqd->idle_slice_timer_expires = 0;
	bfqd->in_service_queue = NULL;
	for (struct bfq_entity *e = in_serv_entity; e; e = e->parent) {
		if (bfq_entity_in_service(bfqd, e))
			bfq_entity_sd(bfqd, e)->in_service_entity = NULL;
	}
	/* out of service and on no tree: drop the service reference */
	if (!in_serv_entity->on_st_or_in_serv) {
		int ref = in_serv_bfqq->ref;

		bfq_put_queue(in_serv_bfqq);
		if (ref == 1)
			return true;
	}
	return false;
}

void bfq_add_bfqq_busy(struct bfq_queue *bfqq)
{
	struct bfq_data *bfqd = bfqq->bfqd;

	bfq_activate_bfqq(bfqd, bfqq);
	bfq_mark_bfqq_busy(bfqq);
	bfqd->busy_queues[bfqq->ioprio_class - 1]++;
	if (bfqq->wr_coeff > 1)
		bfqd->wr_busy_queues++;
}

void bfq_del_bfqq_busy(struct bfq_queue *bfqq, bool expiration)
{
	struct bfq_data *bfqd = bfqq->bfqd;

	bfq_clear_bfqq_busy(bfqq);
	bfqd->busy_queues[bfqq->ioprio_class - 1]--;
	if (bfqq->wr_coeff > 1)
		bfqd->wr_busy_queues--;
	bfq_deactivate_bfqq(bfqd, bfqq, true, expiration);
}
