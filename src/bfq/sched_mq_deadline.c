// SPDX-License-Identifier: MIT
/*
 * mq-deadline (block/mq-deadline.c, one priority level, no zoned-write handling).
 *
 * Requests are served in batches of up to fifo_batch in ascending sector order per direction;
 * a new batch starts from the oldest request if its deadline has passed (reads 500 ms, writes
 * 5 s), else from where the last batch stopped.  Reads are preferred, but after writes_starved
 * read batches with writes waiting, a write batch goes.
 *
 * Invariants: every queued request is in exactly one sort_list and one fifo_list, of its
 * direction; next_rq[d] is NULL or a queued request of direction d.
 */
#include <kfsim/kernel.h>
#include "sim_sched.h"

static bool dd_sector_less(struct rb_node *a, const struct rb_node *b)
{
	return blk_rq_pos(rb_entry(a, struct request, rb_node)) <
	       blk_rq_pos(rb_entry(b, struct request, rb_node));
}

void dd_init(struct deadline_data *dd)
{
	for (int d = 0; d < 2; d++) {
		dd->sort_list[d] = RB_ROOT_CACHED;
		blk_list_init(&dd->fifo_list[d]);
		dd->next_rq[d] = NULL;
	}
	dd->batching = 0;
	dd->starved = 0;
	dd->last_dir = DD_READ;
	dd->fifo_expire_ns[DD_READ] = 500 * NSEC_PER_MSEC;
	dd->fifo_expire_ns[DD_WRITE] = 5000ULL * NSEC_PER_MSEC;
	dd->fifo_batch = 16;
	dd->writes_starved = 2;
}

void dd_insert(struct deadline_data *dd, struct request *rq, u64 now)
{
	int dir = rq_data_dir(rq);

	rb_add_cached(&rq->rb_node, &dd->sort_list[dir], dd_sector_less);
	rq->fifo_time = now + dd->fifo_expire_ns[dir];
	blk_list_add_tail(&rq->queuelist, &dd->fifo_list[dir]);
}

static void dd_remove(struct deadline_data *dd, struct request *rq)
{
	int dir = rq_data_dir(rq);
	struct rb_node *next = rb_next(&rq->rb_node);

	if (dd->next_rq[dir] == rq)
		dd->next_rq[dir] = next ? rb_entry(next, struct request, rb_node) : NULL;
	rb_erase_cached(&rq->rb_node, &dd->sort_list[dir]);
	RB_CLEAR_NODE(&rq->rb_node);
	blk_list_del_init(&rq->queuelist);
}

static bool dd_fifo_expired(struct deadline_data *dd, int dir, u64 now)
{
	struct request *rq;

	if (blk_list_empty(&dd->fifo_list[dir]))
		return false;
	rq = blk_list_entry(dd->fifo_list[dir].next, struct request, queuelist);
	return now >= rq->fifo_time;
}

static struct request *dd_fifo_head(struct deadline_data *dd, int dir)
{
	return blk_list_entry(dd->fifo_list[dir].next, struct request, queuelist);
}

struct request *dd_dispatch(struct deadline_data *dd, u64 now)
{
	bool reads = !blk_list_empty(&dd->fifo_list[DD_READ]);
	bool writes = !blk_list_empty(&dd->fifo_list[DD_WRITE]);
	struct request *rq = dd->next_rq[dd->last_dir];
	int dir;

	/* continue the current batch in sector order */
	if (rq && dd->batching < dd->fifo_batch)
		goto dispatch;
	if (reads) {
		if (writes && dd->starved++ >= dd->writes_starved)
			goto dispatch_writes;
		dir = DD_READ;
		goto dispatch_find;
	}
	if (writes) {
dispatch_writes:
		dd->starved = 0;
		dir = DD_WRITE;
		goto dispatch_find;
	}
	return NULL;
dispatch_find:
	/* a new batch: from the oldest request if it expired, else onward from the last one */
	if (dd_fifo_expired(dd, dir, now) || !dd->next_rq[dir])
		rq = dd_fifo_head(dd, dir);
	else
		rq = dd->next_rq[dir];
	dd->last_dir = dir;
	dd->batching = 0;
dispatch:
	{
		struct rb_node *next = rb_next(&rq->rb_node);

		dd->batching++;
		dir = rq_data_dir(rq);
		dd_remove(dd, rq);
		/* the request after it in sector order continues the batch */
		dd->next_rq[dir] = next ? rb_entry(next, struct request, rb_node) : NULL;
	}
	return rq;
}

static int dd_init_sched(struct elevator_queue *eq, struct gendisk *disk,
			 const struct bfq_tunables *tun)
{
	struct deadline_data *dd = kzalloc(sizeof(*dd), GFP_KERNEL);

	if (!dd)
		return -ENOMEM;
	dd_init(dd);
	eq->elevator_data = dd;
	return 0;
}

static void dd_exit_sched(struct elevator_queue *eq)
{
	kfree(eq->elevator_data);
	eq->elevator_data = NULL;
}

static int dd_insert_requests(struct elevator_queue *eq, struct request *rq, void *icq, u64 now)
{
	dd_insert(eq->elevator_data, rq, now);
	return 0;
}

static struct request *dd_dispatch_request(struct elevator_queue *eq, u64 now)
{
	return dd_dispatch(eq->elevator_data, now);
}

static bool dd_has_work(struct elevator_queue *eq)
{
	struct deadline_data *dd = eq->elevator_data;

	return !blk_list_empty(&dd->fifo_list[DD_READ]) ||
	       !blk_list_empty(&dd->fifo_list[DD_WRITE]);
}

const struct elevator_type mq_deadline_iosched = {
	.ops = {
		.init_sched = dd_init_sched,
		.exit_sched = dd_exit_sched,
		.insert_requests = dd_insert_requests,
		.dispatch_request = dd_dispatch_request,
		.has_work = dd_has_work,
	},
	.elevator_name = "mq-deadline",
	.description = "sector-sorted batches with read and write FIFO deadlines",
};
