// SPDX-License-Identifier: MIT
/*
 * fio job files, read as fio 3.33 reads them (fio(1) "JOB FILE FORMAT", fio's init.c and
 * parse.c): a [global] section whose options are the defaults of the jobs after it (a later
 * [global] changes them for the jobs after it), one section per job, "option=value" or a
 * bare "option", ';' and '#' end a line wherever they are, "include FILE" reads another file
 * (relative to the including one), ${VAR} in an option is the environment variable VAR
 * (nothing when unset, as under fio) and $pagesize, $mb_memory, $ncpus this machine's.
 *
 * Invariants:
 * - every option of the file is judged; all the problems of a file are reported at once,
 *   one line each: "FILE:LINE: option: reason", and nothing is stored unless there are none;
 * - an option is either modelled (its effect is simulated), known to have no effect on what
 *   the simulated disk sees (output, CPU placement, data content, an engine's server...), or
 *   refused with the reason: never silently ignored;
 * - options whose effect depends on the engine (several files per job) are
 *   refused only when the job's I/O reaches the simulated disk; so are the failures fio meets
 *   on this disk decided only then (a trim's -EOPNOTSUPP/-ENOTTY, libzbc's -ENXIO, the empty
 *   zones zonemode=zbd emulates): the job ends as fio's does, before any I/O;
 * - each file is its own region of the disk (fio's default file is one per job and clone:
 *   "jobname.jobnum.filenum"); files are laid out one after the other in order of first use,
 *   each as large as the largest offset + size of its jobs; a /dev/ name is the simulated
 *   disk itself (/dev/null and /dev/zero reach no disk), and two different devices are
 *   refused, as kfsim simulates one.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/slab.h>
#include "core/infile.h"
#include "core/line_reader.h"
#include "core/problem_list.h"
#include "sim_jobs.h"

/*
 * The longest runtime or ramp_time kfsim takes: a quarter of what 64 bits of nanoseconds hold,
 * so a job's start, ramp and runtime add up without wrapping (fio takes any 64-bit value).
 */
#define FIO_TIME_MAX_NS (U64_MAX / 4)

#define FIO_MAX_PENDING 16
/* fio's enum error_type_bit (td_error.h), as bits: a trim's error is a write error */
#define FIO_ERR_READ 1u
#define FIO_ERR_WRITE 2u
#define FIO_ERR_VERIFY 4u
#define FIO_MAX_INCLUDE_DEPTH 8
/*
 * Included files in all, side by side or nested (fio has no bound): each is read whole, up to
 * FIO_MAX_FILE_BYTES, so this bounds the reading of one job file.
 */
#define FIO_MAX_INCLUDES 64
/*
 * The most a job file (each included one too) may hold.  A job file is a few KiB; the bound is
 * there for what is no job file at all: /dev/zero or /dev/urandom given as --fio never ends,
 * and reading it line by line would never return.
 */
#define FIO_MAX_FILE_BYTES (16u << 20)
/*
 * fio 3.33 reads a job file with fgets() into OPT_LEN_MAX (8192) bytes, so 8191 bytes is its
 * longest whole line; a longer one fio splits into two, which kfsim refuses with the reason.
 */
#define FIO_MAX_LINE 8191u

/* An option whose refusal waits until the job's engine is known. */
struct fio_pending {
	long line;
	const char *file;
	char option[32];
	const char *why;
};

struct fio_section {
	struct kfsim_bfq_job job;
	unsigned int prioclass;
	unsigned int numjobs;
	unsigned int cgroup_weight;
	bool is_global;
	bool time_based;
	bool stonewall;
	bool fill_device;
	bool do_verify;
	/* fio's randrepeat, allrandrepeat, randseed (and whether it was given): the rwmix seed */
	bool randrepeat, allrandrepeat, randseed_set, norandommap, rand64;
	u64 randseed;
	long cmdprio_line;	/* the first cmdprio option, 0 = none */
	/* engines' options of this section, judged at its end against its engine */
	struct fio_engine_opt {
		char text[64];	/* KEY=VALUE as written, for fio's "Bad option <...>" */
		long line;
		const char *file;
		bool told;	/* not modelled: said once, at the section's end */
		bool named;	/* its line was refused as it was read: not named again */
	} engine_opts[16];
	unsigned int nr_engine_opts;
	char engine_name[48];	/* ioengine= as written, modelled or not */
	int zonemode;		/* -1 not given, 0 none, 1 strided, 2 zbd */
	long zone_line;
	const char *zone_file;	/* where zone_line is */
	bool zone_here;		/* zonemode= given in this section, not inherited */
	long zone_opt_line[3];	/* zonesize, zonerange, zoneskip */
	bool zone_size_refused;	/* a zonesize= line was refused: its job's zones unknown */
	/* fio's error types (td_error_type()): which errors a job goes on after */
	unsigned int continue_on_error;	/* FIO_ERR_* bits */
	bool write_errs_listed;		/* ignore_error gave a list for writes (and trims) */
	bool ignores_trim_err[2];	/* it holds ENOTTY, EOPNOTSUPP */
	bool ignores_timedout;		/* a read or write list holds ETIMEDOUT */
	long latency_line;		/* latency_target= */
	/*
	 * rate=, rate_iops=, rate_min=, rate_iops_min= and rate_process=poisson: every line that
	 * set one to something since the last that cleared it ([global]'s too), so that a
	 * refusal names them all (without them the job reads), and the minimums per direction
	 * (0 read, 1 write; no effect here but fio's checks, fio_rate_check())
	 */
	struct fio_where { long line; const char *file; } rate_at[5][4];	/* FIO_WHERE_MAX */
	unsigned int nr_rate_at[5];
	u64 rate_min[2][2];		/* [rate_min, rate_iops_min][direction] */
	long ss_line;			/* steadystate_duration= */
	bool group_reporting;
	bool new_group;
	bool end_fsync, fsync_on_close;	/* either: the job's end_fsync */
	long max_open_zones_line;
	unsigned int max_open_zones;
	struct fio_where create_serialize_off;	/* create_serialize=0's line, 0 = on */
	/*
	 * no effect here but fixup_options()'s checks (fio_fixup_check()): dedupe_mode=
	 * working_set's line (0: repeat), dedupe_percentage and dedupe_working_set_percentage
	 * (fio's default 5, kept + 1 so that 0 is the default), block_error_percentiles's line
	 * when on, nrfiles
	 */
	struct fio_where dedupe_ws, block_error;
	u64 dedupe_pct, dedupe_ws_pct1, nrfiles;
	/* iodepth_low and iodepth_batch_complete_min: how a full queue refills (fio_refill()) */
	struct fio_where depth_low_at, reap_min_at;
	struct fio_where rw_seq_at;	/* rw_sequencer= (identical: fio_rw_seq_check()) */
	u64 depth_low, reap_min;
	const char *reap_min_key;	/* the name it was given by (an alias) */
	/* lat_percentiles=1's lines (0 clears them) and stats=0: verify_per_group_options() */
	struct fio_where lat_pct_at[4];
	unsigned int nr_lat_pct_at;
	bool no_stats;
	bool read_beyond_wp;
	/*
	 * bsrange or bssplit given: fio keeps bs= apart (o->bs[]) from the sizes they set
	 * (o->min_bs[], o->max_bs[]), which bs= fills only when no range was given
	 * (fixup_options()): a bs= after them changes nothing
	 */
	bool bs_range;
	long trim_line;			/* the rw= line of a job that trims */
	u64 filesize, filesize_lo;	/* filesize=LO-HI; LO == HI a fixed size */
	/*
	 * fio nrfiles and the options of several files (fio_files()): file_service_type
	 * (KFSIM_FSERVICE_*, its :N, a distribution's name, which kfsim does not model) and
	 * openfiles (0: not given)
	 */
	enum kfsim_bfq_fservice fst;
	unsigned int fst_nr;
	const char *fst_dist;
	u64 openfiles;
	u64 loops;
	/* the loops= lines over 1 (fio_file_walk(): a percent offset per loop) */
	struct fio_where loops_at[4];	/* FIO_WHERE_MAX */
	unsigned int nr_loops_at;
	/*
	 * io_size=N% (1..100; 0 none): fio 3.33's io_size_percent (options.c str_io_size_cb()),
	 * N % of the job's file region, which setup_files() makes the job's size (o->size):
	 * the bytes of a pass (do_io()'s total_bytes) and, times loops, of the job
	 */
	unsigned int io_size_pct;
	u64 offset_increment;
	char filename[128];
	/* filename=a:b: the list as written and its count of names (0: one file or none) */
	char filelist[128];
	unsigned int listed;
	char wait_for[32];
	long line;
	const char *file;
	unsigned int nr_pending;
	struct fio_pending pending[FIO_MAX_PENDING];
};

struct fio_parser {
	struct kfsim_problem_list errs;	/* all the problems of a file, one line each */
	struct fio_section global, sec;
	bool in_section;
	struct kfsim_bfq_job *jobs;
	long *lines;
	const char **files;
	char names[KFSIM_BFQ_MAX_JOBS][32];	/* section names, for wait_for */
	char filenames[KFSIM_BFQ_MAX_JOBS][128];
	bool listed[KFSIM_BFQ_MAX_JOBS];	/* filenames[] is a filename=a:b list */
	/*
	 * the emulated zones of a named file, as its first zbd job set them up (fio 3.33
	 * zbd.c: one zbd_info per file, its zone size and max_open_zones that job's)
	 */
	struct fio_zoned_file {
		char name[128];
		u64 zone_size;
		unsigned int max_open_zones;
	} zoned[8];
	unsigned int nr_zoned;
	u64 loops[KFSIM_BFQ_MAX_JOBS];	/* size-bounded by its region: loops of it */
	u64 size_loops[KFSIM_BFQ_MAX_JOBS];	/* io_size is size= in bytes times this */
	unsigned int io_size_pct[KFSIM_BFQ_MAX_JOBS];	/* fio_section's io_size_pct */
	/* do_io()'s total_bytes: 0 its region, U64_MAX none, else io_size (pass_bytes) */
	u64 pass_io_size[KFSIM_BFQ_MAX_JOBS];
	/* filesize=N of a job's one file (a regular file): the file's end (fio_job_bytes()) */
	u64 filesize[KFSIM_BFQ_MAX_JOBS];
	/* its passes end at the region's last whole block (fio_whole_blocks()) */
	bool whole_blocks[KFSIM_BFQ_MAX_JOBS];
	/* the size fio's setup gives its file, every job's set up (fio_file_walk()) */
	u64 fio_file_size[KFSIM_BFQ_MAX_JOBS];
	/* a size-bounded job's loops= lines over 1 */
	struct fio_where loops_at[KFSIM_BFQ_MAX_JOBS][4];
	unsigned int nr_loops_at[KFSIM_BFQ_MAX_JOBS];
	bool exitall;			/* fio's exitall_on_terminate: an exitall line anywhere */
	unsigned int fio_group, fio_group_jobs;	/* fio's groupid and its jobs so far */
	unsigned int nr, first;
	unsigned int group_first, group_jobs;	/* fio's reporting group being filled */
	/* each job's lat_percentiles=1 lines (none: off), for fio_lat_pct_group() */
	struct fio_where lat_pct_at[KFSIM_BFQ_MAX_JOBS][4];
	unsigned int nr_lat_pct_at[KFSIM_BFQ_MAX_JOBS];
	bool told_max_jobs;	/* "more than N jobs" told (once: every later section is too) */
	char *paths[FIO_MAX_INCLUDES + 1];	/* file names, kept for the messages */
	unsigned int nr_paths;
	sector_t capacity;
	/* deferred problems already reported: a [global] line is named once, not per job */
	struct { const char *file; long line; } reported[64];
	unsigned int nr_reported;
	bool line_unset_var;	/* the option line had a ${VAR} unset or empty */
	const char *written;	/* the option line as written, before expansion: fio's words */
};

static __attribute__((format(printf, 4, 5))) void fio_err(struct kfsim_problem_list *e,
							   const char *file, long line,
							   const char *fmt, ...)
{
	char where[PATH_MAX + 32]; /* the whole path: the list cuts its front if it must */
	va_list ap;

	if (line && file)
		snprintf(where, sizeof(where), "%s:%ld: ", file, line);
	else if (line)
		snprintf(where, sizeof(where), "line %ld: ", line);
	else
		snprintf(where, sizeof(where), "%s%s", file ? file : "", file ? ": " : "");
	va_start(ap, fmt);
	kfsim_problem_list_vadd_at(e, -EINVAL, where, fmt, ap);
	va_end(ap);
}

static char *strip(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/*
 * fio's time values (fio 3.33 parse.c get_mult_time()): a number, then a unit of which fio
 * knows "us"/"usec" and "ms"/"msec" (by their first letters) and exactly "s", "m", "h", "d",
 * case aside; any other letters are microseconds ("2sec" and "2min" are 2 us under fio), no
 * letter at all is @unit_ns.
 */
static int parse_time(const char *text, u64 unit_ns, u64 *ns)
{
	static const struct { const char *suffix; bool prefix; u64 ns; } units[] = {
		{ "us", true, 1000 }, { "ms", true, 1000000 }, { "s", false, NSEC_PER_SEC },
		{ "m", false, 60ULL * NSEC_PER_SEC }, { "h", false, 3600ULL * NSEC_PER_SEC },
		{ "d", false, 86400ULL * NSEC_PER_SEC },
	};
	unsigned long long v;
	const char *suffix;
	char *end;

	if (*text == '+')
		text++;		/* fio's strtoll() reads a '+' ("runtime=+4" is 4 s); a '-' wraps */
	if (!isdigit((unsigned char)*text))
		return -EINVAL;
	errno = 0;
	/* str_to_decimal(): hexadecimal wherever the text holds "0x" ("0x10s" is 16 us) */
	v = strtoull(text, &end, strstr(text, "0x") || strstr(text, "0X") ? 16 : 10);
	if (errno || v > LLONG_MAX)	/* strtoll()'s ERANGE fails in fio */
		return -EINVAL;
	/*
	 * get_mult_time() looks for the unit past the digits and the signs: "1-5m" is one
	 * minute (the 5 is skipped), "1m-2m" one microsecond (its unit, "m-2m", is none of
	 * fio's), and a hexadecimal number's unit starts at its 'x' (microseconds)
	 */
	for (suffix = text; isdigit((unsigned char)*suffix) || *suffix == '+' || *suffix == '-';
	     suffix++)
		;
	if (isalpha((unsigned char)*suffix)) {
		unit_ns = 1000;
		for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
			if (units[i].prefix ? !strncasecmp(suffix, units[i].suffix, 2)
					    : !strcasecmp(suffix, units[i].suffix)) {
				unit_ns = units[i].ns;
				break;
			}
		}
	}
	if (v > U64_MAX / unit_ns)
		return -EINVAL;
	*ns = v * unit_ns;
	return 0;
}

/* An integer option as fio reads it (kfsim_bfq_fio_number()), within [@min_v, @max_v]. */
static int parse_uint(const char *text, u64 min_v, u64 max_v, u64 *out)
{
	u64 v;

	if (kfsim_bfq_fio_number(text, &v) || v < min_v || v > max_v)
		return -EINVAL;
	*out = v;
	return 0;
}

/* How fio 3.33 parses an option kfsim only checks (fio_no_effect_checks[] below). */
enum fio_ne_type { FIO_NE_BOOL, FIO_NE_SET, FIO_NE_INT, FIO_NE_ULL, FIO_NE_CHOICE,
		   FIO_NE_FLOATS };

struct fio_no_effect_check {
	const char *name;
	enum fio_ne_type type;
	long long min, max;	/* FIO_NE_INT: fio's minval, maxval (0: none) */
	const char *const *choices;
};

static const struct fio_no_effect_check fio_flag_bool = { "", FIO_NE_BOOL, 0, 0, NULL };
static const struct fio_no_effect_check fio_flag_set = { "", FIO_NE_SET, 0, 0, NULL };

static bool fio_any_part_ok(const struct fio_no_effect_check *c, const char *value);

/*
 * fio's flags: bare (true; whether fio takes it bare is fio_takes_bare()'s), or a value as
 * check_int() reads it, within 0..1 for a FIO_OPT_BOOL (@bool_range), any number for a
 * FIO_OPT_STR_SET (kfsim_bfq_fio_flag()).  Only the value's first part sets the flag, but
 * fio takes the option when any part parses ("abc,1" leaves it as it was: fio_any_part_ok()).
 */
static int parse_flag(const char *value, bool bool_range, bool *out)
{
	if (!value) {
		*out = true;
		return 0;
	}
	if (!kfsim_bfq_fio_flag(value, bool_range, out))
		return 0;
	return fio_any_part_ok(bool_range ? &fio_flag_bool : &fio_flag_set, value) ? 0 : -EINVAL;
}

static void fio_defer(struct fio_section *sec, long line, const char *file, const char *option,
		      const char *why)
{
	struct fio_pending *p = NULL;

	/*
	 * every line that set it is kept (a [global]'s and the job's own, or two in one
	 * section): with only the last named, the file without it would still be refused, for
	 * the line before (fio_jobgen --wide seed 27020, nrfiles=4 twice); a full list
	 * replaces the option's entry
	 */
	for (unsigned int i = 0; i < sec->nr_pending; i++) {
		if (!strcmp(sec->pending[i].option, option)) {
			if (sec->pending[i].line == line && sec->pending[i].file == file)
				return;
			p = &sec->pending[i];
		}
	}
	if (sec->nr_pending < FIO_MAX_PENDING)
		p = &sec->pending[sec->nr_pending++];
	else if (!p)
		return;
	p->line = line;
	p->file = file;
	snprintf(p->option, sizeof(p->option), "%s", option);
	p->why = why;
}

/* A later value of @option is fine: what an earlier one deferred goes (a job's own value). */
static void fio_undefer(struct fio_section *sec, const char *option)
{
	for (unsigned int i = 0; i < sec->nr_pending;) {
		if (!strcmp(sec->pending[i].option, option))
			sec->pending[i] = sec->pending[--sec->nr_pending];
		else
			i++;
	}
}

/*
 * fio 3.33's filename= (options.c get_next_name()): names joined by ':', a '\:' a colon of the
 * name (the backslash dropped), a ':' at a name's start skipped.  The first name into @first
 * (@len bytes); the number of names.
 */
static unsigned int fio_filenames(const char *value, char *first, size_t len)
{
	unsigned int nr = 0;
	size_t n = 0;
	bool empty = true;

	for (const char *c = value; ; c++) {
		if (*c == '\\' && c[1] == ':') {
			c++;
		} else if (*c == ':' || !*c) {
			if (!empty)
				nr++;
			empty = true;
			if (!*c)
				break;
			continue;
		}
		if (!nr && n + 1 < len)
			first[n++] = *c;
		empty = false;
	}
	first[n] = '\0';
	return nr;
}

/* Options that change nothing the simulated disk sees, with why (fio(1) for each). */
static const struct {
	const char *why;
	const char *const *names;
} fio_no_effect[] = {
	{ "output and statistics only", (const char *const[]){
		"group_reporting", "write_lat_log", "write_bw_log", "write_iops_log",
		"write_hist_log", "log_avg_msec", "log_hist_msec", "log_offset", "log_prio",
		"log_compression", "per_job_logs", "clat_percentiles", "lat_percentiles",
		"slat_percentiles", "percentile_list", "disable_lat", "disable_clat",
		"disable_slat", "disable_bw_measurement", "gtod_reduce", "gtod_cpu",
		"block_error_percentiles", "description", "new_group", "stats", "bwavgtime",
		"iopsavgtime", "unified_rw_reporting", "significant_figures", "error_dump",
		"verify_dump", "ratemin", "rate_min", "rate_iops_min", "ratecycle", "write_iolog",
		NULL } },
	{ "CPU, memory and thread placement of fio itself", (const char *const[]){
		"thread", "threads", "cpus_allowed", "cpus_allowed_policy", "cpumask",
		"numa_cpu_nodes", "numa_mem_policy", "mem", "iomem", "iomem_align", "mem_align",
		"hugepage-size", "nice", "std_redirect", "create_serialize", "io_submit_mode",
		"registerfiles", "sqthread_poll", "sqthread_poll_cpu", "hipri", "fixedbufs",
		"nonvectored", "busy_poll", "busy_wait_polling", "iodepth_batch",
		"iodepth_batch_submit", "iodepth_batch_complete", "iodepth_batch_complete_min",
		"iodepth_batch_complete_max", "iodepth_low", "cpuload", "cpumode", "cpuchunks",
		"verify_async_cpus",
		"exit_on_io_done", "program", "arguments",
		/*
		 * fio 3.33 handle_thinktime(): it spins this much of the pause and sleeps the rest
		 * of thinktime (fixup_options() caps it at thinktime): the pause is the same
		 */
		"thinktime_spin", NULL } },
	{ "data content, which does not change the I/O", (const char *const[]){
		"buffer_pattern", "verify_pattern", "scramble_buffers",
		"buffer_compress_percentage", "buffer_compress_chunk", "refill_buffers",
		"zero_buffers", "dedupe_percentage", "dedupe_mode",
		"dedupe_working_set_percentage", "dedupe_global", "verify_interval",
		"verify_fatal", "verify_async", "verify_offset", "verify_state_save",
		"randseed", "randrepeat", "allrandrepeat", "random_generator", "norandommap",
		NULL } },
	{ "names the engine's target or transport", (const char *const[]){
		"hostname", "port", "https", "http_mode", "http_host", "http_verbose",
		"http_user", "http_pass", "http_s3_key", "http_s3_keyid", "http_s3_region",
		"http_s3_storage_class", "http_s3_sse_customer_key",
		"http_s3_sse_customer_algorithm", "http_swift_auth_token", "pool", "cont",
		"conf", "clientname", "rbdname", "clustername", "volume", "brick", "uri",
		"nfs_url", "serverip", "protocol", "listen", "ttl", "pingpong", "interface",
		"gpu_dev_ids", "cuda_io", "direct_write_to_pmem", "namenode",
		"hdfsdirectory", "chunk_size", "single_instance", "busy_wait_polling",
		"verb", "bindname", "chunk", "object_class", "svcl", "mode", "grace_time",
		NULL } },
	{ "errors: the simulated disk has none", (const char *const[]){ "skip_bad", NULL } },
	{ "files are created and dropped from the cache as kfsim assumes (a cold cache)",
	  (const char *const[]){ "create_on_open", "allow_file_create", "unlink",
		"unlink_each_loop", "invalidate", "fallocate", "overwrite", "pre_read",
		"create_fsync", "openfiles", "file_service_type", "directory", "filename_format",
		"lockfile", "allow_mounted_write", NULL } },
};

/*
 * What fio 3.33's parser checks in the values of the options above, though they change
 * nothing here: a file fio rejects is refused whatever the option does.  Each option's type
 * and limits are fio 3.33's (options.c and the engines' option tables; parse.c
 * __handle_option()), checked with "fio --parse-only" on this machine (2026-12-07):
 *  - the value split as handle_option() splits it (fio_any_part_ok());
 *  - FIO_OPT_BOOL and FIO_OPT_STR_SET: check_int() (kfsim_bfq_fio_flag()), 0..1 for a BOOL;
 *  - FIO_OPT_INT and FIO_OPT_ULL: str_to_decimal(), then minval and maxval as
 *    val_too_small() and val_too_large() compare them (an INT as a 32-bit int: "-1" passes a
 *    maxval of 100, "1k" does not);
 *  - FIO_OPT_STR with a list of values: one of them exactly, up to a ':' or ','
 *    (str_match_len(): case and length count, "tcpx" and "TCP" are no "tcp");
 *  - percentile_list (FIO_OPT_FLOAT_LIST): up to 20 numbers joined by ':', 0..100 each.
 * No value but those of fio_empty_ok may be empty (an engine's too: exec's program=).
 * mem=cudamalloc and gpu_dev_id need fio built with CUDA, which Debian's fio 3.33 is not:
 * they fail as in the referee (docs/bfq.md).
 */
static const struct fio_no_effect_check fio_no_effect_checks[] = {
#define NE_BOOL(n) { n, FIO_NE_BOOL, 0, 0, NULL }
#define NE_SET(n) { n, FIO_NE_SET, 0, 0, NULL }
#define NE_INT(n, lo, hi) { n, FIO_NE_INT, lo, hi, NULL }
#define NE_ULL(n) { n, FIO_NE_ULL, 0, 0, NULL }
#define NE_CHOICE(n, ...) { n, FIO_NE_CHOICE, 0, 0, (const char *const[]){ __VA_ARGS__, NULL } }
	NE_BOOL("allow_file_create"), NE_BOOL("allow_mounted_write"),
	NE_BOOL("block_error_percentiles"), NE_BOOL("clat_percentiles"), NE_BOOL("create_fsync"),
	NE_BOOL("create_on_open"), NE_BOOL("create_serialize"), NE_BOOL("dedupe_global"),
	NE_BOOL("disable_bw_measurement"), NE_BOOL("disable_clat"), NE_BOOL("disable_lat"),
	NE_BOOL("disable_slat"), NE_BOOL("error_dump"), NE_BOOL("gtod_reduce"),
	NE_BOOL("invalidate"), NE_BOOL("lat_percentiles"), NE_BOOL("log_offset"),
	NE_BOOL("log_prio"), NE_BOOL("overwrite"), NE_BOOL("per_job_logs"), NE_BOOL("pre_read"),
	NE_BOOL("randrepeat"), NE_BOOL("allrandrepeat"), NE_BOOL("scramble_buffers"), NE_BOOL("slat_percentiles"),
	NE_BOOL("stats"), NE_BOOL("unlink"), NE_BOOL("unlink_each_loop"), NE_BOOL("verify_dump"),
	NE_BOOL("verify_fatal"), NE_BOOL("verify_state_save"),
	/* the engines' (exec, rbd/rados, cpuio, librpma, libhdfs, mtd) */
	NE_BOOL("std_redirect"), NE_BOOL("busy_poll"), NE_BOOL("exit_on_io_done"),
	NE_BOOL("direct_write_to_pmem"), NE_BOOL("single_instance"), NE_BOOL("skip_bad"),
	NE_BOOL("busy_wait_polling"),
	NE_SET("thread"), NE_SET("norandommap"), NE_SET("refill_buffers"), NE_SET("zero_buffers"),
	NE_SET("listen"), NE_SET("pingpong"), NE_SET("fixedbufs"), NE_SET("registerfiles"),
	NE_SET("sqthread_poll"), NE_SET("hipri"),
	/* FIO_OPT_INT without limits (maxval UINT_MAX: any 32-bit value) */
	NE_INT("bwavgtime", 0, 0), NE_INT("cpumask", 0, 0), NE_INT("gtod_cpu", 0, 0),
	NE_INT("hugepage-size", 0, 0), NE_INT("iodepth_batch", 0, 0),
	NE_INT("iodepth_batch_submit", 0, 0), NE_INT("iodepth_batch_complete", 0, 0),
	NE_INT("iodepth_batch_complete_max", 0, 0), NE_INT("iodepth_batch_complete_min", 0, 0),
	NE_INT("iodepth_low", 0, 0), NE_INT("iomem_align", 0, 0), NE_INT("mem_align", 0, 0),
	NE_INT("thinktime_spin", 0, 0),
	NE_INT("iopsavgtime", 0, 0), NE_INT("log_avg_msec", 0, 0), NE_INT("log_hist_msec", 0, 0),
	NE_INT("openfiles", 0, 0), NE_INT("rate_iops_min", 0, 0), NE_INT("ratecycle", 0, 0),
	NE_INT("buffer_compress_chunk", 0, 0), NE_INT("verify_async", 0, 0),
	NE_INT("cpuload", 0, 0), NE_INT("cpuchunks", 0, 0), NE_INT("grace_time", 0, 0),
	NE_INT("nonvectored", 0, 0), NE_INT("sqthread_poll_cpu", 0, 0),
	NE_INT("http_verbose", 0, 0), NE_INT("ttl", 0, 0),
	/* ... and with them */
	NE_INT("significant_figures", 1, 10), NE_INT("nice", -20, 19),
	NE_INT("buffer_compress_percentage", 0, 100), NE_INT("dedupe_percentage", 0, 100),
	NE_INT("dedupe_working_set_percentage", 0, 100),
	NE_INT("log_compression", 1024, 512LL << 20),
	/* 2 * and 1 * sizeof(struct verify_header) of fio 3.33 (40 bytes) */
	NE_INT("verify_interval", 80, 0), NE_INT("verify_offset", 40, 0),
	NE_INT("port", 1, 65535),
	NE_ULL("rate_min"), NE_ULL("ratemin"), NE_ULL("randseed"), NE_ULL("chunk_size"),
	NE_CHOICE("unified_rw_reporting", "none", "mixed", "both", "0", "1", "2"),
	NE_CHOICE("cpus_allowed_policy", "shared", "split"),
	NE_CHOICE("mem", "malloc", "shm", "shmhuge", "mmap", "mmapshared", "mmaphuge"),
	NE_CHOICE("iomem", "malloc", "shm", "shmhuge", "mmap", "mmapshared", "mmaphuge"),
	NE_CHOICE("io_submit_mode", "inline", "offload"),
	NE_CHOICE("dedupe_mode", "repeat", "working_set"),
	NE_CHOICE("random_generator", "tausworthe", "lfsr", "tausworthe64"),
	NE_CHOICE("fallocate", "none", "native", "posix", "keep", "truncate", "0", "1"),
	NE_CHOICE("file_service_type", "random", "zipf", "pareto", "normal", "gauss",
		  "roundrobin", "sequential"),
	NE_CHOICE("lockfile", "none", "exclusive", "readwrite"),
	NE_CHOICE("protocol", "tcp", "tcpv6", "udp", "udpv6", "unix"),
	NE_CHOICE("proto", "tcp", "tcpv6", "udp", "udpv6", "unix"),
	NE_CHOICE("verb", "write", "read", "send", "recv"),
	NE_CHOICE("https", "off", "on", "insecure"),
	NE_CHOICE("http_mode", "webdav", "s3", "swift"),
	NE_CHOICE("cuda_io", "cufile", "posix"),
	NE_CHOICE("cpumode", "noop", "qsort"),
	{ "percentile_list", FIO_NE_FLOATS, 0, 100, NULL },
#undef NE_BOOL
#undef NE_SET
#undef NE_INT
#undef NE_ULL
#undef NE_CHOICE
};

static const char *const fio_empty_ok[] = {
	"cpus_allowed", "numa_cpu_nodes", "numa_mem_policy", "verify_async_cpus", "write_bw_log",
	"write_hist_log", "write_iops_log", "write_lat_log",
};

static bool fio_listed(const char *const *names, size_t nr, const char *key)
{
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(key, names[i]))
			return true;
	}
	return false;
}

/*
 * An integer as str_to_decimal() reads it: strtoll() skips leading blanks and reads a sign
 * (fio wraps it round).
 */
static bool fio_signed_number(const char *text, long long *out)
{
	u64 v;

	while (isspace((unsigned char)*text))
		text++;
	if (kfsim_bfq_fio_number(text + (*text == '-'), &v))
		return false;
	*out = *text == '-' ? (long long)-v : (long long)v;
	return true;
}

/* One part of an FIO_OPT_INT or FIO_OPT_ULL value (up to a ','), within fio's limits. */
static bool fio_number_ok(const struct fio_no_effect_check *c, const char *part)
{
	char buf[64];
	long long v;

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(part, ","), part);
	if (!*buf || !fio_signed_number(buf, &v))
		return false;
	if (c->type != FIO_NE_INT)
		return true;
	/* val_too_large(): a negative int against maxval as an int, else unsigned */
	if (c->max && ((int)v < 0 ? (int)v > (int)c->max :
		       (unsigned int)v > (unsigned long long)c->max))
		return false;
	/* val_too_small(): as an int */
	return !c->min || (int)v >= c->min;
}
/* file_service_type's distributions take "THETA[:CENTER]" after a ':' (str_fst_cb()) */
static bool fio_fst_ok(const char *value)
{
	const char *post = strchr(value, ':');
	double v, center = -1;
	char *colon;
	char buf[64];

	if (!post || !strncmp(value, "random", 6) || !strncmp(value, "roundrobin", 10) ||
	    !strncmp(value, "sequential", 10))
		return true;	/* a count after ':' (atoi()), or nothing to check */
	snprintf(buf, sizeof(buf), "%s", post + 1);
	colon = strchr(buf, ':');
	if (colon) {
		*colon = '\0';
		if (sscanf(colon + 1, "%lf", &center) != 1)
			return false;
	}
	if (sscanf(buf, "%lf", &v) != 1)
		return false;
	if (center != -1 && (center < 0 || center > 1))
		return false;
	if (value[0] == 'z')
		return v != 1.0;
	if (value[0] == 'p')
		return v > 0 && v < 1;
	return v >= 0 && v < 100;	/* normal, gauss */
}

static bool fio_choice_ok(const struct fio_no_effect_check *c, const char *value)
{
	size_t len = strcspn(value, ",:");

	/* str_match_len(): the option's value up to ':' or ',' is one of them exactly */
	for (const char *const *v = c->choices; *v; v++) {
		if (strlen(*v) == len && !strncmp(*v, value, len))
			return strcmp(c->name, "file_service_type") || fio_fst_ok(value);
	}
	return false;
}

/*
 * Whether fio's handle_option() takes @value: it hands the option the whole value, then
 * what follows each separator (',', else ':', else '-'; only ':' for a FIO_OPT_FLOAT_LIST),
 * and the option is set once any of these parses ("port=-1" fails as -1 and passes as 1;
 * "abc,1" passes).  A ',' that ends the value is dropped first.
 */
static bool fio_any_part_ok(const struct fio_no_effect_check *c, const char *value)
{
	char buf[256];
	char *part = buf, *sep;
	unsigned int nr = 0;
	double f;
	bool on;

	if (strlen(value) >= sizeof(buf))
		return false;
	strcpy(buf, value);
	for (;; nr++) {
		bool ok = false;

		if (c->type == FIO_NE_FLOATS) {
			sep = strchr(part, ':');
		} else {
			sep = strchr(part, ',');
			if (sep && !sep[1]) {
				*sep = '\0';
				sep = NULL;
			}
			if (!sep)
				sep = strchr(part, ':');
			if (!sep)
				sep = strchr(part, '-');
		}
		switch (c->type) {
		case FIO_NE_BOOL:
		case FIO_NE_SET:
			ok = !kfsim_bfq_fio_flag(part, c->type == FIO_NE_BOOL, &on);
			break;
		case FIO_NE_INT:
		case FIO_NE_ULL:
			ok = fio_number_ok(c, part);
			break;
		case FIO_NE_FLOATS:
			/* str_to_float() is sscanf("%lf"); FIO_IO_U_LIST_MAX_LEN is 20 */
			ok = nr < 20 && sscanf(part, "%lf", &f) == 1 && f >= c->min && f <= c->max;
			break;
		case FIO_NE_CHOICE:
			break;
		}
		if (ok)
			return true;
		if (!sep)
			return false;
		part = sep + 1;
	}
}

/* Whether fio 3.33's parser takes @value for the no-effect option @key (NULL: bare). */
static bool fio_no_effect_value_ok(const char *key, const char *value)
{
	if (!value)
		return true;	/* a bare option is judged with the others (fio_option()) */
	for (size_t i = 0; i < ARRAY_SIZE(fio_no_effect_checks); i++) {
		const struct fio_no_effect_check *c = &fio_no_effect_checks[i];

		if (strcmp(key, c->name))
			continue;
		if (c->type == FIO_NE_CHOICE)
			return fio_choice_ok(c, value);	/* FIO_OPT_STR: never split */
		return fio_any_part_ok(c, value);
	}
	return *value || fio_listed(fio_empty_ok, ARRAY_SIZE(fio_empty_ok), key);
}

/*
 * The options fio 3.33 takes without a value (parse.c __handle_option()): the flags
 * (FIO_OPT_STR_SET, options.c and the engines') and the strings without a list of values,
 * whose callback gets none (write_bw_log alone logs under the job's name); any other bare
 * option fails in fio ("Option direct requires an argument").
 */
static const char *const fio_bare_options[] = {
	"blocksize_unaligned", "bs_unaligned", "exitall", "exitall_on_error", "fixedbufs",
	"group_reporting", "hipri", "listen", "new_group", "norandommap", "pingpong",
	"refill_buffers", "registerfiles", "sqthread_poll", "stonewall", "thread", "time_based",
	"userspace_reap", "verify_only", "wait_for_previous", "zero_buffers",
	"verify_pattern", "verify_async_cpus", "replay_skip", "cpus_allowed", "numa_cpu_nodes",
	"numa_mem_policy", "write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log",
	"log_compression_cpus", "buffer_pattern", "ignore_error",
};

static bool fio_takes_bare(const char *key)
{
	return fio_listed(fio_bare_options, ARRAY_SIZE(fio_bare_options), key);
}

/* Options refused for every job, with why. */
static const struct {
	const char *name;
	const char *why;
} fio_refused[] = {
	{ "flow_watermark", "flow control between jobs is not modelled" },
	{ "sg_write_mode", "SCSI passthrough is not modelled" },
	{ "inplace", "e4defrag's extent moves are not modelled" },
	{ "donorname", "e4defrag's extent moves are not modelled" },
	{ "write_barrier", "barriers are not modelled" },
	{ "serialize_overlap", "fio's holding back of I/O overlapping I/O in flight is not "
	  "modelled" },
	{ "experimental_verify", "a read-back by resetting the file's offsets is not modelled" },
	{ "read_iolog", "replaying fio's I/O log is not modelled ('kfsim bfq replay' reads "
	  "blkparse text)" },
	{ "gpu_dev_id", "an option of fio built with CUDA, which Debian's fio 3.33 (the referee) "
	  "is not: Bad option there" },
};

/* Options whose refusal depends on the engine: they matter only with disk I/O. */
static const struct {
	const char *name;
	const char *why;
} fio_disk_only[] = {
	{ "nrfiles", "several files per job are not modelled with disk I/O" },
	{ "nr_files", "several files per job are not modelled with disk I/O" },
	{ "cmd_type", "NVMe passthrough (io_uring_cmd) is not modelled" },
	{ "kb_base", "sizes are read with fio's default kb_base=1024 (4k is 4096, 4KiB 4000): "
	  "another base is not modelled with disk I/O" },
};

/*
 * file_service_type and openfiles, which matter with several files (fio_files()): the value
 * passed fio's checks.  str_fst_cb(): file_service_nr is 1, or atoi() of what follows a ':'
 * for random, roundrobin and sequential
 */
static void fio_files_option(struct fio_section *sec, const char *key, const char *value)
{
	static const char *const dists[] = { "zipf", "pareto", "normal", "gauss" };
	const char *post = strchr(value, ':');
	u64 v;

	if (!strcmp(key, "openfiles")) {
		char num[32];

		snprintf(num, sizeof(num), "%.*s", (int)strcspn(value, ",:-"), value);
		if (!parse_uint(num, 0, UINT_MAX, &v))
			sec->openfiles = v;
		return;
	}
	if (strcmp(key, "file_service_type"))
		return;
	sec->fst_dist = NULL;
	sec->fst_nr = post ? (unsigned int)atoi(post + 1) : 1;
	if (!strncmp(value, "roundrobin", 10)) {
		sec->fst = KFSIM_FSERVICE_RR;
	} else if (!strncmp(value, "sequential", 10)) {
		sec->fst = KFSIM_FSERVICE_SEQ;
	} else if (!strncmp(value, "random", 6)) {
		sec->fst = KFSIM_FSERVICE_RANDOM;
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(dists); i++) {
			if (!strncmp(value, dists[i], strlen(dists[i])))
				sec->fst_dist = dists[i];
		}
	}
}

static const char *no_effect_why(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(fio_no_effect); i++) {
		for (const char *const *n = fio_no_effect[i].names; *n; n++) {
			if (!strcmp(*n, name))
				return fio_no_effect[i].why;
		}
	}
	return NULL;
}

/* "0x" or "0X": where fio's pattern parser takes a hexadecimal number to start */
static bool fio_hex_start(const char *v)
{
	return v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
}

/*
 * Why fio 3.33 fails a pattern (lib/pattern.c parse_and_fill_pattern()), or NULL: the value
 * is elements one after the other, a "string", a 'file' whose bytes are the pattern (opened
 * as named, from fio's working directory), %o (the block's offset: verify_pattern only), or
 * a number (0x and hexadecimal digits, or a decimal that fits an int).  kfsim does not model
 * data, but a pattern fio fails on is a job file fio does not run (t0027.fio of fio's tests
 * names a file it keeps beside the job).
 */
static const char *fio_pattern_why(const char *v, bool offset_ok)
{
	while (*v) {
		const char *end;

		if (*v == '"' || *v == '\'') {
			char name[PATH_MAX], byte;
			ssize_t got;
			int fd;

			end = strchr(v + 1, *v);
			if (!end)
				return "a quote without its end";
			if (end == v + 1)
				return "an empty string";
			if (*v == '\'') {
				snprintf(name, sizeof(name), "%.*s", (int)(end - v - 1), v + 1);
				/*
				 * Only whether it has a byte: never waiting for one (a FIFO
				 * without a writer, a terminal), as a check must not hang.
				 */
				fd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
				got = fd >= 0 ? read(fd, &byte, 1) : -1;
				if (got < 0 && errno == EAGAIN)
					got = 1; /* a writer is there, its bytes not yet */
				if (fd >= 0)
					close(fd);
				if (got <= 0)
					return "a pattern file ('...') that cannot be read, or empty";
			}
			v = end + 1;
		} else if (*v == '%') {
			if (!offset_ok || v[1] != 'o')
				return "a format other than verify_pattern's %o";
			v += 2;
		} else if (fio_hex_start(v) && isxdigit((unsigned char)v[2])) {
			for (v += 2; isxdigit((unsigned char)*v) && !fio_hex_start(v); v++)
				;	/* "0xff0x14": two numbers */
		} else {
			/* fio's decimal ends where a "0x" starts: "-120xff" is -12, 0xff */
			const char *hex = strstr(v, "0x"), *hex2 = strstr(v, "0X");
			char num[32], *num_end;
			size_t len = strlen(v);
			long n;

			if (hex2 && (!hex || hex2 < hex))
				hex = hex2;
			if (hex && hex > v)
				len = (size_t)(hex - v);
			snprintf(num, sizeof(num), "%.*s", (int)min_t(size_t, len, sizeof(num) - 1), v);
			errno = 0;
			n = strtol(num, &num_end, 10);
			if (num_end == num || errno || n > INT_MAX || n < INT_MIN)
				return "not a string, 'file', %o or number";
			v += num_end - num;
		}
	}
	return NULL;
}

static void fio_pattern_check(struct fio_parser *p, const char *key, const char *value,
			      long line, const char *file)
{
	const char *why = fio_pattern_why(value, !strcmp(key, "verify_pattern"));

	if (why)
		fio_err(&p->errs, file, line, "%s: failed parsing %s=%s (%s)", key, key, value,
			why);
}

/* rw=: kfsim's patterns, fio's trims (refused with disk I/O) and the ":N" suffix. */
static void fio_rw(struct fio_parser *p, struct fio_section *sec, const char *value, long line,
		   const char *file)
{
	char rw[32], why[200];
	const char *colon = strchr(value, ':');
	size_t n = colon ? (size_t)(colon - value) : strlen(value);

	if (n >= sizeof(rw)) {
		fio_err(&p->errs, file, line, "rw: failed parsing rw=%s", value);
		return;
	}
	memcpy(rw, value, n);
	rw[n] = '\0';
	sec->trim_line = strstr(rw, "trim") ? line : 0;
	if (kfsim_bfq_job_set(&sec->job, "rw", rw, &sec->prioclass, why, sizeof(why))) {
		fio_err(&p->errs, file, line, "rw: failed parsing %s%s", p->written,
			p->line_unset_var ? " (an environment variable that is not set)" : "");
		return;
	}
	sec->job.seq_skip = 0;
	sec->job.ddir_seq_nr = 0;
	if (colon) {
		/* fio 3.33 str_rw_cb(): the number after ':' is read as any size */
		const char *num = colon + 1;
		bool neg = *num == '-';
		u64 v;

		if (kfsim_bfq_fio_number(num + neg, &v)) {
			fio_err(&p->errs, file, line, "rw: failed parsing rw=%s", value);
		} else if (kfsim_bfq_job_is_random(&sec->job)) {
			/* "randread:8": a new random offset every 8 I/Os */
			if (neg || !v || v > UINT_MAX)
				fio_err(&p->errs, file, line, "rw: randrw postfix parsing out of "
					"range (rw=%s)", value);
			else
				sec->job.ddir_seq_nr = (unsigned int)v;
		} else if (v % SECTOR_SIZE || v > (1ULL << 40)) {
			/* "read:8k" skips 8k after each I/O; "read:-8k" goes backwards */
			fio_err(&p->errs, file, line, "rw: a skip (rw=%s) that is not a multiple of "
				"512 bytes, or over 1 TiB, is not modelled", value);
		} else {
			sec->job.seq_skip = (s64)v * (neg ? -1 : 1);
		}
	}
}

static bool fio_is_bs(const char *key)
{
	return !strcmp(key, "bs") || !strcmp(key, "blocksize");
}

/* A size that parses but is not a multiple of 512 bytes. */
static u64 fio_odd_size(const char *value)
{
	struct kfsim_bfq_job tmp;
	unsigned int cls = 0;
	char first[64];
	size_t n = strcspn(value, ",");

	if (n >= sizeof(first))
		return false;
	memcpy(first, value, n);
	first[n] = '\0';
	kfsim_bfq_job_default(&tmp);
	if (kfsim_bfq_job_set(&tmp, "io_size", first, &cls, NULL, 0) || !tmp.io_size ||
	    !(tmp.io_size % SECTOR_SIZE) || tmp.io_size > UINT32_MAX)
		return 0;
	return tmp.io_size;
}

/* glibc's scanf("%u"): blanks, a sign, decimal digits; a negative wraps round. */
static const char *fio_scan_u(const char *s, unsigned int *out)
{
	unsigned long v;
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)s[*s == '-' || *s == '+']))
		return NULL;
	v = strtoul(s, &end, 10);
	*out = (unsigned int)v;
	return end;
}

/*
 * One direction of cmdprio_bssplit as fio 3.33 reads it (options.c split_parse_prio_ddir()
 * and parse_cmdprio_bssplit_entry()): entries joined by ':' up to the first empty one, at
 * most BSSPLIT_MAX (64), each sscanf("%m[^/]/%u/%u/%u"): a block size (str_to_decimal()),
 * then a percentage, then a class and a level, what follows them ignored (a newer fio's hint,
 * "1M/10/2/0/1", reads as 1M/10/2/0); one, two or four fields, not three; a percentage over
 * 100 is 100, one of 0 dropped, and the percentages of one block size may add up to 100 at
 * most (cmdprio.c fio_cmdprio_fill_bsprio(), when the job starts).  0, or -EINVAL with fio's
 * message in @why.
 */
static int fio_cmdprio_bssplit_dir(const char *str, char *why, size_t len)
{
	struct { u64 bs; unsigned int perc; } e[64];
	unsigned int nr = 0;
	const char *entry = str;

	while (*entry && *entry != ':') {
		size_t n = strcspn(entry, ":");
		char bs[64];
		const char *q;
		unsigned int perc = 0, cls, level, fields = 1;
		long long v;

		if (nr == ARRAY_SIZE(e)) {
			snprintf(why, len, "too many cmdprio_bssplit entries (fio's limit is 64)");
			return -EINVAL;
		}
		q = memchr(entry, '/', n);
		snprintf(bs, sizeof(bs), "%.*s", (int)((q ? q : entry + n) - entry), entry);
		if (!*bs || !fio_signed_number(bs, &v)) {
			snprintf(why, len, "failed to parse cmdprio_bssplit entry '%.*s' (its block "
				 "size)", (int)n, entry);
			return -EINVAL;
		}
		if (q && q < entry + n && (q = fio_scan_u(q + 1, &perc)) && q <= entry + n) {
			fields = 2;
			if (*q == '/' && (q = fio_scan_u(q + 1, &cls)) && q <= entry + n) {
				fields = 3;
				if (*q == '/' && (q = fio_scan_u(q + 1, &level)) && q <= entry + n)
					fields = 4;
			}
		}
		if (fields == 3) {
			snprintf(why, len, "invalid cmdprio_bssplit format '%.*s' (BS/PERCENT or "
				 "BS/PERCENT/CLASS/LEVEL)", (int)n, entry);
			return -EINVAL;
		}
		e[nr].bs = (u64)v;
		e[nr].perc = perc < 100 ? perc : 100;
		if (e[nr].perc)
			nr++;
		entry += n + (entry[n] == ':');
	}
	for (unsigned int i = 0; i < nr; i++) {
		unsigned int total = 0;

		for (unsigned int j = 0; j < nr; j++)
			if (e[j].bs == e[i].bs)
				total += e[j].perc;
		if (total > 100) {
			snprintf(why, len, "cmdprio_bssplit total percentage for bs: %llu exceeds "
				 "100 (fio's run fails)", (unsigned long long)e[i].bs);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * fio's cmdprio options (engines/cmdprio.c): cmdprio_percentage 0..100, cmdprio_class 1..3,
 * cmdprio 0..7, each READ[,WRITE]; cmdprio_bssplit READ[,WRITE[,TRIM]] as
 * str_split_parse() splits it (the trims' part is not read), each fio_cmdprio_bssplit_dir().
 * 0, or -EINVAL with the reason in @why.
 */
static int fio_cmdprio_check(const char *key, const char *value, char *why, size_t len)
{
	u64 max_v = !strcmp(key, "cmdprio_percentage") ? 100 : !strcmp(key, "cmdprio_class") ? 3 :
		    7, min_v = !strcmp(key, "cmdprio_class") ? 1 : 0;
	char buf[256], *dir, *save = NULL;
	unsigned int nr_dirs = 0;
	u64 v;

	if (!value || !*value || strlen(value) >= sizeof(buf)) {
		snprintf(why, len, "needs a value");
		return -EINVAL;
	}
	strcpy(buf, value);
	if (!strcmp(key, "cmdprio_bssplit")) {
		char *s = buf, *comma, *end;

		while (isspace((unsigned char)*s))	/* strip_blank_front()/_end() */
			s++;
		for (end = s + strlen(s); end > s && isspace((unsigned char)end[-1]);)
			*--end = '\0';
		comma = strchr(s, ',');
		if (comma) {
			char *third = strchr(comma + 1, ',');

			if (third)
				*third = '\0';
			*comma = '\0';
			if (fio_cmdprio_bssplit_dir(s, why, len))
				return -EINVAL;
			return fio_cmdprio_bssplit_dir(comma + 1, why, len);
		}
		return fio_cmdprio_bssplit_dir(s, why, len);
	}
	for (dir = strtok_r(buf, ",", &save); dir; dir = strtok_r(NULL, ",", &save)) {
		if (++nr_dirs > 2)
			goto bad;
		if (parse_uint(dir, min_v, max_v, &v))
			goto bad;
	}
	if (nr_dirs)
		return 0;
bad:
	snprintf(why, len, "expected %llu to %llu (READ[,WRITE]), not '%s'",
		 (unsigned long long)min_v, (unsigned long long)max_v, value);
	return -EINVAL;
}

/* continue_on_error=: fio's choices (options.c), each a set of error types. */
static void fio_continue_on_error(struct fio_parser *p, struct fio_section *sec,
				  const char *value, long line, const char *file)
{
	static const struct { const char *name; unsigned int types; } choices[] = {
		{ "none", 0 }, { "read", FIO_ERR_READ }, { "write", FIO_ERR_WRITE },
		{ "io", FIO_ERR_READ | FIO_ERR_WRITE }, { "verify", FIO_ERR_VERIFY },
		{ "all", FIO_ERR_READ | FIO_ERR_WRITE | FIO_ERR_VERIFY }, { "0", 0 },
		{ "1", FIO_ERR_READ | FIO_ERR_WRITE | FIO_ERR_VERIFY },
	};

	for (size_t i = 0; value && i < ARRAY_SIZE(choices); i++) {
		if (!strcmp(value, choices[i].name)) {
			sec->continue_on_error = choices[i].types;
			return;
		}
	}
	fio_err(&p->errs, file, line, "continue_on_error: expected none, read, write, io, "
		"verify, all, 0 or 1, not '%s'", value ? value : "");
}

/* An errno as ignore_error names it: "EIO" or a number (its sign dropped); 0 = unknown. */
static int fio_error_number(const char *text)
{
	if (text[0] == 'E') {
		if (!strcmp(text, "ENOTSUP"))
			return EOPNOTSUPP;	/* the same number on Linux */
		for (int err = 1; err < 134; err++) {
			if (!strcmp(text, kfsim_errname(err)))
				return err;
		}
		return 0;
	}
	return abs(atoi(text));
}

/*
 * ignore_error=READ_LIST,WRITE_LIST,VERIFY_LIST, each "E1:E2:...": a non-empty list makes
 * its type continue on those errors (fio's ignore_error_type(): it also sets the type's
 * continue_on_error bit).  Only what decides a trim's fate is kept: the write list.
 */
static void fio_ignore_error(struct fio_parser *p, struct fio_section *sec, const char *value,
			     long line, const char *file)
{
	char buf[256], *lists, *list;
	unsigned int type = 0;

	if (!value || strlen(value) >= sizeof(buf)) {
		fio_err(&p->errs, file, line, "ignore_error: expected READ,WRITE,VERIFY lists of "
			"errors joined by ':'");
		return;
	}
	strcpy(buf, value);
	lists = buf;
	while ((list = strsep(&lists, ",")) != NULL) {
		bool trim_err[2] = { false, false };
		unsigned int nr = 0;
		char *name;

		if (type > 2) {
			fio_err(&p->errs, file, line, "ignore_error: Illegal error type");
			return;
		}
		while ((name = strsep(&list, ":")) != NULL && *name) {
			int err = fio_error_number(name);

			if (!err) {
				fio_err(&p->errs, file, line, "ignore_error: Unknown error %s, please "
					"use number value", name);
				return;
			}
			trim_err[0] |= err == ENOTTY;
			trim_err[1] |= err == EOPNOTSUPP;
			sec->ignores_timedout |= type < 2 && err == ETIMEDOUT;
			nr++;
		}
		if (nr) {
			sec->continue_on_error |= 1u << type;
			if (type == 1) {
				sec->write_errs_listed = true;
				memcpy(sec->ignores_trim_err, trim_err, sizeof(trim_err));
			}
		}
		type++;
	}
}

/* fio's str_to_float(): a leading number, what follows it ignored */
static int fio_ss_float(const char *text, double *out)
{
	char *end;

	*out = strtod(text, &end);
	return end == text ? -EINVAL : 0;
}

/*
 * fio's str_to_decimal() as the bandwidth limit reads it: an integer (0x for hex, a sign
 * allowed), a fraction dropped with all that follows it (1.5k is 1, as fio), else an optional
 * k/m/g/t of powers of 2.  fio reads more unit spellings (KiB as powers of 10 ...): kfsim
 * refuses them rather than guess.
 */
static int fio_ss_bw(const char *text, double *out)
{
	static const char units[] = "kmgt";
	const char *unit;
	long long v;
	char *end;

	errno = 0;
	v = strtoll(text, &end, 0);
	if (errno || end == text)
		return -EINVAL;
	if (*end == '.' || !*end) {
		*out = (double)v;
		return 0;
	}
	unit = strchr(units, tolower((unsigned char)*end));
	if (!unit || (end[1] && strcasecmp(end + 1, "b")))
		return -ERANGE;
	*out = (double)v * (double)(1ULL << (10 * (unit - units + 1)));
	return 0;
}

/*
 * steadystate=CRITERION:LIMIT (fio 3.33 options.c str_steadystate_cb(), its messages): the
 * criterion one of fio's four names exactly; a limit with % is percent of the mean, else
 * IOPS (a float) or bytes/s.
 */
static void fio_steadystate(struct fio_parser *p, struct fio_section *sec, const char *key,
			    const char *value, long line, const char *file)
{
	static const struct { const char *name; unsigned int state; } criteria[] = {
		{ "iops", KFSIM_SS_IOPS },
		{ "iops_slope", KFSIM_SS_IOPS | KFSIM_SS_SLOPE },
		{ "bw", KFSIM_SS_BW },
		{ "bw_slope", KFSIM_SS_BW | KFSIM_SS_SLOPE },
	};
	const char *colon = value ? strchr(value, ':') : NULL;
	size_t name_len = !value ? 0 : colon ? (size_t)(colon - value) : strlen(value);
	unsigned int state = 0;
	char limit[64], *pct;
	double v;
	int err = 0;

	for (size_t i = 0; value && i < ARRAY_SIZE(criteria); i++) {
		if (strlen(criteria[i].name) == name_len &&
		    !strncmp(value, criteria[i].name, name_len))
			state = criteria[i].state;
	}
	if (!state) {
		fio_err(&p->errs, file, line, "%s: failed parsing %s=%s (valid values: iops, "
			"iops_slope, bw, bw_slope)", key, key, value ? value : "");
		return;
	}
	if (!colon) {
		fio_err(&p->errs, file, line, "%s: steadystate threshold must be specified in "
			"addition to criterion", key);
		return;
	}
	snprintf(limit, sizeof(limit), "%s", colon + 1);
	pct = strchr(limit, '%');
	if (pct) {
		*pct = '\0';
		if (fio_ss_float(strip(limit), &v)) {
			fio_err(&p->errs, file, line, "%s: could not parse steadystate threshold "
				"percentage", key);
			return;
		}
		state |= KFSIM_SS_PCT;
	} else if (state & KFSIM_SS_IOPS ? fio_ss_float(limit, &v) : (err = fio_ss_bw(limit, &v))) {
		if (err == -ERANGE)
			fio_err(&p->errs, file, line, "%s: the bandwidth limit '%s': kfsim reads "
				"k, m, g, t (powers of 2) and no other unit", key, limit);
		else
			fio_err(&p->errs, file, line, "%s: steadystate %s threshold postfix "
				"parsing failed", key, state & KFSIM_SS_IOPS ? "IOPS" : "BW");
		return;
	}
	sec->job.ss_state = state;
	sec->job.ss_limit = v;
}

/* steadystate_duration, steadystate_ramp_time: seconds without a unit (fio is_seconds) */
static void fio_ss_time(struct fio_parser *p, struct fio_section *sec, const char *key,
			const char *value, long line, const char *file)
{
	bool is_dur = !strcmp(key, "ss_dur") || !strcmp(key, "steadystate_duration");
	u64 ns;

	if (!value || parse_time(value, NSEC_PER_SEC, &ns)) {
		fio_err(&p->errs, file, line, "%s: failed parsing %s=%s", key, key,
			value ? value : "");
	} else if (!is_dur) {
		sec->job.ss_ramp_ns = ns;
	} else if (ns / NSEC_PER_SEC > KFSIM_SS_MAX_DUR_S) {
		fio_err(&p->errs, file, line, "%s: a window over %u s is not modelled", key,
			KFSIM_SS_MAX_DUR_S);
	} else {
		/* fio keeps whole seconds (td_steadystate_init()): under 1 s turns it off */
		sec->job.ss_dur_s = ns / NSEC_PER_SEC;
		sec->ss_line = line;
	}
}

/*
 * An option kfsim does not handle: fio's own (or an engine's) is refused as not modelled;
 * one fio does not have either, in fio's words ("Bad option <...>"), as fio refuses it.
 */
static void fio_unknown_option(struct fio_parser *p, struct fio_section *sec, const char *key,
			       const char *value, long line, const char *file)
{
	struct fio_engine_opt *note = sec->nr_engine_opts ?
				      &sec->engine_opts[sec->nr_engine_opts - 1] : NULL;

	switch (kfsim_bfq_fio_option_kind(key)) {
	case KFSIM_FIO_OPTION_CORE:
		fio_err(&p->errs, file, line, "%s: fio's option is not modelled (kfsim does not "
			"simulate what it changes)", key);
		break;
	case KFSIM_FIO_OPTION_ENGINE:
		/*
		 * one noted for the engine check (fio_engine_opts_check()) is told there, once:
		 * not modelled under its engine, or fio's "Bad option" under another
		 */
		if (note && note->line == line && note->file == file &&
		    !strncmp(note->text, key, strlen(key)) &&
		    (note->text[strlen(key)] == '=' || !note->text[strlen(key)])) {
			note->told = true;
			break;
		}
		fio_err(&p->errs, file, line, "%s: an option of one of fio's engines, not "
			"modelled", key);
		break;
	default:
		fio_err(&p->errs, file, line, "Bad option <%s%s%s>: not a fio 3.33 option",
			key, value ? "=" : "", value ? value : "");
	}
}

/*
 * fsync=N and fdatasync=N (FIO_OPT_INT: check_str_bytes(), so 4k is 4096 and -1 wraps into
 * the unsigned int), end_fsync and fsync_on_close (FIO_OPT_BOOL: kfsim_bfq_fio_flag()), fio 3.33
 * options.c; fsync_on_close's sync at the end is end_fsync's (backend.c do_io()), its
 * fsync() at close then finds the file clean.
 */
static void fio_sync_option(struct fio_parser *p, struct fio_section *sec, const char *key,
			    const char *value, long line, const char *file)
{
	bool negative = value && *value == '-';
	bool on;
	u64 v;

	if (!value) {
		fio_err(&p->errs, file, line, "%s: Option %s requires an argument", key, key);
		return;
	}
	if (!strcmp(key, "end_fsync") || !strcmp(key, "fsync_on_close")) {
		/* FIO_OPT_BOOL: check_int() ("1k" is 1, "-1" true), then maxval 1 as an int */
		if (kfsim_bfq_fio_flag(value, false, &on)) {
			fio_err(&p->errs, file, line, "%s: failed parsing %s=%s", key, key, value);
			return;
		}
		if (kfsim_bfq_fio_flag(value, true, &on)) {
			fio_err(&p->errs, file, line, "%s: max value out of range: %s (1 max)", key,
				value);
			return;
		}
		if (!strcmp(key, "end_fsync"))
			sec->end_fsync = on;
		else
			sec->fsync_on_close = on;
		sec->job.end_fsync = sec->end_fsync || sec->fsync_on_close;
		return;
	}
	if (kfsim_bfq_fio_number(value + negative, &v)) {
		fio_err(&p->errs, file, line, "%s: failed parsing %s=%s", key, key, value);
		return;
	}
	if (negative)
		v = -v;
	if (!strcmp(key, "fsync"))
		sec->job.fsync_blocks = (unsigned int)v;
	else
		sec->job.fdatasync_blocks = (unsigned int)v;
}

/*
 * runtime and ramp_time: fio's FIO_OPT_STR_VAL_TIME with is_seconds (seconds without a unit,
 * us ms s m h d), into *@ns; kfsim takes at most FIO_TIME_MAX_NS.
 */
static void fio_run_time(struct fio_parser *p, const char *file, long line,
			 const char *key, const char *value, u64 *ns)
{
	u64 v;

	if (!value || parse_time(value, NSEC_PER_SEC, &v))
		fio_err(&p->errs, file, line, "%s: expected a time (seconds without a unit), "
			"not '%s'", key, value ? value : "");
	else if (v > FIO_TIME_MAX_NS)
		fio_err(&p->errs, file, line, "%s: '%s' is more than kfsim models (146 years: "
			"the simulation's clock would wrap)", key, value);
	else
		*ns = v;
}

/*
 * The single-valued numeric options kfsim simulates, as fio 3.33's handle_option() (parse.c)
 * takes them: the whole value, then what follows each separator (',', else ':', else '-',
 * fio_any_part_ok()) is parsed in turn, and the option is read once any part passes.  Which
 * part sets it depends on the option: one without a callback stores only the first part
 * (val_store() of off1 with first set; iodepth, numjobs, runtime, ...), so "iodepth=-1" fails
 * -1 against minval 1 and passes 1, which sets nothing: the job keeps its depth; one with a
 * callback (size, offset, rwmixread, ...: options.c str_size_cb() ...) is called for every
 * part that passes, so the last wins ("size=4m-8m" is 8m: checked with fio's null engine,
 * which reads 8 MiB, 2026-12-07).  @min and @max are fio's minval and maxval (0: none),
 * compared as val_too_small() and val_too_large() compare an FIO_OPT_INT.
 */
enum fio_part_store { FIO_STORE_FIRST, FIO_STORE_LAST };
enum fio_part_kind { FIO_PART_INT, FIO_PART_VAL, FIO_PART_TIME, FIO_PART_BOOL };

static const struct fio_part_opt {
	const char *name;
	enum fio_part_store store;
	enum fio_part_kind kind;
	int min, max;
} fio_part_opts[] = {
	{ "iodepth", FIO_STORE_FIRST, FIO_PART_INT, 1, 0 },
	{ "numjobs", FIO_STORE_FIRST, FIO_PART_INT, 0, 0 },
	{ "prio", FIO_STORE_FIRST, FIO_PART_INT, 0, 7 },	/* IOPRIO_MIN_PRIO 0: no min */
	{ "prioclass", FIO_STORE_FIRST, FIO_PART_INT, 0, 3 },
	{ "cgroup_weight", FIO_STORE_FIRST, FIO_PART_INT, 100, 1000 },
	{ "loops", FIO_STORE_FIRST, FIO_PART_INT, 0, 0 },
	{ "flow", FIO_STORE_FIRST, FIO_PART_INT, 0, 1000 },	/* FLOW_MAX_WEIGHT */
	{ "flow_id", FIO_STORE_FIRST, FIO_PART_INT, 0, 0 },
	{ "flow_sleep", FIO_STORE_FIRST, FIO_PART_INT, 0, 0 },
	{ "number_ios", FIO_STORE_FIRST, FIO_PART_VAL, 0, 0 },
	{ "verify_backlog", FIO_STORE_FIRST, FIO_PART_VAL, 0, 0 },
	{ "zonesize", FIO_STORE_FIRST, FIO_PART_VAL, 0, 0 },
	{ "zonerange", FIO_STORE_FIRST, FIO_PART_VAL, 0, 0 },
	{ "thinktime", FIO_STORE_FIRST, FIO_PART_TIME, 0, 0 },
	{ "thinktime_blocks", FIO_STORE_FIRST, FIO_PART_INT, 0, 0 },
	{ "thinktime_iotime", FIO_STORE_FIRST, FIO_PART_TIME, 0, 0 },
	{ "runtime", FIO_STORE_FIRST, FIO_PART_TIME, 0, 0 },
	{ "timeout", FIO_STORE_FIRST, FIO_PART_TIME, 0, 0 },
	{ "ramp_time", FIO_STORE_FIRST, FIO_PART_TIME, 0, 0 },
	{ "latency_target", FIO_STORE_FIRST, FIO_PART_TIME, 0, 0 },
	{ "latency_window", FIO_STORE_FIRST, FIO_PART_TIME, 0, 0 },
	{ "size", FIO_STORE_LAST, FIO_PART_VAL, 0, 0 },
	{ "io_size", FIO_STORE_LAST, FIO_PART_VAL, 0, 0 },
	{ "io_limit", FIO_STORE_LAST, FIO_PART_VAL, 0, 0 },
	{ "offset", FIO_STORE_LAST, FIO_PART_VAL, 0, 0 },
	{ "offset_increment", FIO_STORE_LAST, FIO_PART_VAL, 0, 0 },
	{ "zoneskip", FIO_STORE_LAST, FIO_PART_VAL, 0, 0 },
	{ "rwmixread", FIO_STORE_LAST, FIO_PART_INT, 0, 100 },
	{ "rwmixwrite", FIO_STORE_LAST, FIO_PART_INT, 0, 100 },
	/* FIO_OPT_BOOL: check_int(), 0..1; only the first part sets it */
	{ "direct", FIO_STORE_FIRST, FIO_PART_BOOL, 0, 1 },
	{ "buffered", FIO_STORE_FIRST, FIO_PART_BOOL, 0, 1 },
};

/* Whether fio's check_str_bytes()/check_str_time() and its limits pass one part. */
static bool fio_part_passes(const struct fio_part_opt *o, const char *part)
{
	char buf[64];
	long long v;
	u64 ns;

	/* __handle_option() parses the part up to a ',' (the rest is the next part's) */
	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(part, ","), part);
	if (!*buf)
		return false;
	if (o->kind == FIO_PART_BOOL) {
		bool on;

		return !kfsim_bfq_fio_flag(buf, true, &on);
	}
	if (o->kind == FIO_PART_TIME)	/* str_to_decimal() reads a sign: -5 wraps round */
		return !parse_time(buf + (buf[0] == '-'), NSEC_PER_USEC, &ns);
	if (strchr(buf, '%')) {
		/* a percentage (str_to_decimal(): -1ULL - N), a size's or an offset's */
		char *end;

		errno = 0;
		v = strtoll(buf, &end, 10);
		return end != buf && !errno && *end == '%';
	}
	if (!fio_signed_number(buf, &v))
		return false;
	if (o->kind != FIO_PART_INT)
		return true;
	if (o->max && ((int)v < 0 ? (int)v > o->max : (unsigned int)v > (unsigned int)o->max))
		return false;
	return !o->min || (int)v >= o->min;
}

/*
 * @value as fio's handle_option() reads it for @key (above): NULL when a later part passes
 * and sets nothing (the option keeps what it had), the part that sets it, or @value itself
 * (one part, or none passes: refused as written).
 */
static const char *fio_part_value(const char *key, const char *value, bool *keep)
{
	const struct fio_part_opt *o = NULL;
	const char *part = value, *last_ok = NULL;
	char buf[256];
	unsigned int nr;

	*keep = false;
	for (size_t i = 0; i < ARRAY_SIZE(fio_part_opts); i++)
		if (!strcmp(key, fio_part_opts[i].name))
			o = &fio_part_opts[i];
	if (!o || !value || !*value || strlen(value) >= sizeof(buf))
		return value;
	strcpy(buf, value);
	if (buf[strlen(buf) - 1] == ',' && strchr(buf, ',') == &buf[strlen(buf) - 1])
		buf[strlen(buf) - 1] = '\0';	/* a ',' that ends the value is dropped */
	for (nr = 0, part = buf;; nr++) {
		const char *sep = strchr(part, ',');

		if (!sep)
			sep = strchr(part, ':');
		if (!sep)
			sep = strchr(part, '-');
		if (fio_part_passes(o, part)) {
			if (!nr && o->store == FIO_STORE_FIRST)
				return value;	/* the first part sets it: read as written */
			last_ok = part;
		}
		if (!sep)
			break;
		part = sep + 1;
	}
	if (!last_ok || !nr)
		return value;
	if (o->store == FIO_STORE_FIRST) {
		*keep = true;
		return NULL;
	}
	return value + (last_ok - buf);
}

/*
 * startdelay= as fio 3.33 stores it (FIO_OPT_STR_VAL_TIME with off1 and off2, parse.c
 * handle_option() and __handle_option()): the value's first part (up to a ',') is the delay,
 * its last part the end of the range (start_delay_high), one part both; a part that fails
 * stores nothing.  Each is a time as get_mult_time() reads it, seconds without a unit ("1-5m"
 * is 60 s to 300 s: the first part's unit comes after "1-5").  Bit 0 of the result: the
 * delay was set (*@lo); *@hi the end, 0 when none; -EINVAL when no part passes.
 */
static int fio_startdelay(const char *value, u64 *lo, u64 *hi)
{
	char buf[256], part[64];
	const char *cur;
	int set = 0;
	bool any = false;

	*lo = *hi = 0;
	if (!*value || strlen(value) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, value);
	if (buf[strlen(buf) - 1] == ',' && strchr(buf, ',') == &buf[strlen(buf) - 1])
		buf[strlen(buf) - 1] = '\0';
	for (cur = buf;;) {
		const char *sep = strchr(cur, ',');
		u64 ns;
		bool ok;

		if (!sep)
			sep = strchr(cur, ':');
		if (!sep)
			sep = strchr(cur, '-');
		snprintf(part, sizeof(part), "%.*s", (int)strcspn(cur, ","), cur);
		if (cur == buf && *part == '-' && !parse_time(part + 1, NSEC_PER_SEC, &ns))
			return -EINVAL;	/* fio takes it wrapped round: refused, as negatives are */
		ok = *part && !parse_time(part, NSEC_PER_SEC, &ns);
		any |= ok;
		if (ok && cur == buf) {
			*lo = ns;
			set = 1;
		}
		if (!sep) {
			/* the last part: the range's end (the first too, when it is alone) */
			*hi = ok ? ns : 0;
			break;
		}
		cur = sep + 1;
	}
	return any ? set : -EINVAL;
}

static const char *const fio_rate_keys[5][2] = {
	{ "rate", NULL }, { "rate_iops", NULL }, { "rate_min", "ratemin" },
	{ "rate_iops_min", NULL }, { "rate_process", NULL },
};

#define FIO_WHERE_MAX 4

/*
 * A line that sets an option (@at, @nr: its lines so far, at most FIO_WHERE_MAX): kept, so
 * that a refusal names every line (without them the job reads); @clears: it sets it to
 * nothing, and the lines before no longer count
 */
static void fio_where_add(struct fio_where *at, unsigned int *nr, bool clears, long line,
			  const char *file)
{
	if (clears) {
		*nr = 0;
		return;
	}
	if (*nr == FIO_WHERE_MAX)
		(*nr)--;	/* the oldest stay named; the last is the one in force */
	at[(*nr)++] = (struct fio_where){ line, file };
}

static void fio_rate_at(struct fio_section *sec, int i, bool clears, long line, const char *file)
{
	fio_where_add(sec->rate_at[i], &sec->nr_rate_at[i], clears, line, file);
}

/*
 * Where a rate option was given, and rate_min=/rate_iops_min='s values per direction, read
 * as rate=/rate_iops= are (fio 3.33 options.c: the same types, READ,WRITE,TRIM): a value
 * fio fails is its own check's (sim_jobs.c, fio_no_effect_value_ok()), here it sets nothing.
 */
static void fio_rate_option(struct fio_section *sec, const char *key, const char *value,
			    long line, const char *file)
{
	/* the caps it had: a part left empty keeps its direction's (parse_rate_pair()) */
	struct kfsim_bfq_job scratch = {
		.rate = sec->job.rate, .rate_write = sec->job.rate_write,
		.rate_iops = sec->job.rate_iops, .rate_iops_write = sec->job.rate_iops_write,
	};
	u64 rd, wr;

	for (int i = 0; i < 5; i++) {
		if (strcmp(key, fio_rate_keys[i][0]) &&
		    (!fio_rate_keys[i][1] || strcmp(key, fio_rate_keys[i][1])))
			continue;
		if (!value)
			return;
		if (i == 4) {
			fio_rate_at(sec, i, strcmp(value, "poisson"), line, file);
			return;
		}
		if (i >= 2) {
			scratch.rate = scratch.rate_iops = sec->rate_min[i - 2][0];
			scratch.rate_write = scratch.rate_iops_write =
				sec->rate_min[i - 2][1] ? sec->rate_min[i - 2][1] : U64_MAX;
		}
		if (kfsim_bfq_job_set(&scratch, i % 2 ? "rate_iops" : "rate", value, NULL, NULL, 0))
			return;
		rd = i % 2 ? scratch.rate_iops : scratch.rate;
		wr = i % 2 ? scratch.rate_iops_write : scratch.rate_write;
		rd = rd == U64_MAX ? 0 : rd;	/* an empty part: none */
		wr = wr == U64_MAX ? 0 : wr;
		fio_rate_at(sec, i, !rd && !wr, line, file);
		if (i >= 2) {
			sec->rate_min[i - 2][0] = rd;
			sec->rate_min[i - 2][1] = wr;
		}
		return;
	}
}

/*
 * The options without an effect here that fio 3.33's fixup_options() checks as the run
 * starts (fio_fixup_check()); a value fio fails is their own check's, here it sets nothing.
 */
static void fio_fixup_option(struct fio_section *sec, const char *key, const char *value,
			     long line, const char *file)
{
	bool on = false;
	u64 v;

	if (!value)
		return;
	if (!strcmp(key, "dedupe_mode"))
		sec->dedupe_ws = strcmp(value, "working_set") ? (struct fio_where){ 0, NULL }
							      : (struct fio_where){ line, file };
	else if (!strcmp(key, "dedupe_percentage") && !parse_uint(value, 0, 100, &v))
		sec->dedupe_pct = v;
	else if (!strcmp(key, "dedupe_working_set_percentage") && !parse_uint(value, 0, 100, &v))
		sec->dedupe_ws_pct1 = v + 1;
	else if ((!strcmp(key, "nrfiles") || !strcmp(key, "nr_files")) &&
		 !parse_uint(value, 1, UINT_MAX, &v))
		sec->nrfiles = v;
	else if (!strcmp(key, "iodepth_low") && !parse_uint(value, 0, UINT_MAX, &v)) {
		sec->depth_low = v;
		sec->depth_low_at = (struct fio_where){ line, file };
	} else if ((!strcmp(key, "iodepth_batch_complete_min") ||
		    !strcmp(key, "iodepth_batch_complete")) && !parse_uint(value, 0, UINT_MAX, &v)) {
		sec->reap_min = v;
		sec->reap_min_at = (struct fio_where){ line, file };
		sec->reap_min_key = !strcmp(key, "iodepth_batch_complete") ?
				    "iodepth_batch_complete" : "iodepth_batch_complete_min";
	}
	else if (!strcmp(key, "block_error_percentiles") && !parse_flag(value, true, &on))
		sec->block_error = on ? (struct fio_where){ line, file }
				      : (struct fio_where){ 0, NULL };
	if (!strcmp(key, "lat_percentiles")) {
		on = sec->nr_lat_pct_at;	/* a value whose first part fails keeps it */
		if (!parse_flag(value, true, &on))
			fio_where_add(sec->lat_pct_at, &sec->nr_lat_pct_at, !on, line, file);
	}
	if (!strcmp(key, "stats")) {
		on = !sec->no_stats;
		if (!parse_flag(value, true, &on))
			sec->no_stats = !on;
	}
}

/*
 * io_size=N%: fio 3.33's str_io_size_cb() takes 0..100 (0 is no io_size, the region, as
 * 100 is) and fails a larger one in its words; the bytes are known with the region
 * (fio_resolve_sizes()).
 */
static void fio_io_size_percent(struct fio_parser *p, struct fio_section *sec, const char *key,
				const char *value, long line, const char *file)
{
	char *end;
	unsigned long long pct;

	errno = 0;
	pct = strtoull(value, &end, 10);
	if (end == value || errno || *end != '%' || !isdigit((unsigned char)*value)) {
		fio_err(&p->errs, file, line, "%s: failed parsing %s=%s", key, key, value);
		return;
	}
	if (pct > 100) {
		fio_err(&p->errs, file, line, "%s: io_size values greater than 100%% aren't "
			"supported (fio: failed parsing %s=%s)", key, key, value);
		return;
	}
	sec->io_size_pct = pct == 100 ? 0 : (unsigned int)pct;
	sec->job.io_size = 0;
}

/*
 * Strided zones under random I/O are refused; without zonemode= the zone options would be
 * refused in turn (fixup_options(): "--zonemode=none and --zonesize are not compatible"), so
 * they are named with it, once each, as writes to zbd zones name theirs (fio_jobgen --wide
 * seeds 27028, 27073: named one at a time before).
 */
static void fio_err_once(struct fio_parser *p, const struct fio_pending *pend);

static void fio_strided_random(struct fio_parser *p, const struct fio_section *sec)
{
	static const char *const opt[] = { "zonesize", "zonerange", "zoneskip" };

	fio_err_once(p, &(struct fio_pending){ sec->zone_line, sec->zone_file ? sec->zone_file :
		sec->file, "zonemode", "strided zones with random I/O are not modelled" });
	for (int i = 0; i < 3; i++) {
		struct fio_pending pend = { sec->zone_opt_line[i], sec->file, "",
					    "an option of strided zones with random I/O, "
					    "which are not modelled" };

		snprintf(pend.option, sizeof(pend.option), "%s", opt[i]);
		if (pend.line && pend.line != sec->zone_line)
			fio_err_once(p, &pend);
	}
}

/* Whether @value is a number then '%' and nothing else, as fio's str_to_decimal() takes it. */
static bool fio_wrapped_percent(const char *value)
{
	size_t n = strspn(value, "0123456789");

	return n && value[n] == '%' && !value[n + 1];
}

/* One option of a section: modelled, no effect, deferred or refused; false: unknown. */
static bool fio_option_apply(struct fio_parser *p, struct fio_section *sec, const char *key,
			     const char *value, long line, const char *file)
{
	static const char *const job_keys[] = {
		"bs", "blocksize", "bsrange", "blocksize_range", "bssplit", "iodepth", "size",
		"offset", "prio", "prioclass", "rate", "rate_iops", "sync", "rwmixread",
		"rwmixwrite", "percentage_random", "random_distribution", "direct", "buffered",
		"ioengine", "io_size", "io_limit", "number_ios", "blockalign", "ba",
		"rate_process",
	};
	int nr_errs = p->errs.nr;
	char why[240];
	u64 v, v2;
	bool keep;

	value = fio_part_value(key, value, &keep);
	if (keep)
		return true;	/* fio read the line and set nothing: see fio_part_value() */
	fio_rate_option(sec, key, value, line, file);
	fio_fixup_option(sec, key, value, line, file);
	if (!strcmp(key, "ss") || !strcmp(key, "steadystate")) {
		fio_steadystate(p, sec, key, value, line, file);
		return true;
	}
	if (!strcmp(key, "ss_dur") || !strcmp(key, "steadystate_duration") ||
	    !strcmp(key, "ss_ramp") || !strcmp(key, "steadystate_ramp_time")) {
		fio_ss_time(p, sec, key, value, line, file);
		return true;
	}
	if (!strcmp(key, "fsync") || !strcmp(key, "fdatasync") || !strcmp(key, "end_fsync") ||
	    !strcmp(key, "fsync_on_close")) {
		fio_sync_option(p, sec, key, value, line, file);
		return true;
	}
	if (!strcmp(key, "create_serialize")) {
		bool on = !sec->create_serialize_off.line;

		/* a value fio fails is the no-effect check's, below */
		if (!parse_flag(value, true, &on))
			sec->create_serialize_off = on ? (struct fio_where){ 0, NULL }
						       : (struct fio_where){ line, file };
	}
	if (!strcmp(key, "group_reporting") && parse_flag(value, false, &sec->group_reporting))
		fio_err(&p->errs, file, line, "group_reporting: expected 0 or 1, not '%s'", value);
	if (!strcmp(key, "new_group") && parse_flag(value, false, &sec->new_group))
		fio_err(&p->errs, file, line, "new_group: expected 0 or 1, not '%s'", value);
	if (value && (!strcmp(key, "buffer_pattern") || !strcmp(key, "verify_pattern")))
		fio_pattern_check(p, key, value, line, file);
	if (no_effect_why(key)) {
		/* once a line: group_reporting's and the patterns' own checks came first */
		if (p->errs.nr == nr_errs && !fio_no_effect_value_ok(key, value) && value &&
		    fio_wrapped_percent(value))
			/*
			 * str_to_decimal() reads N% where no percentage goes as 2^64 - 1 - N and
			 * the option takes that (openfiles=50%: fio's log 18446744073709551565)
			 */
			fio_err(&p->errs, file, line, "%s: a percentage where fio takes none, read "
				"wrapped round (2^64 - 1 - N), is not modelled, not '%s'", key, value);
		else if (p->errs.nr == nr_errs && !fio_no_effect_value_ok(key, value))
			fio_err(&p->errs, file, line, "%s: failed parsing %s=%s", key, key, value);
		else if (value)
			fio_files_option(sec, key, value);
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fio_refused); i++) {
		if (!strcmp(key, fio_refused[i].name)) {
			if (!strcmp(key, "rate_process") && value && !strcmp(value, "linear"))
				return true;
			fio_err(&p->errs, file, line, "%s: %s", key, fio_refused[i].why);
			return true;
		}
	}
	if (!strcmp(key, "kb_base") &&
	    (!value || (strcmp(value, "1024") && strcmp(value, "1000")))) {
		/* fio's choices, whatever the engine (the job need not reach the disk) */
		fio_err(&p->errs, file, line, "kb_base: failed parsing kb_base=%s (1024 or 1000)",
			value ? value : "");
		return true;
	}
	if ((!strcmp(key, "nrfiles") || !strcmp(key, "nr_files")) &&
	    (!value || !fio_any_part_ok(&(const struct fio_no_effect_check){ "nrfiles",
					FIO_NE_INT, 0, 0, NULL }, value))) {
		/* a FIO_OPT_INT fio fails (nrfiles=-), with or without disk I/O (seed 27564) */
		fio_err(&p->errs, file, line, "%s: failed parsing %s=%s", key, key,
			value ? value : "");
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fio_disk_only); i++) {
		if (!strcmp(key, fio_disk_only[i].name)) {
			if ((!strcmp(key, "nrfiles") || !strcmp(key, "nr_files") ||
			     !strcmp(key, "kb_base")) && value &&
			    !strcmp(value, !strcmp(key, "kb_base") ? "1024" : "1")) {
				/* the later value wins, whichever of fio's names set it */
				fio_undefer(sec, strcmp(key, "kb_base") ? "nrfiles" : key);
				fio_undefer(sec, strcmp(key, "kb_base") ? "nr_files" : key);
				return true;
			}
			fio_defer(sec, line, file, key, fio_disk_only[i].why);
			return true;
		}
	}
	if (!strcmp(key, "rw") || !strcmp(key, "readwrite")) {
		if (!value)
			fio_err(&p->errs, file, line, "rw: needs a value");
		else
			fio_rw(p, sec, value, line, file);
		return true;
	}
	if (!strcmp(key, "ioprio")) {
		/* fio has no such option: its name is prio */
		fio_err(&p->errs, file, line, "Bad option <%s%s%s>: did you mean prio?", key,
			value ? "=" : "", value ? value : "");
		return true;
	}
	if ((!strcmp(key, "io_size") || !strcmp(key, "io_limit")) && value &&
	    strchr(value, '%')) {
		fio_io_size_percent(p, sec, key, value, line, file);
		return true;
	}
	if (!strcmp(key, "io_size") || !strcmp(key, "io_limit"))
		sec->io_size_pct = 0;	/* a size after a percentage: the later wins */
	if (!strcmp(key, "ioengine") && value && !strcmp(value, "libzbc")) {
		/* it cannot open the simulated disk: fio_libzbc() */
		sec->job.engine = KFSIM_ENGINE_SYNC;
		strcpy(sec->job.ioengine, value);
		return true;
	}
	if (!strcmp(key, "ioengine") && value && (!strcmp(value, "sg") ||
	    !strcmp(value, "io_uring_cmd") || !strcmp(value, "xnvme") ||
	    !strcmp(value, "e4defrag"))) {
		fio_err(&p->errs, file, line, "ioengine: %s is not modelled (%s)", value,
			strcmp(value, "e4defrag") ? "passthrough bypasses the I/O scheduler"
						  : "its extent moves");
		return true;
	}
	for (size_t i = 0; i < ARRAY_SIZE(job_keys); i++) {
		struct kfsim_bfq_job scratch;	/* a bs= after a range: checked, not taken */

		if (strcmp(key, job_keys[i]))
			continue;
		if (fio_is_bs(key) && sec->bs_range)
			scratch = sec->job;
		if (!value) {
			fio_err(&p->errs, file, line, "%s: Option %s requires an argument", key,
				key);
		} else if (fio_is_bs(key) && fio_odd_size(value)) {
			/* a network engine's 64-byte blocks: refused only with disk I/O */
			fio_defer(sec, line, file, key, "a block that is not a multiple of 512 "
				  "bytes (the sector) is not modelled with disk I/O");
			sec->job.bs = sec->job.bs_write = (unsigned int)fio_odd_size(value);
		} else if (kfsim_bfq_job_set(fio_is_bs(key) && sec->bs_range ? &scratch : &sec->job,
					     key, value, &sec->prioclass, why, sizeof(why))) {
			fio_err(&p->errs, file, line, "%s%s", why,
				p->line_unset_var ? " (an environment variable that is not set)"
						  : "");
		} else if (!strcmp(key, "bsrange") || !strcmp(key, "blocksize_range") ||
			   !strcmp(key, "bssplit")) {
			sec->bs_range = true;
		}
		return true;
	}
	if (!strcmp(key, "name")) {
		if (!value || !*value || strlen(value) >= sizeof(sec->job.name) - 4)
			fio_err(&p->errs, file, line, "name: 1 to 27 characters expected");
		else
			strcpy(sec->job.name, value);
	} else if (!strcmp(key, "thinktime")) {
		if (!value || parse_time(value, NSEC_PER_USEC, &v) || v > 10ULL * NSEC_PER_SEC)
			fio_err(&p->errs, file, line, "thinktime: expected a time up to 10s "
				"(microseconds without a unit), not '%s'", value ? value : "");
		else
			sec->job.thinktime_us = v / NSEC_PER_USEC;
	} else if (!strcmp(key, "thinktime_blocks")) {
		/* FIO_OPT_INT, fio's default 1; 0 pauses after every I/O, the first too */
		if (!value || parse_uint(value, 0, UINT_MAX, &v))
			fio_err(&p->errs, file, line, "thinktime_blocks: expected a count from 1, "
				"not '%s'", value ? value : "");
		else if (!v)
			fio_err(&p->errs, file, line, "thinktime_blocks: 0 (a pause after every I/O "
				"issued, the first too) is not modelled");
		else
			sec->job.thinktime_blocks = (unsigned int)v;
	} else if (!strcmp(key, "thinktime_iotime")) {
		/*
		 * FIO_OPT_INT with is_seconds: seconds without a unit, stored in an unsigned int
		 * of microseconds (no maxval: val_store() keeps the low 32 bits)
		 */
		if (!value || parse_time(value, NSEC_PER_SEC, &v))
			fio_err(&p->errs, file, line, "thinktime_iotime: expected a time (seconds "
				"without a unit), not '%s'", value ? value : "");
		else
			sec->job.thinktime_iotime_us = (unsigned int)(v / NSEC_PER_USEC);
	} else if (!strcmp(key, "rw_sequencer")) {
		static const char *const seqs[] = { "sequential", "identical", NULL };
		static const struct fio_no_effect_check c = {
			"rw_sequencer", FIO_NE_CHOICE, 0, 0, seqs };

		if (!value || !fio_choice_ok(&c, value)) {
			fio_err(&p->errs, file, line, "rw_sequencer: failed parsing rw_sequencer=%s "
				"(sequential or identical)", value ? value : "");
		} else {
			sec->job.rw_seq_identical = value[0] == 'i';
			sec->rw_seq_at = (struct fio_where){ line, file };
		}
	} else if (!strcmp(key, "thinktime_blocks_type")) {
		static const char *const types[] = { "complete", "issue", NULL };
		static const struct fio_no_effect_check c = {
			"thinktime_blocks_type", FIO_NE_CHOICE, 0, 0, types };

		if (!value || !fio_choice_ok(&c, value))
			fio_err(&p->errs, file, line, "thinktime_blocks_type: failed parsing "
				"thinktime_blocks_type=%s (complete or issue)", value ? value : "");
		else
			sec->job.thinktime_issue = value[0] == 'i';
	} else if (!strcmp(key, "startdelay")) {
		int parts = value ? fio_startdelay(value, &v, &v2) : -EINVAL;

		if (parts < 0)
			fio_err(&p->errs, file, line, "startdelay: expected a time or a range A-B "
				"(seconds without a unit), not '%s'", value ? value : "");
		else if (v2 && v2 < ((parts & 1) ? v : sec->job.startdelay_ns))
			/* fio's rand_between() of a range upside down: not modelled */
			fio_err(&p->errs, file, line, "startdelay: a range whose end (%s) comes "
				"before its start is not modelled", value);
		else {
			if (parts & 1)
				sec->job.startdelay_ns = v;
			/* no end (0, or one that failed): fio's fixed delay */
			sec->job.startdelay_max_ns = v2 ? v2 : sec->job.startdelay_ns;
		}
	} else if (!strcmp(key, "runtime") || !strcmp(key, "timeout")) {
		fio_run_time(p, file, line, key, value, &sec->job.runtime_ns); /* 0: no limit */
	} else if (!strcmp(key, "ramp_time")) {
		fio_run_time(p, file, line, "ramp_time", value, &sec->job.ramp_ns); /* 0: no ramp */
	} else if (!strcmp(key, "time_based")) {
		if (parse_flag(value, false, &sec->time_based))
			fio_err(&p->errs, file, line, "time_based: expected 0 or 1");
	} else if (!strcmp(key, "stonewall") || !strcmp(key, "wait_for_previous")) {
		if (parse_flag(value, false, &sec->stonewall))
			fio_err(&p->errs, file, line, "%s: expected 0 or 1", key);
	} else if (!strcmp(key, "exitall")) {
		/*
		 * fio 3.33's str_exitall_cb() sets the global exitall_on_terminate whatever the
		 * value (exitall=0 too): every job's exit then ends others (fio, null engine:
		 * [a] exitall=0 time_based 2 s, [b] 20 I/Os at 100 IOPS: a ended with b at 0.2 s)
		 */
		bool on;

		if (parse_flag(value, false, &on))
			fio_err(&p->errs, file, line, "exitall: expected 0 or 1");
		else
			p->exitall = true;
	} else if (!strcmp(key, "exitall_on_error")) {
		if (parse_flag(value, false, &sec->job.exitall_error))
			fio_err(&p->errs, file, line, "exitall_on_error: expected 0 or 1");
	} else if (!strcmp(key, "exit_what")) {
		/* a FIO_OPT_STR: its name up to ',' or ':' */
		static const char *const names[] = { "group", "stonewall", "all" };
		size_t len = value ? strcspn(value, ",:") : 0;
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (value && strlen(names[i]) == len && !strncmp(names[i], value, len))
				break;
		if (i == ARRAY_SIZE(names))
			fio_err(&p->errs, file, line, "exit_what: failed parsing exit_what=%s",
				value ? value : "");
		else
			sec->job.exit_what = (unsigned char)i;
	} else if (!strcmp(key, "fill_device") || !strcmp(key, "fill_fs")) {
		if (parse_flag(value, true, &sec->fill_device))
			fio_err(&p->errs, file, line, "%s: expected 0 or 1", key);
	} else if (!strcmp(key, "verify")) {
		/*
		 * fio 3.33's choices (options.c "verify", FIO_OPT_STR): "verify=" or a tab alone,
		 * or a name it lacks, fail its parse; kfsim took anything (fio_badgen seed 27013)
		 * and took verify=null for none
		 */
		static const char *const verify_names[] = { "0", "md5", "crc64", "crc32",
			"crc32c-intel", "crc32c", "crc16", "crc7", "sha1", "sha256", "sha512",
			"sha3-224", "sha3-256", "sha3-384", "sha3-512", "xxhash", "meta", "pattern",
			"null", NULL };
		static const struct fio_no_effect_check verify_check = {
			"verify", FIO_NE_CHOICE, 0, 0, verify_names };

		/* a FIO_OPT_STR: the whole value, up to ',' or ':' (verify=abc,md5 fails) */
		if (!value || !fio_choice_ok(&verify_check, value))
			fio_err(&p->errs, file, line, "verify: failed parsing verify=%s",
				value ? value : "");
		else	/* null pretends to check, but reads back (fio 3.33: 64 reads, 64 writes) */
			sec->job.verify = strcspn(value, ",:") != 1 || value[0] != '0';
	} else if (!strcmp(key, "verify_backlog")) {
		if (!value || parse_uint(value, 0, U64_MAX, &v))
			fio_err(&p->errs, file, line, "verify_backlog: expected a count of blocks, "
				"not '%s'", value ? value : "");
		else
			sec->job.verify_backlog = v;
	} else if (!strcmp(key, "do_verify")) {
		if (parse_flag(value, true, &sec->do_verify))
			fio_err(&p->errs, file, line, "do_verify: expected 0 or 1");
	} else if (!strcmp(key, "wait_for")) {
		if (!value || !*value || strlen(value) >= sizeof(sec->wait_for))
			fio_err(&p->errs, file, line, "wait_for: a job name expected");
		else
			strcpy(sec->wait_for, value);
	} else if (!strcmp(key, "filesize")) {
		struct kfsim_bfq_job tmp;
		unsigned int cls = 0;
		const char *dash = value ? strchr(value, '-') : NULL;

		/* a range "A-B": the files are at most B */
		kfsim_bfq_job_default(&tmp);
		if (value && strchr(value, '%'))
			/*
			 * fio reads N% as 2^64 - 1 - N bytes (fio_badgen seed 27283): its null
			 * engine runs, a file's ftruncate() fails
			 */
			fio_defer(sec, line, file, "filesize", "with disk I/O fio's run fails: a "
				  "percentage is 2^64 - 1 - N bytes to fio 3.33 (filesetup.c "
				  "ftruncate(): Invalid argument)");
		else if (!value || kfsim_bfq_job_set(&tmp, "io_size", dash ? dash + 1 : value,
						     &cls, why, sizeof(why)))
			fio_err(&p->errs, file, line, "filesize: expected a size or a range");
		else
			sec->filesize = sec->filesize_lo = tmp.io_size;
		if (dash && !strchr(value, '%') && dash > value) {
			char lo[64];

			snprintf(lo, sizeof(lo), "%.*s", (int)(dash - value), value);
			if (!kfsim_bfq_job_set(&tmp, "io_size", lo, &cls, why, sizeof(why)) &&
			    tmp.io_size <= sec->filesize)
				sec->filesize_lo = tmp.io_size;
		}
		if (value && !strchr(value, '%'))
			fio_undefer(sec, "filesize");	/* a later size wins */
	} else if (!strcmp(key, "loops")) {
		if (!value || parse_uint(value, 0, 1ULL << 32, &sec->loops))
			fio_err(&p->errs, file, line, "loops: expected a count, not '%s'",
				value ? value : "");
		else if (!sec->loops)
			sec->loops = 1;	/* fio 3.33 init.c fixup_options(): 0 loops is 1 */
		if (value)
			fio_where_add(sec->loops_at, &sec->nr_loops_at, sec->loops <= 1, line,
				      file);
	} else if (!strcmp(key, "offset_increment")) {
		struct kfsim_bfq_job tmp;
		unsigned int cls = 0;

		kfsim_bfq_job_default(&tmp);
		if (!value || kfsim_bfq_job_set(&tmp, "io_size", value, &cls, why, sizeof(why)))
			fio_err(&p->errs, file, line, "offset_increment: expected a size");
		else
			sec->offset_increment = tmp.io_size;
	} else if (!strcmp(key, "filename")) {
		if (!value || !*value || strlen(value) >= sizeof(sec->filename))
			fio_err(&p->errs, file, line, "filename: %s", value && *value ?
				"a name over 127 characters is not modelled" :
				"1 to 127 characters expected");
		else if ((v = fio_filenames(value, sec->filename, sizeof(sec->filename))) > 1) {
			/*
			 * with disk I/O only: a network engine's names are not files.  The
			 * names are the job's files (options.c str_filename_cb(): nr_files is
			 * their count), as nrfiles= makes them: kept if the files are modelled
			 */
			fio_defer(sec, line, file, "filename", "several files per job (a:b) are "
				  "not modelled");
			snprintf(sec->filelist, sizeof(sec->filelist), "%s", value);
			sec->listed = (unsigned int)v;
			sec->nrfiles = v;
		} else {
			fio_undefer(sec, "filename");
			sec->filelist[0] = '\0';
			sec->listed = 0;
		}
	} else if (!strcmp(key, "numjobs")) {
		if (value && !parse_uint(value, 0, 0, &v))
			/* init.c add_job(): --numjobs from 0 clones until fio's job table is full */
			fio_err(&p->errs, file, line, "numjobs: 0: fio's run fails with it (\"error: "
				"maximum number of jobs reached\")");
		else if (value && !parse_uint(value, KFSIM_BFQ_MAX_JOBS + 1, U64_MAX, &v))
			/* fio reads it (its run may fail later): a limit of kfsim's, said so */
			fio_err(&p->errs, file, line, "numjobs: more than %d jobs (kfsim simulates "
				"%d at most), not '%s'", KFSIM_BFQ_MAX_JOBS, KFSIM_BFQ_MAX_JOBS, value);
		else if (!value || parse_uint(value, 1, KFSIM_BFQ_MAX_JOBS, &v))
			fio_err(&p->errs, file, line, "numjobs: expected 1 to %d, not '%s'",
				KFSIM_BFQ_MAX_JOBS, value ? value : "");
		else
			sec->numjobs = (unsigned int)v;
	} else if (!strcmp(key, "cgroup")) {
		if (!value || !*value || strlen(value) >= sizeof(sec->job.cgroup))
			fio_err(&p->errs, file, line, "cgroup: 1 to 31 characters expected");
		else
			strcpy(sec->job.cgroup, value);
	} else if (!strncmp(key, "cmdprio", 7) && (!key[7] || !strcmp(key, "cmdprio_class") ||
						  !strcmp(key, "cmdprio_percentage") ||
						  !strcmp(key, "cmdprio_bssplit"))) {
		if (fio_cmdprio_check(key, value, why, sizeof(why)))
			fio_err(&p->errs, file, line, "%s: %s", key, why);
		sec->job.cmdprio = true;
		if (!sec->cmdprio_line)
			sec->cmdprio_line = line;
	} else if (!strcmp(key, "zonemode")) {
		if (value && !strcmp(value, "none"))
			sec->zonemode = 0;
		else if (value && !strcmp(value, "strided"))
			sec->zonemode = 1;
		else if (value && !strcmp(value, "zbd"))
			sec->zonemode = 2;	/* refused, with its zone options, at the job's end */
		else
			fio_err(&p->errs, file, line, "zonemode: expected none, strided or zbd, "
				"not '%s'", value ? value : "");
		sec->zone_line = line;
		sec->zone_file = file;
		sec->zone_here = true;
	} else if (!strcmp(key, "zonesize") || !strcmp(key, "zonerange") ||
		   !strcmp(key, "zoneskip")) {
		struct kfsim_bfq_job tmp;
		unsigned int cls = 0;

		kfsim_bfq_job_default(&tmp);
		if (!value || kfsim_bfq_job_set(&tmp, "io_size", value, &cls, why, sizeof(why)) ||
		    tmp.io_size % SECTOR_SIZE) {
			fio_err(&p->errs, file, line, "%s: expected a size in whole sectors, not "
				"'%s'", key, value ? value : "");
			sec->zone_size_refused |= !strcmp(key, "zonesize");
		} else if (!strcmp(key, "zonesize")) {
			sec->job.zone_size = tmp.io_size;
			sec->zone_size_refused = false;
		}
		else if (!strcmp(key, "zonerange"))
			sec->job.zone_range = tmp.io_size;
		else
			sec->job.zone_skip = tmp.io_size;
		sec->zone_opt_line[!strcmp(key, "zonesize") ? 0 : !strcmp(key, "zonerange") ? 1 : 2] =
			line;
		if (!sec->zone_line) {
			sec->zone_line = line;
			sec->zone_file = file;
		}
	} else if (!strcmp(key, "flow") || !strcmp(key, "flow_id") ||
		   !strcmp(key, "flow_sleep")) {
		if (!value || parse_uint(value, 0, INT_MAX, &v))
			fio_err(&p->errs, file, line, "%s: expected a count from 0 (negative flow "
				"weights are not modelled), not '%s'", key, value ? value : "");
		else if (!strcmp(key, "flow") && v > 1000)
			/* fio 3.33's maxval, FLOW_MAX_WEIGHT */
			fio_err(&p->errs, file, line, "flow: max value out of range: %llu (1000 max)",
				(unsigned long long)v);
		else if (!strcmp(key, "flow"))
			sec->job.flow = (unsigned int)v;
		else if (!strcmp(key, "flow_id"))
			sec->job.flow_id = (unsigned int)v;
		else
			sec->job.flow_sleep_us = (unsigned int)v;
	} else if (!strcmp(key, "latency_target") || !strcmp(key, "latency_window")) {
		/* microseconds without a unit, as fio */
		if (!value || parse_time(value, NSEC_PER_USEC, &v))
			fio_err(&p->errs, file, line, "%s: failed parsing %s=%s", key, key,
				value ? value : "");
		else if (!strcmp(key, "latency_window"))
			sec->job.latency_window_ns = v;
		else {
			sec->job.latency_target_ns = v;
			sec->latency_line = line;
		}
	} else if (!strcmp(key, "latency_percentile")) {
		char *end = NULL;
		double pct = value ? strtod(value, &end) : 0;

		if (!value || end == value || *end)
			fio_err(&p->errs, file, line, "latency_percentile: failed parsing "
				"latency_percentile=%s",
				value ? value : "");
		else if (pct < 0 || pct > 100)
			fio_err(&p->errs, file, line, "latency_percentile: value out of range: %f "
				"(range %s: %s)", pct, pct < 0 ? "min" : "max",
				pct < 0 ? "0.000000" : "100.000000");
		else
			sec->job.latency_percentile = pct;
	} else if (!strcmp(key, "latency_run")) {
		if (parse_flag(value, true, &sec->job.latency_run))
			fio_err(&p->errs, file, line, "latency_run: expected 0 or 1");
	} else if (!strcmp(key, "max_open_zones")) {
		/* fio's range (ZBD_MAX_OPEN_ZONES); it limits zoned writes, refused below */
		if (!value || parse_uint(value, 0, U64_MAX, &v))
			fio_err(&p->errs, file, line, "max_open_zones: failed parsing "
				"max_open_zones=%s", value ? value : "");
		else if (v > 4096)
			fio_err(&p->errs, file, line, "max_open_zones: max value out of range: %llu "
				"(4096 max)", (unsigned long long)v);
		else
			sec->max_open_zones = (unsigned int)v;
		sec->max_open_zones_line = line;
	} else if (!strcmp(key, "read_beyond_wp")) {
		if (parse_flag(value, true, &sec->read_beyond_wp))
			fio_err(&p->errs, file, line, "read_beyond_wp: expected 0 or 1");
	} else if (!strcmp(key, "continue_on_error")) {
		fio_continue_on_error(p, sec, value, line, file);
	} else if (!strcmp(key, "ignore_error")) {
		fio_ignore_error(p, sec, value, line, file);
	} else if (!strcmp(key, "cgroup_weight")) {
		/* fio's range is blkio's, 100..1000: "cgroup_weight: min value out of range" */
		if (!value || parse_uint(value, 0, U64_MAX, &v))
			fio_err(&p->errs, file, line, "cgroup_weight: failed parsing cgroup_weight=%s",
				value ? value : "");
		else if (v < 100)
			fio_err(&p->errs, file, line, "cgroup_weight: min value out of range: %llu "
				"(100 min)", (unsigned long long)v);
		else if (v > 1000)
			fio_err(&p->errs, file, line, "cgroup_weight: max value out of range: %llu "
				"(1000 max)", (unsigned long long)v);
		else
			sec->cgroup_weight = (unsigned int)v;
	} else {
		fio_unknown_option(p, sec, key, value, line, file);
		return false;
	}
	return true;
}

/*
 * One option line.  A bare option that fio does not take bare fails under fio ("Option
 * direct requires an argument"), also where kfsim would read it (a flag, an option without
 * effect): named once, unless its own check named it already.
 */
static void fio_engine_opt_note(struct fio_section *sec, const char *key, const char *value,
				long line, const char *file);

/*
 * The options that seed fio's generators, once fio_option_apply() took their value (they
 * change no I/O but a mixed job's directions, kfsim_bfq_rwmix_next()): randrepeat and
 * allrandrepeat (FIO_OPT_BOOL) and randseed (FIO_OPT_STR_VAL, a number with fio's units;
 * only the first part, up to a ',', is stored).
 */
static void fio_seed_option(struct fio_section *sec, const char *key, const char *value)
{
	char buf[64];
	long long v;

	if (!strcmp(key, "norandommap"))
		parse_flag(value, false, &sec->norandommap);
	if (!value)
		return;
	if (!strcmp(key, "random_generator"))
		sec->rand64 = !strncmp(value, "tausworthe64", 12);	/* str_match_len() */
	else if (!strcmp(key, "randrepeat"))
		parse_flag(value, true, &sec->randrepeat);
	else if (!strcmp(key, "allrandrepeat"))
		parse_flag(value, true, &sec->allrandrepeat);
	else if (!strcmp(key, "randseed")) {
		snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(value, ","), value);
		if (fio_signed_number(buf, &v)) {
			sec->randseed = (u64)v;
			sec->randseed_set = true;
		}
	}
}

static void fio_option(struct fio_parser *p, struct fio_section *sec, const char *key,
		       const char *value, long line, const char *file)
{
	int nr_errs = p->errs.nr;
	unsigned int nr_engine_opts = sec->nr_engine_opts;

	fio_engine_opt_note(sec, key, value, line, file);
	if (fio_option_apply(p, sec, key, value, line, file) && !value &&
	    !fio_takes_bare(key) && p->errs.nr == nr_errs)
		fio_err(&p->errs, file, line, "%s: Option %s requires an argument", key, key);
	/*
	 * one line, one problem: an engine's option refused as it was read (donorname, whose
	 * e4defrag moves extents) is not named again for its engine at the section's end
	 */
	if (sec->nr_engine_opts > nr_engine_opts && p->errs.nr != nr_errs)
		sec->engine_opts[nr_engine_opts].named = true;
	if (p->errs.nr == nr_errs)
		fio_seed_option(sec, key, value);
}

/* Where the job's data lives: the disk, no disk (/dev/null), or a file of its own. */
static bool fio_is_device(const char *name)
{
	return !strncmp(name, "/dev/", 5);
}

/* Whether a filename=a:b list names a device (a name that starts with /dev/). */
static bool fio_list_has_device(const char *list)
{
	for (const char *c = list; *c; c++) {
		if ((c == list || (c[-1] == ':' && (c - 1 == list || c[-2] != '\\'))) &&
		    fio_is_device(c))
			return true;
	}
	return false;
}

static bool fio_is_nowhere(const char *name)
{
	return !strcmp(name, "/dev/null") || !strcmp(name, "/dev/zero");
}

static void fio_err_once(struct fio_parser *p, const struct fio_pending *pend)
{
	for (unsigned int i = 0; i < p->nr_reported; i++) {
		if (p->reported[i].line == pend->line && p->reported[i].file == pend->file)
			return;
	}
	if (p->nr_reported < ARRAY_SIZE(p->reported))
		p->reported[p->nr_reported++] = (typeof(p->reported[0])){ pend->file, pend->line };
	fio_err(&p->errs, pend->file, pend->line, "%s: %s", pend->option, pend->why);
}

/*
 * A job that trims with disk I/O: its first trim fails (struct kfsim_bfq_job's io_error),
 * -EOPNOTSUPP on the disk itself (no discard), -ENOTTY on a file (no BLKDISCARD).  fio goes
 * on after it only when continue_on_error covers writes (a trim's error is a write error,
 * td_error_type()) and the write list of ignore_error holds it (without one, only EIO and
 * EILSEQ are ignored): then fio would retry failing trims at CPU speed, which is refused.
 */
static void fio_trim_error(struct fio_parser *p, const struct fio_section *sec,
			   struct kfsim_bfq_job *job)
{
	bool device = fio_is_device(sec->filename);
	int err = device ? EOPNOTSUPP : ENOTTY;

	if ((sec->continue_on_error & FIO_ERR_WRITE) && sec->write_errs_listed &&
	    sec->ignores_trim_err[device]) {
		fio_err_once(p, &(struct fio_pending){ sec->trim_line, sec->file, "rw",
			device ? "the trims fail (EOPNOTSUPP: the disk has no discard) and "
				 "ignore_error goes on after them: failing trims in a loop are "
				 "not modelled"
			       : "the trims fail (ENOTTY: a file has no BLKDISCARD) and "
				 "ignore_error goes on after them: failing trims in a loop are "
				 "not modelled" });
		return;
	}
	job->io_error = -err;
}

/*
 * ioengine=libzbc (fio 3.33 engines/libzbc.c) drives zoned SCSI and ATA disks through libzbc,
 * whose zbc_open() takes only a zoned disk: its SCSI and ATA back ends answer -ENXIO for a
 * standard one such as the simulated disk (libzbc 5.x and 6.x), and fio's engine refuses a
 * regular file (-EINVAL, "ioengine libzbc only works on block or character devices").  The
 * open fails as fio sizes the job's file (get_file_sizes()), before its zones are set up, so
 * the job ends having done no I/O.
 */
static void fio_libzbc(const struct fio_section *sec, struct kfsim_bfq_job *job)
{
	job->io_error = fio_is_device(sec->filename) ? -ENXIO : -EINVAL;
}

/*
 * zonemode=zbd on the simulated disk, which is not zoned: fio 3.33 then emulates sequential
 * zones of zonesize, all empty (zbd.c init_zone_info(), "to execute a ZBD workload against a
 * non-ZBD device").  A read goes anywhere with read_beyond_wp=1; without, it looks for a zone
 * with written data (zbd_adjust_block(), zbd_find_zone()), finds none and the job ends with
 * nothing read.  Writes at the emulated write pointers, the open-zone limits and zone resets
 * are not modelled: a job that writes is refused.
 */
/*
 * Jobs of one named file share its emulated zones: the first zbd job's zone size and
 * max_open_zones are the file's, and fio 3.33's run fails a later job whose zonesize differs
 * (zbd_zone_align_file_sizes(): "zonesize N does not match the device zone size M") or
 * whose max_open_zones, when given, differs ("Different 'max_open_zones' values"); fio's
 * run, 2026-12-08: kfsim read both.
 */
static void fio_zoned_file_check(struct fio_parser *p, const struct fio_section *sec,
				 const struct kfsim_bfq_job *job)
{
	struct fio_zoned_file *z = NULL;

	if (!sec->filename[0] || sec->listed)
		return;	/* the job's own file, which no other job names, or several */
	for (unsigned int i = 0; i < p->nr_zoned && !z; i++)
		if (!strcmp(p->zoned[i].name, sec->filename))
			z = &p->zoned[i];
	if (!z) {
		if (p->nr_zoned == ARRAY_SIZE(p->zoned))
			return;
		z = &p->zoned[p->nr_zoned++];
		snprintf(z->name, sizeof(z->name), "%s", sec->filename);
		z->zone_size = job->zone_size;
		z->max_open_zones = sec->max_open_zones;
		return;
	}
	char why[400];
	static const char *const opt[] = { "zonesize", "zonerange", "zoneskip", "max_open_zones" };

	if (job->zone_size != z->zone_size)
		snprintf(why, sizeof(why), "%s: zonesize %llu does not match the device zone size "
			 "%llu (an earlier job's): fio's run fails", sec->filename,
			 (unsigned long long)job->zone_size, (unsigned long long)z->zone_size);
	else if (sec->max_open_zones && sec->max_open_zones != z->max_open_zones)
		snprintf(why, sizeof(why), "max_open_zones %u, an earlier job's of %s %u: fio's "
			 "run fails (\"Different 'max_open_zones' values\")", sec->max_open_zones,
			 sec->filename, z->max_open_zones);
	else
		return;
	/* without zonemode=zbd its zone options would be refused in turn: all named at once */
	fio_err_once(p, &(struct fio_pending){ sec->zone_line, sec->zone_file ? sec->zone_file :
		sec->file, "zonemode", why });
	for (int i = 0; i < 4; i++) {
		struct fio_pending pend = { i < 3 ? sec->zone_opt_line[i] : sec->max_open_zones_line,
					    sec->file, "", "an option of zbd zones that differ from "
					    "their file's, which fio's run fails" };

		snprintf(pend.option, sizeof(pend.option), "%s", opt[i]);
		if (pend.line && pend.line != sec->zone_line)
			fio_err_once(p, &pend);
	}
}

static void fio_zbd(struct fio_parser *p, struct fio_section *sec, struct kfsim_bfq_job *job)
{
	bool reads = job->rw == KFSIM_RW_READ || job->rw == KFSIM_RW_RANDREAD;

	if (job->engine == KFSIM_ENGINE_NONE || job->io_error)
		return;	/* no disk I/O, or the job fails before its zones are set up */
	/*
	 * A job whose zonemode=zbd is its [global]'s is named by its header: the [global]'s
	 * line serves its other jobs too, which may give zonesize= (without the line they would
	 * be refused in turn: fio_badgen seed 8108)
	 */
	if (!job->zone_size) {
		if (!sec->zone_here)
			fio_err(&p->errs, sec->file, sec->line, "zonemode: job '%s': Specifying the "
				"zone size is mandatory for regular file/block device with "
				"--zonemode=zbd (zonemode=zbd of %s:%ld)", job->name,
				sec->zone_file ? sec->zone_file : "", sec->zone_line);
		else
			fio_err_once(p, &(struct fio_pending){ sec->zone_line, sec->zone_file,
				"zonemode", "Specifying the zone size is mandatory for regular "
				"file/block device with --zonemode=zbd" });
		return;
	}
	fio_zoned_file_check(p, sec, job);
	if (!reads) {
		static const char *const opt[] = { "zonesize", "zonerange", "zoneskip",
						   "max_open_zones" };

		fio_err_once(p, &(struct fio_pending){ sec->zone_line, sec->file, "zonemode",
			"writes to zones (fio's write pointers, open zones and resets on emulated "
			"zones) are not modelled" });
		/* without zonemode=zbd they would be refused in turn: named now, all at once */
		for (int i = 0; i < 4; i++) {
			struct fio_pending pend = { i < 3 ? sec->zone_opt_line[i]
							  : sec->max_open_zones_line, sec->file, "",
						    "an option of writes to zbd zones, which are "
						    "not modelled" };

			snprintf(pend.option, sizeof(pend.option), "%s", opt[i]);
			if (pend.line)
				fio_err_once(p, &pend);
		}
		return;
	}
	job->eof_at_start = !sec->read_beyond_wp;
	job->zone_size = job->zone_range = job->zone_skip = 0;	/* not strided */
}

/* A job section ended: check what depends on its engine and add its numjobs copies. */
/*
 * A job with steady-state detection: fio's default criterion (iops_slope:0.01%) when only a
 * window was given; a job without disk I/O runs at the CPU's rate and a reporting group is
 * judged on its summed rate, neither of which kfsim models.
 */
static void fio_ss_check(struct fio_parser *p, const struct fio_section *sec,
			 struct kfsim_bfq_job *job)
{
	if (!job->ss_state) {
		job->ss_state = KFSIM_SS_IOPS | KFSIM_SS_SLOPE | KFSIM_SS_PCT;
		job->ss_limit = 0.01;
	}
	if (job->engine == KFSIM_ENGINE_NONE)
		fio_err(&p->errs, sec->file, sec->ss_line, "ss_dur: steady state of a job "
			"without disk I/O (its rate is the CPU's) is not modelled");
	if (sec->group_reporting)
		fio_err(&p->errs, sec->file, sec->ss_line, "ss_dur: steady state of a "
			"reporting group (group_reporting) is not modelled");
}

/*
 * fio's reporting groups (init.c add_job(): stonewall or new_group starts one once the last
 * has a job) must agree on steady state, with group_reporting or not: td_steadystate_init()
 * rejects a job whose window, limit, ramp or criterion differs from an earlier job's of its
 * group (fio 3.33 compares them all set or all zero: a job without a window has none).
 */
static void fio_ss_group(struct fio_parser *p, const struct fio_section *sec,
			 const struct kfsim_bfq_job *job)
{
	const struct kfsim_bfq_job *first;
	bool has = job->ss_dur_s, first_has;

	if ((sec->stonewall || sec->new_group) && p->group_jobs)
		p->group_jobs = 0;
	if (!p->group_jobs) {
		p->group_first = p->nr;
		return;
	}
	first = &p->jobs[p->group_first];
	first_has = first->ss_dur_s;
	if (has != first_has || (has && (job->ss_dur_s != first->ss_dur_s ||
					 job->ss_limit != first->ss_limit ||
					 job->ss_ramp_ns / 1000 != first->ss_ramp_ns / 1000 ||
					 job->ss_state != first->ss_state)))
		fio_err(&p->errs, sec->file, sec->ss_line ? sec->ss_line : sec->line,
			"job rejected: steadystate options must be consistent within reporting "
			"groups (job '%s' and job '%s')", first->name, job->name);
}

static u64 fio_rate_of(u64 rate)
{
	return rate == U64_MAX ? 0 : rate;
}

/*
 * fio 3.33's fixup_options() (init.c), as a job is added for the run (--parse-only stops
 * before it): rate= and rate_iops= together fail, and so do rate_min= and rate_iops_min=
 * ("fio: rate and rate_iops are mutually exclusive"), and a direction's minimum over its
 * cap ("fio: minimum rate exceeds rate, ddir N").  Named by the later option's lines
 * (fio_rate_later()); the earlier stays, as the file without the lines named has it.
 */
/* Every line that set rate option @which (fio_rate_keys[]), once each. */
static void fio_rate_err(struct fio_parser *p, const struct fio_section *sec, int which,
			 const char *why)
{
	for (unsigned int i = 0; i < sec->nr_rate_at[which]; i++) {
		struct fio_pending pend = { sec->rate_at[which][i].line,
					    sec->rate_at[which][i].file, "", why };

		snprintf(pend.option, sizeof(pend.option), "%s", fio_rate_keys[which][0]);
		fio_err_once(p, &pend);	/* once: a [global]'s lines serve all its jobs */
	}
}

/* Of the exclusive pair @i, @i + 1 (rate, rate_iops; their minimums), the one set later. */
static int fio_rate_later(const struct fio_section *sec, int i)
{
	const struct fio_where *a = &sec->rate_at[i][sec->nr_rate_at[i] - 1];
	const struct fio_where *b = &sec->rate_at[i + 1][sec->nr_rate_at[i + 1] - 1];

	return a->file == b->file && a->line > b->line ? i : i + 1;
}

static void fio_rate_check(struct fio_parser *p, const struct fio_section *sec,
			   const struct kfsim_bfq_job *job)
{
	u64 cap[2][2] = {
		{ fio_rate_of(job->rate), fio_rate_of(job->rate_write) },
		{ fio_rate_of(job->rate_iops), fio_rate_of(job->rate_iops_write) },
	};
	bool set[4] = { cap[0][0] || cap[0][1], cap[1][0] || cap[1][1],
			sec->rate_min[0][0] || sec->rate_min[0][1],
			sec->rate_min[1][0] || sec->rate_min[1][1] };

	for (int i = 0; i < 4; i += 2) {
		if (!set[i] || !set[i + 1] || !sec->nr_rate_at[i] || !sec->nr_rate_at[i + 1])
			continue;
		fio_rate_err(p, sec, fio_rate_later(sec, i), i ? "with rate_min and rate_iops_min "
			     "both, fio's run fails (fixup_options(): \"rate and rate_iops are "
			     "mutually exclusive\")" : "with rate and rate_iops both, fio's run "
			     "fails (fixup_options(): \"rate and rate_iops are mutually "
			     "exclusive\")");
	}
	for (int kind = 0; kind < 2; kind++) {
		for (int d = 0; d < 2; d++) {
			if (cap[kind][d] && cap[kind][d] < sec->rate_min[kind][d])
				fio_rate_err(p, sec, kind + 2, "over the rate: fio's run fails "
					     "(fixup_options(): \"minimum rate exceeds rate\")");
		}
	}
}

/*
 * fio 3.33's fixup_options() (init.c) as the run starts, which --parse-only skips: the
 * dedupe working set (dedupe_mode=working_set with a dedupe_percentage) needs size=, one
 * file, and dedupe_percentage + dedupe_working_set_percentage (default 5) at most 100; the
 * block error histogram (block_error_percentiles) needs one file.  fio fails the job with
 * its message; kfsim refuses the line that asks for it.
 */
static void fio_fixup_check(struct fio_parser *p, const struct fio_section *sec)
{
	u64 nrfiles = sec->nrfiles ? sec->nrfiles : 1;
	u64 ws_pct = sec->dedupe_ws_pct1 ? sec->dedupe_ws_pct1 - 1 : 5;
	const char *why = NULL;

	if (sec->dedupe_ws.line && sec->dedupe_pct) {
		if (!sec->job.size && sec->job.size_frac < 0)	/* size= itself, not filesize= */
			why = "with a dedupe_percentage, fio's run fails (fixup_options(): "
			      "\"pregenerated dedupe working set requires size to be set\")";
		else if (nrfiles != 1)
			why = "with a dedupe_percentage, fio's run fails (fixup_options(): "
			      "\"dedupe working set mode supported with single file per job\")";
		else if (ws_pct + sec->dedupe_pct > 100)
			why = "with a dedupe_percentage, fio's run fails (fixup_options(): "
			      "\"impossible to reach expected dedupe percentage\")";
		if (why)
			fio_err_once(p, &(struct fio_pending){ sec->dedupe_ws.line,
				sec->dedupe_ws.file, "dedupe_mode", why });
	}
	if (sec->block_error.line && nrfiles != 1)
		fio_err_once(p, &(struct fio_pending){ sec->block_error.line, sec->block_error.file,
			"block_error_percentiles", "with several files, fio's run fails "
			"(fixup_options(): \"block error histogram only available with a single "
			"file per job\")" });
}

/*
 * rate_process=poisson in a job with a rate or a minimum rate (fio 3.33 sets TD_F_CHECK_RATE
 * when any direction has one, option_check_rate()): after each I/O, usec_for_io()
 * (backend.c) divides 1000000 by the direction's rate in blocks a second, its bytes a second
 * (rate=, else rate_iops= x its smallest block) over its smallest block.  A direction the job
 * issues whose rate is under one block a second (none given, or rate=100 with bs=4k) divides
 * by zero: fio's job dies of SIGFPE ("got signal=8"; fio 3.33 with ioengine=null,
 * rw=randrw, rate=,1m, 2026-12-07).  Refused, naming the line.
 */
/*
 * The caps a poisson job is judged by: with rate= and rate_iops= both (refused, naming the
 * later's lines), the earlier's, which the file without the lines named keeps: judged with
 * both, rate=,4m beside rate_iops=50,200 passed, and without the rate_iops lines its
 * uncapped reads failed in a second round (fio_jobgen --wide seed 27031).
 */
static void fio_rate_left(const struct fio_section *sec, struct kfsim_bfq_job *job)
{
	if (!(fio_rate_of(job->rate) || fio_rate_of(job->rate_write)) ||
	    !(fio_rate_of(job->rate_iops) || fio_rate_of(job->rate_iops_write)) ||
	    !sec->nr_rate_at[0] || !sec->nr_rate_at[1])
		return;
	if (fio_rate_later(sec, 0) == 0)
		job->rate = job->rate_write = 0;
	else
		job->rate_iops = job->rate_iops_write = 0;
}

static void fio_poisson_check(struct fio_parser *p, const struct fio_section *sec,
			      const struct kfsim_bfq_job *job)
{
	bool mixed = kfsim_bfq_job_is_mixed(job);
	bool issues[2] = {
		/* do_verify()'s pass after the writes asks no rate; verify_backlog's reads do */
		job->rw == KFSIM_RW_READ || job->rw == KFSIM_RW_RANDREAD ||
			(job->verify && job->verify_backlog) || (mixed && job->rwmixread > 0),
		job->rw == KFSIM_RW_WRITE || job->rw == KFSIM_RW_RANDWRITE ||
			(mixed && job->rwmixread < 100),
	};

	if (!kfsim_bfq_job_rate_bps(job, false) && !kfsim_bfq_job_rate_bps(job, true) &&
	    !sec->rate_min[0][0] && !sec->rate_min[0][1] && !sec->rate_min[1][0] &&
	    !sec->rate_min[1][1])
		return;	/* no rate nor minimum (option_check_rate()): no usec_for_io() */
	for (int write = 0; write < 2; write++) {
		if (!issues[write] || kfsim_bfq_job_rate_bps(job, write) /
				      max(kfsim_bfq_job_min_bs(job, write), 1u))
			continue;
		fio_rate_err(p, sec, 4, write ?
			     "poisson with writes under one block a second: fio's run fails "
			     "(usec_for_io() divides by zero: SIGFPE)" :
			     "poisson with reads under one block a second: fio's run fails "
			     "(usec_for_io() divides by zero: SIGFPE)");
		return;
	}
}

/*
 * fio 3.33's verify_per_group_options() (init.c), as a job with group_reporting is added to
 * a reporting group that has jobs already (--parse-only stops before): with its stats on,
 * its lat_percentiles must be every other job's of the group, or fio's run fails ("fio:
 * lat_percentiles in job: b differs from group").  Every line of the group that turned
 * lat_percentiles on is named: without them they all agree.
 */
static void fio_lat_pct_group(struct fio_parser *p, const struct fio_section *sec)
{
	bool mine = sec->nr_lat_pct_at, differs = false;

	if (!sec->group_reporting || sec->no_stats || !p->group_jobs)
		return;
	for (unsigned int j = p->group_first; j < p->nr; j++)
		differs |= (bool)p->nr_lat_pct_at[j] != mine;
	if (!differs)
		return;
	for (unsigned int j = p->group_first; j <= p->nr; j++) {
		const struct fio_where *at = j < p->nr ? p->lat_pct_at[j] : sec->lat_pct_at;
		unsigned int nr = j < p->nr ? p->nr_lat_pct_at[j] : sec->nr_lat_pct_at;

		for (unsigned int i = 0; i < nr; i++)
			fio_err_once(p, &(struct fio_pending){ at[i].line, at[i].file,
				"lat_percentiles", "differs within a reporting group "
				"(group_reporting): fio's run fails "
				"(verify_per_group_options())" });
	}
}

/*
 * How a full queue refills: fio 3.33's wait_for_completions() reaps at least
 * min(iodepth_batch_complete_min, its depth) completions a round, and rounds until no more
 * than iodepth_low are in flight (fixup_options(): 0 or over iodepth is iodepth), before
 * it queues again: the job's @iodepth_low and @reap_min (blk_sim.c job_drain_starts()).
 * kfsim refused a low mark under the depth and rounds over 1 until 2026-12-08.  Not
 * modelled with them: a think time (fio asks for its pause after the drain) and a latency
 * target (its depth moves under the low mark).
 */
static void fio_refill(struct fio_parser *p, const struct fio_section *sec,
		       struct kfsim_bfq_job *job)
{
	u64 depth = kfsim_bfq_job_depth(job);
	const char *with = job->thinktime_us ? "thinktime" :
			   job->latency_target_ns ? "latency_target" : NULL;

	job->iodepth_low = (unsigned int)min(sec->depth_low, (u64)UINT_MAX);
	job->reap_min = (unsigned int)min(sec->reap_min, (u64)UINT_MAX);
	if (depth < 2 || !with)
		return;	/* one I/O in flight: nothing to refill in rounds */
	if (sec->depth_low && sec->depth_low < depth)
		fio_err_once(p, &(struct fio_pending){ sec->depth_low_at.line,
			sec->depth_low_at.file, "iodepth_low", with[0] == 't' ?
			"a queue drained to iodepth_low with thinktime (fio asks for its pause "
			"after the drain) is not modelled" :
			"a queue drained to iodepth_low with latency_target (its depth moves under "
			"the mark) is not modelled" });
	if (sec->reap_min > 1) {
		struct fio_pending pend = { sec->reap_min_at.line, sec->reap_min_at.file, "",
					    with[0] == 't' ?
					    "completions reaped in rounds with thinktime (fio asks "
					    "for its pause after the rounds) are not modelled" :
					    "completions reaped in rounds with latency_target (its "
					    "depth moves) are not modelled" };

		snprintf(pend.option, sizeof(pend.option), "%s", sec->reap_min_key);
		fio_err_once(p, &pend);
	}
}

/*
 * rw_sequencer=identical (fio 3.33 get_next_block()): a random job with rw=...:N repeats its
 * direction's last offset between its random draws, modelled; what is not: block sizes drawn
 * from a range or a split (fio draws a length again until one fits there, io_u_fits()) and a
 * verify pass (its read-back replays the writes' draws).
 */
static void fio_rw_seq_check(struct fio_parser *p, const struct fio_section *sec,
			     const struct kfsim_bfq_job *job)
{
	const char *why = NULL;

	if (!job->rw_seq_identical || job->ddir_seq_nr < 2 || !kfsim_bfq_job_is_random(job))
		return;	/* no offset is repeated */
	if (sec->bs_range)
		why = "identical offsets with block sizes drawn from a range or a split are not "
		      "modelled (fio draws a length again until one fits there)";
	else if (job->verify)
		why = "identical offsets with verify are not modelled";
	if (why)
		fio_err_once(p, &(struct fio_pending){ sec->rw_seq_at.line, sec->rw_seq_at.file,
						       "rw_sequencer", why });
}

/*
 * Several files per job (nrfiles above 1) with disk I/O: what of them kfsim does not model,
 * or NULL.  The reason goes to every nrfiles= line (the file without them is read).
 */
static const char *fio_files_why(const struct fio_section *sec, const struct kfsim_bfq_job *job)
{
	if (sec->nrfiles > KFSIM_BFQ_MAX_FILES)
		return "more than 16 files per job are not modelled with disk I/O";
	if (sec->fst_dist)
		return "several files chosen by a distribution (file_service_type=zipf, pareto, "
		       "normal, gauss) are not modelled with disk I/O";
	if (sec->openfiles && sec->openfiles < sec->nrfiles)
		return "several files with openfiles below nrfiles (fio closes and opens them) "
		       "are not modelled with disk I/O";
	if (sec->filename[0] && !sec->listed)
		return "several files per job with filename= are not modelled with disk I/O";
	/* kfsim simulates one disk, whose device is no file of a job's several */
	if (sec->listed && fio_list_has_device(sec->filelist))
		return "several files per job naming a device (/dev/...) are not modelled";
	/* init.c fixup_options() cuts nrfiles to the names; fewer leave files unused */
	if (sec->listed && sec->nrfiles < sec->listed)
		return "nrfiles= below the names of filename= is not modelled with disk I/O";
	if (job->offset_frac >= 0 || job->offset % SECTOR_SIZE || sec->offset_increment % SECTOR_SIZE)
		return "several files per job with an offset in % or not a multiple of 512 are "
		       "not modelled with disk I/O";
	if (sec->filesize && job->offset + sec->offset_increment * (sec->numjobs - 1) >
			     sec->filesize_lo)
		return "several files per job with an offset past filesize= are not modelled "
		       "with disk I/O (fio's run fails: \"offset extends end\")";
	/*
	 * new files have no size: a size in % of them is none, and fio 3.33 fails the job
	 * (nrfiles=3 with size=10%, or with no size at all, 2026-12-07)
	 */
	if (job->size_frac >= 0 || (!sec->filesize && !job->size))
		return "several new files per job without size= or filesize= (or a size in %): "
		       "fio's run fails (setup_files(): \"you need to specify size=\")";
	if (sec->io_size_pct || job->io_size)
		return "several files per job with io_size= are not modelled with disk I/O";
	if (sec->filesize && (job->size || !sec->filesize_lo))
		return "several files per job with both size= and filesize= are not modelled "
		       "with disk I/O";
	if (sec->zonemode > 0 || job->verify || job->seq_skip || job->ddir_seq_nr > 1 ||
	    sec->norandommap || sec->rand64)
		return "several files per job with zones, verify, rw=...:N, norandommap or "
		       "tausworthe64 are not modelled with disk I/O";
	if (kfsim_bfq_job_is_random(job)) {
		u64 r = kfsim_bfq_job_min_bs(job, false), w = kfsim_bfq_job_min_bs(job, true);
		bool reads = job->rw != KFSIM_RW_RANDWRITE, writes = job->rw != KFSIM_RW_RANDREAD;

		/*
		 * fio 3.33 sizes a file's random map in the smallest block of all directions
		 * (rw_min_bs) and draws offsets in the direction's (last_block()): with
		 * rw=randwrite, bs=4k,8k a file of 20 KiB took three writes of 8k, not two
		 */
		if ((reads && r > min(r, w)) || (writes && w > min(r, w)))
			return "several files of a random job whose directions' smallest blocks "
			       "differ (fio's random map counts in the smaller) are not modelled "
			       "with disk I/O";
	}
	if (kfsim_bfq_job_is_mixed(job) && !kfsim_bfq_job_is_random(job))
		return "several files per job of a sequential mix (rw=rw) are not modelled with "
		       "disk I/O";
	return NULL;
}

/*
 * A clone's files (nrfiles above 1, or a filesize= range), as fio 3.33's setup_files()
 * (filesetup.c) sizes new files: filesize=N each; a range drawn per file from the job's
 * file_size_state (get_rand_file_size(): LO + (HI - LO) x r / 2^32, aligned down to the
 * smallest block); else size / nrfiles each, the first (size - that x nrfiles) / the
 * smallest block files one block more.  Each file is whole sectors (I/O ends at its last
 * whole block all the same); the region holds them one after another, and the job does
 * them all (o->size is their total when smaller) times loops.  @nr: the job's number.
 */
static bool fio_files(struct fio_section *sec, struct kfsim_bfq_job *clone, unsigned int nr,
		      bool time_based)
{
	unsigned int n = sec->nrfiles > 1 ? (unsigned int)sec->nrfiles : 1;
	u64 bs = min(kfsim_bfq_job_min_bs(clone, false), kfsim_bfq_job_min_bs(clone, true));
	u64 loops = sec->loops ? sec->loops : 1, total = 0, fs = 0, extra = 0;
	u64 foff = clone->offset;	/* each file's f->file_offset */
	u64 off = n > 1 ? foff : 0;	/* laid out in the region (one file: the job's offset) */
	struct kfsim_fio_rand32 st;

	kfsim_fio_rand32_seed(&st, kfsim_fio_rand_seed(sec->randseed, sec->allrandrepeat, nr,
						       KFSIM_FIO_RAND_FILE_SIZE_OFF));
	if (!sec->filesize) {
		fs = clone->size / n;
		extra = bs ? (clone->size - fs * n) / bs : 0;
	}
	for (unsigned int i = 0; i < n; i++) {
		u64 b = fs;

		if (sec->filesize && sec->filesize_lo == sec->filesize) {
			b = sec->filesize - min(sec->filesize, foff);	/* the file's end */
		} else if (sec->filesize) {
			u32 r = kfsim_fio_rand32(&st);

			b = sec->filesize_lo + (u64)((double)(sec->filesize - sec->filesize_lo) *
						     ((double)r / 4294967296.0));
			b -= bs ? b % bs : 0;
			/* size=N% of the one file's drawn end (fio_job_bytes()) */
			b = clone->size_frac > 0 ? kfsim_bfq_job_size_bytes(clone, b, foff)
						 : b - min(b, foff);
		} else if (extra) {
			extra--;
			b += bs;
		}
		b -= b % SECTOR_SIZE;
		if (b < kfsim_bfq_job_max_bs(clone) || b < SECTOR_SIZE)
			return false;
		if (n > 1)
			clone->file_bytes[i] = b;
		total += off + b;
	}
	clone->nr_files = n > 1 ? n : 0;
	clone->file_service = sec->fst;
	clone->file_service_nr = sec->fst_nr;
	clone->file_seed = kfsim_fio_rand_seed(sec->randseed, sec->allrandrepeat, nr,
					       KFSIM_FIO_RAND_FILE_OFF);
	clone->file_loops = time_based ? 0 : (unsigned int)loops;
	clone->file_map = !sec->norandommap;
	clone->files_offset = off;
	clone->io_size = time_based ? 0 : (total - off * n) * loops;
	if (n > 1)
		clone->offset = 0;	/* the region holds the files whole */
	clone->size = total;
	clone->size_frac = -1;
	return true;
}

/*
 * Whether a size-bounded job's passes end at its region's last whole block, as fio 3.33's
 * do: a sequential job's next offset with no whole block left fails (get_next_buflen():
 * io_u_fits()), and a random job's map holds the region's whole blocks (last_block()), so a
 * region of 1000k with bs=64k is 15 reads a pass, not 16 (kfsim read a 16th from the
 * region's start, with psync and libaio alike, until 2026-12-08).  Only where one block
 * size is issued (a random mix's directions of one size: its map fills as one), offsets are
 * the blocks (no skip, zones, blockalign of its own, rw=...:N, percentage_random) and a
 * random job keeps its map; a sequential mix's passes are job_seq_at_end()'s.
 */
static bool fio_whole_blocks(const struct fio_section *sec, const struct kfsim_bfq_job *job,
			     bool time_based, bool io_size_given)
{
	bool write = job->rw == KFSIM_RW_WRITE || job->rw == KFSIM_RW_RANDWRITE;
	bool mixed = kfsim_bfq_job_is_mixed(job), random = kfsim_bfq_job_is_random(job);
	unsigned int bs = kfsim_bfq_job_min_bs(job, write);

	if (mixed && (!random || kfsim_bfq_job_min_bs(job, !write) != bs))
		return false;
	return !time_based && !io_size_given && !sec->io_size_pct && sec->nrfiles <= 1 &&
	       job->rw < KFSIM_RW_TRIM && !job->seq_skip &&
	       !job->zone_size && job->ddir_seq_nr <= 1 && !job->perc_seq &&
	       (!job->blockalign || job->blockalign == bs) && bs == kfsim_bfq_job_max_bs(job) &&
	       !(kfsim_bfq_job_is_random(job) && sec->norandommap);
}

static void fio_emit(struct fio_parser *p, struct fio_section *sec)
{
	struct kfsim_bfq_job job = sec->job;
	unsigned int first = p->nr;
	bool time_based, one_file_range, whole_blocks;
	u64 pass_io_size, size_loops, file_end;
	const char *files_why;

	if (fio_is_nowhere(sec->filename))
		job.engine = KFSIM_ENGINE_NONE;
	if (sec->listed && sec->nrfiles > sec->listed)
		sec->nrfiles = sec->listed;	/* fixup_options(): at most the names */
	/* before size= takes filesize='s value below: several files, if modelled */
	files_why = sec->nrfiles > 1 ? fio_files_why(sec, &job) : "";
	one_file_range = sec->nrfiles <= 1 && sec->filesize != sec->filesize_lo &&
			 !job.size && job.size_frac != 0 && !job.io_size && !sec->io_size_pct;

	if (job.engine != KFSIM_ENGINE_NONE && sec->nrfiles > 1) {
		const char *why = files_why;

		for (unsigned int i = 0; i < sec->nr_pending; i++) {
			if (why && (!strcmp(sec->pending[i].option, "nrfiles") ||
				    !strcmp(sec->pending[i].option, "nr_files") ||
				    (sec->listed && !strcmp(sec->pending[i].option, "filename"))))
				sec->pending[i].why = why;
		}
		if (!why) {
			fio_undefer(sec, "nrfiles");
			fio_undefer(sec, "nr_files");
			if (sec->listed)
				fio_undefer(sec, "filename");
		}
	}
	if (job.engine != KFSIM_ENGINE_NONE) {
		for (unsigned int i = 0; i < sec->nr_pending; i++)
			fio_err_once(p, &sec->pending[i]);
		fio_refill(p, sec, &job);
		fio_rw_seq_check(p, sec, &job);
		if (job.rw >= KFSIM_RW_TRIM)
			fio_trim_error(p, sec, &job);
		if (!strcmp(job.ioengine, "libzbc"))
			fio_libzbc(sec, &job);
	}
	/*
	 * fio: without size, a job does its files' size; a job's one regular file of a fixed
	 * filesize= ends there, which fio_job_bytes() takes with the job's offset
	 */
	file_end = sec->nrfiles <= 1 && sec->filesize && sec->filesize == sec->filesize_lo &&
		   (job.engine == KFSIM_ENGINE_NONE || !fio_is_device(sec->filename)) ?
		   sec->filesize : 0;
	if (!job.size && job.size_frac < 0 && sec->filesize &&
	    (!file_end || job.engine == KFSIM_ENGINE_NONE))
		job.size = sec->filesize;
	if (sec->prioclass)
		job.ioprio = IOPRIO_PRIO_VALUE(sec->prioclass, job.ioprio);
	/*
	 * zones (fio 3.33, its words): zonesize needs zonemode=strided, which needs zonesize;
	 * without it zonerange and zoneskip are ignored; the range defaults to the size
	 */
	if (sec->zonemode == 2 && sec->create_serialize_off.line)
		fio_err_once(p, &(struct fio_pending){ sec->create_serialize_off.line,
			sec->create_serialize_off.file, "create_serialize", "with zonemode=zbd, "
			"fio's run fails (fixup_options(): \"--zonemode=zbd and "
			"--create_serialize=0 are not compatible.\")" });
	if (sec->zonemode == 2) {
		fio_zbd(p, sec, &job);
	} else if (sec->zonemode != 1 && job.zone_size && sec->zonemode == 0 &&
		   sec->zone_opt_line[0] == p->global.zone_opt_line[0] &&
		   (sec->zone_line != p->global.zone_line || sec->zone_file != p->global.zone_file)) {
		/*
		 * the job's own zonemode=none beside a [global] zonesize= the other jobs need:
		 * the line to take out is the job's (naming the [global] one made the other
		 * jobs fail in turn: zbd without a zone size)
		 */
		fio_err(&p->errs, sec->zone_file, sec->zone_line, "zonemode: none with zonesize= "
			"of [global]: fio's run fails (fixup_options(): \"--zonemode=none and "
			"--zonesize are not compatible.\")");
	} else if (sec->zonemode != 1 && job.zone_size) {
		fio_err(&p->errs, sec->file, sec->zone_opt_line[0], "zonesize: without a zonemode, "
			"fio's run fails (fixup_options(): \"--zonemode=none and --zonesize are "
			"not compatible.\")");
	} else if (sec->zonemode != 1) {
		job.zone_size = job.zone_range = job.zone_skip = 0;
	} else if (!job.zone_size) {
		/*
		 * a zonesize= refused on its own line leaves none: without that line fio's
		 * run fails, so the zonemode= line is named with it (fio_jobgen --wide seed 27257)
		 */
		if (sec->zone_size_refused)
			fio_err(&p->errs, sec->file, sec->zone_line, "zonemode: strided zones "
				"need zonesize=, whose line is refused here (without it fio's run "
				"fails: --zonesize must be specified)");
		else
			fio_err(&p->errs, sec->file, sec->zone_line, "zonemode: --zonesize must be "
				"specified when using --zonemode=strided.");
	} else {
		if (!job.zone_range)
			job.zone_range = job.zone_size;
		if (kfsim_bfq_job_is_random(&job) && job.engine != KFSIM_ENGINE_NONE)
			fio_strided_random(p, sec);
	}
	/* lat_fatal()'s ETIMEDOUT, ignored, would go on at depth 1 past every late I/O */
	if (job.latency_target_ns && job.latency_percentile >= 100 && sec->ignores_timedout &&
	    (sec->continue_on_error & (FIO_ERR_READ | FIO_ERR_WRITE)) &&
	    job.engine != KFSIM_ENGINE_NONE)
		fio_err(&p->errs, sec->file, sec->latency_line, "latency_target: ignore_error "
			"holds ETIMEDOUT, the error a 100%% target ends the job with: going on "
			"after it is not modelled");
	if (job.ss_dur_s)
		fio_ss_check(p, sec, &job);
	fio_rate_check(p, sec, &job);
	fio_fixup_check(p, sec);
	/* engines/cmdprio.c serves libaio and io_uring; other engines do not know the options */
	if (job.cmdprio && strcmp(job.ioengine, "libaio") && strncmp(job.ioengine, "io_uring", 8))
		fio_err(&p->errs, sec->file, sec->cmdprio_line, "cmdprio: an option of the libaio "
			"and io_uring engines, not of '%s'", job.ioengine[0] ? job.ioengine : "psync");
	/*
	 * fio 3.33 sets a job's blkio cgroup up only with cgroup= (backend.c thread_main():
	 * cgroup_setup() under "if (o->cgroup)"), so a cgroup_weight alone changes nothing; kfsim
	 * refused it (fio_jobgen --wide seeds 27001-27600: 68 refusals)
	 */
	if (sec->cgroup_weight && job.cgroup[0])
		job.weight = sec->cgroup_weight;
	/*
	 * without time_based a job ends after io_size (else its region) x loops, as fio's;
	 * a size in percent is resolved with the region, once the files are laid out.  fio
	 * 3.33's fixup_options() turns time_based off without a runtime ("fio: time_based
	 * requires a runtime/timeout setting", and the job ends at its size: 256 I/Os of 4k
	 * for size=1m, 2026-12-07); kfsim ran such a job to the end of the run before.
	 */
	time_based = sec->time_based && job.runtime_ns;
	/*
	 * fio 3.33 do_io() ends a pass at total_bytes issued (its region's size, or io_size
	 * for a random writer without a random map), but counts the bytes only of I/Os the
	 * engine queued (io_queue_event(): FIO_Q_QUEUED), so a synchronous engine's pass ends
	 * only when no offset is left: a full random map (its region's worth with one block
	 * size) or a sequential direction at the region's end (struct kfsim_bfq_job's
	 * @pass_bytes)
	 */
	if (sec->norandommap && kfsim_bfq_job_is_random(&job))
		pass_io_size = job.engine != KFSIM_ENGINE_ASYNC ? U64_MAX :
			       job.rw != KFSIM_RW_RANDREAD ? job.io_size : 0;
	else if (kfsim_bfq_job_is_random(&job))
		pass_io_size = 0;
	else
		pass_io_size = job.engine != KFSIM_ENGINE_ASYNC ? U64_MAX : 0;
	size_loops = 0;
	whole_blocks = fio_whole_blocks(sec, &job, time_based, job.io_size);
	if (!time_based) {
		if (!job.io_size && job.size_frac < 0 && !sec->io_size_pct) {
			job.io_size = job.size;	/* 0: the region, resolved below */
			size_loops = job.size ? (sec->loops ? sec->loops : 1) : 0;
		}
		job.io_size *= sec->loops ? sec->loops : 1;
	} else {
		job.io_size = 0;	/* until its runtime */
	}
	/*
	 * fio 3.33's exceeds_number_ios() compares the I/Os of the whole run with number_ios
	 * times the job's loops (td->loops), and a time_based job's do_io() never asks it:
	 * rw=read, size=256k, bs=4k, loops=3, number_ios=50 read 64, 64 and 22 blocks (150);
	 * number_ios=10 with time_based, runtime=200ms read for the 200 ms (2026-12-08).
	 * kfsim ended both after number_ios I/Os.
	 */
	if (time_based)
		job.number_ios = 0;
	else
		job.number_ios *= sec->loops ? sec->loops : 1;
	job.verify = job.verify && sec->do_verify && !time_based &&
		     (job.rw == KFSIM_RW_WRITE || job.rw == KFSIM_RW_RANDWRITE);
	if (job.rate_poisson && !job.io_error) {
		struct kfsim_bfq_job left = job;	/* after job.verify is known */

		fio_rate_left(sec, &left);
		fio_poisson_check(p, sec, &left);
	}
	if (sec->stonewall)
		job.after = first;
	if (p->nr + sec->numjobs > KFSIM_BFQ_MAX_JOBS) {
		if (!p->told_max_jobs)
			fio_err(&p->errs, sec->file, sec->line, "more than %d jobs (this section's "
				"and every later one refused)", KFSIM_BFQ_MAX_JOBS);
		p->told_max_jobs = true;
		return;
	}
	/* init.c add_job(): a stonewall or new_group section after jobs starts the next group */
	if ((sec->stonewall || sec->new_group) && p->fio_group_jobs) {
		p->fio_group++;
		p->fio_group_jobs = 0;
	}
	p->fio_group_jobs += sec->numjobs;
	fio_ss_group(p, sec, &job);
	fio_lat_pct_group(p, sec);
	p->group_jobs += sec->numjobs;
	for (unsigned int i = 0; i < sec->numjobs; i++) {
		struct kfsim_bfq_job *clone = &p->jobs[p->nr];

		*clone = job;
		/*
		 * fio numbers its jobs from 1 in the order it adds them, a section's clones
		 * right after it (init.c get_new_job(), add_job()), and seeds each from its
		 * number unless randrepeat=0 leaves the seeds to /dev/urandom
		 */
		clone->rwmix_fio_seed = sec->randrepeat || sec->randseed_set ||
					sec->allrandrepeat;
		clone->rwmix_seed = kfsim_fio_rand_seed(sec->randseed, sec->allrandrepeat,
							p->nr - p->first + 1,
							KFSIM_FIO_RAND_MIX_OFF);
		/* bsrange_state: 64 bits with tausworthe64, which kfsim does not have */
		clone->bs_fio_seed = clone->rwmix_fio_seed && !sec->rand64 && !clone->verify;
		/* td_fill_rand_seeds_internal(): with verify= writes take the reads' seed */
		for (unsigned int d = 0; d < 2; d++)
			clone->bs_seed[d] = kfsim_fio_rand_seed(sec->randseed, sec->allrandrepeat,
								p->nr - p->first + 1,
								sec->job.verify ? KFSIM_FIO_RAND_BS_OFF :
								KFSIM_FIO_RAND_BS_OFF + d);
		/* fixup_options(): "If randseed is set, that overrides randrepeat" */
		clone->rwmix_repeat = sec->randrepeat && !sec->randseed_set;
		p->pass_io_size[p->nr] = pass_io_size;
		p->filesize[p->nr] = file_end;
		p->nr_loops_at[p->nr] = sec->loops > 1 && !time_based ? sec->nr_loops_at : 0;
		memcpy(p->loops_at[p->nr], sec->loops_at, sizeof(sec->loops_at));
		p->whole_blocks[p->nr] = whole_blocks;
		clone->offset += sec->offset_increment * i;
		/* several files, or a range of file sizes for the job's one */
		if (job.engine != KFSIM_ENGINE_NONE && (!files_why || one_file_range) &&
		    !fio_files(sec, clone, p->nr - p->first + 1, time_based))
			fio_err(&p->errs, sec->file, sec->line, "job '%s': a file smaller than "
				"its largest block is not modelled", job.name);
		clone->group = p->fio_group;
		if (sec->numjobs > 1)
			snprintf(clone->name, sizeof(clone->name), "%.27s.%02u", job.name, i % 100);
		p->lines[p->nr] = sec->line;
		p->nr_lat_pct_at[p->nr] = sec->nr_lat_pct_at;
		memcpy(p->lat_pct_at[p->nr], sec->lat_pct_at, sizeof(sec->lat_pct_at));
		p->files[p->nr] = sec->file;
		p->loops[p->nr] = job.io_size || time_based ? 0 :
				  (sec->loops ? sec->loops : 1);
		p->size_loops[p->nr] = size_loops;
		p->io_size_pct[p->nr] = time_based ? 0 : sec->io_size_pct;
		snprintf(p->names[p->nr], sizeof(p->names[0]), "%s", sec->job.name);
		/* fio's default file: one per job and clone, "jobname.jobnum.filenum" */
		p->listed[p->nr] = sec->listed;
		/*
		 * the list's files, laid out together: its key starts with a ':', which
		 * get_next_name() skips, so that no one file's name ("p\\:q" is "p:q") is it
		 */
		if (sec->listed)
			snprintf(p->filenames[p->nr], sizeof(p->filenames[0]), ":%.126s",
				 sec->filelist);
		else if (sec->filename[0])
			snprintf(p->filenames[p->nr], sizeof(p->filenames[0]), "%s", sec->filename);
		else
			snprintf(p->filenames[p->nr], sizeof(p->filenames[0]), "%.100s.%u.0",
				 sec->job.name, i);
		p->nr++;
	}
	if (sec->wait_for[0]) {
		unsigned int target = 0;

		for (unsigned int k = 0; k < first; k++) {
			if (!strcmp(p->names[k], sec->wait_for))
				target = k + 1;	/* the last clone of that job */
		}
		if (!target)
			/* init.c wait_for_ok(), as fio adds the job: not under --parse-only */
			fio_err(&p->errs, sec->file, sec->line, "wait_for=%s: no job of that name "
				"before this one (fio's run fails: \"waitee job %s unknown\")",
				sec->wait_for, sec->wait_for);
		for (unsigned int k = first; k < p->nr; k++)
			p->jobs[k].wait_for = target;
	}
}

/*
 * The engines whose options these are, fio 3.33 (each engine's .options in engines/), and
 * the engines fio 3.33 has.  fio reads an engine's option only in a section whose engine
 * (its own ioengine= or the one it inherits, wherever the line stands) has it: a [global]
 * alone, with its engine, and a job with its own (init.c fio_options_parse(), after
 * ioengine_load()); any other gets "Bad option <port=8888>" and the job is dropped.  The
 * cmdprio options are judged in fio_emit().
 */
static const struct {
	const char *name;
	const char *engines;	/* ' ' around each */
} fio_engine_option_owners[] = {
	{ "arguments", " exec " }, { "grace_time", " exec " }, { "program", " exec " },
	{ "std_redirect", " exec " },
	{ "cpuchunks", " cpuio " }, { "cpuload", " cpuio " }, { "cpumode", " cpuio " },
	{ "exit_on_io_done", " cpuio " },
	{ "cont", " dfs " }, { "object_class", " dfs " }, { "svcl", " dfs " },
	{ "chunk_size", " dfs libhdfs " }, { "pool", " dfs rados rbd " },
	{ "donorname", " e4defrag " }, { "inplace", " e4defrag " },
	{ "stat_type", " filecreate filestat filedelete " },
	{ "brick", " gfapi gfapi_async " }, { "single-instance", " gfapi gfapi_async " },
	{ "volume", " gfapi gfapi_async " },
	{ "http_host", " http " }, { "http_mode", " http " }, { "http_pass", " http " },
	{ "http_s3_key", " http " }, { "http_s3_keyid", " http " },
	{ "http_s3_region", " http " }, { "http_s3_sse_customer_algorithm", " http " },
	{ "http_s3_sse_customer_key", " http " }, { "http_s3_storage_class", " http " },
	{ "http_swift_auth_token", " http " }, { "http_user", " http " },
	{ "http_verbose", " http " }, { "https", " http " },
	{ "fixedbufs", " io_uring io_uring_cmd " }, { "force_async", " io_uring io_uring_cmd " },
	{ "nonvectored", " io_uring io_uring_cmd " },
	{ "registerfiles", " io_uring io_uring_cmd " },
	{ "sqthread_poll_cpu", " io_uring io_uring_cmd " },
	{ "sqthread_poll", " io_uring io_uring_cmd xnvme " },
	{ "hipri", " io_uring io_uring_cmd pvsync2 sg xnvme " },
	{ "uncached", " io_uring io_uring_cmd pvsync2 " },
	{ "nowait", " io_uring io_uring_cmd libaio pvsync2 " },
	{ "hipri_percentage", " pvsync2 " },
	{ "userspace_reap", " libaio " },
	{ "cuda_io", " libcufile " }, { "gpu_dev_ids", " libcufile " },
	{ "hdfs_use_direct", " libhdfs " }, { "hdfsdirectory", " libhdfs " },
	{ "namenode", " libhdfs " }, { "single_instance", " libhdfs " },
	{ "hostname", " libhdfs net netsplice rdma " },
	{ "port", " libhdfs net netsplice rdma librpma_apm_client librpma_apm_server "
	  "librpma_gpspm_client librpma_gpspm_server " },
	{ "serverip", " librpma_apm_client librpma_apm_server librpma_gpspm_client "
	  "librpma_gpspm_server " },
	{ "busy_wait_polling", " librpma_apm_client librpma_apm_server librpma_gpspm_client "
	  "librpma_gpspm_server " },
	{ "direct_write_to_pmem", " librpma_apm_client librpma_apm_server "
	  "librpma_gpspm_client librpma_gpspm_server " },
	{ "initiator", " libiscsi " }, { "thp", " mmap " }, { "skip_bad", " mtd " },
	{ "uri", " nbd " }, { "nfs_url", " nfs " },
	{ "interface", " net netsplice " }, { "listen", " net netsplice " },
	{ "mss", " net netsplice " }, { "nodelay", " net netsplice " },
	{ "pingpong", " net netsplice " }, { "protocol", " net netsplice " },
	{ "ttl", " net netsplice " }, { "window_size", " net netsplice " },
	{ "busy_poll", " rados rbd " }, { "clientname", " rados rbd " },
	{ "clustername", " rados rbd " }, { "conf", " rados " }, { "touch_objects", " rados " },
	{ "rbdname", " rbd " }, { "bindname", " rdma " }, { "verb", " rdma " },
	{ "readfua", " sg " }, { "sg_write_mode", " sg " }, { "stream_id", " sg " },
	{ "writefua", " sg " },
	{ "xnvme_admin", " xnvme " }, { "xnvme_async", " xnvme " }, { "xnvme_be", " xnvme " },
	{ "xnvme_dev_nsid", " xnvme " }, { "xnvme_iovec", " xnvme " },
	{ "xnvme_sync", " xnvme " },
};

/* fio 3.33's engines (their .name in engines/) on Linux; an engine not here is not judged */
static const char fio_engines[] =
	" sync psync vsync pvsync pvsync2 libaio io_uring io_uring_cmd posixaio mmap splice "
	"null net netsplice cpuio exec rdma e4defrag falloc ftruncate filecreate filestat "
	"filedelete dev-dax libpmem pmemblk libzbc sg mtd nbd nfs http rados rbd gfapi "
	"gfapi_async libhdfs libcufile libiscsi dfs xnvme ime_psync ime_psyncv ime_aio "
	"librpma_apm_client librpma_apm_server librpma_gpspm_client librpma_gpspm_server ";

static const char *fio_engine_option_engines(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(fio_engine_option_owners); i++) {
		if (!strcmp(key, fio_engine_option_owners[i].name))
			return fio_engine_option_owners[i].engines;
	}
	return NULL;
}

/* " NAME " is a word of @list */
static bool fio_word_in(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *w = strstr(list, name); w; w = strstr(w + 1, name)) {
		if (w[-1] == ' ' && w[len] == ' ')
			return true;
	}
	return false;
}

static void fio_engine_opt_note(struct fio_section *sec, const char *key, const char *value,
				long line, const char *file)
{
	struct fio_engine_opt *o;

	if (!strcmp(key, "ioengine") && value)
		snprintf(sec->engine_name, sizeof(sec->engine_name), "%s", value);
	if (!fio_engine_option_engines(key) || sec->nr_engine_opts >= ARRAY_SIZE(sec->engine_opts))
		return;
	o = &sec->engine_opts[sec->nr_engine_opts++];
	o->told = o->named = false;
	snprintf(o->text, sizeof(o->text), "%s%s%s", key, value ? "=" : "", value ? value : "");
	o->line = line;
	o->file = file;
}

/*
 * At the end of a section: its engines' options against the engine it ends with.  Where its
 * ioengine= was refused (an engine kfsim does not model), the options are judged against the
 * engine kfsim would run instead and named with that reason: the file reads once the lines
 * named go, the engine's options with the engine.
 */
static void fio_engine_opts_check(struct fio_parser *p, const struct fio_section *sec)
{
	const char *engine = sec->job.ioengine[0] ? sec->job.ioengine : "psync";
	bool refused = sec->engine_name[0] && strcmp(sec->engine_name, engine);

	for (unsigned int i = 0; i < sec->nr_engine_opts; i++) {
		const struct fio_engine_opt *o = &sec->engine_opts[i];
		const char *owners;
		char key[64];

		if (o->named)
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)strcspn(o->text, "="), o->text);
		owners = fio_engine_option_engines(key);
		if (!fio_word_in(fio_engines, engine) || fio_word_in(owners, engine)) {
			/* an engine fio 3.33 does not have is not judged (external:...) */
			if (o->told)
				fio_err(&p->errs, o->file, o->line, "%s: an option of one of fio's "
					"engines, not modelled", key);
			continue;
		}
		if (refused)
			fio_err(&p->errs, o->file, o->line, "%s: an option of ioengine=%s, which "
				"is not modelled (fio has it for%.*s)", key, sec->engine_name,
				(int)strlen(owners) - 1, owners);	/* " a b " */
		else
			fio_err(&p->errs, o->file, o->line, "Bad option <%s>: an option of the "
				"engine(s)%sand not of ioengine=%s", o->text, owners, engine);
	}
}

static void fio_section_start(struct fio_parser *p, const char *name, long line,
			      const char *file)
{
	if (p->in_section)
		fio_engine_opts_check(p, &p->sec);
	if (p->in_section && !p->sec.is_global)
		fio_emit(p, &p->sec);
	else if (p->in_section)
		p->global = p->sec;
	p->sec = p->global;
	p->sec.nr_engine_opts = 0;	/* a [global]'s were judged with its engine */
	p->sec.zone_here = false;
	p->sec.line = line;
	p->sec.file = file;
	p->sec.is_global = !strcmp(name, "global");
	if (!p->sec.is_global) {
		if (strlen(name) >= sizeof(p->sec.job.name) - 4)
			/* fio takes up to 255 (its header's sscanf()): the limit is kfsim's */
			fio_err(&p->errs, file, line, "job name '%.40s%s' longer than 27 "
				"characters (kfsim's limit): not modelled", name,
				strlen(name) > 40 ? "..." : "");
		snprintf(p->sec.job.name, sizeof(p->sec.job.name), "%.27s", name);
	}
	p->in_section = true;
}

/*
 * What fio 3.33 makes of an option line before reading it (options.c fio_option_dup_subs() and
 * fio_keyword_replace(), on "key=value" as the line holds it): each ${VAR} is the
 * environment's VAR, an unset or empty one nothing at all; then $pagesize, $mb_memory and
 * $ncpus are this machine's page size, megabytes of memory and CPUs configured.  The text
 * fio makes holds at most OPT_LEN_MAX (8192) bytes: a value that does not fit where it goes
 * is left out, and the text is cut where the room ends.  Neither is guessed at here.
 */
#define FIO_OPT_LEN_MAX 8192u
#define FIO_EXP_UNSET 1u	/* a ${VAR} was unset or empty: replaced by nothing */
#define FIO_EXP_LOST 2u		/* past 8192 bytes: fio left a value out or cut the text */
#define FIO_EXP_KEYWORD 4u	/* a $keyword was replaced */

static unsigned int fio_expand_env(const char *in, char *out)
{
	size_t used = 0;
	unsigned int flags = 0;

	while (*in) {
		const char *close;

		if (used == FIO_OPT_LEN_MAX) {
			flags |= FIO_EXP_LOST;
			break;
		}
		if (in[0] == '$' && in[1] == '{' && (close = strchr(in + 2, '}'))) {
			char name[FIO_OPT_LEN_MAX];
			size_t n = (size_t)(close - in - 2), vlen;
			const char *val;

			memcpy(name, in + 2, n);
			name[n] = '\0';
			val = getenv(name);
			vlen = val ? strlen(val) : 0;
			if (!vlen)
				flags |= FIO_EXP_UNSET;
			else if (vlen > FIO_OPT_LEN_MAX - used)
				flags |= FIO_EXP_LOST;
			else
				memcpy(out + used, val, vlen), used += vlen;
			in = close + 1;
			continue;
		}
		out[used++] = *in++;
	}
	out[used] = '\0';
	return flags;
}

/* fio's $keywords, each what this machine says, 0 where it cannot say */
static unsigned long long fio_pagesize(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (unsigned long long)page : 0;
}

static unsigned long long fio_mb_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);

	return pages > 0 ? (unsigned long long)pages * fio_pagesize() >> 20 : 0;
}

static unsigned long long fio_ncpus(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);

	return cpus > 0 ? (unsigned long long)cpus : 0;
}

/* fio's $keywords in @text (room for FIO_OPT_LEN_MAX bytes) */
static unsigned int fio_replace_keywords(char *text)
{
	static const struct {
		const char *word;
		unsigned long long (*value)(void);
	} keywords[] = {
		{ "$pagesize", fio_pagesize },
		{ "$mb_memory", fio_mb_memory },
		{ "$ncpus", fio_ncpus },
	};
	unsigned int i, flags = 0;
	char *at;

	for (i = 0; i < ARRAY_SIZE(keywords); i++) {
		while ((at = strstr(text, keywords[i].word))) {
			char num[24];
			size_t wlen = strlen(keywords[i].word);
			size_t n = (size_t)snprintf(num, sizeof(num), "%llu", keywords[i].value());

			/* a number longer than its word (terabytes of $mb_memory) may not fit */
			if (n > wlen && strlen(text) + n - wlen > FIO_OPT_LEN_MAX)
				return flags | FIO_EXP_LOST;
			memmove(at + n, at + wlen, strlen(at + wlen) + 1);
			memcpy(at, num, n);
			flags |= FIO_EXP_KEYWORD;
		}
	}
	return flags;
}

/*
 * One option line as fio reads it, into @out (FIO_OPT_LEN_MAX + 1 bytes): false when it
 * is refused.  fio hands a line with a $keyword and any of + - * / to bc(1), and with one
 * ${VAR} too long keeps a line kfsim would have to read otherwise than it is written.
 */
static bool fio_expand_option(struct fio_parser *p, const char *in, char *out, long line,
			      const char *file)
{
	unsigned int flags = fio_expand_env(in, out);
	const char *eq;

	flags |= fio_replace_keywords(out);
	p->line_unset_var = flags & FIO_EXP_UNSET;
	eq = strchr(out, '=');
	if (flags & FIO_EXP_LOST) {
		fio_err(&p->errs, file, line, "%.*s: its ${VAR}s make it longer than fio's %u "
			"bytes (fio leaves a value out or cuts the line): not modelled",
			eq ? (int)(eq - out) : 32, out, FIO_OPT_LEN_MAX);
		return false;
	}
	if ((flags & FIO_EXP_KEYWORD) && eq && strpbrk(eq, "+-*/") && !strchr(out, '\'')) {
		fio_err(&p->errs, file, line, "%.*s: arithmetic with $pagesize, $mb_memory or "
			"$ncpus (fio has bc(1) compute it) is not modelled", (int)(eq - out), out);
		return false;
	}
	return true;
}

static int fio_parse_stream(struct fio_parser *p, FILE *in, const char *file, unsigned int depth);

static void fio_include(struct fio_parser *p, const char *arg, long line, const char *file,
			unsigned int depth)
{
	char path[PATH_MAX], dir[PATH_MAX];
	struct stat st;
	FILE *inc;
	int err;

	if (depth >= FIO_MAX_INCLUDE_DEPTH) {
		fio_err(&p->errs, file, line, "include: nested too deep");
		return;
	}
	if (p->nr_paths == ARRAY_SIZE(p->paths)) {
		fio_err(&p->errs, file, line, "include: more than %u included files",
			FIO_MAX_INCLUDES);
		return;
	}
	/* fio: a relative name is the working directory's when it is there, else the file's */
	if (arg[0] != '/' && file && access(arg, F_OK)) {
		snprintf(dir, sizeof(dir), "%s", file);
		snprintf(path, sizeof(path), "%s/%s", dirname(dir), arg);
	} else {
		snprintf(path, sizeof(path), "%s", arg);
	}
	inc = kfsim_infile_open(path, &err);
	if (!inc) {
		fio_err(&p->errs, file, line, "include: cannot open '%s': %s%s", path,
			strerror(-err), isspace((unsigned char)arg[0]) ?
			" (fio takes the name from the 9th character on: a second blank after "
			"'include' is part of it)" : "");
		return;
	}
	/* a directory opens but does not read: named at the include (fio 3.33 aborts on it) */
	if (!fstat(fileno(inc), &st) && S_ISDIR(st.st_mode)) {
		fio_err(&p->errs, file, line, "include: cannot open '%s': %s", path,
			strerror(EISDIR));
		fclose(inc);
		return;
	}
	p->paths[p->nr_paths] = strdup(path);
	if (p->paths[p->nr_paths])
		fio_parse_stream(p, inc, p->paths[p->nr_paths++], depth + 1);
	fclose(inc);
}

/*
 * "bs= 8k": fio keeps the space in the value (only the key and the line's end are
 * stripped), and then reads " 8k" as 8 bytes (its unit is looked for right after the
 * number's first character) and " read" as no rw= at all.  kfsim does not take either
 * reading for what the line means: it names the line.  Options without an effect on the
 * disk are let be where fio takes the value with its space.
 */
static bool fio_value_spaced(struct fio_parser *p, const char *key, char *value, long line,
			     const char *file)
{
	if (!isspace((unsigned char)*value) || !*strip(value))
		return false;
	if (no_effect_why(key)) {
		/* judged with the space, as fio: " 1" is a number, " none" no fallocate= */
		if (fio_no_effect_value_ok(key, value))
			return false;
		fio_err(&p->errs, file, line, "%s: failed parsing %s=%s", key, key, value);
		return true;
	}
	fio_err(&p->errs, file, line, "%s: a space after '=': fio reads the value with it (bs= 8k "
		"as 8 bytes, rw= read not at all): not guessed, write %s=%s", key, key,
		strip(value));
	return true;
}

/*
 * A header that is not "[NAME]": fio 3.33 (init.c, sscanf("[%255[^\n]]")) takes the rest of
 * the line less its last character for the name, ']' or not: "[a]x" is a job "a]", "[a" a
 * job "" and "[]" one too.  kfsim names the line rather than take that reading, and opens
 * the section all the same, so the options after it are judged (not "outside a section").
 */
static void fio_bad_header(struct fio_parser *p, char *s, long line, const char *file,
			   unsigned int depth)
{
	size_t n = strlen(s);

	fio_err(&p->errs, file, line, "malformed section header: fio takes '%.*s' for the "
		"job's name (the line less '[' and its last character): not modelled",
		(int)(n > 2 ? n - 2 : 0), s + 1);
	if (!depth)
		fio_section_start(p, "malformed", line, file);
}

/*
 * A line longer than fio's fgets() buffer: fio reads it as two lines (the second its own
 * option); refused, naming the option the line starts with when it starts with one.
 */
static void fio_long_line(struct fio_parser *p, const char *raw, long line, const char *file)
{
	size_t lead = strspn(raw, " \t"), n = strspn(raw + lead,
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

	if (n && n < 64)
		fio_err(&p->errs, file, line, "%.*s: line longer than %u bytes (fio reads the "
			"rest as a line of its own)", (int)n, raw + lead, FIO_MAX_LINE);
	else
		fio_err(&p->errs, file, line, "line longer than %u bytes (fio reads the rest as "
			"a line of its own)", FIO_MAX_LINE);
}

static int fio_parse_stream(struct fio_parser *p, FILE *in, const char *file, unsigned int depth)
{
	struct kfsim_line_reader lines;
	enum kfsim_line_status status;
	char buf[FIO_OPT_LEN_MAX + 1];
	long line = 0;

	kfsim_line_reader_init(&lines, in, FIO_MAX_LINE, FIO_MAX_FILE_BYTES, true);
	while ((status = kfsim_line_reader_next(&lines)) != KFSIM_LINE_END) {
		/* fio reads with fgets(): a NUL byte ends the line's text there, as here */
		char *raw = lines.text, *s, *eq, *cut;

		line++;
		if (status == KFSIM_LINE_NOMEM) {
			fio_err(&p->errs, file, line, "out of memory");
			break;
		}
		if (status == KFSIM_LINE_TOO_BIG) {
			fio_err(&p->errs, file, line, "more than %u MiB: no fio job file, not read on",
				FIO_MAX_FILE_BYTES >> 20);
			break;
		}
		if (status == KFSIM_LINE_TOO_LONG) {
			fio_long_line(p, raw, line, file);
			continue;
		}
		/* fio ends a line at the first ';' or '#', wherever it is */
		cut = strpbrk(raw, ";#");
		if (cut)
			*cut = '\0';
		s = strip(raw);
		if (!*s)
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');

			if (!close || close == s + 1 || *strip(close + 1)) {
				fio_bad_header(p, s, line, file, depth);
				continue;
			}
			*close = '\0';
			if (depth) {
				/* fio: "No new sections in included files" */
				fio_err(&p->errs, file, line, "no new sections in included files");
				continue;
			}
			fio_section_start(p, s + 1, line, file);
			continue;
		}
		/*
		 * fio 3.33 takes any line that starts with "include" for one, and the file's name
		 * from the 9th character on: "include  a.fio" names " a.fio", which fio cannot
		 * open (nor kfsim), and "include_x" names "x"
		 */
		if (!strncmp(s, "include", 7) && p->in_section) {
			if (!s[7] || !s[8])
				/* fio opens what follows the line (it reads past "include") */
				fio_err(&p->errs, file, line, "include: cannot open '': no file "
					"named");
			else
				fio_include(p, s + 8, line, file, depth);
			continue;
		}
		if (!p->in_section) {
			fio_err(&p->errs, file, line, "option outside a [section]");
			continue;
		}
		/* fio expands ${VAR}s in options only: not in a header, not in an include */
		if (!fio_expand_option(p, s, buf, line, file))
			continue;
		p->written = s;
		s = buf;
		eq = strchr(s, '=');
		if (eq) {
			*eq = '\0';
			if (fio_value_spaced(p, strip(s), eq + 1, line, file)) {
				/* named: a zonemode=strided without it says nothing more */
				p->sec.zone_size_refused |= !strcmp(strip(s), "zonesize");
				continue;
			}
			fio_option(p, &p->sec, strip(s), strip(eq + 1), line, file);
		} else {
			fio_option(p, &p->sec, s, NULL, line, file);
		}
	}
	kfsim_line_reader_release(&lines);
	if (ferror(in))
		fio_err(&p->errs, file, line, "read error: %s", strerror(errno));
	return 0;
}

/*
 * The bytes job @k does of its file, as fio 3.33's setup_files() sets the file's io_size when
 * the file is @cur bytes so far (f->real_file_size) and the job starts @off bytes into it:
 * size= in bytes; size=N% of the file's end, filesize= or else its size so far
 * (kfsim_bfq_job_size_bytes(), the one reading of a percent); without size=, filesize= less
 * the offset, or the rest of the file as an earlier job made it (real_file_size -
 * file_offset: fio 3.33, filesize=1m, offset=256k, bs=64k: 12 reads, where kfsim read 16).  A
 * new file without either gets @unsized, *@unsized_used set, and a percent is of the disk:
 * fio's run fails there ("you need to specify size="), kfsim reads them so (a listed
 * difference).  *@why: why fio's run fails, where kfsim follows it.
 */
static u64 fio_job_bytes(const struct fio_parser *p, unsigned int k, u64 cur, u64 off,
			 u64 unsized, bool *unsized_used, const char **why)
{
	const struct kfsim_bfq_job *job = &p->jobs[k];
	u64 end = p->filesize[k] ? p->filesize[k] : cur, bytes;

	*why = NULL;
	if (job->size_frac < 0 && job->size)
		return job->size;
	/*
	 * a percent of a new file is of the disk, as a file without size= gets a share of it
	 * (fio's run fails on both: a listed difference)
	 */
	if (!end && job->size_frac > 0)
		end = (u64)p->capacity << SECTOR_SHIFT;
	if (!end) {
		*unsized_used = true;
		return unsized;
	}
	if (off > end) {
		*why = "offset past the end of its file (filesize=, or the size an earlier job "
		       "gave it): fio's run fails (setup_files(): \"you need to specify valid "
		       "offset=\")";
		return 0;
	}
	bytes = job->size_frac > 0 ? kfsim_bfq_job_size_bytes(job, end, off) : end - off;
	if (bytes < min(kfsim_bfq_job_min_bs(job, false), kfsim_bfq_job_min_bs(job, true)))
		*why = "its bytes of the file are less than one block: fio's run fails "
		       "(setup_files(): \"blocksize is larger than data set range\")";
	return bytes;
}

/*
 * The jobs of the file job @i is the first of, as fio 3.33's setup_files() sets them up one
 * after another (run_threads(), create_serialize=1): a percent offset is of the file's size
 * so far (get_start_offset() reads real_file_size, which a new file does not have yet: 0), and
 * a job whose offset + size go past the end extends the file there (FIO_FILE_EXTEND).  fio
 * 3.33, psync on a new file of four jobs with size=1m and offset=0%, 50%, 50% (size=2m), 75%:
 * the first reads start at 0, 512 KiB, 768 KiB and 2112 KiB, and the file ends at 3136 KiB.
 * kfsim's files are all new.  With @resolve, each percent offset's bytes go to its job's
 * file_offset, each job's bytes (fio_job_bytes()) to its size, and where fio's run fails the
 * job is refused.  Return: the file's size; *@max_offset the largest offset, *@unsized
 * whether a job is on it while it is new and without size=.
 */
static u64 fio_file_walk(struct fio_parser *p, unsigned int i, u64 share, bool resolve,
			 u64 *max_offset, bool *unsized)
{
	u64 cur = 0, off_max = 0;
	bool any_unsized = false;

	for (unsigned int k = i; k < p->nr; k++) {
		struct kfsim_bfq_job *job = &p->jobs[k];
		bool new_unsized = false;
		const char *why;
		u64 off, bytes;

		if (strcmp(p->filenames[k], p->filenames[i]))
			continue;
		off = job->offset_frac >= 0 ? kfsim_bfq_job_pct_offset(job, cur) : job->offset;
		bytes = fio_job_bytes(p, k, cur, off, share, &new_unsized, &why);
		any_unsized |= new_unsized;
		if (resolve && why)
			fio_err(&p->errs, p->files[k], p->lines[k], "job '%s': %s", job->name, why);
		if (resolve && job->offset_frac >= 0)
			job->file_offset = off;
		/* a share runs to the file's end (size 0), the file 1 MiB aligned */
		if (resolve && bytes && !new_unsized) {
			job->size = bytes;
			job->size_frac = -1;
		}
		off_max = max(off_max, off);
		cur = max(cur, off + bytes);
	}
	for (unsigned int k = i; resolve && k < p->nr; k++) {
		struct kfsim_bfq_job *job = &p->jobs[k];

		if (strcmp(p->filenames[k], p->filenames[i]))
			continue;
		p->fio_file_size[k] = cur;
		/*
		 * clear_io_state() takes a percent offset again at each loop, of the file's
		 * size then (fio 3.33, loops=2, filesize=1500k, size=10%, offset=10%: 9 writes
		 * from 0, then 8 from 16k): passes that start elsewhere are not modelled
		 */
		if (job->offset_frac < 0 || kfsim_bfq_job_pct_offset(job, cur) == job->file_offset)
			continue;
		for (unsigned int l = 0; l < p->nr_loops_at[k]; l++)
			fio_err_once(p, &(struct fio_pending){ p->loops_at[k][l].line,
				p->loops_at[k][l].file, "loops", "an offset in % over several loops "
				"of a file whose size changed (fio takes the offset again at each "
				"loop, of the file's size then: clear_io_state()) is not modelled" });
	}
	if (max_offset)
		*max_offset = off_max;
	if (unsized)
		*unsized = any_unsized;
	return cur;
}

/* Is job @i the first of its file (not a device, and with disk I/O)? */
static bool fio_file_first(const struct fio_parser *p, unsigned int i)
{
	if (fio_is_nowhere(p->filenames[i]) || p->jobs[i].engine == KFSIM_ENGINE_NONE ||
	    fio_is_device(p->filenames[i]))
		return false;
	for (unsigned int k = p->first; k < i; k++) {
		if (!strcmp(p->filenames[k], p->filenames[i]))
			return false;
	}
	return true;
}

/*
 * What a job without size= gets.  fio needs size= to make a file ("you need to specify
 * size="); kfsim gives each file without one an equal share, 1 MiB aligned, of the disk that
 * the sized files and the offsets of the unsized ones leave, so that no two files overlap
 * (one such file takes the rest of the disk).
 */
static u64 fio_unsized_share(struct fio_parser *p, u64 cap_bytes)
{
	u64 taken = 0;
	unsigned int nr_unsized = 0;

	for (unsigned int i = p->first; i < p->nr; i++) {
		bool unsized;
		u64 size, offset;

		if (!fio_file_first(p, i))
			continue;
		size = fio_file_walk(p, i, 0, false, &offset, &unsized);
		nr_unsized += unsized;
		/*
		 * fio_layout() rounds each file up to 1 MiB, an unsized one's offset + share too:
		 * the share (whole MiB) leaves the rounding of its offset to be taken here, or the
		 * files after it would find that much less room than they need
		 */
		taken += ((unsized ? offset : size) + (1 << 20) - 1) & ~((u64)(1 << 20) - 1);
	}
	if (!nr_unsized || taken >= cap_bytes)
		return 0;
	return (cap_bytes - taken) / nr_unsized & ~((u64)(1 << 20) - 1);
}

/*
 * The next name of a filename=a:b list from *@list into @name (get_next_name(): a '\\:' is
 * the name's colon), false at the list's end.
 */
static bool fio_list_next(const char **list, char *name, size_t len)
{
	const char *x = *list;
	size_t n = 0;

	while (*x == ':')
		x++;
	if (!*x)
		return false;
	for (; *x && *x != ':'; x++) {
		if (*x == '\\' && x[1] == ':')
			x++;
		if (n + 1 < len)
			name[n++] = *x;
	}
	name[n] = '\0';
	*list = x;
	return true;
}

/*
 * Whether two jobs' files (@a, @b: one name, or a list when @a_list, @b_list) have one in
 * common: a list is laid out as one, so its files may be used only by jobs naming it all.
 */
static bool fio_names_overlap(const char *a, bool a_list, const char *b, bool b_list)
{
	char na[128], nb[128];

	for (const char *x = a; a_list ? fio_list_next(&x, na, sizeof(na)) : x == a;) {
		if (!a_list) {
			snprintf(na, sizeof(na), "%s", a);
			x = a + 1;
		}
		for (const char *y = b; b_list ? fio_list_next(&y, nb, sizeof(nb)) : y == b;) {
			if (!b_list) {
				snprintf(nb, sizeof(nb), "%s", b);
				y = b + 1;
			}
			if (!strcmp(na, nb))
				return true;
		}
	}
	return false;
}

/* Each file its own region, in order of first use; one device at most. */
static void fio_layout(struct fio_parser *p)
{
	u64 cap_bytes = (u64)p->capacity << SECTOR_SHIFT, next = 0;
	u64 share = fio_unsized_share(p, cap_bytes);
	const char *device = NULL;

	for (unsigned int i = p->first; i < p->nr; i++) {
		const char *name = p->filenames[i];
		u64 size = 0;

		if (p->listed[i] && fio_list_has_device(name))
			continue;	/* refused: fio_files_why() */
		if (fio_is_device(name) && !fio_is_nowhere(name) &&
		    p->jobs[i].engine != KFSIM_ENGINE_NONE) {
			if (device && strcmp(device, name))
				fio_err(&p->errs, p->files[i], p->lines[i], "filename=%s: kfsim "
					"simulates one disk, and %s is another", name, device);
			device = name;
			continue;
		}
		if (!fio_file_first(p, i))
			continue;
		for (unsigned int k = p->first; k < i; k++) {
			if ((p->listed[i] || p->listed[k]) &&
			    fio_names_overlap(name, p->listed[i], p->filenames[k], p->listed[k]))
				fio_err(&p->errs, p->files[i], p->lines[i], "filename=%s: a file "
					"also of job '%s' (filename=%s), one list of several files "
					"per job laid out apart from another, is not modelled",
					name + p->listed[i], p->jobs[k].name,
					p->filenames[k] + p->listed[k]);
		}
		/* the file holds the largest offset + size of the jobs that use it */
		size = fio_file_walk(p, i, share, true, NULL, NULL);
		/* 1 MiB aligned, as far as the disk goes */
		size = (size + (1 << 20) - 1) & ~((u64)(1 << 20) - 1);
		if (size > cap_bytes - min(cap_bytes, next))
			size = cap_bytes - min(cap_bytes, next);
		/* clamped above: a file that finds the disk full would get no room at all */
		if (next + size > cap_bytes || !size) {
			fio_err(&p->errs, p->files[i], p->lines[i], "job '%s': its file '%s' "
				"does not fit on the disk after the files before it",
				p->jobs[i].name, name);
			continue;
		}
		p->jobs[i].file_start = next;
		p->jobs[i].file_size = size;
		next += size;
	}
	for (unsigned int i = p->first; i < p->nr; i++) {
		for (unsigned int k = p->first; k < i; k++) {
			if (!strcmp(p->filenames[k], p->filenames[i]) && p->jobs[k].file_size) {
				p->jobs[i].file_start = p->jobs[k].file_start;
				p->jobs[i].file_size = p->jobs[k].file_size;
			}
		}
	}
}

/* Sizes in percent become bytes of the job's file or of the disk, now that they are known. */
/*
 * On the device itself fio's I/O stops at the device's end: a region that goes past it is cut
 * there (fio 3.33 on a loop device of 64 MiB + 512 B: offset=60m,size=16m read 4 MiB and
 * offset=90%,size=50% 1638 blocks, both without an error).  An offset past the end stays
 * refused (kfsim_bfq_job_region()).
 */
static void fio_device_end(struct kfsim_bfq_job *job, sector_t capacity, u64 size_loops)
{
	u64 cap = (u64)capacity << SECTOR_SHIFT;
	u64 off = kfsim_bfq_job_offset_bytes(job, capacity);
	u64 size = kfsim_bfq_job_size_bytes(job, cap, off);
	u64 align = max(min(kfsim_bfq_job_min_bs(job, false), kfsim_bfq_job_min_bs(job, true)),
			(unsigned int)SECTOR_SIZE);

	/* a percent is cut to what the offset leaves already (kfsim_bfq_job_size_bytes()) */
	if (job->size_frac >= 0 || !size || off >= cap || size <= cap - off)
		return;
	/*
	 * whole blocks: no block fits past the last whole one (setup_files() aligns a percent
	 * size down to td_min_bs()); a 999936-byte loop device, bs=64k: offset=897536,size=16m
	 * is 1 read under fio 3.33, offset=50%,size=60% 7 (kfsim 2 and 8, a pass more)
	 */
	job->size = (cap - off) / align * align;
	job->size_frac = -1;
	/* the bytes fio does are its files' io_size, cut with them (setup_files()) */
	if (size_loops)
		job->io_size = job->size * size_loops;
}

/*
 * The bytes of a pass of a fio_whole_blocks() job whose region is @region bytes: a random
 * job's map holds its whole blocks (last_block()); a sequential job issues a block while it
 * starts inside the region (get_next_offset(): offset < io_size) and ends inside the file
 * (fill_io_u(): real_file_size; get_next_buflen() asks nothing more of one block size), so
 * the last may pass the region's end: fio 3.33 wrote 15 blocks of 16k for a region of
 * 233472 bytes in a larger file, read 15 of 64k for 1000k at a file's end.
 */
static u64 fio_pass_blocks(struct fio_parser *p, unsigned int i, struct kfsim_bfq_job *job,
			   u64 region)
{
	u64 bs = kfsim_bfq_job_max_bs(job), tail = region % bs, file_end, end;

	if (!tail || kfsim_bfq_job_is_random(job))
		return region - tail;
	file_end = job->file_size ? p->fio_file_size[i] : (u64)p->capacity << SECTOR_SHIFT;
	end = kfsim_bfq_job_offset_bytes(job, p->capacity) + region;
	if (end > file_end || file_end - end < bs - tail)
		return region - tail;
	job->seq_overrun = bs - tail;
	return region - tail + bs;
}

/* setup_files(): io_size=N% of a file's region, whole bytes (fio's integer division) */
static u64 fio_pass_of(u64 region_bytes, unsigned int io_size_pct)
{
	return io_size_pct ? region_bytes * io_size_pct / 100 : region_bytes;
}

static void fio_resolve_sizes(struct fio_parser *p)
{
	for (unsigned int i = p->first; i < p->nr; i++) {
		struct kfsim_bfq_job *job = &p->jobs[i];
		sector_t start, nr;
		u64 pass, region;
		char why[200];

		if (job->engine == KFSIM_ENGINE_NONE) {
			/*
			 * no region: a size in percent is of filesize= or else of the disk (fio's
			 * null engine fails without filesize=, "you need to specify size=")
			 */
			u64 size = kfsim_bfq_job_size_bytes(job, p->filesize[i] ? p->filesize[i] :
							     (u64)p->capacity << SECTOR_SHIFT, 0);

			if (p->loops[i])
				job->io_size = fio_pass_of(size, p->io_size_pct[i]) * p->loops[i];
			continue;
		}
		if (!job->file_size)
			fio_device_end(job, p->capacity, p->size_loops[i]);
		if (kfsim_bfq_job_region(job, p->capacity, &start, &nr, why, sizeof(why))) {
			fio_err(&p->errs, p->files[i], p->lines[i], "job '%s': %s", job->name, why);
			continue;
		}
		region = (u64)nr << SECTOR_SHIFT;
		if (p->whole_blocks[i])
			region = fio_pass_blocks(p, i, job, region);
		pass = fio_pass_of(region, p->io_size_pct[i]);
		if (p->loops[i])
			job->io_size = pass * p->loops[i];
		else if (p->whole_blocks[i] && p->size_loops[i])
			job->io_size = region * p->size_loops[i];
		if (p->whole_blocks[i] && job->io_size) {
			/*
			 * do_io() also stops once its issued bytes reach size x loops
			 * (io_issue_bytes_exceeded()): passes whose last block passes the
			 * region's end do fewer blocks in all (fio 3.33, 32k writes to 100k
			 * twice in a larger file: 7, not 8)
			 */
			u64 bs = kfsim_bfq_job_max_bs(job);
			u64 limit = ((u64)nr << SECTOR_SHIFT) * (p->loops[i] ? p->loops[i] :
								  p->size_loops[i]);

			job->io_size = min(job->io_size, (limit + bs - 1) / bs * bs);
		}
		/*
		 * a job that ends at its size makes passes of its region (do_io()); with
		 * io_size=N% fio's size is N % of it, a pass's bytes under a queueing engine (a
		 * synchronous one's pass still ends when no offset is left)
		 */
		if (job->io_size && p->pass_io_size[i] != U64_MAX)
			job->pass_bytes = max(job->engine == KFSIM_ENGINE_ASYNC ? pass : region,
					      p->pass_io_size[i]);
		else if (job->io_size)
			job->pass_bytes = U64_MAX;
	}
}

static void fio_check_cgroups(struct fio_parser *p)
{
	for (unsigned int i = 0; i < p->nr; i++) {
		for (unsigned int j = i + 1; j < p->nr; j++) {
			const struct kfsim_bfq_job *a = &p->jobs[i], *b = &p->jobs[j];

			if (a->cgroup[0] && !strcmp(a->cgroup, b->cgroup) && a->weight &&
			    b->weight && a->weight != b->weight) {
				fio_err(&p->errs, p->files[j], p->lines[j], "job '%s': cgroup '%s' "
					"already has cgroup_weight=%u (job '%s'), not %u", b->name,
					b->cgroup, a->weight, a->name, b->weight);
				return;
			}
		}
	}
}

/*
 * How long after ramp_time a job's first I/O can come, which ends its ramp and starts its
 * runtime: a think time, a gap of its slowest rate cap, and a second for the disk.
 */
static u64 fio_ramp_slack(const struct kfsim_bfq_job *job)
{
	u64 slack = NSEC_PER_SEC + job->thinktime_us * NSEC_PER_USEC;
	u64 bs = max((u64)job->bs, (u64)job->bs_max);

	bs = max(bs, (u64)job->bs_write_max);
	bs = max(bs, (u64)job->bs_write);

	/* the caps as the run applies them, in bytes a second (kfsim_bfq_job_rate_bps()) */
	for (int write = 0; write < 2; write++) {
		u64 bps = kfsim_bfq_job_rate_bps(job, write);

		if (bps)
			slack += div64_u64(bs * NSEC_PER_SEC, bps);
	}
	return slack;
}

/*
 * The run lasts until the last job can have ended, when every job has a runtime (its ramp
 * before it, ended by the job's first I/O after ramp_time: fio_ramp_slack()).
 */
static u64 fio_duration(const struct fio_parser *p)
{
	u64 total = 0, group = 0;

	for (unsigned int i = p->first; i < p->nr; i++) {
		const struct kfsim_bfq_job *job = &p->jobs[i];
		u64 end = max(job->startdelay_ns, job->startdelay_max_ns) + job->runtime_ns;

		if (job->ramp_ns && job->runtime_ns)
			end += job->ramp_ns + fio_ramp_slack(job);
		if (!job->runtime_ns)
			return 0;
		if (job->after == i || job->wait_for) {
			total += group;	/* a new stonewall group starts after the last */
			group = 0;
		}
		group = max(group, end);
	}
	return total + group;
}

static int fio_parse(FILE *in, const char *path, struct kfsim_bfq_sim_config *cfg,
		     char *errbuf, size_t errlen)
{
	struct fio_parser *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int err = -EINVAL;
	u64 duration;

	if (errbuf && errlen)
		errbuf[0] = '\0';
	if (!p)
		return -ENOMEM;
	kfsim_problem_list_init(&p->errs, errbuf, errlen, "\n");
	p->jobs = kcalloc(KFSIM_BFQ_MAX_JOBS, sizeof(*p->jobs), GFP_KERNEL);
	p->lines = kcalloc(KFSIM_BFQ_MAX_JOBS, sizeof(*p->lines), GFP_KERNEL);
	p->files = kcalloc(KFSIM_BFQ_MAX_JOBS, sizeof(*p->files), GFP_KERNEL);
	if (!p->jobs || !p->lines || !p->files) {
		err = -ENOMEM;
		goto out;
	}
	p->capacity = cfg->disk.capacity;
	p->nr = p->first = cfg->nr_jobs;
	memcpy(p->jobs, cfg->jobs, cfg->nr_jobs * sizeof(cfg->jobs[0]));
	kfsim_bfq_job_default(&p->global.job);
	/* fio's defaults where kfsim's --job differs: buffered I/O, a synchronous engine */
	p->global.job.buffered = true;
	p->global.job.engine = KFSIM_ENGINE_SYNC;
	strcpy(p->global.job.ioengine, "psync");
	p->global.numjobs = 1;
	p->global.fst_nr = 1;	/* file_service_type's default, roundrobin (str_fst_cb()) */
	p->global.reap_min = 1;	/* iodepth_batch_complete_min's default */
	p->global.randrepeat = true;	/* fio 3.33's defaults: randrepeat=1, randseed=0x89 */
	p->global.randseed = 0x89;
	p->global.zonemode = -1;
	p->global.do_verify = true;
	p->global.is_global = true;
	fio_parse_stream(p, in, path, 0);
	if (p->in_section)
		fio_engine_opts_check(p, &p->sec);
	if (p->in_section && !p->sec.is_global)
		fio_emit(p, &p->sec);
	if (p->nr == p->first && !p->errs.nr)
		fio_err(&p->errs, path, 0, "no job section");
	/* with the other problems: the jobs are read, whatever their options' problems */
	if (p->nr > p->first) {
		fio_layout(p);
		fio_resolve_sizes(p);
		fio_check_cgroups(p);
		for (unsigned int i = p->first; i < p->nr; i++)
			p->jobs[i].exitall = p->exitall;
	}
	if (p->errs.nr) {
		kfsim_problem_list_finish(&p->errs);
		goto out;
	}
	memcpy(cfg->jobs, p->jobs, p->nr * sizeof(cfg->jobs[0]));
	cfg->nr_jobs = p->nr;
	duration = fio_duration(p);
	if (duration)
		cfg->duration_ns = duration;
	err = 0;
out:
	for (unsigned int i = 0; i < p->nr_paths; i++)
		free(p->paths[i]);
	kfree(p->jobs);
	kfree(p->lines);
	kfree(p->files);
	kfree(p);
	return err;
}

int kfsim_bfq_fio_parse(FILE *in, struct kfsim_bfq_sim_config *cfg, char *errbuf,
			size_t errlen)
{
	return fio_parse(in, NULL, cfg, errbuf, errlen);
}

int kfsim_bfq_fio_parse_file(const char *path, struct kfsim_bfq_sim_config *cfg, char *errbuf,
			     size_t errlen)
{
	int err;
	FILE *in = kfsim_infile_open(path, &err);

	if (!in) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "%s: cannot open: %s", path, strerror(-err));
		return err;
	}
	err = fio_parse(in, path, cfg, errbuf, errlen);
	fclose(in);
	return err;
}
