// SPDX-License-Identifier: MIT
/*
 * A global (non-static) subprogram as the verifier checks it: on its own, after the main
 * program, as if called with no RCU section open, preemption enabled and no lock held
 * (do_check_main() then do_check_subprogs(), 6.12's source; the running 6.18 does the same).
 * The caller sees the call as opaque: what the function leaves open is not open in the caller,
 * and what the caller has open is not open in the function.
 *
 * Natively the function is a plain C call, so kfsim sets the caller's RCU depth and preemption
 * count aside at the entry (kfsim_bpf_global_call_enter()) and gives them back at the exit
 * (kfsim_bpf_global_call_exit()).  An RCU section, a preemption-disabled region or a lock the
 * function returns with breaks the function's own exit rule; the verifier meets that only when
 * it checks the function, after the main program, so kfsim keeps the first such message and
 * reports it at the end of the run only when the run broke no other rule.  A lock the function
 * returned with stays taken natively (the caller's next bpf_spin_lock of it does not spin on
 * it), and the caller does not hold it: its bpf_spin_unlock is "without taking a lock", as the
 * verifier says of the main program (measured on the running 6.18.44:
 * the global functions of tests/bpfcc/sections.bpf.c and tests/bpfcc/outside/subprogs.bpf.c).
 *
 * Saved irq flags are not set aside: they live on the caller's stack with reference ids
 * (bpf_irq.c), and a global function that restores its caller's flag is a difference listed in
 * docs/bpf-graph.md.
 */
#include "bpf_internal.h"

void bpf_global_run_reset(struct bpf_tstate *ts)
{
	ts->nr_globals = 0;
	ts->held_by_global = NULL;
	ts->global_exit_msg[0] = '\0';
}

void bpf_global_enter(struct bpf_tstate *ts)
{
	struct bpf_global_frame *f;

	if (!ts->run || ts->nr_globals++ >= BPF_MAX_GLOBAL_DEPTH)
		return;
	f = &ts->globals[ts->nr_globals - 1];
	f->rcu_depth = ts->rcu_depth;
	f->preempt_depth = ts->preempt_depth;
	f->held = ts->held != NULL;
	ts->rcu_depth = 0;
	ts->preempt_depth = 0;
}

/* The first exit rule a global function broke; the verifier stops at it. */
static void keep_exit_msg(struct bpf_tstate *ts, const char *msg)
{
	if (!ts->global_exit_msg[0])
		snprintf(ts->global_exit_msg, sizeof(ts->global_exit_msg), "%s", msg);
}

int kfsim_bpf_global_call_exit(const char *subprog)
{
	struct bpf_tstate *ts = &bpf_tstate;
	struct bpf_global_frame *f;
	bool v614;

	(void)subprog;
	if (!ts->run || !ts->nr_globals)
		return 0;
	if (ts->nr_globals-- > BPF_MAX_GLOBAL_DEPTH)
		return 0;
	f = &ts->globals[ts->nr_globals];
	v614 = bpf_kver_at_least(6, 14);
	/* check_resource_leak()'s order (6.14) and do_check()'s (up to 6.13): the lock first */
	if (ts->held && !f->held) {
		keep_exit_msg(ts, v614 ? "BPF_EXIT instruction in main prog cannot be used inside "
					 "bpf_spin_lock-ed region"
				       : "bpf_spin_unlock is missing");
		/* to the caller the lock is not held: no section, no non-owning references */
		ts->held_by_global = ts->held;
		ts->held = NULL;
		bpf_vref_lock(ts, false);
		bpf_refs_end_section(ts, "at the return of a global function that took the lock");
	}
	if (ts->rcu_depth)
		keep_exit_msg(ts, v614 ? "BPF_EXIT instruction in main prog cannot be used inside "
					 "bpf_rcu_read_lock-ed region"
				       : "bpf_rcu_read_unlock is missing");
	if (ts->preempt_depth && v614)
		keep_exit_msg(ts, "BPF_EXIT instruction in main prog cannot be used inside "
				  "bpf_preempt_disable-ed region");
	else if (ts->preempt_depth && !ts->global_exit_msg[0]) /* 6.10 to 6.13 count them */
		snprintf(ts->global_exit_msg, sizeof(ts->global_exit_msg),
			 "%d bpf_preempt_enable%s missing", ts->preempt_depth,
			 ts->preempt_depth == 1 ? " is" : "(s) are");
	ts->rcu_depth = f->rcu_depth;
	ts->preempt_depth = f->preempt_depth;
	return 0;
}

void bpf_global_run_end(struct bpf_tstate *ts, bool check)
{
	if (check && ts->global_exit_msg[0] && ts->run && !ts->run->nr_violations)
		bpf_report(-EINVAL,
			   "a global function is checked on its own, after the main program: it "
			   "must leave no lock held, no RCU section open and preemption enabled",
			   "%s", ts->global_exit_msg);
	if (ts->held_by_global) {
		kfsim_bpf_raw_unlock(ts->held_by_global);
		ts->held_by_global = NULL;
	}
	ts->nr_globals = 0;
	ts->global_exit_msg[0] = '\0';
}
