// SPDX-License-Identifier: MIT
/*
 * bpf_kptr_xchg() (kernel/bpf/helpers.c) for local kptrs: a map value's __kptr field holds an
 * object from bpf_obj_new() that no program owns.  Exchanging moves the program's owning
 * reference into the field and gives the program the one that was there.
 *
 * Invariant: the field holds NULL or the start of a live object; the exchange is atomic, as the
 * kernel's xchg(), so programs on several threads can stash and unstash the same slot.
 */
#include "bpf_internal.h"
#include "bpf_explore_internal.h"

void *KFUNC(bpf_kptr_xchg)(void *map_value, void *ptr)
{
	struct bpf_ref *ref = NULL;
	struct bpf_tstate *ts;
	void *old;
	char buf[160];

	if (!CHECKS)
		return __atomic_exchange_n((void **)map_value, ptr, __ATOMIC_ACQ_REL);
	ts = bpf_enter(KFSIM_KFUNC_bpf_kptr_xchg);
	if (!ts)
		return NULL;
	if (!map_value) {
		bpf_report(-EINVAL, "the first argument is the address of a __kptr field",
			   "R1 type=scalar expected=map_value");
		goto refused;
	}
	if (ptr) {
		ref = bpf_ref_find(ptr, BPF_REF_OWNING);
		if (!ref || ref->kind != BPF_REF_OWNING || ref->obj != ptr) {
			bpf_report(-EINVAL,
				   ref ? "only an owning reference to an object's start can be "
					 "stashed"
				       : bpf_explain_stale(ptr, buf, sizeof(buf)),
				   "R2 must be referenced when passed to release function");
			goto refused;
		}
	}
	old = __atomic_exchange_n((void **)map_value, ptr, __ATOMIC_ACQ_REL);
	if (ref)
		bpf_ref_del(ref, "at bpf_kptr_xchg (stashed in the map)");
	/* NULL is the other outcome: as if the field had been empty, the old object goes */
	if (bpf_exploring() && bpf_explore(old, old, false) && old) {
		bpf_obj_drop_raw(old);
		old = NULL;
	}
	if (old &&
	    (bpf_note_caller(), !bpf_ref_add(old, bpf_obj_hdr_of(old)->type, BPF_REF_OWNING))) {
		/* cannot track it: put it back rather than lose it */
		__atomic_store_n((void **)map_value, old, __ATOMIC_RELEASE);
		old = NULL;
	}
	bpf_leave();
	return old;
refused:
	bpf_leave();
	return NULL;
}
