// SPDX-License-Identifier: MIT
/*
 * Slicing a grid of runs, partial results, and merging them back (cli_grid.h says what each
 * piece promises).  No scheduler of our own: the slices run under whatever engine started them
 * (GNU parallel, a Slurm array, a Kubernetes Indexed Job) or on threads of this process.
 *
 * Where the slice comes from, first match wins:
 *   --shard I/N
 *   (SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN (0 if unset)) / SLURM_ARRAY_TASK_STEP (1 if
 *     unset) of SLURM_ARRAY_TASK_COUNT
 *   JOB_COMPLETION_INDEX of --shard-count (or KFSIM_SHARD_COUNT): a Kubernetes Indexed Job
 *   PARALLEL_SEQ - 1 of --shard-count (or KFSIM_SHARD_COUNT): GNU parallel numbers its jobs from
 *     1 and has no variable for how many there are, so without a count PARALLEL_SEQ is not taken
 *     as a slice (a kfsim run that merely happens to run under parallel stays whole)
 * A merge (kfsim merge) replays the command line the slices recorded, and takes no slice.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/kernel.h>
#include <kfsim/version.h>
#include "cli.h"
#include "core/infile.h"
#include "core/line_reader.h"
#include "cli_grid.h"

#define PARTIAL_FORMAT 1

/* The command line of the running command (kfsim_grid_cmdline()). */
static int cmd_argc;
static char **cmd_argv;

/* The records a merge hands to the command it replays, with what they must match. */
static struct {
	bool active;
	bool used;
	char grid[64];
	char fingerprint[17];
	u32 nr_points;
	char **records;
	/* where each record was read: its file and line (kfsim_grid_damaged()) */
	const char **rec_path;
	u64 *rec_line;
} merge_in;

void kfsim_grid_cmdline(int argc, char **argv)
{
	cmd_argc = argc;
	cmd_argv = argv;
}

/* ---- the command line a slice records ------------------------------------------------------- */

static const char *const slicing_opts[] = { "--shard", "--shard-count", "--partial", "--jobs" };

/* Whether argv[@i] is a slicing option; *@skip: how many words it takes (1 or 2). */
static bool is_slicing_opt(char **argv, int argc, int i, int *skip)
{
	for (size_t k = 0; k < ARRAY_SIZE(slicing_opts); k++) {
		size_t len = strlen(slicing_opts[k]);

		if (strncmp(argv[i], slicing_opts[k], len))
			continue;
		if (argv[i][len] == '=') {
			*skip = 1;
			return true;
		}
		if (!argv[i][len]) {
			*skip = i + 1 < argc ? 2 : 1;
			return true;
		}
	}
	return false;
}

/* FNV-1a 64 over the words, each with its terminating NUL. */
static u64 fnv1a(u64 h, const char *s)
{
	do {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	} while (*s++);
	return h;
}

static void grid_fingerprint(struct kfsim_grid *g)
{
	char points[16];
	u64 h = 0xcbf29ce484222325ull;
	int skip;

	h = fnv1a(h, "kfsim grid " KFSIM_VERSION_STRING);
	h = fnv1a(h, g->name);
	/* --kver changes what a run does: slices of different releases do not merge */
	snprintf(points, sizeof(points), "%u", kfsim_kernel_version());
	h = fnv1a(h, points);
	snprintf(points, sizeof(points), "%u", g->nr_points);
	h = fnv1a(h, points);
	for (int i = 1; i < cmd_argc; i++) {
		if (i > 1 && is_slicing_opt(cmd_argv, cmd_argc, i, &skip)) {
			i += skip - 1;
			continue;
		}
		h = fnv1a(h, cmd_argv[i]);
	}
	snprintf(g->fingerprint, sizeof(g->fingerprint), "%016llx", (unsigned long long)h);
}

/* A JSON string, byte for byte: bytes outside printable ASCII as \u00XX. */
static void write_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* ---- which slice ----------------------------------------------------------------------------- */

static int env_uint(const char *name, unsigned long long *value)
{
	const char *text = getenv(name);
	char *end;

	if (!text || !*text)
		return -ENOENT;
	errno = 0;
	*value = strtoull(text, &end, 10);
	if (errno || *end || *text < '0' || *text > '9' || *value > 1000000)
		return -EINVAL;
	return 0;
}

static int bad_env(const char *cmd, const char *name)
{
	return kfsim_cli_usage(cmd, "invalid value '%s' in %s: expected a whole number up to "
			       "1000000", getenv(name), name);
}

/* The slice count for an index from JOB_COMPLETION_INDEX or PARALLEL_SEQ, or 0. */
static int env_count(const char *cmd, const struct kfsim_grid_opts *o, unsigned long long *count)
{
	int ret;

	*count = o->shard_count;
	if (*count)
		return 0;
	ret = env_uint("KFSIM_SHARD_COUNT", count);
	if (ret == -EINVAL || (!ret && !*count))
		return bad_env(cmd, "KFSIM_SHARD_COUNT");
	if (ret)
		*count = 0;
	return 0;
}

static int slice_from_env(struct kfsim_grid *g, const char *cmd, const struct kfsim_grid_opts *o,
			  const char **from)
{
	unsigned long long id = 0, count = 0, first = 0, step = 1;
	int ret;

	ret = env_uint("SLURM_ARRAY_TASK_ID", &id);
	if (ret != -ENOENT) {
		*from = "SLURM_ARRAY_TASK_ID";
		if (ret)
			return bad_env(cmd, "SLURM_ARRAY_TASK_ID");
		ret = env_uint("SLURM_ARRAY_TASK_COUNT", &count);
		if (ret == -ENOENT)
			return kfsim_cli_usage(cmd, "SLURM_ARRAY_TASK_ID=%llu but no "
					       "SLURM_ARRAY_TASK_COUNT: expected both (a Slurm array "
					       "sets both)", id);
		if (ret || !count)
			return bad_env(cmd, "SLURM_ARRAY_TASK_COUNT");
		ret = env_uint("SLURM_ARRAY_TASK_MIN", &first);
		if (ret == -EINVAL)
			return bad_env(cmd, "SLURM_ARRAY_TASK_MIN");
		if (ret)
			first = 0;
		/* an array of --array=0-10:2 numbers its tasks 0, 2, ... 10: slices 0..5 */
		ret = env_uint("SLURM_ARRAY_TASK_STEP", &step);
		if (ret == -EINVAL || (!ret && !step))
			return bad_env(cmd, "SLURM_ARRAY_TASK_STEP");
		if (ret)
			step = 1;
		if (first > id || (id - first) % step)
			return kfsim_cli_usage(cmd, "SLURM_ARRAY_TASK_ID=%llu is no task of the array "
					       "SLURM_ARRAY_TASK_MIN=%llu, SLURM_ARRAY_TASK_STEP=%llu",
					       id, first, step);
		g->index = (u32)((id - first) / step);
		g->count = (u32)count;
		return 0;
	}
	ret = env_uint("JOB_COMPLETION_INDEX", &id);
	if (ret != -ENOENT) {
		*from = "JOB_COMPLETION_INDEX";
		if (ret)
			return bad_env(cmd, "JOB_COMPLETION_INDEX");
		if (env_count(cmd, o, &count))
			return KFSIM_EXIT_USAGE;
		if (!count)
			return kfsim_cli_usage(cmd, "JOB_COMPLETION_INDEX=%llu but no slice count: give "
					       "--shard-count N or KFSIM_SHARD_COUNT (the Job's "
					       "completions)", id);
		g->index = (u32)id;
		g->count = (u32)count;
		return 0;
	}
	ret = env_uint("PARALLEL_SEQ", &id);
	if (env_count(cmd, o, &count))
		return KFSIM_EXIT_USAGE;
	if (ret != -ENOENT && count) {
		*from = "PARALLEL_SEQ";
		if (ret || !id)
			return bad_env(cmd, "PARALLEL_SEQ");
		g->index = (u32)(id - 1);
		g->count = (u32)count;
		return 0;
	}
	if (o->shard_count)
		return kfsim_cli_usage(cmd, "--shard-count needs a slice index: --shard, or "
				       "JOB_COMPLETION_INDEX or PARALLEL_SEQ in the environment");
	return 0;
}

static int parse_shard(struct kfsim_grid *g, const char *cmd, const char *text)
{
	unsigned long long index, count;
	char *end, *slash;

	errno = 0;
	index = strtoull(text, &slash, 10);
	if (errno || slash == text || *text < '0' || *text > '9' || *slash != '/' ||
	    slash[1] < '0' || slash[1] > '9')
		goto bad;
	count = strtoull(slash + 1, &end, 10);
	if (errno || *end || !count || count > 1000000 || index >= count)
		goto bad;
	g->index = (u32)index;
	g->count = (u32)count;
	return 0;
bad:
	return kfsim_cli_usage(cmd, "invalid value '%s' for --shard: expected I/N with 0 <= I < N "
			       "<= 1000000", text);
}

int kfsim_grid_begin(struct kfsim_grid *g, const char *cmd, const char *verb,
		     const struct kfsim_grid_opts *o, u32 nr_points)
{
	const char *from = "--shard";
	int ret;

	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s %s", cmd, verb);
	g->nr_points = nr_points;
	g->jobs = o->jobs ? o->jobs : 1;
	grid_fingerprint(g);
	if (merge_in.active) {
		merge_in.used = true;
		if (strcmp(merge_in.grid, g->name) || strcmp(merge_in.fingerprint, g->fingerprint) ||
		    merge_in.nr_points != nr_points)
			return kfsim_cli_fail("merge", -EINVAL, "refused: the partial files carry grid '%s' "
				      "fingerprint %s of %u points, but their command line makes "
				      "'%s' fingerprint %s of %u points (another kfsim version, or "
				      "an edited file?)", merge_in.grid, merge_in.fingerprint,
				      merge_in.nr_points, g->name, g->fingerprint, nr_points);
		g->mode = KFSIM_GRID_MERGE;
		g->records = merge_in.records;
		return 0;
	}
	ret = o->shard ? parse_shard(g, cmd, o->shard) : slice_from_env(g, cmd, o, &from);
	if (ret)
		return ret;
	if (!g->count) {
		if (o->partial)
			return kfsim_cli_usage(cmd, "--partial needs a slice: --shard I/N");
		return 0;
	}
	if (g->index >= g->count)
		return kfsim_cli_usage(cmd, "slice index %u from %s is not below the count %u",
				       g->index, from, g->count);
	g->mode = KFSIM_GRID_SHARD;
	if (o->partial) {
		g->partial = strdup(o->partial);
	} else {
		char path[160];

		snprintf(path, sizeof(path), "kfsim-%s-%s.%u-of-%u.jsonl", cmd, verb, g->index,
			 g->count);
		g->partial = strdup(path);
	}
	g->records = calloc(nr_points ? nr_points : 1, sizeof(*g->records));
	if (!g->partial || !g->records)
		return kfsim_cli_fail(cmd, -ENOMEM, "no memory for the slice");
	return 0;
}

bool kfsim_grid_mine(const struct kfsim_grid *g, u32 i)
{
	switch (g->mode) {
	case KFSIM_GRID_MERGE:
		return false;
	case KFSIM_GRID_SHARD:
		return i % g->count == g->index;
	default:
		return true;
	}
}

unsigned int kfsim_grid_threads(const struct kfsim_grid *g)
{
	return g->mode == KFSIM_GRID_MERGE ? 1 : g->jobs;
}

/* ---- running the points -------------------------------------------------------------------- */

struct grid_worker {
	pthread_t thread;
	struct kfsim_grid *g;
	int (*run_point)(void *ctx, u32 i);
	void *ctx;
	unsigned int nr, nth;
	int *results;
};

static void *grid_worker_main(void *arg)
{
	struct grid_worker *w = arg;
	unsigned int k = 0;

	for (u32 i = 0; i < w->g->nr_points; i++) {
		if (!kfsim_grid_mine(w->g, i))
			continue;
		if (k++ % w->nr == w->nth)
			w->results[i] = w->run_point(w->ctx, i);
	}
	return NULL;
}

int kfsim_grid_run(struct kfsim_grid *g, int (*run_point)(void *ctx, u32 i), void *ctx)
{
	struct grid_worker *workers;
	unsigned int nr = g->jobs, started = 0;
	int *results, ret = 0;

	if (g->mode == KFSIM_GRID_MERGE)
		return 0;
	if (nr <= 1) {
		for (u32 i = 0; i < g->nr_points && !ret; i++)
			if (kfsim_grid_mine(g, i))
				ret = run_point(ctx, i);
		return ret;
	}
	results = calloc(g->nr_points ? g->nr_points : 1, sizeof(*results));
	workers = calloc(nr, sizeof(*workers));
	if (!results || !workers) {
		free(results);
		free(workers);
		return -ENOMEM;
	}
	for (unsigned int t = 0; t < nr; t++) {
		workers[t] = (struct grid_worker){ .g = g, .run_point = run_point, .ctx = ctx,
						   .nr = nr, .nth = t, .results = results };
		if (t && pthread_create(&workers[t].thread, NULL, grid_worker_main, &workers[t]))
			break;
		started = t + 1;
	}
	/* thread 0's share runs here; a thread that could not start leaves its share to us */
	for (unsigned int t = 0; t < nr; t++)
		if (!t || t >= started)
			grid_worker_main(&workers[t]);
	for (unsigned int t = 1; t < started; t++)
		pthread_join(workers[t].thread, NULL);
	for (u32 i = 0; i < g->nr_points && !ret; i++)
		ret = results[i];
	free(results);
	free(workers);
	return ret;
}

int kfsim_grid_put(struct kfsim_grid *g, u32 i, const char *record)
{
	if (g->mode != KFSIM_GRID_SHARD || i >= g->nr_points)
		return 0;
	free(g->records[i]);
	g->records[i] = strdup(record);
	return g->records[i] ? 0 : -ENOMEM;
}

static int problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int kfsim_grid_damaged(const struct kfsim_grid *g, u32 i, const char *why)
{
	if (g->mode != KFSIM_GRID_MERGE || !merge_in.rec_path || i >= merge_in.nr_points)
		return problem("point %u's record is damaged: %s", i, why);
	return problem("'%s': line %llu: point %u's record is damaged: %s", merge_in.rec_path[i],
		       (unsigned long long)merge_in.rec_line[i], i, why);
}

const char *kfsim_grid_record(const struct kfsim_grid *g, u32 i)
{
	return g->mode == KFSIM_GRID_MERGE && i < g->nr_points ? g->records[i] : NULL;
}

int kfsim_grid_finish(struct kfsim_grid *g, const char *cmd)
{
	struct kfsim_outfile f;
	u32 written = 0;
	int ret, skip;

	ret = kfsim_outfile_open(&f, g->partial);
	if (ret)
		return kfsim_cli_fail(cmd, ret, "cannot write partial result '%s'", g->partial);
	fprintf(f.file, "{\"kfsim_partial\":%d,\"grid\":", PARTIAL_FORMAT);
	write_string(f.file, g->name);
	fprintf(f.file, ",\"fingerprint\":\"%s\",\"points\":%u,\"shard\":%u,\"shards\":%u,"
		"\"kver\":%u,\"args\":[", g->fingerprint, g->nr_points, g->index, g->count,
		kfsim_kernel_version());
	for (int i = 0, first = 1; i < cmd_argc; i++) {
		if (i > 1 && is_slicing_opt(cmd_argv, cmd_argc, i, &skip)) {
			i += skip - 1;
			continue;
		}
		if (!first)
			fputc(',', f.file);
		first = 0;
		write_string(f.file, cmd_argv[i]);
	}
	fputs("]}\n", f.file);
	for (u32 i = 0; i < g->nr_points; i++) {
		if (!kfsim_grid_mine(g, i))
			continue;
		if (!g->records[i]) {
			kfsim_outfile_abort(&f);
			return kfsim_cli_fail(cmd, -EINVAL, "point %u has no result", i);
		}
		fprintf(f.file, "{\"point\":%u,\"record\":%s}\n", i, g->records[i]);
		written++;
	}
	fprintf(f.file, "{\"end\":%u}\n", written);
	ret = kfsim_outfile_commit(&f);
	if (ret)
		return kfsim_cli_fail(cmd, ret, "cannot write partial result '%s'", g->partial);
	fprintf(stderr, "kfsim %s: slice %u/%u: %u of %u points written to %s\n", g->name,
		g->index, g->count, written, g->nr_points, g->partial);
	return KFSIM_EXIT_OK;
}

void kfsim_grid_end(struct kfsim_grid *g)
{
	if (g->mode == KFSIM_GRID_SHARD && g->records) {
		for (u32 i = 0; i < g->nr_points; i++)
			free(g->records[i]);
		free(g->records);
	}
	free(g->partial);
	g->records = NULL;
	g->partial = NULL;
}

/* ---- merging ------------------------------------------------------------------------------- */

struct partial {
	const char *path;
	char grid[64];
	char fingerprint[17];
	u64 points, shard, shards, kver;
	char **args;
	int nr_args;
};

/*
 * The longest line of a partial file.  A header is its command line and a point one record:
 * KiB, not MiB; the bound is there for what is no partial file (/dev/zero named as one), whose
 * first line would otherwise grow until memory runs out.
 */
#define PARTIAL_MAX_LINE (16u << 20)
/* bad point lines told per file; past them the file is garbage, and told as such, once */
#define PARTIAL_TOLD_BAD_LINES 10

/*
 * The next whole line of @lines, or NULL at the end, for a last line cut short (no newline) and
 * for one beyond the bound (*@too_long) or without memory (*@nomem).  A line with a NUL byte is returned empty, so it is
 * told as no point rather than read up to the NUL.
 */
static const char *read_line(struct kfsim_line_reader *lines, bool *too_long, bool *nomem)
{
	enum kfsim_line_status status = kfsim_line_reader_next(lines);

	*too_long = status == KFSIM_LINE_TOO_LONG;
	*nomem = status == KFSIM_LINE_NOMEM;
	if (status != KFSIM_LINE_OK || !lines->ended)
		return NULL;
	return lines->has_nul ? "" : lines->text;
}

static int parse_args(struct partial *p, const char *header)
{
	const char *s = kfsim_rec_find(header, "args");
	char word[4096];

	if (!s || *s++ != '[')
		return -EINVAL;
	while (*s == '"') {
		char **args = realloc(p->args, (size_t)(p->nr_args + 2) * sizeof(*args));

		if (!args)
			return -ENOMEM;
		p->args = args;
		if (kfsim_rec_read_string(s, word, sizeof(word)) || !(args[p->nr_args] = strdup(word)))
			return -EINVAL;
		args[++p->nr_args] = NULL;
		s = kfsim_rec_skip_value(s);
		if (!s)
			return -EINVAL;
		if (*s == ',')
			s++;
	}
	return *s == ']' && p->nr_args >= 2 ? 0 : -EINVAL;
}

static void partial_free(struct partial *p)
{
	for (int i = 0; i < p->nr_args; i++)
		free(p->args[i]);
	free(p->args);
}

/* Report one problem of the set (all are reported before the merge is refused). */
static int problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int problem(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kfsim merge: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if (*s < 0x20 || *s >= 0x7f)
			return false;
	return true;
}

/*
 * What is wrong with the header line @header (NULL when nothing), filling @p; the first field
 * that fails is named, so a hand-edited header says which edit broke it.  The writer puts no
 * blanks between tokens (write_string(), kfsim_rec_*()), and neither may an edit.
 */
static const char *header_problem(struct partial *p, const char *header)
{
	static const char magic[] = "{\"kfsim_partial\":1,";

	if (!header)
		return "its first line is no partial header";
	if (strncmp(header, magic, strlen(magic)))
		return "its first line does not start {\"kfsim_partial\":1, (blanks and other "
		       "versions are no header of this kfsim)";
	static const char *const keys[] = { "kfsim_partial", "grid", "fingerprint", "points",
					    "shard", "shards", "kver", "args", NULL };

	if (!kfsim_rec_keys_are(header, keys))
		return "its header's fields are not kfsim_partial, grid, fingerprint, points, "
		       "shard, shards, kver and args, each once, in that order";
	/* both are told in messages: a control byte (\u001b) would rewrite the terminal's line */
	if (kfsim_rec_get_str(header, "grid", p->grid, sizeof(p->grid)) || !printable(p->grid))
		return "its header has no \"grid\" string (of printable ASCII)";
	if (kfsim_rec_get_str(header, "fingerprint", p->fingerprint, sizeof(p->fingerprint)) ||
	    strlen(p->fingerprint) != 16 || strspn(p->fingerprint, "0123456789abcdef") != 16)
		return "its header has no \"fingerprint\" of 16 hex digits";
	if (kfsim_rec_get_u64(header, "points", &p->points) || p->points > 1000000)
		return "its header's \"points\" is not a whole number up to 1000000";
	if (kfsim_rec_get_u64(header, "shards", &p->shards) || !p->shards || p->shards > 1000000)
		return "its header's \"shards\" is not a whole number from 1 to 1000000";
	if (kfsim_rec_get_u64(header, "shard", &p->shard) || p->shard >= p->shards)
		return "its header's \"shard\" is not a whole number below \"shards\"";
	/* a kernel version is an unsigned int: 2^32 + 6.3's is none, not 6.3 */
	if (kfsim_rec_get_u64(header, "kver", &p->kver) || p->kver > UINT_MAX)
		return "its header has no \"kver\" number of a kernel version";
	if (parse_args(p, header))
		return "its header's \"args\" is no command line (an array of strings, the command "
		       "and its subcommand first)";
	return NULL;
}

/* Read @p's header line from @in; a problem when it is none. */
static int read_header(struct partial *p, FILE *in)
{
	struct kfsim_line_reader lines;
	bool too_long, nomem;
	const char *header, *why;

	kfsim_line_reader_init(&lines, in, PARTIAL_MAX_LINE, SIZE_MAX, false);
	header = read_line(&lines, &too_long, &nomem);
	why = header_problem(p, header);
	kfsim_line_reader_release(&lines);
	if (why)
		p->grid[0] = '\0';
	if (nomem)
		return problem("'%s': no memory for its first line (-ENOMEM)", p->path);
	if (too_long)
		return problem("'%s' is not a kfsim partial result (its first line is longer than "
			       "%u MiB)", p->path, PARTIAL_MAX_LINE >> 20);
	return why ? problem("'%s' is not a kfsim partial result (%s)", p->path, why) : 0;
}

/* Read partial file @idx's points into @records (whose file: @owner), counting problems. */
static int read_partial(struct partial *p, int idx, char **records, int *owner, u64 *lineno,
			const struct partial *all)
{
	int err;
	FILE *in = kfsim_infile_open(p->path, &err);
	struct kfsim_line_reader lines;
	const char *line;
	int bad = 0;
	u64 count = 0, end;
	int nr_bad_lines = 0;
	bool too_long, nomem, read_err;

	if (!in)
		return problem("cannot read '%s': %s", p->path, strerror(-err));
	if (read_header(p, in)) {
		fclose(in);
		return 1;
	}
	if (strcmp(p->grid, all[0].grid) || strcmp(p->fingerprint, all[0].fingerprint) ||
	    p->points != all[0].points || p->shards != all[0].shards) {
		fclose(in);
		return problem("'%s' is from another grid: '%s' fingerprint %s of %llu points in "
			       "%llu slices, but '%s' is '%s' fingerprint %s of %llu points in %llu "
			       "slices", p->path, p->grid, p->fingerprint,
			       (unsigned long long)p->points, (unsigned long long)p->shards,
			       all[0].path, all[0].grid, all[0].fingerprint,
			       (unsigned long long)all[0].points, (unsigned long long)all[0].shards);
	}
	kfsim_line_reader_init(&lines, in, PARTIAL_MAX_LINE, SIZE_MAX, false);
	while ((line = read_line(&lines, &too_long, &nomem))) {
		static const char *const point_keys[] = { "point", "record", NULL };
		static const char *const end_keys[] = { "end", NULL };
		u64 point;
		/* a line of these keys only, each once: a second "point" would go unseen */
		bool is_point = kfsim_rec_keys_are(line, point_keys);
		const char *rec = is_point ? kfsim_rec_find(line, "record") : NULL;
		const char *rec_end = rec ? kfsim_rec_skip_value(rec) : NULL;

		if (kfsim_rec_keys_are(line, end_keys) && !kfsim_rec_get_u64(line, "end", &end)) {
			if (end != count)
				bad += problem("'%s' ends after %llu points but says %llu", p->path,
					       (unsigned long long)count, (unsigned long long)end);
			/* nothing may follow the end line: an appended point would be merged
			 * unseen, or a second file pasted onto the first half-read */
			if (kfsim_line_reader_next(&lines) != KFSIM_LINE_END)
				bad += problem("'%s': line %llu follows the end line (line %llu)",
					       p->path, (unsigned long long)count + 3,
					       (unsigned long long)count + 2);
			kfsim_line_reader_release(&lines);
			fclose(in);
			return bad;
		}
		/* a bad line counts as a point line: the end line's count and the next line's
		 * number stay right, and the lines after it are still read and checked */
		count++;
		if (kfsim_rec_get_u64(line, "point", &point) || !rec || *rec != '{' || !rec_end ||
		    point >= p->points) {
			if (++nr_bad_lines > PARTIAL_TOLD_BAD_LINES) {
				kfsim_line_reader_release(&lines);
				fclose(in);
				return bad + problem("'%s': more lines after line %llu are no points "
						     "either: not a partial result", p->path,
						     (unsigned long long)count);
			}
			bad += problem("'%s': line %llu is no point of this grid", p->path,
				       (unsigned long long)count + 1);
			continue;
		}
		if (point % p->shards != p->shard) {
			bad += problem("'%s': line %llu is point %llu, which is no point of its slice "
				       "%llu of %llu", p->path, (unsigned long long)count + 1,
				       (unsigned long long)point, (unsigned long long)p->shard,
				       (unsigned long long)p->shards);
		} else if (records[point]) {
			bad += problem("point %llu is in both '%s' and '%s' (overlapping slices)",
				       (unsigned long long)point, all[owner[point]].path, p->path);
		} else {
			records[point] = strndup(rec, (size_t)(rec_end - rec));
			owner[point] = idx;
			lineno[point] = count + 1;
		}
	}
	kfsim_line_reader_release(&lines);
	read_err = ferror(in);
	fclose(in);
	if (too_long)
		return bad + problem("'%s': line %llu is longer than %u MiB: no point of this grid",
				     p->path, (unsigned long long)count + 2, PARTIAL_MAX_LINE >> 20);
	/* the reader stops for want of memory or at a read error too: those are not a cut file */
	if (read_err)
		return bad + problem("cannot read '%s' after line %llu: -EIO", p->path,
				     (unsigned long long)count + 1);
	if (nomem)
		return bad + problem("'%s': no memory for line %llu (-ENOMEM)", p->path,
				     (unsigned long long)count + 2);
	return bad + problem("'%s' is cut short (no end line): was its slice still running?",
			     p->path);
}

int kfsim_grid_merge_files(char **paths, int nr_paths, int (*run_command)(int argc, char **argv))
{
	struct partial *parts = calloc((size_t)nr_paths, sizeof(*parts));
	char **records = NULL;
	int *owner = NULL;
	u64 *lineno = NULL;
	const char **rec_path = NULL;
	int bad = 0, ret = KFSIM_EXIT_FAILURE;
	u64 missing = 0;

	if (!parts)
		return kfsim_cli_fail("merge", -ENOMEM, "no memory");
	for (int i = 0; i < nr_paths; i++)
		parts[i].path = paths[i];
	/* the first file names the grid; every file (the first too) is then read against it */
	{
		int err;
		FILE *in = kfsim_infile_open(parts[0].path, &err);

		if (!in) {
			bad += problem("cannot read '%s': %s", parts[0].path, strerror(-err));
			goto out;
		}
		bad += read_header(&parts[0], in);
		fclose(in);
		if (bad)
			goto out;
		partial_free(&parts[0]);
		parts[0].args = NULL;
		parts[0].nr_args = 0;
	}
	records = calloc(parts[0].points ? parts[0].points : 1, sizeof(*records));
	owner = calloc(parts[0].points ? parts[0].points : 1, sizeof(*owner));
	lineno = calloc(parts[0].points ? parts[0].points : 1, sizeof(*lineno));
	rec_path = calloc(parts[0].points ? parts[0].points : 1, sizeof(*rec_path));
	if (!records || !owner || !lineno || !rec_path) {
		ret = kfsim_cli_fail("merge", -ENOMEM, "no memory");
		goto out;
	}
	for (int i = 0; i < nr_paths; i++)
		bad += read_partial(&parts[i], i, records, owner, lineno, parts);
	for (u64 p = 0; p < parts[0].points; p++) {
		if (records[p])
			continue;
		if (missing++ < 20)
			problem("point %llu is missing (slice %llu of %llu)", (unsigned long long)p,
				(unsigned long long)(p % parts[0].shards),
				(unsigned long long)parts[0].shards);
	}
	if (missing)
		bad += problem("incomplete: %llu of %llu points missing", (unsigned long long)missing,
			       (unsigned long long)parts[0].points);
	if (bad)
		goto out;
	if (!strcmp(parts[0].args[0], "merge")) {
		problem("'%s' names the merge itself", parts[0].path);
		goto out;
	}
	/* the line replayed is the grid the header names, nothing else ("bfq compare ...") */
	{
		size_t cmd_len = strlen(parts[0].args[0]);

		if (strncmp(parts[0].grid, parts[0].args[0], cmd_len) ||
		    parts[0].grid[cmd_len] != ' ' ||
		    strcmp(parts[0].grid + cmd_len + 1, parts[0].args[1])) {
			bad += problem("'%s' is grid '%s', but its command line is '%s %s'",
				       parts[0].path, parts[0].grid, parts[0].args[0],
				       parts[0].args[1]);
			goto out;
		}
	}
	merge_in.active = true;
	merge_in.used = false;
	snprintf(merge_in.grid, sizeof(merge_in.grid), "%s", parts[0].grid);
	snprintf(merge_in.fingerprint, sizeof(merge_in.fingerprint), "%s", parts[0].fingerprint);
	merge_in.nr_points = (u32)parts[0].points;
	merge_in.records = records;
	for (u64 p = 0; p < parts[0].points; p++)
		rec_path[p] = parts[owner[p]].path;
	merge_in.rec_path = rec_path;
	merge_in.rec_line = lineno;
	kfsim_grid_cmdline(parts[0].nr_args, parts[0].args);
	if (kfsim_set_kernel_version((unsigned int)parts[0].kver)) {
		problem("'%s' was made for an unknown kernel version %llu", parts[0].path,
			(unsigned long long)parts[0].kver);
		merge_in.active = false;
		goto out;
	}
	ret = run_command(parts[0].nr_args, parts[0].args);
	if (!ret && !merge_in.used)
		ret = kfsim_cli_fail("merge", -EINVAL, "'%s %s' ran no grid", parts[0].args[0],
				     parts[0].args[1]);
	merge_in.active = false;
out:
	if (bad)
		fprintf(stderr, "kfsim merge: refused: %d problem(s) with the %d partial file(s); "
			"nothing written\n", bad, nr_paths);
	for (u64 p = 0; records && p < parts[0].points; p++)
		free(records[p]);
	free(records);
	free(owner);
	free(lineno);
	free(rec_path);
	merge_in.rec_path = NULL;
	merge_in.rec_line = NULL;
	for (int i = 0; i < nr_paths; i++)
		partial_free(&parts[i]);
	free(parts);
	return ret;
}
