// SPDX-License-Identifier: MIT
/*
 * Reading blkparse's default text output for replay.  Only "Q" (queued) events are kept: they
 * are what the process asked for, before any scheduler touched it.  The format is blkparse's
 * default "%D %2c %8s %5T.%9t %5p %2a %3d ": device, cpu, sequence, seconds.nanoseconds, pid,
 * action, RWBS, then "sector + nr_sectors [comm]".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>

static int blktrace_parse_line(const char *line, struct kfsim_blktrace_rec *rec, bool *is_queue)
{
	char dev[32], action[8], rwbs[16];
	unsigned int cpu, pid;
	unsigned long long seq, secs, nsecs, sector;
	unsigned int nr_sectors;
	int n;

	*is_queue = false;
	n = sscanf(line, "%31s %u %llu %llu.%llu %u %7s %15s %llu + %u", dev, &cpu, &seq, &secs,
		   &nsecs, &pid, action, rwbs, &sector, &nr_sectors);
	if (n < 7 || strcmp(action, "Q"))
		return 0;	/* not a queue event: skipped */
	if (n >= 8 && !strchr(rwbs, 'R') && !strchr(rwbs, 'W'))
		return 0;	/* flushes, discards: not replayed */
	*is_queue = true;
	if (n != 10 || !nr_sectors || nsecs >= NSEC_PER_SEC || !strchr(dev, ','))
		return -EINVAL;
	rec->time_ns = secs * NSEC_PER_SEC + nsecs;
	rec->pid = (int)pid;
	rec->sector = sector;
	rec->nr_sectors = nr_sectors;
	rec->write = strchr(rwbs, 'W') != NULL;
	rec->sync = strchr(rwbs, 'S') != NULL;
	return 0;
}

long kfsim_blktrace_parse(FILE *in, struct kfsim_blktrace_rec **recs)
{
	struct kfsim_blktrace_rec *arr = NULL;
	size_t nr = 0, cap = 0;
	char line[512];
	long lineno = 0;

	while (fgets(line, sizeof(line), in)) {
		struct kfsim_blktrace_rec rec;
		bool is_queue;

		lineno++;
		if (blktrace_parse_line(line, &rec, &is_queue)) {
			pr_err("blktrace: line %ld: malformed Q event\n", lineno);
			kfree(arr);
			return -EINVAL;
		}
		if (!is_queue)
			continue;
		if (nr == cap) {
			size_t new_cap = cap ? cap * 2 : 256;
			struct kfsim_blktrace_rec *bigger = krealloc(arr, new_cap * sizeof(*arr),
								     GFP_KERNEL);

			if (!bigger) {
				kfree(arr);
				return -ENOMEM;
			}
			arr = bigger;
			cap = new_cap;
		}
		arr[nr++] = rec;
	}
	*recs = arr;
	return (long)nr;
}
