/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_KFUNC_LIST_H
#define KFSIM_BPF_KFUNC_LIST_H
/*
 * The one list of the BPF graph kfuncs, like the kernel's BTF_ID_FLAGS() sets in
 * kernel/bpf/helpers.c.  Everything else is generated from it: the declarations of each kfunc and
 * of its unchecked kfsim_nc_* twin (bpf_experimental.h), the call-site macros that record
 * file:line (bpf_kfunc_sites.h, written at build time by src/bpf/CMakeLists.txt), the registry
 * rows and the ids that the common entry path (bpf_enter()) uses to apply the version gate and
 * the lock rule itself.  Adding a kfunc is one row here plus its body.
 *
 * X(name, ret, params, flags, since, until, kfsim_flags, doc, note)
 *   flags:	  the kernel's KF_* flags (as of the newest release; @note says what changed)
 *   since/until: first kernel version with it / first without it (0: still there)
 *   kfsim_flags: KFSIM_KF_LOCK_OK - callable while holding a bpf_spin_lock (the verifier's
 *		  is_bpf_graph_api_kfunc() and bpf_spin_unlock); KFSIM_KF_HELPER - a helper, not a
 *		  kfunc; KFSIM_KF_DISABLED_64 - calls refused in 6.4 and 6.5 ("... calls are disabled
 *		  for now"); KFSIM_KF_NO_SITE - no call-site macro (the name is a convenience macro)
 */

#define KFSIM_KF_LOCK_OK (1u << 0)
#define KFSIM_KF_HELPER (1u << 1)
#define KFSIM_KF_DISABLED_64 (1u << 2)
#define KFSIM_KF_NO_SITE (1u << 3)

#define __KV(a, b) (((a) << 16) + ((b) << 8))

/* clang-format off */
#define KFSIM_BPF_KFUNC_LIST(X)									\
X(bpf_obj_new_impl, void *, (u64 local_type_id__k, void *meta__ign),				\
  KF_ACQUIRE | KF_RET_NULL, __KV(6, 2), 0, 0,							\
  "allocate a zeroed object of a program-local struct (macro bpf_obj_new(type))", "")		\
X(bpf_obj_drop_impl, void, (void *p__alloc, void *meta__ign),					\
  KF_RELEASE, __KV(6, 2), 0, 0,									\
  "free an owned object, draining its nested lists and trees (macro bpf_obj_drop(p))",		\
  "6.4: a refcounted object is only freed when its count reaches zero")				\
X(bpf_refcount_acquire_impl, void *, (void *p__refcounted_kptr, void *meta__ign),		\
  KF_ACQUIRE | KF_RET_NULL | KF_RCU, __KV(6, 4), 0, KFSIM_KF_LOCK_OK | KFSIM_KF_DISABLED_64,	\
  "take another owning reference to a refcounted object (macro bpf_refcount_acquire(p))",	\
  "6.4 KF_ACQUIRE, calls disabled in 6.4 and 6.5; 6.6 re-enabled, fallible (KF_RET_NULL), KF_RCU") \
X(bpf_list_push_front_impl, int, (struct bpf_list_head *head, struct bpf_list_node *node,	\
				  void *meta__ign, u64 off),					\
  0, __KV(6, 4), 0, KFSIM_KF_LOCK_OK,								\
  "put an owned node first in a list; -EINVAL (node dropped) if already in one", "")		\
X(bpf_list_push_back_impl, int, (struct bpf_list_head *head, struct bpf_list_node *node,	\
				 void *meta__ign, u64 off),					\
  0, __KV(6, 4), 0, KFSIM_KF_LOCK_OK,								\
  "put an owned node last in a list; -EINVAL (node dropped) if already in one", "")		\
X(bpf_list_pop_front, struct bpf_list_node *, (struct bpf_list_head *head),			\
  KF_ACQUIRE | KF_RET_NULL, __KV(6, 2), 0, KFSIM_KF_LOCK_OK,					\
  "unlink the first node and own it; NULL if empty", "")					\
X(bpf_list_pop_back, struct bpf_list_node *, (struct bpf_list_head *head),			\
  KF_ACQUIRE | KF_RET_NULL, __KV(6, 2), 0, KFSIM_KF_LOCK_OK,					\
  "unlink the last node and own it; NULL if empty", "")						\
X(bpf_list_front, struct bpf_list_node *, (struct bpf_list_head *head),			\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "the first node as a non-owning reference; NULL if empty", "")				\
X(bpf_list_back, struct bpf_list_node *, (struct bpf_list_head *head),				\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "the last node as a non-owning reference; NULL if empty", "")					\
X(bpf_rbtree_add_impl, int, (struct bpf_rb_root *root, struct bpf_rb_node *node,		\
			     bpf_rb_less_t less, void *meta__ign, u64 off),			\
  0, __KV(6, 4), 0, KFSIM_KF_LOCK_OK,								\
  "insert an owned node ordered by less(); -EINVAL (node dropped) if already in a tree", "")	\
X(bpf_rbtree_first, struct bpf_rb_node *, (struct bpf_rb_root *root),				\
  KF_RET_NULL, __KV(6, 3), 0, KFSIM_KF_LOCK_OK,							\
  "the leftmost node as a non-owning reference; NULL if empty", "")				\
X(bpf_rbtree_remove, struct bpf_rb_node *, (struct bpf_rb_root *root,				\
					    struct bpf_rb_node *node),				\
  KF_ACQUIRE | KF_RET_NULL, __KV(6, 3), 0, KFSIM_KF_LOCK_OK,					\
  "take a node out of the tree and own it",							\
  "6.3 KF_ACQUIRE, never NULL, invalidates non-owning refs; 6.4 NULL if not in a tree; "	\
  "6.6 NULL if in another tree (owner); 6.16 also takes an owning reference")			\
X(bpf_rbtree_root, struct bpf_rb_node *, (struct bpf_rb_root *root),				\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "the root node as a non-owning reference; NULL if empty", "")					\
X(bpf_rbtree_left, struct bpf_rb_node *, (struct bpf_rb_root *root,				\
					  struct bpf_rb_node *node),				\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "a node's left child as a non-owning reference; NULL if none or not in this tree", "")	\
X(bpf_rbtree_right, struct bpf_rb_node *, (struct bpf_rb_root *root,				\
					   struct bpf_rb_node *node),				\
  KF_RET_NULL, __KV(6, 16), 0, KFSIM_KF_LOCK_OK,						\
  "a node's right child as a non-owning reference; NULL if none or not in this tree", "")	\
X(bpf_spin_lock, void, (struct bpf_spin_lock *lock),						\
  0, __KV(5, 1), 0, KFSIM_KF_HELPER,								\
  "take the allocation's lock (a helper, not a kfunc: listed for completeness)", "")		\
X(bpf_spin_unlock, void, (struct bpf_spin_lock *lock),						\
  0, __KV(5, 1), 0, KFSIM_KF_HELPER | KFSIM_KF_LOCK_OK,						\
  "release the lock; every non-owning reference dies", "")					\
X(bpf_kptr_xchg, void *, (void *map_value, void *ptr),					\
  0, __KV(5, 19), 0, KFSIM_KF_HELPER,								\
  "stash an owned object in a map value's __kptr field and own what was there",		\
  "5.19 helper; local kptrs (bpf_obj_new objects) since 6.4")					\
X(bpf_rcu_read_lock, void, (void),								\
  0, __KV(6, 2), 0, 0,										\
  "enter an RCU read-side section (sleepable programs)", "")					\
X(bpf_rcu_read_unlock, void, (void),								\
  0, __KV(6, 2), 0, 0,										\
  "leave the RCU read-side section", "")							\
X(bpf_rbtree_add, void, (struct bpf_rb_root *root, struct bpf_rb_node *node,			\
			 bpf_rb_less_t less),							\
  0, __KV(6, 3), __KV(6, 4), KFSIM_KF_LOCK_OK | KFSIM_KF_NO_SITE,				\
  "insert an owned node ordered by less() (6.3 form, returns nothing)",				\
  "removed in 6.4 (d2dcc67df910) for bpf_rbtree_add_impl; kfsim keeps it in later modes")	\
X(bpf_list_push_front, void, (struct bpf_list_head *head, struct bpf_list_node *node),	\
  0, __KV(6, 2), __KV(6, 4), KFSIM_KF_LOCK_OK | KFSIM_KF_NO_SITE,				\
  "put an owned node first in a list (6.2/6.3 form, returns nothing)",				\
  "removed in 6.4 (d2dcc67df910) for bpf_list_push_front_impl; kfsim keeps it")			\
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
