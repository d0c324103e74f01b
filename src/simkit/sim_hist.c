// SPDX-License-Identifier: MIT
/*
 * The log-linear histogram (<kfsim/sim_hist.h>): bucket i < 128 holds the value i; above, value v
 * with its top bit at position msb >= 7 goes to 128 + (msb - 7) * 64 + the 6 bits below the top.
 */
#include <math.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/sim_hist.h>
#include <kfsim/slab.h>

int kfsim_hist_init(struct kfsim_hist *hist)
{
	*hist = (struct kfsim_hist){};
	hist->bucket = kmalloc_array(KFSIM_HIST_BUCKETS, sizeof(*hist->bucket), GFP_KERNEL);
	if (!hist->bucket)
		return -ENOMEM;
	/*
	 * Zeroed here, every page touched now: the first sample landing on a page never touched
	 * would take its page fault in the middle of the run, which on a virtual machine costs tens
	 * of microseconds.  Not kcalloc(): jemalloc zeroes a recycled large block by giving its
	 * pages back to the kernel (madvise(MADV_DONTNEED)), so each histogram of a sweep's next
	 * point took a system call and a page fault per page, and two threads (--jobs 2) spent
	 * their time in each other's TLB shootdowns.
	 */
	memset(hist->bucket, 0, KFSIM_HIST_BUCKETS * sizeof(*hist->bucket));
	return 0;
}

void kfsim_hist_reset(struct kfsim_hist *hist)
{
	memset(hist->bucket, 0, KFSIM_HIST_BUCKETS * sizeof(*hist->bucket));
	hist->count = hist->sum = hist->max = 0;
}

void kfsim_hist_free(struct kfsim_hist *hist)
{
	kfree(hist->bucket);
	hist->bucket = NULL;
}

u64 kfsim_hist_bucket_top(u32 index)
{
	u32 msb, sub;
	u64 width;

	if (index < KFSIM_HIST_LINEAR)
		return index;
	msb = (index - KFSIM_HIST_LINEAR) / (1u << KFSIM_HIST_SUB_BITS) + 7;
	sub = (index - KFSIM_HIST_LINEAR) % (1u << KFSIM_HIST_SUB_BITS);
	width = 1ull << (msb - KFSIM_HIST_SUB_BITS);
	return (1ull << msb) + sub * width + (width - 1);
}

u64 kfsim_hist_rank(u64 count, double q)
{
	u64 rank;

	if (!count)
		return 0;
	if (!(q > 0)) /* also NaN */
		return 1;
	if (q >= 1)
		return count;
	rank = (u64)ceil(q * (double)count);
	return clamp_t(u64, rank, 1, count);
}

u64 kfsim_hist_quantile(const struct kfsim_hist *hist, double q)
{
	u64 rank = kfsim_hist_rank(hist->count, q), seen = 0;

	if (!rank)
		return 0;
	for (u32 i = 0; i < KFSIM_HIST_BUCKETS; i++) {
		seen += hist->bucket[i];
		if (seen >= rank)
			return min(kfsim_hist_bucket_top(i), hist->max);
	}
	return hist->max;
}
