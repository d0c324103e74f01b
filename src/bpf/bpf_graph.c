// SPDX-License-Identifier: MIT
/*
 * Argument checks shared by the list and rbtree kfuncs, in the order the verifier makes them
 * (check_kfunc_args, __process_kf_arg_ptr_to_graph_root/_node): the root is declared and of the
 * right kind, its own lock is held, the node is a live reference of the right kind of ownership,
 * it points at a node field of the right kind, in the contained struct, at the contained offset.
 * A root is first looked up (bpf_reach(): a reference the thread holds, or a registered section)
 * and only then touched.
 *
 * Invariant: these functions only read; they return NULL/false after reporting, and the caller
 * then returns without touching anything.
 */
#include <string.h>

#include <kfsim/bug.h>
#include "bpf_internal.h"

static const char *root_kind_name(enum btf_field_type kind)
{
	return kind == BPF_RB_ROOT ? "bpf_rb_root" : "bpf_list_head";
}

static const char *node_kind_name(enum btf_field_type kind)
{
	return kind == BPF_RB_NODE ? "bpf_rb_node" : "bpf_list_node";
}

bool bpf_reach(const void *p, struct bpf_alloc_view *out)
{
	struct bpf_ref *ref = bpf_ref_find((void *)p, BPF_REF_OWNING);

	if (ref) {
		*out = (struct bpf_alloc_view){ref->obj, ref->type, NULL, true};
		return true;
	}
	/* an object is reached only through a reference; a section by its address */
	return bpf_alloc_lookup(p, out) && out->name;
}

/* A pointer no reachable allocation holds: the report, out of the fast path. */
static __attribute__((noinline)) void report_unreachable_root(void *root)
{
	char buf[160];

	bpf_report(-EINVAL,
		   root ? bpf_explain_stale(root, buf, sizeof(buf))
			: "graph kfuncs take the address of a declared root",
		   "arg#0 expected pointer to map value or allocated object");
}

/* the program type's map rule: the kernel checks every map a program names, at load */
bool bpf_lock_map_allowed(const struct bpf_tstate *ts, const struct bpf_alloc_view *v)
{
	if (!ts->socket_filter || !v->name || !v->valid || v->type->spin_lock_off < 0)
		return true;
	bpf_report(-EINVAL,
		   "a socket filter may not use a map or section that holds a bpf_spin_lock "
		   "(refused when the program is loaded)",
		   "socket filter progs cannot use bpf_spin_lock yet");
	return false;
}

bool bpf_check_root_slow(void *root, enum btf_field_type kind, struct bpf_root_decl *decl)
{
	struct bpf_tstate *ts = &bpf_tstate;
	struct bpf_spin_lock *lock;
	struct bpf_alloc_view v;
	u32 off;

	if (unlikely(ts->tracing)) {
		bpf_report(-EINVAL,
			   "tracing programs may run in any context, where taking a "
			   "bpf_spin_lock could deadlock (refused when the program is loaded)",
			   "tracing progs cannot use bpf_{list_head,rb_root} yet");
		return false;
	}
	/* a section root found before, while the registry is unchanged: the same answer */
	if (likely(ts->root_cache.root == root && ts->root_cache.kind == kind &&
		   ts->root_cache.gen == bpf_alloc_generation())) {
		*decl = ts->root_cache.decl;
		lock = (struct bpf_spin_lock *)((char *)decl->base + decl->type->spin_lock_off);
		if (likely(ts->held == lock))
			return true;
		v = (struct bpf_alloc_view){decl->base, decl->type, NULL, true};
		goto not_held;
	}
	if (!root || !bpf_reach(root, &v)) {
		report_unreachable_root(root);
		return false;
	}
	if (unlikely(ts->socket_filter) && !bpf_lock_map_allowed(ts, &v))
		return false;
	off = (u32)((char *)root - (char *)v.base);
	decl->base = v.base;
	decl->type = v.type;
	for (decl->field_idx = 0; v.valid && decl->field_idx < v.type->nr_fields; decl->field_idx++)
		if (v.type->fields[decl->field_idx].type == kind &&
		    v.type->fields[decl->field_idx].offset == off)
			break;
	if (!v.valid || decl->field_idx == v.type->nr_fields) {
		bpf_report(-EINVAL,
			   "the pointer is not the address of a root of the kfunc's kind declared "
			   "in its struct (KFSIM_BTF_STRUCT with BTF_CONTAINS)",
			   "%s not found at offset=%u", root_kind_name(kind), off);
		return false;
	}
	decl->node_off = v.type->node_off[decl->field_idx];
	decl->node_type = v.type->node_type[decl->field_idx];
	if (v.name) {
		ts->root_cache.root = root;
		ts->root_cache.kind = kind;
		ts->root_cache.gen = bpf_alloc_generation();
		ts->root_cache.decl = *decl;
		ts->root_cache.lock =
			(struct bpf_spin_lock *)((char *)decl->base + decl->type->spin_lock_off);
	}
	lock = (struct bpf_spin_lock *)((char *)v.base + v.type->spin_lock_off);
	if (likely(ts->held == lock))
		return true;
not_held:
	if (ts->held)
		bpf_report(-EINVAL,
			   "the lock that guards a root is the one in the root's own allocation",
			   "held lock and object are not in the same allocation\n"
			   "bpf_spin_lock at off=%d must be held for %s",
			   v.type->spin_lock_off, root_kind_name(kind));
	else
		bpf_report(-EINVAL,
			   "graph kfuncs read or change the collection, so the root's own "
			   "bpf_spin_lock must be held",
			   "bpf_spin_lock at off=%d must be held for %s", v.type->spin_lock_off,
			   root_kind_name(kind));
	return false;
}

struct bpf_ref *bpf_check_node_ref_slow(const struct bpf_root_decl *decl, void *node,
					struct bpf_ref *ref)
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

static __attribute__((noinline)) void report_no_node_ref(void *node)
{
	char buf[160];

	bpf_report(-EINVAL, bpf_explain_stale(node, buf, sizeof(buf)),
		   "arg#1 expected pointer to allocated object");
}

/*
 * References belong to call results (issue #28, rule 6): a node from bpf_list_front() stays
 * non-owning when bpf_list_pop_front() of it gives another variable an owning reference.  The
 * native run sees one address for both, so the runner answers from the BPF object which
 * variable the call was given (opts.non_owning_arg).  Read in 6.12's source and checked on
 * the running 6.18; applied in every release kfsim models, as its non-owning references are.
 * The same for bpf_obj_drop() of a variable whose result was pushed while another variable's
 * bpf_refcount_acquire() result owns the object (bpf_obj.c).
 */
bool bpf_arg_non_owning(const char *kfunc, const void *caller)
{
	const struct kfsim_bpf_run *run = bpf_tstate.run;

	return run && run->opts.non_owning_arg &&
	       run->opts.non_owning_arg(kfunc, caller, run->opts.alloc_insn_arg);
}

void bpf_insert_arg_report(void *node, struct bpf_ref *ref)
{
	/*
	 * NULL (an unchecked result whose node is its first member): the running 6.18 treats the
	 * inserts' arguments as trusted, so a maybe-NULL node is "Possibly NULL pointer passed to
	 * trusted arg1" (measured on 6.18.44); 6.12 gives them no KF_TRUSTED_ARGS and the node
	 * check refuses it as any other non-object (its source, check_kfunc_args()).
	 */
	if (!node && bpf_kver_at_least(6, 18)) {
		bpf_report(-EINVAL, "an insert takes an object: check the pointer for NULL first",
			   "Possibly NULL pointer passed to trusted arg1");
		return;
	}
	if (!ref) {
		report_no_node_ref(node);
		return;
	}
	if (ref->kind == BPF_REF_OWNING) {
		bpf_report(-EINVAL,
			   "this argument is a non-owning result (bpf_list_front() and the like); "
			   "the node's owning reference is another variable's",
			   "arg#1 expected pointer to allocated object");
		return;
	}
	bpf_report(-EINVAL,
		   "only an owning reference can be inserted; this one is non-owning "
		   "(the node is already in a collection)",
		   "arg#1 expected pointer to allocated object");
}

void bpf_ref_make_non_owning_tl(struct bpf_ref *ref)
{
	bpf_tl_record(KFSIM_BPF_TL_RELEASED, ref->obj, ref->type->name);
	bpf_tl_record(KFSIM_BPF_TL_NON_OWNING, ref->obj, ref->type->name);
}

/*
 * The kernel drops what a failed push or add was given (__bpf_obj_drop_impl(): one count less;
 * the collection the node is in holds another), and the verifier made the argument non-owning
 * at the call whatever it returned (ref_convert_owning_non_owning() in 6.12's source, the
 * running 6.18): the program may still read the node or bpf_refcount_acquire() it until the
 * unlock (seed 9108 of bpf_fuzz.py, fz9108_1_68).  Only a refcounted node can be in a collection
 * while an owning reference to it is held, so its count is what keeps the object.
 */
void bpf_insert_failed(struct bpf_ref *ref, void *obj, const char *how)
{
	struct kfsim_btf_struct *t = bpf_obj_hdr_of(obj)->type;
	bool kept = t->refcount_off >= 0 &&
		    __atomic_load_n((u32 *)((char *)obj + t->refcount_off), __ATOMIC_RELAXED) > 1;

	if (kept)
		bpf_ref_make_non_owning(ref);
	else
		bpf_ref_del(ref, how);
	bpf_obj_drop_raw(obj);
}

/* The object of @node for the root @root, from the registry (NULL when undeclared). */
static void *nc_node_obj(void *root, void *node)
{
	struct bpf_alloc_view v;
	u32 off;

	if (!bpf_alloc_lookup(root, &v) || !v.valid)
		return NULL;
	off = (u32)((char *)root - (char *)v.base);
	for (u32 i = 0; i < v.type->nr_fields; i++)
		if (v.type->fields[i].offset == off && v.type->node_type[i])
			return (char *)node - v.type->node_off[i];
	return NULL;
}

void bpf_nc_insert_failed(void *root, void *node)
{
	void *obj = nc_node_obj(root, node);

	/* an undeclared root: the node cannot be told from its object; it is leaked, not freed */
	if (!WARN_ON_ONCE(!obj))
		bpf_obj_drop_raw(obj);
}

void kfsim_nc_rbtree_add_failed(struct bpf_rb_root *root, struct bpf_rb_node *node)
{
	bpf_nc_insert_failed(root, node);
}
