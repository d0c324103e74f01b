/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CORE_CHILD_RUN_H
#define KFSIM_CORE_CHILD_RUN_H

/*
 * Running a function or a program in a child process, with a time limit, and collecting what it
 * wrote and how it ended: the one implementation behind kfsim-bpf-cc's runner (each SEC()
 * program in a child), the BPF verifier oracle, `kfsim bpf test`, kfsim-bpf-cc's compiler runs,
 * Graphviz's dot and the CLI tests.  The kernel's nearest relative is call_usermodehelper()
 * with UMH_WAIT_PROC; this one also reads the child's output.
 *
 * Internal to kfsim and libc-only: compiled into the library (hidden) and into
 * libkfsim_bpfrt.a, which programs built by kfsim-bpf-cc link beside the shared library.
 *
 * The parent reads every pipe it collects with poll() as the child writes, so a child that
 * writes more than a pipe holds (64 KiB) on two streams never blocks; interrupted system calls
 * (EINTR: a signal handler of the caller's without SA_RESTART) are resumed, never reported.
 */
#include <stdbool.h>
#include <stddef.h>

/* Which of the child's standard streams are collected; the others are the caller's. */
#define KFSIM_CHILD_STDOUT 0x1
#define KFSIM_CHILD_STDERR 0x2

/**
 * struct kfsim_child_buf - bytes a child wrote, NUL-terminated (@data is NULL before any)
 * @data: malloc()ed, @len bytes plus a '\0'
 * @len: bytes written
 */
struct kfsim_child_buf {
	char *data;
	size_t len;
};

/**
 * struct kfsim_child - one child process, run to its end
 * @timeout_ms: in: wall-clock limit in milliseconds, 0 for none.  At the limit the child is
 *	sent SIGKILL; what it wrote until then is kept
 * @cpu_timeout_ms: in: CPU-time limit in milliseconds (user and system time of the child and of
 *	the children it has waited for, read from /proc at least every 20 ms), 0 for none; at the limit as
 *	at @timeout_ms.  Unlike wall-clock time it does not grow with the machine's load: a
 *	program's limit stays its own work's.  Without /proc only @timeout_ms holds
 * @capture: in: KFSIM_CHILD_STDOUT and/or KFSIM_CHILD_STDERR
 * @cwd: in: working directory of the child, or NULL for ours
 * @status: out: the child's wait status (WIFEXITED(), WTERMSIG()...)
 * @timed_out: out: the child was killed at @timeout_ms or @cpu_timeout_ms
 * @out: out: its standard output, when captured
 * @err: out: its standard error, when captured
 * @result: out: what kfsim_child_run()'s function wrote to its result descriptor
 *
 * Zero it, set the inputs, run, read the outputs, then kfsim_child_release().
 */
struct kfsim_child {
	unsigned int timeout_ms;
	unsigned int cpu_timeout_ms;
	unsigned int capture;
	const char *cwd;
	int status;
	bool timed_out;
	struct kfsim_child_buf out, err, result;
};

/**
 * kfsim_child_run() - call @fn(@arg, fd) in a child process (fork, no exec)
 * @c: options in, outcome out
 * @fn: runs in the child; writes its result to fd (collected in @c->result, apart from anything
 *	it prints); its return value is the child's exit status.  It may also _exit() itself
 * @arg: passed to @fn
 *
 * stdio buffers are flushed before the fork, so nothing is printed twice.
 *
 * Return: 0 when the child ran, whatever its end (see @c->status and @c->timed_out);
 * -errno when it could not be started (-EMFILE, -EAGAIN...) or its output could not be stored
 * (-ENOMEM; the child is then killed).  @c's buffers are to be released either way.
 */
int kfsim_child_run(struct kfsim_child *c, int (*fn)(void *arg, int fd), void *arg);

/**
 * kfsim_child_exec() - run the program @path in a child process
 * @c: options in, outcome out
 * @path: the program's file, looked up in PATH when it has no '/'
 * @argv: its arguments, NULL-terminated, from the argv[0] it is to see
 *
 * Return: as kfsim_child_run(), and the reason the program could not be executed
 * (-ENOENT: no such program, -EACCES...) when the exec failed: then no outcome is set.
 */
int kfsim_child_exec(struct kfsim_child *c, const char *path, char *const argv[]);

/**
 * kfsim_child_exec_status() - run @argv[0] (found as kfsim_child_exec() finds it) with our
 * standard streams, no time limit, and wait for it: system() without a shell
 * @who: prefix of the one line printed on stderr when the program could not be run
 * @argv: NULL-terminated
 *
 * Return: its exit status; 127 when it could not be run (as a shell says it), -1 when a signal
 * ended it.
 */
int kfsim_child_exec_status(const char *who, char *const argv[]);

/**
 * kfsim_child_exit_code() - @c's end as a shell says it: the exit status, or 128 + the signal
 * @c: after a run
 */
int kfsim_child_exit_code(const struct kfsim_child *c);

/**
 * kfsim_child_result_copy() - @c's result as the object of @size bytes its function wrote whole
 * (a struct), into @buf; @buf is zeroed when the child wrote anything else (it died first)
 * @c: after kfsim_child_run()
 * @buf: receives it
 * @size: of @buf
 *
 * Return: whether the result was whole.
 */
bool kfsim_child_result_copy(const struct kfsim_child *c, void *buf, size_t size);

/**
 * kfsim_child_end() - @c's end in one word, as the BPF runners print it
 * @c: after a run
 * @buf: receives "HANG" (killed at the time limit), "CRASH" (ended by a signal), "EXIT n"
 *	(a non-zero exit status) or "" (exit status 0)
 * @size: of @buf
 *
 * Return: @buf.
 */
const char *kfsim_child_end(const struct kfsim_child *c, char *buf, size_t size);

/** kfsim_child_release() - free @c's buffers (they become empty); @c may run again. */
void kfsim_child_release(struct kfsim_child *c);

#endif /* KFSIM_CORE_CHILD_RUN_H */
