// SPDX-License-Identifier: MIT
/* The "none" scheduler: requests reach the device in the order they were inserted. */
#include "sim_sched.h"

void sched_none_init(struct sched_none *none)
{
	blk_list_init(&none->fifo);
}

void sched_none_insert(struct sched_none *none, struct request *rq)
{
	blk_list_add_tail(&rq->queuelist, &none->fifo);
}

struct request *sched_none_dispatch(struct sched_none *none)
{
	struct request *rq;

	if (blk_list_empty(&none->fifo))
		return NULL;
	rq = blk_list_entry(none->fifo.next, struct request, queuelist);
	blk_list_del_init(&rq->queuelist);
	return rq;
}
