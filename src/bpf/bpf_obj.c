// SPDX-License-Identifier: MIT
/*
 * bpf_obj_new()/bpf_obj_drop()/bpf_refcount_acquire() (kernel/bpf/helpers.c): objects of local
 * types on kmalloc (jemalloc), charged to the active memory cgroup unless the boot parameter
 * cgroup.memory=nobpf turns BPF accounting off, as memcg_bpf_enabled() does.
 *
 * Invariants: a live object is zeroed but for its special fields, which are initialised as
 * bpf_obj_init() does (refcount 1, nodes in no collection, roots declared and empty); dropping
 * empties the nested lists and trees first and drops their nodes; a refcounted object is freed
 * only when the count reaches zero; a freed object is poisoned (POISON_FREE) and, inside a run,
 * its memory is not reused before the run ends (BPF_QUARANTINE objects), so that a stale
 * pointer never names a newer object (the verifier tells the two apart by register, kfsim by
 * address).  A raw C read after the drop is visible to a reader of the values (0x6b6b...), not
 * reported, except where the object's pages are guarded (kfsim-bpf-cc's runner and the oracle:
 * bpf_guard.c, "invalid mem access 'scalar'") or under ASan's heap poisoning.
 */
#include <string.h>

#include <kfsim/bug.h>
#include <kfsim/slab.h>
#include "bpf_internal.h"
#include "bpf_explore_internal.h"

#ifndef KFSIM_BPF_NC
static void *bpf_obj_alloc(struct kfsim_btf_struct *t)
{
	gfp_t gfp = GFP_NOWAIT | __GFP_NOWARN | __GFP_ZERO;	/* as kernel/bpf/memalloc.c */
	struct bpf_obj_hdr *hdr;
	void *obj;

	if (!kfsim_cmdline_has_option("cgroup.memory", "nobpf"))
		gfp |= __GFP_ACCOUNT;
	hdr = bpf_guard_alloc(sizeof(*hdr) + t->size); /* NULL unless the guard is on */
	if (!hdr)
		hdr = kmalloc(sizeof(*hdr) + t->size, gfp);
	if (!hdr)
		return NULL;
	hdr->type = t;
	hdr->size = t->size;
	hdr->magic = BPF_OBJ_LIVE;
	obj = hdr + 1;
	bpf_obj_init_fields(obj, t);
	/* an object with a lock can hold roots: the registry tells their declaration (NC inserts) */
	if (t->spin_lock_off >= 0 && bpf_alloc_register(obj, t, NULL, true)) {
		if (!bpf_guard_free(hdr))
			kfree(hdr);
		return NULL;
	}
	return obj;
}

void *bpf_obj_alloc_type(struct kfsim_btf_struct *t)
{
	return bpf_obj_alloc(t);
}

/* Free @hdr now, or, inside a run, once BPF_QUARANTINE later frees or the run's end came. */
static void bpf_obj_free(struct bpf_obj_hdr *hdr)
{
	struct bpf_tstate *ts = &bpf_tstate;
	void **slot;

	if (!ts->run) {
		kfree(hdr);
		return;
	}
	slot = &ts->quarantine[ts->nr_quarantined++ % BPF_QUARANTINE];
	kfree(*slot);
	*slot = hdr;
}

void bpf_obj_quarantine_flush(void)
{
	struct bpf_tstate *ts = &bpf_tstate;

	for (u32 i = 0; i < BPF_QUARANTINE; i++) {
		kfree(ts->quarantine[i]);
		ts->quarantine[i] = NULL;
	}
	ts->nr_quarantined = 0;
}

void bpf_obj_drop_raw(void *obj)
{
	struct bpf_obj_hdr *hdr = bpf_obj_hdr_of(obj);
	struct kfsim_btf_struct *t = hdr->type;

	if (WARN_ON_ONCE(hdr->magic != BPF_OBJ_LIVE))
		return;
	if (t->refcount_off >= 0 &&
	    __atomic_sub_fetch((u32 *)((char *)obj + t->refcount_off), 1, __ATOMIC_ACQ_REL))
		return;
	bpf_alloc_drain_roots(obj, t);
	if (t->spin_lock_off >= 0)
		bpf_alloc_unregister(obj);
	bpf_kptr_forget(obj); /* its address may be the next object's */
	hdr->magic = BPF_OBJ_DEAD;
	memset(obj, BPF_POISON_FREE, hdr->size);
	if (!bpf_guard_free(hdr)) /* a guarded object's pages become inaccessible instead */
		bpf_obj_free(hdr);
}
#else
#define bpf_obj_alloc bpf_obj_alloc_type
#endif

void *KFUNC(bpf_obj_new_impl)(u64 local_type_id__k, void *meta__ign)
{
	struct kfsim_btf_struct *t;
	struct bpf_tstate *ts;
	void *obj = NULL;

	if (CHECKS) {
		/* bpf_enter() refuses the call under a lock: allocate before taking it */
		ts = bpf_enter(KFSIM_KFUNC_bpf_obj_new_impl);
		if (!ts)
			return NULL;
		/* a program without BTF has no local type to allocate (6.12 and 6.18) */
		if (ts->run && ts->run->opts.no_prog_btf &&
		    bpf_report(-EINVAL,
			       "the kernel refused the object's BTF (a struct in it is "
			       "invalid), so the program was loaded without it",
			       "%s requires prog BTF",
			       bpf_kver_at_least(6, 6) ? "bpf_obj_new/bpf_percpu_obj_new"
						       : "bpf_obj_new"))
			goto out;
		if (local_type_id__k > UINT32_MAX &&
		    bpf_report(-EINVAL, "bpf_obj_new takes bpf_core_type_id_local(type)",
			       "local type ID argument must be in range [0, U32_MAX]"))
			goto out;
	}
	t = bpf_btf_type_by_id(local_type_id__k);
	if (!t) {
		if (CHECKS)
			bpf_report(-EINVAL,
				   "the id must name a struct described with KFSIM_BTF_STRUCT "
				   "that loaded without errors",
				   "%s type ID argument must be of a struct",
				   /* bpf_percpu_obj_new_impl arrived in 6.6 and shares the check */
				   bpf_kver_at_least(6, 6) ? "bpf_obj_new/bpf_percpu_obj_new"
							   : "bpf_obj_new");
		goto out;
	}
	/*
	 * bpf_mem_alloc() serves at most 4096 bytes with its 8-byte llist header in front
	 * (kernel/bpf/memalloc.c): a larger object is never allocated.  The running 6.18.44
	 * refuses such a type at the call ("bpf_obj_new type size (N) is more than the allocator
	 * serves", measured: 4088 loads, 4089 does not); the mainline texts read check only
	 * bpf_percpu_obj_new's size, and there the call returns NULL, as kfsim's does before 6.18.
	 */
	if (t->size > BPF_OBJ_MAX_SIZE) {
		if (CHECKS && bpf_kver_at_least(6, 18))
			bpf_report(-EINVAL,
				   "allocate at most 4088 bytes: keep large data in a map value",
				   "bpf_obj_new type size (%u) is more than the allocator serves",
				   t->size);
		goto out;
	}
	/* NULL is the other outcome: nothing is allocated */
	if (CHECKS && bpf_exploring() && bpf_explore(true, true, false))
		goto out;
	obj = bpf_obj_alloc(t);
	if (CHECKS && obj && (bpf_note_caller(), !bpf_ref_add(obj, t, BPF_REF_OWNING))) {
		bpf_obj_drop_raw(obj);
		obj = NULL;
	}
out:
	if (CHECKS)
		bpf_leave();
	return obj;
}

void KFUNC(bpf_obj_drop_impl)(void *p__alloc, void *meta__ign)
{
	struct bpf_tstate *ts;
	struct bpf_ref *ref;
	char buf[160];

	if (!CHECKS) {
		bpf_obj_drop_raw(p__alloc);
		return;
	}
	/* bpf_enter() refuses the call under a lock: drop after bpf_spin_unlock */
	ts = bpf_enter(KFSIM_KFUNC_bpf_obj_drop_impl);
	if (!ts)
		return;
	/*
	 * NULL (an unchecked bpf_obj_new() result, or a literal): a release kfunc's arguments are
	 * trusted, and a maybe-NULL or NULL one is refused before its kind is looked at
	 * (check_kfunc_args(): is_kfunc_trusted_args() covers KF_RELEASE in 6.12; the running
	 * 6.18 says the same).
	 */
	if (!p__alloc && bpf_report(-EINVAL, "bpf_obj_drop takes an object: check the pointer "
					      "for NULL first",
				    "Possibly NULL pointer passed to trusted arg0"))
		goto out;
	ref = bpf_ref_find(p__alloc, BPF_REF_OWNING);
	/*
	 * A reference that died is a scalar to the verifier, and a release kfunc's argument must
	 * be trusted before its kind is looked at (check_kfunc_args(), 6.12 and 6.18).
	 */
	if (!ref && bpf_report(-EINVAL, bpf_explain_stale(p__alloc, buf, sizeof(buf)),
			       "R1 must be referenced or trusted"))
		goto out;
	if (ref->kind != BPF_REF_OWNING &&
	    bpf_report(-EINVAL,
		       "a non-owning reference cannot be dropped: the collection owns it "
		       "(remove or pop it first)",
		       "arg#0 expected pointer to allocated object"))
		goto out;
	/*
	 * The variable's own reference died (given to a push or add, then the unlock) while
	 * another variable's bpf_refcount_acquire() result owns the object: one address natively,
	 * two call results to the verifier, this one a scalar now (6.12 and 6.18 alike).
	 */
	if (ref->kind == BPF_REF_OWNING && ts->run && ts->run->opts.non_owning_arg &&
	    bpf_arg_non_owning(ts->kfunc, __builtin_return_address(0)) &&
	    bpf_report(-EINVAL,
		       "this variable's reference died: it was given to a push or add (and the lock "
		       "released); the one that owns the object now is another variable's "
		       "(references belong to call results, not objects)",
		       "R1 must be referenced or trusted"))
		goto out;
	if (p__alloc != ref->obj &&
	    bpf_report(-EINVAL,
		       "bpf_obj_drop takes the object's start, not a pointer to a member "
		       "(use container_of)",
		       /* 6.2's text on (6.12's source, the running 6.18): every kfsim version */
		       "R1 must have zero offset when passed to release func or trusted arg to "
		       "kfunc"))
		goto out;
	if (!bpf_same_call_type(ref->type, __builtin_return_address(0)))
		goto out;
	bpf_ref_del(ref, "at bpf_obj_drop");
	bpf_obj_drop_raw(p__alloc);
out:
	bpf_leave();
}

void *KFUNC(bpf_refcount_acquire_impl)(void *p__refcounted_kptr, void *meta__ign)
{
	struct kfsim_btf_struct *t;
	struct bpf_ref *ref;
	u32 *count, old;
	bool rcu;

	if (CHECKS) {
		if (!bpf_enter(KFSIM_KFUNC_bpf_refcount_acquire_impl))
			return NULL;
		/* KF_RCU makes the argument trusted: NULL is refused first (6.12's source, 6.18) */
		if (!p__refcounted_kptr &&
		    bpf_report(-EINVAL,
			       "bpf_refcount_acquire takes an object: check the pointer for NULL "
			       "first",
			       "Possibly NULL pointer passed to trusted arg0"))
			goto fail;
		ref = bpf_ref_find(p__refcounted_kptr, BPF_REF_OWNING);
		/*
		 * A __kptr field's object, loaded from the field: an RCU pointer (MEM_RCU |
		 * MEM_ALLOC of a refcounted struct, btf_ld_kptr_type()), which KF_RCU takes, in the
		 * non-sleepable programs kfsim runs (6.12's source, the running 6.18; kfsim follows
		 * it from 6.12).  The acquire may fail there, as of a non-owning reference.  A copy
		 * of a reference the program gave away is a scalar all the same (the data-flow's
		 * mark, below).
		 */
		rcu = !ref && bpf_kver_at_least(6, 12) && bpf_kptr_stashed(p__refcounted_kptr);
		if (!ref && !rcu &&
		    bpf_report(-EINVAL,
			       "bpf_refcount_acquire takes a live owning or non-owning "
			       "reference to an object's start",
			       "arg#0 is neither owning or non-owning ref"))
			goto fail;
		/* a variable whose reference died, another's live natively (bpf_graph.c) */
		if (bpf_arg_maybe_non_owning(&bpf_tstate, bpf_tstate.kfunc,
					     __builtin_return_address(0)) &&
		    bpf_report(-EINVAL,
			       "this variable's reference died (the unlock after its push or add, or "
			       "given away); the live one is another variable's (references belong "
			       "to call results, not objects)",
			       "arg#0 is neither owning or non-owning ref"))
			goto fail;
		/* a member's address: the register's offset is refused first (6.12, 6.18) */
		if (ref && ref->obj != p__refcounted_kptr &&
		    bpf_report(-EINVAL,
			       "bpf_refcount_acquire takes the object's start, not a pointer to a "
			       "member (use container_of)",
			       "dereference of modified ptr_ ptr R1 off=%td disallowed",
			       (char *)p__refcounted_kptr - (char *)ref->obj))
			goto fail;
		if (!ref && !rcu)
			goto fail;
		t = ref ? ref->type : bpf_obj_hdr_of(p__refcounted_kptr)->type;
		if (t->refcount_off < 0 &&
		    bpf_report(-EINVAL, "only a struct with a struct bpf_refcount member is shared",
			       "arg#0 doesn't point to a type with bpf_refcount field"))
			goto fail;
		if (!bpf_same_call_type(t, __builtin_return_address(0)))
			goto fail;
		/*
		 * 6.6+: of an owning reference it cannot fail, so no maybe-NULL id is taken;
		 * less()'s arguments are non-owning to the verifier, even the node being inserted
		 */
		if (ref && ref->kind == BPF_REF_OWNING && !bpf_tstate.cb_depth &&
		    bpf_kver_at_least(6, 6))
			bpf_tstate.id_gen--;
		else if (bpf_exploring() && bpf_explore(true, true, false))
			goto fail; /* maybe NULL to the verifier: the count is not taken */
	}
	t = bpf_obj_hdr_of(p__refcounted_kptr)->type;
	if (t->refcount_off < 0)
		return NULL;
	count = (u32 *)((char *)p__refcounted_kptr + t->refcount_off);
	if (bpf_kver_at_least(6, 5)) {
		/* 6.5+: refcount_inc_not_zero; a count at zero means the object is going away */
		old = __atomic_load_n(count, __ATOMIC_RELAXED);
		do {
			if (!old)
				goto fail;
		} while (!__atomic_compare_exchange_n(count, &old, old + 1, true, __ATOMIC_ACQUIRE,
						      __ATOMIC_RELAXED));
	} else {
		__atomic_add_fetch(count, 1, __ATOMIC_RELAXED);
	}
	if (CHECKS) {
		bpf_note_caller();
		if (!bpf_ref_add(p__refcounted_kptr, t, BPF_REF_OWNING)) {
			__atomic_sub_fetch(count, 1, __ATOMIC_RELEASE);
			goto fail;
		}
		bpf_leave();
	}
	return p__refcounted_kptr;
fail:
	if (CHECKS)
		bpf_leave();
	return NULL;
}
