// SPDX-License-Identifier: MIT
/*
 * kfsim exec [--server PATH] [--] PROGRAM [ARGS...]
 *
 * Run an unmodified program with its generic netlink sockets on kfsim's kernel: the program
 * gets LD_PRELOAD=libkfsim-netlink.so (found beside this kfsim, or in the installed library
 * folder) and, with --server, KFSIM_KERNEL=PATH (a `kfsim kernel --listen PATH`); without it
 * the shim starts a kernel of its own inside the program.  Only the environment changes:
 * what the program does with its sockets is in docs/own-tools.md.
 */
#define _GNU_SOURCE 1 /* asprintf */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kfsim/kernel.h>
#include "cli.h"

#define CMD "exec"
#define SHIM_NAME "libkfsim-netlink.so"

struct exec_opts {
	const char *server;
};

static const struct kfsim_opt exec_opts_table[] = {
	{ "server", KFSIM_OPT_STRING, offsetof(struct exec_opts, server), "PATH",
	  "the kernel of 'kfsim kernel --listen PATH' (persistent); without\n"
	  "it, a kernel of the program's own with the built-in devices" },
};

static int exec_program(void *exec_opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_spec exec_spec = {
	.name = CMD,
	.usage = "kfsim exec [--server PATH] [--] PROGRAM [ARGS...]",
	.about = "Run PROGRAM with its generic netlink sockets on kfsim's kernel (the LD_PRELOAD\n"
		 "shim " SHIM_NAME "); every other socket stays on the real kernel.  The first\n"
		 "argument that is not an option, or everything after '--', is the program and its\n"
		 "arguments, passed on untouched.",
	.opts = exec_opts_table,
	.nr_opts = ARRAY_SIZE(exec_opts_table),
	.notes = "Exit status: PROGRAM's; 1 when it cannot be started; 2 bad command line.\n",
	.operands = "PROGRAM",
	.min_positional = 1,
	.max_positional = INT_MAX,
	.run = exec_program,
	.opts_size = sizeof(struct exec_opts),
};

/* The shim: $KFSIM_NETLINK_SHIM, else beside this kfsim (build tree), else the library folder. */
static int find_shim(char *buf, size_t size)
{
	const char *env = getenv("KFSIM_NETLINK_SHIM");
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env) {
		if ((size_t)snprintf(buf, size, "%s", env) >= size)
			return -ENAMETOOLONG;
		return access(buf, R_OK) ? -errno : 0;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0)
		return -errno;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	if ((size_t)snprintf(buf, size, "%s/" SHIM_NAME, self) < size && !access(buf, R_OK))
		return 0;
	if ((size_t)snprintf(buf, size, "%s/../%s/" SHIM_NAME, self, KFSIM_INSTALL_LIBDIR) < size &&
	    !access(buf, R_OK))
		return 0;
	return -ENOENT;
}

#ifdef KFSIM_ASAN
/*
 * A sanitizer build's shim needs ASan's runtime loaded first in the program it goes into:
 * the one this kfsim runs on (from /proc/self/maps) goes in front of it.
 */
static void asan_runtime(char *buf, size_t size)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128];

	buf[0] = '\0';
	while (maps && fgets(line, sizeof(line), maps)) {
		char *path = strchr(line, '/');

		if (path && strstr(path, "/libasan.so")) {
			path[strcspn(path, "\n")] = '\0';
			snprintf(buf, size, "%s", path);
			break;
		}
	}
	if (maps)
		fclose(maps);
}
#endif

/* Only the environment changes: the program replaces kfsim, with its own arguments. */
static int exec_program(void *exec_opts, const struct kfsim_cli_args *args)
{
	const struct exec_opts *o = exec_opts;
	const char *old;
	char shim[PATH_MAX], *preload;
	int ret;

	ret = find_shim(shim, sizeof(shim));
	if (ret)
		return kfsim_cli_fail(CMD, ret, "cannot find " SHIM_NAME " (set KFSIM_NETLINK_SHIM)");
	old = getenv("LD_PRELOAD");
#ifdef KFSIM_ASAN
	{
		char asan[PATH_MAX];

		asan_runtime(asan, sizeof(asan));
		if (asan[0] && (!old || !strstr(old, "libasan.so"))) {
			if (asprintf(&preload, "%s:%s%s%s", asan, shim, old && *old ? ":" : "",
				     old ? old : "") < 0)
				return kfsim_cli_fail(CMD, -ENOMEM, "no memory");
			/* the program itself is not instrumented: its leaks are not ours (the
			 * last setting of an option wins) */
			const char *opts = getenv("ASAN_OPTIONS");
			char *merged;

			if (asprintf(&merged, "%s%sdetect_leaks=0:verify_asan_link_order=0",
				     opts ? opts : "", opts && *opts ? ":" : "") >= 0) {
				setenv("ASAN_OPTIONS", merged, 1);
				free(merged);
			}
			goto have_preload;
		}
	}
#endif
	if (asprintf(&preload, "%s%s%s", shim, old && *old ? ":" : "", old ? old : "") < 0)
		return kfsim_cli_fail(CMD, -ENOMEM, "no memory");
#ifdef KFSIM_ASAN
have_preload:
#endif
	setenv("LD_PRELOAD", preload, 1);
	free(preload);
	if (o->server)
		setenv("KFSIM_KERNEL", o->server, 1);
	else
		unsetenv("KFSIM_KERNEL");
	fflush(NULL);
	execvp(args->positional[0], args->positional);
	return kfsim_cli_fail(CMD, -errno, "cannot run '%s'", args->positional[0]);
}

const struct kfsim_cli_command kfsim_cmd_exec = {
	.name = "exec",
	.summary = "run a program with its netlink sockets on kfsim's kernel (LD_PRELOAD shim)",
	.spec = &exec_spec,
};
