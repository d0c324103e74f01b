// SPDX-License-Identifier: MIT
/*
 * bpf_kptr_xchg() (kernel/bpf/helpers.c) for local kptrs: a map value's __kptr field holds an
 * object from bpf_obj_new() that no program owns.  Exchanging moves the program's owning
 * reference into the field and gives the program the one that was there.
 *
 * Invariant: the field holds NULL or the start of a live object; the exchange is atomic, as the
 * kernel's xchg(), so programs on several threads can stash and unstash the same slot.
 *
 * The argument checks, in the verifier's order (check_func_arg(), 6.12 and 6.18): a reference
 * that died already is a scalar to the verifier (check_reg_type(): "R2 type=scalar
 * expected=ptr_, trusted_ptr_, rcu_ptr_"); an object of another struct than the field declares
 * is refused by map_kptr_match_type() ("invalid kptr access, R2 type=ptr_X expected=ptr_Y");
 * a pointer into the object is refused there too (the match is strict); only then is the
 * reference's kind looked at (the release).  The field's type is known when its allocation (a
 * map value, an object) was described with a BPF_KPTR_REF field.
 */
#include "bpf_internal.h"
#include "bpf_explore_internal.h"

/*
 * Whether @field lies in a map value (an allocation registered with a map's name): its name
 * into @name.  With the object's BTF refused the kernel created every map without BTF (6.12's
 * source, the running 6.18), and stashing into one is refused by name.
 */
static bool map_without_btf(void *field, char *name, size_t size)
{
	struct bpf_alloc_view v;

	if (!bpf_alloc_lookup(field, &v) || !v.name)
		return false;
	snprintf(name, size, "%s", v.name);
	return true;
}

/* The struct the __kptr field at @field points to, or NULL when that is not known. */
static struct kfsim_btf_struct *kptr_field_type(void *field)
{
	struct bpf_alloc_view v;
	u32 off;

	if (!bpf_alloc_lookup(field, &v) || !v.type)
		return NULL;
	off = (u32)((char *)field - (char *)v.base);
	for (u32 i = 0; i < v.type->nr_fields; i++)
		if (v.type->fields[i].type == BPF_KPTR_REF && v.type->fields[i].offset == off)
			return v.type->fields[i].contains;
	return NULL;
}

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
	if (ts->run && ts->run->opts.no_prog_btf && map_without_btf(map_value, buf, sizeof(buf))) {
		/* the first argument's check (process_kptr_func()), before R2 is looked at */
		bpf_report(-EINVAL,
			   "the kernel refused the object's BTF (a struct in it is invalid), so its "
			   "maps were created without it and have no __kptr fields",
			   "map '%s' has to have BTF in order to use bpf_kptr_xchg", buf);
		goto refused;
	}
	if (ptr) {
		struct kfsim_btf_struct *want = kptr_field_type(map_value);

		ref = bpf_ref_find(ptr, BPF_REF_OWNING);
		if (!ref) {
			bpf_report(-EINVAL, bpf_explain_stale(ptr, buf, sizeof(buf)),
				   "R2 type=scalar expected=ptr_, trusted_ptr_, rcu_ptr_");
			goto refused;
		}
		/*
		 * A referenced kptr field matches strictly (btf_struct_ids_match() with strict
		 * set): the pointer must be the object's start, so a pointer into the object is
		 * refused here, with its own struct named twice, before the release's offset check
		 * (measured on 6.18.44, docs/bpf-graph.md, "The fifth round").
		 */
		if (want && (ref->type != want || ref->obj != ptr)) {
			bpf_report(-EINVAL,
				   ref->type != want
					   ? "the object is not of the struct the __kptr field declares"
					   : "a __kptr field takes the object's start, not a pointer into it",
				   "invalid kptr access, R2 type=ptr_%s expected=ptr_%s",
				   ref->type->name, want->name);
			goto refused;
		}
		if (ref->kind != BPF_REF_OWNING || ref->obj != ptr) {
			bpf_report(-EINVAL,
				   "only an owning reference to an object's start can be stashed",
				   "R2 must be referenced when passed to release function");
			goto refused;
		}
	}
	old = __atomic_exchange_n((void **)map_value, ptr, __ATOMIC_ACQ_REL);
	if (ref)
		bpf_ref_del(ref, "at bpf_kptr_xchg (stashed in the map)");
	/*
	 * The other outcome: as if the field had been empty (the old object goes), or, for an
	 * empty field of a known type, as if it had held an object (a fabricated one, as an empty
	 * collection's pop gives in the exploring mode).
	 */
	if (bpf_exploring()) {
		struct kfsim_btf_struct *held = old ? NULL : kptr_field_type(map_value);
		bool can_fabricate = held && !kfsim_btf_load(held);

		if (bpf_explore(old != NULL, old || can_fabricate, !old)) {
			if (old)
				bpf_obj_drop_raw(old);
			old = old ? NULL : bpf_obj_alloc_type(held);
		}
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
