/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BFQ_SIM_LATENCY_H
#define KFSIM_BFQ_SIM_LATENCY_H

/*
 * A log-linear latency histogram (the HdrHistogram idea): exact below 128 ns, then 64 buckets
 * per power of two, so any percentile is within 1/64 of the true value, in constant memory.
 */
#include <kfsim/types.h>

#define LAT_SUB_BITS 6
#define LAT_LINEAR 128
#define LAT_BUCKETS (LAT_LINEAR + (64 - 7) * (1 << LAT_SUB_BITS))

struct lat_hist {
	u64 count;
	u64 sum_ns;
	u64 max_ns;
	u32 bucket[LAT_BUCKETS];
};

void lat_hist_add(struct lat_hist *hist, u64 ns);
/** lat_hist_percentile() - the value below which @pct percent of samples lie (0 if empty). */
u64 lat_hist_percentile(const struct lat_hist *hist, double pct);

#endif /* KFSIM_BFQ_SIM_LATENCY_H */
