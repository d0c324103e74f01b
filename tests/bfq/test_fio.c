// SPDX-License-Identifier: MIT
/*
 * fio job files and fio-style --job specs as fio reads them (kfsim bfq sim --fio FILE).  The
 * referee for the format is fio itself (Debian fio): every job file a test says fio accepts
 * (or refuses) is first given to `fio --parse-only`.  What the simulation then does with the
 * jobs is checked through a recording scheduler (the flags and depth of what reaches the
 * block layer) and the results (mixes, rates, active time, writeback).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <math.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/elevator.h>
#include <kfsim/err.h>
#include <kfsim/hdd_sim.h>
#include <kfsim/random.h>
#include <kfsim/slab.h>
#include "../../src/bfq/sim_jobs.h"

static bool have_fio(void)
{
	return system("command -v fio >/dev/null 2>&1") == 0;
}

/* Write @text to a job file in the build tree; with fio installed, fio must judge it alike. */
static char *job_file(const char *name, const char *text, int fio_accepts)
{
	char path[512], cmd[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/bfq/%s.fio", KFSIM_BINARY_DIR, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	if (fio_accepts >= 0 && have_fio()) {
		snprintf(cmd, sizeof(cmd), "fio --parse-only '%s' >/dev/null 2>&1", path);
		print_message("fio --parse-only %s.fio: %s\n", name,
			      fio_accepts ? "accepted" : "refused");
		if (fio_accepts)
			assert_int_equal(system(cmd), 0);
		else
			assert_int_not_equal(system(cmd), 0);
	}
	return strdup(path);
}

static int parse_file(const char *path, struct kfsim_bfq_sim_config *cfg, char *why, size_t len)
{
	return kfsim_bfq_fio_parse_file(path, cfg, why, len);
}

static struct kfsim_bfq_sim_config *new_cfg(void)
{
	struct kfsim_bfq_sim_config *cfg = calloc(1, sizeof(*cfg));

	assert_non_null(cfg);
	kfsim_bfq_sim_config_default(cfg);
	return cfg;
}

/* A job file written, read and simulated for a while; file_run_end() frees it all. */
struct file_run {
	char *path;
	struct kfsim_bfq_sim_config *cfg;
	struct kfsim_bfq_sim *sim;
};

/*
 * @text as job file @name, simulated for @duration_ns: its result.  @fio_accepts as
 * job_file()'s: 1 has fio's parser read it first, -1 not (variants of one checked file: each
 * fio run costs a second on a loaded machine).
 */
static const struct kfsim_bfq_sim_result *file_run_as(struct file_run *r, const char *name,
						      const char *text, u64 duration_ns,
						      int fio_accepts)
{
	char why[1024];

	r->path = job_file(name, text, fio_accepts);
	r->cfg = new_cfg();
	assert_int_equal(parse_file(r->path, r->cfg, why, sizeof(why)), 0);
	r->cfg->duration_ns = duration_ns;
	r->sim = kfsim_bfq_sim_create(r->cfg);
	assert_false(IS_ERR(r->sim));
	assert_int_equal(kfsim_bfq_sim_run(r->sim), 0);
	return kfsim_bfq_sim_result(r->sim);
}

/* @text as job file @name (which fio reads), simulated for @duration_ns: its result. */
static const struct kfsim_bfq_sim_result *file_run(struct file_run *r, const char *name,
						   const char *text, u64 duration_ns)
{
	return file_run_as(r, name, text, duration_ns, 1);
}

static void file_run_end(struct file_run *r)
{
	kfsim_bfq_sim_destroy(r->sim);
	free(r->cfg);
	free(r->path);
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
		"runtime=3\n", 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char why[2048];

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->nr_jobs, 4);
	assert_string_equal(cfg->jobs[0].name, "seq");
	assert_int_equal(cfg->jobs[0].rw, KFSIM_RW_READ);
	assert_int_equal(cfg->jobs[0].bs, 65536);
	assert_int_equal(cfg->jobs[0].iodepth, 4);
	assert_int_equal(cfg->jobs[0].engine, KFSIM_ENGINE_ASYNC);
	assert_false(cfg->jobs[0].buffered);
	assert_int_equal(cfg->jobs[0].ioprio, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_RT, 3));
	assert_int_equal(cfg->jobs[0].runtime_ns, 2000000000ULL);
	/* time_based: no size bound */
	assert_int_equal(cfg->jobs[0].io_size, 0);
	assert_string_equal(cfg->jobs[1].name, "rand");
	assert_int_equal(cfg->jobs[1].bs, 4096);
	assert_int_equal(cfg->jobs[1].thinktime_us, 2000);
	assert_int_equal(cfg->jobs[1].weight, 300);
	assert_string_equal(cfg->jobs[1].cgroup, "web");
	assert_true(cfg->jobs[1].offset_frac == 0.5);
	assert_string_equal(cfg->jobs[2].name, "wr.00");
	assert_string_equal(cfg->jobs[3].name, "wr.01");
	assert_int_equal(cfg->jobs[3].rate, 10 << 20);
	assert_int_equal(cfg->jobs[3].startdelay_ns, 500000000ULL);
	/* each job has its own file (fio's jobname.jobnum.filenum): four regions, none shared */
	for (unsigned int i = 1; i < 4; i++)
		assert_true(cfg->jobs[i].file_start >= cfg->jobs[i - 1].file_start +
						      cfg->jobs[i - 1].file_size);
	/* the run lasts as long as the longest startdelay + runtime */
	assert_int_equal(cfg->duration_ns, 3500000000ULL);
	free(cfg);
	free(path);
}

static void expect_refusal(const char *name, const char *text, int fio_accepts,
			   const char *const *needles)
{
	char *path = job_file(name, text, fio_accepts);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char why[4096];

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), -EINVAL);
	print_message("%s:\n%s\n", name, why);
	for (; *needles; needles++)
		assert_non_null(strstr(why, *needles));
	assert_int_equal(cfg->nr_jobs, 0);
	free(cfg);
	free(path);
}

/* Every option kfsim does not model is named, with its line, in one report. */
static void test_refusals_all_at_once(void **state)
{
	expect_refusal("many", "[global]\nflow_watermark=10\nioengine=libaio\n"
		       "ignore_error=,ENOTTY\n[a]\nrw=trim\nzonemode=zbd\n[b]\ngroup_reporting\n"
		       "ss_dur=10s\nss=iops:10%\n", 1,
		       (const char *const[]){ "many.fio:2: flow_watermark: flow control",
					      "many.fio:6: rw: the trims fail (ENOTTY",
					      "many.fio:7: zonemode: Specifying the zone size",
					      "many.fio:10: ss_dur: steady state of a reporting group",
					      NULL });
	/* a [global] problem is reported once, not once per job */
	expect_refusal("once", "[global]\nnrfiles=2\nioengine=libaio\n[a]\n[b]\n[c]\n", 1,
		       (const char *const[]){ "once.fio:2: nrfiles", NULL });
	expect_refusal("groupweights",
		       "[a]\ncgroup=g\ncgroup_weight=100\n[b]\ncgroup=g\ncgroup_weight=200\n", 1,
		       (const char *const[]){ ":4: job 'b': cgroup 'g' already has "
					      "cgroup_weight=100", NULL });
	expect_refusal("outside", "rw=read\n[a]\n", -1,
		       (const char *const[]){ "outside.fio:1: option outside", NULL });
	/* fio: "option <include x> outside of [] job section" */
	expect_refusal("incoutside", "include other.fio\n[a]\n", 0,
		       (const char *const[]){ "incoutside.fio:1: option outside", NULL });
	expect_refusal("nojob", "[global]\nrw=read\n", -1,
		       (const char *const[]){ "no job section", NULL });
	expect_refusal("header", "[a\nrw=read\n", -1,
		       (const char *const[]){ "header.fio:1: malformed section", NULL });
	expect_refusal("twodisks", "[a]\nfilename=/dev/sda\n[b]\nfilename=/dev/sdb\n", -1,
		       (const char *const[]){ "filename=/dev/sdb: kfsim simulates one disk",
					      NULL });
}

static struct kfsim_bfq_sim_config *read_ok(const char *name, const char *text,
					    int fio_accepts);

/*
 * cgroup_weight without cgroup= changes nothing under fio 3.33 (thread_main() sets a cgroup up
 * only with cgroup=): read, the job's weight left alone (kfsim refused it until 2026-12-07)
 */
static void test_refusal_one_of_several(void **state)
{
	struct kfsim_bfq_sim_config *cfg = read_ok("noweight", "[a]\ncgroup_weight=300\n", 1);

	(void)state;
	assert_int_equal(cfg->jobs[0].weight, 0);
	free(cfg);
	cfg = read_ok("weight", "[a]\ncgroup=x\ncgroup_weight=300\n", 1);
	assert_int_equal(cfg->jobs[0].weight, 300);
	free(cfg);
}

/* Invalid fio is refused as fio refuses it (its words checked against fio itself). */
static void test_invalid_as_fio(void **state)
{
	expect_refusal("ioprio", "[a]\nioprio=3\n", 0,
		       (const char *const[]){ "Bad option <ioprio=3>: did you mean prio?", NULL });
	expect_refusal("cgw", "[a]\ncgroup=x\ncgroup_weight=50\n", 0,
		       (const char *const[]){ "cgroup_weight: min value out of range: 50 (100 "
					      "min)", NULL });
	expect_refusal("unknown", "[a]\nfoo=1\nbar\n", 0,
		       (const char *const[]){ "unknown.fio:2: Bad option <foo=1>",
					      "unknown.fio:3: Bad option <bar>", NULL });
	setenv("KFSIM_TEST_UNSET_RW", "x", 1);
	unsetenv("KFSIM_TEST_UNSET_RW");
	expect_refusal("unsetenv", "[a]\nrw=${KFSIM_TEST_UNSET_RW}\n", 0,
		       (const char *const[]){ "rw: failed parsing rw=${KFSIM_TEST_UNSET_RW}",
					      NULL });
}

/*
 * What fio_badgen.py found in job files users get wrong, each judged by fio here too: a bad
 * value of an option that changes nothing (thread=abc, description=, rate_min=,) is still a
 * file fio rejects; kb_base takes fio's two choices even without disk I/O; an alias is named
 * as written; an include of a directory is named at its line; numjobs over kfsim's limit says
 * it is kfsim's.  All of one file's problems in one report.
 */
static void test_bad_files_found_by_mutation(void **state)
{
	static const char *const pairs[] = { "rate=1k-2k\nbs=4k:8k\n", "rate=1k:2k\nbs=4k-8k\n",
					     "rate=1k-9k,2k\nbs=4k,8k:16k\n" };
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char why[4096], text[256];
	char *path;

	expect_refusal("noeffect", "[a]\nthread=abc\ndescription=\nrate_min=,\ninvalidate=2\n"
		       "log_avg_msec=x\nblocksize_range=1e3\n", 0,
		       (const char *const[]){ "noeffect.fio:2: thread: failed parsing thread=abc",
					      "noeffect.fio:3: description: failed parsing",
					      "noeffect.fio:4: rate_min: failed parsing rate_min=,",
					      "noeffect.fio:5: invalidate: failed parsing",
					      "noeffect.fio:6: log_avg_msec: failed parsing",
					      "noeffect.fio:7: blocksize_range: expected MIN-MAX",
					      NULL });
	expect_refusal("kbbase", "[a]\nioengine=null\nkb_base=999\n", 0,
		       (const char *const[]){ "kbbase.fio:3: kb_base: failed parsing kb_base=999",
					      NULL });
	/* fio 3.33 aborts on it (a double free), so fio is not asked */
	expect_refusal("incdir", "[a]\nrw=read\ninclude /\n", -1,
		       (const char *const[]){ "incdir.fio:3: include: cannot open '/': Is a "
					      "directory", NULL });
	expect_refusal("numjobs129", "[a]\nnumjobs=129\n", 1,
		       (const char *const[]){ "numjobs129.fio:2: numjobs: more than 128 jobs "
					      "(kfsim simulates 128 at most)", NULL });
	/* what fio reads, read alike: nice may be negative, an empty log name is fio's own */
	path = job_file("noeffect-ok", "[a]\nsize=1m\nnice=-5\nwrite_bw_log=\nrate_min=1m,\n"
			"thread=2\ninvalidate=1\n", 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	free(path);
	/* fio's integer pairs split at ':' and '-' too: READ then WRITE, not a range */
	for (size_t i = 0; i < ARRAY_SIZE(pairs); i++) {
		cfg->nr_jobs = 0;
		snprintf(text, sizeof(text), "[a]\nsize=1m\n%s", pairs[i]);
		path = job_file("pairs", text, 1);
		assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
		assert_int_equal(cfg->jobs[0].rate, 1024);
		assert_int_equal(cfg->jobs[0].rate_write, 2048);
		assert_int_equal(cfg->jobs[0].bs, 4096);
		assert_int_equal(cfg->jobs[0].bs_write, 8192);
		free(path);
	}
	/* a '+' is read, as fio's strtoll() reads it */
	cfg->nr_jobs = 0;
	path = job_file("plus", "[a]\nsize=1m\nbs=+4k\n", 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->jobs[0].bs, 4096);
	free(path);
	/* a sign is no split: fio wraps "-1m" round, kfsim refuses it */
	expect_refusal("negrate", "[a]\nrate=-1m\n", 1,
		       (const char *const[]){ "negrate.fio:2: rate: expected", NULL });
	free(cfg);
}

/*
 * What is no job file at all: /dev/zero as --fio (or included) is refused after 16 MiB with
 * one problem, instead of being read for ever (fuzzing found "kfsim bfq sim --fio /dev/zero"
 * never ending).  The alarm turns the old endless read into a failure.
 */
static void test_endless_file_refused(void **state)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char *path = job_file("endless-inc", "[a]\nrw=read\ninclude /dev/zero\n", -1);
	char why[2048];

	alarm(60);
	assert_int_equal(parse_file("/dev/zero", cfg, why, sizeof(why)), -EINVAL);
	/* one line of zeros that never ends: the bound on the file is the problem told */
	assert_string_equal(why, "/dev/zero:1: more than 16 MiB: no fio job file, not read on");
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "/dev/zero:1: more than 16 MiB: no fio job file"));
	alarm(0);
	free(cfg);
	free(path);
}

/*
 * fio 3.33 reads lines with fgets() into 8192 bytes: an 8191-byte line is whole there and here
 * (kfsim once stopped at 1022 bytes and refused a job file fio runs); a longer one fio splits
 * in two and refuses the second half as a bad option, and kfsim refuses it with the reason.
 */
static void test_long_lines_as_fio(void **state)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	size_t text_len = 9300;
	char *text = malloc(text_len), *path;
	char why[2048];
	int n;

	(void)state;
	assert_non_null(text);
	n = snprintf(text, text_len, "[a]\nrw=read\nsize=1m\ndescription=");
	memset(text + n, 'x', 8191 - strlen("description="));
	n += (int)(8191 - strlen("description="));
	snprintf(text + n, text_len - (size_t)n, "\n");
	path = job_file("line8191", text, 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	free(path);

	n = snprintf(text, text_len, "[a]\nrw=read\nsize=1m\ndescription=");
	memset(text + n, 'x', 8192 - strlen("description="));
	n += (int)(8192 - strlen("description="));
	snprintf(text + n, text_len - (size_t)n, "\n");
	path = job_file("line8192", text, 0);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), -EINVAL);
	/* the option the line starts with is named: fio names the one it splits off */
	assert_non_null(strstr(why, ":4: description: line longer than 8191 bytes"));
	print_message("line8192: %s\n", why);
	free(path);
	free(text);
	free(cfg);
}

/* Read @text (fio judging it as @fio_accepts says); returns the config, which must parse. */
static struct kfsim_bfq_sim_config *read_ok(const char *name, const char *text, int fio_accepts)
{
	char *path = job_file(name, text, fio_accepts);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char why[4096] = "";

	if (parse_file(path, cfg, why, sizeof(why)))
		fail_msg("%s: %s", name, why);
	free(path);
	return cfg;
}

/*
 * ${VAR} as fio 3.33's fio_option_dup_subs(): unset or empty is nothing (kfsim once left it as
 * written, refusing bs=${UNSET}8k, which fio reads as 8k); a variable may hold a whole option;
 * headers are not expanded (fio expands options only).
 */
static void test_env_as_fio(void **state)
{
	struct kfsim_bfq_sim_config *cfg;

	(void)state;
	unsetenv("KFSIM_T_UNSET");
	setenv("KFSIM_T_EMPTY", "", 1);
	setenv("KFSIM_T_OPT", "iodepth=3", 1);
	setenv("KFSIM_T_NAME", "x", 1);
	cfg = read_ok("envunset", "[${KFSIM_T_NAME}]\nrw=read\nsize=1m\nioengine=libaio\n"
		      "bs=${KFSIM_T_UNSET}8k\nbs=16${KFSIM_T_EMPTY}k,${KFSIM_T_UNSET}32k\n"
		      "${KFSIM_T_OPT}\n", 1);
	assert_int_equal(cfg->nr_jobs, 1);
	assert_string_equal(cfg->jobs[0].name, "${KFSIM_T_NAME}");
	assert_int_equal(cfg->jobs[0].bs, 16384);
	assert_int_equal(cfg->jobs[0].bs_write, 32768);
	assert_int_equal(cfg->jobs[0].iodepth, 3);
	free(cfg);
	/* unset where a value must be: refused, fio's words with the line as written */
	expect_refusal("envrw", "[a]\nrw=${KFSIM_T_UNSET}\n", 0,
		       (const char *const[]){ "envrw.fio:2: rw: failed parsing rw=${KFSIM_T_UNSET} "
					      "(an environment variable that is not set)", NULL });
}

/*
 * fio keeps at most 8192 bytes of an expanded option and leaves out a ${VAR} that does not
 * fit (kfsim once cut the line at 8191 bytes without a word): refused with the reason; one
 * that fits is read.
 */
static void test_env_past_fio_line(void **state)
{
	char *big = malloc(8001);
	struct kfsim_bfq_sim_config *cfg;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', 8000);
	big[8000] = '\0';
	setenv("KFSIM_T_BIG", big, 1);
	cfg = read_ok("envbig", "[a]\nrw=read\nsize=1m\ndescription=${KFSIM_T_BIG}\n", 1);
	assert_int_equal(cfg->nr_jobs, 1);
	free(cfg);
	expect_refusal("envbig2", "[a]\nrw=read\nsize=1m\n"
		       "description=${KFSIM_T_BIG}${KFSIM_T_BIG}\n", 1,
		       (const char *const[]){ "envbig2.fio:4: description: its ${VAR}s make it "
					      "longer than fio's 8192 bytes", NULL });
	unsetenv("KFSIM_T_BIG");
	free(big);
}

/* fio's $pagesize and $ncpus are this machine's; arithmetic on them (bc(1)) is refused */
static void test_fio_keywords(void **state)
{
	long ncpus = sysconf(_SC_NPROCESSORS_CONF), page = sysconf(_SC_PAGESIZE);
	struct kfsim_bfq_sim_config *cfg;

	(void)state;
	cfg = read_ok("keywords", "[a]\nrw=read\nsize=1m\nbs=$pagesize\n", 1);
	assert_int_equal(cfg->jobs[0].bs, page);
	free(cfg);
	if (ncpus > 0 && ncpus <= 64) {
		cfg = read_ok("ncpus", "[a]\nrw=read\nsize=1m\nnumjobs=$ncpus\n", 1);
		assert_int_equal(cfg->nr_jobs, ncpus);
		free(cfg);
	}
	/* fio's reading needs bc(1) installed: not asked */
	expect_refusal("kwmath", "[a]\nrw=read\nsize=1m\nbs=$pagesize*2\n", -1,
		       (const char *const[]){ "kwmath.fio:4: bs: arithmetic with $pagesize", NULL });
}

/*
 * An option fio has but kfsim does not model is refused as not modelled; "Bad option" is for
 * one fio does not have (kfsim once said it of verify_state_load, which fio reads).
 */
static void test_fio_option_not_modelled(void **state)
{
	(void)state;
	expect_refusal("notmodelled", "[a]\nrw=read\nsize=1m\nverify_state_load=1\nuid=0\n"
		       "verify_state_loadx=1\n", 0,
		       (const char *const[]){
			       "notmodelled.fio:4: verify_state_load: fio's option is not modelled",
			       "notmodelled.fio:5: uid: fio's option is not modelled",
			       "notmodelled.fio:6: Bad option <verify_state_loadx=1>", NULL });
	/* an engine's option kfsim does not model: told once, as fio's Bad option elsewhere */
	expect_refusal("engineopt", "[a]\nrw=read\nsize=1m\nnowait=1\n", 0,
		       (const char *const[]){ "engineopt.fio:4: Bad option <nowait=1>: an option "
					      "of the engine(s)", NULL });
	{
		char *path = job_file("engineopt_own", "[a]\nrw=read\nsize=1m\nioengine=libaio\n"
				      "nowait=1\n", 1);
		struct kfsim_bfq_sim_config *cfg = new_cfg();
		char why[1024];

		assert_int_equal(parse_file(path, cfg, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, "engineopt_own.fio:5: nowait: an option of one of "
				       "fio's engines, not modelled"));
		assert_null(strchr(why, '\n'));	/* once */
		free(cfg);
		free(path);
	}
}

/*
 * fio takes an include's name from the 9th character ("include" and one blank): a second
 * blank is part of the name, which fio cannot open, nor kfsim (that once stripped it).  A
 * header that does not end in ']' is refused once; the lines after it are its section's (they
 * were each "option outside a [section]").
 */
static void test_include_and_header_as_fio(void **state)
{
	struct kfsim_bfq_sim_config *cfg;
	char *inc = job_file("incpart", "bs=8k\n", -1);
	char *path;
	char why[4096];

	(void)state;
	cfg = read_ok("inctab", "[a]\nrw=read\nsize=1m\ninclude\tincpart.fio\n", 1);
	assert_int_equal(cfg->jobs[0].bs, 8192);
	free(cfg);
	/*
	 * not asked of fio: it prints "unable to open ' incpart.fio'" but, the include being
	 * its section's last line, goes on without it and exits 0 (init.c: the section's
	 * options overwrite the include's error); kfsim refuses (docs/bfq.md)
	 */
	expect_refusal("inc2blank", "[a]\nrw=read\nsize=1m\ninclude  incpart.fio\n", -1,
		       (const char *const[]){ "inc2blank.fio:4: include: cannot open",
					      "a second blank after 'include' is part of it", NULL });
	path = job_file("hdrx", "[a]x\nrw=read\nsize=1m\nfoo=1\n", 0);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "hdrx.fio:1: malformed section header: fio takes 'a]'"));
	assert_non_null(strstr(why, "hdrx.fio:4: Bad option <foo=1>"));
	assert_null(strstr(why, "outside"));
	free(cfg);
	free(path);
	free(inc);
}

/*
 * buffer_pattern and verify_pattern as fio's pattern parser takes them (kfsim once read any
 * value, as data it does not model): a 'file' must be there to read (t0027.fio of fio's own
 * tests), a "string" must end, %o is verify_pattern's only, a decimal ends where "0x" starts
 * (fio's t0028: "-120xdeadface" is -12 and 0xdeadface).
 */
static void test_patterns_as_fio(void **state)
{
	struct kfsim_bfq_sim_config *cfg;

	(void)state;
	cfg = read_ok("patterns", "[a]\nrw=read\nsize=1m\nbuffer_pattern=0xff0x14\"ab\"-120xdeadface\n"
		      "verify_pattern=%o\n", 1);
	free(cfg);
	expect_refusal("patfile", "[a]\nrw=read\nsize=1m\nbuffer_pattern='kfsim-no-such.pattern'\n"
		       "verify_pattern=abc\n[b]\nbuffer_pattern=%o\n", 0,
		       (const char *const[]){ "patfile.fio:4: buffer_pattern: failed parsing "
					      "buffer_pattern='kfsim-no-such.pattern' (a pattern "
					      "file", "patfile.fio:5: verify_pattern: failed parsing",
					      "patfile.fio:7: buffer_pattern: failed parsing", NULL });
	/* a FIFO nobody writes to: refused at once, never waited on (the check read a byte) */
	{
		char dir[] = "/tmp/kfsim-pattern-XXXXXX", fifo[64], text[256];

		assert_non_null(mkdtemp(dir));
		snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
		assert_int_equal(mkfifo(fifo, 0600), 0);
		snprintf(text, sizeof(text), "[a]\nrw=read\nsize=1m\nbuffer_pattern='%s'\n", fifo);
		/* not asked of fio: its parser opens the file and would wait for a writer */
		expect_refusal("patfifo", text, -1, (const char *const[]){ "patfifo.fio:4: "
				"buffer_pattern: failed parsing buffer_pattern='", NULL });
		unlink(fifo);
		assert_int_equal(rmdir(dir), 0);
	}
}

/*
 * Includes side by side are no nesting: a section that includes one file twelve times is read
 * (fio reads it too); kfsim once refused the ninth as "nested too deep", counting every include
 * of the whole file against the depth.
 */
static void test_includes_side_by_side(void **state)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char *inc = job_file("flat-inc", "size=1m\n", -1), *path;
	char text[4096], why[2048];
	int n = snprintf(text, sizeof(text), "[a]\nrw=read\n");

	(void)state;
	for (int i = 0; i < 12; i++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "include %s\n", inc);
	path = job_file("flat-includes", text, 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->nr_jobs, 1);
	free(path);
	free(inc);
	free(cfg);
}

/* fio's syntax: comments anywhere, READ,WRITE forms, ranges, flags, includes, ${VAR}. */
static void test_fio_syntax(void **state)
{
	char *inc = job_file("syntax-inc", "bsrange=4k-16k,8k-8k\n", -1);
	char text[1024];
	char *path;
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	const struct kfsim_bfq_job *a, *b, *c;
	char why[2048];

	setenv("KFSIM_TEST_RW", "randrw", 1);
	snprintf(text, sizeof(text),
		 "[global]\n"
		 "include %s\n"
		 "thread\n"
		 "norandommap\n"
		 "randrepeat=0\n"
		 "size=1%% ; the disk's percent\n"
		 "[a]\n"
		 "rw=${KFSIM_TEST_RW}   # from the environment\n"
		 "rwmixwrite=30\n"
		 "rate=1m,2m\n"
		 "startdelay=1-3\n"
		 "sync=dsync\n"
		 "numjobs=2\n"
		 "group_reporting\n"
		 "[b]\n"
		 "stonewall\n"
		 "rw=write\n"
		 "bs=4k,8k\n"
		 "direct=1\n"
		 "[c]\n"
		 "wait_for=a\n"
		 "rw=read\n"
		 "filename=shared\n"
		 "time_based\n"
		 "runtime=1\n", inc);
	path = job_file("syntax", text, 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->nr_jobs, 4);
	a = &cfg->jobs[0];
	b = &cfg->jobs[2];
	c = &cfg->jobs[3];
	assert_int_equal(a->rw, KFSIM_RW_RANDRW);
	assert_int_equal(a->rwmixread, 70);
	assert_int_equal(a->bs, 4096);
	assert_int_equal(a->bs_max, 16384);
	assert_int_equal(a->bs_write, 8192);
	assert_int_equal(a->rate, 1 << 20);
	assert_int_equal(a->rate_write, 2 << 20);
	assert_int_equal(a->startdelay_ns, 1000000000ULL);
	assert_int_equal(a->startdelay_max_ns, 3000000000ULL);
	assert_true(a->sync);
	assert_true(a->buffered);	/* fio's default direct=0 */
	assert_int_equal(a->engine, KFSIM_ENGINE_SYNC);	/* fio's default psync */
	assert_true(a->io_size > 0);	/* not time_based: the job ends after its size */
	assert_int_equal(b->after, 2);	/* stonewall: after both clones of a */
	assert_int_equal(b->bs, 4096);
	assert_int_equal(b->bs_write, 8192);
	assert_false(b->buffered);
	assert_int_equal(c->wait_for, 2);	/* the last clone of a */
	assert_int_equal(c->io_size, 0);
	/* the clones of a have files of their own: disjoint regions */
	assert_true(cfg->jobs[1].file_start >= a->file_start + a->file_size);
	assert_true(c->file_start >= b->file_start + b->file_size);
	unsetenv("KFSIM_TEST_RW");
	free(cfg);
	free(path);
	free(inc);
}

/* --job specs take the mixes too, with fio's READ,WRITE values. */
static void test_job_spec_mixes(void **state)
{
	struct kfsim_bfq_job job;
	char why[256];

	assert_int_equal(kfsim_bfq_job_parse("name=m,rw=randrw,rwmixread=30,bs=4k,16k,"
					     "rate_iops=100,50,percentage_random=40,"
					     "bssplit=4k/50:64k/50,ioengine=psync,iodepth=8",
					     &job, why, sizeof(why)), 0);
	assert_int_equal(job.rw, KFSIM_RW_RANDRW);
	assert_int_equal(job.rwmixread, 30);
	assert_int_equal(job.bs_write, 16384);
	assert_int_equal(job.rate_iops, 100);
	assert_int_equal(job.rate_iops_write, 50);
	assert_int_equal(job.perc_seq, 60);
	assert_int_equal(job.nr_bssplit[0], 2);
	assert_int_equal(job.bssplit[0][1].bs, 65536);
	assert_int_equal(job.engine, KFSIM_ENGINE_SYNC);
	assert_false(job.buffered);	/* --job keeps direct I/O unless told */
	/*
	 * fio 3.33 reads percents over 100 in all (bssplit_ddir()), but not with several
	 * entries left to share the rest ("bssplit percentages add to more than 100%")
	 */
	assert_int_equal(kfsim_bfq_job_parse("rw=randrw,bssplit=4k/60:8k/60", &job, why,
					     sizeof(why)), 0);
	assert_int_equal(job.bssplit[0][1].perc, 60);
	assert_int_equal(kfsim_bfq_job_parse("rw=randrw,bssplit=4k/60:8k/50:16k:32k", &job, why,
					     sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "bssplit"));
	assert_int_equal(kfsim_bfq_job_parse("rw=read,ioengine=nosuch", &job, why, sizeof(why)),
			 -EINVAL);
	assert_non_null(strstr(why, "ioengine: 'nosuch' is not modelled"));
}

/* --- what reaches the block layer: a recording FIFO scheduler ----------------------------- */

struct rec_data {
	struct blk_list fifo;
	unsigned int inflight[8], max_inflight[8];
	u64 reads, sync_idle_writes, async_writes, other_writes;
	sector_t first[64];	/* the sectors of the first requests */
	bool first_write[64];	/* and whether they write */
	unsigned int nr_first;
};

static struct rec_data rec_seen;

static int rec_init(struct elevator_queue *eq, struct gendisk *disk,
		    const struct bfq_tunables *tun)
{
	struct rec_data *rd = kzalloc(sizeof(*rd), GFP_KERNEL);

	if (!rd)
		return -ENOMEM;
	blk_list_init(&rd->fifo);
	eq->elevator_data = rd;
	return 0;
}

static void rec_exit(struct elevator_queue *eq)
{
	rec_seen = *(struct rec_data *)eq->elevator_data;
	kfree(eq->elevator_data);
}

static int rec_insert(struct elevator_queue *eq, struct request *rq, void *icq, u64 now)
{
	struct rec_data *rd = eq->elevator_data;
	unsigned int p = (unsigned int)rq->pid % 8;

	if (!op_is_write(rq->cmd_flags))
		rd->reads++;
	else if ((rq->cmd_flags & (REQ_SYNC | REQ_IDLE)) == (REQ_SYNC | REQ_IDLE))
		rd->sync_idle_writes++;
	else if (!(rq->cmd_flags & REQ_SYNC))
		rd->async_writes++;
	else
		rd->other_writes++;
	if (rd->nr_first < ARRAY_SIZE(rd->first)) {
		rd->first_write[rd->nr_first] = op_is_write(rq->cmd_flags);
		rd->first[rd->nr_first++] = blk_rq_pos(rq);
	}
	if (++rd->inflight[p] > rd->max_inflight[p])
		rd->max_inflight[p] = rd->inflight[p];
	blk_list_add_tail(&rq->queuelist, &rd->fifo);
	return 0;
}

static struct request *rec_dispatch(struct elevator_queue *eq, u64 now)
{
	struct rec_data *rd = eq->elevator_data;
	struct request *rq;

	if (blk_list_empty(&rd->fifo))
		return NULL;
	rq = blk_list_entry(rd->fifo.next, struct request, queuelist);
	blk_list_del_init(&rq->queuelist);
	return rq;
}

static bool rec_has_work(struct elevator_queue *eq)
{
	return !blk_list_empty(&((struct rec_data *)eq->elevator_data)->fifo);
}

static void rec_completed(struct elevator_queue *eq, struct request *rq, u64 now)
{
	((struct rec_data *)eq->elevator_data)->inflight[(unsigned int)rq->pid % 8]--;
}

static const struct elevator_type rec_iosched = {
	.ops = {
		.init_sched = rec_init,
		.exit_sched = rec_exit,
		.insert_requests = rec_insert,
		.dispatch_request = rec_dispatch,
		.has_work = rec_has_work,
		.completed_request = rec_completed,
	},
	.elevator_name = "test-record",
	.description = "FIFO that records flags and depth (test)",
};

static void run_recorded(struct kfsim_bfq_sim_config *cfg, const char *spec)
{
	struct kfsim_bfq_sim *sim;
	char why[256];

	assert_int_equal(elv_register(&rec_iosched), 0);
	assert_int_equal(kfsim_bfq_sched_parse("test-record", &cfg->sched), 0);
	assert_int_equal(kfsim_bfq_job_parse(spec, &cfg->jobs[cfg->nr_jobs], why, sizeof(why)), 0);
	cfg->nr_jobs++;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	kfsim_bfq_sim_destroy(sim);
	elv_unregister(&rec_iosched);
	print_message("%s: reads %llu, REQ_SYNC|REQ_IDLE writes %llu, async writes %llu, "
		      "depth %u\n", spec, (unsigned long long)rec_seen.reads,
		      (unsigned long long)rec_seen.sync_idle_writes,
		      (unsigned long long)rec_seen.async_writes, rec_seen.max_inflight[0]);
}

/* The engine decides the depth; direct writes are sync, buffered ones reach the disk async. */
static void test_engine_depth_and_write_flags(void **state)
{
	static const struct {
		const char *spec;
		unsigned int depth;
	} cases[] = {
		{ "rw=randread,ioengine=psync,iodepth=16", 1 },
		{ "rw=randread,ioengine=sync,iodepth=16", 1 },
		{ "rw=randread,ioengine=pvsync2,iodepth=16", 1 },
		{ "rw=randread,ioengine=libaio,iodepth=16", 16 },
		{ "rw=randread,ioengine=io_uring,iodepth=8", 8 },
		/* libaio on a buffered file completes in io_submit(): depth 1 */
		{ "rw=randread,ioengine=libaio,iodepth=16,direct=0", 1 },
	};
	struct kfsim_bfq_sim_config *cfg = new_cfg();

	cfg->duration_ns = 200000000ULL;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		kfsim_bfq_sim_config_default(cfg);
		cfg->duration_ns = 200000000ULL;
		run_recorded(cfg, cases[i].spec);
		assert_int_equal(rec_seen.max_inflight[0], cases[i].depth);
	}
	/* direct writes: REQ_OP_WRITE | REQ_SYNC | REQ_IDLE (block/fops.c dio_bio_write_op()) */
	kfsim_bfq_sim_config_default(cfg);
	cfg->duration_ns = 200000000ULL;
	run_recorded(cfg, "rw=randwrite,ioengine=libaio,iodepth=4,direct=1");
	assert_true(rec_seen.sync_idle_writes > 0);
	assert_int_equal(rec_seen.async_writes + rec_seen.other_writes, 0);
	/* buffered writes: the flusher's async writes, once past the background threshold */
	kfsim_bfq_sim_config_default(cfg);
	cfg->duration_ns = 500000000ULL;
	cfg->wb.dirtyable_bytes = 256ULL << 20;
	run_recorded(cfg, "rw=write,bs=64k,direct=0");
	assert_true(rec_seen.async_writes > 0);
	assert_int_equal(rec_seen.sync_idle_writes + rec_seen.other_writes, 0);
	/* the null engine does no disk I/O */
	kfsim_bfq_sim_config_default(cfg);
	cfg->duration_ns = 200000000ULL;
	run_recorded(cfg, "rw=randwrite,ioengine=null,iodepth=4");
	assert_int_equal(rec_seen.reads + rec_seen.sync_idle_writes + rec_seen.async_writes, 0);
	free(cfg);
}

/*
 * Buffered writes: copies into the page cache until dirty data reaches dirty_ratio, then at
 * the rate writeback cleans pages.  Nothing is lost: what the writer wrote is what was
 * written back plus what is still dirty.
 */
static void test_writeback_throttles_writer(void **state)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	u64 limit, wrote;
	char why[256];

	cfg->duration_ns = 3 * 1000000000ULL;
	cfg->wb.dirtyable_bytes = 512ULL << 20;
	cfg->sched = KFSIM_SCHED_MQ_DEADLINE;
	limit = cfg->wb.dirtyable_bytes / 100 * cfg->wb.dirty_ratio;
	assert_int_equal(kfsim_bfq_job_parse("name=w,rw=write,bs=128k,direct=0", &cfg->jobs[0],
					     why, sizeof(why)), 0);
	cfg->nr_jobs = 1;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	wrote = res->jobs[0].write_bytes;
	print_message("buffered writer: %.1f MB/s over 3 s; written back %llu MB, dirty %llu MB "
		      "(limit %llu MB)\n", res->jobs[0].mb_s,
		      (unsigned long long)(res->writeback_bytes >> 20),
		      (unsigned long long)(res->dirty_bytes >> 20),
		      (unsigned long long)(limit >> 20));
	assert_string_equal(res->jobs[1].name, "writeback");
	assert_true(res->writeback_bytes > 0);
	assert_true(res->dirty_bytes <= limit);
	assert_true(wrote <= res->writeback_bytes + res->dirty_bytes);
	assert_true(wrote + (2 << 20) >= res->writeback_bytes + res->dirty_bytes - (128 << 10));
	/* throttled to the disk: far below the copy rate, above nothing */
	assert_true(res->jobs[0].mb_s < 1000);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
}

static const struct kfsim_bfq_sim_result *run_one(struct kfsim_bfq_sim_config *cfg,
						  struct kfsim_bfq_sim **sim, const char *spec)
{
	char why[256];

	assert_int_equal(kfsim_bfq_job_parse(spec, &cfg->jobs[cfg->nr_jobs], why, sizeof(why)), 0);
	cfg->nr_jobs++;
	*sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(*sim));
	assert_int_equal(kfsim_bfq_sim_run(*sim), 0);
	return kfsim_bfq_sim_result(*sim);
}

/* Mixes do what they say: the read share, the block sizes, the I/O rate. */
static void test_mixes_simulate(void **state)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	double read_share, mean_bs;

	cfg->duration_ns = 2 * 1000000000ULL;
	cfg->sched = KFSIM_SCHED_NONE;
	res = run_one(cfg, &sim, "rw=randrw,rwmixread=70,bs=4k,iodepth=4");
	read_share = (double)res->jobs[0].read_bytes /
		     (double)(res->jobs[0].read_bytes + res->jobs[0].write_bytes);
	print_message("randrw 70/30: %.3f of bytes read\n", read_share);
	assert_true(read_share > 0.66 && read_share < 0.74);
	kfsim_bfq_sim_destroy(sim);

	kfsim_bfq_sim_config_default(cfg);
	cfg->duration_ns = 2 * 1000000000ULL;
	res = run_one(cfg, &sim, "rw=randread,bssplit=4k/50:64k/50,iodepth=4");
	mean_bs = (double)res->jobs[0].bytes / (double)res->jobs[0].requests;
	print_message("bssplit 4k/50:64k/50: mean block %.0f bytes (34816 expected)\n", mean_bs);
	assert_true(mean_bs > 34816 * 0.9 && mean_bs < 34816 * 1.1);
	kfsim_bfq_sim_destroy(sim);

	kfsim_bfq_sim_config_default(cfg);
	cfg->duration_ns = 2 * 1000000000ULL;
	res = run_one(cfg, &sim, "rw=randread,rate_iops=50,iodepth=4");
	print_message("rate_iops=50: %.1f IOPS\n", res->jobs[0].iops);
	assert_true(res->jobs[0].iops > 45 && res->jobs[0].iops <= 51);
	kfsim_bfq_sim_destroy(sim);

	kfsim_bfq_sim_config_default(cfg);
	cfg->duration_ns = 2 * 1000000000ULL;
	res = run_one(cfg, &sim, "rw=randread,bsrange=4k-16k,iodepth=2");
	mean_bs = (double)res->jobs[0].bytes / (double)res->jobs[0].requests;
	print_message("bsrange 4k-16k: mean block %.0f bytes (10240 expected)\n", mean_bs);
	assert_true(mean_bs > 10240 * 0.9 && mean_bs < 10240 * 1.1);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
}

/*
 * Per-job figures are over the job's own active time: a job that starts late and stops early
 * reports its rate while it ran, as fio does, and the run ends when every job has.
 */
static void test_active_time_and_end(void **state)
{
	char *path = job_file("timed",
		"[global]\ndirect=1\nrw=read\nbs=64k\n"
		"[early]\nsize=1%\ntime_based\nruntime=1500ms\n"
		"[late]\nsize=1%\nstartdelay=1\nruntime=500ms\ntime_based\n", 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char why[1024];

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->duration_ns, 1500000000ULL);
	cfg->sched = KFSIM_SCHED_NONE;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	print_message("early %.1f MB/s over %.2f s, late %.1f MB/s over %.2f s\n",
		      res->jobs[0].mb_s, res->jobs[0].active_s, res->jobs[1].mb_s,
		      res->jobs[1].active_s);
	assert_true(res->jobs[1].active_s > 0.49 && res->jobs[1].active_s < 0.52);
	assert_true(res->jobs[0].active_s > 1.49);
	/* the late job's rate is over its own 0.5 s, not diluted over the 1.5 s run */
	assert_true(res->jobs[1].requests > 0);
	assert_true(fabs(res->jobs[1].mb_s - (double)res->jobs[1].bytes / 1e6 /
			 res->jobs[1].active_s) < 1e-6 * res->jobs[1].mb_s + 1e-9);
	assert_true(fabs(res->jobs[1].mb_s * 3 - (double)res->jobs[1].bytes / 1e6 / 0.5 * 3) <
		    0.03 * res->jobs[1].mb_s * 3);
	assert_int_equal(res->completed + res->drained, res->submitted);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);
}

/* Size-bounded jobs end after their bytes; stonewall starts the next one then. */
static void test_size_bound_and_stonewall(void **state)
{
	char *path = job_file("phases",
		"[global]\ndirect=1\nioengine=libaio\niodepth=4\nbs=64k\n"
		"[fill]\nrw=write\nsize=64m\n"
		"[scan]\nstonewall\nrw=read\nsize=64m\nfilename=fill.0.0\n", 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char why[1024];

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	cfg->duration_ns = 20 * 1000000000ULL;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	print_message("fill %llu MiB in %.2f s, then scan %llu MiB in %.2f s; run %.2f s\n",
		      (unsigned long long)(res->jobs[0].bytes >> 20), res->jobs[0].active_s,
		      (unsigned long long)(res->jobs[1].bytes >> 20), res->jobs[1].active_s,
		      res->duration_s);
	assert_int_equal(res->jobs[0].bytes, 64 << 20);
	assert_int_equal(res->jobs[1].bytes, 64 << 20);
	/* the scan reads the file the fill wrote: the same region */
	assert_int_equal(cfg->jobs[1].file_start, cfg->jobs[0].file_start);
	assert_true(res->duration_s < 19);
	assert_true(res->duration_s >= res->jobs[0].active_s + res->jobs[1].active_s - 0.01);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);
}

/*
 * Per-I/O priorities (fio cmdprio*) change nothing under BFQ (it takes the priority from the
 * io context: bfq_check_ioprio_change() reads bic->icq.ioc->ioprio, 6.12) nor under none, so
 * those run as without them; mq-deadline sorts by the request's class and refuses the job.
 * Bad values and engines without the options are refused as fio refuses them.
 */
static void test_cmdprio(void **state)
{
	const char *text = "[a]\nioengine=libaio\niodepth=4\ndirect=1\nrw=randread\nbs=4k\n"
			   "size=10%\nruntime=1\ntime_based\ncmdprio_percentage=20\n"
			   "cmdprio_class=1\ncmdprio_bssplit=4k/50/1/0:64k/0,4k/100\n";
	char *path = job_file("cmdprio", text, 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg(), *plain = new_cfg();
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim, *sim_plain;
	char why[1024];
	u64 done;

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_true(cfg->jobs[0].cmdprio);
	*plain = *cfg;
	plain->jobs[0].cmdprio = false;
	for (int s = 0; s < 3; s++) {
		static const enum kfsim_bfq_sched scheds[] = { KFSIM_SCHED_BFQ, KFSIM_SCHED_NONE,
							       KFSIM_SCHED_MQ_DEADLINE };

		cfg->sched = plain->sched = scheds[s];
		sim = kfsim_bfq_sim_create(cfg);
		if (scheds[s] == KFSIM_SCHED_MQ_DEADLINE) {
			assert_true(IS_ERR(sim));
			continue;
		}
		assert_false(IS_ERR(sim));
		assert_int_equal(kfsim_bfq_sim_run(sim), 0);
		res = kfsim_bfq_sim_result(sim);
		done = res->completed;
		sim_plain = kfsim_bfq_sim_create(plain);
		assert_false(IS_ERR(sim_plain));
		assert_int_equal(kfsim_bfq_sim_run(sim_plain), 0);
		print_message("cmdprio under %s: %llu requests, %llu without\n",
			      kfsim_bfq_sched_name(scheds[s]), (unsigned long long)done,
			      (unsigned long long)kfsim_bfq_sim_result(sim_plain)->completed);
		assert_true(done > 0);
		assert_int_equal(done, kfsim_bfq_sim_result(sim_plain)->completed);
		kfsim_bfq_sim_destroy(sim_plain);
		kfsim_bfq_sim_destroy(sim);
	}
	free(plain);
	free(cfg);
	free(path);
	expect_refusal("cmdprio_bad", "[a]\nioengine=libaio\ncmdprio_percentage=101\n"
		       "cmdprio_class=4\ncmdprio_bssplit=4k/10/2\n", 0,
		       (const char *const[]){ "cmdprio_bad.fio:3: cmdprio_percentage: expected 0 to "
					      "100", "cmdprio_bad.fio:4: cmdprio_class: expected 1 to 3",
					      "cmdprio_bad.fio:5: cmdprio_bssplit: invalid cmdprio_bssplit "
					      "format '4k/10/2'", NULL });
	/*
	 * cmdprio_bssplit as fio 3.33 reads it when the job starts (--parse-only does not: -1
	 * below), each checked with fio's run here (libaio, 2026-12-07): a newer fio's fifth
	 * field (the hint of its cmdprio-bssplit.fio example) ignored, a bare block size, a
	 * percentage that is no number or over 100, an empty entry ending the list are read;
	 * three fields, a block size that is no size, and one block size over 100 % are not
	 */
	{
		static const char *const ok[] = {
			"1M/10/2/0/1:1M/30/2/0/2:1M/60/2/0/0:2M/10/2/0/3:2M/90/2/0/0", "4k", "4k/",
			"4k/abc", "4k/150", "4k/10::abc", "4k/10/0/9", "4k/10,8k/20,junk",
		};
		static const struct { const char *value, *why; } bad[] = {
			{ "4k/50/1", "invalid cmdprio_bssplit format" },
			{ "abc/10", "failed to parse cmdprio_bssplit entry" },
			{ "/10", "failed to parse cmdprio_bssplit entry" },
			{ "4k/60:4k/50", "total percentage for bs: 4096 exceeds 100" },
			{ "4k/-1:4k/5", "total percentage for bs: 4096 exceeds 100" },
			{ "8k/10,4k/70:4k/40", "total percentage for bs: 4096 exceeds 100" },
		};
		char line[256], err[512];

		for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
			struct kfsim_bfq_sim_config *c = new_cfg();
			char *f;

			snprintf(line, sizeof(line), "[a]\nioengine=libaio\ncmdprio_bssplit=%s\n",
				 ok[i]);
			f = job_file("cmdprio_split_ok", line, -1);
			if (parse_file(f, c, err, sizeof(err)))
				fail_msg("cmdprio_bssplit=%s refused: %s", ok[i], err);
			free(c);
			free(f);
		}
		for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
			snprintf(line, sizeof(line), "[a]\nioengine=libaio\ncmdprio_bssplit=%s\n",
				 bad[i].value);
			expect_refusal("cmdprio_split_bad", line, -1,
				       (const char *const[]){ bad[i].why, NULL });
		}
	}
	expect_refusal("cmdprio_psync", "[a]\ncmdprio_percentage=10\n", 0,
		       (const char *const[]){ "cmdprio_psync.fio:2: cmdprio: an option of the "
					      "libaio and io_uring engines", NULL });
}

/*
 * filename= as fio 3.33's get_next_name() splits it: at every ':' not escaped as '\:', a
 * relative name too (fio's t/jobs/t0037-pre.fio names four files "t0037file.1:...:4", which
 * kfsim read as one file before); several files are refused with disk I/O only; a job's own
 * name replaces its [global]'s list.
 */
static void test_filenames_as_fio(void **state)
{
	char *path = job_file("filenames", "[global]\nfilename=a:b\n[j]\nrw=read\nsize=1m\n"
			      "filename=c\n[k]\nrw=read\nsize=1m\nfilename=x\\:y\n"
			      "[n]\nioengine=null\nsize=1m\n", 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char why[1024];

	(void)state;
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->nr_jobs, 3);
	free(cfg);
	free(path);
	/*
	 * the names are the job's files, as nrfiles= makes them (fio 3.33 str_filename_cb());
	 * one of them named by another job apart from the list is not modelled, nor are
	 * fewer nrfiles than names
	 */
	path = job_file("filenames_several", "[a]\nrw=read\nsize=1m\nfilename=one:two\n", 1);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->jobs[0].nr_files, 2);
	free(cfg);
	free(path);
	expect_refusal("filenames_apart", "[a]\nrw=write\nsize=1m\nfilename=one:two\n[b]\n"
		       "rw=read\nsize=1m\nfilename=two\n", 1,
		       (const char *const[]){ "filename=two: a file also of job 'a'", NULL });
	expect_refusal("filenames_fewer", "[a]\nrw=read\nsize=1m\nfilename=one:two:three\n"
		       "nrfiles=2\n", 1,
		       (const char *const[]){ "filenames_fewer.fio:4: filename: nrfiles= below",
					      "filenames_fewer.fio:5: nrfiles: nrfiles= below",
					      NULL });
}

/*
 * fio 3.33's thinktime (backend.c handle_thinktime(), after each I/O issued and each reap of a
 * full queue): once thinktime_blocks I/Os completed since the last pause (issued, with
 * thinktime_blocks_type=issue), the job lets its I/O in flight complete, then sleeps.  At
 * iodepth 16 it issues 16, pauses, then one I/O a pause, as fio --debug=io showed (libaio,
 * iodepth=16, thinktime=100ms: 16 queued and completed, then 1 and 1; 2026-12-07).  kfsim
 * paused after each completion before, so a depth of 16 made 16 streams of pauses: 712
 * requests where fio's pattern gives about 84 (randread, thinktime=10ms, 1 s).
 */
static unsigned long long think_requests(const char *engine, unsigned int depth,
					 const char *type, unsigned int blocks)
{
	struct file_run r;
	char text[512];
	unsigned long long n;

	snprintf(text, sizeof(text), "[t]\nioengine=%s\ndirect=1\nrw=randread\nbs=4k\n"
		 "iodepth=%u\nthinktime=50ms\nthinktime_blocks_type=%s\nthinktime_blocks=%u\n"
		 "size=64m\ntime_based\nruntime=2\n", engine, depth, type, blocks);
	n = file_run(&r, "thinktime", text, 2 * NSEC_PER_SEC)->jobs[0].requests;
	print_message("thinktime=50ms %s iodepth=%u %s, blocks %u: %llu requests in 2 s\n",
		      engine, depth, type, blocks, n);
	file_run_end(&r);
	return n;
}

static void test_thinktime_as_fio(void **state)
{
	unsigned long long sync1 = think_requests("psync", 1, "complete", 1);
	unsigned long long aio16 = think_requests("libaio", 16, "complete", 1);
	unsigned long long aio16_issue = think_requests("libaio", 16, "issue", 1);
	unsigned long long sync4 = think_requests("psync", 1, "complete", 4);

	(void)state;
	/* 2 s of 50 ms pauses, each after one short I/O: about 38 */
	assert_true(sync1 >= 30 && sync1 <= 40);
	/* the first 16 together, then one a pause: 15 more than depth 1 */
	assert_in_range(aio16, sync1 + 14, sync1 + 16);
	/* counted at issue, the first I/O already pauses: as depth 1 */
	assert_in_range(aio16_issue, sync1 - 1, sync1 + 1);
	/* four I/Os a pause */
	assert_in_range(sync4, 3 * sync1, 4 * sync1 + 4);
	expect_refusal("thinktime_bad", "[a]\nthinktime_blocks=0\nthinktime_blocks_type=Issue\n",
		       0, (const char *const[]){ "thinktime_bad.fio:2: thinktime_blocks: 0",
					      "thinktime_bad.fio:3: thinktime_blocks_type: failed "
					      "parsing", NULL });
}

/* A random reader's requests in 2 s with @think (thinktime options) added. */
static unsigned long long iotime_requests(const char *think)
{
	struct file_run r;
	char text[512];
	unsigned long long n;

	snprintf(text, sizeof(text), "[t]\nioengine=psync\ndirect=1\nrw=randread\nbs=4k\n"
		 "size=64m\ntime_based\nruntime=2\n%s", think);
	n = file_run_as(&r, "iotime", text, 2 * NSEC_PER_SEC, strstr(think, "blocks=1\n") ? 1 : -1)
		->jobs[0].requests;
	for (char *c = text; *c; c++)
		*c = *c == '\n' ? ' ' : *c;
	print_message("%s: %llu requests in 2 s\n", strstr(text, "runtime=2 ") + 10, n);
	file_run_end(&r);
	return n;
}

/*
 * thinktime_iotime (fio 3.33 handle_thinktime()): a pause once iotime + thinktime passed
 * since the job's start or its last pause, whose time is taken before its sleep; without
 * thinktime_blocks given that is the only pause (its default of 1 is not counted), with it
 * either.  fio 3.33 (ioengine=null, rate_iops=50, thinktime=100ms, thinktime_iotime=300ms,
 * --write_iolog's times) paused after its I/Os at 400, 800, 1202 and 1620 ms of 2 s, kfsim (the
 * same job, psync on its disk) at 400, 800, 1200 and 1600 ms; kfsim refused the option
 * before 2026-12-08 (fio_jobgen --wide seeds 41001-41400: 23 files).  Its values are seconds
 * without a unit, kept in 32 bits of microseconds as fio keeps them.
 */
static void test_thinktime_iotime_as_fio(void **state)
{
	unsigned long long none = iotime_requests("");
	unsigned long long every = iotime_requests("thinktime=100ms\n");
	unsigned long long iotime = iotime_requests("thinktime=100ms\nthinktime_iotime=300ms\n");
	unsigned long long blocks = iotime_requests("thinktime=100ms\nthinktime_iotime=300ms\n"
						    "thinktime_blocks=1\n");
	unsigned long long many = iotime_requests("thinktime=100ms\nthinktime_iotime=300ms\n"
						  "thinktime_blocks=100000\n");
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char why[1024], *path;

	(void)state;
	/* four pauses of 100 ms in 2 s: a fifth of the time */
	assert_in_range(iotime, none * 3 / 4, none * 17 / 20);
	/* thinktime_blocks given counts too: a pause after every I/O */
	assert_in_range(blocks, every - 1, every + 1);
	assert_int_equal(many, iotime);
	path = job_file("iotime_value", "[t]\nthinktime=1\nthinktime_iotime=4295\n", 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	/* 4295 s are 4295000000 us, 32 bits keep 32704 */
	assert_int_equal(cfg->jobs[0].thinktime_iotime_us, 4295000000ULL & 0xffffffff);
	free(path);
	free(cfg);
}

/* A libaio random reader's requests in 2 s at depth 16 with @refill added. */
static unsigned long long refill_requests(const char *refill)
{
	struct file_run r;
	char text[512];
	unsigned long long n;

	snprintf(text, sizeof(text), "[t]\nioengine=libaio\ndirect=1\nrw=randread\nbs=4k\n"
		 "iodepth=16\nsize=64m\ntime_based\nruntime=2\n%s", refill);
	n = file_run_as(&r, "refill", text, 2 * NSEC_PER_SEC, strstr(refill, "low=2") ? 1 : -1)
		->jobs[0].requests;
	print_message("iodepth=16 %.*s: %llu requests in 2 s\n", (int)strcspn(refill, "\n"), refill,
		      n);
	file_run_end(&r);
	return n;
}

/*
 * A full queue drained before it refills (fio 3.33 wait_for_completions()): completions
 * reaped in rounds of iodepth_batch_complete_min until no more than iodepth_low are in
 * flight, then the queue filled again at once.  fio 3.33's own pattern (libaio, direct, a
 * file on this machine's ext4, --debug=io's queue and getevents lines, depth 8, 40 I/Os;
 * Q queued, C reaped) and kfsim's, each I/O of the job (2026-12-08):
 *   iodepth_low=2:                              Q8 C6 Q6 C6 Q6 C6 Q6 C6 Q6 C6 Q6 C6 Q2 C4
 *   iodepth_batch_complete_min=3:               Q8 C3 Q3 C3 Q3 ... C3 Q2 C7
 *   iodepth_low=4, iodepth_batch_complete_min=3: Q8 C6 Q6 (rounds of 3: 8, 5, 2) ... Q2 C4
 * both the same; kfsim refused both until 2026-12-08.  A drain keeps the disk's queue
 * shorter, so fewer random reads complete; a mark at the depth or rounds of 1 are the
 * default, one I/O a completion.
 */
static void test_iodepth_low_as_fio(void **state)
{
	unsigned long long full = refill_requests("");
	unsigned long long low2 = refill_requests("iodepth_low=2\n");
	unsigned long long at_depth = refill_requests("iodepth_low=16\n");
	unsigned long long over = refill_requests("iodepth_low=99\n");
	unsigned long long rounds1 = refill_requests("iodepth_batch_complete_min=1\n");
	unsigned long long rounds8 = refill_requests("iodepth_batch_complete_min=8\n");

	(void)state;
	assert_int_equal(at_depth, full);
	assert_int_equal(over, full);
	assert_int_equal(rounds1, full);
	assert_true(low2 < full * 9 / 10);
	assert_true(rounds8 < full);
	/* with a think time fio asks for its pause after the drain: not modelled */
	expect_refusal("refill_think", "[a]\nioengine=libaio\ndirect=1\niodepth=8\n"
		       "iodepth_low=2\nthinktime=1ms\n", 1,
		       (const char *const[]){ "refill_think.fio:5: iodepth_low: a queue drained",
					      NULL });
}

/* The requests of a one-job file's job in 2 s. */
static unsigned long long rate_requests(const char *text)
{
	struct file_run r;
	unsigned long long n = file_run(&r, "rates", text, 2 * NSEC_PER_SEC)->jobs[0].requests;

	file_run_end(&r);
	return n;
}

/*
 * The read-back after a write pass is fio's do_verify(), which asks no rate (fio 3.33,
 * rate=64k,1m, 512k of writes: reads took 1 ms, writes 497 ms); kfsim held the reads to
 * 64 KiB/s, 7.9 s in all.
 */
static void verify_rate_check(void)
{
	struct file_run r;
	double active = file_run(&r, "verify_rate", "[a]\nrw=write\nbs=4k\nsize=512k\ndirect=1\n"
				 "verify=crc32c\nrate=64k,1m\n", 20 * NSEC_PER_SEC)->jobs[0].active_s;

	print_message("write 512k at 1m/s, then verify with reads capped at 64k/s: %.3f s\n",
		      active);
	assert_true(active > 0.45 && active < 3);
	file_run_end(&r);
}

/*
 * fio 3.33's rate caps (init.c __setup_rate(), backend.c usec_for_io()): bytes a second,
 * rate_iops= being rate_iops x the smallest block, so 100 IOPS of 4k-64k blocks are 400 KiB/s:
 * fio (ioengine=null, sequential, 2 s) issued 25 I/Os, kfsim 201 before (it counted I/Os);
 * rate_process=poisson draws its gaps from rate= too (kfsim took only rate_iops= before, so
 * a poisson rate= ran evenly), and not on the read-back after the writes.  fio's run fails
 * rate= with rate_iops=, a minimum over the rate (fixup_options()), and a poisson job
 * issuing a direction under one block a second (SIGFPE): refused, every line named.
 */
static void test_rates_as_fio(void **state)
{
	static const char base[] = "[a]\nrw=read\nbs=4k\ndirect=1\ntime_based\nruntime=2\n";
	char text[512];
	unsigned long long range, even, poisson;

	(void)state;
	snprintf(text, sizeof(text), "%sbsrange=4k-64k\nrate_iops=100\n", base);
	range = rate_requests(text);
	snprintf(text, sizeof(text), "%srate=1m\n", base);
	even = rate_requests(text);
	snprintf(text, sizeof(text), "%srate=1m\nrate_process=poisson\n", base);
	poisson = rate_requests(text);
	print_message("rate_iops=100 of 4k-64k: %llu requests; rate=1m of 4k: %llu evenly, "
		      "%llu poisson\n", range, even, poisson);
	assert_in_range(range, 15, 40);	/* the sizes are drawn: about 24 on average */
	assert_in_range(even, 500, 514);
	assert_in_range(poisson, 410, 615);
	assert_true(poisson != even);
	verify_rate_check();
	expect_refusal("rates_bad", "[global]\nrw=randrw\n"
		       "[a]\nrate_iops=10\nrate=1m\nrate_iops=20\n"
		       "[b]\nrate=2m\nrate_min=3m\n"
		       "[c]\nrate=,1m\nrate_process=poisson\n", 1,
		       (const char *const[]){ "rates_bad.fio:4: rate_iops: with rate and rate_iops",
					      "rates_bad.fio:6: rate_iops: with rate and rate_iops",
					      "rates_bad.fio:9: rate_min: over the rate",
					      "rates_bad.fio:12: rate_process: poisson with reads",
					      NULL });
}

/*
 * fio 3.33's fixup_options(), as a job is added for the run (--parse-only stops before it):
 * time_based without a runtime is turned off, so the job ends at its size (fio: 256 I/Os of
 * 4k for size=1m; kfsim ran it to the end of the run before, thousands), and zonemode=zbd
 * with create_serialize=0 fails the run, as do a dedupe working set without size= and a
 * block error histogram over several files, and (verify_per_group_options()) jobs of one
 * reporting group that differ in lat_percentiles.
 */
static void test_run_fixups_as_fio(void **state)
{
	(void)state;
	assert_int_equal(rate_requests("[a]\nbs=4k\nsize=1m\ntime_based\n"), 256);
	assert_int_equal(rate_requests("[a]\nbs=4k\nsize=1m\ntime_based\nruntime=0\n"), 256);
	assert_true(rate_requests("[a]\nbs=4k\nsize=1m\ntime_based\nruntime=1\n") > 256);
	expect_refusal("zbd_serialize", "[a]\nzonemode=zbd\nzonesize=1m\nread_beyond_wp=1\n"
		       "create_serialize=0\n", 1,
		       (const char *const[]){ "zbd_serialize.fio:5: create_serialize: with "
					      "zonemode=zbd, fio's run fails", NULL });
	/* options without an effect here, checked there too: the dedupe working set, the
	 * block error histogram (fio's run: "... requires size to be set", "... single file")
	 */
	expect_refusal("run_fixups", "[a]\nioengine=null\ndedupe_mode=working_set\n"
		       "dedupe_percentage=10\n[b]\nioengine=null\nsize=1m\nnrfiles=2\n"
		       "block_error_percentiles=1\n", 1,
		       (const char *const[]){ "run_fixups.fio:3: dedupe_mode: with a "
					      "dedupe_percentage, fio's run fails",
					      "run_fixups.fio:9: block_error_percentiles: with "
					      "several files, fio's run fails", NULL });
	/* verify_per_group_options(): one reporting group, one lat_percentiles */
	expect_refusal("lat_pct_group", "[global]\nioengine=null\nsize=1m\n[a]\n"
		       "lat_percentiles=1\n[b]\ngroup_reporting\n", 1,
		       (const char *const[]){ "lat_pct_group.fio:5: lat_percentiles: differs "
					      "within a reporting group", NULL });
}

/*
 * exitall takes effect as the job exits, after its end_fsync, not at the end of its runtime:
 * a job then idle in its thinktime (here a buffered writer, whose writes complete as copies)
 * ran until that exit (fio_physics-style probe seed 20281: a
 * writer's 40 requests over an active time of 0.02 s, 2000 IOPS where its 20 ms pauses allow
 * one tenth of that, because it was ended at its exiting neighbour's runtime end).
 */
static void test_exitall_at_exit(void **state)
{
	struct file_run r;
	const struct kfsim_bfq_sim_result *res;

	(void)state;
	res = file_run(&r, "exitall_sync", "[w]\nrw=write\nbs=1m\ndirect=0\nsize=1g\n"
		       "runtime=20ms\nend_fsync=1\nexitall\n[r]\nrw=randwrite\ndirect=0\nbs=4k\n"
		       "thinktime=50ms\nthinktime_blocks=8\nthinktime_blocks_type=issue\n",
		       5 * NSEC_PER_SEC);
	print_message("exitall after end_fsync at %.3f s: w active %.3f s, r active %.3f s, "
		      "%llu requests\n", res->duration_s, res->jobs[0].active_s,
		      res->jobs[1].active_s, (unsigned long long)res->jobs[1].requests);
	assert_true(res->jobs[0].active_s < 0.03);	/* its runtime: the sync not counted */
	assert_true(res->jobs[1].active_s > 0.1);	/* it ran until w's sync ended */
	/* eight writes (copies into the page cache) a 50 ms pause, over the time it was active */
	assert_true(res->jobs[1].requests <= 8 * (res->jobs[1].active_s / 0.05 + 1));
	file_run_end(&r);
}

/*
 * A numeric value's parts as fio 3.33's handle_option() takes them (fio_regress/value_parts.fio
 * has fio's log as the referee): iodepth has no callback and stores its first part only, so
 * -1 (below minval 1) and abc-4 leave the [global]'s depth, though fio reads the line; size and
 * rwmixread have callbacks, called for each part that passes: the last wins.
 */
static void test_value_parts(void **state)
{
	char *path = job_file("value_parts",
			      "[global]\niodepth=8\nioengine=libaio\ndirect=1\nsize=1m\n"
			      "[a]\niodepth=-1\n[b]\niodepth=abc-4\n[c]\niodepth=4:32\n"
			      "[d]\nsize=4m-8m\n[e]\nrw=randrw\nrwmixread=30-70\n"
			      "[f]\nrw=randrw\nrwmixwrite=x,20\n", 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char why[1024];

	(void)state;
	if (parse_file(path, cfg, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(cfg->nr_jobs, 6);
	assert_int_equal(cfg->jobs[0].iodepth, 8);
	assert_int_equal(cfg->jobs[1].iodepth, 8);
	assert_int_equal(cfg->jobs[2].iodepth, 4);
	assert_int_equal(cfg->jobs[3].io_size, 8 << 20);
	assert_int_equal(cfg->jobs[4].rwmixread, 70);
	assert_int_equal(cfg->jobs[5].rwmixread, 80);
	free(cfg);
	free(path);
	/* no part passes: refused as before */
	expect_refusal("value_parts_bad", "[a]\niodepth=-0\n", 0,
		       (const char *const[]){ "value_parts_bad.fio:2: iodepth", NULL });
}

/*
 * fio's flow control (flow.c, fio 3.33): jobs of one flow_id keep their I/O counts in the
 * ratio of their flow weights, with and without flow_sleep; a job outside any flow is not held.
 */
static void test_flow(void **state)
{
	static const char *const sleeps[] = { "", "flow_sleep=1000\n" };

	for (int s = 0; s < 2; s++) {
		char text[512], name[32];
		struct kfsim_bfq_sim_config *cfg = new_cfg();
		const struct kfsim_bfq_sim_result *res;
		struct kfsim_bfq_sim *sim;
		char why[1024], *path;
		double ratio;

		snprintf(text, sizeof(text), "[global]\ndirect=1\nioengine=libaio\niodepth=8\n"
			 "bs=4k\nruntime=2\ntime_based\n%s[w]\nrw=randwrite\nflow=1\n[r]\n"
			 "rw=randread\nflow=8\n[free]\nrw=randread\n", sleeps[s]);
		snprintf(name, sizeof(name), "flow%d", s);
		path = job_file(name, text, 1);
		assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
		sim = kfsim_bfq_sim_create(cfg);
		assert_false(IS_ERR(sim));
		assert_int_equal(kfsim_bfq_sim_run(sim), 0);
		res = kfsim_bfq_sim_result(sim);
		ratio = (double)res->jobs[1].requests / (double)res->jobs[0].requests;
		print_message("flow 1:8%s: w %llu r %llu (x%.2f), free %llu requests\n",
			      s ? " flow_sleep=1000" : "", (unsigned long long)res->jobs[0].requests,
			      (unsigned long long)res->jobs[1].requests, ratio,
			      (unsigned long long)res->jobs[2].requests);
		assert_true(res->jobs[0].requests > 0);
		assert_true(ratio > 8 * 0.9 && ratio < 8 * 1.1);
		assert_true(res->jobs[2].requests > 0);
		kfsim_bfq_sim_destroy(sim);
		free(cfg);
		free(path);
	}
	expect_refusal("flow_bad", "[a]\nflow=x\n", 0,
		       (const char *const[]){ "flow_bad.fio:2: flow: expected a count", NULL });
}

/* Write @text as job file @name (fio must accept it), parse it and run it through the recorder. */
static void run_file_recorded(const char *name, const char *text)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	struct kfsim_bfq_sim *sim;
	char why[1024], *path;

	path = job_file(name, text, 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(elv_register(&rec_iosched), 0);
	assert_int_equal(kfsim_bfq_sched_parse("test-record", &cfg->sched), 0);
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	kfsim_bfq_sim_destroy(sim);
	elv_unregister(&rec_iosched);
	free(cfg);
	free(path);
}

/*
 * fio zonemode=strided (fio 3.33 setup_strided_zone_mode()): 256k read in 64k blocks per zone,
 * then on by zonerange (default zonesize) + zoneskip 768k; zonerange 128k with zonesize 256k
 * reads each zone's 128k twice; zonemode=none ignores zoneskip.  The offsets are fio's own:
 * fio 3.33 --write_iolog of the same jobs on an 8 MiB file gives these (2026-12-06).  Random
 * I/O with zones and zbd are refused, and so, in fio's words, are zonesize without
 * zonemode=strided and strided without zonesize.
 */
static void test_strided_zones(void **state)
{
	static const struct {
		const char *opts;
		u64 expect_kib[8];
	} cases[] = {
		{ "zonemode=strided\nzonesize=256k\nzoneskip=768k\n",
		  { 0, 64, 128, 192, 1024, 1088, 1152, 1216 } },
		{ "zonemode=strided\nzonesize=256k\nzonerange=128k\nzoneskip=128k\n",
		  { 0, 64, 0, 64, 256, 320, 256, 320 } },
		{ "zonemode=none\nzoneskip=768k\n",
		  { 0, 64, 128, 192, 256, 320, 384, 448 } },
	};

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		char text[256], name[32];

		snprintf(text, sizeof(text), "[z]\nrw=read\nbs=64k\ndirect=1\nnumber_ios=8\n%s",
			 cases[c].opts);
		snprintf(name, sizeof(name), "zones%zu", c);
		run_file_recorded(name, text);
		assert_int_equal(rec_seen.nr_first, 8);
		print_message("%s: KiB", name);
		for (unsigned int i = 0; i < 8; i++) {
			print_message(" %llu", (unsigned long long)rec_seen.first[i] / 2);
			assert_int_equal(rec_seen.first[i], cases[c].expect_kib[i] * 2);
		}
		print_message("\n");
	}
	expect_refusal("zones_bad", "[a]\nrw=randread\nzonemode=strided\nzonesize=1m\n"
		       "[b]\nzonemode=zbd\n", -1,
		       (const char *const[]){ "zones_bad.fio:3: zonemode: strided zones with random",
					      "zones_bad.fio:6: zonemode: Specifying the zone size",
					      NULL });
	/* fio --parse-only lets these pass; fio refuses them as the job starts */
	expect_refusal("zones_nomode", "[a]\nzonesize=256k\n", -1,
		       (const char *const[]){ "zonesize: without a zonemode, fio's run fails "
					      "(fixup_options(): \"--zonemode=none and --zonesize "
					      "are not compatible.\")", NULL });
	expect_refusal("zones_nosize", "[a]\nzonemode=strided\n", -1,
		       (const char *const[]){ "zonemode: --zonesize must be specified when using "
					      "--zonemode=strided.", NULL });
}

/*
 * fio verify_backlog: after every N blocks written, the N oldest not verified are read back,
 * then the writes go on; what is left is read after the write pass.  The sequences are fio's
 * own: fio 3.33 --write_iolog of the same jobs (32k, bs=4k, psync, direct) gives exactly these
 * (2026-12-06).
 */
static void test_verify_backlog(void **state)
{
	static const struct {
		unsigned int backlog;
		const char *expect;
	} cases[] = {
		{ 2, "w0 w1 r0 r1 w2 w3 r2 r3 w4 w5 r4 r5 w6 w7 r6 r7" },
		{ 3, "w0 w1 w2 r0 r1 r2 w3 w4 w5 r3 r4 r5 w6 w7 r6 r7" },
	};

	for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
		char text[256], name[32], got[256] = "";
		size_t used = 0;

		snprintf(text, sizeof(text), "[v]\nrw=write\nbs=4k\nsize=32k\ndirect=1\n"
			 "verify=crc32c\nverify_backlog=%u\n", cases[c].backlog);
		snprintf(name, sizeof(name), "vbacklog%zu", c);
		run_file_recorded(name, text);
		for (unsigned int i = 0; i < rec_seen.nr_first; i++)
			used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%c%llu",
						 i ? " " : "", rec_seen.first_write[i] ? 'w' : 'r',
						 (unsigned long long)(rec_seen.first[i] -
								      rec_seen.first[0]) / 8);
		print_message("verify_backlog=%u: %s\n", cases[c].backlog, got);
		assert_string_equal(got, cases[c].expect);
	}
	expect_refusal("vbacklog_bad", "[a]\nverify_backlog=x\n", 0,
		       (const char *const[]){ "vbacklog_bad.fio:2: verify_backlog: expected", NULL });
}

/*
 * fio's trims are BLKDISCARD ioctls (os_trim(), fio 3.33): the simulated disk has no discard
 * (-EOPNOTSUPP) and a file no such ioctl (-ENOTTY), so the first trim fails before the disk
 * and fio ends the job on it, unless continue_on_error and ignore_error let it go on (a
 * trim's error is a write error): that loop is refused.  An engine without disk I/O trims
 * nothing and runs.
 */
static void test_trims_fail_as_under_fio(void **state)
{
	char *path = job_file("trims",
		"[global]\nioengine=libaio\ndirect=1\nbs=4k\ncontinue_on_error=write\n"
		"ignore_error=,ENOSPC\ntime_based\nruntime=1\n"
		"[rd]\nrw=randread\niodepth=4\n"
		"[holes]\nrw=randtrim\n"
		"[dev]\nrw=trimwrite\nfilename=/dev/sdb\n"
		"[nul]\nrw=trim\nioengine=null\n", 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char why[1024];

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->nr_jobs, 4);
	assert_int_equal(cfg->jobs[0].io_error, 0);
	assert_int_equal(cfg->jobs[1].io_error, -ENOTTY);
	assert_int_equal(cfg->jobs[2].io_error, -EOPNOTSUPP);
	assert_int_equal(cfg->jobs[3].io_error, 0);	/* null: no disk I/O, nothing fails */
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	print_message("rd %llu requests; holes %s, dev %s, nul %d\n",
		      (unsigned long long)res->jobs[0].requests,
		      kfsim_errname(res->jobs[1].error), kfsim_errname(res->jobs[2].error),
		      res->jobs[3].error);
	assert_true(res->jobs[0].requests > 20);
	assert_int_equal(res->jobs[1].error, -ENOTTY);
	assert_int_equal(res->jobs[2].error, -EOPNOTSUPP);
	assert_int_equal(res->jobs[3].error, 0);
	for (int j = 1; j < 3; j++) {
		assert_int_equal(res->jobs[j].requests, 0);
		assert_int_equal(res->jobs[j].bytes, 0);
	}
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);

	/* with exitall the failed trim ends the others: nothing more is issued */
	path = job_file("trimexit", "[global]\nioengine=libaio\ndirect=1\nexitall\n"
			"time_based\nruntime=2\n[rd]\nrw=randread\niodepth=1\n"
			"[holes]\nrw=randtrim\nstartdelay=100ms\n", 1);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	print_message("exitall: rd active %.3f s, %llu requests\n", res->jobs[0].active_s,
		      (unsigned long long)res->jobs[0].requests);
	assert_true(res->jobs[0].requests > 0);
	assert_true(res->jobs[0].active_s < 0.2);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);

	/* errors fio ignores would make it trim in a loop: refused; bad values as fio */
	expect_refusal("trimloop", "[a]\nioengine=libaio\nrw=randtrim\n"
		       "continue_on_error=write\nignore_error=,EIO:25\n", 1,
		       (const char *const[]){ "trimloop.fio:3: rw: the trims fail (ENOTTY", NULL });
	/* a non-empty ignore_error list turns its type's continue_on_error on (fio) */
	expect_refusal("trimdev", "[a]\nioengine=libaio\nrw=trim\nfilename=/dev/sda\n"
		       "ignore_error=,EOPNOTSUPP\n", 1,
		       (const char *const[]){ "trimdev.fio:3: rw: the trims fail (EOPNOTSUPP",
					      NULL });
	/* fio --parse-only skips ignore_error's check (parse_dryrun()); a run says this */
	expect_refusal("badignore", "[a]\nignore_error=,EFROB\n", -1,
		       (const char *const[]){ "badignore.fio:2: ignore_error: Unknown error EFROB",
					      NULL });
	expect_refusal("badcontinue", "[a]\ncontinue_on_error=maybe\n", 0,
		       (const char *const[]){ "badcontinue.fio:2: continue_on_error: expected none",
					      NULL });
}

/*
 * Run @text (a job file fio accepts, not asked again: each fio call costs CI a quarter of a
 * second) for up to @duration_s: the first job's figures.
 */
static u64 ramp_device_completed;	/* ramp_run()'s: the disk's completions */

static struct kfsim_bfq_job_result ramp_run(const char *name, const char *text,
					    unsigned int duration_s, double *run_s)
{
	char *path = job_file(name, text, -1);	/* fio reads them: test_ramp_time_values() */
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	struct kfsim_bfq_job_result job;
	struct kfsim_bfq_sim *sim;
	char why[1024];

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	cfg->duration_ns = (u64)duration_s * NSEC_PER_SEC;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	job = res->jobs[0];
	*run_s = res->duration_s;
	ramp_device_completed = res->completed;
	print_message("%s: %llu requests, %llu bytes, active %.4f s of a %.4f s run, "
		      "lat mean %.1f us; %llu completed by the disk\n", name,
		      (unsigned long long)job.requests,
		      (unsigned long long)(job.read_bytes + job.write_bytes), job.active_s,
		      *run_s, job.lat_mean_us, (unsigned long long)res->completed);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);
	return job;
}

/*
 * fio's reading of ramp_time (fio 3.33 options.c: FIO_OPT_STR_VAL_TIME, is_seconds): seconds
 * without a unit, us ms s m h d; what fio cannot read it refuses ("failed parsing").
 */
static void test_ramp_time_values(void **state)
{
	static const struct { const char *value; u64 ns; } ok[] = {
		{ "2s", 2 * NSEC_PER_SEC }, { "500ms", 500 * NSEC_PER_MSEC },
		{ "3", 3 * NSEC_PER_SEC }, { "0", 0 }, { "250us", 250 * NSEC_PER_USEC },
		{ "1m", 60 * NSEC_PER_SEC },
	};
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char text[512] = "[global]\nramp_time=1\nrw=read\n[global]\n", why[1024], *path;
	size_t len = strlen(text);

	/* one file, one fio call: a job per value, and one that keeps the [global] value */
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		len += snprintf(text + len, sizeof(text) - len, "[j%zu]\nramp_time=%s\n", i,
				ok[i].value);
	snprintf(text + len, sizeof(text) - len, "[g]\n");
	path = job_file("rampvalues", text, 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->nr_jobs, ARRAY_SIZE(ok) + 1);
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		assert_int_equal(cfg->jobs[i].ramp_ns, ok[i].ns);
	assert_int_equal(cfg->jobs[ARRAY_SIZE(ok)].ramp_ns, NSEC_PER_SEC);
	free(cfg);
	free(path);
	/* what fio fails to parse, both named at once */
	expect_refusal("rampbad", "[a]\nramp_time=abc\n[b]\nramp_time=\n", 0,
		       (const char *const[]){ "rampbad.fio:2: ramp_time", "rampbad.fio:4: ramp_time",
					      NULL });
	/* fio takes any 64-bit time; kfsim's clock would wrap adding it to a start */
	expect_refusal("ramphuge", "[a]\nramp_time=18446744073\n[b]\nruntime=18446744073\n", -1,
		       (const char *const[]){ "ramphuge.fio:2: ramp_time", "146 years",
					      "ramphuge.fio:4: runtime", NULL });
	/*
	 * The run a file asks for outlasts the ramp, however late the first I/O after it comes
	 * (a 5 s think time: it ends the ramp at 5 s, the runtime runs to 10 s)
	 */
	cfg = new_cfg();
	path = job_file("rampthink", "[a]\nrw=read\nbs=4k\nsize=1m\ntime_based\nruntime=5\n"
			"ramp_time=2\nthinktime=5s\n", -1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_true(cfg->duration_ns >= 10 * NSEC_PER_SEC);
	free(cfg);
	free(path);
}

/*
 * What a ramp does to what the job reports, as fio 3.33 does it (time.c ramp_time_over(),
 * libfio.c reset_all_stats()).  The figures fio itself gave for these jobs with
 * ioengine=null (2026-12-07, this machine): 1047 ios in 1047 ms for the size-limited one
 * (its 1000 ramp ios and the completion that ended the ramp are forgotten, yet counted
 * towards its size), 1000 ios in 1000 ms for the time-based one, and all 256 ios without a
 * latency sample (clat N=0) when the work ends within the ramp.
 */
static void test_ramp_time_run(void **state)
{
	const char *rated = "[a]\nrw=read\nbs=4k\nsize=8m\nrate_iops=1000\n";
	struct kfsim_bfq_job_result job, plain;
	double run_s, plain_run_s;
	char text[256];

	/* size-limited: 2048 I/Os in all, the ramp's 1000 and the one that ended it forgotten */
	snprintf(text, sizeof(text), "%sramp_time=1\n", rated);
	job = ramp_run("rampsize", text, 5, &run_s);
	assert_int_equal(job.requests, 2048 - 1000 - 1);
	assert_int_equal(job.read_bytes, job.requests * 4096);
	assert_true(fabs(job.active_s - 1.047) < 0.002);
	assert_true(fabs(run_s - 2.047) < 0.002);
	assert_true(job.lat_mean_us > 0);

	/* ramp_time=0 is no ramp: the same run as without it */
	plain = ramp_run("rampnone", rated, 5, &plain_run_s);
	snprintf(text, sizeof(text), "%sramp_time=0\n", rated);
	job = ramp_run("rampzero", text, 5, &run_s);
	assert_int_equal(job.requests, 2048);
	assert_int_equal(job.requests, plain.requests);
	assert_true(job.active_s == plain.active_s && run_s == plain_run_s);
	assert_true(job.lat_mean_us == plain.lat_mean_us);

	/* time_based: the runtime starts at the ramp's end, the run lasts both */
	snprintf(text, sizeof(text), "%stime_based\nruntime=1\nramp_time=500ms\n", rated);
	job = ramp_run("ramptime", text, 10, &run_s);
	assert_true(job.requests >= 1000 && job.requests <= 1001);
	assert_true(fabs(job.active_s - 1.0) < 1e-9);
	assert_true(run_s > 1.5 && run_s < 1.51);

	/* the work ends within the ramp: all of it reported, no latency accounted */
	job = ramp_run("ramplong", "[a]\nrw=read\nbs=4k\nsize=1m\nramp_time=10\n", 20, &run_s);
	assert_int_equal(job.requests, 256);
	assert_int_equal(job.read_bytes, 1 << 20);
	assert_true(job.lat_mean_us == 0 && job.lat_max_us == 0);
	assert_true(job.active_s == run_s && run_s < 1);

	/*
	 * verify_backlog: the write pass still ends at the size (fio's io_issue_bytes keeps the
	 * ramp's writes), each block written once and read back once
	 */
	job = ramp_run("rampvb", "[a]\nrw=write\nbs=4k\nsize=4m\nrate_iops=2000\ndirect=1\n"
		       "verify=crc32c\nverify_backlog=64\nramp_time=200ms\n", 20, &run_s);
	assert_int_equal(ramp_device_completed, 2 * 1024);
	assert_true(job.requests < 2 * 1024 && job.write_bytes < 4 << 20);

	/* number_ios counts from the ramp's end (fio's io_blocks is reset) */
	job = ramp_run("rampnios", "[a]\nrw=write\nbs=4k\nsize=4m\nrate_iops=2000\ndirect=1\n"
		       "ioengine=libaio\niodepth=4\nnumber_ios=600\nramp_time=200ms\n", 10, &run_s);
	assert_int_equal(job.requests, 600);
	assert_true(ramp_device_completed > 600 + 350);
}

/*
 * fio itself as the referee of a ramp's effect: a size-limited job and a time-based one at
 * 4000 IOPS with a 50 ms ramp, run by fio with ioengine=null (no disk; the rate paces them)
 * and by kfsim on its disk.  fio's figures wobble on a loaded machine (its rate catches up
 * after a late wake-up): one of three runs must agree within 5 %.  About 0.6 s of fio.
 */
static void test_ramp_time_fio_referee(void **state)
{
	static const char *const jobs[] = {
		"[size]\nrw=read\nbs=4k\nsize=2m\nrate_iops=4000\nramp_time=50ms\n",
		"[time]\nrw=read\nbs=4k\nsize=2m\nrate_iops=4000\ntime_based\nruntime=100ms\n"
		"ramp_time=50ms\n",
	};
	struct kfsim_bfq_job_result sim[2];
	char cmd[1024], *path;
	double run_s;
	bool agree = false;
	FILE *f;

	if (!have_fio() || system("command -v python3 >/dev/null 2>&1")) {
		print_message("fio or python3 missing: kfsim's figures only\n");
		return;
	}
	sim[0] = ramp_run("rampref0", jobs[0], 5, &run_s);
	sim[1] = ramp_run("rampref1", jobs[1], 5, &run_s);
	snprintf(cmd, sizeof(cmd), "%s%s", jobs[0], jobs[1]);
	path = job_file("rampref", cmd, -1);	/* fio's run below must read it */
	snprintf(cmd, sizeof(cmd), "fio --ioengine=null --output-format=json '%s' 2>/dev/null | "
		 "python3 -c 'import json,sys\nfor j in json.load(sys.stdin)[\"jobs\"]: "
		 "print(j[\"read\"][\"total_ios\"], j[\"read\"][\"runtime\"])'", path);
	for (int run = 0; run < 3 && !agree; run++) {
		unsigned long long ios[2] = { 0 }, ms[2] = { 0 };

		f = popen(cmd, "r");
		assert_non_null(f);
		for (int i = 0; i < 2; i++)
			assert_int_equal(fscanf(f, "%llu %llu", &ios[i], &ms[i]), 2);
		pclose(f);
		agree = true;
		for (int i = 0; i < 2; i++) {
			double dios = fabs((double)ios[i] - (double)sim[i].requests);
			double dms = fabs((double)ms[i] - sim[i].active_s * 1e3);

			print_message("%s: fio %llu ios in %llu ms, kfsim %llu in %.0f ms\n",
				      i ? "time_based" : "size-limited", ios[i], ms[i],
				      (unsigned long long)sim[i].requests, sim[i].active_s * 1e3);
			agree = agree && dios <= 0.05 * (double)ios[i] &&
				dms <= 0.05 * (double)ms[i] + 2;
		}
	}
	assert_true(agree);
	free(path);
}

/* fio's latency_target in a run: the search's depth caps the job; its end; its errors. */
static void test_latency_target(void **state)
{
	const char *head = "[global]\nioengine=libaio\ndirect=1\nrw=randread\nbs=4k\n"
			   "iodepth=16\nlatency_window=300ms\n";
	char text[512];
	char *path;
	struct kfsim_bfq_sim_config *cfg;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char why[1024];
	u64 device_requests;

	/* a target every depth meets: windows at 1, 2, 4, 8, 16 (settled), a last one, the end */
	snprintf(text, sizeof(text), "%s[a]\nlatency_target=10s\nlatency_percentile=99.9\n",
		 head);
	path = job_file("lattarget", text, 1);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->jobs[0].latency_target_ns, 10ULL * NSEC_PER_SEC);
	assert_int_equal(cfg->jobs[0].latency_window_ns, 300 * NSEC_PER_MSEC);
	assert_true(cfg->jobs[0].latency_percentile == 99.9);
	assert_false(cfg->jobs[0].latency_run);
	cfg->duration_ns = 20 * NSEC_PER_SEC;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	device_requests = res->actuator[0].requests + res->actuator[1].requests;
	print_message("settled at depth %u after %.2f s; its last window %.2f s, %llu of %llu "
		      "requests\n", res->jobs[0].lat_target_depth, res->duration_s,
		      res->jobs[0].active_s, (unsigned long long)res->jobs[0].requests,
		      (unsigned long long)device_requests);
	assert_int_equal(res->jobs[0].lat_target_depth, 16);
	assert_int_equal(res->jobs[0].error, 0);
	/* six windows and two drains: the job ends long before the 20 s */
	assert_true(res->duration_s > 6 * 0.3 && res->duration_s < 4);
	/* the figures are the last window's alone */
	assert_true(res->jobs[0].active_s >= 0.3 && res->jobs[0].active_s < 0.5);
	assert_true(res->jobs[0].requests > 0 && res->jobs[0].requests < device_requests / 2);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);

	/* latency_run: the search goes on until the run ends */
	snprintf(text, sizeof(text), "%s[a]\nlatency_target=10s\nlatency_run=1\n", head);
	path = job_file("latrun", text, 1);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	cfg->duration_ns = 3 * NSEC_PER_SEC;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	assert_int_equal(res->jobs[0].lat_target_depth, 16);
	assert_true(res->jobs[0].active_s > 2.99);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);

	/* a target no disk meets, at 100 %: the first I/O ends the job with ETIMEDOUT */
	snprintf(text, sizeof(text), "%s[a]\nlatency_target=1\n", head);
	path = job_file("latfatal", text, 1);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->jobs[0].latency_target_ns, 1000);	/* microseconds */
	assert_true(cfg->jobs[0].latency_percentile == 100);
	cfg->duration_ns = 2 * NSEC_PER_SEC;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	print_message("latency_target=1: %s after %llu request(s)\n",
		      kfsim_errname(res->jobs[0].error),
		      (unsigned long long)res->jobs[0].requests);
	assert_int_equal(res->jobs[0].error, -ETIMEDOUT);
	assert_int_equal(res->jobs[0].requests, 1);
	assert_int_equal(res->jobs[0].lat_target_depth, 1);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);

	/* through the library, a percentile out of range is refused as the run is created */
	path = job_file("latapi", "[a]\nlatency_target=1ms\n", 1);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	cfg->jobs[0].latency_percentile = 100.5;
	assert_true(IS_ERR(kfsim_bfq_sim_create(cfg)));
	cfg->jobs[0].latency_percentile = -1;
	assert_true(IS_ERR(kfsim_bfq_sim_create(cfg)));
	free(cfg);
	free(path);
	/* a bad io_error too */
	path = job_file("ioerrapi", "[a]\nrw=randtrim\nioengine=libaio\n", 1);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	cfg->jobs[0].io_error = EIO;
	assert_true(IS_ERR(kfsim_bfq_sim_create(cfg)));
	free(cfg);
	free(path);

	/* bad values as fio refuses them; an ignored ETIMEDOUT would go on past it: refused */
	expect_refusal("latpct", "[a]\nlatency_target=1ms\nlatency_percentile=101\n", 0,
		       (const char *const[]){ "latpct.fio:3: latency_percentile: value out of "
					      "range: 101", NULL });
	expect_refusal("latbad", "[a]\nlatency_target=soon\n", 0,
		       (const char *const[]){ "latbad.fio:2: latency_target: failed parsing", NULL });
	expect_refusal("latignore", "[a]\nioengine=libaio\nlatency_target=1ms\n"
		       "continue_on_error=read\nignore_error=ETIMEDOUT\n", 1,
		       (const char *const[]){ "latignore.fio:3: latency_target: ignore_error "
					      "holds ETIMEDOUT", NULL });
}

/*
 * zonemode=zbd on the simulated disk, which is not zoned: fio emulates empty sequential zones,
 * so a job reading only written data (read_beyond_wp=0) reads nothing and ends at once, and
 * read_beyond_wp=1 reads as without zones; writes to zones are refused.
 */
static void test_zbd_on_a_conventional_disk(void **state)
{
	char *path = job_file("zbdread",
		"[global]\nioengine=libaio\ndirect=1\niodepth=4\nbs=256k\nzonemode=zbd\n"
		"zonesize=256M\ntime_based\nruntime=1\nfilename=/dev/sdd\n"
		"[written]\nrw=read\n"
		"[beyond]\nrw=randread\nread_beyond_wp=1\n", 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char why[1024];

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_true(cfg->jobs[0].eof_at_start);
	assert_false(cfg->jobs[1].eof_at_start);
	assert_int_equal(cfg->jobs[1].zone_size, 0);	/* not strided zones */
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	print_message("read_beyond_wp=0: %llu requests; =1: %llu\n",
		      (unsigned long long)res->jobs[0].requests,
		      (unsigned long long)res->jobs[1].requests);
	assert_int_equal(res->jobs[0].requests, 0);
	assert_int_equal(res->jobs[0].error, 0);
	assert_true(res->jobs[0].active_s == 0);
	assert_true(res->jobs[1].requests > 50);
	assert_true(res->jobs[1].active_s > 0.99);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);

	/* fio's zbd init says this at run time (--parse-only accepts the file) */
	expect_refusal("zbdnosize", "[a]\nzonemode=zbd\nioengine=libaio\n", 1,
		       (const char *const[]){ "zbdnosize.fio:2: zonemode: Specifying the zone size "
					      "is mandatory", NULL });
	expect_refusal("zbdwrite", "[global]\nzonemode=zbd\nzonesize=64M\n[a]\nrw=randwrite\n"
		       "direct=1\n[b]\nrw=write\ndirect=1\n", 1,
		       (const char *const[]){ "zbdwrite.fio:2: zonemode: writes to zones",
					      "zbdwrite.fio:3: zonesize: an option of writes to zbd zones",
					      NULL });
	expect_refusal("zbdbool", "[a]\nzonemode=zbd\nzonesize=64M\nread_beyond_wp=2\n", 0,
		       (const char *const[]){ "zbdbool.fio:4: read_beyond_wp: expected 0 or 1",
					      NULL });
	expect_refusal("zbdopen", "[a]\nzonemode=zbd\nzonesize=64M\nmax_open_zones=5000\n", 0,
		       (const char *const[]){ "zbdopen.fio:4: max_open_zones: max value out of "
					      "range: 5000 (4096 max)",
					      NULL });
}

/*
 * ioengine=libzbc opens only zoned disks (libzbc's zbc_open(): -ENXIO for a standard one) and
 * only devices (-EINVAL for a file): on the simulated disk every such job ends before any I/O,
 * before its zones matter.  Debian's fio lacks the engine, so fio does not judge these files.
 */
static void test_libzbc_cannot_open(void **state)
{
	char *path = job_file("libzbc",
		"[global]\nzonemode=zbd\nzonesize=256M\nmax_open_zones=32\nbs=512k\n"
		"direct=1\ntime_based\nruntime=1\n"
		"[dev]\nrw=randwrite\nfilename=/dev/sdj\nioengine=libzbc\nnumjobs=2\n"
		"[file]\nrw=read\nioengine=libzbc\n"
		"[rd]\nrw=randread\nzonemode=none\nzonesize=0\nioengine=libaio\n", -1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim *sim;
	char why[1024];

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->nr_jobs, 4);
	assert_int_equal(cfg->jobs[0].io_error, -ENXIO);
	assert_int_equal(cfg->jobs[1].io_error, -ENXIO);
	assert_int_equal(cfg->jobs[2].io_error, -EINVAL);
	assert_int_equal(cfg->jobs[3].io_error, 0);
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	res = kfsim_bfq_sim_result(sim);
	for (int j = 0; j < 3; j++) {
		assert_int_equal(res->jobs[j].requests, 0);
		assert_int_equal(res->jobs[j].error, cfg->jobs[j].io_error);
	}
	assert_true(res->jobs[3].requests > 20);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);
}

/* Run @text's jobs for up to @secs simulated seconds; the result stays with *@sim. */
static const struct kfsim_bfq_sim_result *ss_run(const char *name, const char *text,
						  unsigned int secs, struct kfsim_bfq_sim **sim,
						  struct kfsim_bfq_sim_config **cfg)
{
	char why[1024];
	char *path = job_file(name, text, 1);

	*cfg = new_cfg();
	assert_int_equal(parse_file(path, *cfg, why, sizeof(why)), 0);
	free(path);
	(*cfg)->duration_ns = (u64)secs * NSEC_PER_SEC;
	*sim = kfsim_bfq_sim_create(*cfg);
	assert_false(IS_ERR(*sim));
	assert_int_equal(kfsim_bfq_sim_run(*sim), 0);
	return kfsim_bfq_sim_result(*sim);
}

static void ss_done(struct kfsim_bfq_sim *sim, struct kfsim_bfq_sim_config *cfg)
{
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
}

#define SS_HEAD "[global]\nioengine=libaio\ndirect=1\ntime_based\nruntime=60\n" \
		"[seq]\nrw=read\nbs=128k\niodepth=8\n"

/* fio's reading of the steady-state options: criteria, limits, aliases, default, units. */
static void test_steadystate_options(void **state)
{
	static const struct {
		const char *opts;
		unsigned int ss_state;
		double limit;
		u64 dur_s, ramp_ns;
	} cases[] = {
		{ "ss=iops:10%\nss_dur=30s\nss_ramp=10s\n", KFSIM_SS_IOPS | KFSIM_SS_PCT, 10, 30,
		  10 * NSEC_PER_SEC },
		{ "ss=bw_slope:1%\nss_dur=10\n", KFSIM_SS_BW | KFSIM_SS_SLOPE | KFSIM_SS_PCT, 1, 10,
		  0 },
		{ "steadystate=bw:10m\nsteadystate_duration=1m\nsteadystate_ramp_time=500ms\n",
		  KFSIM_SS_BW, 10 << 20, 60, 500 * NSEC_PER_MSEC },
		/* fio's str_to_decimal(): a fraction and what follows it are dropped */
		{ "ss=bw:1.5k\nss_dur=2\n", KFSIM_SS_BW, 1, 2, 0 },
		{ "ss=iops_slope:1e2\nss_dur=2\n", KFSIM_SS_IOPS | KFSIM_SS_SLOPE, 100, 2, 0 },
		{ "ss=iops:5 %\nss_dur=2\n", KFSIM_SS_IOPS | KFSIM_SS_PCT, 5, 2, 0 },
		/* a window alone takes fio's default criterion */
		{ "ss_dur=3\n", KFSIM_SS_IOPS | KFSIM_SS_SLOPE | KFSIM_SS_PCT, 0.01, 3, 0 },
		/* whole seconds: under one turns detection off */
		{ "ss=iops:1\nss_dur=500ms\n", KFSIM_SS_IOPS, 1, 0, 0 },
		/* another reporting group (stonewall, new_group) may differ; clones agree */
		{ "ss=iops:1\nss_dur=2\nnumjobs=2\n[b]\nstonewall\nrw=read\n[c]\nnew_group\n"
		  "ss=bw:1\nss_dur=3\n", KFSIM_SS_IOPS, 1, 2, 0 },
	};
	char text[512], why[1024];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kfsim_bfq_sim_config *cfg = new_cfg();
		char name[32], *path;

		snprintf(text, sizeof(text), "%s%s", SS_HEAD, cases[i].opts);
		snprintf(name, sizeof(name), "ss_opts%zu", i);
		path = job_file(name, text, 1);
		assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
		if (cases[i].dur_s)
			assert_int_equal(cfg->jobs[0].ss_state, cases[i].ss_state);
		assert_true(fabs(cfg->jobs[0].ss_limit - cases[i].limit) < 1e-9);
		assert_int_equal(cfg->jobs[0].ss_dur_s, cases[i].dur_s);
		assert_int_equal(cfg->jobs[0].ss_ramp_ns, cases[i].ramp_ns);
		free(path);
		free(cfg);
	}
}

/* What fio refuses, in fio's words; what kfsim alone refuses, with its reason. */
static void test_steadystate_refused(void **state)
{
	static const struct {
		const char *opts;
		int fio_accepts;
		const char *why;
	} cases[] = {
		{ "ss=iops\nss_dur=5\n", 0, "ss: steadystate threshold must be specified in "
		  "addition to criterion" },
		{ "ss=iops:\nss_dur=5\n", 0, "ss: steadystate IOPS threshold postfix parsing failed" },
		{ "ss=bw:abc\nss_dur=5\n", 0, "ss: steadystate BW threshold postfix parsing failed" },
		{ "ss=iops:x%\nss_dur=5\n", 0, "ss: could not parse steadystate threshold "
		  "percentage" },
		{ "ss=IOPS:5\nss_dur=5\n", 0, "ss: failed parsing ss=IOPS:5" },
		{ "ss=bw_slop:5\nss_dur=5\n", 0, "ss: failed parsing ss=bw_slop:5" },
		/* an alias is named as written, as fio names it */
		{ "steadystate=abc\nss_dur=5\n", 0, "steadystate: failed parsing steadystate=abc" },
		{ "ss=iops:5\nss_dur=abc\n", 0, "ss_dur: failed parsing ss_dur=abc" },
		{ "ss=iops:5\nss_dur=5\nss_ramp=x\n", 0, "ss_ramp: failed parsing ss_ramp=x" },
		{ "ss=bw:5x\nss_dur=5\n", 1, "kfsim reads k, m, g, t" },
		{ "ss=iops:5\nss_dur=2d\n", 1, "a window over 86400 s is not modelled" },
		{ "group_reporting\nss=iops:5\nss_dur=5\n", 1, "steady state of a reporting group" },
		{ "filename=/dev/zero\nss=iops:5\nss_dur=5\n", 1, "steady state of a job without "
		  "disk I/O" },
		/* fio's td_steadystate_init() rejects it when the run starts: --parse-only cannot */
		{ "ss=iops:5\nss_dur=5\n[other]\nrw=read\n", 1, "job rejected: steadystate "
		  "options must be consistent within reporting groups" },
		{ "ss=iops:5\nss_dur=5\n[other]\nrw=read\nss=iops:5\nss_dur=6\n", 1,
		  "job rejected: steadystate options must be consistent" },
	};
	char text[512], why[1024];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kfsim_bfq_sim_config *cfg = new_cfg();
		char name[32], *path;

		snprintf(text, sizeof(text), "%s%s", SS_HEAD, cases[i].opts);
		snprintf(name, sizeof(name), "ss_bad%zu", i);
		path = job_file(name, text, cases[i].fio_accepts);
		assert_int_equal(parse_file(path, cfg, why, sizeof(why)), -EINVAL);
		print_message("%s\n", why);
		assert_non_null(strstr(why, cases[i].why));
		free(path);
		free(cfg);
	}
}

/*
 * A sequential reader's rate is steady: it attains steady state after its window and ends
 * long before its runtime; a ramp delays the window by as much.
 */
static void test_steadystate_attained(void **state)
{
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim_config *cfg;
	struct kfsim_bfq_sim *sim;
	double ended_at, mean;

	(void)state;
	res = ss_run("ss_dev", SS_HEAD "ss=iops:5%\nss_dur=5\n", 120, &sim, &cfg);
	print_message("iops:5%%, 5 s: attained=%d after %.3f s, criterion %.4f%%, deviation %.2f "
		      "IOPS, mean %llu IOPS\n", res->jobs[0].ss_attained, res->duration_s,
		      res->jobs[0].ss_criterion, res->jobs[0].ss_deviation,
		      (unsigned long long)res->jobs[0].ss_iops_mean);
	assert_true(res->jobs[0].ss_attained);
	/* the fifth check fills the window; the job ends as its I/O in flight completes */
	assert_true(res->duration_s >= 5.0 && res->duration_s < 5.1);
	assert_true(res->jobs[0].ss_criterion < 5);
	mean = (double)res->jobs[0].ss_iops_mean;
	assert_true(mean > 0);
	/* percent of the window's mean */
	assert_true(fabs(res->jobs[0].ss_criterion - 100 * res->jobs[0].ss_deviation / mean) <
		    0.01 * res->jobs[0].ss_criterion + 1e-9);
	assert_true(res->jobs[0].ss_slope == 0);
	/* the window's samples: their integer mean and largest deviation are the figures */
	assert_non_null(res->jobs[0].ss_iops_data);
	{
		u64 sum = 0;
		double dev = 0;

		for (unsigned int i = 0; i < 5; i++)
			sum += res->jobs[0].ss_iops_data[i];
		for (unsigned int i = 0; i < 5; i++)
			dev = fmax(dev, fabs((double)res->jobs[0].ss_iops_data[i] - sum / 5.0));
		assert_int_equal(sum / 5, res->jobs[0].ss_iops_mean);
		assert_true(fabs(dev - res->jobs[0].ss_deviation) < 1e-9);
	}
	ended_at = res->duration_s;
	ss_done(sim, cfg);

	/* an absolute limit: the criterion is the deviation itself */
	res = ss_run("ss_abs", SS_HEAD "ss=iops:200\nss_dur=5\n", 120, &sim, &cfg);
	assert_true(res->jobs[0].ss_attained);
	assert_true(res->jobs[0].ss_criterion == res->jobs[0].ss_deviation);
	assert_true(res->jobs[0].ss_criterion < 200);
	ss_done(sim, cfg);

	/* the slope criterion judges the fitted slope, not the deviation */
	res = ss_run("ss_slope", SS_HEAD "ss=bw_slope:1%\nss_dur=5\n", 120, &sim, &cfg);
	print_message("bw_slope:1%%: attained=%d after %.3f s, slope %.1f B/s/s, criterion "
		      "%.4f%%\n", res->jobs[0].ss_attained, res->duration_s, res->jobs[0].ss_slope,
		      res->jobs[0].ss_criterion);
	assert_true(res->jobs[0].ss_attained);
	assert_true(fabs(res->jobs[0].ss_criterion) < 1);
	assert_true(res->jobs[0].ss_deviation == 0);
	assert_true(fabs(res->jobs[0].ss_criterion -
			 100 * res->jobs[0].ss_slope / (double)res->jobs[0].ss_bw_mean) < 1e-3);
	ss_done(sim, cfg);

	/* ss_ramp=3: the first sample is the second ending at 5 s (more than ramp + 1 s after
	 * the start, as fio's jobs are at its checks), the window full at 9 s */
	res = ss_run("ss_ramp", SS_HEAD "ss=iops:5%\nss_dur=5\nss_ramp=3\n", 120, &sim, &cfg);
	print_message("with ss_ramp=3: attained=%d after %.3f s (%.3f s without)\n",
		      res->jobs[0].ss_attained, res->duration_s, ended_at);
	assert_true(res->jobs[0].ss_attained);
	assert_true(fabs(res->duration_s - ended_at - 4.0) < 0.05);
	ss_done(sim, cfg);

	/* a limit no rate meets: the job runs to its runtime */
	res = ss_run("ss_never", SS_HEAD "ss=iops:0\nss_dur=5\n", 120, &sim, &cfg);
	assert_false(res->jobs[0].ss_attained);
	assert_true(res->jobs[0].active_s > 59.9);
	ss_done(sim, cfg);
}

/*
 * A reader whose rate keeps changing (another reader takes turns with it, two seconds on,
 * two off) never holds within 10 % over a 3 s window and runs to its runtime.  The others
 * are reporting groups of their own (new_group): fio rejects a group whose jobs disagree on
 * steady state.
 */
static void test_steadystate_not_attained(void **state)
{
	char text[2048];
	size_t used;
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim_config *cfg;
	struct kfsim_bfq_sim *sim;

	(void)state;
	/* one device: 5 x (10% + 20%) of files would not fit on the disk */
	used = (size_t)snprintf(text, sizeof(text), "[global]\nioengine=libaio\ndirect=1\n"
				"filename=/dev/sdb\n"
				"time_based\n[seq]\nrw=read\nbs=128k\niodepth=8\nruntime=20\n"
				"ss=bw:10%%\nss_dur=3\n");
	for (unsigned int k = 0; k < 5; k++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "[rnd%u]\nnew_group\n"
					 "rw=randread\n"
					 "bs=4k\niodepth=8\noffset=10%%\nsize=20%%\n"
					 "startdelay=%u\n"
					 "runtime=2\n", k, 2 + 4 * k);
	res = ss_run("ss_changing", text, 40, &sim, &cfg);
	print_message("bw:10%%, 3 s, rate changing: attained=%d, ran %.2f s, last criterion "
		      "%.1f%%\n", res->jobs[0].ss_attained, res->jobs[0].active_s,
		      res->jobs[0].ss_criterion);
	assert_false(res->jobs[0].ss_attained);
	assert_true(res->jobs[0].active_s > 19.9);
	assert_true(res->jobs[0].ss_criterion >= 10);
	ss_done(sim, cfg);
}

/*
 * rw=randread:4 (fio's ddir_seq_nr): fio takes its count down at each I/O and draws a new
 * random offset only when it reaches 0 (io_u.c get_next_offset()), starting it at 1 so the
 * first I/O draws one (init.c), so every fourth lands at random, the first too, and three go
 * on sequentially from where the last one ended; with rw_sequencer=identical they start where
 * the last one of their direction started (fio 3.33 --write_iolog, 16 blocks, bs=4k, psync:
 * blocks 0 0 0 0 11 11 11 11 13 13 13 13 7 7 7 7, and with rw=randrw:3 r0 r0 r0 w11 r0 r0 w13
 * w13 w13 r7 w13 r7 w6 r7 r7 r14: one count for both directions, a last start for each).
 * kfsim started the count at 4, so its first three I/Os went from the region's start, and
 * refused identical until 2026-12-08 (fio_jobgen --wide seeds 41001-41400: 13 files).
 */
static void test_rand_seq_nr(void **state)
{
	char *path = job_file("randseq", "[r]\nrw=randread:4\nbs=4k\nsize=1g\n", 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	struct rnd_state rnd;
	sector_t pos, next = 0, prev_end = 0, last = KFSIM_BFQ_NO_LAST_START;
	unsigned int seq_left, nr_jumps = 0;
	char why[1024];

	(void)state;
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->jobs[0].ddir_seq_nr, 4);
	seq_left = 1;	/* fio's td->ddir_seq_nr at the job's start */
	prandom_seed_state(&rnd, 42);
	for (unsigned int io = 0; io < 400; io++) {
		pos = kfsim_bfq_job_choose_sector(&cfg->jobs[0], 0, 2097152, &next, &last,
						  &seq_left, 4096, &rnd);
		if (io % 4)
			assert_int_equal(pos, prev_end);	/* sequential after the last */
		else
			nr_jumps += pos != prev_end;
		prev_end = pos + 8;
	}
	assert_true(nr_jumps >= 99);	/* a random draw lands next to the last I/O rarely */
	free(cfg);
	free(path);

	/* identical: each direction's last start again; one count for both directions */
	path = job_file("randseq_ident", "[r]\nrw=randrw:3\nrw_sequencer=identical\nbs=4k\n"
			"size=1g\n", 1);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_true(cfg->jobs[0].rw_seq_identical);
	{
		/* fio's directions above: r r r w r r w w w r w r w r r r */
		static const bool write[] = { 0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 0, 1, 0, 0, 0 };
		sector_t last2[2] = { KFSIM_BFQ_NO_LAST_START, KFSIM_BFQ_NO_LAST_START };
		sector_t next2[2] = { 0, 0 }, at[16];

		seq_left = 1;
		for (unsigned int io = 0; io < 16; io++)
			at[io] = kfsim_bfq_job_choose_sector(&cfg->jobs[0], 0, 2097152,
							     &next2[write[io]], &last2[write[io]],
							     &seq_left, 4096, &rnd);
		/* the hits (0, 3, 6, 9, 12, 15) draw; the rest repeat their direction's last */
		assert_int_equal(at[1], at[0]);
		assert_int_equal(at[2], at[0]);
		assert_int_equal(at[4], at[0]);
		assert_int_equal(at[5], at[0]);
		assert_int_equal(at[7], at[6]);
		assert_int_equal(at[8], at[6]);
		assert_int_equal(at[10], at[6]);
		assert_int_equal(at[11], at[9]);
		assert_int_equal(at[13], at[9]);
		assert_int_equal(at[14], at[9]);
	}
	free(cfg);
	free(path);
	/* a write before any: fio's offset 0, the region's start */
	path = job_file("randseq_ident0", "[r]\nrw=randwrite:2\nrw_sequencer=identical\n"
			"bs=4k\nsize=1m\n", -1);
	cfg = new_cfg();
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	last = KFSIM_BFQ_NO_LAST_START;
	seq_left = 2;	/* not a hit: the count is at 1 after it */
	assert_int_equal(kfsim_bfq_job_choose_sector(&cfg->jobs[0], 100, 2048, &next, &last,
						     &seq_left, 4096, &rnd), 100);
	free(cfg);
	free(path);
}

/*
 * Files without size= (fio needs one to make a file) share what the sized files leave, in
 * equal parts: the old layout gave the first the rest of the disk and the next ones no file
 * at all, so that they ran over the whole device, the first file included.
 */
static void test_unsized_files_share(void **state)
{
	char *path = job_file("unsized", "[a]\n[b]\nsize=1g\n[c]\nnumjobs=2\n", 1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	u64 cap = cfg->disk.capacity << SECTOR_SHIFT, share;
	char why[1024];

	(void)state;
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->nr_jobs, 4);
	share = (cap - (1ULL << 30)) / 3 & ~((u64)(1 << 20) - 1);
	assert_int_equal(cfg->jobs[0].file_size, share);
	assert_int_equal(cfg->jobs[1].file_size, 1ULL << 30);
	assert_int_equal(cfg->jobs[2].file_size, share);
	assert_int_equal(cfg->jobs[3].file_size, share);
	for (unsigned int i = 1; i < 4; i++)
		assert_true(cfg->jobs[i].file_start >= cfg->jobs[i - 1].file_start +
						      cfg->jobs[i - 1].file_size);
	assert_true(cfg->jobs[3].file_start + cfg->jobs[3].file_size <= cap);
	free(cfg);
	free(path);
}

/*
 * fsync=, fdatasync= (FIO_OPT_INT, read by check_str_bytes(): 4k is 4096, 0x10 is 16, 1.5 is
 * 1, -1 wraps into the unsigned int), end_fsync= and fsync_on_close= (FIO_OPT_BOOL: parse.c
 * compares a signed value with the maximum 1, so -1 is taken), as fio 3.33 reads them; what
 * fio refuses, kfsim refuses.  fio --parse-only judges every file first.
 */
/* Aliases named as the file writes them, as fio names them ("failed parsing timeout=abc"). */
static void test_alias_named(void **state)
{
	static const char *const needles[] = {
		"timeout: expected a time", "wait_for_previous: expected 0 or 1",
		"steadystate: failed parsing steadystate=abc", NULL,
	};

	(void)state;
	expect_refusal("aliases", "[a]\nrw=read\nsize=1m\ntimeout=abc\nwait_for_previous=abc\n"
		       "steadystate=abc\n", 0, needles);
}

static void test_sync_options_as_fio(void **state)
{
	static const struct {
		const char *line;
		unsigned int fsync, fdatasync;
		bool end_fsync;
	} ok[] = {
		{ "fsync=4k", 4096, 0, false },
		{ "fsync=-1", 4294967295u, 0, false },
		{ "fsync=1.5", 1, 0, false },
		{ "fdatasync=0x10", 0, 16, false },
		{ "end_fsync=1", 0, 0, true },
		{ "end_fsync=-1", 0, 0, true },
		{ "fsync_on_close=1", 0, 0, true },
		{ "end_fsync=0\nfsync_on_close=1", 0, 0, true },
		/* FIO_OPT_BOOL read by check_int()'s sscanf("%u"): "1k" is 1 */
		{ "end_fsync=1k", 0, 0, true },
		{ "fsync=0", 0, 0, false },
	};
	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "fsync=four", "fsync: failed parsing fsync=four" },
		{ "fsync", "fsync: Option fsync requires an argument" },
		{ "fdatasync=", "fdatasync: failed parsing" },
		{ "end_fsync=2", "end_fsync: max value out of range: 2 (1 max)" },
		{ "end_fsync=2-3", "end_fsync: max value out of range: 2-3 (1 max)" },
		{ "end_fsync=true", "end_fsync: failed parsing end_fsync=true" },
		{ "fsync_on_close", "Option fsync_on_close requires an argument" },
	};
	const char *needles[ARRAY_SIZE(bad) + 1] = { NULL };
	struct kfsim_bfq_sim_config *cfg;
	char text[1024];
	size_t len = 0;

	(void)state;
	/* one file each, so that fio runs twice: a job per value */
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "[a%zu]\nrw=write\n%s\n", i,
					ok[i].line);
	cfg = read_ok("syncok", text, 1);
	assert_int_equal(cfg->nr_jobs, ARRAY_SIZE(ok));
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		assert_int_equal(cfg->jobs[i].fsync_blocks, ok[i].fsync);
		assert_int_equal(cfg->jobs[i].fdatasync_blocks, ok[i].fdatasync);
		assert_int_equal(cfg->jobs[i].end_fsync, ok[i].end_fsync);
	}
	free(cfg);
	len = 0;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		len += (size_t)snprintf(text + len, sizeof(text) - len, "[b%zu]\nrw=write\n%s\n", i,
					bad[i].line);
		needles[i] = bad[i].why;
	}
	expect_refusal("syncbad", text, 0, needles);
}

/* One job file run on a disk with (or without) its write cache; the jobs' results. */
static struct kfsim_bfq_sim *sync_run(const char *name, const char *text, bool write_cache,
				      struct kfsim_bfq_sim_config **cfgp)
{
	char *path = job_file(name, text, -1);
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	struct kfsim_bfq_sim *sim;
	char why[1024];

	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	cfg->disk.write_cache = write_cache;
	cfg->duration_ns = 30 * NSEC_PER_SEC;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	free(path);
	*cfgp = cfg;
	return sim;
}

static u64 sim_destages(const struct kfsim_bfq_sim *sim)
{
	const struct kfsim_hdd *hdd = kfsim_bfq_sim_hdd(sim);
	u64 n = 0;

	for (unsigned int a = 0; a < kfsim_hdd_params_of(hdd)->nr_actuators; a++)
		n += kfsim_hdd_actuator_stats(hdd, a).nr_destages;
	return n;
}

/*
 * The etcd disk check (fio --rw=write --ioengine=sync --fdatasync=1 --bs=2300, here 2048: a
 * block kfsim models): a sync after every write but the last (fio's do_io() stops issuing
 * once the size is done), each writing back the write and flushing the drive's cache, so
 * each waits for a destage to the media; fdatasync is DDIR_DATASYNC, not in fio's "sync"
 * total_ios but in its latency samples.  fsync=4 of 16 writes: 3 fsyncs.
 */
static void test_sync_etcd(void **state)
{
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim_config *cfg;
	struct kfsim_bfq_sim *sim;

	(void)state;
	sim = sync_run("etcd", "[mytest]\nrw=write\nioengine=sync\nfdatasync=1\nsize=1m\n"
		       "bs=2048\n", true, &cfg);
	res = kfsim_bfq_sim_result(sim);
	print_message("etcd: %llu writes, %llu syncs (%llu fsyncs), sync lat mean %.0f us max "
		      "%.0f us, %llu destages, writeback %llu bytes\n",
		      (unsigned long long)res->jobs[0].requests,
		      (unsigned long long)res->jobs[0].syncs,
		      (unsigned long long)res->jobs[0].fsyncs, res->jobs[0].sync_lat_mean_us,
		      res->jobs[0].sync_lat_max_us, (unsigned long long)sim_destages(sim),
		      (unsigned long long)res->writeback_bytes);
	assert_int_equal(res->jobs[0].requests, 512);
	assert_int_equal(res->jobs[0].syncs, 511);
	assert_int_equal(res->jobs[0].fsyncs, 0);
	/* every sync wrote its block back and waited for it to reach the media */
	assert_true(sim_destages(sim) >= 511);
	assert_int_equal(res->writeback_bytes, 511 * 2048);
	assert_true(res->jobs[0].sync_lat_mean_us > 1000);	/* a destage: ms, not us */
	kfsim_bfq_sim_destroy(sim);
	free(cfg);

	sim = sync_run("fsync4", "[a]\nrw=write\nbs=4k\nsize=64k\nfsync=4\n", true, &cfg);
	res = kfsim_bfq_sim_result(sim);
	assert_int_equal(res->jobs[0].requests, 16);
	assert_int_equal(res->jobs[0].syncs, 3);
	assert_int_equal(res->jobs[0].fsyncs, 3);
	/* the last 4 blocks are left dirty at the end */
	assert_int_equal(res->writeback_bytes, 12 * 4096);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
}

/*
 * end_fsync=1: one sync once the last write is issued, writing back the whole file, which the
 * job's time includes; fio 3.33 reports it in no count (measured: "sync" total_ios 0).  With
 * fsync=3 as well, 5 periodic syncs.  direct=1: nothing dirty, only the flush: it costs a
 * destage with the write cache on, nothing without one (the kernel sends no flush).  A
 * read-only job never syncs (should_fsync()); libaio at depth 4: 7 syncs of 16 writes.
 */
static void test_sync_end_direct_read(void **state)
{
	static const char *const end = "[a]\nrw=write\nbs=4k\nsize=64k\nend_fsync=1\n";
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim_config *cfg;
	struct kfsim_bfq_sim *sim;
	double plain_s;

	(void)state;
	sim = sync_run("nosync", "[a]\nrw=write\nbs=4k\nsize=64k\n", false, &cfg);
	plain_s = kfsim_bfq_sim_result(sim)->jobs[0].active_s;
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	sim = sync_run("endsync", end, false, &cfg);
	res = kfsim_bfq_sim_result(sim);
	assert_int_equal(res->jobs[0].syncs, 0);
	assert_int_equal(res->writeback_bytes, 64 * 1024);
	assert_true(res->jobs[0].active_s > plain_s + 1e-3);	/* it waited for the disk */
	kfsim_bfq_sim_destroy(sim);
	free(cfg);

	sim = sync_run("endsync3", "[a]\nrw=write\nbs=4k\nsize=64k\nfsync=3\nend_fsync=1\n",
		       false, &cfg);
	assert_int_equal(kfsim_bfq_sim_result(sim)->jobs[0].fsyncs, 5);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);

	for (int wc = 0; wc < 2; wc++) {
		sim = sync_run("directsync", "[a]\nrw=write\nbs=4k\nsize=64k\ndirect=1\n"
			       "fdatasync=1\n", wc, &cfg);
		res = kfsim_bfq_sim_result(sim);
		print_message("direct=1 fdatasync=1, write cache %d: %llu syncs, mean %.1f us\n",
			      wc, (unsigned long long)res->jobs[0].syncs,
			      res->jobs[0].sync_lat_mean_us);
		assert_int_equal(res->jobs[0].syncs, 15);
		assert_int_equal(res->writeback_bytes, 0);
		if (wc)
			assert_true(res->jobs[0].sync_lat_mean_us > 1000);
		else
			assert_true(res->jobs[0].sync_lat_max_us == 0);
		kfsim_bfq_sim_destroy(sim);
		free(cfg);
	}

	sim = sync_run("readsync", "[a]\nrw=read\nbs=4k\nsize=64k\nfsync=1\nend_fsync=1\n", true,
		       &cfg);
	res = kfsim_bfq_sim_result(sim);
	assert_int_equal(res->jobs[0].requests, 16);
	assert_int_equal(res->jobs[0].syncs, 0);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);

	sim = sync_run("aiosync", "[a]\nrw=write\nbs=4k\nsize=64k\nfsync=2\nioengine=libaio\n"
		       "iodepth=4\ndirect=1\n", true, &cfg);
	assert_int_equal(kfsim_bfq_sim_result(sim)->jobs[0].fsyncs, 7);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
}

/*
 * The referee: fio 3.33 itself runs the same jobs on small files in a scratch directory; its
 * "sync" total_ios (fsync= syncs) and latency sample count (all periodic syncs) must be
 * kfsim's (a verifying job syncs in its write pass only: do_verify() asks for no sync).
 * Timings are not compared.
 */
/*
 * A mixed job's directions as fio 3.33 takes them (io_u.c get_rw_ddir(), set_rwmix_bytes(),
 * rate_ddir()), each file's figures those of fio 3.33 with ioengine=null (2026-12-07): a
 * cycle keeps a direction until its count of I/Os reaches rwmix_issues, drawn from fio's
 * generator and seed, so the counts are fio's to the I/O.  Drawing each I/O's direction
 * gave 1483 and 654 here (fio: 1489 and 652).
 */
struct rwmix_want {
	u64 read_ios, read_bytes, write_ios, write_bytes;
};

static void check_rwmix(const char *name, const char *text, u64 duration_ns,
			const struct rwmix_want *want, unsigned int nr)
{
	const struct kfsim_bfq_sim_result *res;
	struct file_run r;

	res = file_run(&r, name, text, duration_ns);
	assert_int_equal(res->nr_jobs, nr);
	for (unsigned int j = 0; j < nr; j++) {
		print_message("%s: reads %llu (%llu bytes), writes %llu (%llu bytes); fio "
			      "%llu (%llu), %llu (%llu)\n", res->jobs[j].name,
			      (unsigned long long)res->jobs[j].read_ios,
			      (unsigned long long)res->jobs[j].read_bytes,
			      (unsigned long long)res->jobs[j].write_ios,
			      (unsigned long long)res->jobs[j].write_bytes,
			      (unsigned long long)want[j].read_ios,
			      (unsigned long long)want[j].read_bytes,
			      (unsigned long long)want[j].write_ios,
			      (unsigned long long)want[j].write_bytes);
		assert_int_equal(res->jobs[j].read_ios, want[j].read_ios);
		assert_int_equal(res->jobs[j].read_bytes, want[j].read_bytes);
		assert_int_equal(res->jobs[j].write_ios, want[j].write_ios);
		assert_int_equal(res->jobs[j].write_bytes, want[j].write_bytes);
	}
	file_run_end(&r);
}

static void test_rwmix_cycles_as_fio(void **state)
{
	static const struct rwmix_want one[] = { { 1489, 6098944, 652, 10682368 } };
	/* randseed= and fio's job numbers: a section's clones right after it */
	static const struct rwmix_want three[] = {
		{ 381, 3121152, 131, 1073152 }, { 385, 3153920, 127, 1040384 },
		{ 5, 20480, 64, 4194304 },
	};

	(void)state;
	check_rwmix("rwmix1", "[j]\nioengine=libaio\ndirect=1\niodepth=4\nrw=randrw\n"
		    "rwmixread=70\nbs=4k,16k\nsize=16m\nnorandommap\n", 600 * NSEC_PER_SEC,
		    one, 1);
	check_rwmix("rwmix3", "[global]\nioengine=libaio\ndirect=1\nrandseed=1234\nbs=8k\n"
		    "size=4m\n[a]\nrw=rw\nrwmixwrite=25\nnumjobs=2\n[b]\nrw=readwrite\n"
		    "rwmixread=10\nbs=4k,64k\nnumber_ios=300\n", 600 * NSEC_PER_SEC, three, 3);
}

/*
 * io_size past size: fio makes five passes of the 1 MiB region, each starting the cycle
 * again (clear_io_state(): rwmix_issues 0, randrepeat's seed again; io_issues go on).
 */
static void test_rwmix_passes_as_fio(void **state)
{
	static const struct rwmix_want want[] = { { 190, 3112960, 130, 2129920 } };

	(void)state;
	check_rwmix("rwmixpass", "[p]\nioengine=libaio\ndirect=1\nrw=randrw\nrwmixread=60\n"
		    "bs=16k\nsize=1m\nio_size=5m\n", 600 * NSEC_PER_SEC, want, 1);
}

/*
 * A sequential mix of 128k reads and 8k writes over 8 MiB with io_size=12m: a pass ends
 * when the reads reach the region's end (get_next_offset() fails) or, for an engine that
 * queues (libaio; fio's null engine at a depth over 1), after 8 MiB issued; a synchronous
 * engine's bytes are not counted (io_queue_event(): only FIO_Q_QUEUED), so its first pass
 * runs to the reads' end.  fio 3.33, null engine at depths 1 and 4: 97 and 96 writes.
 */
static void test_rwmix_seq_passes_as_fio(void **state)
{
	static const struct rwmix_want sync[] = { { 90, 11796480, 97, 794624 } };
	static const struct rwmix_want queued[] = { { 90, 11796480, 96, 786432 } };

	(void)state;
	check_rwmix("rwmixseq1", "[a]\nioengine=psync\ndirect=1\nrw=readwrite\nrwmixread=50\n"
		    "bs=128k,8k\nsize=8m\nio_size=12m\n", 600 * NSEC_PER_SEC, sync, 1);
	check_rwmix("rwmixseq4", "[a]\nioengine=libaio\ndirect=1\niodepth=4\nrw=readwrite\n"
		    "rwmixread=50\nbs=128k,8k\nsize=8m\nio_size=12m\n", 600 * NSEC_PER_SEC,
		    queued, 1);
}

/*
 * Drawn block sizes as fio 3.33's get_next_buflen() draws them from its bsrange_state
 * seeds: a sequential mix of ranges per direction, and of splits (fio orders the entries by
 * percent), are fio's to the byte (fio 3.33, null engine, depth 4).
 */
static void test_rwmix_drawn_sizes_as_fio(void **state)
{
	static const struct rwmix_want range[] = { { 222, 2228224, 162, 6184960 } };
	static const struct rwmix_want split[] = { { 180, 4472832, 128, 3923968 } };

	(void)state;
	check_rwmix("rwmixrange", "[a]\nioengine=libaio\ndirect=1\niodepth=4\nrw=readwrite\n"
		    "rwmixread=60\nbsrange=4k-16k,8k-64k\nsize=8m\n", 600 * NSEC_PER_SEC,
		    range, 1);
	check_rwmix("rwmixsplit", "[a]\nioengine=libaio\ndirect=1\niodepth=4\nrw=readwrite\n"
		    "rwmixread=60\nbssplit=4k/30:64k/20:16k/50,8k/10:32k/90\nsize=8m\n",
		    600 * NSEC_PER_SEC, split, 1);
}

/*
 * Near the region's end only the split's 0 % entry fits: fio 3.33 draws for ever there
 * (get_next_buflen() skips the entry), kfsim takes the smallest size and the job ends.
 */
static void test_drawn_size_zero_entry_ends(void **state)
{
	const struct kfsim_bfq_sim_result *res;
	struct file_run r;

	(void)state;
	res = file_run(&r, "zerosplit", "[a]\nioengine=libaio\ndirect=1\nrw=readwrite\n"
		       "bssplit=512/0:64k/100\nsize=100000\nio_size=1m\n", 10 * NSEC_PER_SEC);
	assert_true(res->jobs[0].read_bytes + res->jobs[0].write_bytes >= 1 << 20);
	assert_true(res->jobs[0].active_s < 10);
	file_run_end(&r);
}

/* Where a job's region starts in its file (bytes), from its --dump-jobs fields. */
static u64 region_in_file(const struct kfsim_bfq_sim_config *cfg, unsigned int i)
{
	sector_t start, nr;
	char why[256];

	assert_int_equal(kfsim_bfq_job_region(&cfg->jobs[i], cfg->disk.capacity, &start, &nr, why,
					      sizeof(why)), 0);
	return ((u64)start << SECTOR_SHIFT) - cfg->jobs[i].file_start;
}

/*
 * offset=N% as fio 3.33's setup_files() and get_start_offset() take it: of the size the file
 * has when its job is set up (a new file has none: 0), the file extended by each job in turn,
 * and aligned UP to the smaller block of the two directions.  The figures are fio 3.33's
 * first reads (--write_iolog, ioengine=psync, a new file in /tmp); kfsim put the regions at
 * N % of the disk (and made the file that large) and aligned them down until 2026-12-07.
 */
static void test_offset_percent_as_fio(void **state)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char why[1024], *path;
	u64 cap, raw;

	(void)state;
	path = job_file("offset_pct_file", "[global]\nfilename=offset_pct.dat\nrw=read\nbs=4k\n"
			"size=1m\nnumber_ios=1\n[a]\noffset=0%\n[b]\noffset=50%\n[c]\n"
			"offset=50%\nsize=2m\n[d]\noffset=75%\n", 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(region_in_file(cfg, 0), 0);
	assert_int_equal(region_in_file(cfg, 1), 512 << 10);
	assert_int_equal(region_in_file(cfg, 2), 768 << 10);
	assert_int_equal(region_in_file(cfg, 3), 2112 << 10);
	/* the file ends at 3136 KiB under fio; kfsim lays files out in whole MiB */
	assert_int_equal(cfg->jobs[0].file_size, 4 << 20);
	free(path);

	/* one job alone on its new file: fio reads from 0 */
	memset(cfg, 0, sizeof(*cfg));
	kfsim_bfq_sim_config_default(cfg);
	path = job_file("offset_pct_alone", "[t]\nfilename=offset_pct1.dat\nrw=read\n"
			"bs=4k,64k\nsize=1m\noffset=33%\n", 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(region_in_file(cfg, 0), 0);
	assert_int_equal(cfg->jobs[0].file_size, 1 << 20);
	free(path);

	/* the disk itself: N % of it plus the clone's offset_increment, up to 32k (bs=64k,32k) */
	memset(cfg, 0, sizeof(*cfg));
	kfsim_bfq_sim_config_default(cfg);
	path = job_file("offset_pct_dev", "[t]\nfilename=/dev/sdx\ndirect=1\nrw=read\n"
			"bs=64k,32k\nsize=1m\noffset=33%\noffset_increment=100k\nnumjobs=2\n", -1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	cap = (u64)cfg->disk.capacity << SECTOR_SHIFT;
	for (unsigned int i = 0; i < 2; i++) {
		raw = cap * 33 / 100 + i * 102400;
		print_message("clone %u: %llu bytes into the disk (33 %% + %u x 100k = %llu, up to "
			      "32k)\n", i, (unsigned long long)region_in_file(cfg, i), i,
			      (unsigned long long)raw);
		assert_int_equal(region_in_file(cfg, i), (raw + 32767) / 32768 * 32768);
	}
	free(path);
	free(cfg);
}

/*
 * size=N% as fio 3.33's setup_files(): N % of the device's bytes, aligned DOWN to the smallest
 * block.  fio 3.33 --write_iolog (psync) on 1000000 bytes with bs=64k, size=33%: 5 reads of
 * 64 KiB (330000 bytes down to 327680); kfsim took 33 % in whole sectors and read 6.  On
 * 999936 bytes, size=40%: 97 reads with bs=4k (397312), 6 with bs=64k (393216).  Below
 * one block fio stops: "blocksize is larger than data set range" (size=1%); kfsim took a size
 * of 0 as none, the whole disk.
 */
static void test_size_percent_as_fio(void **state)
{
	const sector_t capacity = 1953; /* 999936 bytes: 33 % is 329978, 5 blocks of 64 KiB */
	struct kfsim_bfq_job job;
	sector_t start, nr;
	char why[256];

	(void)state;
	assert_int_equal(kfsim_bfq_job_parse("name=a,rw=read,bs=64k,size=33%", &job, why,
					     sizeof(why)), 0);
	assert_int_equal(kfsim_bfq_job_region(&job, capacity, &start, &nr, why, sizeof(why)), 0);
	print_message("size=33%% of %llu bytes, bs=64k: %llu bytes (fio 3.33: 327680)\n",
		      (unsigned long long)capacity << SECTOR_SHIFT,
		      (unsigned long long)nr << SECTOR_SHIFT);
	assert_int_equal(nr << SECTOR_SHIFT, 327680);
	/* 40 %: 399974 bytes, down to 4 KiB or 64 KiB (kfsim took 781 sectors, 399872) */
	assert_int_equal(kfsim_bfq_job_parse("name=a,rw=read,bs=4k,size=40%", &job, why,
					     sizeof(why)), 0);
	assert_int_equal(kfsim_bfq_job_region(&job, capacity, &start, &nr, why, sizeof(why)), 0);
	assert_int_equal(nr << SECTOR_SHIFT, 397312);
	assert_int_equal(kfsim_bfq_job_parse("name=a,rw=read,bs=64k,size=40%", &job, why,
					     sizeof(why)), 0);
	assert_int_equal(kfsim_bfq_job_region(&job, capacity, &start, &nr, why, sizeof(why)), 0);
	assert_int_equal(nr << SECTOR_SHIFT, 393216);
	assert_int_equal(kfsim_bfq_job_parse("name=a,rw=read,bs=64k,size=1%", &job, why,
					     sizeof(why)), 0);
	assert_int_not_equal(kfsim_bfq_job_region(&job, capacity, &start, &nr, why, sizeof(why)), 0);
	print_message("size=1%% of it: %s\n", why);
	assert_non_null(strstr(why, "blocksize is larger than data set range"));
}

/* The bytes of job @i's region. */
static u64 region_bytes(const struct kfsim_bfq_sim_config *cfg, unsigned int i)
{
	sector_t start, nr;
	char why[256];

	assert_int_equal(kfsim_bfq_job_region(&cfg->jobs[i], cfg->disk.capacity, &start, &nr, why,
					      sizeof(why)), 0);
	return (u64)nr << SECTOR_SHIFT;
}

/*
 * The bytes a job does of its file, as fio 3.33's setup_files() sizes them (one rule,
 * kfsim_bfq_job_size_bytes(), for files and the disk): size=N% of the file's end (filesize=,
 * or the size earlier jobs gave the file), at most what the offset leaves, aligned down to
 * the smallest block; without size=, filesize= less the offset or the rest of the file.  The
 * figures are fio 3.33's reads (psync, new files in /tmp, 2026-12-08).  kfsim took a file's
 * percent of the disk (6 TB for filesize=1000k,size=33%: 253176 reads where fio did 5), a
 * filesize= as the bytes after the offset (16 reads for 12) and a later job's percent of the
 * file laid out in whole MiB (65062 reads for 8).
 */
static void test_size_of_file_as_fio(void **state)
{
	static const struct {
		const char *text;
		u64 bytes[4];
	} cases[] = {
		{ "[a]\nrw=read\nbs=64k\nfilesize=1000k\nsize=33%\n", { 327680 } },
		{ "[c]\nrw=read\nbs=64k\nfilesize=1m\noffset=256k\n", { 786432 } },
		{ "[f]\nrw=randread\nbs=4k,16k\nfilesize=1m\nsize=33%\noffset=4k\n", { 344064 } },
		/* one file: 1m, then 50 % of it, the rest after 256k, 25 % from its middle */
		{ "[global]\nrw=read\nbs=64k\nfilename=size_file.dat\n[one]\nsize=1m\n[two]\n"
		  "size=50%\n[three]\noffset=256k\n[four]\nsize=25%\noffset=50%\n",
		  { 1048576, 524288, 786432, 262144 } },
	};
	char why[1024], *path;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kfsim_bfq_sim_config *cfg = new_cfg();

		path = job_file("size_file", cases[i].text, i == ARRAY_SIZE(cases) - 1 ? 1 : -1);
		assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
		for (unsigned int j = 0; j < cfg->nr_jobs; j++) {
			print_message("%s: %llu bytes (fio 3.33: %llu)\n", cfg->jobs[j].name,
				      (unsigned long long)region_bytes(cfg, j),
				      (unsigned long long)cases[i].bytes[j]);
			assert_int_equal(region_bytes(cfg, j), cases[i].bytes[j]);
		}
		free(path);
		free(cfg);
	}
}

/*
 * A size-bounded job's pass ends at its region's last whole block: fio 3.33's next
 * sequential offset fails without room for a block (io_u_fits()) and a random job's map holds
 * the whole blocks (last_block()).  fio 3.33 (files in /tmp, 2026-12-08) on size=1000k:
 * bs=64k random reads under psync 15, sequential reads with loops=2 under libaio 30, bs=16k
 * random writes under libaio 62, and with norandommap (no map: the bytes end the pass) 16
 * random reads of 64k; kfsim read 16, 32 and 63 (a block from the region's start, past the
 * bytes fio does) until 2026-12-08.  In a case of several jobs, the one named x is compared.
 * A percent offset over several loops of a file that grew is refused.
 */
static void test_whole_blocks_as_fio(void **state)
{
	static const struct {
		const char *text;
		unsigned long long requests;
	} cases[] = {
		{ "[a]\nrw=randread\nbs=64k\nsize=1000k\n", 15 },
		{ "[b]\nrw=read\nbs=64k\nsize=1000k\nloops=2\nioengine=libaio\ndirect=1\n"
		  "iodepth=4\n", 30 },
		{ "[c]\nrw=randwrite\nbs=16k\nsize=1000k\nioengine=libaio\ndirect=1\n"
		  "iodepth=8\n", 62 },
		{ "[d]\nrw=randread\nbs=64k\nsize=1000k\nnorandommap\nioengine=libaio\n"
		  "direct=1\niodepth=4\n", 16 },
		/*
		 * inside a larger file a sequential job's last block may pass its region's end
		 * (fill_io_u() checks the file's size): fio 3.33 wrote 15 blocks of 16k into
		 * 233472 bytes (10 % of the 2304k file, from its middle), kfsim 14
		 */
		{ "[global]\nfilename=whole_blocks.dat\nbs=4k,16k\n[w]\nrw=write\n"
		  "size=2304k\n[x]\nrw=write\nsize=10%\noffset=50%\n", 15 },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct file_run r;
		const struct kfsim_bfq_sim_result *res = file_run_as(&r, "whole_blocks",
								     cases[i].text,
								     20 * NSEC_PER_SEC, -1);
		unsigned int k = 0;
		unsigned long long n;

		while (k + 1 < res->nr_jobs && strcmp(res->jobs[k].name, "x"))
			k++;	/* the job named x, else the only one */
		n = strcmp(res->jobs[k].name, "x") ? res->jobs[0].requests : res->jobs[k].requests;

		print_message("%.3s: %llu requests (fio 3.33: %llu)\n", cases[i].text, n,
			      cases[i].requests);
		assert_int_equal(n, cases[i].requests);
		file_run_end(&r);
	}
	/*
	 * clear_io_state() takes a percent offset again at each loop, of the file's size then
	 * (fio 3.33: 9 writes of 16k from 0, then 8 from 16k): not modelled, every loops= line
	 * named (the referee removes them: a second round found the one before, seed 41)
	 */
	expect_refusal("loops_pct", "[t]\nrw=write\nbs=16k\nfilesize=1500k\nsize=10%\n"
		       "loops=3\noffset=10%\nloops=2\n", 1,
		       (const char *const[]){ "loops_pct.fio:6: loops: an offset in % over several",
					      "loops_pct.fio:8: loops: an offset in %", NULL });
}

/*
 * A region cut at the device's end keeps whole blocks: fio 3.33 on a loop device of 999936
 * bytes (bs=64k, direct, psync, --write_iolog) read 1 block with offset=897536,size=16m and 7
 * with offset=50%,size=60%; kfsim cut at the last sector and read 2 and 8 (a pass more).
 */
static void test_device_end_whole_blocks_as_fio(void **state)
{
	static const struct {
		const char *region;
		u64 bytes;
	} cases[] = { { "offset=897536\nsize=16m\n", 65536 }, { "offset=50%\nsize=60%\n", 458752 } };
	char why[1024], text[256], *path;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct kfsim_bfq_sim_config *cfg = new_cfg();
		sector_t start, nr;

		cfg->disk.nr_actuators = 1;
		cfg->disk.capacity = 1953;
		snprintf(text, sizeof(text), "[t]\nfilename=/dev/sdx\ndirect=1\nrw=read\nbs=64k\n%s",
			 cases[i].region);
		path = job_file("device_end_blocks", text, -1);
		assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
		assert_int_equal(kfsim_bfq_job_region(&cfg->jobs[0], cfg->disk.capacity, &start, &nr,
						      why, sizeof(why)), 0);
		print_message("%.*s: %llu bytes (fio 3.33: %llu)\n", (int)strcspn(cases[i].region, "\n"),
			      cases[i].region, (unsigned long long)nr << SECTOR_SHIFT,
			      (unsigned long long)cases[i].bytes);
		assert_int_equal((u64)nr << SECTOR_SHIFT, cases[i].bytes);
		free(path);
		free(cfg);
	}
}

/*
 * A region past the device's end is cut there, its bytes with it: fio 3.33 on a loop device of
 * 64 MiB + 512 B read 4 MiB with offset=60m,size=16m, without an error (kfsim refused it
 * before 2026-12-07); an offset past the end stays refused.
 */
static void test_device_end_as_fio(void **state)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char why[1024], text[256], *path;
	u64 cap = (u64)cfg->disk.capacity << SECTOR_SHIFT;

	(void)state;
	snprintf(text, sizeof(text), "[t]\nfilename=/dev/sdx\ndirect=1\nrw=read\nbs=4k\n"
		 "offset=%llu\nsize=16m\n", (unsigned long long)(cap - (4 << 20)));
	path = job_file("device_end", text, -1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(region_in_file(cfg, 0), cap - (4 << 20));
	assert_int_equal(cfg->jobs[0].size, 4 << 20);
	assert_int_equal(cfg->jobs[0].io_size, 4 << 20);
	free(path);

	memset(cfg, 0, sizeof(*cfg));
	kfsim_bfq_sim_config_default(cfg);
	snprintf(text, sizeof(text), "[t]\nfilename=/dev/sdx\ndirect=1\nrw=read\nbs=4k\n"
		 "offset=%llu\nsize=16m\n", (unsigned long long)cap);
	path = job_file("device_end_past", text, -1);
	assert_int_not_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	print_message("offset at the device's end: %s\n", why);
	assert_non_null(strstr(why, "beyond"));
	free(path);
	free(cfg);
}

/*
 * io_size=N%: fio 3.33's io_size_percent, N % of the job's region its size (setup_files():
 * o->size), each pass's bytes under a queueing engine and, times loops, the job's; over
 * 100 % fails in fio's words.  kfsim refused a percentage before (fio_jobgen --wide seeds
 * 27001-27600: 52 files).  fio 3.33, null engine: size=1m, io_size=30%, loops=2 at depth 1
 * 154 reads (630784 bytes); size=1000k, io_size=33% 83; at depth 4 a mix of 4k and 16k over
 * 1m, 30%, 3 loops 39 reads and 48 writes, a random one over 3m, 7%, 2 loops 24 and 42.
 */
static void test_io_size_percent_as_fio(void **state)
{
	static const struct rwmix_want loops[] = { { 154, 630784, 0, 0 } };
	static const struct rwmix_want third[] = { { 83, 339968, 0, 0 } };
	static const struct rwmix_want mixes[] = { { 39, 159744, 48, 786432 },
						   { 24, 98304, 42, 344064 } };

	(void)state;
	check_rwmix("io_size_pct", "[a]\ndirect=1\nsize=1m\nio_size=30%\nrw=read\nloops=2\n",
		    60 * NSEC_PER_SEC, loops, 1);
	check_rwmix("io_size_pct33", "[a]\ndirect=1\nsize=1000k\nio_limit=33%\nrw=read\n",
		    60 * NSEC_PER_SEC, third, 1);
	check_rwmix("io_size_pct_mix", "[a]\nioengine=libaio\ndirect=1\niodepth=4\nsize=1m\n"
		    "io_size=30%\nrw=rw\nloops=3\nbs=4k,16k\nrandseed=7\n[b]\nioengine=libaio\n"
		    "direct=1\nsize=3m\nio_size=7%\nrw=randrw\nnorandommap\niodepth=8\nloops=2\n"
		    "bs=4k,8k\n", 60 * NSEC_PER_SEC, mixes, 2);
	expect_refusal("io_size_pct_over", "[a]\nsize=1m\nio_size=150%\n", 0,
		       (const char *const[]){ "io_size_pct_over.fio:3: io_size: io_size values "
					      "greater than 100% aren't supported", NULL });
}

/*
 * A refusal names every line the file needs removed to be read (fio_jobgen --wide, seeds
 * 27001-27600, each found as a second round): strided zones with random I/O name their
 * zone options too (without zonemode= they fail fio's run), a zonemode=strided whose
 * zonesize= line is refused is named with it, nrfiles=4 twice is named twice, and a
 * poisson job under rate= and rate_iops= both is judged by the caps left once the later's
 * lines go (rate=,4m: its reads uncapped, which fio dies on).
 */
static void test_refusal_names_what_it_needs(void **state)
{
	(void)state;
	expect_refusal("strided_random", "[a]\nrw=randread\nsize=8m\nzonemode=strided\n"
		       "zonesize=64k\nzonerange=2m\nzoneskip=1m\n", 1,
		       (const char *const[]){ "strided_random.fio:4: zonemode: strided zones with "
					      "random I/O", "strided_random.fio:5: zonesize:",
					      "strided_random.fio:6: zonerange:",
					      "strided_random.fio:7: zoneskip:", NULL });
	expect_refusal("strided_spaced", "[a]\nrw=read\nsize=8m\nzonemode=strided\n"
		       "zonesize= 64k\n", 1,
		       (const char *const[]){ "strided_spaced.fio:5: zonesize: a space after",
					      "strided_spaced.fio:4: zonemode: strided zones need "
					      "zonesize=, whose line is refused", NULL });
	/* several files with io_size= stay refused (the sixth round models the rest) */
	expect_refusal("nrfiles_twice", "[global]\nnrfiles=3\n[a]\nsize=1m\nnrfiles=4\n"
		       "nrfiles=4\nio_size=2m\n", 1,
		       (const char *const[]){ "nrfiles_twice.fio:2: nrfiles:",
					      "nrfiles_twice.fio:5: nrfiles:",
					      "nrfiles_twice.fio:6: nrfiles:", NULL });
	free(read_ok("nrfiles_back", "[a]\nsize=1m\nnrfiles=4\nnr_files=1\n", 1));
	expect_refusal("poisson_left", "[global]\nrate=,4m\nrate_iops=100,200\n[a]\n"
		       "rate_iops=50,\nrate_process=poisson\n", 1,
		       (const char *const[]){ "poisson_left.fio:3: rate_iops: with rate and",
					      "poisson_left.fio:5: rate_iops: with rate and",
					      "poisson_left.fio:6: rate_process: poisson with reads",
					      NULL });
}

/*
 * One line, one problem: an engine's option refused as it was read (e4defrag's donorname,
 * sg's sg_write_mode) was named a second time at the section's end for its refused engine
 * (Debian's e4defrag.fio, sg_verify.fio: every such line twice).
 */
static void test_engine_option_named_once(void **state)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	char *path = job_file("engine_once", "[a]\nioengine=e4defrag\ndonorname=x.def\n"
			      "inplace=1\nsize=1m\n[b]\nioengine=io_uring_cmd\ncmd_type=nvme\n"
			      "sqthread_poll=1\n", -1);
	char why[4096];
	const char *at;
	int nr;

	(void)state;
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), -EINVAL);
	print_message("%s\n", why);
	for (int line = 2; line <= 9; line++) {
		char needle[64];

		if (line == 5 || line == 6)
			continue;	/* size=, the [b] header */
		snprintf(needle, sizeof(needle), "engine_once.fio:%d:", line);
		for (nr = 0, at = why; (at = strstr(at, needle)); at++)
			nr++;
		assert_int_equal(nr, 1);
	}
	assert_non_null(strstr(why, "sqthread_poll: an option of ioengine=io_uring_cmd, which "
				    "is not modelled"));
	free(cfg);
	free(path);
}

/*
 * Values found wrong by fio_badgen.py on fresh seeds (27001-27300), fio 3.33's parser and run
 * the referee: verify= takes fio's names only (an empty value, "none", "MD5", "abc,md5" fail;
 * "md5,crc32" and "md5:x" pass; kfsim took anything) and verify=null reads back as fio does
 * (64 reads after 64 writes); a READ,WRITE part that is no number ("rate_iops=1m,abc",
 * "bs=abc:16k") keeps its direction's value, as an empty part does; filesize=N% is 2^64 - 1 - N
 * bytes, which fails fio's run with disk I/O only.
 */
static void test_values_as_fio_fifth_round(void **state)
{
	static const char *const bad_verify[] = { "", "none", "MD5", "abc,md5", "crc" };
	static const char *const good_verify[] = { "md5,crc32", "md5:x", "crc32c-intel",
						   "pattern", "meta" };
	struct kfsim_bfq_sim_config *cfg;
	char text[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_verify); i++) {
		snprintf(text, sizeof(text), "[a]\nsize=1m\nrw=write\nverify=%s\n", bad_verify[i]);
		expect_refusal("verify_bad", text, 0,
			       (const char *const[]){ "verify_bad.fio:4: verify: failed parsing",
						      NULL });
	}
	for (size_t i = 0; i < ARRAY_SIZE(good_verify); i++) {
		snprintf(text, sizeof(text), "[a]\nsize=1m\nrw=write\nverify=%s\n",
			 good_verify[i]);
		cfg = read_ok("verify_good", text, 1);
		assert_true(cfg->jobs[0].verify);
		free(cfg);
	}
	cfg = read_ok("verify_null", "[a]\nsize=1m\nrw=write\nverify=null\n", 1);
	assert_true(cfg->jobs[0].verify);
	free(cfg);
	cfg = read_ok("verify_0", "[a]\nsize=1m\nrw=write\nverify=0\n", 1);
	assert_false(cfg->jobs[0].verify);
	free(cfg);

	cfg = read_ok("parts_fail", "[global]\nrate_iops=7,9\nbs=1k,2k\n[a]\nsize=1m\n"
		      "rw=randrw\nrate_iops=1m,abc\nbs=abc:16k\n", 1);
	assert_int_equal(cfg->jobs[0].rate_iops, 1048576);
	assert_int_equal(cfg->jobs[0].rate_iops_write, 9);
	assert_int_equal(cfg->jobs[0].bs, 1024);
	assert_int_equal(cfg->jobs[0].bs_write, 16384);
	free(cfg);
	expect_refusal("parts_all_fail", "[a]\nsize=1m\nrate=abc,xyz\n", 0,
		       (const char *const[]){ "parts_all_fail.fio:3: rate:", NULL });

	expect_refusal("filesize_pct", "[a]\nsize=1m\nfilesize=50%\n", 1,
		       (const char *const[]){ "filesize_pct.fio:3: filesize: with disk I/O fio's run fails", NULL });
	free(read_ok("filesize_pct_null", "[a]\nioengine=null\nsize=1m\nfilesize=50%\n", 1));
	free(read_ok("filesize_pct_later", "[a]\nsize=1m\nfilesize=50%\nfilesize=2m\n", 1));

	/* nrfiles= a value fio fails, without disk I/O too (fio_badgen seed 27564) */
	expect_refusal("nrfiles_bad", "[a]\nioengine=null\nsize=1m\nnrfiles=-\n", 0,
		       (const char *const[]){ "nrfiles_bad.fio:4: nrfiles: failed parsing", NULL });

	/*
	 * a full queue drained to iodepth_low, or refilled after several completions: refused
	 * until 2026-12-08 where the engine keeps a queue, now only beside a latency target or
	 * a think time; the defaults, and a depth of one, change nothing
	 */
	expect_refusal("depth_low", "[a]\nioengine=libaio\ndirect=1\niodepth=16\nsize=1m\n"
		       "iodepth_low=4\niodepth_batch_complete=8\nlatency_target=10ms\n", 1,
		       (const char *const[]){ "depth_low.fio:6: iodepth_low: a queue drained to "
					      "iodepth_low with latency_target", "depth_low.fio:7: "
					      "iodepth_batch_complete: completions reaped in rounds "
					      "with latency_target", NULL });
	/* modelled since 2026-12-08 (test_iodepth_low_as_fio) */
	free(read_ok("depth_low_drains", "[a]\nioengine=libaio\ndirect=1\niodepth=16\n"
		     "size=1m\niodepth_low=4\niodepth_batch_complete=8\n", 1));
	free(read_ok("depth_low_ok", "[a]\nioengine=libaio\ndirect=1\niodepth=16\nsize=1m\n"
		     "iodepth_low=16\niodepth_batch_complete_min=1\n[b]\nsize=1m\n"
		     "iodepth=8\niodepth_low=2\n", 1));

	/* held-out seeds 27601-27800: refusals whose reason the referee could not tell */
	expect_refusal("prioclass_none", "[a]\nsize=1m\nprioclass=0\n", 1,
		       (const char *const[]){ "prioclass_none.fio:3: prioclass: 0 "
					      "(IOPRIO_CLASS_NONE", "not modelled", NULL });

	/* thinktime_spin spins part of the pause, which stays thinktime (was not modelled) */
	cfg = read_ok("think_spin", "[a]\nsize=1m\nthinktime=10ms\nthinktime_spin=2ms\n", 1);
	assert_int_equal(cfg->jobs[0].thinktime_us, 10000);
	free(cfg);
}

/*
 * exitall as fio 3.33 runs it: the option sets a global (str_exitall_cb(): exitall_on_terminate,
 * whatever its value), so every job's exit ends others, those of its reporting group by default
 * (fio_terminate_threads(groupid, exit_what)): a later stonewall group still runs; exit_what=all
 * ends every job, exit_what=stonewall those running; exitall_on_error only on an error.  fio's
 * null engine at 100 IOPS each (a: time_based 2 s, b: 20 I/Os): a 20 I/Os with exitall=0 on a
 * (kfsim: 201); with exitall on b and a stonewalled c of 30 I/Os, c 30 (kfsim: never started);
 * exit_what=all c 0; exit_what=stonewall and c started 1 s late, c 30; exitall_on_error on a
 * without an error, a 200 and a new_group's 1 s job 101.
 */
static unsigned long long exit_ios(const char *name, const char *jobs, unsigned int job)
{
	char text[512];
	struct file_run r;
	unsigned long long ios;

	snprintf(text, sizeof(text), "[global]\nioengine=libaio\ndirect=1\nsize=64m\n"
		 "rate_iops=100\n%s", jobs);
	ios = file_run(&r, name, text, 5 * NSEC_PER_SEC)->jobs[job].read_ios;
	print_message("%s: job %u %llu I/Os\n", name, job, ios);
	file_run_end(&r);
	return ios;
}

static void test_exitall_as_fio(void **state)
{
	(void)state;
	assert_in_range(exit_ios("exitall0", "[a]\nexitall=0\ntime_based\nruntime=2\n"
				 "[b]\nnumber_ios=20\n", 0), 19, 21);
	assert_int_equal(exit_ios("exitall_group", "[a]\ntime_based\nruntime=2\n[b]\n"
				  "number_ios=20\nexitall\n[c]\nstonewall\nnumber_ios=30\n", 2), 30);
	assert_int_equal(exit_ios("exitall_all", "exit_what=all\n[a]\ntime_based\nruntime=2\n"
				  "[b]\nnumber_ios=20\nexitall\n[c]\nstonewall\nnumber_ios=30\n", 2),
			 0);
	assert_int_equal(exit_ios("exitall_running", "exit_what=stonewall\n[a]\ntime_based\n"
				  "runtime=2\n[b]\nnumber_ios=20\nexitall\n[c]\nstartdelay=1\n"
				  "number_ios=30\n", 2), 30);
	assert_in_range(exit_ios("exitall_on_error", "[a]\ntime_based\nruntime=2\n"
				 "exitall_on_error\n[b]\nnumber_ios=20\n[c]\nnew_group\n"
				 "time_based\nruntime=1\n", 0), 199, 201);
	expect_refusal("exit_what_bad", "[a]\nsize=1m\nexit_what=none\n", 0,
		       (const char *const[]){ "exit_what_bad.fio:3: exit_what: failed parsing",
					      NULL });
}

/*
 * rate_ddir(): with 90 % reads under rate_iops=50,50, a read ahead of its cap becomes a
 * write whose cap allows it, so both directions run at their caps: fio 3.33 50 reads and
 * 51 writes in its second (a job drawing and waiting did 51 and 4).  fio asks
 * runtime_exceeded() before each I/O, so none goes out at the runtime's end: 50 and 50 in
 * four runs of five on 2026-12-08 (50 and 51 once, its real clock's jitter); kfsim issued
 * the 51st write at the runtime's very end before.
 */
static void test_rwmix_rate_switch_as_fio(void **state)
{
	static const struct rwmix_want want[] = { { 50, 204800, 50, 204800 } };

	(void)state;
	check_rwmix("rwmixrate", "[r]\nioengine=libaio\ndirect=1\nrw=randrw\nrwmixread=90\n"
		    "bs=4k\nsize=64m\nrate_iops=50,50\ntime_based\nruntime=1\n",
		    2 * NSEC_PER_SEC, want, 1);
}

/*
 * fio's 32-bit generator and seeds (lib/rand.c, init.c): the rwmix seed of fio 3.33's first
 * job with the default randseed=0x89 and its first numbers, worked out from fio's sources
 * by a model written apart from this one (its direction counts are fio's run's, 1489 and
 * 652 above; 2026-12-07).
 */
static void test_fio_rand32(void **state)
{
	static const u32 want[] = { 2009255334, 156760046, 1556614075 };
	struct kfsim_fio_rand32 st;
	u32 seed = kfsim_fio_rand_seed(0x89, false, 1, KFSIM_FIO_RAND_MIX_OFF);

	(void)state;
	assert_int_equal(seed, 0x5b78008d);
	/* allrandrepeat: FIO_RANDSEED x the job's number + the seed's index */
	assert_int_equal(kfsim_fio_rand_seed(0x89, true, 3, 4), (u32)(0xb1899bedULL * 3 + 4));
	kfsim_fio_rand32_seed(&st, seed);
	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++)
		assert_int_equal(kfsim_fio_rand32(&st), want[i]);
}

static void test_sync_fio_referee(void **state)
{
	static const char *const text =
		"[global]\nrw=write\nbs=4k\nsize=64k\n"
		"[d1]\nfdatasync=1\n[f4]\nfsync=4\n[end]\nend_fsync=1\n"
		"[f3end]\nfsync=3\nend_fsync=1\n[dio]\ndirect=1\nfdatasync=1\n"
		"[rd]\nrw=read\nfsync=1\n[aio]\nfsync=2\nioengine=libaio\niodepth=4\ndirect=1\n"
		"[ver]\nverify=md5\nfsync=4\n";
	const struct kfsim_bfq_sim_result *res;
	struct kfsim_bfq_sim_config *cfg;
	struct kfsim_bfq_sim *sim;
	char dir[] = "/tmp/kfsim_fsync_XXXXXX", cmd[1024], *path;
	FILE *f;

	(void)state;
	if (!have_fio() || system("command -v python3 >/dev/null 2>&1")) {
		print_message("fio or python3 missing: not refereed\n");
		return;
	}
	sim = sync_run("syncref", text, true, &cfg);
	res = kfsim_bfq_sim_result(sim);
	path = job_file("syncref", text, -1);
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "fio --directory=%s --output-format=json '%s' 2>/dev/null | "
		 "python3 -c 'import json,sys\nfor j in json.load(sys.stdin)[\"jobs\"]: "
		 "print(j[\"sync\"][\"total_ios\"], j[\"sync\"][\"lat_ns\"][\"N\"])'; rm -rf %s",
		 dir, path, dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	for (unsigned int j = 0; j < cfg->nr_jobs; j++) {
		unsigned long long total_ios, n;

		assert_int_equal(fscanf(f, "%llu %llu", &total_ios, &n), 2);
		print_message("%s: fio sync total_ios %llu, %llu samples; kfsim %llu, %llu\n",
			      res->jobs[j].name, total_ios, n,
			      (unsigned long long)res->jobs[j].fsyncs,
			      (unsigned long long)res->jobs[j].syncs);
		assert_int_equal(res->jobs[j].fsyncs, total_ios);
		assert_int_equal(res->jobs[j].syncs, n);
	}
	pclose(f);
	kfsim_bfq_sim_destroy(sim);
	free(cfg);
	free(path);
}

/*
 * Which file each I/O of a job of several files goes to, and where in it (fio nrfiles): a
 * job file of one job at depth 1 run with its completions traced (the order issued); each
 * I/O as "file:KiB" (the file's number, its offset in it).  @sizes: each file's bytes.
 */
static unsigned int nrfiles_order(const char *name, const char *text, char *order, size_t len,
				  u64 *sizes)
{
	struct kfsim_bfq_sim_config *cfg = new_cfg();
	struct kfsim_trace trace;
	struct kfsim_bfq_sim *sim;
	char *buf = NULL, *path, why[1024];
	const char *at;
	size_t buf_len = 0, used = 0;
	unsigned int n = 0;
	FILE *mem;

	path = job_file(name, text, 1);
	assert_int_equal(parse_file(path, cfg, why, sizeof(why)), 0);
	assert_int_equal(cfg->nr_jobs, 1);
	for (unsigned int i = 0; i < cfg->jobs[0].nr_files; i++)
		sizes[i] = cfg->jobs[0].file_bytes[i];
	memset(&trace, 0, sizeof(trace));
	mem = open_memstream(&buf, &buf_len);
	assert_non_null(mem);
	kfsim_trace_open_stream(&trace, mem);
	cfg->trace = &trace;
	cfg->duration_ns = cfg->trace_window_ns = 10000000000ULL;
	sim = kfsim_bfq_sim_create(cfg);
	assert_false(IS_ERR(sim));
	assert_int_equal(kfsim_bfq_sim_run(sim), 0);
	kfsim_bfq_sim_destroy(sim);
	assert_int_equal(kfsim_trace_close(&trace), 0);
	fclose(mem);
	order[0] = '\0';
	for (at = strstr(buf, "\"sector\": "); at; at = strstr(at + 1, "\"sector\": ")) {
		u64 byte = strtoull(at + 10, NULL, 10) * 512 - cfg->jobs[0].file_start;
		unsigned int f = 0;

		/* each file: offset= bytes, then its I/O's (fio's f->file_offset) */
		while (f + 1 < cfg->jobs[0].nr_files && byte >= cfg->jobs[0].files_offset + sizes[f])
			byte -= cfg->jobs[0].files_offset + sizes[f++];
		used += (size_t)snprintf(order + used, len - min(used, len), "%s%u:%llu",
					 n ? " " : "", f, (unsigned long long)(byte >> 10));
		n++;
	}
	print_message("%s: %u I/Os: %s\n", name, n, order);
	free(buf);
	free(path);
	free(cfg);
	return n;
}

/*
 * fio nrfiles as fio 3.33 runs it (io_u.c __get_next_file(), filesetup.c setup_files()),
 * fio's own --write_iolog the referee (ioengine=null, one job, 2026-12-07): which file each
 * I/O went to and where, for roundrobin, sequential, roundrobin:3, random, an offset and a
 * filesize range (fio's files of 20, 28, 28 and 56 KiB); kfsim refused nrfiles with disk
 * I/O before.
 */
static void test_nrfiles_as_fio(void **state)
{
	char order[4096];
	u64 sizes[KFSIM_BFQ_MAX_FILES];

	(void)state;
	/* roundrobin, fio's default: size / nrfiles each (21845 bytes: 5 blocks of 4k) */
	assert_int_equal(nrfiles_order("nrfiles_rr", "[a]\nrw=read\nbs=4k\nsize=64k\n"
				       "nrfiles=3\ndirect=1\n", order, sizeof(order), sizes), 15);
	assert_string_equal(order, "0:0 1:0 2:0 0:4 1:4 2:4 0:8 1:8 2:8 0:12 1:12 2:12 0:16 "
			    "1:16 2:16");
	/* sequential: each file until it is done */
	assert_int_equal(nrfiles_order("nrfiles_seq", "[a]\nrw=read\nbs=4k\nsize=48k\n"
				       "nrfiles=3\nfile_service_type=sequential\ndirect=1\n",
				       order, sizeof(order), sizes), 12);
	assert_string_equal(order, "0:0 0:4 0:8 0:12 1:0 1:4 1:8 1:12 2:0 2:4 2:8 2:12");
	/* roundrobin:3, three I/Os a file */
	assert_int_equal(nrfiles_order("nrfiles_rr3", "[a]\nrw=read\nbs=4k\nsize=64k\n"
				       "nrfiles=2\nfile_service_type=roundrobin:3\ndirect=1\n",
				       order, sizeof(order), sizes), 16);
	assert_string_equal(order, "0:0 0:4 0:8 1:0 1:4 1:8 0:12 0:16 0:20 1:12 1:16 1:20 0:24 0:28 "
			    "1:24 1:28");
	/* random: fio's next_file_state (seed index 5) draws the file */
	assert_int_equal(nrfiles_order("nrfiles_random", "[a]\nrw=read\nbs=4k\nsize=64k\n"
				       "nrfiles=4\nfile_service_type=random\ndirect=1\n",
				       order, sizeof(order), sizes), 16);
	assert_string_equal(order, "3:0 3:4 0:0 0:4 2:0 0:8 2:4 3:8 2:8 3:12 1:0 1:4 2:12 0:12 "
			    "1:8 1:12");
	/* offset=8k: each file's I/O from 8k on, size / nrfiles of it */
	assert_int_equal(nrfiles_order("nrfiles_offset", "[a]\nrw=read\nbs=4k\nsize=96k\n"
				       "offset=8k\nnrfiles=3\ndirect=1\n", order, sizeof(order),
				       sizes), 24);
	assert_string_equal(order, "0:8 1:8 2:8 0:12 1:12 2:12 0:16 1:16 2:16 0:20 1:20 2:20 "
			    "0:24 1:24 2:24 0:28 1:28 2:28 0:32 1:32 2:32 0:36 1:36 2:36");
	/* filesize=16k-64k: each file drawn from file_size_state (seed index 7) */
	nrfiles_order("nrfiles_range", "[a]\nrw=read\nbs=4k\nfilesize=16k-64k\nnrfiles=4\n"
		      "direct=1\n", order, sizeof(order), sizes);
	assert_int_equal(sizes[0], 20 << 10);
	assert_int_equal(sizes[1], 28 << 10);
	assert_int_equal(sizes[2], 28 << 10);
	assert_int_equal(sizes[3], 56 << 10);
	assert_string_equal(order, "0:0 1:0 2:0 3:0 0:4 1:4 2:4 3:4 0:8 1:8 2:8 3:8 0:12 1:12 "
			    "2:12 3:12 0:16 1:16 2:16 3:16 1:20 2:20 3:20 1:24 2:24 3:24 3:28 "
			    "3:32 3:36 3:40 3:44 3:48 3:52");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jobs_and_globals),
		cmocka_unit_test(test_rand_seq_nr),
		cmocka_unit_test(test_unsized_files_share),
		cmocka_unit_test(test_refusals_all_at_once),
		cmocka_unit_test(test_refusal_one_of_several),
		cmocka_unit_test(test_invalid_as_fio),
		cmocka_unit_test(test_bad_files_found_by_mutation),
		cmocka_unit_test(test_endless_file_refused),
		cmocka_unit_test(test_long_lines_as_fio),
		cmocka_unit_test(test_includes_side_by_side),
		cmocka_unit_test(test_fio_syntax),
		cmocka_unit_test(test_job_spec_mixes),
		cmocka_unit_test(test_engine_depth_and_write_flags),
		cmocka_unit_test(test_writeback_throttles_writer),
		cmocka_unit_test(test_mixes_simulate),
		cmocka_unit_test(test_active_time_and_end),
		cmocka_unit_test(test_size_bound_and_stonewall),
		cmocka_unit_test(test_cmdprio),
		cmocka_unit_test(test_value_parts),
		cmocka_unit_test(test_thinktime_as_fio),
		cmocka_unit_test(test_thinktime_iotime_as_fio),
		cmocka_unit_test(test_iodepth_low_as_fio),
		cmocka_unit_test(test_rates_as_fio),
		cmocka_unit_test(test_run_fixups_as_fio),
		cmocka_unit_test(test_exitall_at_exit),
		cmocka_unit_test(test_filenames_as_fio),
		cmocka_unit_test(test_flow),
		cmocka_unit_test(test_strided_zones),
		cmocka_unit_test(test_verify_backlog),
		cmocka_unit_test(test_trims_fail_as_under_fio),
		cmocka_unit_test(test_latency_target),
		cmocka_unit_test(test_zbd_on_a_conventional_disk),
		cmocka_unit_test(test_libzbc_cannot_open),
		cmocka_unit_test(test_steadystate_options),
		cmocka_unit_test(test_steadystate_refused),
		cmocka_unit_test(test_steadystate_attained),
		cmocka_unit_test(test_steadystate_not_attained),
		cmocka_unit_test(test_env_as_fio),
		cmocka_unit_test(test_env_past_fio_line),
		cmocka_unit_test(test_fio_keywords),
		cmocka_unit_test(test_fio_option_not_modelled),
		cmocka_unit_test(test_include_and_header_as_fio),
		cmocka_unit_test(test_patterns_as_fio),
		cmocka_unit_test(test_ramp_time_values),
		cmocka_unit_test(test_ramp_time_run),
		cmocka_unit_test(test_ramp_time_fio_referee),
		cmocka_unit_test(test_alias_named),
		cmocka_unit_test(test_sync_options_as_fio),
		cmocka_unit_test(test_sync_etcd),
		cmocka_unit_test(test_sync_end_direct_read),
		cmocka_unit_test(test_sync_fio_referee),
		cmocka_unit_test(test_rwmix_cycles_as_fio),
		cmocka_unit_test(test_rwmix_passes_as_fio),
		cmocka_unit_test(test_rwmix_seq_passes_as_fio),
		cmocka_unit_test(test_rwmix_drawn_sizes_as_fio),
		cmocka_unit_test(test_drawn_size_zero_entry_ends),
		cmocka_unit_test(test_rwmix_rate_switch_as_fio),
		cmocka_unit_test(test_fio_rand32),
		cmocka_unit_test(test_offset_percent_as_fio),
		cmocka_unit_test(test_size_of_file_as_fio),
		cmocka_unit_test(test_whole_blocks_as_fio),
		cmocka_unit_test(test_device_end_as_fio),
		cmocka_unit_test(test_io_size_percent_as_fio),
		cmocka_unit_test(test_refusal_names_what_it_needs),
		cmocka_unit_test(test_engine_option_named_once),
		cmocka_unit_test(test_values_as_fio_fifth_round),
		cmocka_unit_test(test_exitall_as_fio),
		cmocka_unit_test(test_size_percent_as_fio),
		cmocka_unit_test(test_device_end_whole_blocks_as_fio),
		cmocka_unit_test(test_nrfiles_as_fio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
