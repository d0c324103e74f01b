// SPDX-License-Identifier: MIT
/*
 * The commit of a run's output files as one transaction: a command that writes several files
 * (bfq sim and bpf demo a trace and a plot, plca sweep a CSV and two plots) promises that a
 * failed run leaves the old files as they were, which committing them one after the other
 * cannot keep when a later one's fsync or rename fails.  One function for every such command,
 * so that each names the file that failed the same way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/*
 * "'a'", "'a' and 'b'", "'a', 'b' and 'c'": the files, as a failed rename names them all (it
 * cannot tell which of them the user has to look at).  NULL when out of memory.
 */
static char *quoted_list(char *const *names, size_t nr)
{
	size_t len = 1;
	char *list;

	for (size_t i = 0; i < nr; i++)
		len += strlen(names[i]) + sizeof("'' and ") - 1; /* the longest separator */
	list = malloc(len);
	if (!list)
		return NULL;
	*list = '\0';
	for (size_t i = 0; i < nr; i++) {
		if (i)
			strcat(list, i + 1 == nr ? " and " : ", ");
		strcat(list, "'");
		strcat(list, names[i]);
		strcat(list, "'");
	}
	return list;
}

int kfsim_cli_commit_files(const char *cmd, struct kfsim_outfile *const *files, size_t nr)
{
	/* the names die with the files at the commit: kept for the message */
	char **names = calloc(nr ? nr : 1, sizeof(*names));
	bool named = names != NULL;
	char *list;
	int err;

	for (size_t i = 0; named && i < nr; i++)
		named = (names[i] = strdup(files[i]->path)) != NULL;
	err = kfsim_outfile_commit_group(files, nr);
	if (!err) {
		for (size_t i = 0; names && i < nr; i++)
			free(names[i]);
		free(names);
		return KFSIM_EXIT_OK;
	}
	list = named ? quoted_list(names, nr) : NULL;
	for (size_t i = 0; list && i < nr; i++) {
		if (files[i]->err) { /* its data, sync or close failed: the one to name */
			free(list);
			list = quoted_list(&names[i], 1);
			break;
		}
	}
	err = kfsim_cli_fail(cmd, err, "cannot write %s%s", list ? list : "the output files",
			     err == -EINVAL && nr > 1 ? ": two of them name the same file" : "");
	free(list);
	for (size_t i = 0; names && i < nr; i++)
		free(names[i]);
	free(names);
	return err;
}

int kfsim_cli_commit_outputs(const char *cmd, struct kfsim_trace *trace, const char *trace_path,
			     struct kfsim_outfile *plot, const char *plot_path)
{
	struct kfsim_outfile *group[2];
	size_t nr = 0;

	if (trace_path)
		group[nr++] = kfsim_trace_finish(trace);
	if (plot_path)
		group[nr++] = plot;
	return kfsim_cli_commit_files(cmd, group, nr);
}
