// SPDX-License-Identifier: MIT
/*
 * The wake-up side of blk-mq's tag allocation (see sbitmap_wait.h).
 *
 * Facts followed (Linux 6.12):
 * - wake_batch = clamp(min(depth, min_shallow_depth) / SBQ_WAIT_QUEUES, 1, SBQ_WAKE_BATCH)
 *   (sbq_calc_wake_batch()); BFQ and mq-deadline set min_shallow_depth to 1, so each freed
 *   tag wakes one sleeper; without an elevator 64 tags give batches of 8;
 * - a freed tag counts only while someone sleeps (ws_active); every wake_batch counted
 *   completions wake wake_batch sleepers (sbitmap_queue_wake_up());
 * - the wake-up scans the 8 queues from wake_index, advancing the index before looking at each
 *   queue "so the queue doesn't need to be fully emptied before trying to wake up from the
 *   next one" (__sbitmap_queue_wake_up());
 * - a sleeper joins the queue at the hardware context's wait_index, which then advances
 *   (sbq_wait_ptr()); one woken that still finds no tag sleeps again on the next queue
 *   (blk_mq_get_tag()'s loop).  So sleepers are spread over the queues and woken in turn.
 */
#include <limits.h>

#include <kfsim/bug.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/slab.h>

#include "sbitmap_wait.h"

static unsigned int sbq_index_inc(unsigned int index)
{
	return (index + 1) & (SBQ_WAIT_QUEUES - 1);
}

int sbq_waiters_init(struct sbq_waiters *w, unsigned int depth, unsigned int min_shallow_depth,
		     unsigned int max_waiters)
{
	*w = (struct sbq_waiters){ 0 };
	w->wake_batch = clamp(min(depth, min_shallow_depth) / SBQ_WAIT_QUEUES, 1U,
			      (unsigned int)SBQ_WAKE_BATCH);
	w->cap = max(max_waiters, 1U);
	for (unsigned int i = 0; i < SBQ_WAIT_QUEUES; i++) {
		w->ws[i].ring = kvcalloc(w->cap, sizeof(*w->ws[i].ring), GFP_KERNEL);
		if (!w->ws[i].ring) {
			sbq_waiters_destroy(w);
			return -ENOMEM;
		}
	}
	return 0;
}

void sbq_waiters_destroy(struct sbq_waiters *w)
{
	for (unsigned int i = 0; i < SBQ_WAIT_QUEUES; i++) {
		kvfree(w->ws[i].ring);
		w->ws[i].ring = NULL;
	}
}

void sbq_prepare_to_wait(struct sbq_waiters *w, unsigned int who)
{
	unsigned int i = w->wait_index;

	w->wait_index = sbq_index_inc(w->wait_index);
	if (WARN_ON_ONCE(w->ws[i].nr >= w->cap))
		return;
	w->ws[i].ring[(w->ws[i].head + w->ws[i].nr++) % w->cap] = who;
	w->ws_active++;
}

/* __sbitmap_queue_wake_up(): wake up to @nr sleepers, queue by queue from wake_index. */
static unsigned int sbq_wake_up(struct sbq_waiters *w, unsigned int nr, unsigned int *woken)
{
	unsigned int wake_index = w->wake_index, n = 0;

	for (unsigned int i = 0; i < SBQ_WAIT_QUEUES && n < nr; i++) {
		unsigned int q = wake_index;

		wake_index = sbq_index_inc(wake_index);
		while (w->ws[q].nr && n < nr) {
			woken[n++] = w->ws[q].ring[w->ws[q].head];
			w->ws[q].head = (w->ws[q].head + 1) % w->cap;
			w->ws[q].nr--;
			w->ws_active--;
		}
	}
	w->wake_index = wake_index;
	return n;
}

unsigned int sbq_tags_freed(struct sbq_waiters *w, unsigned int nr, unsigned int *woken)
{
	if (!w->ws_active)
		return 0;
	w->completion_cnt += nr;
	if (w->completion_cnt - w->wakeup_cnt < w->wake_batch)
		return 0;
	w->wakeup_cnt += w->wake_batch;
	return sbq_wake_up(w, w->wake_batch, woken);
}
