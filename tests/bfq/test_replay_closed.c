// SPDX-License-Identifier: MIT
/*
 * Closed-loop replay (issue #32): a trace's dependencies read from its completions
 * (kfsim_blktrace_deps()), and a replay in which each process issues its next I/O when its own
 * previous ones allow.  The traces are ours: hand-written blkparse text for each matching rule,
 * and the tracefs blk trace we took here (examples/bfq/tracefs-blk-loop0.txt), whose processes
 * are a QD4 reader and a psync writer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include <kfsim/slab.h>

/* Parse @text and read its dependencies: the records, and in *@linked the deps' return. */
static long parse_with_deps(const char *text, struct kfsim_blktrace_rec **recs, long *linked)
{
	char why[240];
	long n = kfsim_blktrace_parse_buf(text, strlen(text), recs, why, sizeof(why), NULL, NULL);

	assert_true(n >= 0);
	*linked = kfsim_blktrace_deps(text, strlen(text), *recs, (size_t)n);
	return n;
}

/* A synchronous process: one I/O at a time, each after a pause following the last completion. */
static void test_sync_process_depth_one_and_think(void **state)
{
	const char *text =
		"  8,0 0 1 0.000100000 7 Q RS 1000 + 8 [a]\n"
		"  8,0 0 2 0.000300000 0 C RS 1000 + 8 [0]\n"
		"  8,0 0 3 0.000800000 7 Q RS 2000 + 8 [a]\n"
		"  8,0 0 4 0.001000000 0 C RS 2000 + 8 [0]\n"
		"  8,0 0 5 0.003000000 7 Q RS 3000 + 8 [a]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	long linked, n = parse_with_deps(text, &recs, &linked);

	assert_int_equal(n, 3);
	assert_int_equal(linked, 2);
	assert_int_equal(recs[0].depth, 1);
	assert_int_equal(recs[0].think_ns, 0);		/* a process's first record */
	assert_int_equal(recs[1].depth, 1);
	assert_int_equal(recs[1].think_ns, 500000);	/* 0.8 ms - 0.3 ms */
	assert_int_equal(recs[2].depth, 1);
	assert_int_equal(recs[2].think_ns, 2000000);	/* 3.0 ms - 1.0 ms */
	kvfree(recs);
}

/*
 * An asynchronous process keeps several in flight: the depth counts them, the think time is
 * the gap to its previous queue event.  A merged request completes once for both its bios; a
 * completion of the other direction, or one that does not cover a record, ends nothing; a
 * completion before any queue event (the trace began mid-flight) is ignored.
 */
static void test_async_process_merges_and_misses(void **state)
{
	const char *text =
		"  8,0 0 1 0.000000000 0 C W 50 + 8 [0]\n"
		"  8,0 0 2 0.000100000 9 Q R 100 + 8 [b]\n"
		"  8,0 0 3 0.000110000 9 Q R 108 + 8 [b]\n"
		"  8,0 0 4 0.000150000 9 Q R 500 + 8 [b]\n"
		"  8,0 0 5 0.000200000 0 C W 100 + 16 [0]\n"	/* other direction */
		"  8,0 0 6 0.000300000 0 C R 100 + 16 [0]\n"	/* merged: ends two */
		"  8,0 0 7 0.000400000 9 Q R 900 + 8 [b]\n"
		"  8,0 0 8 0.000500000 0 C R 500 + 4 [0]\n"	/* covers half: ends none */
		"  8,1 0 9 0.000600000 0 C R 500 + 8 [0]\n"	/* another device */
		"  8,0 0 10 0.000700000 9 Q R 1300 + 8 [b]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	long linked, n = parse_with_deps(text, &recs, &linked);

	assert_int_equal(n, 5);
	assert_int_equal(linked, 2);
	assert_int_equal(recs[0].depth, 1);
	assert_int_equal(recs[1].depth, 2);
	assert_int_equal(recs[1].think_ns, 10000);
	assert_int_equal(recs[2].depth, 3);
	assert_int_equal(recs[3].depth, 2);		/* 500 still in flight */
	assert_int_equal(recs[3].think_ns, 250000);	/* since its previous queue event */
	assert_int_equal(recs[4].depth, 3);		/* 500 and 900: never completed */
	kvfree(recs);
}

/* A completion lost by the tracer: the older record at the sector stays in flight. */
static void test_lost_completion_stays_in_flight(void **state)
{
	const char *text =
		"  8,0 0 1 0.000100000 5 Q WS 2000 + 8 [d]\n"	/* its C was lost */
		"  8,0 0 2 0.000500000 5 Q WS 2000 + 8 [d]\n"
		"  8,0 0 3 0.000600000 0 C WS 2000 + 8 [0]\n"
		"  8,0 0 4 0.000900000 5 Q WS 2008 + 8 [d]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	long linked, n = parse_with_deps(text, &recs, &linked);

	assert_int_equal(n, 3);
	assert_int_equal(linked, 1);
	assert_int_equal(recs[1].depth, 2);
	assert_int_equal(recs[2].depth, 2);		/* the first is still in flight */
	assert_int_equal(recs[2].think_ns, 400000);	/* since its previous queue event */
	kvfree(recs);
}

/*
 * Events of the same printed time go in the file's order, the tracer's (tracefs prints
 * microseconds of a nanosecond clock): a completion printed after a queue event of the same
 * microsecond came after it, and one printed before came before, in any layout.  The split bio
 * ahead (3000 sectors: two records) counts as the two records it makes.
 */
static void test_same_time_in_file_order(void **state)
{
	const char *text =
		"  8,0 0 1 0.000100000 5 Q W 9000 + 3000 [d]\n"	/* records 0 and 1 */
		"  8,0 0 2 0.000100000 5 Q R 1000 + 8 [d]\n"
		"  8,0 0 3 0.000200000 5 Q R 2000 + 8 [d]\n"		/* before its twin's C */
		"  8,0 0 4 0.000200000 0 C R 1000 + 8 [0]\n"
		"  8,0 0 5 0.000300000 0 C R 2000 + 8 [0]\n"		/* before the Q: ends first */
		"  8,0 0 6 0.000300000 5 Q R 3000 + 8 [d]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	long linked, n = parse_with_deps(text, &recs, &linked);

	(void)state;
	assert_int_equal(n, 5);
	assert_int_equal(linked, 2);
	assert_int_equal(recs[2].depth, 3);
	assert_int_equal(recs[3].depth, 4);	/* 1000 still in flight: its C is printed later */
	assert_int_equal(recs[4].depth, 3);	/* 1000 and 2000 done, the split bio's two not */
	kvfree(recs);
}

/* A write between two reads at one sector: the read's completion still ends only the newer. */
static void test_lost_completion_other_direction_between(void **state)
{
	const char *text =
		"  8,0 0 1 0.000100000 5 Q R 1000 + 8 [d]\n"	/* its C was lost */
		"  8,0 0 2 0.000200000 5 Q W 1000 + 8 [d]\n"
		"  8,0 0 3 0.000300000 5 Q R 1000 + 8 [d]\n"
		"  8,0 0 4 0.000400000 0 C R 1000 + 8 [0]\n"
		"  8,0 0 5 0.000500000 5 Q R 5000 + 8 [d]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	long linked, n = parse_with_deps(text, &recs, &linked);

	assert_int_equal(n, 4);
	assert_int_equal(linked, 1);
	assert_int_equal(recs[3].depth, 3);	/* the old read and the write still in flight */
	kvfree(recs);
}

/* A bio split into requests of 2560 sectors completes per part or as a whole. */
static void test_split_bio_completes(void **state)
{
	const char *text =
		"  8,0 0 1 0.000100000 4 Q WS 0 + 6000 [c]\n"
		"  8,0 0 2 0.002000000 0 C WS 0 + 6000 [0]\n"
		"  8,0 0 3 0.003000000 4 Q WS 6000 + 8 [c]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	long linked, n = parse_with_deps(text, &recs, &linked);

	assert_int_equal(n, 4);		/* 2560 + 2560 + 880, then 8 */
	assert_int_equal(linked, 3);
	assert_int_equal(recs[1].depth, 2);
	assert_int_equal(recs[2].depth, 3);
	assert_int_equal(recs[3].depth, 1);
	assert_int_equal(recs[3].think_ns, 1000000);
	kvfree(recs);
}

/*
 * A bio the device split to its own limits (a loop device's 512 KiB: "X WS 0 / 1024") completes
 * per part, and neither part covers the queued bio: it ends with the completion that covers its
 * last sectors, and stays in flight until then.
 */
static void test_device_split_bio_completes_per_part(void **state)
{
	const char *text =
		"  8,0 0 1 0.000100000 4 Q WS 0 + 2048 [c]\n"
		"  8,0 0 2 0.000100000 4 X WS 0 / 1024 [c]\n"
		"  8,0 0 3 0.000200000 0 C WS 0 + 1024 [0]\n"
		"  8,0 0 4 0.000250000 4 Q RS 9000 + 8 [c]\n"
		"  8,0 0 5 0.000300000 0 C WS 1024 + 1024 [0]\n"
		"  8,0 0 6 0.000350000 0 C RS 9000 + 8 [0]\n"
		"  8,0 0 7 0.000500000 4 Q WS 2048 + 8 [c]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	long linked, n = parse_with_deps(text, &recs, &linked);

	(void)state;
	assert_int_equal(n, 3);
	assert_int_equal(linked, 2);
	assert_int_equal(recs[1].depth, 2);		/* half the write still in flight */
	assert_int_equal(recs[1].think_ns, 150000);	/* since the write's queue event */
	assert_int_equal(recs[2].depth, 1);		/* both done */
	assert_int_equal(recs[2].think_ns, 150000);	/* since the read's completion */
	kvfree(recs);
}

/*
 * The rules against a brute-force reading of them, on random traces: Q and C events of three
 * processes on two devices, both directions, overlapping sectors, bios longer than 2560
 * sectors, completions that are exact, split in two parts, merged (wider), stray or of the
 * wrong direction, some lost, and ties in time.  The brute force keeps every record in flight
 * in a plain array and looks at all of them for each completion (no tree, no look-back window).
 */
#define BRUTE_MAX 256
#define BRUTE_TEXT (1 << 16)

struct brute_rec {
	u64 t, s, n, covered;
	int pid, dev;
	bool w, in_flight;
};

struct brute_done {
	u64 t, s, e;
	size_t before; /* the records the Q events before it make */
	int dev;
	bool w;
};

struct brute_proc {
	unsigned int inflight;
	bool has_done;
	u64 last_done, last_queued;
};

struct brute_trace {
	struct brute_rec r[BRUTE_MAX];
	struct brute_done d[BRUTE_MAX];
	struct brute_proc procs[3];
	size_t nr, nd, len;
	char *text;
	u64 t;
};

static u64 rng_next(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void brute_line(struct brute_trace *b, int dev, int ev, int pid, char action, bool w,
		       u64 sector, u64 count)
{
	b->len += (size_t)snprintf(b->text + b->len, BRUTE_TEXT - b->len,
				   "8,%d 0 %d %llu.%09llu %d %c %s %llu + %llu [x]\n", dev, ev,
				   (unsigned long long)(b->t / 1000000000),
				   (unsigned long long)(b->t % 1000000000), pid, action,
				   w ? "WS" : "RS", (unsigned long long)sector,
				   (unsigned long long)count);
}

/* A queue event: one record per 2560 sectors, as the reader splits it. */
static void brute_queue(struct brute_trace *b, int ev, u64 pick)
{
	static const u64 secs[] = {0, 8, 16, 1000, 1008, 2048};
	static const u64 lens[] = {8, 8, 16, 1024, 2048, 3000, 6000};
	u64 sec = (pick >> 20) % 7 == 6 ? (pick >> 24) % 8000 : secs[(pick >> 20) % 6];
	u64 cnt = (pick >> 32) % 8 == 7 ? 1 + (pick >> 36) % 5000 : lens[(pick >> 32) % 7];
	int dev = (pick >> 1) % 3 == 2, pid = (int)((pick >> 3) % 3);

	brute_line(b, dev, ev, pid + 3, 'Q', pick & 1, sec, cnt);
	for (u64 done = 0; done < cnt && b->nr < BRUTE_MAX; done += 2560) {
		struct brute_rec *r = &b->r[b->nr++];

		*r = (struct brute_rec){.t = b->t, .s = sec + done, .pid = pid, .dev = dev};
		r->n = cnt - done < 2560 ? cnt - done : 2560;
		r->w = pick & 1;
	}
}

/* A completion of a random queued record: exact, in two parts, wider, stray; the direction
 * wrong one time in seven. */
static void brute_completion(struct brute_trace *b, int ev, u64 pick)
{
	const struct brute_rec *q = &b->r[(pick >> 16) % b->nr];
	u64 kind = (pick >> 24) % 10, cut = q->n > 1 ? 1 + (pick >> 40) % (q->n - 1) : 1;
	u64 part[2][2] = {{q->s, q->n}, {0, 0}};
	bool w = (pick >> 28) % 7 ? q->w : !q->w;

	if (kind >= 3 && kind < 6 && q->n > 1) {
		part[0][1] = cut;
		part[1][0] = q->s + cut;
		part[1][1] = q->n - cut;
	} else if (kind >= 6 && kind < 8) {
		part[0][0] = q->s > 64 ? q->s - 64 : 0;
		part[0][1] = q->n + 128;
	} else if (kind >= 8) {
		part[0][0] = (pick >> 44) % 8000;
		part[0][1] = 1 + (pick >> 50) % 3000;
	}
	for (int p = 0; p < 2 && part[p][1] && b->nd < BRUTE_MAX; p++) {
		brute_line(b, q->dev, ev, 0, 'C', w, part[p][0], part[p][1]);
		b->d[b->nd++] = (struct brute_done){b->t, part[p][0], part[p][0] + part[p][1],
						    b->nr, q->dev, w};
	}
}

static u64 brute_overlap(const struct brute_done *c, const struct brute_rec *r)
{
	u64 lo = max(r->s, c->s), hi = min(r->s + r->n, c->e);

	return r->dev == c->dev && r->w == c->w && lo < hi ? hi - lo : 0;
}

/* Whether a newer record in flight overlaps the part of record @i that @c covers. */
static bool brute_newer_overlaps(const struct brute_trace *b, size_t i, const struct brute_done *c)
{
	u64 lo = max(b->r[i].s, c->s), hi = min(b->r[i].s + b->r[i].n, c->e);

	for (size_t j = i + 1; j < b->nr; j++) {
		const struct brute_rec *o = &b->r[j];

		if (o->in_flight && brute_overlap(c, o) && o->s < hi && o->s + o->n > lo)
			return true;
	}
	return false;
}

static long brute_complete(struct brute_trace *b, const struct brute_done *c)
{
	u64 add[BRUTE_MAX] = {0};
	long ended = 0;

	for (size_t i = 0; i < b->nr; i++)
		if (b->r[i].in_flight && !brute_newer_overlaps(b, i, c))
			add[i] = brute_overlap(c, &b->r[i]);
	for (size_t i = 0; i < b->nr; i++) {
		struct brute_rec *r = &b->r[i];
		struct brute_proc *p = &b->procs[r->pid];

		if (!r->in_flight || !brute_overlap(c, r))
			continue;
		r->covered += add[i];
		if (r->covered < r->n)
			continue;
		r->in_flight = false;
		p->inflight--;
		p->has_done = true;
		p->last_done = c->t;
		ended++;
	}
	return ended;
}

/* The brute force over the trace (times never go back here: file order is time order). */
static void brute_check(struct brute_trace *b, const struct kfsim_blktrace_rec *recs, long linked)
{
	long ended = 0;
	size_t k = 0;

	for (size_t i = 0; i < b->nr; i++) {
		struct brute_proc *p = &b->procs[b->r[i].pid];
		unsigned int depth;
		u64 think;

		while (k < b->nd && (b->d[k].t < b->r[i].t ||
				     (b->d[k].t == b->r[i].t && b->d[k].before <= i)))
			ended += brute_complete(b, &b->d[k++]);
		depth = p->inflight + 1;
		think = p->inflight ? b->r[i].t - p->last_queued
			: p->has_done ? b->r[i].t - p->last_done : 0;
		p->inflight++;
		p->last_queued = b->r[i].t;
		b->r[i].in_flight = true;
		if (!b->nd)
			depth = 0, think = 0; /* no completion at all: nothing to follow */
		assert_int_equal(recs[i].depth, depth);
		assert_int_equal(recs[i].think_ns, think);
	}
	while (k < b->nd)
		ended += brute_complete(b, &b->d[k++]);
	assert_int_equal(linked, ended);
}

static void test_random_traces_match_brute_force(void **state)
{
	static struct brute_trace b;
	unsigned int traces = 600;
	u64 x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (unsigned int trace = 0; trace < traces; trace++) {
		struct kfsim_blktrace_rec *recs = NULL;
		long linked, n;

		memset(&b, 0, sizeof(b));
		b.text = kvzalloc(BRUTE_TEXT, GFP_KERNEL);
		b.t = 100000;
		assert_non_null(b.text);
		for (int ev = 0, evs = 1 + (int)(rng_next(&x) % 50); ev < evs; ev++) {
			u64 pick = rng_next(&x);

			b.t += (pick >> 8) % 3 == 0 ? 0 : (pick >> 10) % 2 ? 1000 : 100000;
			if (!b.nr || (pick >> 12) % 100 < 55)
				brute_queue(&b, ev, pick);
			else
				brute_completion(&b, ev, pick);
		}
		n = parse_with_deps(b.text, &recs, &linked);
		assert_int_equal(n, (long)b.nr);
		brute_check(&b, recs, linked);
		kvfree(recs);
		kvfree(b.text);
	}
	print_message("%u random traces: every depth, think time and ended record as the brute "
		      "force has them\n", traces);
}

/* No completion in the trace: nothing to follow, every depth 0. */
static void test_no_completions(void **state)
{
	const char *text = "  8,0 0 1 0.0001 4 Q R 0 + 8 [c]\n  8,0 0 2 0.0002 4 Q R 8 + 8 [c]\n";
	struct kfsim_blktrace_rec *recs = NULL;
	long linked, n = parse_with_deps(text, &recs, &linked);

	assert_int_equal(n, 2);
	assert_int_equal(linked, 0);
	assert_int_equal(recs[0].depth, 0);
	assert_int_equal(recs[1].depth, 0);
	kvfree(recs);
}

/* One process, @nr random 4 KiB reads 100 us apart, each done 50 us later (a fast device). */
static char *fast_device_trace(unsigned int nr)
{
	size_t cap = (size_t)nr * 120, used = 0;
	char *text = kvzalloc(cap, GFP_KERNEL);

	assert_non_null(text);
	for (unsigned int i = 0; i < nr; i++) {
		unsigned long long sector = (i * 7919ULL % 1000) * 1000000ULL;

		used += (size_t)snprintf(text + used, cap - used,
					 "  8,0 0 %u 0.%06u 42 Q RS %llu + 8 [r]\n"
					 "  8,0 0 %u 0.%06u 0 C RS %llu + 8 [0]\n", 2 * i + 1,
					 100 * i, sector, 2 * i + 2, 100 * i + 50, sector);
	}
	return text;
}

static const struct kfsim_bfq_sim_result *replay(struct kfsim_bfq_sim **sim,
						 const struct kfsim_blktrace_rec *recs, size_t nr,
						 bool closed)
{
	struct kfsim_bfq_sim_config cfg;

	kfsim_bfq_sim_config_default(&cfg);
	cfg.replay = recs;
	cfg.nr_replay = nr;
	cfg.replay_closed = closed;
	cfg.duration_ns = 10ULL * 1000000000ULL;
	*sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(*sim));
	assert_int_equal(kfsim_bfq_sim_run(*sim), 0);
	return kfsim_bfq_sim_result(*sim);
}

/*
 * The traced device was faster than the simulated disk.  Open-loop, the records arrive at the
 * trace's times and queue up behind the disk; closed-loop, the process waits for each before
 * the next, as it did: one in flight, its latency the disk's service alone, every record
 * issued, and the run over when the last completes rather than at the duration.
 */
static void test_closed_loop_follows_the_process(void **state)
{
	char *text = fast_device_trace(40);
	struct kfsim_blktrace_rec *recs = NULL;
	const struct kfsim_bfq_sim_result *open, *closed;
	struct kfsim_bfq_sim *s_open, *s_closed;
	long linked, n = parse_with_deps(text, &recs, &linked);
	double open_lat, closed_lat;

	assert_int_equal(n, 40);
	assert_int_equal(linked, 40);
	for (long i = 0; i < n; i++)
		assert_int_equal(recs[i].depth, 1);
	open = replay(&s_open, recs, (size_t)n, false);
	closed = replay(&s_closed, recs, (size_t)n, true);
	open_lat = open->jobs[0].lat_mean_us;
	closed_lat = closed->jobs[0].lat_mean_us;
	print_message("40 reads: open loop mean latency %.0f us, issue lag %.0f us mean; closed "
		      "loop %.0f us, makespan %.3f s, run %.3f s\n", open_lat,
		      open->replay_lag_mean_us, closed_lat, closed->replay_makespan_s,
		      closed->duration_s);
	assert_int_equal(open->completed, 40);
	assert_int_equal(closed->completed, 40);
	assert_int_equal(closed->replay_issued, 40);
	/* open: queued behind each other; closed: each alone on the disk */
	assert_true(open_lat > 3 * closed_lat);
	assert_true(closed->jobs[0].lat_max_us < 2 * closed_lat + 1000);
	/* closed: each waits for the one before, so the last completes after all 40 services */
	assert_true(closed->replay_makespan_s * 1e6 >= 40 * closed_lat * 0.99);
	/* the run ends with the replay, not at the 10 s duration */
	assert_true(closed->duration_s < 9.0);
	assert_true(closed->duration_s >= closed->replay_makespan_s - 1e-9);
	kfsim_bfq_sim_destroy(s_open);
	kfsim_bfq_sim_destroy(s_closed);
	kvfree(recs);
	kvfree(text);
}

/*
 * The trace we took: fio's QD4 reader shows its depth.  The trace lacks the completions of 17 of
 * the writer's writes (its first 16 and one later: the tracer's buffer overflowed); those stay
 * in flight to the end, so the writer's depth grows with each, as the function's contract says.
 */
static void test_taken_trace_depths(void **state)
{
	const char *path = KFSIM_SOURCE_DIR "/examples/bfq/tracefs-blk-loop0.txt";
	struct kfsim_blktrace_rec *recs = NULL;
	unsigned int reader_max = 0, writer_max = 0, reader_recs = 0;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	FILE *in = fopen(path, "r");
	char *text = kvzalloc(1 << 20, GFP_KERNEL);
	long n, linked;
	size_t len;

	assert_non_null(in);
	assert_non_null(text);
	len = fread(text, 1, (1 << 20) - 1, in);
	fclose(in);
	assert_true(len > 0);
	n = parse_with_deps(text, &recs, &linked);
	assert_int_equal(n, 135);
	for (long i = 1; i < n; i++)	/* the trace's first event is time 0, as kfsim bfq has it */
		recs[i].time_ns -= recs[0].time_ns;
	recs[0].time_ns = 0;
	for (long i = 0; i < n; i++) {
		if (recs[i].pid == 15533) {
			reader_max = recs[i].depth > reader_max ? recs[i].depth : reader_max;
			reader_recs++;
		} else {
			writer_max = recs[i].depth > writer_max ? recs[i].depth : writer_max;
		}
	}
	print_message("tracefs trace: %ld records, %ld ended by a completion; reader (fio "
		      "iodepth=4, %u records) up to %u in flight, writer up to %u (its lost "
		      "completions)\n", n, linked, reader_recs, reader_max, writer_max);
	assert_int_equal(linked, 118);
	assert_int_equal(reader_recs, 81);
	assert_int_equal(reader_max, 4);
	assert_int_equal(writer_max, 17);
	res = replay(&sim, recs, (size_t)n, true);
	assert_int_equal(res->replay_issued, 135);
	assert_int_equal(res->completed, 135);
	kfsim_bfq_sim_destroy(sim);
	kvfree(recs);
	kvfree(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sync_process_depth_one_and_think),
		cmocka_unit_test(test_async_process_merges_and_misses),
		cmocka_unit_test(test_lost_completion_stays_in_flight),
		cmocka_unit_test(test_same_time_in_file_order),
		cmocka_unit_test(test_lost_completion_other_direction_between),
		cmocka_unit_test(test_split_bio_completes),
		cmocka_unit_test(test_device_split_bio_completes_per_part),
		cmocka_unit_test(test_random_traces_match_brute_force),
		cmocka_unit_test(test_no_completions),
		cmocka_unit_test(test_closed_loop_follows_the_process),
		cmocka_unit_test(test_taken_trace_depths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
