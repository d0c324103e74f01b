// SPDX-License-Identifier: MIT
/* A benchmark rerun under callgrind, and the total it counted (bench_callgrind.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_callgrind.h"
#include "core/child_run.h"

#define MAX_ARGS 32

/* The "totals:" (or "summary:") line of a callgrind output file, or -1. */
static long long callgrind_total(const char *path)
{
	char line[512];
	long long total = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "totals:", 7) || !strncmp(line, "summary:", 8))
			total = strtoll(strchr(line, ':') + 1, NULL, 10);
	fclose(f);
	return total;
}

long long bench_callgrind_self(const char *function, const char *const args[])
{
	char out_file[] = "/tmp/kfsim-bench-cg-XXXXXX";
	char self[PATH_MAX], toggle[256], outarg[64];
	const char *argv[MAX_ARGS] = {"valgrind", "--tool=callgrind", "--quiet", toggle, outarg,
				      self};
	struct kfsim_child c = {.capture = KFSIM_CHILD_STDOUT | KFSIM_CHILD_STDERR};
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	long long total = -1;
	int argc = 6, fd;

	if (len <= 0)
		return -1;
	self[len] = '\0';
	for (int i = 0; args[i]; i++) {
		if (argc == MAX_ARGS - 1)
			return -1;
		argv[argc++] = args[i];
	}
	fd = mkstemp(out_file);
	if (fd < 0)
		return -1;
	close(fd);
	snprintf(toggle, sizeof(toggle), "--toggle-collect=%s", function);
	snprintf(outarg, sizeof(outarg), "--callgrind-out-file=%s", out_file);
	if (kfsim_child_exec(&c, "valgrind", (char *const *)argv) == 0 &&
	    kfsim_child_exit_code(&c) == 0)
		total = callgrind_total(out_file);
	else if (c.err.data)
		fputs(c.err.data, stderr);
	kfsim_child_release(&c);
	unlink(out_file);
	return total;
}
