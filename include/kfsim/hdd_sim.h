/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_HDD_SIM_H
#define KFSIM_HDD_SIM_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * A simulated hard disk with one or more actuators sharing one LBA space, calibrated to Seagate's
 * Exos X18 (one actuator) and Exos 2X18 SATA (two): the model of the BFQ reference, section 3.3.
 *
 * - One spindle (7200 rpm): every actuator sees the same platter phase, so rotational latency is
 *   the angular gap from where the platter is when the head arrives to the target sector.
 * - Actuator j serves LBA range j = [j*N/A, (j+1)*N/A) and covers the whole radius on its own
 *   surfaces: inside a range the LBA maps to a radius from the outer (0) to the inner (1)
 *   diameter, with sectors per track falling linearly from spt_od to spt_od * zone_ratio.
 * - Seek: t(0) = 0, t(x) = seek_min + seek_coeff * sqrt(x) ms, x the fraction of a full stroke;
 *   writes add write_settle.  Every command costs cmd_overhead on its actuator.
 * - One NCQ of ncq_depth tags shared by all actuators.  A free actuator picks, among the queued
 *   commands of its range, the one with the shortest seek plus rotation, less a credit for the
 *   time it has waited (aged SATF, Jacobson & Wilkes 1991: satf_aging ms per second waited), so
 *   that a sequential stream served from read-ahead cannot starve random requests; a command
 *   older than age_cap is served first whatever it costs.  The cost compared is the time until
 *   data moves: for a read the read-ahead reaches, the time until it reaches its first sector.
 * - After a read each actuator keeps reading ahead into its own cache segment (up to readahead
 *   KiB past the read) until it starts another media access; reads found there cost no media
 *   time, and reads the read-ahead reaches (of any length) wait for it and continue it, which
 *   is how a sequential reader keeps streaming at any queue depth.  When the head leaves, the
 *   segment stays in the cache, one of 8 per actuator (least recently used replaced); a read
 *   that continues a kept segment is a stream the head had to leave, and the actuator reads a
 *   minimum prefetch of readahead/2 after it before serving another command, so interleaved
 *   streams on one actuator do not pay a full access per request.  Writes invalidate what the
 *   cache holds of their sectors.
 * - Utilisation (busy_ns) counts every media access, read-ahead included.
 * - The write cache is off by default: writes go to the media.  With it on (write_cache), a write
 *   completes once its data crossed the link, and the actuator destages it later: when it has
 *   nothing else to do, or first when the cache is three quarters full, choosing the quickest
 *   to reach among the 64 oldest; a full cache writes through.
 * - One host link (SATA 6 Gb/s) carries every data transfer, one at a time.
 *
 * Times are nanoseconds of simulated time.  The model is a value: create, feed, destroy.
 */
#include <kfsim/blkdev.h>
#include <kfsim/kernel.h>
#include <kfsim/types.h>

/** KFSIM_HDD_MAX_ACTUATORS - most actuators a simulated disk may have. */
#define KFSIM_HDD_MAX_ACTUATORS 16
/** KFSIM_HDD_MAX_TAGS - largest command queue. */
#define KFSIM_HDD_MAX_TAGS 256

/**
 * struct kfsim_hdd_params - the drive's parameters (see kfsim_hdd_params_default())
 * @nr_actuators: 1..KFSIM_HDD_MAX_ACTUATORS
 * @capacity: sectors (512 B)
 * @rpm: spindle speed
 * @spt_od: sectors per track at the outer diameter
 * @zone_ratio: sectors per track at the inner diameter / at the outer, in (0, 1]
 * @seek_min_ms: seek time for the shortest non-zero move
 * @seek_coeff_ms: coefficient of sqrt(stroke fraction)
 * @write_settle_ms: added to a write's seek
 * @cmd_overhead_ms: controller time per command
 * @link_mb_s: host link rate, 10^6 B/s
 * @ncq_depth: tags, 1..KFSIM_HDD_MAX_TAGS
 * @age_cap_ms: a command older than this is served before shorter-access ones (0: never)
 * @satf_aging_ms_per_s: access-time credit per second a command has waited (0: pure SATF)
 * @readahead_kib: read-ahead per actuator after a read (0: none)
 * @write_cache: complete writes from the cache and destage them later
 * @write_cache_mib: dirty data the cache holds, 1..4096 MiB (64), below @cache_mib
 * @cache_mib: the drive's buffer, MiB (256, as the Exos 2X18): the write cache's part when on,
 *             the rest read segments, split evenly between the actuators and, in each, between
 *             the segment being filled and 8 kept ones
 */
struct kfsim_hdd_params {
	unsigned int nr_actuators;
	sector_t capacity;
	double rpm;
	unsigned int spt_od;
	double zone_ratio;
	double seek_min_ms;
	double seek_coeff_ms;
	double write_settle_ms;
	double cmd_overhead_ms;
	double link_mb_s;
	unsigned int ncq_depth;
	double age_cap_ms;
	double satf_aging_ms_per_s;
	unsigned int readahead_kib;
	bool write_cache;
	unsigned int write_cache_mib;
	unsigned int cache_mib;
};

/**
 * kfsim_hdd_params_default() - the calibrated drive: 18 TB, 7200 rpm, 4508 sectors per outer
 * track (277 MB/s), inner tracks half that, seek 0.7 + 12*sqrt(x) ms (+0.5 ms for writes),
 * 0.1 ms per command, NCQ 32, 600 MB/s link, 1 MiB read-ahead, aged SATF (20 ms/s, cap 1 s)
 * @params: filled in
 * @nr_actuators: 1 (Exos X18) or 2 (Exos 2X18); other counts split the LBA space evenly
 */
void kfsim_hdd_params_default(struct kfsim_hdd_params *params, unsigned int nr_actuators);

/**
 * kfsim_hdd_params_check() - validate @params
 *
 * Return: 0, or -EINVAL (with the offending field logged) for an actuator count, capacity, rate,
 * ratio, depth or time out of range, or a capacity too small to give each actuator a range.
 */
int kfsim_hdd_params_check(const struct kfsim_hdd_params *params);

/**
 * kfsim_hdd_params_explain() - kfsim_hdd_params_check() without logging
 * @params: the parameters
 * @why: on -EINVAL, the field and its range ("rpm (1000..30000)"), for the caller's message
 *
 * Return: 0 or -EINVAL.
 */
int kfsim_hdd_params_explain(const struct kfsim_hdd_params *params, const char **why);

/**
 * struct kfsim_hdd_actuator_stats - what one actuator did
 * @busy_ns: time the actuator was busy: commands (overhead, positioning, transfer, waiting for
 *           read-ahead), destages, prefetch and read-ahead media time, each instant counted once
 * @nr_commands: commands served
 * @nr_cache_hits: reads served from the read-ahead segment
 * @nr_destages: cached writes written to the media
 * @bytes: bytes served (reads and writes, whether from the media or the cache)
 * @media_bytes: bytes the heads read or wrote: commands that went to the media, read-ahead
 *               and prefetch, destages; never more than the media rate times @busy_ns
 * @fill_bytes: of @media_bytes, those read ahead into the cache
 * @cache_bytes: bytes reads took from the cache (read-ahead hits and reads the read-ahead
 *               reached) instead of a media access of their own
 * @cached_write_bytes: writes completed from the write cache (on the media later, as destages)
 */
struct kfsim_hdd_actuator_stats {
	u64 busy_ns;
	u64 nr_commands;
	u64 nr_cache_hits;
	u64 nr_destages;
	u64 bytes;
	u64 media_bytes;
	u64 fill_bytes;
	u64 cache_bytes;
	u64 cached_write_bytes;
};

struct kfsim_hdd;

/**
 * kfsim_hdd_create() - a new idle drive
 *
 * Return: the drive, or ERR_PTR(-EINVAL) for bad @params, ERR_PTR(-ENOMEM).
 */
struct kfsim_hdd *kfsim_hdd_create(const struct kfsim_hdd_params *params);
/** kfsim_hdd_destroy() - free @hdd (NULL is fine); requests still inside are not touched. */
void kfsim_hdd_destroy(struct kfsim_hdd *hdd);

/** kfsim_hdd_params_of() - the parameters @hdd was created with. */
const struct kfsim_hdd_params *kfsim_hdd_params_of(const struct kfsim_hdd *hdd);

/**
 * kfsim_hdd_set_ia_ranges() - describe @hdd on @disk: capacity and, with several actuators, one
 * independent access range per actuator (one actuator: no ranges, as sd_read_cpr() reports)
 *
 * Return: 0, -ENOMEM, or the error of disk_set_independent_access_ranges().
 */
int kfsim_hdd_set_ia_ranges(const struct kfsim_hdd *hdd, struct gendisk *disk);

/** kfsim_hdd_actuator_of() - the actuator that serves @sector. */
unsigned int kfsim_hdd_actuator_of(const struct kfsim_hdd *hdd, sector_t sector);

/** kfsim_hdd_can_queue() - whether a tag is free. */
bool kfsim_hdd_can_queue(const struct kfsim_hdd *hdd);
/** kfsim_hdd_in_flight() - commands in the drive. */
unsigned int kfsim_hdd_in_flight(const struct kfsim_hdd *hdd);

/**
 * kfsim_hdd_submit() - queue @rq in the drive at time @now
 *
 * The actuator of the request's last sector serves it (a request straddling a range boundary
 * goes to the actuator of its end, as BFQ assumes).
 *
 * Return: 0; -EBUSY when every tag is taken; -EINVAL for an empty request, one not a multiple of
 * 512 bytes, or one beyond the capacity; -EINVAL when @now is earlier than a previous call.
 */
int kfsim_hdd_submit(struct kfsim_hdd *hdd, struct request *rq, u64 now);

/**
 * kfsim_hdd_flush() - a cache flush (ATA FLUSH CACHE, SCSI SYNCHRONIZE CACHE) from @now: the
 * actuators destage their cached writes before any queued command until the write cache is
 * empty.  Without a write cache there is nothing to flush.
 *
 * Return: true when the write cache is already empty (the flush is done).
 */
bool kfsim_hdd_flush(struct kfsim_hdd *hdd, u64 now);

/**
 * kfsim_hdd_flush_done() - whether the flush kfsim_hdd_flush() started is done: every write
 * cached when it started, and since, is on the media.  Once it is, destaging returns to its
 * idle-time policy.
 */
bool kfsim_hdd_flush_done(struct kfsim_hdd *hdd);

/** kfsim_hdd_now() - the drive's clock: the latest time it was submitted to or stepped to. */
u64 kfsim_hdd_now(const struct kfsim_hdd *hdd);

/** kfsim_hdd_next_event() - when the drive next does something (U64_MAX: idle). */
u64 kfsim_hdd_next_event(const struct kfsim_hdd *hdd);

/**
 * kfsim_hdd_step() - advance @hdd to @now and hand back one completed request
 *
 * Call repeatedly with the same @now until it returns NULL.  The request's done_ns, actuator,
 * media_start_ns/media_end_ns and cache_hit are set; its tag is free again.
 */
struct request *kfsim_hdd_step(struct kfsim_hdd *hdd, u64 now);

/** kfsim_hdd_actuator_stats() - counters of actuator @idx (zeros for a bad index). */
struct kfsim_hdd_actuator_stats kfsim_hdd_actuator_stats(const struct kfsim_hdd *hdd,
							 unsigned int idx);

/** kfsim_hdd_seek_ns() - seek time for moving a fraction @stroke (0..1) of the full stroke. */
u64 kfsim_hdd_seek_ns(const struct kfsim_hdd *hdd, double stroke, bool write);

/** kfsim_hdd_media_rate() - sustained media rate in bytes/s at @sector. */
double kfsim_hdd_media_rate(const struct kfsim_hdd *hdd, sector_t sector);

#pragma GCC visibility pop
#endif /* KFSIM_HDD_SIM_H */
