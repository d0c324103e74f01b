// SPDX-License-Identifier: MIT
/*
 * An example scheduler written exactly as CONTRIBUTING.md ("An I/O scheduler") tells a
 * newcomer: copied to src/bfq/sched_lifo.c of a scratch tree by check_guide.sh, with the row
 * X(lifo) added to elevator.c, it must show in `kfsim bfq --help`, run with --sched lifo and
 * take part in `kfsim bfq compare` without --scheds.  Last in, first out: nothing like the
 * built-in ones, so a run shows it is used.
 */
#include <errno.h>

#include <kfsim/elevator.h>
#include <kfsim/slab.h>
#include <kfsim/blkdev.h>

static int lifo_init_sched(struct elevator_queue *eq, struct gendisk *disk,
			   const struct bfq_tunables *tun)
{
	struct blk_list *stack = kzalloc(sizeof(*stack), GFP_KERNEL);

	if (!stack)
		return -ENOMEM;
	blk_list_init(stack);
	eq->elevator_data = stack;
	return 0;
}

static void lifo_exit_sched(struct elevator_queue *eq)
{
	kfree(eq->elevator_data);
	eq->elevator_data = NULL;
}

static int lifo_insert_requests(struct elevator_queue *eq, struct request *rq, void *icq, u64 now)
{
	blk_list_add(&rq->queuelist, eq->elevator_data);
	return 0;
}

static struct request *lifo_dispatch_request(struct elevator_queue *eq, u64 now)
{
	struct blk_list *stack = eq->elevator_data;
	struct request *rq;

	if (blk_list_empty(stack))
		return NULL;
	rq = blk_list_entry(stack->next, struct request, queuelist);
	blk_list_del_init(&rq->queuelist);
	return rq;
}

static bool lifo_has_work(struct elevator_queue *eq)
{
	return !blk_list_empty(eq->elevator_data);
}

const struct elevator_type lifo_iosched = {
	.ops = {
		.init_sched = lifo_init_sched,
		.exit_sched = lifo_exit_sched,
		.insert_requests = lifo_insert_requests,
		.dispatch_request = lifo_dispatch_request,
		.has_work = lifo_has_work,
	},
	.elevator_name = "lifo",
	.description = "last in, first out (the guide's example scheduler)",
};
