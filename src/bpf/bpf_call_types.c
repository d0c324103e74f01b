// SPDX-License-Identifier: MIT
/*
 * One call instruction, one type (struct kfsim_bpf_call_types): the verifier rewrites the call
 * of bpf_obj_drop, bpf_refcount_acquire, bpf_list_push_front/back and bpf_rbtree_add with the
 * field record (btf_struct_meta) of the object's type, which it keeps per instruction
 * (insn_aux_data[].kptr_struct_meta).  A second type at the same instruction would free or
 * insert the object with the first type's record.  6.12 takes the last type it saw without a
 * word; the running 6.18 kernel (6.18.44 here) refuses the call:
 *
 *   same call cannot be used with different types
 *   use one call for each type: inline the static function that holds the call,
 *   or mark the callee with __attribute__((nomerge))
 *
 * Observed, not read: the upstream verifier as mirrored by kernel-patches/bpf (bpf-next, with
 * the 6.18 kfuncs) still keeps the last record, so the release that brought the check is the
 * running kernel's.  Two types without special fields share the NULL record and so may share a
 * call (observed too).
 *
 * The native build keeps apart what clang merged, so which calls are one instruction comes
 * from the BPF object (the runner's call_insn, kfsim-bpf-cc's table of the object's calls), and
 * the table lives as long as the verifier's insn_aux_data: one program, every path.
 */
#include "bpf_internal.h"

/* The record the verifier compares: the type's, or NULL for one without special fields. */
static const void *call_record(const struct kfsim_btf_struct *type)
{
	return type && type->field_mask ? type : NULL;
}

/*
 * The run meets a call site natively: it keeps the site's first record, and when the same site
 * comes with another one it asks which BPF call the site is (call_insn: the runner's addr2line,
 * so only then).  A site that is one BPF call for certain (a static subprogram's call, which
 * every caller reaches) with two records breaks the rule; calls clang merged from several sites
 * are kfsim-bpf-cc's data-flow's to find.
 */
bool bpf_same_call_type(const struct kfsim_btf_struct *type, const void *caller)
{
	struct kfsim_bpf_run *run = bpf_tstate.run;
	struct kfsim_bpf_call_types *tab;
	const void *record = call_record(type);

	if (!run || !run->opts.call_insn || !run->opts.call_types || !caller ||
	    !bpf_kver_at_least(6, 18))
		return true;
	tab = run->opts.call_types;
	for (unsigned int i = 0; i < tab->nr && i < KFSIM_BPF_CALL_TYPES_MAX; i++) {
		if (tab->e[i].caller != caller)
			continue;
		if (tab->e[i].record == record ||
		    run->opts.call_insn(bpf_tstate.kfunc, caller, run->opts.alloc_insn_arg) < 0)
			return true;
		bpf_report(-EINVAL,
			   "one call instruction reached with objects of two types: the verifier "
			   "rewrites the call with one type's record",
			   "same call cannot be used with different types\n"
			   "use one call for each type: inline the static function that holds the "
			   "call,\nor mark the callee with __attribute__((nomerge))");
		return false;
	}
	if (tab->nr < KFSIM_BPF_CALL_TYPES_MAX) {
		tab->e[tab->nr].caller = caller;
		tab->e[tab->nr].record = record;
		tab->nr++; /* after the entry: one process runs at a time */
	}
	return true;
}
