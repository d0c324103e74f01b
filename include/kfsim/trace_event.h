/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TRACE_EVENT_H
#define KFSIM_TRACE_EVENT_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Chrome/Perfetto trace-event JSON ("JSON Array Format" with a traceEvents object), which
 * ui.perfetto.dev and chrome://tracing open as they are.  Simulators write one "process" per
 * device and one "thread" (track) per node, actuator or CPU, and complete ("X") events for
 * anything with a duration.  Times are microseconds, as the format wants; fractions are kept.
 */
#include <stdio.h>
#include <stdbool.h>

#include <kfsim/outfile.h>
#include <kfsim/types.h>

/**
 * struct kfsim_trace - an open trace file
 * @file: the stream the document goes to
 * @out: the output file behind @file when the trace owns it (kfsim_trace_open())
 * @owns_file: @file is @out's: committed at kfsim_trace_close(), dropped at kfsim_trace_abort()
 * @broken: formatting ran out of memory: close fails with -ENOMEM
 * @event: memory stream the current event is formatted into (the cap is exact)
 * @event_buf: its buffer
 * @event_size: its size
 * @bytes: bytes of the document so far
 * @max_bytes: the size cap, 0 for none (kfsim_trace_set_max())
 * @nr_events: events written so far
 * @nr_dropped: events dropped because of the cap
 * @first_ts_us: earliest time stamp written (-1: none), the start of the traced window
 * @last_ts_us: latest time stamp written (-1: none), the end of the traced window
 * @first_dropped_ts_us: first time stamp dropped by the cap (-1: none)
 */
struct kfsim_trace {
	FILE *file;
	struct kfsim_outfile out;
	bool owns_file;
	bool broken;
	FILE *event;
	char *event_buf;
	size_t event_size;
	u64 bytes;
	u64 max_bytes;
	unsigned long nr_events;
	unsigned long nr_dropped;
	double first_ts_us;
	double last_ts_us;
	double first_dropped_ts_us;
};

/*
 * The default cap commands apply (--trace-max): a trace beyond this no longer opens in
 * ui.perfetto.dev in a browser tab anyway.
 */
#define KFSIM_TRACE_MAX_DEFAULT (256ULL << 20)

/**
 * kfsim_trace_open() - start the document in a new file that replaces @path at close
 *
 * The file is written through kfsim_outfile: @path keeps its old content until
 * kfsim_trace_close() succeeds, and kfsim_trace_abort() leaves it untouched.
 *
 * Return: 0, or a negative errno from kfsim_outfile_open() (nothing is created then).
 */
int kfsim_trace_open(struct kfsim_trace *trace, const char *path);
/** kfsim_trace_open_stream() - start a trace document on an already open @file (not closed later). */
void kfsim_trace_open_stream(struct kfsim_trace *trace, FILE *file);

/**
 * kfsim_trace_set_max() - cap the document at @max_bytes (0: no cap)
 *
 * Events that would take the document past the cap are dropped whole (counted in @nr_dropped);
 * the document stays valid.  @first_ts_us..@last_ts_us then say which window was traced.
 */
void kfsim_trace_set_max(struct kfsim_trace *trace, u64 max_bytes);

/** kfsim_trace_name_process() - label process @pid ("M" process_name metadata). */
void kfsim_trace_name_process(struct kfsim_trace *trace, int pid, const char *name);
/** kfsim_trace_name_thread() - label track @tid of @pid ("M" thread_name metadata). */
void kfsim_trace_name_thread(struct kfsim_trace *trace, int pid, int tid, const char *name);

/**
 * kfsim_trace_complete() - a complete ("X") event
 * @trace: the trace
 * @pid: process (device)
 * @tid: track
 * @name: what happened ("BEACON", "read 4KiB")
 * @cat: a category for filtering
 * @ts_us: start, microseconds
 * @dur_us: duration, microseconds
 * @args_json: NULL, or the body of an args object written by the caller as raw JSON members,
 *             e.g. "\"sector\": 1024, \"len\": 8"
 */
void kfsim_trace_complete(struct kfsim_trace *trace, int pid, int tid, const char *name,
			  const char *cat, double ts_us, double dur_us, const char *args_json);

/** kfsim_trace_instant() - an instant ("i") event on one track. */
void kfsim_trace_instant(struct kfsim_trace *trace, int pid, int tid, const char *name,
			 const char *cat, double ts_us);

/** kfsim_trace_counter() - a counter ("C") sample: series @name of @pid takes @value at @ts_us. */
void kfsim_trace_counter(struct kfsim_trace *trace, int pid, const char *name, double ts_us,
			 double value);

/**
 * kfsim_trace_close() - end the document and close the file
 *
 * Return: 0, or the first write error (-ENOSPC, -EFBIG, -EIO); then the old file is kept.
 */
int kfsim_trace_close(struct kfsim_trace *trace);

/**
 * kfsim_trace_finish() - end the document and hand its file over, not yet committed
 * @trace: a trace opened with kfsim_trace_open()
 *
 * For a command that writes a trace and other files and must replace all of them or none:
 * the file returned is to be committed together with the others as one transaction
 * (kfsim_outfile_commit_group()) or dropped (kfsim_outfile_abort()).  It lives inside @trace
 * (its stream writes through that address), so @trace must stay in place until then.  The counts
 * of @trace (nr_events, nr_dropped, the traced window) stay readable.  A trace that ran out of
 * memory hands its file over with -ENOMEM recorded, so that its commit fails.
 *
 * Return: the trace's output file, or NULL when @trace is not open on a file of its own
 * (kfsim_trace_open_stream()).
 */
struct kfsim_outfile *kfsim_trace_finish(struct kfsim_trace *trace);

/**
 * kfsim_trace_abort() - drop the trace: the file named at open keeps its old content
 *
 * For a run that failed after the trace was opened.  A stream trace is just released.
 */
void kfsim_trace_abort(struct kfsim_trace *trace);

#pragma GCC visibility pop
#endif /* KFSIM_TRACE_EVENT_H */
