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

static int none_init_sched(struct elevator_queue *eq, struct gendisk *disk,
			   const struct bfq_tunables *tun)
{
	struct sched_none *none = kzalloc(sizeof(*none), GFP_KERNEL);

	if (!none)
		return -ENOMEM;
	sched_none_init(none);
	eq->elevator_data = none;
	return 0;
}

static void none_exit_sched(struct elevator_queue *eq)
{
	kfree(eq->elevator_data);
	eq->elevator_data = NULL;
}

static int none_insert_requests(struct elevator_queue *eq, struct request *rq, void *icq, u64 now)
{
	sched_none_insert(eq->elevator_data, rq);
	return 0;
}

static struct request *none_dispatch_request(struct elevator_queue *eq, u64 now)
{
	return sched_none_dispatch(eq->elevator_data);
}

static bool none_has_work(struct elevator_queue *eq)
{
	struct sched_none *none = eq->elevator_data;

	return !blk_list_empty(&none->fifo);
}

const struct elevator_type none_iosched = {
	.ops = {
		.init_sched = none_init_sched,
		.exit_sched = none_exit_sched,
		.insert_requests = none_insert_requests,
		.dispatch_request = none_dispatch_request,
		.has_work = none_has_work,
	},
	.elevator_name = "none",
	.description = "no elevator: requests reach the device in arrival order",
};
