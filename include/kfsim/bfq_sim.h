/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BFQ_SIM_H
#define KFSIM_BFQ_SIM_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * A discrete-event simulation of processes doing I/O through an I/O scheduler (BFQ 6.3, BFQ
 * before 6.3, none, mq-deadline) onto the simulated multi-actuator disk of <kfsim/hdd_sim.h>.
 *
 * Processes are fio-style jobs (rw=read|randread|write|randwrite, bs, iodepth, offset, size,
 * ioprio/weight, rate, thinktime) or the processes of a replayed blkparse trace.  A job keeps up
 * to iodepth requests outstanding; each request is prepared and inserted into the scheduler,
 * which the simulation drains into the disk while the disk has free tags, as blk-mq does.
 *
 * Everything is deterministic for a seed: events at equal times are handled in a fixed order
 * (disk completions, then the scheduler's timer, then process wake-ups in the order they were
 * scheduled), and all randomness comes from one struct rnd_state.
 */
#include <stdio.h>
#include <kfsim/bfq.h>
#include <kfsim/hdd_sim.h>
#include <kfsim/trace_event.h>

/** KFSIM_BFQ_MAX_JOBS - most jobs in one configuration (a replay may have any number of pids). */
#define KFSIM_BFQ_MAX_JOBS 128

/**
 * enum kfsim_bfq_sched - the scheduler under test: an index into the registry of
 * <kfsim/elevator.h>; the built-in ones are named here, elv_register() adds more after them.
 */
enum kfsim_bfq_sched {
	KFSIM_SCHED_BFQ,		/* BFQ as of the kernel version in force (6.3 by default) */
	KFSIM_SCHED_BFQ_62,		/* BFQ before 6.3: one queue per process, no injection */
	KFSIM_SCHED_NONE,		/* FIFO */
	KFSIM_SCHED_MQ_DEADLINE,	/* sector-sorted batches with read/write FIFO deadlines */
	KFSIM_SCHED_NR,			/* the rows named here; the registry counts itself: elv_nr_types() */
};

/** kfsim_bfq_sched_name() - the registered name: "bfq", "bfq-6.2", "none", "mq-deadline", ... */
const char *kfsim_bfq_sched_name(enum kfsim_bfq_sched sched);
/** kfsim_bfq_sched_parse() - the inverse of kfsim_bfq_sched_name(); -EINVAL for others. */
int kfsim_bfq_sched_parse(const char *name, enum kfsim_bfq_sched *sched);

/** enum kfsim_bfq_rw - what a job does (fio's rw=) */
enum kfsim_bfq_rw {
	KFSIM_RW_READ,
	KFSIM_RW_RANDREAD,
	KFSIM_RW_WRITE,
	KFSIM_RW_RANDWRITE,
	KFSIM_RW_READWRITE,	/* fio rw=rw|readwrite: sequential, reads and writes mixed */
	KFSIM_RW_RANDRW,	/* fio rw=randrw: random, reads and writes mixed */
	KFSIM_RW_TRIM,		/* fio's trims (BLKDISCARD): with an engine that does no */
	KFSIM_RW_RANDTRIM,	/* disk I/O (KFSIM_ENGINE_NONE) they do nothing; with disk */
	KFSIM_RW_TRIMWRITE,	/* I/O the first one fails (see @io_error): the simulated */
	KFSIM_RW_RANDTRIMWRITE,	/* disk has no discard */
};

/** KFSIM_BFQ_MAX_BSSPLIT - most block sizes in one direction of a bssplit (fio: 64). */
#define KFSIM_BFQ_MAX_BSSPLIT 64

/** KFSIM_BFQ_MAX_FILES - most files of one job (fio nrfiles) the simulator models. */
#define KFSIM_BFQ_MAX_FILES 16

/* struct kfsim_bfq_job's @file_service: fio 3.33's file_service_type (FIO_FSERVICE_*) */
enum kfsim_bfq_fservice {
	KFSIM_FSERVICE_RR,	/* roundrobin, fio's default */
	KFSIM_FSERVICE_SEQ,	/* sequential: a file until it is done */
	KFSIM_FSERVICE_RANDOM,	/* random: fio's next_file_state draws the file */
};

/**
 * enum kfsim_bfq_engine - how a job's ioengine submits (fio ioengine=)
 * @KFSIM_ENGINE_ASYNC: iodepth requests in flight (libaio with direct=1, io_uring, ...)
 * @KFSIM_ENGINE_SYNC: one request at a time whatever iodepth says (sync, psync, vsync,
 *                     pvsync, pvsync2, and libaio on buffered files, which the kernel
 *                     completes synchronously in io_submit())
 * @KFSIM_ENGINE_NONE: no I/O reaches the simulated disk (null, cpuio, exec, network and
 *                     object-store engines): the job runs, the disk sees nothing
 */
enum kfsim_bfq_engine {
	KFSIM_ENGINE_ASYNC,
	KFSIM_ENGINE_SYNC,
	KFSIM_ENGINE_NONE,
};

/**
 * enum kfsim_bfq_dist - where random offsets fall (fio random_distribution=)
 * @KFSIM_DIST_RANDOM: uniform
 * @KFSIM_DIST_ZIPF: zipf with exponent @dist_param (hot blocks spread over the region)
 * @KFSIM_DIST_PARETO: pareto with power @dist_param
 * @KFSIM_DIST_NORMAL: normal around the middle, @dist_param percent deviation
 * @KFSIM_DIST_ZONED: @nr_zones (access %, size %) pairs, in order from the region's start
 */
enum kfsim_bfq_dist {
	KFSIM_DIST_RANDOM,
	KFSIM_DIST_ZIPF,
	KFSIM_DIST_PARETO,
	KFSIM_DIST_NORMAL,
	KFSIM_DIST_ZONED,
};

/** struct kfsim_bfq_bssplit - one block size of a bssplit and its share in percent */
struct kfsim_bfq_bssplit {
	unsigned int bs;
	unsigned int perc;
};

/**
 * struct kfsim_bfq_job - a process, described as fio describes a job
 * @name: label
 * @rw: pattern
 * @bs: block size in bytes (multiple of 512)
 * @iodepth: requests kept outstanding
 * @offset: start of the region, bytes (or a fraction of the capacity, see @offset_frac)
 * @size: length of the region, bytes; 0 = to the end of the disk
 * @offset_frac: >= 0: @offset is this fraction of the capacity ("offset=50%"), aligned up
 *               to the smaller block of the two directions (on a file: see @file_offset)
 * @size_frac: >= 0: @size is this fraction of the capacity, at most what the offset leaves,
 *             aligned down to the smallest block (fio 3.33's setup_files(); the fio reader
 *             turns a file's into bytes of the file's end)
 * @ioprio: IOPRIO_PRIO_VALUE(class, level) (fio prioclass/prio); 0 = none given
 * @weight: 0, or a weight 1..1000: with @cgroup, the cgroup's io.bfq.weight (its BFQ group's
 *          weight; jobs of one cgroup must agree); without, the weight of the process's queues
 *          in the root group, as if it were alone in a cgroup of that weight
 * @rate: bytes per second cap, 0 = none
 * @thinktime_us: fio's thinktime: once @thinktime_blocks I/Os completed since the last pause
 *                (issued, with @thinktime_issue), the job lets its I/O in flight complete,
 *                then pauses this long before it issues again (fio 3.33 handle_thinktime())
 * @thinktime_blocks: I/Os between pauses, 0 = 1 (fio thinktime_blocks: 0 is fio's default 1,
 *                    not given, which @thinktime_iotime_us tells apart)
 * @thinktime_iotime_us: fio's thinktime_iotime: a pause also once this long + @thinktime_us
 *                       passed since the job's start or its last pause; without
 *                       @thinktime_blocks given, only then (fio 3.33 handle_thinktime())
 * @thinktime_issue: count issued I/Os, not completed ones (fio thinktime_blocks_type=issue)
 * @seq_overrun: bytes past the region's end that a sequential job's last block of a pass
 *               may take: fio 3.33 issues a block while it starts inside the region and ends
 *               inside the file (fill_io_u(): the file's real size), so size=1000k with
 *               bs=64k is 16 reads inside a larger file, 15 at its end (the fio reader sets it)
 * @iodepth_low: a full queue (@iodepth in flight) drains to this many before the job issues
 *               again (fio iodepth_low); 0 or not below the depth: one I/O a completion
 * @reap_min: completions reaped a round while a full queue drains, the job issuing only
 *            between rounds (fio iodepth_batch_complete_min); 0 and 1: one
 * @sync: writes carry REQ_SYNC (fio sync=1)
 * @startdelay_ns: the job starts this long after the run (fio startdelay)
 * @runtime_ns: the job submits nothing after startdelay + this (fio runtime); 0 = the whole run
 * @cgroup: the cgroup it runs in (fio cgroup=), "" for the root group; the jobs of one cgroup
 *          share its BFQ group
 *
 * The fields below are fio's mixes and job shapes; all zero is the plain job above.
 * @rwmixread: percent of reads in a mixed job (KFSIM_RW_READWRITE, KFSIM_RW_RANDRW)
 * @bs_write: block size of writes, 0 = @bs (fio bs=READ,WRITE)
 * @bs_max: reads take a block size in [@bs, @bs_max] (fio bsrange), 0 = exactly @bs
 * @bs_write_max: the same for writes
 * @nr_bssplit: per direction (0 read, 1 write), entries of @bssplit (fio bssplit), 0 = none
 * @bssplit: block sizes and percents per direction; they win over @bs and the ranges
 * @rate_write: bytes per second cap of writes: 0 = @rate, U64_MAX = none (fio rate=R,W)
 * @rate_iops: reads per second cap, 0 = none (fio rate_iops)
 * @rate_iops_write: writes per second cap: 0 = @rate_iops, U64_MAX = none
 * @perc_seq: percent of a random job's I/Os that continue sequentially (100 - fio's
 *            percentage_random)
 * @dist: distribution of random offsets; @dist_param its parameter
 * @nr_zones: pairs in @zones for KFSIM_DIST_ZONED
 * @zones: (access percent, size percent) pairs
 * @engine: how many requests are in flight (see enum kfsim_bfq_engine)
 * @ioengine: fio's engine name, "" when not given
 * @buffered: I/O through the page cache (fio direct=0): writes dirty pages that the
 *            writeback flusher writes later as async requests (struct kfsim_bfq_writeback),
 *            reads go to the disk as sync requests (the cache starts cold)
 * @io_size: the job ends after this many bytes (fio size/io_size x loops without
 *           time_based), 0 = it runs until its runtime or the end of the run
 * @number_ios: the job ends after this many I/Os (fio number_ios), 0 = no limit
 * @verify: after the write pass, the written blocks are read back in the order written
 *          (fio verify= with do_verify=1)
 * @startdelay_max_ns: the start is drawn in [@startdelay_ns, this] (fio startdelay=A-B)
 * @after: the job starts once jobs [0, @after) have ended (fio stonewall: 0 = at once)
 * @wait_for: 0, or 1 + the index of a job it waits for (fio wait_for)
 * @file_start: where the job's file begins on the disk, bytes (fio filename: each file is
 *              its own region); offset and size are within the file
 * @file_size: the file's size, bytes; 0 = the job works on the whole device
 * @file_offset: with @file_size and a percent @offset_frac: where the region starts in the
 *               file, bytes, as fio 3.33's setup_files() puts it: the percent of the size
 *               the file had when the job was set up (0 for a new file), aligned up to the
 *               smaller block of the two directions; the fio reader sets it job by job
 * @seq_skip: bytes skipped after each sequential I/O; negative: the job goes backwards
 *            (fio rw=read:8k, rw=read:-8k)
 * @ddir_seq_nr: a random job draws a new offset at every this many I/Os, the first too, and
 *               continues sequentially in between (fio rw=randread:N, rw_sequencer=sequential);
 *               0 or 1: at every I/O
 * @rw_seq_identical: ... and in between repeats the direction's last offset (fio
 *                    rw_sequencer=identical; none yet: the region's start)
 * @exitall: when this job ends, it ends others, @exit_what says which (fio 3.33 exitall:
 *           one line of it anywhere in a job file sets it for every job, as fio's
 *           exitall_on_terminate is global, whatever its value)
 * @exit_what: the jobs an exit ends: 0 those of its reporting group (@group, fio's
 *             default exit_what=group), 1 those running ("stonewall"), 2 all ("all")
 * @exitall_error: it ends others as @exitall does when it ends with an error (fio
 *                 exitall_on_error)
 * @group: fio's groupid: a job whose section has stonewall or new_group starts the next
 *         group (its numjobs clones stay in it)
 * @blockalign: random offsets are multiples of this many bytes, 0 = the smallest block size
 * @rate_poisson: I/Os arrive at the rate_iops rate with exponential gaps (fio
 *                rate_process=poisson) rather than evenly
 * @cmdprio: per-I/O priorities are set (fio cmdprio*): BFQ takes a process's priority from
 *           its io context, never from the request, so under BFQ and none they change
 *           nothing; mq-deadline, which sorts by the request's class, refuses the job
 * @flow: 0, or the job's weight in fio's flow control: before each I/O, a job whose share of
 *        its flow's I/Os is above its share of the flow's weights waits (fio flow=)
 * @flow_id: the flow the job is in (fio flow_id)
 * @flow_sleep_us: a job over its share first lets its I/O in flight complete, then sleeps
 *                 this long; 0: it waits until another job of its flow issues (fio flow_sleep)
 * @verify_backlog: with @verify, after every this many blocks written the job reads back the
 *                  oldest of them not yet verified, this many, then writes on (fio
 *                  verify_backlog, verify_batch at its default); what is left is read back
 *                  after the write pass.  0: all of it after the write pass
 * @zone_size: 0, or fio zonemode=strided: a sequential job moves to the next zone after
 *             transferring this many bytes in one (fio zonesize)
 * @zone_range: the size of a zone, bytes: within it the job wraps (fio zonerange, default
 *              @zone_size)
 * @zone_skip: bytes skipped between zones (fio zoneskip); past the region's end the zones
 *             start again at its beginning
 * @io_error: 0, or the error (-errno) the job's first I/O fails with before it reaches the
 *            disk; the job then ends at its start, as fio ends a job on an error it does not
 *            ignore (td_non_fatal_error(), fio 3.33).  A trim is fio's BLKDISCARD ioctl
 *            (os_trim()): the simulated disk has no discard (6.12 blk_ioctl_discard():
 *            -EOPNOTSUPP when bdev_max_discard_sectors() is 0) and a regular file has no such
 *            ioctl (-ENOTTY); kfsim_bfq_sim_create() sets -EOPNOTSUPP for a job whose trims
 *            would reach the disk when this is 0
 * @latency_target_ns: 0, or fio's latency-target depth search (latency_target, fio 3.33
 *                     io_u.c): the job starts at depth 1 and, each @latency_window_ns,
 *                     doubles its depth (bisects once one failed) while at least
 *                     @latency_percentile percent of its I/Os completed within this; it
 *                     halves towards the last depth that met it when they did not, draining
 *                     its I/O first; once the depth stops moving it drains, forgets its
 *                     figures, runs one more window at that depth and ends (unless
 *                     @latency_run).  With @latency_percentile 100 one late I/O fails the
 *                     window at once, and at depth 1 ends the job with -ETIMEDOUT
 * @latency_window_ns: the window; 0 decides at every completion
 * @latency_percentile: percent of I/Os that must meet the target (fio's default 100)
 * @latency_run: keep searching until the job ends, rather than end at the depth found
 * @eof_at_start: the job finds nothing to do and ends at its start, having issued nothing, as
 *                fio ends a job whose first I/O cannot be set up (fill_io_u() fails, fio
 *                3.33): fio's zonemode=zbd on a disk that is not zoned emulates sequential
 *                zones, all empty (zbd.c init_zone_info()), so a job that reads only written
 *                data (read_beyond_wp=0) finds none (zbd_find_zone())
 * @ss_state: 0, or fio's steady-state criterion (steadystate=, fio 3.33 steadystate.h):
 *            KFSIM_SS_IOPS or KFSIM_SS_BW, with KFSIM_SS_SLOPE for a least-squares slope
 *            (else the largest deviation from the mean) and KFSIM_SS_PCT for a limit in
 *            percent of the mean
 * @ss_limit: the criterion's limit: IOPS, bytes/s, or percent
 * @ss_dur_s: the window, whole seconds (steadystate_duration; 0 = no detection); once
 *            the criterion holds over it the job ends (sim_steadystate.c)
 * @ss_ramp_ns: steadystate_ramp_time: the window's first sample is the second that ends
 *              one second after this
 * @ramp_ns: 0, or fio's ramp_time (fio 3.33 time.c ramp_time_over()): the job runs this long
 *           before its figures count; at its first completion (or, with an asynchronous
 *           engine, submission) this long after its start, its figures start again
 *           (reset_all_stats(): that completion is not counted) and so do its runtime, its
 *           rate, its number_ios and its latency target.  What it issued in the ramp still
 *           counts towards its size (fio's io_issue_bytes).  A job whose work ends within
 *           the ramp reports all of it, without latencies (fio accounts none in the ramp)
 * @fsync_blocks: 0, or a writing job syncs its file after every this many writes issued
 *                (fio fsync=, fio 3.33 io_u.c get_rw_ddir(): when fio's count of writes
 *                issued is a multiple of it and the previous I/O was not a sync).  The
 *                sync waits for the job's I/O in flight, writes back the job's dirty
 *                page-cache extents (its region's) through the block layer, then flushes the
 *                drive's volatile write cache (REQ_PREFLUSH: complete once every cached
 *                write is on the media; nothing to do without a write cache, as the kernel
 *                sends no flush then); the job waits for it.  Its latency is reported apart
 * @fdatasync_blocks: the same for fio fdatasync=: kfsim keeps no file metadata (no inode
 *                    times or sizes to journal), so fdatasync() and fsync() write the same
 * @end_fsync: a writing job syncs once more when it has issued its last I/O, unless its
 *             last was a sync (fio end_fsync=1 and fsync_on_close=1: backend.c do_io())
 * @rwmix_fio_seed: a mixed job's directions are drawn from fio 3.33's generator seeded with
 *                  @rwmix_seed (fio's td->rwmix_state, randrepeat=1 or randseed= given), so
 *                  a job file's mix follows fio's run; false: seeded from the simulation's
 *                  seed (fio with randrepeat=0 seeds it from /dev/urandom)
 * @rwmix_seed: that seed (fio's rand_seeds[FIO_RAND_MIX_OFF], cut to 32 bits)
 * @bs_fio_seed: block sizes of a range or split are drawn as fio 3.33's get_next_buflen()
 *               draws them, from fio's generator seeded with @bs_seed (a job file's job
 *               with fio's seeds and its 32-bit generator; not a verifying job, whose
 *               read-back replays the simulation's draws)
 * @bs_seed: the seeds of reads and writes (fio's rand_seeds[FIO_RAND_BS_OFF] and
 *           [FIO_RAND_BS1_OFF], both the first with verify=)
 * @rwmix_repeat: fio's randrepeat=1 without randseed= (init.c fixup_options(): a randseed
 *                turns randrepeat off, after the first seeding): each new pass over the
 *                region seeds the mix again
 * @nr_files: 0 or 1, one region; else fio's nrfiles: the region holds that many files one
 *            after another from its start, each @files_offset bytes (fio's offset=, the
 *            same in every file) and then @file_bytes[] of I/O (whole sectors), and each
 *            I/O goes to the file fio 3.33's __get_next_file() (io_u.c) picks: by
 *            @file_service, switching after @file_service_nr I/Os (file_service_type=T:N;
 *            0: never, until the file is done), random draws from fio's next_file_state
 *            seeded with @file_seed; each file keeps its own positions (fio's
 *            f->last_pos[]); a file is done when a sequential direction has no whole
 *            block left in it, or, with @file_map (fio's random map), when a random job
 *            issued its bytes; when every file is done the pass ends: after @file_loops
 *            passes the job ends (0: it goes on, time_based), else every file starts again
 * @pass_bytes: 0, or the bytes a job file's job issues in one pass over its region (fio 3.33
 *              backend.c do_io()'s total_bytes: size, or io_size when larger for a random
 *              writing job with norandommap; U64_MAX: no end by bytes, as for a
 *              synchronous engine, whose bytes do_io() does not count): a job that does
 *              more (io_size over size, loops) starts each further pass as fio's
 *              clear_io_state() does, its rwmix cycle from the start (rwmix_issues 0)
 *              and, with @rwmix_repeat, its seed, and its positions at the region's start.
 *              A sequential direction at the region's end ends the pass too (fio's
 *              get_next_offset() finds no offset)
 */
/* struct kfsim_bfq_job's @exit_what: the jobs an exitall ends (fio exit_what=) */
enum { KFSIM_EXIT_GROUP, KFSIM_EXIT_RUNNING, KFSIM_EXIT_ALL };

struct kfsim_bfq_job {
	char name[32];
	enum kfsim_bfq_rw rw;
	unsigned int bs;
	unsigned int iodepth;
	u64 offset;
	u64 size;
	double offset_frac;
	double size_frac;
	unsigned short ioprio;
	unsigned int weight;
	u64 rate;
	u64 thinktime_us;
	unsigned int thinktime_blocks;
	unsigned int thinktime_iotime_us;
	bool thinktime_issue;
	unsigned int iodepth_low;
	unsigned int reap_min;
	u64 seq_overrun;
	bool sync;
	u64 startdelay_ns;
	u64 runtime_ns;
	char cgroup[32];
	unsigned int rwmixread;
	unsigned int bs_write;
	unsigned int bs_max;
	unsigned int bs_write_max;
	unsigned int nr_bssplit[2];
	struct kfsim_bfq_bssplit bssplit[2][KFSIM_BFQ_MAX_BSSPLIT];
	u64 rate_write;
	u64 rate_iops;
	u64 rate_iops_write;
	unsigned int perc_seq;
	enum kfsim_bfq_dist dist;
	double dist_param;
	unsigned int nr_zones;
	struct kfsim_bfq_bssplit zones[KFSIM_BFQ_MAX_BSSPLIT];
	enum kfsim_bfq_engine engine;
	char ioengine[24];
	bool buffered;
	u64 io_size;
	u64 number_ios;
	bool verify;
	u64 startdelay_max_ns;
	unsigned int fsync_blocks;
	unsigned int fdatasync_blocks;
	bool end_fsync;
	unsigned int after;
	unsigned int wait_for;
	u64 file_start;
	u64 file_size;
	u64 file_offset;
	s64 seq_skip;
	unsigned int ddir_seq_nr;
	bool rw_seq_identical;
	bool exitall;
	unsigned char exit_what;
	bool exitall_error;
	unsigned int group;
	unsigned int blockalign;
	bool rate_poisson;
	bool cmdprio;
	unsigned int flow;
	unsigned int flow_id;
	unsigned int flow_sleep_us;
	u64 verify_backlog;
	u64 zone_size;
	u64 zone_range;
	u64 zone_skip;
	int io_error;
	u64 latency_target_ns;
	u64 latency_window_ns;
	double latency_percentile;
	bool latency_run;
	bool eof_at_start;
	unsigned int ss_state;
	double ss_limit;
	u64 ss_dur_s;
	u64 ss_ramp_ns;
	u64 ramp_ns;
	bool rwmix_fio_seed;
	u32 rwmix_seed;
	bool rwmix_repeat;
	u64 pass_bytes;
	bool bs_fio_seed;
	u32 bs_seed[2];
	unsigned int nr_files;
	u64 file_bytes[KFSIM_BFQ_MAX_FILES];
	u64 files_offset;
	enum kfsim_bfq_fservice file_service;
	unsigned int file_service_nr;
	u32 file_seed;
	unsigned int file_loops;
	bool file_map;
};

/* struct kfsim_bfq_job's @ss_state: fio 3.33's FIO_SS_* bits of the same names */
enum {
	KFSIM_SS_IOPS = 1 << 0,
	KFSIM_SS_BW = 1 << 1,
	KFSIM_SS_SLOPE = 1 << 2,
	KFSIM_SS_PCT = 1 << 6,
};
/* the longest steady-state window kfsim keeps: a day of samples */
#define KFSIM_SS_MAX_DUR_S 86400u

/**
 * kfsim_bfq_ss_name() - a steady-state criterion as fio's JSON "ss" names it
 * @ss_state: KFSIM_SS_* bits
 * @ss_limit: its limit
 * @buf: where the name goes ("iops_slope:0.010000%", "bw:1048576.000000"; "" for none)
 * @len: its size
 */
void kfsim_bfq_ss_name(unsigned int ss_state, double ss_limit, char *buf, size_t len);

/**
 * kfsim_bfq_job_parse() - fill @job from "name=a,rw=read,bs=4k,offset=0%,size=50%,..."
 * @spec: comma-separated key=value pairs; keys: name rw rwmixread rwmixwrite bs bsrange bssplit
 *        blockalign iodepth ioengine direct buffered offset size io_size number_ios ioprio
 *        prioclass weight cgroup cgroup_weight rate rate_iops rate_process percentage_random
 *        random_distribution thinktime sync.  Sizes take k/m/g/t suffixes (powers of 2, as
 *        fio), or % for offset and size; fio's READ,WRITE values keep their comma
 *        ("bs=4k,8k,rw=randrw": an item without '=' continues the value before it).  Unlike
 *        a fio job file, a spec does direct I/O unless it says direct=0.
 * @errbuf: on error, a one-line reason naming the key
 *
 * Return: 0, or -EINVAL (and @job unchanged).
 */
int kfsim_bfq_job_parse(const char *spec, struct kfsim_bfq_job *job, char *errbuf, size_t errlen);

/**
 * kfsim_bfq_job_region() - the sectors @job works on, on a disk of @capacity sectors
 * @job: the job
 * @capacity: disk size in sectors
 * @start: first sector (the offset aligned down to bs, as fio does)
 * @nr_sectors: sectors from @start
 * @errbuf: on error, a one-line reason
 * @errlen: its size
 *
 * size=0 and size=0% both mean "to the end of the disk".  Nothing is clamped: a region that
 * goes past the end of the disk ("offset=99%,size=50%") or is smaller than one block
 * ("bs=64m,size=1") is refused.  kfsim_bfq_sim_create() applies the same rules.
 *
 * Return: 0 or -EINVAL.
 */
int kfsim_bfq_job_region(const struct kfsim_bfq_job *job, sector_t capacity, sector_t *start,
			 sector_t *nr_sectors, char *errbuf, size_t errlen);

/**
 * kfsim_bfq_job_default() - fio's defaults: rw=read, bs=4k, iodepth=1, the whole disk.
 */
void kfsim_bfq_job_default(struct kfsim_bfq_job *job);

struct kfsim_bfq_sim_config;

/**
 * kfsim_bfq_jobs_dump() - kfsim's reading of @cfg's jobs as one JSON document on @out
 *
 * Per job: name, rw, rwmixread, bs/bsrange/bssplit per direction, iodepth and the depth the
 * engine allows, ioengine and its class, direct, the flags a write carries, the region on
 * the disk (bytes), rate and rate_iops per direction, percentage_random, the random
 * distribution, thinktime, startdelay range, runtime (us), io_size, number_ios, verify,
 * stonewall (after), wait_for, exitall, io_error, the latency target, ioprio, cgroup and
 * weight.
 *
 * Return: 0, or the JSON writer's error (-EIO when @out failed).
 */
int kfsim_bfq_jobs_dump(FILE *out, const struct kfsim_bfq_sim_config *cfg);

/**
 * kfsim_bfq_fio_parse() - add the jobs of a fio job file to @cfg, read as fio reads it
 * @in: the file (fio's INI format: [global] sections, one section per job, include lines,
 *      ${VAR} environment variables, ';' and '#' comments anywhere on a line)
 * @cfg: jobs are appended (nr_jobs grows); the duration is set to when the last job can end
 *       when every job has a runtime (stonewall groups one after the other); its disk's
 *       capacity lays out the jobs' files
 * @errbuf: on error every problem, one a line: "line N: option: reason"
 * @errlen: its size (what does not fit is cut)
 *
 * fio's defaults hold where kfsim's --job differs: direct=0 (buffered: writes go to the
 * page cache and its writeback, see struct kfsim_bfq_writeback) and ioengine=psync (depth 1).
 * The options kfsim models, those it knows have no effect on the simulated disk, and those
 * it refuses, each with its reason, are listed in docs/bfq.md ("fio job files").
 *
 * Return: 0; -EINVAL when any option is refused, a value is bad, a file does not fit on the
 * disk or there are more than KFSIM_BFQ_MAX_JOBS jobs; @cfg is unchanged on error.
 */
int kfsim_bfq_fio_parse(FILE *in, struct kfsim_bfq_sim_config *cfg, char *errbuf,
			size_t errlen);

/**
 * kfsim_bfq_fio_parse_file() - kfsim_bfq_fio_parse() of the file at @path: "include" lines
 * are read relative to it, and each problem is "PATH:line N: option: reason", all of them,
 * one a line.
 *
 * Return: 0; -EINVAL with every problem in @errbuf; -errno when @path cannot be opened.
 */
int kfsim_bfq_fio_parse_file(const char *path, struct kfsim_bfq_sim_config *cfg, char *errbuf,
			     size_t errlen);

/**
 * struct kfsim_blktrace_rec - one queued I/O of a blkparse trace ("Q" action)
 * @time_ns: when it was queued
 * @pid: the process
 * @sector: first sector
 * @nr_sectors: length
 * @write: a write (rwbs contains W)
 * @sync: the S flag
 * @dev: the traced device, MKDEV-style (major << 20 | minor) from its "maj,min"
 * @depth: for a closed-loop replay (kfsim_blktrace_deps()), this record included, how many of
 *         its process's I/Os were in flight when it was queued; 0 when not known
 * @think_ns: and how long the process took before queueing it: since its last completion
 *            when nothing of it was in flight (@depth 1), else since its previous queue
 *            event; 0 for the process's first record
 */
struct kfsim_blktrace_rec {
	u64 time_ns;
	int pid;
	u32 dev;
	sector_t sector;
	unsigned int nr_sectors;
	bool write;
	bool sync;
	unsigned int depth;
	u64 think_ns;
};

/**
 * kfsim_blktrace_parse() - read the "Q" events of blkparse's default text output from @in
 * @errbuf: on error, every bad line, "line N: what is wrong" each, joined by "; " ("; and K
 *          more problems" when @errbuf cannot hold them all; may be NULL); when it returns 0
 *          records although the trace has Q events, why: how many there were, none with data
 *
 * Lines look like "  8,0    3        1     0.000000000  4162  Q  RS 223490 + 8 [fio]".
 * Other actions, summary lines and blank lines are skipped, and so are Q events without data
 * (flushes "Q FWS []", discards, "N" events).  A bio larger than BLK_DEF_MAX_SECTORS_CAP
 * (2560 sectors) becomes several requests of at most that size, as the block layer splits it.
 * Timestamps may go backwards (blkparse merges per-CPU buffers): the simulation replays in time
 * order, equal times in trace order.
 *
 * Return: the number of records (*@recs allocated with kvmalloc(), kvfree() it; any number,
 * not capped by KMALLOC_MAX_SIZE), or -EINVAL for a "Q" line that does not parse,
 * -EOVERFLOW for a timestamp or sector range that does not fit 64 bits (the first bad line's
 * error; every bad line in @errbuf, the first ten in the log), -ENOMEM.
 */
long kfsim_blktrace_parse(FILE *in, struct kfsim_blktrace_rec **recs, char *errbuf,
			  size_t errlen);

/**
 * struct kfsim_bfq_writeback - the page cache's writeback, for buffered writes
 * @dirtyable_bytes: memory that may hold dirty pages (the kernel's dirtyable memory: free
 *                   plus file pages); the thresholds are ratios of it
 * @dirty_ratio: percent at which a writer is throttled (vm.dirty_ratio, 20)
 * @dirty_background_ratio: percent at which the flusher starts (vm.dirty_background_ratio, 10)
 * @dirty_expire_ns: dirty data older than this is written back (dirty_expire_centisecs, 30 s)
 * @dirty_writeback_ns: the flusher's periodic wake-up (dirty_writeback_centisecs, 5 s)
 * @copy_mb_s: 10^6 bytes per second a writer copies into the page cache
 *
 * A buffered write completes once copied; it adds dirty bytes.  The flusher wakes every
 * @dirty_writeback_ns, and at once when dirty bytes pass the background threshold; it then
 * writes the oldest dirty extents (adjacent ones coalesced, at most 1280 KiB a request, the
 * HDD's max_sectors) as async writes until dirty bytes are below the background threshold
 * (and at each periodic wake-up, what is older than @dirty_expire_ns).  A writer that would
 * go above the dirty_ratio threshold waits until writeback brings it below
 * (balance_dirty_pages()).  Defaults: mm/page-writeback.c, Linux 6.12.
 */
struct kfsim_bfq_writeback {
	u64 dirtyable_bytes;
	unsigned int dirty_ratio;
	unsigned int dirty_background_ratio;
	u64 dirty_expire_ns;
	u64 dirty_writeback_ns;
	double copy_mb_s;
};

/**
 * kfsim_blktrace_parse_buf() - kfsim_blktrace_parse() of @size bytes at @buf (a mapped file)
 * @progress: NULL, or called every 4 MiB parsed and at the end with the bytes done and @size
 * @arg: its first argument
 *
 * Besides blkparse's default text it reads what the tracefs "blk" tracer prints
 * (/sys/kernel/tracing/trace with current_tracer "blk"): "fio-15534 [000] d..1. 2925.081213:
 * 7,0 Q WS 65536 + 128 [fio]", microsecond timestamps, in every layout the tracer's options
 * give (6.12 to 6.18: blk_classic, blk_cgroup, blk_cgname, verbose, record-tgid, irq-info
 * off, latency-format with or without verbose).  Two layouts cannot be replayed and each Q
 * line of them is refused with the reason: context-info off (no time, no pid) and a
 * trace_clock that counts ticks (counter, uptime, x86-tsc).  Lines starting with '#' are
 * skipped.  Also refused, each line with its reason (one reason on many lines told once, with
 * where it recurs): an event line whose action, pid or time is damaged, a Q line cut short
 * after its sectors, binary data (NUL bytes; blktrace's own binary file, a compressed file:
 * line 1), what the raw and hex options print ("type: 14"), and, when nothing else replays,
 * the block tracepoints' events (events/block).
 *
 * When it returns records, @errbuf holds a note ("" if none) for a trace that is not whole or
 * not what it seems: the tracer lost events ("CPU:1 [LOST 76 EVENTS]"), the last line was cut
 * without its newline (not replayed), a device remapped onto another traced device (both
 * replay), joined by "; ".
 *
 * Return: as kfsim_blktrace_parse().
 */
long kfsim_blktrace_parse_buf(const char *buf, size_t size, struct kfsim_blktrace_rec **recs,
			      char *errbuf, size_t errlen,
			      void (*progress)(void *arg, size_t done, size_t total), void *arg);

/**
 * kfsim_blktrace_deps() - what a closed-loop replay follows: each record's dependencies
 * @buf: the trace text the records were parsed from (kfsim_blktrace_parse_buf())
 * @size: its length
 * @recs: the records, as parsed (before kfsim_blktrace_place() moves their sectors)
 * @nr: how many
 *
 * Reads the trace's completions ("C" events with data) and sets @depth and @think_ns of every
 * record.  A record in flight ends when completions of its device and direction have covered
 * all its sectors: a merged request completes once for all its bios, a bio the device split to
 * its limits ("X" events) once per part.  Where two records in flight overlap, a completion
 * covers only the newer one's sectors there (the older one's completion was lost).  Walking
 * the trace in time order (events of the same printed time in the file's order, which is the
 * tracer's: tracefs prints microseconds of a finer clock), a record's @depth is its process's
 * records in flight plus one, its @think_ns the
 * time since that process's last completion when none was in flight, else since its previous
 * queue event.  A record nothing completes stays in flight to the end.
 *
 * Return: the number of records a completion ended, or -ENOMEM.  0 when none did: the trace
 * has no completions (every @depth is then 0), or none of them covers a queued record (the
 * depths count every record as in flight).
 */
long kfsim_blktrace_deps(const char *buf, size_t size, struct kfsim_blktrace_rec *recs,
			 size_t nr);

/**
 * kfsim_blktrace_place() - put the sectors of a parsed trace on a disk of @capacity sectors
 * @recs: the records (sector changed in place)
 * @nr: how many
 * @capacity: the simulated disk's size
 * @scale: stretch each device's LBAs (0 .. its highest sector in the trace) over its share
 * @errbuf: on error, why (the device and its extent)
 *
 * Several devices in one trace stay separate: with D devices, device i (in order of maj,min)
 * gets the i-th of D equal shares of the disk, its sector 0 at the share's start.  With @scale,
 * a trace from a small device covers its whole share (a sector s of a device whose I/O ends at
 * E becomes s * share / E, rounded down to 8 sectors), so seeks span what they spanned there;
 * without, sectors keep their values (offset to the share) and must fit it.
 *
 * Return: 0; -ERANGE when a device's I/O does not fit its share unscaled (nothing changed).
 */
int kfsim_blktrace_place(struct kfsim_blktrace_rec *recs, size_t nr, sector_t capacity,
			 bool scale, char *errbuf, size_t errlen);

/**
 * struct kfsim_bfq_sim_config - what to simulate
 * @disk: the drive
 * @sched: the scheduler
 * @bfq: BFQ tunables (kernel_version is overridden by @sched for KFSIM_SCHED_BFQ_62)
 * @duration_ns: simulated time
 * @seed: randomness
 * @nr_requests: scheduler tags: requests allocated at once (blk-mq's nr_requests, 64)
 * @jobs: the processes
 * @nr_jobs: how many
 * @replay: records of a blkparse trace to replay (each pid becomes a process), or NULL
 * @nr_replay: how many
 * @replay_closed: replay closed-loop: each process issues its next record when its own
 *                 previous ones allow, as in the trace (the record's @depth and @think_ns,
 *                 from kfsim_blktrace_deps()): at most @depth - 1 of its I/Os still in flight,
 *                 @think_ns after its last completion (@depth 1) or its previous issue; its
 *                 first record, and any of @depth 0, at the record's own time.  Open-loop
 *                 (false): every record at its own time
 * @trace: a Perfetto trace to record dispatches into, or NULL
 * @trace_window_ns: record only the first this many ns of the run
 * @bin_ns: width of the throughput time series bins
 * @progress: NULL, or called now and then during kfsim_bfq_sim_run() with the simulated time
 *            reached (for a progress line; it must not touch the simulation)
 * @progress_arg: its first argument
 * @wb: the page cache's writeback (buffered writes)
 */
struct kfsim_bfq_sim_config {
	struct kfsim_hdd_params disk;
	enum kfsim_bfq_sched sched;
	struct bfq_tunables bfq;
	u64 duration_ns;
	u64 seed;
	unsigned int nr_requests;
	struct kfsim_bfq_job jobs[KFSIM_BFQ_MAX_JOBS];
	unsigned int nr_jobs;
	const struct kfsim_blktrace_rec *replay;
	size_t nr_replay;
	bool replay_closed;
	struct kfsim_trace *trace;
	u64 trace_window_ns;
	u64 bin_ns;
	void (*progress)(void *arg, u64 now_ns);
	void *progress_arg;
	struct kfsim_bfq_writeback wb;
};

/** kfsim_bfq_sim_config_default() - dual-actuator disk, BFQ, 2 s, seed 1, no jobs. */
void kfsim_bfq_sim_config_default(struct kfsim_bfq_sim_config *cfg);

/**
 * struct kfsim_bfq_actuator_result - one actuator over the run
 * @utilisation: busy time / duration
 * @mb_s: 10^6 bytes per second completed
 * @iops: requests per second completed
 * @requests: requests completed
 * @injected: requests BFQ dispatched for it by actuator injection
 * @cache_hits: requests served from its read-ahead
 */
struct kfsim_bfq_actuator_result {
	double utilisation;
	double mb_s;
	double iops;
	u64 requests;
	u64 injected;
	u64 cache_hits;
};

/**
 * struct kfsim_bfq_job_result - one process over the run
 * @name: its name
 * @weight: the BFQ weight it had
 * @requests: requests completed
 * @bytes: bytes completed
 * @mb_s: throughput
 * @iops: requests per second
 * @share: its fraction of all bytes completed
 * @lat_mean_us: mean completion latency (submission to completion)
 * @lat_p99_us: 99th percentile, nearest rank, never below the truth and within 1.6 % above it
 *              (the convention of <kfsim/sim_hist.h>)
 * @lat_max_us: largest
 * @active_s: the job's own active time: from its start to its end (its last completion,
 *            its runtime, or the end of the run); @mb_s and @iops are over this time
 * @read_bytes: bytes read
 * @write_bytes: bytes written (buffered: copied into the page cache)
 * @read_ios: reads completed (fio's JSON "read" "total_ios" of a job that ran to its end)
 * @write_ios: writes completed, buffered ones copied into the page cache
 * @error: 0, or the error (-errno) that ended the job (struct kfsim_bfq_job's @io_error,
 *         -ETIMEDOUT from a latency target no depth meets)
 * @lat_target_depth: with a latency target, the depth the search was at when the job ended
 *                    (its figures are from the final window at that depth once it settled)
 * @ss_state: its job's steady-state criterion (struct kfsim_bfq_job's), 0 = none
 * @ss_limit: and limit
 * @ss_dur_s: and window, seconds
 * @ss_attained: with steady-state detection (@ss_state of its job), whether the criterion
 *               held over a full window, which ended the job (fio's "attained")
 * @ss_criterion: the criterion's last value (percent of the mean with KFSIM_SS_PCT), 0
 *                until the window first filled, as fio's ss_criterion
 * @ss_deviation: the largest deviation from the window's mean (deviation criteria)
 * @ss_slope: the least-squares slope per second over the window (slope criteria)
 * @ss_bw_mean: the mean of the window's samples, bytes/s, integer as fio's
 * @ss_iops_mean: the same for IOPS
 * @ss_bw_data: the window's samples, bytes/s, oldest first (@ss_dur_s of them, zeros where
 *              none was taken yet; owned by the simulation), as fio's JSON "data" lists them
 * @ss_iops_data: the same for IOPS
 * @syncs: syncs completed every fsync= or fdatasync= writes: the samples of fio's "sync"
 *         latency (end_fsync's sync takes its time, but fio 3.33 does not report it)
 * @fsyncs: of those, the fsync= ones: fio's "sync" total_ios, which counts DDIR_SYNC only
 * @sync_lat_mean_us: their mean latency, from the sync's start to its end
 * @sync_lat_p99_us: their 99th percentile (the convention of @lat_p99_us)
 * @sync_lat_max_us: the longest
 */
struct kfsim_bfq_job_result {
	char name[32];
	unsigned int weight;
	u64 requests;
	u64 bytes;
	double mb_s;
	double iops;
	double share;
	double lat_mean_us;
	double lat_p99_us;
	double lat_max_us;
	double active_s;
	u64 read_bytes;
	u64 write_bytes;
	u64 read_ios;
	u64 write_ios;
	int error;
	unsigned int lat_target_depth;
	unsigned int ss_state;
	double ss_limit;
	u64 ss_dur_s;
	bool ss_attained;
	double ss_criterion;
	double ss_deviation;
	double ss_slope;
	u64 ss_bw_mean;
	u64 ss_iops_mean;
	const u64 *ss_bw_data;
	const u64 *ss_iops_data;
	u64 syncs;
	u64 fsyncs;
	double sync_lat_mean_us;
	double sync_lat_p99_us;
	double sync_lat_max_us;
};

/**
 * struct kfsim_bfq_sim_result - what happened
 * @duration_s: simulated seconds
 * @nr_actuators: actuators of the disk
 * @actuator: per actuator
 * @nr_jobs: processes
 * @jobs: per process (@nr_jobs entries, freed with the simulation)
 * @mb_s: total throughput
 * @iops: total requests per second
 * @jain: Jain's fairness index of throughput/weight over the processes (1 = fair)
 * @submitted: requests submitted by processes
 * @completed: requests completed
 * @in_flight: submitted and not completed at the end (in scheduler or disk)
 * @drained: of those, how many completed after the end while the simulation drained them
 *           (completed + drained == submitted: every request completes exactly once)
 * @expirations: BFQ in-service queue expirations by reason (BFQ only)
 * @hole_injected: requests BFQ injected into service holes of a plugged queue (BFQ only)
 * @shallow_allocs: tags taken within a depth limit the scheduler set (BFQ's limit_depth)
 * @shallow_waits: allocations that found no tag within their limit while other tags were free
 * @nr_bins: time-series length
 * @series_mb_s: per actuator, throughput per bin (kmalloc'ed, freed with the simulation)
 * @writeback_bytes: bytes the writeback flusher wrote to the disk in the run (its job's
 *                   bytes: writes completed after the end, @drained, are not counted)
 * @dirty_bytes: dirty bytes left in the page cache at the end of the run (those whose
 *               writeback drained after it included): the writers' buffered bytes are
 *               @writeback_bytes + @dirty_bytes
 * @replay_issued: replayed records submitted (of @nr_replay in the configuration)
 * @replay_lag_mean_us: mean of (time submitted - time in the trace) over those: how far the
 *                      simulated disk made the trace's processes wait for a request
 * @replay_lag_max_us: its largest
 * @replay_makespan_s: when the last replayed request completed (the trace's span is what the
 *                     traced disk took to get them all queued)
 */
struct kfsim_bfq_sim_result {
	double duration_s;
	unsigned int nr_actuators;
	struct kfsim_bfq_actuator_result actuator[KFSIM_HDD_MAX_ACTUATORS];
	unsigned int nr_jobs;
	struct kfsim_bfq_job_result *jobs;
	double mb_s;
	double iops;
	double jain;
	u64 submitted;
	u64 completed;
	u64 in_flight;
	u64 drained;
	u64 expirations[BFQQE_NR_REASONS];
	u64 hole_injected;
	u64 shallow_allocs;
	u64 shallow_waits;
	size_t nr_bins;
	double *series_mb_s[KFSIM_HDD_MAX_ACTUATORS];
	u64 writeback_bytes;
	u64 dirty_bytes;
	u64 replay_issued;
	double replay_lag_mean_us;
	double replay_lag_max_us;
	double replay_makespan_s;
};

struct kfsim_bfq_sim;

/**
 * kfsim_bfq_sim_create() - set up a simulation (nothing runs yet)
 *
 * Return: the simulation; ERR_PTR(-EINVAL) for a bad disk, no job and no replay, a job that is
 * malformed or whose region falls outside the disk, too many processes, a zero duration or
 * nr_requests; ERR_PTR(-ENOMEM).  The reason is logged.
 */
struct kfsim_bfq_sim *kfsim_bfq_sim_create(const struct kfsim_bfq_sim_config *cfg);

/**
 * kfsim_bfq_sim_create_msg() - kfsim_bfq_sim_create(), and on error the reason in @errbuf
 */
struct kfsim_bfq_sim *kfsim_bfq_sim_create_msg(const struct kfsim_bfq_sim_config *cfg,
					       char *errbuf, size_t errlen);

/**
 * kfsim_bfq_sim_run() - run it to the end of its duration and compute the results
 *
 * Return: 0, -EALREADY when it already ran, -ENOMEM when an event could not be scheduled (the
 * run stops, what was outstanding drains, and no result is computed).
 */
int kfsim_bfq_sim_run(struct kfsim_bfq_sim *sim);

/** kfsim_bfq_sim_result() - the results (valid after a successful run, until destroy). */
const struct kfsim_bfq_sim_result *kfsim_bfq_sim_result(const struct kfsim_bfq_sim *sim);

/** kfsim_bfq_sim_bfqd() - the BFQ state of a BFQ simulation (NULL for other schedulers). */
struct bfq_data *kfsim_bfq_sim_bfqd(struct kfsim_bfq_sim *sim);

/** kfsim_bfq_sim_hdd() - the simulated drive (its counters: kfsim_hdd_actuator_stats()). */
const struct kfsim_hdd *kfsim_bfq_sim_hdd(const struct kfsim_bfq_sim *sim);

/** kfsim_bfq_sim_destroy() - free everything (NULL is fine). */
void kfsim_bfq_sim_destroy(struct kfsim_bfq_sim *sim);

/** kfsim_bfq_jain_index() - (sum x)^2 / (n * sum x^2) of @n values; 1 for n = 0. */
double kfsim_bfq_jain_index(const double *x, size_t n);

#pragma GCC visibility pop
#endif /* KFSIM_BFQ_SIM_H */
