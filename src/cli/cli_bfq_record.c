// SPDX-License-Identifier: MIT
/*
 * A bfq compare/ablate point as a record and back (cli_bfq_record.h).
 *
 * Invariant: every member of struct kfsim_bfq_sim_result, kfsim_bfq_actuator_result and
 * kfsim_bfq_job_result is a row of the tables below, written and read by the same walk
 * (kfsim_rec_put_table(), kfsim_rec_get_table()), so a merged point is the run's own result and
 * prints as it does in every output (table, --json, --svg).  tests/grid/test_records.c checks
 * that the tables cover their structs byte for byte (a member added to a struct and not here
 * fails it) and that a result with every field set reads back equal.
 *
 * Left out, with the reason in the table: the per-bin throughput series, which only `bfq sim`
 * draws.  Carried although only --json shows them: the steady-state windows' samples.
 */
#include <stdlib.h>
#include <string.h>

#include <kfsim/kernel.h>
#include "cli_bfq_record.h"

/* a replay has a job per traced process: no bound of KFSIM_BFQ_MAX_JOBS; this one is a sanity's */
#define RECORD_MAX_JOBS (1u << 20)

#define ACT(m, k, ...) KFSIM_REC_FIELD(struct kfsim_bfq_actuator_result, m, k, __VA_ARGS__)
static const struct kfsim_rec_field actuator_fields[] = {
	ACT(utilisation, KFSIM_REC_DOUBLE),
	ACT(mb_s, KFSIM_REC_DOUBLE),
	ACT(iops, KFSIM_REC_DOUBLE),
	ACT(requests, KFSIM_REC_U64),
	ACT(injected, KFSIM_REC_U64),
	ACT(cache_hits, KFSIM_REC_U64),
};
static const struct kfsim_rec_table actuator_table =
	KFSIM_REC_TABLE(struct kfsim_bfq_actuator_result, actuator_fields);

#define JOB(m, k, ...) KFSIM_REC_FIELD(struct kfsim_bfq_job_result, m, k, __VA_ARGS__)
static const struct kfsim_rec_field job_fields[] = {
	JOB(name, KFSIM_REC_STR),
	JOB(weight, KFSIM_REC_UINT),
	JOB(requests, KFSIM_REC_U64),
	JOB(bytes, KFSIM_REC_U64),
	JOB(mb_s, KFSIM_REC_DOUBLE),
	JOB(iops, KFSIM_REC_DOUBLE),
	JOB(share, KFSIM_REC_DOUBLE),
	JOB(lat_mean_us, KFSIM_REC_DOUBLE),
	JOB(lat_p99_us, KFSIM_REC_DOUBLE),
	JOB(lat_max_us, KFSIM_REC_DOUBLE),
	JOB(active_s, KFSIM_REC_DOUBLE),
	JOB(read_bytes, KFSIM_REC_U64),
	JOB(write_bytes, KFSIM_REC_U64),
	JOB(read_ios, KFSIM_REC_U64),
	JOB(write_ios, KFSIM_REC_U64),
	JOB(error, KFSIM_REC_ERRNO),
	JOB(lat_target_depth, KFSIM_REC_UINT),
	JOB(ss_state, KFSIM_REC_UINT),
	JOB(ss_limit, KFSIM_REC_DOUBLE),
	JOB(ss_dur_s, KFSIM_REC_U64),
	JOB(ss_attained, KFSIM_REC_BOOL),
	JOB(ss_criterion, KFSIM_REC_DOUBLE),
	JOB(ss_deviation, KFSIM_REC_DOUBLE),
	JOB(ss_slope, KFSIM_REC_DOUBLE),
	JOB(ss_bw_mean, KFSIM_REC_U64),
	JOB(ss_iops_mean, KFSIM_REC_U64),
	/* the window's samples: --json lists them (fio's "steadystate" "data") */
	JOB(ss_bw_data, KFSIM_REC_U64_PTR, KFSIM_REC_COUNT(struct kfsim_bfq_job_result, ss_dur_s)),
	JOB(ss_iops_data, KFSIM_REC_U64_PTR,
	    KFSIM_REC_COUNT(struct kfsim_bfq_job_result, ss_dur_s)),
	JOB(syncs, KFSIM_REC_U64),
	JOB(fsyncs, KFSIM_REC_U64),
	JOB(sync_lat_mean_us, KFSIM_REC_DOUBLE),
	JOB(sync_lat_p99_us, KFSIM_REC_DOUBLE),
	JOB(sync_lat_max_us, KFSIM_REC_DOUBLE),
};
static const struct kfsim_rec_table job_table =
	KFSIM_REC_TABLE(struct kfsim_bfq_job_result, job_fields);

#define RES(m, k, ...) KFSIM_REC_FIELD(struct kfsim_bfq_sim_result, m, k, __VA_ARGS__)
static const struct kfsim_rec_field result_fields[] = {
	RES(duration_s, KFSIM_REC_DOUBLE),
	RES(nr_actuators, KFSIM_REC_UINT, .max = KFSIM_HDD_MAX_ACTUATORS),
	RES(actuator, KFSIM_REC_STRUCTS, .sub = &actuator_table,
	    KFSIM_REC_COUNT(struct kfsim_bfq_sim_result, nr_actuators)),
	RES(nr_jobs, KFSIM_REC_UINT, .max = RECORD_MAX_JOBS),
	RES(jobs, KFSIM_REC_STRUCTS_PTR, .sub = &job_table, .max = RECORD_MAX_JOBS,
	    KFSIM_REC_COUNT(struct kfsim_bfq_sim_result, nr_jobs)),
	RES(mb_s, KFSIM_REC_DOUBLE),
	RES(iops, KFSIM_REC_DOUBLE),
	RES(jain, KFSIM_REC_DOUBLE),
	RES(submitted, KFSIM_REC_U64),
	RES(completed, KFSIM_REC_U64),
	RES(in_flight, KFSIM_REC_U64),
	RES(drained, KFSIM_REC_U64),
	RES(expirations, KFSIM_REC_U64_ARRAY),
	RES(hole_injected, KFSIM_REC_U64),
	RES(shallow_allocs, KFSIM_REC_U64),
	RES(shallow_waits, KFSIM_REC_U64),
	RES(nr_bins, KFSIM_REC_NOT_CARRIED, .why = "the time series: bfq sim's --svg only"),
	RES(series_mb_s, KFSIM_REC_NOT_CARRIED, .why = "the time series: bfq sim's --svg only"),
	RES(writeback_bytes, KFSIM_REC_U64),
	RES(dirty_bytes, KFSIM_REC_U64),
	RES(replay_issued, KFSIM_REC_U64),
	RES(replay_lag_mean_us, KFSIM_REC_DOUBLE),
	RES(replay_lag_max_us, KFSIM_REC_DOUBLE),
	RES(replay_makespan_s, KFSIM_REC_DOUBLE),
};
const struct kfsim_rec_table kfsim_bfq_result_table =
	KFSIM_REC_TABLE(struct kfsim_bfq_sim_result, result_fields);

char *kfsim_bfq_result_record(const struct kfsim_bfq_sim_result *res)
{
	struct kfsim_rec rec;

	kfsim_rec_init(&rec);
	kfsim_rec_put_table(&rec, &kfsim_bfq_result_table, res);
	return kfsim_rec_finish(&rec);
}

int kfsim_bfq_result_unrecord(const char *rec, struct kfsim_bfq_sim_result *res, char *why,
			      size_t why_size)
{
	return kfsim_rec_get_table(rec, &kfsim_bfq_result_table, res, why, why_size);
}

void kfsim_bfq_result_release(struct kfsim_bfq_sim_result *res)
{
	kfsim_rec_release_table(&kfsim_bfq_result_table, res);
}
