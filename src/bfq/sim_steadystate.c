// SPDX-License-Identifier: MIT
/*
 * fio's steady-state detection for one job (fio 3.33 steadystate.c: td_steadystate_init(),
 * steadystate_check(), steadystate_slope(), steadystate_deviation(); the helper thread calls
 * the check every STEADYSTATE_MSEC = 1000 ms of the run).
 *
 * Invariants (fio's):
 * - a sample is the job's IOPS and bytes/s over the time since the previous check (its
 *   start for the first), in integer arithmetic: 1000 * delta / milliseconds;
 * - samples are taken once the ramp is over: from the first check more than ss_ramp + 1 s
 *   after the job's start (at once without a ramp); for a job started at 0 and ss_ramp=2
 *   the first sample is the second that ends at 4 s, as in fio 3.33's runs (below);
 * - the window holds the last @dur samples (a ring: @head the oldest, @tail the newest);
 *   nothing is judged until it is full;
 * - deviation criteria: the largest |sample - mean| over the window, in percent of the mean
 *   with KFSIM_SS_PCT; slope criteria: the least-squares slope of the samples against
 *   0..dur-1 (seconds, as if the checks were evenly spaced), in percent of the integer mean
 *   (sum_y / dur, truncated as fio's) with KFSIM_SS_PCT, its absolute value judged;
 * - the criterion holds when below the limit (strictly); the job is then marked to end.
 *
 * Measured with fio 3.33 (ioengine=null, rate_iops=1000, ss=iops:5%, ss_dur=3,
 * 2026-12-06): the job ran 2898 ms without a ramp and 5900 ms with ss_ramp=2, its
 * three samples taken at checks 1-3 and 4-6 of fio's clock; kfsim ends such jobs at 3 s
 * and 6 s.
 *
 * Not modelled: with group_reporting fio judges a group's summed rate (refused by the job
 * file reader); a check whose interval rounds to 0 ms would divide by zero in fio, and here
 * takes no sample.
 */
#include <errno.h>
#include <stdio.h>
#include <kfsim/bfq_sim.h>
#include <kfsim/kernel.h>
#include <kfsim/slab.h>
#include "sim_jobs.h"

int sim_steadystate_init(struct sim_steadystate *ss, const struct kfsim_bfq_job *job,
			 u64 epoch_ns)
{
	u64 dur = job->ss_dur_s;

	*ss = (struct sim_steadystate){
		.state = job->ss_state,
		.dur = dur,
		.ramp_ns = job->ss_ramp_ns,
		.limit = job->ss_limit,
		.sum_x = dur * (dur - 1) / 2,
		.sum_x_sq = (dur - 1) * dur * (2 * dur - 1) / 6,
		.prev_ns = epoch_ns,
	};
	if (!ss->ramp_ns)
		ss->state |= SIM_SS_RAMP_OVER;
	ss->iops_data = kcalloc(dur, sizeof(u64), GFP_KERNEL);
	ss->bw_data = kcalloc(dur, sizeof(u64), GFP_KERNEL);
	if (!ss->iops_data || !ss->bw_data) {
		sim_steadystate_free(ss);
		return -ENOMEM;
	}
	return 0;
}

void sim_steadystate_free(struct sim_steadystate *ss)
{
	kfree(ss->iops_data);
	kfree(ss->bw_data);
	ss->iops_data = ss->bw_data = NULL;
}

static u64 ss_sample(const struct sim_steadystate *ss, unsigned int i)
{
	return ss->state & KFSIM_SS_IOPS ? ss->iops_data[i] : ss->bw_data[i];
}

/* the window is full: the sample just stored at @tail completes it, or it was already */
static bool ss_window_full(struct sim_steadystate *ss)
{
	return ss->state & SIM_SS_BUFFER_FULL || ss->tail - ss->head == ss->dur - 1;
}

/* no verdict yet: the ring moves on, dropping the oldest once it is full */
static void ss_advance(struct sim_steadystate *ss)
{
	ss->tail = (unsigned int)((ss->tail + 1) % ss->dur);
	if (ss->tail <= ss->head)
		ss->head = (unsigned int)((ss->head + 1) % ss->dur);
}

/* the window's sum (and, for the slope, sum of x * y), at first filling or slid by one */
static void ss_update_sums(struct sim_steadystate *ss, bool with_xy)
{
	u64 newest = ss_sample(ss, ss->tail);

	if (!(ss->state & SIM_SS_BUFFER_FULL)) {
		ss->sum_y = 0;
		for (unsigned int i = 0; i < ss->dur; i++) {
			ss->sum_y += ss_sample(ss, i);
			if (with_xy)
				ss->sum_xy += i * ss_sample(ss, (unsigned int)((ss->head + i) %
									    ss->dur));
		}
		ss->state |= SIM_SS_BUFFER_FULL;
	} else {
		/* sliding drops the oldest y and lowers every other x by one */
		ss->sum_y = ss->sum_y - ss->oldest_y + newest;
		if (with_xy)
			ss->sum_xy = ss->sum_xy - ss->sum_y + ss->dur * newest;
	}
	ss->oldest_y = ss_sample(ss, ss->head);
}

static bool ss_slope_holds(struct sim_steadystate *ss)
{
	double n = (double)ss->dur, result;

	ss_update_sums(ss, true);
	ss->slope = ((double)ss->sum_xy - (double)ss->sum_x * (double)ss->sum_y / n) /
		    ((double)ss->sum_x_sq - (double)ss->sum_x * (double)ss->sum_x / n);
	if (ss->state & KFSIM_SS_PCT)
		ss->criterion = 100.0 * ss->slope / (double)(ss->sum_y / ss->dur);
	else
		ss->criterion = ss->slope;
	result = ss->criterion < 0.0 ? -ss->criterion : ss->criterion;
	return result < ss->limit;
}

static bool ss_deviation_holds(struct sim_steadystate *ss)
{
	double mean;

	ss_update_sums(ss, false);
	mean = (double)ss->sum_y / (double)ss->dur;
	ss->deviation = 0.0;
	for (unsigned int i = 0; i < ss->dur; i++) {
		double diff = (double)ss_sample(ss, i) - mean;

		ss->deviation = max(ss->deviation, diff < 0.0 ? -diff : diff);
	}
	ss->criterion = ss->state & KFSIM_SS_PCT ? 100.0 * ss->deviation / mean : ss->deviation;
	return ss->criterion < ss->limit;
}

bool sim_steadystate_check(struct sim_steadystate *ss, u64 epoch_ns, u64 now, u64 ios,
			   u64 bytes)
{
	u64 rate_ms = (now - ss->prev_ns) / NSEC_PER_MSEC;
	bool sampled = false, holds;

	if (ss->state & SIM_SS_ATTAINED)
		return false;
	/*
	 * fio asks for ramp + 1 s elapsed (>=); its jobs start a few milliseconds after the
	 * helper thread's clock, so at the check ramp + 1 s into the run they are just short of
	 * it.  kfsim's jobs start on a check's instant: strictly more keeps fio's second.
	 */
	if (!(ss->state & SIM_SS_RAMP_OVER) && now - epoch_ns > ss->ramp_ns + NSEC_PER_SEC)
		ss->state |= SIM_SS_RAMP_OVER;
	if (ss->state & SIM_SS_RAMP_OVER && rate_ms) {
		ss->bw_data[ss->tail] = 1000 * (bytes - ss->prev_bytes) / rate_ms;
		ss->iops_data[ss->tail] = 1000 * (ios - ss->prev_ios) / rate_ms;
		sampled = true;
	}
	ss->prev_ns = now;
	ss->prev_ios = ios;
	ss->prev_bytes = bytes;
	if (!sampled)
		return false;
	if (!ss_window_full(ss)) {
		ss_advance(ss);
		return false;
	}
	holds = ss->state & KFSIM_SS_SLOPE ? ss_slope_holds(ss) : ss_deviation_holds(ss);
	if (holds) {
		ss->state |= SIM_SS_ATTAINED;
		return true;
	}
	ss_advance(ss);
	return false;
}

static void ss_rotate(u64 *data, u64 dur, u64 first)
{
	/* three reversals: [first..dur) then [0..first) */
	for (u64 pass = 0; pass < 3; pass++) {
		u64 lo = pass == 1 ? first : 0, hi = pass == 0 ? first : dur;

		while (hi > lo + 1) {
			u64 t = data[lo];

			data[lo++] = data[--hi];
			data[hi] = t;
		}
	}
}

void sim_steadystate_in_order(struct sim_steadystate *ss)
{
	u64 first;

	if (!ss->iops_data)
		return;
	/*
	 * stat.c: once attained, or before the window filled, @head is the oldest; else the
	 * ring moved on after the last check and the oldest of the window is just before it
	 */
	if (ss->state & SIM_SS_ATTAINED || !(ss->state & SIM_SS_BUFFER_FULL))
		first = ss->head;
	else
		first = ss->head ? ss->head - 1 : ss->dur - 1;
	ss_rotate(ss->iops_data, ss->dur, first);
	ss_rotate(ss->bw_data, ss->dur, first);
	ss->head = 0;
	ss->tail = (unsigned int)(ss->dur - 1);
}

static u64 ss_mean(const u64 *data, u64 dur)
{
	u64 sum = 0;

	for (u64 i = 0; i < dur; i++)
		sum += data[i];
	return dur ? sum / dur : 0;
}

u64 sim_steadystate_bw_mean(const struct sim_steadystate *ss)
{
	return ss->bw_data ? ss_mean(ss->bw_data, ss->dur) : 0;
}

u64 sim_steadystate_iops_mean(const struct sim_steadystate *ss)
{
	return ss->iops_data ? ss_mean(ss->iops_data, ss->dur) : 0;
}

void kfsim_bfq_ss_name(unsigned int ss_state, double ss_limit, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (!ss_state)
		return;
	/* stat.c show_thread_status_json(): the limit printed as a float */
	snprintf(buf, len, "%s%s:%f%s", ss_state & KFSIM_SS_IOPS ? "iops" : "bw",
		 ss_state & KFSIM_SS_SLOPE ? "_slope" : "", (float)ss_limit,
		 ss_state & KFSIM_SS_PCT ? "%" : "");
}
