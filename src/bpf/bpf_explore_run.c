// SPDX-License-Identifier: MIT
/*
 * The fork explorer (kfsim_bpf_explore(), <kfsim/bpf_explore.h>): a program run along every
 * branch of its decision points, each path in its own process, in a fixed order, within a budget.
 *
 * Invariants:
 * - One process runs at a time: a process that forks at a decision point waits for the child's
 *   whole subtree before it goes on, so the paths are recorded in one order on every run (by
 *   number of other outcomes taken, then by the place of the first one that differs, the other
 *   outcome before the natural one) and the path budget means the same paths on any machine.
 * - Round r records exactly the paths with r other outcomes; its processes with fewer are carriers
 *   that fork, those with r fork no more.  A round that records no path ends the exploration
 *   (no path with r flips means none with more).
 * - Every process of a round dies with its parent (PR_SET_PDEATHSIG): a time limit that kills the
 *   caller's process leaves nothing behind.
 * The processes are not core's child runner (child_run.h): that one runs a function to its end
 * with its output collected; here a process must fork in the middle of the program, at a
 * decision point, and go on after its child, which only fork() itself can do (_Fork(), without
 * the atfork handlers, in a process of one thread: fork_path()).
 * What is shared between the processes (the path records, counters, the first violation) is one
 * MAP_SHARED mapping; the rest each process has as a copy.  The exploration's own bookkeeping is
 * one static record per process: it is what a signal handler and a sanitizer's death callback
 * must find, and a process explores one program at a time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <execinfo.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/single_threaded.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "bpf_explore_internal.h"

struct explore_shared {
	unsigned int nr_paths;
	bool paths_spent;
	bool time_spent;
	bool stop;
	int first;
	u64 deadline_ns;
	void *result;				/* in this mapping, after the paths */
	struct kfsim_bpf_explore_path paths[]; /* opts->max_paths of them */
};

static struct explore_proc {
	struct explore_shared *sh;
	const struct kfsim_bpf_explore_opts *opts;
	unsigned int round;
	bool in_path; /* this process runs a path of the exploration */
	struct kfsim_bpf_explore_path cur;
	void *result; /* this process's result buffer */
} proc;

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

/* Whether @st's decision gave NULL: only a pointer's or an iterator's next() can. */
static bool step_gave_null(const struct kfsim_bpf_explore_step *st)
{
	bool gave = st->natural != st->flipped;

	return !gave && st->kfunc &&
	       (kfsim_bpf_explore_decides(st) == KFSIM_BPF_DECIDES_POINTER ||
		kfsim_bpf_explore_decides(st) == KFSIM_BPF_DECIDES_NEXT);
}

/*
 * The outcomes the verifier walks before the other: a may_goto's jump, next()'s NULL, the end of
 * a loop that calls back (a fabricated call of an empty hash's walk comes after).
 */
static bool walked_first(const struct kfsim_bpf_explore_step *st)
{
	enum kfsim_bpf_explore_outcome k = kfsim_bpf_explore_decides(st);

	return k == KFSIM_BPF_DECIDES_JUMP || k == KFSIM_BPF_DECIDES_NEXT ||
	       (k == KFSIM_BPF_DECIDES_CALLBACK && st->natural);
}

/*
 * Whether the verifier walks @p before @f: at the first decision where they part, @p took a
 * may_goto's jump, which the verifier follows first (check_cond_jmp_op() pushes the
 * fall-through and goes on at the jump's target: 6.12's source, the same in 6.18), or an
 * iterator's NULL (process_iter_next_call() likewise queues the element), and @f,
 * which fell through there, reached that decision before the rule that ended it (a run stops
 * at its first violation).  Other decisions (a NULL check) go the way clang laid the branch
 * out, which a run does not see: there the natural outcome is taken to come first.
 */
static bool jumps_first(const struct kfsim_bpf_explore_path *p,
			const struct kfsim_bpf_explore_path *f)
{
	unsigned int n = p->nr_steps < f->nr_steps ? p->nr_steps : f->nr_steps;

	if (n > KFSIM_BPF_EXPLORE_MAX_STEPS)
		n = KFSIM_BPF_EXPLORE_MAX_STEPS;
	for (unsigned int k = 0; k < n; k++) {
		if (p->steps[k].flipped == f->steps[k].flipped)
			continue;
		return p->steps[k].flipped && walked_first(&p->steps[k]);
	}
	return false;
}

/*
 * Whether @p fell through a may_goto (or got an iterator's element) before its end: the jump
 * (the NULL) there is walked before it.
 */
static bool may_jump_before(const struct kfsim_bpf_explore_path *p)
{
	unsigned int n = p->nr_steps < KFSIM_BPF_EXPLORE_MAX_STEPS ? p->nr_steps
								 : KFSIM_BPF_EXPLORE_MAX_STEPS;

	for (unsigned int k = 0; k < n; k++)
		if (!p->steps[k].flipped && p->steps[k].natural && walked_first(&p->steps[k]))
			return true;
	return false;
}

static void record(int end, int sig)
{
	struct explore_shared *sh = proc.sh;
	struct kfsim_bpf_explore_path *p;

	if (sh->nr_paths >= proc.opts->max_paths) {
		sh->paths_spent = true;
		return;
	}
	p = &sh->paths[sh->nr_paths];
	*p = proc.cur;
	p->end = end & ~KFSIM_BPF_PATH_AT_EXIT;
	p->at_exit = end & KFSIM_BPF_PATH_AT_EXIT;
	p->signal = sig;
	/*
	 * A rule broken before the exit outranks one at the exit: the verifier meets it first.
	 * A path killed at the time budget gives no verdict: a slow machine breaks no rule.
	 */
	if (p->end != KFSIM_BPF_PATH_CLEAN && p->end != KFSIM_BPF_PATH_HANG &&
	    (sh->first < 0 || (sh->paths[sh->first].at_exit && !p->at_exit) ||
	     jumps_first(p, &sh->paths[sh->first]))) {
		sh->first = (int)sh->nr_paths;
		if (p->end == KFSIM_BPF_PATH_VIOLATION && proc.opts->result_size)
			memcpy(sh->result, proc.result, proc.opts->result_size);
		/* not while a may_goto's jump before the rule may give a path walked first */
		if (proc.opts->stop_at_violation && !p->at_exit && !may_jump_before(p))
			sh->stop = true;
	}
	sh->nr_paths++;
}

/* The end of this process's path: recorded when it belongs to the round. */
static __attribute__((noreturn)) void path_end(int end, int sig)
{
	if (proc.cur.nr_flips == proc.round)
		record(end, sig);
	fflush(NULL);
	_exit(0);
}

void kfsim_bpf_explore_path_exit(int end)
{
	if (proc.in_path)
		path_end(end, 0);
}

/*
 * Whether a faulting address is NULL plus or minus a page: a member of a NULL result, or of
 * container_of() of one (a list or rb node's offset below the object's start: NULL - 48 for
 * a pop's empty result turned into its struct, which natively is near the top of the address
 * space).  The verifier tracks the offset on the maybe-NULL register and refuses either access
 * with check_mem_access()'s 'ptr_or_null_' (6.12 and 6.18).
 */
static bool near_null(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;

	return a < 4096 || a >= (uintptr_t)-4096;
}

/* A load or store near 0 after a NULL result is the verifier's ptr_or_null_ rule. */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	bool null_seen = false;
	unsigned int n = proc.cur.nr_steps < KFSIM_BPF_EXPLORE_MAX_STEPS ? proc.cur.nr_steps
									 : KFSIM_BPF_EXPLORE_MAX_STEPS;

	for (unsigned int i = 0; i < n; i++)
		null_seen |= step_gave_null(&proc.cur.steps[i]);
#ifdef REG_RIP
	proc.cur.fault_pc = (const void *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#else
	(void)uc;
#endif
	if (sig == SIGSEGV && near_null(si->si_addr) && null_seen)
		path_end(KFSIM_BPF_PATH_NULL_DEREF, sig);
	if (sig == SIGSEGV && kfsim_bpf_dropped_object(si->si_addr))
		path_end(KFSIM_BPF_PATH_DEAD_REF, sig);
	path_end(KFSIM_BPF_PATH_CRASH, sig);
}

/*
 * A sanitizer's runtime in this process, whoever was built with it: libkfsim itself, or a
 * program `kfsim-bpf-cc --sanitize address` built against the plain library.  Weak: the symbols
 * are there only when the runtime is.
 */
extern void __asan_init(void) __attribute__((weak));
extern void __tsan_init(void) __attribute__((weak));
extern void __lsan_do_leak_check(void) __attribute__((weak));

/*
 * A path's process.  Not fork() when the process has one thread: fork()'s atfork handlers are
 * jemalloc's, which lock every arena's and bin's mutex before and unlock (parent) or
 * re-initialise (child) each one after, a write to each of their pages that copy-on-write then
 * copies, in both processes, at every decision point (40 % of the exploration's page faults).
 * They guard against another thread holding a lock at the fork: with none (glibc's
 * __libc_single_threaded, asked at every fork: it turns false for good at the first thread the
 * process creates, a path callback's included), and a decision point being outside any
 * allocation, there is nothing to guard.  With a sanitizer's runtime loaded fork() stays: its
 * interceptor locks the runtime's own allocator and stack depot around the fork.
 */
static pid_t fork_path(void)
{
	if (!__libc_single_threaded || __asan_init || __tsan_init || __lsan_do_leak_check)
		return fork();
	return _Fork();
}

/*
 * Sleep until @pid has exited or the budget's deadline, whichever is first (a pidfd polled with
 * the time left): a path's parent wakes when its child ends, not at the next of a series of
 * naps.  Without pidfds (kernels before 5.3), naps that grow to 2 ms.
 */
static void sleep_until_exit(int pidfd, long *pause_ns)
{
	u64 now = now_ns(), left_ms;

	if (pidfd < 0) {
		nanosleep(&(struct timespec){0, *pause_ns}, NULL);
		if (*pause_ns < 2000000)
			*pause_ns *= 2;
		return;
	}
	left_ms = proc.sh->deadline_ns > now ? (proc.sh->deadline_ns - now) / 1000000 + 1 : 0;
	poll(&(struct pollfd){.fd = pidfd, .events = POLLIN}, 1,
	     left_ms > 1000000 ? 1000000 : (int)left_ms);
}

/* Wait for @pid within the time budget; a path it leaves unrecorded is recorded by its end. */
static void wait_path(pid_t pid, bool records)
{
	struct explore_shared *sh = proc.sh;
	unsigned int before = sh->nr_paths;
#ifdef SYS_pidfd_open
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#else
	int pidfd = -1;
#endif
	long pause_ns = 50000;
	int status = 0;

	for (;;) {
		pid_t got = waitpid(pid, &status, WNOHANG);

		if (got == pid || (got < 0 && errno != EINTR))
			break;
		if (now_ns() >= sh->deadline_ns) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			sh->time_spent = sh->stop = true;
			if (records && sh->nr_paths == before)
				record(KFSIM_BPF_PATH_HANG, SIGKILL);
			if (pidfd >= 0)
				close(pidfd);
			return;
		}
		sleep_until_exit(pidfd, &pause_ns);
	}
	if (pidfd >= 0)
		close(pidfd);
	/* died unrecorded: a signal, or an exit of its own (a sanitizer's report) */
	if (records && sh->nr_paths == before &&
	    (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status))))
		record(KFSIM_BPF_PATH_CRASH, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* The explorer of every path process: note the decision, and fork where the path may branch. */
static bool decide(const struct kfsim_bpf_decision *d, void *arg)
{
	struct kfsim_bpf_explore_step *st = NULL;
	unsigned int i = proc.cur.nr_steps++;
	pid_t parent = getpid(), pid;

	if (i < KFSIM_BPF_EXPLORE_MAX_STEPS) {
		st = &proc.cur.steps[i];
		memset(st, 0, sizeof(*st));
		st->kfunc = d->kfunc;
		st->natural = d->natural;
		st->nr_frames = backtrace(st->frames, KFSIM_BPF_EXPLORE_FRAMES);
	}
	if (!d->can_flip || proc.cur.nr_flips >= proc.round || proc.sh->stop)
		return false;
	if (proc.sh->nr_paths >= proc.opts->max_paths) {
		proc.sh->paths_spent = true;
		return false;
	}
	if (now_ns() >= proc.sh->deadline_ns) {
		proc.sh->time_spent = true;
		return false;
	}
	fflush(NULL);
	pid = fork_path();
	if (pid < 0)
		return false;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
		proc.cur.nr_flips++;
		if (st) {
			st->flipped = true;
			st->fabricated = d->fabricates;
		}
		return true;
	}
	/* the child's path has one more flip: it is recorded in this round when that makes r */
	wait_path(pid, proc.cur.nr_flips + 1 == proc.round);
	return false;
}

static __attribute__((noreturn)) void run_round(kfsim_bpf_explore_path_fn path, void *arg,
						unsigned int round)
{
	struct sigaction sa = {.sa_sigaction = on_fault, .sa_flags = SA_SIGINFO};

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	proc.round = round;
	proc.in_path = true;
	memset(&proc.cur, 0, sizeof(proc.cur));
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	kfsim_bpf_explore_set(decide, NULL);
	path_end(path(arg, proc.result), 0);
}

int kfsim_bpf_explore(kfsim_bpf_explore_path_fn path, void *arg,
		      const struct kfsim_bpf_explore_opts *opts,
		      struct kfsim_bpf_explore_report *report)
{
	size_t size;
	struct explore_shared *sh;

	memset(report, 0, sizeof(*report));
	report->first = -1;
	if (!path || !opts || !opts->max_paths || opts->max_paths > KFSIM_BPF_EXPLORE_MAX_PATHS ||
	    !opts->timeout_ms || opts->result_size > (1 << 20))
		return -EINVAL;
	size = sizeof(*sh) + opts->max_paths * sizeof(sh->paths[0]) + opts->result_size;
	sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return -ENOMEM;
	proc.result = calloc(1, opts->result_size ? opts->result_size : 1);
	if (!proc.result) {
		munmap(sh, size);
		return -ENOMEM;
	}
	/* backtrace() loads its unwinder on first use: once here, not in every path's process */
	backtrace(&(void *){NULL}, 1);
	sh->first = -1;
	sh->result = (char *)&sh->paths[opts->max_paths];
	sh->deadline_ns = now_ns() + (u64)opts->timeout_ms * 1000000ull;
	proc.sh = sh;
	proc.opts = opts;
	for (unsigned int round = 0; round <= opts->max_flips && !sh->stop; round++) {
		unsigned int before = sh->nr_paths;
		pid_t pid;

		if (sh->nr_paths >= opts->max_paths) {
			sh->paths_spent = true;
			break;
		}
		fflush(NULL);
		pid = fork_path();
		if (pid < 0) {
			int err = -errno;

			kfsim_bpf_explore_release(&(struct kfsim_bpf_explore_report){
				.shared = sh, .shared_size = size});
			free(proc.result);
			return err;
		}
		if (pid == 0)
			run_round(path, arg, round);
		wait_path(pid, round == 0);
		if (sh->nr_paths == before && !sh->stop)
			break; /* no path with this many flips: none with more */
	}
	free(proc.result);
	proc.result = NULL;
	report->nr_paths = sh->nr_paths;
	report->paths = sh->paths;
	report->paths_spent = sh->paths_spent;
	report->time_spent = sh->time_spent;
	report->first = sh->first;
	/* the natural path is the first recorded (round 0) */
	report->first_walked_first = sh->first > 0 && jumps_first(&sh->paths[sh->first], &sh->paths[0]);
	report->result = sh->first >= 0 ? sh->result : NULL;
	report->shared = sh;
	report->shared_size = size;
	return 0;
}

void kfsim_bpf_explore_release(struct kfsim_bpf_explore_report *report)
{
	if (report && report->shared)
		munmap(report->shared, report->shared_size);
	if (report)
		report->shared = NULL;
}
