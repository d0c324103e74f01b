// SPDX-License-Identifier: MIT
/*
 * The simulation end to end: the drive's calibration against the datasheet figures, the
 * headline (pre-6.3 BFQ idles one actuator, 6.3 keeps both busy, weights still hold),
 * determinism by seed, request conservation, job parsing and blkparse replay.  These are
 * simulated outputs, deterministic for a seed: the ranges asserted are not wall-clock timings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/elevator.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/slab.h>

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
	assert_int_equal(kfsim_bfq_sim_run(sim), -EALREADY);
	return sim;
}

static double run_iops(unsigned int actuators, const char *job, double secs)
{
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_bfq_sim *sim;
	double iops;

	kfsim_bfq_sim_config_default(&cfg);
	cfg.disk.nr_actuators = actuators;
	cfg.sched = KFSIM_SCHED_NONE;
	cfg.duration_ns = (u64)(secs * 1e9);
	add_job(&cfg, job);
	sim = run(&cfg);
	iops = kfsim_bfq_sim_result(sim)->iops;
	kfsim_bfq_sim_destroy(sim);
	return iops;
}

static void test_calibration(void **state)
{
	double single = run_iops(1, "rw=randread,bs=4k,iodepth=16", 10);
	double dual = run_iops(2, "rw=randread,bs=4k,iodepth=16", 10);
	double seq = run_iops(1, "rw=read,bs=1m,iodepth=2", 2) * 1048576 / 1e6;

	print_message("QD16 4K random: %.0f IOPS single, %.0f dual; sequential %.0f MB/s\n", single,
		      dual, seq);
	assert_true(single >= 170 * 0.9 && single <= 170 * 1.1);
	assert_true(dual >= 304 * 0.9 && dual <= 304 * 1.1);
	assert_true(seq >= 270 * 0.9 && seq <= 270 * 1.1);
}

static void headline_config(struct kfsim_bfq_sim_config *cfg, enum kfsim_bfq_sched sched)
{
	kfsim_bfq_sim_config_default(cfg);
	cfg->sched = sched;
	cfg->bfq.low_latency = false;
	cfg->duration_ns = 3000000000ULL;
	add_job(cfg, "name=a,rw=read,bs=4k,offset=0%,size=50%");
	add_job(cfg, "name=b,rw=read,bs=4k,offset=50%,size=50%");
}

static void test_headline_injection_doubles_throughput(void **state)
{
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_bfq_sim *old_sim, *new_sim;
	const struct kfsim_bfq_sim_result *old, *new;

	headline_config(&cfg, KFSIM_SCHED_BFQ_62);
	old_sim = run(&cfg);
	headline_config(&cfg, KFSIM_SCHED_BFQ);
	new_sim = run(&cfg);
	old = kfsim_bfq_sim_result(old_sim);
	new = kfsim_bfq_sim_result(new_sim);
	print_message("pre-6.3 %.1f MB/s (util %.0f%%/%.0f%%), 6.3 %.1f MB/s (util %.0f%%/%.0f%%)\n",
		      old->mb_s, old->actuator[0].utilisation * 100,
		      old->actuator[1].utilisation * 100, new->mb_s,
		      new->actuator[0].utilisation * 100, new->actuator[1].utilisation * 100);
	assert_true(new->mb_s >= 1.8 * old->mb_s);
	/* before 6.3 one actuator at a time: together they are busy about one actuator's worth */
	assert_true(old->actuator[0].utilisation + old->actuator[1].utilisation < 1.2);
	assert_true(new->actuator[0].utilisation > 0.8 && new->actuator[1].utilisation > 0.8);
	assert_int_equal(old->actuator[0].injected + old->actuator[1].injected, 0);
	assert_true(new->actuator[0].injected + new->actuator[1].injected > 1000);
	assert_true(new->jain > 0.99);
	kfsim_bfq_sim_destroy(old_sim);
	kfsim_bfq_sim_destroy(new_sim);
}

static void test_weights_hold_on_one_actuator(void **state)
{
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_bfq_sim *sim;
	const struct kfsim_bfq_sim_result *res;
	double ratio;

	kfsim_bfq_sim_config_default(&cfg);
	cfg.bfq.low_latency = false;
	cfg.duration_ns = 5000000000ULL;
	add_job(&cfg, "name=w1,rw=read,bs=4k,offset=0%,size=20%,weight=10");
	add_job(&cfg, "name=w3,rw=read,bs=4k,offset=20%,size=20%,weight=30");
	sim = run(&cfg);
	res = kfsim_bfq_sim_result(sim);
	ratio = res->jobs[1].mb_s / res->jobs[0].mb_s;
	print_message("weights 1:3 on actuator 0 got %.2f : %.2f MB/s (1:%.2f)\n", res->jobs[0].mb_s,
		      res->jobs[1].mb_s, ratio);
	assert_true(ratio > 2.6 && ratio < 3.4);
	kfsim_bfq_sim_destroy(sim);
}

static void mixed_config(struct kfsim_bfq_sim_config *cfg, enum kfsim_bfq_sched sched, u64 seed)
{
	kfsim_bfq_sim_config_default(cfg);
	cfg->sched = sched;
	cfg->seed = seed;
	cfg->duration_ns = 1000000000ULL;
	cfg->nr_requests = 32;
	cfg->disk.write_cache = sched == KFSIM_SCHED_BFQ || sched == KFSIM_SCHED_NONE;
	cfg->disk.write_cache_mib = 1;
	add_job(cfg, "name=rr,rw=randread,bs=8k,iodepth=8");
	add_job(cfg, "name=sr,rw=read,bs=64k,offset=60%,iodepth=2,prioclass=2,ioprio=3");
	add_job(cfg, "name=rw,rw=randwrite,bs=4k,iodepth=4,offset=10%,size=30%");
	add_job(cfg, "name=sw,rw=write,bs=16k,sync=1,rate=2m,offset=75%");
	add_job(cfg, "name=tt,rw=randread,bs=4k,thinktime=3000,prioclass=3");
}

static void test_conservation_and_determinism(void **state)
{
	for (int s = 0; s < (int)elv_nr_types(); s++) {
		struct kfsim_bfq_sim_config cfg;
		struct kfsim_bfq_sim *a, *b, *c;
		const struct kfsim_bfq_sim_result *ra, *rb, *rc;

		mixed_config(&cfg, (enum kfsim_bfq_sched)s, 7);
		a = run(&cfg);
		b = run(&cfg);
		mixed_config(&cfg, (enum kfsim_bfq_sched)s, 8);
		c = run(&cfg);
		ra = kfsim_bfq_sim_result(a);
		rb = kfsim_bfq_sim_result(b);
		rc = kfsim_bfq_sim_result(c);
		/* every request submitted completes exactly once, in the run or while draining */
		assert_true(ra->submitted > 100);
		assert_int_equal(ra->completed + ra->in_flight, ra->submitted);
		assert_int_equal(ra->drained, ra->in_flight);
		assert_true(ra->completed > 100);
		/* same seed, same run; another seed, another run */
		assert_int_equal(ra->completed, rb->completed);
		for (unsigned int j = 0; j < ra->nr_jobs; j++) {
			assert_int_equal(ra->jobs[j].bytes, rb->jobs[j].bytes);
			assert_true(ra->jobs[j].lat_max_us == rb->jobs[j].lat_max_us);
		}
		assert_true(ra->jobs[0].bytes != rc->jobs[0].bytes ||
			    ra->jobs[0].lat_max_us != rc->jobs[0].lat_max_us);
		/* the rate cap holds: 2 MB/s of 16k writes */
		assert_true(ra->jobs[3].mb_s <= 2.2);
		kfsim_bfq_sim_destroy(a);
		kfsim_bfq_sim_destroy(b);
		kfsim_bfq_sim_destroy(c);
	}
}

static void test_job_parse(void **state)
{
	struct kfsim_bfq_job job = { .name = "keep" };
	char err[160];

	assert_int_equal(kfsim_bfq_job_parse("name=x,rw=randwrite,bs=64k,iodepth=4,offset=1g,"
					     "size=25%,prioclass=2,ioprio=7,rate=1m,sync=1",
					     &job, err, sizeof(err)), 0);
	assert_string_equal(job.name, "x");
	assert_int_equal(job.rw, KFSIM_RW_RANDWRITE);
	assert_int_equal(job.bs, 65536);
	assert_int_equal(job.offset, 1ULL << 30);
	assert_true(job.size_frac == 0.25);
	assert_int_equal(job.ioprio, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 7));
	assert_int_equal(job.rate, 1 << 20);
	assert_true(job.sync);
	strcpy(job.name, "keep");
	{
		const char *bad[] = { "rw=trim", "bs=1000", "bs=0", "iodepth=0", "offset=100%",
				      "size=-1", "ioprio=8", "prioclass=4", "weight=0",
				      "weight=1001", "colour=red", "name", "sync=2", "bs=4q",
				      "thinktime=-1" };

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			err[0] = '\0';
			assert_int_equal(kfsim_bfq_job_parse(bad[i], &job, err, sizeof(err)),
					 -EINVAL);
			assert_true(strlen(err) > 0);
			assert_string_equal(job.name, "keep");	/* untouched */
		}
	}
}

static void test_bad_configs(void **state)
{
	struct kfsim_bfq_sim_config cfg;

	kfsim_bfq_sim_config_default(&cfg);
	assert_ptr_equal(kfsim_bfq_sim_create(&cfg), ERR_PTR(-EINVAL));	/* no job */
	add_job(&cfg, "rw=read,offset=100g,size=1m");
	cfg.disk.capacity = 1 << 20;
	assert_ptr_equal(kfsim_bfq_sim_create(&cfg), ERR_PTR(-EINVAL));	/* beyond the disk */
	kfsim_bfq_sim_config_default(&cfg);
	add_job(&cfg, "rw=read");
	cfg.duration_ns = 0;
	assert_ptr_equal(kfsim_bfq_sim_create(&cfg), ERR_PTR(-EINVAL));
	kfsim_bfq_sim_config_default(&cfg);
	add_job(&cfg, "rw=read");
	cfg.disk.rpm = 0;
	assert_ptr_equal(kfsim_bfq_sim_create(&cfg), ERR_PTR(-EINVAL));
	kfsim_bfq_sim_config_default(&cfg);
	add_job(&cfg, "rw=read");
	cfg.bfq.actuator_load_threshold = 0;
	assert_ptr_equal(kfsim_bfq_sim_create(&cfg), ERR_PTR(-EINVAL));
	/* steady state: a window beyond a day, no criterion, a negative limit */
	kfsim_bfq_sim_config_default(&cfg);
	add_job(&cfg, "rw=read");
	cfg.jobs[0].ss_state = KFSIM_SS_IOPS;
	cfg.jobs[0].ss_dur_s = KFSIM_SS_MAX_DUR_S + 1;
	assert_ptr_equal(kfsim_bfq_sim_create(&cfg), ERR_PTR(-EINVAL));
	cfg.jobs[0].ss_dur_s = 3;
	cfg.jobs[0].ss_state = KFSIM_SS_SLOPE;
	assert_ptr_equal(kfsim_bfq_sim_create(&cfg), ERR_PTR(-EINVAL));
	cfg.jobs[0].ss_state = KFSIM_SS_BW;
	cfg.jobs[0].ss_limit = -1;
	assert_ptr_equal(kfsim_bfq_sim_create(&cfg), ERR_PTR(-EINVAL));
}

static void test_blktrace_replay(void **state)
{
	static const char trace[] =
		"  8,0    3        1     0.000000000  4162  Q   R 223490 + 8 [fio]\n"
		"  8,0    3        2     0.000001000  4162  G   R 223490 + 8 [fio]\n"
		"  8,0    1        3     0.002000000  4163  Q  WS 17578125000 + 16 [dd]\n"
		"  8,0    3        4     0.001000000  4162  Q   R 223498 + 8 [fio]\n"
		"  8,0    1        5     0.003000000  4163  Q   FN [dd]\n"
		"CPU3 (8,0):\n"
		" Reads Queued:           2,        8KiB\n";
	FILE *in = fmemopen((void *)trace, sizeof(trace) - 1, "r");
	struct kfsim_blktrace_rec *recs = NULL;
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_bfq_sim *sim;
	const struct kfsim_bfq_sim_result *res;
	long n = kfsim_blktrace_parse(in, &recs, NULL, 0);

	fclose(in);
	assert_int_equal(n, 3);
	assert_int_equal(recs[1].pid, 4163);
	assert_true(recs[1].write && recs[1].sync);
	assert_int_equal(recs[1].sector, 17578125000ULL);
	kfsim_bfq_sim_config_default(&cfg);
	cfg.replay = recs;
	cfg.nr_replay = (size_t)n;
	cfg.duration_ns = 1000000000ULL;
	sim = run(&cfg);
	res = kfsim_bfq_sim_result(sim);
	assert_int_equal(res->nr_jobs, 2);
	assert_int_equal(res->completed, 3);
	assert_int_equal(res->actuator[1].requests, 1);
	kfsim_bfq_sim_destroy(sim);
	kvfree(recs);

	in = fmemopen((void *)"  8,0 0 1 0.5 1 Q R x + 8 [a]\n", 30, "r");
	assert_int_equal(kfsim_blktrace_parse(in, &recs, NULL, 0), -EINVAL);
	fclose(in);
}

/*
 * The flusher's writes are counted once, at completion, in the run: writeback_bytes is the
 * flusher's own bytes.  It was counted also for writeback drained after the end: 32 drained
 * 1.25 MiB writes behind a 1 MiB buffered writer made it 40 MiB larger than the flusher's
 * bytes.  Both schedulers, both block sizes: the case must drain, or it proves nothing.
 */
static void test_writeback_bytes_are_the_flushers(void **state)
{
	static const char *const jobs[] = { "name=w,rw=write,bs=1m,direct=0",
					    "name=w,rw=randwrite,bs=4k,direct=0" };
	static const enum kfsim_bfq_sched scheds[] = { KFSIM_SCHED_BFQ, KFSIM_SCHED_NONE };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(jobs); i++) {
		for (size_t k = 0; k < ARRAY_SIZE(scheds); k++) {
			struct kfsim_bfq_sim_config cfg;
			const struct kfsim_bfq_sim_result *res;
			const struct kfsim_bfq_job_result *wb = NULL, *writer = NULL;
			struct kfsim_bfq_sim *sim;

			kfsim_bfq_sim_config_default(&cfg);
			cfg.sched = scheds[k];
			cfg.duration_ns = 2000000000ULL;
			add_job(&cfg, jobs[i]);
			sim = run(&cfg);
			res = kfsim_bfq_sim_result(sim);
			for (unsigned int j = 0; j < res->nr_jobs; j++) {
				if (!strcmp(res->jobs[j].name, "writeback"))
					wb = &res->jobs[j];
				else
					writer = &res->jobs[j];
			}
			assert_non_null(wb);
			assert_non_null(writer);
			print_message("%s, %s: writeback_bytes %llu, flusher %llu, %llu drained\n",
				      jobs[i], kfsim_bfq_sched_name(scheds[k]),
				      (unsigned long long)res->writeback_bytes,
				      (unsigned long long)wb->write_bytes,
				      (unsigned long long)res->drained);
			assert_true(res->writeback_bytes > 0);
			assert_int_equal(res->writeback_bytes, wb->write_bytes);
			assert_int_equal(wb->read_bytes, 0);
			/* nothing lost: what the writer copied is clean or still dirty */
			assert_true(res->writeback_bytes <= writer->write_bytes);
			assert_true(writer->write_bytes <= res->writeback_bytes + res->dirty_bytes);
			if (i == 0)
				assert_true(res->drained > 0);
			kfsim_bfq_sim_destroy(sim);
		}
	}
}

/*
 * A buffered write completes when its copy into the page cache ends, and is the run's only
 * when that is within the run, as a disk I/O is.  Counted as it began, the copy in progress
 * at the end had its bytes and whole latency in the run: a writer at iodepth 1 had more I/O
 * in flight than time (Little's law: requests x mean latency <= iodepth x active time;
 * fio_physics.py, seed 31477: 0.5008 s of 4 MiB copies in 0.5 s).  Ten run lengths, so that
 * the end falls inside a copy.
 */
static void test_buffered_write_counts_when_copied(void **state)
{
	(void)state;
	for (unsigned int k = 0; k < 10; k++) {
		struct kfsim_bfq_sim_config cfg;
		const struct kfsim_bfq_job_result *w;
		struct kfsim_bfq_sim *sim;
		double in_flight_s;

		kfsim_bfq_sim_config_default(&cfg);
		cfg.duration_ns = 100000000ULL + k * 370000ULL;
		add_job(&cfg, "name=w,rw=write,bs=4m,direct=0");
		sim = run(&cfg);
		w = &kfsim_bfq_sim_result(sim)->jobs[0];
		in_flight_s = (double)w->requests * w->lat_mean_us * 1e-6;
		print_message("%.5f s: %llu copies x %.1f us = %.6f s in flight in %.6f s\n",
			      (double)cfg.duration_ns / 1e9, (unsigned long long)w->requests,
			      w->lat_mean_us, in_flight_s, w->active_s);
		assert_true(w->requests > 0);
		assert_true(in_flight_s <= w->active_s * (1 + 1e-9));
		kfsim_bfq_sim_destroy(sim);
	}
}

static void test_jain_index(void **state)
{
	double fair[] = { 2, 2, 2 }, unfair[] = { 1, 0, 0 };

	assert_true(kfsim_bfq_jain_index(fair, 3) == 1.0);
	assert_true(kfsim_bfq_jain_index(unfair, 3) > 0.333 && kfsim_bfq_jain_index(unfair, 3) < 0.334);
	assert_true(kfsim_bfq_jain_index(NULL, 0) == 1.0);
}

/*
 * A job's region must hold the largest block it issues, counted over the directions it
 * issues and from its bssplit when it has one (fio's bssplit replaces bs=; fio 3.33 runs
 * 'rw=randwrite, bssplit=512/20:3584/80, size=3584', which kfsim refused as smaller than
 * the unused 4 KiB default: fio_physics.py --wide, seed 32287).
 */
static void test_region_holds_the_blocks_issued(void **state)
{
	static const struct {
		const char *spec;
		int err;
	} cases[] = {
		{ "rw=randwrite,bssplit=512/20:3584/80,size=3584", 0 },
		{ "rw=randread,bs=4k,64k,size=32k", 0 },	/* reads only: 4 KiB blocks */
		{ "rw=randwrite,bs=64k,4k,size=32k", 0 },	/* writes only: 4 KiB blocks */
		{ "rw=randwrite,bs=4k,64k,size=32k", -EINVAL },
		{ "rw=randrw,bssplit=4k/50:16k/50,size=8k", -EINVAL },
		{ "rw=read,bsrange=4k-64k,size=32k", -EINVAL },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kfsim_bfq_job job;
		sector_t start, nr;
		char err[160] = "";

		assert_int_equal(kfsim_bfq_job_parse(cases[i].spec, &job, err, sizeof(err)), 0);
		print_message("%s: %s\n", cases[i].spec,
			      kfsim_bfq_job_region(&job, 1 << 20, &start, &nr, err, sizeof(err)) ?
			      err : "runs");
		assert_int_equal(kfsim_bfq_job_region(&job, 1 << 20, &start, &nr, err, sizeof(err)),
				 cases[i].err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calibration),
		cmocka_unit_test(test_headline_injection_doubles_throughput),
		cmocka_unit_test(test_weights_hold_on_one_actuator),
		cmocka_unit_test(test_conservation_and_determinism),
		cmocka_unit_test(test_job_parse),
		cmocka_unit_test(test_bad_configs),
		cmocka_unit_test(test_region_holds_the_blocks_issued),
		cmocka_unit_test(test_blktrace_replay),
		cmocka_unit_test(test_jain_index),
		cmocka_unit_test(test_writeback_bytes_are_the_flushers),
		cmocka_unit_test(test_buffered_write_counts_when_copied),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
