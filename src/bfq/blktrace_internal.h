/* SPDX-License-Identifier: MIT */
/*
 * What the trace reader (blktrace_replay.c) shares with the reading of a trace's dependencies
 * (blktrace_deps.c) and the replay (blk_sim.c): one event's fields, the parse of a completion
 * line, the records' order in time and their processes.
 */
#ifndef KFSIM_BFQ_BLKTRACE_INTERNAL_H
#define KFSIM_BFQ_BLKTRACE_INTERNAL_H

#include <stdbool.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/types.h>

struct blktrace_q {
	u64 time_ns;
	int pid;
	u32 dev;
	u64 sector;
	u64 nr_sectors;
	bool write;
	bool sync;
};

/*
 * A completion ("C" action, with data) in either layout the reader takes: true with its
 * fields in @q; false for any other line, or one that does not parse (nothing to complete).
 */
bool blktrace_parse_completion(const char *line, const char *end, struct blktrace_q *q);

/*
 * The indexes of @recs in time order, equal times in the trace's order (the index: qsort()
 * moves elements and is not stable).  kvfree() it; NULL when out of memory.
 */
size_t *blktrace_time_order(const struct kfsim_blktrace_rec *recs, size_t nr);

/* The distinct pids of @recs, sorted (*@pids_out kvfree()d by the caller): -ENOMEM or 0. */
int blktrace_distinct_pids(const struct kfsim_blktrace_rec *recs, size_t nr, int **pids_out,
			   unsigned int *nr_pids);
/* Two pids' order, for qsort() and bsearch() over such an array. */
int blktrace_pid_cmp(const void *a, const void *b);

#endif
