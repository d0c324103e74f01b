// SPDX-License-Identifier: MIT
/*
 * fio job files (kfsim bfq sim --fio FILE).  The referee for the format is fio itself
 * (Debian fio): every job file this test accepts is first checked with `fio --parse-only`, so
 * kfsim reads only what fio reads.  Options kfsim does not model are refused with the option's
 * name and line; startdelay and runtime shape the run.
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

static bool have_fio(void)
{
	return system("command -v fio >/dev/null 2>&1") == 0;
}

/* Write @text to a job file in the build tree; with fio installed, fio must accept it. */
static char *job_file(const char *name, const char *text, bool fio_accepts)
{
	char path[512], cmd[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/bfq/%s.fio", KFSIM_BINARY_DIR, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	if (fio_accepts && have_fio()) {
		snprintf(cmd, sizeof(cmd), "fio --parse-only '%s' >/dev/null 2>&1", path);
		print_message("fio --parse-only %s.fio: accepted\n", name);
		assert_int_equal(system(cmd), 0);
	}
	return strdup(path);
}

static int parse_file(const char *path, struct kfsim_bfq_sim_config *cfg, char *why, size_t len)
{
	FILE *in = fopen(path, "r");
	int err;

	assert_non_null(in);
	err = kfsim_bfq_fio_parse(in, cfg, why, len);
	fclose(in);
	return err;
}

static void test_jobs_and_globals(void **state)
{
	char *path = job_file("jobs",
		"; two readers and a pair of writers\n"
		"[global]\n"
		"ioengine=libaio\n"
		"direct=1\n"
		"bs=64k\n"
		"time_based\n"
		"runtime=2s\n"
		"\n"
		"[seq]\n"
		"rw=read\n"
		"size=10%\n"
		"iodepth=4\n"
		"prioclass=1\n"
		"prio=3\n"
		"\n"
		"[rand]\n"
		"rw=randread\n"
		"bs=4k\n"
		"offset=50%\n"
		"thinktime=2ms\n"
		"cgroup=web\n"
		"cgroup_weight=300\n"
		"\n"
		"[wr]\n"
		"rw=write\n"
		"numjobs=2\n"
		"rate=10m\n"
		"startdelay=500ms\n"
		"runtime=3\n", true);
	struct kfsim_bfq_sim_config cfg;
	char why[240];

	kfsim_bfq_sim_config_default(&cfg);
	assert_int_equal(parse_file(path, &cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg.nr_jobs, 4);
	assert_string_equal(cfg.jobs[0].name, "seq");
	assert_int_equal(cfg.jobs[0].rw, KFSIM_RW_READ);
	assert_int_equal(cfg.jobs[0].bs, 65536);
	assert_int_equal(cfg.jobs[0].iodepth, 4);
	assert_int_equal(cfg.jobs[0].ioprio, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 3));
	assert_int_equal(cfg.jobs[0].runtime_ns, 2000000000ULL);
	assert_string_equal(cfg.jobs[1].name, "rand");
	assert_int_equal(cfg.jobs[1].bs, 4096);
	assert_int_equal(cfg.jobs[1].thinktime_us, 2000);
	assert_int_equal(cfg.jobs[1].weight, 300);
	assert_string_equal(cfg.jobs[1].cgroup, "web");
	assert_true(cfg.jobs[1].offset_frac == 0.5);
	assert_string_equal(cfg.jobs[2].name, "wr.00");
	assert_string_equal(cfg.jobs[3].name, "wr.01");
	assert_int_equal(cfg.jobs[3].rate, 10 << 20);
	assert_int_equal(cfg.jobs[3].startdelay_ns, 500000000ULL);
	/* the run lasts as long as the longest startdelay + runtime */
	assert_int_equal(cfg.duration_ns, 3500000000ULL);
	free(path);
}

static void expect_refusal(const char *name, const char *text, bool fio_accepts,
			   const char *needle)
{
	char *path = job_file(name, text, fio_accepts);
	struct kfsim_bfq_sim_config cfg;
	char why[240];

	kfsim_bfq_sim_config_default(&cfg);
	assert_int_equal(parse_file(path, &cfg, why, sizeof(why)), -EINVAL);
	print_message("%s: %s\n", name, why);
	assert_non_null(strstr(why, needle));
	assert_int_equal(cfg.nr_jobs, 0);
	free(path);
}

static void test_refusals_name_option_and_line(void **state)
{
	expect_refusal("verify", "[a]\nrw=read\nverify=md5\n", true,
		       "line 3: option 'verify' is not modelled");
	expect_refusal("buffered", "[global]\ndirect=0\n[a]\nrw=read\n", true, "line 2: direct=0");
	expect_refusal("randrw", "[a]\nrw=randrw\n", true, "line 2: rw:");
	expect_refusal("noweightgroup", "[a]\ncgroup_weight=100\n", true, "cgroup_weight needs");
	expect_refusal("groupweights",
		       "[a]\ncgroup=g\ncgroup_weight=100\n[b]\ncgroup=g\ncgroup_weight=200\n", true,
		       "line 4: job 'b': cgroup 'g' already has cgroup_weight=100");
	expect_refusal("outside", "rw=read\n[a]\n", false, "line 1: option outside");
	expect_refusal("nojob", "[global]\nrw=read\n", false, "no job section");
	expect_refusal("badbs", "[a]\nbs=1000\n", false, "line 2: bs:");
	expect_refusal("header", "[a\nrw=read\n", false, "line 1: malformed section");
}

/* startdelay and runtime: a job that starts late and stops early does less. */
static void test_startdelay_runtime_run(void **state)
{
	char *path = job_file("timed",
		"[global]\ndirect=1\nrw=read\nbs=64k\n"
		"[early]\nsize=10%\n"
		"[late]\noffset=50%\nsize=10%\nstartdelay=1\nruntime=500ms\n", true);
	struct kfsim_bfq_sim_config cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char why[240];

	kfsim_bfq_sim_config_default(&cfg);
	assert_int_equal(parse_file(path, &cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg.duration_ns, 1500000000ULL);
	cfg.sched = KFSIM_SCHED_NONE;
	sim = kfsim_bfq_sim_create(&cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	print_message("early %.1f MB/s, late %.1f MB/s over 1.5 s\n", res->jobs[0].mb_s,
		      res->jobs[1].mb_s);
	assert_true(res->jobs[1].requests > 0);
	/* the late job ran a third of the time on its own actuator */
	assert_true(res->jobs[1].bytes * 2 < res->jobs[0].bytes);
	assert_int_equal(res->completed + res->drained, res->submitted);
	kfsim_bfq_sim_destroy(sim);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_and_globals),
		cmocka_unit_test(test_refusals_name_option_and_line),
		cmocka_unit_test(test_startdelay_runtime_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
