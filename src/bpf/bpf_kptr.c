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
#include <pthread.h>

#include "bpf_internal.h"
#include "bpf_explore_internal.h"

/*
 * The objects the __kptr fields hold now, once per field: the verifier types a plain load of a
 * field as a pointer without a reference (rcu_ptr_ or untrusted_ptr_), which natively is just
 * the object's address.  Programs on several threads stash at once, so under a lock; a full
 * table tracks no more (such pointers are then refused as before).
 */
#ifndef KFSIM_BPF_NC
#define BPF_MAX_STASHED 1024
static pthread_mutex_t stash_lock = PTHREAD_MUTEX_INITIALIZER;
static const void *stashed[BPF_MAX_STASHED];
static unsigned int nr_stashed;

static void stash_note(const void *obj)
{
	pthread_mutex_lock(&stash_lock);
	if (nr_stashed < BPF_MAX_STASHED)
		stashed[nr_stashed++] = obj;
	pthread_mutex_unlock(&stash_lock);
}

/* One field gave @obj up (@all: every field, the object is freed). */
static void stash_drop(const void *obj, bool all)
{
	pthread_mutex_lock(&stash_lock);
	for (unsigned int i = nr_stashed; i-- > 0;) {
		if (stashed[i] != obj)
			continue;
		stashed[i] = stashed[--nr_stashed];
		if (!all)
			break;
	}
	pthread_mutex_unlock(&stash_lock);
}

bool bpf_kptr_stashed(const void *obj)
{
	bool found = false;

	if (!obj || !__atomic_load_n(&nr_stashed, __ATOMIC_RELAXED))
		return false;
	pthread_mutex_lock(&stash_lock);
	for (unsigned int i = 0; i < nr_stashed && !found; i++)
		found = stashed[i] == obj;
	pthread_mutex_unlock(&stash_lock);
	return found;
}

void bpf_kptr_forget(const void *obj)
{
	if (__atomic_load_n(&nr_stashed, __ATOMIC_RELAXED))
		stash_drop(obj, true);
}
#else
/* the unchecked twin keeps no table: nothing asks it */
static inline void stash_note(const void *obj)
{
	(void)obj;
}

static inline void stash_drop(const void *obj, bool all)
{
	(void)obj;
	(void)all;
}
#endif

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

/*
 * Whether @field lies in a map value whose struct has __kptr fields but none at @field's offset:
 * process_kptr_func() (5.19 to the running 6.18) finds no field there, "off=%d doesn't point to
 * kptr" into @msg.  A value of no such struct is not judged: kfsim knows referenced __kptr
 * fields only, and the kernel's "has no valid kptr" would count the others too.  An exchange at
 * a __kptr_untrusted field is refused here too, where the kernel says "off=N kptr isn't
 * referenced kptr"; a __percpu_kptr field's needs bpf_percpu_obj_new(), which kfsim lacks.
 */
static bool not_a_kptr_field(void *field, char *msg, size_t size)
{
	struct bpf_alloc_view v;
	bool any = false;

	if (!bpf_alloc_lookup(field, &v) || !v.type || !v.name)
		return false;
	for (u32 i = 0; i < v.type->nr_fields; i++)
		any |= v.type->fields[i].type == BPF_KPTR_REF;
	if (!any)
		return false;
	snprintf(msg, size, "off=%d doesn't point to kptr", (int)((char *)field - (char *)v.base));
	return true;
}

void *KFUNC(bpf_kptr_xchg)(void *map_value, void *ptr)
{
	struct bpf_ref *ref = NULL;
	struct bpf_tstate *ts;
	void *old;
	char buf[160];
	bool dead;

	if (!CHECKS)
		return __atomic_exchange_n((void **)map_value, ptr, __ATOMIC_ACQ_REL);
	ts = bpf_enter(KFSIM_KFUNC_bpf_kptr_xchg);
	if (!ts)
		return NULL;
	if (!map_value) {
		/*
		 * 6.12 let the field be an object's too (ARG_KPTR_XCHG_DEST: map_value or an
		 * allocated object, "ptr_"); an unchecked lookup's NULL is map_value_or_null to the
		 * verifier (6.12's source, the running 6.18)
		 */
		bool lookup = bpf_arg_is_null_lookup(ts);

		bpf_report(-EINVAL,
			   lookup ? "a map lookup's result must be checked for NULL before its "
				    "__kptr field is exchanged"
				  : "the first argument is the address of a __kptr field",
			   "R1 type=%s expected=%s", lookup ? "map_value_or_null" : "scalar",
			   bpf_kver_at_least(6, 12) ? "map_value, ptr_" : "map_value");
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
	if (!kptr_field_type(map_value) && not_a_kptr_field(map_value, buf, sizeof(buf))) {
		/* the first argument's own check (process_kptr_func()), before R2 is looked at */
		bpf_report(-EACCES, "the first argument is the address of a __kptr field", "%s",
			   buf);
		goto refused;
	}
	if (ptr) {
		struct kfsim_btf_struct *want = kptr_field_type(map_value);

		ref = bpf_ref_find(ptr, BPF_REF_OWNING);
		/* a copy of a reference given away or dropped: a scalar (kfsim-bpf-cc's mark) */
		dead = bpf_arg_maybe_non_owning(ts, ts->kfunc, __builtin_return_address(0));
		if (!ref && !dead && bpf_kptr_stashed(ptr)) {
			/* loaded from a __kptr field: no reference (btf_ld_kptr_type()) */
			bpf_report(-EINVAL,
				   "a pointer loaded from a __kptr field is not a reference: take it "
				   "out with bpf_kptr_xchg() to own it",
				   "R2 type=%s expected=ptr_, trusted_ptr_, rcu_ptr_",
				   bpf_obj_hdr_of(ptr)->type->refcount_off >= 0 ? "rcu_ptr_"
										: "untrusted_ptr_");
			goto refused;
		}
		if (!ref || dead) {
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
	if (ptr)
		stash_note(ptr);
	if (old)
		stash_drop(old, false);
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
