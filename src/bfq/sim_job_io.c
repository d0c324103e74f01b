// SPDX-License-Identifier: MIT
/*
 * What a fio-style job issues next: direction, block size and offset (fio's io_u.c
 * get_next_offset()/get_next_buflen() and the ddir choice of rwmixread).
 *
 * Invariants:
 * - every I/O lies inside the job's region and is a multiple of 512 bytes;
 * - sequential positions are kept per direction, as fio keeps f->last_pos[ddir], and wrap to
 *   the region's start at its end;
 * - a bsrange size is a multiple of the range's minimum (fio's bs_unaligned=0);
 * - the draws come from the caller's struct rnd_state only, so a seed reproduces a run.
 *
 * - a mixed job's directions follow fio 3.33's get_rw_ddir() (io_u.c) with fio's own
 *   generator and seed for them (kfsim_bfq_rwmix_next()): the same job file gives the same
 *   sequence of directions as fio's run, before rate_ddir() (blk_sim.c) moves one; so do a
 *   job file's drawn block sizes (kfsim_bfq_job_fio_bs(), get_next_buflen()).
 *
 * Not modelled (documented in docs/bfq.md): fio's random map (with or without norandommap,
 * offsets are drawn with replacement: over a run shorter than one pass of the region the two
 * differ only by the blocks drawn twice).
 */
#include <math.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/random.h>
#include "sim_jobs.h"

static u32 draw_below(struct rnd_state *rnd, u64 ceil)
{
	if (ceil <= 1)
		return 0;
	if (ceil <= U32_MAX)
		return kfsim_prandom_below(rnd, (u32)ceil);
	return (u32)(kfsim_prandom_u64(rnd) % ceil);
}

static u64 draw_below64(struct rnd_state *rnd, u64 ceil)
{
	if (ceil <= U32_MAX)
		return draw_below(rnd, ceil);
	return kfsim_prandom_u64(rnd) % ceil;
}

/* A uniform double in [0, 1). */
static double draw_unit(struct rnd_state *rnd)
{
	return (double)prandom_u32_state(rnd) / 4294967296.0;
}

bool kfsim_bfq_job_is_mixed(const struct kfsim_bfq_job *job)
{
	return job->rw == KFSIM_RW_READWRITE || job->rw == KFSIM_RW_RANDRW;
}

bool kfsim_bfq_job_is_random(const struct kfsim_bfq_job *job)
{
	return job->rw == KFSIM_RW_RANDREAD || job->rw == KFSIM_RW_RANDWRITE ||
	       job->rw == KFSIM_RW_RANDRW || job->rw == KFSIM_RW_RANDTRIM ||
	       job->rw == KFSIM_RW_RANDTRIMWRITE;
}

/*
 * fio 3.33's 32-bit generator (lib/rand.c, rand.h): L'Ecuyer's maximally equidistributed
 * combined Tausworthe generator (taus88).  __init_rand32() seeds its three words from the
 * seed with an LCG (x * 69069 ^ seed), lifts each to its minimum (1, 7, 15: x < m is x + m)
 * and cranks the generator six times.
 */
static u32 fio_taus_step(u32 s, unsigned int a, unsigned int b, u32 c, unsigned int d)
{
	return ((s & c) << d) ^ (((s << a) ^ s) >> b);
}

u32 kfsim_fio_rand32(struct kfsim_fio_rand32 *st)
{
	st->s1 = fio_taus_step(st->s1, 13, 19, 4294967294U, 12);
	st->s2 = fio_taus_step(st->s2, 2, 25, 4294967288U, 4);
	st->s3 = fio_taus_step(st->s3, 3, 11, 4294967280U, 17);
	return st->s1 ^ st->s2 ^ st->s3;
}

void kfsim_fio_rand32_seed(struct kfsim_fio_rand32 *st, u32 seed)
{
	/* fio writes the start as (2^31) + (2^17) + (2^7): in C '^' is XOR, so 29 + 19 + 5 */
	u32 x = 53;

	x = x * 69069 ^ seed;
	st->s1 = x < 1 ? x + 1 : x;
	x = st->s1 * 69069 ^ seed;
	st->s2 = x < 7 ? x + 7 : x;
	x = st->s2 * 69069 ^ seed;
	st->s3 = x < 15 ? x + 15 : x;
	for (int i = 0; i < 6; i++)
		kfsim_fio_rand32(st);
}

/* rand_between(state, @lo, @hi) of a 32-bit state: lo + (int)((hi - lo + 1) * r / 2^32) */
static u32 fio_rand_between(struct kfsim_fio_rand32 *st, u32 lo, u32 hi)
{
	u32 r = kfsim_fio_rand32(st);

	return lo + (u32)(int)((double)(hi - lo + 1) * ((double)r / 4294967296.0));
}

/*
 * fio 3.33's seed @off of the job numbered @thread_number (init.c setup_random_seeds(), with
 * randrepeat=1 or randseed= given): the seed is multiplied by 0x9e370001 four times, then
 * once more after each of the FIO_RAND_NR_OFFS seeds, seed i being seed * thread_number + i
 * (all in 64 bits); allrandrepeat=1 replaces them by FIO_RANDSEED * thread_number + i
 * (td_fill_rand_seeds()).  A 32-bit state takes the low 32 bits.
 */
u32 kfsim_fio_rand_seed(u64 randseed, bool allrandrepeat, unsigned int thread_number,
			unsigned int off)
{
	u64 seed = randseed;

	if (allrandrepeat)
		return (u32)(0xb1899bedULL * thread_number + off);
	for (int i = 0; i < 4; i++)
		seed *= 0x9e370001ULL;
	for (unsigned int i = 0; i < off; i++)
		seed *= 0x9e370001ULL;
	return (u32)(seed * thread_number + off);
}

void kfsim_bfq_rwmix_init(struct kfsim_bfq_rwmix *mix, u32 seed)
{
	memset(mix, 0, sizeof(*mix));
	kfsim_fio_rand32_seed(&mix->state, seed);
}

/*
 * The direction of a mixed job's next I/O before the rate caps have their say, as fio
 * 3.33's get_rw_ddir() (io_u.c) takes it: once the direction in use has issued
 * rwmix_issues I/Os in all (io_issues counts every I/O issued, never per cycle), a number
 * in 1..100 from the job's rwmix state picks the next (a read up to rwmixread); a change of
 * direction sets rwmix_issues (set_rwmix_bytes()) to the I/Os the old direction issued so
 * far times the new direction's percent, over 100: the new direction then keeps going
 * until its own count reaches that.  A cycle of one direction is so as long as the
 * other's history makes it, not one I/O a draw.  @mix->issues[] are the caller's (fio's
 * io_issues, counted at issue).
 */
bool kfsim_bfq_rwmix_next(const struct kfsim_bfq_job *job, struct kfsim_bfq_rwmix *mix)
{
	unsigned int perc[2] = { job->rwmixread, 100 - job->rwmixread };
	bool write;

	if (!kfsim_bfq_job_is_mixed(job))
		return job->rw == KFSIM_RW_WRITE || job->rw == KFSIM_RW_RANDWRITE;
	if (mix->issues[mix->write] >= mix->rwmix_issues) {
		write = fio_rand_between(&mix->state, 1, 100) > job->rwmixread;
		if (write != mix->write)
			mix->rwmix_issues = mix->issues[mix->write] * perc[write] / 100;
		mix->write = write;
	}
	return mix->write;
}

unsigned int kfsim_bfq_job_min_bs(const struct kfsim_bfq_job *job, bool write)
{
	unsigned int nr = job->nr_bssplit[write], min_bs;

	if (nr) {
		min_bs = job->bssplit[write][0].bs;
		for (unsigned int i = 1; i < nr; i++)
			min_bs = min(min_bs, job->bssplit[write][i].bs);
		return min_bs;
	}
	return write && job->bs_write ? job->bs_write : job->bs;
}

u64 kfsim_bfq_job_rate_bps(const struct kfsim_bfq_job *job, bool write)
{
	u64 rate = write && job->rate_write ? job->rate_write : job->rate;
	u64 iops = write && job->rate_iops_write ? job->rate_iops_write : job->rate_iops;
	u64 min_bs = kfsim_bfq_job_min_bs(job, write);

	if (rate && rate != U64_MAX)
		return rate;
	/* fio's u64 product wraps; a cap past 2^64 bytes a second caps nothing anyway */
	if (!iops || iops == U64_MAX || iops > U64_MAX / max(min_bs, 1ULL))
		return 0;
	return iops * min_bs;
}

unsigned int kfsim_bfq_job_choose_bs(const struct kfsim_bfq_job *job, bool write,
				     struct rnd_state *rnd)
{
	unsigned int nr = job->nr_bssplit[write];
	unsigned int bs = write && job->bs_write ? job->bs_write : job->bs;
	unsigned int bs_max = write ? job->bs_write_max : job->bs_max;

	if (nr) {
		/* fio: a draw in [0, 100) walks the list until the running percent passes it */
		unsigned int perc = draw_below(rnd, 100), sum = 0;

		for (unsigned int i = 0; i < nr; i++) {
			sum += job->bssplit[write][i].perc;
			if (perc < sum)
				return job->bssplit[write][i].bs;
		}
		return job->bssplit[write][nr - 1].bs;
	}
	if (bs_max > bs)
		return bs * (1 + draw_below(rnd, bs_max / bs));
	return bs;
}

/*
 * A block size as fio 3.33's get_next_buflen() (io_u.c) draws it from the direction's
 * bsrange_state @st (seeded from rand_seeds[FIO_RAND_BS_OFF], [FIO_RAND_BS1_OFF] for
 * writes): one size, no draw; a range, min + max x r / 2^32, so not uniform (bsrange=4k-8k
 * is 8k three times in four); a bssplit, its entries in fio's order (qsort() by percent,
 * equal ones as given) until r / (the percents so far) <= 2^32 / 100; then cut to a
 * multiple of the smallest size (a mask when it is a power of two) and to the largest;
 * drawn again until it fits in the @room bytes left before the region's end (io_u_fits():
 * a sequential job's; a random job's offset is drawn after the size here, so U64_MAX).
 */
unsigned int kfsim_bfq_job_fio_bs(const struct kfsim_bfq_job *job, bool write, u64 room,
				  struct kfsim_fio_rand32 *st)
{
	unsigned int nr = job->nr_bssplit[write], order[KFSIM_BFQ_MAX_BSSPLIT];
	u64 minbs = kfsim_bfq_job_min_bs(job, write), maxbs, buflen, r;
	u64 fits = U64_MAX;	/* the smallest size a draw can give */

	if (nr) {
		maxbs = 0;
		for (unsigned int i = 0; i < nr; i++) {
			unsigned int k = i;

			maxbs = max(maxbs, (u64)job->bssplit[write][i].bs);
			if (job->bssplit[write][i].perc)
				fits = min(fits, (u64)job->bssplit[write][i].bs);
			/* an insertion sort by percent: stable, as glibc's qsort() merges */
			while (k && job->bssplit[write][order[k - 1]].perc >
				    job->bssplit[write][i].perc) {
				order[k] = order[k - 1];
				k--;
			}
			order[k] = i;
		}
	} else {
		maxbs = max((u64)minbs, (u64)(write ? job->bs_write_max : job->bs_max));
	}
	/*
	 * fio draws for ever when only an entry of 0 % would fit (its loop skips it): here
	 * the smallest size is taken, without a draw
	 */
	if (minbs == maxbs || !minbs || room < minbs || (fits != U64_MAX && room < fits))
		return (unsigned int)minbs;
again:
	r = kfsim_fio_rand32(st);
	if (!nr) {
		buflen = minbs + (u64)((double)maxbs * ((double)r / 4294967296.0));
	} else {
		u64 perc = 0;

		buflen = minbs;
		for (unsigned int i = 0; i < nr; i++) {
			const struct kfsim_bfq_bssplit *e = &job->bssplit[write][order[i]];

			if (!e->perc)
				continue;
			buflen = e->bs;
			perc += e->perc;
			if (r / perc <= 4294967295ULL / 100)
				break;
		}
	}
	if (!(minbs & (minbs - 1)))
		buflen &= ~(minbs - 1);
	else
		buflen -= buflen % minbs;
	buflen = min(buflen, maxbs);
	if (buflen > room)
		goto again;	/* ends: the smallest size fits */
	return (unsigned int)buflen;
}

/* A block index in [0, @nr_blocks) under the job's distribution. */
static u64 job_random_block(const struct kfsim_bfq_job *job, u64 nr_blocks, struct rnd_state *rnd)
{
	double u, x;
	u64 block;

	if (job->dist == KFSIM_DIST_RANDOM)
		return draw_below64(rnd, nr_blocks);	/* one draw, as before distributions */
	u = draw_unit(rnd);
	switch (job->dist) {
	case KFSIM_DIST_ZIPF:
		/* inverse of the continuous zipf CDF: hot blocks first, then scattered */
		x = job->dist_param == 1.0 ? pow((double)nr_blocks, u) - 1 :
		    pow(u * (pow((double)nr_blocks, 1 - job->dist_param) - 1) + 1,
			1 / (1 - job->dist_param)) - 1;
		break;
	case KFSIM_DIST_PARETO:
		/* fio's pareto: n * u^(log(h)/log(1-h)) */
		x = (double)nr_blocks * pow(u, log(job->dist_param) / log(1 - job->dist_param));
		break;
	case KFSIM_DIST_NORMAL: {
		/* Box-Muller around the middle, deviation dist_param percent of the region */
		double u2 = draw_unit(rnd), dev = job->dist_param / 100.0 * (double)nr_blocks;

		x = (double)nr_blocks / 2 + dev * sqrt(-2 * log(1 - u)) * cos(2 * M_PI * u2);
		break;
	}
	case KFSIM_DIST_ZONED: {
		unsigned int perc = draw_below(rnd, 100), sum = 0, start = 0, i;

		for (i = 0; i + 1 < job->nr_zones; i++) {
			sum += job->zones[i].perc;
			if (perc < sum)
				break;
			start += job->zones[i].bs;
		}
		/* zones[].bs holds the zone's size in percent of the region */
		x = ((double)start + draw_unit(rnd) * job->zones[i].bs) / 100.0 *
		    (double)nr_blocks;
		return min((u64)x, nr_blocks - 1);
	}
	default:
		return draw_below64(rnd, nr_blocks);
	}
	if (!(x >= 0))
		x = 0;
	block = min((u64)x, nr_blocks - 1);
	if (job->dist == KFSIM_DIST_NORMAL)
		return block;
	/* fio hashes zipf and pareto ranks over the region, so hot blocks are not adjacent */
	return (block * 0x9e3779b97f4a7c15ULL) % nr_blocks;
}

/*
 * rw=randread:N (fio 3.33 io_u.c get_next_offset()): the count of I/Os left, one count for
 * both directions, is taken down at each I/O and, reaching 0, starts again at N; only then
 * is a new random offset drawn (the first I/O too: init.c starts the count at 1), the I/Os in
 * between continue sequentially (rw_sequencer=sequential, the default) or start where the
 * direction's last I/O started (identical: get_next_block(); none yet, the region's start).
 */
static bool job_seq_nr_hit(const struct kfsim_bfq_job *job, unsigned int *seq_left)
{
	if (job->ddir_seq_nr <= 1)
		return true;
	if (--*seq_left)
		return false;
	*seq_left = job->ddir_seq_nr;
	return true;
}

static sector_t job_choose_sector(const struct kfsim_bfq_job *job, sector_t start,
				  sector_t nr_sectors, sector_t *next_pos, const sector_t *last_start,
				  unsigned int *seq_left, unsigned int bytes, struct rnd_state *rnd)
{
	unsigned int sectors = bytes >> SECTOR_SHIFT;
	unsigned int align = (job->blockalign ? job->blockalign :
			      kfsim_bfq_job_min_bs(job, false)) >> SECTOR_SHIFT;
	bool random = kfsim_bfq_job_is_random(job);
	sector_t pos;

	if (random && !job_seq_nr_hit(job, seq_left)) {
		if (job->rw_seq_identical) {
			/* the fio reader refuses block sizes that vary: the last start fits */
			pos = *last_start == KFSIM_BFQ_NO_LAST_START ? start : *last_start;
			*next_pos = pos + sectors;
			return pos;
		}
		random = false;	/* rw=randread:N: sequential until the Nth I/O */
	} else if (random && job->perc_seq && draw_below(rnd, 100) < job->perc_seq)
		random = false;	/* percentage_random: this one continues sequentially */
	if (random) {
		u64 nr_blocks = (nr_sectors - sectors) / align + 1;

		pos = start + job_random_block(job, nr_blocks, rnd) * align;
		*next_pos = pos + sectors;
		return pos;
	}
	if (*next_pos < start || *next_pos >= start + nr_sectors ||
	    *next_pos + sectors > start + nr_sectors + (job->seq_overrun >> SECTOR_SHIFT))
		/*
		 * wrap around, as fio does at the end of size (a block that starts inside the
		 * region may end in @seq_overrun); backwards from the end
		 */
		*next_pos = job->seq_skip < 0 ? start + (nr_sectors - sectors) / align * align
					      : start;
	pos = *next_pos;
	/* rw=read:N skips N bytes after each I/O; a negative N walks backwards */
	if (job->seq_skip < 0 && (u64)(-job->seq_skip >> SECTOR_SHIFT) > pos - start + sectors)
		*next_pos = start + nr_sectors;	/* out of the region: wraps at the next I/O */
	else
		*next_pos = pos + sectors + (sector_t)(job->seq_skip / SECTOR_SIZE);
	return pos;
}

sector_t kfsim_bfq_job_choose_sector(const struct kfsim_bfq_job *job, sector_t start,
				     sector_t nr_sectors, sector_t *next_pos, sector_t *last_start,
				     unsigned int *seq_left, unsigned int bytes,
				     struct rnd_state *rnd)
{
	sector_t pos = job_choose_sector(job, start, nr_sectors, next_pos, last_start, seq_left,
					 bytes, rnd);

	*last_start = pos;
	return pos;
}

/*
 * libaio on a buffered file is synchronous too: io_submit() completes buffered I/O before it
 * returns (fio(1): "libaio ... only supports async I/O with direct=1").
 */
unsigned int kfsim_bfq_job_depth(const struct kfsim_bfq_job *job)
{
	if (job->engine == KFSIM_ENGINE_SYNC)
		return 1;
	if (job->buffered && !strcmp(job->ioengine, "libaio"))
		return 1;
	return job->iodepth;
}
