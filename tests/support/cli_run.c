// SPDX-License-Identifier: MIT
/* Spawn kfsim with pipes for stdout and stderr, read both until EOF, wait for it. */
#define _GNU_SOURCE
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cli_run.h"

struct buffer {
	char *data;
	size_t len, cap;
};

static int buffer_read(struct buffer *buf, int fd)
{
	if (buf->cap - buf->len < 4096) {
		size_t cap = buf->cap ? buf->cap * 2 : 8192;
		char *grown = realloc(buf->data, cap);

		if (!grown)
			return -1;
		buf->data = grown;
		buf->cap = cap;
	}
	ssize_t n = read(fd, buf->data + buf->len, buf->cap - buf->len - 1);

	if (n > 0)
		buf->len += (size_t)n;
	buf->data[buf->len] = '\0';
	return (int)n;
}

int cli_run_in(struct cli_result *result, const char *cwd, const char *const args[])
{
	struct buffer out = { 0 }, err = { 0 };
	int out_pipe[2], err_pipe[2], status;
	size_t nargs = 0;
	pid_t pid;

	while (args[nargs])
		nargs++;
	if (pipe(out_pipe) || pipe(err_pipe))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		const char **argv = calloc(nargs + 2, sizeof(*argv));

		dup2(out_pipe[1], 1);
		dup2(err_pipe[1], 2);
		close(out_pipe[0]);
		close(err_pipe[0]);
		if (cwd && chdir(cwd))
			_exit(126);
		argv[0] = "kfsim";
		memcpy(argv + 1, args, nargs * sizeof(*argv));
		execv(KFSIM_CLI_PATH, (char **)argv);
		_exit(127);
	}
	close(out_pipe[1]);
	close(err_pipe[1]);
	struct pollfd fds[2] = { { out_pipe[0], POLLIN, 0 }, { err_pipe[0], POLLIN, 0 } };
	int open_fds = 2;

	buffer_read(&out, -1);
	buffer_read(&err, -1);
	while (open_fds) {
		if (poll(fds, 2, -1) < 0)
			break;
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP)))
				continue;
			if (buffer_read(i ? &err : &out, fds[i].fd) <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
			}
		}
	}
	waitpid(pid, &status, 0);
	result->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	result->out = out.data;
	result->err = err.data;
	return 0;
}

int cli_run(struct cli_result *result, const char *const args[])
{
	return cli_run_in(result, NULL, args);
}

void cli_result_free(struct cli_result *result)
{
	free(result->out);
	free(result->err);
	result->out = result->err = NULL;
}

size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return n;
}
