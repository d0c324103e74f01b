// SPDX-License-Identifier: MIT
/*
 * Argument checks shared by the list and rbtree kfuncs, in the order the verifier makes them
 * (check_kfunc_args, __process_kf_arg_ptr_to_graph_root/_node): the root is declared and of the
 * right kind, its own lock is held, the node is a live reference of the right kind of ownership,
 * it points at a node field of the right kind, in the contained struct, at the contained offset.
 *
 * Invariant: these functions only read; they return NULL/false after reporting, and the caller
 * then returns without touching anything.
 */
#include <string.h>

#include "bpf_internal.h"

static const char *root_kind_name(enum btf_field_type kind)
{
	return kind == BPF_RB_ROOT ? "bpf_rb_root" : "bpf_list_head";
}

static const char *node_kind_name(enum btf_field_type kind)
{
	return kind == BPF_RB_NODE ? "bpf_rb_node" : "bpf_list_node";
}

struct bpf_root_decl *bpf_check_root(void *root, enum btf_field_type kind)
{
	struct bpf_tstate *ts = &bpf_tstate;
	const struct kfsim_btf_field *field;
	struct bpf_root_decl *decl;
	struct bpf_spin_lock *lock;
	struct kfsim_btf_struct *t;

	if (!root) {
		bpf_report(-EINVAL, "graph kfuncs take the address of a declared root",
			   "arg#0 expected pointer to map value or allocated object");
		return NULL;
	}
	decl = bpf_root_decl_of(root);
	t = decl->type;
	if (!t || decl->check != bpf_root_check(root, t, decl->field_idx) ||
	    decl->field_idx >= t->nr_fields ||
	    (__atomic_load_n(&t->loaded_kver, __ATOMIC_ACQUIRE) != ts->kver && kfsim_btf_load(t)) ||
	    t->load_err) {
		bpf_report(-EINVAL,
			   "a root must be a field of a KFSIM_BTF_STRUCT allocation (bpf_obj_new "
			   "or kfsim_bpf_private_init) so kfsim knows its lock and contents",
			   "kfsim: %s at %p is not declared (no BTF describes it)",
			   root_kind_name(kind), root);
		return NULL;
	}
	field = bpf_decl_field(decl);
	if (unlikely(ts->run && ts->run->opts.prog_type >= KFSIM_BPF_PROG_KPROBE)) {
		bpf_report(-EINVAL,
			   "tracing programs may run in any context, where taking a "
			   "bpf_spin_lock could deadlock",
			   "tracing progs cannot use bpf_{list_head,rb_root} yet");
		return NULL;
	}
	if (field->type != kind) {
		bpf_report(-EINVAL, "the kfunc needs a root of its own kind at that place",
			   "%s not found at offset=%u", root_kind_name(kind), field->offset);
		return NULL;
	}
	lock = (struct bpf_spin_lock *)((char *)root - field->offset + t->spin_lock_off);
	if (ts->held == lock)
		return decl;
	if (ts->held)
		bpf_report(-EINVAL,
			   "the lock that guards a root is the one in the root's own allocation",
			   "held lock and object are not in the same allocation; "
			   "bpf_spin_lock at off=%d must be held for %s",
			   t->spin_lock_off, root_kind_name(kind));
	else
		bpf_report(-EINVAL,
			   "graph kfuncs read or change the collection, so the root's own "
			   "bpf_spin_lock must be held",
			   "bpf_spin_lock at off=%d must be held for %s", t->spin_lock_off,
			   root_kind_name(kind));
	return NULL;
}

struct bpf_ref *bpf_check_node_ref(struct bpf_root_decl *decl, void *node, struct bpf_ref *ref)
{
	struct kfsim_btf_struct *rt = decl->type;
	u32 idx = decl->field_idx;
	struct kfsim_btf_struct *want = rt->node_type[idx];
	enum btf_field_type kind = rt->node_kind[idx];
	s32 want_off = rt->node_off[idx];
	u32 off = (u32)((char *)node - (char *)ref->obj);
	bool found = false;

	if (likely(ref->type == want && (s32)off == want_off))
		return ref;
	for (u32 i = 0; i < ref->type->nr_fields; i++)
		if (ref->type->fields[i].type == kind && ref->type->fields[i].offset == off)
			found = true;
	if (!found) {
		bpf_report(-EINVAL,
			   "the node argument must point at a node field of the root's kind",
			   "%s not found at offset=%u", node_kind_name(kind), off);
		return NULL;
	}
	if (ref->type != want) {
		bpf_report(
			-EINVAL, "a root holds only the struct named in its __contains tag",
			"operation on %s expects arg#1 %s at offset=%d in struct %s, but arg is at "
			"offset=%d in struct %s",
			root_kind_name(bpf_decl_field(decl)->type), node_kind_name(kind), want_off,
			want->name, off, ref->type->name);
		return NULL;
	}
	if ((s32)off != want_off) {
		bpf_report(-EINVAL,
			   "a root links its objects through the node member named in "
			   "__contains, not another node of the same struct",
			   "arg#1 offset=%d, but expected %s at offset=%d in struct %s", off,
			   node_kind_name(kind), want_off, want->name);
		return NULL;
	}
	return ref;
}

struct bpf_ref *bpf_insert_arg(struct bpf_root_decl *decl, void *node)
{
	struct bpf_ref *ref = bpf_ref_find(node, BPF_REF_OWNING);
	char buf[160];

	if (!ref) {
		bpf_report(-EINVAL, bpf_explain_stale(node, buf, sizeof(buf)),
			   "arg#1 expected pointer to allocated object");
		return NULL;
	}
	if (ref->kind != BPF_REF_OWNING) {
		bpf_report(-EINVAL,
			   "only an owning reference can be inserted; this one is non-owning "
			   "(the node is already in a collection)",
			   "arg#1 expected pointer to allocated object");
		return NULL;
	}
	return bpf_check_node_ref(decl, node, ref);
}

void bpf_ref_make_non_owning(struct bpf_ref *ref)
{
	struct bpf_tstate *ts = &bpf_tstate;

	bpf_tl(ts, KFSIM_BPF_TL_RELEASED, ref->obj, ref->type->name);
	bpf_tl(ts, KFSIM_BPF_TL_NON_OWNING, ref->obj, ref->type->name);
	ref->kind = BPF_REF_NON_OWNING;
	ref->id = 0;
}

struct bpf_spin_lock *bpf_root_lock(void *root)
{
	struct bpf_root_decl *decl = bpf_root_decl_of(root);

	return (struct bpf_spin_lock *)((char *)root - bpf_decl_field(decl)->offset +
					decl->type->spin_lock_off);
}
