// SPDX-License-Identifier: MIT
/*
 * kfsim's reading of its jobs as JSON (kfsim bfq --dump-jobs): what a referee compares with
 * fio's own reading of the same job file (tests/bfq/fio_oracle.py).  Every figure is what the
 * simulation will use: the region after files are laid out, the depth the engine allows, the
 * request flags a write carries.  Sizes are bytes, times microseconds.
 */
#include <stdio.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include <kfsim/json.h>
#include "sim_jobs.h"

static const char *const engine_names[] = {
	[KFSIM_ENGINE_ASYNC] = "async", [KFSIM_ENGINE_SYNC] = "sync", [KFSIM_ENGINE_NONE] = "none",
};

static const char *const dist_names[] = {
	[KFSIM_DIST_RANDOM] = "random", [KFSIM_DIST_ZIPF] = "zipf", [KFSIM_DIST_PARETO] = "pareto",
	[KFSIM_DIST_NORMAL] = "normal", [KFSIM_DIST_ZONED] = "zoned",
};

/* [read, write]; as a member of an object when @key is given, else as an array element */
static void dump_pair(struct kfsim_json *json, const char *key, u64 rd, u64 wr)
{
	if (key)
		kfsim_json_key(json, key);
	kfsim_json_array_begin(json);
	kfsim_json_uint(json, rd);
	kfsim_json_uint(json, wr);
	kfsim_json_array_end(json);
}

static void dump_bs(struct kfsim_json *json, const struct kfsim_bfq_job *job)
{
	unsigned int bs_write = job->bs_write ? job->bs_write : job->bs;

	dump_pair(json, "bs", job->bs, bs_write);
	kfsim_json_key(json, "bsrange");
	kfsim_json_array_begin(json);
	dump_pair(json, NULL, job->bs, job->bs_max > job->bs ? job->bs_max : job->bs);
	dump_pair(json, NULL, bs_write, job->bs_write_max > bs_write ? job->bs_write_max : bs_write);
	kfsim_json_array_end(json);
	kfsim_json_key(json, "bssplit");
	kfsim_json_array_begin(json);
	for (unsigned int d = 0; d < 2; d++) {
		kfsim_json_array_begin(json);
		for (unsigned int i = 0; i < job->nr_bssplit[d]; i++)
			dump_pair(json, NULL, job->bssplit[d][i].bs, job->bssplit[d][i].perc);
		kfsim_json_array_end(json);
	}
	kfsim_json_array_end(json);
}

/* Capped rates per direction; 0 = no cap (the write cap follows the read one unless given). */
static void dump_rates(struct kfsim_json *json, const struct kfsim_bfq_job *job)
{
	u64 wr = job->rate_write == U64_MAX ? 0 : job->rate_write ? job->rate_write : job->rate;
	u64 iops_wr = job->rate_iops_write == U64_MAX ? 0 :
		      job->rate_iops_write ? job->rate_iops_write : job->rate_iops;

	dump_pair(json, "rate", job->rate, wr);
	dump_pair(json, "rate_iops", job->rate_iops, iops_wr);
}

static void dump_job(struct kfsim_json *json, const struct kfsim_bfq_sim_config *cfg,
		     const struct kfsim_bfq_job *job)
{
	sector_t start = 0, nr = 0;
	char why[160], ss[48];
	bool writes = job->rw != KFSIM_RW_READ && job->rw != KFSIM_RW_RANDREAD;

	kfsim_json_object_begin(json);
	kfsim_json_kv_string(json, "name", job->name);
	kfsim_json_kv_string(json, "rw", kfsim_bfq_rw_name(job->rw));
	kfsim_json_kv_uint(json, "rwmixread", kfsim_bfq_job_is_mixed(job) ? job->rwmixread :
					      writes ? 0 : 100);
	dump_bs(json, job);
	kfsim_json_kv_uint(json, "iodepth", job->iodepth);
	/* fixup_options(): a low mark of 0 or over iodepth is iodepth */
	kfsim_json_kv_uint(json, "iodepth_low", job->iodepth_low && job->iodepth_low <= job->iodepth ?
			   job->iodepth_low : job->iodepth);
	kfsim_json_kv_uint(json, "iodepth_batch_complete_min", job->reap_min);
	kfsim_json_kv_uint(json, "depth", job->engine == KFSIM_ENGINE_NONE ? 0 :
					  kfsim_bfq_job_depth(job));
	kfsim_json_kv_string(json, "ioengine", job->ioengine[0] ? job->ioengine : "psync");
	kfsim_json_kv_string(json, "engine", engine_names[job->engine]);
	kfsim_json_kv_bool(json, "direct", !job->buffered);
	/* what a write carries to the scheduler */
	kfsim_json_kv_string(json, "write_flags", !writes ? "" :
			     !job->buffered || job->sync ? "REQ_SYNC|REQ_IDLE" : "writeback (async)");
	kfsim_json_kv_bool(json, "sync", job->sync);
	/* fio's fsync, fdatasync and end_fsync (or fsync_on_close): only when set */
	if (job->fsync_blocks)
		kfsim_json_kv_uint(json, "fsync", job->fsync_blocks);
	if (job->fdatasync_blocks)
		kfsim_json_kv_uint(json, "fdatasync", job->fdatasync_blocks);
	if (job->end_fsync)
		kfsim_json_kv_bool(json, "end_fsync", true);
	if (job->engine != KFSIM_ENGINE_NONE &&
	    !kfsim_bfq_job_region(job, cfg->disk.capacity, &start, &nr, why, sizeof(why))) {
		kfsim_json_kv_uint(json, "region_start", (u64)start << SECTOR_SHIFT);
		kfsim_json_kv_uint(json, "region_size", (u64)nr << SECTOR_SHIFT);
	}
	kfsim_json_kv_uint(json, "file_start", job->file_start);
	kfsim_json_kv_uint(json, "file_size", job->file_size);
	/* fio nrfiles: each file's bytes, and how the next file is picked (only when several) */
	if (job->nr_files > 1) {
		static const char *const fst[] = { "roundrobin", "sequential", "random" };

		kfsim_json_key(json, "file_bytes");
		kfsim_json_array_begin(json);
		for (unsigned int i = 0; i < job->nr_files && i < KFSIM_BFQ_MAX_FILES; i++)
			kfsim_json_uint(json, job->file_bytes[i]);
		kfsim_json_array_end(json);
		kfsim_json_kv_string(json, "file_service_type", fst[job->file_service % 3]);
		kfsim_json_kv_uint(json, "file_service_nr", job->file_service_nr);
		kfsim_json_kv_uint(json, "files_offset", job->files_offset);
	}
	dump_rates(json, job);
	kfsim_json_kv_uint(json, "percentage_random", kfsim_bfq_job_is_random(job) ?
						      100 - job->perc_seq : 0);
	kfsim_json_kv_string(json, "random_distribution", dist_names[job->dist]);
	kfsim_json_kv_double(json, "distribution_param", job->dist_param);
	kfsim_json_kv_uint(json, "thinktime_us", job->thinktime_us);
	kfsim_json_kv_uint(json, "thinktime_blocks", max(job->thinktime_blocks, 1u));
	kfsim_json_kv_uint(json, "thinktime_iotime_us", job->thinktime_iotime_us);
	kfsim_json_kv_string(json, "thinktime_blocks_type",
			     job->thinktime_issue ? "issue" : "complete");
	dump_pair(json, "startdelay_us", job->startdelay_ns / 1000,
		  (job->startdelay_max_ns > job->startdelay_ns ? job->startdelay_max_ns
							       : job->startdelay_ns) / 1000);
	kfsim_json_kv_uint(json, "runtime_us", job->runtime_ns / 1000);
	kfsim_json_kv_uint(json, "ramp_time_us", job->ramp_ns / 1000);
	kfsim_json_kv_uint(json, "io_size", job->io_size);
	kfsim_json_kv_uint(json, "number_ios", job->number_ios);
	kfsim_json_kv_bool(json, "verify", job->verify);
	kfsim_json_kv_int(json, "seq_skip", job->seq_skip);
	kfsim_json_kv_uint(json, "ddir_seq_nr", job->ddir_seq_nr);
	kfsim_json_kv_string(json, "rw_sequencer", job->rw_seq_identical ? "identical" :
			     "sequential");
	kfsim_json_kv_uint(json, "after", job->after);
	kfsim_json_kv_uint(json, "wait_for", job->wait_for);
	kfsim_json_kv_bool(json, "exitall", job->exitall);
	kfsim_json_kv_bool(json, "exitall_on_error", job->exitall_error);
	kfsim_json_kv_string(json, "exit_what", (const char *const[]){ "group", "stonewall",
								   "all" }[job->exit_what % 3]);
	kfsim_json_kv_uint(json, "group", job->group);
	/* the error its first I/O fails with ("" = none): a trim on a disk without discard */
	kfsim_json_kv_string(json, "io_error", job->io_error ? kfsim_errname(job->io_error) : "");
	kfsim_json_kv_uint(json, "latency_target_us", job->latency_target_ns / 1000);
	kfsim_json_kv_uint(json, "latency_window_us", job->latency_window_ns / 1000);
	kfsim_json_kv_double(json, "latency_percentile", job->latency_percentile);
	kfsim_json_kv_bool(json, "latency_run", job->latency_run);
	kfsim_json_kv_bool(json, "eof_at_start", job->eof_at_start);
	/* steady state as fio's JSON names it ("iops_slope:0.010000%"), its window and ramp */
	kfsim_bfq_ss_name(job->ss_state, job->ss_limit, ss, sizeof(ss));
	kfsim_json_kv_string(json, "ss", ss);
	kfsim_json_kv_uint(json, "ss_dur_s", job->ss_dur_s);
	kfsim_json_kv_uint(json, "ss_ramp_us", job->ss_ramp_ns / 1000);
	kfsim_json_kv_uint(json, "ioprio_class", IOPRIO_PRIO_CLASS(job->ioprio));
	kfsim_json_kv_uint(json, "ioprio_level", IOPRIO_PRIO_LEVEL(job->ioprio));
	kfsim_json_kv_string(json, "cgroup", job->cgroup);
	kfsim_json_kv_uint(json, "weight", job->weight);
	kfsim_json_object_end(json);
}

/*
 * A replay's records as the simulation issues them: times from the trace's first event,
 * sectors placed on the disk (each device's share, kfsim_blktrace_place()), one record per
 * request a bio longer than BLK_DEF_MAX_SECTORS_CAP became; for a referee that reads the
 * trace itself (tests/bfq/replay_check.py).
 */
static void dump_replay(struct kfsim_json *json, const struct kfsim_bfq_sim_config *cfg)
{
	char dev[24];

	kfsim_json_key(json, "replay");
	kfsim_json_array_begin(json);
	for (size_t i = 0; i < cfg->nr_replay; i++) {
		const struct kfsim_blktrace_rec *r = &cfg->replay[i];

		snprintf(dev, sizeof(dev), "%u,%u", r->dev >> 20, r->dev & 0xfffff);
		kfsim_json_array_begin(json);
		kfsim_json_uint(json, r->time_ns);
		kfsim_json_int(json, r->pid);
		kfsim_json_string(json, dev);
		kfsim_json_uint(json, r->sector);
		kfsim_json_uint(json, r->nr_sectors);
		kfsim_json_string(json, r->write ? (r->sync ? "WS" : "W") : (r->sync ? "RS" : "R"));
		kfsim_json_array_end(json);
	}
	kfsim_json_array_end(json);
}

int kfsim_bfq_jobs_dump(FILE *out, const struct kfsim_bfq_sim_config *cfg)
{
	struct kfsim_json json;

	kfsim_json_init(&json, out, true);
	kfsim_json_object_begin(&json);
	kfsim_json_kv_uint(&json, "capacity", (u64)cfg->disk.capacity << SECTOR_SHIFT);
	kfsim_json_kv_uint(&json, "duration_us", cfg->duration_ns / 1000);
	kfsim_json_key(&json, "jobs");
	kfsim_json_array_begin(&json);
	for (unsigned int j = 0; j < cfg->nr_jobs; j++)
		dump_job(&json, cfg, &cfg->jobs[j]);
	kfsim_json_array_end(&json);
	if (cfg->nr_replay)
		dump_replay(&json, cfg);
	kfsim_json_object_end(&json);
	return kfsim_json_finish(&json);
}
