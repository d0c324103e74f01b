// SPDX-License-Identifier: MIT
/*
 * No process starves for scheduler tags.  More processes than tags (64) can hold at their
 * depth: blk-mq's sbitmap_queue puts sleepers on 8 wait queues in turn and wakes them in turn
 * (lib/sbitmap.c, block/blk-mq-tag.c, 6.12), so every process gets requests.  Over a sweep of
 * depths x schedulers x process counts, on the dual disk for 10 simulated seconds, the fewest
 * completions of a process are at least a quarter of the mean, wherever the processes want
 * more requests than there are tags.  Before the fix a process
 * whose completion freed a request handed its own re-issue to the process woken for that
 * request, and completed exactly its first iodepth requests (issue #32).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>

/* the criterion is over 10 s: shorter runs leave too few completions per process to compare */
#define RUN_NS 10000000000ULL

static double min_over_mean(enum kfsim_bfq_sched sched, unsigned int depth, unsigned int nr_jobs,
			    const char *rw, u64 *min_out)
{
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	u64 min = UINT64_MAX, sum = 0;
	double ratio;

	kfsim_bfq_sim_config_default(&cfg);
	cfg.sched = sched;
	cfg.duration_ns = RUN_NS;
	for (unsigned int j = 0; j < nr_jobs; j++) {
		char spec[96], err[160];

		snprintf(spec, sizeof(spec), "name=j%u,rw=%s,bs=4k,iodepth=%u", j, rw, depth);
		assert_int_equal(kfsim_bfq_job_parse(spec, &cfg.jobs[j], err, sizeof(err)), 0);
	}
	cfg.nr_jobs = nr_jobs;
	sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	for (unsigned int j = 0; j < nr_jobs; j++) {
		min = min(min, res->jobs[j].requests);
		sum += res->jobs[j].requests;
	}
	kfsim_bfq_sim_destroy(sim);
	*min_out = min;
	ratio = sum ? (double)min * nr_jobs / (double)sum : 0;
	return ratio;
}

static void test_no_process_starves(void **state)
{
	static const enum kfsim_bfq_sched scheds[] = {
		KFSIM_SCHED_NONE, KFSIM_SCHED_MQ_DEADLINE, KFSIM_SCHED_BFQ, KFSIM_SCHED_BFQ_62,
	};
#ifdef KFSIM_ASAN	/* fewer combinations under the sanitizer, each as long */
	static const unsigned int depths[] = { 16, 32 };
	static const unsigned int counts[] = { 6, 12 };
#else
	static const unsigned int depths[] = { 8, 16, 32 };
	static const unsigned int counts[] = { 3, 5, 6, 9, 12 };
#endif
	static const char *const rws[] = { "randread", "randwrite" };
	double worst = 1e9;
	unsigned int runs = 0;

	for (size_t s = 0; s < ARRAY_SIZE(scheds); s++) {
		for (size_t d = 0; d < ARRAY_SIZE(depths); d++) {
			for (size_t c = 0; c < ARRAY_SIZE(counts); c++) {
				/* only where the processes want more than the 64 tags */
				if (counts[c] * depths[d] <= 64)
					continue;
				for (size_t r = 0; r < ARRAY_SIZE(rws); r++) {
					u64 min;
					double ratio;

					runs++;
					ratio = min_over_mean(scheds[s], depths[d], counts[c],
								     rws[r], &min);

					if (ratio < 0.25)
						fail_msg("%s, %u x %s iodepth=%u: min/mean %.2f "
							 "(fewest %llu)", kfsim_bfq_sched_name(scheds[s]),
							 counts[c], rws[r], depths[d], ratio,
							 (unsigned long long)min);
					worst = ratio < worst ? ratio : worst;
				}
			}
		}
	}
	print_message("min/mean completions per process >= %.2f in all %u runs\n", worst, runs);
}

static void test_six_jobs_of_the_issue(void **state)
{
	static const enum kfsim_bfq_sched scheds[] = {
		KFSIM_SCHED_NONE, KFSIM_SCHED_MQ_DEADLINE, KFSIM_SCHED_BFQ,
	};

	for (size_t s = 0; s < ARRAY_SIZE(scheds); s++) {
		u64 min;
		double ratio = min_over_mean(scheds[s], 16, 6, "randread", &min);

		print_message("%s, 6 x randread iodepth=16: fewest %llu, min/mean %.2f\n",
			      kfsim_bfq_sched_name(scheds[s]), (unsigned long long)min, ratio);
		assert_true(min > 16);
		assert_true(ratio >= 0.8);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_six_jobs_of_the_issue),
		cmocka_unit_test(test_no_process_starves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
