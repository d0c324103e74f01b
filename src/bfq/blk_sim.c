// SPDX-License-Identifier: MIT
/*
 * The block-layer simulator: processes (jobs or a replayed trace), scheduler tags, any I/O
 * scheduler through its struct elevator_mq_ops (<kfsim/elevator.h>), the disk, an event
 * queue and the results (see <kfsim/bfq_sim.h>).  It knows no scheduler by name.
 *
 * Invariants:
 * - every request is in exactly one of: the free pool, the scheduler, the disk; requests of
 *   the pool = free + outstanding (submitted and not completed);
 * - simulated time only moves forward; events at equal times run in the order: disk
 *   completions, scheduler timer, process wake-ups (by scheduling order);
 * - statistics count what completes within [0, duration); after that the simulation only
 *   drains what is outstanding, so that every request submitted completes exactly once and
 *   the scheduler is torn down empty;
 * - an event that cannot be scheduled (-ENOMEM) stops the run with that error: nothing new is
 *   submitted, what is outstanding drains, and kfsim_bfq_sim_run() returns -ENOMEM, so no
 *   wake-up is ever lost silently.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/elevator.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include <kfsim/random.h>
#include <kfsim/slab.h>
#include <kfsim/sim_evq.h>
#include <kfsim/sim_hist.h>
#include "blktrace_internal.h"
#include "sbitmap_wait.h"
#include "sim_sched.h"
#include "sim_jobs.h"

/*
 * An event's payload (<kfsim/sim_evq.h>): its kind in the low bits, a job index above it.
 * EV_SS_CHECK is fio's helper-thread tick, once a second of the run, for steady state.
 */
enum sim_event_kind { EV_JOB_WAKE, EV_REPLAY, EV_SS_CHECK };
#define EV_KIND_BITS 2

/* An I/O a job has chosen and not yet issued (it may wait for its rate or a tag). */
struct sim_io {
	bool valid, write;
	sector_t sector;
	unsigned int bytes;
};

/* A run of dirty page-cache sectors, written by one job, dirtied first at @dirtied_ns. */
struct wb_extent {
	sector_t sector;
	u64 nr_sectors;
	u64 dirtied_ns;
};

/*
 * A job's sync (fsync, fdatasync, end_fsync): it writes back the dirty extents of the job's
 * file and waits for every writeback of that file in flight, its own and what the flusher or
 * another job's sync started (filemap_write_and_wait_range() over the whole file: fsync(2)
 * of a block device is blkdev_fsync(), the whole device), then flushes the drive's write
 * cache (blkdev_issue_flush()) and waits for that.
 */
enum sim_sync_phase {
	SIM_SYNC_NONE,
	SIM_SYNC_WRITEBACK,
	SIM_SYNC_FLUSH,
};

/* one of a job's files (spec.nr_files > 1): its sectors, positions and what it issued */
struct sim_file {
	sector_t start, nr_sectors, pos[2];
	u64 bytes;
	bool spent;	/* nothing left for it: fio's next fill_io_u() from it fails */
	bool done;	/* fio_file_done(): marked once that fill failed */
};

struct sim_job {
	struct kfsim_bfq_job spec;
	sector_t start, nr_sectors, next_pos[2];
	sector_t last_start[2];	/* fio's f->last_start[]: rw_sequencer=identical repeats it */
	unsigned int seq_left;	/* fio's td->ddir_seq_nr: I/Os to the next random offset */
	unsigned int weight;
	unsigned int inflight;
	bool waiting_tag;
	bool flow_blocked;	/* over its flow share: waits for another job of the flow */
	bool flow_passed;	/* the next I/O was counted in its flow */
	u64 flow_counter;	/* I/Os counted in its flow */
	u64 flow_sleep_until;
	/*
	 * thinktime (handle_thinktime()): fio's io_blocks and io_issues of reads and writes (reset
	 * at the ramp's end, as reset_all_stats() resets them), last_thinktime_blocks (not
	 * reset), and the pause: its I/O in flight completing, then asleep until tt_wake
	 */
	u64 tt_blocks, tt_issues, tt_last;
	u64 tt_time;		/* last_thinktime: the job's start, then each pause's (iotime) */
	unsigned int reap_left;	/* a full queue's drain: completions left in this round */
	bool tt_quiesce;
	u64 tt_wake;
	sector_t zone_start;	/* fio zonemode=strided: the zone in use */
	u64 zone_bytes;		/* bytes chosen in it */
	bool replay;
	size_t replay_cur;	/* closed-loop replay: its next record, SIZE_MAX after its last */
	bool replay_began;	/* ... and whether it issued one yet */
	u64 replay_done_ns, replay_issue_ns, replay_wake_at;
	bool flusher;		/* the writeback flusher: writes the page cache's dirty data */
	bool started, stopped, ended, verifying, throttled;
	bool terminated;	/* ended by another's exitall: no end_fsync */
	bool in_ramp;		/* fio's in_ramp_time(): ramp_time not over yet */
	int error;		/* the error that ended it (spec.io_error), 0 = none */
	struct sim_lat_target lt;	/* fio latency_target: the depth searched */
	struct sim_steadystate ss;	/* fio steadystate: the window, when ss_dur_s */
	int pid;
	void *icq;
	u64 start_at, start_ns, end_ns;
	u64 bytes_issued, issued_dir[2], ios_issued;
	u64 writes_issued;	/* bytes, never reset: fio's io_issue_bytes[DDIR_WRITE] */
	u64 write_ios_issued;	/* writes, never reset: fio's io_issues[DDIR_WRITE] */
	enum sim_sync_phase sync_phase;	/* fsync/fdatasync/end_fsync in progress */
	bool last_was_sync;	/* fio's td->last_was_sync: no sync twice in a row */
	bool end_sync_done;	/* end_fsync issued */
	bool sync_is_fsync;	/* the sync in progress is fio's DDIR_SYNC, not DDIR_DATASYNC */
	u64 sync_start_ns;
	u64 syncs, fsyncs;
	struct kfsim_hist sync_lat;
	u64 copy_until;		/* a buffered write's copy into the page cache ends */
	u64 poisson_next[2];	/* rate_process=poisson: each direction's next arrival */
	struct kfsim_bfq_rwmix mix;	/* the rwmix cycle and fio's io_issues[] */
	u64 pass_issued;	/* bytes issued in this pass over the region (spec.pass_bytes) */
	struct kfsim_fio_rand32 bs_state[2];	/* fio's bsrange_state[] (spec.bs_fio_seed) */
	/*
	 * fio nrfiles: start, nr_sectors and next_pos[] are the file in use's, saved to its
	 * entry at a switch; fio's file_service_file, file_service_left, next_file,
	 * nr_done_files and next_file_state, and the passes over all files
	 */
	struct sim_file files[KFSIM_BFQ_MAX_FILES];
	unsigned int cur_file, file_left, next_file, files_done, files_spent, file_passes;
	struct kfsim_fio_rand32 file_state;
	struct sim_io next;
	struct rnd_state rnd;	/* a verifying job's own draws, replayed for the read-back */
	struct rnd_state rnd_pass;	/* the draws from the oldest write not yet verified */
	sector_t pos_pass[2];		/* its positions */
	unsigned int seq_left_pass;	/* and its count to the next random offset */
	struct rnd_state rnd_resume;	/* verify_backlog: where the writes go on */
	sector_t pos_resume[2];
	unsigned int seq_left_resume;
	u64 vb_pending;		/* blocks written and not yet verified */
	u64 vb_batch;		/* reads left in the verify batch in progress */
	u64 completed;
	u64 bytes;
	u64 bytes_dir[2];
	u64 ios_dir[2];		/* completions counted, by direction */
	struct kfsim_hist lat;
};

struct kfsim_bfq_sim {
	struct kfsim_bfq_sim_config cfg;
	struct kfsim_hdd *hdd;
	struct gendisk disk;
	struct elevator_queue eq;
	bool eq_ready;
	int err;
	struct request *pool;
	bool *wb_in_flight;	/* pool[i] is a writeback write (flusher's or a sync's) */
	struct request **free_stack;
	unsigned int nr_free;
	struct kfsim_evq events;
	struct sim_job *jobs;
	unsigned int nr_jobs;
	unsigned int nr_procs;	/* jobs allocated: nr_jobs and the replay's processes */
	struct sbq_waiters tag_waiters;	/* processes asleep waiting for a request */
	struct sim_flow {
		unsigned int id;
		u64 counter;		/* starts at 1, as fio's flow_get() */
		u64 total_weight;	/* of the flow's jobs that have started and not ended */
	} *flows;
	unsigned int nr_flows;
	bool tag_waiters_ready;
	struct kfsim_blktrace_rec *replay;
	unsigned int *replay_job;	/* job index of each record */
	size_t *replay_chain;	/* closed loop: the next record of the same process, or SIZE_MAX */
	u64 replay_inflight;	/* replayed requests not completed */
	size_t replay_next;
	u64 replay_lag_sum_ns;
	bool replay_blocked;
	struct rnd_state rnd;
	struct rnd_state wake_rnd;	/* the order woken processes run in: apart from the I/O's */
	u64 now;
	u64 outstanding;
	bool draining;
	bool ran;
	/* per actuator */
	u64 act_bytes[KFSIM_HDD_MAX_ACTUATORS];
	u64 act_requests[KFSIM_HDD_MAX_ACTUATORS];
	u64 act_hits[KFSIM_HDD_MAX_ACTUATORS];
	/* trace state */
	int traced_in_service;
	u64 traced_slot_start;
	int traced_slot_job;
	/* the page cache (struct kfsim_bfq_writeback): a FIFO of dirty extents */
	struct wb_extent *dirty;
	size_t dirty_head, nr_dirty, dirty_cap;
	u64 dirty_bytes, wb_inflight_bytes;
	u64 wb_drained_bytes;	/* writeback completed after the run: its pages dirty at the end */
	int flusher;		/* job index of the flusher, -1 without buffered writes */
	bool wb_wake_armed;	/* the flusher's periodic wake-up is scheduled */
	unsigned int nr_flush_waiters;	/* jobs whose sync waits for the drive's flush */
	u64 wb_wake_at;
	u64 end_ns;		/* when every job had ended (or the duration) */
	u64 last_counted_ns;	/* the last completion the figures count */
	unsigned int nr_ended;
	bool exiting;		/* exit_what=all ended every job: no job starts any more */
	struct kfsim_bfq_sim_result result;
	char *errbuf;
	size_t errlen;
};

/* Say why setup failed: in the log, and in the caller's buffer when it gave one. */
static __attribute__((format(printf, 2, 3))) void sim_err(struct kfsim_bfq_sim *sim,
							  const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("bfq_sim: %s\n", msg);
	if (sim && sim->errbuf && sim->errlen)
		snprintf(sim->errbuf, sim->errlen, "%s", msg);
}

const char *kfsim_bfq_sched_name(enum kfsim_bfq_sched sched)
{
	const struct elevator_type *e = elv_type((unsigned int)sched);

	return e ? e->elevator_name : "?";
}

int kfsim_bfq_sched_parse(const char *name, enum kfsim_bfq_sched *sched)
{
	for (unsigned int i = 0; i < elv_nr_types(); i++) {
		if (name && !strcmp(name, elv_type(i)->elevator_name)) {
			*sched = (enum kfsim_bfq_sched)i;
			return 0;
		}
	}
	return -EINVAL;
}

double kfsim_bfq_jain_index(const double *x, size_t n)
{
	double sum = 0, sum_sq = 0;

	for (size_t i = 0; i < n; i++) {
		sum += x[i];
		sum_sq += x[i] * x[i];
	}
	if (!n || sum_sq == 0)
		return 1.0;
	return sum * sum / ((double)n * sum_sq);
}

void kfsim_bfq_sim_config_default(struct kfsim_bfq_sim_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	kfsim_hdd_params_default(&cfg->disk, 2);
	cfg->sched = KFSIM_SCHED_BFQ;
	bfq_tunables_default(&cfg->bfq);
	cfg->duration_ns = 2 * NSEC_PER_SEC;
	cfg->seed = 1;
	cfg->nr_requests = 64;
	cfg->trace_window_ns = NSEC_PER_SEC / 2;
	cfg->bin_ns = NSEC_PER_SEC / 20;
	/* mm/page-writeback.c (6.12) defaults, on a host with 8 GiB of dirtyable memory */
	cfg->wb = (struct kfsim_bfq_writeback){
		.dirtyable_bytes = 8ULL << 30,
		.dirty_ratio = 20,
		.dirty_background_ratio = 10,
		.dirty_expire_ns = 30ULL * NSEC_PER_SEC,
		.dirty_writeback_ns = 5ULL * NSEC_PER_SEC,
		.copy_mb_s = 4000,
	};
}

/* --- events: (time, sequence) order, one heap ----------------------------------------------- */

/* The one out-of-memory policy of <kfsim/sim_evq.h>: the run stops with the error. */
static int sim_schedule(struct kfsim_bfq_sim *sim, u64 time, unsigned int kind, unsigned int arg)
{
	int err = kfsim_evq_push(&sim->events, sim->now, time, 0, arg << EV_KIND_BITS | kind);

	if (err) {
		if (!sim->err)
			sim->err = err;
		sim->draining = true;
	}
	return err;
}

/* --- the scheduler in use, through its ops ---------------------------------------------- */

static const struct elevator_mq_ops *sim_ops(const struct kfsim_bfq_sim *sim)
{
	return &sim->eq.type->ops;
}

static void sched_insert(struct kfsim_bfq_sim *sim, struct sim_job *job, struct request *rq)
{
	int err = sim_ops(sim)->insert_requests(&sim->eq, rq, job->icq, sim->now);

	/* the simulator only inserts requests of live processes: a refusal is a bug */
	WARN_ON_ONCE(err);
}

static struct request *sched_dispatch(struct kfsim_bfq_sim *sim)
{
	return sim_ops(sim)->dispatch_request(&sim->eq, sim->now);
}

static u64 sched_next_timer(struct kfsim_bfq_sim *sim)
{
	return sim_ops(sim)->next_timer ? sim_ops(sim)->next_timer(&sim->eq) : U64_MAX;
}

/* --- processes -------------------------------------------------------------------------- */

/* The BFQ weight a process with @ioprio gets (bfq_set_next_ioprio_data()). */
static unsigned int kfsim_ioprio_weight(unsigned short ioprio)
{
	switch (IOPRIO_PRIO_CLASS(ioprio)) {
	case IOPRIO_CLASS_NONE:
		return (unsigned int)bfq_ioprio_to_weight(BFQ_DEFAULT_QUEUE_IOPRIO);
	case IOPRIO_CLASS_IDLE:
		return (unsigned int)bfq_ioprio_to_weight(IOPRIO_NR_LEVELS - 1);
	default:
		return (unsigned int)bfq_ioprio_to_weight(IOPRIO_PRIO_LEVEL(ioprio));
	}
}

/* lib/sbitmap.c sbitmap_calculate_shift(), 64-bit words: bits per word of the tags' bitmap. */
static unsigned int sim_tag_shift(unsigned int depth)
{
	unsigned int shift = 6;

	if (depth >= 4) {
		while ((4U << shift) > depth)
			shift--;
	}
	return shift;
}

/*
 * Whether tag @tag may be taken by a request limited to @shallow of the @depth tags: the low
 * bits of each word, as many as __map_depth_with_shallow() gives that word (6.12: the shallow
 * depth is of the whole bitmap, spread over the words in proportion).
 */
static bool sim_tag_within_shallow(unsigned int tag, unsigned int depth, unsigned int shallow)
{
	unsigned int shift = sim_tag_shift(depth), index = tag >> shift;
	unsigned int word_depth = min(1U << shift, depth - (index << shift));
	u64 allowed = (u64)word_depth * shallow;
	unsigned int reminder = (unsigned int)(allowed % depth);

	allowed /= depth;
	if (reminder >= (index + 1) * word_depth)
		allowed++;
	return (tag & ((1U << shift) - 1)) < allowed;
}

static blk_opf_t sim_opf(bool write, bool sync)
{
	return write ? REQ_OP_WRITE | (sync ? REQ_SYNC | REQ_IDLE : 0) : REQ_OP_READ;
}

/*
 * A scheduler tag for process @j's request @opf (blk_mq_get_tag()): the scheduler may limit it
 * to a shallow depth (BFQ's limit_depth), then only the tags within it are candidates.  Which
 * free tag is taken is the free stack's order (the last freed first), not sbitmap's per-CPU
 * allocation hint.
 */
static struct request *sim_alloc_request(struct kfsim_bfq_sim *sim, unsigned int j, blk_opf_t opf)
{
	unsigned int depth = sim->cfg.nr_requests, shallow = depth;
	struct request *rq;

	if (!sim->nr_free)
		return NULL;
	if (sim_ops(sim)->limit_depth)
		shallow = sim_ops(sim)->limit_depth(&sim->eq, opf, sim->jobs[j].icq, depth);
	if (shallow >= depth)
		return sim->free_stack[--sim->nr_free];
	for (unsigned int i = sim->nr_free; i-- > 0;) {
		rq = sim->free_stack[i];
		if (!sim_tag_within_shallow((unsigned int)(rq - sim->pool), depth, shallow))
			continue;
		memmove(&sim->free_stack[i], &sim->free_stack[i + 1],
			(sim->nr_free - i - 1) * sizeof(*sim->free_stack));
		sim->nr_free--;
		sim->result.shallow_allocs++;
		return rq;
	}
	sim->result.shallow_waits++;
	return NULL;
}

/* Process @j found every request taken: it sleeps in blk_mq_get_tag() until woken. */
static void sim_wait_tag(struct kfsim_bfq_sim *sim, unsigned int j)
{
	if (sim->jobs[j].waiting_tag)
		return;
	sim->jobs[j].waiting_tag = true;
	sbq_prepare_to_wait(&sim->tag_waiters, j);
}

/*
 * @sync: a synchronous write.  Direct writes are REQ_OP_WRITE | REQ_SYNC | REQ_IDLE
 * (block/fops.c dio_bio_write_op(), 6.12); so are a replayed trace's "S" writes and O_SYNC
 * writes; writeback's are async (no flag).
 */
static void sim_submit(struct kfsim_bfq_sim *sim, unsigned int j, struct request *rq,
		       sector_t sector, unsigned int bytes, bool write, bool sync)
{
	struct sim_job *job = &sim->jobs[j];
	blk_opf_t opf = sim_opf(write, sync);

	blk_rq_init_from_bio(rq, sector, bytes, opf, job->spec.ioprio);
	rq->pid = (int)j;
	rq->start_time_ns = sim->now;
	job->inflight++;
	job->bytes_issued += bytes;
	sim->outstanding++;
	sim->result.submitted++;
	sched_insert(sim, job, rq);
}

/* --- the page cache and its writeback flusher (struct kfsim_bfq_writeback) ----------------- */

static u64 wb_thresh(const struct kfsim_bfq_sim *sim, unsigned int ratio)
{
	return sim->cfg.wb.dirtyable_bytes / 100 * ratio;
}

static int wb_add_dirty(struct kfsim_bfq_sim *sim, sector_t sector, unsigned int bytes)
{
	struct wb_extent *tail;

	if (sim->nr_dirty) {
		tail = &sim->dirty[(sim->dirty_head + sim->nr_dirty - 1) % sim->dirty_cap];
		if (tail->sector + tail->nr_sectors == sector) {
			tail->nr_sectors += bytes >> SECTOR_SHIFT;	/* a sequential writer */
			goto out;
		}
	}
	if (sim->nr_dirty == sim->dirty_cap) {
		size_t cap = max_t(size_t, 1024, sim->dirty_cap * 2);
		struct wb_extent *grown = kvcalloc(cap, sizeof(*grown), GFP_KERNEL);

		if (!grown)
			return -ENOMEM;
		for (size_t i = 0; i < sim->nr_dirty; i++)
			grown[i] = sim->dirty[(sim->dirty_head + i) % sim->dirty_cap];
		kvfree(sim->dirty);
		sim->dirty = grown;
		sim->dirty_cap = cap;
		sim->dirty_head = 0;
	}
	sim->dirty[(sim->dirty_head + sim->nr_dirty++) % sim->dirty_cap] =
		(struct wb_extent){ sector, bytes >> SECTOR_SHIFT, sim->now };
out:
	sim->dirty_bytes += bytes;
	return 0;
}

static void job_issue(struct kfsim_bfq_sim *sim, unsigned int j);

static bool wb_has_work(struct kfsim_bfq_sim *sim);

/*
 * wb_start_background_writeback(): the flusher runs once dirty data passes the background
 * threshold; and wb_workfn()'s periodic wake-up (dirty_writeback_centisecs) is armed while
 * there is dirty data.
 */
static void wb_kick(struct kfsim_bfq_sim *sim)
{
	if (sim->flusher < 0)
		return;
	if (sim->nr_dirty && !sim->wb_wake_armed) {
		sim->wb_wake_armed = true;
		sim->wb_wake_at = sim->now + sim->cfg.wb.dirty_writeback_ns;
		sim_schedule(sim, sim->wb_wake_at, EV_JOB_WAKE, (unsigned int)sim->flusher);
	}
	if (!sim->jobs[sim->flusher].waiting_tag && wb_has_work(sim))
		job_issue(sim, (unsigned int)sim->flusher);
}

/* The flusher's work: above the background threshold, or extents older than the expiry. */
static bool wb_has_work(struct kfsim_bfq_sim *sim)
{
	const struct wb_extent *oldest = &sim->dirty[sim->dirty_head];

	if (!sim->nr_dirty)
		return false;
	if (sim->dirty_bytes - sim->wb_inflight_bytes >
	    wb_thresh(sim, sim->cfg.wb.dirty_background_ratio))
		return true;
	return oldest->dirtied_ns + sim->cfg.wb.dirty_expire_ns <= sim->now;
}

static struct request *sim_alloc_request(struct kfsim_bfq_sim *sim, unsigned int j,
					  blk_opf_t opf);
static void sim_wait_tag(struct kfsim_bfq_sim *sim, unsigned int j);
static void sim_submit(struct kfsim_bfq_sim *sim, unsigned int j, struct request *rq,
		       sector_t sector, unsigned int bytes, bool write, bool sync);

/* Async writes of the oldest dirty extents, at most BLK_DEF_MAX_SECTORS_CAP sectors each. */
static void wb_issue(struct kfsim_bfq_sim *sim, unsigned int j)
{
	if (sim->wb_wake_armed && sim->now >= sim->wb_wake_at) {
		sim->wb_wake_armed = false;	/* the periodic wake-up: re-armed below */
		wb_kick(sim);
	}
	while (wb_has_work(sim)) {
		struct wb_extent *ext = &sim->dirty[sim->dirty_head];
		struct request *rq;
		u64 nr;

		if (!ext->nr_sectors) {	/* a sync wrote it back */
			sim->dirty_head = (sim->dirty_head + 1) % sim->dirty_cap;
			sim->nr_dirty--;
			continue;
		}
		nr = min_t(u64, ext->nr_sectors, BLK_DEF_MAX_SECTORS_CAP);
		rq = sim_alloc_request(sim, j, REQ_OP_WRITE);

		if (!rq) {
			sim_wait_tag(sim, j);
			return;
		}
		sim_submit(sim, j, rq, ext->sector, (unsigned int)(nr << SECTOR_SHIFT), true, false);
		sim->wb_in_flight[rq - sim->pool] = true;
		sim->wb_inflight_bytes += nr << SECTOR_SHIFT;
		ext->sector += nr;
		ext->nr_sectors -= nr;
		if (!ext->nr_sectors) {
			sim->dirty_head = (sim->dirty_head + 1) % sim->dirty_cap;
			sim->nr_dirty--;
		}
	}
}

/* A writeback write completed: its pages are clean; throttled writers may go on. */
static void wb_written(struct kfsim_bfq_sim *sim, unsigned int bytes)
{
	sim->dirty_bytes -= bytes;
	sim->wb_inflight_bytes -= bytes;
	for (unsigned int j = 0; j < sim->nr_jobs; j++) {
		if (sim->jobs[j].throttled &&
		    sim->dirty_bytes < wb_thresh(sim, sim->cfg.wb.dirty_ratio)) {
			sim->jobs[j].throttled = false;
			job_issue(sim, j);
		}
	}
}

/* --- a job's life: start after its dependencies and startdelay, end by size or time ------- */

static bool job_deps_ended(const struct kfsim_bfq_sim *sim, const struct sim_job *job)
{
	for (unsigned int k = 0; k < job->spec.after; k++) {
		if (!sim->jobs[k].ended)
			return false;
	}
	return !job->spec.wait_for || sim->jobs[job->spec.wait_for - 1].ended;
}

static void sim_flow_join(struct kfsim_bfq_sim *sim, struct sim_job *job);
static void sim_flow_leave(struct kfsim_bfq_sim *sim, struct sim_job *job);

/* The job may start: its start time is drawn now (fio startdelay=A-B) and a wake-up set. */
static void job_arm_start(struct kfsim_bfq_sim *sim, unsigned int j)
{
	struct sim_job *job = &sim->jobs[j];
	u64 delay = job->spec.startdelay_ns;

	if (sim->exiting)
		return;

	if (job->spec.startdelay_max_ns > delay)
		delay += kfsim_prandom_u64(&sim->rnd) % (job->spec.startdelay_max_ns - delay + 1);
	job->start_at = sim->now + delay;
	job->started = true;
	sim_flow_join(sim, job);
	job->start_ns = job->start_at;
	job->tt_time = job->start_at;	/* init_thinktime(): the epoch; a ramp keeps it */
	job->in_ramp = job->spec.ramp_ns != 0;
	if (job->spec.latency_target_ns)
		sim_lat_target_init(&job->lt, &job->spec, job->start_at, job->completed);
	if (job->spec.ss_dur_s && sim_steadystate_init(&job->ss, &job->spec, job->start_at) &&
	    !sim->err) {
		sim->err = -ENOMEM;
		sim->draining = true;
	}
	if (delay)
		sim_schedule(sim, job->start_at, EV_JOB_WAKE, j);
	else
		job_issue(sim, j);
}

static void job_end(struct kfsim_bfq_sim *sim, unsigned int j, u64 when)
{
	struct sim_job *job = &sim->jobs[j];

	if (job->ended)
		return;
	job->ended = true;
	job->end_ns = when;
	sim->nr_ended++;
	sim_flow_leave(sim, job);
	if (job->spec.exitall || (job->spec.exitall_error && job->error)) {
		/*
		 * fio exitall (fio 3.33 thread_main(): fio_terminate_threads(groupid, exit_what)):
		 * the others stop issuing; what they have in flight completes.  It takes effect
		 * now, as the job exits (after its end_fsync), not at @when, the end its figures
		 * count to (its runtime's): an idle job ended then would report a shorter active
		 * time than it ran, and its rates over that.  Which others: its reporting group's
		 * (a later group still runs after it), those running, or all
		 */
		sim->exiting |= job->spec.exit_what == KFSIM_EXIT_ALL;
		for (unsigned int k = 0; k < sim->nr_jobs; k++) {
			struct sim_job *other = &sim->jobs[k];

			if (other->replay || other->flusher || other->ended)
				continue;
			if (job->spec.exit_what == KFSIM_EXIT_GROUP &&
			    other->spec.group != job->spec.group)
				continue;
			if (job->spec.exit_what == KFSIM_EXIT_RUNNING &&
			    (!other->started || other->start_at > sim->now))
				continue;
			other->stopped = true;
			other->terminated = true;
			other->next.valid = false;
			if (!other->inflight)
				job_end(sim, k, other->end_ns ? min(other->end_ns, sim->now) :
						       sim->now);
		}
	}
	for (unsigned int k = 0; k < sim->nr_jobs; k++) {
		struct sim_job *other = &sim->jobs[k];

		if (!other->started && !other->replay && !other->flusher &&
		    job_deps_ended(sim, other))
			job_arm_start(sim, k);
	}
}

/* The file in use becomes @i: its sectors and positions replace the previous one's. */
static void job_file_switch(struct sim_job *job, unsigned int i)
{
	if (job->cur_file < job->spec.nr_files)
		memcpy(job->files[job->cur_file].pos, job->next_pos, sizeof(job->next_pos));
	job->cur_file = i;
	job->start = job->files[i].start;
	job->nr_sectors = job->files[i].nr_sectors;
	memcpy(job->next_pos, job->files[i].pos, sizeof(job->next_pos));
}

/* A new pass over every file (fio's clear_io_state(): no file done, each from its start) */
static void job_files_reset(struct sim_job *job)
{
	for (unsigned int i = 0; i < job->spec.nr_files; i++) {
		struct sim_file *f = &job->files[i];

		f->pos[0] = f->pos[1] = f->start;
		f->bytes = 0;
		f->spent = f->done = false;
	}
	job->files_done = job->files_spent = 0;
	/*
	 * fio 3.33 starts each loop over from the first file (loops=3 with roundrobin:2: the
	 * same order each loop), and draws the files again from the seed with randrepeat=1
	 */
	job->cur_file = UINT_MAX;
	job->next_file = 0;
	job->file_left = 0;
	if (job->spec.rwmix_repeat)
		kfsim_fio_rand32_seed(&job->file_state, job->spec.file_seed);
}

/*
 * The file of the next I/O, as fio 3.33's __get_next_file() (io_u.c) picks it: the file in
 * use while it is not done, under sequential, or while its count of I/Os left
 * (file_service_left) is not 0, taken down by one; else roundrobin and sequential take the
 * next file not done from next_file on (get_next_file_rr()), random draws
 * nr_files x r / 2^32 until a file not done comes (get_next_file_rand()), and the count
 * starts again at file_service_nr - 1 (an unsigned int: file_service_type=T:0 never
 * switches).  A file picked with nothing left is marked done then and the pick made again
 * (set_io_u_file()), so a random pick draws for it as fio does (with randseed= and loops,
 * the next loop's draws go on from there).  False: every file is done, the pass is over.
 */
static void job_pick_one(struct sim_job *job)
{
	const struct kfsim_bfq_job *spec = &job->spec;
	unsigned int n = spec->nr_files, i = job->cur_file;

	if (i < n && !job->files[i].done) {
		if (spec->file_service == KFSIM_FSERVICE_SEQ)
			return;
		if (job->file_left) {
			job->file_left--;
			return;
		}
	}
	if (spec->file_service == KFSIM_FSERVICE_RANDOM) {
		do
			i = (unsigned int)((double)n * ((double)kfsim_fio_rand32(&job->file_state) /
							4294967296.0));
		while (job->files[i].done);
	} else {
		do {
			i = job->next_file;
			job->next_file = (job->next_file + 1) % n;
		} while (job->files[i].done);
	}
	job->file_left = spec->file_service_nr - 1;
	if (i != job->cur_file)
		job_file_switch(job, i);
}

static bool job_pick_file(struct sim_job *job)
{
	while (job->files_done < job->spec.nr_files) {
		job_pick_one(job);
		if (!job->files[job->cur_file].spent)
			return true;
		job->files[job->cur_file].done = true;
		job->files_done++;
	}
	return false;
}

/*
 * After an I/O of @bytes to the file in use: whether the file is done, fio's get_next_offset()
 * failing on it: a sequential direction with no whole block of its smallest size left
 * before the file's end, or with the random map (no norandommap) a random job that issued
 * the file's whole blocks (each block once, as fio's map hands them out)
 */
static void job_file_issued(struct sim_job *job, bool write, unsigned int bytes)
{
	const struct kfsim_bfq_job *spec = &job->spec;
	struct sim_file *f = &job->files[job->cur_file];
	u64 min_bs = kfsim_bfq_job_min_bs(spec, write), fbytes = (u64)f->nr_sectors << SECTOR_SHIFT;
	/* the map's blocks: of the smallest block of either direction (fio's rw_min_bs) */
	u64 map_bs = min(kfsim_bfq_job_min_bs(spec, false), kfsim_bfq_job_min_bs(spec, true));
	bool spent;

	f->bytes += bytes;
	memcpy(f->pos, job->next_pos, sizeof(job->next_pos));
	/*
	 * the map is full once the I/Os covered its blocks (a random job whose directions'
	 * smallest blocks differ, where fio's map and offsets count in different units, is
	 * refused by the fio reader)
	 */
	if (kfsim_bfq_job_is_random(spec))
		spent = spec->file_map && map_bs && f->bytes >= fbytes / map_bs * map_bs;
	else
		spent = job->next_pos[write] + (min_bs >> SECTOR_SHIFT) > f->start + f->nr_sectors ||
			job->next_pos[write] < f->start;
	if (spent && kfsim_bfq_job_is_random(spec) && !spec->file_loops) {
		/* time_based: a full map starts again, the file goes on (get_next_rand_block()) */
		f->bytes = 0;
	} else if (spent && !f->spent) {
		f->spent = true;
		job->files_spent++;
	}
}

/* Nothing more to issue: by runtime, by size (after a verify pass) or number of I/Os. */
static bool job_done_issuing(struct kfsim_bfq_sim *sim, struct sim_job *job)
{
	u64 runtime_end = job->start_ns + job->spec.runtime_ns;

	/* fio's runtime_exceeded(): never in the ramp, then from its end */
	if (job->spec.runtime_ns && !job->in_ramp && sim->now >= runtime_end) {
		job->end_ns = runtime_end;
		return true;
	}
	if (job->spec.number_ios && job->ios_issued >= job->spec.number_ios)
		return true;
	if (job->spec.nr_files > 1 && job->files_spent >= job->spec.nr_files) {
		/*
		 * fio's keep_running(): every file done ends the pass (the picks that mark the
		 * last ones made first), and the job at its loops
		 */
		job_pick_file(job);
		if (job->spec.file_loops && ++job->file_passes >= job->spec.file_loops)
			return true;
		job_files_reset(job);
	}
	if (job->spec.verify && job->spec.verify_backlog) {
		/* fio counts the write pass only: verify reads are not this_io_bytes */
		if (!job->spec.io_size || job->writes_issued < job->spec.io_size || job->vb_batch)
			return false;
		if (!job->vb_pending || job->verifying)
			return true;
		if (job->inflight)
			return true;
		/* the write pass is over: what is left is read back, oldest first */
		job->verifying = true;
		job->vb_batch = job->vb_pending;
		job->rnd = job->rnd_pass;
		memcpy(job->next_pos, job->pos_pass, sizeof(job->next_pos));
		job->seq_left = job->seq_left_pass;
		return false;
	}
	if (!job->spec.io_size || job->bytes_issued < job->spec.io_size)
		return false;
	if (!job->spec.verify || job->verifying)
		return true;
	if (job->inflight)
		return true;	/* the read-back starts once every write completed */
	/* the read-back replays the write pass's draws, as reads */
	job->verifying = true;
	job->bytes_issued = 0;
	job->rnd = job->rnd_pass;
	job->next_pos[0] = job->next_pos[1] = job->start;
	job->seq_left = 1;	/* as the write pass began */
	return false;
}

/*
 * fio verify_backlog (check_get_verify(), fio 3.33): once the blocks written and not verified
 * reach a multiple of the backlog, after a write, a batch of that many is read back, oldest
 * first, by replaying their draws; then the writes go on where they were.
 */
static void job_verify_backlog(struct sim_job *job)
{
	if (!job->spec.verify || !job->spec.verify_backlog || job->vb_batch || !job->vb_pending ||
	    job->vb_pending % job->spec.verify_backlog)
		return;
	job->vb_batch = job->spec.verify_backlog;
	job->rnd_resume = job->rnd;
	memcpy(job->pos_resume, job->next_pos, sizeof(job->pos_resume));
	job->seq_left_resume = job->seq_left;
	job->rnd = job->rnd_pass;
	memcpy(job->next_pos, job->pos_pass, sizeof(job->next_pos));
	job->seq_left = job->seq_left_pass;
}

/* A verify read of a batch was chosen: past the batch, the writes resume. */
static void job_verify_read_done(struct sim_job *job)
{
	job->vb_pending--;
	if (--job->vb_batch)
		return;
	job->rnd_pass = job->rnd;
	memcpy(job->pos_pass, job->next_pos, sizeof(job->pos_pass));
	job->seq_left_pass = job->seq_left;
	if (job->verifying)
		return;	/* the final read-back: nothing to resume */
	job->rnd = job->rnd_resume;
	memcpy(job->next_pos, job->pos_resume, sizeof(job->next_pos));
	job->seq_left = job->seq_left_resume;
}

/*
 * fio zonemode=strided (setup_strided_zone_mode(), fio 3.33): after zonesize bytes the job
 * moves on by zonerange + zoneskip, back to the region's start past its end; within a zone a
 * position past zonerange wraps to the zone's start.
 */
static void job_strided_zone(struct sim_job *job, bool write)
{
	const struct kfsim_bfq_job *spec = &job->spec;

	if (!spec->zone_size)
		return;
	if (job->zone_bytes >= spec->zone_size) {
		job->zone_bytes = 0;
		job->zone_start += (spec->zone_range + spec->zone_skip) >> SECTOR_SHIFT;
		if (job->zone_start >= job->start + job->nr_sectors)
			job->zone_start = job->start;
		job->next_pos[write] = job->zone_start;
	}
	if (job->next_pos[write] >= job->zone_start + (spec->zone_range >> SECTOR_SHIFT))
		job->next_pos[write] = job->zone_start;
}

static u64 job_rate_allows(const struct sim_job *job, const struct sim_io *io);

/*
 * fio 3.33's rate_ddir() (io_u.c), asked for each I/O with the direction the rwmix cycle
 * chose (@write): a direction whose rate allows an I/O now keeps it; when it is ahead of its
 * cap, a mixed job whose other direction has a share (rwmixread or rwmixwrite not 0) takes
 * the other one if that one's cap allows an I/O now (a direction without a cap always
 * does), else whichever of the two is allowed first (on a tie, the chosen one), and waits
 * for it (job_issue()).  So a mixed job under caps issues in each direction as its cap
 * allows, whatever its rwmixread, where a job drawing and waiting is held to its mix.
 */
static bool job_rate_ddir(const struct kfsim_bfq_sim *sim, const struct sim_job *job,
			  bool write)
{
	const struct kfsim_bfq_job *spec = &job->spec;
	unsigned int other_perc = write ? spec->rwmixread : 100 - spec->rwmixread;
	struct sim_io mine = { .write = write }, other = { .write = !write };
	u64 mine_at = job_rate_allows(job, &mine), other_at;

	if (mine_at <= sim->now || !kfsim_bfq_job_is_mixed(spec) || !other_perc)
		return write;
	other_at = job_rate_allows(job, &other);
	if (other_at <= sim->now)
		return !write;
	return mine_at <= other_at ? write : !write;
}

/*
 * fio's next pass over the region (backend.c thread_main(): clear_io_state(), then the
 * files opened again, fio_file_reset()): rwmix_issues is 0 again, randrepeat=1 seeds the
 * mix again, the positions go back to the region's start; io_issues[] go on.
 */
static void job_next_pass(struct sim_job *job)
{
	job->pass_issued = 0;
	job->mix.rwmix_issues = 0;
	if (job->spec.rwmix_repeat) {
		kfsim_fio_rand32_seed(&job->mix.state, job->spec.rwmix_seed);
		for (int d = 0; d < 2; d++)
			kfsim_fio_rand32_seed(&job->bs_state[d], job->spec.bs_seed[d]);
	}
	/* skips and strided zones keep their own wrapping (kfsim_bfq_job_choose_sector()) */
	if (job->spec.nr_files > 1)
		job_files_reset(job);
	else if (!job->spec.seq_skip && !job->spec.zone_size)
		job->next_pos[0] = job->next_pos[1] = job->start;
	/* fio_file_reset(): no last start (rw_sequencer=identical starts at the region's) */
	job->last_start[0] = job->last_start[1] = KFSIM_BFQ_NO_LAST_START;
}

/*
 * A job of passes whose sequential direction @write has no whole block of its smallest
 * size left in the region: fio's get_next_offset() fails there and do_io() ends the pass
 * (a time_based job wraps instead, as kfsim_bfq_job_choose_sector() does).
 */
static bool job_seq_at_end(const struct sim_job *job, bool write)
{
	const struct kfsim_bfq_job *spec = &job->spec;
	sector_t min_sectors = kfsim_bfq_job_min_bs(spec, write) >> SECTOR_SHIFT;

	if (!spec->pass_bytes || !kfsim_bfq_job_is_mixed(spec) ||
	    kfsim_bfq_job_is_random(spec) || spec->seq_skip ||
	    spec->zone_size || job->verifying || job->pass_issued == 0)
		return false;
	return job->next_pos[write] + min_sectors > job->start + job->nr_sectors;
}

/*
 * The bytes a sequential direction has left before the region's end (fio's io_u_fits()
 * asks it of each size drawn), from the region's start once too few are left for the
 * smallest block (kfsim_bfq_job_choose_sector() wraps there); U64_MAX for a random job,
 * whose offset is drawn after its size, and for skips and strided zones.
 */
static u64 job_seq_room(const struct sim_job *job, bool write)
{
	const struct kfsim_bfq_job *spec = &job->spec;
	sector_t end = job->start + job->nr_sectors, pos = job->next_pos[write];

	if (kfsim_bfq_job_is_random(spec) || spec->seq_skip || spec->zone_size)
		return U64_MAX;
	if (pos < job->start || pos + (kfsim_bfq_job_min_bs(spec, write) >> SECTOR_SHIFT) > end)
		pos = job->start;
	return (u64)(end - pos) << SECTOR_SHIFT;
}

static void job_choose(struct kfsim_bfq_sim *sim, struct sim_job *job)
{
	struct rnd_state *rnd = job->spec.verify ? &job->rnd : &sim->rnd;
	bool write, verify_read;
	unsigned int bytes;

	job_verify_backlog(job);
	verify_read = job->vb_batch > 0;
	/* only a mix's directions depend on its passes: a plain job's positions wrap */
	if (kfsim_bfq_job_is_mixed(&job->spec) && job->spec.pass_bytes &&
	    job->pass_issued >= job->spec.pass_bytes)
		job_next_pass(job);
	/* fio's get_rw_ddir(): the rwmix cycle, then rate_ddir(), whose answer it keeps */
	write = job_rate_ddir(sim, job, kfsim_bfq_rwmix_next(&job->spec, &job->mix));
	job->mix.write = write;
	if (job_seq_at_end(job, write)) {
		/* no offset for it: the pass ends, the next one asks get_rw_ddir() again */
		job_next_pass(job);
		write = job_rate_ddir(sim, job, kfsim_bfq_rwmix_next(&job->spec, &job->mix));
		job->mix.write = write;
	}
	if (job->spec.nr_files > 1 && !job_pick_file(job)) {
		job_files_reset(job);	/* job_done_issuing() ends passes first: not reached */
		job_pick_file(job);
	}
	bytes = job->spec.bs_fio_seed ?
		kfsim_bfq_job_fio_bs(&job->spec, write, job_seq_room(job, write),
				     &job->bs_state[write]) :
		kfsim_bfq_job_choose_bs(&job->spec, write, rnd);
	job_strided_zone(job, write);
	job->zone_bytes += bytes;

	job->next = (struct sim_io){
		.valid = true,
		.write = write && !job->verifying && !verify_read,
		.bytes = bytes,
		.sector = kfsim_bfq_job_choose_sector(&job->spec, job->start, job->nr_sectors,
						      &job->next_pos[write], &job->last_start[write],
						      &job->seq_left, bytes, rnd),
	};
	if (job->spec.nr_files > 1)
		job_file_issued(job, write, bytes);
	if (verify_read)
		job_verify_read_done(job);
	else if (job->next.write && job->spec.verify_backlog)
		job->vb_pending++;
}

/*
 * fio's figures start again (reset_all_stats(), fio 3.33 libfio.c): at the end of the ramp
 * (ramp_time_over()) and before the final latency-target window.  Its epoch moves to now, so
 * its runtime, rate schedule (rate_io_issue_bytes, last_usec) and latency target
 * (lat_target_reset()) start again; what it issued still counts towards its size (fio's
 * io_issue_bytes and do_io()'s bytes_issued are not reset); its I/O in flight, less the
 * @completing one, still counts towards number_ios (exceeds_number_ios() adds
 * io_u_in_flight, which an I/O reaped has left).
 */
static void job_reset_figures(struct kfsim_bfq_sim *sim, struct sim_job *job,
			      unsigned int completing)
{
	job->completed = job->bytes = 0;
	job->bytes_dir[0] = job->bytes_dir[1] = 0;
	job->ios_dir[0] = job->ios_dir[1] = 0;
	job->ios_issued = job->inflight - completing;
	job->issued_dir[0] = job->issued_dir[1] = 0;
	/* reset_all_stats() zeroes io_issues[] and rwmix_issues, not the cycle's direction */
	job->mix.issues[0] = job->mix.issues[1] = 0;
	job->mix.rwmix_issues = 0;
	job->poisson_next[0] = job->poisson_next[1] = 0;
	job->tt_blocks = job->tt_issues = 0;	/* io_blocks, io_issues; not the last pause's */
	kfsim_hist_reset(&job->lat);
	job->syncs = job->fsyncs = 0;
	if (job->sync_lat.bucket)
		kfsim_hist_reset(&job->sync_lat);
	job->start_ns = sim->now;	/* the epoch: its runtime starts again too */
	if (job->spec.latency_target_ns && !job->lt.end_run)
		sim_lat_target_init(&job->lt, &job->spec, sim->now, 0);
	/*
	 * fio's reset_all_stats() moves steady state's clock to the new epoch but keeps its
	 * previous byte and I/O counts, so the next sample's difference wraps, in fio as here
	 */
	job->ss.prev_ns = sim->now;
}

/*
 * rate_process=poisson, after an I/O of direction @write is issued: fio 3.33's usec_for_io()
 * adds to the direction's last arrival a gap of (1000000 / iops) whole microseconds times
 * -log(u), u uniform in (0, 1], cut to whole microseconds, iops being the cap in bytes a
 * second over the direction's smallest block.  An iops of 0 divides by zero in fio (its job
 * dies of SIGFPE): the job file is refused (fio_jobs.c); over 1000000 the gap is 0.
 */
static void job_poisson_gap(struct kfsim_bfq_sim *sim, struct sim_job *job, bool write)
{
	u64 iops = kfsim_bfq_job_rate_bps(&job->spec, write) /
		   max(kfsim_bfq_job_min_bs(&job->spec, write), 1u);
	double u;

	if (!iops)
		return;
	u = ((double)prandom_u32_state(&sim->rnd) + 1.0) / 4294967296.0;
	job->poisson_next[write] += (u64)((double)(1000000 / iops) * -logf((float)u)) * 1000;
}

/*
 * An I/O the job issued, a write to the page cache or a request (its bytes_issued are the
 * caller's: a request counts them when submitted): the counts a ramp resets, and those it
 * does not (fio's io_issue_bytes and io_issues of writes, which fsync= counts).
 */
static void job_count_issued(struct kfsim_bfq_sim *sim, struct sim_job *job,
			     unsigned int bytes, bool write)
{
	job->last_was_sync = false;
	job->issued_dir[write] += bytes;
	job->mix.issues[write]++;
	job->pass_issued += bytes;
	job->ios_issued++;
	if (job->spec.rate_poisson && !job->verifying)
		job_poisson_gap(sim, job, write);
	if (write) {
		job->writes_issued += bytes;
		job->write_ios_issued++;
	}
}

/* What an I/O of a job counts for, at its completion (job_ramp_check()). */
enum sim_ramp_count {
	SIM_COUNT_ALL,		/* the ramp is over, or there is none */
	SIM_COUNT_BYTES,	/* in the ramp: its bytes (fio's io_bytes), not its latency */
	SIM_COUNT_NONE,		/* it ended the ramp: counted, then forgotten with the rest */
};

/*
 * fio's ramp_time_over() (fio 3.33 time.c), asked at each completion (should_account()) and,
 * with an asynchronous engine, each submission (io_u_queued()): the first one at least
 * ramp_ns after the job's start ends the ramp, and the job's figures start again.  In the
 * ramp fio adds a completion's bytes to io_bytes but accounts no latency; the completion
 * that ends it was added before the reset, which forgets it.  @completing: 1 when asked at
 * a completion still counted in @job->inflight.
 */
static enum sim_ramp_count job_ramp_check(struct kfsim_bfq_sim *sim, struct sim_job *job,
					  unsigned int completing)
{
	if (!job->in_ramp)
		return SIM_COUNT_ALL;
	if (sim->now - job->start_ns < job->spec.ramp_ns)
		return SIM_COUNT_BYTES;
	job->in_ramp = false;
	job_reset_figures(sim, job, completing);
	return SIM_COUNT_NONE;
}

/*
 * When @io may go under its direction's rate cap, else now: fio 3.33's usec_for_io()
 * (backend.c), whose cap is in bytes a second (kfsim_bfq_job_rate_bps(): rate_iops= is
 * rate_iops x the smallest block, so a bsrange job issues fewer I/Os a second than rate_iops,
 * and rate= wins over rate_iops=).  Evenly: the bytes issued so far at that rate; poisson:
 * the direction's sum of exponential gaps (job_poisson_gap()).
 */
static u64 job_rate_allows(const struct sim_job *job, const struct sim_io *io)
{
	u64 bps = kfsim_bfq_job_rate_bps(&job->spec, io->write);

	/* the read-back after the writes is fio's do_verify(), which asks no rate */
	if (!bps || job->verifying)
		return job->start_ns;
	if (job->spec.rate_poisson)
		return job->start_ns + job->poisson_next[io->write];
	return job->start_ns + (u64)((double)job->issued_dir[io->write] * 1e9 / (double)bps);
}

/*
 * fio 3.33's handle_thinktime() (backend.c), asked after each I/O the job issues and after it
 * reaps completions with its queue full (wait_for_completions()): once the job's count of
 * completed reads and writes (issued ones, thinktime_blocks_type=issue) is
 * thinktime_blocks past the count at the last pause, it lets its I/O in flight complete
 * (io_u_quiesce()), then sleeps thinktime.  So a job at iodepth 16 issues 16 I/Os, pauses,
 * and from then on one I/O a pause: the count taken before the first quiesce is 1, the 16
 * it reaps are past it (fio --debug=io, libaio, iodepth=16, thinktime=100ms: 16 queued and
 * completed, then one at a time; 2026-12-07).  True: the job starts a pause.
 */
static bool job_think_due(struct kfsim_bfq_sim *sim, struct sim_job *job)
{
	const struct kfsim_bfq_job *spec = &job->spec;
	u64 b = spec->thinktime_issue ? job->tt_issues : job->tt_blocks;
	bool stall = false;

	if (!spec->thinktime_us || job->tt_quiesce)
		return false;
	/*
	 * thinktime_iotime: a pause once iotime + thinktime passed since the last one (whose
	 * time is taken before its quiesce and sleep, so the sleep counts in the next
	 * interval: fio's utime_since() in whole microseconds); with thinktime_blocks not
	 * given, its default of 1 does not count ("does not work together with
	 * thinktime_iotime")
	 */
	if (spec->thinktime_iotime_us) {
		stall = (sim->now - job->tt_time) / NSEC_PER_USEC >=
			(u64)spec->thinktime_iotime_us + spec->thinktime_us;
		if (!stall && !spec->thinktime_blocks)
			return false;
	}
	if (!stall && b < job->tt_last + max(spec->thinktime_blocks, 1u))
		return false;
	job->tt_last = b;
	if (spec->thinktime_iotime_us)
		job->tt_time = sim->now;
	job->tt_quiesce = true;
	return true;
}

/*
 * fio 3.33's wait_for_completions() (backend.c) with iodepth_low below the depth or
 * iodepth_batch_complete_min above 1: once the job's queue is full it reaps in rounds of
 * min(iodepth_batch_complete_min, in flight) completions (io_getevents() with that minimum,
 * and as maximum: iodepth_batch_complete_max is raised to it), until no more than
 * iodepth_low are in flight, and only then queues again, up to the full depth at once (each
 * queued I/O waits for the next reap's commit at most, microseconds).  With the defaults,
 * one completion, then one I/O.  True: a drain starts (the queue is full now).
 */
static bool job_drain_starts(struct sim_job *job)
{
	const struct kfsim_bfq_job *spec = &job->spec;
	unsigned int depth = kfsim_bfq_job_depth(spec);

	if (job->inflight < depth || depth < 2 ||
	    ((!spec->iodepth_low || spec->iodepth_low >= depth) && spec->reap_min < 2))
		return false;
	job->reap_left = min(max(spec->reap_min, 1u), job->inflight);
	return true;
}

/* A completion of a draining job: true when the drain ends with it. */
static bool job_drain_reaped(struct sim_job *job)
{
	const struct kfsim_bfq_job *spec = &job->spec;
	unsigned int depth = kfsim_bfq_job_depth(spec);
	unsigned int low = spec->iodepth_low && spec->iodepth_low < depth ? spec->iodepth_low
									  : depth;

	if (!job->reap_left || --job->reap_left)
		return false;
	if (job->inflight > low) {
		job->reap_left = min(max(spec->reap_min, 1u), job->inflight);
		return false;	/* another round: "while (full && cur_depth > iodepth_low)" */
	}
	return true;
}

/* A pausing job: its I/O in flight done, it sleeps; true while it pauses. */
static bool job_thinking(struct kfsim_bfq_sim *sim, unsigned int j)
{
	struct sim_job *job = &sim->jobs[j];

	if (job->tt_quiesce && !job->inflight) {
		job->tt_quiesce = false;
		job->tt_wake = sim->now + job->spec.thinktime_us * NSEC_PER_USEC;
		sim_schedule(sim, job->tt_wake, EV_JOB_WAKE, j);
	}
	return job->tt_quiesce || sim->now < job->tt_wake;
}

/* A buffered write: a copy into the page cache, throttled at the dirty limit. */
static void job_buffered_write(struct kfsim_bfq_sim *sim, unsigned int j)
{
	struct sim_job *job = &sim->jobs[j];
	unsigned int bytes = job->next.bytes;
	u64 copy_ns = (u64)((double)bytes * 1e3 / sim->cfg.wb.copy_mb_s) + 1;
	enum sim_ramp_count count;

	if (sim->dirty_bytes + bytes > wb_thresh(sim, sim->cfg.wb.dirty_ratio)) {
		job->throttled = true;	/* balance_dirty_pages(): wait for writeback */
		wb_kick(sim);
		return;
	}
	if (wb_add_dirty(sim, job->next.sector, bytes)) {
		sim->err = -ENOMEM;
		sim->draining = true;
		return;
	}
	job->next.valid = false;
	job->bytes_issued += bytes;
	job_count_issued(sim, job, bytes, true);
	job->copy_until = sim->now + copy_ns;
	/* a write() into the page cache completes as it is issued: the pause follows the copy */
	job->tt_issues++;
	job->tt_blocks++;
	job_think_due(sim, job);
	count = job_ramp_check(sim, job, 0);
	/*
	 * It completes when the copy ends: counted, as a disk I/O is, when that is within the
	 * run.  Counted as it began, a 4 MiB copy that began 0.8 ms before the end had its
	 * bytes and its whole latency in the run: a job at iodepth 1 had 0.5008 s of I/O in
	 * flight in 0.5 s (fio_physics.py, Little's law, seed 31477).
	 */
	if (job->copy_until < sim->cfg.duration_ns && count != SIM_COUNT_NONE) {
		job->completed++;
		job->bytes += bytes;
		job->bytes_dir[1] += bytes;
		job->ios_dir[1]++;
		if (count == SIM_COUNT_ALL)
			kfsim_hist_add(&job->lat, copy_ns);
	}
	sim_schedule(sim, job->copy_until, EV_JOB_WAKE, j);
	wb_kick(sim);
}

/* --- fsync, fdatasync, end_fsync (fio 3.33 io_u.c get_rw_ddir(), backend.c do_io()) ------ */

/* fio's td_write(): the job's rw= includes writes */
static bool job_writes(const struct kfsim_bfq_job *spec)
{
	return spec->rw != KFSIM_RW_READ && spec->rw != KFSIM_RW_RANDREAD &&
	       spec->rw != KFSIM_RW_TRIM && spec->rw != KFSIM_RW_RANDTRIM;
}

/*
 * should_fsync() and get_rw_ddir(): a writing job whose previous I/O was not a sync syncs
 * when its count of writes issued is a multiple of fsync= (DDIR_SYNC) or fdatasync=
 * (DDIR_DATASYNC).
 */
static bool job_sync_due(const struct sim_job *job)
{
	u64 n = job->write_ios_issued;

	/* fio's read-back (do_verify()) takes its I/Os from the verify list, never asking */
	if (job->last_was_sync || !n || !job_writes(&job->spec) || job->verifying)
		return false;
	return (job->spec.fsync_blocks && !(n % job->spec.fsync_blocks)) ||
	       (job->spec.fdatasync_blocks && !(n % job->spec.fdatasync_blocks));
}

/* end_fsync and fsync_on_close: one more sync once the job issued its last I/O */
static bool job_end_sync_due(const struct kfsim_bfq_sim *sim, const struct sim_job *job)
{
	return job->spec.end_fsync && !job->end_sync_done && !job->last_was_sync &&
	       !job->error && !job->terminated && job_writes(&job->spec);
}

/*
 * The sync completed: its latency is the job's "sync" figure (add_sync_clat_sample()), and
 * an fsync= one counts in fio's "sync" total_ios, which counts DDIR_SYNC only.  end_fsync's
 * takes its time but fio 3.33 reports it nowhere (measured: fio --end_fsync=1 gives a "sync"
 * object with total_ios 0 and no latency sample).
 */
static void job_sync_done(struct kfsim_bfq_sim *sim, unsigned int j)
{
	struct sim_job *job = &sim->jobs[j];

	job->sync_phase = SIM_SYNC_NONE;
	job->last_was_sync = true;
	if (sim->now < sim->cfg.duration_ns && !job->in_ramp && !job->end_sync_done) {
		job->syncs++;
		job->fsyncs += job->sync_is_fsync;
		kfsim_hist_add(&job->sync_lat, sim->now - job->sync_start_ns);
	}
	job_issue(sim, j);
}

/* The sectors of @job's file, [*@lo, *@hi): the whole disk for a job on the device. */
static void job_file_sectors(const struct kfsim_bfq_sim *sim, const struct sim_job *job,
			     sector_t *lo, sector_t *hi)
{
	*lo = job->spec.file_size ? job->spec.file_start >> SECTOR_SHIFT : 0;
	*hi = job->spec.file_size ? *lo + (job->spec.file_size >> SECTOR_SHIFT)
				  : sim->cfg.disk.capacity;
}

/*
 * Writeback of [@lo, @hi) still in flight, whoever started it: __filemap_fdatawait_range()
 * waits on every page of the range under writeback.  Before, a sync waited for its own writes
 * only, and the clones of a buffered writer with end_fsync, whose pages the first clone's
 * sync had already sent, ended at once with their data still on its way (fio_physics.py
 * --wide, seed 30105).
 */
static bool wb_in_flight_within(const struct kfsim_bfq_sim *sim, sector_t lo, sector_t hi)
{
	for (unsigned int i = 0; i < sim->cfg.nr_requests; i++) {
		const struct request *rq = &sim->pool[i];

		if (sim->wb_in_flight[i] && blk_rq_pos(rq) < hi && blk_rq_end_sector(rq) > lo)
			return true;
	}
	return false;
}

/*
 * The sync's steps: write back the dirty extents of the job's file as sync writes, wait for
 * them and for any other writeback of the file, then flush the drive's write cache
 * (blkdev_issue_flush(); with direct I/O only this) and wait for that.  Called again as its
 * writes complete, any writeback completes or a tag frees.  An extent that reaches outside the
 * file (a sequential writer's run merged across two adjacent files) is written whole: more
 * than the kernel writes, never less.
 */
static void job_sync_continue(struct kfsim_bfq_sim *sim, unsigned int j)
{
	struct sim_job *job = &sim->jobs[j];
	sector_t lo, hi;

	/* draining: nothing new is submitted, the run ends with the sync unfinished */
	if (job->sync_phase != SIM_SYNC_WRITEBACK || sim->draining)
		return;
	job_file_sectors(sim, job, &lo, &hi);
	for (size_t i = 0; i < sim->nr_dirty; i++) {
		struct wb_extent *ext = &sim->dirty[(sim->dirty_head + i) % sim->dirty_cap];

		if (ext->sector >= hi || ext->sector + ext->nr_sectors <= lo)
			continue;
		while (ext->nr_sectors) {
			u64 nr = min_t(u64, ext->nr_sectors, BLK_DEF_MAX_SECTORS_CAP);
			u64 bytes = nr << SECTOR_SHIFT;
			struct request *rq = sim_alloc_request(sim, j, sim_opf(true, true));

			if (!rq) {
				sim_wait_tag(sim, j);
				return;
			}
			sim_submit(sim, j, rq, ext->sector, (unsigned int)bytes, true, true);
			sim->wb_in_flight[rq - sim->pool] = true;
			job->bytes_issued -= bytes;	/* the page cache's I/O, not the job's */
			sim->wb_inflight_bytes += bytes;
			ext->sector += nr;
			ext->nr_sectors -= nr;
		}
	}
	if (job->inflight || wb_in_flight_within(sim, lo, hi))
		return;
	job->sync_phase = SIM_SYNC_FLUSH;
	if (kfsim_hdd_flush(sim->hdd, sim->now)) {
		job_sync_done(sim, j);
		return;
	}
	sim->nr_flush_waiters++;
}

static void job_sync_start(struct kfsim_bfq_sim *sim, unsigned int j)
{
	struct sim_job *job = &sim->jobs[j];

	job->sync_phase = SIM_SYNC_WRITEBACK;
	job->sync_start_ns = sim->now;
	job_sync_continue(sim, j);
}

/* A writeback write of job @j completed: the other jobs' syncs may wait for no more. */
static void sim_syncs_continue(struct kfsim_bfq_sim *sim, unsigned int j)
{
	for (unsigned int k = 0; k < sim->nr_jobs; k++) {
		if (k != j && sim->jobs[k].sync_phase == SIM_SYNC_WRITEBACK)
			job_sync_continue(sim, k);
	}
}

/* The drive may have finished a flush: the syncs waiting for it complete. */
static void sim_flush_check(struct kfsim_bfq_sim *sim)
{
	if (!kfsim_hdd_flush_done(sim->hdd))
		return;
	for (unsigned int j = 0; j < sim->nr_jobs && sim->nr_flush_waiters; j++) {
		if (sim->jobs[j].sync_phase == SIM_SYNC_FLUSH) {
			sim->nr_flush_waiters--;
			job_sync_done(sim, j);
		}
	}
}

/* --- fio's flow control (flow.c, fio 3.33): jobs of a flow_id keep their I/O counts in the
 * ratio of their flow weights ------------------------------------------------------------ */

static struct sim_flow *sim_flow_of(struct kfsim_bfq_sim *sim, const struct sim_job *job)
{
	for (unsigned int i = 0; i < sim->nr_flows; i++) {
		if (sim->flows[i].id == job->spec.flow_id)
			return &sim->flows[i];
	}
	sim->flows[sim->nr_flows] = (struct sim_flow){ .id = job->spec.flow_id, .counter = 1 };
	return &sim->flows[sim->nr_flows++];
}

/* Jobs of @flow waiting for another to issue (or for the flow to change) try again. */
static void sim_flow_wake(struct kfsim_bfq_sim *sim, const struct sim_flow *flow)
{
	for (unsigned int k = 0; k < sim->nr_jobs; k++) {
		struct sim_job *other = &sim->jobs[k];

		if (other->flow_blocked && other->spec.flow_id == flow->id) {
			other->flow_blocked = false;
			sim_schedule(sim, sim->now, EV_JOB_WAKE, k);
		}
	}
}

/* flow_init_job(): a job joins its flow with its weight as it starts. */
static void sim_flow_join(struct kfsim_bfq_sim *sim, struct sim_job *job)
{
	if (job->spec.flow)
		sim_flow_of(sim, job)->total_weight += job->spec.flow;
}

/* flow_exit_job(): an ending job takes its count and weight out of the flow. */
static void sim_flow_leave(struct kfsim_bfq_sim *sim, struct sim_job *job)
{
	struct sim_flow *flow;

	if (!job->spec.flow)
		return;
	flow = sim_flow_of(sim, job);
	flow->counter -= job->flow_counter;
	flow->total_weight -= job->spec.flow;
	job->flow_counter = 0;
	sim_flow_wake(sim, flow);
}

/*
 * flow_threshold_exceeded() before each I/O: a job whose share of the flow's count is above
 * its share of the flow's weight does not issue; with flow_sleep it first lets its I/O in
 * flight complete (io_u_quiesce()), then sleeps.  Else the I/O is counted.  True: wait.
 */
static bool sim_flow_holds(struct kfsim_bfq_sim *sim, unsigned int j)
{
	struct sim_job *job = &sim->jobs[j];
	struct sim_flow *flow;

	if (!job->spec.flow || job->flow_passed)
		return false;
	if (sim->now < job->flow_sleep_until)
		return true;	/* asleep: its wake-up is scheduled */
	flow = sim_flow_of(sim, job);
	if ((double)job->flow_counter / (double)flow->counter >
	    (double)job->spec.flow / (double)flow->total_weight) {
		if (!job->spec.flow_sleep_us) {
			job->flow_blocked = true;
		} else if (!job->inflight) {
			job->flow_sleep_until = sim->now + (u64)job->spec.flow_sleep_us * NSEC_PER_USEC;
			sim_schedule(sim, job->flow_sleep_until, EV_JOB_WAKE, j);
		}
		return true;
	}
	flow->counter++;
	job->flow_counter++;
	job->flow_passed = true;
	sim_flow_wake(sim, flow);
	return false;
}

/* A job that may write, under a scheduler limiting tags by direction, draws first too. */
static bool job_draws_first(const struct kfsim_bfq_sim *sim, const struct sim_job *job)
{
	const struct kfsim_bfq_job *spec = &job->spec;
	bool writes = spec->rw != KFSIM_RW_READ && spec->rw != KFSIM_RW_RANDREAD;

	return spec->rate || spec->rate_write || spec->rate_iops || spec->rate_iops_write ||
	       (writes && (spec->buffered || sim_ops(sim)->limit_depth));
}

/* A replayed record goes to the scheduler: the lag is how far behind the trace's time. */
static void replay_submit(struct kfsim_bfq_sim *sim, size_t i, struct request *rq)
{
	const struct kfsim_blktrace_rec *rec = &sim->replay[i];
	u64 lag = sim->now > rec->time_ns ? sim->now - rec->time_ns : 0;

	sim_submit(sim, sim->replay_job[i], rq, rec->sector, rec->nr_sectors << SECTOR_SHIFT,
		   rec->write, rec->sync);
	sim->replay_lag_sum_ns += lag;
	sim->result.replay_lag_max_us = max(sim->result.replay_lag_max_us, (double)lag / 1e3);
	sim->replay_next++;	/* records issued */
	sim->replay_inflight++;
}

/*
 * Closed loop: process @j issues its next records as far as its own past allows (struct
 * kfsim_bfq_sim_config.replay_closed): a completion or a wake-up at the time it set calls it
 * again.
 */
static void replay_closed_issue(struct kfsim_bfq_sim *sim, unsigned int j)
{
	struct sim_job *job = &sim->jobs[j];

	while (job->replay_cur != SIZE_MAX) {
		const struct kfsim_blktrace_rec *rec = &sim->replay[job->replay_cur];
		u64 ready = rec->time_ns;
		struct request *rq;

		if (job->replay_began && rec->depth) {
			if (job->inflight >= rec->depth)
				return;	/* a completion comes first */
			ready = (rec->depth == 1 ? job->replay_done_ns : job->replay_issue_ns) +
				rec->think_ns;
		}
		if (ready > sim->now) {
			if (job->replay_wake_at != ready) {
				job->replay_wake_at = ready;
				sim_schedule(sim, ready, EV_JOB_WAKE, j);
			}
			return;
		}
		rq = sim_alloc_request(sim, j, sim_opf(rec->write, rec->sync));
		if (!rq) {
			sim_wait_tag(sim, j);
			return;
		}
		replay_submit(sim, job->replay_cur, rq);
		job->replay_began = true;
		job->replay_issue_ns = sim->now;
		job->replay_cur = sim->replay_chain[job->replay_cur];
	}
}

/* Fill a fio job up to its depth, within its rates, sizes and time. */
static void job_issue(struct kfsim_bfq_sim *sim, unsigned int j)
{
	struct sim_job *job = &sim->jobs[j];
	unsigned int depth = kfsim_bfq_job_depth(&job->spec);

	/* asleep for a tag (io_submit() blocked): it submits again once woken */
	if (sim->draining || job->ended || job->waiting_tag)
		return;
	if (job->replay) {
		if (sim->cfg.replay_closed)
			replay_closed_issue(sim, j);
		return;
	}
	if (job->flusher) {
		wb_issue(sim, j);
		return;
	}
	if (job->sync_phase) {
		job_sync_continue(sim, j);
		return;
	}
	if (!job->started || sim->now < job->start_at || job->throttled)
		return;
	if (job->spec.io_error || job->spec.eof_at_start) {
		/* its first I/O fails before the disk, or finds nothing: fio ends the job */
		job->error = job->spec.io_error;
		job_end(sim, j, sim->now);
		return;
	}
	if (job->spec.engine == KFSIM_ENGINE_NONE) {
		/*
		 * no disk I/O: a job bounded by size ends at once, else at its runtime, after
		 * its ramp: fio's null engine completes each I/O at once, so the first one
		 * after ramp_time ends the ramp
		 */
		if (job->spec.runtime_ns && !job->spec.io_size && !job->spec.number_ios) {
			if (job->in_ramp && sim->now < job->start_ns + job->spec.ramp_ns) {
				sim_schedule(sim, job->start_ns + job->spec.ramp_ns, EV_JOB_WAKE, j);
				return;
			}
			job_ramp_check(sim, job, 0);
			if (sim->now < job->start_ns + job->spec.runtime_ns) {
				sim_schedule(sim, job->start_ns + job->spec.runtime_ns, EV_JOB_WAKE, j);
				return;
			}
			job_end(sim, j, job->start_ns + job->spec.runtime_ns);
		} else if (job->spec.io_size || job->spec.number_ios) {
			job_end(sim, j, sim->now);
		}
		return;
	}
	if (sim->now < job->copy_until)
		return;
	if (job->spec.latency_target_ns)
		depth = job->lt.drain_cycle ? 0 : min(depth, job->lt.qd);	/* queue_full() */
	while (job->inflight < depth && !job->reap_left && !job_thinking(sim, j)) {
		struct request *rq = NULL;
		u64 allowed;

		if (!job->next.valid) {
			if (job->stopped || job_done_issuing(sim, job)) {
				job->stopped = true;
				break;
			}
			if (job_sync_due(job)) {
				/* a sync waits for the job's I/O in flight (libaio: FIO_Q_BUSY) */
				if (job->inflight)
					return;
				/* get_rw_ddir() asks for fsync= before fdatasync= */
				job->sync_is_fsync = job->spec.fsync_blocks &&
					!(job->write_ios_issued % job->spec.fsync_blocks);
				job_sync_start(sim, j);
				return;
			}
			if (sim_flow_holds(sim, j))
				return;
			/*
			 * A plain job takes its tag before it draws, as it always did: the draws
			 * of a seed stay where they were.  A job with a rate cap or buffered
			 * writes draws first: the direction decides what it waits for.
			 */
			if (!job_draws_first(sim, job)) {
				rq = sim_alloc_request(sim, j, REQ_OP_READ);
				if (!rq) {
					sim_wait_tag(sim, j);
					return;
				}
			}
			job_choose(sim, job);
		}
		allowed = job_rate_allows(job, &job->next);
		if (allowed > sim->now) {
			/* a job waiting for its rate still ends at its runtime */
			if (job->spec.runtime_ns && !job->in_ramp)
				allowed = min(allowed, job->start_ns + job->spec.runtime_ns);
			if (allowed > sim->now) {
				sim_schedule(sim, allowed, EV_JOB_WAKE, j);
				return;
			}
			job->next.valid = false;
			continue;
		}
		/*
		 * fio 3.33 asks runtime_exceeded() before each I/O: none goes out once the
		 * runtime is over, though its rate allowed it then (rate_iops=40, runtime=1:
		 * fio 40 reads, kfsim 41 before, its 41st at the runtime's very end)
		 */
		if (job->spec.runtime_ns && !job->in_ramp &&
		    sim->now >= job->start_ns + job->spec.runtime_ns) {
			job->next.valid = false;
			continue;
		}
		if (job->next.write && job->spec.buffered && !job->spec.sync) {
			if (job->inflight)
				return;	/* the writer is in its write() after the reads it waits on */
			job_buffered_write(sim, j);
			return;
		}
		if (!rq)
			rq = sim_alloc_request(sim, j, sim_opf(job->next.write,
							       !job->spec.buffered || job->spec.sync));
		if (!rq) {
			sim_wait_tag(sim, j);
			return;
		}
		job->next.valid = false;
		job->flow_passed = false;
		if (job->spec.engine == KFSIM_ENGINE_ASYNC)
			job_ramp_check(sim, job, 0);	/* io_u_queued() asks too */
		job_count_issued(sim, job, job->next.bytes, job->next.write);
		/* direct writes and O_SYNC/O_DSYNC ones are REQ_SYNC (block/fops.c, 6.12) */
		sim_submit(sim, j, rq, job->next.sector, job->next.bytes, job->next.write,
			   !job->spec.buffered || job->spec.sync);
		job->tt_issues++;
		/* a drain comes before fio asks for a pause (the fio reader refuses both) */
		if (!job_drain_starts(job))
			job_think_due(sim, job);
	}
	if (job->stopped && !job->inflight) {
		if (job_end_sync_due(sim, job)) {
			job->end_sync_done = true;
			job_sync_start(sim, j);
			return;
		}
		job_end(sim, j, job->end_ns ? min(job->end_ns, sim->now) : sim->now);
	}
}

static void replay_issue(struct kfsim_bfq_sim *sim)
{
	while (!sim->draining && sim->replay_next < sim->cfg.nr_replay) {
		const struct kfsim_blktrace_rec *rec = &sim->replay[sim->replay_next];
		struct request *rq;

		if (rec->time_ns > sim->now) {
			sim_schedule(sim, rec->time_ns, EV_REPLAY, 0);
			return;
		}
		rq = sim_alloc_request(sim, sim->replay_job[sim->replay_next],
				       sim_opf(rec->write, rec->sync));
		if (!rq) {
			sim->replay_blocked = true;
			return;
		}
		replay_submit(sim, sim->replay_next, rq);
	}
}

/*
 * A request was freed: sbitmap_queue_clear() wakes sleepers in turn, a batch every wake_batch
 * frees; each woken one retries, and sleeps again on the next wait queue if it finds none.
 */
static void sim_wake_waiters(struct kfsim_bfq_sim *sim)
{
	unsigned int woken[SBQ_WAKE_BATCH];
	unsigned int n = sbq_tags_freed(&sim->tag_waiters, 1, woken);

	/*
	 * The woken run in the order the CPU scheduler picks them, not the order they were
	 * woken in: a fixed order gave the last of each batch no tag, every time.
	 */
	for (unsigned int i = n; i > 1; i--) {
		unsigned int k = kfsim_prandom_below(&sim->wake_rnd, i);

		swap(woken[i - 1], woken[k]);
	}
	for (unsigned int i = 0; i < n; i++) {
		sim->jobs[woken[i]].waiting_tag = false;
		job_issue(sim, woken[i]);
	}
	if (sim->nr_free && sim->replay_blocked) {
		sim->replay_blocked = false;
		replay_issue(sim);
	}
}

/* --- tracing ---------------------------------------------------------------------------- */

static void sim_trace_completion(struct kfsim_bfq_sim *sim, struct request *rq)
{
	struct kfsim_trace *trace = sim->cfg.trace;
	char args[160];

	if (!trace || rq->media_start_ns >= sim->cfg.trace_window_ns)
		return;
	snprintf(args, sizeof(args),
		 "\"sector\": %llu, \"sectors\": %u, \"injected\": %s, \"cache_hit\": %s",
		 (unsigned long long)blk_rq_pos(rq), blk_rq_sectors(rq),
		 rq->injected ? "true" : "false", rq->cache_hit ? "true" : "false");
	kfsim_trace_complete(trace, 1, (int)rq->actuator + 1, sim->jobs[rq->pid].spec.name,
			     rq->injected ? "injected" : "dispatched", rq->media_start_ns / 1e3,
			     (rq->media_end_ns - rq->media_start_ns) / 1e3, args);
}

/* BFQ's in-service queue as a track: one slice per service slot (clipped to the window). */
static void sim_trace_slot_end(struct kfsim_bfq_sim *sim)
{
	u64 end = min(sim->now, sim->cfg.trace_window_ns);

	if (sim->traced_slot_job >= 0 && sim->traced_slot_start < end)
		kfsim_trace_complete(sim->cfg.trace, 1, 0,
				     sim->jobs[sim->traced_slot_job].spec.name, "in service",
				     sim->traced_slot_start / 1e3,
				     (end - sim->traced_slot_start) / 1e3, NULL);
	sim->traced_slot_job = -1;
}

static void sim_trace_in_service(struct kfsim_bfq_sim *sim)
{
	int pid;

	if (!sim->cfg.trace || !sim_ops(sim)->in_service_pid)
		return;
	pid = sim_ops(sim)->in_service_pid(&sim->eq);
	if (pid == sim->traced_in_service)
		return;
	sim_trace_slot_end(sim);
	sim->traced_in_service = pid;
	sim->traced_slot_start = sim->now;
	/* contexts are created with pid = job index + 1 */
	if (pid > 0 && (unsigned int)pid <= sim->nr_jobs && sim->now < sim->cfg.trace_window_ns)
		sim->traced_slot_job = pid - 1;
}

/* --- the loop --------------------------------------------------------------------------- */

/* A completion of a job with a latency target (struct sim_lat_target). */
static void job_lat_target(struct kfsim_bfq_sim *sim, unsigned int j, u64 lat_ns)
{
	struct sim_job *job = &sim->jobs[j];
	struct sim_lat_target *lt = &job->lt;

	if (job->stopped || job->ended)
		return;
	sim_lat_target_complete(lt, &job->spec, lat_ns, sim->now, job->completed);
	if (lt->fatal || lt->done) {
		if (lt->fatal)
			job->error = -ETIMEDOUT;
		job->stopped = true;	/* ends once what it has in flight completed */
		job->next.valid = false;
		return;
	}
	if (lt->drain_cycle && !job->inflight) {
		if (sim_lat_target_drained(lt))
			job_reset_figures(sim, job, 0);
		sim_lat_target_new_cycle(lt, sim->now, job->completed);
	}
}

/*
 * fio's steadystate_check(), once a second of the run: each running job with a window takes
 * its sample, and one whose criterion held ends as fio_mark_td_terminate() ends it: it
 * issues nothing more and ends once what it has in flight completed.
 */
static void sim_ss_check(struct kfsim_bfq_sim *sim)
{
	for (unsigned int j = 0; j < sim->nr_jobs; j++) {
		struct sim_job *job = &sim->jobs[j];

		if (!job->spec.ss_dur_s || !job->ss.iops_data || job->ended || job->stopped ||
		    job->start_ns > sim->now)
			continue;
		if (!sim_steadystate_check(&job->ss, job->start_ns, sim->now, job->completed,
					   job->bytes))
			continue;
		job->stopped = true;
		job->next.valid = false;
		if (!job->inflight)
			job_end(sim, j, sim->now);
	}
	sim_schedule(sim, sim->now + NSEC_PER_SEC, EV_SS_CHECK, 0);
}

static void sim_complete(struct kfsim_bfq_sim *sim, struct request *rq)
{
	unsigned int j = (unsigned int)rq->pid;	/* @rq may go to another process below */
	struct sim_job *job = &sim->jobs[j];
	unsigned int bytes = blk_rq_bytes(rq);
	u64 lat_ns = sim->now - rq->start_time_ns;
	/* while a job syncs, its only requests are the sync's writeback */
	bool sync_wb = job->sync_phase == SIM_SYNC_WRITEBACK;
	enum sim_ramp_count count = sync_wb ? SIM_COUNT_NONE : job_ramp_check(sim, job, 1);

	if (sim_ops(sim)->completed_request)
		sim_ops(sim)->completed_request(&sim->eq, rq, sim->now);
	if (sim->now < sim->cfg.duration_ns) {
		size_t bin = sim->now / sim->cfg.bin_ns;

		if (count != SIM_COUNT_NONE) {
			job->completed++;
			job->bytes += bytes;
			job->bytes_dir[rq_data_dir(rq)] += bytes;
			job->ios_dir[rq_data_dir(rq)]++;
		}
		if (count == SIM_COUNT_ALL)
			kfsim_hist_add(&job->lat, lat_ns);
		sim->act_bytes[rq->actuator] += bytes;
		sim->act_requests[rq->actuator]++;
		sim->act_hits[rq->actuator] += rq->cache_hit;
		if (bin < sim->result.nr_bins)
			sim->result.series_mb_s[rq->actuator][bin] += bytes;
		sim->result.completed++;
		/*
		 * Counted with the flusher's own bytes, in the run: a writeback write drained
		 * after the end cleans its pages (wb_written()) but is not the run's, as no
		 * job's drained I/O is (counted in wb_written(), 32 drained 1.25 MiB writes
		 * made writeback_bytes 40 MiB more than the flusher's bytes).
		 */
		if (job->flusher || sync_wb)
			sim->result.writeback_bytes += bytes;
		sim->last_counted_ns = sim->now;
		sim_trace_completion(sim, rq);
	} else {
		sim->result.drained++;
		if (job->flusher || sync_wb)
			sim->wb_drained_bytes += bytes;
	}
	if (job->replay)
		sim->result.replay_makespan_s = (double)sim->now / 1e9;
	sim->outstanding--;
	job->inflight--;
	sim->wb_in_flight[rq - sim->pool] = false;
	sim->free_stack[sim->nr_free++] = rq;
	/*
	 * blk-mq wakes the tag waiters as the tag is freed (sbitmap_queue_clear()), before the
	 * completing process gets to submit again.  The request may now belong to a woken
	 * process: the completing one is @j, read before (taking rq->pid after the wake-up made
	 * the next process re-issue in its place, and the completing one starved: issue #32).
	 */
	sim_wake_waiters(sim);
	if (job->flusher || sync_wb) {
		wb_written(sim, bytes);
		sim_syncs_continue(sim, j);
	}
	if (sync_wb) {
		job_sync_continue(sim, j);
		return;
	}
	/* fio judges no latency target in the ramp, nor the I/O that ended it */
	if (job->spec.latency_target_ns && !job->replay && !job->flusher &&
	    count == SIM_COUNT_ALL)
		job_lat_target(sim, j, lat_ns);
	/*
	 * The completing process submits again before the scheduler dispatches: a completion
	 * does not run the hardware queue unless the device's budget was contended
	 * (scsi_end_request() -> scsi_run_queue_async() runs it only when sdev->restarts is set,
	 * 6.12), so the next dispatch is the one the next insertion runs.
	 */
	if (!job->replay && !job->flusher && !sync_wb)
		job->tt_blocks++;	/* fio's io_blocks */
	if (job->replay) {
		sim->replay_inflight--;
		job->replay_done_ns = sim->now;
		job_issue(sim, j);	/* a closed loop's next record may go now */
	} else {
		bool draining = job->reap_left, drained = job_drain_reaped(job);

		/* fio reaps when its queue is full (or quiesces): then it asks for a pause */
		if (!job->sync_phase && (drained || (!draining && job->inflight + 1 >=
						     kfsim_bfq_job_depth(&job->spec))))
			job_think_due(sim, job);
		job_issue(sim, j);
	}
}

static void sim_dispatch(struct kfsim_bfq_sim *sim)
{
	while (kfsim_hdd_can_queue(sim->hdd)) {
		struct request *rq = sched_dispatch(sim);

		if (!rq)
			break;
		WARN_ON_ONCE(kfsim_hdd_submit(sim->hdd, rq, sim->now));
	}
}

/*
 * fio's run ends when its jobs do: every job ended, and a trace's replay done.  An open-loop
 * replay lasts the run (its records are due at their times); a closed loop is done when its
 * every record was issued and completed.
 */
static bool sim_jobs_ended(const struct kfsim_bfq_sim *sim)
{
	bool replay_done = !sim->cfg.nr_replay ||
			   (sim->cfg.replay_closed && sim->replay_next == sim->cfg.nr_replay &&
			    !sim->replay_inflight);

	return (sim->cfg.nr_jobs || sim->cfg.nr_replay) && sim->nr_ended == sim->cfg.nr_jobs &&
	       replay_done;
}

static void sim_loop(struct kfsim_bfq_sim *sim)
{
	unsigned long steps = 0;

	for (;;) {
		u64 t_disk = kfsim_hdd_next_event(sim->hdd);
		u64 t_timer = sched_next_timer(sim);
		const struct kfsim_event *next = kfsim_evq_peek(&sim->events);
		u64 t_ev = next ? kfsim_event_time(next) : U64_MAX;
		u64 t = min(t_disk, t_timer);
		struct kfsim_event ev;
		struct request *rq;

		t = min(t, t_ev);
		if (!sim->draining && (t >= sim->cfg.duration_ns || sim_jobs_ended(sim))) {
			sim->draining = true;
			sim->end_ns = sim_jobs_ended(sim) ? sim->now : sim->cfg.duration_ns;
			kfsim_evq_clear(&sim->events);	/* nothing new gets submitted */
			continue;
		}
		if (t == U64_MAX)
			break;	/* nothing left: drained */
		sim->now = max(sim->now, t);
		/* the caller's progress report, cheap enough to leave on: every 4096 steps */
		if (sim->cfg.progress && !(++steps & 4095))
			sim->cfg.progress(sim->cfg.progress_arg, sim->now);
		while ((rq = kfsim_hdd_step(sim->hdd, sim->now)))
			sim_complete(sim, rq);
		if (sim->nr_flush_waiters)
			sim_flush_check(sim);
		if (sched_next_timer(sim) <= sim->now)
			sim_ops(sim)->timer_fn(&sim->eq, sim->now);
		while ((next = kfsim_evq_peek(&sim->events)) && kfsim_event_time(next) <= sim->now &&
		       kfsim_evq_pop(&sim->events, &ev)) {
			u32 data;

			data = kfsim_event_data(&ev);
			switch (data & ((1u << EV_KIND_BITS) - 1)) {
			case EV_JOB_WAKE:
				job_issue(sim, data >> EV_KIND_BITS);
				break;
			case EV_SS_CHECK:
				sim_ss_check(sim);
				break;
			default:
				replay_issue(sim);
			}
		}
		sim_dispatch(sim);
		sim_trace_in_service(sim);
		if (sim->draining && !sim->outstanding)
			break;
	}
}

/* --- setup, results, teardown ------------------------------------------------------------ */

/* Buffered writes need the writeback flusher. */
static bool sim_needs_flusher(const struct kfsim_bfq_sim_config *cfg)
{
	for (unsigned int j = 0; j < cfg->nr_jobs; j++) {
		const struct kfsim_bfq_job *job = &cfg->jobs[j];

		if (job->buffered && !job->sync && job->engine != KFSIM_ENGINE_NONE &&
		    job->rw != KFSIM_RW_READ && job->rw != KFSIM_RW_RANDREAD)
			return true;
	}
	return false;
}

static int sim_setup_job(struct kfsim_bfq_sim *sim, struct sim_job *job,
			 const struct kfsim_bfq_job *spec)
{
	char why[128];

	job->spec = *spec;
	/* a trim is BLKDISCARD, which a disk without discard refuses (struct kfsim_bfq_job) */
	if (spec->rw >= KFSIM_RW_TRIM && spec->engine != KFSIM_ENGINE_NONE && !spec->io_error)
		job->spec.io_error = -EOPNOTSUPP;
	if (spec->io_error > 0 || spec->io_error < -MAX_ERRNO) {
		sim_err(sim, "job %s: io_error %d is not a -errno", spec->name, spec->io_error);
		return -EINVAL;
	}
	if (spec->latency_target_ns && !(spec->latency_percentile >= 0 &&
					 spec->latency_percentile <= 100)) {
		sim_err(sim, "job %s: latency_percentile %g is not 0 to 100", spec->name,
			spec->latency_percentile);
		return -EINVAL;
	}
	if (spec->ss_dur_s && (spec->ss_dur_s > KFSIM_SS_MAX_DUR_S ||
			       !(spec->ss_state & (KFSIM_SS_IOPS | KFSIM_SS_BW)) ||
			       !(spec->ss_limit >= 0))) {
		sim_err(sim, "job %s: steady state needs a window of 1 to %u s, KFSIM_SS_IOPS or "
			"KFSIM_SS_BW and a limit of 0 or more", spec->name, KFSIM_SS_MAX_DUR_S);
		return -EINVAL;
	}
	job->weight = spec->weight ? spec->weight : kfsim_ioprio_weight(spec->ioprio);
	if (spec->engine == KFSIM_ENGINE_NONE)
		return 0;	/* no disk I/O: no region */
	if (spec->cmdprio && sim->cfg.sched == KFSIM_SCHED_MQ_DEADLINE) {
		sim_err(sim, "job %s: per-I/O priorities (cmdprio) are not modelled with "
			"mq-deadline, which sorts requests by their class (BFQ and none ignore them)",
			spec->name);
		return -EINVAL;
	}
	/* one rule for the region, shared with the command line's checks: nothing is clamped */
	if (kfsim_bfq_job_region(spec, sim->cfg.disk.capacity, &job->start, &job->nr_sectors, why,
				 sizeof(why))) {
		sim_err(sim, "job %s: %s", spec->name, why);
		return -EINVAL;
	}
	job->next_pos[0] = job->next_pos[1] = job->start;
	job->zone_start = job->start;
	if (spec->nr_files > 1) {
		sector_t at = job->start;

		if (spec->nr_files > KFSIM_BFQ_MAX_FILES) {
			sim_err(sim, "job %s: more than %u files", spec->name, KFSIM_BFQ_MAX_FILES);
			return -EINVAL;
		}
		for (unsigned int i = 0; i < spec->nr_files; i++) {
			struct sim_file *f = &job->files[i];

			/* fio's f->file_offset: each file's I/O starts at offset= in it */
			at += spec->files_offset >> SECTOR_SHIFT;
			f->start = f->pos[0] = f->pos[1] = at;
			f->nr_sectors = spec->file_bytes[i] >> SECTOR_SHIFT;
			at += f->nr_sectors;
			if (f->nr_sectors < kfsim_bfq_job_max_bs(spec) >> SECTOR_SHIFT ||
			    at > job->start + job->nr_sectors) {
				sim_err(sim, "job %s: its file %u (%llu bytes) holds no block or "
					"does not fit in its region", spec->name, i,
					(unsigned long long)spec->file_bytes[i]);
				return -EINVAL;
			}
		}
		job->cur_file = UINT_MAX;
		kfsim_fio_rand32_seed(&job->file_state, spec->file_seed);
	}
	/* a verifying job draws from its own state, so that the read-back replays the writes */
	prandom_seed_state(&job->rnd, sim->cfg.seed ^ (0x9e3779b97f4a7c15ULL * (u64)(job - sim->jobs + 1)));
	/*
	 * the rwmix cycle's own generator: fio's seed for a job file's job, else one from the
	 * job's seed (a copy of its state: the draws it makes stay where they were)
	 */
	for (int d = 0; d < 2; d++)
		kfsim_fio_rand32_seed(&job->bs_state[d], spec->bs_seed[d]);
	if (spec->rwmix_fio_seed) {
		kfsim_bfq_rwmix_init(&job->mix, spec->rwmix_seed);
	} else {
		struct rnd_state r = job->rnd;

		kfsim_bfq_rwmix_init(&job->mix, prandom_u32_state(&r));
	}
	job->rnd_pass = job->rnd;
	job->pos_pass[0] = job->pos_pass[1] = job->start;
	/* init.c: 1, "so that get_next_offset gets a new random offset the first time" */
	job->seq_left = job->seq_left_pass = 1;
	job->last_start[0] = job->last_start[1] = KFSIM_BFQ_NO_LAST_START;
	return 0;
}

static int sim_add_replay_jobs(struct kfsim_bfq_sim *sim, const int *pids, unsigned int nr_pids)
{
	const struct kfsim_bfq_sim_config *cfg = &sim->cfg;

	for (unsigned int p = 0; p < nr_pids; p++) {
		struct sim_job *job = &sim->jobs[sim->nr_jobs++];

		job->replay = true;
		job->pid = pids[p];
		snprintf(job->spec.name, sizeof(job->spec.name), "pid%d", pids[p]);
		job->weight = kfsim_ioprio_weight(0);
		job->spec.iodepth = UINT32_MAX;
	}
	for (size_t i = 0; i < cfg->nr_replay; i++) {
		const struct kfsim_blktrace_rec *rec = &sim->replay[i];
		const int *hit;

		if (rec->sector >= cfg->disk.capacity ||
		    rec->nr_sectors > cfg->disk.capacity - rec->sector) {
			sim_err(sim, "replayed I/O of pid %d at sector %llu + %u is beyond the disk "
				"(%llu sectors)", rec->pid, (unsigned long long)rec->sector,
				rec->nr_sectors, (unsigned long long)cfg->disk.capacity);
			return -EINVAL;
		}
		if (!rec->nr_sectors || rec->nr_sectors > UINT32_MAX >> SECTOR_SHIFT) {
			sim_err(sim, "replayed I/O of pid %d at sector %llu: %u sectors",
				rec->pid, (unsigned long long)rec->sector, rec->nr_sectors);
			return -EINVAL;
		}
		hit = bsearch(&rec->pid, pids, nr_pids, sizeof(*pids), blktrace_pid_cmp);
		sim->replay_job[i] = cfg->nr_jobs + (unsigned int)(hit - pids);
	}
	return 0;
}

/* Closed loop: each process's records, in time order, chained from its first. */
static int sim_chain_replay(struct kfsim_bfq_sim *sim)
{
	size_t *last = kvcalloc(sim->nr_jobs, sizeof(*last), GFP_KERNEL);

	sim->replay_chain = kvcalloc(sim->cfg.nr_replay, sizeof(*sim->replay_chain), GFP_KERNEL);
	if (!last || !sim->replay_chain) {
		kvfree(last);
		return -ENOMEM;
	}
	for (unsigned int j = 0; j < sim->nr_jobs; j++) {
		last[j] = SIZE_MAX;
		sim->jobs[j].replay_cur = SIZE_MAX;
	}
	for (size_t i = 0; i < sim->cfg.nr_replay; i++) {
		unsigned int j = sim->replay_job[i];

		sim->replay_chain[i] = SIZE_MAX;
		if (last[j] == SIZE_MAX)
			sim->jobs[j].replay_cur = i;
		else
			sim->replay_chain[last[j]] = i;
		last[j] = i;
	}
	kvfree(last);
	return 0;
}

/* @sim's copy of the trace by time, equal times in the trace's order (a split bio's parts). */
static int sim_sort_replay(struct kfsim_bfq_sim *sim)
{
	const struct kfsim_bfq_sim_config *cfg = &sim->cfg;
	size_t *order = blktrace_time_order(cfg->replay, cfg->nr_replay);

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < cfg->nr_replay; i++)
		sim->replay[i] = cfg->replay[order[i]];
	kvfree(order);
	return 0;
}

/* A cgroup's io.bfq.weight: the one its jobs give (they agree), 0 for the default. */
static unsigned int sim_cgroup_weight(const struct kfsim_bfq_sim *sim, const char *cgroup)
{
	if (!cgroup[0])
		return 0;
	for (unsigned int j = 0; j < sim->nr_jobs; j++) {
		if (!strcmp(sim->jobs[j].spec.cgroup, cgroup) && sim->jobs[j].spec.weight)
			return sim->jobs[j].spec.weight;
	}
	return 0;
}

static int sim_setup_sched(struct kfsim_bfq_sim *sim)
{
	const struct elevator_type *type = elv_type((unsigned int)sim->cfg.sched);
	int err;

	err = kfsim_hdd_set_ia_ranges(sim->hdd, &sim->disk);
	if (err)
		return err;
	sim->eq.type = type;
	err = type->ops.init_sched(&sim->eq, &sim->disk, &sim->cfg.bfq);
	if (err) {
		sim_err(sim, "scheduler %s: init failed (%d)", type->elevator_name, err);
		return err;
	}
	sim->eq_ready = true;
	if (type->ops.depth_updated)
		type->ops.depth_updated(&sim->eq, sim->cfg.nr_requests);
	if (!type->ops.init_icq)
		return 0;
	for (unsigned int j = 0; j < sim->nr_jobs; j++) {
		struct sim_job *job = &sim->jobs[j];
		/* a replayed process has the default priority; a job, what it says */
		struct elv_proc proc = {
			.pid = (int)j + 1,
			.ioprio = job->spec.ioprio,
			.weight = job->spec.weight,
			.cgroup = job->spec.cgroup,
			.cgroup_weight = sim_cgroup_weight(sim, job->spec.cgroup),
		};
		void *icq = type->ops.init_icq(&sim->eq, &proc);

		if (IS_ERR(icq)) {
			sim_err(sim, "job %s: bad ioprio, weight or cgroup", job->spec.name);
			return (int)PTR_ERR(icq);
		}
		/* a job in a cgroup is reported with its group's weight */
		if (job->spec.cgroup[0])
			job->weight = proc.cgroup_weight ? proc.cgroup_weight :
				      BFQ_DEFAULT_GRP_WEIGHT;
		job->icq = icq;
	}
	return 0;
}

static struct kfsim_bfq_sim *sim_create(const struct kfsim_bfq_sim_config *cfg, char *errbuf,
					size_t errlen)
{
	struct kfsim_bfq_sim *sim;
	unsigned int nr_pids = 0, nr_procs;
	int *pids = NULL;
	size_t nr_bins;
	int err = -ENOMEM;

	if (errbuf && errlen)
		errbuf[0] = '\0';
	if (!cfg->duration_ns || !cfg->nr_requests || cfg->nr_requests > 65536 || !cfg->bin_ns ||
	    cfg->nr_jobs > KFSIM_BFQ_MAX_JOBS || (!cfg->nr_jobs && !cfg->nr_replay) ||
	    (unsigned int)cfg->sched >= elv_nr_types()) {
		struct kfsim_bfq_sim tmp = { .errbuf = errbuf, .errlen = errlen };

		sim_err(&tmp, "need a duration, 1..65536 requests, a registered scheduler and at "
			"least one job (at most %d) or a trace", KFSIM_BFQ_MAX_JOBS);
		return ERR_PTR(-EINVAL);
	}
	if (kfsim_hdd_params_check(&cfg->disk)) {
		if (errbuf && errlen)
			snprintf(errbuf, errlen, "bad disk parameters (see the log)");
		return ERR_PTR(-EINVAL);
	}
	nr_bins = (size_t)DIV_ROUND_UP(cfg->duration_ns, cfg->bin_ns);
	if (nr_bins > 1000000) {
		struct kfsim_bfq_sim tmp = { .errbuf = errbuf, .errlen = errlen };

		sim_err(&tmp, "more than a million time bins");
		return ERR_PTR(-EINVAL);
	}
	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return ERR_PTR(-ENOMEM);
	sim->cfg = *cfg;
	sim->errbuf = errbuf;
	sim->errlen = errlen;
	sim->traced_slot_job = -1;
	sim->traced_in_service = -1;
	snprintf(sim->disk.disk_name, sizeof(sim->disk.disk_name), "sda");
	prandom_seed_state(&sim->rnd, cfg->seed);
	prandom_seed_state(&sim->wake_rnd, cfg->seed ^ 0x5b0e7a17ULL);
	if (cfg->nr_replay && blktrace_distinct_pids(cfg->replay, cfg->nr_replay, &pids, &nr_pids))
		goto fail;
	/* a replay's processes are known only once its records are read: any number of them */
	nr_procs = cfg->nr_jobs + nr_pids + sim_needs_flusher(cfg);
	sim->flusher = -1;
	sim->jobs = kvcalloc(nr_procs, sizeof(*sim->jobs), GFP_KERNEL);
	sim->result.jobs = kvcalloc(nr_procs, sizeof(*sim->result.jobs), GFP_KERNEL);
	sim->pool = kvcalloc(cfg->nr_requests, sizeof(*sim->pool), GFP_KERNEL);
	sim->free_stack = kvcalloc(cfg->nr_requests, sizeof(*sim->free_stack), GFP_KERNEL);
	sim->wb_in_flight = kvcalloc(cfg->nr_requests, sizeof(*sim->wb_in_flight), GFP_KERNEL);
	sim->flows = kvcalloc(nr_procs, sizeof(*sim->flows), GFP_KERNEL);
	if (!sim->jobs || !sim->result.jobs || !sim->pool || !sim->free_stack ||
	    !sim->wb_in_flight || !sim->flows)
		goto fail;
	/* BFQ and mq-deadline set the scheduler tags' min_shallow_depth to 1; none leaves it */
	if (sbq_waiters_init(&sim->tag_waiters, cfg->nr_requests,
			     cfg->sched == KFSIM_SCHED_NONE ? UINT_MAX : 1, nr_procs))
		goto fail;
	sim->tag_waiters_ready = true;
	sim->nr_procs = nr_procs;
	for (unsigned int j = 0; j < nr_procs; j++) {
		const struct kfsim_bfq_job *spec = j < cfg->nr_jobs ? &cfg->jobs[j] : NULL;

		if (kfsim_hist_init(&sim->jobs[j].lat))
			goto fail;
		/* a second histogram only for a job that syncs */
		if (spec && (spec->fsync_blocks || spec->fdatasync_blocks || spec->end_fsync) &&
		    kfsim_hist_init(&sim->jobs[j].sync_lat))
			goto fail;
	}
	/* one heap, allocated at the first event: a wake-up per process at most */
	if (kfsim_evq_init(&sim->events, 0, 0))
		goto fail;
	for (unsigned int i = 0; i < cfg->nr_requests; i++)
		sim->free_stack[i] = &sim->pool[cfg->nr_requests - 1 - i];
	sim->nr_free = cfg->nr_requests;
	sim->result.nr_bins = nr_bins;
	sim->result.nr_actuators = cfg->disk.nr_actuators;
	for (unsigned int a = 0; a < cfg->disk.nr_actuators; a++) {
		sim->result.series_mb_s[a] = kvcalloc(nr_bins, sizeof(double), GFP_KERNEL);
		if (!sim->result.series_mb_s[a])
			goto fail;
	}
	sim->hdd = kfsim_hdd_create(&cfg->disk);
	if (IS_ERR(sim->hdd)) {
		err = (int)PTR_ERR(sim->hdd);
		sim->hdd = NULL;
		goto fail;
	}
	err = -EINVAL;
	for (unsigned int j = 0; j < cfg->nr_jobs; j++) {
		if (sim_setup_job(sim, &sim->jobs[j], &cfg->jobs[j]))
			goto fail;
		sim->jobs[j].pid = (int)j + 1;
	}
	sim->nr_jobs = cfg->nr_jobs;
	for (unsigned int i = 0; i < cfg->nr_jobs; i++) {
		const struct kfsim_bfq_job *a = &cfg->jobs[i];

		for (unsigned int j = i + 1; j < cfg->nr_jobs && a->cgroup[0]; j++) {
			const struct kfsim_bfq_job *b = &cfg->jobs[j];

			if (!strcmp(a->cgroup, b->cgroup) && a->weight && b->weight &&
			    a->weight != b->weight) {
				sim_err(sim, "job %s: cgroup %s already has weight %u (job %s), not %u",
					b->name, b->cgroup, a->weight, a->name, b->weight);
				goto fail;
			}
		}
	}
	if (cfg->nr_replay) {
		err = -ENOMEM;
		sim->replay = kvmalloc(cfg->nr_replay * sizeof(*cfg->replay), GFP_KERNEL);
		sim->replay_job = kvcalloc(cfg->nr_replay, sizeof(*sim->replay_job), GFP_KERNEL);
		if (!sim->replay || !sim->replay_job)
			goto fail;
		err = sim_sort_replay(sim);
		if (err)
			goto fail;
		err = sim_add_replay_jobs(sim, pids, nr_pids);
		if (err)
			goto fail;
		if (cfg->replay_closed) {
			err = sim_chain_replay(sim);
			if (err)
				goto fail;
		}
	}
	if (sim_needs_flusher(cfg)) {
		struct sim_job *job = &sim->jobs[sim->nr_jobs];

		/* the flusher is a kernel thread: default priority, the root group */
		job->flusher = true;
		job->pid = -1;
		snprintf(job->spec.name, sizeof(job->spec.name), "writeback");
		job->weight = kfsim_ioprio_weight(0);
		sim->flusher = (int)sim->nr_jobs++;
	}
	kvfree(pids);
	pids = NULL;
	err = sim_setup_sched(sim);
	if (err)
		goto fail;
	return sim;
fail:
	if (err == -ENOMEM && errbuf && errlen && !errbuf[0])
		snprintf(errbuf, errlen, "out of memory");
	kvfree(pids);
	kfsim_bfq_sim_destroy(sim);
	return ERR_PTR(err);
}

struct kfsim_bfq_sim *kfsim_bfq_sim_create(const struct kfsim_bfq_sim_config *cfg)
{
	return sim_create(cfg, NULL, 0);
}

struct kfsim_bfq_sim *kfsim_bfq_sim_create_msg(const struct kfsim_bfq_sim_config *cfg,
					       char *errbuf, size_t errlen)
{
	return sim_create(cfg, errbuf, errlen);
}

static void sim_trace_header(struct kfsim_bfq_sim *sim)
{
	struct kfsim_trace *trace = sim->cfg.trace;
	char name[64];

	if (!trace)
		return;
	snprintf(name, sizeof(name), "%u-actuator disk, %s", sim->cfg.disk.nr_actuators,
		 kfsim_bfq_sched_name(sim->cfg.sched));
	kfsim_trace_name_process(trace, 1, name);
	if (sim_ops(sim)->in_service_pid)
		kfsim_trace_name_thread(trace, 1, 0, "BFQ in-service queue");
	for (unsigned int a = 0; a < sim->cfg.disk.nr_actuators; a++) {
		snprintf(name, sizeof(name), "actuator %u", a);
		kfsim_trace_name_thread(trace, 1, (int)a + 1, name);
	}
}

/* A job's own active time (fio reports per job over it): start to end, within the run. */
static double job_active_s(const struct kfsim_bfq_sim *sim, const struct sim_job *job,
			   u64 end_ns)
{
	u64 start = job->start_ns, end = job->ended ? job->end_ns : end_ns;

	if (job->replay || job->flusher)
		return (double)end_ns / 1e9;
	if (!job->started || start >= end_ns)
		return 0;
	end = min(end, end_ns);
	return end > start ? (double)(end - start) / 1e9 : 0;
}

/* A latency histogram's mean, 99th percentile and maximum, in microseconds. */
static void hist_us(const struct kfsim_hist *h, double *mean, double *p99, double *max)
{
	*mean = kfsim_hist_mean(h) / 1e3;
	*p99 = (double)kfsim_hist_quantile(h, 0.99) / 1e3;
	*max = (double)h->max / 1e3;
}

static void sim_results(struct kfsim_bfq_sim *sim)
{
	struct kfsim_bfq_sim_result *res = &sim->result;
	/*
	 * The run's figures are over the time its counted bytes took: from 0 to when every job
	 * had ended, or later if what they left behind completed later (the flusher's
	 * writeback of buffered writers that ended at their last copy, I/O in flight at a
	 * job's runtime).  Dividing those bytes by the jobs' end alone had a drive deliver
	 * more than its media allows (398 MB/s from one 277 MB/s actuator).
	 */
	u64 end_ns = sim->end_ns ? max(sim->end_ns, sim->last_counted_ns) : sim->cfg.duration_ns;
	double secs = (double)end_ns / 1e9, bin_s = (double)sim->cfg.bin_ns / 1e9;
	double jain_sum = 0, jain_sq = 0;
	unsigned int nr_fair = 0;
	u64 total_bytes = 0;

	res->duration_s = secs;
	for (unsigned int a = 0; a < res->nr_actuators; a++) {
		struct kfsim_hdd_actuator_stats st = kfsim_hdd_actuator_stats(sim->hdd, a);
		struct kfsim_bfq_actuator_result *ar = &res->actuator[a];

		ar->utilisation = min(1.0, (double)st.busy_ns / (double)end_ns);
		ar->mb_s = (double)sim->act_bytes[a] / 1e6 / secs;
		ar->iops = (double)sim->act_requests[a] / secs;
		ar->requests = sim->act_requests[a];
		ar->cache_hits = sim->act_hits[a];
		res->mb_s += ar->mb_s;
		res->iops += ar->iops;
		for (size_t b = 0; b < res->nr_bins; b++)
			res->series_mb_s[a][b] /= 1e6 * bin_s;
	}
	res->nr_jobs = sim->nr_jobs;
	for (unsigned int j = 0; j < sim->nr_jobs; j++)
		total_bytes += sim->jobs[j].bytes;
	for (unsigned int j = 0; j < sim->nr_jobs; j++) {
		struct sim_job *job = &sim->jobs[j];
		struct kfsim_bfq_job_result *jr = &res->jobs[j];
		double norm;

		snprintf(jr->name, sizeof(jr->name), "%s", job->spec.name);
		jr->weight = job->weight;
		jr->requests = job->completed;
		jr->bytes = job->bytes;
		jr->active_s = job_active_s(sim, job, end_ns);
		jr->mb_s = jr->active_s > 0 ? (double)job->bytes / 1e6 / jr->active_s : 0;
		jr->iops = jr->active_s > 0 ? (double)job->completed / jr->active_s : 0;
		jr->read_bytes = job->bytes_dir[0];
		jr->write_bytes = job->bytes_dir[1];
		jr->read_ios = job->ios_dir[0];
		jr->write_ios = job->ios_dir[1];
		jr->error = job->error;
		jr->lat_target_depth = job->spec.latency_target_ns ? job->lt.qd : 0;
		if (job->spec.ss_dur_s) {
			jr->ss_state = job->spec.ss_state;
			jr->ss_limit = job->spec.ss_limit;
			jr->ss_dur_s = job->spec.ss_dur_s;
			jr->ss_attained = job->ss.state & SIM_SS_ATTAINED;
			jr->ss_criterion = job->ss.criterion;
			jr->ss_deviation = job->ss.deviation;
			jr->ss_slope = job->ss.slope;
			jr->ss_bw_mean = sim_steadystate_bw_mean(&job->ss);
			jr->ss_iops_mean = sim_steadystate_iops_mean(&job->ss);
			sim_steadystate_in_order(&job->ss);
			jr->ss_bw_data = job->ss.bw_data;
			jr->ss_iops_data = job->ss.iops_data;
		}
		jr->share = total_bytes ? (double)job->bytes / (double)total_bytes : 0;
		hist_us(&job->lat, &jr->lat_mean_us, &jr->lat_p99_us, &jr->lat_max_us);
		jr->syncs = job->syncs;
		jr->fsyncs = job->fsyncs;
		if (job->syncs)
			hist_us(&job->sync_lat, &jr->sync_lat_mean_us, &jr->sync_lat_p99_us,
				&jr->sync_lat_max_us);
		/* kfsim_bfq_jain_index() of throughput/weight, without an array per process */
		if (job->flusher)
			continue;	/* the kernel's thread, not a process competing */
		norm = jr->mb_s / job->weight;
		jain_sum += norm;
		jain_sq += norm * norm;
		nr_fair++;
	}
	res->jain = !nr_fair || jain_sq == 0 ? 1.0 :
		    jain_sum * jain_sum / ((double)nr_fair * jain_sq);
	/* at the run's end, as every figure: pages whose writeback drained after it were dirty */
	res->dirty_bytes = sim->dirty_bytes + sim->wb_drained_bytes;
	res->in_flight = res->submitted - res->completed;
	res->replay_issued = sim->replay_next;
	res->replay_lag_mean_us = sim->replay_next ?
				  (double)sim->replay_lag_sum_ns / 1e3 / (double)sim->replay_next : 0;
	if (sim_ops(sim)->stats)
		sim_ops(sim)->stats(&sim->eq, res);
}

int kfsim_bfq_sim_run(struct kfsim_bfq_sim *sim)
{
	if (sim->ran)
		return -EALREADY;
	sim->ran = true;
	sim_trace_header(sim);
	for (unsigned int j = 0; j < sim->nr_jobs; j++) {
		struct sim_job *job = &sim->jobs[j];

		/* fio stonewall and wait_for: a job starts when what it waits for has ended */
		if (!job->replay && !job->flusher && !job->started && job_deps_ended(sim, job))
			job_arm_start(sim, j);
	}
	for (unsigned int j = 0; j < sim->nr_jobs; j++) {
		if (sim->jobs[j].spec.ss_dur_s) {
			/* fio's helper thread checks steady state once a second from the start */
			sim_schedule(sim, NSEC_PER_SEC, EV_SS_CHECK, 0);
			break;
		}
	}
	if (sim->cfg.replay_closed) {
		for (unsigned int j = 0; j < sim->nr_jobs; j++)
			job_issue(sim, j);	/* each replayed process's first record */
	} else {
		replay_issue(sim);
	}
	sim_dispatch(sim);
	sim_trace_in_service(sim);
	sim_loop(sim);
	if (sim->cfg.trace && sim_ops(sim)->in_service_pid)
		sim_trace_slot_end(sim);
	if (sim->err) {
		pr_err("bfq_sim: run stopped at %llu ns: %d\n", (unsigned long long)sim->now,
		       sim->err);
		return sim->err;
	}
	sim_results(sim);
	return 0;
}

const struct kfsim_bfq_sim_result *kfsim_bfq_sim_result(const struct kfsim_bfq_sim *sim)
{
	return &sim->result;
}

const struct kfsim_hdd *kfsim_bfq_sim_hdd(const struct kfsim_bfq_sim *sim)
{
	return sim->hdd;
}

struct bfq_data *kfsim_bfq_sim_bfqd(struct kfsim_bfq_sim *sim)
{
	if (!sim->eq_ready)
		return NULL;
	if (sim->eq.type != &bfq_iosched && sim->eq.type != &bfq_62_iosched)
		return NULL;
	return sim->eq.elevator_data;
}

void kfsim_bfq_sim_destroy(struct kfsim_bfq_sim *sim)
{
	if (!sim)
		return;
	if (sim->eq_ready) {
		if (sim_ops(sim)->exit_icq) {
			for (unsigned int j = 0; j < sim->nr_jobs; j++) {
				if (sim->jobs[j].icq)
					sim_ops(sim)->exit_icq(&sim->eq, sim->jobs[j].icq);
			}
		}
		sim_ops(sim)->exit_sched(&sim->eq);
	}
	disk_free_ia_ranges(&sim->disk);
	kfsim_hdd_destroy(sim->hdd);
	for (unsigned int a = 0; a < KFSIM_HDD_MAX_ACTUATORS; a++)
		kvfree(sim->result.series_mb_s[a]);
	kvfree(sim->result.jobs);
	kvfree(sim->replay);
	kvfree(sim->replay_job);
	kvfree(sim->replay_chain);
	kvfree(sim->dirty);
	kfsim_evq_destroy(&sim->events);
	if (sim->jobs) {
		for (unsigned int j = 0; j < sim->nr_procs; j++) {
			kfsim_hist_free(&sim->jobs[j].lat);
			kfsim_hist_free(&sim->jobs[j].sync_lat);
			sim_steadystate_free(&sim->jobs[j].ss);
		}
	}
	kvfree(sim->pool);
	kvfree(sim->free_stack);
	kvfree(sim->wb_in_flight);
	kvfree(sim->flows);
	if (sim->tag_waiters_ready)
		sbq_waiters_destroy(&sim->tag_waiters);
	kvfree(sim->jobs);
	kfree(sim);
}
