// SPDX-License-Identifier: MIT
/*
 * bpf_rcu_read_lock()/bpf_rcu_read_unlock() as the verifier sees them in programs that use the
 * graph kfuncs: calls like any other, so refused while a bpf_spin_lock is held ("function calls
 * are not allowed while holding a lock"), and balanced by the program's exit.  A section does not
 * nest: the verifier keeps one "in RCU section" bit, not a count, and refuses a second
 * bpf_rcu_read_lock() inside one (check_kfunc_call(), 6.2 to 6.18; measured on the running 6.18:
 * "nested rcu read lock (kernel function bpf_rcu_read_lock)").  kfsim's objects are freed at once
 * at the last drop, so there is no grace period to model.
 *
 * Invariant: the thread's rcu_depth counts the sections entered and not left in this run (at most
 * one that the verifier would accept; a refused nesting still counts, so the run goes on as the
 * program wrote it).
 */
#include "bpf_internal.h"

void KFUNC(bpf_rcu_read_lock)(void)
{
	struct bpf_tstate *ts;

	if (!CHECKS)
		return;
	ts = bpf_enter(KFSIM_KFUNC_bpf_rcu_read_lock);
	if (ts && ts->rcu_depth)
		bpf_report(-EINVAL, "RCU read-side sections do not nest in a BPF program",
			   "nested rcu read lock (kernel function bpf_rcu_read_lock)");
	if (ts)
		ts->rcu_depth++;
	bpf_leave();
}

void KFUNC(bpf_rcu_read_unlock)(void)
{
	struct bpf_tstate *ts;

	if (!CHECKS)
		return;
	ts = bpf_enter(KFSIM_KFUNC_bpf_rcu_read_unlock);
	if (ts && !ts->rcu_depth)
		bpf_report(-EINVAL, "each bpf_rcu_read_unlock closes one bpf_rcu_read_lock",
			   "unmatched rcu read unlock (kernel function bpf_rcu_read_unlock)");
	else if (ts)
		ts->rcu_depth--;
	bpf_leave();
}
