/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_CLI_ASSERT_H
#define KFSIM_TESTS_CLI_ASSERT_H

/* cmocka assertions on a kfsim run, for the rules every command follows (docs/cli.md). */
#include "cli_run.h"

/**
 * assert_usage_error() - @r is a bad command line: exit 2, nothing on stdout (or, with --json,
 * the JSON error document), and exactly one line on stderr containing @needle.  Frees @r.
 */
void assert_usage_error(struct cli_result *r, const char *needle);

/**
 * write_file() - make @path hold exactly @text (an old output a failed run must leave as it was).
 */
void write_file(const char *path, const char *text);

/**
 * assert_file_is() - @path holds exactly @text (up to 63 bytes are compared).
 */
void assert_file_is(const char *path, const char *text);

/**
 * read_whole_file() - everything in @path (a file a run wrote), NUL-terminated, malloc()ed;
 * fails the test when it cannot be read.
 */
char *read_whole_file(const char *path);

#endif /* KFSIM_TESTS_CLI_ASSERT_H */
