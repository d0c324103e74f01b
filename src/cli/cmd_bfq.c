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
#include <fcntl.h>
#include <stddef.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/elevator.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/slab.h>
#include <kfsim/outfile.h>
#include <kfsim/svg_plot.h>
#include <kfsim/trace_event.h>
#include "cli.h"
#include "cli_bfq_record.h"
#include "cli_grid.h"

#define CMD "bfq"

struct bfq_opts {
	struct kfsim_bfq_sim_config cfg;
	bool json;
	bool sched_given;
	bool force;
	bool quiet;
	bool dump_jobs;
	u64 trace_max;
	const char *trace_path;
	const char *plot_path;
	const char *replay_path;
	const char *fio_path;
	const char *scheds;		/* compare: comma list */
	const char *param;		/* ablate */
	const char *values;		/* ablate */
	struct kfsim_blktrace_rec *replay;
	u64 replay_span_ns;		/* last Q event - first */
	bool replay_scale;
	bool replay_closed;
	long replay_linked;		/* --replay-closed: records a completion in the trace ended */
	struct kfsim_grid_opts grid;	/* compare, ablate: --shard, --jobs (cli_grid.h) */
};

/* --tunable NAME=VALUE: a BFQ sysfs attribute, stored as the kernel's store function does. */
static int parse_tunable(void *opts, const char *text, char *why, size_t why_size)
{
	struct bfq_tunables *tun = &((struct bfq_opts *)opts)->cfg.bfq;
	const char *eq = strchr(text, '='), *reason;
	char name[32];

	if (!eq || eq == text || (size_t)(eq - text) >= sizeof(name)) {
		snprintf(why, why_size, "expected NAME=VALUE with NAME one of %s",
			 bfq_tunable_names());
		return -EINVAL;
	}
	memcpy(name, text, (size_t)(eq - text));
	name[eq - text] = '\0';
	if (bfq_tunable_store(tun, name, eq + 1, &reason)) {
		snprintf(why, why_size, "'%s': %s (names: %s)", name, reason, bfq_tunable_names());
		return -EINVAL;
	}
	/* the kernel takes these; the simulation's limits (bfq_init_queue()) are narrower */
	if (tun->slice_idle_ns > NSEC_PER_SEC || tun->timeout_ms > 10000) {
		snprintf(why, why_size, "'%s': beyond what kfsim simulates (slice_idle up to "
			 "1000 ms, timeout_sync up to 10000 ms)", name);
		return -EINVAL;
	}
	return 0;
}

static int parse_disk_param(void *opts, const char *text, char *why, size_t why_size)
{
	struct kfsim_hdd_params *p = &((struct bfq_opts *)opts)->cfg.disk;
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
	/* integer keys take whole numbers their field can hold: never truncated or wrapped */
	if ((!strcmp(key, "spt_od") || !strcmp(key, "ncq_depth") ||
	     !strcmp(key, "readahead_kib") || !strcmp(key, "write_cache_mib") ||
	     !strcmp(key, "capacity")) &&
	    (v != floor(v) || v > (strcmp(key, "capacity") ? (double)UINT_MAX : 0x1p62))) {
		snprintf(why, why_size, "%s takes a whole number%s", key,
			 strcmp(key, "capacity") ? " up to 4294967295" : " of sectors below 2^62");
		return -EINVAL;
	}
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
	else if (!strcmp(key, "cache_mib"))
		p->cache_mib = (unsigned int)v;
	else
		goto bad;
	return 0;
bad:
	snprintf(why, why_size, "expected KEY=NUMBER with KEY one of rpm spt_od zone_ratio "
		 "seek_min_ms seek_coeff_ms write_settle_ms cmd_overhead_ms link_mb_s ncq_depth "
		 "age_cap_ms satf_aging_ms_per_s readahead_kib capacity write_cache "
		 "write_cache_mib cache_mib");
	return -EINVAL;
}

/*
 * The run budget: simulated requests, estimated at the drive's best case (a request every
 * 0.1 ms per actuator is faster than any it serves) times the simulated time and the runs.
 * Two sequential readers for 100 s (1.87 million requests) took 5.4 s here (2026-12-03, 2
 * shared vCPUs), so the budget is some 15 s at worst; --force runs beyond.
 */
#define BFQ_BUDGET_REQUESTS 5e6

static void replay_progress(void *arg, size_t done, size_t total)
{
	kfsim_cli_progress_update(arg, total ? (double)done / (double)total : 1.0, 0);
}

/*
 * The trace, mapped and parsed (blkparse or tracefs blk text).  Its first event is time 0 of
 * the replay, and without --duration the replay lasts the trace's span.  The file's size
 * bounds its events (a Q line is at least 40 bytes) before any is read: beyond the budget it
 * asks for --force, as the simulation does.
 */
static int load_replay(struct bfq_opts *o, bool duration_given)
{
	struct kfsim_cli_progress line;
	/* O_NONBLOCK: a FIFO is refused below (no regular file), not waited on in open(2) */
	int fd = open(o->replay_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	u64 first = U64_MAX, last = 0;
	struct stat st;
	char why[1024] = "";
	void *map;
	long n;

	if (fd < 0)
		return kfsim_cli_fail(CMD, -errno, "cannot open '%s'", o->replay_path), -EIO;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return kfsim_cli_fail(CMD, -EINVAL, "'%s' holds no Q events (not a non-empty "
				      "regular file)", o->replay_path), -EINVAL;
	}
	if (kfsim_cli_budget(CMD, (double)st.st_size / 40, BFQ_BUDGET_REQUESTS,
			     "trace events at most (from the file's size)", o->force)) {
		close(fd);
		return -E2BIG;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return kfsim_cli_fail(CMD, -errno, "cannot map '%s'", o->replay_path), -EIO;
	madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	kfsim_cli_progress_begin(&line, "parsing the trace", o->quiet);
	n = kfsim_blktrace_parse_buf(map, (size_t)st.st_size, &o->replay, why, sizeof(why),
				     replay_progress, &line);
	kfsim_cli_progress_end(&line);
	/* the dependencies are read on the trace's own sectors, before they are placed */
	if (n > 0 && o->replay_closed)
		o->replay_linked = kfsim_blktrace_deps(map, (size_t)st.st_size, o->replay, (size_t)n);
	munmap(map, (size_t)st.st_size);
	if (n < 0)
		return kfsim_cli_fail(CMD, (int)n, "'%s': %s", o->replay_path, why), -EINVAL;
	if (n == 0 && why[0])
		return kfsim_cli_fail(CMD, -EINVAL, "'%s' holds no Q event to replay: %s",
				      o->replay_path, why), -EINVAL;
	if (n == 0)
		return kfsim_cli_fail(CMD, -EINVAL, "'%s' holds no Q events", o->replay_path),
		       -EINVAL;
	if (why[0])	/* it replays, but the trace is not whole: say so */
		fprintf(stderr, "kfsim %s: '%s': %s\n", CMD, o->replay_path, why);
	if (o->replay_closed && o->replay_linked < 0)
		return kfsim_cli_fail(CMD, (int)o->replay_linked, "'%s': cannot read its completions",
				      o->replay_path), -EINVAL;
	if (o->replay_closed && o->replay_linked == 0)
		return kfsim_cli_fail(CMD, -EINVAL, "'%s' holds no completion (C event) that ends a "
				      "queued I/O: a closed-loop replay has nothing to follow",
				      o->replay_path), -EINVAL;
	for (long i = 0; i < n; i++) {
		first = min(first, o->replay[i].time_ns);
		last = max(last, o->replay[i].time_ns);
	}
	for (long i = 0; i < n; i++)
		o->replay[i].time_ns -= first;
	o->replay_span_ns = last - first;
	if (kfsim_blktrace_place(o->replay, (size_t)n, o->cfg.disk.capacity, o->replay_scale, why,
				 sizeof(why))) {
		kfsim_cli_usage(CMD, "'%s': %s", o->replay_path, why);
		return -E2BIG;
	}
	if (!duration_given)
		o->cfg.duration_ns = o->replay_span_ns + NSEC_PER_USEC;	/* the last one issues */
	o->cfg.replay = o->replay;
	o->cfg.nr_replay = (size_t)n;
	o->cfg.replay_closed = o->replay_closed;
	return 0;
}

/*
 * The jobs of a fio job file; a file that is not a modelled job file is a usage error, with
 * every problem on a line of its own ("FILE:LINE: option: reason").
 */
static int load_fio(struct bfq_opts *o, bool duration_given)
{
	u64 duration = o->cfg.duration_ns;
	char why[8192];
	int err;

	err = kfsim_bfq_fio_parse_file(o->fio_path, &o->cfg, why, sizeof(why));
	/* one line per problem, each as a usage error says it: "kfsim bfq: FILE:LINE: ..." */
	if (err == -EINVAL)
		return kfsim_cli_usage_lines(CMD, why);
	if (err)
		return kfsim_cli_fail(CMD, err, "cannot open '%s'", o->fio_path);
	if (duration_given)
		o->cfg.duration_ns = duration;	/* --duration wins over the file's runtime */
	return 0;
}

static int parse_job(void *opts, const char *value, char *why, size_t why_size)
{
	struct kfsim_bfq_sim_config *cfg = &((struct bfq_opts *)opts)->cfg;

	if (cfg->nr_jobs == KFSIM_BFQ_MAX_JOBS) {
		snprintf(why, why_size, "too many --job options (at most %d)", KFSIM_BFQ_MAX_JOBS);
		return -EINVAL;
	}
	if (kfsim_bfq_job_parse(value, &cfg->jobs[cfg->nr_jobs], why, why_size))
		return -EINVAL;
	if (!strcmp(cfg->jobs[cfg->nr_jobs].name, "job"))
		snprintf(cfg->jobs[cfg->nr_jobs].name, sizeof(cfg->jobs[0].name), "job%u",
			 cfg->nr_jobs);
	cfg->nr_jobs++;
	return 0;
}

static int parse_disk(void *opts, const char *value, char *why, size_t why_size)
{
	if (strcmp(value, "dual") && strcmp(value, "single")) {
		snprintf(why, why_size, "expected dual or single");
		return -EINVAL;
	}
	((struct bfq_opts *)opts)->cfg.disk.nr_actuators = value[0] == 'd' ? 2 : 1;
	return 0;
}

static int parse_sched(void *opts, const char *value, char *why, size_t why_size)
{
	struct bfq_opts *o = opts;

	if (kfsim_bfq_sched_parse(value, &o->cfg.sched)) {
		char names[160];

		/* the schedulers' names come from the registry (<kfsim/elevator.h>) */
		elv_names(names, sizeof(names), ", ");
		snprintf(why, why_size, "expected one of %s", names);
		return -EINVAL;
	}
	o->sched_given = true;
	return 0;
}

static void format_disk(const void *opts, char *buf, size_t size)
{
	unsigned int nr = ((const struct bfq_opts *)opts)->cfg.disk.nr_actuators;

	if (nr == 1 || nr == 2)
		snprintf(buf, size, "%s", nr == 2 ? "dual" : "single");
}

static void format_sched(const void *opts, char *buf, size_t size)
{
	snprintf(buf, size, "%s", kfsim_bfq_sched_name(((const struct bfq_opts *)opts)->cfg.sched));
}

/* The library's setup (<kfsim/bfq_sim.h>): the same for every verb. */
static void bfq_defaults(void *opts, unsigned int verb)
{
	struct bfq_opts *o = opts;

	memset(o, 0, sizeof(*o));
	kfsim_bfq_sim_config_default(&o->cfg);
	o->trace_max = KFSIM_TRACE_MAX_DEFAULT;
}

enum { VERB_SIM, VERB_COMPARE, VERB_ABLATE };
#define SIM_ONLY (1u << VERB_SIM)
#define NS_PER_US 1000ULL
#define NS_PER_MS 1000000ULL
#define NS_PER_S 1000000000ULL
#define O(field) offsetof(struct bfq_opts, field)


static int run_sim(void *opts, const struct kfsim_cli_args *args);
static int run_compare(void *opts, const struct kfsim_cli_args *args);
static int run_ablate(void *opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_verb bfq_verbs[] = {
	{ "sim", "one scheduler, one workload: per-actuator and per-process results",
	  .run = run_sim },
	{ "compare", "the same workload under several schedulers, as a table",
	  .run = run_compare },
	{ "ablate", "one BFQ knob swept over values, as a table (and a plot)", .run = run_ablate },
};

static const struct kfsim_opt bfq_opts_table[] = {
	{ .help = "Workload:" },
	{ "job", KFSIM_OPT_CALL, 0, "SPEC",
	  "a process, fio-style: name=a,rw=read|randread|write|randwrite|\n"
	  "rw|randrw,rwmixread=70,bs=4k[,8k],bsrange=4k-64k,\n"
	  "bssplit=4k/50:64k/50,iodepth=1,ioengine=libaio|psync|null,\n"
	  "direct=1|0,offset=0%,size=50%,io_size=1g,number_ios=N,\n"
	  "ioprio=0..7,prioclass=1..3,weight=1..1000,rate=10m[,5m],\n"
	  "rate_iops=100[,50],percentage_random=0..100,\n"
	  "random_distribution=zipf:1.2,thinktime=USEC,sync=0|1|dsync,\n"
	  "cgroup=NAME,cgroup_weight=1..1000 (weight: io.bfq.weight of a\n"
	  "one-process cgroup); direct=1 unless given; size=0 or 0%: to\n"
	  "the end of the disk; a region past the end is refused",
	  .call = parse_job },
	{ "fio", KFSIM_OPT_INPUT, O(fio_path), "FILE",
	  "the jobs of a fio job file, read as fio reads it (fio's\n"
	  "defaults: direct=0, psync); every option kfsim does not\n"
	  "model is refused, all at once, each with its line" },
	{ "replay", KFSIM_OPT_INPUT, O(replay_path), "FILE",
	  "replay the Q events of a trace: blkparse's text or the tracefs\n"
	  "blk tracer's (default duration: the trace's span)" },
	{ "replay-closed", KFSIM_OPT_FLAG, O(replay_closed), NULL,
	  "replay closed-loop: each process issues its next I/O when its\n"
	  "previous ones complete, as the trace's completions show" },
	{ "replay-scale", KFSIM_OPT_FLAG, O(replay_scale), NULL,
	  "stretch each traced device's LBAs over its share of the disk\n"
	  "(several devices: equal shares, in maj,min order)" },
	{ .help = "Disk and scheduler:" },
	{ "disk", KFSIM_OPT_CALL, 0, "dual|single", "two actuators or one",
	  .call = parse_disk, .format = format_disk },
	{ "actuators", KFSIM_OPT_UINT, O(cfg.disk.nr_actuators), "N",
	  "any number of actuators, 1..16 (split evenly)", .min = 1,
	  .max = KFSIM_HDD_MAX_ACTUATORS },
	{ "disk-param", KFSIM_OPT_CALL, 0, "K=V",
	  "override a drive parameter: rpm spt_od zone_ratio seek_min_ms\n"
	  "seek_coeff_ms write_settle_ms cmd_overhead_ms link_mb_s\n"
	  "ncq_depth age_cap_ms satf_aging_ms_per_s readahead_kib\n"
	  "capacity (sectors) write_cache (0|1) write_cache_mib cache_mib",
	  .call = parse_disk_param },
	{ "sched", KFSIM_OPT_CALL, 0, "NAME",
	  "a registered scheduler (listed below)",
	  .call = parse_sched, .format = format_sched },
	{ "threshold", KFSIM_OPT_UINT, O(cfg.bfq.actuator_load_threshold), "N",
	  "BFQ actuator_load_threshold", .min = 1, .max = 1024 },
	{ "slice-idle-us", KFSIM_OPT_DURATION, O(cfg.bfq.slice_idle_ns), "TIME",
	  "BFQ slice_idle (0 = no idling; a bare number is microseconds)",
	  .min = 0, .max = NS_PER_S, .unit = NS_PER_US },
	{ "low-latency", KFSIM_OPT_BOOL, O(cfg.bfq.low_latency), "0|1",
	  "BFQ low_latency" },
	{ "no-balance", KFSIM_OPT_FLAG_OFF, O(cfg.bfq.next_actuator_balance), NULL,
	  "BFQ injection without patch 8's next-actuator test" },
	{ "tunable", KFSIM_OPT_CALL, 0, "NAME=VALUE",
	  "a BFQ sysfs attribute (queue/iosched/NAME), kernel units,\n"
	  "out-of-range values clamped as the kernel does: fifo_expire_sync\n"
	  "fifo_expire_async slice_idle timeout_sync (ms) slice_idle_us (us)\n"
	  "back_seek_max (KiB) back_seek_penalty max_budget (sectors,\n"
	  "0 = auto) strict_guarantees low_latency (0|1); repeatable",
	  .call = parse_tunable },
	{ "nr-requests", KFSIM_OPT_UINT, O(cfg.nr_requests), "N",
	  "scheduler tags", .min = 1, .max = 65536 },
	{ .help = "Run and output:" },
	{ "duration", KFSIM_OPT_DURATION, O(cfg.duration_ns), "TIME",
	  "simulated time (a bare number is seconds)", .min = NS_PER_MS,
	  .max = 3600 * NS_PER_S, .unit = NS_PER_S },
	{ "seed", KFSIM_OPT_U64, O(cfg.seed), "N", "random seed", .max = U64_MAX },
	{ "json", KFSIM_OPT_FLAG, O(json), NULL, "one JSON document on stdout" },
	{ "trace", KFSIM_OPT_OUTPUT, O(trace_path), "FILE",
	  "Perfetto/Chrome trace of dispatches per actuator", .verbs = SIM_ONLY },
	{ "trace-window", KFSIM_OPT_DURATION, O(cfg.trace_window_ns), "TIME",
	  "time of the run to trace (bare number: seconds)", .min = NS_PER_MS,
	  .max = 3600 * NS_PER_S, .unit = NS_PER_S, .verbs = SIM_ONLY },
	{ "trace-max", KFSIM_OPT_SIZE, O(trace_max), "SIZE",
	  "largest trace file; later events are dropped and the\n"
	  "window actually traced is reported",
	  .min = 4096, .max = 1ULL << 40, .verbs = SIM_ONLY },
	{ "bin-ms", KFSIM_OPT_DURATION, O(cfg.bin_ns), "TIME",
	  "time-series bin width for --svg (bare number: milliseconds)",
	  .min = 100 * NS_PER_US, .max = 60 * NS_PER_S, .unit = NS_PER_MS },
	{ "svg", KFSIM_OPT_OUTPUT, O(plot_path), "FILE",
	  "SVG plot: throughput per actuator over time (sim), total\n"
	  "throughput per scheduler or per value (compare, ablate)" },
	{ "plot", KFSIM_OPT_OUTPUT, O(plot_path), "FILE", NULL, .alias_of = "svg" },
	{ "scheds", KFSIM_OPT_STRING, O(scheds), "LIST",
	  "schedulers, comma-separated (default: every registered one)", .verbs = 1u << VERB_COMPARE },
	{ "param", KFSIM_OPT_STRING, O(param), "NAME",
	  "threshold, slice_idle_us, low_latency or max_budget", .verbs = 1u << VERB_ABLATE },
	{ "values", KFSIM_OPT_STRING, O(values), "LIST", "comma-separated values",
	  .verbs = 1u << VERB_ABLATE },
	{ "force", KFSIM_OPT_FLAG, O(force), NULL,
	  "run even when the estimated cost is beyond the budget (below)" },
	{ "quiet", KFSIM_OPT_FLAG, O(quiet), NULL, "no progress line on stderr" },
	{ "dump-jobs", KFSIM_OPT_FLAG, O(dump_jobs), NULL,
	  "print the jobs (and a replay's records) as kfsim reads them\n"
	  "(JSON) and run nothing" },
	KFSIM_GRID_OPT_ROWS(O(grid), (1u << VERB_COMPARE) | (1u << VERB_ABLATE)),
};

/* What a --replay left behind, whatever the outcome. */
static void bfq_release(void *opts)
{
	kvfree(((struct bfq_opts *)opts)->replay);
}

/* The schedulers as the registry holds them: a new row there shows up here by itself. */
static void bfq_more_help(FILE *out)
{
	const struct elevator_type *e;

	fprintf(out, "Schedulers (--sched, --scheds):\n");
	for (unsigned int i = 0; (e = elv_type(i)); i++)
		fprintf(out, "  %-22s %s\n", e->elevator_name, e->description ? e->description : "");
}

static const struct kfsim_cli_spec bfq_spec = {
	.name = CMD,
	.usage = "kfsim bfq sim     [options] --job SPEC [--job SPEC ...] | --fio FILE\n"
		 "       kfsim bfq compare [options] --job SPEC ... [--scheds LIST]\n"
		 "       kfsim bfq ablate  [options] --job SPEC ... --param NAME --values LIST",
	.about = "Simulate processes doing I/O through an I/O scheduler onto a simulated "
		 "multi-actuator\nhard disk (Seagate Exos 2X18-like), and report per-actuator "
		 "and per-process results.",
	.verbs = bfq_verbs,
	.nr_verbs = ARRAY_SIZE(bfq_verbs),
	.opts = bfq_opts_table,
	.nr_opts = ARRAY_SIZE(bfq_opts_table),
	.defaults = bfq_defaults,
	.opts_size = sizeof(struct bfq_opts),
	.more_help = bfq_more_help,
	.release = bfq_release,
	.notes = "Times take units: 500ms, 2s, 10us, 250ns; a bare number keeps the option's old\n"
		 "unit (--duration and --trace-window seconds, --bin-ms milliseconds,\n"
		 "--slice-idle-us microseconds).  Out-of-range settings exit 2 naming the option.\n"
		 "Budget: runs estimated beyond 5e6 simulated requests (10000 per second per\n"
		 "actuator, times the simulated time and the runs) ask for --force.\n"
		 "Progress: a progress line is drawn on stderr when it is a terminal\n"
		 "(--quiet: none).  Output files (--trace, --svg) are replaced only\n"
		 "when complete; a failed run leaves them as they were.\n"
		 "Exit status: 0 ok, 1 runtime failure, 2 bad command line.\n",
};

/*
 * Everything the library would refuse, refused now with the option named and exit 2, before
 * any output file is opened or any run starts.
 */
static int check_config(struct bfq_opts *o, unsigned int nr_runs, bool bin_given)
{
	struct kfsim_bfq_sim_config *cfg = &o->cfg;
	double estimate;
	const char *why;
	char reason[160];

	if (!cfg->nr_jobs && !o->replay_path)
		return kfsim_cli_usage(CMD, "option '--job', '--fio' or '--replay' is required");
	if (!o->replay_path && (o->replay_closed || o->replay_scale))
		return kfsim_cli_usage(CMD, "option '--%s' needs '--replay'",
				       o->replay_closed ? "replay-closed" : "replay-scale");
	if (kfsim_hdd_params_explain(&cfg->disk, &why))
		return kfsim_cli_usage(CMD, "invalid value for --disk-param (or --actuators): "
				       "%s is out of range", why);
	for (unsigned int j = 0; j < cfg->nr_jobs; j++) {
		sector_t start, nr;

		if (cfg->jobs[j].engine == KFSIM_ENGINE_NONE)
			continue;	/* no disk I/O: no region */
		if (kfsim_bfq_job_region(&cfg->jobs[j], cfg->disk.capacity, &start, &nr, reason,
					 sizeof(reason)))
			return kfsim_cli_usage(CMD, "invalid value for --job (job %s): %s",
					       cfg->jobs[j].name, reason);
	}
	/* at most 100000 bins: the default width grows to fit, a width the user gave is refused */
	if (cfg->duration_ns / cfg->bin_ns > 100000) {
		if (bin_given)
			return kfsim_cli_usage(CMD, "invalid value for --bin-ms: %llu bins over the "
					       "run, at most 100000 (make the bins wider)",
					       (unsigned long long)(cfg->duration_ns / cfg->bin_ns));
		cfg->bin_ns = cfg->duration_ns / 100000;
	}
	/* no drive serves more than a request every 0.1 ms per actuator */
	estimate = (double)cfg->duration_ns / 1e9 * 1e4 * cfg->disk.nr_actuators * nr_runs;
	return kfsim_cli_budget(CMD, estimate, BFQ_BUDGET_REQUESTS, "simulated requests",
				o->force);
}

/* --- output ---------------------------------------------------------------------------- */

/* fio's JSON "steadystate" section (stat.c, fio 3.33) */
static void json_steadystate(struct kfsim_json *json, const struct kfsim_bfq_job_result *jr)
{
	char ss[48], criterion[64];

	kfsim_bfq_ss_name(jr->ss_state, jr->ss_limit, ss, sizeof(ss));
	snprintf(criterion, sizeof(criterion), "%f%s", (float)jr->ss_criterion,
		 jr->ss_state & KFSIM_SS_PCT ? "%" : "");
	kfsim_json_key(json, "steadystate");
	kfsim_json_object_begin(json);
	kfsim_json_kv_string(json, "ss", ss);
	kfsim_json_kv_uint(json, "duration", jr->ss_dur_s);
	kfsim_json_kv_uint(json, "attained", jr->ss_attained);
	kfsim_json_kv_string(json, "criterion", criterion);
	kfsim_json_kv_double(json, "max_deviation", jr->ss_deviation);
	kfsim_json_kv_double(json, "slope", jr->ss_slope);
	kfsim_json_key(json, "data");
	kfsim_json_object_begin(json);
	kfsim_json_kv_uint(json, "bw_mean", jr->ss_bw_mean);
	kfsim_json_kv_uint(json, "iops_mean", jr->ss_iops_mean);
	for (unsigned int bw = 0; bw < 2; bw++) {
		const u64 *data = bw ? jr->ss_bw_data : jr->ss_iops_data;

		if (!data)
			continue;	/* none taken */
		kfsim_json_key(json, bw ? "bw" : "iops");
		kfsim_json_array_begin(json);
		for (u64 i = 0; i < jr->ss_dur_s; i++)
			kfsim_json_uint(json, data[i]);
		kfsim_json_array_end(json);
	}
	kfsim_json_object_end(json);
	kfsim_json_object_end(json);
}

/* fio's text line (stat.c show_ss_normal()), the bandwidth in MiB/s */
static void print_steadystate(const struct kfsim_bfq_job_result *jr)
{
	printf("  %s: steadystate: attained=%s, bw=%.1fMiB/s, iops=%llu, %s%s=%.3f%s\n",
	       jr->name, jr->ss_attained ? "yes" : "no", (double)jr->ss_bw_mean / (1 << 20),
	       (unsigned long long)jr->ss_iops_mean, jr->ss_state & KFSIM_SS_IOPS ? "iops" : "bw",
	       jr->ss_state & KFSIM_SS_SLOPE ? " slope" : " mean dev", jr->ss_criterion,
	       jr->ss_state & KFSIM_SS_PCT ? "%" : "");
}

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
	/* completed + drained == submitted: every request completed exactly once */
	kfsim_json_kv_uint(json, "drained", res->drained);
	kfsim_json_kv_uint(json, "writeback_bytes", res->writeback_bytes);
	kfsim_json_kv_uint(json, "dirty_bytes", res->dirty_bytes);
	kfsim_json_kv_uint(json, "in_flight_at_end", res->in_flight);
	if (cfg->nr_replay) {
		kfsim_json_kv_uint(json, "replay_records", cfg->nr_replay);
		kfsim_json_kv_bool(json, "replay_closed", cfg->replay_closed);
		kfsim_json_kv_uint(json, "replay_issued", res->replay_issued);
		kfsim_json_kv_double(json, "replay_makespan_s", res->replay_makespan_s);
		kfsim_json_kv_double(json, "replay_lag_mean_us", res->replay_lag_mean_us);
		kfsim_json_kv_double(json, "replay_lag_max_us", res->replay_lag_max_us);
	}
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
		kfsim_json_kv_double(json, "active_s", jr->active_s);
		kfsim_json_kv_uint(json, "read_bytes", jr->read_bytes);
		kfsim_json_kv_uint(json, "write_bytes", jr->write_bytes);
		kfsim_json_kv_uint(json, "read_ios", jr->read_ios);
		kfsim_json_kv_uint(json, "write_ios", jr->write_ios);
		if (jr->error)
			kfsim_json_kv_string(json, "error", kfsim_errname(jr->error));
		if (jr->lat_target_depth)
			kfsim_json_kv_uint(json, "lat_target_depth", jr->lat_target_depth);
		if (jr->ss_dur_s)
			json_steadystate(json, jr);
		if (jr->syncs) {
			/* fio's "sync" object (stat.c): total_ios, lat_ns's N, our figures */
			kfsim_json_key(json, "sync");
			kfsim_json_object_begin(json);
			kfsim_json_kv_uint(json, "total_ios", jr->fsyncs);
			kfsim_json_kv_uint(json, "lat_n", jr->syncs);
			kfsim_json_kv_double(json, "lat_mean_us", jr->sync_lat_mean_us);
			kfsim_json_kv_double(json, "lat_p99_us", jr->sync_lat_p99_us);
			kfsim_json_kv_double(json, "lat_max_us", jr->sync_lat_max_us);
			kfsim_json_object_end(json);
		}
		kfsim_json_object_end(json);
	}
	kfsim_json_array_end(json);
	if (cfg->sched == KFSIM_SCHED_BFQ || cfg->sched == KFSIM_SCHED_BFQ_62) {
		kfsim_json_kv_uint(json, "hole_injected", res->hole_injected);
		kfsim_json_kv_uint(json, "shallow_allocs", res->shallow_allocs);
		kfsim_json_kv_uint(json, "shallow_waits", res->shallow_waits);
		kfsim_json_key(json, "expirations");
		kfsim_json_object_begin(json);
		for (int r = 0; r < BFQQE_NR_REASONS; r++)
			kfsim_json_kv_uint(json, reasons[r], res->expirations[r]);
		kfsim_json_object_end(json);
	}
	kfsim_json_object_end(json);
}

/* fio's "fsync/fdatasync/sync_file_range:" section, its "sync" latency */
static void print_syncs(const struct kfsim_bfq_job_result *jr)
{
	printf("  %s: fsync/fdatasync: %llu syncs, latency mean %.0fus, p99 %.0fus, max %.0fus\n",
	       jr->name, (unsigned long long)jr->syncs, jr->sync_lat_mean_us, jr->sync_lat_p99_us,
	       jr->sync_lat_max_us);
}

static void text_result(const struct kfsim_bfq_sim_config *cfg,
			const struct kfsim_bfq_sim_result *res)
{
	unsigned int kver = cfg->sched == KFSIM_SCHED_BFQ_62 ? KERNEL_VERSION(6, 2, 0) :
			    cfg->bfq.kernel_version ? cfg->bfq.kernel_version :
			    kfsim_kernel_version();

	/* the release whose behaviour is followed: 6.3+ BFQ is the 6.12 sources' */
	printf("%s on a %u-actuator disk, %.3g s simulated (seed %llu); following Linux %u.%u\n",
	       kfsim_bfq_sched_name(cfg->sched), res->nr_actuators, res->duration_s,
	       (unsigned long long)cfg->seed, kver >> 16, (kver >> 8) & 0xff);
	printf("  total %.1f MB/s, %.0f IOPS, Jain's index %.3f", res->mb_s, res->iops, res->jain);
	if (cfg->sched == KFSIM_SCHED_BFQ || cfg->sched == KFSIM_SCHED_BFQ_62)
		printf(", %llu injected into service holes",
		       (unsigned long long)res->hole_injected);
	printf("\n");
	if (cfg->nr_replay && cfg->replay_closed) {
		u64 span = 0;

		for (size_t i = 0; i < cfg->nr_replay; i++)
			span = max(span, cfg->replay[i].time_ns);
		printf("  replay, closed loop: %llu of %zu trace I/Os issued; the last issued "
		       "completed at %.3f s (the trace's last was queued at %.3f s); issue lag "
		       "behind the trace %.0f us mean, %.0f us max\n",
		       (unsigned long long)res->replay_issued, cfg->nr_replay,
		       res->replay_makespan_s, (double)span / 1e9, res->replay_lag_mean_us,
		       res->replay_lag_max_us);
	} else if (cfg->nr_replay) {
		size_t due = 0;

		/* the trace's I/Os queued before the end: those not issued waited for a request */
		for (size_t i = 0; i < cfg->nr_replay; i++)
			due += cfg->replay[i].time_ns < cfg->duration_ns;
		printf("  replay: %llu of %zu trace I/Os issued (%llu of those due by the end still "
		       "waiting for a request); the last issued completed at %.3f s; issue lag "
		       "behind the trace %.0f us mean, %.0f us max\n",
		       (unsigned long long)res->replay_issued, cfg->nr_replay,
		       (unsigned long long)(due > res->replay_issued ? due - res->replay_issued : 0),
		       res->replay_makespan_s, res->replay_lag_mean_us, res->replay_lag_max_us);
	}
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
	for (unsigned int j = 0; j < res->nr_jobs; j++) {
		if (res->jobs[j].error == -ETIMEDOUT)
			printf("  %s: ended by -ETIMEDOUT: an I/O missed its latency target at "
			       "depth 1\n", res->jobs[j].name);
		else if (res->jobs[j].error)
			printf("  %s: ended by -%s before any I/O reached the disk\n",
			       res->jobs[j].name, kfsim_errname(res->jobs[j].error));
		if (res->jobs[j].lat_target_depth)
			printf("  %s: latency target search at depth %u\n", res->jobs[j].name,
			       res->jobs[j].lat_target_depth);
		if (res->jobs[j].ss_dur_s)
			print_steadystate(&res->jobs[j]);
		if (res->jobs[j].syncs)
			print_syncs(&res->jobs[j]);
	}
}

/* The throughput per actuator as SVG into @out (an output file not yet committed). */
static int plot_series(const struct kfsim_bfq_sim_config *cfg,
		       const struct kfsim_bfq_sim_result *res, FILE *out)
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
		/* every other one dashed: equal series stay visible on top of each other */
		series[a] = (struct kfsim_plot_series){ names[a], x, res->series_mb_s[a],
							res->nr_bins, .dashed = a % 2 };
	}
	snprintf(title, sizeof(title), "%s: throughput per actuator",
		 kfsim_bfq_sched_name(cfg->sched));
	err = kfsim_plot_svg_write(&(struct kfsim_plot){ .title = title, .x_label = "time (s)",
							.y_label = "MB/s", .y_from_zero = true,
							.series = series, .nr_series = n },
				   out);
	if (!err && fflush(out))
		err = -EIO;
	kfree(x);
	return err;
}

/* The simulator's progress hook: the fraction is simulated time over the run's. */
struct sim_progress {
	struct kfsim_cli_progress line;
	double run_s;	/* simulated seconds of one run */
	double before_s; /* of the runs already done */
	double total_s;	/* of all runs */
};

static void on_sim_progress(void *arg, u64 now_ns)
{
	struct sim_progress *p = arg;
	double sim_s = p->before_s + min((double)now_ns / 1e9, p->run_s);

	kfsim_cli_progress_update(&p->line, sim_s / p->total_s, sim_s);
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

/* "  trace: t.json (...)": the file, and the window the cap let through */
static void print_trace_summary(const struct kfsim_trace *trace, const char *path)
{
	printf("  trace: %s (open in ui.perfetto.dev)\n", path);
	if (trace->nr_dropped)
		printf("  trace capped at %llu bytes (--trace-max): %.3f ms to %.3f ms traced, "
		       "%lu later events dropped\n", (unsigned long long)trace->max_bytes,
		       trace->first_ts_us / 1e3, trace->last_ts_us / 1e3, trace->nr_dropped);
}

/*
 * The run's output files: both are opened before the run (a path that cannot be written is
 * refused before anything is), and both are committed together once the run and the plot
 * are complete (kfsim_cli_commit_outputs()), so that a failure of either leaves both old files
 * as they were.
 */
static int cmd_sim(struct bfq_opts *o)
{
	struct sim_progress progress = { 0 };
	struct kfsim_outfile plot;
	struct kfsim_trace trace;
	struct kfsim_bfq_sim *sim = NULL;
	struct kfsim_json json;
	char why[200] = "";
	int err;

	if (o->trace_path) {
		err = kfsim_trace_open(&trace, o->trace_path);
		if (err)
			return kfsim_cli_fail(CMD, err, "cannot create '%s'", o->trace_path);
		kfsim_trace_set_max(&trace, o->trace_max);
		o->cfg.trace = &trace;
	}
	if (o->plot_path) {
		err = kfsim_outfile_open(&plot, o->plot_path);
		if (err) {
			if (o->trace_path)
				kfsim_trace_abort(&trace);
			return kfsim_cli_fail(CMD, err, "cannot write '%s'", o->plot_path);
		}
	}
	kfsim_cli_progress_begin(&progress.line, "kfsim bfq sim", o->quiet);
	progress.run_s = progress.total_s = (double)o->cfg.duration_ns / 1e9;
	if (progress.line.on) {
		o->cfg.progress = on_sim_progress;
		o->cfg.progress_arg = &progress;
	}
	err = run_one(&o->cfg, &sim, why, sizeof(why));
	kfsim_cli_progress_end(&progress.line);
	if (!err && o->plot_path) {
		int plot_err = plot_series(&o->cfg, kfsim_bfq_sim_result(sim), plot.file);

		if (plot_err && plot.err)
			plot_err = plot.err; /* the write's own errno (-ENOSPC), not stdio's -EIO */
		if (plot_err) {
			if (o->trace_path)
				kfsim_trace_abort(&trace);
			kfsim_outfile_abort(&plot);
			kfsim_bfq_sim_destroy(sim);
			return kfsim_cli_fail(CMD, plot_err, "cannot write '%s'", o->plot_path);
		}
	}
	if (err) {
		if (o->trace_path)
			kfsim_trace_abort(&trace); /* the old files stay */
		if (o->plot_path)
			kfsim_outfile_abort(&plot);
		return kfsim_cli_fail(CMD, err, "simulation failed: %s", why);
	}
	err = kfsim_cli_commit_outputs(CMD, &trace, o->trace_path, &plot, o->plot_path);
	if (err) {
		kfsim_bfq_sim_destroy(sim);
		return err;
	}
	if (o->json) {
		kfsim_json_init(&json, stdout, true);
		json_result(&json, &o->cfg, kfsim_bfq_sim_result(sim));
		kfsim_json_finish(&json);
	} else {
		text_result(&o->cfg, kfsim_bfq_sim_result(sim));
		if (o->trace_path)
			print_trace_summary(&trace, o->trace_path);
		if (o->plot_path)
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
	struct kfsim_bfq_sim_result merged;	/* read back by kfsim merge (no @sim) */
	char why[200];
};

/* The row's result: its run's, or the one kfsim merge read back. */
static const struct kfsim_bfq_sim_result *row_result(const struct run_row *row)
{
	return row->sim ? kfsim_bfq_sim_result(row->sim) : &row->merged;
}

/* @width: the first column's, wide enough for every row's label (ablate's "max_budget=16384") */
static void table_header(const struct kfsim_bfq_sim_result *res, const char *first, int width)
{
	printf("%-*s %9s", width, first, "MB/s");
	for (unsigned int a = 0; a < res->nr_actuators; a++)
		printf("  act%u MB/s  util  inject", a);
	printf("  %6s", "Jain");
	for (unsigned int j = 0; j < res->nr_jobs; j++)
		printf(" %9.9s", res->jobs[j].name);
	printf("\n");
}

static void table_row(const char *label, const struct kfsim_bfq_sim_result *res, int width)
{
	printf("%-*s %9.1f", width, label, res->mb_s);
	for (unsigned int a = 0; a < res->nr_actuators; a++)
		printf("  %9.1f %4.0f%% %7llu", res->actuator[a].mb_s,
		       res->actuator[a].utilisation * 100,
		       (unsigned long long)res->actuator[a].injected);
	printf("  %6.3f", res->jain);
	for (unsigned int j = 0; j < res->nr_jobs; j++)
		printf(" %9.1f", res->jobs[j].mb_s);
	printf("\n");
}

/* run_rows_grid(): a slice's partial file is written, and that is all the run does. */
#define ROWS_SLICE_WRITTEN 256

struct rows_run {
	struct run_row *rows;
	unsigned int nr;
	struct sim_progress *progress;
	struct kfsim_grid *grid;
};

/* Point @i of a compare or ablate grid: run row @i (and record it when sliced). */
static int run_row_point(void *ctx, u32 i)
{
	struct rows_run *run = ctx;
	struct run_row *row = &run->rows[i];
	char *rec;
	int err;

	if (run->progress->line.on) {
		run->progress->before_s = run->progress->run_s * i;
		kfsim_cli_progress_update(&run->progress->line, (double)i / run->nr,
					  run->progress->before_s);
		row->cfg.progress = on_sim_progress;
		row->cfg.progress_arg = run->progress;
	}
	err = run_one(&row->cfg, &row->sim, row->why, sizeof(row->why));
	if (err || run->grid->mode != KFSIM_GRID_SHARD)
		return err;
	rec = kfsim_bfq_result_record(kfsim_bfq_sim_result(row->sim));
	err = rec ? kfsim_grid_put(run->grid, i, rec) : -ENOMEM;
	free(rec);
	return err;
}

/*
 * The rows' runs: all of them, a slice (--shard, or the environment of a Slurm array, an
 * Indexed Job or GNU parallel: cli_grid.h), on --jobs threads, or read back by kfsim merge.
 * Return: 0 when the outputs below should follow, else the exit status.
 */
static int run_rows_grid(struct bfq_opts *o, struct run_row *rows, unsigned int nr,
			 const char *verb, const char **why)
{
	struct sim_progress progress = { 0 };
	struct rows_run run = { rows, nr, &progress, NULL };
	struct kfsim_grid grid;
	unsigned int damaged = 0;
	int err;

	*why = "";
	err = kfsim_grid_begin(&grid, CMD, verb, &o->grid, nr);
	run.grid = &grid;
	if (err)
		goto out;
	kfsim_cli_progress_begin(&progress.line, "kfsim bfq", o->quiet ||
				 kfsim_grid_threads(&grid) > 1 || grid.mode == KFSIM_GRID_MERGE);
	progress.run_s = (double)o->cfg.duration_ns / 1e9;
	progress.total_s = progress.run_s * nr;
	err = kfsim_grid_run(&grid, run_row_point, &run);
	kfsim_cli_progress_end(&progress.line);
	for (unsigned int i = 0; err && i < nr; i++)
		if (rows[i].why[0])
			*why = rows[i].why;
	if (err)
		goto out;
	/* every damaged record is told, with its file and line, before the merge is refused */
	for (unsigned int i = 0; grid.mode == KFSIM_GRID_MERGE && i < nr; i++) {
		char bad[256];

		err = kfsim_bfq_result_unrecord(kfsim_grid_record(&grid, i), &rows[i].merged, bad,
						sizeof(bad));
		if (err == -ENOMEM)
			goto out;
		if (err)
			damaged += kfsim_grid_damaged(&grid, i, bad);
	}
	err = 0;
	if (damaged)
		err = kfsim_cli_fail("merge", -EINVAL, "refused: %u damaged point record(s) in the "
				     "partial files; nothing written", damaged);
	if (!err && grid.mode == KFSIM_GRID_SHARD)
		err = kfsim_grid_finish(&grid, CMD) ?: ROWS_SLICE_WRITTEN;
out:
	kfsim_grid_end(&grid);
	return err;
}

static int run_rows(struct bfq_opts *o, struct run_row *rows, unsigned int nr, const char *what,
		    bool numeric_x)
{
	const char *why = "";
	struct kfsim_json json;
	int err;

	err = run_rows_grid(o, rows, nr, numeric_x ? "ablate" : "compare", &why);
	if (err == ROWS_SLICE_WRITTEN) {
		err = 0;
		goto out;
	}
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
			json_result(&json, &rows[i].cfg, row_result(&rows[i]));
			kfsim_json_object_end(&json);
		}
		kfsim_json_array_end(&json);
		kfsim_json_object_end(&json);
		kfsim_json_finish(&json);
	} else {
		int width = max_t(int, 14, (int)strlen(what));

		for (unsigned int i = 0; i < nr; i++)
			width = max_t(int, width, (int)strlen(rows[i].label));
		table_header(row_result(&rows[0]), what, width);
		for (unsigned int i = 0; i < nr; i++)
			table_row(rows[i].label, row_result(&rows[i]), width);
	}
	if (o->plot_path) {
		double x[MAX_RUNS], total[MAX_RUNS], act[KFSIM_HDD_MAX_ACTUATORS][MAX_RUNS];
		struct kfsim_plot_series series[1 + 2];
		unsigned int na = min(row_result(&rows[0])->nr_actuators, 2U);
		char title[96], x_label[256];

		for (unsigned int i = 0; i < nr; i++) {
			const struct kfsim_bfq_sim_result *res = row_result(&rows[i]);

			x[i] = numeric_x ? rows[i].x : i;
			total[i] = res->mb_s;
			for (unsigned int a = 0; a < na; a++)
				act[a][i] = res->actuator[a].mb_s;
		}
		series[0] = (struct kfsim_plot_series){ "total", x, total, nr };
		series[1] = (struct kfsim_plot_series){ "actuator 0", x, act[0], nr };
		/* dashed: where both actuators deliver the same, actuator 0 shows through */
		series[2] = (struct kfsim_plot_series){ "actuator 1", x, act[1], nr,
							.dashed = true };
		snprintf(title, sizeof(title), "throughput against %s", what);
		/* the x axis of compare is the run's index: say which scheduler each one is */
		if (!numeric_x) {
			int len = snprintf(x_label, sizeof(x_label), "%s:", what);

			for (unsigned int i = 0; i < nr && len < (int)sizeof(x_label); i++)
				len += snprintf(x_label + len, sizeof(x_label) - (size_t)len,
						" %u = %s%s", i, rows[i].label, i + 1 < nr ? "," : "");
		}
		err = kfsim_plot_svg_save(&(struct kfsim_plot){ .title = title,
							       .x_label = numeric_x ? what :
									  x_label,
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
	for (unsigned int i = 0; i < nr; i++) {
		kfsim_bfq_sim_destroy(rows[i].sim);
		kfsim_bfq_result_release(&rows[i].merged);
	}
	if (err < 0)
		return kfsim_cli_fail(CMD, err, "simulation failed: %s", why);
	return err > 0 ? err : KFSIM_EXIT_OK;	/* a usage error (2) stays one */
}

static int cmd_compare(struct bfq_opts *o, struct run_row *rows)
{
	char every[256], *list;
	char *save = NULL;
	unsigned int nr = 0;
	int ret = 0;

	/* the whole of --scheds, however long: a copy cut short would run other schedulers */
	if (!o->scheds) /* every registered scheduler, in the registry's order */
		elv_names(every, sizeof(every), ",");
	list = strdup(o->scheds ? o->scheds : every);
	if (!list)
		return kfsim_cli_fail(CMD, -ENOMEM, "no memory for --scheds");
	for (char *name = strtok_r(list, ",", &save); name && !ret;
	     name = strtok_r(NULL, ",", &save)) {
		if (nr == MAX_RUNS) {
			ret = kfsim_cli_usage(CMD, "too many schedulers in --scheds (at most %d)",
					      MAX_RUNS);
			break;
		}
		rows[nr].cfg = o->cfg;
		if (kfsim_bfq_sched_parse(name, &rows[nr].cfg.sched)) {
			char names[160];

			elv_names(names, sizeof(names), ", ");
			ret = kfsim_cli_usage(CMD, "invalid value '%s' for --scheds: expected a "
					      "comma-separated list of %s", o->scheds, names);
			break;
		}
		snprintf(rows[nr].label, sizeof(rows[nr].label), "%s", name);
		nr++;
	}
	free(list);
	if (ret)
		return ret;
	if (!nr)
		return kfsim_cli_usage(CMD, "invalid value '' for --scheds: expected a list");
	return run_rows(o, rows, nr, "scheduler", false);
}

static int cmd_ablate(struct bfq_opts *o, struct run_row *rows)
{
	char *save = NULL, *list;
	unsigned int nr = 0;
	int ret;

	if (!o->param || !o->values)
		return kfsim_cli_usage(CMD, "ablate needs --param and --values");
	if (strcmp(o->param, "threshold") && strcmp(o->param, "slice_idle_us") &&
	    strcmp(o->param, "low_latency") && strcmp(o->param, "max_budget"))
		return kfsim_cli_usage(CMD, "invalid value '%s' for --param: expected threshold, "
				       "slice_idle_us, low_latency or max_budget", o->param);
	if (!o->sched_given)
		o->cfg.sched = KFSIM_SCHED_BFQ;
	/* the whole of --values, however long: a copy cut short would run other values */
	list = strdup(o->values);
	if (!list)
		return kfsim_cli_fail(CMD, -ENOMEM, "no memory for --values");
	ret = 0;
	for (char *val = strtok_r(list, ",", &save); val && !ret;
	     val = strtok_r(NULL, ",", &save)) {
		struct kfsim_bfq_sim_config *cfg = &rows[nr].cfg;
		char *end;
		unsigned long long v;

		if (nr == MAX_RUNS) {
			ret = kfsim_cli_usage(CMD, "too many --values (at most %d)", MAX_RUNS);
			break;
		}
		errno = 0;
		v = strtoull(val, &end, 10);
		if (errno || *end || end == val || *val == '-' || v > 1000000 ||
		    (!strcmp(o->param, "threshold") && !v) ||
		    (!strcmp(o->param, "low_latency") && v > 1)) {
			ret = kfsim_cli_usage(CMD, "invalid value '%s' in --values: expected "
					      "integers valid for %s", val, o->param);
			break;
		}
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
	free(list);
	if (ret)
		return ret;
	if (!nr)
		return kfsim_cli_usage(CMD, "invalid value '' for --values: expected a list");
	return run_rows(o, rows, nr, o->param, true);
}

/* @verb's runs on MAX_RUNS zeroed rows, which are the run's own (no state left behind). */
static int with_rows(struct bfq_opts *o, int (*verb)(struct bfq_opts *o, struct run_row *rows))
{
	struct run_row *rows = calloc(MAX_RUNS, sizeof(*rows));
	int ret;

	if (!rows)
		return kfsim_cli_fail(CMD, -ENOMEM, "no memory for the runs");
	ret = verb(o, rows);
	free(rows);
	return ret;
}

/* Items in a comma-separated list: the number of runs compare and ablate will make. */
static unsigned int list_length(const char *list)
{
	unsigned int n = 1;

	for (; *list; list++)
		n += *list == ',';
	return n;
}

/* bfq_prepare() printed the jobs (--dump-jobs): the verb runs nothing and exits 0 */
#define BFQ_DUMPED (-1)

/* What every verb does first: read --replay and --fio, then check the whole configuration. */
static int bfq_prepare(struct bfq_opts *o, const struct kfsim_cli_args *args, unsigned int nr_runs)
{
	int ret;

	if (o->replay_path) {
		ret = load_replay(o, kfsim_cli_given(&bfq_spec, args, "duration"));
		if (ret == -E2BIG)
			return KFSIM_EXIT_USAGE;
		if (ret)
			return KFSIM_EXIT_FAILURE;
	}
	if (o->fio_path) {
		ret = load_fio(o, kfsim_cli_given(&bfq_spec, args, "duration"));
		if (ret)
			return ret;
	}
	if (o->dump_jobs) {
		/* the reading alone, for a referee to compare: no budget, no run */
		if (kfsim_bfq_jobs_dump(stdout, &o->cfg))
			return kfsim_cli_fail(CMD, -EIO, "cannot write the jobs");
		return BFQ_DUMPED;
	}
	return check_config(o, nr_runs, kfsim_cli_given(&bfq_spec, args, "bin-ms"));
}

static int run_sim(void *opts, const struct kfsim_cli_args *args)
{
	int ret = bfq_prepare(opts, args, 1);

	if (ret == BFQ_DUMPED)
		return KFSIM_EXIT_OK;
	return ret ? ret : cmd_sim(opts);
}

static int run_compare(void *opts, const struct kfsim_cli_args *args)
{
	struct bfq_opts *o = opts;
	int ret = bfq_prepare(o, args, o->scheds ? list_length(o->scheds) : elv_nr_types());

	if (ret == BFQ_DUMPED)
		return KFSIM_EXIT_OK;
	return ret ? ret : with_rows(o, cmd_compare);
}

static int run_ablate(void *opts, const struct kfsim_cli_args *args)
{
	struct bfq_opts *o = opts;
	int ret = bfq_prepare(o, args, o->values ? list_length(o->values) : 1);

	if (ret == BFQ_DUMPED)
		return KFSIM_EXIT_OK;
	return ret ? ret : with_rows(o, cmd_ablate);
}

const struct kfsim_cli_command kfsim_cmd_bfq = {
	.name = "bfq",
	.summary = "BFQ with multi-actuator support on a simulated dual-actuator disk",
	.spec = &bfq_spec,
	.oldest_kver = KERNEL_VERSION(6, 2, 0),
	.kver_why = "bfq-6.2 is the oldest scheduler modelled; 6.3 added multi-actuator support",
	.grid_verbs = (const char *const[]){ "compare", "ablate", NULL },
};
