// SPDX-License-Identifier: MIT
/*
 * fio job files (fio's INI format, see fio(1) "JOB FILE FORMAT"): a [global] section whose
 * options are the defaults of the jobs after it, then one section per job.  Lines are
 * "option=value" or a bare "option"; ';' and '#' start comments.  Only the options whose
 * effect kfsim models are taken; an option kfsim does not model is refused with its name and
 * line, never ignored, so a job file never silently means something else here than under fio.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/bfq_sim.h>
#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include "sim_jobs.h"


struct fio_section {
	struct kfsim_bfq_job job;
	unsigned int prioclass;
	unsigned int numjobs;
	unsigned int cgroup_weight;
	bool is_global;
	long line;
};

static int fio_err(char *errbuf, size_t errlen, long line, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (errbuf && errlen)
		snprintf(errbuf, errlen, "line %ld: %s", line, msg);
	return -EINVAL;
}

static char *strip(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* fio's time values: a number with an optional unit (ns us ms s m h d), else @unit_ns. */
static int parse_time(const char *text, u64 unit_ns, u64 *ns)
{
	static const struct { const char *suffix; u64 ns; } units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "usec", 1000 }, { "ms", 1000000 },
		{ "msec", 1000000 }, { "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
		{ "m", 60ULL * NSEC_PER_SEC }, { "min", 60ULL * NSEC_PER_SEC },
		{ "h", 3600ULL * NSEC_PER_SEC }, { "d", 86400ULL * NSEC_PER_SEC },
	};
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*text))
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno)
		return -EINVAL;
	if (*end) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(units) && strcasecmp(end, units[i].suffix); i++)
			;
		if (i == ARRAY_SIZE(units))
			return -EINVAL;
		unit_ns = units[i].ns;
	}
	if (v > U64_MAX / unit_ns)
		return -EINVAL;
	*ns = v * unit_ns;
	return 0;
}

static int fio_option(struct fio_section *sec, const char *key, const char *value, long line,
		      char *errbuf, size_t errlen)
{
	static const char *const job_keys[] = {
		"rw", "readwrite", "bs", "iodepth", "size", "offset", "ioprio", "prio",
		"prioclass", "rate", "sync",
	};
	static const char *const no_effect[] = {
		"ioengine", "time_based", "group_reporting", "filename", "description",
	};
	char why[160];
	u64 v;

	for (size_t i = 0; i < ARRAY_SIZE(no_effect); i++) {
		if (!strcmp(key, no_effect[i]))
			return 0;
	}
	if (!value)
		return fio_err(errbuf, errlen, line, "option '%s' needs a value (or is not "
			       "modelled by kfsim)", key);
	for (size_t i = 0; i < ARRAY_SIZE(job_keys); i++) {
		if (!strcmp(key, job_keys[i])) {
			if (kfsim_bfq_job_set(&sec->job, key, value, &sec->prioclass, why,
					      sizeof(why)))
				return fio_err(errbuf, errlen, line, "%s", why);
			return 0;
		}
	}
	if (!strcmp(key, "blocksize"))
		return fio_option(sec, "bs", value, line, errbuf, errlen);
	if (!strcmp(key, "name")) {
		if (!*value || strlen(value) >= sizeof(sec->job.name) - 4)
			return fio_err(errbuf, errlen, line, "name: 1 to 27 characters expected");
		strcpy(sec->job.name, value);
	} else if (!strcmp(key, "direct")) {
		if (strcmp(value, "1"))
			return fio_err(errbuf, errlen, line, "direct=%s: buffered I/O (the page "
				       "cache) is not modelled; use direct=1", value);
	} else if (!strcmp(key, "thinktime")) {
		if (parse_time(value, NSEC_PER_USEC, &v) || v > 10ULL * NSEC_PER_SEC)
			return fio_err(errbuf, errlen, line, "thinktime: expected a time up to 10s "
				       "(microseconds without a unit), not '%s'", value);
		sec->job.thinktime_us = v / NSEC_PER_USEC;
	} else if (!strcmp(key, "startdelay")) {
		if (parse_time(value, NSEC_PER_SEC, &v))
			return fio_err(errbuf, errlen, line, "startdelay: expected a time (seconds "
				       "without a unit), not '%s'", value);
		sec->job.startdelay_ns = v;
	} else if (!strcmp(key, "runtime")) {
		if (parse_time(value, NSEC_PER_SEC, &v) || !v)
			return fio_err(errbuf, errlen, line, "runtime: expected a time above 0 "
				       "(seconds without a unit), not '%s'", value);
		sec->job.runtime_ns = v;
	} else if (!strcmp(key, "numjobs")) {
		char *end;
		unsigned long n = strtoul(value, &end, 10);

		if (!isdigit((unsigned char)*value) || *end || !n || n > KFSIM_BFQ_MAX_JOBS)
			return fio_err(errbuf, errlen, line, "numjobs: expected 1 to %d, not '%s'",
				       KFSIM_BFQ_MAX_JOBS, value);
		sec->numjobs = (unsigned int)n;
	} else if (!strcmp(key, "cgroup")) {
		if (!*value || strlen(value) >= sizeof(sec->job.cgroup))
			return fio_err(errbuf, errlen, line, "cgroup: 1 to 31 characters expected");
		strcpy(sec->job.cgroup, value);
	} else if (!strcmp(key, "cgroup_weight")) {
		char *end;
		unsigned long w = strtoul(value, &end, 10);

		if (!isdigit((unsigned char)*value) || *end || w < 1 || w > 1000)
			return fio_err(errbuf, errlen, line, "cgroup_weight: expected 1 to 1000 "
				       "(io.bfq.weight), not '%s'", value);
		sec->cgroup_weight = (unsigned int)w;
	} else {
		return fio_err(errbuf, errlen, line, "option '%s' is not modelled by kfsim (see "
			       "kfsim bfq --help for the options it takes)", key);
	}
	return 0;
}

/* A job section ended: append its numjobs copies to @jobs, each with its section's line. */
static int fio_emit(const struct fio_section *sec, struct kfsim_bfq_job *jobs, long *lines,
		    unsigned int *nr, char *errbuf, size_t errlen)
{
	struct kfsim_bfq_job job = sec->job;

	if (sec->prioclass)
		job.ioprio = IOPRIO_PRIO_VALUE(sec->prioclass, job.ioprio);
	if (sec->cgroup_weight) {
		if (!job.cgroup[0])
			return fio_err(errbuf, errlen, sec->line, "job '%s': cgroup_weight needs "
				       "cgroup=NAME", job.name);
		job.weight = sec->cgroup_weight;
	}
	if (*nr + sec->numjobs > KFSIM_BFQ_MAX_JOBS)
		return fio_err(errbuf, errlen, sec->line, "more than %d jobs", KFSIM_BFQ_MAX_JOBS);
	for (unsigned int i = 0; i < sec->numjobs; i++) {
		jobs[*nr] = job;
		lines[*nr] = sec->line;
		/* numjobs <= KFSIM_BFQ_MAX_JOBS: two digits after a name of at most 27 */
		if (sec->numjobs > 1)
			snprintf(jobs[*nr].name, sizeof(jobs[*nr].name), "%.27s.%02u", job.name,
				 i % 100);
		(*nr)++;
	}
	return 0;
}

/* Jobs of one cgroup share its group: they may not give it two different weights. */
static int fio_check_cgroups(const struct kfsim_bfq_job *jobs, unsigned int nr,
			     const long *lines, char *errbuf, size_t errlen)
{
	for (unsigned int i = 0; i < nr; i++) {
		for (unsigned int j = i + 1; j < nr; j++) {
			if (jobs[i].cgroup[0] && !strcmp(jobs[i].cgroup, jobs[j].cgroup) &&
			    jobs[i].weight && jobs[j].weight && jobs[i].weight != jobs[j].weight)
				return fio_err(errbuf, errlen, lines[j], "job '%s': cgroup '%s' "
					       "already has cgroup_weight=%u (job '%s'), not %u",
					       jobs[j].name, jobs[j].cgroup, jobs[i].weight,
					       jobs[i].name, jobs[j].weight);
		}
	}
	return 0;
}

int kfsim_bfq_fio_parse(FILE *in, struct kfsim_bfq_sim_config *cfg, char *errbuf,
			size_t errlen)
{
	struct kfsim_bfq_job jobs[KFSIM_BFQ_MAX_JOBS];
	long lines[KFSIM_BFQ_MAX_JOBS];
	struct fio_section global = { .numjobs = 1, .is_global = true }, sec;
	unsigned int nr = cfg->nr_jobs, first = cfg->nr_jobs;
	bool in_section = false;
	char buf[1024];
	long line = 0;
	u64 end_ns = 0;
	int err;

	if (errbuf && errlen)
		errbuf[0] = '\0';
	kfsim_bfq_job_default(&global.job);
	memcpy(jobs, cfg->jobs, nr * sizeof(jobs[0]));
	while (fgets(buf, sizeof(buf), in)) {
		char *s, *eq;

		line++;
		if (!strchr(buf, '\n') && !feof(in))
			return fio_err(errbuf, errlen, line, "line longer than %zu bytes",
				       sizeof(buf) - 2);
		s = strip(buf);
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');

			if (!close || close[1] || close == s + 1)
				return fio_err(errbuf, errlen, line, "malformed section header");
			*close = '\0';
			if (in_section && !sec.is_global) {
				err = fio_emit(&sec, jobs, lines, &nr, errbuf, errlen);
				if (err)
					return err;
			} else if (in_section) {
				global = sec;
			}
			sec = global;
			sec.line = line;
			sec.is_global = !strcmp(s + 1, "global");
			if (!sec.is_global) {
				if (strlen(s + 1) >= sizeof(sec.job.name) - 4)
					return fio_err(errbuf, errlen, line, "job name '%s' longer "
						       "than 27 characters", s + 1);
				strcpy(sec.job.name, s + 1);
			}
			in_section = true;
			continue;
		}
		if (!in_section)
			return fio_err(errbuf, errlen, line, "option outside a [section]");
		if (*s == '$' || !strncmp(s, "include", 7))
			return fio_err(errbuf, errlen, line, "includes and $variables are not "
				       "modelled by kfsim");
		eq = strchr(s, '=');
		if (eq) {
			*eq = '\0';
			err = fio_option(&sec, strip(s), strip(eq + 1), line, errbuf, errlen);
		} else {
			err = fio_option(&sec, s, NULL, line, errbuf, errlen);
		}
		if (err)
			return err;
	}
	if (ferror(in))
		return fio_err(errbuf, errlen, line, "read error");
	if (in_section && !sec.is_global) {
		err = fio_emit(&sec, jobs, lines, &nr, errbuf, errlen);
		if (err)
			return err;
	}
	if (nr == first)
		return fio_err(errbuf, errlen, line, "no job section");
	for (unsigned int i = 0; i < first; i++)
		lines[i] = 0;
	err = fio_check_cgroups(jobs, nr, lines, errbuf, errlen);
	if (err)
		return err;
	for (unsigned int i = first; i < nr; i++) {
		if (jobs[i].runtime_ns)
			end_ns = max(end_ns, jobs[i].startdelay_ns + jobs[i].runtime_ns);
	}
	memcpy(cfg->jobs, jobs, nr * sizeof(jobs[0]));
	cfg->nr_jobs = nr;
	if (end_ns)
		cfg->duration_ns = end_ns;
	return 0;
}
