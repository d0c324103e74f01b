/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BFQ_SIM_JOBS_H
#define KFSIM_BFQ_SIM_JOBS_H

/* One job key, shared by --job specs (sim_jobs.c) and fio job files (fio_jobs.c). */
#include <kfsim/bfq_sim.h>

/*
 * kfsim_bfq_job_set() - apply "@key=@value" to @job; an ioprio level waits in @job->ioprio
 * and the class in *@prioclass until the caller combines them with IOPRIO_PRIO_VALUE().
 * Return: 0, or -EINVAL with the reason in @errbuf.
 */
int kfsim_bfq_job_set(struct kfsim_bfq_job *job, const char *key, const char *value,
		      unsigned int *prioclass, char *errbuf, size_t errlen);

/* fio's rw= name of @rw; an engine name's class (-EINVAL for an engine not modelled). */
const char *kfsim_bfq_rw_name(enum kfsim_bfq_rw rw);
int kfsim_bfq_engine_parse(const char *name, enum kfsim_bfq_engine *engine);

/*
 * What a job issues next (sim_job_io.c): its direction, block size and sector, drawn from
 * @rnd; @next_pos is the sequential position of that direction.
 */
struct rnd_state;
bool kfsim_bfq_job_is_mixed(const struct kfsim_bfq_job *job);
bool kfsim_bfq_job_is_random(const struct kfsim_bfq_job *job);
bool kfsim_bfq_job_choose_write(const struct kfsim_bfq_job *job, struct rnd_state *rnd);
unsigned int kfsim_bfq_job_min_bs(const struct kfsim_bfq_job *job, bool write);
unsigned int kfsim_bfq_job_choose_bs(const struct kfsim_bfq_job *job, bool write,
				     struct rnd_state *rnd);
sector_t kfsim_bfq_job_choose_sector(const struct kfsim_bfq_job *job, sector_t start,
				     sector_t nr_sectors, sector_t *next_pos, unsigned int bytes,
				     struct rnd_state *rnd);
/* requests the job keeps in flight: 1 for a synchronous engine, else its iodepth */
unsigned int kfsim_bfq_job_depth(const struct kfsim_bfq_job *job);

/*
 * fio's latency-target depth search (sim_lat_target.c, struct kfsim_bfq_job's
 * latency_target_ns): the state of one job.  @qd is the depth the job may keep in flight;
 * while @drain_cycle it issues nothing until its I/O in flight completed, then calls
 * sim_lat_target_drained() (forgetting its figures when that says so) and
 * sim_lat_target_new_cycle().
 */
struct sim_lat_target {
	unsigned int qd, qd_low, qd_high, stable_count;
	bool end_run;		/* the final window at the depth found */
	bool drain_cycle;	/* io_u_quiesce(): a new window once drained */
	bool drain_reset;	/* and the figures start again (reset_all_stats()) */
	bool done;		/* the search settled: the job ends */
	bool fatal;		/* a late I/O at depth 1 with a 100 % target: -ETIMEDOUT */
	u64 window_start_ns, ios_base, failed;
};

void sim_lat_target_init(struct sim_lat_target *lt, const struct kfsim_bfq_job *job, u64 now,
			 u64 ios);
void sim_lat_target_complete(struct sim_lat_target *lt, const struct kfsim_bfq_job *job,
			     u64 lat_ns, u64 now, u64 ios);
void sim_lat_target_new_cycle(struct sim_lat_target *lt, u64 now, u64 ios);
/* the job's I/O drained while @drain_cycle: true when its figures start again */
bool sim_lat_target_drained(struct sim_lat_target *lt);

#endif /* KFSIM_BFQ_SIM_JOBS_H */
