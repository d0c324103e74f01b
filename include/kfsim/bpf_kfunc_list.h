/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_KFUNC_LIST_H
#define KFSIM_BPF_KFUNC_LIST_H
/*
 * The one list of the BPF graph kfuncs, like the kernel's BTF_ID_FLAGS() sets in
 * kernel/bpf/helpers.c.  Everything else is generated from it: the declarations of each kfunc and
 * of its unchecked kfsim_nc_* twin (bpf_experimental.h), the call-site macros that record
 * file:line (bpf_kfunc_sites.h, written at build time by src/bpf/CMakeLists.txt), the registry
 * rows and the ids that the common entry path (bpf_enter()) uses to apply the version gate and
 * the lock rule itself.  Adding a kfunc is one row here, with its kernel-doc block right above
 * it, plus its body.  The block is a comment inside the macro (comments end before a directive
 * is read, so its lines need no backslash; the line that closes it carries the macro's).
 *
 * X(name, ret, params, flags, since, until, kfsim_flags, doc, note)
 *   flags:	  the kernel's KF_* flags (as of the newest release; @note says what changed)
 *   since/until: first kernel version with it / first without it (0: still there)
 *   kfsim_flags: KFSIM_KF_LOCK_OK - callable while holding a bpf_spin_lock (the verifier's
 *		  is_bpf_graph_api_kfunc() and bpf_spin_unlock); KFSIM_KF_HELPER - a helper, not a
 *		  kfunc; KFSIM_KF_DISABLED_64 - calls refused in 6.4 and 6.5 ("... calls are disabled
 *		  for now"); KFSIM_KF_NO_SITE - no call-site macro (the name is a convenience macro);
 *		  KFSIM_KF_COMMON - in common_kfunc_set, callable from every program type (the
 *		  other kfuncs are generic_kfunc_set's, which a socket filter, sk_skb, sk_msg, lwt or
 *		  flow dissector program may not call: enum kfsim_bpf_prog_type)
 */

#define KFSIM_KF_LOCK_OK (1u << 0)
#define KFSIM_KF_HELPER (1u << 1)
#define KFSIM_KF_DISABLED_64 (1u << 2)
#define KFSIM_KF_NO_SITE (1u << 3)
#define KFSIM_KF_COMMON (1u << 4)

#define __KV(a, b) (((a) << 16) + ((b) << 8))

/* clang-format off */
#define KFSIM_BPF_KFUNC_LIST(X)									\
/**
 * bpf_obj_new_impl() - allocate an object of a local type (KF_ACQUIRE | KF_RET_NULL)
 * @local_type_id__k: the type id (bpf_core_type_id_local())
 * @meta__ign: ignored (the verifier fills it in the kernel)
 *
 * The object is zeroed, its refcount set to 1, nodes marked as in no collection, and it is
 * charged to the active memory cgroup unless "cgroup.memory=nobpf" was given.  Not callable with a
 * lock held ("function calls are not allowed while holding a lock").
 * Return: an owning reference, or NULL on a refused charge, an allocation failure or a bad id
 * ("bpf_obj_new type ID argument must be of a struct"; 6.6+: "bpf_obj_new/bpf_percpu_obj_new type
 * ID argument must be of a struct").
 */	\
X(bpf_obj_new_impl, void *, (u64 local_type_id__k, void *meta__ign),				\
  KF_ACQUIRE | KF_RET_NULL, __KV(6, 2), 0, 0,							\
  "allocate a zeroed object of a program-local struct (macro bpf_obj_new(type))", "")		\
/**
 * bpf_obj_drop_impl() - release an owning reference (KF_RELEASE)
 * @p__alloc: the object's start (an interior pointer: "R1 must have zero offset ...")
 * @meta__ign: ignored
 *
 * Nested lists and trees are drained and their nodes dropped first; a refcounted object is only
 * freed when its count reaches zero.  Non-owning and stale references are refused
 * ("arg#0 expected pointer to allocated object"), as is a call with a lock held.
 */	\
X(bpf_obj_drop_impl, void, (void *p__alloc, void *meta__ign),					\
  KF_RELEASE, __KV(6, 2), 0, 0,									\
  "free an owned object, draining its nested lists and trees (macro bpf_obj_drop(p))",		\
  "6.4: a refcounted object is only freed when its count reaches zero")				\
/**
 * bpf_refcount_acquire_impl() - take another owning reference to a refcounted object (>= 6.4)
 * @p__refcounted_kptr: an owning or non-owning reference to a type with a bpf_refcount
 * @meta__ign: ignored
 *
 * Return: a new owning reference; NULL (>= 6.5) when the count already dropped to zero.
 */	\
X(bpf_refcount_acquire_impl, void *, (void *p__refcounted_kptr, void *meta__ign),		\
  KF_ACQUIRE | KF_RET_NULL | KF_RCU, __KV(6, 4), 0, KFSIM_KF_LOCK_OK | KFSIM_KF_DISABLED_64,	\
  "take another owning reference to a refcounted object (macro bpf_refcount_acquire(p))",	\
  "6.4 KF_ACQUIRE, calls disabled in 6.4 and 6.5; 6.6 re-enabled, fallible (KF_RET_NULL), KF_RCU") \
/**
 * bpf_list_push_front_impl() - put an owned node first in @head (6.4+ form)
 * @head: the list; its lock must be held
 * @node: the bpf_list_node field of an owning reference of the head's contained type
 * @meta__ign: ignored
 * @off: ignored
 *
 * Return: 0; -EINVAL (>= 6.4) when the node is already in a list (it is dropped).
 */	\
X(bpf_list_push_front_impl, int, (struct bpf_list_head *head, struct bpf_list_node *node,	\
				  void *meta__ign, u64 off),					\
  0, __KV(6, 4), 0, KFSIM_KF_LOCK_OK,								\
  "put an owned node first in a list; -EINVAL (node dropped) if already in one", "")		\
/** bpf_list_push_back_impl() - like bpf_list_push_front_impl(), at the tail. */	\
X(bpf_list_push_back_impl, int, (struct bpf_list_head *head, struct bpf_list_node *node,	\
				 void *meta__ign, u64 off),					\
  0, __KV(6, 4), 0, KFSIM_KF_LOCK_OK,								\
  "put an owned node last in a list; -EINVAL (node dropped) if already in one", "")		\
/** bpf_list_pop_front() - unlink the first node (KF_ACQUIRE | KF_RET_NULL); NULL if empty. */	\
X(bpf_list_pop_front, struct bpf_list_node *, (struct bpf_list_head *head),			\
  KF_ACQUIRE | KF_RET_NULL, __KV(6, 2), 0, KFSIM_KF_LOCK_OK,					\
  "unlink the first node and own it; NULL if empty", "")					\
/** bpf_list_pop_back() - unlink the last node (KF_ACQUIRE | KF_RET_NULL); NULL if empty. */	\
X(bpf_list_pop_back, struct bpf_list_node *, (struct bpf_list_head *head),			\
  KF_ACQUIRE | KF_RET_NULL, __KV(6, 2), 0, KFSIM_KF_LOCK_OK,					\
  "unlink the last node and own it; NULL if empty", "")						\
/** bpf_list_front() - the first node as a non-owning reference, NULL if empty (>= 6.16). */	\
X(bpf_list_front, struct bpf_list_node *, (struct bpf_list_head *head),			\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "the first node as a non-owning reference; NULL if empty", "")				\
/** bpf_list_back() - the last node as a non-owning reference, NULL if empty (>= 6.16). */	\
X(bpf_list_back, struct bpf_list_node *, (struct bpf_list_head *head),				\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "the last node as a non-owning reference; NULL if empty", "")					\
/**
 * bpf_rbtree_add_impl() - insert an owned node, ordered by @less (6.4+ form)
 * @root: the tree; its lock must be held
 * @node: the bpf_rb_node field of an owning reference of the root's contained type
 * @less: less(a, b): a sorts before b; equal keys go right, so inserts are FIFO among equals
 * @meta__ign: ignored
 * @off: ignored (the verifier's node offset)
 *
 * The reference becomes non-owning.  Return: 0; -EINVAL (>= 6.4) when the node is already in a
 * tree, in which case it is dropped (ownership passed either way).  In 6.3 mode always 0.
 */	\
X(bpf_rbtree_add_impl, int, (struct bpf_rb_root *root, struct bpf_rb_node *node,		\
			     bpf_rb_less_t less, void *meta__ign, u64 off),			\
  0, __KV(6, 4), 0, KFSIM_KF_LOCK_OK,								\
  "insert an owned node ordered by less(); -EINVAL (node dropped) if already in a tree", "")	\
/**
 * bpf_rbtree_first() - the leftmost node (KF_RET_NULL); lock held
 *
 * Return: a non-owning reference, NULL when the tree is empty.
 */	\
X(bpf_rbtree_first, struct bpf_rb_node *, (struct bpf_rb_root *root),				\
  KF_RET_NULL, __KV(6, 3), 0, KFSIM_KF_LOCK_OK,							\
  "the leftmost node as a non-owning reference; NULL if empty", "")				\
/**
 * bpf_rbtree_remove() - take @node out of @root (KF_ACQUIRE; KF_RET_NULL >= 6.4)
 * @root: the tree; its lock must be held; not callable inside a less callback
 * @node: a non-owning reference (>= 6.16 also an owning one of a refcounted type)
 *
 * Return: an owning reference to the node; NULL (>= 6.4) when it is not in @root.  In 6.3 mode
 * every non-owning reference dies here.
 */	\
X(bpf_rbtree_remove, struct bpf_rb_node *, (struct bpf_rb_root *root,				\
					    struct bpf_rb_node *node),				\
  KF_ACQUIRE | KF_RET_NULL, __KV(6, 3), 0, KFSIM_KF_LOCK_OK,					\
  "take a node out of the tree and own it",							\
  "6.3 KF_ACQUIRE, never NULL, invalidates non-owning refs; 6.4 NULL if not in a tree; "	\
  "6.6 NULL if in another tree (owner); 6.16 also takes an owning reference")			\
/** bpf_rbtree_root() - the root node as a non-owning reference, NULL if empty (>= 6.16). */	\
X(bpf_rbtree_root, struct bpf_rb_node *, (struct bpf_rb_root *root),				\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "the root node as a non-owning reference; NULL if empty", "")					\
/** bpf_rbtree_left() - @node's left child (non-owning); NULL if none or not in @root (>= 6.16). */	\
X(bpf_rbtree_left, struct bpf_rb_node *, (struct bpf_rb_root *root,				\
					  struct bpf_rb_node *node),				\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "a node's left child as a non-owning reference; NULL if none or not in this tree", "")	\
/** bpf_rbtree_right() - @node's right child (non-owning); NULL if none or not in @root (6.16). */	\
X(bpf_rbtree_right, struct bpf_rb_node *, (struct bpf_rb_root *root,				\
					   struct bpf_rb_node *node),				\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "a node's right child as a non-owning reference; NULL if none or not in this tree", "")	\
/**
 * bpf_spin_lock() - take @lock (spins, then yields, while another thread holds it)
 *
 * One lock at a time per program run: a second call while one is held is refused as every helper
 * call under a lock is ("function calls are not allowed while holding a lock"), also inside a
 * less callback, which runs with the caller's lock held.  The lock must be the bpf_spin_lock
 * member of a section or of an object the program holds ("R1 type=scalar expected=map_value,
 * ptr_", "off N doesn't point to 'struct bpf_spin_lock' that is at M").
 */	\
X(bpf_spin_lock, void, (struct bpf_spin_lock *lock),						\
  0, __KV(5, 1), 0, KFSIM_KF_HELPER,								\
  "take the allocation's lock (a helper, not a kfunc: listed for completeness)", "")		\
/**
 * bpf_spin_unlock() - release @lock, which must be the one held; every non-owning reference dies
 */	\
X(bpf_spin_unlock, void, (struct bpf_spin_lock *lock),						\
  0, __KV(5, 1), 0, KFSIM_KF_HELPER | KFSIM_KF_LOCK_OK,						\
  "release the lock; every non-owning reference dies", "")					\
/**
 * bpf_kptr_xchg() - swap an owned object into a map value's __kptr field (a helper)
 * @map_value: the address of the __kptr field
 * @ptr: an owning reference to an object's start, or NULL to empty the field
 *
 * @ptr's ownership passes to the map.  Refused: a NULL @map_value ("R1 type=scalar
 * expected=map_value"), a @ptr that is not an owning reference to an object's start ("R2 must
 * be referenced when passed to release function").
 * Return: an owning reference to what the field held, or NULL when it was empty.
 */	\
X(bpf_kptr_xchg, void *, (void *map_value, void *ptr),					\
  0, __KV(5, 19), 0, KFSIM_KF_HELPER,								\
  "stash an owned object in a map value's __kptr field and own what was there",		\
  "5.19 helper; local kptrs (bpf_obj_new objects) since 6.4")					\
/**
 * bpf_rcu_read_lock() - enter an RCU read-side section (sleepable programs)
 *
 * Sections do not nest ("nested rcu read lock (kernel function bpf_rcu_read_lock)").
 */	\
X(bpf_rcu_read_lock, void, (void),								\
  0, __KV(6, 2), 0, KFSIM_KF_COMMON,								\
  "enter an RCU read-side section (sleepable programs)", "")					\
/**
 * bpf_rcu_read_unlock() - leave the RCU read-side section
 *
 * Refused without a matching bpf_rcu_read_lock() ("unmatched rcu read unlock (kernel function
 * bpf_rcu_read_unlock)").
 */	\
X(bpf_rcu_read_unlock, void, (void),								\
  0, __KV(6, 2), 0, KFSIM_KF_COMMON,								\
  "leave the RCU read-side section", "")							\
/**
 * bpf_preempt_disable() - disable preemption (6.10); the verifier counts the nesting
 *
 * Not callable with a bpf_spin_lock held.  A global function may not be called while the count
 * is above zero, and the program may not exit with it above zero.
 */	\
X(bpf_preempt_disable, void, (void),								\
  0, __KV(6, 10), 0, KFSIM_KF_COMMON,								\
  "disable preemption; calls nest, each needs its bpf_preempt_enable", "")			\
/**
 * bpf_preempt_enable() - undo one bpf_preempt_disable()
 *
 * Refused without one outstanding ("unmatched attempt to enable preemption (kernel function
 * bpf_preempt_enable)").
 */	\
X(bpf_preempt_enable, void, (void),								\
  0, __KV(6, 10), 0, KFSIM_KF_COMMON,								\
  "re-enable preemption (one bpf_preempt_disable)", "")					\
/**
 * bpf_local_irq_save() - disable interrupts, saving the state into a flag on the stack (6.14)
 * @flags__irq_flag: an unsigned long on the program's stack, not a saved flag already
 *
 * The verifier gives the flag a reference id; saved flags are restored in the reverse order.
 * Not callable with a bpf_spin_lock held; the main program may not exit with a flag saved.
 */	\
X(bpf_local_irq_save, void, (unsigned long *flags__irq_flag),					\
  0, __KV(6, 14), 0, KFSIM_KF_COMMON,								\
  "disable interrupts, the state saved into a flag on the stack", "")			\
/**
 * bpf_local_irq_restore() - restore the state bpf_local_irq_save() saved into @flags__irq_flag
 * @flags__irq_flag: the flag of the most recent save not yet restored
 *
 * Refused: a flag not on the stack ("arg#0 doesn't point to an irq flag on stack"), one no save
 * initialised or that was written since ("expected an initialized irq flag as arg#0"), an older
 * one ("cannot restore irq state out of order, expected id=N acquired at insn_idx=M").
 */	\
X(bpf_local_irq_restore, void, (unsigned long *flags__irq_flag),				\
  0, __KV(6, 14), 0, KFSIM_KF_COMMON,								\
  "restore the interrupt state of the most recent bpf_local_irq_save", "")			\
/**
 * bpf_rbtree_add() - insert an owned node ordered by @less: the 6.3 form, returning nothing
 * @root: the tree; its lock must be held
 * @node: the bpf_rb_node field of an owning reference of the root's contained type
 * @less: as for bpf_rbtree_add_impl()
 *
 * bpf_rbtree_add(), bpf_list_push_front() and bpf_list_push_back() are the 6.2/6.3 insert
 * kfuncs.  6.4 removed them (d2dcc67df910) for the _impl forms.  kfsim keeps them in later modes
 * as a compatibility path (Documentation/bpf/kfuncs.rst describes such a deprecation
 * lifecycle; the KF_DEPRECATED flag proposed for it in 2023 was never merged): the first call in
 * a >= 6.4 mode logs a one-time warning naming the replacement.  Call them with the name in
 * parentheses: (bpf_rbtree_add)(root, node, less).
 */	\
X(bpf_rbtree_add, void, (struct bpf_rb_root *root, struct bpf_rb_node *node,			\
			 bpf_rb_less_t less),							\
  0, __KV(6, 3), __KV(6, 4), KFSIM_KF_LOCK_OK | KFSIM_KF_NO_SITE,				\
  "insert an owned node ordered by less() (6.3 form, returns nothing)",				\
  "removed in 6.4 (d2dcc67df910) for bpf_rbtree_add_impl; kfsim keeps it in later modes")	\
/**
 * bpf_list_push_front() - put an owned node first in @head: the 6.2/6.3 form, returning nothing
 *
 * Removed in 6.4 for bpf_list_push_front_impl(); kept as bpf_rbtree_add() is.
 */	\
X(bpf_list_push_front, void, (struct bpf_list_head *head, struct bpf_list_node *node),	\
  0, __KV(6, 2), __KV(6, 4), KFSIM_KF_LOCK_OK | KFSIM_KF_NO_SITE,				\
  "put an owned node first in a list (6.2/6.3 form, returns nothing)",				\
  "removed in 6.4 (d2dcc67df910) for bpf_list_push_front_impl; kfsim keeps it")			\
/**
 * bpf_list_push_back() - put an owned node last in @head: the 6.2/6.3 form, returning nothing
 *
 * Removed in 6.4 for bpf_list_push_back_impl(); kept as bpf_rbtree_add() is.
 */	\
X(bpf_list_push_back, void, (struct bpf_list_head *head, struct bpf_list_node *node),		\
  0, __KV(6, 2), __KV(6, 4), KFSIM_KF_LOCK_OK | KFSIM_KF_NO_SITE,				\
  "put an owned node last in a list (6.2/6.3 form, returns nothing)",				\
  "removed in 6.4 (d2dcc67df910) for bpf_list_push_back_impl; kfsim keeps it")
/* clang-format on */

/** enum kfsim_bpf_kfunc_id - one id per row of KFSIM_BPF_KFUNC_LIST, in its order. */
enum kfsim_bpf_kfunc_id {
#define __KFSIM_KFUNC_ID(name, ...) KFSIM_KFUNC_##name,
	KFSIM_BPF_KFUNC_LIST(__KFSIM_KFUNC_ID)
#undef __KFSIM_KFUNC_ID
	KFSIM_NR_KFUNCS
};

#endif /* KFSIM_BPF_KFUNC_LIST_H */
