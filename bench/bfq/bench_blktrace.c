// SPDX-License-Identifier: MIT
/*
 * How fast a replay reads its trace: trace lines (events: Q, G, D, C, ...) parsed per second by
 * kfsim_blktrace_parse_buf(), against two peers measured in the same run on the same bytes:
 * - "sscanf": one sscanf() per line for the same fields, what kfsim did before (a floor for
 *   the common way to read such text in C);
 * - "split": memchr() to each newline and nothing else (the ceiling: touching every byte once).
 * The text is a trace taken on this machine with the tracefs blk tracer
 * (examples/bfq/tracefs-blk-loop0.txt), repeated to about 2 million lines, and the same
 * events rewritten in blkparse's layout.
 *
 *	bench_blktrace [--lines N] [--rounds R] [--json] [--only tracefs|blkparse] [--parse-only]
 *
 * The best of --rounds counts (least disturbed on a shared machine); rates are given per
 * wall-clock second and per second of the process's CPU time.  --parse-only runs only
 * kfsim's parser (for callgrind: bench_parse_kfsim is the function to toggle).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/slab.h>

static double now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

struct text {
	char *buf;
	size_t len, lines;
};

static void append(struct text *t, size_t *cap, const char *s, size_t n)
{
	if (t->len + n > *cap) {
		*cap = (*cap + n) * 2;
		t->buf = realloc(t->buf, *cap);
		if (!t->buf)
			exit(1);
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
}

/* The fixture repeated to @want lines, in its own layout or rewritten as blkparse prints. */
static struct text make_text(const char *path, size_t want, bool blkparse)
{
	struct text t = { 0 };
	size_t cap = 0;
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "bench_blktrace: cannot open %s\n", path);
		exit(1);
	}
	while (t.lines < want) {
		rewind(f);
		while (t.lines < want && fgets(line, sizeof(line), f)) {
			char out[512], act[8], rwbs[8], dev[16], comm[32] = "[fio]";
			unsigned long long sec, usec, sector = 0, nr = 0;
			const char *bracket = strstr(line, "] "), *dash = bracket;
			int n;

			if (line[0] == '#' || !bracket)
				continue;
			if (!blkparse) {
				append(&t, &cap, line, strlen(line));
				t.lines++;
				continue;
			}
			while (dash > line && dash[-1] != '-')
				dash--;
			n = sscanf(bracket + 2, "%*s %llu.%llu: %15s %7s %7s %llu + %llu %31s", &sec,
				   &usec, dev, act, rwbs, &sector, &nr, comm);
			if (n < 5)
				continue;
			if (n >= 7)
				n = snprintf(out, sizeof(out), "%5s %2d %8zu %5llu.%09llu %5lu %2s %3s "
					     "%llu + %llu %s\n", dev, 1, t.lines, sec, usec * 1000,
					     strtoul(dash, NULL, 10), act, rwbs, sector, nr, comm);
			else
				n = snprintf(out, sizeof(out), "%5s %2d %8zu %5llu.%09llu %5lu %2s %3s "
					     "[fio]\n", dev, 1, t.lines, sec, usec * 1000,
					     strtoul(dash, NULL, 10), act, rwbs);
			append(&t, &cap, out, (size_t)n);
			t.lines++;
		}
	}
	fclose(f);
	return t;
}

static __attribute__((noinline)) long bench_parse_kfsim(const struct text *t)
{
	struct kfsim_blktrace_rec *recs = NULL;
	long n = kfsim_blktrace_parse_buf(t->buf, t->len, &recs, NULL, 0, NULL, NULL);

	kvfree(recs);
	return n;
}

/* The former parser's way: a line at a time through sscanf. */
static __attribute__((noinline)) long bench_parse_sscanf(const struct text *t)
{
	const char *p = t->buf, *end = t->buf + t->len;
	long nr = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char line[512], dev[32], action[8], rwbs[16];
		unsigned int cpu, pid;
		unsigned long long seq, secs, nsecs, sector, nr_sectors;
		size_t len = (size_t)((nl ? nl : end) - p);

		len = len < sizeof(line) - 1 ? len : sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		p = nl ? nl + 1 : end;
		if (sscanf(line, "%31s %u %llu %llu.%llu %u %7s %15s %llu + %llu", dev, &cpu, &seq,
			   &secs, &nsecs, &pid, action, rwbs, &sector, &nr_sectors) == 10 &&
		    !strcmp(action, "Q"))
			nr++;
	}
	return nr;
}

static __attribute__((noinline)) long bench_split(const struct text *t)
{
	const char *p = t->buf, *end = t->buf + t->len;
	long lines = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		lines++;
		p = nl ? nl + 1 : end;
	}
	return lines;
}

/*
 * Lines per wall-clock second of the best round; *cpu gets lines per second of the process's
 * CPU time (on a machine shared with other jobs the wall clock also counts time not running).
 */
static double best_rate(long (*fn)(const struct text *), const struct text *t, int rounds,
			long *result, double *cpu)
{
	double best = 0;

	*cpu = 0;
	for (int r = 0; r < rounds; r++) {
		double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID), dt, dc;

		*result = fn(t);
		dc = now_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
		dt = now_s(CLOCK_MONOTONIC) - t0;
		if (dt > 0 && (double)t->lines / dt > best)
			best = (double)t->lines / dt;
		if (dc > 0 && (double)t->lines / dc > *cpu)
			*cpu = (double)t->lines / dc;
	}
	return best;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "lines", required_argument, NULL, 'l' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "json", no_argument, NULL, 'j' },
		{ "only", required_argument, NULL, 'o' },
		{ "parse-only", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const layouts[] = { "tracefs", "blkparse" };
	const char *only = NULL;
	long lines = 2000000;
	int rounds = 3, c;
	bool json = false, parse_only = false, first = true;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			lines = atol(optarg);
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'j':
			json = true;
			break;
		case 'o':
			only = optarg;
			break;
		case 'p':
			parse_only = true;
			break;
		default:
			fprintf(c == 'h' ? stdout : stderr, "usage: bench_blktrace [--lines N] "
				"[--rounds R] [--json] [--only tracefs|blkparse] [--parse-only]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	if (lines < 1 || rounds < 1) {
		fprintf(stderr, "bench_blktrace: --lines and --rounds must be positive\n");
		return 2;
	}
	if (json)
		printf("{\"lines\":%ld,\"rounds\":%d,\"results\":[", lines, rounds);
	else
		printf("%-9s %10s %10s %17s %17s %17s\n", "layout", "lines", "Q events",
		       "kfsim M/s (cpu)", "sscanf M/s (cpu)", "split M/s (cpu)");
	for (int l = 0; l < 2; l++) {
		struct text t;
		long q = 0, q2 = 0, n2 = 0;
		double kf, sc = 0, sp = 0, kf_cpu, sc_cpu = 0, sp_cpu = 0;

		if (only && strcmp(only, layouts[l]))
			continue;
		t = make_text(KFSIM_SOURCE_DIR "/examples/bfq/tracefs-blk-loop0.txt",
			      (size_t)lines, l == 1);
		kf = best_rate(bench_parse_kfsim, &t, rounds, &q, &kf_cpu);
		if (q < 0) {
			fprintf(stderr, "bench_blktrace: the %s text did not parse\n", layouts[l]);
			return 1;
		}
		if (!parse_only) {
			if (l == 1)	/* sscanf reads only blkparse's layout */
				sc = best_rate(bench_parse_sscanf, &t, rounds, &q2, &sc_cpu);
			sp = best_rate(bench_split, &t, rounds, &n2, &sp_cpu);
			if (l == 1 && q2 != q) {
				fprintf(stderr, "bench_blktrace: sscanf found %ld Q events, kfsim %ld\n",
					q2, q);
				return 1;
			}
		}
		if (json)
			printf("%s{\"layout\":\"%s\",\"lines\":%zu,\"bytes\":%zu,\"q_events\":%ld,"
			       "\"kfsim_lines_per_s\":%.0f,\"sscanf_lines_per_s\":%.0f,"
			       "\"split_lines_per_s\":%.0f,\"kfsim_lines_per_cpu_s\":%.0f,"
			       "\"sscanf_lines_per_cpu_s\":%.0f,\"split_lines_per_cpu_s\":%.0f}",
			       first ? "" : ",", layouts[l], t.lines, t.len, q, kf, sc, sp, kf_cpu,
			       sc_cpu, sp_cpu);
		else
			printf("%-9s %10zu %10ld %9.2f (%5.2f) %9.2f (%5.2f) %9.2f (%5.2f)\n",
			       layouts[l], t.lines, q, kf / 1e6, kf_cpu / 1e6, sc / 1e6, sc_cpu / 1e6,
			       sp / 1e6, sp_cpu / 1e6);
		first = false;
		free(t.buf);
	}
	if (json)
		printf("]}\n");
	return 0;
}
