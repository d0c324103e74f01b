// SPDX-License-Identifier: MIT
/* Run kfsim with its stdout and stderr collected (core/child_run.c), wait for it. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "core/child_run.h"

int cli_run_in(struct cli_result *result, const char *cwd, const char *const args[])
{
	struct kfsim_child c = {.capture = KFSIM_CHILD_STDOUT | KFSIM_CHILD_STDERR, .cwd = cwd};
	const char **argv;
	size_t nargs = 0;
	int err;

	while (args[nargs])
		nargs++;
	argv = calloc(nargs + 2, sizeof(*argv));
	if (!argv)
		return -1;
	argv[0] = "kfsim";
	memcpy(argv + 1, args, nargs * sizeof(*argv));
	err = kfsim_child_exec(&c, KFSIM_CLI_PATH, (char *const *)argv);
	free(argv);
	if (err) {
		kfsim_child_release(&c);
		return -1;
	}
	result->status = kfsim_child_exit_code(&c);
	result->out = c.out.data;
	result->err = c.err.data;
	return 0;
}

int cli_run(struct cli_result *result, const char *const args[])
{
	return cli_run_in(result, NULL, args);
}

void cli_result_free(struct cli_result *result)
{
	free(result->out);
	free(result->err);
	result->out = result->err = NULL;
}

size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}
