// SPDX-License-Identifier: MIT
/*
 * Trace-event JSON writer.  One event per line keeps big traces diffable and lets a reader grep
 * them; times are printed with three decimals of a microsecond (nanosecond resolution).
 *
 * Each event is first formatted into a memory stream, so that the size cap (kfsim_trace_set_max)
 * is exact: an event is written whole, or dropped whole once it would not fit, and the document
 * stays valid JSON either way.  Files go through kfsim_outfile: the old file stays until the
 * trace is complete.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>

#include <kfsim/json.h>
#include <kfsim/trace_event.h>

/* "\n]}\n": what kfsim_trace_close() appends; the cap keeps room for it. */
#define TRACE_TRAILER_BYTES 4

static const char trace_header[] = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";

static int trace_begin(struct kfsim_trace *trace, FILE *file)
{
	trace->file = file;
	trace->event = open_memstream(&trace->event_buf, &trace->event_size);
	if (!trace->event)
		return -ENOMEM;
	trace->first_ts_us = trace->last_ts_us = trace->first_dropped_ts_us = -1;
	fputs(trace_header, trace->file);
	trace->bytes = sizeof(trace_header) - 1;
	return 0;
}

int kfsim_trace_open(struct kfsim_trace *trace, const char *path)
{
	int err;

	*trace = (struct kfsim_trace){ 0 };
	err = kfsim_outfile_open(&trace->out, path);
	if (err)
		return err;
	trace->owns_file = true;
	err = trace_begin(trace, trace->out.file);
	if (err)
		kfsim_outfile_abort(&trace->out);
	return err;
}

void kfsim_trace_open_stream(struct kfsim_trace *trace, FILE *file)
{
	*trace = (struct kfsim_trace){ 0 };
	if (trace_begin(trace, file))
		trace->broken = true;
}

void kfsim_trace_set_max(struct kfsim_trace *trace, u64 max_bytes)
{
	trace->max_bytes = max_bytes;
}

/* Start formatting one event into the memory stream (with its separator). */
static FILE *trace_event_start(struct kfsim_trace *trace, const char *ph, int pid, int tid,
			       const char *name)
{
	FILE *ev = trace->event;

	if (!ev)
		return NULL;
	if (trace->nr_events)
		fputs(",\n", ev);
	fprintf(ev, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"name\":", ph, pid, tid);
	kfsim_json_write_escaped(ev, name);
	return ev;
}

/* Write the formatted event, or drop it whole if it would break the cap; @ts_us < 0: untimed. */
static void trace_event_end(struct kfsim_trace *trace, double ts_us)
{
	FILE *ev = trace->event;

	if (!ev)
		return;
	if (fflush(ev)) {
		trace->broken = true;
	} else if (trace->max_bytes &&
		   trace->bytes + trace->event_size + TRACE_TRAILER_BYTES > trace->max_bytes) {
		trace->nr_dropped++;
		if (ts_us >= 0 && trace->first_dropped_ts_us < 0)
			trace->first_dropped_ts_us = ts_us;
	} else {
		fwrite(trace->event_buf, 1, trace->event_size, trace->file);
		trace->bytes += trace->event_size;
		trace->nr_events++;
		if (ts_us >= 0) {
			if (trace->first_ts_us < 0 || ts_us < trace->first_ts_us)
				trace->first_ts_us = ts_us;
			if (ts_us > trace->last_ts_us)
				trace->last_ts_us = ts_us;
		}
	}
	rewind(ev);
}

/* A metadata event ("M") naming a process or a thread. */
static void trace_name(struct kfsim_trace *trace, int pid, int tid, const char *what,
		       const char *name)
{
	FILE *ev = trace_event_start(trace, "M", pid, tid, what);

	if (!ev)
		return;
	fputs(",\"args\":{\"name\":", ev);
	kfsim_json_write_escaped(ev, name);
	fputs("}}", ev);
	trace_event_end(trace, -1);
}

void kfsim_trace_name_process(struct kfsim_trace *trace, int pid, const char *name)
{
	trace_name(trace, pid, 0, "process_name", name);
}

void kfsim_trace_name_thread(struct kfsim_trace *trace, int pid, int tid, const char *name)
{
	trace_name(trace, pid, tid, "thread_name", name);
}

void kfsim_trace_complete(struct kfsim_trace *trace, int pid, int tid, const char *name,
			  const char *cat, double ts_us, double dur_us, const char *args_json)
{
	FILE *ev = trace_event_start(trace, "X", pid, tid, name);

	if (!ev)
		return;
	fputs(",\"cat\":", ev);
	kfsim_json_write_escaped(ev, cat ? cat : "");
	fprintf(ev, ",\"ts\":%.3f,\"dur\":%.3f", ts_us, dur_us);
	if (args_json)
		fprintf(ev, ",\"args\":{%s}", args_json);
	fputc('}', ev);
	trace_event_end(trace, ts_us);
}

void kfsim_trace_instant(struct kfsim_trace *trace, int pid, int tid, const char *name,
			 const char *cat, double ts_us)
{
	FILE *ev = trace_event_start(trace, "i", pid, tid, name);

	if (!ev)
		return;
	fputs(",\"cat\":", ev);
	kfsim_json_write_escaped(ev, cat ? cat : "");
	fprintf(ev, ",\"ts\":%.3f,\"s\":\"t\"}", ts_us);
	trace_event_end(trace, ts_us);
}

void kfsim_trace_counter(struct kfsim_trace *trace, int pid, const char *name, double ts_us,
			 double value)
{
	FILE *ev = trace_event_start(trace, "C", pid, 0, name);

	if (!ev)
		return;
	fprintf(ev, ",\"ts\":%.3f,\"args\":{\"value\":%.6g}}", ts_us, value);
	trace_event_end(trace, ts_us);
}

static void trace_release(struct kfsim_trace *trace)
{
	if (trace->event)
		fclose(trace->event);
	free(trace->event_buf);
	trace->event = NULL;
	trace->event_buf = NULL;
	trace->file = NULL;
}

int kfsim_trace_close(struct kfsim_trace *trace)
{
	int ret = trace->broken ? -ENOMEM : 0;

	if (!trace->file)
		return -EBADF;
	if (trace->owns_file)
		return kfsim_outfile_commit(kfsim_trace_finish(trace));
	fputs("\n]}\n", trace->file);
	if (!ret && (fflush(trace->file) || ferror(trace->file)))
		ret = -EIO;
	trace_release(trace);
	return ret;
}

struct kfsim_outfile *kfsim_trace_finish(struct kfsim_trace *trace)
{
	struct kfsim_outfile *out = &trace->out;

	if (!trace->file || !trace->owns_file)
		return NULL;
	fputs("\n]}\n", trace->file);
	if (trace->broken)
		kfsim_outfile_fail(out, -ENOMEM);
	trace->owns_file = false; /* the file is the caller's to commit or abort from here */
	trace_release(trace);
	return out;
}

void kfsim_trace_abort(struct kfsim_trace *trace)
{
	if (!trace->file)
		return;
	if (trace->owns_file)
		kfsim_outfile_abort(&trace->out);
	trace_release(trace);
}
