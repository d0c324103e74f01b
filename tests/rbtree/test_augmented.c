// SPDX-License-Identifier: MIT
/*
 * Augmented trees against brute force: a subtree maximum (RB_DECLARE_CALLBACKS_MAX, as in the
 * kernel's rbtree_test), a subtree size (RB_DECLARE_CALLBACKS with a hand-written compute) used
 * for order statistics, and rb_add_augmented_cached() / rb_erase_augmented_cached() on a cached
 * tree, all under random inserts and erases with the checker verifying every summary.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/random.h>
#include <kfsim/rbtree_augmented.h>
#include <kfsim/rbtree_debug.h>

#ifdef KFSIM_ASAN
#define OPS_SCALE 8
#else
#define OPS_SCALE 1
#endif

struct aug_node {
	u32 key;
	struct rb_node rb;
	u32 val;
	u32 max_val; /* max of val over the subtree */
	u32 size;    /* nodes in the subtree */
};

#define NODE_VAL(node) ((node)->val)

RB_DECLARE_CALLBACKS_MAX(static, max_cb, struct aug_node, rb, u32, max_val, NODE_VAL)

static struct aug_node *to_aug(const struct rb_node *rb)
{
	return rb_entry_safe((struct rb_node *)rb, struct aug_node, rb);
}

static u32 size_of(const struct rb_node *rb)
{
	return rb ? to_aug(rb)->size : 0;
}

static bool size_compute(struct aug_node *node, bool exit)
{
	u32 size = 1 + size_of(node->rb.rb_left) + size_of(node->rb.rb_right);

	if (exit && node->size == size)
		return true;
	node->size = size;
	return false;
}

RB_DECLARE_CALLBACKS(static, size_cb, struct aug_node, rb, size, size_compute)

/* Pure versions for the checker: compare without storing. */
static bool max_ok(const struct rb_node *rb)
{
	const struct aug_node *n = to_aug(rb);
	u32 max = n->val;

	if (rb->rb_left && to_aug(rb->rb_left)->max_val > max)
		max = to_aug(rb->rb_left)->max_val;
	if (rb->rb_right && to_aug(rb->rb_right)->max_val > max)
		max = to_aug(rb->rb_right)->max_val;
	return n->max_val == max;
}

static bool size_ok(const struct rb_node *rb)
{
	return to_aug(rb)->size == 1 + size_of(rb->rb_left) + size_of(rb->rb_right);
}

static int cmp_aug(const struct rb_node *a, const struct rb_node *b)
{
	return to_aug(a)->key < to_aug(b)->key ? -1 : to_aug(a)->key > to_aug(b)->key;
}

static bool less_aug(struct rb_node *a, const struct rb_node *b)
{
	return to_aug(a)->key < to_aug(b)->key;
}

/* The brute-force maximum: walk the whole subtree, ignoring every stored summary. */
static u32 brute_max(const struct rb_node *rb)
{
	u32 max, sub;

	if (!rb)
		return 0;
	max = to_aug(rb)->val;
	sub = brute_max(rb->rb_left);
	if (sub > max)
		max = sub;
	sub = brute_max(rb->rb_right);
	return sub > max ? sub : max;
}

static void check_max_tree(const struct rb_root *root)
{
	const struct kfsim_rb_check_ops ops = {.cmp = cmp_aug, .augmented_ok = max_ok};
	struct kfsim_rb_check_result res;

	assert_int_equal(kfsim_rb_check(root, &ops, &res), 0);
	for (struct rb_node *rb = rb_first(root); rb; rb = rb_next(rb))
		assert_int_equal(to_aug(rb)->max_val, brute_max(rb));
}

/* Insert as the kernel's rbtree_test does: raise the summaries while descending. */
static void insert_max(struct aug_node *node, struct rb_root *root)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	node->max_val = node->val;
	while (*link) {
		struct aug_node *p = to_aug(*link);

		parent = *link;
		if (p->max_val < node->val)
			p->max_val = node->val;
		link = node->key < p->key ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&node->rb, parent, link);
	rb_insert_augmented(&node->rb, root, &max_cb);
}

static void test_subtree_max_random(void **state)
{
	enum { NR = 300 };
	static struct aug_node nodes[NR];
	struct rb_root root = RB_ROOT;
	bool in_tree[NR] = {false};
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 3141592653589793238ULL);
	for (u32 op = 0; op < 300000 / OPS_SCALE; op++) {
		u32 i = kfsim_prandom_below(&rnd, NR);

		if (in_tree[i]) {
			rb_erase_augmented(&nodes[i].rb, &root, &max_cb);
			in_tree[i] = false;
		} else {
			nodes[i].key = kfsim_prandom_below(&rnd, 1000);
			nodes[i].val = prandom_u32_state(&rnd);
			insert_max(&nodes[i], &root);
			in_tree[i] = true;
		}
		if (op % 97 == 0)
			check_max_tree(&root);
	}
	check_max_tree(&root);
}

static void test_max_checker_catches_stale_summary(void **state)
{
	static struct aug_node nodes[20];
	const struct kfsim_rb_check_ops ops = {.cmp = cmp_aug, .augmented_ok = max_ok};
	struct kfsim_rb_check_result res;
	struct rb_root root = RB_ROOT;

	for (u32 i = 0; i < 20; i++) {
		nodes[i].key = i;
		nodes[i].val = i * 10;
		insert_max(&nodes[i], &root);
	}
	assert_int_equal(kfsim_rb_check(&root, &ops, &res), 0);
	nodes[19].val = 5; /* changed without propagating: its ancestors are stale */
	assert_int_equal(kfsim_rb_check(&root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_AUGMENTED);
	assert_ptr_equal(res.node, &nodes[19].rb);
	/* propagate() repairs it */
	max_cb.propagate(&nodes[19].rb, NULL);
	check_max_tree(&root);
}

/* The k-th smallest (0-based) by descending with the sizes. */
static struct aug_node *select_kth(const struct rb_root *root, u32 k)
{
	struct rb_node *rb = root->rb_node;

	while (rb) {
		u32 left = size_of(rb->rb_left);

		if (k < left) {
			rb = rb->rb_left;
		} else if (k == left) {
			return to_aug(rb);
		} else {
			k -= left + 1;
			rb = rb->rb_right;
		}
	}
	return NULL;
}

static void test_subtree_size_cached(void **state)
{
	enum { NR = 500 };
	static struct aug_node nodes[NR];
	const struct kfsim_rb_check_ops ops = {.cmp = cmp_aug, .augmented_ok = size_ok};
	struct kfsim_rb_check_result res;
	struct rb_root_cached root = RB_ROOT_CACHED;
	bool in_tree[NR] = {false};
	struct rnd_state rnd;
	u32 count = 0;

	prandom_seed_state(&rnd, 7);
	for (u32 op = 0; op < 200000 / OPS_SCALE; op++) {
		u32 i = kfsim_prandom_below(&rnd, NR);

		if (in_tree[i]) {
			bool was_first = rb_first_cached(&root) == &nodes[i].rb;
			struct rb_node *next = rb_next(&nodes[i].rb);

			rb_erase_augmented_cached(&nodes[i].rb, &root, &size_cb);
			if (was_first)
				assert_ptr_equal(rb_first_cached(&root), next);
			in_tree[i] = false;
			count--;
		} else {
			struct rb_node *ret;

			nodes[i].key = kfsim_prandom_below(&rnd, 200); /* many duplicates */
			nodes[i].size = 1;
			ret = rb_add_augmented_cached(&nodes[i].rb, &root, less_aug, &size_cb);
			assert_true(ret == NULL || ret == &nodes[i].rb);
			assert_int_equal(ret == &nodes[i].rb,
					 rb_first_cached(&root) == &nodes[i].rb);
			in_tree[i] = true;
			count++;
		}
		if (op % 101 == 0) {
			u32 k = 0;

			assert_int_equal(kfsim_rb_check_cached(&root, &ops, &res), 0);
			assert_int_equal(size_of(root.rb_root.rb_node), count);
			for (struct rb_node *rb = rb_first(&root.rb_root); rb;
			     rb = rb_next(rb), k++)
				assert_ptr_equal(select_kth(&root.rb_root, k), to_aug(rb));
		}
	}
	assert_int_equal(kfsim_rb_check_cached(&root, &ops, &res), 0);
}

static void test_cached_insert_augmented(void **state)
{
	static struct aug_node nodes[64];
	const struct kfsim_rb_check_ops ops = {.cmp = cmp_aug, .augmented_ok = max_ok};
	struct rb_root_cached root = RB_ROOT_CACHED;

	/* descending keys: each insert is the new leftmost */
	for (u32 i = 0; i < 64; i++) {
		struct rb_node **link = &root.rb_root.rb_node, *parent = NULL;
		bool leftmost = true;

		nodes[i].key = 1000 - i;
		nodes[i].val = (i * 37) % 64;
		nodes[i].max_val = nodes[i].val;
		while (*link) {
			parent = *link;
			if (to_aug(parent)->max_val < nodes[i].val)
				to_aug(parent)->max_val = nodes[i].val;
			if (nodes[i].key < to_aug(parent)->key) {
				link = &parent->rb_left;
			} else {
				link = &parent->rb_right;
				leftmost = false;
			}
		}
		rb_link_node(&nodes[i].rb, parent, link);
		rb_insert_augmented_cached(&nodes[i].rb, &root, leftmost, &max_cb);
		assert_ptr_equal(rb_first_cached(&root), &nodes[i].rb);
		assert_int_equal(kfsim_rb_check_cached(&root, &ops, NULL), 0);
	}
	assert_int_equal(to_aug(root.rb_root.rb_node)->max_val, 63);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subtree_max_random),
		cmocka_unit_test(test_max_checker_catches_stale_summary),
		cmocka_unit_test(test_subtree_size_cached),
		cmocka_unit_test(test_cached_insert_augmented),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
