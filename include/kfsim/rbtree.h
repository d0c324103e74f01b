/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_RBTREE_H
#define KFSIM_RBTREE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The kernel's red-black tree (include/linux/rbtree.h, rbtree_types.h, lib/rbtree.c; names,
 * types and semantics of Linux 6.3, with the later rb_find_rcu()/rb_find_add_rcu() of 6.12 and
 * rb_find_add_cached() of 6.14).
 *
 * The tree is intrusive: struct rb_node lives inside the caller's structure, the caller descends
 * the tree itself (or through rb_add()/rb_find() and friends with a comparison callback), links
 * the new node with rb_link_node() and then calls rb_insert_color() to rebalance.  No function
 * here allocates memory or takes a lock: serialise writers yourself.
 *
 * Invariants of a tree (the five red-black properties, as kept by rb_insert_color()/rb_erase()):
 *   1. every node is red or black;
 *   2. the root is black;
 *   3. the NULL leaves count as black;
 *   4. a red node has no red child;
 *   5. every path from a node down to a NULL leaf has the same number of black nodes.
 * Together they bound the height by 2 * log2(n + 1).  In addition every node's parent pointer
 * names the node whose rb_left/rb_right points at it, and the root's parent is NULL.
 *
 * A node's parent pointer and colour share one word, __rb_parent_color: nodes are aligned to
 * sizeof(long), so bit 0 of the parent's address is free and holds the colour (RB_RED 0,
 * RB_BLACK 1); bit 1 is always zero.  struct rb_node is therefore three words, 24 bytes on 64-bit.
 *
 * struct rb_root_cached additionally caches the leftmost node (rb_leftmost) so that
 * rb_first_cached() is O(1): the cache is kept by the *_cached functions only, so every change
 * to such a tree must go through them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/kernel.h>

/**
 * struct rb_node - a node embedded in the caller's structure
 * @__rb_parent_color: parent pointer, with the colour in bit 0 (use rb_parent())
 * @rb_right: right child (keys >= this node's) or NULL
 * @rb_left: left child (keys < this node's) or NULL
 */
struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

/** struct rb_root - a tree: the root node, NULL when empty */
struct rb_root {
	struct rb_node *rb_node;
};

/**
 * struct rb_root_cached - a tree that also remembers its leftmost node
 * @rb_root: the tree
 * @rb_leftmost: the first node in order, or NULL when empty
 */
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_RED 0
#define RB_BLACK 1

/** RB_ROOT - initialiser of an empty struct rb_root */
#define RB_ROOT ((struct rb_root){NULL})
/** RB_ROOT_CACHED - initialiser of an empty struct rb_root_cached */
#define RB_ROOT_CACHED ((struct rb_root_cached){{NULL}, NULL})

/** rb_parent() - the parent of @r (the colour bit masked off); NULL for the root */
#define rb_parent(r) ((struct rb_node *)((r)->__rb_parent_color & ~3UL))

/** rb_entry() - the structure of type @type containing the rb_node @ptr as @member */
#define rb_entry(ptr, type, member) container_of(ptr, type, member)

/** rb_entry_safe() - rb_entry() that maps a NULL @ptr to NULL */
#define rb_entry_safe(ptr, type, member)                                                           \
	({                                                                                         \
		__typeof__(ptr) ____ptr = (ptr);                                                   \
		____ptr ? rb_entry(____ptr, type, member) : NULL;                                  \
	})

/** RB_EMPTY_ROOT() - whether the tree @root has no nodes */
#define RB_EMPTY_ROOT(root) (READ_ONCE((root)->rb_node) == NULL)

/**
 * RB_EMPTY_NODE() - whether @node was marked "in no tree" by RB_CLEAR_NODE()
 *
 * A cleared node points to itself as its parent, a value no node in a tree can have.
 * rb_erase() does not clear the node: call RB_CLEAR_NODE() after it when you test this.
 */
#define RB_EMPTY_NODE(node) ((node)->__rb_parent_color == (unsigned long)(node))
/** RB_CLEAR_NODE() - mark @node as in no tree (see RB_EMPTY_NODE()) */
#define RB_CLEAR_NODE(node) ((node)->__rb_parent_color = (unsigned long)(node))

/**
 * rb_insert_color() - rebalance after rb_link_node() put @node in @root
 * @node: the new node, linked as a red leaf by rb_link_node()
 * @root: the tree
 *
 * Restores the red-black properties with recolourings and at most two rotations.
 */
void rb_insert_color(struct rb_node *node, struct rb_root *root);

/**
 * rb_erase() - remove @node from @root and rebalance
 *
 * At most three rotations.  @node's own fields are left as they were (not cleared): use
 * RB_CLEAR_NODE() if you later test RB_EMPTY_NODE().  @node must be in @root.
 */
void rb_erase(struct rb_node *node, struct rb_root *root);

/*
 * In-order navigation: rb_first(), rb_last(), rb_next(), rb_prev().
 *
 * Each is an exported out-of-line function, as in the kernel (so that taking its address,
 * calling it as (rb_next)(node), or linking against the symbol keeps working), and a
 * function-like macro of the same name that expands to the static inline body below.  A call
 * written rb_next(node) is therefore inlined into the caller, with no call and return per node
 * of a walk (sys/tree.h's RB_NEXT is likewise generated into the caller); `&rb_next` and
 * `rb_next` without an argument list are not macro calls and name the exported function.  Both give the same result
 * for every node: the exported functions are the inline bodies.
 */

/** rb_first() - the first node of @root in order (the leftmost), NULL when empty; O(log n) */
struct rb_node *rb_first(const struct rb_root *root);
/** rb_last() - the last node of @root in order (the rightmost), NULL when empty; O(log n) */
struct rb_node *rb_last(const struct rb_root *root);

/**
 * rb_next() - the in-order successor of @node
 *
 * Return: the next node, or NULL after the last node or when @node is RB_EMPTY_NODE().
 * Amortised O(1) over a whole walk.
 */
struct rb_node *rb_next(const struct rb_node *node);
/** rb_prev() - the in-order predecessor of @node; NULL before the first or for an empty node */
struct rb_node *rb_prev(const struct rb_node *node);

/** __rb_first_inline() - rb_first() expanded in the caller */
static __always_inline struct rb_node *__rb_first_inline(const struct rb_root *root)
{
	struct rb_node *node = root->rb_node;

	if (!node)
		return NULL;
	while (node->rb_left)
		node = node->rb_left;
	return node;
}

/** __rb_last_inline() - rb_last() expanded in the caller */
static __always_inline struct rb_node *__rb_last_inline(const struct rb_root *root)
{
	struct rb_node *node = root->rb_node;

	if (!node)
		return NULL;
	while (node->rb_right)
		node = node->rb_right;
	return node;
}

/*
 * The successor/predecessor loops below advance two levels per iteration with the two cursors
 * swapping roles, instead of one level followed by "node = next": the compiled loop then needs
 * no register copy per level (a load, a test and a branch going down; a load, a mask and two
 * tests going up).  Under callgrind that is 17.3 instructions per node of a walk against 18.0 to
 * 18.3 with one-level loops (bench_rbtree --callgrind, gcc 12 -O2).
 */

/**
 * __rb_parent_of() - the parent address held in the parent/colour word @pc, for the climbs
 *
 * The empty asm makes the masked value opaque: otherwise GCC rewrites "(pc & ~3) == NULL" as
 * "pc <= 3" and keeps both pc and a masked copy alive, one more instruction per level climbed.
 */
static __always_inline const struct rb_node *__rb_parent_of(unsigned long pc)
{
	pc &= ~3UL;
	__asm__("" : "+r"(pc));
	return (const struct rb_node *)pc;
}

/**
 * __rb_next_inline() - rb_next() expanded in the caller
 *
 * With a right subtree, the successor is that subtree's leftmost node.  Otherwise climb while
 * the node is a right child (those ancestors sort before it): the first ancestor reached from
 * its left side is the successor, NULL past the root.  An RB_EMPTY_NODE() has no successor; the
 * parent word loaded for that test is the first step of the climb.
 */
static __always_inline struct rb_node *__rb_next_inline(const struct rb_node *node)
{
	unsigned long pc = node->__rb_parent_color;
	const struct rb_node *a, *b;

	if (unlikely(pc == (unsigned long)node))
		return NULL;

	a = node->rb_right;
	if (a) {
		for (;;) {
			b = a->rb_left;
			if (!b)
				return (struct rb_node *)a;
			a = b->rb_left;
			if (!a)
				return (struct rb_node *)b;
		}
	}

	for (b = node;;) {
		a = __rb_parent_of(pc);
		if (!a || a->rb_right != b)
			return (struct rb_node *)a;
		pc = a->__rb_parent_color;
		b = __rb_parent_of(pc);
		if (!b || b->rb_right != a)
			return (struct rb_node *)b;
		pc = b->__rb_parent_color;
	}
}

/** __rb_prev_inline() - rb_prev() expanded in the caller; the mirror of __rb_next_inline() */
static __always_inline struct rb_node *__rb_prev_inline(const struct rb_node *node)
{
	unsigned long pc = node->__rb_parent_color;
	const struct rb_node *a, *b;

	if (unlikely(pc == (unsigned long)node))
		return NULL;

	a = node->rb_left;
	if (a) {
		for (;;) {
			b = a->rb_right;
			if (!b)
				return (struct rb_node *)a;
			a = b->rb_right;
			if (!a)
				return (struct rb_node *)b;
		}
	}

	for (b = node;;) {
		a = __rb_parent_of(pc);
		if (!a || a->rb_left != b)
			return (struct rb_node *)a;
		pc = a->__rb_parent_color;
		b = __rb_parent_of(pc);
		if (!b || b->rb_left != a)
			return (struct rb_node *)b;
		pc = b->__rb_parent_color;
	}
}

#define rb_first(root) __rb_first_inline(root)
#define rb_last(root) __rb_last_inline(root)
#define rb_next(node) __rb_next_inline(node)
#define rb_prev(node) __rb_prev_inline(node)

/**
 * rb_first_postorder() - the first node of a post-order walk of @root (children before parent)
 *
 * Return: the deepest leftmost node, or NULL for an empty tree.
 */
struct rb_node *rb_first_postorder(const struct rb_root *root);
/**
 * rb_next_postorder() - the node after @node in post order
 *
 * Only reads @node's parent, so the caller may free @node after fetching its successor (the
 * walk destroys the tree without rebalancing).  Return: NULL after the root or for NULL.
 */
struct rb_node *rb_next_postorder(const struct rb_node *node);

/**
 * rb_replace_node() - put @new in @victim's place in @root
 *
 * No rebalancing and no key comparison: @new must sort where @victim did.  @victim's fields are
 * left unchanged.
 */
void rb_replace_node(struct rb_node *victim, struct rb_node *new, struct rb_root *root);

/**
 * rb_replace_node_rcu() - rb_replace_node() that publishes @new with a release store
 *
 * Readers that descend without the writer's lock (RCU in the kernel) see either @victim or a
 * fully initialised @new.
 */
void rb_replace_node_rcu(struct rb_node *victim, struct rb_node *new, struct rb_root *root);

/**
 * rbtree_postorder_for_each_entry_safe() - post-order walk over the entries of @root
 * @pos: the entry (type *) of the current node
 * @n: another type * holding the next entry, so that @pos may be freed in the body
 * @root: the struct rb_root *
 * @field: the name of the rb_node within the entry type
 *
 * Freeing @pos is safe; rb_erase() of @pos is not (it rebalances and moves other nodes).
 */
#define rbtree_postorder_for_each_entry_safe(pos, n, root, field)                                  \
	for (pos = rb_entry_safe(rb_first_postorder(root), __typeof__(*pos), field);               \
	     pos && ({                                                                             \
		     n = rb_entry_safe(rb_next_postorder(&pos->field), __typeof__(*pos), field);   \
		     1;                                                                            \
	     });                                                                                   \
	     pos = n)

/**
 * rb_link_node() - attach @node as a red leaf at @rb_link below @parent
 * @node: the new node
 * @parent: the node whose child slot @rb_link is, or NULL for an empty tree
 * @rb_link: &parent->rb_left, &parent->rb_right, or &root->rb_node
 *
 * Only links: follow with rb_insert_color() (or the _cached/augmented variant).
 */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = node->rb_right = NULL;
	*rb_link = node;
}

/** rb_link_node_rcu() - rb_link_node() that publishes @node with a release store */
static inline void rb_link_node_rcu(struct rb_node *node, struct rb_node *parent,
				    struct rb_node **rb_link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = node->rb_right = NULL;
	__atomic_store_n(rb_link, node, __ATOMIC_RELEASE);
}

/** rb_first_cached() - the leftmost node of the rb_root_cached @root, O(1) */
#define rb_first_cached(root) ((root)->rb_leftmost)

/**
 * rb_insert_color_cached() - rb_insert_color() for a tree with a leftmost cache
 * @leftmost: @node was linked as the new leftmost (the descent never went right)
 */
static inline void rb_insert_color_cached(struct rb_node *node, struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

/**
 * rb_erase_cached() - rb_erase() for a tree with a leftmost cache
 *
 * Return: the new leftmost node when @node was the leftmost (NULL if the tree became empty),
 * otherwise NULL.
 */
static inline struct rb_node *rb_erase_cached(struct rb_node *node, struct rb_root_cached *root)
{
	struct rb_node *leftmost = NULL;

	if (root->rb_leftmost == node)
		leftmost = root->rb_leftmost = rb_next(node);
	rb_erase(node, &root->rb_root);
	return leftmost;
}

/** rb_replace_node_cached() - rb_replace_node() that also moves the leftmost cache */
static inline void rb_replace_node_cached(struct rb_node *victim, struct rb_node *new,
					  struct rb_root_cached *root)
{
	if (root->rb_leftmost == victim)
		root->rb_leftmost = new;
	rb_replace_node(victim, new, &root->rb_root);
}

/*
 * The helpers below descend with a callback.  The two callback kinds agree as follows:
 *   cmp(a->key, b) < 0  :=  less(a, b)
 *   cmp(a->key, b) > 0  :=  less(b, a)
 *   cmp(a->key, b) == 0 :=  !less(a, b) && !less(b, a)
 * Equal keys are allowed: rb_add() puts a new node after its equals (insertion is stable), and
 * rb_find() returns any one of them.  With a callback that is not a total order no promise is
 * made about which equal node is found.
 */

/**
 * rb_add_cached() - insert @node into the leftmost-cached tree @tree
 * @less: whether the first node sorts before the second
 *
 * Return: @node when it became the leftmost node, otherwise NULL.
 */
static __always_inline struct rb_node *
rb_add_cached(struct rb_node *node, struct rb_root_cached *tree,
	      bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color_cached(node, tree, leftmost);
	return leftmost ? node : NULL;
}

/** rb_add() - insert @node into @tree, after any nodes that compare equal */
static __always_inline void rb_add(struct rb_node *node, struct rb_root *tree,
				   bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node;
	struct rb_node *parent = NULL;

	while (*link) {
		parent = *link;
		if (less(node, parent))
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
}

/**
 * rb_find_add_cached() - insert @node into @tree unless an equal node is there (Linux 6.14)
 * @cmp: compares the new node with an existing one (<0, 0, >0)
 *
 * Return: the existing equal node (and @node is not inserted), or NULL after inserting @node.
 */
static __always_inline struct rb_node *
rb_find_add_cached(struct rb_node *node, struct rb_root_cached *tree,
		   int (*cmp)(const struct rb_node *new, const struct rb_node *exist))
{
	struct rb_node **link = &tree->rb_root.rb_node;
	struct rb_node *parent = NULL;
	bool leftmost = true;
	int c;

	while (*link) {
		parent = *link;
		c = cmp(node, parent);
		if (c < 0) {
			link = &parent->rb_left;
		} else if (c > 0) {
			link = &parent->rb_right;
			leftmost = false;
		} else {
			return parent;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color_cached(node, tree, leftmost);
	return NULL;
}

/*
 * The descent rb_find_add() and rb_find_add_rcu() share: the equal node, or NULL with *@parent
 * and *@link set to where @node belongs.
 */
static __always_inline struct rb_node *
__rb_find_add_slot(struct rb_node *node, struct rb_root *tree,
		   int (*cmp)(struct rb_node *, const struct rb_node *), struct rb_node **parent,
		   struct rb_node ***link)
{
	int c;

	*link = &tree->rb_node;
	*parent = NULL;
	while (**link) {
		*parent = **link;
		c = cmp(node, *parent);
		if (c < 0)
			*link = &(*parent)->rb_left;
		else if (c > 0)
			*link = &(*parent)->rb_right;
		else
			return *parent;
	}
	return NULL;
}

/**
 * rb_find_add() - insert @node into @tree unless an equal node is there
 * @cmp: compares @node with a node of the tree (<0, 0, >0)
 *
 * Return: the existing equal node (and @node is not inserted), or NULL after inserting @node.
 */
static __always_inline struct rb_node *rb_find_add(struct rb_node *node, struct rb_root *tree,
						   int (*cmp)(struct rb_node *,
							      const struct rb_node *))
{
	struct rb_node **link, *parent, *match;

	match = __rb_find_add_slot(node, tree, cmp, &parent, &link);
	if (match)
		return match;
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
	return NULL;
}

/**
 * rb_find_add_rcu() - rb_find_add() that links @node with a release store (Linux 6.12)
 *
 * For trees read without the writer's lock under a sequence count: a reader that raced with a
 * writer may miss a node ("tree descent vs concurrent tree rotations is unsound and can result
 * in false-negatives", as the kernel says), so it must retry when the count moved.
 *
 * Return: the existing equal node (and @node is not inserted), or NULL after inserting @node.
 */
static __always_inline struct rb_node *rb_find_add_rcu(struct rb_node *node, struct rb_root *tree,
						       int (*cmp)(struct rb_node *,
								  const struct rb_node *))
{
	struct rb_node **link, *parent, *match;

	match = __rb_find_add_slot(node, tree, cmp, &parent, &link);
	if (match)
		return match;
	rb_link_node_rcu(node, parent, link);
	rb_insert_color(node, tree);
	return NULL;
}

/**
 * rb_find_rcu() - rb_find() for a lockless reader (Linux 6.12)
 *
 * Loads each child pointer with acquire semantics, pairing with rb_link_node_rcu().  May miss a
 * node while a writer rotates the tree: see rb_find_add_rcu().
 *
 * Return: one matching node, or NULL.
 */
static __always_inline struct rb_node *rb_find_rcu(const void *key, const struct rb_root *tree,
						   int (*cmp)(const void *key,
							      const struct rb_node *))
{
	struct rb_node *node = __atomic_load_n(&tree->rb_node, __ATOMIC_ACQUIRE);

	while (node) {
		int c = cmp(key, node);

		if (c < 0)
			node = __atomic_load_n(&node->rb_left, __ATOMIC_ACQUIRE);
		else if (c > 0)
			node = __atomic_load_n(&node->rb_right, __ATOMIC_ACQUIRE);
		else
			return node;
	}
	return NULL;
}

/**
 * rb_find() - a node of @tree equal to @key
 * @cmp: compares @key with a node (<0: key sorts before the node)
 *
 * Return: one matching node (which of several equals is unspecified), or NULL.
 */
static __always_inline struct rb_node *rb_find(const void *key, const struct rb_root *tree,
					       int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *node = tree->rb_node;

	while (node) {
		int c = cmp(key, node);

		if (c < 0)
			node = node->rb_left;
		else if (c > 0)
			node = node->rb_right;
		else
			return node;
	}
	return NULL;
}

/**
 * rb_find_first() - the leftmost node of @tree equal to @key
 *
 * Return: the first matching node in order, or NULL.
 */
static __always_inline struct rb_node *rb_find_first(const void *key, const struct rb_root *tree,
						     int (*cmp)(const void *key,
								const struct rb_node *))
{
	struct rb_node *node = tree->rb_node;
	struct rb_node *match = NULL;

	while (node) {
		int c = cmp(key, node);

		if (c <= 0) {
			if (!c)
				match = node; /* keep looking left for an earlier equal */
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return match;
}

/**
 * rb_next_match() - the next node after @node if it still equals @key
 *
 * Return: rb_next(@node) when it compares equal to @key, otherwise NULL.
 */
static __always_inline struct rb_node *rb_next_match(const void *key, struct rb_node *node,
						     int (*cmp)(const void *key,
								const struct rb_node *))
{
	node = rb_next(node);
	if (node && cmp(key, node))
		node = NULL;
	return node;
}

/**
 * rb_for_each() - iterate over every node of @tree equal to @key, in order
 * @node: the struct rb_node * cursor
 */
#define rb_for_each(node, key, tree, cmp)                                                          \
	for ((node) = rb_find_first((key), (tree), (cmp)); (node);                                 \
	     (node) = rb_next_match((key), (node), (cmp)))

#pragma GCC visibility pop
#endif /* KFSIM_RBTREE_H */
