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
#include <kfsim/blkdev.h>
#include <kfsim/kernel.h>
#include <kfsim/types.h>

/* How a line's time is written: what it converts from, or why it cannot be replayed. */
enum blktrace_time_form {
	BLKTRACE_TIME_SECONDS,	/* "sec.frac": blkparse and blk_classic ns, ftrace us */
	BLKTRACE_TIME_REL_US,	/* latency-format: decimal us since the buffer began */
	BLKTRACE_TIME_HEX_US,	/* verbose latency-format: hex us */
	BLKTRACE_TIME_TICKS,	/* a trace_clock that does not count ns */
	BLKTRACE_TIME_NONE,	/* context-info off: no time, no pid */
};

/* Where one line's fields are (blktrace_line.c): located first, converted only when wanted. */
struct blktrace_fields {
	const char *time, *pid, *action, *dev;
	size_t time_len, pid_len, action_len, dev_len;
	enum blktrace_time_form time_form;
	bool damaged;	/* an event line (a device where one is printed) without an action */
};

/*
 * The next token of [*@p, @end): its start and length (0 at the end).  Anything up to ' '
 * separates tokens (spaces, tabs, a '\r' before the newline): one compare per byte.
 */
static inline const char *blktrace_token(const char **p, const char *end, size_t *len)
{
	const char *s = *p, *t;

	while (s < end && (unsigned char)*s <= ' ')
		s++;
	t = s;
	while (t < end && (unsigned char)*t > ' ')
		t++;
	*p = t;
	*len = (size_t)(t - s);
	return s;
}

/* Whether @c is among the @len bytes at @s: a short token (RWBS, a time), so no call. */
static inline bool blktrace_has(const char *s, size_t len, char c)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == c)
			return true;
	return false;
}

/*
 * The fields of the event line [@line, @end) in any layout blkparse or the tracefs blk tracer
 * prints, *@rest just after the action; false for a line that is no event (a header, a
 * summary, a blank line), or one that is but has no action where one is printed (@damaged).
 */
bool blktrace_locate(const char *line, const char *end, const char **rest,
		     struct blktrace_fields *f);
/* Whether the located action's verbose name ("queue") is that of @action ('Q'). */
bool blktrace_long_action_is(const struct blktrace_fields *f, char action);

/* Whether the located action is @action ('Q', 'C'), by its short or its verbose name. */
static inline bool blktrace_action_is(const struct blktrace_fields *f, char action)
{
	if (f->action_len == 1)		/* every line but those read with "verbose" */
		return f->action[0] == action;
	return blktrace_long_action_is(f, action);
}

struct blktrace_q {
	u64 time_ns;
	int pid;
	u32 dev;
	u64 sector;
	u64 nr_sectors;
	bool write;
	bool sync;
	u32 from_dev;	/* a remap ("A"): the device the bio came from */
};

/*
 * A queue event or a completion ("Q" or "C" action, with data) in any layout the reader takes:
 * the action, with its fields in @q; 0 for any other line, or one that does not parse.
 */
char blktrace_parse_data_event(const char *line, const char *end, struct blktrace_q *q);

/*
 * The records a queue event makes: bio_split_to_limits() splits a bio into requests of at most
 * BLK_DEF_MAX_SECTORS_CAP sectors (the reader's records and the dependencies' count of them).
 */
static inline u64 blktrace_q_nr_recs(const struct blktrace_q *q)
{
	return DIV_ROUND_UP(q->nr_sectors, BLK_DEF_MAX_SECTORS_CAP);
}

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
