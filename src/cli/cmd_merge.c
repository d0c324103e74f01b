// SPDX-License-Identifier: MIT
/*
 * kfsim merge PARTIAL...: combine the partial results of a sliced grid (kfsim plca sweep,
 * kfsim bfq compare, kfsim bfq ablate run with --shard or under a Slurm array, a Kubernetes
 * Indexed Job or GNU parallel) into exactly what the unsharded run writes: its table or JSON on
 * stdout, and its CSV and SVG files.  Generic over grids: the partial files name their grid and
 * carry its command line, which the merge replays with the points read back instead of run.
 * A set that is incomplete, overlapping, cut short or from different grids is refused, every
 * problem reported, nothing written (cli_grid.c).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include <kfsim/kernel.h>

#include "cli.h"
#include "cli_grid.h"
#include "cli_tables.h"

#define CMD "merge"

struct merge_opts {
	bool any_path;
};

/* --any-path: the recorded line's files may be anywhere (set by merge_verb() for the replay) */
static bool merge_any_path;

/*
 * Run the grid command line a partial file recorded: argv[0] a command, argv[1] one of its
 * grid_verbs.  Nothing else: the file is the only say, and `exec`, `kernel` or a tour would
 * run (or write) whatever its author put there.
 */
static int run_recorded(int argc, char **argv)
{
	for (size_t i = 0; i < ARRAY_SIZE(kfsim_cli_commands); i++) {
		const struct kfsim_cli_command *cmd = kfsim_cli_commands[i];

		if (strcmp(cmd->name, argv[0]))
			continue;
		for (const char *const *verb = cmd->grid_verbs; verb && *verb; verb++) {
			int ret;

			if (argc <= 1 || strcmp(argv[1], *verb))
				continue;
			/* the file's author names these files, not the user: below the directory */
			if (!merge_any_path)
				kfsim_cli_confine_paths("the partial files' command line");
			kfsim_cli_replayed("the partial files' command line");
			ret = kfsim_cli_run(cmd->spec, argc, argv);
			kfsim_cli_replayed(NULL);
			kfsim_cli_confine_paths(NULL);
			if (ret != KFSIM_EXIT_USAGE)
				return ret;
			/* the user's own command line was fine: the set is what is refused */
			return kfsim_cli_fail(CMD, -EINVAL, "refused: the partial files record a "
					      "command line that does not parse (above); nothing "
					      "written");
		}
		break;
	}
	return kfsim_cli_fail(CMD, -EINVAL, "the partial files name '%s %s', which runs no grid: "
			      "refused", argv[0], argc > 1 ? argv[1] : "");
}

static int merge_verb(void *opts, const struct kfsim_cli_args *args)
{
	merge_any_path = ((struct merge_opts *)opts)->any_path;
	return kfsim_grid_merge_files(args->positional, args->nr_positional, run_recorded);
}

static const struct kfsim_opt merge_options[] = {
	{ "any-path", KFSIM_OPT_FLAG, offsetof(struct merge_opts, any_path), NULL,
	  "read and write the files the partial files' command line names wherever it\n"
	  "names them (absolute paths, '..'); without it only below the current directory" },
};

static const struct kfsim_cli_spec merge_spec = {
	.name = CMD,
	.usage = "kfsim merge PARTIAL...",
	.about = "Combine the partial results (JSON Lines) of the slices of a grid run with --shard\n"
		 "(kfsim plca sweep, kfsim bfq compare, kfsim bfq ablate) into exactly what the\n"
		 "unsharded run writes: its table or --json on stdout, its --csv and --svg files.",
	.notes = "The partial files say which grid and command line they belong to; the set must\n"
		 "hold every point of one grid exactly once.  Exit status: 0 merged, 1 the set is\n"
		 "refused (every problem is listed) or an output failed, 2 bad command line.\n"
		 "The files the recorded command line names (--csv, --svg, --fio...) must be\n"
		 "below the current directory unless --any-path is given: give it only for\n"
		 "partial files from people you would let write those files.",
	.max_positional = INT_MAX,
	.min_positional = 1,
	.operands = "PARTIAL",
	.opts = merge_options,
	.nr_opts = ARRAY_SIZE(merge_options),
	.opts_size = sizeof(struct merge_opts),
	.run = merge_verb,
};

const struct kfsim_cli_command kfsim_cmd_merge = {
	.name = "merge",
	.summary = "combine the partial results of a sliced grid (--shard) into its outputs",
	.spec = &merge_spec,
};
