// SPDX-License-Identifier: MIT
/*
 * kfsim_outfile: an output file is complete and new, or the old one is untouched.  Failures are
 * real, not mocked: RLIMIT_FSIZE with SIGXFSZ ignored gives EFBIG, /dev/full gives ENOSPC, a
 * directory without write permission (tested as an unprivileged user: root bypasses it) gives
 * EACCES.  ctest runs this suite twice, as the invoking user and as nobody.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include <kfsim/outfile.h>

/* paths in the test directory are short; the length tests build theirs by hand */
#ifndef __clang__	/* clang has no such warning */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define NOBODY 65534

static char dir[PATH_MAX];

static int make_dir(void **state)
{
	snprintf(dir, sizeof(dir), "%s/kfsim-outfile-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	/* an unprivileged child must reach it */
	return chmod(dir, 0755);
}

static int remove_dir(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void path_in(char *buf, const char *name)
{
	snprintf(buf, PATH_MAX, "%s/%s", dir, name);
}

static void put(const char *name, const char *text, mode_t mode)
{
	char path[PATH_MAX];
	FILE *f;

	path_in(path, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static char *get(const char *name)
{
	static char text[65536];
	char path[PATH_MAX];
	size_t len;
	FILE *f;

	path_in(path, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	len = fread(text, 1, sizeof(text) - 1, f);
	text[len] = '\0';
	fclose(f);
	return text;
}

/* Entries in the test directory: a failure must leave no temporary behind. */
static int nr_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static int write_text(const char *path, const char *text)
{
	struct kfsim_outfile of;
	int err = kfsim_outfile_open(&of, path);

	if (err)
		return err;
	fputs(text, of.file);
	return kfsim_outfile_commit(&of);
}

static void test_new_file_takes_umask(void **state)
{
	char path[PATH_MAX];
	struct stat st;
	mode_t old = umask(027);

	path_in(path, "new.txt");
	assert_int_equal(write_text(path, "hello\n"), 0);
	umask(old);
	assert_string_equal(get("new.txt"), "hello\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0640);
	assert_int_equal(nr_entries(), 1);
	unlink(path);
}

static void test_existing_file_keeps_mode(void **state)
{
	char path[PATH_MAX];
	struct stat st;
	mode_t old = umask(077);

	put("old.txt", "old\n", 0754);
	path_in(path, "old.txt");
	assert_int_equal(write_text(path, "new\n"), 0);
	umask(old);
	assert_string_equal(get("old.txt"), "new\n");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0754);
	assert_int_equal(nr_entries(), 1);
	unlink(path);
}

static void test_abort_keeps_old(void **state)
{
	struct kfsim_outfile of;
	char path[PATH_MAX];

	put("keep.txt", "precious\n", 0644);
	path_in(path, "keep.txt");
	assert_int_equal(kfsim_outfile_open(&of, path), 0);
	fputs("half", of.file);
	fflush(of.file);
	assert_string_equal(get("keep.txt"), "precious\n");
	kfsim_outfile_abort(&of);
	assert_string_equal(get("keep.txt"), "precious\n");
	assert_int_equal(nr_entries(), 1);

	/* a content error recorded by the writer fails the commit the same way */
	assert_int_equal(kfsim_outfile_open(&of, path), 0);
	fputs("wrong", of.file);
	kfsim_outfile_fail(&of, -EINVAL);
	assert_int_equal(kfsim_outfile_commit(&of), -EINVAL);
	assert_string_equal(get("keep.txt"), "precious\n");
	assert_int_equal(nr_entries(), 1);
	unlink(path);
}

static void test_symlink_target_replaced(void **state)
{
	char link_path[PATH_MAX], target[PATH_MAX], loop[PATH_MAX];
	struct stat st;

	put("target.txt", "old\n", 0600);
	path_in(link_path, "link.txt");
	path_in(target, "target.txt");
	assert_int_equal(symlink("target.txt", link_path), 0);
	assert_int_equal(write_text(link_path, "through the link\n"), 0);
	assert_int_equal(lstat(link_path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(get("target.txt"), "through the link\n");
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(nr_entries(), 2);

	/* a dangling link creates its target, as open(2) would */
	unlink(target);
	assert_int_equal(write_text(link_path, "created\n"), 0);
	assert_string_equal(get("target.txt"), "created\n");
	assert_int_equal(lstat(link_path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));

	/* a loop is -ELOOP, with nothing created */
	path_in(loop, "loop");
	assert_int_equal(symlink("loop", loop), 0);
	assert_int_equal(write_text(loop, "x"), -ELOOP);
	assert_int_equal(nr_entries(), 3);
	unlink(loop);
	unlink(link_path);
	unlink(target);
}

/*
 * A link another user planted in a sticky world-writable directory (/tmp) is not followed, as
 * fs.protected_symlinks keeps open(2) from following it: else root's `--out /tmp/x` would replace
 * the file it names.  The caller's own link there, and the directory owner's, are followed.
 */
static void test_planted_symlink_in_sticky_dir(void **state)
{
	char sticky[PATH_MAX], link_path[PATH_MAX], victim[PATH_MAX];

	path_in(sticky, "sticky");
	assert_int_equal(mkdir(sticky, 0755), 0);
	assert_int_equal(chmod(sticky, 01777), 0);
	put("victim.txt", "the victim's\n", 0644);
	path_in(victim, "victim.txt");
	path_in(link_path, "sticky/out.txt");
	assert_int_equal(symlink(victim, link_path), 0);

	/* the caller's own link: followed */
	assert_int_equal(write_text(link_path, "mine\n"), 0);
	assert_string_equal(get("victim.txt"), "mine\n");
	if (geteuid() != 0) {
		unlink(link_path);
		rmdir(sticky);
		unlink(victim);
		skip();	/* only root can give a link another owner (ctest runs this as root too) */
	}
	/* nobody's link in root's sticky directory: refused, nothing written or left behind */
	assert_int_equal(lchown(link_path, NOBODY, NOBODY), 0);
	assert_int_equal(write_text(link_path, "root's output\n"), -EACCES);
	assert_string_equal(get("victim.txt"), "mine\n");
	assert_int_equal(nr_entries(), 2);
	/* nobody's link in nobody's sticky directory: the owner of the directory may link */
	assert_int_equal(chown(sticky, NOBODY, NOBODY), 0);
	assert_int_equal(write_text(link_path, "followed\n"), 0);
	assert_string_equal(get("victim.txt"), "followed\n");
	/* not sticky, or not world-writable: links are followed as before */
	assert_int_equal(chown(sticky, 0, 0), 0);
	assert_int_equal(chmod(sticky, 0777), 0);
	assert_int_equal(write_text(link_path, "not sticky\n"), 0);
	assert_string_equal(get("victim.txt"), "not sticky\n");
	unlink(link_path);
	rmdir(sticky);
	unlink(victim);
}

static void test_name_too_long(void **state)
{
	char path[PATH_MAX + 64], buf[64];
	int before = nr_entries();

	/* a component longer than NAME_MAX */
	snprintf(path, sizeof(path), "%s/%0*d", dir, NAME_MAX + 1, 0);
	assert_int_equal(kfsim_outfile_check_path(path), -ENAMETOOLONG);
	assert_int_equal(write_text(path, "x"), -ENAMETOOLONG);
	/* a whole path of PATH_MAX bytes */
	memset(path, 'a', PATH_MAX);
	for (int i = 100; i < PATH_MAX; i += 100)
		path[i] = '/';
	path[PATH_MAX] = '\0';
	assert_int_equal(write_text(path, "x"), -ENAMETOOLONG);
	assert_int_equal(nr_entries(), before);

	assert_int_equal(kfsim_path_join(buf, sizeof(buf), "dir", "name.svg"), 0);
	assert_string_equal(buf, "dir/name.svg");
	assert_int_equal(kfsim_path_join(buf, sizeof(buf), "dir/", "name.svg"), 0);
	assert_string_equal(buf, "dir/name.svg");
	assert_int_equal(kfsim_path_join(buf, sizeof(buf), "", "name.svg"), 0);
	assert_string_equal(buf, "name.svg");
	/* never a truncated name that could hit another file */
	assert_int_equal(kfsim_path_join(buf, 12, "dir", "name.svg"), -ENAMETOOLONG);
	assert_string_equal(buf, "");
	assert_int_equal(kfsim_outfile_check_path(""), -EINVAL);
	assert_int_equal(kfsim_outfile_check_path(NULL), -EINVAL);
}

static void test_directory_in_the_way(void **state)
{
	char path[PATH_MAX], missing[PATH_MAX];

	path_in(path, "sub");
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(write_text(path, "x"), -EISDIR);
	path_in(path, "file/");
	assert_int_equal(write_text(path, "x"), -EISDIR);
	path_in(missing, "no/such/dir/file");
	assert_int_equal(write_text(missing, "x"), -ENOENT);
	assert_int_equal(nr_entries(), 1);
	path_in(path, "sub");
	rmdir(path);
}

/*
 * A FIFO as the output: nobody reading it is -ENXIO at once (open(2) without O_NONBLOCK waited
 * for a reader for ever: `kfsim refcount demo --svg fifo` hung, cli_fuzz seed 70002); with a
 * reader there, as with bash's >(...), the text goes through and the FIFO stays a FIFO.
 */
static void test_fifo_output(void **state)
{
	char path[PATH_MAX], got[64] = "";
	int sync[2], done[2], status;
	struct stat st;
	pid_t pid;

	(void)state;
	path_in(path, "pipe");
	assert_int_equal(mkfifo(path, 0644), 0);
	alarm(10); /* a wait for a reader would end the test here, not hang the suite */
	assert_int_equal(write_text(path, "x"), -ENXIO);
	assert_int_equal(pipe(sync), 0);
	assert_int_equal(pipe(done), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		/* the reader: open first (it does not wait for a writer), read once it has written */
		int fd = open(path, O_RDONLY | O_NONBLOCK);
		ssize_t n = 0, r;
		char c;

		if (fd < 0 || write(sync[1], "r", 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(2);
		while ((r = read(fd, got + n, sizeof(got) - 1 - (size_t)n)) > 0)
			n += r;
		_exit(strcmp(got, "through a FIFO\n") ? 1 : 0);
	}
	{
		char c;

		assert_int_equal(read(sync[0], &c, 1), 1);
	}
	assert_int_equal(write_text(path, "through a FIFO\n"), 0);
	assert_int_equal(write(done[1], "w", 1), 1);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	alarm(0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	for (int i = 0; i < 2; i++) {
		close(sync[i]);
		close(done[i]);
	}
	unlink(path);
}

static void test_enospc_dev_full(void **state)
{
	struct kfsim_outfile of;
	struct stat st;

	assert_int_equal(kfsim_outfile_open(&of, "/dev/full"), 0);
	assert_true(of.in_place);
	fputs("does not fit\n", of.file);
	assert_int_equal(kfsim_outfile_commit(&of), -ENOSPC);
	assert_int_equal(stat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));

	assert_int_equal(write_text("/dev/null", "gone\n"), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

/* Run @fn in a child process (optionally as nobody); it returns the errno the commit gave. */
static int in_child(int (*fn)(void), bool as_nobody)
{
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		if (as_nobody && geteuid() == 0 &&
		    (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)))
			_exit(250);
		_exit(-fn() & 0xff);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return -WEXITSTATUS(status);
}

static int write_big_under_fsize_limit(void)
{
	struct rlimit limit = { .rlim_cur = 4096, .rlim_max = RLIM_INFINITY };
	char path[PATH_MAX];
	struct kfsim_outfile of;
	int err;

	signal(SIGXFSZ, SIG_IGN);
	if (setrlimit(RLIMIT_FSIZE, &limit))
		return -EPERM;
	path_in(path, "big.txt");
	err = kfsim_outfile_open(&of, path);
	if (err)
		return err;
	for (int i = 0; i < 4096; i++)
		fprintf(of.file, "line %d of a file bigger than the limit\n", i);
	return kfsim_outfile_commit(&of);
}

static void test_efbig_keeps_old(void **state)
{
	char path[PATH_MAX];

	put("big.txt", "the old content\n", 0644);
	assert_int_equal(in_child(write_big_under_fsize_limit, false), -EFBIG);
	assert_string_equal(get("big.txt"), "the old content\n");
	assert_int_equal(nr_entries(), 1);
	path_in(path, "big.txt");
	unlink(path);
}

static int write_into_readonly_dir(void)
{
	char path[PATH_MAX];

	path_in(path, "ro/file.txt");
	return write_text(path, "new\n");
}

static int write_readonly_file(void)
{
	char path[PATH_MAX];

	path_in(path, "ro.txt");
	return write_text(path, "new\n");
}

/* A file its owner made read-only is not replaced (as nobody; root may, as with open(2)). */
static void test_readonly_file(void **state)
{
	char path[PATH_MAX];

	put("ro.txt", "old\n", 0444);
	path_in(path, "ro.txt");
	if (geteuid() == 0)
		assert_int_equal(chown(path, NOBODY, NOBODY), 0);
	assert_int_equal(in_child(write_readonly_file, true), -EACCES);
	assert_string_equal(get("ro.txt"), "old\n");
	assert_int_equal(nr_entries(), 1);
	if (geteuid() == 0) {
		assert_int_equal(write_text(path, "root may\n"), 0);
		assert_string_equal(get("ro.txt"), "root may\n");
	}
	unlink(path);
}

static void test_readonly_dir_as_nobody(void **state)
{
	char ro[PATH_MAX];

	path_in(ro, "ro");
	assert_int_equal(mkdir(ro, 0755), 0);
	put("ro/file.txt", "old\n", 0666); /* even a writable file: the directory says no */
	if (geteuid() != 0)
		assert_int_equal(chmod(ro, 0555), 0);
	assert_int_equal(in_child(write_into_readonly_dir, true), -EACCES);
	assert_string_equal(get("ro/file.txt"), "old\n");
	chmod(ro, 0755);
	remove_dir(NULL);
	make_dir(NULL);
}

/* A group: the third target is a directory that appears after the files were opened. */
static void test_commit_all_or_none(void **state)
{
	struct kfsim_outfile files[3];
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX], inside[PATH_MAX];

	put("a.c", "old a\n", 0644);
	path_in(a, "a.c");
	path_in(b, "b.c");
	path_in(c, "c.c");
	assert_int_equal(kfsim_outfile_open(&files[0], a), 0);
	assert_int_equal(kfsim_outfile_open(&files[1], b), 0);
	assert_int_equal(kfsim_outfile_open(&files[2], c), 0);
	for (int i = 0; i < 3; i++)
		fprintf(files[i].file, "new %d\n", i);
	assert_int_equal(mkdir(c, 0755), 0);
	/* non-empty, so rename() cannot replace it */
	put("c.c/inside", "x", 0644);
	assert_int_not_equal(kfsim_outfile_commit_all(files, 3), 0);
	assert_string_equal(get("a.c"), "old a\n");
	assert_null(get("b.c"));
	assert_int_equal(nr_entries(), 2); /* a.c and the directory c.c */

	/* and with nothing in the way, all three */
	path_in(inside, "c.c/inside");
	unlink(inside);
	rmdir(c);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(kfsim_outfile_open(&files[i], i == 0 ? a : i == 1 ? b : c), 0);
		fprintf(files[i].file, "new %d\n", i);
	}
	assert_int_equal(kfsim_outfile_commit_all(files, 3), 0);
	assert_string_equal(get("a.c"), "new 0\n");
	assert_string_equal(get("b.c"), "new 1\n");
	assert_string_equal(get("c.c"), "new 2\n");
	assert_int_equal(nr_entries(), 3);
	unlink(a);
	unlink(b);
	unlink(c);
}

/* A write error in one file of a group leaves every target as it was. */
static void test_commit_all_write_error(void **state)
{
	struct kfsim_outfile files[2];
	char a[PATH_MAX];

	put("a.c", "old a\n", 0644);
	path_in(a, "a.c");
	assert_int_equal(kfsim_outfile_open(&files[0], a), 0);
	assert_int_equal(kfsim_outfile_open(&files[1], "/dev/full"), 0);
	fputs("new a\n", files[0].file);
	fputs("no room\n", files[1].file);
	assert_int_equal(kfsim_outfile_commit_all(files, 2), -ENOSPC);
	assert_string_equal(get("a.c"), "old a\n");
	assert_int_equal(nr_entries(), 1);
	unlink(a);
}

/*
 * One file named twice in a group ("x.svg" and "./x.svg", as `plca sweep --csv P-latency.svg
 * --svg P` does): refused, the old file kept, rather than one output lost to the other.
 */
static void test_commit_all_same_target_twice(void **state)
{
	struct kfsim_outfile files[2];
	char a[PATH_MAX], again[PATH_MAX];

	put("a.svg", "old\n", 0644);
	path_in(a, "a.svg");
	path_in(again, "./a.svg");
	assert_int_equal(kfsim_outfile_open(&files[0], a), 0);
	assert_int_equal(kfsim_outfile_open(&files[1], again), 0);
	fputs("csv\n", files[0].file);
	fputs("svg\n", files[1].file);
	assert_int_equal(kfsim_outfile_commit_all(files, 2), -EINVAL);
	assert_string_equal(get("a.svg"), "old\n");
	assert_int_equal(nr_entries(), 1);
	unlink(a);
}

static void test_save(void **state)
{
	char path[PATH_MAX];

	path_in(path, "bin");
	assert_int_equal(kfsim_outfile_save(path, "a\0b", 3), 0);
	assert_int_equal(memcmp(get("bin"), "a\0b", 3), 0);
	assert_int_equal(kfsim_outfile_save("/dev/full", "x", 1), -ENOSPC);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_file_takes_umask),
		cmocka_unit_test(test_existing_file_keeps_mode),
		cmocka_unit_test(test_abort_keeps_old),
		cmocka_unit_test(test_symlink_target_replaced),
		cmocka_unit_test(test_planted_symlink_in_sticky_dir),
		cmocka_unit_test(test_name_too_long),
		cmocka_unit_test(test_directory_in_the_way),
		cmocka_unit_test(test_fifo_output),
		cmocka_unit_test(test_enospc_dev_full),
		cmocka_unit_test(test_efbig_keeps_old),
		cmocka_unit_test(test_readonly_dir_as_nobody),
		cmocka_unit_test(test_readonly_file),
		cmocka_unit_test(test_commit_all_or_none),
		cmocka_unit_test(test_commit_all_write_error),
		cmocka_unit_test(test_commit_all_same_target_twice),
		cmocka_unit_test(test_save),
	};

	printf("running as uid %u\n", (unsigned)geteuid());
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
