/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_CLI_RUN_H
#define KFSIM_TESTS_CLI_RUN_H

/*
 * Run the built kfsim program (KFSIM_CLI_PATH) and capture what it printed and how it exited,
 * for the CLI tests of every part.
 */
#include <stddef.h>

/**
 * struct cli_result - what one run of kfsim did
 * @status: exit status (0..255), or 128 + signal number when it was killed
 * @out: everything on stdout, NUL-terminated (malloc()ed)
 * @err: everything on stderr, NUL-terminated (malloc()ed)
 */
struct cli_result {
	int status;
	char *out;
	char *err;
};

/**
 * cli_run() - run kfsim with the NULL-terminated argument list (without argv[0])
 *
 * Return: 0, or -1 when the program could not be started.  Free with cli_result_free().
 */
int cli_run(struct cli_result *result, const char *const args[]);

/** cli_run_in() - cli_run() with @cwd as the working directory. */
int cli_run_in(struct cli_result *result, const char *cwd, const char *const args[]);

/** cli_result_free() - release @result's buffers. */
void cli_result_free(struct cli_result *result);

/** count_lines() - the number of '\n' in @text. */
size_t count_lines(const char *text);

#endif /* KFSIM_TESTS_CLI_RUN_H */
