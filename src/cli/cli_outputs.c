// SPDX-License-Identifier: MIT
/*
 * The commit of a run's output files as one transaction: a command that writes a trace and a
 * plot (bfq sim, bpf demo) promises that a failed run leaves the old files as they were, which
 * committing them one after the other cannot keep when the second one's fsync or rename fails.
 */
#include "cli.h"

int kfsim_cli_commit_outputs(const char *cmd, struct kfsim_outfile *const *group,
			     const char *const *names, size_t nr)
{
	int err = kfsim_outfile_commit_group(group, nr);

	if (!err)
		return KFSIM_EXIT_OK;
	for (size_t i = 0; i < nr; i++)
		if (group[i]->err) /* its data, sync or close failed: the one to name */
			return kfsim_cli_fail(cmd, err, "cannot write '%s'", names[i]);
	return kfsim_cli_fail(cmd, err, nr > 1 ? "cannot write '%s' and '%s'" : "cannot write '%s'",
			      names[0], names[nr > 1 ? 1 : 0]);
}
