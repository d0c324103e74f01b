// SPDX-License-Identifier: MIT
/*
 * Independent access ranges of a disk (block/blk-ia-ranges.c, Linux 5.16+).
 *
 * A set is accepted only when, once sorted by sector, it tiles [0, capacity) exactly: each range
 * starts where the previous one ended, none is empty, and the last ends at the capacity.  The
 * sort and the contiguity check are one pass, as in the kernel: for the i-th slot, find the range
 * holding the next expected sector and swap it into place.
 */
#include <kfsim/blkdev.h>
#include <kfsim/bug.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>

struct blk_independent_access_ranges *disk_alloc_independent_access_ranges(struct gendisk *disk,
									   int nr_ia_ranges)
{
	struct blk_independent_access_ranges *iars;

	if (nr_ia_ranges <= 0)
		return NULL;
	iars = kzalloc(sizeof(*iars) + (size_t)nr_ia_ranges * sizeof(iars->ia_range[0]),
		       GFP_KERNEL);
	if (iars)
		iars->nr_ia_ranges = (unsigned int)nr_ia_ranges;
	return iars;
}

struct blk_independent_access_range *disk_find_ia_range(struct blk_independent_access_ranges *iars,
							sector_t sector)
{
	for (unsigned int i = 0; i < iars->nr_ia_ranges; i++) {
		struct blk_independent_access_range *iar = &iars->ia_range[i];

		if (sector >= iar->sector && sector < iar->sector + iar->nr_sectors)
			return iar;
	}
	return NULL;
}

static bool disk_check_ia_ranges(struct gendisk *disk, struct blk_independent_access_ranges *iars)
{
	sector_t capacity = get_capacity(disk);
	sector_t sector = 0;

	if (WARN_ON_ONCE(!iars->nr_ia_ranges))
		return false;
	for (unsigned int i = 0; i < iars->nr_ia_ranges; i++) {
		struct blk_independent_access_range *want = disk_find_ia_range(iars, sector);
		struct blk_independent_access_range *iar = &iars->ia_range[i];

		/*
		 * Ranges before slot i are already in place and end at @sector, so a match
		 * that is not at slot >= i, or that starts elsewhere, means an overlap.
		 */
		if (!want || want->sector != sector || want < iar) {
			pr_warn("Invalid non-contiguous independent access ranges\n");
			return false;
		}
		if (want != iar) {
			swap(iar->sector, want->sector);
			swap(iar->nr_sectors, want->nr_sectors);
		}
		sector += iar->nr_sectors;
	}
	if (sector != capacity) {
		pr_warn("Independent access ranges do not match disk capacity\n");
		return false;
	}
	return true;
}

static bool disk_ia_ranges_changed(struct gendisk *disk,
				   const struct blk_independent_access_ranges *new)
{
	const struct blk_independent_access_ranges *old = disk->ia_ranges;

	if (!old)
		return true;
	if (old->nr_ia_ranges != new->nr_ia_ranges)
		return true;
	for (unsigned int i = 0; i < new->nr_ia_ranges; i++) {
		if (old->ia_range[i].sector != new->ia_range[i].sector ||
		    old->ia_range[i].nr_sectors != new->ia_range[i].nr_sectors)
			return true;
	}
	return false;
}

int disk_set_independent_access_ranges(struct gendisk *disk,
				       struct blk_independent_access_ranges *iars)
{
	if (!iars) {
		disk_free_ia_ranges(disk);
		return 0;
	}
	if (!disk_check_ia_ranges(disk, iars)) {
		kfree(iars);
		return -EINVAL;
	}
	if (!disk_ia_ranges_changed(disk, iars)) {
		kfree(iars);
		return 0;
	}
	kfree(disk->ia_ranges);
	disk->ia_ranges = iars;
	return 0;
}

void disk_free_ia_ranges(struct gendisk *disk)
{
	kfree(disk->ia_ranges);
	disk->ia_ranges = NULL;
}
