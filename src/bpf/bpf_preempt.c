// SPDX-License-Identifier: MIT
/*
 * bpf_preempt_disable()/bpf_preempt_enable() (6.10) as the verifier sees them: a nesting count
 * in the verifier state.  Calls like any other kfunc, so refused while a bpf_spin_lock is held;
 * an enable needs an outstanding disable; the count must be zero at the main program's exit and
 * at the entry of a global function (bpf_verifier_state.c, kfsim_bpf_global_call_enter()).
 * Natively nothing is preempted, so there is nothing else to model.
 *
 * Invariant: the thread's preempt_depth counts the disables not yet enabled in this run.
 */
#include "bpf_internal.h"

void KFUNC(bpf_preempt_disable)(void)
{
	struct bpf_tstate *ts;

	if (!CHECKS)
		return;
	ts = bpf_enter(KFSIM_KFUNC_bpf_preempt_disable);
	if (ts)
		ts->preempt_depth++;
	bpf_leave();
}

void KFUNC(bpf_preempt_enable)(void)
{
	struct bpf_tstate *ts;

	if (!CHECKS)
		return;
	ts = bpf_enter(KFSIM_KFUNC_bpf_preempt_enable);
	if (ts && !ts->preempt_depth)
		bpf_report(-EINVAL, "each bpf_preempt_enable undoes one bpf_preempt_disable",
			   "unmatched attempt to enable preemption (kernel function "
			   "bpf_preempt_enable)");
	else if (ts)
		ts->preempt_depth--;
	bpf_leave();
}
