// SPDX-License-Identifier: MIT
/*
 * core/child_run.c: a function or a program in a child process.  Every case is a real child:
 * a hang is killed at the limit and reported, a crash reports its signal, two streams of 1 MiB
 * each plus a 1 MiB result do not deadlock on the 64 KiB pipes, and a parent whose signal handler
 * interrupts every system call (SIGALRM each millisecond, no SA_RESTART) gets the same outcome.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "core/child_run.h"

#define BIG (1 << 20)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* ---- functions run in the child ---- */

static int say_hello(void *arg, int fd)
{
	printf("on stdout\n"); /* buffered: the child's exit path flushes it */
	fprintf(stderr, "on stderr\n");
	return write_all(fd, arg, strlen(arg)) ? 9 : 7;
}

static int hang(void *arg, int fd)
{
	write_all(fd, "before", 6);
	for (;;)
		pause();
	return 0;
}

static int crash(void *arg, int fd)
{
	signal(SIGSEGV, SIG_DFL); /* a sanitizer's handler would turn it into an exit */
	raise(SIGSEGV);
	return 0;
}

/* 1 MiB on each of stdout, stderr and the result, interleaved in 1 KiB pieces. */
static int flood(void *arg, int fd)
{
	char piece[1024];

	for (int i = 0; i < BIG / (int)sizeof(piece); i++) {
		memset(piece, 'a' + i % 26, sizeof(piece));
		if (write_all(STDOUT_FILENO, piece, sizeof(piece)) ||
		    write_all(STDERR_FILENO, piece, sizeof(piece)) || write_all(fd, piece, sizeof(piece)))
			return 1;
	}
	return 0;
}

/* Slowly, so that the parent's SIGALRM lands in poll(), read() and waitpid(). */
static int trickle(void *arg, int fd)
{
	struct timespec pause_2ms = {0, 2000000};

	for (int i = 0; i < 40; i++) {
		char c = (char)('0' + i % 10);

		if (write_all(fd, &c, 1))
			return 1;
		nanosleep(&pause_2ms, NULL);
	}
	return 5;
}

/* An endless loop that uses the CPU, in a child it waits for (its CPU time counts too). */
static int spin(void *arg, int fd)
{
	volatile unsigned long n = 0;
	pid_t pid;

	write_all(fd, "spin", 4);
	pid = fork();
	if (pid == 0) {
		for (unsigned long i = 0; i < 5000000ul; i++)
			n++;
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	for (;;)
		n++;
	return 0;
}

/*
 * A grandchild that uses 150 ms of CPU and ends, waited for; then the child idles: only the
 * waited-for child's time (cutime, cstime) can reach a 100 ms limit.
 */
static int spin_in_waited_child(void *arg, int fd)
{
	pid_t pid = fork();

	if (pid == 0) {
		volatile unsigned long n = 0;

		while (clock() < CLOCKS_PER_SEC * 15 / 100)
			n++;
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	write_all(fd, "waited", 6);
	for (;;)
		pause();
	return 0;
}

/* Closes everything it is collected on, then runs on: only waitpid() can see it end. */
static int close_and_hang(void *arg, int fd)
{
	close(fd);
	close(STDOUT_FILENO);
	close(STDERR_FILENO);
	for (;;)
		pause();
	return 0;
}

/* ---- tests ---- */

static void test_function_result_streams_status(void **state)
{
	struct kfsim_child c = {.capture = KFSIM_CHILD_STDOUT | KFSIM_CHILD_STDERR};
	char end[16];

	assert_int_equal(kfsim_child_run(&c, say_hello, "the result"), 0);
	assert_true(WIFEXITED(c.status));
	assert_int_equal(WEXITSTATUS(c.status), 7);
	assert_int_equal(kfsim_child_exit_code(&c), 7);
	assert_false(c.timed_out);
	assert_string_equal(c.result.data, "the result");
	assert_int_equal(c.result.len, 10);
	assert_string_equal(c.out.data, "on stdout\n");
	assert_string_equal(c.err.data, "on stderr\n");
	assert_string_equal(kfsim_child_end(&c, end, sizeof(end)), "EXIT 7");
	{
		char whole[10], other[11] = "x";

		assert_true(kfsim_child_result_copy(&c, whole, sizeof(whole)));
		assert_memory_equal(whole, "the result", 10);
		assert_false(kfsim_child_result_copy(&c, other, sizeof(other)));
		assert_int_equal(other[0], 0); /* zeroed, not half a struct */
	}
	kfsim_child_release(&c);
	assert_null(c.result.data);
	assert_int_equal(c.result.len, 0);
	kfsim_child_release(&c); /* twice is harmless */
}

static void test_timeout_kills_and_reports(void **state)
{
	struct kfsim_child c = {.timeout_ms = 200};
	char end[16];
	double t0 = now_s(), took;

	assert_int_equal(kfsim_child_run(&c, hang, NULL), 0);
	took = now_s() - t0;
	assert_true(c.timed_out);
	assert_true(WIFSIGNALED(c.status));
	assert_int_equal(WTERMSIG(c.status), SIGKILL);
	assert_int_equal(kfsim_child_exit_code(&c), 128 + SIGKILL);
	assert_string_equal(kfsim_child_end(&c, end, sizeof(end)), "HANG");
	assert_string_equal(c.result.data, "before"); /* what it wrote before is kept */
	assert_true(took >= 0.19);
	assert_true(took < 5);
	kfsim_child_release(&c);
}

/*
 * A CPU-time limit kills a spinning child, and not one that sleeps (pause() uses no CPU): that
 * one is left to the wall-clock limit, which its CPU limit far exceeds.
 */
static void test_cpu_timeout(void **state)
{
	struct kfsim_child c = {.cpu_timeout_ms = 100, .timeout_ms = 60000};
	struct kfsim_child s = {.cpu_timeout_ms = 100, .timeout_ms = 250};
	char end[16];
	double t0 = now_s();

	assert_int_equal(kfsim_child_run(&c, spin, NULL), 0);
	assert_true(c.timed_out);
	assert_int_equal(WTERMSIG(c.status), SIGKILL);
	assert_string_equal(kfsim_child_end(&c, end, sizeof(end)), "HANG");
	assert_string_equal(c.result.data, "spin");
	assert_true(now_s() - t0 < 30);
	kfsim_child_release(&c);
	t0 = now_s();
	assert_int_equal(kfsim_child_run(&s, hang, NULL), 0);
	assert_true(s.timed_out);
	assert_true(now_s() - t0 >= 0.24); /* the wall clock's 250 ms, not 100 ms of CPU */
	kfsim_child_release(&s);
	/* the CPU time of a child it waited for counts: killed long before the clock's 20 s */
	s = (struct kfsim_child){.cpu_timeout_ms = 100, .timeout_ms = 20000};
	t0 = now_s();
	assert_int_equal(kfsim_child_run(&s, spin_in_waited_child, NULL), 0);
	assert_true(s.timed_out);
	assert_string_equal(s.result.data, "waited");
	assert_true(now_s() - t0 < 10);
	kfsim_child_release(&s);
}

static void test_timeout_after_pipes_closed(void **state)
{
	struct kfsim_child c = {.timeout_ms = 150,
				.capture = KFSIM_CHILD_STDOUT | KFSIM_CHILD_STDERR};
	double t0 = now_s();

	assert_int_equal(kfsim_child_run(&c, close_and_hang, NULL), 0);
	assert_true(c.timed_out);
	assert_int_equal(WTERMSIG(c.status), SIGKILL);
	assert_true(now_s() - t0 < 5);
	assert_int_equal(c.out.len, 0);
	assert_string_equal(c.out.data, ""); /* collected streams are strings even when empty */
	kfsim_child_release(&c);
}

static void test_crash_reports_signal(void **state)
{
	struct kfsim_child c = {.timeout_ms = 10000};
	char end[16];

	assert_int_equal(kfsim_child_run(&c, crash, NULL), 0);
	assert_false(c.timed_out);
	assert_true(WIFSIGNALED(c.status));
	assert_int_equal(WTERMSIG(c.status), SIGSEGV);
	assert_int_equal(kfsim_child_exit_code(&c), 128 + SIGSEGV);
	assert_string_equal(kfsim_child_end(&c, end, sizeof(end)), "CRASH");
	assert_int_equal(c.result.len, 0);
	kfsim_child_release(&c);
}

static void check_flood(const struct kfsim_child_buf *b)
{
	assert_int_equal(b->len, BIG);
	for (size_t i = 0; i < BIG; i += 1024)
		assert_int_equal(b->data[i], 'a' + (i / 1024) % 26);
	assert_int_equal(b->data[BIG], '\0');
}

static void test_large_output_no_deadlock(void **state)
{
	struct kfsim_child c = {.timeout_ms = 60000,
				.capture = KFSIM_CHILD_STDOUT | KFSIM_CHILD_STDERR};

	assert_int_equal(kfsim_child_run(&c, flood, NULL), 0);
	assert_false(c.timed_out);
	assert_int_equal(kfsim_child_exit_code(&c), 0);
	check_flood(&c.out);
	check_flood(&c.err);
	check_flood(&c.result);
	kfsim_child_release(&c);
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	alarms++;
}

/* SIGALRM every millisecond, without SA_RESTART: poll, read and waitpid see EINTR. */
static void interrupt_start(struct sigaction *old)
{
	struct sigaction sa = {.sa_handler = on_alarm};
	struct itimerval every_ms = {{0, 1000}, {0, 1000}};

	alarms = 0;
	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGALRM, &sa, old), 0);
	assert_int_equal(setitimer(ITIMER_REAL, &every_ms, NULL), 0);
}

static void interrupt_stop(const struct sigaction *old)
{
	struct itimerval off = {{0, 0}, {0, 0}};

	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, old, NULL);
}

static void test_eintr_is_resumed(void **state)
{
	struct kfsim_child c = {.capture = KFSIM_CHILD_STDOUT};
	struct kfsim_child t = {.timeout_ms = 100};
	struct sigaction old;

	interrupt_start(&old);
	assert_int_equal(kfsim_child_run(&c, trickle, NULL), 0);
	assert_int_equal(kfsim_child_run(&t, hang, NULL), 0);
	interrupt_stop(&old);
	assert_true(alarms > 10);
	assert_int_equal(kfsim_child_exit_code(&c), 5);
	assert_false(c.timed_out);
	assert_string_equal(c.result.data, "0123456789012345678901234567890123456789");
	assert_true(t.timed_out); /* the limit holds when the wait is interrupted */
	kfsim_child_release(&c);
	kfsim_child_release(&t);
}

static void test_exec_program(void **state)
{
	struct kfsim_child c = {.capture = KFSIM_CHILD_STDOUT | KFSIM_CHILD_STDERR, .cwd = "/"};
	char *argv[] = {"called-so", "-c", "echo $0 in $(pwd); echo oops >&2; exit 3", NULL};

	assert_int_equal(kfsim_child_exec(&c, "sh", argv), 0);
	assert_int_equal(kfsim_child_exit_code(&c), 3);
	assert_string_equal(c.out.data, "called-so in /\n");
	assert_string_equal(c.err.data, "oops\n");
	assert_null(c.result.data); /* a program has no result pipe */
	kfsim_child_release(&c);
}

static void test_exec_failures(void **state)
{
	struct kfsim_child c = {.capture = KFSIM_CHILD_STDOUT};
	char *missing[] = {"kfsim-no-such-program", NULL};
	char *sh[] = {"sh", "-c", "exit 0", NULL};

	assert_int_equal(kfsim_child_exec(&c, missing[0], missing), -ENOENT);
	assert_int_equal(kfsim_child_exec(&c, "/nonexistent/dir/prog", missing), -ENOENT);
	c.cwd = "/nonexistent-kfsim-dir";
	assert_int_equal(kfsim_child_exec(&c, "sh", sh), -ENOENT);
	c.cwd = NULL;
	assert_int_equal(kfsim_child_exec(&c, "sh", (char *[]){NULL}), -EINVAL);
	assert_int_equal(kfsim_child_exec(&c, "", sh), -EINVAL);
	assert_int_equal(kfsim_child_exec(NULL, "sh", sh), -EINVAL);
	assert_int_equal(kfsim_child_run(&c, NULL, NULL), -EINVAL);
	kfsim_child_release(&c);
}

/* A grandchild that keeps stdout open does not keep the parent past the limit. */
static void test_grandchild_holding_pipe(void **state)
{
	struct kfsim_child c = {.timeout_ms = 200, .capture = KFSIM_CHILD_STDOUT};
	char *argv[] = {"sh", "-c", "sleep 1 & echo started", NULL};
	double t0 = now_s();

	assert_int_equal(kfsim_child_exec(&c, "sh", argv), 0);
	assert_true(now_s() - t0 < 0.9);
	assert_string_equal(c.out.data, "started\n");
	assert_int_equal(kfsim_child_exit_code(&c), 0); /* it had ended by itself */
	assert_false(c.timed_out);
	kfsim_child_release(&c);
}

static void test_exec_status(void **state)
{
	char *ok[] = {"true", NULL}, *fail[] = {"sh", "-c", "exit 4", NULL};
	char *killed[] = {"sh", "-c", "kill -9 $$", NULL};
	char *missing[] = {"kfsim-no-such-program", NULL};
	int saved = dup(STDERR_FILENO), devnull = open("/dev/null", O_WRONLY);

	assert_int_equal(kfsim_child_exec_status("test", ok), 0);
	assert_int_equal(kfsim_child_exec_status("test", fail), 4);
	assert_int_equal(kfsim_child_exec_status("test", killed), -1);
	dup2(devnull, STDERR_FILENO); /* its one line of complaint */
	assert_int_equal(kfsim_child_exec_status("test", missing), 127);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(devnull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_function_result_streams_status),
		cmocka_unit_test(test_timeout_kills_and_reports),
		cmocka_unit_test(test_cpu_timeout),
		cmocka_unit_test(test_timeout_after_pipes_closed),
		cmocka_unit_test(test_crash_reports_signal),
		cmocka_unit_test(test_large_output_no_deadlock),
		cmocka_unit_test(test_eintr_is_resumed),
		cmocka_unit_test(test_exec_program),
		cmocka_unit_test(test_exec_failures),
		cmocka_unit_test(test_grandchild_holding_pipe),
		cmocka_unit_test(test_exec_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
