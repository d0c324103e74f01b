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

/*
 * kfsim_bfq_fio_number() - a number as fio 3.33 reads an integer or size option
 * (str_to_decimal(): hexadecimal with "0x", a unit k m g t p of powers of 1024, kib ... of
 * powers of 1000, other letters ignored).  Return: 0, or -EINVAL without a number.
 */
int kfsim_bfq_fio_number(const char *text, u64 *out);

/*
 * kfsim_bfq_fio_flag() - the value of a fio 3.33 flag as parse.c check_int() reads it for
 * FIO_OPT_BOOL and FIO_OPT_STR_SET options: sscanf("%u"), or "%x" when "0x" is anywhere in
 * it, so "1k" is 1, "-1" is -1 (true) and "abc" no number.  @bool_range: FIO_OPT_BOOL's
 * maxval 1, compared as an int ("2" fails, "-1" passes); FIO_OPT_STR_SET has none.
 * Return: 0 with *@out, or -EINVAL.
 */
int kfsim_bfq_fio_flag(const char *value, bool bool_range, bool *out);

/*
 * kfsim_bfq_fio_option_kind() - whether fio 3.33 has an option named @name
 * (fio_option_names.c): one of its own, one of an engine's, or none (fio: "Bad option").
 */
enum kfsim_fio_option_kind {
	KFSIM_FIO_OPTION_NONE,
	KFSIM_FIO_OPTION_CORE,
	KFSIM_FIO_OPTION_ENGINE,
};
enum kfsim_fio_option_kind kfsim_bfq_fio_option_kind(const char *name);

/* fio's rw= name of @rw; an engine name's class (-EINVAL for an engine not modelled). */
const char *kfsim_bfq_rw_name(enum kfsim_bfq_rw rw);
int kfsim_bfq_engine_parse(const char *name, enum kfsim_bfq_engine *engine);

/*
 * What a job issues next (sim_job_io.c): its direction, block size and sector, drawn from
 * @rnd; @next_pos is the sequential position of that direction (fio's f->last_pos[]),
 * @last_start where its last I/O started (f->last_start[], KFSIM_BFQ_NO_LAST_START before
 * the first), @seq_left the I/Os a random job has left before its next random offset (fio's
 * td->ddir_seq_nr, starting at 1: the first I/O draws one).
 */
struct rnd_state;
bool kfsim_bfq_job_is_mixed(const struct kfsim_bfq_job *job);
bool kfsim_bfq_job_is_random(const struct kfsim_bfq_job *job);
/* fio 3.33's 32-bit generator (lib/rand.c __rand32(), __init_rand32()) and seeds (init.c) */
struct kfsim_fio_rand32 {
	u32 s1, s2, s3;
};
u32 kfsim_fio_rand32(struct kfsim_fio_rand32 *st);
void kfsim_fio_rand32_seed(struct kfsim_fio_rand32 *st, u32 seed);
#define KFSIM_FIO_RAND_MIX_OFF 4	/* fio.h FIO_RAND_MIX_OFF: td->rwmix_state's seed */
/* the largest block a job issues, of the directions it issues (fio's max_bs) */
unsigned int kfsim_bfq_job_max_bs(const struct kfsim_bfq_job *job);
#define KFSIM_FIO_RAND_FILE_OFF 5	/* FIO_RAND_FILE_OFF: td->next_file_state's */
#define KFSIM_FIO_RAND_FILE_SIZE_OFF 7	/* FIO_RAND_FILE_SIZE_OFF: td->file_size_state's */
u32 kfsim_fio_rand_seed(u64 randseed, bool allrandrepeat, unsigned int thread_number,
			unsigned int off);
/*
 * A mixed job's rwmix cycle (fio's td->rwmix_state, rwmix_ddir, rwmix_issues) and its I/Os
 * issued by direction (td->io_issues[], which the caller counts at each issue)
 */
struct kfsim_bfq_rwmix {
	struct kfsim_fio_rand32 state;
	u64 issues[2];
	u64 rwmix_issues;
	bool write;
};
void kfsim_bfq_rwmix_init(struct kfsim_bfq_rwmix *mix, u32 seed);
#define KFSIM_FIO_RAND_BS_OFF 0		/* fio.h FIO_RAND_BS_OFF: reads' bsrange_state */
#define KFSIM_FIO_RAND_BS1_OFF 1	/* FIO_RAND_BS1_OFF: writes' */
unsigned int kfsim_bfq_job_fio_bs(const struct kfsim_bfq_job *job, bool write, u64 room,
				  struct kfsim_fio_rand32 *st);
bool kfsim_bfq_rwmix_next(const struct kfsim_bfq_job *job, struct kfsim_bfq_rwmix *mix);
unsigned int kfsim_bfq_job_min_bs(const struct kfsim_bfq_job *job, bool write);
/* Where "offset=N%" starts in a file of @real_size bytes, as fio 3.33 (sim_jobs.c). */
u64 kfsim_bfq_job_pct_offset(const struct kfsim_bfq_job *job, u64 real_size);
/*
 * Where @job's region starts, bytes into its file or into the disk of @capacity sectors, and
 * its size= in bytes (a percent as fio 3.33's setup_files(): of the file's end @end bytes, at
 * most @end - @offset, aligned down to the smallest block; 0: to the end): what
 * kfsim_bfq_job_region() takes, and the fio reader as it lays its files out.
 */
u64 kfsim_bfq_job_offset_bytes(const struct kfsim_bfq_job *job, sector_t capacity);
u64 kfsim_bfq_job_size_bytes(const struct kfsim_bfq_job *job, u64 end, u64 offset);
/*
 * The rate cap of a direction in bytes a second, 0 = none, as fio 3.33's __setup_rate()
 * (init.c) sets it: rate= when given, else rate_iops= x the direction's smallest block
 */
u64 kfsim_bfq_job_rate_bps(const struct kfsim_bfq_job *job, bool write);
unsigned int kfsim_bfq_job_choose_bs(const struct kfsim_bfq_job *job, bool write,
				     struct rnd_state *rnd);
sector_t kfsim_bfq_job_choose_sector(const struct kfsim_bfq_job *job, sector_t start,
				     sector_t nr_sectors, sector_t *next_pos, sector_t *last_start,
				     unsigned int *seq_left, unsigned int bytes,
				     struct rnd_state *rnd);
/* fio's f->last_start[] before the direction's first I/O (-1ULL) */
#define KFSIM_BFQ_NO_LAST_START ((sector_t)-1)
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

/*
 * fio's steady-state detection (sim_steadystate.c, struct kfsim_bfq_job's ss_*): the state
 * of one job, fio 3.33's struct steadystate_data.  @state holds the job's KFSIM_SS_* bits
 * and the SIM_SS_* ones below; @iops_data and @bw_data are the window, @dur samples.
 */
enum {
	SIM_SS_ATTAINED = 1 << 3,
	SIM_SS_RAMP_OVER = 1 << 4,
	SIM_SS_BUFFER_FULL = 1 << 7,
};

struct sim_steadystate {
	unsigned int state;
	u64 dur, ramp_ns;
	double limit;
	unsigned int head, tail;
	u64 *iops_data, *bw_data;
	double slope, deviation, criterion;
	u64 sum_y, sum_x, sum_x_sq, sum_xy, oldest_y;
	u64 prev_ns, prev_ios, prev_bytes;
};

/* -ENOMEM, or 0 with the window allocated; the job started at @epoch_ns */
int sim_steadystate_init(struct sim_steadystate *ss, const struct kfsim_bfq_job *job,
			 u64 epoch_ns);
/*
 * fio's once-a-second steadystate_check() for a running job that has completed @ios I/Os of
 * @bytes by @now: true when the criterion held over a full window (the job ends).
 */
bool sim_steadystate_check(struct sim_steadystate *ss, u64 epoch_ns, u64 now, u64 ios,
			   u64 bytes);
/* the window's integer means, as fio's steadystate_bw_mean() and steadystate_iops_mean() */
u64 sim_steadystate_bw_mean(const struct sim_steadystate *ss);
u64 sim_steadystate_iops_mean(const struct sim_steadystate *ss);
/* after the run: the window's samples rotated oldest first, as fio's JSON lists them */
void sim_steadystate_in_order(struct sim_steadystate *ss);
void sim_steadystate_free(struct sim_steadystate *ss);

#endif /* KFSIM_BFQ_SIM_JOBS_H */
