/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BFQ_SIM_SCHED_H
#define KFSIM_BFQ_SIM_SCHED_H

/*
 * The baseline schedulers the simulation compares BFQ with: "none" (blk-mq without an
 * elevator: requests go to the device in arrival order) and an mq-deadline-style elevator
 * (block/mq-deadline.c without priorities or zones).
 */
#include <kfsim/blkdev.h>
#include <kfsim/elevator.h>
#include <kfsim/err.h>
#include <kfsim/slab.h>

/** struct sched_none - arrival order */
struct sched_none {
	struct blk_list fifo;
};

void sched_none_init(struct sched_none *none);
void sched_none_insert(struct sched_none *none, struct request *rq);
struct request *sched_none_dispatch(struct sched_none *none);

enum { DD_READ = 0, DD_WRITE = 1 };

/**
 * struct deadline_data - mq-deadline state
 * @sort_list: queued requests by sector, per direction
 * @fifo_list: queued requests by deadline, per direction
 * @next_rq: the next request in sector order after the last dispatched, per direction
 * @batching: requests dispatched in the current batch
 * @starved: read batches started while writes waited
 * @last_dir: direction of the current batch
 * @fifo_expire_ns: read 500 ms, write 5 s
 * @fifo_batch: 16
 * @writes_starved: 2
 */
struct deadline_data {
	struct rb_root_cached sort_list[2];
	struct blk_list fifo_list[2];
	struct request *next_rq[2];
	unsigned int batching;
	unsigned int starved;
	int last_dir;
	u64 fifo_expire_ns[2];
	unsigned int fifo_batch;
	unsigned int writes_starved;
};

void dd_init(struct deadline_data *dd);
void dd_insert(struct deadline_data *dd, struct request *rq, u64 now);
struct request *dd_dispatch(struct deadline_data *dd, u64 now);

#endif /* KFSIM_BFQ_SIM_SCHED_H */
