// SPDX-License-Identifier: MIT
/*
 * Wall and CPU time to generate C from the kernel's YNL specs: kfsim-ynl-gen (in process,
 * uapi + kernel + user for every spec) against the kernel's own tools/net/ynl/ynl-gen-c.py run
 * on the same specs from the same unpacked linux-source tree (one python3 process per output
 * file, which is how the kernel's Makefiles and ynl-regen.sh run it).
 *
 * Usage: bench_ynl_gen SPECS_DIR [YNL_TOOL_DIR] [--reps N]
 * Without YNL_TOOL_DIR only kfsim is measured.  Prints per-spec times, totals and the ratio on
 * the specs both generators handle (ynl-gen-c.py refuses netlink-raw).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <kfsim/ynl_gen.h>

extern char **environ;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_self(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool is_raw(const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");
	bool raw = false;

	while (f && fgets(line, sizeof(line), f))
		raw |= !strncmp(line, "protocol: netlink-raw", 21);
	if (f)
		fclose(f);
	return raw;
}

/* One python3 ynl-gen-c.py run; returns 0 on success and adds its wall/CPU time. */
static int run_python(const char *tool_dir, const char *spec, const char *mode, const char *kind,
		      const char *out, double *wall, double *cpu)
{
	char script[600];
	char *argv[] = { "python3", script, "--mode", (char *)mode, (char *)kind, "--spec",
			 (char *)spec, "-o", (char *)out, NULL };
	posix_spawn_file_actions_t fa;
	struct rusage ru;
	double t0 = now();
	int status;
	pid_t pid;

	snprintf(script, sizeof(script), "%s/ynl-gen-c.py", tool_dir);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "python3", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	if (wait4(pid, &status, 0, &ru) < 0)
		return -1;
	*wall += now() - t0;
	*cpu += ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
		ru.ru_stime.tv_usec / 1e6;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const char *const modes[][2] = {
		{ "uapi", "--header" }, { "kernel", "--header" }, { "kernel", "--source" },
		{ "user", "--header" }, { "user", "--source" },
	};
	const char *specs_dir = NULL, *tool_dir = NULL;
	char tmp[] = "/tmp/kfsim-bench-ynl-XXXXXX", *names[64], path[600], out[700], err[1024];
	double k_wall_all = 0, k_cpu_all = 0, k_wall_both = 0, k_cpu_both = 0;
	double p_wall = 0, p_cpu = 0;
	int reps = 5, nr = 0, py_ok = 0, py_fail = 0, both = 0;
	struct dirent *e;
	DIR *d;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help")) {
			printf("usage: bench_ynl_gen SPECS_DIR [YNL_TOOL_DIR] [--reps N]\n");
			return 0;
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!specs_dir)
			specs_dir = argv[i];
		else
			tool_dir = argv[i];
	}
	if (!specs_dir || reps < 1) {
		fprintf(stderr, "usage: bench_ynl_gen SPECS_DIR [YNL_TOOL_DIR] [--reps N]\n");
		return 2;
	}
	d = opendir(specs_dir);
	if (!d || !mkdtemp(tmp)) {
		perror(specs_dir);
		return 1;
	}
	while ((e = readdir(d)) && nr < 64)
		if (strstr(e->d_name, ".yaml"))
			names[nr++] = strdup(e->d_name);
	closedir(d);
	qsort(names, (size_t)nr, sizeof(names[0]), cmp_str);

	printf("%-16s %12s %12s %8s\n", "spec", "kfsim us", "python ms", "ratio");
	for (int i = 0; i < nr; i++) {
		double w0, c0, kw, kc, pw = 0, pc = 0;
		int fails = 0;

		snprintf(path, sizeof(path), "%s/%s", specs_dir, names[i]);
		w0 = now();
		c0 = cpu_self();
		for (int r = 0; r < reps; r++) {
			if (kfsim_ynl_generate(path, tmp, KFSIM_YNL_GEN_ALL, err, sizeof(err))) {
				fprintf(stderr, "kfsim-ynl-gen: %s\n", err);
				return 1;
			}
		}
		kw = (now() - w0) / reps;
		kc = (cpu_self() - c0) / reps;
		k_wall_all += kw;
		k_cpu_all += kc;
		if (!tool_dir || is_raw(path)) {
			printf("%-16s %12.0f %12s %8s\n", names[i], kw * 1e6, "-", "-");
			continue;
		}
		for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			snprintf(out, sizeof(out), "%s/py-%s-%s%s", tmp, names[i], modes[m][0],
				 modes[m][1]);
			if (run_python(tool_dir, path, modes[m][0], modes[m][1], out, &pw, &pc))
				fails++;
		}
		py_ok += 5 - fails;
		py_fail += fails;
		p_wall += pw;
		p_cpu += pc;
		k_wall_both += kw;
		k_cpu_both += kc;
		both++;
		printf("%-16s %12.0f %12.1f %8.0f%s\n", names[i], kw * 1e6, pw * 1e3, pw / kw,
		       fails ? "  (python failed on some outputs)" : "");
	}
	printf("\nkfsim-ynl-gen: %d specs (uapi + kernel + user each), %.2f ms wall, %.2f ms CPU; "
	       "%.0f ns/spec\n", nr, k_wall_all * 1e3, k_cpu_all * 1e3, k_wall_all * 1e9 / nr);
	if (tool_dir && both) {
		printf("ynl-gen-c.py:  %d genetlink specs, %d outputs (%d refused), %.2f s wall, "
		       "%.2f s CPU\n", both, py_ok, py_fail, p_wall, p_cpu);
		printf("ratio on the %d specs both handle: python/kfsim = %.0fx wall, %.0fx CPU\n",
		       both, p_wall / k_wall_both, p_cpu / k_cpu_both);
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	if (system(path))
		return 1;
	for (int i = 0; i < nr; i++)
		free(names[i]);
	return 0;
}
