/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_INTERNAL_H
#define KFSIM_BPF_INTERNAL_H
/*
 * What the BPF graph files share: the kernel views of the opaque uapi types, the object header,
 * the per-thread verifier state and the violation reporter.
 *
 * Invariants:
 * - Every object from bpf_obj_new() is preceded by a struct bpf_obj_hdr whose magic is
 *   BPF_OBJ_LIVE until the object is freed (then BPF_OBJ_DEAD and the body poisoned).
 * - A node's owner is NULL when it is in no collection, BPF_PTR_POISON while being inserted, and
 *   the root/head it sits in otherwise; it only changes with that root's lock held.
 * - Roots, heads and locks have the kernel's sizes; what kfsim knows about them (the struct
 *   that holds them) lives in the allocation registry (bpf_alloc.c) and in the references the
 *   thread holds: a pointer a kfunc receives is looked up there before it is dereferenced.
 * - The per-thread state lists the references the running program holds: every owning reference
 *   it acquired and has not released, and every non-owning reference of the current critical
 *   section (all of those go at bpf_spin_unlock).
 *
 * Each kfunc source is compiled twice: with KFSIM_BPF_NC=1 it defines the kfsim_nc_* twins, in
 * which every CHECKS branch is dead code and no per-thread state is touched.
 */
#include <stdint.h>
#include <stdio.h>

#define __KFSIM_BPF_IMPL 1
#include <kfsim/bpf_experimental.h>
#include <kfsim/bpf_graph_core.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>

#ifdef KFSIM_BPF_NC
#define CHECKS 0
#define KFUNC(name) kfsim_nc_##name
#else
#define CHECKS 1
#define KFUNC(name) name
#endif

/* ---- A minimal doubly linked list (the kernel's list_head semantics) ---- */

struct bpf_dlist {
	struct bpf_dlist *next, *prev;
};

static inline void bpf_dlist_init(struct bpf_dlist *h)
{
	h->next = h;
	h->prev = h;
}

static inline bool bpf_dlist_empty(const struct bpf_dlist *h)
{
	return h->next == h;
}

static inline void bpf_dlist_insert(struct bpf_dlist *n, struct bpf_dlist *prev,
				    struct bpf_dlist *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void bpf_dlist_del_init(struct bpf_dlist *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	bpf_dlist_init(n);
}

/* ---- Kernel views of the uapi types ---- */

struct __attribute__((may_alias)) bpf_list_head_kern {
	struct bpf_dlist list;
};

struct __attribute__((may_alias)) bpf_list_node_kern {
	struct bpf_dlist list;
	void *owner;
};

/* As the kernel checks it (helpers.c, 6.12): the kernel view fits; equal on 64-bit hosts. */
_Static_assert(sizeof(struct bpf_list_head_kern) <= sizeof(struct bpf_list_head), "list head");
_Static_assert(__alignof__(struct bpf_list_head_kern) <= __alignof__(struct bpf_list_head), "list head");
_Static_assert(sizeof(struct bpf_list_node_kern) <= sizeof(struct bpf_list_node), "list node");

/* ---- The allocations a program may reach (bpf_alloc.c) ---- */

/**
 * struct bpf_alloc_view - one allocation: a section (map value, .data.X) or an object
 * @base: its start
 * @type: its struct
 * @name: the map's name for a section, NULL for a bpf_obj_new() object
 * @valid: @type loaded without errors (the kernel's btf_record is valid)
 */
struct bpf_alloc_view {
	void *base;
	struct kfsim_btf_struct *type;
	const char *name;
	bool valid;
};

/* Bumped by every change of the registry: a cached answer of an older generation is stale. */
extern u64 bpf_alloc_gen;

static inline u64 bpf_alloc_generation(void)
{
	return __atomic_load_n(&bpf_alloc_gen, __ATOMIC_ACQUIRE);
}

/* Register @base (@type->size bytes); again for the same @base replaces. -ENOMEM when full. */
int bpf_alloc_register(void *base, struct kfsim_btf_struct *type, const char *name, bool valid);
/* Forget @base (nothing happens when it is not registered). */
void bpf_alloc_unregister(void *base);
/* The registered allocation that holds @p (any thread's): true and *@out, or false. */
bool bpf_alloc_lookup(const void *p, struct bpf_alloc_view *out);

/**
 * struct bpf_root_decl - what a root argument resolved to
 * @base: the allocation holding the root
 * @type: the allocation's struct
 * @field_idx: the root's index in @type->fields
 * @node_off: @type->node_off[@field_idx], the contained struct's node offset (copied: the
 *	      node checks read it on every call)
 * @node_type: @type->node_type[@field_idx], the contained struct
 */
struct bpf_root_decl {
	void *base;
	struct kfsim_btf_struct *type;
	u32 field_idx;
	s32 node_off;
	struct kfsim_btf_struct *node_type;
};

/* ---- Objects ---- */

#define BPF_OBJ_LIVE 0xb9f0a11cu
#define BPF_OBJ_DEAD 0xb9fdead0u
#define BPF_POISON_FREE 0x6b
/* the largest bpf_obj_new() object: bpf_mem_alloc()'s 4096-byte cache less its llist header */
#define BPF_OBJ_MAX_SIZE (4096 - 8)

/**
 * struct bpf_obj_hdr - what kfsim keeps in front of each bpf_obj_new() object
 * @type: the object's struct (the verifier's btf_struct_meta)
 * @magic: BPF_OBJ_LIVE or BPF_OBJ_DEAD
 * @size: @type->size at allocation
 */
struct bpf_obj_hdr {
	struct kfsim_btf_struct *type;
	u32 magic;
	u32 size;
	u64 reserved[2];
};

static inline struct bpf_obj_hdr *bpf_obj_hdr_of(void *obj)
{
	return (struct bpf_obj_hdr *)obj - 1;
}

/*
 * Whether a map value's or object's __kptr field holds @obj now (bpf_kptr.c): a plain load of the
 * field gives the program a pointer it holds no reference for (btf_ld_kptr_type(): rcu_ptr_ for a
 * refcounted struct, else untrusted_ptr_).  bpf_kptr_forget() when @obj is freed.
 */
bool bpf_kptr_stashed(const void *obj);
void bpf_kptr_forget(const void *obj);

/* Free @obj's special fields, then the object (refcounted: only at zero). bpf_obj.c. */
void bpf_obj_drop_raw(void *obj);
/* Free what the run kept from reuse (at its end: kfsim_bpf_run_end()). */
void bpf_obj_quarantine_flush(void);
/* Drain the list/tree root at @root (already detached or unreachable). bpf_list.c / bpf_rbtree.c */
void bpf_list_head_drain(void *head, struct bpf_spin_lock *lock, s32 node_off);
void bpf_rb_root_drain(void *root, struct bpf_spin_lock *lock, s32 node_off);
/* Drain every root of the allocation @base of @type (freeing a map value / an object). */
void bpf_alloc_drain_roots(void *base, struct kfsim_btf_struct *type);
/* Initialise the special fields of a fresh zeroed object of @type (refcount 1). */
void bpf_obj_init_fields(void *obj, struct kfsim_btf_struct *type);

/* ---- Per-thread verifier state ---- */

enum bpf_ref_kind {
	BPF_REF_OWNING = 1,
	BPF_REF_NON_OWNING = 2,
};

#define BPF_MAX_REFS 128
#define BPF_MAX_DEAD 16
/* The owning acquisitions of a run whose call sites are kept, in order: the leak report's. */
#define BPF_MAX_ACQUIRED 256
/*
 * The last BPF_QUARANTINE objects a run frees stay allocated (poisoned) until the run ends
 * (bpf_obj.c): kfsim knows a reference by its address, and memory handed at once to the next
 * bpf_obj_new() of the size would make a stale pointer name the new object, with its live
 * reference, where the verifier still sees the dead one.  Speed-free: only drops pay.
 */
#define BPF_QUARANTINE 32
/* global subprograms set aside at once: the verifier allows 8 call frames (MAX_CALL_FRAMES) */
#define BPF_MAX_GLOBAL_DEPTH 8

/**
 * struct bpf_ref - one reference the program holds
 * @obj: the object's start
 * @type: its struct
 * @kind: owning or non-owning
 * @cs: for a non-owning one, the number of the critical section it lives in
 * @id: the verifier's reference id (owning only): the id counter after its acquiring call
 * @insn: number of the kfunc call that made it (alloc_insn= without a resolver)
 * @kfunc: that kfunc
 * @file: its call site, when the call-site macro recorded it
 * @line: ...
 * @caller: the program's return address in that kfunc (resolved to a BPF instruction by the
 *	    run's alloc_insn callback: kfsim-bpf-cc)
 * @seq: its place in the run's acquisitions (bpf_tstate.acquired_at[]): how many times its call
 *	 site acquired before it tells apart the copies clang made of one call (an unrolled loop)
 */
struct bpf_ref {
	void *obj;
	struct kfsim_btf_struct *type;
	enum bpf_ref_kind kind;
	u32 cs; /* non-owning: the critical section it belongs to; live while it is current */
	u32 id;
	u32 insn;
	const char *kfunc;
	const char *file;
	int line;
	const void *caller;
	u32 seq;
};

/* The id of an owning reference held from before the run: never in the verifier's array. */
#define BPF_REF_NO_ID U32_MAX

/* A reference that died, kept to explain a later use of it. */
struct bpf_dead_ref {
	void *obj;
	u32 size;
	const char *how;
	const char *file;
	int line;
};

/* Where and how a generation of non-owning references ended. */
struct bpf_cs_end {
	const char *file;
	int line;
	const char *how;
};

/*
 * The fields every checked kfunc reads come first, in the first cache lines; the rings and the
 * reference table follow.
 */
struct bpf_tstate {
	unsigned int kver;
	struct bpf_spin_lock *held;
	u32 cs; /* generations of non-owning references ended so far (unlock; 6.3: remove) */
	/* kfuncs callable without the slow path, [0] with no lock held, [1] holding one */
	u32 ok_mask[2];
	/* ok_mask inside a run without a timeline (nothing else to do at entry), else 0 */
	u32 fast_mask[2];
	unsigned int mask_kver;
	bool tracing; /* the run's program type may not use graph roots */
	bool socket_filter; /* nor a map or section with a bpf_spin_lock */
	bool common_only; /* the run's program type may call only common_kfunc_set's kfuncs */
	bool mask_common_only; /* ok_mask was computed for this common_only */
	int cb_depth;
	int rcu_depth; /* bpf_rcu_read_lock() nesting */
	int preempt_depth; /* bpf_preempt_disable() nesting */
	/* bpf_local_irq_save() flags not restored yet, oldest first (bpf_irq.c) */
	struct bpf_irq_flag {
		unsigned long *flag;
		u32 id;
		const void *caller;
	} irq[16];
	u32 nr_irq;
	uintptr_t stack_lo, stack_hi; /* this thread's stack, for the irq flags */
	void **claiming; /* owner word of the node being inserted while less() runs */
	/* the last section root and section lock found valid, with the registry generation */
	struct {
		void *root;
		enum btf_field_type kind;
		u64 gen;
		struct bpf_spin_lock *lock; /* decl.base + decl.type->spin_lock_off */
		struct bpf_root_decl decl;
	} root_cache; /* empty while a tracing program runs (it may not use roots) */
	struct {
		void *lock;
		u64 gen;
	} lock_cache;
	u32 nr_refs;
	/*
	 * The verifier's env->id_gen as far as this run's calls move it (bpf_vref.c): each call
	 * adds ids_at[its kfunc], computed with the masks for the version in force.
	 */
	u32 id_gen;
	u8 ids_at[KFSIM_NR_KFUNCS];
	bool vref_lock; /* 6.13: the held lock has an entry in the array (set with the masks) */
	u32 nr_calls;
	const char *kfunc;
	struct kfsim_bpf_run *run;
	bool timeline;
	unsigned long nr_violations;
	u32 dead_next;
	const void *caller; /* set by the acquiring kfunc being run: bpf_note_caller() */
	const void *less_leaked; /* the less() whose leak this run reported (one report each) */
	/*
	 * The call site of each owning acquisition of the run, in order (the first
	 * BPF_MAX_ACQUIRED): a leaked reference's copy of an unrolled call is the number of times
	 * its site acquired before it (bpf_verifier_state.c, report_leaks()).
	 */
	u32 nr_acquired;
	struct bpf_acquired_at {
		const void *caller;
		const char *file;
		int line;
	} acquired_at[BPF_MAX_ACQUIRED];
	/*
	 * The verifier's array of acquired references, as ids in its order (0: the lock's entry,
	 * which 6.13 keeps there): what the leak report walks.  bpf_vref.c.
	 */
	u32 nr_vrefs;
	u32 vrefs[BPF_MAX_REFS + 1];
	/* the cold part: where and how each of the last BPF_MAX_DEAD generations ended, by cs */
	struct bpf_cs_end cs_end[BPF_MAX_DEAD];
	struct bpf_ref refs[BPF_MAX_REFS];
	struct bpf_dead_ref dead[BPF_MAX_DEAD];
	/* objects this run freed, kept from reuse until it ends: a ring, bpf_obj.c */
	u32 nr_quarantined;
	void *quarantine[BPF_QUARANTINE];
	/*
	 * Global subprograms being run (bpf_global_subprog.c): the verifier checks each on its
	 * own, so the caller's RCU and preemption state are set aside at the entry and given back
	 * at the exit; what one left open there is its own exit's error, reported at the end of
	 * the run only if the program broke no rule of its own (the main program is checked
	 * first).  A lock a global function returned with is still taken natively, and to the
	 * caller not held.
	 */
	u32 nr_globals;
	struct bpf_global_frame {
		int rcu_depth;
		int preempt_depth;
		bool held;
	} globals[BPF_MAX_GLOBAL_DEPTH];
	struct bpf_spin_lock *held_by_global;
	char global_exit_msg[96];
	/* helper calls so far (kfsim_bpf_helper_enter()), and where the last NULL lookup was */
	u64 nr_helpers;
	struct {
		bool valid;
		u32 nr_calls;
		u64 nr_helpers;
	} null_lookup;
};

/* Entry and exit of a global subprogram, and the end of a run (bpf_global_subprog.c). */
void bpf_global_enter(struct bpf_tstate *ts);
/* @check: report what a global function left open (false: only release, after an abort) */
void bpf_global_run_end(struct bpf_tstate *ts, bool check);
void bpf_global_run_reset(struct bpf_tstate *ts);

/*
 * The program type's map rule (bpf_graph.c): a socket filter may not name a map or section
 * that holds a bpf_spin_lock, whether it locks it or uses one of its roots.  False after
 * reporting.
 */
bool bpf_lock_map_allowed(const struct bpf_tstate *ts, const struct bpf_alloc_view *v);

/* The NULL lock argument is an unchecked lookup's result (bpf_kfuncs.c). */
bool bpf_arg_is_null_lookup(const struct bpf_tstate *ts);

extern __thread struct bpf_tstate bpf_tstate __attribute__((tls_model("initial-exec")));

/* Record a timeline event when the run asked for one (bpf_timeline.c). */
void bpf_tl_record(enum kfsim_bpf_tl_what what, const void *obj, const char *type);

static inline void bpf_tl(struct bpf_tstate *ts, enum kfsim_bpf_tl_what what, const void *obj,
			  const char *type)
{
	if (unlikely(ts->timeline))
		bpf_tl_record(what, obj, type);
}

/* The registry rows, indexed by enum kfsim_bpf_kfunc_id (bpf_kfuncs.c). */
extern const struct kfsim_bpf_kfunc bpf_kfunc_table[KFSIM_NR_KFUNCS];

_Static_assert(KFSIM_NR_KFUNCS <= 32, "one bit per kfunc in ok_mask");

/* Recompute ok_mask for ts->kver (bpf_kfuncs.c). */
void bpf_enter_masks(struct bpf_tstate *ts);

/* bpf_enter()'s rare cases: report (NULL) or warn once (@ts) (bpf_kfuncs.c). */
struct bpf_tstate *bpf_enter_slow(struct bpf_tstate *ts, const struct kfsim_bpf_kfunc *k);

/*
 * bpf_enter()'s path outside a run or with a timeline: read the version in force (outside a run),
 * record the call, apply the registry row (bpf_kfuncs.c).
 */
struct bpf_tstate *bpf_enter_full(struct bpf_tstate *ts, enum kfsim_bpf_kfunc_id id);

/* Set fast_mask for the run starting or ending (bpf_kfuncs.c). */
void bpf_enter_fast_mask(struct bpf_tstate *ts);

/*
 * Whether bpf_enter(@id) has nothing to do but count the call: in a run (version fixed at its
 * start) without a timeline, and allowed by the registry row with or without the lock held.
 * No side effect: a kfunc may decide its whole fast path first, then bpf_enter_count().
 */
static inline bool bpf_enter_fast(const struct bpf_tstate *ts, enum kfsim_bpf_kfunc_id id)
{
	return ts->fast_mask[ts->held != NULL] & (1u << id);
}

/* What bpf_enter() does when bpf_enter_fast() is true. */
static inline void bpf_enter_count(struct bpf_tstate *ts, enum kfsim_bpf_kfunc_id id)
{
	ts->nr_calls++;
	ts->kfunc = bpf_kfunc_table[id].name;
	ts->id_gen += ts->ids_at[id]; /* the verifier's ids for this call (bpf_vref.c) */
}

/*
 * bpf_enter() - the common entry of every checked kfunc: count the call, remember the kfunc,
 * and apply its registry row as the kernel (and libbpf) would before looking at any argument:
 * the version gate, the lock rule (only graph kfuncs and bpf_spin_unlock while a lock is held)
 * and a window in which calls were disabled.  NULL after reporting: the caller does nothing.
 */
static inline struct bpf_tstate *bpf_enter(enum kfsim_bpf_kfunc_id id)
{
	struct bpf_tstate *ts = &bpf_tstate;

	ts->nr_calls++;
	ts->kfunc = bpf_kfunc_table[id].name;
	if (likely(bpf_enter_fast(ts, id))) {
		ts->id_gen += ts->ids_at[id]; /* the verifier's ids for this call (bpf_vref.c) */
		return ts;
	}
	return bpf_enter_full(ts, id);
}

/* The kernel version a call follows: the run's, or the one in force outside a run. */
static inline unsigned int bpf_mode(void)
{
	return bpf_tstate.run ? bpf_tstate.kver : kfsim_kernel_version();
}

/* Leave a kfunc: the next call's site is unknown until its macro sets it. */
static inline void bpf_leave(void)
{
	kfsim_bpf_site.file = NULL;
}

/**
 * bpf_report() - report a broken rule; always returns true (for "if (bad && bpf_report())")
 * @err: negative errno the verifier would give
 * @why: one-line explanation of the rule
 * @fmt: the verifier's message
 *
 * Logs, records in the run, calls the run's callback, and in abort mode does not return.
 */
__printf(3, 4) bool bpf_report(int err, const char *why, const char *fmt, ...);

/*
 * bpf_note_caller() - in an acquiring kfunc (the function the program called, not a helper of
 * it): remember the program's return address, which the owning reference keeps for the leak
 * report (kfsim-bpf-cc turns it into the BPF instruction of the call).  One store.
 */
#define bpf_note_caller() (bpf_tstate.caller = __builtin_return_address(0))

/*
 * The verifier's reference array (bpf_vref.c): an owning reference joins at the end when it is
 * acquired and leaves as release_reference_state() removes it; in 6.13 the held lock has an
 * entry too (bpf_vref_lock).  bpf_vref_reset at the start of a run.
 */
void bpf_vref_reset(struct bpf_tstate *ts);
void bpf_vref_release_slow(struct bpf_tstate *ts, u32 id);

/* Removing the last entry is the same in every release, and the usual case. */
static inline void bpf_vref_release(struct bpf_tstate *ts, u32 id)
{
	if (likely(ts->nr_vrefs && ts->vrefs[ts->nr_vrefs - 1] == id))
		ts->nr_vrefs--;
	else
		bpf_vref_release_slow(ts, id);
}

static inline void bpf_vref_acquire(struct bpf_tstate *ts, u32 id)
{
	if (likely(ts->nr_vrefs < ARRAY_SIZE(ts->vrefs)))
		ts->vrefs[ts->nr_vrefs++] = id;
}
void bpf_vref_lock_slow(struct bpf_tstate *ts, bool taken);
/* How many ids the verifier's check of a call to @k takes in release @kver. */
u8 bpf_vref_ids_at_call(const struct kfsim_bpf_kfunc *k, enum kfsim_bpf_kfunc_id id,
			unsigned int kver);

/* The lock's entry: only 6.13 keeps it in the same array and removes entries by swapping. */
static inline void bpf_vref_lock(struct bpf_tstate *ts, bool taken)
{
	if (unlikely(ts->vref_lock))
		bpf_vref_lock_slow(ts, taken);
}

/* Reference table operations (bpf_verifier_state.c). */
static inline bool bpf_ref_live(const struct bpf_tstate *ts, const struct bpf_ref *r);

static inline bool bpf_ref_covers(const struct bpf_ref *r, const void *p)
{
	return (const char *)p >= (const char *)r->obj &&
	       (const char *)p < (const char *)r->obj + r->type->size;
}

/*
 * The newest entry if it is a live reference of kind @kind covering @p (then it is what
 * bpf_ref_find(@p, @kind) returns), else NULL.  The table must not be empty.
 */
static inline struct bpf_ref *bpf_ref_top(struct bpf_tstate *ts, const void *p,
					  enum bpf_ref_kind kind)
{
	struct bpf_ref *top = &ts->refs[ts->nr_refs - 1];

	return top->kind == kind && bpf_ref_covers(top, p) && bpf_ref_live(ts, top) ? top : NULL;
}

/* The live reference covering @p, of kind @prefer if there is one, else of the other kind. */
static inline struct bpf_ref *bpf_ref_find(void *p, enum bpf_ref_kind prefer)
{
	struct bpf_tstate *ts = &bpf_tstate;
	struct bpf_ref *any = NULL;

	if (!p)
		return NULL;
	/* the usual case: the newest entry, the answer the scan below would give first */
	if (likely(ts->nr_refs)) {
		struct bpf_ref *top = bpf_ref_top(ts, p, prefer);

		if (top)
			return top;
	}
	for (u32 i = ts->nr_refs; i-- > 0;) {
		struct bpf_ref *r = &ts->refs[i];

		if (!bpf_ref_covers(r, p) || !bpf_ref_live(ts, r))
			continue;
		if (r->kind == prefer)
			return r;
		if (!any)
			any = r;
	}
	return any;
}
void bpf_ref_del(struct bpf_ref *ref, const char *how);
void bpf_refs_invalidate_non_owning(const char *how);

/* Whether @r is still usable: owning, or non-owning of the current critical section. */
static inline bool bpf_ref_live(const struct bpf_tstate *ts, const struct bpf_ref *r)
{
	return r->kind == BPF_REF_OWNING || r->cs == ts->cs;
}

/* Remember in the ring of dead references that @r died @how at @file:@line. */
static inline void bpf_dead_remember_at(struct bpf_tstate *ts, const struct bpf_ref *r,
					const char *how, const char *file, int line)
{
	struct bpf_dead_ref *d = &ts->dead[ts->dead_next++ % BPF_MAX_DEAD];

	d->obj = r->obj;
	d->size = r->type->size;
	d->how = how;
	d->file = file;
	d->line = line;
}

/* A non-owning entry of an ended critical section leaves the table: it died at that unlock. */
static inline void bpf_dead_at_unlock(struct bpf_tstate *ts, const struct bpf_ref *r)
{
	const struct bpf_cs_end *e = &ts->cs_end[r->cs % BPF_MAX_DEAD];

	bpf_dead_remember_at(ts, r, e->how, e->file, e->line);
}

/* Fill the new table entry @r (bpf_ref_add()). */
static __always_inline void bpf_ref_init(struct bpf_tstate *ts, struct bpf_ref *r, void *obj,
					 struct kfsim_btf_struct *type, enum bpf_ref_kind kind)
{
	r->obj = obj;
	r->type = type;
	r->kind = kind;
	r->cs = ts->cs;
	r->id = kind == BPF_REF_OWNING ? ts->id_gen : 0;
	if (kind == BPF_REF_OWNING) { /* where it came from: for the leak report */
		r->insn = ts->nr_calls;
		r->kfunc = ts->kfunc;
		r->file = kfsim_bpf_site.file;
		r->line = kfsim_bpf_site.line;
		r->caller = ts->caller;
		r->seq = ts->nr_acquired;
		if (ts->nr_acquired < BPF_MAX_ACQUIRED)
			ts->acquired_at[ts->nr_acquired] =
				(struct bpf_acquired_at){r->caller, r->file, r->line};
		ts->nr_acquired++;
		ts->caller = NULL;
		bpf_vref_acquire(ts, r->id);
		kfsim_bpf_less_acquired |= (unsigned int)ts->cb_depth; /* see less()'s return */
	}
}

struct bpf_ref *bpf_ref_add_slow(void *obj, struct kfsim_btf_struct *type, enum bpf_ref_kind kind);

/* Dead entries on top of the table (the usual case after an unlock) leave it; the new count. */
static __always_inline u32 bpf_refs_pop_dead(struct bpf_tstate *ts)
{
	u32 n = ts->nr_refs;

	while (n && !bpf_ref_live(ts, &ts->refs[n - 1]))
		bpf_dead_at_unlock(ts, &ts->refs[--n]);
	ts->nr_refs = n;
	return n;
}

/* The new entry at refs[@n], the top of the table. */
static __always_inline struct bpf_ref *bpf_ref_put(struct bpf_tstate *ts, u32 n, void *obj,
						   struct kfsim_btf_struct *type,
						   enum bpf_ref_kind kind)
{
	struct bpf_ref *r = &ts->refs[n];

	ts->nr_refs = n + 1;
	bpf_ref_init(ts, r, obj, type, kind);
	return r;
}

/*
 * bpf_ref_add() - a new reference to @obj of @type: its table entry, or NULL after reporting.
 * Dead entries on top of the table make room first; a full table and a timeline take the
 * out-of-line path.
 */
static __always_inline struct bpf_ref *bpf_ref_add(void *obj, struct kfsim_btf_struct *type,
						   enum bpf_ref_kind kind)
{
	struct bpf_tstate *ts = &bpf_tstate;
	u32 n = bpf_refs_pop_dead(ts);

	if (unlikely(n >= BPF_MAX_REFS || ts->timeline))
		return bpf_ref_add_slow(obj, type, kind);
	return bpf_ref_put(ts, n, obj, type, kind);
}

/*
 * bpf_ref_add() when the caller knows it cannot take the slow path: the table had room when
 * the kfunc started (popping dead entries only makes more) and no timeline runs.
 */
static __always_inline struct bpf_ref *bpf_ref_push(struct bpf_tstate *ts, void *obj,
						    struct kfsim_btf_struct *type,
						    enum bpf_ref_kind kind)
{
	return bpf_ref_put(ts, bpf_refs_pop_dead(ts), obj, type, kind);
}

/* bpf_refs_end_section() when no timeline runs: record where the generation ended, end it. */
static inline void bpf_refs_end_section_notl(struct bpf_tstate *ts, const char *how)
{
	struct bpf_cs_end *e = &ts->cs_end[ts->cs % BPF_MAX_DEAD];

	e->file = kfsim_bpf_site.file;
	e->line = kfsim_bpf_site.line;
	e->how = how;
	ts->cs++;
}

/*
 * Every non-owning reference dies now (@how: "at bpf_spin_unlock"; in 6.3 also at
 * bpf_rbtree_remove): their generation ends; their entries are removed later, when the table
 * fills (or now, when a timeline wants each death).
 */
static inline void bpf_refs_end_section(struct bpf_tstate *ts, const char *how)
{
	if (unlikely(ts->timeline))
		bpf_refs_invalidate_non_owning(how);
	bpf_refs_end_section_notl(ts, how);
}

const struct bpf_dead_ref *bpf_dead_find(const void *p);
/* Explanation for a pointer that is no live reference: "it died at bpf_spin_unlock (x.c:12)". */
const char *bpf_explain_stale(const void *p, char *buf, size_t size);

/*
 * bpf_same_call_type() - the kfunc being run (bpf_tstate.kfunc), called from the program at
 * @caller, with an object of @type: false after reporting that its call instruction was reached
 * with another type's record before (>= 6.18; bpf_call_types.c).
 */
bool bpf_same_call_type(const struct kfsim_btf_struct *type, const void *caller);

/* Version helpers. */
/* Version helpers for kfuncs: the version read once at kfunc entry (bpf_enter). */
static inline bool bpf_kver_at_least(unsigned int major, unsigned int minor)
{
	return bpf_tstate.kver >= KERNEL_VERSION(major, minor, 0);
}

static inline bool bpf_v64(void)
{
	return bpf_kver_at_least(6, 4);
}

static inline bool bpf_v616(void)
{
	return bpf_kver_at_least(6, 16);
}

/* ---- Checks shared by the list and rbtree kfuncs (bpf_graph.c) ---- */

/*
 * bpf_reach() - the allocation holding @p that this thread may use: an object it holds a
 * reference to, or a section.  False when there is none (a stale or foreign pointer).
 */
bool bpf_reach(const void *p, struct bpf_alloc_view *out);

/*
 * bpf_check_root() - the root argument: inside an allocation the program may reach, a declared
 * root of @kind at that offset, whose allocation's lock this thread holds.  Fills *@decl;
 * false after reporting.
 */
bool bpf_check_root_slow(void *root, enum btf_field_type kind, struct bpf_root_decl *decl);

/*
 * The root cache answers for @root: a section root of @kind found before, while the registry
 * is unchanged, and its lock is held.  Then ts->root_cache.decl is what bpf_check_root() gives.
 */
static inline bool bpf_root_cached(const struct bpf_tstate *ts, const void *root,
				   enum btf_field_type kind)
{
	return ts->root_cache.root == root && ts->root_cache.kind == kind &&
	       ts->root_cache.gen == bpf_alloc_generation() && ts->held == ts->root_cache.lock;
}

static inline bool bpf_check_root(void *root, enum btf_field_type kind,
				  struct bpf_root_decl *decl)
{
	struct bpf_tstate *ts = &bpf_tstate;

	if (likely(bpf_root_cached(ts, root, kind))) {
		*decl = ts->root_cache.decl;
		return true;
	}
	return bpf_check_root_slow(root, kind, decl);
}

/*
 * bpf_check_node_ref() - a node argument for the root @decl: @ref (a live reference covering
 * @node) is of the contained type with the node field at the right offset.
 * Returns @ref, or NULL after reporting.
 */
struct bpf_ref *bpf_check_node_ref_slow(const struct bpf_root_decl *decl, void *node,
					struct bpf_ref *ref);

/* Whether @node, covered by @ref, is the contained struct's node field of the root @decl. */
static inline bool bpf_node_ref_fits(const struct bpf_root_decl *decl, const void *node,
				     const struct bpf_ref *ref)
{
	return ref->type == decl->node_type &&
	       (const char *)node - (char *)ref->obj == decl->node_off;
}

static __always_inline struct bpf_ref *bpf_check_node_ref(const struct bpf_root_decl *decl,
							  void *node, struct bpf_ref *ref)
{
	if (likely(bpf_node_ref_fits(decl, node, ref)))
		return ref;
	return bpf_check_node_ref_slow(decl, node, ref);
}

/* The contained type and node offset of a declared root. */
static inline const struct kfsim_btf_field *bpf_decl_field(const struct bpf_root_decl *decl)
{
	return &decl->type->fields[decl->field_idx];
}

static inline struct kfsim_btf_struct *bpf_decl_node_type(const struct bpf_root_decl *decl)
{
	return decl->node_type;
}

static inline void *bpf_decl_node_obj(const struct bpf_root_decl *decl, void *node)
{
	return (char *)node - decl->node_off;
}

/*
 * Report the node argument of an insert: no live reference (@ref NULL), a non-owning one, or an
 * owning one that the program's argument is not (another variable holds it).
 */
void bpf_insert_arg_report(void *node, struct bpf_ref *ref);

/*
 * Whether the program's node argument at @caller (a push or add of @kfunc; a drop's object) is a
 * non-owning result of an earlier call on some path, or (a drop) a result given to a push or
 * add before, though the node is owned now through another variable (bpf_graph.c); for a
 * remove, a walk (left/right) or bpf_refcount_acquire(), a result whose reference died.
 */
bool bpf_arg_non_owning(const char *kfunc, const void *caller);

/*
 * Whether the run's program gives the insert or drop at @caller a result that is not owning
 * (bpf_arg_non_owning()); free when no call of the program was found so (the runner then sets
 * no non_owning_arg), so the inserts' fast paths ask it too.
 */
static __always_inline bool bpf_arg_maybe_non_owning(const struct bpf_tstate *ts,
						     const char *kfunc, const void *caller)
{
	return unlikely(ts->run && ts->run->opts.non_owning_arg) &&
	       bpf_arg_non_owning(kfunc, caller);
}

/*
 * The owning reference an insert consumes, or NULL after reporting.  @caller: the program's
 * return address of the push or add (its call site), taken by the kfunc the program called.
 */
static __always_inline struct bpf_ref *bpf_insert_arg(const struct bpf_root_decl *decl, void *node,
						      const void *caller)
{
	struct bpf_ref *ref = bpf_ref_find(node, BPF_REF_OWNING);

	if (unlikely(!ref || ref->kind != BPF_REF_OWNING ||
		     bpf_arg_maybe_non_owning(&bpf_tstate, bpf_tstate.kfunc, caller))) {
		bpf_insert_arg_report(node, ref);
		return NULL;
	}
	return bpf_check_node_ref(decl, node, ref);
}

/* The timeline events of bpf_ref_make_non_owning() (bpf_graph.c). */
void bpf_ref_make_non_owning_tl(struct bpf_ref *ref);

/* After an insert: the owning reference becomes non-owning until unlock. */
static inline void bpf_ref_make_non_owning(struct bpf_ref *ref)
{
	struct bpf_tstate *ts = &bpf_tstate;

	if (unlikely(ts->timeline))
		bpf_ref_make_non_owning_tl(ref);
	bpf_vref_release(ts, ref->id);
	ref->kind = BPF_REF_NON_OWNING;
	ref->cs = ts->cs;
	ref->id = 0;
}
/*
 * A push or add of @ref's object @obj failed (its node is in a collection already): drop the
 * reference the kfunc was given, which leaves @ref non-owning while the collection's count keeps
 * the object, else gone (@how says where, for a later use of it).
 */
void bpf_insert_failed(struct bpf_ref *ref, void *obj, const char *how);
/* NC: drop the node of a failed insert, its object found from @root's declaration. */
void bpf_nc_insert_failed(void *root, void *node);
/* The loaded description with type id @id, or NULL (bpf_btf.c). */
struct kfsim_btf_struct *bpf_btf_type_by_id(u64 id);
/* A fresh object of @t, charged as bpf_obj_new charges (bpf_obj.c). */
void *bpf_obj_alloc_type(struct kfsim_btf_struct *t);

#endif /* KFSIM_BPF_INTERNAL_H */
