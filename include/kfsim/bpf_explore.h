/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_EXPLORE_H
#define KFSIM_BPF_EXPLORE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * Decision points: the results the verifier treats as "either" and a native run sees one of.
 *
 * The verifier follows both branches after every maybe-NULL result (a KF_RET_NULL kfunc, a
 * helper returning *_OR_NULL, bpf_map_lookup_elem) and after every scalar it cannot know (the
 * int an insert kfunc returns); a native run takes the branch the data gives.  kfsim asks an
 * explorer, when one is set on the thread, at each such result inside a run: "this is what the
 * run would return; take the other outcome?".  The explorer (kfsim-bpf-cc's runner forks there,
 * src/bpfcc/runtime/bpfrt_explore.c) can so visit every branch the verifier visits.
 *
 * The other outcome keeps kfsim's state what the verifier's is on that branch:
 * - a pointer result made NULL: nothing happens (no node is popped or removed, no object
 *   allocated, no reference counted; bpf_kptr_xchg's old object, which the program then never
 *   sees, is dropped as if the field had been empty);
 * - a NULL result made a pointer where the collection has none: an object of the declared
 *   (contained) type is fabricated, zeroed as bpf_obj_new() makes it, and linked where the call
 *   looks (the leftmost place for bpf_rbtree_first, the root of an empty tree, the missing child
 *   for bpf_rbtree_left/right, the list for bpf_list_pop_* and bpf_list_front/back), so that the
 *   call returns it with the reference it always gives; bpf_rbtree_remove of a node in no tree
 *   gives a fabricated owning object;
 * - an insert's 0 made -EINVAL: the node is in the collection and the reference non-owning, as
 *   the verifier has it after the call whatever the return value.
 * Results with no other outcome (bpf_obj_new() that ran out of memory, a lookup of a key that
 * cannot exist) are decision points with @can_flip false.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/**
 * struct kfsim_bpf_decision - one result the verifier would follow both ways
 * @kfunc: the kfunc or helper ("bpf_rbtree_first", "bpf_map_lookup_elem")
 * @natural: what the run gives: true for a pointer (or an insert's 0), false for NULL (-EINVAL)
 * @can_flip: kfsim can give the other outcome here
 * @fabricates: the other outcome is a fabricated object (the collection had none)
 */
struct kfsim_bpf_decision {
	const char *kfunc;
	bool natural;
	bool can_flip;
	bool fabricates;
};

/**
 * typedef kfsim_bpf_explore_fn - the explorer: called at each decision point of a run
 * @d: the decision point
 * @arg: the explorer's argument
 *
 * Return: true to take the other outcome (only honoured when @d->can_flip), false for @d->natural.
 */
typedef bool (*kfsim_bpf_explore_fn)(const struct kfsim_bpf_decision *d, void *arg);

/**
 * kfsim_bpf_explore_set() - set (or with NULL clear) this thread's explorer
 * @fn: called at every decision point of the thread's runs (kfsim_bpf_run_begin() to _end())
 * @arg: passed to @fn
 *
 * Takes effect at the next kfsim_bpf_run_begin(); while an explorer is set every kfunc takes its
 * fully checked path.  Per thread, as the run is.
 */
void kfsim_bpf_explore_set(kfsim_bpf_explore_fn fn, void *arg);

/**
 * kfsim_bpf_explore_decide() - a decision point a runtime implements itself (a helper)
 * @d: the decision point
 *
 * For helpers kfsim does not implement (kfsim-bpf-cc's map lookups): asks the thread's
 * explorer as kfsim's own kfuncs do.
 * Return: true when the caller must give the other outcome; false outside a run, without an
 * explorer, or when @d->can_flip is false.
 */
bool kfsim_bpf_explore_decide(const struct kfsim_bpf_decision *d);

/* ---- The fork explorer: every branch of a program, each in its own process ---- */

#define KFSIM_BPF_EXPLORE_MAX_STEPS 32	/* decisions kept per path (all are counted) */
#define KFSIM_BPF_EXPLORE_FRAMES 8	/* return addresses kept per decision */
#define KFSIM_BPF_EXPLORE_MAX_PATHS 4096 /* the largest path budget */

/**
 * struct kfsim_bpf_explore_step - one decision point of a path
 * @kfunc: the kfunc or helper
 * @natural: what the run gave (a pointer, an insert's 0)
 * @flipped: the path took the other outcome here
 * @fabricated: ... and it is a fabricated object
 * @frames: the stack at the decision (backtrace()), for the caller to name the source line
 * @nr_frames: how many
 */
struct kfsim_bpf_explore_step {
	const char *kfunc;
	bool natural;
	bool flipped;
	bool fabricated;
	void *frames[KFSIM_BPF_EXPLORE_FRAMES];
	int nr_frames;
};

/**
 * enum kfsim_bpf_explore_outcome - what a decision chooses between
 * @KFSIM_BPF_DECIDES_POINTER: a pointer or NULL (a lookup, bpf_obj_new(), bpf_rbtree_first(), ...)
 * @KFSIM_BPF_DECIDES_INT: 0 or -EINVAL (an insert: bpf_rbtree_add(), bpf_list_push_*())
 * @KFSIM_BPF_DECIDES_JUMP: a may_goto's fall-through or its jump (the loop's budget spent)
 * @KFSIM_BPF_DECIDES_NEXT: an open-coded iterator's next(): an element or NULL (the loop's end),
 *			    which the verifier walks first (process_iter_next_call() queues the
 *			    element and goes on with NULL: 6.12's source, the running 6.18)
 * @KFSIM_BPF_DECIDES_CALLBACK: a helper that calls back (bpf_loop(), bpf_for_each_map_elem()):
 *				the callback called or the loop's end, which the verifier walks
 *				first (push_callback_call() queues the callback)
 */
enum kfsim_bpf_explore_outcome {
	KFSIM_BPF_DECIDES_POINTER,
	KFSIM_BPF_DECIDES_INT,
	KFSIM_BPF_DECIDES_JUMP,
	KFSIM_BPF_DECIDES_NEXT,
	KFSIM_BPF_DECIDES_CALLBACK,
};

/**
 * kfsim_bpf_explore_decides() - what the decision @st chose between, from its kfunc's name
 *
 * The one place the explorer and its reports tell the kinds apart.
 */
static inline enum kfsim_bpf_explore_outcome
kfsim_bpf_explore_decides(const struct kfsim_bpf_explore_step *st)
{
	if (!strcmp(st->kfunc, "may_goto"))
		return KFSIM_BPF_DECIDES_JUMP;
	if (!strcmp(st->kfunc, "bpf_loop") || !strcmp(st->kfunc, "bpf_for_each_map_elem"))
		return KFSIM_BPF_DECIDES_CALLBACK;
	if (!strncmp(st->kfunc, "bpf_iter_", 9) && strstr(st->kfunc, "_next"))
		return KFSIM_BPF_DECIDES_NEXT;
	if (strstr(st->kfunc, "_add") || strstr(st->kfunc, "_push"))
		return KFSIM_BPF_DECIDES_INT;
	return KFSIM_BPF_DECIDES_POINTER;
}

/** enum kfsim_bpf_explore_end - how a path ended */
enum kfsim_bpf_explore_end {
	KFSIM_BPF_PATH_CLEAN,	   /* the program ran to its end, no rule broken */
	KFSIM_BPF_PATH_VIOLATION,  /* a rule was broken: the path function's result says which */
	KFSIM_BPF_PATH_NULL_DEREF, /* a load or store at a NULL result (+ offset): the verifier's
				      "invalid mem access 'ptr_or_null_'" */
	KFSIM_BPF_PATH_CRASH,	   /* another signal (@signal) */
	KFSIM_BPF_PATH_HANG,	   /* killed at the time budget (no verdict: @time_spent says it) */
	KFSIM_BPF_PATH_DEAD_REF,   /* a load or store in a dropped object (kfsim_bpf_guard_dropped()):
				      the verifier's "invalid mem access 'scalar'" */
};

/**
 * struct kfsim_bpf_explore_path - one explored path
 * @nr_steps: decision points met (only the first KFSIM_BPF_EXPLORE_MAX_STEPS are kept)
 * @steps: the decisions, in the order the run met them
 * @nr_flips: other outcomes taken
 * @end: enum kfsim_bpf_explore_end
 * @signal: the signal for KFSIM_BPF_PATH_CRASH
 * @at_exit: a violation found only at the program's exit (a leak, a lock still held)
 * @fault_pc: the faulting instruction of KFSIM_BPF_PATH_NULL_DEREF and KFSIM_BPF_PATH_DEAD_REF
 *	(NULL where the machine's context does not say it), for the caller to name the access's
 *	source line: the verifier's message names the register of that access
 */
struct kfsim_bpf_explore_path {
	unsigned int nr_steps;
	struct kfsim_bpf_explore_step steps[KFSIM_BPF_EXPLORE_MAX_STEPS];
	unsigned int nr_flips;
	int end;
	int signal;
	bool at_exit;
	const void *fault_pc;
};

/**
 * struct kfsim_bpf_explore_opts - the budget
 * @max_paths: paths explored at most, the natural one included (1..KFSIM_BPF_EXPLORE_MAX_PATHS)
 * @max_flips: other outcomes per path at most (0: the natural path only)
 * @timeout_ms: time for all paths; a path still running then is killed (HANG) and no other starts
 * @result_size: bytes of the path function's result kept for the first violating path
 * @stop_at_violation: explore no further after the first path that broke a rule before its exit
 */
struct kfsim_bpf_explore_opts {
	unsigned int max_paths;
	unsigned int max_flips;
	unsigned int timeout_ms;
	size_t result_size;
	bool stop_at_violation;
};

/**
 * struct kfsim_bpf_explore_report - what kfsim_bpf_explore() found
 * @nr_paths: paths explored (each ran in its own process), in their order in @paths
 * @paths: each path's decisions and end (shared memory: kfsim_bpf_explore_release() frees it)
 * @paths_spent: the path budget stopped the exploration
 * @time_spent: the time budget did
 * @first: index in @paths of the path that gives the verdict, or -1 when every path is clean:
 *	   the first that broke a rule before its exit, else the first that broke one at its exit
 *	   or crashed (a path killed at the time budget gives no verdict); a path the verifier
 *	   walks before it (a may_goto's jump taken where it fell through) outranks it
 * @result: that path's result (@opts.result_size bytes), when it ended with a violation
 * @first_walked_first: the verifier walks that path before the natural one (it took a may_goto's
 *	jump where the natural path fell through, before the natural path's violation)
 */
struct kfsim_bpf_explore_report {
	unsigned int nr_paths;
	struct kfsim_bpf_explore_path *paths;
	bool paths_spent;
	bool time_spent;
	int first;
	void *result;
	bool first_walked_first;
	/* private */
	void *shared;
	size_t shared_size;
};

/**
 * typedef kfsim_bpf_explore_path_fn - run the program once along the path the explorer steers
 * @arg: the caller's
 * @result: where a violation is described (@opts.result_size bytes, zeroed)
 *
 * Runs the program's invocations (kfsim_bpf_run()), with the thread's explorer set by
 * kfsim_bpf_explore().  The verifier checks the exit rules (references released, lock and RCU
 * section left) at BPF_EXIT, after every instruction of the path: a rule broken before the exit
 * on one path is what it reports before a leak at the exit of another.
 * Return: KFSIM_BPF_PATH_CLEAN, or KFSIM_BPF_PATH_VIOLATION (@result says which), with
 * KFSIM_BPF_PATH_AT_EXIT added when the rule is an exit rule.
 */
typedef int (*kfsim_bpf_explore_path_fn)(void *arg, void *result);

#define KFSIM_BPF_PATH_AT_EXIT 0x100

/**
 * kfsim_bpf_explore() - run @path along every branch of the decision points, within a budget
 * @path: runs the program once
 * @arg: passed to @path
 * @opts: the budget
 * @report: filled; release with kfsim_bpf_explore_release()
 *
 * Paths are explored in a fixed order, so that the same program and budget give the same paths
 * and the same first violation: first the natural path (no other outcome taken), then every path
 * with one other outcome, by the place of that decision in the run, then with two, up to
 * @opts.max_flips.  Each round starts a process from the caller's state (fork: the sections and
 * maps as the caller has them); it forks at each decision point where its path may still take
 * the other outcome, the child taking it, and waits for the child's subtree before it goes on, so
 * that one process runs at a time.  A path is counted in the round of its number of flips; the
 * budget is counted in paths, so it does not depend on the machine's speed (the time budget is a
 * safety net, and the report says which one stopped the exploration).  A load or store near
 * address 0 after a result that was NULL on the path is reported as KFSIM_BPF_PATH_NULL_DEREF.
 *
 * Return: 0; -EINVAL for a bad budget; -ENOMEM; -errno of fork().
 */
int kfsim_bpf_explore(kfsim_bpf_explore_path_fn path, void *arg,
		      const struct kfsim_bpf_explore_opts *opts,
		      struct kfsim_bpf_explore_report *report);

/**
 * kfsim_bpf_explore_path_exit() - end the path this process is running now, as @path would
 * @end: as the path function returns
 *
 * For a runtime whose sanitizer stops the process (a death callback): inside a path of
 * kfsim_bpf_explore() the path is recorded and the process exits; elsewhere it returns.
 */
void kfsim_bpf_explore_path_exit(int end);

/** kfsim_bpf_explore_release() - free @report's shared memory. */
void kfsim_bpf_explore_release(struct kfsim_bpf_explore_report *report);

/* ---- Dead references that fault ---- */

/**
 * kfsim_bpf_guard_dropped() - give each bpf_obj_new() object pages of its own, made
 * inaccessible when it is dropped (never reused), so that a plain load or store through a dropped
 * reference faults: the verifier's "invalid mem access 'scalar'"
 * @on: for the objects allocated from now on, in this process
 *
 * A page or more per object, never returned, not charged to a memory cgroup: for checking
 * programs (kfsim-bpf-cc's runner), not for benchmarks.  A fault in such an object is reported
 * as KFSIM_BPF_PATH_DEAD_REF on an explored path.
 */
void kfsim_bpf_guard_dropped(bool on);

/**
 * kfsim_bpf_dropped_object() - @addr is in an object dropped while the guard was on
 *
 * For a fault handler (async-signal-safe: reads a table).
 */
bool kfsim_bpf_dropped_object(const void *addr);

#pragma GCC visibility pop
#endif /* KFSIM_BPF_EXPLORE_H */
