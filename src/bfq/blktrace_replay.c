// SPDX-License-Identifier: MIT
/*
 * Reading blkparse's default text output for replay.  Only "Q" (queued) events are kept: they
 * are what the process asked for, before any scheduler touched it.  The format is blkparse's
 * default "%D %2c %8s %5T.%9t %5p %2a %3d ": device, cpu, sequence, seconds.nanoseconds, pid,
 * action, RWBS, then "sector + nr_sectors [comm]".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>

/* BLK_DEF_MAX_SECTORS_CAP (6.12 include/linux/blkdev.h): the default max_sectors of a queue. */
#define BLK_DEF_MAX_SECTORS_CAP 2560U

struct blktrace_q {
	u64 time_ns;
	int pid;
	u64 sector;
	u64 nr_sectors;
	bool write;
	bool sync;
};

/*
 * One line: 0 with *@is_queue set for a Q event with data, 0 for anything else, or -errno
 * with the reason in @why.
 */
static int blktrace_parse_line(const char *line, struct blktrace_q *q, bool *is_queue,
			       const char **why)
{
	char dev[32], action[8], rwbs[16];
	unsigned int cpu, pid;
	unsigned long long seq, secs, nsecs, sector, nr_sectors;
	int n;

	*is_queue = false;
	n = sscanf(line, "%31s %u %llu %llu.%llu %u %7s %15s %llu + %llu", dev, &cpu, &seq, &secs,
		   &nsecs, &pid, action, rwbs, &sector, &nr_sectors);
	if (n < 7 || strcmp(action, "Q"))
		return 0;	/* not a queue event: skipped */
	if (n < 8) {
		*why = "Q event without RWBS flags";
		return -EINVAL;
	}
	/* discards (D), "N" (no data) events, and flushes without data ("Q FWS [fio]") */
	if (strchr(rwbs, 'D') || strchr(rwbs, 'N') || (!strchr(rwbs, 'R') && !strchr(rwbs, 'W')))
		return 0;
	if (n == 8 && strchr(rwbs, 'F'))
		return 0;
	if (n != 10 || !strchr(dev, ',')) {
		*why = "malformed Q event (expected \"maj,min cpu seq sec.nsec pid Q RWBS sector "
		       "+ sectors\")";
		return -EINVAL;
	}
	if (nsecs >= NSEC_PER_SEC) {
		*why = "nanoseconds field of the timestamp is 1e9 or more";
		return -EINVAL;
	}
	if (secs > (U64_MAX - nsecs) / NSEC_PER_SEC) {
		*why = "timestamp does not fit 64-bit nanoseconds";
		return -EOVERFLOW;
	}
	if (!nr_sectors) {
		/* a zero-length write with F is a flush too: nothing to transfer */
		if (strchr(rwbs, 'F'))
			return 0;
		*why = "Q event of 0 sectors";
		return -EINVAL;
	}
	if (sector > U64_MAX - nr_sectors) {
		*why = "sector + length does not fit 64 bits";
		return -EOVERFLOW;
	}
	*is_queue = true;
	q->time_ns = secs * NSEC_PER_SEC + nsecs;
	q->pid = (int)pid;
	q->sector = sector;
	q->nr_sectors = nr_sectors;
	q->write = strchr(rwbs, 'W') != NULL;
	q->sync = strchr(rwbs, 'S') != NULL;
	return 0;
}

/* Grow @arr to hold @need records, kvmalloc semantics: no KMALLOC_MAX_SIZE cap. */
static int blktrace_grow(struct kfsim_blktrace_rec **arr, size_t *cap, size_t need)
{
	struct kfsim_blktrace_rec *bigger;
	size_t new_cap = *cap ? *cap : 256;

	if (need <= *cap)
		return 0;
	while (new_cap < need) {
		if (new_cap > SIZE_MAX / 2 / sizeof(**arr))
			return -ENOMEM;
		new_cap *= 2;
	}
	bigger = kvmalloc(new_cap * sizeof(**arr), GFP_KERNEL);
	if (!bigger)
		return -ENOMEM;
	if (*arr)
		memcpy(bigger, *arr, *cap * sizeof(**arr));
	kvfree(*arr);
	*arr = bigger;
	*cap = new_cap;
	return 0;
}

long kfsim_blktrace_parse(FILE *in, struct kfsim_blktrace_rec **recs, char *errbuf,
			  size_t errlen)
{
	struct kfsim_blktrace_rec *arr = NULL;
	size_t nr = 0, cap = 0;
	char line[512];
	long lineno = 0;
	bool partial = false;

	if (errbuf && errlen)
		errbuf[0] = '\0';
	while (fgets(line, sizeof(line), in)) {
		const char *why = NULL;
		struct blktrace_q q;
		bool is_queue;
		int err;

		/* the rest of an over-long line (a long comm): not a new line */
		if (partial) {
			partial = !strchr(line, '\n');
			continue;
		}
		partial = !strchr(line, '\n') && !feof(in);
		lineno++;
		err = blktrace_parse_line(line, &q, &is_queue, &why);
		if (!err && is_queue)
			err = blktrace_grow(&arr, &cap, nr + DIV_ROUND_UP(q.nr_sectors,
									BLK_DEF_MAX_SECTORS_CAP));
		if (err) {
			if (err == -ENOMEM)
				why = "out of memory";
			pr_err("blktrace: line %ld: %s\n", lineno, why);
			if (errbuf && errlen)
				snprintf(errbuf, errlen, "line %ld: %s", lineno, why);
			kvfree(arr);
			return err;
		}
		if (!is_queue)
			continue;
		/* bio_split_to_limits(): requests of at most max_sectors */
		for (u64 done = 0; done < q.nr_sectors; done += BLK_DEF_MAX_SECTORS_CAP) {
			arr[nr++] = (struct kfsim_blktrace_rec){
				.time_ns = q.time_ns,
				.pid = q.pid,
				.sector = q.sector + done,
				.nr_sectors = (unsigned int)min_t(u64, q.nr_sectors - done,
								  BLK_DEF_MAX_SECTORS_CAP),
				.write = q.write,
				.sync = q.sync,
			};
		}
	}
	*recs = arr;
	return (long)nr;
}
