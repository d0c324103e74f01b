// SPDX-License-Identifier: MIT
/*
 * bpf_rbtree_add, bpf_rbtree_first, bpf_rbtree_remove and the 6.16 bpf_rbtree_{root,left,right}
 * (kernel/bpf/helpers.c) on kfsim's kernel rbtree (rb_root_cached).
 *
 * Invariants: every node in a tree has owner == that tree's root and is reachable from it; a node
 * in no tree is RB_EMPTY_NODE with owner NULL; insertion walks down calling less(new, parent) and
 * goes right on false, so equal keys keep their insertion order (FIFO) and leftmost stays cached.
 * The less callback runs with the lock held and the thread's callback depth raised, which is
 * what the checks on lock/unlock/remove inside it look at.
 */
#include "bpf_internal.h"
#include "bpf_explore_internal.h"

#ifndef KFSIM_BPF_NC
/* less() (the caller raised the callback depth); @order: also check asymmetry, irreflexivity. */
static bool call_less(bpf_rb_less_t less, struct rb_node *a, struct rb_node *b, bool order)
{
	bool ret, back;

	ret = less((struct bpf_rb_node *)a, (const struct bpf_rb_node *)b);
	if (unlikely(order)) {
		/* a kfunc called inside less() must not lend its name to these reports */
		bpf_tstate.kfunc = "bpf_rbtree_add_impl";
		back = less((struct bpf_rb_node *)b, (const struct bpf_rb_node *)a);
		if (ret && back)
			bpf_report(-EINVAL,
				   "less(a, b) and less(b, a) are both true: the tree order is "
				   "undefined (the kernel does not check this)",
				   "kfsim: less callback is not a strict weak order");
		if (less((struct bpf_rb_node *)a, (const struct bpf_rb_node *)a))
			bpf_report(-EINVAL,
				   "less(a, a) must be false (the kernel does not check this)",
				   "kfsim: less callback is not irreflexive");
	}
	return ret;
}

/*
 * An insert in three steps, so that the convenience macro can run the descent inline with the
 * program's own less() (a direct call the compiler may inline, as rb_add_cached() does):
 * begin (checks, claim), the descent, end (link, publish, the reference turns non-owning).
 * Between begin and end the callback depth is raised and the claimed owner word remembered, so
 * that kfuncs called inside less() are judged as the verifier judges them and a run aborted
 * there gives the node back unclaimed.
 */

/* The claimed node is already in a tree (6.4+): it is dropped, -EINVAL. */
static __attribute__((noinline)) int add_claim_failed(struct bpf_ref *ref,
						      const struct bpf_root_decl *decl, void *node)
{
	bpf_insert_failed(ref, bpf_decl_node_obj(decl, node),
			  "at the failed bpf_rbtree_add (the node was dropped)");
	bpf_leave();
	return -EINVAL;
}

/* The node is claimed: the descent may start (see rbtree_add_begin()). */
static __always_inline int add_claimed(struct bpf_tstate *ts, struct bpf_ref *ref,
				       struct bpf_rb_node_kern *n, struct kfsim_bpf_add_ctx *ctx,
				       bpf_rb_less_t less, enum kfsim_bpf_kfunc_id id)
{
	ctx->ref = ref;
	ctx->kfunc = bpf_kfunc_table[id].name;
	ctx->order = ts->run && ts->run->opts.check_less_order;
	ctx->less = less;
	ctx->ids = ts->id_gen;
	ts->cb_depth++; /* from here to the end of the descent, less() may run */
	ts->claiming = &n->owner;
	return 1;
}

/* rbtree_add_begin() with every check in its order. */
static __attribute__((noinline)) int
add_begin_checked(struct bpf_rb_root *root, struct bpf_rb_node *node, bpf_rb_less_t less,
		  struct kfsim_bpf_add_ctx *ctx, enum kfsim_bpf_kfunc_id id, const void *caller)
{
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct bpf_root_decl decl;
	struct bpf_tstate *ts;
	struct bpf_ref *ref;

	ts = bpf_enter(id);
	if (!ts)
		return -EINVAL;
	if (ts->cb_depth &&
	    bpf_report(-EINVAL,
		       "less() gets non-owning references and cannot insert into the tree it is "
		       "sorting",
		       "arg#1 expected pointer to allocated object"))
		goto refused;
	if (!bpf_check_root(root, BPF_RB_ROOT, &decl))
		goto refused;
	ref = bpf_insert_arg(&decl, node, caller);
	if (!ref)
		goto refused;
	if (!less && bpf_report(-EINVAL, "bpf_rbtree_add needs a less callback",
				"arg2 expected pointer to func"))
		goto refused;
	if (!kfsim_bpf_owner_claim(&n->owner))
		return add_claim_failed(ref, &decl, node);
	return add_claimed(ts, ref, n, ctx, less, id);
refused:
	bpf_leave();
	return -EINVAL;
}

static __always_inline int rbtree_add_begin(struct bpf_rb_root *root, struct bpf_rb_node *node,
					    bpf_rb_less_t less, struct kfsim_bpf_add_ctx *ctx,
					    enum kfsim_bpf_kfunc_id id)
{
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct bpf_tstate *ts = &bpf_tstate;
	/* the program's call site: this is inlined into the function the program calls */
	const void *caller = __builtin_return_address(0);
	struct bpf_ref *ref;

	/*
	 * The usual call, decided before anything changes: the call rule lets it through with
	 * nothing else to do at entry, outside less(), a cached root whose lock is held, the
	 * newest reference an owning one of the contained struct's node and the program's
	 * argument that reference (not a non-owning result of the same object: ts->kfunc is
	 * still the previous call's here), a less().
	 * Anything else takes the full path, which makes every check in its order.
	 */
	if (likely(bpf_enter_fast(ts, id) && !ts->cb_depth &&
		   bpf_root_cached(ts, root, BPF_RB_ROOT) && node && ts->nr_refs &&
		   (ref = bpf_ref_top(ts, node, BPF_REF_OWNING)) &&
		   bpf_node_ref_fits(&ts->root_cache.decl, node, ref) && less &&
		   !bpf_arg_maybe_non_owning(ts, bpf_kfunc_table[id].name, caller))) {
		bpf_enter_count(ts, id);
		if (unlikely(!kfsim_bpf_owner_claim(&n->owner)))
			return add_claim_failed(ref, &ts->root_cache.decl, node);
		return add_claimed(ts, ref, n, ctx, less, id);
	}
	return add_begin_checked(root, node, less, ctx, id, caller);
}

int kfsim_bpf_rbtree_add_begin(struct bpf_rb_root *root, struct bpf_rb_node *node,
			       bpf_rb_less_t less, struct kfsim_bpf_add_ctx *ctx)
{
	return rbtree_add_begin(root, node, less, ctx,
				bpf_mode() < KERNEL_VERSION(6, 4, 0)
					? KFSIM_KFUNC_bpf_rbtree_add
					: KFSIM_KFUNC_bpf_rbtree_add_impl);
}

bool kfsim_bpf_less_checked(bpf_rb_less_t less, struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return call_less(less, (struct rb_node *)a, (struct rb_node *)b, true);
}

void kfsim_bpf_rbtree_add_end(struct bpf_rb_root *root, struct bpf_rb_node *node,
			      struct kfsim_bpf_add_ctx *ctx, struct rb_node *parent,
			      struct rb_node **link, bool leftmost)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct bpf_tstate *ts = &bpf_tstate;

	ts->claiming = NULL;
	ts->cb_depth--;
	ts->kfunc = ctx->kfunc; /* less() may have called kfuncs */
	rb_link_node(&n->rb, parent, link);
	rb_insert_color_cached(&n->rb, &r->tree, leftmost);
	__atomic_store_n(&n->owner, r, __ATOMIC_RELEASE);
	bpf_ref_make_non_owning(ctx->ref);
	bpf_leave();
}

/* bpf_rbtree_add_impl() and the 6.3 bpf_rbtree_add(), entered under registry row @id. */
static __always_inline int rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node,
				      bpf_rb_less_t less, enum kfsim_bpf_kfunc_id id)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct rb_node **link = &r->tree.rb_root.rb_node, *parent = NULL;
	struct kfsim_bpf_add_ctx ctx;
	bool leftmost = true;
	int ret = rbtree_add_begin(root, node, less, &ctx, id);

	if (ret != 1)
		return ret;
	while (*link) {
		parent = *link;
		bool left = call_less(less, &n->rb, parent, ctx.order);

		kfsim_bpf_less_returned(&ctx);
		if (left) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	kfsim_bpf_rbtree_add_end(root, node, &ctx, parent, link, leftmost);
	/* the node is in the tree and the reference non-owning on both branches */
	if (bpf_exploring() && id == KFSIM_KFUNC_bpf_rbtree_add_impl && bpf_explore(true, true, false))
		return -EINVAL;
	return 0;
}
#endif

int KFUNC(bpf_rbtree_add_impl)(struct bpf_rb_root *root, struct bpf_rb_node *node,
			       bpf_rb_less_t less, void *meta__ign, u64 off)
{
#ifdef KFSIM_BPF_NC
	return kfsim_nc_rbtree_add(root, node, less);
#else
	return rbtree_add(root, node, less, KFSIM_KFUNC_bpf_rbtree_add_impl);
#endif
}

/* bpf_rbtree_first() with every check in its order. */
static __attribute__((noinline)) struct bpf_rb_node *rbtree_first_checked(struct bpf_rb_root *root)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_root_decl decl;
	struct rb_node *first = NULL;

	if (!bpf_enter(KFSIM_KFUNC_bpf_rbtree_first))
		return NULL;
	if (bpf_check_root(root, BPF_RB_ROOT, &decl)) {
		first = rb_first_cached(&r->tree);
		if (bpf_exploring() && bpf_explore(first, true, !first))
			first = first ? NULL
				      : bpf_explore_rb_fabricate(&decl, root, BPF_EXPLORE_FIRST, NULL);
	}
	if (first && !bpf_ref_add(bpf_decl_node_obj(&decl, first), bpf_decl_node_type(&decl),
				  BPF_REF_NON_OWNING))
		first = NULL;
	bpf_leave();
	return (struct bpf_rb_node *)first;
}

struct bpf_rb_node *KFUNC(bpf_rbtree_first)(struct bpf_rb_root *root)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct rb_node *first = NULL;
	struct bpf_tstate *ts;

	if (!CHECKS)
		return kfsim_bpf_rbtree_first_core(root);
	ts = &bpf_tstate;
	/* the usual call, decided before anything changes (see rbtree_add_begin()) */
	if (likely(bpf_enter_fast(ts, KFSIM_KFUNC_bpf_rbtree_first) &&
		   bpf_root_cached(ts, root, BPF_RB_ROOT) && ts->nr_refs < BPF_MAX_REFS)) {
		s32 node_off = ts->root_cache.decl.node_off;
		struct kfsim_btf_struct *node_type = ts->root_cache.decl.node_type;

		bpf_enter_count(ts, KFSIM_KFUNC_bpf_rbtree_first);
		first = rb_first_cached(&r->tree);
		if (first)
			bpf_ref_push(ts, (char *)first - node_off, node_type, BPF_REF_NON_OWNING);
		bpf_leave();
		return (struct bpf_rb_node *)first;
	}
	return rbtree_first_checked(root);
}

/*
 * The node argument of remove/left/right: a non-owning reference; >= 6.16 any owning one too
 * ("bpf: Allow refcounted bpf_rb_node used in bpf_rbtree_{remove,left,right}": an owning
 * reference is either refcounted or in no tree, where the owner check returns NULL).
 */
static __attribute__((noinline)) void report_node_not_in_tree_arg(struct bpf_ref *ref, void *node,
								   const char *kfunc, bool died)
{
	char buf[160];
	const char *why =
		died  ? "this variable's reference died (the unlock after its push or add, "
			"or given away); the live one is another variable's (references "
			"belong to call results, not objects)"
		: ref ? "an owning reference is not in any tree: only a non-owning one "
			"(from bpf_rbtree_first or an earlier add) can be removed"
		      : bpf_explain_stale(node, buf, sizeof(buf));

	if (bpf_v616())
		bpf_report(-EINVAL, why,
			   "%s can only take non-owning or refcounted bpf_rb_node pointer", kfunc);
	else
		bpf_report(-EINVAL, why, "rbtree_remove node input must be non-owning ref");
}

/*
 * @caller: the program's call site.  A variable whose reference died is a scalar to the verifier
 * even when another variable's reference to the same object is live natively (kfsim-bpf-cc's
 * data-flow marks such a call: bpf_arg_non_owning()).
 */
static __always_inline struct bpf_ref *check_node_in_tree_arg(const struct bpf_root_decl *decl,
							      void *node, const char *kfunc,
							      const void *caller)
{
	struct bpf_ref *ref;

	/*
	 * NULL (a walker's or first's result passed on unchecked): the running 6.18 checks a
	 * trusted argument's NULL before its kind, as for the inserts (bpf_insert_arg_report());
	 * measured there on bpf_rbtree_left/right/remove (docs/bpf-graph.md, "The fifth round").
	 */
	if (!node && bpf_kver_at_least(6, 18)) {
		bpf_report(-EINVAL, "the node may be NULL here: check the pointer for NULL first",
			   "Possibly NULL pointer passed to trusted arg1");
		return NULL;
	}
	ref = bpf_ref_find(node, BPF_REF_NON_OWNING);
	if (unlikely(bpf_tstate.cb_depth)) {
		if (bpf_v616())
			bpf_report(-EINVAL, "less() must not change or walk the tree it is sorting",
				   "%s not allowed in rbtree cb", kfunc);
		else
			bpf_report(-EINVAL, "less() must not change the tree it is sorting",
				   "rbtree_remove not allowed in rbtree cb");
		return NULL;
	}
	if (ref && bpf_arg_maybe_non_owning(&bpf_tstate, kfunc, caller)) {
		report_node_not_in_tree_arg(ref, node, kfunc, true);
		return NULL;
	}
	if (ref && ref->kind == BPF_REF_OWNING && bpf_v616())
		return bpf_check_node_ref(decl, node, ref);
	if (!ref || ref->kind != BPF_REF_NON_OWNING) {
		report_node_not_in_tree_arg(ref, node, kfunc, false);
		return NULL;
	}
	return bpf_check_node_ref(decl, node, ref);
}

/* 6.3: after a remove no non-owning reference is trusted any more */
static const char remove_ends_section[] =
	"at bpf_rbtree_remove (6.3 invalidates every non-owning reference there)";

/*
 * The other outcome of a remove that gives NULL (the node is in no tree): the verifier's owning
 * reference to a node, here a fabricated object of the contained type, in no collection.
 */
static __attribute__((noinline)) struct bpf_rb_node *
explore_remove_fabricated(const struct bpf_root_decl *decl)
{
	void *obj = bpf_obj_alloc_type(bpf_decl_node_type(decl));

	if (obj && !bpf_ref_add(obj, bpf_decl_node_type(decl), BPF_REF_OWNING)) {
		bpf_obj_drop_raw(obj);
		obj = NULL;
	}
	bpf_leave();
	return obj ? (struct bpf_rb_node *)((char *)obj + decl->node_off) : NULL;
}

/* bpf_rbtree_remove() with every check in its order. */
static __attribute__((noinline)) struct bpf_rb_node *rbtree_remove_checked(struct bpf_rb_root *root,
									   struct bpf_rb_node *node)
{
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct bpf_root_decl decl;
	void *obj;

	if (!bpf_enter(KFSIM_KFUNC_bpf_rbtree_remove))
		return NULL;
	if (!bpf_check_root(root, BPF_RB_ROOT, &decl) ||
	    !check_node_in_tree_arg(&decl, node, "bpf_rbtree_remove", bpf_tstate.caller))
		goto null;
	if (bpf_exploring() && bpf_v64() &&
	    bpf_explore(n->owner == (void *)root, true, n->owner != (void *)root)) {
		if (n->owner == (void *)root)
			goto null;
		return explore_remove_fabricated(&decl);
	}
	if (n->owner != (void *)root) {
		/*
		 * 6.6+ (c3c510ce431c, the owner field): NULL.  6.4/6.5 look only at
		 * RB_EMPTY_NODE: a node in no tree gives NULL, one in another tree under the same
		 * lock is erased from this one, corrupting both; 6.3 checks nothing.
		 */
		if (!bpf_kver_at_least(6, 6) && (!bpf_v64() || n->owner))
			bpf_report(
				-EINVAL,
				"the node is not in this tree: before 6.6 the kernel erases it from "
				"the wrong tree and corrupts both (the verifier cannot see this)",
				"kfsim: bpf_rbtree_remove of a node that is not in this tree");
		goto null;
	}
	kfsim_bpf_rbtree_remove_core(root, node);
	obj = bpf_decl_node_obj(&decl, node);
	if (!bpf_v64())
		bpf_refs_end_section(&bpf_tstate, remove_ends_section);
	if (!bpf_ref_add(obj, bpf_decl_node_type(&decl), BPF_REF_OWNING)) {
		/* cannot track it: drop it rather than leak it */
		bpf_obj_drop_raw(obj);
		goto null;
	}
	bpf_leave();
	return node;
null:
	bpf_leave();
	return NULL;
}

struct bpf_rb_node *KFUNC(bpf_rbtree_remove)(struct bpf_rb_root *root, struct bpf_rb_node *node)
{
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct bpf_tstate *ts;
	struct bpf_ref *ref;

	if (!CHECKS)
		return kfsim_bpf_rbtree_remove_core(root, node);
	bpf_note_caller(); /* here, not in rbtree_remove_checked(): the program's call site */
	ts = &bpf_tstate;
	/*
	 * The usual call, decided before anything changes (see rbtree_add_begin()): a cached
	 * root whose lock is held, outside less(), the newest reference a non-owning one of the
	 * contained struct's node (looked up before the node is read), the node in this tree.
	 */
	if (likely(bpf_enter_fast(ts, KFSIM_KFUNC_bpf_rbtree_remove) &&
		   bpf_root_cached(ts, root, BPF_RB_ROOT) && !ts->cb_depth && node &&
		   ts->nr_refs && ts->nr_refs < BPF_MAX_REFS &&
		   (ref = bpf_ref_top(ts, node, BPF_REF_NON_OWNING)) &&
		   bpf_node_ref_fits(&ts->root_cache.decl, node, ref) &&
		   n->owner == (void *)root &&
		   !bpf_arg_maybe_non_owning(ts, "bpf_rbtree_remove", ts->caller))) {
		s32 node_off = ts->root_cache.decl.node_off;
		struct kfsim_btf_struct *node_type = ts->root_cache.decl.node_type;

		bpf_enter_count(ts, KFSIM_KFUNC_bpf_rbtree_remove);
		kfsim_bpf_rbtree_remove_core(root, node);
		if (!bpf_v64())
			bpf_refs_end_section_notl(ts, remove_ends_section);
		bpf_ref_push(ts, (char *)node - node_off, node_type, BPF_REF_OWNING);
		bpf_leave();
		return node;
	}
	return rbtree_remove_checked(root, node);
}

/* @caller: the program's call site */
static struct bpf_rb_node *rb_walk(struct bpf_rb_root *root, struct bpf_rb_node *node, int dir,
				   enum kfsim_bpf_kfunc_id id, const void *caller)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct bpf_root_decl decl;
	struct rb_node *next;

	if (CHECKS) {
		if (!bpf_enter(id))
			return NULL;
		if (!bpf_check_root(root, BPF_RB_ROOT, &decl) ||
		    (dir &&
		     !check_node_in_tree_arg(&decl, node, bpf_kfunc_table[id].name, caller)))
			goto null;
	}
	if (!dir)
		next = r->tree.rb_root.rb_node;
	else if (n->owner != r)
		next = NULL;
	else
		next = dir < 0 ? n->rb.rb_left : n->rb.rb_right;
	/* a node in no tree has no children on any branch: only its NULL is certain */
	if (CHECKS && bpf_exploring() && bpf_explore(next, next || !dir || n->owner == r, !next))
		next = next ? NULL
			    : bpf_explore_rb_fabricate(&decl, root,
						       !dir	   ? BPF_EXPLORE_ROOT
						       : dir < 0 ? BPF_EXPLORE_LEFT
								 : BPF_EXPLORE_RIGHT,
						       dir ? &n->rb : NULL);
	if (CHECKS) {
		if (next && !bpf_ref_add(bpf_decl_node_obj(&decl, next), bpf_decl_node_type(&decl),
					 BPF_REF_NON_OWNING))
			next = NULL;
		bpf_leave();
	}
	return (struct bpf_rb_node *)next;
null:
	bpf_leave();
	return NULL;
}

struct bpf_rb_node *KFUNC(bpf_rbtree_root)(struct bpf_rb_root *root)
{
	return rb_walk(root, NULL, 0, KFSIM_KFUNC_bpf_rbtree_root, NULL);
}

struct bpf_rb_node *KFUNC(bpf_rbtree_left)(struct bpf_rb_root *root, struct bpf_rb_node *node)
{
	return rb_walk(root, node, -1, KFSIM_KFUNC_bpf_rbtree_left, __builtin_return_address(0));
}

struct bpf_rb_node *KFUNC(bpf_rbtree_right)(struct bpf_rb_root *root, struct bpf_rb_node *node)
{
	return rb_walk(root, node, 1, KFSIM_KFUNC_bpf_rbtree_right, __builtin_return_address(0));
}

#ifdef KFSIM_BPF_NC
/* The 6.3 form's unchecked twin: the 6.4 insert with its result dropped, as 6.3's returned none. */
void KFUNC(bpf_rbtree_add)(struct bpf_rb_root *root, struct bpf_rb_node *node, bpf_rb_less_t less)
{
	KFUNC(bpf_rbtree_add_impl)(root, node, less, NULL, 0);
}
#else
/* The 6.3 form: the same body under its own registry row (gate, removal warning). */
void(bpf_rbtree_add)(struct bpf_rb_root *root, struct bpf_rb_node *node, bpf_rb_less_t less)
{
	rbtree_add(root, node, less, KFSIM_KFUNC_bpf_rbtree_add);
}

int kfsim_bpf_rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node, bpf_rb_less_t less)
{
	return rbtree_add(root, node, less,
			  bpf_mode() < KERNEL_VERSION(6, 4, 0) ? KFSIM_KFUNC_bpf_rbtree_add
							       : KFSIM_KFUNC_bpf_rbtree_add_impl);
}

/*
 * bpf_rb_root_free(): steal the tree under its lock, reset the root, then drop every node in
 * post-order with the lock released.
 */
void bpf_rb_root_drain(void *root, struct bpf_spin_lock *lock, s32 node_off)
{
	struct bpf_rb_root_kern *r = root;
	struct rb_root_cached stolen;
	struct rb_node *pos, *next;

	kfsim_bpf_raw_lock(lock);
	stolen = r->tree;
	r->tree = RB_ROOT_CACHED;
	kfsim_bpf_raw_unlock(lock);
	for (pos = rb_first_postorder(&stolen.rb_root); pos; pos = next) {
		struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)pos;

		next = rb_next_postorder(pos);
		RB_CLEAR_NODE(pos);
		__atomic_store_n(&n->owner, NULL, __ATOMIC_RELEASE);
		bpf_obj_drop_raw((char *)n - node_off);
	}
}
#endif
