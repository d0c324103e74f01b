/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_EXPERIMENTAL_H
#define KFSIM_BPF_EXPERIMENTAL_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * BPF graph collections (kernel/bpf/helpers.c, tools/testing/selftests/bpf/bpf_experimental.h):
 * bpf_rbtree and bpf_list of objects from bpf_obj_new(), guarded by a bpf_spin_lock, with the
 * verifier's ownership rules checked at run time.
 *
 * Promises kept by this part:
 * - A reference is owning (from bpf_obj_new, bpf_list_pop_*, bpf_rbtree_remove,
 *   bpf_refcount_acquire) or non-owning (the node given to an insert kfunc, the results of
 *   bpf_rbtree_first/root/left/right and bpf_list_front/back).  Owning references must be released
 *   (bpf_obj_drop or an insert) before the program run ends; non-owning ones die at
 *   bpf_spin_unlock (and, in 6.3 mode, at bpf_rbtree_remove).  kfsim keeps this state per thread
 *   and per object, since a C pointer cannot carry it; every kfunc checks its arguments against it.
 * - A broken rule is reported with the verifier's own message text (so a ported selftest matches
 *   the same substring), the call site and a one-line reason, and the offending call does nothing:
 *   no collection is changed, no object freed, no lock taken or dropped.
 * - Semantics follow kfsim_kernel_version(): 6.3 (the baseline) or 6.4+ (int-returning inserts
 *   that drop and return -EINVAL, NULL-returning remove, the 6.6 owner field, bpf_refcount,
 *   the 6.16 kfuncs).  docs/bpf-graph.md lists every rule with its message.
 *
 * C has no BTF: a struct that bpf_obj_new() allocates, or that holds a lock and roots (a map
 * value, a "private(X)" data section), is described once with KFSIM_BTF_STRUCT(), which records
 * its size and the offsets and kinds of its special fields; the kind of each field comes from its
 * C type.  The description is checked like BTF at load (kfsim_btf_load()) and layouts the kernel
 * rejects get the kernel's errno.
 *
 * Layout: every opaque type has the kernel's size (vmlinux.h of >= 6.6: bpf_rb_root and
 * bpf_list_head 16, bpf_rb_node 32, bpf_list_node 24, bpf_spin_lock and bpf_refcount 4 bytes),
 * so field offsets, and the offsets in messages, are the kernel's.  Nodes have the >= 6.6 layout
 * (with the owner word) in every mode.  What kfsim knows about a root or a lock (which struct
 * holds it, what it contains) is kept beside the memory, in a registry of the allocations the
 * program may reach: sections (kfsim_bpf_section_init()) and bpf_obj_new() objects.  Every
 * pointer a kfunc receives is looked up there before it is dereferenced.
 *
 * Compile-out: define KFSIM_BPF_NO_CHECKS before including this header and the kfunc names map to
 * unchecked twins (kfsim_nc_*) with the kernel's run-time behaviour only, for benchmarks.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <kfsim/kernel.h>
#include <kfsim/types.h>
#include <kfsim/bpf_kfunc_list.h>

/* ---- The uapi types (opaque to programs) ---- */

/** struct bpf_spin_lock - the lock of one allocation (a real lock: 0 free, 1 held). */
struct bpf_spin_lock {
	__u32 val;
};

/** struct bpf_rb_root - root of a bpf rbtree (an rb_root_cached: 16 bytes, as in the kernel). */
struct bpf_rb_root {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

/** struct bpf_rb_node - node of a bpf rbtree (rb_node + owner: 32 bytes, as in >= 6.6). */
struct bpf_rb_node {
	__u64 __opaque[4];
} __attribute__((aligned(8)));

/** struct bpf_list_head - head of a bpf list (a list_head: 16 bytes, as in the kernel). */
struct bpf_list_head {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

/** struct bpf_list_node - node of a bpf list (list_head + owner: 24 bytes, as in >= 6.6). */
struct bpf_list_node {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

/** struct bpf_refcount - shared-ownership count of an object (>= 6.4); 1 after bpf_obj_new. */
struct bpf_refcount {
	__u32 __opaque[1];
} __attribute__((aligned(4)));

/* ---- Type declarations: the BTF analogue ---- */

/** enum btf_field_type - the special fields kfsim knows (kernel names, include/linux/bpf.h). */
enum btf_field_type {
	BPF_SPIN_LOCK = 1 << 0,
	BPF_KPTR_REF = 1 << 3, /* a "struct T __kptr *" member: bpf_kptr_xchg() stashes a T there */
	BPF_LIST_HEAD = 1 << 4,
	BPF_LIST_NODE = 1 << 5,
	BPF_RB_ROOT = 1 << 6,
	BPF_RB_NODE = 1 << 7,
	BPF_REFCOUNT = 1 << 9,
};

/** BTF_FIELDS_MAX - most special fields in one struct (the kernel's limit; more is -E2BIG). */
#define BTF_FIELDS_MAX 10

struct kfsim_btf_struct;

/**
 * struct kfsim_btf_field - one special field as declared
 * @type: its kind (from the member's C type)
 * @name: member name
 * @offset: offsetof() in the struct
 * @size: sizeof() the member
 * @contains: for a root: the struct it holds (the __contains tag); for a __kptr: the struct it
 *	      points to; NULL for none
 * @contains_node: for a root: the node member's name in @contains
 */
struct kfsim_btf_field {
	enum btf_field_type type;
	const char *name;
	u32 offset;
	u32 size;
	struct kfsim_btf_struct *contains;
	const char *contains_node;
};

/**
 * struct kfsim_btf_struct - a struct's description (one per type; filled in by kfsim_btf_load())
 * @name: struct tag
 * @size: sizeof(struct @name)
 * @fields: the declared special fields
 * @nr_fields: how many
 *
 * The remaining members belong to kfsim: the id, the load result, and the resolved layout.
 */
struct kfsim_btf_struct {
	const char *name;
	u32 size;
	const struct kfsim_btf_field *fields;
	u32 nr_fields;
	/* private: filled at load */
	unsigned int loaded_kver;
	int load_err;
	int loading;
	u32 id;
	u32 field_mask;
	s32 spin_lock_off;
	s32 refcount_off;
	s32 node_off[BTF_FIELDS_MAX];
	struct kfsim_btf_struct *node_type[BTF_FIELDS_MAX];
	enum btf_field_type node_kind[BTF_FIELDS_MAX];
};

/* clang-format off */
#define __kfsim_btf_kind(type, member)                                                             \
	_Generic(((struct type *)0)->member,                                                       \
		 struct bpf_spin_lock: BPF_SPIN_LOCK,                                              \
		 struct bpf_list_head: BPF_LIST_HEAD,                                              \
		 struct bpf_list_node: BPF_LIST_NODE,                                              \
		 struct bpf_rb_root: BPF_RB_ROOT,                                                  \
		 struct bpf_rb_node: BPF_RB_NODE,                                                  \
		 struct bpf_refcount: BPF_REFCOUNT)
/* clang-format on */

/** BTF_FIELD() - a special member of @type (lock, node, refcount); the kind comes from its type. */
#define BTF_FIELD(type, member)                                                                    \
	{                                                                                          \
		__kfsim_btf_kind(type, member), #member, offsetof(struct type, member),            \
			sizeof(((struct type *)0)->member), NULL, NULL                             \
	}

/**
 * BTF_CONTAINS() - a root member of @type holding struct @ctype linked through @cnode
 *
 * The analogue of "struct bpf_rb_root groot __contains(node_data, node);".  @ctype must have
 * been declared (KFSIM_BTF_DECLARE) or described before.
 */
#define BTF_CONTAINS(type, member, ctype, cnode)                                                   \
	{                                                                                          \
		__kfsim_btf_kind(type, member), #member, offsetof(struct type, member),            \
			sizeof(((struct type *)0)->member), kfsim_btf_of(ctype), #cnode            \
	}

/** BTF_ROOT_NO_CONTAINS() - a root member without a __contains tag (rejected: -EINVAL). */
#define BTF_ROOT_NO_CONTAINS(type, member) BTF_FIELD(type, member)

/** KFSIM_BTF_DECLARE() - forward-declare the description of struct @type (for BTF_CONTAINS). */
#define KFSIM_BTF_DECLARE(type) __KFSIM_BTF_DECLARE(type)
#define __KFSIM_BTF_DECLARE(type)                                                                  \
	static struct kfsim_btf_struct __kfsim_btf_##type __attribute__((unused))

/**
 * KFSIM_BTF_STRUCT() - describe struct @type and its special fields
 *
 * Example: KFSIM_BTF_STRUCT(node_data, BTF_FIELD(node_data, node));
 * The description is static to the file, like a program's BTF.
 */
#define KFSIM_BTF_STRUCT(type, ...) __KFSIM_BTF_STRUCT(type, __VA_ARGS__)
#define __KFSIM_BTF_STRUCT(type, ...)                                                              \
	static const struct kfsim_btf_field __kfsim_btf_fields_##type[] = {__VA_ARGS__};           \
	static struct kfsim_btf_struct __kfsim_btf_##type __attribute__((unused)) = {              \
		.name = #type,                                                                     \
		.size = sizeof(struct type),                                                       \
		.fields = __kfsim_btf_fields_##type,                                               \
		.nr_fields = ARRAY_SIZE(__kfsim_btf_fields_##type),                                \
	}

/** kfsim_btf_of() - the description of struct @type. */
#define kfsim_btf_of(type) __kfsim_btf_of(type)
#define __kfsim_btf_of(type) (&__kfsim_btf_##type)

/**
 * kfsim_btf_load() - check a struct description as BTF load does and give it a type id
 * @s: the description
 *
 * Checked (errno as the kernel's btf_parse_fields/btf_check_and_fixup_fields): more than
 * BTF_FIELDS_MAX special fields or two bpf_spin_locks -E2BIG; a root without a lock, a root
 * without __contains, a contained node of the wrong kind, both a list and an rb node without a
 * bpf_refcount (any both in 6.3) -EINVAL; a __contains node member that does not exist -ENOENT;
 * overlapping fields or a field outside the struct -EEXIST; an ownership chain where a type that
 * owns others is itself owned by a type that is owned -ELOOP (this includes A owning A).
 * The reason is logged ("kfsim bpf: BTF struct node_data: ...").  The result is cached until
 * the kernel version changes.
 *
 * Return: 0, or the negative errno above.
 */
int kfsim_btf_load(struct kfsim_btf_struct *s);

/**
 * kfsim_btf_type_id() - the type id bpf_obj_new() passes for @s, loading it first
 *
 * Return: the id (1...), or 0 when the description fails to load (reported by kfsim_btf_load()).
 */
u64 kfsim_btf_type_id(struct kfsim_btf_struct *s);

/** bpf_core_type_id_local() - the local type id of struct @type (libbpf's name). */
#define bpf_core_type_id_local(type) kfsim_btf_type_id(kfsim_btf_of(type))

/**
 * kfsim_bpf_section_init() - make @data, an instance of @s, a map value / data section
 * @data: zero-filled or previously freed memory of @s->size bytes
 * @s: its description (it must have the lock that guards its roots)
 * @name: the map's name for messages (".data.A", "array_map"); NULL: @s->name
 *
 * The "private(name)" grouping: the lock and the roots declared in @s share one allocation.
 * When @s fails to load the section is still registered, as the kernel still creates the map,
 * but it has no valid record: bpf_spin_lock() on it reports "map '@name' has no valid
 * bpf_spin_lock".  Registering the same @data again replaces the earlier registration.
 * Return: 0, or the kfsim_btf_load() error, -EINVAL for a NULL argument, -ENOMEM when the
 * registry is full.
 */
int kfsim_bpf_section_init(void *data, struct kfsim_btf_struct *s, const char *name);

/** kfsim_bpf_private_init() - kfsim_bpf_section_init(@data, @s, @s->name). */
int kfsim_bpf_private_init(void *data, struct kfsim_btf_struct *s);

/**
 * kfsim_bpf_private_free() - drain every root of @data, as freeing a map value does
 *
 * bpf_rb_root_free()/bpf_list_head_free(): under the lock the collections are emptied, then
 * every node is dropped (nested collections recursively), and the section leaves the registry.
 * The lock must not be held by the caller.  Return: 0, -EINVAL for a NULL argument or an
 * undeclared @data, -EBUSY when the caller holds the lock.
 */
int kfsim_bpf_private_free(void *data, struct kfsim_btf_struct *s);

/* ---- kfuncs ---- */

typedef bool (*bpf_rb_less_t)(struct bpf_rb_node *a, const struct bpf_rb_node *b);

/*
 * Every kfunc and its unchecked twin kfsim_nc_<name> are declared from the one list,
 * include/kfsim/bpf_kfunc_list.h, where each row's kernel-doc block (its contract: what it
 * does, its KF_* flags, its errors) stands beside the row.
 */
#define __KFSIM_BPF_KFUNC_DECL(name, ret, params, ...)                                              \
	ret(name) params;                                                                          \
	ret kfsim_nc_##name params;
KFSIM_BPF_KFUNC_LIST(__KFSIM_BPF_KFUNC_DECL)
#undef __KFSIM_BPF_KFUNC_DECL

/*
 * The 6.2/6.3 insert kfuncs bpf_rbtree_add(), bpf_list_push_front() and bpf_list_push_back()
 * are described beside their rows.
 *
 * The convenience macros bpf_rbtree_add(), bpf_list_push_front() and bpf_list_push_back() call
 * kfsim_bpf_rbtree_add() and kfsim_bpf_list_push_{front,back}(), which are the insert kfunc of
 * the release in force: the 6.3 form below 6.4, the _impl form from 6.4 on (what a program's
 * own bpf_experimental.h of that release names).  Return: as the _impl forms (0 below 6.4).
 */
int kfsim_bpf_rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node, bpf_rb_less_t less);
int kfsim_bpf_list_push_front(struct bpf_list_head *head, struct bpf_list_node *node);
int kfsim_bpf_list_push_back(struct bpf_list_head *head, struct bpf_list_node *node);

/* ---- Call sites and the compile-out switch ---- */

/**
 * struct kfsim_bpf_site - where the program called the current kfunc
 * @file: source file
 * @line: line
 */
struct kfsim_bpf_site {
	const char *file;
	int line;
};
extern __thread struct kfsim_bpf_site kfsim_bpf_site __attribute__((tls_model("initial-exec")));

static inline void __kfsim_bpf_here(const char *file, int line)
{
	kfsim_bpf_site.file = file;
	kfsim_bpf_site.line = line;
}
#define __KFSIM_HERE __kfsim_bpf_here(__FILE__, __LINE__)

#ifdef KFSIM_BPF_NO_CHECKS
#define __KFSIM_K(name) kfsim_nc_##name
#define __KFSIM_SITE ((void)0)
#else
#define __KFSIM_K(name) name
#define __KFSIM_SITE __KFSIM_HERE
#endif

/*
 * __KFSIM_CALL(name)(args): record the call site (checked builds), then call the kfunc or its
 * unchecked twin.  kfsim/bpf_kfunc_sites.h, generated from the kfunc list, defines
 * "#define name(...) __KFSIM_CALL(name)(__VA_ARGS__)" for every kfunc a program calls by name.
 */
#define __KFSIM_CALL(name) (__KFSIM_SITE, __KFSIM_K(name))

/* The call-site macros and the selftests' convenience macros (not seen by kfsim's own sources). */
#ifndef __KFSIM_BPF_IMPL
#include <kfsim/bpf_kfunc_sites.h>
#define bpf_obj_new(type)                                                                          \
	((struct type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define bpf_obj_drop(kptr) bpf_obj_drop_impl(kptr, NULL)
#define bpf_refcount_acquire(kptr) ((__typeof__(kptr))bpf_refcount_acquire_impl(kptr, NULL))
#ifdef KFSIM_BPF_NO_CHECKS
#define bpf_list_push_front(head, node) bpf_list_push_front_impl(head, node, NULL, 0)
#define bpf_list_push_back(head, node) bpf_list_push_back_impl(head, node, NULL, 0)
/* compiled out: the kernel's run-time behaviour, inline (include/kfsim/bpf_graph_core.h) */
#undef bpf_rbtree_first
#undef bpf_rbtree_remove
#undef bpf_spin_lock
#undef bpf_spin_unlock
#define bpf_rbtree_add(head, node, less) kfsim_nc_rbtree_add(head, node, less)
#define bpf_rbtree_first(root) kfsim_bpf_rbtree_first_core(root)
#define bpf_rbtree_remove(root, node) kfsim_bpf_rbtree_remove_core(root, node)
#define bpf_spin_lock(lock) kfsim_bpf_raw_lock(lock)
#define bpf_spin_unlock(lock) kfsim_bpf_raw_unlock(lock)
#else
/* the insert kfunc of the release in force: the 6.3 form below 6.4, the _impl form from 6.4 */
#define bpf_rbtree_add(head, node, less) (__KFSIM_SITE, kfsim_ck_rbtree_add(head, node, less))
#define bpf_list_push_front(head, node) __KFSIM_CALL(kfsim_bpf_list_push_front)(head, node)
#define bpf_list_push_back(head, node) __KFSIM_CALL(kfsim_bpf_list_push_back)(head, node)
#endif
#endif

/** container_of() under its BPF name. */
#define container_of_bpf(ptr, type, member) container_of(ptr, type, member)

/* ---- Program runs and violation reports ---- */

/** enum kfsim_bpf_on_violation - what a broken rule does to the run */
enum kfsim_bpf_on_violation {
	KFSIM_BPF_CONTINUE, /* report, refuse the call, keep running */
	KFSIM_BPF_ABORT,    /* report and stop the run at once (kfsim_bpf_run() only) */
};

/**
 * struct kfsim_bpf_violation - one broken rule
 * @msg: the verifier's message ("bpf_spin_lock at off=16 must be held for bpf_rb_root")
 * @why: one line on the rule
 * @kfunc: the kfunc that found it ("" for the end of the run)
 * @file: call site file (NULL when unknown)
 * @line: call site line
 * @err: the errno the verifier would return (negative)
 */
struct kfsim_bpf_violation {
	char msg[192];
	char why[192];
	const char *kfunc;
	const char *file;
	int line;
	int err;
};

/** enum kfsim_bpf_tl_what - what a timeline event records */
enum kfsim_bpf_tl_what {
	KFSIM_BPF_TL_CALL,	  /* a kfunc was called */
	KFSIM_BPF_TL_OWNING,	  /* an object became owned by the program */
	KFSIM_BPF_TL_NON_OWNING,  /* a non-owning reference appeared (first, add, push ...) */
	KFSIM_BPF_TL_RELEASED,	  /* an owning reference went (drop, insert, end of run) */
	KFSIM_BPF_TL_INVALIDATED, /* a non-owning reference died (unlock, 6.3 remove) */
	KFSIM_BPF_TL_LOCK,	  /* the lock was taken */
	KFSIM_BPF_TL_UNLOCK,	  /* the lock was released */
	KFSIM_BPF_TL_VIOLATION,	  /* a rule was broken */
};

#define KFSIM_BPF_TL_MAX 512

/**
 * struct kfsim_bpf_timeline - the reference history of one run, for pictures
 * @nr: events recorded (at most KFSIM_BPF_TL_MAX; later ones are counted in @dropped)
 * @dropped: events that did not fit
 * @ev: the events, in order; @ev[i].call is the kfunc call number
 */
struct kfsim_bpf_timeline {
	int nr;
	int dropped;
	struct {
		u32 call;
		enum kfsim_bpf_tl_what what;
		const char *kfunc;
		const void *obj;
		const char *type;
	} ev[KFSIM_BPF_TL_MAX];
};

/**
 * kfsim_bpf_timeline_svg() - draw @tl as an SVG timeline: one row per object, owning spans
 * solid, non-owning spans hatched, the critical sections shaded, calls along the x axis
 * Return: 0, -EINVAL for NULL arguments, -EIO when writing failed.
 */
int kfsim_bpf_timeline_svg(const struct kfsim_bpf_timeline *tl, const char *title, FILE *out);

struct kfsim_trace;
/**
 * kfsim_bpf_timeline_trace() - write @tl as Perfetto trace events (one track per object,
 * 1 µs per kfunc call) into an open trace, as process @pid
 */
void kfsim_bpf_timeline_trace(const struct kfsim_bpf_timeline *tl, struct kfsim_trace *trace,
			      int pid);

/**
 * enum kfsim_bpf_prog_type - the program type a run plays (BPF_PROG_TYPE_*)
 *
 * Graph roots are refused to tracing programs (kprobe, tracepoint, perf_event, raw_tp):
 * "tracing progs cannot use bpf_{list_head,rb_root} yet" (6.2 said bpf_list_head only).  A
 * socket filter may not use a map or section that holds a bpf_spin_lock ("socket filter progs
 * cannot use bpf_spin_lock yet", check_map_prog_compatibility(): 6.12's source, the running
 * 6.18).  A cgroup_skb program's return value must be in [0, 1] on ingress, [0, 3] on egress
 * (check_return_code(), since 5.3's congestion-notification bits; kfsim_bpf_run() checks it).
 * A socket filter, sk_skb, sk_msg, lwt or flow dissector program may call only the kfuncs
 * of common_kfunc_set (RCU, preemption, irq state): the allocation and graph kfuncs are
 * "calling kernel function %s is not allowed" (register_btf_kfunc_id_set() of
 * generic_kfunc_set names the program types that may: 6.12's source, the running 6.18).
 * The tracing types come last: kfsim tells them by their place.
 */
enum kfsim_bpf_prog_type {
	KFSIM_BPF_PROG_SCHED_CLS,  /* tc: the selftests' default (any non-tracing type acts alike) */
	KFSIM_BPF_PROG_STRUCT_OPS, /* sched_ext schedulers */
	KFSIM_BPF_PROG_SOCKET_FILTER,
	KFSIM_BPF_PROG_CGROUP_SKB_INGRESS,
	KFSIM_BPF_PROG_CGROUP_SKB_EGRESS,
	KFSIM_BPF_PROG_CGROUP_SOCK, /* return value in [0, 1] */
	KFSIM_BPF_PROG_SK_SKB,
	KFSIM_BPF_PROG_SK_MSG,
	KFSIM_BPF_PROG_LWT,
	KFSIM_BPF_PROG_FLOW_DISSECTOR,
	KFSIM_BPF_PROG_KPROBE,
	KFSIM_BPF_PROG_TRACEPOINT,
	KFSIM_BPF_PROG_PERF_EVENT,
	KFSIM_BPF_PROG_RAW_TRACEPOINT,
};

/**
 * struct kfsim_bpf_run_opts - how a run checks
 * @on_violation: continue or abort at the first report
 * @report: called for every violation (may be NULL)
 * @report_arg: passed to @report
 * @check_less_order: also check that less() is a strict weak order (irreflexive, asymmetric):
 *                    an extra less() call per step; the kernel does not do this
 * @timeline: when set, the run records its reference history there (cleared at begin)
 * @prog_type: the program type (0: SCHED_CLS); tracing types may not use graph roots
 * @alloc_insn: when set, what a leak report prints after alloc_insn=: the BPF instruction
 *              index of the acquiring call, found from the acquiring @kfunc and its call site
 *              (@file/@line when a call-site macro recorded them, else NULL/0) or the
 *              program's return address @caller in that kfunc; @nth is how many times that
 *              call site acquired before in the run (-1: not known), which tells apart the
 *              copies clang makes of one call (an unrolled loop: iteration k is copy k); a
 *              negative return keeps kfsim's own number (the count of that kfunc call in the
 *              run).  kfsim-bpf-cc's runner sets it from the BPF object's line info.
 * @alloc_insn_arg: passed to @alloc_insn
 * @call_insn: when set, the BPF instruction of the call of @kfunc that returns to the program's
 *             @caller, or a negative number when it is not known for certain (an inlined copy
 *             the native build cannot tell apart); @alloc_insn_arg is passed.  Asked only when
 *             a call site comes with a second type (it may be slow)
 * @call_types: with @call_insn, where the rule "one call instruction, one type" (>= 6.18, see
 *              struct kfsim_bpf_call_types) keeps what each call site was first reached with;
 *              NULL: the rule is not checked
 * @non_owning_arg: when set, whether the node argument of the push or add of @kfunc that returns
 *                  to the program's @caller may hold a non-owning result (bpf_list_front() and
 *                  the like) on some path, or the object argument of its bpf_obj_drop() such a
 *                  result or one given to a push or add before (dead after the unlock): the
 *                  verifier tracks references per call result, so an owning reference to the
 *                  same node in another variable does not make it one; @alloc_insn_arg is
 *                  passed.  Asked only when the run finds the node owned
 * @no_prog_btf: the program runs without BTF: the kernel refused the object's BTF (a struct
 *               btf_parse_struct_metas() refuses, e.g. a list and an rb node without a
 *               bpf_refcount), and libbpf loads the programs without it; bpf_obj_new() is
 *               then refused ("bpf_obj_new/bpf_percpu_obj_new requires prog BTF")
 */
struct kfsim_bpf_call_types;

struct kfsim_bpf_run_opts {
	enum kfsim_bpf_on_violation on_violation;
	void (*report)(const struct kfsim_bpf_violation *v, void *arg);
	void *report_arg;
	bool check_less_order;
	struct kfsim_bpf_timeline *timeline;
	enum kfsim_bpf_prog_type prog_type;
	int (*alloc_insn)(const char *kfunc, const char *file, int line, const void *caller,
			  int nth, void *arg);
	void *alloc_insn_arg;
	int (*call_insn)(const char *kfunc, const void *caller, void *arg);
	struct kfsim_bpf_call_types *call_types;
	bool (*non_owning_arg)(const char *kfunc, const void *caller, void *arg);
	bool no_prog_btf;
};

#define KFSIM_BPF_CALL_TYPES_MAX 256

/**
 * struct kfsim_bpf_call_types - the object type each call instruction of a program was first
 * reached with, as the verifier keeps it (insn_aux_data[].kptr_struct_meta) for the kfuncs
 * whose call it rewrites with the type's field record: bpf_obj_drop, bpf_refcount_acquire,
 * bpf_list_push_front/back and bpf_rbtree_add.  The running 6.18 kernel refuses a call
 * reached with another record ("same call cannot be used with different types"): clang may
 * merge two calls into one (a tail merge) that the native build keeps apart.  6.12 takes the
 * last one without a word.  The verifier keeps it for the whole program, across every path it
 * walks: so is this table, which the caller places in memory shared by every run and explored
 * path of one program (the runner maps it MAP_SHARED before it explores).  It is kept by native
 * call site; the calls clang merged from several sites are kfsim-bpf-cc's to find.
 * @nr: entries used
 * @caller: a native call site (the program's return address in the kfunc)
 * @record: the type it was first reached with (struct kfsim_btf_struct), NULL for a type without
 *	    special fields (the verifier's NULL btf_struct_meta: two such types may share a call)
 */
struct kfsim_bpf_call_types {
	unsigned int nr;
	struct {
		const void *caller;
		const void *record;
	} e[KFSIM_BPF_CALL_TYPES_MAX];
};

#define KFSIM_BPF_RUN_MAX_REPORTS 8

/**
 * struct kfsim_bpf_run - one program invocation (fill with kfsim_bpf_run_begin())
 * @name: the program's name
 * @opts: the options in force
 * @nr_violations: how many rules were broken (all of them counted)
 * @violations: the first KFSIM_BPF_RUN_MAX_REPORTS of them
 * @nr_calls: kfunc calls made (the "instruction" numbers of alloc_insn=); set at the end
 * @aborted: the run was stopped by KFSIM_BPF_ABORT
 */
struct kfsim_bpf_run {
	const char *name;
	struct kfsim_bpf_run_opts opts;
	int nr_violations;
	struct kfsim_bpf_violation violations[KFSIM_BPF_RUN_MAX_REPORTS];
	u32 nr_calls;
	bool aborted;
	/* private */
	bool has_retval; /* kfsim_bpf_run() saw the program return @retval */
	long long retval;
	void *abort_jmp;
	struct kfsim_bpf_run *prev;
};

/**
 * kfsim_bpf_run_begin() - start a program run on this thread
 * @run: the run's record
 * @name: program name for reports
 * @opts: NULL for the defaults (continue, no callback)
 *
 * The kernel version in force now is the one the run follows (as a program is verified once).
 * Return: 0, -EINVAL for NULL @run, -EBUSY when a run is already active on this thread.
 */
int kfsim_bpf_run_begin(struct kfsim_bpf_run *run, const char *name,
			const struct kfsim_bpf_run_opts *opts);

/**
 * kfsim_bpf_run_end() - end the run: check the program-exit rules
 *
 * A lock still held is reported ("bpf_spin_unlock is missing") and released; every owning
 * reference still held is reported, one report per reference in the order of the verifier's
 * reference array (swap-remove up to 6.13, with the held lock's entry in 6.13; acquisition order
 * from 6.14): "Unreleased reference id=%d alloc_insn=%d", the last one from 6.14 with a second
 * line "BPF_EXIT instruction in main prog would lead to reference leak".  alloc_insn is what
 * @opts.alloc_insn gives, else the number of the kfunc call that acquired the reference; the id
 * counts the run's owning references (the verifier's counts more events, see docs/bpf-graph.md).
 * The references are then dropped so nothing leaks.
 * Return: 0 when the run broke no rule, else the errno of the first violation (-EINVAL mostly);
 * -EINVAL when @run is not the thread's active run.
 */
int kfsim_bpf_run_end(struct kfsim_bpf_run *run);

/**
 * kfsim_bpf_run() - run @prog(@ctx) as one program invocation
 * @run: the run's record (results are read from it afterwards)
 * @name: program name
 * @prog: the program
 * @ctx: its argument
 * @opts: NULL for the defaults
 * @retval: where @prog's return value goes (may be NULL); unset when aborted
 *
 * Return: as kfsim_bpf_run_end().
 */
int kfsim_bpf_run(struct kfsim_bpf_run *run, const char *name, int (*prog)(void *ctx), void *ctx,
		  const struct kfsim_bpf_run_opts *opts, int *retval);

/**
 * kfsim_bpf_verifier_ids() - a call kfsim does not implement took @n verifier ids
 * @n: how many: 1 for a helper returning a maybe-NULL pointer (bpf_map_lookup_elem), one more if
 *     it also acquires a reference
 *
 * kfsim numbers references as the verifier does, from its id counter (env->id_gen), which every
 * maybe-NULL result and every acquired reference moves on.  kfsim's own kfuncs count
 * themselves; a runtime that implements other helpers (kfsim-bpf-cc's map lookups) tells it here.
 * Return: the counter after the move: the id of an acquired reference whose id is the last one
 * (kfsim-bpf-cc's open-coded iterators, acquire_reference_state()).
 */
unsigned int kfsim_bpf_verifier_ids(unsigned int n);

/**
 * kfsim_bpf_lookup_result() - a map lookup kfsim does not implement returned @value
 * @value: the value's address, or NULL
 *
 * To the verifier a lookup's result is map_value_or_null until the program checks it: a lock
 * of it unchecked is "R1 type=map_value_or_null expected=map_value, ptr_" (the running 6.18).
 * Natively the check the program left out shows only as a NULL argument; kfsim takes a NULL
 * lock argument for the lookup's result when the lookup returned NULL and no helper or kfunc
 * was called in between.  kfsim-bpf-cc's runtime calls it after each bpf_map_lookup_elem().
 */
void kfsim_bpf_lookup_result(const void *value);

/**
 * kfsim_bpf_helper_enter() - a BPF helper kfsim has no kfunc row for is about to run
 * @helper: its name ("bpf_map_lookup_elem"), for the report
 *
 * The lock rule kfsim's own kfuncs apply to themselves (bpf_enter()), for the helpers a runtime
 * implements (kfsim-bpf-cc's maps, time, random numbers): while a bpf_spin_lock is held the
 * verifier allows no helper but bpf_spin_unlock (do_check(), 6.1 to 6.18), so any such call is
 * reported as "function calls are not allowed while holding a lock".
 *
 * Return: 0 to run the helper, or -EINVAL after the report: the helper then does nothing.
 */
int kfsim_bpf_helper_enter(const char *helper);

/**
 * kfsim_bpf_percpu_arg() - the argument of a per-CPU helper, checked
 * @helper: "bpf_this_cpu_ptr" or "bpf_per_cpu_ptr", for the report
 * @p: the pointer the program passes
 *
 * Both take a per-CPU pointer (ARG_PTR_TO_PERCPU_BTF_ID): a map value or section (map_value)
 * or an object of bpf_obj_new() (ptr_) is refused as "R1 type=map_value expected=percpu_ptr_,
 * percpu_rcu_ptr_, percpu_trusted_ptr_" (check_reg_type(), 6.12's test_spin_lock_fail.c
 * lock_id_* programs, the running 6.18).  A pointer kfsim does not know (a ksym) passes.
 *
 * Return: 0 to run the helper, or -EINVAL after the report.
 */
int kfsim_bpf_percpu_arg(const char *helper, const void *p);

/**
 * kfsim_bpf_helper_refused() - a helper call a verifier rule refuses, reported
 * @helper: its name ("bpf_skb_load_bytes"), for the report
 * @why: why the verifier refuses it, in kfsim's words
 * @fmt: the verifier's message, printf-style
 *
 * For the rules a runtime's helpers check themselves (kfsim-bpf-cc's: the program type, the
 * context argument, a map value's size).
 *
 * Return: -EINVAL, after the report; the helper then does nothing.
 */
__printf(3, 4) int kfsim_bpf_helper_refused(const char *helper, const char *why,
					    const char *fmt, ...);

/**
 * kfsim_bpf_helper_mem_arg() - a helper's memory argument, checked
 * @helper: its name, for the report
 * @regno: the argument's register (1 to 5)
 * @p: the pointer the program passes
 *
 * An ARG_PTR_TO_MEM argument (a buffer the helper reads or fills) may not be an object of
 * bpf_obj_new(): "R3 type=ptr_ expected=fp, pkt, pkt_meta, map_key, map_value, mem,
 * ringbuf_mem, buf, trusted_ptr_" (check_reg_type(), the running 6.18).  Other memory passes.
 *
 * Return: 0 to run the helper, or -EINVAL after the report.
 */
int kfsim_bpf_helper_mem_arg(const char *helper, int regno, const void *p);

/** kfsim_bpf_is_object() - whether @p points into a live object of bpf_obj_new() */
bool kfsim_bpf_is_object(const void *p);

/**
 * kfsim_bpf_global_call_enter() - a global (non-static) BPF subprogram is being entered
 * @subprog: its name, for the report
 *
 * The verifier checks a global function on its own, with no lock held, and so refuses a call
 * to one while a bpf_spin_lock is held (check_func_call(), 6.1 to 6.18): the call is reported
 * as "global function calls are not allowed while holding a lock,\nuse static function
 * instead".  kfsim-bpf-cc's runtime calls it at the entry of each global subprogram; the
 * function's return must call kfsim_bpf_global_call_exit(), which gives the caller back the
 * state set aside here.
 *
 * Return: 0, or -EINVAL after the report.
 */
int kfsim_bpf_global_call_enter(const char *subprog);

/**
 * kfsim_bpf_global_call_exit() - a global BPF subprogram entered with
 * kfsim_bpf_global_call_enter() returns
 * @subprog: its name
 *
 * The verifier checks a global function on its own, after the main program: the RCU section,
 * preemption count and lock of its caller are set aside at the entry and given back here, and
 * one the function returns with open is its own exit's error ("BPF_EXIT instruction in main
 * prog cannot be used inside bpf_rcu_read_lock-ed region", ... 6.14+), reported at the end of
 * the run if the run broke no other rule.  kfsim-bpf-cc's runtime calls it at the exit of each
 * global subprogram.
 *
 * Return: 0.
 */
int kfsim_bpf_global_call_exit(const char *subprog);

/** kfsim_bpf_violations_total() - violations reported on this thread, in runs or not. */
unsigned long kfsim_bpf_violations_total(void);

/* ---- The kfunc registry ---- */

#define KF_ACQUIRE (1 << 0)
#define KF_RELEASE (1 << 1)
#define KF_RET_NULL (1 << 2)
#define KF_TRUSTED_ARGS (1 << 4)
#define KF_SLEEPABLE (1 << 5)
#define KF_DESTRUCTIVE (1 << 6)
#define KF_RCU (1 << 7)

/**
 * struct kfsim_bpf_kfunc - one kfunc of the registry (a row of KFSIM_BPF_KFUNC_LIST)
 * @name: kernel name
 * @flags: the kernel's KF_* flags (newest release; see @note for older ones)
 * @since: first kernel version with it (KERNEL_VERSION())
 * @until: first version without it (0: still there); kfsim keeps such a kfunc callable
 * @replacement: for a removed kfunc, what replaced it (NULL otherwise)
 * @doc: one line
 * @note: version notes ("" when none)
 * @kfsim_flags: KFSIM_KF_* (bpf_kfunc_list.h): lock rule, helper, disabled window
 */
struct kfsim_bpf_kfunc {
	const char *name;
	u32 flags;
	unsigned int since;
	unsigned int until;
	const char *replacement;
	const char *doc;
	const char *note;
	u32 kfsim_flags;
};

/** kfsim_bpf_kfuncs() - the registry: *@nr entries, in a fixed order. */
const struct kfsim_bpf_kfunc *kfsim_bpf_kfuncs(size_t *nr);

/** kfsim_bpf_kfunc_find() - the registry entry called @name, or NULL. */
const struct kfsim_bpf_kfunc *kfsim_bpf_kfunc_find(const char *name);

/** kfsim_bpf_kfunc_flags_str() - "KF_ACQUIRE | KF_RET_NULL" for @flags into @buf ("0" if none). */
const char *kfsim_bpf_kfunc_flags_str(u32 flags, char *buf, size_t size);

/* the inline insert (both forms) and the unchecked cores */
#include <kfsim/bpf_graph_core.h>

#pragma GCC visibility pop
#endif /* KFSIM_BPF_EXPERIMENTAL_H */
