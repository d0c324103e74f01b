// SPDX-License-Identifier: MIT
/*
 * kfsim bfq: BFQ with multi-actuator support on a simulated dual-actuator disk.
 *
 *   kfsim bfq sim     one scheduler, one workload: per-actuator and per-process results
 *   kfsim bfq compare the same workload under several schedulers, as a table
 *   kfsim bfq ablate  one BFQ knob swept over values, as a table (and a plot)
 *
 * The workload is --job specs (fio-style) and/or a blkparse trace (--replay).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/elevator.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/slab.h>
#include <kfsim/svg_plot.h>
#include <kfsim/trace_event.h>
#include "cli.h"

#define CMD "bfq"

struct bfq_opts {
	struct kfsim_bfq_sim_config cfg;
	bool json;
	bool sched_given;
	const char *trace_path;
	const char *plot_path;
	const char *replay_path;
	const char *fio_path;
	bool duration_given;
	const char *scheds;		/* compare: comma list */
	const char *param;		/* ablate */
	const char *values;		/* ablate */
	struct kfsim_blktrace_rec *replay;
};

static void bfq_help(void)
{
	char names[160];

	/* the schedulers' names come from the registry (<kfsim/elevator.h>) */
	elv_names(names, sizeof(names), ", ");
	printf("Usage: kfsim bfq sim     [options] --job SPEC [--job SPEC ...] | --fio FILE\n"
	       "       kfsim bfq compare [options] --job SPEC ... [--scheds LIST]\n"
	       "       kfsim bfq ablate  [options] --job SPEC ... --param NAME --values LIST\n\n"
	       "Simulate processes doing I/O through an I/O scheduler onto a simulated multi-actuator\n"
	       "hard disk (Seagate Exos 2X18-like), and report per-actuator and per-process results.\n\n"
	       "Workload:\n"
	       "  --job SPEC          a process, fio-style: name=a,rw=read|randread|write|randwrite,\n"
	       "                      bs=4k,iodepth=1,offset=0%%,size=50%%,ioprio=0..7,prioclass=1..3,\n"
	       "                      weight=1..1000,rate=10m,thinktime=USEC,sync=0|1,cgroup=NAME,\n"
	       "                      cgroup_weight=1..1000 (weight: io.bfq.weight of a one-process\n"
	       "                      cgroup)\n"
	       "  --fio FILE          the jobs of a fio job file (rw bs iodepth size offset ioprio\n"
	       "                      prioclass thinktime rate cgroup cgroup_weight numjobs\n"
	       "                      startdelay runtime; other options are refused)\n"
	       "  --replay FILE       replay the Q events of a blkparse text trace\n"
	       "Disk and scheduler:\n"
	       "  --disk dual|single  two actuators (default) or one\n"
	       "  --actuators N       any number of actuators, 1..16 (split evenly)\n"
	       "  --disk-param K=V    override a drive parameter: rpm spt_od zone_ratio seek_min_ms\n"
	       "                      seek_coeff_ms write_settle_ms cmd_overhead_ms link_mb_s\n"
	       "                      ncq_depth age_cap_ms satf_aging_ms_per_s readahead_kib\n"
	       "                      capacity (sectors) write_cache (0|1) write_cache_mib\n"
	       "  --sched NAME        %s (default bfq; bfq follows --kver,\n"
	       "                      6.3 by default)\n"
	       "  --threshold N       BFQ actuator_load_threshold (default 4)\n"
	       "  --slice-idle-us N   BFQ slice_idle in microseconds (default 8000; 0 = no idling)\n"
	       "  --low-latency 0|1   BFQ low_latency (default 1)\n"
	       "  --no-balance        BFQ injection without patch 8's next-actuator test\n"
	       "  --nr-requests N     scheduler tags (default 64)\n"
	       "Run and output:\n"
	       "  --duration S        simulated seconds (default 2)\n"
	       "  --seed N            random seed (default 1)\n"
	       "  --json              one JSON document on stdout\n"
	       "  --trace FILE        Perfetto/Chrome trace of dispatches per actuator (sim)\n"
	       "  --trace-window S    seconds of the run to trace (default 0.5)\n"
	       "  --bin-ms MS         time-series bin width for --plot (default 50)\n"
	       "  --plot FILE         SVG: throughput per actuator over time (sim), total throughput\n"
	       "                      per scheduler or per value (compare, ablate)\n"
	       "  --scheds LIST       compare: schedulers, comma-separated (default the four\n"
	       "                      built-in ones)\n"
	       "  --param NAME        ablate: threshold, slice_idle_us, low_latency or max_budget\n"
	       "  --values LIST       ablate: comma-separated values\n", names);
}

static int parse_disk_param(struct kfsim_hdd_params *p, const char *text)
{
	const char *eq = strchr(text, '=');
	char key[32];
	char *end;
	double v;

	if (!eq || eq == text || (size_t)(eq - text) >= sizeof(key))
		goto bad;
	memcpy(key, text, (size_t)(eq - text));
	key[eq - text] = '\0';
	errno = 0;
	v = strtod(eq + 1, &end);
	if (errno || end == eq + 1 || *end || !isfinite(v) || v < 0)
		goto bad;
	if (!strcmp(key, "rpm"))
		p->rpm = v;
	else if (!strcmp(key, "spt_od"))
		p->spt_od = (unsigned int)v;
	else if (!strcmp(key, "zone_ratio"))
		p->zone_ratio = v;
	else if (!strcmp(key, "seek_min_ms"))
		p->seek_min_ms = v;
	else if (!strcmp(key, "seek_coeff_ms"))
		p->seek_coeff_ms = v;
	else if (!strcmp(key, "write_settle_ms"))
		p->write_settle_ms = v;
	else if (!strcmp(key, "cmd_overhead_ms"))
		p->cmd_overhead_ms = v;
	else if (!strcmp(key, "link_mb_s"))
		p->link_mb_s = v;
	else if (!strcmp(key, "ncq_depth"))
		p->ncq_depth = (unsigned int)v;
	else if (!strcmp(key, "age_cap_ms"))
		p->age_cap_ms = v;
	else if (!strcmp(key, "satf_aging_ms_per_s"))
		p->satf_aging_ms_per_s = v;
	else if (!strcmp(key, "readahead_kib"))
		p->readahead_kib = (unsigned int)v;
	else if (!strcmp(key, "capacity"))
		p->capacity = (sector_t)v;
	else if (!strcmp(key, "write_cache") && (v == 0 || v == 1))
		p->write_cache = v;
	else if (!strcmp(key, "write_cache_mib"))
		p->write_cache_mib = (unsigned int)v;
	else
		goto bad;
	return 0;
bad:
	return kfsim_cli_usage(CMD, "invalid value '%s' for --disk-param: expected KEY=NUMBER with "
			       "KEY one of rpm spt_od zone_ratio seek_min_ms seek_coeff_ms "
			       "write_settle_ms cmd_overhead_ms link_mb_s ncq_depth age_cap_ms "
			       "satf_aging_ms_per_s readahead_kib capacity write_cache "
			       "write_cache_mib", text), -EINVAL;
}

static int load_replay(struct bfq_opts *o)
{
	FILE *in = fopen(o->replay_path, "r");
	char why[160];
	long n;

	if (!in)
		return kfsim_cli_fail(CMD, -errno, "cannot open '%s'", o->replay_path), -EIO;
	n = kfsim_blktrace_parse(in, &o->replay, why, sizeof(why));
	fclose(in);
	if (n < 0)
		return kfsim_cli_fail(CMD, (int)n, "'%s': %s", o->replay_path, why), -EINVAL;
	if (n == 0)
		return kfsim_cli_fail(CMD, -EINVAL, "'%s' holds no Q events", o->replay_path),
		       -EINVAL;
	o->cfg.replay = o->replay;
	o->cfg.nr_replay = (size_t)n;
	return 0;
}

/* The jobs of a fio job file; a file that is not a modelled job file is a usage error. */
static int load_fio(struct bfq_opts *o)
{
	FILE *in = fopen(o->fio_path, "r");
	char why[240];
	int err;

	if (!in)
		return kfsim_cli_fail(CMD, -errno, "cannot open '%s'", o->fio_path);
	err = kfsim_bfq_fio_parse(in, &o->cfg, why, sizeof(why));
	fclose(in);
	if (err)
		return kfsim_cli_usage(CMD, "'%s': %s", o->fio_path, why);
	return 0;
}

enum {
	OPT_JOB = 256, OPT_REPLAY, OPT_FIO, OPT_DISK, OPT_ACTUATORS, OPT_DISK_PARAM, OPT_SCHED,
	OPT_THRESHOLD, OPT_SLICE_IDLE, OPT_LOW_LATENCY, OPT_NO_BALANCE, OPT_NR_REQUESTS,
	OPT_DURATION, OPT_SEED, OPT_JSON, OPT_TRACE, OPT_TRACE_WINDOW, OPT_PLOT, OPT_SCHEDS,
	OPT_PARAM, OPT_VALUES, OPT_BIN_MS,
};

/* Returns 0, or the exit status to return (usage error already printed). */
static int parse_opts(int argc, char **argv, struct bfq_opts *o)
{
	static const struct option longopts[] = {
		{ "job", required_argument, NULL, OPT_JOB },
		{ "replay", required_argument, NULL, OPT_REPLAY },
		{ "fio", required_argument, NULL, OPT_FIO },
		{ "disk", required_argument, NULL, OPT_DISK },
		{ "actuators", required_argument, NULL, OPT_ACTUATORS },
		{ "disk-param", required_argument, NULL, OPT_DISK_PARAM },
		{ "sched", required_argument, NULL, OPT_SCHED },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "slice-idle-us", required_argument, NULL, OPT_SLICE_IDLE },
		{ "low-latency", required_argument, NULL, OPT_LOW_LATENCY },
		{ "no-balance", no_argument, NULL, OPT_NO_BALANCE },
		{ "nr-requests", required_argument, NULL, OPT_NR_REQUESTS },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "trace", required_argument, NULL, OPT_TRACE },
		{ "trace-window", required_argument, NULL, OPT_TRACE_WINDOW },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "scheds", required_argument, NULL, OPT_SCHEDS },
		{ "param", required_argument, NULL, OPT_PARAM },
		{ "values", required_argument, NULL, OPT_VALUES },
		{ "bin-ms", required_argument, NULL, OPT_BIN_MS },
		{ NULL, 0, NULL, 0 },
	};
	struct kfsim_bfq_sim_config *cfg = &o->cfg;
	double secs;
	u64 v;
	int c;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_JOB: {
			char err[160];

			if (cfg->nr_jobs == KFSIM_BFQ_MAX_JOBS)
				return kfsim_cli_usage(CMD, "too many --job options (at most %d)",
						       KFSIM_BFQ_MAX_JOBS);
			if (kfsim_bfq_job_parse(optarg, &cfg->jobs[cfg->nr_jobs], err, sizeof(err)))
				return kfsim_cli_usage(CMD, "invalid value '%s' for --job: %s",
						       optarg, err);
			if (!strcmp(cfg->jobs[cfg->nr_jobs].name, "job"))
				snprintf(cfg->jobs[cfg->nr_jobs].name, sizeof(cfg->jobs[0].name),
					 "job%u", cfg->nr_jobs);
			cfg->nr_jobs++;
			break;
		}
		case OPT_REPLAY:
			o->replay_path = optarg;
			break;
		case OPT_FIO:
			o->fio_path = optarg;
			break;
		case OPT_DISK:
			if (strcmp(optarg, "dual") && strcmp(optarg, "single"))
				return kfsim_cli_usage(CMD, "invalid value '%s' for --disk: expected "
						       "dual or single", optarg);
			cfg->disk.nr_actuators = optarg[0] == 'd' ? 2 : 1;
			break;
		case OPT_ACTUATORS:
			if (kfsim_cli_parse_u64(CMD, "--actuators", optarg, 1,
						KFSIM_HDD_MAX_ACTUATORS, &v))
				return KFSIM_EXIT_USAGE;
			cfg->disk.nr_actuators = (unsigned int)v;
			break;
		case OPT_DISK_PARAM:
			if (parse_disk_param(&cfg->disk, optarg))
				return KFSIM_EXIT_USAGE;
			break;
		case OPT_SCHED:
			if (kfsim_bfq_sched_parse(optarg, &cfg->sched))
				return kfsim_cli_usage(CMD, "invalid value '%s' for --sched: expected "
						       "bfq, bfq-6.2, none or mq-deadline", optarg);
			o->sched_given = true;
			break;
		case OPT_THRESHOLD:
			if (kfsim_cli_parse_u64(CMD, "--threshold", optarg, 1, 1024, &v))
				return KFSIM_EXIT_USAGE;
			cfg->bfq.actuator_load_threshold = (unsigned int)v;
			break;
		case OPT_SLICE_IDLE:
			if (kfsim_cli_parse_u64(CMD, "--slice-idle-us", optarg, 0, 1000000, &v))
				return KFSIM_EXIT_USAGE;
			cfg->bfq.slice_idle_ns = v * 1000;
			break;
		case OPT_LOW_LATENCY:
			if (kfsim_cli_parse_u64(CMD, "--low-latency", optarg, 0, 1, &v))
				return KFSIM_EXIT_USAGE;
			cfg->bfq.low_latency = v;
			break;
		case OPT_NO_BALANCE:
			cfg->bfq.next_actuator_balance = false;
			break;
		case OPT_NR_REQUESTS:
			if (kfsim_cli_parse_u64(CMD, "--nr-requests", optarg, 1, 65536, &v))
				return KFSIM_EXIT_USAGE;
			cfg->nr_requests = (unsigned int)v;
			break;
		case OPT_DURATION:
			if (kfsim_cli_parse_double(CMD, "--duration", optarg, 0.001, 3600, &secs))
				return KFSIM_EXIT_USAGE;
			cfg->duration_ns = (u64)(secs * 1e9);
			o->duration_given = true;
			break;
		case OPT_SEED:
			if (kfsim_cli_parse_u64(CMD, "--seed", optarg, 0, UINT64_MAX, &v))
				return KFSIM_EXIT_USAGE;
			cfg->seed = v;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_TRACE:
			o->trace_path = optarg;
			break;
		case OPT_TRACE_WINDOW:
			if (kfsim_cli_parse_double(CMD, "--trace-window", optarg, 0.001, 3600, &secs))
				return KFSIM_EXIT_USAGE;
			cfg->trace_window_ns = (u64)(secs * 1e9);
			break;
		case OPT_PLOT:
			o->plot_path = optarg;
			break;
		case OPT_SCHEDS:
			o->scheds = optarg;
			break;
		case OPT_PARAM:
			o->param = optarg;
			break;
		case OPT_VALUES:
			o->values = optarg;
			break;
		case OPT_BIN_MS:
			if (kfsim_cli_parse_double(CMD, "--bin-ms", optarg, 0.1, 60000, &secs))
				return KFSIM_EXIT_USAGE;
			cfg->bin_ns = (u64)(secs * 1e6);
			break;
		default:
			return kfsim_cli_bad_option(CMD, argv, c);
		}
	}
	if (optind < argc)
		return kfsim_cli_usage(CMD, "unexpected argument '%s'", argv[optind]);
	if (o->fio_path) {
		u64 duration = cfg->duration_ns;
		int err = load_fio(o);

		if (err)
			return err;
		if (o->duration_given)
			cfg->duration_ns = duration;	/* --duration wins over the file's runtime */
	}
	if (!cfg->nr_jobs && !o->replay_path)
		return kfsim_cli_usage(CMD, "option '--job', '--fio' or '--replay' is required");
	if (cfg->duration_ns / cfg->bin_ns > 100000)
		cfg->bin_ns = cfg->duration_ns / 100000;
	return 0;
}

/* --- output ---------------------------------------------------------------------------- */

static void json_result(struct kfsim_json *json, const struct kfsim_bfq_sim_config *cfg,
			const struct kfsim_bfq_sim_result *res)
{
	static const char *const reasons[] = { "too_idle", "budget_timeout", "budget_exhausted",
					       "no_more_requests", "preempted" };

	kfsim_json_object_begin(json);
	kfsim_json_kv_string(json, "sched", kfsim_bfq_sched_name(cfg->sched));
	kfsim_json_kv_uint(json, "actuators", res->nr_actuators);
	kfsim_json_kv_double(json, "duration_s", res->duration_s);
	kfsim_json_kv_uint(json, "seed", cfg->seed);
	kfsim_json_kv_double(json, "mb_s", res->mb_s);
	kfsim_json_kv_double(json, "iops", res->iops);
	kfsim_json_kv_double(json, "jain", res->jain);
	kfsim_json_kv_uint(json, "submitted", res->submitted);
	kfsim_json_kv_uint(json, "completed", res->completed);
	kfsim_json_kv_uint(json, "in_flight_at_end", res->in_flight);
	/* completed + drained == submitted: every request completed exactly once */
	kfsim_json_kv_uint(json, "drained", res->drained);
	kfsim_json_key(json, "actuator");
	kfsim_json_array_begin(json);
	for (unsigned int a = 0; a < res->nr_actuators; a++) {
		const struct kfsim_bfq_actuator_result *ar = &res->actuator[a];

		kfsim_json_object_begin(json);
		kfsim_json_kv_double(json, "utilisation", ar->utilisation);
		kfsim_json_kv_double(json, "mb_s", ar->mb_s);
		kfsim_json_kv_double(json, "iops", ar->iops);
		kfsim_json_kv_uint(json, "injected", ar->injected);
		kfsim_json_kv_uint(json, "cache_hits", ar->cache_hits);
		kfsim_json_object_end(json);
	}
	kfsim_json_array_end(json);
	kfsim_json_key(json, "jobs");
	kfsim_json_array_begin(json);
	for (unsigned int j = 0; j < res->nr_jobs; j++) {
		const struct kfsim_bfq_job_result *jr = &res->jobs[j];

		kfsim_json_object_begin(json);
		kfsim_json_kv_string(json, "name", jr->name);
		kfsim_json_kv_uint(json, "weight", jr->weight);
		kfsim_json_kv_uint(json, "requests", jr->requests);
		kfsim_json_kv_double(json, "mb_s", jr->mb_s);
		kfsim_json_kv_double(json, "iops", jr->iops);
		kfsim_json_kv_double(json, "share", jr->share);
		kfsim_json_kv_double(json, "lat_mean_us", jr->lat_mean_us);
		kfsim_json_kv_double(json, "lat_p99_us", jr->lat_p99_us);
		kfsim_json_kv_double(json, "lat_max_us", jr->lat_max_us);
		kfsim_json_object_end(json);
	}
	kfsim_json_array_end(json);
	if (cfg->sched == KFSIM_SCHED_BFQ || cfg->sched == KFSIM_SCHED_BFQ_62) {
		kfsim_json_kv_uint(json, "hole_injected", res->hole_injected);
		kfsim_json_key(json, "expirations");
		kfsim_json_object_begin(json);
		for (int r = 0; r < BFQQE_NR_REASONS; r++)
			kfsim_json_kv_uint(json, reasons[r], res->expirations[r]);
		kfsim_json_object_end(json);
	}
	kfsim_json_object_end(json);
}

static void text_result(const struct kfsim_bfq_sim_config *cfg,
			const struct kfsim_bfq_sim_result *res)
{
	printf("%s on a %u-actuator disk, %.3g s simulated (seed %llu)\n",
	       kfsim_bfq_sched_name(cfg->sched), res->nr_actuators, res->duration_s,
	       (unsigned long long)cfg->seed);
	printf("  total %.1f MB/s, %.0f IOPS, Jain's index %.3f", res->mb_s, res->iops, res->jain);
	if (cfg->sched == KFSIM_SCHED_BFQ || cfg->sched == KFSIM_SCHED_BFQ_62)
		printf(", %llu injected into service holes",
		       (unsigned long long)res->hole_injected);
	printf("\n");
	printf("  %-10s %8s %10s %9s %9s %10s\n", "actuator", "util", "MB/s", "IOPS", "injected",
	       "cache hits");
	for (unsigned int a = 0; a < res->nr_actuators; a++) {
		const struct kfsim_bfq_actuator_result *ar = &res->actuator[a];

		printf("  %-10u %7.1f%% %10.1f %9.0f %9llu %10llu\n", a, ar->utilisation * 100,
		       ar->mb_s, ar->iops, (unsigned long long)ar->injected,
		       (unsigned long long)ar->cache_hits);
	}
	printf("  %-10s %6s %10s %9s %7s %10s %10s %10s\n", "process", "weight", "MB/s", "IOPS",
	       "share", "lat mean", "lat p99", "lat max");
	for (unsigned int j = 0; j < res->nr_jobs; j++) {
		const struct kfsim_bfq_job_result *jr = &res->jobs[j];

		printf("  %-10s %6u %10.1f %9.0f %6.1f%% %8.0fus %8.0fus %8.0fus\n", jr->name,
		       jr->weight, jr->mb_s, jr->iops, jr->share * 100, jr->lat_mean_us,
		       jr->lat_p99_us, jr->lat_max_us);
	}
}

static int plot_series(const struct kfsim_bfq_sim_config *cfg,
		       const struct kfsim_bfq_sim_result *res, const char *path)
{
	struct kfsim_plot_series series[KFSIM_HDD_MAX_ACTUATORS];
	char names[KFSIM_HDD_MAX_ACTUATORS][32];
	char title[96];
	double *x = kcalloc(res->nr_bins, sizeof(double), GFP_KERNEL);
	unsigned int n = min(res->nr_actuators, 8U);
	int err;

	if (!x)
		return -ENOMEM;
	for (size_t b = 0; b < res->nr_bins; b++)
		x[b] = (double)(b + 1) * (double)cfg->bin_ns / 1e9;
	for (unsigned int a = 0; a < n; a++) {
		snprintf(names[a], sizeof(names[a]), "actuator %u", a);
		series[a] = (struct kfsim_plot_series){ names[a], x, res->series_mb_s[a],
							res->nr_bins };
	}
	snprintf(title, sizeof(title), "%s: throughput per actuator",
		 kfsim_bfq_sched_name(cfg->sched));
	err = kfsim_plot_svg_save(&(struct kfsim_plot){ .title = title, .x_label = "time (s)",
						       .y_label = "MB/s", .y_from_zero = true,
						       .series = series, .nr_series = n },
				  path);
	kfree(x);
	return err;
}

/* Run one configuration; *@sim_out keeps the simulation for its results. */
static int run_one(const struct kfsim_bfq_sim_config *cfg, struct kfsim_bfq_sim **sim_out,
		   char *why, size_t why_len)
{
	struct kfsim_bfq_sim *sim = kfsim_bfq_sim_create_msg(cfg, why, why_len);
	int err;

	if (IS_ERR(sim))
		return (int)PTR_ERR(sim);
	err = kfsim_bfq_sim_run(sim);
	if (err) {
		snprintf(why, why_len, "the run stopped: %s", err == -ENOMEM ? "out of memory" :
			 "error");
		kfsim_bfq_sim_destroy(sim);
		return err;
	}
	*sim_out = sim;
	return 0;
}

static int cmd_sim(struct bfq_opts *o)
{
	struct kfsim_trace trace;
	struct kfsim_bfq_sim *sim = NULL;
	struct kfsim_json json;
	char why[200] = "";
	int err;

	if (o->trace_path) {
		err = kfsim_trace_open(&trace, o->trace_path);
		if (err)
			return kfsim_cli_fail(CMD, err, "cannot create '%s'", o->trace_path);
		o->cfg.trace = &trace;
	}
	err = run_one(&o->cfg, &sim, why, sizeof(why));
	if (o->trace_path) {
		int close_err = kfsim_trace_close(&trace);

		if (!err && close_err)
			err = close_err;
	}
	if (err)
		return kfsim_cli_fail(CMD, err, "simulation failed: %s", why);
	if (o->json) {
		kfsim_json_init(&json, stdout, true);
		json_result(&json, &o->cfg, kfsim_bfq_sim_result(sim));
		kfsim_json_finish(&json);
	} else {
		text_result(&o->cfg, kfsim_bfq_sim_result(sim));
		if (o->trace_path)
			printf("  trace: %s (open in ui.perfetto.dev)\n", o->trace_path);
	}
	if (o->plot_path) {
		err = plot_series(&o->cfg, kfsim_bfq_sim_result(sim), o->plot_path);
		if (err) {
			kfsim_bfq_sim_destroy(sim);
			return kfsim_cli_fail(CMD, err, "cannot write '%s'", o->plot_path);
		}
		if (!o->json)
			printf("  plot: %s\n", o->plot_path);
	}
	kfsim_bfq_sim_destroy(sim);
	return KFSIM_EXIT_OK;
}

/* --- compare and ablate ---------------------------------------------------------------- */

#define MAX_RUNS 32

struct run_row {
	char label[32];
	double x;
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_bfq_sim *sim;
};

static void table_header(const struct kfsim_bfq_sim_result *res, const char *first)
{
	printf("%-14s %9s", first, "MB/s");
	for (unsigned int a = 0; a < res->nr_actuators; a++)
		printf("  act%u MB/s  util  inject", a);
	printf("  %6s", "Jain");
	for (unsigned int j = 0; j < res->nr_jobs; j++)
		printf(" %9.9s", res->jobs[j].name);
	printf("\n");
}

static void table_row(const char *label, const struct kfsim_bfq_sim_result *res)
{
	printf("%-14s %9.1f", label, res->mb_s);
	for (unsigned int a = 0; a < res->nr_actuators; a++)
		printf("  %9.1f %4.0f%% %7llu", res->actuator[a].mb_s,
		       res->actuator[a].utilisation * 100,
		       (unsigned long long)res->actuator[a].injected);
	printf("  %6.3f", res->jain);
	for (unsigned int j = 0; j < res->nr_jobs; j++)
		printf(" %9.1f", res->jobs[j].mb_s);
	printf("\n");
}

static int run_rows(struct bfq_opts *o, struct run_row *rows, unsigned int nr, const char *what,
		    bool numeric_x)
{
	struct kfsim_json json;
	char why[200] = "";
	int err = 0;

	for (unsigned int i = 0; i < nr && !err; i++)
		err = run_one(&rows[i].cfg, &rows[i].sim, why, sizeof(why));
	if (err)
		goto out;
	if (o->json) {
		kfsim_json_init(&json, stdout, true);
		kfsim_json_object_begin(&json);
		kfsim_json_key(&json, "runs");
		kfsim_json_array_begin(&json);
		for (unsigned int i = 0; i < nr; i++) {
			kfsim_json_object_begin(&json);
			kfsim_json_kv_string(&json, what, rows[i].label);
			kfsim_json_key(&json, "result");
			json_result(&json, &rows[i].cfg, kfsim_bfq_sim_result(rows[i].sim));
			kfsim_json_object_end(&json);
		}
		kfsim_json_array_end(&json);
		kfsim_json_object_end(&json);
		kfsim_json_finish(&json);
	} else {
		table_header(kfsim_bfq_sim_result(rows[0].sim), what);
		for (unsigned int i = 0; i < nr; i++)
			table_row(rows[i].label, kfsim_bfq_sim_result(rows[i].sim));
	}
	if (o->plot_path) {
		double x[MAX_RUNS], total[MAX_RUNS], act[KFSIM_HDD_MAX_ACTUATORS][MAX_RUNS];
		struct kfsim_plot_series series[1 + 2];
		unsigned int na = min(kfsim_bfq_sim_result(rows[0].sim)->nr_actuators, 2U);
		char title[96];

		for (unsigned int i = 0; i < nr; i++) {
			const struct kfsim_bfq_sim_result *res = kfsim_bfq_sim_result(rows[i].sim);

			x[i] = numeric_x ? rows[i].x : i;
			total[i] = res->mb_s;
			for (unsigned int a = 0; a < na; a++)
				act[a][i] = res->actuator[a].mb_s;
		}
		series[0] = (struct kfsim_plot_series){ "total", x, total, nr };
		series[1] = (struct kfsim_plot_series){ "actuator 0", x, act[0], nr };
		series[2] = (struct kfsim_plot_series){ "actuator 1", x, act[1], nr };
		snprintf(title, sizeof(title), "throughput against %s", what);
		err = kfsim_plot_svg_save(&(struct kfsim_plot){ .title = title, .x_label = what,
							       .y_label = "MB/s",
							       .y_from_zero = true,
							       .series = series,
							       .nr_series = 1 + na },
					  o->plot_path);
		if (err) {
			kfsim_cli_fail(CMD, err, "cannot write '%s'", o->plot_path);
			err = 1;
		}
	}
out:
	for (unsigned int i = 0; i < nr; i++)
		kfsim_bfq_sim_destroy(rows[i].sim);
	if (err < 0)
		return kfsim_cli_fail(CMD, err, "simulation failed: %s", why);
	return err ? KFSIM_EXIT_FAILURE : KFSIM_EXIT_OK;
}

static int cmd_compare(struct bfq_opts *o)
{
	static struct run_row rows[MAX_RUNS];
	char list[256];
	char *save = NULL;
	unsigned int nr = 0;

	memset(rows, 0, sizeof(rows));
	snprintf(list, sizeof(list), "%s", o->scheds ? o->scheds : "bfq-6.2,bfq,none,mq-deadline");
	for (char *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (nr == MAX_RUNS)
			return kfsim_cli_usage(CMD, "too many schedulers in --scheds");
		rows[nr].cfg = o->cfg;
		if (kfsim_bfq_sched_parse(name, &rows[nr].cfg.sched)) {
			char names[160];

			elv_names(names, sizeof(names), ", ");
			return kfsim_cli_usage(CMD, "invalid value '%s' for --scheds: expected a "
					       "comma-separated list of %s", o->scheds, names);
		}
		snprintf(rows[nr].label, sizeof(rows[nr].label), "%s", name);
		nr++;
	}
	if (!nr)
		return kfsim_cli_usage(CMD, "invalid value '' for --scheds: expected a list");
	return run_rows(o, rows, nr, "scheduler", false);
}

static int cmd_ablate(struct bfq_opts *o)
{
	static struct run_row rows[MAX_RUNS];
	char list[256];
	char *save = NULL;
	unsigned int nr = 0;

	memset(rows, 0, sizeof(rows));
	if (!o->param || !o->values)
		return kfsim_cli_usage(CMD, "ablate needs --param and --values");
	if (strcmp(o->param, "threshold") && strcmp(o->param, "slice_idle_us") &&
	    strcmp(o->param, "low_latency") && strcmp(o->param, "max_budget"))
		return kfsim_cli_usage(CMD, "invalid value '%s' for --param: expected threshold, "
				       "slice_idle_us, low_latency or max_budget", o->param);
	if (!o->sched_given)
		o->cfg.sched = KFSIM_SCHED_BFQ;
	snprintf(list, sizeof(list), "%s", o->values);
	for (char *val = strtok_r(list, ",", &save); val; val = strtok_r(NULL, ",", &save)) {
		struct kfsim_bfq_sim_config *cfg = &rows[nr].cfg;
		char *end;
		unsigned long long v;

		if (nr == MAX_RUNS)
			return kfsim_cli_usage(CMD, "too many --values (at most %d)", MAX_RUNS);
		errno = 0;
		v = strtoull(val, &end, 10);
		if (errno || *end || end == val || *val == '-' || v > 1000000 ||
		    (!strcmp(o->param, "threshold") && !v) ||
		    (!strcmp(o->param, "low_latency") && v > 1))
			return kfsim_cli_usage(CMD, "invalid value '%s' in --values: expected "
					       "integers valid for %s", val, o->param);
		*cfg = o->cfg;
		if (!strcmp(o->param, "threshold"))
			cfg->bfq.actuator_load_threshold = (unsigned int)v;
		else if (!strcmp(o->param, "slice_idle_us"))
			cfg->bfq.slice_idle_ns = v * 1000;
		else if (!strcmp(o->param, "low_latency"))
			cfg->bfq.low_latency = v;
		else
			cfg->bfq.max_budget = (int)v;
		snprintf(rows[nr].label, sizeof(rows[nr].label), "%s=%llu", o->param, v);
		rows[nr].x = (double)v;
		nr++;
	}
	if (!nr)
		return kfsim_cli_usage(CMD, "invalid value '' for --values: expected a list");
	return run_rows(o, rows, nr, o->param, true);
}

static int bfq_run(int argc, char **argv)
{
	static struct bfq_opts o;
	const char *verb;
	int ret;

	if (kfsim_cli_wants_help(argc, argv)) {
		bfq_help();
		return KFSIM_EXIT_OK;
	}
	if (argc < 2)
		return kfsim_cli_usage(CMD, "a subcommand is required: sim, compare or ablate "
				       "(kfsim bfq --help)");
	verb = argv[1];
	if (strcmp(verb, "sim") && strcmp(verb, "compare") && strcmp(verb, "ablate"))
		return kfsim_cli_usage(CMD, "unknown subcommand '%s': expected sim, compare or "
				       "ablate", verb);
	memset(&o, 0, sizeof(o));
	kfsim_bfq_sim_config_default(&o.cfg);
	ret = parse_opts(argc - 1, argv + 1, &o);
	if (ret)
		return ret;
	if (strcmp(verb, "sim") && o.trace_path)
		return kfsim_cli_usage(CMD, "option '--trace' is for 'kfsim bfq sim' only");
	if (o.replay_path && load_replay(&o))
		return KFSIM_EXIT_FAILURE;
	if (!strcmp(verb, "sim"))
		ret = cmd_sim(&o);
	else if (!strcmp(verb, "compare"))
		ret = cmd_compare(&o);
	else
		ret = cmd_ablate(&o);
	kvfree(o.replay);
	return ret;
}

const struct kfsim_cli_command kfsim_cmd_bfq = {
	.name = "bfq",
	.summary = "BFQ with multi-actuator support on a simulated dual-actuator disk",
	.run = bfq_run,
};
