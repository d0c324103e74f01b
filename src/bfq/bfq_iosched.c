// SPDX-License-Identifier: MIT
/*
 * BFQ's policy (block/bfq-iosched.c, Linux 6.3): which queue is in service, for how long
 * (budgets in sectors, budget timeouts), when to idle waiting for the in-service queue's next
 * request, which request of a queue goes next, and the 6.3 injection for underused actuators.
 *
 * The life of a slot: bfq_select_queue() picks the eligible queue with the smallest virtual
 * finish time and gives it a budget; it is served until the budget is exhausted, the budget
 * times out, or it runs dry.  A sync queue that runs dry is often better idled on (the device
 * plugged) than expired, because its next request will come right after the completion and
 * will be sequential: that is what makes BFQ fast and fair on HDDs, and what leaves the other
 * actuator of a dual-actuator drive without work before 6.3.  Since 6.3, every dispatch first
 * asks bfq_find_bfqq_for_underused_actuator() for a queue with work for an actuator that has
 * fewer than actuator_load_threshold requests in flight, and sends its request instead.
 *
 * Invariants (besides those of bfq.h):
 * - the in-service queue is busy until it is expired, even while it has no requests;
 * - wait_request is set only on the in-service queue, and only while the idle timer is armed
 *   or just fired;
 * - bfqd->queued equals the sum of queued[] over all queues.
 */
#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>
#include "bfq_internal.h"

static void bfq_inject_sample_start(struct bfq_data *bfqd, struct bfq_queue *bfqq);

#define BFQ_RQ1_WRAP 0x01
#define BFQ_RQ2_WRAP 0x02

int bfq_max_budget(const struct bfq_data *bfqd)
{
	if (bfqd->budgets_assigned < BFQ_STATS_MIN_BUDGETS)
		return BFQ_DEFAULT_MAX_BUDGET;
	return bfqd->bfq_max_budget;
}

static int bfq_min_budget(const struct bfq_data *bfqd)
{
	if (bfqd->budgets_assigned < BFQ_STATS_MIN_BUDGETS)
		return BFQ_DEFAULT_MAX_BUDGET / 32;
	return bfqd->bfq_max_budget / 32;
}

static u64 bfq_now(const struct bfq_data *bfqd)
{
	return bfqd->now_ns;
}

/*
 * Weights differ among the queues with work (or in flight) and @bfqq is not one with the
 * smallest weight, or several classes have busy queues: then idling is needed to keep the
 * weights' promise (the kernel keeps a tree of weight counters; a scan is the same answer).
 */
bool bfq_asymmetric_scenario(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	unsigned int classes_busy = !!bfqd->busy_queues[0] + !!bfqd->busy_queues[1] +
				    !!bfqd->busy_queues[2];
	int min_weight = 0, other_weight = 0;

	const struct bfq_entity *group = NULL;
	bool several_groups = false, seen = false;

	if (classes_busy > 1)
		return true;
	for (struct blk_list *pos = bfqd->all_queues.next; pos != &bfqd->all_queues;
	     pos = pos->next) {
		struct bfq_queue *q = blk_list_entry(pos, struct bfq_queue, all_list);
		int w = q->entity.weight;

		if (!bfq_bfqq_busy(q) && !q->dispatched)
			continue;
		/* num_groups_with_pending_reqs > 1 (the root group counts as one) */
		if (seen && q->entity.parent != group)
			several_groups = true;
		group = q->entity.parent;
		seen = true;
		if (!min_weight || w < min_weight) {
			if (min_weight)
				other_weight = min_weight;
			min_weight = w;
		} else if (w != min_weight) {
			other_weight = w;
		}
	}
	if (several_groups)
		return true;
	if (!other_weight)
		return false;
	return !(bfqq && bfqq->entity.weight == min_weight);
}

int bfq_serv_to_charge(struct request *rq, struct bfq_queue *bfqq)
{
	if (bfq_bfqq_sync(bfqq) || bfqq->wr_coeff > 1 || bfq_asymmetric_scenario(bfqq->bfqd, bfqq))
		return (int)blk_rq_sectors(rq);
	return (int)blk_rq_sectors(rq) * BFQ_ASYNC_CHARGE_FACTOR;
}

/* Choose between two requests from the head at @last: sync first, then a one-way elevator
 * that allows short backward seeks at a penalty. */
static struct request *bfq_choose_req(struct bfq_data *bfqd, struct request *rq1,
				      struct request *rq2, sector_t last)
{
	sector_t s1, s2, d1 = 0, d2 = 0;
	unsigned long back_max;
	unsigned int wrap = 0;

	if (!rq1 || rq1 == rq2)
		return rq2;
	if (!rq2)
		return rq1;
	if (rq_is_sync(rq1) && !rq_is_sync(rq2))
		return rq1;
	if (rq_is_sync(rq2) && !rq_is_sync(rq1))
		return rq2;
	if ((rq1->cmd_flags & REQ_META) && !(rq2->cmd_flags & REQ_META))
		return rq1;
	if ((rq2->cmd_flags & REQ_META) && !(rq1->cmd_flags & REQ_META))
		return rq2;
	s1 = blk_rq_pos(rq1);
	s2 = blk_rq_pos(rq2);
	back_max = bfqd->tun.back_seek_max_kib * 2;
	if (s1 >= last)
		d1 = s1 - last;
	else if (s1 + back_max >= last)
		d1 = (last - s1) * bfqd->tun.back_seek_penalty;
	else
		wrap |= BFQ_RQ1_WRAP;
	if (s2 >= last)
		d2 = s2 - last;
	else if (s2 + back_max >= last)
		d2 = (last - s2) * bfqd->tun.back_seek_penalty;
	else
		wrap |= BFQ_RQ2_WRAP;
	switch (wrap) {
	case 0:
		if (d1 < d2)
			return rq1;
		if (d2 < d1)
			return rq2;
		return s1 >= s2 ? rq1 : rq2;
	case BFQ_RQ2_WRAP:
		return rq1;
	case BFQ_RQ1_WRAP:
		return rq2;
	default:
		/* both behind the head: start from the lowest, where a new sweep begins */
		return s1 <= s2 ? rq1 : rq2;
	}
}

static struct request *rq_of(struct rb_node *node)
{
	return rb_entry(node, struct request, rb_node);
}

/* The FIFO is looked at once per slot: an expired head request jumps the sector order. */
static struct request *bfq_check_fifo(struct bfq_data *bfqd, struct bfq_queue *bfqq,
				      struct request *last)
{
	struct request *rq;

	if (bfq_bfqq_fifo_expire(bfqq))
		return NULL;
	bfq_mark_bfqq_fifo_expire(bfqq);
	rq = blk_list_entry(bfqq->fifo.next, struct request, queuelist);
	if (rq == last || bfq_now(bfqd) < rq->fifo_time)
		return NULL;
	return rq;
}

static struct request *bfq_find_next_rq(struct bfq_data *bfqd, struct bfq_queue *bfqq,
					struct request *last)
{
	struct rb_node *rbnext = rb_next(&last->rb_node);
	struct rb_node *rbprev = rb_prev(&last->rb_node);
	struct request *next = NULL, *prev = NULL;

	next = bfq_check_fifo(bfqd, bfqq, last);
	if (next)
		return next;
	if (rbprev)
		prev = rq_of(rbprev);
	if (rbnext) {
		next = rq_of(rbnext);
	} else {
		rbnext = rb_first_cached(&bfqq->sort_list);
		if (rbnext && rbnext != &last->rb_node)
			next = rq_of(rbnext);
	}
	return bfq_choose_req(bfqd, next, prev, blk_rq_pos(last));
}

/*
 * The queue's next request changed: a waiting queue's budget, hence finish time, follows.  Never
 * below the service it already got (6.12): a queue served by injection while not in service
 * would otherwise get a budget it has overdrawn, and a finish time before the service it had.
 */
static void bfq_updated_next_req(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct bfq_entity *entity = &bfqq->entity;
	struct request *next_rq = bfqq->next_rq;
	int new_budget;

	if (!next_rq || bfqq == bfqd->in_service_queue)
		return;
	new_budget = max(bfqq->max_budget, bfq_serv_to_charge(next_rq, bfqq));
	new_budget = max(new_budget, entity->service);
	if (entity->budget != new_budget) {
		entity->budget = new_budget;
		bfq_requeue_bfqq(bfqd, bfqq, false);
	}
}

static bool bfq_sector_less(struct rb_node *a, const struct rb_node *b)
{
	return blk_rq_pos(rb_entry(a, struct request, rb_node)) <
	       blk_rq_pos(rb_entry(b, struct request, rb_node));
}

static void bfq_remove_request(struct bfq_data *bfqd, struct request *rq)
{
	struct bfq_queue *bfqq = RQ_BFQQ(rq);
	bool sync = rq_is_sync(rq);

	if (bfqq->next_rq == rq) {
		bfqq->next_rq = bfq_find_next_rq(bfqd, bfqq, rq);
		bfq_updated_next_req(bfqd, bfqq);
	}
	blk_list_del_init(&rq->queuelist);
	bfqq->queued[sync]--;
	bfqd->queued--;
	rb_erase_cached(&rq->rb_node, &bfqq->sort_list);
	RB_CLEAR_NODE(&rq->rb_node);
	if (RB_EMPTY_ROOT(&bfqq->sort_list.rb_root)) {
		bfqq->next_rq = NULL;
		if (bfq_bfqq_busy(bfqq) && bfqq != bfqd->in_service_queue)
			bfq_del_bfqq_busy(bfqq, false);
	}
}

static unsigned long bfq_wr_duration(struct bfq_data *bfqd)
{
	u64 dur = (u64)BFQ_REF_RATE_ROT * BFQ_REF_WR_DURATION_ROT / max(bfqd->peak_rate, 1U);

	return (unsigned long)clamp(dur, (u64)3 * BFQ_HZ, (u64)25 * BFQ_HZ);
}

static void bfq_bfqq_end_wr(struct bfq_queue *bfqq)
{
	if (bfq_bfqq_busy(bfqq))
		bfqq->bfqd->wr_busy_queues--;
	bfqq->wr_coeff = 1;
	bfqq->wr_cur_max_time = 0;
	bfqq->last_wr_start_finish = bfq_jiffies(bfqq->bfqd);
	bfqq->entity.prio_changed = 1;
}

static bool bfq_bfqq_idle_for_long_time(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	return bfqq->dispatched == 0 &&
	       bfq_time_before_now(bfqd, bfqq->budget_timeout + BFQ_WR_MIN_IDLE_TIME);
}

/*
 * A higher class wins; otherwise (a lower class too, as in 6.12) the larger weight does.  With
 * different groups the groups' weights are compared, as in 6.12.
 */
static bool bfq_bfqq_higher_class_or_weight(struct bfq_queue *bfqq, struct bfq_queue *in_serv)
{
	int bfqq_weight, in_serv_weight;

	if (bfqq->ioprio_class < in_serv->ioprio_class)
		return true;
	if (in_serv->entity.parent == bfqq->entity.parent) {
		bfqq_weight = bfqq->entity.weight;
		in_serv_weight = in_serv->entity.weight;
	} else {
		/* in different groups, the groups' weights decide */
		bfqq_weight = bfqq->entity.parent ? bfqq->entity.parent->weight :
						    bfqq->entity.weight;
		in_serv_weight = in_serv->entity.parent ? in_serv->entity.parent->weight :
							  in_serv->entity.weight;
	}
	return bfqq_weight > in_serv_weight;
}

/* References held by processes: all but those of requests, the scheduler and the group. */
static int bfqq_process_refs(const struct bfq_queue *bfqq)
{
	return bfqq->ref - bfqq->allocated - bfqq->entity.on_st_or_in_serv -
	       (!bfq_bfqq_sync(bfqq) && bfqq != &bfqq->bfqd->oom_bfqq);
}

static bool idling_boosts_thr_without_issues(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	bool rot_without_queueing = bfqd->hw_tag == 0;	/* rotational, no queueing seen */
	bool seq_io_bound = !BFQQ_SEEKY(bfqq) && bfq_bfqq_IO_bound(bfqq) &&
			    bfq_bfqq_has_short_ttime(bfqq);

	if (!bfqq_process_refs(bfqq))
		return false;	/* no more requests will come */
	return (rot_without_queueing || seq_io_bound) && bfqd->wr_busy_queues == 0;
}

static bool idling_needed_for_service_guarantees(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	unsigned int tot_busy_queues = bfq_tot_busy_queues(bfqd);

	if (!bfqq_process_refs(bfqq))
		return false;
	return (bfqq->wr_coeff > 1 && (bfqd->wr_busy_queues < (int)tot_busy_queues ||
				       bfqd->tot_rq_in_driver >= bfqq->dispatched + 4)) ||
	       bfq_asymmetric_scenario(bfqd, bfqq) || tot_busy_queues == 1;
}

static bool bfq_better_to_idle(struct bfq_queue *bfqq)
{
	struct bfq_data *bfqd = bfqq->bfqd;

	if (bfqd->tun.strict_guarantees)
		return true;
	if (!bfqd->tun.slice_idle_ns || !bfq_bfqq_sync(bfqq) || bfq_class_idle(bfqq))
		return false;
	return idling_boosts_thr_without_issues(bfqd, bfqq) ||
	       idling_needed_for_service_guarantees(bfqd, bfqq);
}

static bool bfq_bfqq_must_idle(struct bfq_queue *bfqq)
{
	return RB_EMPTY_ROOT(&bfqq->sort_list.rb_root) && bfq_better_to_idle(bfqq);
}

static bool bfq_bfqq_budget_timeout(struct bfq_queue *bfqq)
{
	return (long)(bfq_jiffies(bfqq->bfqd) - bfqq->budget_timeout) >= 0;
}

static bool bfq_may_expire_for_budg_timeout(struct bfq_queue *bfqq)
{
	return (!bfq_bfqq_wait_request(bfqq) ||
		bfq_bfqq_budget_left(bfqq) >= bfqq->entity.budget / 3) &&
	       bfq_bfqq_budget_timeout(bfqq);
}

/* Returns whether the queue may recover the service hole it left by not plugging. */
static bool bfq_bfqq_update_budg_for_activation(struct bfq_data *bfqd, struct bfq_queue *bfqq,
						bool arrived_in_time)
{
	struct bfq_entity *entity = &bfqq->entity;

	if (bfq_bfqq_non_blocking_wait_rq(bfqq) && arrived_in_time &&
	    bfq_bfqq_budget_left(bfqq) > 0) {
		entity->budget = min(bfq_bfqq_budget_left(bfqq), bfqq->max_budget);
		entity->service = 0;
		return true;
	}
	entity->service = 0;
	entity->budget = max(bfqq->max_budget, bfq_serv_to_charge(bfqq->next_rq, bfqq));
	bfq_clear_bfqq_non_blocking_wait_rq(bfqq);
	return false;
}

/* Empty the burst list and put just @bfqq in it, unless other queues are busy. */
static void bfq_reset_burst_list(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	while (!blk_list_empty(&bfqd->burst_list))
		blk_list_del_init(bfqd->burst_list.next);
	if (bfq_tot_busy_queues(bfqd) == 0) {
		blk_list_add(&bfqq->burst_list_node, &bfqd->burst_list);
		bfqd->burst_size = 1;
	} else {
		bfqd->burst_size = 0;
	}
}

/* One more queue in the burst: at the threshold, every queue of it is in a large burst. */
static void bfq_add_to_burst(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	bfqd->burst_size++;
	if (bfqd->burst_size == bfqd->bfq_large_burst_thresh) {
		bfqd->large_burst = true;
		for (struct blk_list *pos = bfqd->burst_list.next; pos != &bfqd->burst_list;
		     pos = pos->next)
			bfq_mark_bfqq_in_large_burst(blk_list_entry(pos, struct bfq_queue,
								    burst_list_node));
		bfq_mark_bfqq_in_large_burst(bfqq);
		/* from now on the list is not needed: queues joining are marked directly */
		while (!blk_list_empty(&bfqd->burst_list))
			blk_list_del_init(bfqd->burst_list.next);
		return;
	}
	blk_list_add(&bfqq->burst_list_node, &bfqd->burst_list);
}

/*
 * bfq_handle_burst() (6.12): queues created less than bfq_burst_interval (180 ms) apart form a
 * burst; once bfq_large_burst_thresh (8) of them have, they are taken for the many helper
 * processes of one job (a boot, a make -j, a parallel read) and kept out of weight raising,
 * which would only raise them all and help none.  kfsim has no queue splitting (no
 * split_time) and one group (no burst_parent_entity).
 */
static void bfq_handle_burst(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	if (!blk_list_empty(&bfqq->burst_list_node) || bfq_bfqq_in_large_burst(bfqq))
		return;
	if (bfq_time_before_now(bfqd, bfqd->last_ins_in_burst + bfqd->bfq_burst_interval)) {
		bfqd->large_burst = false;
		bfq_reset_burst_list(bfqd, bfqq);
	} else if (bfqd->large_burst) {
		bfq_mark_bfqq_in_large_burst(bfqq);
	} else {
		bfq_add_to_burst(bfqd, bfqq);
	}
	bfqd->last_ins_in_burst = bfq_jiffies(bfqd);
}

static void bfq_bfqq_handle_idle_busy_switch(struct bfq_data *bfqd, struct bfq_queue *bfqq,
					     unsigned int old_wr_coeff, bool *interactive)
{
	bool idle_for_long_time = bfq_bfqq_idle_for_long_time(bfqd, bfqq);
	bool arrived_in_time = bfq_now(bfqd) <=
			       bfqq->ttime.last_end_request + 3 * bfqd->tun.slice_idle_ns;
	bool in_burst = bfq_bfqq_in_large_burst(bfqq);
	bool wr_or_deserves_wr, wants_to_preempt;
	struct bfq_queue *in_serv;

	/*
	 * Interactive only outside a large burst and with the default weight (40): a weight
	 * set by the user (ioprio, io.bfq.weight) says the user controls this queue.  Soft
	 * real-time raising is not modelled (see docs/bfq.md).
	 */
	*interactive = !in_burst && idle_for_long_time && bfqq->entity.new_weight == 40;
	wr_or_deserves_wr = bfqd->tun.low_latency &&
			    (bfqq->wr_coeff > 1 || (bfq_bfqq_sync(bfqq) && bfqq->bic && *interactive));
	wants_to_preempt = bfq_bfqq_update_budg_for_activation(bfqd, bfqq, arrived_in_time);
	/* idle for much longer than an interactive queue: its burst is over */
	if (!bfq_bfqq_just_created(bfqq) && idle_for_long_time &&
	    bfq_time_before_now(bfqd, bfqq->budget_timeout + 10000 * BFQ_HZ / 1000)) {
		blk_list_del_init(&bfqq->burst_list_node);
		bfq_clear_bfqq_in_large_burst(bfqq);
	}
	bfq_clear_bfqq_just_created(bfqq);
	if (!bfq_bfqq_IO_bound(bfqq)) {
		if (arrived_in_time) {
			if (++bfqq->requests_within_timer >= BFQ_REQUESTS_WITHIN_TIMER)
				bfq_mark_bfqq_IO_bound(bfqq);
		} else {
			bfqq->requests_within_timer = 0;
		}
	}
	if (bfqd->tun.low_latency) {
		if (old_wr_coeff == 1 && wr_or_deserves_wr && *interactive) {
			bfqq->service_from_wr = 0;
			bfqq->wr_coeff = BFQ_WR_COEFF;
			bfqq->wr_cur_max_time = bfq_wr_duration(bfqd);
			bfqq->entity.budget = min(bfqq->entity.budget, 2 * bfq_min_budget(bfqd));
		} else if (old_wr_coeff > 1 && *interactive) {
			bfqq->wr_coeff = BFQ_WR_COEFF;
			bfqq->wr_cur_max_time = bfq_wr_duration(bfqd);
		} else if (old_wr_coeff > 1 && in_burst) {
			bfqq->wr_coeff = 1;
		}
		if (old_wr_coeff != bfqq->wr_coeff)
			bfqq->entity.prio_changed = 1;
	}
	bfq_add_bfqq_busy(bfqq);
	in_serv = bfqd->in_service_queue;
	/*
	 * Preempt the in-service queue if the newcomer has a hole to recover, a higher class or
	 * weight, or idling on the in-service queue no longer pays.
	 */
	if (in_serv && in_serv != bfqq &&
	    ((wants_to_preempt && bfqq->wr_coeff >= in_serv->wr_coeff) ||
	     bfq_bfqq_higher_class_or_weight(bfqq, in_serv) || !bfq_better_to_idle(in_serv)))
		bfq_bfqq_expire(bfqd, in_serv, false, BFQQE_PREEMPTED);
}

static void bfq_add_request(struct bfq_data *bfqd, struct request *rq)
{
	struct bfq_queue *bfqq = RQ_BFQQ(rq);
	struct request *prev = bfqq->next_rq;
	unsigned int old_wr_coeff = bfqq->wr_coeff;
	bool interactive = false;

	bfqq->queued[rq_is_sync(rq)]++;
	bfqd->queued++;
	if (bfq_bfqq_sync(bfqq))
		bfq_inject_sample_start(bfqd, bfqq);
	rb_add_cached(&rq->rb_node, &bfqq->sort_list, bfq_sector_less);
	bfqq->next_rq = bfq_choose_req(bfqd, bfqq->next_rq, rq, bfqd->last_position);
	if (!bfq_bfqq_busy(bfqq))
		bfq_bfqq_handle_idle_busy_switch(bfqd, bfqq, old_wr_coeff, &interactive);
	else if (prev != bfqq->next_rq)
		bfq_updated_next_req(bfqd, bfqq);
	/* for a queue not raised, last_wr_start_finish is the last arrival time */
	if (bfqd->tun.low_latency && (old_wr_coeff == 1 || bfqq->wr_coeff == 1 || interactive))
		bfqq->last_wr_start_finish = bfq_jiffies(bfqd);
}

static void bfq_update_io_thinktime(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct bfq_ttime *ttime = &bfqq->ttime;
	u64 elapsed;

	/* only the time from going empty to the next request is a think time */
	if (bfqq->dispatched || bfq_bfqq_busy(bfqq))
		return;
	elapsed = bfq_now(bfqd) - ttime->last_end_request;
	elapsed = min_t(u64, elapsed, 2 * bfqd->tun.slice_idle_ns);
	ttime->ttime_samples = (7 * ttime->ttime_samples + 256) / 8;
	ttime->ttime_total = (7 * ttime->ttime_total + 256 * elapsed) / 8;
	ttime->ttime_mean = (ttime->ttime_total + 128) / ttime->ttime_samples;
}

static void bfq_update_has_short_ttime(struct bfq_data *bfqd, struct bfq_queue *bfqq,
				       struct bfq_io_cq *bic)
{
	bool has_short_ttime = true;

	if (!bfq_bfqq_sync(bfqq) || bfq_class_idle(bfqq) || !bfqd->tun.slice_idle_ns)
		return;
	if (bic->exited || (bfqq->ttime.ttime_samples > 80 &&
			    bfqq->ttime.ttime_mean > bfqd->tun.slice_idle_ns >> 1))
		has_short_ttime = false;
	if (has_short_ttime)
		bfq_mark_bfqq_has_short_ttime(bfqq);
	else
		bfq_clear_bfqq_has_short_ttime(bfqq);
}

static void bfq_update_io_seektime(struct bfq_data *bfqd, struct bfq_queue *bfqq,
				   struct request *rq)
{
	sector_t last = bfqq->last_request_pos, pos = blk_rq_pos(rq);
	sector_t sdist = last ? (last > pos ? last - pos : pos - last) : 0;

	bfqq->seek_history <<= 1;
	bfqq->seek_history |= sdist > BFQQ_SEEK_THR;
}

static void bfq_rq_enqueued(struct bfq_data *bfqd, struct bfq_queue *bfqq, struct request *rq)
{
	bfqq->last_request_pos = blk_rq_pos(rq) + blk_rq_sectors(rq);
	if (bfqq == bfqd->in_service_queue && bfq_bfqq_wait_request(bfqq)) {
		bool small_req = bfqq->queued[rq_is_sync(rq)] == 1 && blk_rq_sectors(rq) < 32;
		bool budget_timeout = bfq_bfqq_budget_timeout(bfqq);

		/*
		 * A small request may be followed by others that merge with it: keep the
		 * timer; the dispatch that follows an insertion ends the wait anyway.
		 */
		if (small_req && idling_boosts_thr_without_issues(bfqd, bfqq) && !budget_timeout)
			return;
		bfq_clear_bfqq_wait_request(bfqq);
		bfqd->idle_slice_timer_expires = 0;
		if (budget_timeout)
			bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_BUDGET_TIMEOUT);
	}
}

int bfq_prepare_request(struct bfq_io_cq *bic, struct request *rq)
{
	struct bfq_data *bfqd = bic->bfqd;
	bool is_sync = rq_is_sync(rq);
	unsigned int act_idx;
	struct bfq_queue *bfqq;

	if (!bfqd || bic->exited)
		return -EINVAL;
	act_idx = bfq_actuator_index(bfqd, rq->bio);
	bfqq = bic_to_bfqq(bic, is_sync, act_idx);
	if (!bfqq || bfqq == &bfqd->oom_bfqq) {
		if (bfqq)
			bfq_put_queue(bfqq);
		bfqq = bfq_get_queue(bfqd, rq->bio, is_sync, bic);
		bic_set_bfqq(bic, bfqq, is_sync, act_idx);
	}
	bfqq->allocated++;
	for (struct bfq_entity *e = &bfqq->entity; e; e = e->parent)
		e->allocated++;	/* bfqq_request_allocated() */
	bfqq->ref++;
	bic->requests++;
	rq->elv_priv[0] = bic;
	rq->elv_priv[1] = bfqq;
	/* a queue belongs to a process only while it is that process's alone */
	if (bfqq != &bfqd->oom_bfqq && bfqq_process_refs(bfqq) == 1)
		bfqq->bic = bic;
	if (bfq_bfqq_just_created(bfqq) && (bfqd->burst_size > 0 || bfq_tot_busy_queues(bfqd) == 0))
		bfq_handle_burst(bfqd, bfqq);
	return 0;
}

void bfq_insert_request(struct bfq_data *bfqd, struct request *rq)
{
	struct bfq_queue *bfqq = RQ_BFQQ(rq);

	rq->start_time_ns = bfq_now(bfqd);
	bfq_update_io_thinktime(bfqd, bfqq);
	bfq_update_has_short_ttime(bfqd, bfqq, RQ_BIC(rq));
	bfq_update_io_seektime(bfqd, bfqq, rq);
	bfq_add_request(bfqd, rq);
	rq->fifo_time = bfq_now(bfqd) + (u64)(rq_is_sync(rq) ? bfqd->tun.fifo_expire_sync_ms
							     : bfqd->tun.fifo_expire_async_ms) *
						NSEC_PER_MSEC;
	blk_list_add_tail(&rq->queuelist, &bfqq->fifo);
	bfq_rq_enqueued(bfqd, bfqq, rq);
}

static void bfq_set_budget_timeout(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	unsigned int timeout_coeff = (unsigned int)(bfqq->entity.weight / bfqq->entity.orig_weight);

	bfqd->last_budget_start = bfq_now(bfqd);
	bfqq->budget_timeout = bfq_jiffies(bfqd) +
			       (unsigned long)bfqd->tun.timeout_ms * BFQ_HZ / 1000 * timeout_coeff;
}

static struct bfq_queue *bfq_set_in_service_queue(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = bfq_get_next_queue(bfqd);

	if (bfqq) {
		bfq_clear_bfqq_fifo_expire(bfqq);
		bfqd->budgets_assigned = (bfqd->budgets_assigned * 7 + 256) / 8;
		bfq_set_budget_timeout(bfqd, bfqq);
	}
	bfqd->in_service_queue = bfqq;
	return bfqq;
}

static void bfq_arm_slice_timer(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = bfqd->in_service_queue;
	u64 sl = bfqd->tun.slice_idle_ns;

	bfq_mark_bfqq_wait_request(bfqq);
	/* a seeky queue is worth little idling; a raised one is worth more */
	if (BFQQ_SEEKY(bfqq) && bfqq->wr_coeff == 1 && !bfq_asymmetric_scenario(bfqd, bfqq))
		sl = min_t(u64, sl, BFQ_MIN_TT);
	else if (bfqq->wr_coeff > 1)
		sl = max_t(u64, sl, 20 * NSEC_PER_MSEC);
	bfqd->last_idling_start = bfq_now(bfqd);
	bfqd->idle_slice_timer_expires = bfq_now(bfqd) + sl;
}

static bool bfq_bfqq_is_slow(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool compensate,
			     unsigned long *delta_ms)
{
	u64 end = compensate ? bfqd->last_idling_start : bfq_now(bfqd);
	u64 delta_us = (end - bfqd->last_budget_start) / NSEC_PER_USEC;

	if (!bfq_bfqq_sync(bfqq))
		return false;
	if (delta_us < 1000)
		*delta_ms = (unsigned long)(bfqd->tun.slice_idle_ns / NSEC_PER_MSEC);
	else
		*delta_ms = (unsigned long)(delta_us / 1000);
	if (delta_us > 20000)
		return bfqq->entity.service < bfq_max_budget(bfqd) / 2;
	return BFQQ_SEEKY(bfqq);
}

static void __bfq_bfqq_recalc_budget(struct bfq_data *bfqd, struct bfq_queue *bfqq,
				     enum bfqq_expiration reason)
{
	int min_budget = bfq_min_budget(bfqd);
	int budget = bfqq->wr_coeff == 1 ? bfqq->max_budget : 2 * min_budget;

	if (bfq_bfqq_sync(bfqq) && bfqq->wr_coeff == 1) {
		switch (reason) {
		case BFQQE_TOO_IDLE:
			/* still dispatching: it was the device, not the process, that was slow */
			if (bfqq->dispatched > 0)
				budget = min(budget * 2, bfq_max_budget(bfqd));
			else if (budget > 5 * min_budget)
				budget -= 4 * min_budget;
			else
				budget = min_budget;
			break;
		case BFQQE_BUDGET_TIMEOUT:
			budget = min(budget * 2, bfq_max_budget(bfqd));
			break;
		case BFQQE_BUDGET_EXHAUSTED:
			budget = min(budget * 4, bfq_max_budget(bfqd));
			break;
		case BFQQE_NO_MORE_REQUESTS:
			budget = max(bfqq->entity.service, min_budget);
			break;
		default:
			return;
		}
	} else if (!bfq_bfqq_sync(bfqq)) {
		budget = bfq_max_budget(bfqd);
	}
	bfqq->max_budget = budget;
	if (bfqd->budgets_assigned >= BFQ_STATS_MIN_BUDGETS && !bfqd->tun.max_budget)
		bfqq->max_budget = min(bfqq->max_budget, bfqd->bfq_max_budget);
	if (bfqq->next_rq)
		bfqq->entity.budget = max(bfqq->max_budget,
					  bfq_serv_to_charge(bfqq->next_rq, bfqq));
}

bool __bfq_bfqq_expire(struct bfq_data *bfqd, struct bfq_queue *bfqq,
		       enum bfqq_expiration reason)
{
	if (RB_EMPTY_ROOT(&bfqq->sort_list.rb_root) &&
	    !(reason == BFQQE_PREEMPTED && idling_needed_for_service_guarantees(bfqd, bfqq))) {
		if (bfqq->dispatched == 0)
			bfqq->budget_timeout = bfq_jiffies(bfqd);	/* idle from now */
		bfq_del_bfqq_busy(bfqq, true);
	} else {
		bfq_requeue_bfqq(bfqd, bfqq, true);
	}
	return __bfq_bfqd_reset_in_service(bfqd);
}

void bfq_bfqq_expire(struct bfq_data *bfqd, struct bfq_queue *bfqq, bool compensate,
		     enum bfqq_expiration reason)
{
	struct bfq_entity *entity = &bfqq->entity;
	unsigned long delta = 0;
	bool slow = bfq_bfqq_is_slow(bfqd, bfqq, compensate, &delta);

	bfqq->nr_expirations[reason]++;
	/* charge time to a slow queue, or to one that timed out with a third of its budget left */
	if (bfqq->wr_coeff == 1 &&
	    (slow || (reason == BFQQE_BUDGET_TIMEOUT &&
		      bfq_bfqq_budget_left(bfqq) >= entity->budget / 3)))
		bfq_bfqq_charge_time(bfqd, bfqq, delta);
	if (bfqd->tun.low_latency && bfqq->wr_coeff == 1)
		bfqq->last_wr_start_finish = bfq_jiffies(bfqd);
	if (reason == BFQQE_TOO_IDLE && entity->service <= 2 * entity->budget / 10)
		bfq_clear_bfqq_IO_bound(bfqq);
	/* the injection sample in progress belonged to this slot */
	bfqd->rqs_injected = bfqd->wait_dispatch = false;
	bfqd->waited_rq = NULL;
	__bfq_bfqq_recalc_budget(bfqd, bfqq, reason);
	if (__bfq_bfqq_expire(bfqd, bfqq, reason))
		return;	/* freed */
	/* an empty queue keeps its service to recover the hole it may leave; others restart */
	if (!bfq_bfqq_busy(bfqq) && reason != BFQQE_BUDGET_TIMEOUT &&
	    reason != BFQQE_BUDGET_EXHAUSTED)
		bfq_mark_bfqq_non_blocking_wait_rq(bfqq);
	else
		entity->service = 0;
}

static void bfq_update_wr_data(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct bfq_entity *entity = &bfqq->entity;

	if (bfqq->wr_coeff > 1) {
		if (bfq_bfqq_in_large_burst(bfqq) ||
		    bfq_time_before_now(bfqd, bfqq->last_wr_start_finish + bfqq->wr_cur_max_time) ||
		    bfqq->service_from_wr > BFQ_MAX_SERVICE_FROM_WR)
			bfq_bfqq_end_wr(bfqq);
	}
	if ((entity->weight > entity->orig_weight) != (bfqq->wr_coeff > 1))
		entity->prio_changed = 1;
	bfq_entity_update_weight(bfqd, entity);
}

static void bfq_reset_rate_computation(struct bfq_data *bfqd, struct request *rq)
{
	if (rq) {	/* a dispatch now: it is the first sample of the next interval */
		bfqd->last_dispatch = bfqd->first_dispatch = bfq_now(bfqd);
		bfqd->peak_rate_samples = 1;
		bfqd->sequential_samples = 0;
		bfqd->tot_sectors_dispatched = bfqd->last_rq_max_size = blk_rq_sectors(rq);
	} else {	/* full re-initialisation at the next dispatch */
		bfqd->peak_rate_samples = 0;
	}
}

/*
 * bfq_update_rate_reset() (6.12): close a sampling interval.  An interval shorter than
 * BFQ_RATE_MIN_INTERVAL (300 ms) or with fewer than 32 samples is dropped; so is one where
 * fewer than 3/4 of the dispatches were sequential and the rate does not beat the peak (a
 * random workload says nothing about what the device can do), or an implausible rate over 20
 * sectors/us.  Otherwise the peak moves towards the rate with a weight that grows with the
 * sequential share and the interval's length up to BFQ_RATE_REF_INTERVAL (1 s), and the
 * maximum budget follows it.
 */
static void bfq_update_rate_reset(struct bfq_data *bfqd, struct request *rq)
{
	u32 rate, weight, divisor;

	if (bfqd->peak_rate_samples < BFQ_RATE_MIN_SAMPLES ||
	    bfqd->delta_from_first < BFQ_RATE_MIN_INTERVAL_NS)
		goto reset_computation;
	bfqd->delta_from_first = max(bfqd->delta_from_first,
				     bfqd->last_completion - bfqd->first_dispatch);
	rate = (u32)min_t(u64, (bfqd->tot_sectors_dispatched << BFQ_RATE_SHIFT) /
				   max_t(u64, bfqd->delta_from_first / NSEC_PER_USEC, 1), UINT32_MAX);
	if ((bfqd->sequential_samples < (3 * bfqd->peak_rate_samples) >> 2 &&
	     rate <= bfqd->peak_rate) || rate > 20 << BFQ_RATE_SHIFT)
		goto reset_computation;
	weight = (9 * bfqd->sequential_samples) / bfqd->peak_rate_samples;
	weight = (u32)min_t(u64, 8, weight * bfqd->delta_from_first / BFQ_RATE_REF_INTERVAL_NS);
	divisor = 10 - weight;
	bfqd->peak_rate *= divisor - 1;
	bfqd->peak_rate /= divisor;
	rate /= divisor;
	bfqd->peak_rate += rate;
	bfqd->peak_rate = max(bfqd->peak_rate, 1U);
	/* update_thr_responsiveness_params(): bfq_calc_max_budget() */
	if (!bfqd->tun.max_budget)
		bfqd->bfq_max_budget = (int)(((u64)bfqd->peak_rate * 1000 * bfqd->tun.timeout_ms) >>
					     BFQ_RATE_SHIFT);
reset_computation:
	bfq_reset_rate_computation(bfqd, rq);
}

/* BFQ_RQ_SEEKY() on a rotational disk: farther than BFQQ_SEEK_THR from @last_pos. */
static bool bfq_rq_seeky(sector_t last_pos, const struct request *rq)
{
	sector_t pos = blk_rq_pos(rq);

	return (last_pos < pos ? pos - last_pos : last_pos - pos) > BFQQ_SEEK_THR;
}

/* bfq_update_peak_rate() (6.12): one dispatch is one sample of the current interval. */
static void bfq_update_peak_rate(struct bfq_data *bfqd, struct request *rq)
{
	u64 now = bfq_now(bfqd);

	if (bfqd->peak_rate_samples == 0) {
		bfq_reset_rate_computation(bfqd, rq);
		goto update_last_values;
	}
	/* a long pause with the device empty ends the interval */
	if (now - bfqd->last_dispatch > 100 * NSEC_PER_MSEC && bfqd->tot_rq_in_driver == 0)
		goto update_rate_and_reset;
	bfqd->peak_rate_samples++;
	if ((bfqd->tot_rq_in_driver > 0 || now - bfqd->last_completion < BFQ_MIN_TT) &&
	    !bfq_rq_seeky(bfqd->last_position, rq))
		bfqd->sequential_samples++;
	bfqd->tot_sectors_dispatched += blk_rq_sectors(rq);
	if (bfqd->peak_rate_samples % 32)
		bfqd->last_rq_max_size = max(blk_rq_sectors(rq), bfqd->last_rq_max_size);
	else
		bfqd->last_rq_max_size = blk_rq_sectors(rq);
	bfqd->delta_from_first = now - bfqd->first_dispatch;
	if (bfqd->delta_from_first < BFQ_RATE_REF_INTERVAL_NS)
		goto update_last_values;
update_rate_and_reset:
	bfq_update_rate_reset(bfqd, rq);
update_last_values:
	bfqd->last_dispatch = now;
}

static struct request *bfq_dispatch_rq_from_bfqq(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct request *rq = bfqq->next_rq;

	bfq_bfqq_served(bfqq, bfq_serv_to_charge(rq, bfqq));
	if (bfqq == bfqd->in_service_queue && bfqd->wait_dispatch) {
		bfqd->wait_dispatch = false;
		bfqd->waited_rq = rq;
	}
	bfqq->dispatched++;
	bfqq->nr_served_sectors += blk_rq_sectors(rq);
	bfq_update_peak_rate(bfqd, rq);
	bfq_remove_request(bfqd, rq);
	if (bfqq != bfqd->in_service_queue)
		return rq;
	bfq_update_wr_data(bfqd, bfqq);
	/* an IDLE-class queue gets one request per slot when others wait */
	if (bfq_tot_busy_queues(bfqd) > 1 && bfq_class_idle(bfqq))
		bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_BUDGET_EXHAUSTED);
	return rq;
}

/*
 * Service-hole injection (5.2+): while the in-service queue is plugged waiting for its next
 * request, other queues may send up to its inject_limit requests, a limit learned from how
 * injection stretches the in-service queue's own service times.  6.3 walks the active lists of
 * every actuator in index order.
 */
static struct bfq_queue *bfq_choose_bfqq_for_injection(struct bfq_data *bfqd)
{
	struct bfq_queue *in_serv = bfqd->in_service_queue;
	unsigned int limit = in_serv->inject_limit;
	/* a queue without raising, or with a long think time, can absorb any injection */
	bool in_serv_always_inject = in_serv->wr_coeff == 1 || !bfq_bfqq_has_short_ttime(in_serv);

	/* no baseline yet and plugged for a whole slice_idle: allow one request */
	if (limit == 0 && in_serv->last_serv_time_ns == 0 && bfq_bfqq_wait_request(in_serv) &&
	    bfq_now(bfqd) >= bfqd->last_idling_start + bfqd->tun.slice_idle_ns)
		limit = 1;
	if (bfqd->tot_rq_in_driver >= (int)limit)
		return NULL;
	for (unsigned int i = 0; i < bfqd->num_actuators; i++) {
		for (struct blk_list *pos = bfqd->active_list[i].next;
		     pos != &bfqd->active_list[i]; pos = pos->next) {
			struct bfq_queue *bfqq = blk_list_entry(pos, struct bfq_queue, bfqq_list);

			if (!RB_EMPTY_ROOT(&bfqq->sort_list.rb_root) &&
			    (in_serv_always_inject || bfqq->wr_coeff > 1) &&
			    bfq_serv_to_charge(bfqq->next_rq, bfqq) <= bfq_bfqq_budget_left(bfqq)) {
				bfqd->rqs_injected = true;
				bfqd->nr_hole_injected++;
				return bfqq;
			}
		}
	}
	return NULL;
}

static void bfq_reset_inject_limit(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	bfqq->last_serv_time_ns = 0;
	bfqd->waited_rq = NULL;
	/* a short think time leaves little hole to fill: start prudently */
	bfqq->inject_limit = bfq_bfqq_has_short_ttime(bfqq) ? 0 : 1;
	bfqq->decrease_time_jif = bfq_jiffies(bfqd);
}

/*
 * The waited request completed: compare its total service time with the baseline.  Injection
 * that stretched it by half lowers the limit, injection that did not raises it (up to what the
 * drive has been seen to hold), and a faster, injection-free time lowers the baseline.
 */
static void bfq_update_inject_limit(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	u64 tot_time_ns = bfq_now(bfqd) - bfqd->last_empty_occupied_ns;
	unsigned int old_limit = bfqq->inject_limit;

	if (bfqq->last_serv_time_ns > 0 && bfqd->rqs_injected) {
		u64 threshold = (bfqq->last_serv_time_ns * 3) >> 1;

		if (tot_time_ns >= threshold && old_limit > 0) {
			bfqq->inject_limit--;
			bfqq->decrease_time_jif = bfq_jiffies(bfqd);
		} else if (tot_time_ns < threshold && old_limit <= (unsigned int)bfqd->max_rq_in_driver) {
			bfqq->inject_limit++;
		}
	}
	/* tot_rq_in_driver is still counting the waited request here */
	if ((bfqq->last_serv_time_ns == 0 && bfqd->tot_rq_in_driver == 1) ||
	    tot_time_ns < bfqq->last_serv_time_ns) {
		if (bfqq->last_serv_time_ns == 0)
			bfqq->inject_limit = max(1U, old_limit);
		bfqq->last_serv_time_ns = tot_time_ns;
	} else if (!bfqd->rqs_injected && bfqd->tot_rq_in_driver == 1) {
		bfqq->last_serv_time_ns = tot_time_ns;
	}
	bfqd->waited_rq = NULL;
	bfqd->rqs_injected = false;
}

/* At a request's arrival: maybe start measuring the in-service queue's service time. */
static void bfq_inject_sample_start(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	if (bfq_time_before_now(bfqd, bfqq->decrease_time_jif + BFQ_HZ) ||
	    bfqq->decrease_time_jif + BFQ_HZ == bfq_jiffies(bfqd))
		bfq_reset_inject_limit(bfqd, bfqq);
	if (bfqq == bfqd->in_service_queue &&
	    (bfqd->tot_rq_in_driver == 0 ||
	     (bfqq->last_serv_time_ns > 0 && bfqd->rqs_injected && bfqd->tot_rq_in_driver > 0)) &&
	    (long)(bfq_jiffies(bfqd) - (bfqq->decrease_time_jif + BFQ_HZ / 100)) >= 0) {
		bfqd->last_empty_occupied_ns = bfq_now(bfqd);
		bfqd->wait_dispatch = true;
		if (bfqd->tot_rq_in_driver == 0)
			bfqd->rqs_injected = false;
	}
}

static struct bfq_queue *bfq_select_queue(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = bfqd->in_service_queue, *inject_bfqq;
	enum bfqq_expiration reason = BFQQE_BUDGET_TIMEOUT;
	struct request *next_rq;

	if (!bfqq)
		goto new_queue;
	if (bfq_may_expire_for_budg_timeout(bfqq) && !bfq_bfqq_must_idle(bfqq))
		goto expire;
check_queue:
	/* 6.3: feed any actuator with fewer than actuator_load_threshold requests in flight */
	if (bfqd->actuator_injection) {
		inject_bfqq = bfq_find_bfqq_for_underused_actuator(bfqd);
		if (inject_bfqq && inject_bfqq != bfqq) {
			bfqd->actuator_injected = true;
			return inject_bfqq;
		}
	}
	next_rq = bfqq->next_rq;
	if (next_rq) {
		if (bfq_serv_to_charge(next_rq, bfqq) > bfq_bfqq_budget_left(bfqq)) {
			reason = BFQQE_BUDGET_EXHAUSTED;
			goto expire;
		}
		if (bfq_bfqq_wait_request(bfqq)) {
			/* a request arrived while idling: stop idling and serve it */
			bfq_clear_bfqq_wait_request(bfqq);
			bfqd->idle_slice_timer_expires = 0;
		}
		return bfqq;
	}
	/* no request: keep the device plugged while idling is worth it */
	if (bfqd->idle_slice_timer_expires ||
	    (bfqq->dispatched != 0 && bfq_better_to_idle(bfqq))) {
		struct bfq_queue *async_bfqq = bfqq->bic ?
					       bfqq->bic->bfqq[0][bfqq->actuator_idx] : NULL;

		/* the same process's async I/O for the same actuator may fill the wait */
		if (async_bfqq && bfq_bfqq_busy(async_bfqq) && async_bfqq->next_rq &&
		    RQ_BIC(async_bfqq->next_rq) == bfqq->bic &&
		    bfq_serv_to_charge(async_bfqq->next_rq, async_bfqq) <=
			    bfq_bfqq_budget_left(async_bfqq))
			return async_bfqq;
		if (!idling_boosts_thr_without_issues(bfqd, bfqq) &&
		    (bfqq->wr_coeff == 1 || bfqd->wr_busy_queues > 1 ||
		     !bfq_bfqq_has_short_ttime(bfqq)))
			return bfq_choose_bfqq_for_injection(bfqd);
		return NULL;
	}
	reason = BFQQE_NO_MORE_REQUESTS;
expire:
	bfq_bfqq_expire(bfqd, bfqq, false, reason);
new_queue:
	bfqq = bfq_set_in_service_queue(bfqd);
	if (bfqq)
		goto check_queue;
	return NULL;
}

struct request *bfq_dispatch_request(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq;
	struct request *rq;
	bool injected;

	if (bfqd->tun.strict_guarantees && bfqd->tot_rq_in_driver > 0)
		return NULL;
	if (!bfq_tot_busy_queues(bfqd))
		return NULL;
	bfqd->actuator_injected = false;
	bfqq = bfq_select_queue(bfqd);
	if (!bfqq)
		return NULL;
	injected = bfqd->actuator_injected;
	rq = bfq_dispatch_rq_from_bfqq(bfqd, bfqq);
	bfqd->rq_in_driver[bfqq->actuator_idx]++;
	bfqd->tot_rq_in_driver++;
	bfqd->last_position = blk_rq_pos(rq) + blk_rq_sectors(rq);
	rq->injected = injected;
	rq->io_start_time_ns = bfq_now(bfqd);
	rq->rq_flags |= RQF_STARTED;
	if (injected) {
		bfqq->nr_injected++;
		bfqd->nr_injected[bfqq->actuator_idx]++;
	}
	return rq;
}

static void bfq_update_hw_tag(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = bfqd->in_service_queue;

	bfqd->max_rq_in_driver = max(bfqd->max_rq_in_driver, bfqd->tot_rq_in_driver);
	if (bfqd->hw_tag == 1)
		return;
	/* a sample counts only if enough requests were around to queue in the device */
	if (bfqd->tot_rq_in_driver + bfqd->queued <= BFQ_HW_QUEUE_THRESHOLD)
		return;
	if (bfqq && bfq_bfqq_has_short_ttime(bfqq) &&
	    bfqq->dispatched + bfqq->queued[0] + bfqq->queued[1] < BFQ_HW_QUEUE_THRESHOLD &&
	    bfqd->tot_rq_in_driver < BFQ_HW_QUEUE_THRESHOLD)
		return;
	if (bfqd->hw_tag_samples++ < BFQ_HW_QUEUE_SAMPLES)
		return;
	bfqd->hw_tag = bfqd->max_rq_in_driver > BFQ_HW_QUEUE_THRESHOLD;
	bfqd->max_rq_in_driver = 0;
	bfqd->hw_tag_samples = 0;
}

static void bfq_completed_request(struct bfq_queue *bfqq, struct bfq_data *bfqd)
{
	u64 delta_us;

	bfq_update_hw_tag(bfqd);
	bfqd->rq_in_driver[bfqq->actuator_idx]--;
	bfqd->tot_rq_in_driver--;
	bfqq->dispatched--;
	/* idle from its last completion on: the start of idle_for_long_time */
	if (!bfqq->dispatched && !bfq_bfqq_busy(bfqq))
		bfqq->budget_timeout = bfq_jiffies(bfqd);
	bfqq->ttime.last_end_request = bfq_now(bfqd);
	/* a completion long after the last, for the requests in flight: the rate sample is void */
	delta_us = (bfq_now(bfqd) - bfqd->last_completion) / NSEC_PER_USEC;
	if (delta_us > BFQ_MIN_TT / NSEC_PER_USEC &&
	    ((u64)bfqd->last_rq_max_size << BFQ_RATE_SHIFT) / delta_us <
		    1ULL << (BFQ_RATE_SHIFT - 10))
		bfq_update_rate_reset(bfqd, NULL);
	bfqd->last_completion = bfq_now(bfqd);
	if (bfqd->in_service_queue == bfqq) {
		if (bfq_bfqq_must_idle(bfqq)) {
			if (bfqq->dispatched == 0)
				bfq_arm_slice_timer(bfqd);
			return;
		} else if (bfq_may_expire_for_budg_timeout(bfqq)) {
			bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_BUDGET_TIMEOUT);
		} else if (RB_EMPTY_ROOT(&bfqq->sort_list.rb_root) &&
			   (bfqq->dispatched == 0 || !bfq_better_to_idle(bfqq))) {
			bfq_bfqq_expire(bfqd, bfqq, false, BFQQE_NO_MORE_REQUESTS);
		}
	}
}

void bfq_finish_request(struct bfq_data *bfqd, struct request *rq)
{
	struct bfq_queue *bfqq = RQ_BFQQ(rq);
	struct bfq_io_cq *bic = RQ_BIC(rq);

	if (WARN_ON_ONCE(!bfqq || !bic))
		return;
	if (rq->rq_flags & RQF_STARTED) {
		if (rq == bfqd->waited_rq)
			bfq_update_inject_limit(bfqd, bfqq);
		bfq_completed_request(bfqq, bfqd);
	}
	else
		bfq_remove_request(bfqd, rq);	/* finished without being dispatched */
	rq->elv_priv[0] = rq->elv_priv[1] = NULL;
	bfqq->allocated--;
	for (struct bfq_entity *e = &bfqq->entity; e; e = e->parent)
		e->allocated--;	/* bfqq_request_freed() */
	bfq_put_queue(bfqq);
	bfq_icq_request_done(bic);
}

bool bfq_has_work(const struct bfq_data *bfqd)
{
	return bfq_tot_busy_queues(bfqd) > 0;
}

void bfq_idle_slice_timer(struct bfq_data *bfqd)
{
	struct bfq_queue *bfqq = bfqd->in_service_queue;
	enum bfqq_expiration reason;

	bfqd->idle_slice_timer_expires = 0;
	if (!bfqq)
		return;
	bfq_clear_bfqq_wait_request(bfqq);
	if (bfq_bfqq_budget_timeout(bfqq))
		reason = BFQQE_BUDGET_TIMEOUT;
	else if (bfqq->queued[0] == 0 && bfqq->queued[1] == 0)
		reason = BFQQE_TOO_IDLE;
	else
		return;	/* requests arrived: the next dispatch serves them */
	bfq_bfqq_expire(bfqd, bfqq, true, reason);
}

void bfq_tunables_default(struct bfq_tunables *tun)
{
	*tun = (struct bfq_tunables){
		.kernel_version = 0,
		.slice_idle_ns = 8 * NSEC_PER_MSEC,
		.timeout_ms = 125,
		.fifo_expire_sync_ms = 125,
		.fifo_expire_async_ms = 250,
		.back_seek_max_kib = 16384,
		.back_seek_penalty = 2,
		.max_budget = 0,
		.strict_guarantees = false,
		.low_latency = true,
		.actuator_load_threshold = 4,
		.next_actuator_balance = true,
	};
}

static int bfq_tunables_check(const struct bfq_tunables *tun)
{
	if (tun->slice_idle_ns > 1000 * NSEC_PER_MSEC) {
		pr_err("bfq: slice_idle over 1 s\n");
		return -EINVAL;
	}
	if (!tun->timeout_ms || tun->timeout_ms > 10000 || !tun->fifo_expire_sync_ms ||
	    !tun->fifo_expire_async_ms) {
		pr_err("bfq: timeout_sync and fifo_expire_* must be 1..10000 ms\n");
		return -EINVAL;
	}
	if (!tun->back_seek_penalty || tun->max_budget < 0 || !tun->actuator_load_threshold) {
		pr_err("bfq: back_seek_penalty and actuator_load_threshold must be >= 1, "
		       "max_budget >= 0\n");
		return -EINVAL;
	}
	return 0;
}

struct bfq_data *bfq_init_queue(struct gendisk *disk, const struct bfq_tunables *tun)
{
	struct bfq_tunables defaults;
	struct bfq_data *bfqd;
	unsigned int kver;

	if (!tun) {
		bfq_tunables_default(&defaults);
		tun = &defaults;
	}
	if (bfq_tunables_check(tun))
		return ERR_PTR(-EINVAL);
	bfqd = kzalloc(sizeof(*bfqd), GFP_KERNEL);
	if (!bfqd)
		return ERR_PTR(-ENOMEM);
	bfqd->disk = disk;
	bfqd->tun = *tun;
	kver = tun->kernel_version ? tun->kernel_version : kfsim_kernel_version();
	bfqd->actuator_injection = kver >= (unsigned int)KERNEL_VERSION(6, 3, 0);
	for (int i = 0; i < BFQ_IOPRIO_CLASSES; i++) {
		bfqd->sd.service_tree[i].active = RB_ROOT_CACHED;
		bfqd->sd.service_tree[i].idle = RB_ROOT_CACHED;
	}
	bfqd->sd.bfq_class_idle_last_service = bfq_jiffies(bfqd);
	blk_list_init(&bfqd->idle_list);
	blk_list_init(&bfqd->all_queues);
	blk_list_init(&bfqd->bics);
	blk_list_init(&bfqd->groups);
	blk_list_init(&bfqd->burst_list);
	bfqd->bfq_large_burst_thresh = 8;
	bfqd->bfq_burst_interval = 180 * BFQ_HZ / 1000;
	bfqd->last_ins_in_burst = bfq_jiffies(bfqd) - BFQ_LONG_AGO / 2;
	bfq_init_actuators(bfqd);
	bfqd->actuator_load_threshold = tun->actuator_load_threshold;
	bfqd->hw_tag = -1;
	bfqd->bfq_max_budget = tun->max_budget ? tun->max_budget : BFQ_DEFAULT_MAX_BUDGET;
	bfqd->peak_rate = BFQ_REF_RATE_ROT * 2 / 3;
	bfq_init_bfqq(bfqd, &bfqd->oom_bfqq, NULL, 1, false, 0);
	bfqd->oom_bfqq.ref++;	/* never freed */
	blk_list_del_init(&bfqd->oom_bfqq.all_list);
	return bfqd;
}

void bfq_exit_queue(struct bfq_data *bfqd)
{
	bfqd->idle_slice_timer_expires = 0;
	while (!blk_list_empty(&bfqd->bics)) {
		struct bfq_io_cq *bic = blk_list_entry(bfqd->bics.next, struct bfq_io_cq, bic_list);

		for (unsigned int a = 0; a < bfqd->num_actuators; a++) {
			bfq_exit_icq_bfqq(bic, true, a);
			bfq_exit_icq_bfqq(bic, false, a);
		}
		bic->bfqd = NULL;
		blk_list_del_init(&bic->bic_list);
	}
	if (bfqd->in_service_queue)
		__bfq_bfqq_expire(bfqd, bfqd->in_service_queue, BFQQE_BUDGET_TIMEOUT);
	/*
	 * A queue that went idle before its finish time sits on an idle tree, holding the
	 * scheduler's reference until vtime passes it (bfq_forget_idle()).  Time stops here, so
	 * drop those references now, as the kernel's bfq_exit_queue() does, and after the
	 * expirations above, which may have put more queues there.  Without this, every queue
	 * left on an idle tree at exit kept ref 1 forever.
	 */
	for (struct blk_list *pos = bfqd->idle_list.next, *n = pos->next; pos != &bfqd->idle_list;
	     pos = n, n = pos->next)
		bfq_deactivate_bfqq(bfqd, blk_list_entry(pos, struct bfq_queue, bfqq_list), false,
				    false);
	bfq_put_async_queues(bfqd);
	for (unsigned int a = 0; a < BFQ_MAX_ACTUATORS; a++)
		WARN_ON_ONCE(bfqd->rq_in_driver[a]);
	WARN_ON_ONCE(bfqd->tot_rq_in_driver);
	/* queues kept alive by requests never finished: the caller should have drained them */
	WARN_ON_ONCE(!blk_list_empty(&bfqd->all_queues));
	while (!blk_list_empty(&bfqd->all_queues)) {
		struct bfq_queue *bfqq = blk_list_entry(bfqd->all_queues.next, struct bfq_queue,
							all_list);

		/* named one by one: WARN_ON_ONCE() above speaks only once per program */
		pr_err("bfq: queue of pid %d (%s, actuator %u) freed at exit with ref %d\n",
		       bfqq->pid, bfq_bfqq_sync(bfqq) ? "sync" : "async", bfqq->actuator_idx,
		       bfqq->ref);
		blk_list_del_init(&bfqq->all_list);
		kfree(bfqq);
	}
	bfq_free_groups(bfqd);
	kfree(bfqd);
}

#include <kfsim/moduleparam.h>
/*
 * The "bfq" module of the kernel command line: "bfq.<param>=" is checked against its
 * parameters (none yet), and an unknown one is reported as the module loader reports it.
 */
KFSIM_MODULE(bfq)
