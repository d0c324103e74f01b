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

#define MAX_ARGS 160

static void test_help(void)
{
	printf("Usage: kfsim bpf test [-I DIR]... [-D NAME[=VALUE]]... [--keep DIR] [--kernel]\n"
	       "                      [--timeout S] PROG.c [NAME...]\n\n"
	       "Build a BPF C file, unchanged, with kfsim-bpf-cc and run each SEC() program (or\n"
	       "each NAME) natively under kfsim, checked against its __failure/__msg/__success/\n"
	       "__retval annotations.\n"
	       "  -I DIR, -D X    passed to both compilers (DIR may hold vmlinux.h)\n"
	       "  --keep DIR      build in DIR and keep it (default: a temporary directory)\n"
	       "  --kernel        also load each program in the running kernel (root) and print\n"
	       "                  the verifier's verdict beside kfsim's\n"
	       "  --timeout S     seconds a program may run (default 10)\n");
}

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

int kfsim_bpf_test_cmd(int argc, char **argv)
{
	char *cc[MAX_ARGS], *prog[MAX_ARGS], bpfcc[PATH_MAX], dir[PATH_MAX], out[PATH_MAX + 32];
	char kver[16], base[PATH_MAX];
	const char *keep = NULL, *source = NULL;
	int ncc = 0, nprog = 0, status;

	find_bpfcc(bpfcc, sizeof(bpfcc));
	cc[ncc++] = bpfcc;
	prog[nprog++] = out;
	if (kfsim_kernel_version() != KFSIM_KERNEL_VERSION_DEFAULT) {
		prog[nprog++] = "--kver";
		prog[nprog++] = kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver));
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (ncc > MAX_ARGS - 8 || nprog > MAX_ARGS - 8)
			return kfsim_cli_usage("bpf", "too many arguments");
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			test_help();
			return KFSIM_EXIT_OK;
		} else if ((!strcmp(a, "-I") || !strcmp(a, "-D")) && i + 1 < argc) {
			cc[ncc++] = argv[i];
			cc[ncc++] = argv[++i];
		} else if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2)) {
			if (!a[2])
				return kfsim_cli_usage("bpf", "option '%s' needs a value", a);
			cc[ncc++] = argv[i];
		} else if (!strcmp(a, "--keep") && i + 1 < argc) {
			keep = argv[++i];
		} else if (!strcmp(a, "--kernel")) {
			prog[nprog++] = argv[i];
		} else if (!strcmp(a, "--timeout") && i + 1 < argc) {
			prog[nprog++] = argv[i];
			prog[nprog++] = argv[++i];
		} else if (a[0] == '-') {
			return kfsim_cli_usage("bpf",
					       "unknown or incomplete option '%s' for 'test'", a);
		} else if (!source) {
			source = a;
		} else {
			prog[nprog++] = argv[i]; /* a program name */
		}
	}
	if (!source)
		return kfsim_cli_usage(
			"bpf", "test: missing the BPF C file (see 'kfsim bpf test --help')");
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
	else if (status != 1 && status != 2)
		fprintf(stderr, "kfsim bpf: %s did not run (is kfsim-bpf-cc installed?)\n", bpfcc);
	if (!keep)
		nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return status < 0 ? KFSIM_EXIT_FAILURE : status;
}
