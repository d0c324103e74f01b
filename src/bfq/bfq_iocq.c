// SPDX-License-Identifier: MIT
/*
 * The life of BFQ queues and io contexts: creation per (process, sync/async, actuator),
 * references, and release when a process exits or the scheduler goes away.
 *
 * Invariants:
 * - a queue's ref counts: one per bic slot pointing to it (process reference), one for the
 *   root group per shared async slot, one while on a service tree or in service, one per
 *   request allocated to it; at zero it is freed and unlinked from bfqd->all_queues;
 * - bfqd->oom_bfqq holds one reference of its own and is never freed;
 * - a bic slot is cleared before the reference it held is dropped (Yu Kuai's 2023 fix order),
 *   so no slot ever points to freed memory;
 * - a bic whose process exited is freed when its last request finishes.
 */
#include <kfsim/bug.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>
#include <string.h>
#include "bfq_internal.h"

static void bfq_set_ioprio_data(struct bfq_queue *bfqq, const struct bfq_io_cq *bic)
{
	unsigned int ioprio_class = bic ? IOPRIO_PRIO_CLASS(bic->ioprio) : IOPRIO_CLASS_NONE;
	unsigned int level = bic ? IOPRIO_PRIO_LEVEL(bic->ioprio) : BFQ_DEFAULT_QUEUE_IOPRIO;
	int weight;

	if (ioprio_class == IOPRIO_CLASS_NONE) {
		/* no priority set: best effort at the level of a nice-0 task */
		ioprio_class = IOPRIO_CLASS_BE;
		level = BFQ_DEFAULT_QUEUE_IOPRIO;
	} else if (ioprio_class == IOPRIO_CLASS_IDLE) {
		/* bfq_set_next_ioprio_data(): the idle class is the lowest level, weight 10 */
		level = IOPRIO_NR_LEVELS - 1;
	}
	bfqq->ioprio_class = (unsigned short)ioprio_class;
	bfqq->ioprio = (unsigned short)level;
	weight = bic && bic->weight ? (int)bic->weight : bfq_ioprio_to_weight((int)level);
	bfqq->entity.new_weight = weight;
	bfqq->entity.orig_weight = weight;
	bfqq->entity.weight = weight;
}

void bfq_init_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq, struct bfq_io_cq *bic, int pid,
		   bool is_sync, unsigned int act_idx)
{
	RB_CLEAR_NODE(&bfqq->entity.rb_node);
	/* bfq_bfqq_move() at creation: the queue lives in its process's group */
	if (bic && bic->bfqg) {
		bfqq->entity.parent = &bic->bfqg->entity;
		bfqq->entity.sched_data = &bic->bfqg->sched_data;
	} else {
		bfqq->entity.sched_data = &bfqd->sd;
	}
	bfqq->sort_list = RB_ROOT_CACHED;
	blk_list_init(&bfqq->fifo);
	blk_list_init(&bfqq->bfqq_list);
	blk_list_init(&bfqq->burst_list_node);
	bfqq->ref = 0;
	bfqq->bfqd = bfqd;
	bfqq->actuator_idx = act_idx;
	bfq_set_ioprio_data(bfqq, bic);
	if (is_sync) {
		if (!bfq_class_idle(bfqq))
			bfq_mark_bfqq_has_short_ttime(bfqq);
		bfq_mark_bfqq_sync(bfqq);
		bfq_mark_bfqq_just_created(bfqq);
	}
	bfq_mark_bfqq_IO_bound(bfqq);
	bfqq->ttime.last_end_request = bfqd->now_ns + 1;
	bfqq->pid = pid;
	bfqq->max_budget = (2 * bfq_max_budget(bfqd)) / 3;
	/* as if idle for long: a new queue may be weight-raised as interactive */
	bfqq->budget_timeout = bfq_jiffies(bfqd) - BFQ_LONG_AGO / 2;
	bfqq->last_wr_start_finish = bfq_jiffies(bfqd) - BFQ_LONG_AGO / 2;
	bfqq->wr_coeff = 1;
	bfqq->decrease_time_jif = bfq_jiffies(bfqd);
	bfqq->seek_history = 1;	/* the first request is almost certainly seeky */
	blk_list_add_tail(&bfqq->all_list, &bfqd->all_queues);
}

void bfq_put_queue(struct bfq_queue *bfqq)
{
	if (WARN_ON_ONCE(bfqq->ref <= 0))
		return;
	if (--bfqq->ref)
		return;
	WARN_ON_ONCE(bfq_bfqq_busy(bfqq) || bfqq->entity.tree || bfqq->dispatched ||
		     !RB_EMPTY_ROOT(&bfqq->sort_list.rb_root));
	blk_list_del_init(&bfqq->all_list);
	blk_list_del_init(&bfqq->burst_list_node);
	kfree(bfqq);
}

/* The async queue slot of a class and level: the group's, or the root group's (in bfqd). */
static struct bfq_queue **bfq_async_queue_prio(struct bfq_data *bfqd, struct bfq_group *bfqg,
					       unsigned int ioprio_class, unsigned int ioprio,
					       unsigned int act_idx)
{
	struct bfq_queue *(*async_bfqq)[IOPRIO_NR_LEVELS][BFQ_MAX_ACTUATORS] =
		bfqg ? bfqg->async_bfqq : bfqd->async_bfqq;

	switch (ioprio_class) {
	case IOPRIO_CLASS_RT:
		return &async_bfqq[0][ioprio][act_idx];
	case IOPRIO_CLASS_NONE:
		ioprio = BFQ_DEFAULT_QUEUE_IOPRIO;
		__attribute__((fallthrough));
	case IOPRIO_CLASS_BE:
		return &async_bfqq[1][ioprio][act_idx];
	default:
		return bfqg ? &bfqg->async_idle_bfqq[act_idx] : &bfqd->async_idle_bfqq[act_idx];
	}
}

struct bfq_queue *bfq_get_queue(struct bfq_data *bfqd, struct bio *bio, bool is_sync,
				struct bfq_io_cq *bic)
{
	unsigned int act_idx = bfq_actuator_index(bfqd, bio);
	struct bfq_queue **async_bfqq = NULL;
	struct bfq_queue *bfqq;

	if (!is_sync) {
		async_bfqq = bfq_async_queue_prio(bfqd, bic->bfqg, IOPRIO_PRIO_CLASS(bic->ioprio),
						  IOPRIO_PRIO_LEVEL(bic->ioprio), act_idx);
		bfqq = *async_bfqq;
		if (bfqq)
			goto out;
	}
	bfqq = kzalloc(sizeof(*bfqq), GFP_NOWAIT | __GFP_NOWARN);
	if (!bfqq) {
		bfqq = &bfqd->oom_bfqq;
		goto out;
	}
	bfq_init_bfqq(bfqd, bfqq, bic, bic->pid, is_sync, act_idx);
	if (async_bfqq) {
		bfqq->ref++;	/* the group's reference to its async queue */
		*async_bfqq = bfqq;
	}
out:
	bfqq->ref++;	/* the process reference */
	return bfqq;
}

/* The process will send no more I/O through this queue. */
static void bfq_exit_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	if (bfqq == bfqd->in_service_queue)
		__bfq_bfqq_expire(bfqd, bfqq, BFQQE_BUDGET_TIMEOUT);
	/*
	 * bfq_release_process_ref(): no process will send it requests any more, so keeping it
	 * busy while empty serves nobody, even with requests still in flight.
	 */
	if (bfq_bfqq_busy(bfqq) && RB_EMPTY_ROOT(&bfqq->sort_list.rb_root) &&
	    bfqq != bfqd->in_service_queue)
		bfq_del_bfqq_busy(bfqq, false);
	bfq_put_queue(bfqq);
}

void bfq_exit_icq_bfqq(struct bfq_io_cq *bic, bool is_sync, unsigned int actuator_idx)
{
	struct bfq_queue *bfqq = bic_to_bfqq(bic, is_sync, actuator_idx);
	struct bfq_data *bfqd = bic->bfqd;

	if (bfqq && bfqd) {
		bic_set_bfqq(bic, NULL, is_sync, actuator_idx);
		bfq_exit_bfqq(bfqd, bfqq);
	}
}

struct bfq_io_cq *bfq_create_icq(struct bfq_data *bfqd, int pid, unsigned short ioprio,
				 unsigned int weight)
{
	struct bfq_io_cq *bic;

	if (IOPRIO_PRIO_CLASS(ioprio) > IOPRIO_CLASS_IDLE || (ioprio >> (IOPRIO_CLASS_SHIFT + 3)) ||
	    (ioprio & ~(0x7U << IOPRIO_CLASS_SHIFT)) >= IOPRIO_NR_LEVELS ||
	    weight > BFQ_MAX_WEIGHT)
		return ERR_PTR(-EINVAL);
	bic = kzalloc(sizeof(*bic), GFP_KERNEL);
	if (!bic)
		return ERR_PTR(-ENOMEM);
	bic->bfqd = bfqd;
	bic->pid = pid;
	bic->ioprio = ioprio;
	bic->weight = weight;
	blk_list_add_tail(&bic->bic_list, &bfqd->bics);
	return bic;
}

static void bfq_free_icq(struct bfq_io_cq *bic)
{
	blk_list_del_init(&bic->bic_list);
	kfree(bic);
}

void bfq_exit_icq(struct bfq_io_cq *bic)
{
	unsigned int num_actuators;

	if (!bic || bic->exited)
		return;
	/* with the scheduler gone every slot is NULL: walking them all is safe */
	num_actuators = bic->bfqd ? bic->bfqd->num_actuators : BFQ_MAX_ACTUATORS;
	bic->exited = true;
	for (unsigned int act_idx = 0; act_idx < num_actuators; act_idx++) {
		bfq_exit_icq_bfqq(bic, true, act_idx);
		bfq_exit_icq_bfqq(bic, false, act_idx);
	}
	if (!bic->requests)
		bfq_free_icq(bic);
}

void bfq_icq_request_done(struct bfq_io_cq *bic)
{
	if (!--bic->requests && bic->exited)
		bfq_free_icq(bic);
}

/* Drop a group's references to its async queues (bfq_put_async_queues()). */
static void bfq_put_async_slots(struct bfq_queue *async_bfqq[2][IOPRIO_NR_LEVELS][BFQ_MAX_ACTUATORS],
				struct bfq_queue *async_idle_bfqq[BFQ_MAX_ACTUATORS])
{
	for (unsigned int k = 0; k < BFQ_MAX_ACTUATORS; k++) {
		for (int i = 0; i < 2; i++) {
			for (int j = 0; j < IOPRIO_NR_LEVELS; j++) {
				struct bfq_queue *bfqq = async_bfqq[i][j][k];

				async_bfqq[i][j][k] = NULL;
				if (bfqq)
					bfq_put_queue(bfqq);
			}
		}
		if (async_idle_bfqq[k]) {
			struct bfq_queue *bfqq = async_idle_bfqq[k];

			async_idle_bfqq[k] = NULL;
			bfq_put_queue(bfqq);
		}
	}
}

void bfq_put_async_queues(struct bfq_data *bfqd)
{
	bfq_put_async_slots(bfqd->async_bfqq, bfqd->async_idle_bfqq);
	for (struct blk_list *pos = bfqd->groups.next; pos != &bfqd->groups; pos = pos->next) {
		struct bfq_group *bfqg = blk_list_entry(pos, struct bfq_group, group_list);

		bfq_put_async_slots(bfqg->async_bfqq, bfqg->async_idle_bfqq);
	}
}

struct bfq_group *bfq_create_group(struct bfq_data *bfqd, const char *name, unsigned int weight)
{
	struct bfq_group *bfqg;

	if (!name || !*name || strlen(name) >= sizeof(bfqg->name) || weight < BFQ_MIN_WEIGHT ||
	    weight > BFQ_MAX_WEIGHT)
		return ERR_PTR(-EINVAL);
	for (struct blk_list *pos = bfqd->groups.next; pos != &bfqd->groups; pos = pos->next) {
		bfqg = blk_list_entry(pos, struct bfq_group, group_list);
		if (!strcmp(bfqg->name, name))
			return bfqg->entity.new_weight == (int)weight ? bfqg : ERR_PTR(-EINVAL);
	}
	bfqg = kzalloc(sizeof(*bfqg), GFP_KERNEL);
	if (!bfqg)
		return ERR_PTR(-ENOMEM);
	bfqg->bfqd = bfqd;
	strcpy(bfqg->name, name);
	RB_CLEAR_NODE(&bfqg->entity.rb_node);
	bfqg->entity.weight = bfqg->entity.orig_weight = bfqg->entity.new_weight = (int)weight;
	bfqg->entity.sched_data = &bfqd->sd;
	bfqg->entity.my_sched_data = &bfqg->sched_data;
	for (int i = 0; i < BFQ_IOPRIO_CLASSES; i++) {
		bfqg->sched_data.service_tree[i].active = RB_ROOT_CACHED;
		bfqg->sched_data.service_tree[i].idle = RB_ROOT_CACHED;
	}
	bfqg->sched_data.bfq_class_idle_last_service = bfq_jiffies(bfqd);
	blk_list_add_tail(&bfqg->group_list, &bfqd->groups);
	return bfqg;
}

int bfq_bic_set_group(struct bfq_io_cq *bic, struct bfq_group *bfqg)
{
	for (unsigned int a = 0; a < BFQ_MAX_ACTUATORS; a++) {
		if (bic->bfqq[0][a] || bic->bfqq[1][a])
			return -EBUSY;
	}
	bic->bfqg = bfqg;
	return 0;
}

void bfq_free_groups(struct bfq_data *bfqd)
{
	while (!blk_list_empty(&bfqd->groups)) {
		struct bfq_group *bfqg = blk_list_entry(bfqd->groups.next, struct bfq_group,
							group_list);

		blk_list_del_init(&bfqg->group_list);
		kfree(bfqg);
	}
}

void bfq_bfqq_save_state(struct bfq_queue *bfqq)
{
	struct bfq_io_cq *bic = bfqq->bic;
	struct bfq_iocq_bfqq_data *data;

	if (!bic)
		return;
	data = &bic->bfqq_data[bfqq->actuator_idx];
	data->saved_weight = (unsigned int)bfqq->entity.orig_weight;
	data->saved_ttime = bfqq->ttime;
	data->saved_has_short_ttime = bfq_bfqq_has_short_ttime(bfqq);
	data->saved_IO_bound = bfq_bfqq_IO_bound(bfqq);
	data->saved_wr_coeff = bfqq->wr_coeff;
	data->saved_last_wr_start_finish = bfqq->last_wr_start_finish;
	data->saved_wr_cur_max_time = bfqq->wr_cur_max_time;
	data->saved_service_from_wr = bfqq->service_from_wr;
	data->saved = true;
}

void bfq_bfqq_resume_state(struct bfq_queue *bfqq, struct bfq_io_cq *bic)
{
	struct bfq_iocq_bfqq_data *data = &bic->bfqq_data[bfqq->actuator_idx];
	bool busy = bfq_bfqq_busy(bfqq);

	if (!data->saved)
		return;
	if (data->saved_has_short_ttime)
		bfq_mark_bfqq_has_short_ttime(bfqq);
	else
		bfq_clear_bfqq_has_short_ttime(bfqq);
	if (data->saved_IO_bound)
		bfq_mark_bfqq_IO_bound(bfqq);
	else
		bfq_clear_bfqq_IO_bound(bfqq);
	bfqq->ttime = data->saved_ttime;
	if (busy && bfqq->wr_coeff > 1)
		bfqq->bfqd->wr_busy_queues--;
	bfqq->wr_coeff = data->saved_wr_coeff;
	if (busy && bfqq->wr_coeff > 1)
		bfqq->bfqd->wr_busy_queues++;
	bfqq->last_wr_start_finish = data->saved_last_wr_start_finish;
	bfqq->wr_cur_max_time = data->saved_wr_cur_max_time;
	bfqq->service_from_wr = data->saved_service_from_wr;
	bfqq->entity.new_weight = (int)data->saved_weight;
	bfqq->entity.prio_changed = 1;
	if (!bfqq->entity.on_st_or_in_serv)
		bfq_entity_update_weight(bfqq->bfqd, &bfqq->entity);
	data->saved = false;
}
