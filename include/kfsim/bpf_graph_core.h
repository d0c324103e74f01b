/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_GRAPH_CORE_H
#define KFSIM_BPF_GRAPH_CORE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */
/*
 * What the bpf_rbtree kfuncs and bpf_spin_lock do at run time in the kernel, with no verifier
 * checks, as inline functions over the kernel views of the opaque types.  kfsim's checked kfuncs
 * call them once their checks pass; programs built with KFSIM_BPF_NO_CHECKS call them directly,
 * so that a constant less() can be inlined into the descent, as rb_add_cached() allows.
 *
 * Invariants (shared with src/bpf/): a node's owner is NULL when it is in no tree,
 * BPF_PTR_POISON while it is being inserted, and its root while in it; it changes only under the
 * root's lock.  A root is exactly the kernel's rb_root_cached: a zeroed root is an empty tree.
 */
#include <sched.h>
#include <kfsim/bpf_experimental.h>
#include <kfsim/err.h>
#include <kfsim/rbtree.h>

/* BPF_PTR_POISON: "node being inserted" (include/linux/poison.h value, without the delta). */
#define BPF_PTR_POISON ((void *)0xeB9FUL)

/*
 * The kernel views alias the opaque uapi types they overlay (may_alias: the kernel builds with
 * -fno-strict-aliasing; kfsim's users may not).
 */

/** struct bpf_rb_root_kern - the kernel's view of struct bpf_rb_root */
struct __attribute__((may_alias)) bpf_rb_root_kern {
	struct rb_root_cached tree;
};

/** struct bpf_rb_node_kern - the kernel's view of struct bpf_rb_node (>= 6.6 layout) */
struct __attribute__((may_alias)) bpf_rb_node_kern {
	struct rb_node rb;
	void *owner;
};

/*
 * The kernel's own check (kernel/bpf/helpers.c, 6.12: BUILD_BUG_ON in bpf_rbtree_*): the kernel
 * view fits in the opaque uapi type and needs no stricter alignment.  Equal on 64-bit hosts; on
 * a 32-bit host (wasm32) the pointers are smaller and the uapi type keeps its fixed size.
 */
_Static_assert(sizeof(struct bpf_rb_root_kern) <= sizeof(struct bpf_rb_root), "rb root");
_Static_assert(__alignof__(struct bpf_rb_root_kern) <= __alignof__(struct bpf_rb_root), "rb root");
_Static_assert(sizeof(struct bpf_rb_node_kern) <= sizeof(struct bpf_rb_node), "rb node");

/** kfsim_bpf_raw_lock() - the lock word as a test-and-set lock, yielding while contended. */
static inline void kfsim_bpf_raw_lock(struct bpf_spin_lock *lock)
{
	unsigned int spins = 0;

	while (__atomic_exchange_n(&lock->val, 1, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&lock->val, __ATOMIC_RELAXED))
			if (++spins % 64 == 0)
				sched_yield(); /* small machines: let the holder run */
	}
}

/** kfsim_bpf_raw_unlock() - release the lock word. */
static inline void kfsim_bpf_raw_unlock(struct bpf_spin_lock *lock)
{
	__atomic_store_n(&lock->val, 0, __ATOMIC_RELEASE);
}

/*
 * Claim a node for insertion: owner NULL -> BPF_PTR_POISON; false when it is already owned.
 * A cmpxchg, as the kernel's (>= 6.6): a refcounted node can be reached by two inserters under
 * different locks at once.
 */
static inline bool kfsim_bpf_owner_claim(void **owner)
{
	void *expected = NULL;

	return __atomic_compare_exchange_n(owner, &expected, BPF_PTR_POISON, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/**
 * kfsim_bpf_rbtree_add_core() - __bpf_rbtree_add(): claim, descend with less(new, parent)
 * (true: left; so equal keys go right, FIFO), link, recolour, publish the owner
 *
 * Return: 0, or -EINVAL when the node is already in a tree (the caller drops it).
 */
static __always_inline int kfsim_bpf_rbtree_add_core(struct bpf_rb_root *root,
						     struct bpf_rb_node *node, bpf_rb_less_t less)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct rb_node **link = &r->tree.rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	if (!kfsim_bpf_owner_claim(&n->owner))
		return -EINVAL;
	while (*link) {
		parent = *link;
		if (less((struct bpf_rb_node *)&n->rb, (const struct bpf_rb_node *)parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&n->rb, parent, link);
	rb_insert_color_cached(&n->rb, &r->tree, leftmost);
	__atomic_store_n(&n->owner, r, __ATOMIC_RELEASE);
	return 0;
}

/** kfsim_bpf_rbtree_first_core() - rb_first_cached(): the leftmost node, NULL if empty. */
static inline struct bpf_rb_node *kfsim_bpf_rbtree_first_core(struct bpf_rb_root *root)
{
	return (struct bpf_rb_node *)rb_first_cached(&((struct bpf_rb_root_kern *)root)->tree);
}

/**
 * kfsim_bpf_rbtree_remove_core() - erase @node from @root if it is in @root
 *
 * Return: @node, or NULL when it is not in @root (the 6.6 owner check).
 */
static inline struct bpf_rb_node *kfsim_bpf_rbtree_remove_core(struct bpf_rb_root *root,
							       struct bpf_rb_node *node)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;

	if (n->owner != r)
		return NULL;
	rb_erase_cached(&n->rb, &r->tree);
	RB_CLEAR_NODE(&n->rb);
	__atomic_store_n(&n->owner, NULL, __ATOMIC_RELEASE);
	return node;
}

/*
 * The failed insert's drop, out of line as in the kernel: the object is found from the root's
 * declaration in kfsim's allocation registry (the kernel's verifier passes it as meta and off).
 */
void kfsim_nc_rbtree_add_failed(struct bpf_rb_root *root, struct bpf_rb_node *node);

/* The KFSIM_BPF_NO_CHECKS form of bpf_rbtree_add(): the inline core. */
static __always_inline int kfsim_nc_rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node,
					       bpf_rb_less_t less)
{
	if (likely(!kfsim_bpf_rbtree_add_core(root, node, less)))
		return 0;
	kfsim_nc_rbtree_add_failed(root, node);
	return -EINVAL;
}

/**
 * struct kfsim_bpf_add_ctx - what the checked insert carries from its begin to its end
 * @ref: the owning reference being inserted (kfsim's)
 * @kfunc: the kfunc name the insert is judged as
 * @order: check that less() is a strict weak order (run option check_less_order)
 * @less: the callback, which names the leak a repeat reports once
 * @ids: the verifier's id counter when less() last returned without a leak (or at the start):
 *	references above it were acquired in less()
 */
struct kfsim_bpf_add_ctx {
	void *ref;
	const char *kfunc;
	bool order;
	bpf_rb_less_t less;
	unsigned int ids;
};

/*
 * The checked insert, in three steps (src/bpf/bpf_rbtree.c): begin returns 1 to go on with the
 * descent, or the insert's return value when it was refused or failed (everything reported
 * and undone); end links the node.  kfsim_bpf_less_checked() is less() with the order check.
 */
int kfsim_bpf_rbtree_add_begin(struct bpf_rb_root *root, struct bpf_rb_node *node,
			       bpf_rb_less_t less, struct kfsim_bpf_add_ctx *ctx);
void kfsim_bpf_rbtree_add_end(struct bpf_rb_root *root, struct bpf_rb_node *node,
			      struct kfsim_bpf_add_ctx *ctx, struct rb_node *parent,
			      struct rb_node **link, bool leftmost);
bool kfsim_bpf_less_checked(bpf_rb_less_t less, struct bpf_rb_node *a, const struct bpf_rb_node *b);
void kfsim_bpf_less_leaked(struct kfsim_bpf_add_ctx *ctx);
/* Nonzero once a reference was acquired inside less() (set by the acquiring kfunc). */
extern __thread unsigned int kfsim_bpf_less_acquired __attribute__((tls_model("initial-exec")));

/*
 * less() returned: the verifier checks a callback's references at its BPF_EXIT, so a reference
 * less() acquired and still holds is reported here (out of line, only after an acquisition).
 */
static __always_inline void kfsim_bpf_less_returned(struct kfsim_bpf_add_ctx *ctx)
{
	if (__builtin_expect(kfsim_bpf_less_acquired, 0))
		kfsim_bpf_less_leaked(ctx);
}

/*
 * The descent of the checked insert down to its link, with less() checked for order when
 * @order; a constant @order makes two loops, so the usual one tests nothing else per level.
 */
static __always_inline struct rb_node **kfsim_ck_rbtree_descend(struct bpf_rb_root_kern *r,
								struct bpf_rb_node_kern *n,
								bpf_rb_less_t less, bool order,
								struct kfsim_bpf_add_ctx *ctx,
								struct rb_node **parent,
								bool *leftmost)
{
	struct rb_node **link = &r->tree.rb_root.rb_node;
	bool left;

	while (*link) {
		*parent = *link;
		if (order)
			left = kfsim_bpf_less_checked(less, (struct bpf_rb_node *)&n->rb,
						      (const struct bpf_rb_node *)*parent);
		else
			left = less((struct bpf_rb_node *)&n->rb,
				    (const struct bpf_rb_node *)*parent);
		kfsim_bpf_less_returned(ctx);
		if (left) {
			link = &(*parent)->rb_left;
		} else {
			link = &(*parent)->rb_right;
			*leftmost = false;
		}
	}
	return link;
}

/*
 * The checked bpf_rbtree_add() of the convenience macro: the kfunc's checks and bookkeeping out
 * of line, the descent inline, so that a constant less() is a direct (inlinable) call.
 */
static __always_inline int kfsim_ck_rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node,
					       bpf_rb_less_t less)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct bpf_rb_node_kern *n = (struct bpf_rb_node_kern *)node;
	struct rb_node **link, *parent = NULL;
	struct kfsim_bpf_add_ctx ctx;
	bool leftmost = true;
	int ret = kfsim_bpf_rbtree_add_begin(root, node, less, &ctx);

	if (ret != 1)
		return ret;
	if (unlikely(ctx.order))
		link = kfsim_ck_rbtree_descend(r, n, less, true, &ctx, &parent, &leftmost);
	else
		link = kfsim_ck_rbtree_descend(r, n, less, false, &ctx, &parent, &leftmost);
	kfsim_bpf_rbtree_add_end(root, node, &ctx, parent, link, leftmost);
	return 0;
}

#pragma GCC visibility pop
#endif /* KFSIM_BPF_GRAPH_CORE_H */
