/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BFQ_SBITMAP_WAIT_H
#define KFSIM_BFQ_SBITMAP_WAIT_H

/*
 * Who gets a freed scheduler tag when processes wait for one: the wake-up side of blk-mq's
 * sbitmap_queue (lib/sbitmap.c and blk_mq_get_tag() in block/blk-mq-tag.c, Linux 6.12), with
 * processes as job indices.  The bitmap itself is the simulator's free list; this keeps the
 * SBQ_WAIT_QUEUES wait queues, the rotation of wait_index (where a sleeper goes) and
 * wake_index (where a wake-up starts), and the batching of wake-ups by completions.
 */
#include <kfsim/types.h>

/* include/linux/sbitmap.h */
#define SBQ_WAIT_QUEUES 8
#define SBQ_WAKE_BATCH 8

/**
 * struct sbq_waiters - the wait side of one sbitmap_queue
 * @wake_batch: completions per wake-up, and waiters woken by each (sbq_calc_wake_batch())
 * @wake_index: the wait queue the next wake-up looks at first
 * @wait_index: the wait queue the next sleeper joins (hctx->wait_index, bt_wait_ptr())
 * @ws_active: sleepers in all queues; completions are counted only while there are some
 * @completion_cnt: completions counted
 * @wakeup_cnt: completions already turned into wake-ups
 * @cap: most sleepers (every process at most once)
 * @ws: the wait queues: FIFO rings of process indices (exclusive waits, woken from the head)
 */
struct sbq_waiters {
	unsigned int wake_batch;
	unsigned int wake_index;
	unsigned int wait_index;
	unsigned int ws_active;
	unsigned int completion_cnt;
	unsigned int wakeup_cnt;
	unsigned int cap;
	struct {
		unsigned int *ring;
		unsigned int head, nr;
	} ws[SBQ_WAIT_QUEUES];
};

/*
 * sbq_waiters_init() - @depth tags, @min_shallow_depth as the elevator set it (BFQ and
 * mq-deadline: 1; none: UINT_MAX), room for @max_waiters sleepers.  0 or -ENOMEM.
 */
int sbq_waiters_init(struct sbq_waiters *w, unsigned int depth, unsigned int min_shallow_depth,
		     unsigned int max_waiters);
void sbq_waiters_destroy(struct sbq_waiters *w);

/* sbq_prepare_to_wait() - process @who found no free tag and sleeps (bt_wait_ptr()). */
void sbq_prepare_to_wait(struct sbq_waiters *w, unsigned int who);

/*
 * sbq_tags_freed() - @nr tags were freed (sbitmap_queue_clear(): sbitmap_queue_wake_up())
 * @woken: the processes woken, in order (room for wake_batch)
 *
 * Return: how many were woken; each left its wait queue and retries the allocation.
 */
unsigned int sbq_tags_freed(struct sbq_waiters *w, unsigned int nr, unsigned int *woken);

#endif /* KFSIM_BFQ_SBITMAP_WAIT_H */
