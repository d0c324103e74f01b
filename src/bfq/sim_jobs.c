// SPDX-License-Identifier: MIT
/*
 * fio-style job descriptions: "name=a,rw=read,bs=4k,iodepth=1,offset=0%,size=50%".
 *
 * Sizes follow fio: k/m/g/t are powers of two (fio's default kb_base=1024), "%" for offset and
 * size is a fraction of the device.  A job is parsed into a copy and stored only when every key
 * was valid, so a bad spec leaves the caller's job as it was.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include "sim_jobs.h"

static int job_err(char *errbuf, size_t errlen, const char *fmt, ...)
{
	va_list args;

	if (errbuf && errlen) {
		va_start(args, fmt);
		vsnprintf(errbuf, errlen, fmt, args);
		va_end(args);
	}
	return -EINVAL;
}

static int parse_u64(const char *text, u64 *out)
{
	char *end;
	unsigned long long v;

	if (!*text || *text == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* "4k", "1m", "512", "2g": bytes.  Also returns a percentage when @frac is given. */
static int parse_size(const char *text, u64 *bytes, double *frac)
{
	char *end;
	unsigned long long v;
	u64 mult = 1;

	if (!*text || *text == '-')
		return -EINVAL;
	if (frac) {
		size_t len = strlen(text);

		if (len > 1 && text[len - 1] == '%') {
			double pct = strtod(text, &end);

			if (end != text + len - 1 || !(pct >= 0 && pct <= 100))
				return -EINVAL;
			*frac = pct / 100.0;
			*bytes = 0;
			return 0;
		}
	}
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text)
		return -EINVAL;
	switch (*end) {
	case '\0':
		break;
	case 'k': case 'K':
		mult = 1ULL << 10;
		break;
	case 'm': case 'M':
		mult = 1ULL << 20;
		break;
	case 'g': case 'G':
		mult = 1ULL << 30;
		break;
	case 't': case 'T':
		mult = 1ULL << 40;
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1] && strcmp(end + 1, "b") && strcmp(end + 1, "B") &&
	    strcmp(end + 1, "iB"))
		return -EINVAL;
	if (v > UINT64_MAX / mult)
		return -EINVAL;
	*bytes = v * mult;
	if (frac)
		*frac = -1;
	return 0;
}

int kfsim_bfq_job_set(struct kfsim_bfq_job *job, const char *key, const char *value,
		      unsigned int *prioclass, char *errbuf, size_t errlen)
{
	u64 v;

	if (!strcmp(key, "name")) {
		if (!*value || strlen(value) >= sizeof(job->name))
			return job_err(errbuf, errlen, "name: 1 to 31 characters expected");
		strcpy(job->name, value);
	} else if (!strcmp(key, "rw") || !strcmp(key, "readwrite")) {
		static const char *const names[] = { "read", "randread", "write", "randwrite" };
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(names) && strcmp(value, names[i]); i++)
			;
		if (i == ARRAY_SIZE(names))
			return job_err(errbuf, errlen,
				       "rw: expected read, randread, write or randwrite, not '%s'",
				       value);
		job->rw = (enum kfsim_bfq_rw)i;
	} else if (!strcmp(key, "bs")) {
		if (parse_size(value, &v, NULL) || !v || v % SECTOR_SIZE || v > (64 << 20))
			return job_err(errbuf, errlen,
				       "bs: expected a multiple of 512 up to 64m, not '%s'", value);
		job->bs = (unsigned int)v;
	} else if (!strcmp(key, "iodepth")) {
		if (parse_u64(value, &v) || !v || v > 1024)
			return job_err(errbuf, errlen, "iodepth: expected 1 to 1024, not '%s'", value);
		job->iodepth = (unsigned int)v;
	} else if (!strcmp(key, "offset")) {
		if (parse_size(value, &job->offset, &job->offset_frac) || job->offset_frac >= 1.0)
			return job_err(errbuf, errlen,
				       "offset: expected a size (4k, 1g) or a percentage below 100%%, "
				       "not '%s'", value);
	} else if (!strcmp(key, "size")) {
		/* size=0 and size=0% both mean "to the end of the device", as fio's size=0 */
		if (parse_size(value, &job->size, &job->size_frac))
			return job_err(errbuf, errlen,
				       "size: expected a size or a percentage, not '%s'", value);
	} else if (!strcmp(key, "ioprio") || !strcmp(key, "prio")) {
		if (parse_u64(value, &v) || v >= IOPRIO_NR_LEVELS)
			return job_err(errbuf, errlen, "ioprio: expected 0 to 7, not '%s'", value);
		job->ioprio = (unsigned short)v;
		if (!*prioclass)
			*prioclass = IOPRIO_CLASS_BE;
	} else if (!strcmp(key, "prioclass")) {
		if (parse_u64(value, &v) || v < 1 || v > 3)
			return job_err(errbuf, errlen,
				       "prioclass: expected 1 (rt), 2 (be) or 3 (idle), not '%s'",
				       value);
		*prioclass = (unsigned int)v;
	} else if (!strcmp(key, "cgroup")) {
		if (!*value || strlen(value) >= sizeof(job->cgroup))
			return job_err(errbuf, errlen, "cgroup: 1 to 31 characters expected");
		strcpy(job->cgroup, value);
	} else if (!strcmp(key, "weight") || !strcmp(key, "cgroup_weight")) {
		if (parse_u64(value, &v) || v < BFQ_MIN_WEIGHT || v > BFQ_MAX_WEIGHT)
			return job_err(errbuf, errlen, "weight: expected 1 to 1000, not '%s'", value);
		job->weight = (unsigned int)v;
	} else if (!strcmp(key, "rate")) {
		if (parse_size(value, &v, NULL) || !v)
			return job_err(errbuf, errlen,
				       "rate: expected bytes per second (e.g. 10m), not '%s'", value);
		job->rate = v;
	} else if (!strcmp(key, "thinktime")) {
		if (parse_u64(value, &v) || v > 10000000)
			return job_err(errbuf, errlen,
				       "thinktime: expected microseconds up to 10000000, not '%s'",
				       value);
		job->thinktime_us = v;
	} else if (!strcmp(key, "sync")) {
		if (strcmp(value, "0") && strcmp(value, "1"))
			return job_err(errbuf, errlen, "sync: expected 0 or 1, not '%s'", value);
		job->sync = value[0] == '1';
	} else {
		return job_err(errbuf, errlen,
			       "unknown key '%s' (name rw bs iodepth offset size ioprio prioclass "
			       "weight cgroup cgroup_weight rate thinktime sync)", key);
	}
	return 0;
}

void kfsim_bfq_job_default(struct kfsim_bfq_job *job)
{
	*job = (struct kfsim_bfq_job){
		.name = "job",
		.rw = KFSIM_RW_READ,
		.bs = 4096,
		.iodepth = 1,
		.offset_frac = -1,
		.size_frac = -1,
	};
}

int kfsim_bfq_job_parse(const char *spec, struct kfsim_bfq_job *out, char *errbuf, size_t errlen)
{
	struct kfsim_bfq_job job;
	unsigned int prioclass = 0;
	char buf[512];
	char *save = NULL;

	kfsim_bfq_job_default(&job);
	if (!spec || strlen(spec) >= sizeof(buf))
		return job_err(errbuf, errlen, "job description missing or longer than 511 bytes");
	strcpy(buf, spec);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		int err;

		if (!eq)
			return job_err(errbuf, errlen, "'%s': key=value expected", item);
		*eq = '\0';
		err = kfsim_bfq_job_set(&job, item, eq + 1, &prioclass, errbuf, errlen);
		if (err)
			return err;
	}
	if (prioclass)
		job.ioprio = IOPRIO_PRIO_VALUE(prioclass, job.ioprio);
	*out = job;
	return 0;
}

int kfsim_bfq_job_region(const struct kfsim_bfq_job *job, sector_t capacity, sector_t *start,
			 sector_t *nr_sectors, char *errbuf, size_t errlen)
{
	u64 offset = job->offset_frac >= 0 ?
			     (u64)(job->offset_frac * (double)capacity) * SECTOR_SIZE : job->offset;
	u64 size = job->size_frac > 0 ? (u64)(job->size_frac * (double)capacity) * SECTOR_SIZE
				      : job->size_frac == 0 ? 0 : job->size;
	sector_t bs_sectors = job->bs >> SECTOR_SHIFT;
	sector_t first, count;

	if (!job->bs || job->bs % SECTOR_SIZE || !job->iodepth)
		return job_err(errbuf, errlen, "bs must be a multiple of 512 and iodepth above 0");
	if (offset % SECTOR_SIZE)
		return job_err(errbuf, errlen, "offset must be a multiple of 512");
	first = offset >> SECTOR_SHIFT;
	/* the start is aligned down to the block size, as fio aligns offsets to bs */
	first -= first % bs_sectors;
	if (first >= capacity)
		return job_err(errbuf, errlen, "offset %llu is beyond the disk (%llu sectors)",
			       (unsigned long long)offset, (unsigned long long)capacity);
	count = size ? size >> SECTOR_SHIFT : capacity - first;
	if (count > capacity - first)
		return job_err(errbuf, errlen,
			       "offset + size go past the end of the disk (%llu sectors from "
			       "sector %llu, %llu left)", (unsigned long long)count,
			       (unsigned long long)first, (unsigned long long)(capacity - first));
	if (count < bs_sectors)
		return job_err(errbuf, errlen, "size %llu is smaller than one block (bs=%u)",
			       (unsigned long long)size, job->bs);
	*start = first;
	*nr_sectors = count;
	return 0;
}
