/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_H
#define KFSIM_CLI_H

/*
 * What every kfsim subcommand shares: the command table entry, the exit-status rules, option
 * value parsing, and the tour step interface.
 *
 * Exit status: 0 success; 1 a runtime failure, printed as "kfsim <cmd>: -EINVAL: what failed";
 * 2 a bad command line, printed as one line naming the option and what it expects.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <kfsim/types.h>

#define KFSIM_EXIT_OK 0
#define KFSIM_EXIT_FAILURE 1
#define KFSIM_EXIT_USAGE 2

/**
 * struct kfsim_cli_command - one subcommand
 * @name: the word after "kfsim"
 * @summary: one line for "kfsim --help"
 * @run: the command; argv[0] is @name.  Returns the exit status.
 */
struct kfsim_cli_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

/* Longest file name (relative to the output directory) a tour step may write, NUL included. */
#define KFSIM_TOUR_NAME_MAX 64
#define KFSIM_TOUR_MAX_FILES 16

/**
 * struct kfsim_tour_ctx - what a tour step gets
 * @out: where the narrative goes (captured for the HTML page, then shown on the terminal)
 * @out_dir: the directory for pictures and traces (exists; short enough that every
 *           @out_dir/NAME with NAME below KFSIM_TOUR_NAME_MAX fits in PATH_MAX)
 * @json: the tour prints a JSON report: keep @out free of anything but narrative
 * @files: files the step wrote, recorded with kfsim_tour_file() for the report
 * @nr_files: how many
 */
struct kfsim_tour_ctx {
	FILE *out;
	const char *out_dir;
	bool json;
	char files[KFSIM_TOUR_MAX_FILES][PATH_MAX];
	int nr_files;
};

/**
 * struct kfsim_tour_step - one part's contribution to "kfsim tour"
 * @name: short id ("core", "rbtree")
 * @title: heading printed before the step
 * @doc: the part's teaching page in docs/ ("rbtree.md")
 * @try_cmds: NULL-terminated kfsim command lines a reader can run next (each runs as written)
 * @run: the step; returns 0 or a negative errno
 */
struct kfsim_tour_step {
	const char *name;
	const char *title;
	const char *doc;
	const char *const *try_cmds;
	int (*run)(struct kfsim_tour_ctx *ctx);
};

/** kfsim_tour_file() - record that the step wrote @path (shown in the tour summary). */
void kfsim_tour_file(struct kfsim_tour_ctx *ctx, const char *path);

/**
 * kfsim_tour_path() - @ctx->out_dir/@name into @buf (PATH_MAX bytes)
 *
 * Return: 0; -ENAMETOOLONG when @name is not shorter than KFSIM_TOUR_NAME_MAX or the path would
 * not fit (nothing is ever truncated into the name of some other file).
 */
int kfsim_tour_path(const struct kfsim_tour_ctx *ctx, const char *name, char buf[PATH_MAX]);

/**
 * kfsim_tour_write() - create @ctx->out_dir/@name with what @write puts on its stream
 * @write: writes the content; returns 0 or a negative errno
 *
 * The one place the tour creates its own files (pictures, CSV, the HTML page).  On failure a
 * regular file it created is removed again.  The file is recorded with kfsim_tour_file().
 * Return: 0; -ENAMETOOLONG; the -errno of opening; @write's error; -EIO on a write error.
 */
int kfsim_tour_write(struct kfsim_tour_ctx *ctx, const char *name,
		     int (*write)(FILE *out, const void *arg), const void *arg);

struct kfsim_plot;
/** kfsim_tour_plot() - kfsim_tour_write() of @plot drawn by kfsim_plot_svg_write(). */
int kfsim_tour_plot(struct kfsim_tour_ctx *ctx, const char *name, const struct kfsim_plot *plot);

/**
 * kfsim_cli_usage() - report a bad command line and return KFSIM_EXIT_USAGE
 * @cmd: the subcommand ("rbtree"), or NULL for kfsim itself
 *
 * Prints "kfsim <cmd>: <message>" on one line to stderr.
 */
int kfsim_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * kfsim_cli_fail() - report a runtime failure and return KFSIM_EXIT_FAILURE
 * @err: the negative errno
 *
 * Prints "kfsim <cmd>: -EINVAL: <message>" to stderr.
 */
int kfsim_cli_fail(const char *cmd, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * kfsim_cli_parse_u64() - parse the value @text of option @opt into [@min, @max]
 *
 * Return: 0, or -EINVAL after printing the usage error ("invalid value 'x' for --seed:
 * expected an integer from 0 to 4294967295").
 */
int kfsim_cli_parse_u64(const char *cmd, const char *opt, const char *text, u64 min, u64 max,
			u64 *out);

/** kfsim_cli_parse_double() - like kfsim_cli_parse_u64() for a finite real number. */
int kfsim_cli_parse_double(const char *cmd, const char *opt, const char *text, double min,
			   double max, double *out);

/**
 * kfsim_cli_bad_option() - the usage error for getopt_long's '?' or ':' result
 * @argv: the command's argv
 * @optstring_result: what getopt_long returned ('?' or ':')
 *
 * Return: KFSIM_EXIT_USAGE, after "unknown option '--x'" or "option '--x' needs a value".
 */
int kfsim_cli_bad_option(const char *cmd, char **argv, int optstring_result);

/** kfsim_cli_wants_help() - whether argv (after argv[0]) is "--help" or "-h" anywhere. */
bool kfsim_cli_wants_help(int argc, char **argv);

#endif /* KFSIM_CLI_H */
