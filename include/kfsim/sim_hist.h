/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_SIM_HIST_H
#define KFSIM_SIM_HIST_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The latency histogram of kfsim's simulators (the block-layer simulator's per-process latency,
 * the PLCA bus's per-node frame latency): log-linear, the HdrHistogram idea.  Values below 128
 * have a bucket each; above, every power of two is cut into 64 buckets, so a bucket is at most
 * 1/64 as wide as the values in it, in constant memory (KFSIM_HIST_BUCKETS counters) whatever the
 * run's length.
 *
 * The quantile convention, one for every simulator:
 * - a quantile @q is a fraction in [0, 1] (0.99 is the 99th percentile); outside is clamped;
 * - the sample it names is the nearest-rank one: the ceil(@q * count)-th smallest, at least the
 *   first;
 * - the value reported is the top (largest value) of that sample's bucket, capped at the largest
 *   sample seen: never below the truth, at most 1/64 (1.6 %) above it, exact below 128 and for
 *   @q = 1 (the maximum).
 * An empty histogram reports 0.
 */
#include <kfsim/types.h>

/** KFSIM_HIST_SUB_BITS - log2 of the buckets per power of two. */
#define KFSIM_HIST_SUB_BITS 6
/** KFSIM_HIST_LINEAR - values below this have a bucket each. */
#define KFSIM_HIST_LINEAR 128
/** KFSIM_HIST_BUCKETS - buckets of a histogram (u64 values up to UINT64_MAX). */
#define KFSIM_HIST_BUCKETS (KFSIM_HIST_LINEAR + (64 - 7) * (1 << KFSIM_HIST_SUB_BITS))

/**
 * struct kfsim_hist - a log-linear histogram
 * @count: samples
 * @sum: their sum (for the mean)
 * @max: the largest
 * @bucket: KFSIM_HIST_BUCKETS counters (kfsim_hist_init())
 */
struct kfsim_hist {
	u64 count;
	u64 sum;
	u64 max;
	u32 *bucket;
};

/** kfsim_hist_init() - an empty histogram; 0 or -ENOMEM. */
int kfsim_hist_init(struct kfsim_hist *hist);
/** kfsim_hist_reset() - forget every sample of @hist (initialised), keeping its buckets. */
void kfsim_hist_reset(struct kfsim_hist *hist);
/** kfsim_hist_free() - free @hist's buckets (safe on a zeroed or freed histogram). */
void kfsim_hist_free(struct kfsim_hist *hist);
/** kfsim_hist_bucket_top() - the largest value of bucket @index (< KFSIM_HIST_BUCKETS). */
u64 kfsim_hist_bucket_top(u32 index);
/** kfsim_hist_rank() - the 1-based rank quantile @q names among @count samples (0 if none). */
u64 kfsim_hist_rank(u64 count, double q);
/** kfsim_hist_quantile() - quantile @q of @hist, by the convention above. */
u64 kfsim_hist_quantile(const struct kfsim_hist *hist, double q);

/** kfsim_hist_bucket() - the bucket holding @value. */
static inline u32 kfsim_hist_bucket(u64 value)
{
	u32 msb;

	if (value < KFSIM_HIST_LINEAR)
		return (u32)value;
	msb = 63 - (u32)__builtin_clzll(value); /* >= 7 */
	return KFSIM_HIST_LINEAR + (msb - 7) * (1u << KFSIM_HIST_SUB_BITS) +
	       (u32)((value >> (msb - KFSIM_HIST_SUB_BITS)) & ((1u << KFSIM_HIST_SUB_BITS) - 1));
}

/** kfsim_hist_add() - count one sample @value. */
static inline void kfsim_hist_add(struct kfsim_hist *hist, u64 value)
{
	hist->bucket[kfsim_hist_bucket(value)]++;
	hist->count++;
	hist->sum += value;
	if (value > hist->max)
		hist->max = value;
}

/** kfsim_hist_mean() - the mean sample, 0 when empty. */
static inline double kfsim_hist_mean(const struct kfsim_hist *hist)
{
	return hist->count ? (double)hist->sum / (double)hist->count : 0;
}

#pragma GCC visibility pop
#endif /* KFSIM_SIM_HIST_H */
