/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_GRID_H
#define KFSIM_CLI_GRID_H

/*
 * Grids of independent runs (kfsim plca sweep, kfsim bfq compare, kfsim bfq ablate), sliced for
 * the engines people already have: GNU parallel, Slurm job arrays, Kubernetes Indexed Jobs, or
 * threads of this process (--jobs).  One place for all of it; a grid command only
 *   1. calls kfsim_grid_cmdline() with its argc/argv before parsing,
 *   2. adds KFSIM_GRID_OPT_ROWS() to its option table,
 *   3. around its loop over points: kfsim_grid_begin(), kfsim_grid_run() with a function that
 *      runs point i and, when sharded, kfsim_grid_put()s the point's record, kfsim_grid_finish()
 *      when sharded; when merging (kfsim merge) it reads the points back with
 *      kfsim_grid_record() and writes its outputs as an unsharded run does.
 *
 * Invariants:
 * - a point is numbered by its place in the unsharded grid, and point i belongs to slice
 *   i mod N: its run (settings and seed) never depends on the slicing, so any slicing merges into
 *   exactly what the unsharded run writes;
 * - a partial file is JSON Lines, written atomically (<kfsim/outfile.h>): a header naming the
 *   grid, its fingerprint (FNV-1a 64 of the kfsim version, the command and every argument but the
 *   slicing options), the number of points, the slice and the arguments; one line per point; an
 *   end line with the count of point lines, so a cut file is refused;
 * - a record is a flat JSON object of numbers, strings and arrays of numbers, written and read
 *   back through one table of the result's fields (cli_record.h); doubles are written with 17
 *   significant digits, so a merged point prints exactly as the run that computed it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/outfile.h>
#include <kfsim/types.h>
#include "cli_record.h"

/* The slicing options as parsed (strings and numbers, checked by kfsim_grid_begin()). */
struct kfsim_grid_opts {
	const char *shard;	  /* "I/N" */
	unsigned int shard_count; /* N for an index from JOB_COMPLETION_INDEX or PARALLEL_SEQ */
	const char *partial;	  /* where the partial result goes */
	unsigned int jobs;	  /* threads of this process */
};

/* The option rows of a command whose options struct holds a struct kfsim_grid_opts at OFF. */
#define KFSIM_GRID_OPT_ROWS(OFF, VERBS)                                                          \
	{ "shard", KFSIM_OPT_STRING, (OFF) + offsetof(struct kfsim_grid_opts, shard), "I/N",      \
	  "run slice I (0-based) of N of the grid and write a partial\n"                        \
	  "result for 'kfsim merge' (default from SLURM_ARRAY_TASK_ID/\n"                       \
	  "SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX or\n"                                 \
	  "PARALLEL_SEQ with --shard-count or KFSIM_SHARD_COUNT)",                              \
	  .verbs = (VERBS) },                                                                    \
	{ "shard-count", KFSIM_OPT_UINT, (OFF) + offsetof(struct kfsim_grid_opts, shard_count),   \
	  "N", "slices in all, for an index from the environment", .min = 1, .max = 1000000,     \
	  .verbs = (VERBS) },                                                                    \
	{ "partial", KFSIM_OPT_OUTPUT, (OFF) + offsetof(struct kfsim_grid_opts, partial), "FILE", \
	  "where a slice writes its partial result (JSON Lines; default\n"                      \
	  "kfsim-CMD-VERB.I-of-N.jsonl)",                                                        \
	  .verbs = (VERBS) },                                                                    \
	{ "jobs", KFSIM_OPT_UINT, (OFF) + offsetof(struct kfsim_grid_opts, jobs), "N",            \
	  "run the grid's points on N threads (same results)", .min = 1, .max = 256,             \
	  .verbs = (VERBS) }

enum kfsim_grid_mode {
	KFSIM_GRID_WHOLE, /* every point, outputs as usual */
	KFSIM_GRID_SHARD, /* the slice's points, a partial file */
	KFSIM_GRID_MERGE, /* no point runs: records come from partial files */
};

/**
 * struct kfsim_grid - one grid run (all fields private to cli_grid.c but @mode)
 */
struct kfsim_grid {
	enum kfsim_grid_mode mode;
	char name[64]; /* "plca sweep" */
	u32 nr_points;
	u32 index, count;
	unsigned int jobs;
	char *partial;
	char fingerprint[17];
	char **records; /* one per point: shard (own points) and merge (all) */
};

/* Remember the command line of the running command (argv[0] = the command's name). */
void kfsim_grid_cmdline(int argc, char **argv);

/**
 * kfsim_grid_begin() - decide how this run treats the grid of @nr_points points
 * @cmd: "plca"; @verb: "sweep"
 *
 * Return: 0, or an exit status (KFSIM_EXIT_USAGE after a one-line message for a bad --shard,
 * an index from the environment without a count, an index beyond the count).
 */
int kfsim_grid_begin(struct kfsim_grid *g, const char *cmd, const char *verb,
		     const struct kfsim_grid_opts *opts, u32 nr_points);

/* Whether this run computes point @i. */
bool kfsim_grid_mine(const struct kfsim_grid *g, u32 i);

/**
 * kfsim_grid_run() - @run_point(@ctx, i) for every point of this run, on the --jobs threads
 *
 * Points are handed out in order; each thread runs the points i with i mod jobs == its number.
 * Return: 0, or the first (lowest-numbered point's) nonzero return of @run_point.
 */
int kfsim_grid_run(struct kfsim_grid *g, int (*run_point)(void *ctx, u32 i), void *ctx);

/* Threads the run uses (1 unless --jobs): a command turns its progress line off beyond 1. */
unsigned int kfsim_grid_threads(const struct kfsim_grid *g);

/* Store point @i's @record (a flat JSON object, copied); -ENOMEM. */
int kfsim_grid_put(struct kfsim_grid *g, u32 i, const char *record);

/*
 * Tell (on stderr, as one of the merge's problems) that point @i's record does not read back
 * (@why: the field, as kfsim_rec_get_table() says it), naming the partial file and line it came
 * from; returns 1, to count the problems.
 */
int kfsim_grid_damaged(const struct kfsim_grid *g, u32 i, const char *why);

/* Point @i's record when merging, else NULL. */
const char *kfsim_grid_record(const struct kfsim_grid *g, u32 i);

/**
 * kfsim_grid_finish() - write the slice's partial file atomically and say so on stderr
 * Return: the exit status.
 */
int kfsim_grid_finish(struct kfsim_grid *g, const char *cmd);

/* Free what kfsim_grid_begin() and _put() allocated. */
void kfsim_grid_end(struct kfsim_grid *g);

/**
 * kfsim_grid_merge_files() - check partial files and run their grid's command on them
 *
 * Everything wrong with the set is reported (each missing or doubled point, each file of another
 * grid or a damaged one) before it is refused with KFSIM_EXIT_FAILURE; nothing is written then.
 * @run_command: runs the command named argv[0] (kfsim's table) and returns its exit status.
 */
int kfsim_grid_merge_files(char **paths, int nr_paths, int (*run_command)(int argc, char **argv));

#endif /* KFSIM_CLI_GRID_H */
