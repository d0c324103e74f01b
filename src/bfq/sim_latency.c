// SPDX-License-Identifier: MIT
/* Log-linear latency histogram: bucket i covers a range 1/64 as wide as its start. */
#include <kfsim/kernel.h>
#include "sim_latency.h"

static unsigned int lat_bucket(u64 ns)
{
	unsigned int msb;

	if (ns < LAT_LINEAR)
		return (unsigned int)ns;
	msb = 63 - (unsigned int)__builtin_clzll(ns);	/* >= 7 */
	return LAT_LINEAR + (msb - 7) * (1U << LAT_SUB_BITS) +
	       (unsigned int)((ns >> (msb - LAT_SUB_BITS)) & ((1U << LAT_SUB_BITS) - 1));
}

/* Middle of bucket @idx. */
static u64 lat_bucket_value(unsigned int idx)
{
	unsigned int msb, sub;
	u64 lo, width;

	if (idx < LAT_LINEAR)
		return idx;
	msb = (idx - LAT_LINEAR) / (1U << LAT_SUB_BITS) + 7;
	sub = (idx - LAT_LINEAR) % (1U << LAT_SUB_BITS);
	width = 1ULL << (msb - LAT_SUB_BITS);
	lo = (1ULL << msb) + sub * width;
	return lo + width / 2;
}

void lat_hist_add(struct lat_hist *hist, u64 ns)
{
	hist->count++;
	hist->sum_ns += ns;
	if (ns > hist->max_ns)
		hist->max_ns = ns;
	hist->bucket[lat_bucket(ns)]++;
}

u64 lat_hist_percentile(const struct lat_hist *hist, double pct)
{
	u64 rank, seen = 0;

	if (!hist->count)
		return 0;
	rank = (u64)(pct / 100.0 * (double)hist->count + 0.5);
	rank = clamp_t(u64, rank, 1, hist->count);
	/* The top rank is the largest sample itself, not its bucket's representative value. */
	if (rank == hist->count)
		return hist->max_ns;
	for (unsigned int i = 0; i < LAT_BUCKETS; i++) {
		seen += hist->bucket[i];
		if (seen >= rank)
			return min(lat_bucket_value(i), hist->max_ns);
	}
	return hist->max_ns;
}
