/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_H
#define KFSIM_CLI_H

/*
 * What the kfsim program's subcommands share beyond the option parser (src/cliopts/cliopts.h:
 * exit statuses, option tables, value parsing): the command table entry, the tour step
 * interface, the progress line and budget of long runs, and the commit of a run's output files.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <kfsim/outfile.h>
#include <kfsim/trace_event.h>
#include <kfsim/types.h>
#include "cliopts/cliopts.h"

/**
 * struct kfsim_cli_command - one subcommand
 * @name: the word after "kfsim"
 * @summary: one line for "kfsim --help"
 * @spec: the whole command line: options, verbs and the @run each calls; main() runs it with
 *        kfsim_cli_run() (argv[0] is @name)
 * @oldest_kver: the oldest release whose behaviour the command's part models
 *               (KERNEL_VERSION()); an older --kver is refused before the command runs.
 *               0: the part does not change with the release (any --kver is accepted).
 * @kver_why: why that release (shown with the refusal and in "kfsim --help")
 */
struct kfsim_cli_command {
	const char *name;
	const char *summary;
	const struct kfsim_cli_spec *spec;
	unsigned int oldest_kver;
	const char *kver_why;
	/*
	 * The verbs of this command that run a grid (cli_grid.h), NULL-terminated: the only command
	 * lines `kfsim merge` replays from a partial file.  A partial is a file anyone may hand
	 * over; replaying any other line would run whatever it names (`exec -- sh -c ...`).
	 */
	const char *const *grid_verbs;
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
 * @playground: the part's panel in the playground page ("rbtree": playground.html#rbtree), or
 *              NULL; the tour's page links it from the step's "Try" list when it wrote the page
 */
struct kfsim_tour_step {
	const char *name;
	const char *title;
	const char *doc;
	const char *const *try_cmds;
	int (*run)(struct kfsim_tour_ctx *ctx);
	const char *playground;
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

/* --- long runs: progress and budget ------------------------------------------------------ */

/**
 * struct kfsim_cli_progress - the progress line of one long run
 * @what: the label ("plca sweep")
 * @on: drawing (stderr is a terminal, or KFSIM_PROGRESS=always, and not --quiet)
 * @forced: KFSIM_PROGRESS=always: drawn without a terminal and from the first update
 * @printed: a line has been drawn (and must be cleared at the end)
 * @start_ns: when the run started (CLOCK_MONOTONIC)
 * @last_ns: when the line was last drawn
 */
struct kfsim_cli_progress {
	const char *what;
	bool on;
	bool forced;
	bool printed;
	u64 start_ns;
	u64 last_ns;
};

/** kfsim_cli_progress_begin() - start a progress line (silent with @quiet or no terminal). */
void kfsim_cli_progress_begin(struct kfsim_cli_progress *p, const char *what, bool quiet);

/**
 * kfsim_cli_progress_update() - redraw: @fraction done (0..1), @sim_s seconds simulated so far
 *
 * Cheap to call often: draws at most five times a second, and only after half a second.
 */
void kfsim_cli_progress_update(struct kfsim_cli_progress *p, double fraction, double sim_s);

/** kfsim_cli_progress_end() - clear the line. */
void kfsim_cli_progress_end(struct kfsim_cli_progress *p);

/**
 * kfsim_cli_budget() - refuse a run estimated beyond its documented budget unless @force
 * @cmd: the subcommand
 * @estimate: the run's estimated cost (events or requests)
 * @budget: the documented limit
 * @what: the unit ("simulated events")
 * @force: --force was given
 *
 * Return: 0, or KFSIM_EXIT_USAGE after a one-line error saying how to go on.
 */
int kfsim_cli_budget(const char *cmd, double estimate, double budget, const char *what,
		     bool force);

/**
 * kfsim_cli_commit_files() - replace a command's output files, all or none
 * @cmd: the subcommand, for the message
 * @files: the files, each complete (kfsim_outfile_open()); committed or aborted here
 * @nr: how many
 *
 * One transaction (kfsim_outfile_commit_group()); a failure is reported naming the file whose
 * writing failed, or all of them when a rename did (those already renamed are put back), and
 * saying so when two of them name the same file.
 *
 * Return: KFSIM_EXIT_OK, or kfsim_cli_fail()'s status.
 */
int kfsim_cli_commit_files(const char *cmd, struct kfsim_outfile *const *files, size_t nr);

/**
 * kfsim_cli_commit_outputs() - replace a run's trace and plot, both or neither
 * @cmd: the subcommand, for the message
 * @trace: the run's trace (kfsim_trace_open()), ended here; used when @trace_path is set
 * @trace_path: the path the user named for it, or NULL for no trace
 * @plot: the run's plot, complete (kfsim_outfile_open()); used when @plot_path is set
 * @plot_path: the path the user named for it, or NULL for no plot
 *
 * kfsim_cli_commit_files() for the two files of a traced run.
 *
 * Return: KFSIM_EXIT_OK, or kfsim_cli_fail()'s status.
 */
int kfsim_cli_commit_outputs(const char *cmd, struct kfsim_trace *trace, const char *trace_path,
			     struct kfsim_outfile *plot, const char *plot_path);

#endif /* KFSIM_CLI_H */
