// SPDX-License-Identifier: MIT
/*
 * The commit of a run's output files as one transaction: a command that writes a trace and a
 * plot (bfq sim, bpf demo) promises that a failed run leaves the old files as they were, which
 * committing them one after the other cannot keep when the second one's fsync or rename fails.
 */
#include "cli.h"

int kfsim_cli_commit_outputs(const char *cmd, struct kfsim_trace *trace, const char *trace_path,
			     struct kfsim_outfile *plot, const char *plot_path)
{
	struct kfsim_outfile *group[2];
	const char *names[2];
	size_t nr = 0;
	int err;

	if (trace_path) {
		group[nr] = kfsim_trace_finish(trace);
		names[nr++] = trace_path;
	}
	if (plot_path) {
		group[nr] = plot;
		names[nr++] = plot_path;
	}
	err = kfsim_outfile_commit_group(group, nr);
	if (!err)
		return KFSIM_EXIT_OK;
	for (size_t i = 0; i < nr; i++)
		if (group[i]->err) /* its data, sync or close failed: the one to name */
			return kfsim_cli_fail(cmd, err, "cannot write '%s'", names[i]);
	return kfsim_cli_fail(cmd, err, nr > 1 ? "cannot write '%s' and '%s'" : "cannot write '%s'",
			      names[0], names[nr > 1 ? 1 : 0]);
}
