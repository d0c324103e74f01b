// SPDX-License-Identifier: MIT
/*
 * The checker: valid trees pass with the right measurements, and each kind of corruption is
 * reported as the first violation, at the right node, with a message naming it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/rbtree_debug.h>
#include "rb_test_items.h"

static struct item items[32];

static int cmp_items(const struct rb_node *a, const struct rb_node *b)
{
	return item_cmp_const(a, b);
}

static void describe_item(const struct rb_node *node, char *buf, size_t size)
{
	snprintf(buf, size, "%u", to_item(node)->key);
}

static const struct kfsim_rb_check_ops ops = {.cmp = cmp_items, .describe = describe_item};

/* Keys 1..n inserted in order into @root. */
static void build(struct rb_root_cached *root, u32 n)
{
	*root = RB_ROOT_CACHED;
	memset(items, 0, sizeof(items));
	for (u32 i = 0; i < n; i++) {
		items[i].key = i + 1;
		rb_add_cached(&items[i].rb, root, item_less);
	}
}

static struct rb_node *node_of(u32 key)
{
	return &items[key - 1].rb;
}

static void test_valid_trees_pass_with_measurements(void **state)
{
	struct kfsim_rb_check_result res;
	struct rb_root_cached root = RB_ROOT_CACHED;

	assert_int_equal(kfsim_rb_check_cached(&root, &ops, &res), 0);
	assert_int_equal(res.violation, KFSIM_RB_OK);
	assert_int_equal(res.nr_nodes, 0);
	assert_int_equal(res.height, 0);
	assert_int_equal(res.black_height, 0);
	assert_string_equal(res.message, "ok");

	build(&root, 1);
	assert_int_equal(kfsim_rb_check_cached(&root, &ops, &res), 0);
	assert_int_equal(res.height, 1);
	assert_int_equal(res.black_height, 1);

	/* 1..7 in order: 2 is the root, 4 below; black height 2, height 4 */
	build(&root, 7);
	assert_int_equal(kfsim_rb_check_cached(&root, &ops, &res), 0);
	assert_int_equal(res.nr_nodes, 7);
	assert_int_equal(res.black_height, 2);
	assert_int_equal(res.height, 4);
	/* NULL ops: structural checks only; NULL result allowed */
	assert_int_equal(kfsim_rb_check(&root.rb_root, NULL, NULL), 0);
}

static void test_red_root(void **state)
{
	struct kfsim_rb_check_result res;
	struct rb_root_cached root;

	build(&root, 3);
	root.rb_root.rb_node->__rb_parent_color &= ~1UL; /* paint the root red */
	assert_int_equal(kfsim_rb_check(&root.rb_root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_RED_ROOT);
	assert_ptr_equal(res.node, node_of(2));
	assert_string_equal(res.message, "the root 2 is red (property 2: the root is black)");
	assert_string_equal(kfsim_rb_violation_name(res.violation), "red-root");
}

static void test_red_red(void **state)
{
	struct kfsim_rb_check_result res;
	struct rb_root_cached root;

	/* 1..4: 2(B) with 1(B), 3(B) and 4(r) under 3; paint 3 red */
	build(&root, 4);
	assert_true(rb_is_red(node_of(4)));
	rb_set_parent_color(node_of(3), node_of(2), RB_RED);
	assert_int_equal(kfsim_rb_check(&root.rb_root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_RED_RED);
	assert_ptr_equal(res.node, node_of(3));
	assert_string_equal(res.message, "node 3 is red and so is its right child 4 (property 4: "
					 "a red node has no red child)");
}

static void test_black_height(void **state)
{
	struct kfsim_rb_check_result res;
	struct rb_root_cached root;

	build(&root, 4);
	rb_set_parent_color(node_of(4), node_of(3), RB_BLACK); /* one more black on the right */
	assert_int_equal(kfsim_rb_check(&root.rb_root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_BLACK_HEIGHT);
	assert_ptr_equal(res.node, node_of(3));
	assert_string_equal(res.message, "node 3: paths through its left subtree meet 0 black "
					 "node(s), through its right subtree 1 (property 5: equal "
					 "black counts)");
}

static void test_bad_parent_link(void **state)
{
	struct kfsim_rb_check_result res;
	struct rb_root_cached root;

	build(&root, 4);
	rb_set_parent_color(node_of(4), node_of(1), RB_RED);
	assert_int_equal(kfsim_rb_check(&root.rb_root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_BAD_PARENT);
	assert_ptr_equal(res.node, node_of(4));
	assert_string_equal(res.message, "node 4 is a child of 3 but its parent pointer names 1");

	build(&root, 3);
	rb_set_parent_color(node_of(2), node_of(1), RB_BLACK); /* the root claims a parent */
	assert_int_equal(kfsim_rb_check(&root.rb_root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_BAD_ROOT_PARENT);
}

static void test_order(void **state)
{
	struct kfsim_rb_check_result res;
	struct rb_root_cached root;

	build(&root, 7);
	items[5].key = 1; /* node "6" now sorts before its in-order predecessor 5 */
	assert_int_equal(kfsim_rb_check(&root.rb_root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_ORDER);
	assert_ptr_equal(res.node, &items[5].rb);
	assert_string_equal(res.message, "node 1 comes after 5 in order but sorts before it");
	/* without a cmp callback order is not checked */
	assert_int_equal(kfsim_rb_check(&root.rb_root, NULL, &res), 0);
}

static void test_leftmost_cache(void **state)
{
	struct kfsim_rb_check_result res;
	struct rb_root_cached root;

	build(&root, 5);
	root.rb_leftmost = node_of(2);
	assert_int_equal(kfsim_rb_check_cached(&root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_LEFTMOST);
	assert_string_equal(res.message, "rb_leftmost is 2 but the first node is 1");
	root.rb_leftmost = NULL;
	assert_int_equal(kfsim_rb_check_cached(&root, &ops, &res), -EINVAL);
	assert_string_equal(res.message, "rb_leftmost is NULL but the first node is 1");
}

static void test_cycle_and_bits(void **state)
{
	struct kfsim_rb_check_result res;
	struct rb_root_cached root;

	build(&root, 3);
	node_of(1)->rb_left = root.rb_root.rb_node; /* a cycle back to the root */
	assert_int_equal(kfsim_rb_check(&root.rb_root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_BAD_PARENT);

	build(&root, 3);
	node_of(1)->__rb_parent_color |= 2;
	assert_int_equal(kfsim_rb_check(&root.rb_root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_BAD_BITS);

	build(&root, 1);
	node_of(1)->rb_left = node_of(1)->rb_right = &items[10].rb;
	assert_int_equal(kfsim_rb_check(&root.rb_root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_SHARED_CHILD);

	assert_int_equal(kfsim_rb_check(NULL, &ops, &res), -EINVAL);
	assert_int_equal(kfsim_rb_check_cached(NULL, &ops, &res), -EINVAL);
}

static void test_too_deep_chain(void **state)
{
	static struct item chain[KFSIM_RB_MAX_DEPTH + 2];
	struct kfsim_rb_check_result res;
	struct rb_root root = RB_ROOT;

	/* A consistent-looking chain of black nodes, far deeper than any red-black tree. */
	for (u32 i = 0; i < ARRAY_SIZE(chain); i++) {
		chain[i].key = i;
		chain[i].rb.rb_left = NULL;
		chain[i].rb.rb_right = i + 1 < ARRAY_SIZE(chain) ? &chain[i + 1].rb : NULL;
		rb_set_parent_color(&chain[i].rb, i ? &chain[i - 1].rb : NULL, RB_BLACK);
	}
	root.rb_node = &chain[0].rb;
	assert_int_equal(kfsim_rb_check(&root, &ops, &res), -EINVAL);
	assert_int_equal(res.violation, KFSIM_RB_TOO_DEEP);
	assert_string_equal(kfsim_rb_violation_name(KFSIM_RB_TOO_DEEP), "too-deep");
	assert_string_equal(kfsim_rb_violation_name((enum kfsim_rb_violation)99), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_trees_pass_with_measurements),
		cmocka_unit_test(test_red_root),
		cmocka_unit_test(test_red_red),
		cmocka_unit_test(test_black_height),
		cmocka_unit_test(test_bad_parent_link),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_leftmost_cache),
		cmocka_unit_test(test_cycle_and_bits),
		cmocka_unit_test(test_too_deep_chain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
