// SPDX-License-Identifier: MIT
/*
 * Reading block traces as text for replay: blkparse's default output, and what the kernel's
 * tracefs "blk" tracer prints (blktrace itself is refused under kernel lockdown) in each
 * layout its options give (blktrace_line.c finds the fields).  Only "Q" (queued) events are
 * kept: they are what the process asked for, before any scheduler touched it; after the
 * action come the RWBS flags and "sector + nr_sectors [comm]".  Hand-parsed from one buffer:
 * no sscanf, no per-line copy (parsing was 90 % of a replay).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/blkdev.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>

#include "blktrace_internal.h"
#include "core/problem_list.h"

/* blk_io_trace's bytes is a __u32 (include/uapi/linux/blktrace_api.h): the most an event says */
#define BLKTRACE_MAX_EVENT_SECTORS (U32_MAX >> SECTOR_SHIFT)

/* A binary file given by mistake has a bad line everywhere: the log names this many. */
#define BLKTRACE_LOGGED_PROBLEMS 10


/* A decimal number filling the token; false for anything else or more than 64 bits. */
static bool blktrace_u64(const char *s, size_t len, u64 *v, bool *overflow)
{
	u64 x = 0;

	*overflow = false;
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned int d = (unsigned int)(s[i] - '0');

		if (d > 9)
			return false;
		if (x > (U64_MAX - d) / 10)
			*overflow = true;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/*
 * "seconds.fraction" (blkparse prints nanoseconds, tracefs microseconds): 0 and the time in
 * ns, 1 when the token is not a time, or -errno with the reason in @why.
 */
static int blktrace_time(const char *s, size_t len, u64 *ns, const char **why)
{
	const char *dot = memchr(s, '.', len);
	u64 secs, frac = 0, scale = NSEC_PER_SEC;
	size_t flen;
	bool over;

	if (!dot || !blktrace_u64(s, (size_t)(dot - s), &secs, &over))
		return 1;
	flen = len - (size_t)(dot - s) - 1;
	if (flen && !blktrace_u64(dot + 1, flen, &frac, &over))
		return 1;
	if (flen > 9) {
		*why = "nanoseconds field of the timestamp is 1e9 or more";
		return -EINVAL;
	}
	for (size_t i = 0; i < flen; i++)
		scale /= 10;
	frac *= scale;
	if (over || secs > (U64_MAX - frac) / NSEC_PER_SEC) {
		*why = "timestamp does not fit 64-bit nanoseconds";
		return -EOVERFLOW;
	}
	*ns = secs * NSEC_PER_SEC + frac;
	return 0;
}

/*
 * "maj,min" as major << 20 | minor in *@dev (the kernel's dev_t layout: MINORBITS 20, so a
 * major of 12 bits); false if it does not parse or does not fit, as no printed device can.
 */
static bool blktrace_dev(const char *s, size_t len, u32 *dev)
{
	const char *comma = memchr(s, ',', len);
	u64 maj, min;
	bool over;

	if (!comma || !blktrace_u64(s, (size_t)(comma - s), &maj, &over) ||
	    !blktrace_u64(comma + 1, len - (size_t)(comma - s) - 1, &min, &over) ||
	    maj >= 4096 || min >= (1U << 20))
		return false;
	*dev = (u32)(maj << 20 | min);
	return true;
}

/*
 * One line: 0 with *@is_queue set for an event of @action ('Q', or 'C' for a completion)
 * with data, 0 for anything else, or -errno with the reason in @why.
 */
/* A hexadecimal number filling the token (verbose latency-format's microseconds). */
static bool blktrace_hex(const char *s, size_t len, u64 *v)
{
	u64 x = 0;

	if (!len || len > 16)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		unsigned int d = c >= '0' && c <= '9' ? (unsigned int)(c - '0') :
				 c >= 'a' && c <= 'f' ? (unsigned int)(c - 'a' + 10) : 16;

		if (d > 15)
			return false;
		x = x << 4 | d;
	}
	*v = x;
	return true;
}

/* The "(maj,min)" after a remap's "<-", as blktrace_dev(); 0 if there is none. */
static u32 blktrace_remap_from(const char *p, const char *end)
{
	const char *tok;
	size_t len;
	u32 dev;

	do {
		tok = blktrace_token(&p, end, &len);
	} while (len && !(len == 2 && tok[0] == '<' && tok[1] == '-'));
	tok = blktrace_token(&p, end, &len);
	if (len < 5 || tok[0] != '(' || tok[len - 1] != ')' ||
	    !blktrace_dev(tok + 1, len - 2, &dev))
		return 0;
	return dev;
}

/* The located time in ns: 0, 1 when it is not a time after all, or -errno with @why. */
static int blktrace_event_time(const struct blktrace_fields *f, u64 *ns, const char **why)
{
	bool over;
	u64 us;

	switch (f->time_form) {
	case BLKTRACE_TIME_SECONDS:
		return blktrace_time(f->time, f->time_len, ns, why);
	case BLKTRACE_TIME_REL_US:
		if (!blktrace_u64(f->time, f->time_len, &us, &over))
			return 1;
		break;
	case BLKTRACE_TIME_HEX_US:
		if (!blktrace_hex(f->time, f->time_len, &us))
			return 1;
		over = false;
		break;
	case BLKTRACE_TIME_TICKS:
		*why = "the time is in clock ticks, not seconds: the trace was taken with a "
		       "trace_clock that does not count nanoseconds (counter, uptime, x86-tsc); "
		       "take it with the default one (echo local > trace_clock)";
		return -EINVAL;
	default:
		*why = "the line has no time and no pid: the trace was read with the tracefs "
		       "option context-info off; read it again with it on (echo 1 > "
		       "options/context-info)";
		return -EINVAL;
	}
	if (over || us > U64_MAX / NSEC_PER_USEC) {
		*why = "timestamp does not fit 64-bit nanoseconds";
		return -EOVERFLOW;
	}
	*ns = us * NSEC_PER_USEC;
	return 0;
}

/* *@kind of a line that is no event at all (a header, a summary, what raw prints) */
#define BLKTRACE_NO_EVENT '#'

/*
 * One line: 0 with *@kind set to the action for an event of one of @actions ('Q', 'C' for a
 * completion) with data, 0 with *@kind 0 for any other event (*@no_data true when it is such an
 * event without data: a discard, a flush, an "N" event) and BLKTRACE_NO_EVENT for a line that
 * is none, or -errno with the reason in @why.
 */
static int blktrace_parse_event(const char *line, const char *end, const char *actions,
				struct blktrace_q *q, char *kind, bool *no_data, const char **why)
{
	const char *p, *rwbs, *tok;
	struct blktrace_fields f;
	size_t rlen, len;
	bool over_s, over_n;
	u64 pid = 0;
	char action = 0;
	int err;

	*kind = 0;
	*no_data = false;
	if (!blktrace_locate(line, end, &p, &f)) {
		if (!f.damaged) {
			*kind = BLKTRACE_NO_EVENT;
			return 0;
		}
		/* it may have been a queue event: dropping it would lose an I/O unsaid */
		*why = "malformed event (no action where blkparse and the tracer print one: a "
		       "damaged line, or a format of blkparse -f's)";
		return -EINVAL;
	}
	for (const char *a = actions; *a && !action; a++)
		if (blktrace_action_is(&f, *a))
			action = *a;
	if (!action)
		return 0;	/* not an event asked for: skipped */
	if (action == 'A') {
		/* "sector + n <- (maj,min) from": the device the bio was remapped from */
		q->from_dev = blktrace_remap_from(p, end);
		*kind = q->from_dev && blktrace_dev(f.dev, f.dev_len, &q->dev) ? 'A' : 0;
		return 0;
	}
	/*
	 * The line has a device and the action: an event line, so a pid or a time that does not
	 * parse is damage, not some other line (skipping it would drop an I/O without a word).
	 */
	if (f.time_form != BLKTRACE_TIME_NONE &&
	    (!blktrace_u64(f.pid, f.pid_len, &pid, &over_s) || pid > INT_MAX)) {
		*why = "malformed event (its pid is not a number)";
		return -EINVAL;
	}
	err = blktrace_event_time(&f, &q->time_ns, why);
	if (err > 0)
		*why = "malformed event (its time is not a time)";
	if (err)
		return err > 0 ? -EINVAL : err;
	q->pid = (int)pid;
	if (!blktrace_dev(f.dev, f.dev_len, &q->dev)) {
		/* it was counted as 0,0, one device with every other such line */
		*why = "malformed event (its device is beyond dev_t's 12-bit major, 20-bit minor)";
		return -EINVAL;
	}
	rwbs = blktrace_token(&p, end, &rlen);
	if (!rlen) {
		*why = "Q event without RWBS flags";
		return -EINVAL;
	}
	/* discards (D), "N" (no data) events, and flushes without data ("Q FWS [fio]") */
	*no_data = true;
	if (blktrace_has(rwbs, rlen, 'D') || blktrace_has(rwbs, rlen, 'N') ||
	    (!blktrace_has(rwbs, rlen, 'R') && !blktrace_has(rwbs, rlen, 'W')))
		return 0;
	tok = blktrace_token(&p, end, &len);
	if ((!len || tok[0] == '[') && blktrace_has(rwbs, rlen, 'F'))
		return 0;
	*no_data = false;
	if (!blktrace_u64(tok, len, &q->sector, &over_s))
		goto malformed;
	tok = blktrace_token(&p, end, &len);
	if (len != 1 || tok[0] != '+')
		goto malformed;
	tok = blktrace_token(&p, end, &len);
	if (!blktrace_u64(tok, len, &q->nr_sectors, &over_n))
		goto malformed;
	/*
	 * blkparse and the tracer both end a queue event with the process's "[comm]" (blkparse
	 * -t puts "(elapsed)" first): a line that stops at the sectors was cut short, and its
	 * count may be too (a truncated "+ 128" reads as "+ 12").
	 */
	tok = blktrace_token(&p, end, &len);
	if (!len || (tok[0] != '[' && tok[0] != '(')) {
		*why = len ? "malformed Q event (expected \"[comm]\" after the sectors)" :
			     "Q event cut short after its sectors (no \"[comm]\" follows, as "
			     "blkparse and the tracer print it): a truncated file?";
		return -EINVAL;
	}
	if (over_s || over_n) {
		*why = "sector + length does not fit 64 bits";
		return -EOVERFLOW;
	}
	if (!q->nr_sectors) {
		/* a zero-length write with F is a flush too: nothing to transfer */
		*no_data = blktrace_has(rwbs, rlen, 'F');
		if (*no_data)
			return 0;
		*why = "Q event of 0 sectors";
		return -EINVAL;
	}
	if (q->sector > U64_MAX - q->nr_sectors) {
		*why = "sector + length does not fit 64 bits";
		return -EOVERFLOW;
	}
	/*
	 * Both printers take the length from struct blk_io_trace's __u32 bytes (">> 9"), so no
	 * event they print is longer: a larger count is damage, and would have made billions of
	 * requests of BLK_DEF_MAX_SECTORS_CAP (the count of them wrapped: memory overrun).
	 */
	if (q->nr_sectors > BLKTRACE_MAX_EVENT_SECTORS) {
		*why = "more sectors than a trace event can hold (4 GiB - 1 bytes, blk_io_trace's "
		       "32-bit byte count): a damaged line";
		return -EINVAL;
	}
	*kind = action;
	q->write = blktrace_has(rwbs, rlen, 'W');
	q->sync = blktrace_has(rwbs, rlen, 'S');
	return 0;
malformed:
	*why = "malformed Q event (expected \"maj,min cpu seq sec.nsec pid Q RWBS sector + "
	       "sectors\" or the tracefs blk tracer's \"comm-pid [cpu] flags sec.usec: maj,min Q "
	       "RWBS sector + sectors\")";
	return -EINVAL;
}

char blktrace_parse_data_event(const char *line, const char *end, struct blktrace_q *q)
{
	const char *why;
	bool no_data;
	char kind;

	if (blktrace_parse_event(line, end, "QC", q, &kind, &no_data, &why))
		return 0;
	return kind == BLKTRACE_NO_EVENT ? 0 : kind;
}

int blktrace_pid_cmp(const void *a, const void *b)
{
	int pa = *(const int *)a, pb = *(const int *)b;

	return pa < pb ? -1 : pa > pb;
}

int blktrace_distinct_pids(const struct kfsim_blktrace_rec *recs, size_t nr, int **pids_out,
			   unsigned int *nr_pids)
{
	int *pids = kvcalloc(nr ? nr : 1, sizeof(*pids), GFP_KERNEL);
	size_t n = 0;

	if (!pids)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++)
		pids[i] = recs[i].pid;
	qsort(pids, nr, sizeof(*pids), blktrace_pid_cmp);
	for (size_t i = 0; i < nr; i++) {
		if (!n || pids[n - 1] != pids[i])
			pids[n++] = pids[i];
	}
	*pids_out = pids;
	*nr_pids = (unsigned int)n;
	return 0;
}

struct blktrace_order {
	u64 time_ns;
	size_t i;
};

static int blktrace_order_cmp(const void *a, const void *b)
{
	const struct blktrace_order *x = a, *y = b;

	if (x->time_ns != y->time_ns)
		return x->time_ns < y->time_ns ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

size_t *blktrace_time_order(const struct kfsim_blktrace_rec *recs, size_t nr)
{
	struct blktrace_order *order = kvcalloc(nr ? nr : 1, sizeof(*order), GFP_KERNEL);
	size_t *idx = kvcalloc(nr ? nr : 1, sizeof(*idx), GFP_KERNEL);

	if (!order || !idx) {
		kvfree(order);
		kvfree(idx);
		return NULL;
	}
	for (size_t i = 0; i < nr; i++)
		order[i] = (struct blktrace_order){ recs[i].time_ns, i };
	qsort(order, nr, sizeof(*order), blktrace_order_cmp);
	for (size_t i = 0; i < nr; i++)
		idx[i] = order[i].i;
	kvfree(order);
	return idx;
}

/* Grow @arr to hold @need records, kvmalloc semantics: no KMALLOC_MAX_SIZE cap. */
static int blktrace_grow(struct kfsim_blktrace_rec **arr, size_t *cap, size_t need)
{
	struct kfsim_blktrace_rec *bigger;
	size_t new_cap = *cap ? *cap : 256;

	if (need <= *cap)
		return 0;
	while (new_cap < need) {
		if (new_cap > SIZE_MAX / 2 / sizeof(**arr))
			return -ENOMEM;
		new_cap *= 2;
	}
	bigger = kvmalloc(new_cap * sizeof(**arr), GFP_KERNEL);
	if (!bigger)
		return -ENOMEM;
	if (*arr)
		memcpy(bigger, *arr, *cap * sizeof(**arr));
	kvfree(*arr);
	*arr = bigger;
	*cap = new_cap;
	return 0;
}

/*
 * Lines that fail for one reason in a row (every Q line of a trace taken with a clock in
 * ticks, say) are one problem: "line 3: why (the same on lines 9, 15, 21 and 40 more)".
 */
struct blktrace_group {
	const char *why;	/* a reason is a string literal: the same pointer, the same text */
	int err;
	long first;
	long more[3];
	long nr_more;
};

static void blktrace_group_tell(struct kfsim_problem_list *problems, struct blktrace_group *g)
{
	char lines[96] = "";
	int len = 0;

	if (!g->why)
		return;
	for (long i = 0; i < g->nr_more && i < (long)ARRAY_SIZE(g->more); i++)
		len += snprintf(lines + len, sizeof(lines) - (size_t)len, "%s%ld",
				!i ? "" : i + 1 < g->nr_more || g->nr_more > 3 ? ", " : " and ",
				g->more[i]);
	if (g->nr_more > (long)ARRAY_SIZE(g->more))
		snprintf(lines + len, sizeof(lines) - (size_t)len, " and %ld more",
			 g->nr_more - (long)ARRAY_SIZE(g->more));
	if (g->nr_more)
		kfsim_problem_list_add(problems, g->err, "line %ld: %s (the same on line%s %s)",
				       g->first, g->why, g->nr_more > 1 ? "s" : "", lines);
	else
		kfsim_problem_list_add(problems, g->err, "line %ld: %s", g->first, g->why);
	g->why = NULL;
}

static void blktrace_problem(struct kfsim_problem_list *problems, struct blktrace_group *g,
			     int err, long lineno, const char *why)
{
	if (g->why == why) {
		if (g->nr_more < (long)ARRAY_SIZE(g->more))
			g->more[g->nr_more] = lineno;
		g->nr_more++;
		return;
	}
	blktrace_group_tell(problems, g);
	*g = (struct blktrace_group){ .why = why, .err = err, .first = lineno };
}

/*
 * Remaps seen ("A" events: a partition onto its disk, a device-mapper target onto the devices
 * below it), each pair of devices once; a few are enough to tell the user.
 */
#define BLKTRACE_REMAPS 16

struct blktrace_remap {
	u32 from, to;
};

static void blktrace_note_remap(struct blktrace_remap *remaps, size_t *nr, u32 from, u32 to)
{
	for (size_t i = 0; i < *nr; i++)
		if (remaps[i].from == from && remaps[i].to == to)
			return;
	if (*nr < BLKTRACE_REMAPS)
		remaps[(*nr)++] = (struct blktrace_remap){ from, to };
}

/*
 * A device whose bios are remapped onto another traced device, and which was traced itself
 * (dm-0 over sda, both traced): each of its I/Os was queued on both, and replays on both.
 * The trace holds both, so both replay, but the user is told (appended to @errbuf).
 */
static void blktrace_note_layers(char *errbuf, size_t errlen, const struct blktrace_remap *remaps,
				 size_t nr_remaps, const struct kfsim_blktrace_rec *recs, size_t nr)
{
	for (size_t i = 0; i < nr_remaps; i++) {
		size_t on_from = 0, len = strlen(errbuf);
		u32 from = remaps[i].from, to = remaps[i].to;

		for (size_t r = 0; r < nr; r++)
			on_from += recs[r].dev == from;
		/* a partition traced itself prints its remap onto the disk as its own device */
		if (!on_from || from == to || len + 1 >= errlen)
			continue;
		snprintf(errbuf + len, errlen - len,
			 "%sdevice %u,%u is remapped onto %u,%u (\"A\" events) and both were "
			 "traced: its %zu request%s replay%s on both layers, as the trace has them "
			 "(trace one layer to replay each I/O once)",
			 len ? "; " : "", from >> 20, from & 0xfffff, to >> 20, to & 0xfffff,
			 on_from, on_from == 1 ? "" : "s", on_from == 1 ? "s" : "");
	}
}

/*
 * The notes of a trace that replays, but not whole: the tracer said it lost events (@lost_events
 * of them, or at least that many when a line did not say how many: @lost_uncounted), or the
 * file ends inside a line (@cut_line, 0 if not).  "" when there is none.
 */
static void blktrace_notes(char *errbuf, size_t errlen, long first_lost_line, size_t lost_lines,
			   u64 lost_events, bool lost_uncounted, long cut_line)
{
	char count[48] = "";
	int len = 0;

	errbuf[0] = '\0';
	if (lost_events)
		snprintf(count, sizeof(count), "%s %llu", lost_uncounted ? " at least" : "",
			 (unsigned long long)lost_events);
	if (lost_lines)
		len = snprintf(errbuf, errlen, "line %ld: the tracer lost%s events (\"[LOST ...]\" "
			       "on %zu line%s): the replay lacks them; a larger buffer "
			       "(buffer_size_kb) or a faster reader of trace_pipe keeps them",
			       first_lost_line, count, lost_lines, lost_lines == 1 ? "" : "s");
	if (cut_line && len >= 0 && (size_t)len < errlen)
		snprintf(errbuf + len, errlen - (size_t)len, "%sline %ld: the file ends inside this "
			 "line (no newline after it: a truncated file?); it is not replayed",
			 len ? "; " : "", cut_line);
}

/*
 * What the tracer printed in place of a block event with the tracefs option raw or hex on:
 * "PID CPU TS type: 14", the event's number and none of its fields (the blk tracer has no raw
 * printer), so nothing of it can be read.
 */
static bool blktrace_unprinted_event(const char *line, const char *end)
{
	const char *e = end, *digits;

	while (e > line && (unsigned char)e[-1] <= ' ')
		e--;
	digits = e;
	while (e > line && e[-1] >= '0' && e[-1] <= '9')
		e--;
	if (e == digits || e - line < 7 || e[-1] != ' ')
		return false;
	return !memcmp(e - 7, " type: ", 7) || (e - line == 7 && !memcmp(line, "type: ", 6));
}

/*
 * "CPU:1 [LOST 76 EVENTS]" (or "[LOST EVENTS]": print_trace_line() says so when the ring
 * buffer could not count them): the tracer's buffer was full and it dropped events there
 * (trace_pipe read too slowly, or overwrite off).  The count, 0 when not told or not a
 * number that fits; false for any other line.
 */
static bool blktrace_lost_events(const char *line, const char *end, u64 *nr)
{
	const char *p = line, *tok;
	size_t len;
	bool over;

	tok = blktrace_token(&p, end, &len);
	if (len < 5 || memcmp(tok, "CPU:", 4))
		return false;
	tok = blktrace_token(&p, end, &len);
	if (len != 5 || memcmp(tok, "[LOST", 5))
		return false;
	tok = blktrace_token(&p, end, &len);
	*nr = 0;
	if (len && tok[0] >= '0' && tok[0] <= '9' && blktrace_u64(tok, len, nr, &over) && over)
		*nr = 0;
	return true;
}

/* blk_io_trace's magic as blktrace writes it (little-endian, version 7): a binary file */
static bool blktrace_is_binary_trace(const char *buf, size_t size)
{
	return size >= 4 && (unsigned char)buf[0] == 0x07 && buf[1] == 't' && buf[2] == 'a' &&
	       buf[3] == 'e';
}

/* Whether @word is in [@s, @end) (no memmem(): it is a GNU extension). */
static bool blktrace_contains(const char *s, const char *end, const char *word)
{
	size_t len = strlen(word);

	for (; (size_t)(end - s) >= len; s++) {
		s = memchr(s, word[0], (size_t)(end - s) - len + 1);
		if (!s)
			return false;
		if (!memcmp(s, word, len))
			return true;
	}
	return false;
}

/* The compressor whose magic @buf starts with (traces are often shipped so), or NULL. */
static const char *blktrace_compressed(const char *buf, size_t size)
{
	static const struct {
		const char *magic, *name;
		size_t len;
	} kinds[] = {
		{ "\x1f\x8b", "gzip", 2 }, { "\xfd" "7zXZ", "xz", 5 },
		{ "\x28\xb5\x2f\xfd", "zstd", 4 }, { "BZh", "bzip2", 3 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (size >= kinds[i].len && !memcmp(buf, kinds[i].magic, kinds[i].len))
			return kinds[i].name;
	return NULL;
}

long kfsim_blktrace_parse_buf(const char *buf, size_t size, struct kfsim_blktrace_rec **recs,
			      char *errbuf, size_t errlen,
			      void (*progress)(void *arg, size_t done, size_t total), void *arg)
{
	struct kfsim_blktrace_rec *arr = NULL;
	size_t nr = 0, cap = 0, no_data_qs = 0, lost_lines = 0, events = 0;
	/* one pass over the whole file spares one a line in the common case: no NUL at all */
	bool has_nul = memchr(buf, '\0', size) != NULL;
	struct blktrace_remap remaps[BLKTRACE_REMAPS];
	size_t nr_remaps = 0;
	long first_lost_line = 0, cut_line = 0, tracepoint_line = 0;
	const char *cut_why = NULL;
	u64 lost_events = 0;
	bool lost_uncounted = false;
	const char *p = buf, *end = buf + size, *next_report = buf;
	struct kfsim_problem_list problems;
	struct blktrace_group group = { 0 };
	long lineno = 0;
	int err;

	/* every bad line is named at once, so that one run tells the user all there is to fix */
	kfsim_problem_list_init(&problems, errbuf, errlen, "; ");
	if (blktrace_is_binary_trace(buf, size)) {
		kfsim_problem_list_add(&problems, -EINVAL, "line 1: this is blktrace's binary "
				       "output, not text: print it with blkparse first (blkparse "
				       "-i DEV -o trace.txt)");
		return -EINVAL;
	}
	if (blktrace_compressed(buf, size)) {
		kfsim_problem_list_add(&problems, -EINVAL, "line 1: this is a %s-compressed file, "
				       "not text: decompress it first", blktrace_compressed(buf, size));
		return -EINVAL;
	}
	/* a guess from the size (a Q line and its G/D/C companions: ~300 bytes) saves regrowing */
	if (blktrace_grow(&arr, &cap, size / 300 + 16)) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *why = NULL;
		struct blktrace_q q;
		char kind;
		bool is_queue, no_data;

		lineno++;
		if (has_nul && memchr(p, '\0', (size_t)(eol - p))) {
			/* NUL bytes: nothing of the line can be trusted */
			err = -EINVAL;
			why = "binary data (a NUL byte) in a text trace: a trace read with the "
			      "tracefs option bin on (read it again with it off), blktrace's binary "
			      "output (print it with blkparse), or a damaged file";
			kind = 0;
			no_data = false;
		} else {
			err = blktrace_parse_event(p, eol, "QA", &q, &kind, &no_data, &why);
		}
		if (kind == 'A') {
			blktrace_note_remap(remaps, &nr_remaps, q.from_dev, q.dev);
			kind = 0;
		}
		if (kind != BLKTRACE_NO_EVENT)
			events++;
		if (kind == BLKTRACE_NO_EVENT) {	/* headers, summaries: few lines */
			u64 lost;

			if (blktrace_lost_events(p, eol, &lost)) {
				/* a sum past 64 bits is a bound too: it stops there */
				lost_uncounted |= !lost || lost > U64_MAX - lost_events;
				lost_events += min(lost, U64_MAX - lost_events);
				if (!lost_lines++)
					first_lost_line = lineno;
			} else if (!nr && !tracepoint_line &&
				   blktrace_contains(p, eol, ": block_bio_queue: ")) {
				tracepoint_line = lineno;	/* told if nothing else replays */
			} else if (blktrace_unprinted_event(p, eol)) {
				err = -EINVAL;
				why = "an event printed as its type number only (\"type: N\"): the "
				      "trace was read with the tracefs option raw or hex on; read it "
				      "again with both off";
			}
			kind = 0;
		}
		no_data_qs += no_data;
		is_queue = kind == 'Q';
		p = nl ? nl + 1 : end;
		if (!err && is_queue)
			err = blktrace_grow(&arr, &cap, nr + blktrace_q_nr_recs(&q));
		if (err == -ENOMEM) {
			kfsim_problem_list_init(&problems, errbuf, errlen, "; ");
			kfsim_problem_list_add(&problems, err, "line %ld: out of memory", lineno);
			pr_err("blktrace: line %ld: out of memory\n", lineno);
			kvfree(arr);
			return -ENOMEM;
		}
		if (err && !nl && lineno > 1) {
			/*
			 * blkparse and the tracer end every line with a newline: a last line
			 * without one was cut (a copy of a trace still being written, "head -c"),
			 * and what it held is not known.  The rest replays, with a note.
			 */
			cut_line = lineno;
			cut_why = why;
			continue;
		}
		if (err) {
			if (problems.nr < BLKTRACE_LOGGED_PROBLEMS)
				pr_err("blktrace: line %ld: %s\n", lineno, why);
			blktrace_problem(&problems, &group, err, lineno, why);
			continue;
		}
		if (progress && p >= next_report) {
			progress(arg, (size_t)(p - buf), size);
			next_report = p + (4 << 20);
		}
		if (!is_queue)
			continue;
		/* bio_split_to_limits(): blktrace_q_nr_recs() requests of at most max_sectors */
		for (u64 done = 0; done < q.nr_sectors; done += BLK_DEF_MAX_SECTORS_CAP) {
			arr[nr++] = (struct kfsim_blktrace_rec){
				.time_ns = q.time_ns,
				.pid = q.pid,
				.sector = q.sector + done,
				.nr_sectors = (unsigned int)min_t(u64, q.nr_sectors - done,
								  BLK_DEF_MAX_SECTORS_CAP),
				.write = q.write,
				.sync = q.sync,
				.dev = q.dev,
			};
		}
	}
	if (progress)
		progress(arg, size, size);
	if (tracepoint_line && !nr)
		blktrace_problem(&problems, &group, -EINVAL, tracepoint_line,
				 "an event of the block tracepoints (events/block/block_bio_queue), "
				 "not of the blk tracer: take the trace with the blk tracer (echo blk > "
				 "current_tracer; echo 1 > /sys/block/DEV/trace/enable) or blktrace");
	if (cut_line && !nr)	/* nothing else to replay: the cut line is the problem */
		blktrace_problem(&problems, &group, -EINVAL, cut_line, cut_why);
	blktrace_group_tell(&problems, &group);
	err = kfsim_problem_list_finish(&problems);
	if (err) {
		if (problems.nr > BLKTRACE_LOGGED_PROBLEMS)
			pr_err("blktrace: and %d more bad lines\n",
			       problems.nr - BLKTRACE_LOGGED_PROBLEMS);
		kvfree(arr);
		return err;
	}
	/* nothing to replay: say what the Q events were, when there were some */
	if (!nr && no_data_qs && errbuf && errlen)
		snprintf(errbuf, errlen, "its %zu Q event%s carr%s no data (discards, flushes, "
			 "\"N\" events), which are not replayed", no_data_qs,
			 no_data_qs == 1 ? "" : "s", no_data_qs == 1 ? "ies" : "y");
	else if (!nr && !events && errbuf && errlen)
		snprintf(errbuf, errlen, "none of its %ld lines is a block event as blkparse or the "
			 "blk tracer prints one (was the device traced: echo 1 > "
			 "/sys/block/DEV/trace/enable?)", lineno);
	else if (nr && errbuf && errlen) {
		blktrace_notes(errbuf, errlen, first_lost_line, lost_lines, lost_events,
			       lost_uncounted, cut_line);
		blktrace_note_layers(errbuf, errlen, remaps, nr_remaps, arr, nr);
	}
	*recs = arr;
	return (long)nr;
}

long kfsim_blktrace_parse(FILE *in, struct kfsim_blktrace_rec **recs, char *errbuf,
			  size_t errlen)
{
	size_t cap = 1 << 16, len = 0, got;
	char *buf = kvmalloc(cap, GFP_KERNEL), *bigger;
	long n;

	if (!buf)
		return -ENOMEM;
	while ((got = fread(buf + len, 1, cap - len, in)) > 0) {
		len += got;
		if (len < cap)
			continue;
		bigger = cap <= SIZE_MAX / 2 ? kvmalloc(cap * 2, GFP_KERNEL) : NULL;
		if (!bigger) {
			kvfree(buf);
			return -ENOMEM;
		}
		memcpy(bigger, buf, len);
		kvfree(buf);
		buf = bigger;
		cap *= 2;
	}
	n = kfsim_blktrace_parse_buf(buf, len, recs, errbuf, errlen, NULL, NULL);
	kvfree(buf);
	return n;
}

static int blktrace_dev_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

int kfsim_blktrace_place(struct kfsim_blktrace_rec *recs, size_t nr, sector_t capacity,
			 bool scale, char *errbuf, size_t errlen)
{
	u32 devs[64];
	sector_t extent[64] = { 0 };
	size_t nr_devs = 0;

	for (size_t i = 0; i < nr; i++) {
		size_t d = 0;

		while (d < nr_devs && devs[d] != recs[i].dev)
			d++;
		if (d == nr_devs) {
			if (nr_devs == ARRAY_SIZE(devs)) {
				if (errbuf && errlen)
					snprintf(errbuf, errlen, "more than %zu devices in the trace",
					 ARRAY_SIZE(devs));
				return -ERANGE;
			}
			devs[nr_devs++] = recs[i].dev;
		}
	}
	qsort(devs, nr_devs, sizeof(devs[0]), blktrace_dev_cmp);
	for (size_t i = 0; i < nr; i++) {
		size_t d = (u32 *)bsearch(&recs[i].dev, devs, nr_devs, sizeof(devs[0]),
					  blktrace_dev_cmp) - devs;

		extent[d] = max(extent[d], recs[i].sector + recs[i].nr_sectors);
	}
	for (size_t d = 0; d < nr_devs; d++) {
		sector_t share = capacity / nr_devs;

		if (!scale && extent[d] > share) {
			if (errbuf && errlen)
				snprintf(errbuf, errlen, "device %u,%u: I/O up to sector %llu does not fit "
				 "its share of the disk (%llu sectors of %llu for %zu device(s)): "
				 "scale it (--replay-scale)", devs[d] >> 20, devs[d] & 0xfffff,
				 (unsigned long long)extent[d], (unsigned long long)share,
				 (unsigned long long)capacity, nr_devs);
			return -ERANGE;
		}
	}
	for (size_t i = 0; i < nr; i++) {
		size_t d = (u32 *)bsearch(&recs[i].dev, devs, nr_devs, sizeof(devs[0]),
					  blktrace_dev_cmp) - devs;
		sector_t share = capacity / nr_devs, start = share * d, s = recs[i].sector;

		if (scale) {
			s = (sector_t)((unsigned __int128)s * share / extent[d]) & ~(sector_t)7;
			s = min(s, share - min_t(sector_t, share, recs[i].nr_sectors));
		}
		recs[i].sector = start + s;
	}
	return 0;
}
