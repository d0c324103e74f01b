// SPDX-License-Identifier: MIT
/*
 * bpf_spin_lock()/bpf_spin_unlock() (kernel/bpf/helpers.c): a real test-and-set lock in the
 * 4-byte struct bpf_spin_lock, plus the verifier's lock discipline.
 *
 * Invariants: val is 1 exactly while some thread is between a successful lock and its unlock;
 * the thread's state names the lock it holds (at most one); every non-owning reference dies at
 * unlock (the critical-section epoch moves on).
 */
#include "bpf_internal.h"

void KFUNC(bpf_spin_lock)(struct bpf_spin_lock *lock)
{
	struct bpf_tstate *ts;

	if (!CHECKS) {
		kfsim_bpf_raw_lock(lock);
		return;
	}
	ts = bpf_enter("bpf_spin_lock");
	if (ts->cb_depth && bpf_report(-EINVAL, "less() runs with the root's lock already held",
				       "can't spin_{lock,unlock} in rbtree cb"))
		goto out;
	if (ts->held && bpf_report(-EINVAL, "a program holds at most one bpf_spin_lock at a time",
				   "Locking two bpf_spin_locks are not allowed"))
		goto out;
	if (!lock && bpf_report(-EINVAL, "bpf_spin_lock takes a pointer to a struct bpf_spin_lock",
				"R1 type=scalar expected=map_value, ptr_"))
		goto out;
	kfsim_bpf_raw_lock(lock);
	ts->held = lock;
	ts->held_file = kfsim_bpf_site.file;
	ts->held_line = kfsim_bpf_site.line;
	ts->epoch++;
	bpf_tl(ts, KFSIM_BPF_TL_LOCK, lock, NULL);
out:
	bpf_leave();
}

void KFUNC(bpf_spin_unlock)(struct bpf_spin_lock *lock)
{
	struct bpf_tstate *ts;

	if (!CHECKS) {
		kfsim_bpf_raw_unlock(lock);
		return;
	}
	ts = bpf_enter("bpf_spin_unlock");
	if (ts->cb_depth && bpf_report(-EINVAL, "less() runs with the root's lock already held",
				       "can't spin_{lock,unlock} in rbtree cb"))
		goto out;
	if (!ts->held && bpf_report(-EINVAL, "only the lock this program took can be released",
				    "bpf_spin_unlock without taking a lock"))
		goto out;
	if (ts->held != lock && bpf_report(-EINVAL, "unlock must name the lock that is held",
					   "bpf_spin_unlock of different lock"))
		goto out;
	ts->held = NULL;
	ts->epoch++;
	bpf_refs_invalidate_non_owning("at bpf_spin_unlock");
	bpf_tl(ts, KFSIM_BPF_TL_UNLOCK, lock, NULL);
	kfsim_bpf_raw_unlock(lock);
out:
	bpf_leave();
}
