// SPDX-License-Identifier: MIT
/*
 * The drive obeys physics, over a sweep of workloads (block sizes, depths, think times, reads,
 * writes, write cache, one and two streams), schedulers and 1-2 actuators:
 * - what the heads moved (commands, read-ahead, destages) fits in the media rate times the busy
 *   time, so what an actuator delivers is at most that plus what reads took from the cache;
 * - reads take from the cache at most what the read-ahead and cached writes put there;
 * - the busy time is within the run and the drain of what was in flight at its end (cached
 *   writes included: the write cache drains at the media rate);
 * - a region larger than the cache, read in a loop, comes off the media again each time round:
 *   random reads hit at most cache/region of the time, sequential passes re-read all but one
 *   cache's worth from the media;
 * - sequential throughput does not fall with the queue depth;
 * - a sync returns once the file's data is on the media, whoever sent it there.
 * Simulated outputs are deterministic for a seed: the bounds are physics, not timings.
 */
#include <math.h>
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
#include <kfsim/hdd_sim.h>

#ifdef KFSIM_ASAN
#define SWEEP_NS 100000000ULL		/* 0.1 s simulated per run under sanitizers */
#else
#define SWEEP_NS 300000000ULL
#endif

static void add_job(struct kfsim_bfq_sim_config *cfg, const char *spec)
{
	char err[160];

	assert_int_equal(kfsim_bfq_job_parse(spec, &cfg->jobs[cfg->nr_jobs], err, sizeof(err)), 0);
	cfg->nr_jobs++;
}

static struct kfsim_bfq_sim *run(const struct kfsim_bfq_sim_config *cfg)
{
	struct kfsim_bfq_sim *sim = kfsim_bfq_sim_create(cfg);

	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	return sim;
}

/* One workload of the sweep: up to two jobs ("|" between them) and the write cache. */
struct workload {
	const char *jobs;
	bool write_cache;
};

static const struct workload sweep[] = {
	{ "rw=read,bs=4k,iodepth=1" },
	{ "rw=read,bs=4k,iodepth=16,thinktime=500" },
	{ "rw=read,bs=256k,iodepth=16" },
	{ "rw=read,bs=1m,iodepth=1,thinktime=10000" },
	{ "rw=read,bs=64k,iodepth=2,thinktime=3000" },
	{ "name=a,rw=read,bs=1m,iodepth=4|name=b,rw=read,bs=1m,iodepth=4,offset=50%" },
	{ "name=a,rw=read,bs=128k,iodepth=2|name=b,rw=read,bs=128k,offset=10%,iodepth=2" },
	{ "name=a,rw=read,bs=64k,thinktime=2000|name=b,rw=randread,bs=4k,iodepth=8" },
	{ "rw=randread,bs=4k,iodepth=16" },
	{ "rw=randread,bs=64k,iodepth=4,thinktime=2000" },
	{ "rw=write,bs=1m,iodepth=16" },
	{ "rw=write,bs=4k,iodepth=1" },
	{ "rw=randwrite,bs=4k,iodepth=8", true },
	{ "name=a,rw=write,bs=256k,iodepth=4|name=b,rw=read,bs=256k,offset=50%,iodepth=4", true },
};

static void add_jobs(struct kfsim_bfq_sim_config *cfg, const char *jobs)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", jobs);
	for (char *spec = strtok_r(buf, "|", &save); spec; spec = strtok_r(NULL, "|", &save))
		add_job(cfg, spec);
}

/*
 * Time the work already committed at the end may still take (the busy time counts it): the
 * NCQ's commands of up to 2 MiB and the write cache full of the smallest writes, each with a
 * full seek, settle, overhead and turn, its data at the innermost rate; 0.1 s beside.  Loose for
 * a slow drive, but a busy time past it is work no clock saw.
 */
static double drain_ns(const struct kfsim_hdd_params *p, double od_rate)
{
	double per_cmd_ms = p->seek_min_ms + p->seek_coeff_ms + p->write_settle_ms +
			    p->cmd_overhead_ms + 60000.0 / p->rpm;
	double cmds = p->ncq_depth + (p->write_cache ? p->write_cache_mib * 2048.0 : 0);
	double bytes = p->ncq_depth * 2097152.0 + (p->write_cache ? p->write_cache_mib * 1048576.0
							    : 0) + p->readahead_kib * 1024.0;

	return 1e8 + cmds * per_cmd_ms * 1e6 + bytes / (od_rate * p->zone_ratio) * 1e9;
}

/*
 * The invariants of one actuator after a run of @duration_ns; returns its utilisation.
 * @read_once: the sweep's workloads: each byte read at most once, so the cache can have given at
 * most what was put in it (two jobs reading one region both hit the same read-ahead), and the
 * calibrated drive, which finishes what is in flight within 0.1 s (a generated one: drain_ns()).
 */
static double check_actuator(const struct kfsim_hdd *hdd, unsigned int a, u64 duration_ns,
			     const char *what, bool read_once)
{
	const struct kfsim_hdd_params *p = kfsim_hdd_params_of(hdd);
	struct kfsim_hdd_actuator_stats st = kfsim_hdd_actuator_stats(hdd, a);
	sector_t start = (sector_t)((unsigned __int128)p->capacity * a / p->nr_actuators);
	double rate;

	/* the actuator's first sector (a range start is rounded: 3 actuators do not divide) */
	while (kfsim_hdd_actuator_of(hdd, start) < a)
		start++;
	rate = kfsim_hdd_media_rate(hdd, start);	/* the outer diameter: the fastest */
	double media_cap = rate * (double)st.busy_ns * 1e-9 * 1.0001 + 4096;

	if ((double)st.media_bytes > media_cap || (double)st.bytes > media_cap +
	    (double)st.cache_bytes + (double)st.cached_write_bytes ||
	    (read_once && st.cache_bytes > st.fill_bytes + st.cached_write_bytes) ||
	    st.fill_bytes > st.media_bytes ||
	    (double)st.busy_ns > (double)max(duration_ns, kfsim_hdd_now(hdd)) +
				 (read_once ? 1e8 : drain_ns(p, rate)))
		fail_msg("%s, actuator %u: delivered %llu B, media %llu B (cap %.0f at %.0f B/s over "
			 "%llu ns busy), cache %llu B, filled %llu B, cached writes %llu B",
			 what, a, (unsigned long long)st.bytes, (unsigned long long)st.media_bytes,
			 media_cap, rate, (unsigned long long)st.busy_ns,
			 (unsigned long long)st.cache_bytes, (unsigned long long)st.fill_bytes,
			 (unsigned long long)st.cached_write_bytes);
	return (double)st.busy_ns / (double)duration_ns;
}

static void test_invariants_over_the_sweep(void **state)
{
	static const enum kfsim_bfq_sched scheds[] = {
		KFSIM_SCHED_NONE, KFSIM_SCHED_MQ_DEADLINE, KFSIM_SCHED_BFQ, KFSIM_SCHED_BFQ_62,
	};
	unsigned int runs = 0;

	for (unsigned int acts = 1; acts <= 2; acts++) {
		for (size_t s = 0; s < ARRAY_SIZE(scheds); s++) {
			for (size_t w = 0; w < ARRAY_SIZE(sweep); w++) {
				struct kfsim_bfq_sim_config cfg;
				struct kfsim_bfq_sim *sim;
				char what[320];

				kfsim_bfq_sim_config_default(&cfg);
				cfg.disk.nr_actuators = acts;
				cfg.disk.write_cache = sweep[w].write_cache;
				cfg.sched = scheds[s];
				cfg.duration_ns = SWEEP_NS;
				add_jobs(&cfg, sweep[w].jobs);
				snprintf(what, sizeof(what), "%u actuator(s), %s, %s%s", acts,
					 kfsim_bfq_sched_name(scheds[s]), sweep[w].jobs,
					 sweep[w].write_cache ? ", write cache" : "");
				sim = run(&cfg);
				for (unsigned int a = 0; a < acts; a++) {
					double util = check_actuator(kfsim_bfq_sim_hdd(sim), a,
								     SWEEP_NS, what, true);
					const struct kfsim_bfq_actuator_result *ar =
						&kfsim_bfq_sim_result(sim)->actuator[a];

					/* the utilisation reported is the drive's busy time */
					assert_true(fabs(ar->utilisation - fmin(1.0, util)) < 1e-9);
					/* and busy means data moved, idle that none did */
					assert_true((ar->requests > 0) == (util > 0));
				}
				kfsim_bfq_sim_destroy(sim);
				runs++;
			}
		}
	}
	print_message("drive invariants held in %u runs (%zu workloads x 4 schedulers x 1-2 "
		      "actuators)\n", runs, ARRAY_SIZE(sweep));
}

/*
 * Workloads and drives nobody picked: a seeded generator draws the drive (actuators, capacity,
 * rpm, sectors per track, zoning, link, NCQ depth, caches, write cache), the scheduler and one
 * to four jobs (every rw, odd block sizes, depths, think times, regions, rates, buffered
 * writes), and the same physics must hold: per actuator what check_actuator() asks, and for
 * the drive that no more crossed its one link than the link's rate allows in the time the run
 * and its drain took.  KFSIM_PHYSICS_RUNS widens the sweep (CI: 300 drives), and
 * KFSIM_PHYSICS_FIRST starts it at another run (seeds nobody ran: 30001 on).
 */
static u64 gen_state;

static u64 gen_next(void)
{
	/* xorshift64*: deterministic for the seed, whatever the platform's rand() */
	gen_state ^= gen_state >> 12;
	gen_state ^= gen_state << 25;
	gen_state ^= gen_state >> 27;
	return gen_state * 2685821657736338717ULL;
}

static unsigned int gen_pick(unsigned int n)
{
	return (unsigned int)(gen_next() % n);
}

static double gen_range(double lo, double hi)
{
	return lo + (hi - lo) * (double)(gen_next() >> 11) / 9007199254740992.0;
}

static void gen_drive(struct kfsim_hdd_params *d)
{
	static const sector_t capacities[] = { 1ULL << 21, 1ULL << 24, 1ULL << 28, 0 };
	sector_t capacity = capacities[gen_pick(ARRAY_SIZE(capacities))];

	kfsim_hdd_params_default(d, 1 + gen_pick(4));
	if (capacity)
		d->capacity = capacity;
	d->rpm = gen_range(4200, 15000);
	d->spt_od = 64 + gen_pick(8000);
	d->zone_ratio = gen_range(0.2, 1.0);
	d->link_mb_s = gen_pick(3) ? gen_range(400, 1200) : gen_range(20, 300);
	d->ncq_depth = 1 + gen_pick(64);
	d->readahead_kib = gen_pick(4) ? 64u << gen_pick(6) : 0;
	d->cache_mib = 4u << gen_pick(8);
	d->write_cache = gen_pick(2);
	d->write_cache_mib = d->cache_mib / 2;
}

/* One job: rw, block size, depth, and some of think time, region, rate, engine. */
static int gen_job(char *spec, size_t size, unsigned int i)
{
	static const char *const rws[] = { "read", "write", "randread", "randwrite", "rw",
					   "randrw" };
	static const char *const bss[] = { "512", "4k", "8k", "12k", "64k", "128k", "1m", "2m",
					   "4k-64k" };
	int n = snprintf(spec, size, "name=j%u,rw=%s,bs%s=%s,iodepth=%u", i,
			 rws[gen_pick(ARRAY_SIZE(rws))], "", bss[gen_pick(ARRAY_SIZE(bss))],
			 1u << gen_pick(7));

	if (strchr(spec, '-'))		/* a range is bsrange=, not bs= */
		n = snprintf(spec, size, "name=j%u,rw=%s,bsrange=4k-64k,iodepth=%u", i,
			     rws[gen_pick(ARRAY_SIZE(rws))], 1u << gen_pick(7));
	if (gen_pick(3) == 0)
		n += snprintf(spec + n, size - (size_t)n, ",thinktime=%u", gen_pick(20000));
	if (gen_pick(3) == 0) {
		unsigned int off = gen_pick(90);

		n += snprintf(spec + n, size - (size_t)n, ",offset=%u%%,size=%u%%", off,
			      1 + gen_pick(100 - off));
	}
	if (gen_pick(5) == 0)
		n += snprintf(spec + n, size - (size_t)n, ",rate=%um", 1 + gen_pick(400));
	if (gen_pick(4) == 0)
		n += snprintf(spec + n, size - (size_t)n, ",direct=0");
	else if (gen_pick(2))
		n += snprintf(spec + n, size - (size_t)n, ",ioengine=libaio,direct=1");
	return n;
}

static void test_invariants_on_generated_drives(void **state)
{
	static const enum kfsim_bfq_sched scheds[] = {
		KFSIM_SCHED_NONE, KFSIM_SCHED_MQ_DEADLINE, KFSIM_SCHED_BFQ, KFSIM_SCHED_BFQ_62,
	};
	const char *env = getenv("KFSIM_PHYSICS_RUNS"), *first_env = getenv("KFSIM_PHYSICS_FIRST");
	unsigned int runs = env ? (unsigned int)strtoul(env, NULL, 10) : 300, refused = 0;
	unsigned int first = first_env ? (unsigned int)strtoul(first_env, NULL, 10) : 0;
	unsigned int moved = 0;

	(void)state;
	for (unsigned int r = first; r < first + runs; r++) {
		struct kfsim_bfq_sim_config cfg;
		struct kfsim_bfq_sim *sim;
		const struct kfsim_hdd_params *p;
		char what[1024], spec[256], err[256];
		unsigned int nr_jobs;
		double link_cap, delivered = 0;
		u64 end;
		int n;

		gen_state = 0x9e3779b97f4a7c15ULL * (r + 1);
		kfsim_bfq_sim_config_default(&cfg);
		gen_drive(&cfg.disk);
		cfg.sched = scheds[gen_pick(ARRAY_SIZE(scheds))];
		cfg.duration_ns = SWEEP_NS;
		nr_jobs = 1 + gen_pick(4);
		n = snprintf(what, sizeof(what), "run %u: %u actuator(s), %.0f rpm, spt %u, link "
			     "%.0f MB/s, cache %u MiB%s, %s:", r, cfg.disk.nr_actuators, cfg.disk.rpm,
			     cfg.disk.spt_od, cfg.disk.link_mb_s, cfg.disk.cache_mib,
			     cfg.disk.write_cache ? " (write cache)" : "",
			     kfsim_bfq_sched_name(cfg.sched));
		for (unsigned int j = 0; j < nr_jobs; j++) {
			gen_job(spec, sizeof(spec), j);
			if (kfsim_bfq_job_parse(spec, &cfg.jobs[cfg.nr_jobs], err, sizeof(err)))
				fail_msg("generated job '%s' refused: %s", spec, err);
			cfg.nr_jobs++;
			n += snprintf(what + n, sizeof(what) - (size_t)n, " [%s]", spec);
		}
		sim = kfsim_bfq_sim_create_msg(&cfg, err, sizeof(err));
		if (IS_ERR(sim)) {
			/* a drive too small for the regions asked: refused with a reason is fine */
			assert_int_equal(PTR_ERR(sim), -EINVAL);
			assert_true(err[0] != '\0');
			refused++;
			continue;
		}
		assert_int_equal(kfsim_bfq_sim_run(sim), 0);
		p = kfsim_hdd_params_of(kfsim_bfq_sim_hdd(sim));
		for (unsigned int a = 0; a < p->nr_actuators; a++) {
			check_actuator(kfsim_bfq_sim_hdd(sim), a, SWEEP_NS, what, false);
			delivered += (double)kfsim_hdd_actuator_stats(kfsim_bfq_sim_hdd(sim), a).bytes;
		}
		moved += delivered > 0;
		/* one link for all actuators: bytes over it within its rate, drain included */
		end = max(SWEEP_NS, kfsim_hdd_now(kfsim_bfq_sim_hdd(sim)));
		link_cap = p->link_mb_s * 1e6 * (double)end * 1e-9 * 1.0001 + 2.0 * 1048576;
		if (delivered > link_cap)
			fail_msg("%s: %.0f B crossed a %.0f MB/s link in %llu ns (cap %.0f)", what,
				 delivered, p->link_mb_s, (unsigned long long)end, link_cap);
		kfsim_bfq_sim_destroy(sim);
	}
	print_message("drive invariants held on %u generated drives and workloads (%u moved bytes, "
		      "%u refused with a reason)\n", runs - refused, moved, refused);
	/*
	 * Most runs measured (KFSIM_PHYSICS_RUNS=1 too: refused < runs / 2 was 0 < 0 there), and
	 * most of those moved bytes: a run that moved none (buffered writes that no writeback
	 * reached in the run may rightly move none) holds every bound without proving any.
	 */
	assert_true(runs > 0 && refused * 2 < runs);
	assert_true(moved * 4 > (runs - refused) * 3);
}

/* A region four times the cache, read in a loop. */
static void test_region_larger_than_cache(void **state)
{
	static const char *const jobs[] = {
		"rw=randread,bs=4k,iodepth=4,size=64m",
		"rw=randread,bs=4k,iodepth=1,thinktime=5000,size=64m",
		"rw=read,bs=256k,size=64m",
		"rw=read,bs=64k,iodepth=8,size=64m",
	};

	for (size_t j = 0; j < ARRAY_SIZE(jobs); j++) {
		struct kfsim_bfq_sim_config cfg;
		struct kfsim_bfq_sim *sim;
		struct kfsim_hdd_actuator_stats st;
		double cache_bytes = 16.0 * 1048576 / 2, region = 64.0 * 1048576;
		double hits;

		kfsim_bfq_sim_config_default(&cfg);
		cfg.sched = KFSIM_SCHED_NONE;
		cfg.disk.cache_mib = 16;	/* 8 MiB for each of the two actuators */
		cfg.duration_ns = 2000000000ULL;
		add_job(&cfg, jobs[j]);
		sim = run(&cfg);
		st = kfsim_hdd_actuator_stats(kfsim_bfq_sim_hdd(sim), 0);
		hits = (double)st.nr_cache_hits / (double)st.nr_commands;
		print_message("%s: %llu reads, %.1f%% hits, %.0f MB delivered, %.0f MB off the "
			      "media\n", jobs[j], (unsigned long long)st.nr_commands, hits * 100,
			      st.bytes / 1e6, st.media_bytes / 1e6);
		if (strstr(jobs[j], "randread"))
			assert_true(hits <= cache_bytes / region * 1.1);
		else	/* every pass but one cache's worth comes off the media again */
			assert_true((double)st.media_bytes >= (double)st.bytes - cache_bytes);
		assert_true(st.bytes > 4 * region || strstr(jobs[j], "randread"));
		kfsim_bfq_sim_destroy(sim);
	}
}

static double seq_mb_s(enum kfsim_bfq_sched sched, const char *rw, const char *bs,
		       unsigned int depth)
{
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_bfq_sim *sim;
	char spec[96];
	double mb_s;

	kfsim_bfq_sim_config_default(&cfg);
	cfg.sched = sched;
	cfg.duration_ns = SWEEP_NS;
	snprintf(spec, sizeof(spec), "rw=%s,bs=%s,iodepth=%u", rw, bs, depth);
	add_job(&cfg, spec);
	sim = run(&cfg);
	mb_s = kfsim_bfq_sim_result(sim)->mb_s;
	kfsim_bfq_sim_destroy(sim);
	return mb_s;
}

static void test_sequential_throughput_does_not_fall_with_depth(void **state)
{
	static const enum kfsim_bfq_sched scheds[] = {
		KFSIM_SCHED_NONE, KFSIM_SCHED_MQ_DEADLINE, KFSIM_SCHED_BFQ,
	};
	static const char *const rws[] = { "read", "write" };
	static const char *const sizes[] = { "4k", "64k", "1m" };
	static const unsigned int depths[] = { 1, 2, 4, 8, 16, 32 };

	for (size_t s = 0; s < ARRAY_SIZE(scheds); s++) {
		for (size_t r = 0; r < ARRAY_SIZE(rws); r++) {
			for (size_t b = 0; b < ARRAY_SIZE(sizes); b++) {
				double prev = 0;
				char line[200];
				int len = 0;

				for (size_t d = 0; d < ARRAY_SIZE(depths); d++) {
					double mb_s = seq_mb_s(scheds[s], rws[r], sizes[b],
							       depths[d]);

					len += snprintf(line + len, sizeof(line) - (size_t)len,
							" QD%u %.1f", depths[d], mb_s);
					if (mb_s < prev * 0.99)
						fail_msg("%s %s bs=%s:%s MB/s: fell with depth",
							 kfsim_bfq_sched_name(scheds[s]), rws[r],
							 sizes[b], line);
					prev = fmax(prev, mb_s);
				}
				print_message("%s %s bs=%s:%s MB/s\n", kfsim_bfq_sched_name(scheds[s]),
					      rws[r], sizes[b], line);
			}
		}
	}
}

/*
 * The reported figures are over the time their bytes took.  Buffered writers end at their last
 * copy into the page cache (here 0.13 s into the run), and the run ended there; the flusher's
 * writeback kept completing until 0.5 s, and those bytes were divided by 0.13 s: one 277 MB/s
 * actuator "delivered" 398 MB/s (found by tests/bfq/fio_physics.py, seed 53).
 */
static void test_reported_rate_covers_the_drain(void **state)
{
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	double media, counted = 0;

	(void)state;
	kfsim_bfq_sim_config_default(&cfg);
	cfg.disk.nr_actuators = 1;
	cfg.sched = KFSIM_SCHED_MQ_DEADLINE;
	cfg.duration_ns = 500000000ULL;
	cfg.seed = 53;
	add_job(&cfg, "name=a,rw=randwrite,bs=1m,size=512m,io_size=512m,offset=66%,"
		"ioengine=libaio,iodepth=32,direct=0");
	add_job(&cfg, "name=b,rw=randwrite,bs=1m,size=512m,io_size=512m,offset=66%,"
		"ioengine=libaio,iodepth=32,direct=0");
	sim = run(&cfg);
	res = kfsim_bfq_sim_result(sim);
	media = kfsim_hdd_media_rate(kfsim_bfq_sim_hdd(sim), 0);	/* outer zone */
	for (unsigned int j = 0; j < res->nr_jobs; j++)
		if (!strcmp(res->jobs[j].name, "writeback"))
			counted = (double)res->jobs[j].bytes;
	/* the case is the one that failed: the writers ended early, the flusher moved bytes */
	assert_true(counted > 0);
	assert_true(res->jobs[0].active_s < 0.2);
	assert_true(res->duration_s > res->jobs[0].active_s);
	assert_true(res->duration_s <= 0.5);
	assert_true(res->actuator[0].mb_s * 1e6 <= media * 1.0001);
	/* and the rate is those bytes over that time, nothing else */
	assert_true(fabs(res->actuator[0].mb_s - counted / 1e6 / res->duration_s) < 1e-6);
	kfsim_bfq_sim_destroy(sim);
}

/*
 * An fsync returns once the file's data is on the media: it waits for every writeback of the
 * file in flight, not only for the writes it sent itself (__filemap_fdatawait_range()).  Four
 * buffered writers of the same 8 KiB with end_fsync: the first one's sync sent all four
 * extents, and the other three found nothing left to send and none of their own in flight:
 * they ended 2 us into the run, their data still on its way to the disk (fio_physics.py
 * --wide, seed 30105).  With and without the write cache, under each scheduler.
 */
static void test_sync_waits_for_the_files_writeback(void **state)
{
	static const enum kfsim_bfq_sched scheds[] = {
		KFSIM_SCHED_NONE, KFSIM_SCHED_MQ_DEADLINE, KFSIM_SCHED_BFQ,
	};

	(void)state;
	for (size_t s = 0; s < ARRAY_SIZE(scheds); s++) {
		for (int cache = 0; cache <= 1; cache++) {
			struct kfsim_bfq_sim_config cfg;
			const struct kfsim_bfq_sim_result *res;
			struct kfsim_bfq_sim *sim;
			double first_media_s;

			kfsim_bfq_sim_config_default(&cfg);
			cfg.sched = scheds[s];
			cfg.disk.write_cache = cache;
			cfg.duration_ns = 500000000ULL;
			for (unsigned int j = 0; j < 4; j++) {
				char spec[80];

				snprintf(spec, sizeof(spec), "name=w%u,rw=write,bs=8k,size=8k,"
					 "io_size=8k,offset=36%%,direct=0", j);
				add_job(&cfg, spec);
				cfg.jobs[j].end_fsync = true;
			}
			sim = run(&cfg);
			res = kfsim_bfq_sim_result(sim);
			/* a write reaches the media no sooner than its command overhead */
			first_media_s = cfg.disk.cmd_overhead_ms / 1e3;
			for (unsigned int j = 0; j < 4; j++) {
				print_message("%s%s: %s ended at %.6f s (%llu requests)\n",
					      kfsim_bfq_sched_name(scheds[s]),
					      cache ? ", write cache" : "", res->jobs[j].name,
					      res->jobs[j].active_s,
					      (unsigned long long)res->jobs[j].requests);
				assert_true(res->jobs[j].active_s >= first_media_s);
				assert_true(res->jobs[j].active_s < 0.5);
			}
			kfsim_bfq_sim_destroy(sim);
		}
	}
}

/*
 * The drive alone, request by request, on generated drives (gen_drive(), with seek, settle,
 * overhead and SATF aging drawn too) fed by streams and
 * random requests of 512 B to 2 MiB, reads and writes, in bursts, with cache flushes: what a
 * datasheet lets one state of every command, whatever the model does inside:
 * - the NCQ holds at most ncq_depth commands, and a submission past it is -EBUSY;
 * - a read completes no sooner than the command overhead and its bytes' crossing of the link;
 * - a write to the media no sooner than its bytes' crossing plus their writing at the
 *   outermost (fastest) zone's rate; a cached one no sooner than its crossing and the overhead;
 * - every command completes once, in time order; no more bytes cross the link than its rate
 *   allows by the last completion (one transfer at a time);
 * - a flush is done only when every cached write it found was destaged.
 * KFSIM_PHYSICS_RUNS and KFSIM_PHYSICS_FIRST as above (CI: 100 drives, 1500 commands each).
 */
#define REQ_RUN 1500
#ifdef KFSIM_ASAN
#define DIRECT_RUNS 30		/* 3 s here in the plain build: a few under sanitizers */
#else
#define DIRECT_RUNS 100
#endif

static u64 link_ns(const struct kfsim_hdd_params *p, unsigned int bytes)
{
	return (u64)floor(bytes * 1e3 / p->link_mb_s);	/* the model rounds up: floor is below */
}

static void check_completion(const struct kfsim_hdd *hdd, const struct request *rq, u64 submit_ns,
			     unsigned int r)
{
	const struct kfsim_hdd_params *p = kfsim_hdd_params_of(hdd);
	unsigned int bytes = blk_rq_bytes(rq);
	u64 overhead = (u64)floor(p->cmd_overhead_ms * 1e6);
	double od_rate = kfsim_hdd_media_rate(hdd, 0) > kfsim_hdd_media_rate(hdd, p->capacity - 1) ?
				 kfsim_hdd_media_rate(hdd, 0) : kfsim_hdd_media_rate(hdd, p->capacity - 1);
	u64 floor_ns;

	if (!rq_data_dir(rq))
		floor_ns = overhead + link_ns(p, bytes);
	else if (rq->cache_hit)
		floor_ns = link_ns(p, bytes) + overhead;
	else	/* a write streaming on from the one before pays no overhead */
		floor_ns = link_ns(p, bytes) + (u64)floor(bytes / od_rate * 1e9 * 0.9999);
	if (rq->done_ns < submit_ns + floor_ns)
		fail_msg("run %u: %s of %u B at sector %llu%s took %llu ns < %llu ns (overhead "
			 "%.2f ms, link %.0f MB/s, outer zone %.0f B/s)", r,
			 rq_data_dir(rq) ? "write" : "read", bytes,
			 (unsigned long long)blk_rq_pos(rq), rq->cache_hit ? " (cache)" : "",
			 (unsigned long long)(rq->done_ns - submit_ns),
			 (unsigned long long)floor_ns, p->cmd_overhead_ms, p->link_mb_s, od_rate);
}

static void test_every_command_obeys_the_drive(void **state)
{
	const char *env = getenv("KFSIM_PHYSICS_RUNS"), *first_env = getenv("KFSIM_PHYSICS_FIRST");
	unsigned int runs = env ? (unsigned int)strtoul(env, NULL, 10) / 3 : DIRECT_RUNS;
	unsigned int first = first_env ? (unsigned int)strtoul(first_env, NULL, 10) : 0;
	static struct request rq[REQ_RUN];
	static u64 submit_ns[REQ_RUN];
	u64 flushes = 0, commands = 0;

	(void)state;
	for (unsigned int r = first; r < first + runs; r++) {
		struct kfsim_hdd_params p;
		struct kfsim_hdd *hdd;
		unsigned int submitted = 0, completed = 0, cached_writes = 0;
		sector_t stream[2] = { 0, 0 };
		u64 now = 0, last_done = 0, link_bytes = 0, destages;
		bool flushing = false;
		static bool seen[REQ_RUN];

		gen_state = 0x2545f4914f6cdd1dULL * (r + 1);
		gen_drive(&p);
		/* and the timings gen_drive() leaves at the calibrated drive's */
		p.seek_min_ms = gen_range(0, 5);
		p.seek_coeff_ms = gen_range(0, 30);
		p.write_settle_ms = gen_range(0, 3);
		p.cmd_overhead_ms = gen_pick(4) ? gen_range(0, 1) : 0;
		p.age_cap_ms = gen_pick(4) ? gen_range(10, 2000) : 0;
		p.satf_aging_ms_per_s = gen_range(0, 500);
		hdd = kfsim_hdd_create(&p);
		assert_false(IS_ERR(hdd));
		stream[1] = p.capacity / 2;
		memset(seen, 0, sizeof(seen));
		while (completed < REQ_RUN) {
			struct request *done;
			unsigned int burst = 1 + gen_pick(16);

			while (burst-- && submitted < REQ_RUN) {
				unsigned int sectors = 1u << gen_pick(13);	/* 512 B..2 MiB */
				unsigned int kind = gen_pick(4);
				bool write = gen_pick(3) == 0;
				sector_t pos;

				sectors = (unsigned int)min((sector_t)sectors, p.capacity / 4);
				if (kind < 2 && stream[kind] + sectors <= p.capacity) {
					pos = stream[kind];	/* two sequential streams */
					stream[kind] += sectors;
				} else {
					pos = (sector_t)((double)(gen_next() >> 11) / 9007199254740992.0 *
							 (double)(p.capacity - sectors));
				}
				blk_rq_init_from_bio(&rq[submitted], pos, sectors * 512,
						     write ? REQ_OP_WRITE : REQ_OP_READ, 0);
				rq[submitted].pid = (int)submitted;
				if (!kfsim_hdd_can_queue(hdd)) {
					assert_int_equal(kfsim_hdd_submit(hdd, &rq[submitted], now),
							 -EBUSY);
					break;
				}
				assert_int_equal(kfsim_hdd_submit(hdd, &rq[submitted], now), 0);
				assert_true(kfsim_hdd_in_flight(hdd) <= p.ncq_depth);
				submit_ns[submitted++] = now;
			}
			if (!flushing && gen_pick(50) == 0) {
				flushing = !kfsim_hdd_flush(hdd, now);
				flushes++;
			}
			now = kfsim_hdd_next_event(hdd);
			if (now == U64_MAX)
				now = kfsim_hdd_now(hdd);	/* idle: only a flush may be left */
			while ((done = kfsim_hdd_step(hdd, now))) {
				unsigned int i = (unsigned int)done->pid;

				assert_false(seen[i]);
				seen[i] = true;
				assert_true(done->done_ns >= last_done && done->done_ns <= now);
				last_done = done->done_ns;
				check_completion(hdd, done, submit_ns[i], r);
				link_bytes += blk_rq_bytes(done);
				cached_writes += rq_data_dir(done) && done->cache_hit;
				completed++;
			}
			if (flushing && kfsim_hdd_flush_done(hdd)) {
				destages = 0;
				for (unsigned int a = 0; a < p.nr_actuators; a++)
					destages += kfsim_hdd_actuator_stats(hdd, a).nr_destages;
				/* each cached write is one destage; done, none is left */
				if (destages < cached_writes)
					fail_msg("run %u: flush done with %llu destages of %u cached "
						 "writes", r, (unsigned long long)destages,
						 cached_writes);
				flushing = false;
			}
			/* time moves on when nothing completes: to the next event or 1 ms */
			if (now == kfsim_hdd_now(hdd) && kfsim_hdd_next_event(hdd) == U64_MAX)
				now += 1000000;
		}
		/* one transfer at a time: no more than the link's rate by the last completion */
		if ((double)link_bytes > p.link_mb_s * 1e6 * (double)last_done * 1e-9 * 1.0001 +
					 2097152.0)
			fail_msg("run %u: %llu B crossed a %.0f MB/s link by %llu ns", r,
				 (unsigned long long)link_bytes, p.link_mb_s,
				 (unsigned long long)last_done);
		for (unsigned int a = 0; a < p.nr_actuators; a++)
			check_actuator(hdd, a, last_done, "direct commands", false);
		commands += completed;
		kfsim_hdd_destroy(hdd);
	}
	print_message("%llu commands on %u generated drives (%llu flushes): NCQ depth, latency "
		      "floors, link, order, flushes held\n", (unsigned long long)commands, runs,
		      (unsigned long long)flushes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_invariants_over_the_sweep),
		cmocka_unit_test(test_invariants_on_generated_drives),
		cmocka_unit_test(test_region_larger_than_cache),
		cmocka_unit_test(test_sequential_throughput_does_not_fall_with_depth),
		cmocka_unit_test(test_reported_rate_covers_the_drain),
		cmocka_unit_test(test_sync_waits_for_the_files_writeback),
		cmocka_unit_test(test_every_command_obeys_the_drive),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
