// SPDX-License-Identifier: MIT
/*
 * The verifier's array of acquired references, kept beside kfsim's own reference table for one
 * purpose: the leak report at program exit lists the references still held in the order of
 * that array, one "Unreleased reference" line each, as check_reference_leak() walks it.
 *
 * How the kernel keeps the array (kernel/bpf/verifier.c):
 * - acquire_reference_state() appends; release_reference_state() removes.
 * - Up to 6.13 the removal moves the LAST entry into the freed slot (swap-remove), so after a
 *   release the order is no longer the order of acquisition.
 * - 6.13 ("bpf: Refactor active lock management") keeps the held bpf_spin_lock in the same
 *   array (a REF_TYPE_LOCK entry, never reported as a leak): taking the lock appends it and
 *   bpf_spin_unlock removes it the same way, moving the last reference into its slot.
 * - 6.14 (with bpf_local_irq_save/restore, whose entries must stay a stack) removes by moving
 *   the entries after the freed slot down one (memmove): acquisition order is kept.
 * A callback's exit reports only the references acquired in it (6.12: callback_ref); kfsim's
 * callback, less(), is checked at its return (kfsim_bpf_less_leaked()): the references above
 * the id counter of its start, which then leave this array.
 *
 * Invariant: vrefs[0..nr_vrefs) holds the id of every owning reference in kfsim's table except
 * those less() kept (reported at its return, their id then BPF_REF_NO_ID), and, in 6.13 mode
 * while a lock is held, one 0 for the lock; each once.
 */
#include <string.h>

#include "bpf_internal.h"

void bpf_vref_reset(struct bpf_tstate *ts)
{
	ts->nr_vrefs = 0;
}

/* release_reference_state(): remove entry @i as the release in force does. */
static void vref_remove(struct bpf_tstate *ts, u32 i)
{
	u32 last = ts->nr_vrefs - 1;

	if (ts->kver >= KERNEL_VERSION(6, 14, 0))
		memmove(&ts->vrefs[i], &ts->vrefs[i + 1], (last - i) * sizeof(ts->vrefs[0]));
	else
		ts->vrefs[i] = ts->vrefs[last];
	ts->nr_vrefs = last;
}

void bpf_vref_release_slow(struct bpf_tstate *ts, u32 id)
{
	for (u32 i = ts->nr_vrefs; i-- > 0;) {
		if (ts->vrefs[i] == id) {
			vref_remove(ts, i);
			return;
		}
	}
}

void bpf_vref_lock_slow(struct bpf_tstate *ts, bool taken)
{
	if (taken)
		bpf_vref_acquire(ts, 0);
	else
		bpf_vref_release(ts, 0);
}

/*
 * The verifier's id counter (env->id_gen) moves at a call by what check_kfunc_call() and
 * check_helper_call() give the result: a fresh id for a maybe-NULL pointer (KF_RET_NULL, a
 * helper's *_OR_NULL return), then another from acquire_reference_state() for an acquired one
 * (KF_ACQUIRE, bpf_kptr_xchg).  So bpf_obj_new takes two and the reference gets the second;
 * bpf_rbtree_first one.  Exceptions by release: bpf_rbtree_remove cannot return NULL in 6.3;
 * bpf_refcount_acquire of an owning reference cannot from 6.6 (is_kfunc_ret_null(), adjusted in
 * the kfunc, which alone knows its argument).  Everything else the verifier counts (scalar
 * register moves and spills since 6.8, maybe-NULL loads, packet pointers, paths it explored
 * before this one) is no call: a native run does not see it.
 */
u8 bpf_vref_ids_at_call(const struct kfsim_bpf_kfunc *k, enum kfsim_bpf_kfunc_id id,
			unsigned int kver)
{
	bool ret_null = k->flags & KF_RET_NULL, acquire = k->flags & KF_ACQUIRE;

	if (id == KFSIM_KFUNC_bpf_kptr_xchg) /* RET_PTR_TO_BTF_ID_OR_NULL, an acquire helper */
		ret_null = acquire = true;
	if (id == KFSIM_KFUNC_bpf_local_irq_save) /* acquire_irq_state(): the flag's id */
		acquire = true;
	if (id == KFSIM_KFUNC_bpf_rbtree_remove && kver < KERNEL_VERSION(6, 4, 0))
		ret_null = false;
	return (u8)(ret_null + acquire);
}

unsigned int kfsim_bpf_verifier_ids(unsigned int n)
{
	bpf_tstate.id_gen += n;
	return bpf_tstate.id_gen;
}
