// SPDX-License-Identifier: MIT
/*
 * Graphviz's dot program, run in one place (<kfsim/graphviz.h>): DOT in a file, SVG out into a
 * stream, dot's complaints into the kernel log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <kfsim/err.h>
#include <kfsim/graphviz.h>
#include <kfsim/outfile.h>
#include <kfsim/printk.h>

extern char **environ;

/* Copy the first line dot wrote to its stderr (@fd) into the kernel log. */
static void log_dot_complaint(int fd, const char *who)
{
	char buf[512];
	ssize_t len = pread(fd, buf, sizeof(buf) - 1, 0);

	if (len <= 0)
		return;
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	pr_warn("%s: dot: %s\n", who, buf);
}

/* Whether @buf (the tail of dot's output) ends an SVG document: "</svg>" and white space. */
static bool svg_complete(const char *tail, size_t len)
{
	while (len && (tail[len - 1] == '\n' || tail[len - 1] == ' ' || tail[len - 1] == '\r'))
		len--;
	return len >= 6 && !memcmp(tail + len - 6, "</svg>", 6);
}

/*
 * We copy dot's standard output into @out ourselves rather than letting dot write the file, so
 * @out's errors are ours to see (-ENOSPC on /dev/full, where dot writing the file itself exited 0).
 */
int kfsim_dot_to_svg(const char *dot_path, FILE *out, const char *who)
{
	char *argv[] = {"dot", "-Tsvg", (char *)dot_path, NULL};
	posix_spawn_file_actions_t actions;
	char err_path[4096], buf[8192], tail[16];
	size_t tail_len = 0;
	int err_fd, status, err, pipe_fd[2];
	ssize_t len;
	const char *tmpdir = getenv("TMPDIR");
	pid_t pid;

	if (!dot_path || !out || !who)
		return -EINVAL;
	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (snprintf(err_path, sizeof(err_path), "%s/kfsim-dot-XXXXXX", tmpdir) >=
	    (int)sizeof(err_path))
		return -EIO;
	err_fd = mkstemp(err_path);
	if (err_fd < 0)
		return -EIO;
	unlink(err_path); /* anonymous from now on */
	if (pipe2(pipe_fd, O_CLOEXEC)) {
		close(err_fd);
		return -EIO;
	}
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
	err = posix_spawnp(&pid, "dot", &actions, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&actions);
	close(pipe_fd[1]);
	if (err) {
		close(pipe_fd[0]);
		close(err_fd);
		return -err; /* -ENOENT: no dot on $PATH */
	}
	while ((len = read(pipe_fd[0], buf, sizeof(buf))) != 0) {
		if (len < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		fwrite(buf, 1, (size_t)len, out);
		if ((size_t)len >= sizeof(tail)) {
			memcpy(tail, buf + len - sizeof(tail), sizeof(tail));
			tail_len = sizeof(tail);
		} else {
			size_t keep = tail_len + (size_t)len > sizeof(tail) ? sizeof(tail) - (size_t)len
									    : tail_len;

			memmove(tail, tail + tail_len - keep, keep);
			memcpy(tail + keep, buf, (size_t)len);
			tail_len = keep + (size_t)len;
		}
	}
	close(pipe_fd[0]);
	if (waitpid(pid, &status, 0) < 0)
		err = -errno;
	else if (!WIFEXITED(status))
		err = -EIO;
	else if (WEXITSTATUS(status) == 127) /* how a spawned child reports "not found" */
		err = -ENOENT;
	else if (WEXITSTATUS(status) || !svg_complete(tail, tail_len))
		err = -EIO;
	if (err == -EIO)
		log_dot_complaint(err_fd, who);
	close(err_fd);
	return err; /* @out's own write errors are for whoever finishes it (kfsim_outfile_commit) */
}

int kfsim_dot_file_to_svg(const char *dot_path, const char *svg_path, const char *who)
{
	struct kfsim_outfile out;
	int err;

	if (!dot_path || !svg_path || !*svg_path || !who)
		return -EINVAL;
	err = kfsim_outfile_open(&out, svg_path);
	if (err)
		return err;
	err = kfsim_dot_to_svg(dot_path, out.file, who);
	if (err) {
		kfsim_outfile_abort(&out);
		return err;
	}
	return kfsim_outfile_commit(&out);
}
