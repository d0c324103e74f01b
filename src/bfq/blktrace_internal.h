/* SPDX-License-Identifier: MIT */
/*
 * What the trace reader (blktrace_replay.c) shares with the reading of a trace's dependencies
 * (blktrace_deps.c): one event's fields, and the parse of a completion line.
 */
#ifndef KFSIM_BFQ_BLKTRACE_INTERNAL_H
#define KFSIM_BFQ_BLKTRACE_INTERNAL_H

#include <stdbool.h>

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

#endif
