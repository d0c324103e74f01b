// SPDX-License-Identifier: MIT
/*
 * Never lose a user's file, tried through the commands as a user would (issue 21 items 1-5):
 * a write that fails under `ulimit -f` (EFBIG), on /dev/full (ENOSPC) or in a read-only
 * directory (EACCES, as an unprivileged user) leaves the old file as it was; a configuration
 * that is refused touches no output; symlinks keep pointing at their (replaced) target; a path
 * too long is -ENAMETOOLONG before anything is written; ynl-gen writes every file of a run or
 * none.  ctest runs this suite as the invoking user and again as nobody.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "support/cli_assert.h"

#ifndef __clang__	/* clang has no such warning */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define JOB "rw=read,bs=4k,iodepth=4"
#define OLD "the user's old content\n"

static char dir[256];

static int setup(void **state)
{
	snprintf(dir, sizeof(dir), "/tmp/kfsim-files-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
	return system(cmd) ? -1 : 0;
}

static const char *in_dir(const char *name)
{
	static char paths[4][PATH_MAX];
	static int next;
	char *path = paths[next++ % 4];

	snprintf(path, PATH_MAX, "%s/%s", dir, name);
	return path;
}

static void put_old(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(OLD, f);
	assert_int_equal(fclose(f), 0);
}

static void assert_old(const char *path)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_true(fread(buf, 1, sizeof(buf) - 1, f) > 0);
	fclose(f);
	assert_string_equal(buf, OLD);
}

/* Nothing but @expected entries in the test directory: no temporary left behind. */
static void assert_entries(int expected)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	assert_int_equal(n, expected);
}

/*
 * kfsim under "ulimit -f 4" (4 KiB), SIGXFSZ at its default as a user's shell leaves it: kfsim
 * ignores it itself (kfsim_cli_main()), so that writes fail with EFBIG, as they do for a user
 * over quota, rather than the signal killing it with a temporary left behind; returns the exit
 * status, stderr into @err.
 */
static int run_limited(const char *args, char *err, size_t err_size)
{
	char cmd[2048], err_path[PATH_MAX];
	FILE *f;
	int status;

	snprintf(err_path, sizeof(err_path), "%s.err", dir);
	snprintf(cmd, sizeof(cmd), "sh -c 'ulimit -f 4; trap - XFSZ; exec %s %s' >/dev/null 2>%s",
		 KFSIM_CLI_PATH, args, err_path);
	status = system(cmd);
	f = fopen(err_path, "r");
	assert_non_null(f);
	err[fread(err, 1, err_size - 1, f)] = '\0';
	fclose(f);
	unlink(err_path);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Items 2 and 5: a failed write keeps the old file, in every writer. */
static void test_efbig_keeps_old_files(void **state)
{
	static const char *const cases[][2] = {
		{ "bfq sim --job " JOB " --duration 200ms --svg %s", "plot.svg" },
		{ "bfq sim --job " JOB " --duration 200ms --trace %s", "t.json" },
		{ "plca sim --duration 50 --trace %s", "p.json" },
		{ "rbtree --random 300 --dot %s", "tree.dot" },
		{ "rbtree --random 300 --svg %s", "tree.svg" },
		{ "bpf demo --trace %s", "bpf.json" },
		{ "refcount demo --svg %s", "refcount.svg" },
	};
	char args[1024], err[4096];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *path = in_dir(cases[i][1]);

		put_old(path);
		snprintf(args, sizeof(args), cases[i][0], path);
		assert_int_equal(run_limited(args, err, sizeof(err)), 1);
		if (strstr(err, "graphviz")) /* no dot program: nothing to test for --svg */
			continue;
		if (!strstr(err, "-EFBIG"))
			print_error("%s: %s\n", args, err);
		assert_non_null(strstr(err, "-EFBIG"));
		assert_old(path);
		assert_entries(1);
		unlink(path);
	}
}

/* Item 2: the two plots of a sweep are written both or neither. */
static void test_sweep_plots_both_or_neither(void **state)
{
	const char *thr = in_dir("s-throughput.svg"), *lat = in_dir("s-latency.svg");
	char args[600], err[2048];

	put_old(thr);
	put_old(lat);
	snprintf(args, sizeof(args), "plca sweep --nodes 8 --duration 5 --svg %s/s", dir);
	assert_int_equal(run_limited(args, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "-EFBIG"));
	assert_old(thr);
	assert_old(lat);
	assert_entries(2);
	unlink(thr);
	unlink(lat);
}

/* Item 5: /dev/full is a failure with its own errno, never "wrote /dev/full". */
static void test_enospc(void **state)
{
	struct cli_result r;

	assert_int_equal(cli_run(&r, (const char *const[]){ "rbtree", "--insert", "1,2", "--svg",
							    "/dev/full", NULL }), 0);
	if (!strstr(r.err, "graphviz")) {
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, "-ENOSPC"));
		assert_null(strstr(r.out, "/dev/full"));
	}
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job", JOB,
							    "--duration", "20ms", "--trace",
							    "/dev/full", NULL }), 0);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-ENOSPC"));
	assert_string_equal(r.out, "");
	cli_result_free(&r);
	assert_int_equal(cli_run(&r, (const char *const[]){ "plca", "sweep", "--nodes", "2",
							    "--duration", "5", "--csv",
							    "/dev/full", NULL }), 0);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-ENOSPC"));
	cli_result_free(&r);
}

/* Item 3: a configuration that is refused touches no output. */
static void test_refused_config_touches_nothing(void **state)
{
	const char *trace = in_dir("t.json"), *svg = in_dir("plot.svg");
	struct cli_result r;

	put_old(trace);
	put_old(svg);
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job", JOB,
							    "--trace", trace, "--svg", svg,
							    "--disk-param", "rpm=0", NULL }), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "--disk-param"));
	cli_result_free(&r);
	assert_old(trace);
	assert_old(svg);
	assert_entries(2);
	unlink(trace);
	unlink(svg);
}

/* Item 2/4: through a symlink the link stays and its target is replaced, in every writer. */
static void test_symlinks(void **state)
{
	const char *target = in_dir("target.svg"), *link_path = in_dir("link.svg");
	struct cli_result r;
	struct stat st;

	put_old(target);
	assert_int_equal(symlink("target.svg", link_path), 0);
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job", JOB,
							    "--duration", "20ms", "--svg", link_path,
							    NULL }), 0);
	assert_int_equal(r.status, 0);
	cli_result_free(&r);
	assert_int_equal(lstat(link_path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(target, &st), 0);
	assert_true(st.st_size > 1000); /* the new plot */

	/* and a failed write through it leaves both as they were */
	put_old(target);
	{
		char args[600], err[2048];

		snprintf(args, sizeof(args), "bfq sim --job " JOB " --duration 200ms --svg %s",
			 link_path);
		assert_int_equal(run_limited(args, err, sizeof(err)), 1);
	}
	assert_int_equal(lstat(link_path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_old(target);
	assert_entries(2);
	unlink(link_path);
	unlink(target);
}

/* Item 1: a path too long is -ENAMETOOLONG before anything is written. */
static void test_name_too_long(void **state)
{
	char prefix[PATH_MAX + 8];
	struct cli_result r;
	size_t len;

	/* a prefix that fits by itself but not with "-throughput.svg" appended */
	len = (size_t)snprintf(prefix, sizeof(prefix), "%s/", dir);
	while (len < PATH_MAX - 8) {
		len += (size_t)snprintf(prefix + len, sizeof(prefix) - len, "%s",
					len + 201 < PATH_MAX - 8 ? "d/" : "p");
	}
	assert_int_equal(cli_run(&r, (const char *const[]){ "plca", "sweep", "--nodes", "2",
							    "--duration", "5", "--svg", prefix,
							    NULL }), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "ENAMETOOLONG"));
	cli_result_free(&r);
	assert_entries(0);

	memset(prefix, 'x', 300);
	prefix[300] = '\0';
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job", JOB,
							    "--trace", prefix, NULL }), 0);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "ENAMETOOLONG"));
	cli_result_free(&r);
}

/* Item 4 and 13: ynl-gen writes all files of a run or none, and creates --out-dir. */
static void test_ynl_gen_all_or_none(void **state)
{
	const char *out = in_dir("gen/deeper"), *bad = in_dir("bad.yaml");
	char spec[PATH_MAX], uapi[PATH_MAX];
	struct cli_result r;
	struct stat st;
	FILE *f;

	snprintf(spec, sizeof(spec), "%s/specs/kfsim_demo.yaml", KFSIM_SOURCE_DIR);
	if (stat(spec, &st)) {
		DIR *d = opendir(KFSIM_SOURCE_DIR "/specs");
		struct dirent *e;

		assert_non_null(d);
		while ((e = readdir(d)) && !strstr(e->d_name, ".yaml"))
			;
		assert_non_null(e);
		snprintf(spec, sizeof(spec), "%s/specs/%s", KFSIM_SOURCE_DIR, e->d_name);
		closedir(d);
	}
	assert_int_equal(cli_run(&r, (const char *const[]){ "ynl-gen", "--mode", "uapi",
							    "--out", out, spec, NULL }), 0);
	assert_int_equal(r.status, 0); /* the directory did not exist */
	cli_result_free(&r);
	{
		DIR *d = opendir(out);
		struct dirent *e;

		assert_non_null(d);
		while ((e = readdir(d)) && !strstr(e->d_name, "-uapi.h"))
			;
		assert_non_null(e);
		snprintf(uapi, sizeof(uapi), "%s/%s", out, e->d_name);
		closedir(d);
	}
	put_old(uapi);
	f = fopen(bad, "w");
	fputs("name: broken\nattribute-sets: [\n", f);
	fclose(f);
	/* the first spec is fine, the second is not: nothing of the run is written */
	assert_int_equal(cli_run(&r, (const char *const[]){ "ynl-gen", "--mode", "uapi",
							    "--out-dir", out, spec, bad, NULL }), 0);
	assert_int_equal(r.status, 1);
	cli_result_free(&r);
	assert_old(uapi);
	unlink(bad);
}

/* Items 2 and 4 as an unprivileged user: a read-only directory is -EACCES, the file stays. */
static void test_readonly_directory(void **state)
{
	const char *ro = in_dir("ro"), *svg = in_dir("ro/plot.svg");
	struct cli_result r;

	if (geteuid() == 0)
		skip(); /* root writes anyway; the nobody run of this suite covers it */
	assert_int_equal(mkdir(ro, 0755), 0);
	put_old(svg);
	assert_int_equal(chmod(ro, 0555), 0);
	assert_int_equal(cli_run(&r, (const char *const[]){ "bfq", "sim", "--job", JOB,
							    "--duration", "20ms", "--svg", svg,
							    NULL }), 0);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-EACCES"));
	cli_result_free(&r);
	assert_old(svg);
	chmod(ro, 0755);
	unlink(svg);
	rmdir(ro);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_efbig_keeps_old_files),
		cmocka_unit_test(test_sweep_plots_both_or_neither),
		cmocka_unit_test(test_enospc),
		cmocka_unit_test(test_refused_config_touches_nothing),
		cmocka_unit_test(test_symlinks),
		cmocka_unit_test(test_name_too_long),
		cmocka_unit_test(test_ynl_gen_all_or_none),
		cmocka_unit_test(test_readonly_directory),
	};

	printf("running as uid %u\n", (unsigned)geteuid());
	return cmocka_run_group_tests(tests, setup, teardown);
}
