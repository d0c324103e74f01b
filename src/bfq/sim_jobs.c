// SPDX-License-Identifier: MIT
/*
 * fio-style job descriptions: "name=a,rw=read,bs=4k,iodepth=1,offset=0%,size=50%".
 *
 * Sizes follow fio: k/m/g/t are powers of two (fio's default kb_base=1024), "%" for offset and
 * size is a fraction of the device.  A job is parsed into a copy and stored only when every key
 * was valid, so a bad spec leaves the caller's job as it was.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
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

/*
 * The unit after a number, as fio 3.33 reads it (parse.c get_mult_bytes() with its default
 * kb_base=1024): only the first letters count, case aside: "kib" "mib" "gib" "tib" "pib" are
 * powers of 1000 (fio's "opposite units" for old scripts), anything else starting with
 * k m g t p a power of 1024 ("4k" "4kb" "4ki" "4kx" are all 4096), any other letter is 1;
 * '%' marks a percentage.  What follows a non-letter is ignored.
 */
static u64 fio_size_mult(const char *suffix, bool *percent)
{
	static const char units[] = "kmgtp";
	const char *unit;
	u64 mult = 1, base = 1024;

	*percent = false;
	if (*suffix == '%') {
		*percent = true;
		return 1;
	}
	if (!isalpha((unsigned char)*suffix))
		return 1;
	unit = strchr(units, tolower((unsigned char)*suffix));
	if (!unit)
		return 1;
	if (tolower((unsigned char)suffix[1]) == 'i' && tolower((unsigned char)suffix[2]) == 'b')
		base = 1000;
	for (long pow = unit - units + 1; pow > 0; pow--)
		mult *= base;
	return mult;
}

/*
 * A size as fio 3.33 reads it (str_to_decimal()): a number, hexadecimal when the text holds
 * "0x", then a unit (fio_size_mult()).  A percentage ('%' right after the digits: fio reads
 * "12.5%" as 12 bytes) is returned in @frac when @frac is given.  A '-' (fio wraps it
 * round), a leading space (fio then drops the unit: " 8k" is 8) or no number is refused.
 */
static int parse_size(const char *text, u64 *bytes, double *frac)
{
	bool hex = strstr(text, "0x") || strstr(text, "0X"), percent;
	const char *suffix;
	char *end;
	unsigned long long v;
	u64 mult;

	if (*text == '+')
		text++;		/* fio's strtoll() reads a '+' ("+4k" is 4096); a '-' wraps */
	if (!isdigit((unsigned char)*text))
		return -EINVAL;
	errno = 0;
	v = strtoull(text, &end, hex ? 16 : 10);
	/* fio's strtoll() fails past LLONG_MAX (ERANGE): rate=9223372036854775808 is refused */
	if (errno || end == text || v > LLONG_MAX)
		return -EINVAL;
	for (suffix = text; isdigit((unsigned char)*suffix); suffix++)
		;
	mult = fio_size_mult(suffix, &percent);
	if (percent) {
		if (!frac || v > 100)
			return -EINVAL;
		*frac = (double)v / 100.0;
		*bytes = 0;
		return 0;
	}
	if (v > UINT64_MAX / mult)
		return -EINVAL;
	*bytes = v * mult;
	if (frac)
		*frac = -1;
	return 0;
}

/* A count: fio reads an integer option as a size (iodepth=0x10 and iodepth=1k are allowed). */
static int parse_u64(const char *text, u64 *out)
{
	return parse_size(text, out, NULL);
}

int kfsim_bfq_fio_number(const char *text, u64 *out)
{
	return parse_size(text, out, NULL);
}

int kfsim_bfq_fio_flag(const char *value, bool bool_range, bool *out)
{
	unsigned int u;
	int v;

	if (!value || !*value)
		return -EINVAL;
	/* check_int(): the same scan as fio's, so what glibc takes there it takes here */
	if (strstr(value, "0x") || strstr(value, "0X")) {
		if (sscanf(value, "%x", &u) != 1)
			return -EINVAL;
	} else if (sscanf(value, "%u", &u) != 1) {
		return -EINVAL;
	}
	v = (int)u;
	if (bool_range && v > 1)
		return -EINVAL;
	*out = v != 0;
	return 0;
}

/*
 * fio's "READ,WRITE[,TRIM]" values: the first part, the second (or the first again).  For an
 * integer option (@int_pair) fio 3.33's handle_option() also splits at ':' and then at '-'
 * when there is no ',' ("bs=4k:8k" and "rate=1m-2m" are READ then WRITE, not a range); a sign
 * at the start is no split (fio reads "-1m" wrapped round, which the parsers here refuse).
 * fio's ranges and lists (bsrange, bssplit) split at ',' only.
 */
static int split_rw(const char *value, bool int_pair, char *rd, char *wr, size_t len)
{
	const char *comma = strchr(value, ',');
	size_t n;

	if (!comma && int_pair && *value)
		comma = strchr(value + 1, ':');
	if (!comma && int_pair && *value)
		comma = strchr(value + 1, '-');
	n = comma ? (size_t)(comma - value) : strlen(value);

	if (n >= len || (comma && strlen(comma + 1) >= len))
		return -EINVAL;
	memcpy(rd, value, n);
	rd[n] = '\0';
	if (!comma) {
		strcpy(wr, rd);
		return 0;
	}
	n = strcspn(comma + 1, ",");	/* a third part (trims) is not modelled: ignored */
	memcpy(wr, comma + 1, n);
	wr[n] = '\0';
	return 0;
}

/*
 * A READ,WRITE part that is no number at all ("abc"): fio 3.33's handle_option() fails it
 * and goes on with the other part, so the direction keeps its value, as for a part left
 * empty ("rate_iops=1m,abc" caps reads only; kfsim refused it: fio_badgen seed 27178).  A
 * sign or digit starts a number fio reads (a negative one wrapped round, refused here).
 */
static void drop_failing_part(char *part)
{
	if (*part && !isdigit((unsigned char)*part) && *part != '+' && *part != '-')
		*part = '\0';
}

/* A block size: -EINVAL as fio fails it or kfsim refuses it, -ERANGE past kfsim's 64 MiB */
static int parse_bs(const char *text, unsigned int *bs)
{
	u64 v;

	if (parse_size(text, &v, NULL) || !v || v % SECTOR_SIZE)
		return -EINVAL;
	if (v > (64 << 20))
		return -ERANGE;
	*bs = (unsigned int)v;
	return 0;
}

/* "4k-64k" or "4k:64k": a bsrange (fio 3.33 FIO_OPT_RANGE: a bare size is no range). */
static int parse_bsrange(const char *text, unsigned int *lo, unsigned int *hi)
{
	char buf[64];
	char *dash;

	if (strlen(text) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, text);
	dash = strchr(buf, '-');
	if (!dash)
		dash = strchr(buf, ':');
	if (!dash)
		return -EINVAL;
	*dash = '\0';
	if (parse_bs(buf, lo) || parse_bs(dash + 1, hi))
		return -EINVAL;
	if (*hi < *lo) {
		unsigned int t = *lo;	/* fio swaps a reversed range */

		*lo = *hi;
		*hi = t;
	}
	return 0;
}

/*
 * "4k/10:64k/50:32k/": fio's bssplit for one direction, as fio 3.33 reads it (options.c
 * split_parse_ddir(), bssplit_ddir()): an empty entry ends the list; a percent is atoi()'s,
 * over 100 (a negative one too, as an unsigned long long) 100, and 0 (no number, "4k/abc",
 * "4k//50") none; an entry without one shares what the others leave, a lone entry 100.
 * Percents need not add up to 100: fio's draw walks them as given (get_next_buflen(): one
 * under 100 in all gives its last entry the rest, one over it never reaches the entries
 * after 100).  fio fails percents over 100 with several entries without one ("bssplit
 * percentages add to more than 100%"); with one, fio gives it (100 - sum) wrapped round, a
 * share kfsim does not model: both refused.
 */
static int parse_bssplit(const char *text, struct kfsim_bfq_bssplit *split, unsigned int *nr)
{
	char buf[512];
	char *rest = buf, *item;
	unsigned int n = 0, sum = 0, nr_blank = 0;

	if (strlen(text) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, text);
	while ((item = strsep(&rest, ":")) != NULL && *item) {
		char *slash = strchr(item, '/');
		unsigned long long perc = 0;

		if (n == KFSIM_BFQ_MAX_BSSPLIT)
			return -EINVAL;
		if (slash) {
			*slash = '\0';
			/* atoi(): glibc's (int)strtol(), then widened as fio's unsigned long long */
			perc = (unsigned long long)(long long)(int)strtol(slash + 1, NULL, 10);
			if (perc > 100)
				perc = 100;
		}
		if (parse_bs(item, &split[n].bs))
			return -EINVAL;
		if (!perc)
			nr_blank++;
		split[n].perc = (unsigned int)perc;
		sum += (unsigned int)perc;
		n++;
	}
	if (!n || (sum > 100 && nr_blank))
		return -EINVAL;
	for (unsigned int i = 0; i < n && nr_blank; i++) {
		if (!split[i].perc)
			split[i].perc = n == 1 ? 100 : (100 - sum) / nr_blank;
	}
	*nr = n;
	return 0;
}

/*
 * rate=, rate_iops=: "R[,W]".  An empty part is a part fio 3.33's handle_option() fails,
 * which sets nothing: the direction keeps the cap it had (a [global]'s, else none; fio with
 * rate_iops=50 in [global] and rate_iops=,10 in the job read at 50 IOPS, 2026-12-07).
 * @wr: 0 = @rd's, U64_MAX = none.
 */
static int parse_rate_pair(const char *value, bool iops, u64 *rd, u64 *wr)
{
	u64 old_wr = *wr ? *wr : *rd, v;
	char a[64], b[64];

	if (split_rw(value, true, a, b, sizeof(a)))
		return -EINVAL;
	if (strchr(value, ',') || strchr(value + 1, ':') || strchr(value + 1, '-')) {
		drop_failing_part(a);
		drop_failing_part(b);
	}
	if (!*a && !*b)
		return -EINVAL;
	if (*a && (iops ? parse_u64(a, &v) : parse_size(a, &v, NULL)))
		return -EINVAL;
	if (*a)
		*rd = v;
	if (*b && (iops ? parse_u64(b, &v) : parse_size(b, &v, NULL)))
		return -EINVAL;
	if (!*b)
		v = old_wr;
	*wr = v ? v : U64_MAX;
	return 0;
}

static const struct {
	const char *name;
	enum kfsim_bfq_rw rw;
} rw_names[] = {
	{ "read", KFSIM_RW_READ }, { "randread", KFSIM_RW_RANDREAD },
	{ "write", KFSIM_RW_WRITE }, { "randwrite", KFSIM_RW_RANDWRITE },
	{ "rw", KFSIM_RW_READWRITE }, { "readwrite", KFSIM_RW_READWRITE },
	{ "randrw", KFSIM_RW_RANDRW }, { "trim", KFSIM_RW_TRIM },
	{ "randtrim", KFSIM_RW_RANDTRIM }, { "trimwrite", KFSIM_RW_TRIMWRITE },
	{ "randtrimwrite", KFSIM_RW_RANDTRIMWRITE },
};

const char *kfsim_bfq_rw_name(enum kfsim_bfq_rw rw)
{
	for (size_t i = 0; i < ARRAY_SIZE(rw_names); i++) {
		if (rw_names[i].rw == rw)
			return rw_names[i].name;
	}
	return "?";
}

/*
 * fio's ioengines by what reaches the disk (fio(1) "I/O engine"): the synchronous ones keep
 * one I/O in flight; those whose I/O never reaches a local block device (no I/O, network,
 * object stores, remote block devices, persistent memory through DAX, MTD) issue nothing.
 */
static const struct {
	const char *name;
	enum kfsim_bfq_engine engine;
} engines[] = {
	{ "libaio", KFSIM_ENGINE_ASYNC }, { "io_uring", KFSIM_ENGINE_ASYNC },
	{ "posixaio", KFSIM_ENGINE_ASYNC }, { "ime_aio", KFSIM_ENGINE_NONE },
	{ "sync", KFSIM_ENGINE_SYNC }, { "psync", KFSIM_ENGINE_SYNC },
	{ "vsync", KFSIM_ENGINE_SYNC }, { "pvsync", KFSIM_ENGINE_SYNC },
	{ "pvsync2", KFSIM_ENGINE_SYNC }, { "mmap", KFSIM_ENGINE_SYNC },
	{ "splice", KFSIM_ENGINE_SYNC }, { "libcufile", KFSIM_ENGINE_SYNC },
	{ "null", KFSIM_ENGINE_NONE }, { "cpp_null", KFSIM_ENGINE_NONE },
	{ "cpuio", KFSIM_ENGINE_NONE }, { "exec", KFSIM_ENGINE_NONE },
	{ "net", KFSIM_ENGINE_NONE }, { "netsplice", KFSIM_ENGINE_NONE },
	{ "http", KFSIM_ENGINE_NONE }, { "rbd", KFSIM_ENGINE_NONE },
	{ "rados", KFSIM_ENGINE_NONE }, { "nfs", KFSIM_ENGINE_NONE },
	{ "dfs", KFSIM_ENGINE_NONE }, { "gfapi", KFSIM_ENGINE_NONE },
	{ "gfapi_async", KFSIM_ENGINE_NONE }, { "libhdfs", KFSIM_ENGINE_NONE },
	{ "rdma", KFSIM_ENGINE_NONE }, { "nbd", KFSIM_ENGINE_NONE },
	{ "libiscsi", KFSIM_ENGINE_NONE }, { "ime_psync", KFSIM_ENGINE_NONE },
	{ "ime_psyncv", KFSIM_ENGINE_NONE }, { "librpma_apm_client", KFSIM_ENGINE_NONE },
	{ "librpma_apm_server", KFSIM_ENGINE_NONE }, { "librpma_gpspm_client", KFSIM_ENGINE_NONE },
	{ "librpma_gpspm_server", KFSIM_ENGINE_NONE }, { "dev-dax", KFSIM_ENGINE_NONE },
	{ "libpmem", KFSIM_ENGINE_NONE }, { "pmemblk", KFSIM_ENGINE_NONE },
	{ "mtd", KFSIM_ENGINE_NONE }, { "filecreate", KFSIM_ENGINE_NONE },
	{ "filestat", KFSIM_ENGINE_NONE }, { "filedelete", KFSIM_ENGINE_NONE },
	{ "ftruncate", KFSIM_ENGINE_NONE }, { "falloc", KFSIM_ENGINE_NONE },
};

int kfsim_bfq_engine_parse(const char *name, enum kfsim_bfq_engine *engine)
{
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++) {
		if (!strcmp(name, engines[i].name)) {
			*engine = engines[i].engine;
			return 0;
		}
	}
	return -EINVAL;
}

/* random_distribution=random|zipf:T|pareto:H|normal:D|zoned:A/S:A/S... */
static int parse_dist(struct kfsim_bfq_job *job, const char *value)
{
	const char *colon = strchr(value, ':');
	size_t n = colon ? (size_t)(colon - value) : strlen(value);
	char *end;

	job->nr_zones = 0;
	if (!strncmp(value, "random", n) && n == 6) {
		job->dist = KFSIM_DIST_RANDOM;
		return 0;	/* fio ignores what follows "random:" */
	}
	if (n == 9 && !strncmp(value, "zoned_abs", 9))
		return -EOPNOTSUPP;
	if (n == 5 && !strncmp(value, "zoned", 5)) {
		if (!colon)
			return -EINVAL;
		struct kfsim_bfq_bssplit zones[KFSIM_BFQ_MAX_BSSPLIT];
		unsigned int sum_a = 0, sum_s = 0, nr = 0;
		const char *p = colon + 1;

		while (*p) {
			unsigned long acc, size;

			acc = strtoul(p, &end, 10);
			if (end == p || *end != '/' || nr == KFSIM_BFQ_MAX_BSSPLIT)
				return -EINVAL;
			p = end + 1;
			/* "20/" with no size: the rest of the region, as fio fills it in */
			size = *p && *p != ':' ? strtoul(p, &end, 10) : 100 - min(100u, sum_s);
			if (!*p || *p == ':')
				end = (char *)p;
			else if (end == p)
				return -EINVAL;
			if ((*end && *end != ':') || acc > 100 || size > 100)
				return -EINVAL;
			zones[nr++] = (struct kfsim_bfq_bssplit){ (unsigned int)size,
								  (unsigned int)acc };
			sum_a += (unsigned int)acc;
			sum_s += (unsigned int)size;
			p = *end ? end + 1 : end;
		}
		/* fio: the access and size percentages must each add up to 100 */
		if (!nr || sum_a != 100 || sum_s != 100)
			return -EINVAL;
		memcpy(job->zones, zones, nr * sizeof(zones[0]));
		job->nr_zones = nr;
		job->dist = KFSIM_DIST_ZONED;
		return 0;
	}
	/* fio 3.33 str_random_distribution_cb(): without a value zipf is 1.1, pareto 0.2 */
	if (n == 4 && !strncmp(value, "zipf", 4)) {
		job->dist = KFSIM_DIST_ZIPF;
		job->dist_param = 1.1;
	} else if (n == 6 && !strncmp(value, "pareto", 6)) {
		job->dist = KFSIM_DIST_PARETO;
		job->dist_param = 0.2;
	} else if (n == 6 && !strncmp(value, "normal", 6)) {	/* "gauss" is file_service_type's */
		job->dist = KFSIM_DIST_NORMAL;
		job->dist_param = 0;
	} else {
		return -EINVAL;
	}
	if (colon) {
		job->dist_param = strtod(colon + 1, &end);
		if (end == colon + 1 || (*end && *end != ':'))
			return -EINVAL;
		if (*end)
			return -ERANGE;	/* a center: distr:value:center */
	}
	/* fio's ranges: zipf's theta not 1.0, pareto's 0 < h < 1, normal's 0 <= dev < 100 */
	if ((job->dist == KFSIM_DIST_ZIPF && !(job->dist_param > 0 && job->dist_param != 1.0)) ||
	    (job->dist == KFSIM_DIST_PARETO && !(job->dist_param > 0 && job->dist_param < 1)) ||
	    (job->dist == KFSIM_DIST_NORMAL && !(job->dist_param >= 0 && job->dist_param < 100)))
		return -EINVAL;
	return 0;
}

/* direct and buffered: FIO_OPT_BOOL, read as fio reads it (kfsim_bfq_fio_flag()) */
static bool parse_bool(const char *value, bool *out)
{
	return !kfsim_bfq_fio_flag(value, true, out);
}

int kfsim_bfq_job_set(struct kfsim_bfq_job *job, const char *key, const char *value,
		      unsigned int *prioclass, char *errbuf, size_t errlen)
{
	char rd[64], wr[64];
	u64 v;

	if (!strcmp(key, "name")) {
		if (!*value || strlen(value) >= sizeof(job->name))
			return job_err(errbuf, errlen, "name: 1 to 31 characters expected");
		strcpy(job->name, value);
	} else if (!strcmp(key, "rw") || !strcmp(key, "readwrite")) {
		unsigned int i;

		for (i = 0; i < ARRAY_SIZE(rw_names) && strcmp(value, rw_names[i].name); i++)
			;
		if (i == ARRAY_SIZE(rw_names))
			return job_err(errbuf, errlen, "rw: expected read, randread, write, randwrite, "
				       "rw, readwrite, randrw or (no disk I/O) a trim, not '%s'",
				       value);
		job->rw = rw_names[i].rw;
	} else if (!strcmp(key, "bs") || !strcmp(key, "blocksize")) {
		/*
		 * a part left empty is a part fio fails: its direction keeps the size it had
		 * ("bs=4k," leaves writes at the default 4k, "bs=,8k" reads), as for rate=
		 */
		unsigned int bs_rd = job->bs, bs_wr = job->bs_write ? job->bs_write : job->bs;
		int err = split_rw(value, true, rd, wr, sizeof(rd)) ? -EINVAL : 0;

		if (!err && strcmp(rd, wr)) {	/* two parts */
			drop_failing_part(rd);
			drop_failing_part(wr);
		}
		if (!*rd && !*wr)
			err = -EINVAL;

		if (!err && *rd)
			err = parse_bs(rd, &bs_rd);
		if (!err && *wr)
			err = parse_bs(wr, &bs_wr);
		if (err == -ERANGE)
			return job_err(errbuf, errlen, "%s: blocks over 64 MiB are not modelled, "
				       "not '%s'", key, value);
		if (err)
			return job_err(errbuf, errlen, "%s: expected a multiple of 512 up to 64m "
				       "(READ[,WRITE]), not '%s'", key, value);
		job->bs = bs_rd;
		job->bs_write = bs_wr;
		job->bs_max = job->bs_write_max = 0;
		job->nr_bssplit[0] = job->nr_bssplit[1] = 0;
	} else if (!strcmp(key, "bsrange") || !strcmp(key, "blocksize_range")) {
		if (split_rw(value, false, rd, wr, sizeof(rd)) ||
		    parse_bsrange(rd, &job->bs, &job->bs_max) ||
		    parse_bsrange(wr, &job->bs_write, &job->bs_write_max))
			return job_err(errbuf, errlen, "%s: expected MIN-MAX[,MIN-MAX], multiples "
				       "of 512 up to 64m, not '%s'", key, value);
	} else if (!strcmp(key, "bssplit")) {
		char rds[512], wrs[512];

		if (split_rw(value, false, rds, wrs, sizeof(rds)) ||
		    parse_bssplit(rds, job->bssplit[0], &job->nr_bssplit[0]) ||
		    parse_bssplit(wrs, job->bssplit[1], &job->nr_bssplit[1]))
			return job_err(errbuf, errlen, "bssplit: expected BS/PERCENT:BS/PERCENT...[,"
				       "...] adding up to 100, not '%s'", value);
	} else if (!strcmp(key, "iodepth")) {
		/*
		 * fio 3.33's FIO_OPT_INT with minval 1: stored as an unsigned int and compared
		 * as an int (val_too_small()), so 1 to INT_MAX; a depth past the scheduler's tags
		 * waits for one, as in the kernel (what the engine's setup may refuse, libaio's
		 * io_setup() past fs.aio-max-nr, is not modelled: docs/bfq.md)
		 */
		if (parse_u64(value, &v))
			return job_err(errbuf, errlen, "iodepth: expected a count from 1, not '%s'",
				       value);
		if ((int)(u32)v < 1)
			return job_err(errbuf, errlen, "iodepth: min value out of range: %d (1 min)",
				       (int)(u32)v);
		job->iodepth = (u32)v;
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
	} else if (!strcmp(key, "io_size") || !strcmp(key, "io_limit")) {
		if (parse_size(value, &job->io_size, NULL))
			return job_err(errbuf, errlen, "%s: expected a size, not '%s'", key, value);
	} else if (!strcmp(key, "number_ios")) {
		if (parse_u64(value, &job->number_ios))
			return job_err(errbuf, errlen, "number_ios: expected a count, not '%s'", value);
	} else if (!strcmp(key, "ioprio") || !strcmp(key, "prio")) {
		if (parse_u64(value, &v) || v >= IOPRIO_NR_LEVELS)
			return job_err(errbuf, errlen, "%s: expected 0 to 7, not '%s'", key, value);
		job->ioprio = (unsigned short)v;
		if (!*prioclass)
			*prioclass = IOPRIO_CLASS_BE;
	} else if (!strcmp(key, "prioclass")) {
		/*
		 * 0 is IOPRIO_CLASS_NONE, which fio 3.33 reads: the priority nice gives alone,
		 * and with a level an ioprio_set() the kernel fails (ioprio_check_cap())
		 */
		if (!parse_u64(value, &v) && !v)
			return job_err(errbuf, errlen, "prioclass: 0 (IOPRIO_CLASS_NONE: the "
				       "priority nice gives, or with prio= an ioprio_set() that "
				       "fails) is not modelled");
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
			return job_err(errbuf, errlen, "%s: expected 1 to 1000, not '%s'", key, value);
		job->weight = (unsigned int)v;
	} else if (!strcmp(key, "rate")) {
		if (parse_rate_pair(value, false, &job->rate, &job->rate_write))
			return job_err(errbuf, errlen, "rate: expected bytes per second READ[,WRITE] "
				       "(e.g. 10m or 1m,2m), not '%s'", value);
	} else if (!strcmp(key, "rate_iops")) {
		if (parse_rate_pair(value, true, &job->rate_iops, &job->rate_iops_write))
			return job_err(errbuf, errlen, "rate_iops: expected I/Os per second "
				       "READ[,WRITE], not '%s'", value);
	} else if (!strcmp(key, "rwmixread") || !strcmp(key, "rwmixwrite")) {
		if (parse_u64(value, &v) || v > 100)
			return job_err(errbuf, errlen, "%s: expected 0 to 100, not '%s'", key, value);
		job->rwmixread = key[5] == 'r' ? (unsigned int)v : 100 - (unsigned int)v;
	} else if (!strcmp(key, "percentage_random")) {
		if (split_rw(value, true, rd, wr, sizeof(rd)) || parse_u64(rd, &v) || v > 100)
			return job_err(errbuf, errlen, "percentage_random: expected 0 to 100, not '%s'",
				       value);
		job->perc_seq = 100 - (unsigned int)v;
	} else if (!strcmp(key, "random_distribution")) {
		int err = parse_dist(job, value);

		if (err == -ERANGE)
			return job_err(errbuf, errlen, "random_distribution: a center (%s) is not "
				       "modelled", value);
		if (err == -EOPNOTSUPP)
			return job_err(errbuf, errlen, "random_distribution: zoned_abs (zones in "
				       "bytes) is not modelled");
		if (err)
			return job_err(errbuf, errlen, "random_distribution: expected random, "
				       "zipf[:T] (T not 1), pareto[:H] (0<H<1), normal[:DEV] "
				       "(0<=DEV<100) or zoned:A/S:..., not '%s'", value);
	} else if (!strcmp(key, "thinktime")) {
		if (parse_u64(value, &v) || v > 10000000)
			return job_err(errbuf, errlen,
				       "thinktime: expected microseconds up to 10000000, not '%s'",
				       value);
		job->thinktime_us = v;
	} else if (!strcmp(key, "sync")) {
		/*
		 * fio: 0/none, 1/sync (O_SYNC), dsync (O_DSYNC): either writes through.  A
		 * FIO_OPT_STR's choice is matched up to a ':' or ',' ("1:x" is 1), as fio matches
		 */
		size_t n = strcspn(value, ":,");
#define SYNC_IS(c) (n == strlen(c) && !strncmp(value, c, n))
		if (SYNC_IS("0") || SYNC_IS("none"))
			job->sync = false;
		else if (SYNC_IS("1") || SYNC_IS("sync") || SYNC_IS("dsync"))
			job->sync = true;
#undef SYNC_IS
		else
			return job_err(errbuf, errlen, "sync: expected 0, 1, none, sync or dsync, "
				       "not '%s'", value);
	} else if (!strcmp(key, "direct") || !strcmp(key, "buffered")) {
		bool on;

		if (!parse_bool(value, &on))
			return job_err(errbuf, errlen, "%s: expected 0 or 1, not '%s'", key, value);
		job->buffered = key[0] == 'd' ? !on : on;
	} else if (!strcmp(key, "blockalign") || !strcmp(key, "ba")) {
		if (split_rw(value, true, rd, wr, sizeof(rd)) || parse_bs(rd, &job->blockalign))
			return job_err(errbuf, errlen, "%s: expected a multiple of 512, not '%s'",
				       key, value);
	} else if (!strcmp(key, "rate_process")) {
		if (strcmp(value, "linear") && strcmp(value, "poisson"))
			return job_err(errbuf, errlen, "rate_process: expected linear or poisson, "
				       "not '%s'", value);
		job->rate_poisson = value[0] == 'p';
	} else if (!strcmp(key, "ioengine")) {
		if (kfsim_bfq_engine_parse(value, &job->engine) ||
		    strlen(value) >= sizeof(job->ioengine))
			return job_err(errbuf, errlen, "ioengine: '%s' is not modelled (sync, psync, "
				       "libaio, io_uring, null, ...: see docs/bfq.md)", value);
		strcpy(job->ioengine, value);
	} else {
		return job_err(errbuf, errlen,
			       "unknown key '%s' (name rw bs bsrange bssplit iodepth offset size "
			       "io_size number_ios ioprio prioclass weight cgroup cgroup_weight rate "
			       "rate_iops rwmixread rwmixwrite percentage_random random_distribution "
			       "thinktime sync direct buffered ioengine)", key);
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
		.rwmixread = 50,
		.latency_percentile = 100,
	};
}

/*
 * "12.5%", "1.5g", "8192.5m", "1.5ms": fio's number parser stops at the '.', so in a job file
 * size=12.5% is 12 bytes, size=8192.5m 8192 bytes and thinktime=1.5ms 1 us (kfsim reads job
 * files as fio does).  A --job spec is kfsim's own syntax, written on a command line or by the
 * playground, where nobody means that: a number with a fraction and then a unit or '%' is
 * refused, in each part of the value (bs=4k,8.5k; bsrange=4k-8.5k).  Returns the part, or NULL.
 */
static const char *fraction_with_unit(const char *value)
{
	const char *part = value;

	for (;;) {
		const char *dot = part + strspn(part, "0123456789");

		if (dot != part && *dot == '.') {
			dot++;
			dot += strspn(dot, "0123456789");
			if (*dot == '%' || isalpha((unsigned char)*dot))
				return part;
		}
		/* the next part: past a separator, so the walk always moves ("-1" once hung) */
		part = strpbrk(part, ",-:");
		if (!part)
			return NULL;
		part++;
	}
}

/*
 * "name=a,bs=4k,8k,rw=randrw": items split at commas; an item without '=' continues the
 * value before it, so fio's READ,WRITE forms (bs=4k,8k, rate=1m,2m) read as fio reads them.
 */
int kfsim_bfq_job_parse(const char *spec, struct kfsim_bfq_job *out, char *errbuf, size_t errlen)
{
	struct kfsim_bfq_job job;
	unsigned int prioclass = 0;
	char buf[512];
	char *item, *next;

	kfsim_bfq_job_default(&job);
	if (!spec || strlen(spec) >= sizeof(buf))
		return job_err(errbuf, errlen, "job description missing or longer than 511 bytes");
	strcpy(buf, spec);
	for (item = buf; item && *item; item = next) {
		char *eq = strchr(item, '='), *comma = strchr(item, ',');
		const char *fraction;
		int err;

		if (!eq || (comma && comma < eq)) {
			if (comma)
				*comma = '\0';
			return job_err(errbuf, errlen, "'%s': key=value expected", item);
		}
		/* the value runs to the next comma that starts a key=value item */
		next = NULL;
		for (char *c = strchr(eq, ','); c; c = strchr(c + 1, ',')) {
			char *after_eq = strchr(c + 1, '='), *after_comma = strchr(c + 1, ',');

			if (after_eq && (!after_comma || after_eq < after_comma)) {
				*c = '\0';
				next = c + 1;
				break;
			}
		}
		*eq = '\0';
		fraction = fraction_with_unit(eq + 1);
		if (fraction && fraction[strspn(fraction, "0123456789.")] == '%')
			return job_err(errbuf, errlen, "%s: '%s': percentages are whole (fio reads "
				       "this as %llu bytes)", item, eq + 1, strtoull(fraction, NULL, 10));
		if (fraction)
			return job_err(errbuf, errlen, "%s: '%s': numbers are whole (fio stops at the "
				       "'.' and reads %llu, without the unit)", item, eq + 1,
				       strtoull(fraction, NULL, 10));
		err = kfsim_bfq_job_set(&job, item, eq + 1, &prioclass, errbuf, errlen);
		if (err)
			return err;
	}
	if (job.rw >= KFSIM_RW_TRIM && job.engine != KFSIM_ENGINE_NONE)
		return job_err(errbuf, errlen, "rw: trims (REQ_OP_DISCARD) are not modelled (only "
			       "with an engine that does no disk I/O, such as null)");
	if (prioclass)
		job.ioprio = IOPRIO_PRIO_VALUE(prioclass, job.ioprio);
	*out = job;
	return 0;
}

/*
 * The largest block the job issues in one direction: its bssplit's largest when it has one
 * (fio's bssplit replaces bs=, whose 4 KiB default then sizes nothing), else bs= or bsrange='s
 * top.
 */
static unsigned int job_dir_max_bs(const struct kfsim_bfq_job *job, bool write)
{
	unsigned int bs = write && job->bs_write ? job->bs_write : job->bs;

	if (job->nr_bssplit[write]) {
		bs = 0;
		for (unsigned int i = 0; i < job->nr_bssplit[write]; i++)
			bs = max(bs, job->bssplit[write][i].bs);
		return bs;
	}
	return max(bs, write ? job->bs_write_max : job->bs_max);
}

/*
 * The largest block the job issues, over the directions it issues (a read-back after
 * writes reads with the writes' sizes): its region must hold one.  Counting the default bs
 * beside a bssplit refused 'bssplit=512/20:3584/80, size=3584' (fio_physics.py --wide, seed
 * 32287), which fio 3.33 runs.
 */
unsigned int kfsim_bfq_job_max_bs(const struct kfsim_bfq_job *job)
{
	bool writes_only = job->rw == KFSIM_RW_WRITE || job->rw == KFSIM_RW_RANDWRITE;
	bool reads_only = job->rw == KFSIM_RW_READ || job->rw == KFSIM_RW_RANDREAD;
	unsigned int bs = 0;

	if (!writes_only)
		bs = job_dir_max_bs(job, false);
	if (!reads_only)
		bs = max(bs, job_dir_max_bs(job, true));
	return bs;
}

/*
 * fio 3.33's get_start_offset() (filesetup.c) for "offset=N%": N % of the size the file has
 * when fio sets it up (@real_size bytes), plus @job->offset (offset_increment times the
 * clone's number), rounded UP to the smallest block of either direction (fio's td_min_bs():
 * "block align the offset at the next available boundary").  fio 3.33 --write_iolog, 1 MiB:
 * offset=33% with bs=4k starts at 348160, with bs=64k at 393216, with bs=64k,32k at 360448.
 */
u64 kfsim_bfq_job_pct_offset(const struct kfsim_bfq_job *job, u64 real_size)
{
	double pct = job->offset_frac * 100.0;
	u64 align = min(kfsim_bfq_job_min_bs(job, false), kfsim_bfq_job_min_bs(job, true));
	u64 raw;

	/* fio's percent is a whole number, its product integer arithmetic */
	if (pct == (double)(u64)pct && real_size <= U64_MAX / 100)
		raw = real_size * (u64)pct / 100;
	else
		raw = (u64)(job->offset_frac * (double)real_size);
	raw += job->offset;
	if (!align || raw > U64_MAX - align)
		return raw;
	return (raw + align - 1) / align * align;
}

u64 kfsim_bfq_job_offset_bytes(const struct kfsim_bfq_job *job, sector_t capacity)
{
	if (job->offset_frac < 0)
		return job->offset;
	return job->file_size ? job->file_offset
			      : kfsim_bfq_job_pct_offset(job, (u64)capacity << SECTOR_SHIFT);
}

/*
 * size=N% as fio 3.33's setup_files() (filesetup.c) sets a file's io_size: N % of the file's
 * end, @end bytes (filesize=, else the size the file has when fio sets the job up, or the
 * device's), in integer arithmetic, no more than what the job's offset @offset leaves
 * (@end - @offset), aligned DOWN to the smallest block of either direction (td_min_bs());
 * size=100% is no percent to fio ("size_percent != 100"): the rest, as it is.  fio 3.33
 * --write_iolog, 999936 bytes with bs=64k, size=33%: 5 reads (329978 bytes down to 327680);
 * filesize=1000k, size=33%: 5 reads too.  The fio reader and kfsim_bfq_job_region() both
 * size with this (kfsim took 33 % of the disk for a file's, unaligned, until 2026-12-08).
 */
u64 kfsim_bfq_job_size_bytes(const struct kfsim_bfq_job *job, u64 end, u64 offset)
{
	u64 align = min(kfsim_bfq_job_min_bs(job, false), kfsim_bfq_job_min_bs(job, true));
	u64 left = end - min(end, offset);
	double pct = job->size_frac * 100.0;
	u64 bytes;

	if (job->size_frac <= 0)
		return job->size_frac == 0 ? 0 : job->size;
	if (pct == 100.0)
		return left - left % SECTOR_SIZE;
	if (pct == (double)(u64)pct && end <= U64_MAX / 100)
		bytes = end * (u64)pct / 100;
	else
		bytes = (u64)(job->size_frac * (double)end);
	bytes = min(bytes, left);
	bytes -= align ? bytes % align : 0;
	/* the region is whole sectors: a block below 512 bytes aligns to none */
	return bytes - bytes % SECTOR_SIZE;
}

int kfsim_bfq_job_region(const struct kfsim_bfq_job *job, sector_t capacity, sector_t *start,
			 sector_t *nr_sectors, char *errbuf, size_t errlen)
{
	/* a job on a file works inside it: the file's start and size replace the disk's */
	sector_t base = job->file_size ? job->file_start >> SECTOR_SHIFT : 0;
	sector_t span = job->file_size ? job->file_size >> SECTOR_SHIFT : capacity;
	u64 offset = kfsim_bfq_job_offset_bytes(job, capacity);
	u64 size = kfsim_bfq_job_size_bytes(job, (u64)span << SECTOR_SHIFT, offset);
	sector_t bs_sectors = kfsim_bfq_job_min_bs(job, false) >> SECTOR_SHIFT;
	sector_t first, count;

	if (!job->bs || job->bs % SECTOR_SIZE || !job->iodepth || !bs_sectors)
		return job_err(errbuf, errlen, "bs must be a multiple of 512 and iodepth above 0");
	if (job->file_size && (base >= capacity || span > capacity - base))
		return job_err(errbuf, errlen, "its file (%llu bytes at %llu) is beyond the disk",
			       (unsigned long long)job->file_size,
			       (unsigned long long)job->file_start);
	if (offset % SECTOR_SIZE)
		return job_err(errbuf, errlen, "offset must be a multiple of 512");
	/*
	 * a percentage is aligned up (kfsim_bfq_job_pct_offset()); a byte offset is taken as
	 * written (fio 3.33 --write_iolog: offset=120k with bs=16k starts at 122880)
	 */
	first = offset >> SECTOR_SHIFT;
	if (first >= span)
		return job_err(errbuf, errlen, "offset %llu is beyond the %s (%llu sectors)",
			       (unsigned long long)offset, job->file_size ? "file" : "disk",
			       (unsigned long long)span);
	/* fio 3.33 refuses a percent below one block rather than take it as no size */
	if (job->size_frac > 0 && !size)
		return job_err(errbuf, errlen, "blocksize is larger than data set range (size=%g%% "
			       "of the %s's %llu bytes is less than one block)",
			       job->size_frac * 100, job->file_size ? "file" : "disk",
			       (unsigned long long)span << SECTOR_SHIFT);
	count = size ? size >> SECTOR_SHIFT : span - first;
	/*
	 * a percent offset aligned up past where offset + size fit: fio's I/O ends at the
	 * device's end (fio 3.33, a loop device of 64 MiB + 512 B: offset=75%,size=25% read
	 * 4095 blocks from 50335744, no error); the fio reader cuts every region past the
	 * device's end (fio_device_end()), a --job spec's is refused
	 */
	if (!job->file_size && job->offset_frac >= 0 && count > span - first &&
	    job->offset_frac * (double)span + (double)count <= (double)span)
		count = span - first;
	if (count > span - first)
		return job_err(errbuf, errlen,
			       "offset + size go past the end of the %s (%llu sectors from "
			       "sector %llu, %llu left)", job->file_size ? "file" : "disk",
			       (unsigned long long)count, (unsigned long long)first,
			       (unsigned long long)(span - first));
	if (count < kfsim_bfq_job_max_bs(job) >> SECTOR_SHIFT)
		return job_err(errbuf, errlen, "size %llu is smaller than one block (bs=%u)",
			       (unsigned long long)size, kfsim_bfq_job_max_bs(job));
	*start = base + first;
	*nr_sectors = count;
	return 0;
}
