// SPDX-License-Identifier: MIT
/*
 * Trace-event JSON writer.  One event per line keeps big traces diffable and lets a reader grep
 * them; times are printed with three decimals of a microsecond (nanosecond resolution).
 */
#include <errno.h>

#include <kfsim/json.h>
#include <kfsim/trace_event.h>

static void trace_begin(struct kfsim_trace *trace)
{
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", trace->file);
}

int kfsim_trace_open(struct kfsim_trace *trace, const char *path)
{
	FILE *file = fopen(path, "w");

	if (!file)
		return -errno;
	*trace = (struct kfsim_trace){ .file = file, .owns_file = true };
	trace_begin(trace);
	return 0;
}

void kfsim_trace_open_stream(struct kfsim_trace *trace, FILE *file)
{
	*trace = (struct kfsim_trace){ .file = file };
	trace_begin(trace);
}

static void trace_event_start(struct kfsim_trace *trace, const char *ph, int pid, int tid,
			      const char *name)
{
	if (trace->nr_events++)
		fputs(",\n", trace->file);
	fprintf(trace->file, "{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"name\":", ph, pid, tid);
	kfsim_json_write_escaped(trace->file, name);
}

void kfsim_trace_name_process(struct kfsim_trace *trace, int pid, const char *name)
{
	trace_event_start(trace, "M", pid, 0, "process_name");
	fputs(",\"args\":{\"name\":", trace->file);
	kfsim_json_write_escaped(trace->file, name);
	fputs("}}", trace->file);
}

void kfsim_trace_name_thread(struct kfsim_trace *trace, int pid, int tid, const char *name)
{
	trace_event_start(trace, "M", pid, tid, "thread_name");
	fputs(",\"args\":{\"name\":", trace->file);
	kfsim_json_write_escaped(trace->file, name);
	fputs("}}", trace->file);
}

void kfsim_trace_complete(struct kfsim_trace *trace, int pid, int tid, const char *name,
			  const char *cat, double ts_us, double dur_us, const char *args_json)
{
	trace_event_start(trace, "X", pid, tid, name);
	fputs(",\"cat\":", trace->file);
	kfsim_json_write_escaped(trace->file, cat ? cat : "");
	fprintf(trace->file, ",\"ts\":%.3f,\"dur\":%.3f", ts_us, dur_us);
	if (args_json)
		fprintf(trace->file, ",\"args\":{%s}", args_json);
	fputc('}', trace->file);
}

void kfsim_trace_instant(struct kfsim_trace *trace, int pid, int tid, const char *name,
			 const char *cat, double ts_us)
{
	trace_event_start(trace, "i", pid, tid, name);
	fputs(",\"cat\":", trace->file);
	kfsim_json_write_escaped(trace->file, cat ? cat : "");
	fprintf(trace->file, ",\"ts\":%.3f,\"s\":\"t\"}", ts_us);
}

void kfsim_trace_counter(struct kfsim_trace *trace, int pid, const char *name, double ts_us,
			 double value)
{
	trace_event_start(trace, "C", pid, 0, name);
	fprintf(trace->file, ",\"ts\":%.3f,\"args\":{\"value\":%.6g}}", ts_us, value);
}

int kfsim_trace_close(struct kfsim_trace *trace)
{
	int ret;

	fputs("\n]}\n", trace->file);
	ret = ferror(trace->file) ? -EIO : 0;
	if (trace->owns_file && fclose(trace->file))
		ret = -EIO;
	trace->file = NULL;
	return ret;
}
