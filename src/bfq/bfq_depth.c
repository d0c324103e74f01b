// SPDX-License-Identifier: MIT
/*
 * How many scheduler tags a request may take: BFQ's limit_depth (block/bfq-iosched.c, Linux
 * 6.12, with CONFIG_BFQ_GROUP_IOSCHED as distributions build it).
 *
 * Facts followed:
 * - bfq_update_depths(): of nr_requests tags, async I/O may use half and sync writes three
 *   quarters; while some queue is weight-raised, 3/16 and 6/16 (each at least 1).  Sync reads
 *   may use them all, so a writer cannot take every tag from a reader;
 * - bfqq_request_over_limit(): from the top of the process's hierarchy down to its queue, the
 *   limit is shared by weight (DIV_ROUND_CLOSEST(limit * weight, wsum) of the entity's service
 *   tree; for the queue itself, wsum folds the classes up to its own as
 *   wsum * IOPRIO_BE_NR + st[i].wsum); an entity already holding its share of allocated
 *   requests makes the limit 1, for the queue of every actuator of the process;
 * - the limit is a shallow depth (blk_mq_get_tag() -> sbitmap_queue_get_shallow()), applied
 *   by the simulator to the tags' bit positions as lib/sbitmap.c does (see blk_sim.c).
 */
#include <kfsim/bug.h>
#include <kfsim/kernel.h>
#include "bfq_internal.h"

/* include/uapi/linux/ioprio.h: levels of the best-effort class */
#define IOPRIO_BE_NR IOPRIO_NR_LEVELS

void bfq_update_depths(struct bfq_data *bfqd, unsigned int nr_requests)
{
	bfqd->async_depths[0][0] = max(nr_requests >> 1, 1U);
	bfqd->async_depths[0][1] = max((nr_requests * 3) >> 2, 1U);
	bfqd->async_depths[1][0] = max((nr_requests * 3) >> 4, 1U);
	bfqd->async_depths[1][1] = max((nr_requests * 6) >> 4, 1U);
}

/* The class-weighted sum the queue's own level is compared with. */
static unsigned long bfq_queue_level_wsum(struct bfq_data *bfqd, struct bfq_queue *bfqq)
{
	struct bfq_sched_data *sd = bfqq->entity.sched_data ? bfqq->entity.sched_data : &bfqd->sd;
	unsigned long wsum = 0;

	for (int i = 0; i <= (int)bfqq->ioprio_class - 1 && i < BFQ_IOPRIO_CLASSES; i++)
		wsum = wsum * IOPRIO_BE_NR + sd->service_tree[i].wsum;
	return wsum;
}

static bool bfqq_request_over_limit(struct bfq_data *bfqd, struct bfq_queue *bfqq,
				    unsigned int limit)
{
	struct bfq_entity *levels[2];
	int depth = 0;

	/* the queue and its group's entity (groups are one level under the root here) */
	for (struct bfq_entity *entity = &bfqq->entity; entity; entity = entity->parent) {
		if (!entity->on_st_or_in_serv)
			return false;
		if (WARN_ON_ONCE(depth >= (int)ARRAY_SIZE(levels)))
			break;
		levels[depth++] = entity;
	}
	for (int level = depth - 1; level >= 0; level--) {
		struct bfq_entity *entity = levels[level];
		unsigned long wsum = level > 0 ? bfq_entity_service_tree(bfqd, entity)->wsum :
						 bfq_queue_level_wsum(bfqd, bfqq);

		if (!wsum)
			continue;
		/* DIV_ROUND_CLOSEST in 64 bits: a 32-bit build (the WebAssembly module) too */
		limit = (unsigned int)(((u64)limit * (u64)entity->weight + wsum / 2) / wsum);
		if (entity->allocated >= (int)limit)
			return true;
	}
	return false;
}

unsigned int bfq_limit_depth(struct bfq_data *bfqd, struct bfq_io_cq *bic, blk_opf_t opf,
			     unsigned int nr_requests)
{
	bool sync = op_is_sync(opf);
	unsigned int limit;

	if (sync && !op_is_write(opf))
		limit = nr_requests;
	else
		limit = bfqd->async_depths[!!bfqd->wr_busy_queues][sync];
	for (unsigned int act = 0; bic && act < bfqd->num_actuators; act++) {
		struct bfq_queue *bfqq = bic_to_bfqq(bic, sync, act);

		if (bfqq && bfqq_request_over_limit(bfqd, bfqq, limit))
			return 1;
	}
	return limit;
}
