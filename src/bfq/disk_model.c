// SPDX-License-Identifier: MIT
/*
 * The multi-actuator hard disk model (see include/kfsim/hdd_sim.h for the physics).
 *
 * Invariants:
 * - a request is in exactly one place inside the drive: the queue of its actuator (its tag in
 *   act->order[0, nr_queued), oldest first), in service on it (act->cur), or in the completion
 *   list waiting for its done time;
 * - hdd->cmd[tag] holds a queued request's pointer and the copies of its fields the pick reads,
 *   so that choosing walks two small arrays instead of chasing the requests' list pointers;
 * - tags in use == queued + in service + completing, and never exceed ncq_depth;
 * - the completion list is sorted by done time, latest first, with ties in insertion order, so
 *   popping from the end hands requests back in time order and deterministically;
 * - simulated time never goes backwards (hdd->now);
 * - with the write cache on, a cached write has completed to the host and left a destage entry
 *   on its actuator; dirty_sectors is the sum of the entries' sizes and stays <= the limit;
 * - an actuator is busy with at most one of: a command (cur), a destage (cur_destage), a
 *   minimum prefetch (prefetching); busy_ns is the length of the union of its busy intervals,
 *   read-ahead media time included (busy_mark: how far it has been counted).
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/hdd_sim.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>

/* Read-ahead segments an actuator remembers besides the one it fills (multi-segment cache). */
#define HDD_NR_SEGMENTS 8

/* Data a cached write left for the media. */
struct hdd_destage {
	struct blk_list node;
	sector_t sector;
	unsigned int sectors;
	double radius;
	double angle;
};

struct hdd_actuator {
	u16 order[KFSIM_HDD_MAX_TAGS];	/* tags of the commands waiting here, oldest first */
	struct blk_list destage;	/* cached writes not yet on the media */
	unsigned int nr_destage;
	struct hdd_destage *cur_destage;	/* being written, NULL if none */
	unsigned int nr_queued;
	struct request *cur;		/* command in service, NULL when idle */
	u64 busy_until;			/* when @cur's media part ends */
	sector_t range_start, range_end;
	double radius;			/* head position, 0 = outer diameter */
	/*
	 * read-ahead segment [seg_lo, seg_hi), growing while ra_on: from seg_hi at ra_since at
	 * ra_rate, up to ra_limit.  Only its last seg_max sectors are cached (hdd_seg_lo()).
	 */
	sector_t seg_lo, seg_hi, ra_limit;
	u64 ra_since;
	double ra_rate;			/* sectors per ns at the read-ahead position */
	bool ra_on;
	bool prefetching;		/* busy reading the minimum prefetch of a stream */
	sector_t read_end;		/* end of the read the read-ahead follows */
	sector_t write_end;		/* the head is where the last write ended (0: elsewhere) */
	u64 write_end_ns;		/* ... at this time */
	/*
	 * Earlier segments, kept when the head left them; LRU by @used.  @ahead: it holds data
	 * read ahead of the read (only those are searched for hits: a segment that holds just
	 * what was read serves to recognise the stream when it resumes).  nr_ahead counts them,
	 * so that a random workload, whose read-ahead never gets going, skips the search.
	 */
	struct {
		sector_t lo, hi;
		u64 used;
		bool ahead;
	} segs[HDD_NR_SEGMENTS];
	unsigned int nr_ahead;
	u64 busy_mark;
	struct kfsim_hdd_actuator_stats stats;
};

/* A queued command: geometry computed once at submission, and what the pick reads of it. */
struct hdd_cmd {
	double radius;
	double angle;
	u64 io_start;			/* rq->io_start_time_ns */
	sector_t pos, end;		/* blk_rq_pos(), blk_rq_end_sector() */
	u64 data_ready;			/* a write's data is in the drive's buffer (0: a read) */
	struct request *rq;
	bool write;
};

struct kfsim_hdd {
	struct kfsim_hdd_params p;
	struct hdd_cmd cmd[KFSIM_HDD_MAX_TAGS];
	double period_ns;
	double link_ns_per_byte;
	u64 overhead_ns;
	sector_t readahead_sectors;
	sector_t seg_max;		/* sectors one cache segment holds */
	u64 now;
	u64 link_free;
	unsigned int tags_used;
	struct hdd_destage *destage_pool;
	struct hdd_destage **free_destage;
	unsigned int nr_free_destage;
	u64 dirty_sectors;
	u64 dirty_limit;
	bool flushing;			/* a cache flush waits: destages go first */
	struct request *completing[KFSIM_HDD_MAX_TAGS];
	unsigned int nr_completing;
	int free_tags[KFSIM_HDD_MAX_TAGS];
	struct hdd_actuator act[KFSIM_HDD_MAX_ACTUATORS];
};

void kfsim_hdd_params_default(struct kfsim_hdd_params *params, unsigned int nr_actuators)
{
	*params = (struct kfsim_hdd_params){
		.nr_actuators = nr_actuators,
		.capacity = 35156250000ULL,	/* 18 TB */
		.rpm = 7200,
		.spt_od = 4508,
		.zone_ratio = 0.5,
		.seek_min_ms = 0.7,
		.seek_coeff_ms = 12.0,
		.write_settle_ms = 0.5,
		.cmd_overhead_ms = 0.1,
		.link_mb_s = 600,
		.ncq_depth = 32,
		.age_cap_ms = 1000,
		.satf_aging_ms_per_s = 20,
		.readahead_kib = 1024,
		.write_cache = false,
		.write_cache_mib = 64,
		.cache_mib = 256,
	};
}

#define HDD_CHECK(cond, what)                                                                   \
	do {                                                                                    \
		if (!(cond)) {                                                                  \
			*why = what;                                                            \
			return -EINVAL;                                                         \
		}                                                                               \
	} while (0)

int kfsim_hdd_params_explain(const struct kfsim_hdd_params *p, const char **why)
{
	HDD_CHECK(p->nr_actuators >= 1 && p->nr_actuators <= KFSIM_HDD_MAX_ACTUATORS,
		  "nr_actuators (1..16)");
	HDD_CHECK(p->capacity >= (sector_t)p->nr_actuators * 1024, "capacity (at least 1024 sectors per actuator)");
	HDD_CHECK(isfinite(p->rpm) && p->rpm >= 1000 && p->rpm <= 30000, "rpm (1000..30000)");
	HDD_CHECK(p->spt_od >= 16 && p->spt_od <= 1000000, "spt_od");
	HDD_CHECK(isfinite(p->zone_ratio) && p->zone_ratio > 0 && p->zone_ratio <= 1,
		  "zone_ratio (0..1]");
	HDD_CHECK(isfinite(p->seek_min_ms) && p->seek_min_ms >= 0 && p->seek_min_ms <= 1000,
		  "seek_min_ms");
	HDD_CHECK(isfinite(p->seek_coeff_ms) && p->seek_coeff_ms >= 0 && p->seek_coeff_ms <= 1000,
		  "seek_coeff_ms");
	HDD_CHECK(isfinite(p->write_settle_ms) && p->write_settle_ms >= 0 &&
		  p->write_settle_ms <= 1000, "write_settle_ms");
	HDD_CHECK(isfinite(p->cmd_overhead_ms) && p->cmd_overhead_ms >= 0 &&
		  p->cmd_overhead_ms <= 1000, "cmd_overhead_ms");
	HDD_CHECK(isfinite(p->link_mb_s) && p->link_mb_s >= 1 && p->link_mb_s <= 1e6, "link_mb_s");
	HDD_CHECK(p->ncq_depth >= 1 && p->ncq_depth <= KFSIM_HDD_MAX_TAGS, "ncq_depth (1..256)");
	HDD_CHECK(isfinite(p->age_cap_ms) && p->age_cap_ms >= 0 && p->age_cap_ms <= 1e6,
		  "age_cap_ms");
	HDD_CHECK(isfinite(p->satf_aging_ms_per_s) && p->satf_aging_ms_per_s >= 0 &&
		  p->satf_aging_ms_per_s <= 1000, "satf_aging_ms_per_s");
	HDD_CHECK(p->readahead_kib <= 1024 * 1024, "readahead_kib");
	HDD_CHECK(!p->write_cache || (p->write_cache_mib >= 1 && p->write_cache_mib <= 4096),
		  "write_cache_mib (1..4096)");
	HDD_CHECK(p->cache_mib >= 1 && p->cache_mib <= 65536, "cache_mib (1..65536)");
	HDD_CHECK(!p->write_cache || p->write_cache_mib < p->cache_mib,
		  "write_cache_mib (below cache_mib: the write cache is part of the buffer)");
	return 0;
}

int kfsim_hdd_params_check(const struct kfsim_hdd_params *p)
{
	const char *why;
	int err = kfsim_hdd_params_explain(p, &why);

	if (err)
		pr_err("kfsim_hdd: invalid %s\n", why);
	return err;
}

struct kfsim_hdd *kfsim_hdd_create(const struct kfsim_hdd_params *params)
{
	struct kfsim_hdd *hdd;
	int err = kfsim_hdd_params_check(params);

	if (err)
		return ERR_PTR(err);
	hdd = kzalloc(sizeof(*hdd), GFP_KERNEL);
	if (!hdd)
		return ERR_PTR(-ENOMEM);
	hdd->p = *params;
	hdd->period_ns = 60e9 / params->rpm;
	hdd->link_ns_per_byte = 1e3 / params->link_mb_s;
	hdd->overhead_ns = (u64)llround(params->cmd_overhead_ms * NSEC_PER_MSEC);
	/*
	 * The buffer left to reads (the write cache's part taken out) is split evenly between the
	 * actuators, and an actuator's part between its kept segments and the one it fills.
	 */
	hdd->seg_max = ((sector_t)(params->cache_mib -
				   (params->write_cache ? params->write_cache_mib : 0)) * 2048) /
		       (params->nr_actuators * (HDD_NR_SEGMENTS + 1));
	hdd->seg_max = max_t(sector_t, hdd->seg_max, 8);
	/* read-ahead never outgrows a segment: what it read first would be gone */
	hdd->readahead_sectors = min((sector_t)params->readahead_kib * 2, hdd->seg_max / 2);
	for (unsigned int i = 0; i < params->ncq_depth; i++)
		hdd->free_tags[i] = (int)(params->ncq_depth - 1 - i);
	if (params->write_cache) {
		/* one entry per 4 KiB of cache: the smallest write the limit can hold */
		unsigned int nr = params->write_cache_mib * 256;

		hdd->dirty_limit = (u64)params->write_cache_mib * 2048;
		hdd->destage_pool = kvmalloc(nr * sizeof(*hdd->destage_pool), GFP_KERNEL);
		hdd->free_destage = kvmalloc(nr * sizeof(*hdd->free_destage), GFP_KERNEL);
		if (!hdd->destage_pool || !hdd->free_destage) {
			kfsim_hdd_destroy(hdd);
			return ERR_PTR(-ENOMEM);
		}
		for (unsigned int i = 0; i < nr; i++)
			hdd->free_destage[i] = &hdd->destage_pool[i];
		hdd->nr_free_destage = nr;
	}
	for (unsigned int j = 0; j < params->nr_actuators; j++) {
		struct hdd_actuator *act = &hdd->act[j];

		blk_list_init(&act->destage);
		act->range_start = params->capacity * j / params->nr_actuators;
		act->range_end = params->capacity * (j + 1) / params->nr_actuators;
	}
	return hdd;
}

void kfsim_hdd_destroy(struct kfsim_hdd *hdd)
{
	if (!hdd)
		return;
	kvfree(hdd->destage_pool);
	kvfree(hdd->free_destage);
	kfree(hdd);
}

const struct kfsim_hdd_params *kfsim_hdd_params_of(const struct kfsim_hdd *hdd)
{
	return &hdd->p;
}

int kfsim_hdd_set_ia_ranges(const struct kfsim_hdd *hdd, struct gendisk *disk)
{
	struct blk_independent_access_ranges *iars;

	set_capacity(disk, hdd->p.capacity);
	if (hdd->p.nr_actuators == 1)
		return disk_set_independent_access_ranges(disk, NULL);
	iars = disk_alloc_independent_access_ranges(disk, (int)hdd->p.nr_actuators);
	if (!iars)
		return -ENOMEM;
	for (unsigned int j = 0; j < hdd->p.nr_actuators; j++) {
		iars->ia_range[j].sector = hdd->act[j].range_start;
		iars->ia_range[j].nr_sectors = hdd->act[j].range_end - hdd->act[j].range_start;
	}
	return disk_set_independent_access_ranges(disk, iars);
}

unsigned int kfsim_hdd_actuator_of(const struct kfsim_hdd *hdd, sector_t sector)
{
	unsigned int j;

	/* the same integer quotient; 64-bit division unless the product needs 128 bits */
	if (sector <= U64_MAX / hdd->p.nr_actuators)
		j = (unsigned int)(sector * hdd->p.nr_actuators / hdd->p.capacity);
	else
		j = (unsigned int)((unsigned __int128)sector * hdd->p.nr_actuators /
				   hdd->p.capacity);

	/* integer division of the range starts can put a boundary sector one range off */
	j = min(j, hdd->p.nr_actuators - 1);
	while (j > 0 && sector < hdd->act[j].range_start)
		j--;
	while (j + 1 < hdd->p.nr_actuators && sector >= hdd->act[j].range_end)
		j++;
	return j;
}

/* Radius of @sector inside its actuator's range: cumulative sectors grow as r - (1-k)r^2/2. */
static double hdd_radius(const struct kfsim_hdd *hdd, const struct hdd_actuator *act,
			 sector_t sector)
{
	double k = hdd->p.zone_ratio;
	double f = (double)(sector - act->range_start) / (double)(act->range_end - act->range_start);
	double r;

	if (k >= 1.0)
		return f;
	r = (1.0 - sqrt(1.0 - (1.0 - k) * (1.0 + k) * f)) / (1.0 - k);
	return clamp(r, 0.0, 1.0);
}

static double hdd_spt(const struct kfsim_hdd *hdd, double radius)
{
	return hdd->p.spt_od * (1.0 - (1.0 - hdd->p.zone_ratio) * radius);
}

double kfsim_hdd_media_rate(const struct kfsim_hdd *hdd, sector_t sector)
{
	const struct hdd_actuator *act = &hdd->act[kfsim_hdd_actuator_of(hdd, sector)];

	return hdd_spt(hdd, hdd_radius(hdd, act, sector)) * SECTOR_SIZE / (hdd->period_ns * 1e-9);
}

u64 kfsim_hdd_seek_ns(const struct kfsim_hdd *hdd, double stroke, bool write)
{
	double ms;

	stroke = fabs(stroke);
	if (stroke <= 0.0)
		return 0;
	ms = hdd->p.seek_min_ms + hdd->p.seek_coeff_ms * sqrt(min(stroke, 1.0));
	if (write)
		ms += hdd->p.write_settle_ms;
	return (u64)(ms * NSEC_PER_MSEC + 0.5);
}

/* Angular position (fraction of a turn) of @sector on its track. */
static double hdd_angle(const struct kfsim_hdd *hdd, const struct hdd_actuator *act,
			sector_t sector, double radius)
{
	double track = (double)(sector - act->range_start) / hdd_spt(hdd, radius);

	return track - floor(track);
}

static double hdd_phase(const struct kfsim_hdd *hdd, u64 t)
{
	double turns = (double)t / hdd->period_ns;

	return turns - (double)(u64)turns;	/* t >= 0: truncation is floor */
}

/* Where the read-ahead has got to at @t. */
static sector_t hdd_ra_hi(const struct hdd_actuator *act, u64 t)
{
	double hi;

	if (!act->ra_on || t <= act->ra_since)
		return act->seg_hi;
	hi = (double)act->seg_hi + (double)(t - act->ra_since) * act->ra_rate;
	if (hi >= (double)act->ra_limit)
		return act->ra_limit;
	return (sector_t)hi;
}

enum hdd_access { HDD_HIT, HDD_STREAM, HDD_MISS };

/* First sector the cache still holds of the segment being filled, which reached @hi. */
static sector_t hdd_seg_lo(const struct kfsim_hdd *hdd, const struct hdd_actuator *act,
			   sector_t hi)
{
	return hi - act->seg_lo > hdd->seg_max ? hi - hdd->seg_max : act->seg_lo;
}

/*
 * Time from @t until the read-ahead, which reached @hi, has read up to @end.  Exact while it
 * runs or waits to start; for a read-ahead stopped at its limit the rotational wait to resume
 * is left out here and added when the read is chosen (hdd_ra_extend()).
 */
static inline u64 hdd_stream_ns(const struct hdd_actuator *act, u64 t, sector_t hi, sector_t end)
{
	return (act->ra_since > t ? act->ra_since - t : 0) +
	       (u64)((double)(end - hi) / act->ra_rate);
}

/* @sectors more read ahead into the cache: media time, and data reads may take from it. */
static void hdd_count_fill(struct hdd_actuator *act, sector_t sectors)
{
	act->stats.fill_bytes += (u64)sectors * SECTOR_SIZE;
	act->stats.media_bytes += (u64)sectors * SECTOR_SIZE;
}

/* Count [@from, @to) as busy, without counting twice what is already counted. */
static void hdd_account_busy(struct hdd_actuator *act, u64 from, u64 to)
{
	from = max(from, act->busy_mark);
	if (to > from) {
		act->stats.busy_ns += to - from;
		act->busy_mark = to;
	}
}

/* When the read-ahead of @act stopped growing, if it ran until @t. */
static u64 hdd_ra_end(const struct hdd_actuator *act, u64 t)
{
	u64 full;

	if (!act->ra_on || t <= act->ra_since)
		return act->ra_since;
	full = act->ra_since + (u64)((double)(act->ra_limit - act->seg_hi) / act->ra_rate);
	return min(t, full);
}

/*
 * The head leaves the segment it was filling at @t: its media time counts as busy, and what it
 * read stays in the cache as one of HDD_NR_SEGMENTS segments (the least recently used goes).
 */
static void hdd_stop_readahead(const struct kfsim_hdd *hdd, struct hdd_actuator *act, u64 t)
{
	sector_t hi = hdd_ra_hi(act, t);
	unsigned int lru = 0;

	if (act->ra_on) {
		hdd_account_busy(act, act->ra_since, hdd_ra_end(act, t));
		hdd_count_fill(act, hi - act->seg_hi);
	}
	if (hi > act->seg_lo) {
		for (unsigned int i = 1; i < HDD_NR_SEGMENTS; i++) {
			if (act->segs[i].used < act->segs[lru].used)
				lru = i;
		}
		act->nr_ahead -= act->segs[lru].used && act->segs[lru].ahead;
		act->segs[lru].lo = hdd_seg_lo(hdd, act, hi);
		act->segs[lru].hi = hi;
		act->segs[lru].used = t + 1;
		act->segs[lru].ahead = hi > act->read_end;
		act->nr_ahead += act->segs[lru].ahead;
	}
	act->ra_on = false;
	act->seg_lo = act->seg_hi = 0;
}

/* Forget what the cache holds of [@start, @end): a write changed it. */
static void hdd_invalidate(const struct kfsim_hdd *hdd, struct hdd_actuator *act, sector_t start, sector_t end, u64 t)
{
	for (int i = 0; i < HDD_NR_SEGMENTS; i++) {
		if (act->segs[i].used && start < act->segs[i].hi && end > act->segs[i].lo) {
			act->nr_ahead -= act->segs[i].ahead;
			act->segs[i].used = 0;
		}
	}
	if (act->seg_hi > act->seg_lo && start < max(act->seg_hi, act->ra_limit) &&
	    end > act->seg_lo && !act->cur && !act->prefetching) {
		hdd_stop_readahead(hdd, act, t);
		hdd_invalidate(hdd, act, start, end, t);
	}
}

/* The kept segment holding [@start, @end) read ahead, or -1. */
static int hdd_seg_find(const struct hdd_actuator *act, sector_t start, sector_t end)
{
	if (!act->nr_ahead)
		return -1;
	for (int i = 0; i < HDD_NR_SEGMENTS; i++) {
		if (act->segs[i].used && act->segs[i].ahead && start >= act->segs[i].lo &&
		    end <= act->segs[i].hi)
			return i;
	}
	return -1;
}

/* A read that starts where a kept segment ends: the next piece of a sequential stream. */
static bool hdd_seg_continues(const struct hdd_actuator *act, sector_t start)
{
	for (int i = 0; i < HDD_NR_SEGMENTS; i++) {
		if (act->segs[i].used && start >= act->segs[i].lo && start <= act->segs[i].hi)
			return true;
	}
	return false;
}

/* Seek plus rotational wait to reach (@radius, @angle) from where @act is, starting at @t. */
static u64 hdd_position_cost(const struct kfsim_hdd *hdd, const struct hdd_actuator *act,
			     double radius, double angle, u64 t, bool write, s64 bound)
{
	u64 seek = kfsim_hdd_seek_ns(hdd, radius - act->radius, write), arrive;
	double wait;

	if ((s64)seek > bound)
		return seek;	/* cannot beat the best so far: skip the rotation */
	arrive = t + hdd->overhead_ns + seek;
	wait = angle - hdd_phase(hdd, arrive);
	if (wait < 0)
		wait += 1.0;
	return seek + (u64)(wait * hdd->period_ns);
}

/*
 * A write whose data is in the buffer and which starts where the head has just finished
 * writing: the drive prepared it during the write before (no command overhead) and the head is
 * on its first sector (no positioning), so queued sequential writes stream at the media rate.
 */
static bool hdd_write_continues(const struct kfsim_hdd *hdd, const struct hdd_actuator *act,
				int tag, u64 t)
{
	const struct hdd_cmd *cmd = &hdd->cmd[tag];

	return cmd->write && act->write_end && cmd->pos == act->write_end &&
	       t <= act->write_end_ns && cmd->data_ready <= act->write_end_ns;
}

/* Classify @rq for @act at @t and return its positioning cost (ns): 0 for a hit. */
static u64 hdd_access_cost(const struct kfsim_hdd *hdd, const struct hdd_actuator *act,
			   const struct request *rq, u64 t, enum hdd_access *kind, s64 bound)
{
	sector_t start = blk_rq_pos(rq), end = blk_rq_end_sector(rq);
	bool write = rq_data_dir(rq);

	if (!write && act->seg_hi > act->seg_lo) {
		sector_t hi = hdd_ra_hi(act, t);

		if (start >= hdd_seg_lo(hdd, act, hi) && end <= hi) {
			*kind = HDD_HIT;
			return 0;
		}
		/* the read-ahead reaches its start: keep reading, however long the read is */
		if (act->ra_on && start >= hdd_seg_lo(hdd, act, hi) && start <= act->ra_limit) {
			*kind = HDD_STREAM;
			return hdd_stream_ns(act, t, hi, end);
		}
	}
	if (!write && hdd_seg_find(act, start, end) >= 0) {
		*kind = HDD_HIT;
		return 0;
	}
	*kind = HDD_MISS;
	if (hdd_write_continues(hdd, act, rq->tag, t))
		return 0;
	return hdd_position_cost(hdd, act, hdd->cmd[rq->tag].radius, hdd->cmd[rq->tag].angle, t,
				 write, bound);
}

/*
 * SATF with an age cap: the queued command of @act that can start moving data soonest.
 *
 * This is the simulator's hot loop (every command of the actuator's queue, at every pick), so
 * it evaluates hdd_access_cost() inline with what does not depend on the command hoisted out:
 * the read-ahead end at @t, the head radius, the parameters.  Every per-command expression is
 * the one hdd_access_cost()/hdd_position_cost()/kfsim_hdd_seek_ns() evaluate, in the same
 * order, so the costs and the choice are bit for bit the same.  Every command gets its full cost,
 * with no branch that depends on the data but the final comparison: the commands' chains of
 * sqrt and division are independent and overlap in the CPU, which a data-dependent early exit
 * (a seek already above the best cost) stalls with mispredictions more than it saves.  The
 * rotational wait wraps with a select, not a branch: wait is never -0.0 (angle and phase are
 * both >= +0.0), so adding +0.0 leaves it unchanged.
 *
 * Return: the index in act->order of the command to serve, with its access cost at @t and its
 * kind in *@best_access and *@best_kind; UINT_MAX (serve the oldest, cost not computed) when the
 * oldest command has passed the age cap.
 */
static unsigned int hdd_pick(const struct kfsim_hdd *hdd, const struct hdd_actuator *act, u64 t,
			     u64 *best_access, enum hdd_access *best_kind)
{
	unsigned int best = 0;
	s64 best_cost = INT64_MAX;
	const double aging = hdd->p.satf_aging_ms_per_s;
	const double seek_min = hdd->p.seek_min_ms, seek_coeff = hdd->p.seek_coeff_ms;
	const double settle = hdd->p.write_settle_ms, period = hdd->period_ns;
	const double head = act->radius;
	const u64 t_arrive = t + hdd->overhead_ns;
	const bool has_seg = act->seg_hi > act->seg_lo;
	const sector_t hi = has_seg ? hdd_ra_hi(act, t) : 0;
	const sector_t seg_lo = has_seg ? hdd_seg_lo(hdd, act, hi) : 0;

	if (hdd->p.age_cap_ms > 0 &&
	    (double)(t - hdd->cmd[act->order[0]].io_start) >= hdd->p.age_cap_ms * NSEC_PER_MSEC)
		return UINT_MAX;
	for (unsigned int i = 0; i < act->nr_queued; i++) {
		const struct hdd_cmd *cmd = &hdd->cmd[act->order[i]];
		s64 credit = (s64)((double)(t - cmd->io_start) * aging * 1e-3);
		bool write = cmd->write;
		double stroke, ms, wait, turns;
		enum hdd_access kind = HDD_MISS;
		u64 access, seek, start_cost, ready;
		s64 cost;

		if (!write && has_seg) {
			sector_t end = cmd->end;

			if (cmd->pos >= seg_lo && end <= hi) {
				access = 0;
				start_cost = 0;
				kind = HDD_HIT;
				goto have_cost;
			}
			/*
			 * SATF compares the time until data moves: for a read the read-ahead
			 * reaches, that is when it reaches its start, not its end (comparing the
			 * end with a miss's positioning alone let a later command win and kill
			 * a sequential stream at queue depth > 1).
			 */
			if (act->ra_on && cmd->pos >= seg_lo && cmd->pos <= act->ra_limit) {
				access = hdd_stream_ns(act, t, hi, end);
				start_cost = cmd->pos > hi ? hdd_stream_ns(act, t, hi, cmd->pos) : 0;
				kind = HDD_STREAM;
				goto have_cost;
			}
		}
		if (!write && hdd_seg_find(act, cmd->pos, cmd->end) >= 0) {
			access = 0;
			start_cost = 0;
			kind = HDD_HIT;
			goto have_cost;
		}
		if (write && hdd_write_continues(hdd, act, act->order[i], t)) {
			access = 0;
			start_cost = 0;
			goto have_cost;
		}
		stroke = fabs(cmd->radius - head);
		if (stroke <= 0.0) {
			seek = 0;
		} else {
			ms = seek_min + seek_coeff * sqrt(min(stroke, 1.0));
			if (write)
				ms += settle;
			seek = (u64)(ms * NSEC_PER_MSEC + 0.5);
		}
		/* a write cannot start before its data is in the drive's buffer */
		ready = max(t_arrive, cmd->data_ready + hdd->overhead_ns);
		turns = (double)(ready + seek) / period;
		wait = cmd->angle - (turns - (double)(u64)turns);
		wait += wait < 0 ? 1.0 : 0.0;
		access = (ready - t_arrive) + seek + (u64)(wait * period);
		start_cost = access;
have_cost:
		cost = (s64)start_cost - credit;
		if (cost < best_cost) {
			best = i;
			best_cost = cost;
			*best_access = access;
			*best_kind = kind;
		}
	}
	return best;
}

/* Among the oldest cached writes, destage the one that is quickest to reach. */
#define HDD_DESTAGE_WINDOW 64

static void hdd_start_destage(struct kfsim_hdd *hdd, struct hdd_actuator *act, u64 t)
{
	struct hdd_destage *best = NULL;
	s64 best_cost = INT64_MAX;
	unsigned int seen = 0;
	u64 end;

	for (struct blk_list *pos = act->destage.next;
	     pos != &act->destage && seen++ < HDD_DESTAGE_WINDOW; pos = pos->next) {
		struct hdd_destage *d = blk_list_entry(pos, struct hdd_destage, node);
		s64 cost = (s64)hdd_position_cost(hdd, act, d->radius, d->angle, t, true, best_cost);

		if (cost < best_cost) {
			best = d;
			best_cost = cost;
		}
	}
	blk_list_del_init(&best->node);
	act->nr_destage--;
	end = t + hdd->overhead_ns + (u64)best_cost +
	      (u64)(best->sectors / hdd_spt(hdd, best->radius) * hdd->period_ns);
	act->radius = best->radius;
	act->write_end = 0;
	hdd_stop_readahead(hdd, act, t);
	act->cur_destage = best;
	act->busy_until = end;
	hdd_account_busy(act, t, end);
	act->stats.nr_destages++;
	act->stats.media_bytes += (u64)best->sectors * SECTOR_SIZE;
}

static void hdd_add_completing(struct kfsim_hdd *hdd, struct request *rq);

/*
 * A read served from the segment @act fills asks for more: read ahead up to @limit.  What was
 * read so far is counted (busy time, fill) and the read-ahead restarts from where it got to at
 * @t: data is never read ahead before the limit that asked for it was set.  A read-ahead that
 * had stopped at its old limit resumes when its next sector comes round under the head.
 */
static void hdd_ra_extend(const struct kfsim_hdd *hdd, struct hdd_actuator *act, u64 t,
			  sector_t limit)
{
	sector_t hi;

	if (limit <= act->ra_limit)
		return;
	hi = hdd_ra_hi(act, t);
	if (act->ra_on) {
		hdd_account_busy(act, act->ra_since, hdd_ra_end(act, t));
		hdd_count_fill(act, hi - act->seg_hi);
	}
	if (t >= act->ra_since) {
		if (!act->ra_on || hi >= act->ra_limit) {
			double wait = hdd_angle(hdd, act, hi, hdd_radius(hdd, act, hi)) -
				      hdd_phase(hdd, t);

			if (wait < 0)
				wait += 1.0;
			act->ra_since = t + (u64)(wait * hdd->period_ns);
		} else {
			act->ra_since = t;
		}
		act->seg_hi = hi;
	}
	act->ra_limit = limit;
	act->ra_on = true;
}

/*
 * The time @bytes take to cross the host link, rounded up to the next nanosecond: truncated,
 * each transfer was up to 1 ns short, and back-to-back transfers beat the link's rate (seed
 * 2489 of fio_physics.py: 600.001 MB/s through a 600 MB/s link over 31 ms).
 */
static u64 hdd_link_ns(const struct kfsim_hdd *hdd, unsigned int bytes)
{
	/* less a millionth of a ns: a whole product (512 B at 500 MB/s) stays whole */
	return (u64)ceil(bytes * hdd->link_ns_per_byte - 1e-6);
}

/* A read done by @media_end goes to the host; the actuator keeps reading until the prefetch ends. */
static void hdd_prefetch_start(struct kfsim_hdd *hdd, struct hdd_actuator *act,
			       struct request *rq, u64 t, u64 media_end, sector_t pf_end, u64 pf_ns)
{
	u64 link_start = max(media_end, hdd->link_free);

	hdd->link_free = link_start + hdd_link_ns(hdd, blk_rq_bytes(rq));
	rq->media_start_ns = t;
	rq->media_end_ns = media_end;
	rq->done_ns = hdd->link_free;
	hdd_add_completing(hdd, rq);
	hdd_count_fill(act, pf_end - act->seg_hi);
	act->seg_hi = pf_end;
	act->ra_since = media_end + pf_ns;
	act->ra_on = pf_end < act->ra_limit;
	act->prefetching = true;
	act->busy_until = media_end + pf_ns;
	hdd_account_busy(act, t, act->busy_until);
	act->stats.nr_commands++;
	act->stats.bytes += blk_rq_bytes(rq);
}

static void hdd_start_next(struct kfsim_hdd *hdd, struct hdd_actuator *act, u64 t)
{
	struct request *rq;
	enum hdd_access kind = HDD_MISS;
	unsigned int idx;
	bool have_cost;
	u64 t0 = t, cost = 0, media_end;
	sector_t end;

	if (act->cur || act->cur_destage || act->prefetching)
		return;
	/* destage when idle, or first when the cache is three quarters full or being flushed */
	if (act->nr_destage && (!act->nr_queued || hdd->flushing ||
				hdd->dirty_sectors * 4 > hdd->dirty_limit * 3)) {
		hdd_start_destage(hdd, act, t);
		return;
	}
	if (!act->nr_queued)
		return;
	/* the read-ahead up to now was media time: count it before the next command's */
	if (act->ra_on)
		hdd_account_busy(act, act->ra_since, hdd_ra_end(act, t));
	idx = hdd_pick(hdd, act, t, &cost, &kind);
	have_cost = idx != UINT_MAX;
	idx = have_cost ? idx : 0;
	rq = hdd->cmd[act->order[idx]].rq;
	act->nr_queued--;
	memmove(&act->order[idx], &act->order[idx + 1],
		(act->nr_queued - idx) * sizeof(act->order[0]));
	end = blk_rq_end_sector(rq);
	/* a write starts once its data crossed the link (kfsim_hdd_submit() sent it) */
	if (rq_data_dir(rq))
		t0 = max(t, hdd->cmd[rq->tag].data_ready);
	if (!have_cost || t0 != t)
		cost = hdd_access_cost(hdd, act, rq, t0, &kind, INT64_MAX);
	media_end = t0 + cost +
		    (hdd_write_continues(hdd, act, rq->tag, t0) ? 0 : hdd->overhead_ns);
	rq->cache_hit = kind != HDD_MISS;
	if (kind == HDD_MISS) {
		double r = hdd->cmd[rq->tag].radius;
		bool stream = !rq_data_dir(rq) && hdd_seg_continues(act, blk_rq_pos(rq));

		/* positioning the head ends the read-ahead, which stays as a kept segment */
		hdd_stop_readahead(hdd, act, t);
		media_end += (u64)(blk_rq_sectors(rq) / hdd_spt(hdd, r) * hdd->period_ns);
		act->stats.media_bytes += blk_rq_bytes(rq);
		act->radius = hdd_radius(hdd, act, end - 1);
		act->write_end = rq_data_dir(rq) ? end : 0;
		act->write_end_ns = media_end;
		if (!rq_data_dir(rq)) {
			act->seg_lo = blk_rq_pos(rq);
			act->seg_hi = end;
			act->read_end = end;
			act->ra_since = media_end;
			act->ra_rate = hdd_spt(hdd, act->radius) / hdd->period_ns;
			act->ra_limit = min(end + hdd->readahead_sectors, act->range_end);
			act->ra_on = hdd->readahead_sectors > 0;
		}
		/*
		 * A read continuing a kept segment is a sequential stream the head had to leave
		 * (another stream on the same actuator): read a minimum prefetch before serving
		 * anything else (SCSI caching mode page MINIMUM PRE-FETCH, applied adaptively to
		 * detected streams), or interleaved streams would each pay a full access per
		 * request.
		 */
		if (stream && act->ra_on) {
			sector_t pf_end = min(end + hdd->readahead_sectors / 2, act->range_end);
			u64 pf_ns = (u64)((double)(pf_end - end) / act->ra_rate);

			if (pf_ns) {
				hdd_prefetch_start(hdd, act, rq, t, media_end, pf_end, pf_ns);
				return;
			}
		}
	} else {
		sector_t hi = hdd_ra_hi(act, t0);
		bool in_active = act->seg_hi > act->seg_lo &&
				 blk_rq_pos(rq) >= hdd_seg_lo(hdd, act, hi) &&
				 (end <= hi || (act->ra_on && blk_rq_pos(rq) <= act->ra_limit));
		int seg = in_active ? -1 : hdd_seg_find(act, blk_rq_pos(rq), end);

		if (seg >= 0)
			act->segs[seg].used = t + 1;
		act->stats.nr_cache_hits++;
		act->stats.cache_bytes += blk_rq_bytes(rq);
		/*
		 * A sequential reader keeps the read-ahead going (a kept segment does not grow);
		 * the read then waits for the read-ahead as it is from now on.
		 */
		if (in_active && hdd->readahead_sectors) {
			hdd_ra_extend(hdd, act, t, min(end + hdd->readahead_sectors, act->range_end));
			cost = hdd_access_cost(hdd, act, rq, t, &kind, INT64_MAX);
			media_end = t + hdd->overhead_ns + cost;
		}
	}
	rq->media_start_ns = t;
	rq->media_end_ns = media_end;
	act->cur = rq;
	act->busy_until = media_end;
	hdd_account_busy(act, t, media_end);
	act->stats.nr_commands++;
	act->stats.bytes += blk_rq_bytes(rq);
}

/* Write cache on and room in it: done once the data crossed the link; the media comes later. */
static void hdd_cache_write(struct kfsim_hdd *hdd, struct hdd_actuator *act, struct request *rq,
			    u64 now, bool data_in)
{
	struct hdd_destage *d = hdd->free_destage[--hdd->nr_free_destage];
	u64 link_start = now, data_ready = hdd->cmd[rq->tag].data_ready;

	if (!data_in) {
		link_start = max(now, hdd->link_free);
		hdd->link_free = link_start + hdd_link_ns(hdd, blk_rq_bytes(rq));
		data_ready = hdd->link_free;
	}
	rq->media_start_ns = link_start;
	rq->media_end_ns = max(now, data_ready) + hdd->overhead_ns;
	rq->done_ns = rq->media_end_ns;
	rq->cache_hit = true;
	d->sector = blk_rq_pos(rq);
	d->sectors = blk_rq_sectors(rq);
	d->radius = hdd->cmd[rq->tag].radius;
	d->angle = hdd->cmd[rq->tag].angle;
	blk_list_add_tail(&d->node, &act->destage);
	act->nr_destage++;
	hdd->dirty_sectors += d->sectors;
	act->stats.bytes += blk_rq_bytes(rq);
	act->stats.cached_write_bytes += blk_rq_bytes(rq);
	hdd_add_completing(hdd, rq);
}

/* Whether the write cache has room for @sectors more. */
static bool hdd_cache_has_room(const struct kfsim_hdd *hdd, unsigned int sectors)
{
	return hdd->p.write_cache && hdd->nr_free_destage &&
	       hdd->dirty_sectors + sectors <= hdd->dirty_limit;
}

/*
 * A destage made room in the write cache: queued writes (whose data is in the buffer already)
 * go into it, oldest first, and complete; they would otherwise wait behind the destages that
 * run first while the cache is three quarters full.  So a full cache accepts writes at the
 * rate the media drains it.
 */
static void hdd_admit_writes(struct kfsim_hdd *hdd, u64 t)
{
	for (unsigned int j = 0; j < hdd->p.nr_actuators; j++) {
		struct hdd_actuator *act = &hdd->act[j];

		for (unsigned int i = 0; i < act->nr_queued;) {
			const struct hdd_cmd *cmd = &hdd->cmd[act->order[i]];

			if (!cmd->write || !hdd_cache_has_room(hdd, (unsigned int)(cmd->end - cmd->pos))) {
				i++;
				continue;
			}
			act->nr_queued--;
			memmove(&act->order[i], &act->order[i + 1],
				(act->nr_queued - i) * sizeof(act->order[0]));
			hdd_cache_write(hdd, act, cmd->rq, t, true);
		}
		hdd_start_next(hdd, act, t);
	}
}

int kfsim_hdd_submit(struct kfsim_hdd *hdd, struct request *rq, u64 now)
{
	struct hdd_actuator *act;
	sector_t first;

	if (now < hdd->now)
		return -EINVAL;
	if (!blk_rq_bytes(rq) || blk_rq_bytes(rq) % SECTOR_SIZE ||
	    blk_rq_pos(rq) >= hdd->p.capacity ||
	    blk_rq_sectors(rq) > hdd->p.capacity - blk_rq_pos(rq))
		return -EINVAL;
	if (hdd->tags_used >= hdd->p.ncq_depth)
		return -EBUSY;
	hdd->now = now;
	rq->tag = hdd->free_tags[hdd->p.ncq_depth - 1 - hdd->tags_used];
	hdd->tags_used++;
	rq->actuator = kfsim_hdd_actuator_of(hdd, blk_rq_end_sector(rq) - 1);
	rq->io_start_time_ns = now;
	act = &hdd->act[rq->actuator];
	/*
	 * A request across the boundary of two ranges belongs to the actuator of its last sector
	 * (as bfq_actuator_index() decides); that actuator's head can only reach its own range, so
	 * it positions at the range's first sector.  Taking the request's own first sector, below
	 * the range, made the radius NaN: a cost no comparison orders, that SATF picked before
	 * everything (and x86 and WebAssembly convert differently).
	 */
	first = max(blk_rq_pos(rq), act->range_start);
	hdd->cmd[rq->tag].radius = hdd_radius(hdd, act, first);
	hdd->cmd[rq->tag].angle = hdd_angle(hdd, act, first, hdd->cmd[rq->tag].radius);
	/* written data makes what the cache read of it stale */
	if (rq_data_dir(rq))
		hdd_invalidate(hdd, act, blk_rq_pos(rq), blk_rq_end_sector(rq), now);
	if (rq_data_dir(rq) && hdd_cache_has_room(hdd, blk_rq_sectors(rq))) {
		hdd_cache_write(hdd, act, rq, now, false);
		hdd_start_next(hdd, act, now);
		return 0;
	}
	hdd->cmd[rq->tag].data_ready = 0;
	if (rq_data_dir(rq)) {
		/*
		 * NCQ: the drive asks for a queued write's data as soon as the link is free, into
		 * its buffer, so that the media can write it with no gap after the command before;
		 * the write completes when it is on the media (write cache off or full).
		 */
		u64 link_start = max(now, hdd->link_free);

		hdd->link_free = link_start + hdd_link_ns(hdd, blk_rq_bytes(rq));
		hdd->cmd[rq->tag].data_ready = hdd->link_free;
	}
	hdd->cmd[rq->tag].io_start = now;
	hdd->cmd[rq->tag].pos = blk_rq_pos(rq);
	hdd->cmd[rq->tag].end = blk_rq_end_sector(rq);
	hdd->cmd[rq->tag].rq = rq;
	hdd->cmd[rq->tag].write = rq_data_dir(rq);
	act->order[act->nr_queued++] = (u16)rq->tag;
	hdd_start_next(hdd, act, now);
	return 0;
}

bool kfsim_hdd_flush(struct kfsim_hdd *hdd, u64 now)
{
	if (!hdd->dirty_sectors)
		return true;
	hdd->flushing = true;
	if (now > hdd->now)
		hdd->now = now;
	for (unsigned int j = 0; j < hdd->p.nr_actuators; j++)
		hdd_start_next(hdd, &hdd->act[j], hdd->now);
	return false;
}

bool kfsim_hdd_flush_done(struct kfsim_hdd *hdd)
{
	if (hdd->dirty_sectors)
		return false;
	hdd->flushing = false;
	return true;
}

bool kfsim_hdd_can_queue(const struct kfsim_hdd *hdd)
{
	return hdd->tags_used < hdd->p.ncq_depth;
}

unsigned int kfsim_hdd_in_flight(const struct kfsim_hdd *hdd)
{
	return hdd->tags_used;
}

static struct hdd_actuator *hdd_first_busy(const struct kfsim_hdd *hdd)
{
	const struct hdd_actuator *first = NULL;

	for (unsigned int j = 0; j < hdd->p.nr_actuators; j++) {
		const struct hdd_actuator *act = &hdd->act[j];

		if ((act->cur || act->cur_destage || act->prefetching) &&
		    (!first || act->busy_until < first->busy_until))
			first = act;
	}
	return (struct hdd_actuator *)first;
}

u64 kfsim_hdd_now(const struct kfsim_hdd *hdd)
{
	return hdd->now;
}

u64 kfsim_hdd_next_event(const struct kfsim_hdd *hdd)
{
	const struct hdd_actuator *act = hdd_first_busy(hdd);
	u64 next = act ? act->busy_until : U64_MAX;

	if (hdd->nr_completing)
		next = min(next, hdd->completing[hdd->nr_completing - 1]->done_ns);
	return next;
}

static void hdd_add_completing(struct kfsim_hdd *hdd, struct request *rq)
{
	unsigned int j = hdd->nr_completing;

	while (j > 0 && hdd->completing[j - 1]->done_ns <= rq->done_ns) {
		hdd->completing[j] = hdd->completing[j - 1];
		j--;
	}
	hdd->completing[j] = rq;
	hdd->nr_completing++;
}

static void hdd_finish_media(struct kfsim_hdd *hdd, struct hdd_actuator *act)
{
	struct request *rq = act->cur;
	u64 t = act->busy_until;

	if (act->prefetching) {
		act->prefetching = false;
		hdd_start_next(hdd, act, t);
		return;
	}
	if (act->cur_destage) {
		hdd->dirty_sectors -= act->cur_destage->sectors;
		hdd->free_destage[hdd->nr_free_destage++] = act->cur_destage;
		act->cur_destage = NULL;
		hdd_admit_writes(hdd, t);
		return;
	}
	act->cur = NULL;
	if (rq_data_dir(rq)) {
		rq->done_ns = t;
	} else {
		u64 link_start = max(t, hdd->link_free);

		hdd->link_free = link_start + hdd_link_ns(hdd, blk_rq_bytes(rq));
		rq->done_ns = hdd->link_free;
	}
	hdd_add_completing(hdd, rq);
	hdd_start_next(hdd, act, t);
}

struct request *kfsim_hdd_step(struct kfsim_hdd *hdd, u64 now)
{
	if (now > hdd->now)
		hdd->now = now;
	for (;;) {
		struct hdd_actuator *act = hdd_first_busy(hdd);
		struct request *done = hdd->nr_completing ?
				       hdd->completing[hdd->nr_completing - 1] : NULL;

		if (done && done->done_ns <= now && (!act || done->done_ns <= act->busy_until)) {
			hdd->nr_completing--;
			hdd->tags_used--;
			hdd->free_tags[hdd->p.ncq_depth - 1 - hdd->tags_used] = done->tag;
			done->tag = -1;
			return done;
		}
		if (!act || act->busy_until > now)
			return NULL;
		hdd_finish_media(hdd, act);
	}
}

struct kfsim_hdd_actuator_stats kfsim_hdd_actuator_stats(const struct kfsim_hdd *hdd,
							 unsigned int idx)
{
	struct kfsim_hdd_actuator_stats st;
	const struct hdd_actuator *act;

	if (idx >= hdd->p.nr_actuators)
		return (struct kfsim_hdd_actuator_stats){ 0 };
	act = &hdd->act[idx];
	st = act->stats;
	/* the read-ahead still filling counts up to now */
	if (act->ra_on) {
		u64 from = max(act->ra_since, act->busy_mark), to = hdd_ra_end(act, hdd->now);

		if (to > from)
			st.busy_ns += to - from;
		st.fill_bytes += (u64)(hdd_ra_hi(act, hdd->now) - act->seg_hi) * SECTOR_SIZE;
		st.media_bytes += (u64)(hdd_ra_hi(act, hdd->now) - act->seg_hi) * SECTOR_SIZE;
	}
	return st;
}
