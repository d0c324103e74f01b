// SPDX-License-Identifier: MIT
/*
 * kfsim bpf test: kfsim-bpf-cc into a temporary directory (or --keep DIR), then the program it
 * built, so that one command checks a BPF C file unchanged.  The global --kver, when given,
 * is passed on (the program's own default is 6.16, the newest release kfsim models).
 * Exit status: the program's (0 all agree, 1 a disagreement), 1 when the file did not build,
 * 2 for a bad command line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfsim/cmdline.h>
#include "cli.h"
#include "cli_bpf_test.h"
#include "core/child_run.h"

#define MAX_ARGS 170 /* the built program's argv */

/* kfsim-bpf-cc beside this program, else in the build tree, else on PATH. */
static void find_bpfcc(char *path, size_t size)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (len > 0) {
		exe[len] = '\0';
		snprintf(path, size, "%s/kfsim-bpf-cc", dirname(exe));
		if (!access(path, X_OK))
			return;
	}
#ifdef KFSIM_BPFCC_PATH
	snprintf(path, size, "%s", KFSIM_BPFCC_PATH);
	if (!access(path, X_OK))
		return;
#endif
	snprintf(path, size, "kfsim-bpf-cc");
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

int kfsim_bpf_test_run(const struct kfsim_bpf_test_args *args)
{
	char *cc[KFSIM_BPF_TEST_MAX_CC_ARGS + 8], *prog[MAX_ARGS], bpfcc[PATH_MAX], dir[PATH_MAX];
	char out[PATH_MAX + 32], kver[16], timeout[16], base[PATH_MAX], paths[16], flips[16];
	const char *keep = args->keep, *source = args->source;
	int ncc = 0, nprog = 0, status;

	if (args->nr_names > MAX_ARGS - 18)
		return kfsim_cli_usage("bpf", "too many program names (at most %d)", MAX_ARGS - 18);
	find_bpfcc(bpfcc, sizeof(bpfcc));
	cc[ncc++] = bpfcc;
	for (int i = 0; i < args->nr_cc_args; i++)
		cc[ncc++] = (char *)args->cc_args[i];
	prog[nprog++] = out;
	if (kfsim_kernel_version() != KFSIM_KERNEL_VERSION_DEFAULT) {
		prog[nprog++] = "--kver";
		prog[nprog++] = kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver));
	}
	if (args->kernel)
		prog[nprog++] = "--kernel";
	if (args->timeout_s) {
		/* decimal: the program reads it with strtoul(..., 10), so "0x10" would be 0 */
		snprintf(timeout, sizeof(timeout), "%u", args->timeout_s);
		prog[nprog++] = "--timeout";
		prog[nprog++] = timeout;
	}
	snprintf(paths, sizeof(paths), "%u", args->paths);
	snprintf(flips, sizeof(flips), "%u", args->flips);
	prog[nprog++] = "--explore";
	prog[nprog++] = args->explore ? "on" : "off";
	prog[nprog++] = "--paths";
	prog[nprog++] = paths;
	prog[nprog++] = "--flips";
	prog[nprog++] = flips;
	if (args->paths_svg) {
		prog[nprog++] = "--paths-svg";
		prog[nprog++] = (char *)args->paths_svg;
	}
	for (int i = 0; i < args->nr_names; i++)
		prog[nprog++] = args->names[i];
	if (keep) {
		snprintf(dir, sizeof(dir), "%s", keep);
		if (mkdir(dir, 0755) && errno != EEXIST)
			return kfsim_cli_fail("bpf", -errno, "cannot create %s", dir);
	} else {
		snprintf(dir, sizeof(dir), "%s/kfsim-bpf-test.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(dir))
			return kfsim_cli_fail("bpf", -errno, "cannot create a temporary directory");
	}
	snprintf(base, sizeof(base), "%s", source);
	snprintf(out, sizeof(out), "%s/%s", dir, basename(base));
	if (strrchr(out, '.') > strrchr(out, '/'))
		strcpy(strrchr(out, '.'), ".test");
	cc[ncc++] = "-o";
	cc[ncc++] = out;
	cc[ncc++] = (char *)source;
	cc[ncc] = NULL;
	prog[nprog] = NULL;
	status = kfsim_child_exec_status("kfsim bpf", cc);
	if (status == 0)
		status = kfsim_child_exec_status("kfsim bpf", prog);
	else if (status != 1 && status != 2) {
		/* 126, 127 or a signal: the shell's codes are not kfsim's; say why, exit 1 */
		kfsim_cli_fail("bpf", -ENOENT, "%s did not run (is kfsim-bpf-cc installed?)", bpfcc);
		status = KFSIM_EXIT_FAILURE;
	}
	if (!keep)
		nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return status < 0 ? KFSIM_EXIT_FAILURE : status;
}
