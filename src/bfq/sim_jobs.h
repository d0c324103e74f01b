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

#endif /* KFSIM_BFQ_SIM_JOBS_H */
