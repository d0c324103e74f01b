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

/**
 * struct kfsim_trace - an open trace file
 * @file: the stream
 * @owns_file: close @file at kfsim_trace_close()
 * @nr_events: events written so far
 */
struct kfsim_trace {
	FILE *file;
	bool owns_file;
	unsigned long nr_events;
};

/**
 * kfsim_trace_open() - create (truncate) @path and start the document
 *
 * Return: 0, or a negative errno from fopen() (nothing is created then).
 */
int kfsim_trace_open(struct kfsim_trace *trace, const char *path);
/** kfsim_trace_open_stream() - start a trace document on an already open @file (not closed later). */
void kfsim_trace_open_stream(struct kfsim_trace *trace, FILE *file);

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
 * Return: 0, or -EIO when anything failed to write.
 */
int kfsim_trace_close(struct kfsim_trace *trace);

#pragma GCC visibility pop
#endif /* KFSIM_TRACE_EVENT_H */
