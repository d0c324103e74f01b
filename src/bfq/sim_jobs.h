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

#endif /* KFSIM_BFQ_SIM_JOBS_H */
