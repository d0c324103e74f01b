// SPDX-License-Identifier: MIT
/*
 * A function or a program in a child process (child_run.h): fork, pipes for what is collected,
 * poll() over them until the child closes them, waitpid(), and SIGKILL at the time limit.
 *
 * Invariants: every pipe is created close-on-exec, so a child started concurrently by another
 * thread inherits none of ours; the parent never blocks on one pipe while the child blocks on
 * another (all are polled together); each read, poll and waitpid resumes after EINTR.
 * Not modelled: process groups.  A grandchild that keeps a collected pipe open keeps the parent
 * reading until it closes it or the time limit kills the child (what is left is then taken
 * without waiting).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child_run.h"

enum { PIPE_OUT, PIPE_ERR, PIPE_RESULT, NR_PIPES };

#define FIRST_CAP 8192
#define DRAIN_ROUNDS 1024 /* reads of what a killed child left behind */
#define REAP_STEP_MS 10 /* how often a child that closed its pipes is looked at, with a limit */
#define CPU_STEP_MS 20	/* how often the CPU time of a child with a CPU limit is read */

/* What one run keeps besides @c: the pipes and the growth of each buffer. */
struct child_io {
	int fd[NR_PIPES][2];
	size_t cap[NR_PIPES];
	int exec_err[2]; /* the child's errno when its set-up or exec failed */
	long long deadline_ms;
	bool killed;
};

/*
 * The CPU time, user and system, in milliseconds, of process @pid and of the children it has
 * waited for (/proc/PID/stat's utime, stime, cutime, cstime: fields 14 to 17); -1 when it cannot
 * be read (no /proc, or the process is gone).
 */
static long long cpu_ms(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t[4];
	long ticks = sysconf(_SC_CLK_TCK);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0 || ticks <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
			 &t[0], &t[1], &t[2], &t[3]) != 4)
		return -1;
	return (long long)((t[0] + t[1] + t[2] + t[3]) * 1000 / (unsigned long long)ticks);
}

/* The child has used its CPU time (c->cpu_timeout_ms; 0: no such limit). */
static bool cpu_spent(const struct kfsim_child *c, pid_t pid)
{
	return c->cpu_timeout_ms && cpu_ms(pid) >= (long long)c->cpu_timeout_ms;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct kfsim_child_buf *child_buf(struct kfsim_child *c, int i)
{
	return i == PIPE_OUT ? &c->out : i == PIPE_ERR ? &c->err : &c->result;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void io_close(struct child_io *io)
{
	for (int i = 0; i < NR_PIPES; i++) {
		close_fd(&io->fd[i][0]);
		close_fd(&io->fd[i][1]);
	}
	close_fd(&io->exec_err[0]);
	close_fd(&io->exec_err[1]);
}

/* The pipes @c collects (and the result pipe for a function), each buffer an empty string. */
static int io_open(struct kfsim_child *c, struct child_io *io, bool result)
{
	bool want[NR_PIPES] = {c->capture & KFSIM_CHILD_STDOUT, c->capture & KFSIM_CHILD_STDERR,
			       result};

	memset(io, 0, sizeof(*io));
	for (int i = 0; i < NR_PIPES; i++)
		io->fd[i][0] = io->fd[i][1] = -1;
	io->exec_err[0] = io->exec_err[1] = -1;
	c->status = 0;
	c->timed_out = false;
	if (pipe2(io->exec_err, O_CLOEXEC))
		return -errno;
	for (int i = 0; i < NR_PIPES; i++) {
		struct kfsim_child_buf *b = child_buf(c, i);

		if (!want[i])
			continue;
		if (pipe2(io->fd[i], O_CLOEXEC))
			return -errno;
		free(b->data);
		b->len = 0;
		b->data = malloc(FIRST_CAP);
		if (!b->data)
			return -ENOMEM;
		b->data[0] = '\0';
		io->cap[i] = FIRST_CAP;
	}
	if (c->timeout_ms)
		io->deadline_ms = now_ms() + c->timeout_ms;
	return 0;
}

/* In the child: tell the parent why it cannot go on (errno) and end. */
static _Noreturn void child_fail(struct child_io *io, int err)
{
	ssize_t n;

	do
		n = write(io->exec_err[1], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	_exit(127);
}

/* In the child: the collected streams onto its pipes, the read ends closed, the directory. */
static void child_setup(struct kfsim_child *c, struct child_io *io)
{
	close_fd(&io->exec_err[0]);
	for (int i = 0; i < NR_PIPES; i++)
		close_fd(&io->fd[i][0]);
	if (io->fd[PIPE_OUT][1] >= 0 && dup2(io->fd[PIPE_OUT][1], STDOUT_FILENO) < 0)
		child_fail(io, errno);
	if (io->fd[PIPE_ERR][1] >= 0 && dup2(io->fd[PIPE_ERR][1], STDERR_FILENO) < 0)
		child_fail(io, errno);
	close_fd(&io->fd[PIPE_OUT][1]);
	close_fd(&io->fd[PIPE_ERR][1]);
	if (c->cwd && chdir(c->cwd))
		child_fail(io, errno);
}

static void kill_child(struct child_io *io, pid_t pid)
{
	if (!io->killed)
		kill(pid, SIGKILL);
	io->killed = true;
}

/* Append what @fd has to buffer @i.  Return: bytes read, 0 at end of file, or -errno. */
static ssize_t read_some(struct kfsim_child *c, struct child_io *io, int i)
{
	struct kfsim_child_buf *b = child_buf(c, i);
	ssize_t n;

	if (io->cap[i] - b->len < FIRST_CAP / 2) {
		size_t cap = io->cap[i] * 2;
		char *grown = realloc(b->data, cap);

		if (!grown)
			return -ENOMEM;
		b->data = grown;
		io->cap[i] = cap;
	}
	n = read(io->fd[i][0], b->data + b->len, io->cap[i] - b->len - 1);
	if (n < 0)
		return -errno;
	b->len += (size_t)n;
	b->data[b->len] = '\0';
	return n;
}

/*
 * Read every collected pipe until the child closes them all, or, at the time limit, kill it.
 * With @drain (after the child is gone) take only what is there, without waiting.
 * Return: 0, or -ENOMEM (the child is then killed).
 */
static int collect(struct kfsim_child *c, struct child_io *io, pid_t pid, bool drain)
{
	struct pollfd p[NR_PIPES];
	int open = 0, rounds = 0;

	for (int i = 0; i < NR_PIPES; i++) {
		p[i] = (struct pollfd){.fd = io->fd[i][0], .events = POLLIN};
		open += p[i].fd >= 0;
	}
	while (open) {
		int wait = -1, n;

		if (drain) {
			if (++rounds > DRAIN_ROUNDS)
				return 0; /* a grandchild still writing: enough */
			wait = 0;
		} else if (io->deadline_ms || c->cpu_timeout_ms) {
			long long left = io->deadline_ms ? io->deadline_ms - now_ms() : INT_MAX;

			if (left <= 0 || cpu_spent(c, pid)) {
				kill_child(io, pid);
				return 0;
			}
			wait = left > INT_MAX ? INT_MAX : (int)left;
			if (c->cpu_timeout_ms && wait > CPU_STEP_MS)
				wait = CPU_STEP_MS;
		}
		n = poll(p, NR_PIPES, wait);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 && !drain && c->cpu_timeout_ms)
			continue; /* a CPU time step: the limits are looked at again */
		if (n <= 0)
			return 0; /* nothing left to drain (poll() itself fails only on bad memory) */
		for (int i = 0; i < NR_PIPES; i++) {
			ssize_t got;

			if (p[i].fd < 0 || !p[i].revents)
				continue;
			got = read_some(c, io, i);
			if (got == -EINTR || got == -EAGAIN)
				continue;
			if (got == -ENOMEM) {
				kill_child(io, pid);
				return -ENOMEM;
			}
			if (got <= 0) { /* end of file, or an error that will not go away */
				close_fd(&io->fd[i][0]);
				p[i].fd = -1;
				open--;
			}
		}
	}
	return 0;
}

/* Wait for the child, killing it at the time limit.  Return: 0 or -errno of waitpid(). */
static int reap(struct kfsim_child *c, struct child_io *io, pid_t pid)
{
	for (;;) {
		bool limited = (io->deadline_ms || c->cpu_timeout_ms) && !io->killed;
		pid_t r = waitpid(pid, &c->status, limited ? WNOHANG : 0);

		if (r == pid)
			break;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if ((io->deadline_ms && now_ms() >= io->deadline_ms) || cpu_spent(c, pid))
			kill_child(io, pid);
		else
			poll(NULL, 0, REAP_STEP_MS);
	}
	c->timed_out = io->killed && WIFSIGNALED(c->status) && WTERMSIG(c->status) == SIGKILL;
	return 0;
}

/* After the fork, in the parent: set-up errors, output, the end. */
static int parent(struct kfsim_child *c, struct child_io *io, pid_t pid)
{
	int child_errno = 0, err;
	ssize_t n;

	for (int i = 0; i < NR_PIPES; i++)
		close_fd(&io->fd[i][1]);
	close_fd(&io->exec_err[1]);
	do
		n = read(io->exec_err[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	if (n == sizeof(child_errno)) {
		io->deadline_ms = 0; /* it has _exit()ed or is about to */
		reap(c, io, pid);
		c->status = 0;
		return -child_errno;
	}
	err = collect(c, io, pid, false);
	if (!err)
		err = reap(c, io, pid);
	else
		reap(c, io, pid);
	if (io->killed)
		collect(c, io, pid, true);
	return err;
}

static int start(struct kfsim_child *c, struct child_io *io, int (*fn)(void *, int), void *arg,
		 const char *path, char *const argv[])
{
	pid_t pid;
	int err = io_open(c, io, fn != NULL);

	if (err)
		return err;
	fflush(NULL); /* or the child's exit would print our buffered output again */
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		child_setup(c, io);
		if (fn) {
			int fd = io->fd[PIPE_RESULT][1], status;

			close_fd(&io->exec_err[1]); /* set up: the parent stops waiting for an errno */
			status = fn(arg, fd);
			fflush(NULL);
			_exit(status);
		}
		execvp(path, argv);
		child_fail(io, errno);
	}
	return parent(c, io, pid);
}

int kfsim_child_run(struct kfsim_child *c, int (*fn)(void *arg, int fd), void *arg)
{
	struct child_io io;
	int err;

	if (!c || !fn)
		return -EINVAL;
	err = start(c, &io, fn, arg, NULL, NULL);
	io_close(&io);
	return err;
}

int kfsim_child_exec(struct kfsim_child *c, const char *path, char *const argv[])
{
	struct child_io io;
	int err;

	if (!c || !path || !*path || !argv || !argv[0])
		return -EINVAL;
	err = start(c, &io, NULL, NULL, path, argv);
	io_close(&io);
	return err;
}

int kfsim_child_exec_status(const char *who, char *const argv[])
{
	struct kfsim_child c = {0};
	int err = kfsim_child_exec(&c, argv[0], argv);

	kfsim_child_release(&c);
	if (err) {
		fprintf(stderr, "%s: cannot run %s: %s\n", who, argv[0], strerror(-err));
		return 127;
	}
	return WIFEXITED(c.status) ? WEXITSTATUS(c.status) : -1;
}

int kfsim_child_exit_code(const struct kfsim_child *c)
{
	if (WIFEXITED(c->status))
		return WEXITSTATUS(c->status);
	if (WIFSIGNALED(c->status))
		return 128 + WTERMSIG(c->status);
	return -1;
}

bool kfsim_child_result_copy(const struct kfsim_child *c, void *buf, size_t size)
{
	if (c->result.data && c->result.len == size) {
		memcpy(buf, c->result.data, size);
		return true;
	}
	memset(buf, 0, size);
	return false;
}

const char *kfsim_child_end(const struct kfsim_child *c, char *buf, size_t size)
{
	if (c->timed_out)
		snprintf(buf, size, "HANG");
	else if (WIFSIGNALED(c->status))
		snprintf(buf, size, "CRASH");
	else if (WEXITSTATUS(c->status))
		snprintf(buf, size, "EXIT %d", WEXITSTATUS(c->status));
	else if (size)
		buf[0] = '\0';
	return buf;
}

void kfsim_child_release(struct kfsim_child *c)
{
	for (int i = 0; i < NR_PIPES; i++) {
		struct kfsim_child_buf *b = child_buf(c, i);

		free(b->data);
		b->data = NULL;
		b->len = 0;
	}
}
