// SPDX-License-Identifier: MIT
/*
 * BFQ's view of a multi-actuator drive (Linux 6.3, "block, bfq: retrieve independent access
 * ranges from request queue" and "inject I/O to underutilized actuators").
 *
 * Invariants:
 * - num_actuators is 1..BFQ_MAX_ACTUATORS, and sector[]/nr_sectors[] for the first
 *   num_actuators entries tile [0, capacity) (copied from the disk's validated ranges, or one
 *   range for the whole disk);
 * - every active_list[] is an initialised list, for all BFQ_MAX_ACTUATORS actuators.  Mainline
 *   6.3 initialises only active_list[0] and [1], so a drive with 3..8 ranges would put queues on
 *   zeroed, never initialised lists; kfsim initialises them all (docs/bfq.md, "Deviations").
 */
#include <kfsim/bug.h>
#include <kfsim/printk.h>
#include "bfq_internal.h"

void bfq_init_actuators(struct bfq_data *bfqd)
{
	struct blk_independent_access_ranges *iars = bfqd->disk->ia_ranges;

	bfqd->num_actuators = 1;
	if (bfqd->actuator_injection && iars) {
		if (iars->nr_ia_ranges > BFQ_MAX_ACTUATORS) {
			pr_crit("nr_ia_ranges higher than act limit: iars=%u, max=%d.\n",
				iars->nr_ia_ranges, BFQ_MAX_ACTUATORS);
			pr_crit("Falling back to single actuator mode.\n");
		} else {
			bfqd->num_actuators = iars->nr_ia_ranges;
			for (unsigned int i = 0; i < bfqd->num_actuators; i++) {
				bfqd->sector[i] = iars->ia_range[i].sector;
				bfqd->nr_sectors[i] = iars->ia_range[i].nr_sectors;
			}
		}
	}
	if (bfqd->num_actuators == 1) {
		bfqd->sector[0] = 0;
		bfqd->nr_sectors[0] = get_capacity(bfqd->disk);
	}
	for (unsigned int i = 0; i < BFQ_MAX_ACTUATORS; i++)
		blk_list_init(&bfqd->active_list[i]);
}

unsigned int bfq_actuator_index(struct bfq_data *bfqd, struct bio *bio)
{
	sector_t end;

	if (bfqd->num_actuators == 1)
		return 0;
	/* the last sector decides: a bio straddling a boundary belongs to the later range */
	end = bio_end_sector(bio) - 1;
	for (unsigned int i = 0; i < bfqd->num_actuators; i++) {
		if (end >= bfqd->sector[i] && end < bfqd->sector[i] + bfqd->nr_sectors[i])
			return i;
	}
	WARN_ONCE(true, "bfq_actuator_index: bio sector out of ranges: end=%llu\n",
		  (unsigned long long)end);
	return 0;
}

struct bfq_queue *bic_to_bfqq(struct bfq_io_cq *bic, bool is_sync, unsigned int actuator_idx)
{
	return bic->bfqq[is_sync][actuator_idx];
}

void bic_set_bfqq(struct bfq_io_cq *bic, struct bfq_queue *bfqq, bool is_sync,
		  unsigned int actuator_idx)
{
	struct bfq_queue *old_bfqq = bic->bfqq[is_sync][actuator_idx];

	if (old_bfqq && old_bfqq->bic == bic)
		old_bfqq->bic = NULL;
	bic->bfqq[is_sync][actuator_idx] = bfqq;
}

struct bfq_queue *bfq_find_active_bfqq_for_actuator(struct bfq_data *bfqd, unsigned int idx)
{
	struct bfq_queue *in_serv = bfqd->in_service_queue;

	if (in_serv && in_serv->actuator_idx == idx)
		return in_serv;
	for (struct blk_list *pos = bfqd->active_list[idx].next; pos != &bfqd->active_list[idx];
	     pos = pos->next) {
		struct bfq_queue *bfqq = blk_list_entry(pos, struct bfq_queue, bfqq_list);

		if (!RB_EMPTY_ROOT(&bfqq->sort_list.rb_root) &&
		    bfq_serv_to_charge(bfqq->next_rq, bfqq) <= bfq_bfqq_budget_left(bfqq))
			return bfqq;
	}
	return NULL;
}

struct bfq_queue *bfq_find_bfqq_for_underused_actuator(struct bfq_data *bfqd)
{
	for (unsigned int i = 0; i < bfqd->num_actuators; i++) {
		struct bfq_queue *bfqq;

		if (bfqd->rq_in_driver[i] >= (int)bfqd->actuator_load_threshold)
			continue;
		/* patch 8: also strictly less loaded than the next one, to balance injection */
		if (bfqd->tun.next_actuator_balance && i != bfqd->num_actuators - 1 &&
		    bfqd->rq_in_driver[i] >= bfqd->rq_in_driver[i + 1])
			continue;
		bfqq = bfq_find_active_bfqq_for_actuator(bfqd, i);
		if (bfqq)
			return bfqq;
	}
	return NULL;
}
