// SPDX-License-Identifier: MIT
/*
 * fio's latency-target depth search for one job (fio 3.33 io_u.c: lat_target_init(),
 * lat_target_check(), lat_target_success(), __lat_target_failed(), lat_fatal(); backend.c's
 * queue_full() caps the job's depth at the depth searched).
 *
 * Invariants (fio's):
 * - 1 <= qd <= the job's iodepth; qd_low is the last depth whose window met the target, qd_high
 *   the last that failed (the iodepth until one failed);
 * - a window is judged at the first completion at least latency_window after it began: it
 *   succeeds when (ios - failed) / ios * 100 >= latency_percentile, over the I/Os completed
 *   since it began (none is a failure, as fio's 0/0);
 * - success raises the depth: doubling while qd_high is still the iodepth, else bisecting
 *   towards qd_high; the third success in a row one below qd_high raises qd_high by one;
 * - failure bisects towards qd_low (one lower when the depth is already qd_low) and drains the
 *   job's I/O before the next window (io_u_quiesce()); at depth 1 it changes nothing and the
 *   window goes on, judged again at each completion;
 * - with latency_percentile 100 a late I/O fails at once, and at depth 1 ends the job with
 *   ETIMEDOUT;
 * - when a success leaves the depth where it was, the job drains, its figures start again
 *   (reset_all_stats()) and it runs one more window; the next such success ends it, unless
 *   latency_run (sim_lat_target_drained() says when the figures start again);
 * - completions while draining are judged against the window that was open, as fio's quiesce
 *   reaps them through the same accounting; a success among them opens a new window at once.
 *
 * Not modelled: fio also judges the window after each submission (do_io()'s loop); here only
 * completions do, which differs only when a window ends between a completion and the next
 * submission (a think time).
 */
#include <kfsim/bfq_sim.h>
#include <kfsim/kernel.h>
#include "sim_jobs.h"

static unsigned int lat_target_iodepth(const struct kfsim_bfq_job *job)
{
	return max(job->iodepth, 1U);
}

void sim_lat_target_new_cycle(struct sim_lat_target *lt, u64 now, u64 ios)
{
	lt->window_start_ns = now;
	lt->ios_base = ios;
	lt->failed = 0;
}

bool sim_lat_target_drained(struct sim_lat_target *lt)
{
	bool reset = lt->drain_reset;

	lt->drain_cycle = lt->drain_reset = false;
	if (reset)
		lt->end_run = true;
	return reset;
}

void sim_lat_target_init(struct sim_lat_target *lt, const struct kfsim_bfq_job *job, u64 now,
			 u64 ios)
{
	*lt = (struct sim_lat_target){
		.qd = 1,
		.qd_low = 1,
		.qd_high = lat_target_iodepth(job),
	};
	sim_lat_target_new_cycle(lt, now, ios);
}

/* __lat_target_failed(): false at depth 1, where nothing changes */
static bool lat_target_ramp_down(struct sim_lat_target *lt)
{
	if (lt->qd == 1)
		return false;
	lt->qd_high = lt->qd;
	if (lt->qd == lt->qd_low)
		lt->qd_low--;
	lt->qd = (lt->qd + lt->qd_low) / 2;
	lt->stable_count = 0;
	lt->drain_cycle = true;		/* io_u_quiesce(), then lat_new_cycle() */
	return true;
}

static void lat_target_success(struct sim_lat_target *lt, const struct kfsim_bfq_job *job,
			       u64 now, u64 ios)
{
	unsigned int qd = lt->qd, iodepth = lat_target_iodepth(job);

	lt->qd_low = lt->qd;
	/* stuck one below the failing depth: creep the ceiling up, once in three */
	if (lt->qd + 1 == lt->qd_high && ++lt->stable_count >= 3) {
		lt->qd_high++;
		lt->stable_count = 0;
	}
	if (lt->qd_high != iodepth)
		lt->qd = (lt->qd + lt->qd_high) / 2;
	else
		lt->qd *= 2;
	lt->qd = min(lt->qd, iodepth);
	if (!job->latency_run && lt->qd == qd) {
		if (lt->end_run) {
			lt->done = true;
		} else {
			/*
			 * one more window at this depth, with figures from it alone, once drained:
			 * fio sets latency_end_run after its quiesce, so a completion reaped meanwhile
			 * that judges the window a success again comes here again, not to the end
			 */
			lt->drain_cycle = true;
			lt->drain_reset = true;
			return;
		}
	}
	sim_lat_target_new_cycle(lt, now, ios);
}

void sim_lat_target_complete(struct sim_lat_target *lt, const struct kfsim_bfq_job *job,
			     u64 lat_ns, u64 now, u64 ios)
{
	u64 nr;

	if (lat_ns > job->latency_target_ns) {
		if (job->latency_percentile < 100.0) {
			lt->failed++;
		} else if (!lat_target_ramp_down(lt)) {
			lt->fatal = true;	/* lat_fatal(): ETIMEDOUT */
			return;
		} else {
			/*
			 * fio drains and opens a window before judging: a window of 0 is judged
			 * at once, over no I/O, which fails
			 */
			if (!job->latency_window_ns)
				lat_target_ramp_down(lt);
			return;
		}
	}
	if (now - lt->window_start_ns < job->latency_window_ns)
		return;
	nr = ios - lt->ios_base;
	if (nr && (double)(nr - lt->failed) / (double)nr * 100.0 >= job->latency_percentile)
		lat_target_success(lt, job, now, ios);
	else
		lat_target_ramp_down(lt);
}
