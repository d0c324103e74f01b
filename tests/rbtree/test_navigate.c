// SPDX-License-Identifier: MIT
/*
 * rb_first(), rb_last(), rb_next() and rb_prev() exist twice: as exported functions and as the
 * header's inline bodies that a call like rb_next(node) expands to.  These tests hold the two to
 * the same answers, and both to an independent recursive in-order listing, on random trees
 * (duplicate keys, trees grown and shrunk by random inserts and erases), on the corners (empty
 * tree, one node, a node marked empty by RB_CLEAR_NODE() with stale child links), and check that
 * the names still denote the exported functions where no call is written (&rb_next, (rb_next)).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/random.h>
#include "rb_test_items.h"

#define MAX_ITEMS 600

typedef struct rb_node *(*nav_fn)(const struct rb_node *);
typedef struct rb_node *(*end_fn)(const struct rb_root *);

/* Taken without a call: these are the exported symbols, not the inline expansions. */
static const nav_fn exported_next = rb_next, exported_prev = &rb_prev;
static const end_fn exported_first = rb_first, exported_last = &rb_last;

static struct item items[MAX_ITEMS];
static bool linked[MAX_ITEMS];

/* The in-order listing by recursion over the child links: no successor logic involved. */
static void list_in_order(struct rb_node *node, struct rb_node **out, u32 *nr)
{
	if (!node)
		return;
	list_in_order(node->rb_left, out, nr);
	out[(*nr)++] = node;
	list_in_order(node->rb_right, out, nr);
}

/* Every navigation function, both ways, against the listing of @root. */
static void assert_navigation_agrees(const struct rb_root *root)
{
	static struct rb_node *order[MAX_ITEMS];
	u32 nr = 0;

	list_in_order(root->rb_node, order, &nr);
	assert_ptr_equal(rb_first(root), nr ? order[0] : NULL);
	assert_ptr_equal(exported_first(root), nr ? order[0] : NULL);
	assert_ptr_equal((rb_first)(root), nr ? order[0] : NULL);
	assert_ptr_equal(rb_last(root), nr ? order[nr - 1] : NULL);
	assert_ptr_equal(exported_last(root), nr ? order[nr - 1] : NULL);
	assert_ptr_equal((rb_last)(root), nr ? order[nr - 1] : NULL);
	for (u32 i = 0; i < nr; i++) {
		struct rb_node *next = i + 1 < nr ? order[i + 1] : NULL;
		struct rb_node *prev = i ? order[i - 1] : NULL;

		assert_ptr_equal(rb_next(order[i]), next);
		assert_ptr_equal(exported_next(order[i]), next);
		assert_ptr_equal((rb_next)(order[i]), next);
		assert_ptr_equal(rb_prev(order[i]), prev);
		assert_ptr_equal(exported_prev(order[i]), prev);
		assert_ptr_equal((rb_prev)(order[i]), prev);
	}
}

static void test_names_denote_exported_functions(void **state)
{
	/* A function-like macro is not expanded without an argument list. */
	assert_ptr_equal(exported_next, &(rb_next));
	assert_ptr_equal(exported_prev, &(rb_prev));
	assert_ptr_equal(exported_first, &(rb_first));
	assert_ptr_equal(exported_last, &(rb_last));
	assert_true(exported_next != exported_prev);
}

static void test_empty_and_one_node(void **state)
{
	struct rb_root root = RB_ROOT;
	struct item it = {.key = 7};

	assert_navigation_agrees(&root);
	rb_link_node(&it.rb, NULL, &root.rb_node);
	rb_insert_color(&it.rb, &root);
	assert_navigation_agrees(&root);
	assert_null(rb_next(&it.rb));
	assert_null(exported_prev(&it.rb));
}

/*
 * A node marked empty keeps whatever child links it had: neither version may follow them.  The
 * node is cleared while still physically in the tree's shape (children and parent in place), so
 * following rb_right or rb_left would return a real node instead of NULL.
 */
static void test_cleared_node_has_no_neighbours(void **state)
{
	struct rb_root root = RB_ROOT;
	struct item its[7];
	struct rb_node *mid;
	unsigned long saved;

	memset(its, 0, sizeof(its));
	for (u32 i = 0; i < ARRAY_SIZE(its); i++) {
		its[i].key = i;
		rb_add(&its[i].rb, &root, item_less);
	}
	mid = root.rb_node;
	assert_non_null(mid->rb_left);
	assert_non_null(mid->rb_right);
	saved = mid->__rb_parent_color;
	RB_CLEAR_NODE(mid);
	assert_null(rb_next(mid));
	assert_null(rb_prev(mid));
	assert_null(exported_next(mid));
	assert_null(exported_prev(mid));
	mid->__rb_parent_color = saved;
	assert_navigation_agrees(&root);

	/* A leaf marked empty: the climb must not start either. */
	RB_CLEAR_NODE(&its[0].rb);
	assert_null(rb_next(&its[0].rb));
	assert_null(exported_prev(&its[0].rb));
}

/*
 * Random trees: grow to a random size with random (often equal) keys, check, shrink by random
 * erases, check, repeatedly; the shapes include long left and right spines from sorted runs.
 */
static void test_random_trees_agree(void **state)
{
	struct rnd_state rnd;
	struct rb_root root = RB_ROOT;
	u32 nr_linked = 0;

	prandom_seed_state(&rnd, 20261203);
	memset(items, 0, sizeof(items));
	memset(linked, 0, sizeof(linked));
	for (u32 round = 0; round < 300; round++) {
		u32 target = kfsim_prandom_below(&rnd, MAX_ITEMS + 1);
		u32 key_range = 1 + kfsim_prandom_below(&rnd, 2 * MAX_ITEMS);
		bool sorted_run = kfsim_prandom_below(&rnd, 8) == 0;

		while (nr_linked < target) {
			u32 i = kfsim_prandom_below(&rnd, MAX_ITEMS);

			if (linked[i])
				continue;
			items[i].key = sorted_run ? round * MAX_ITEMS + nr_linked
						  : kfsim_prandom_below(&rnd, key_range);
			rb_add(&items[i].rb, &root, item_less);
			linked[i] = true;
			nr_linked++;
		}
		assert_true(validate_tree(&root));
		assert_navigation_agrees(&root);

		target = kfsim_prandom_below(&rnd, nr_linked + 1);
		while (nr_linked > target) {
			u32 i = kfsim_prandom_below(&rnd, MAX_ITEMS);

			if (!linked[i])
				continue;
			rb_erase(&items[i].rb, &root);
			linked[i] = false;
			nr_linked--;
		}
		assert_true(validate_tree(&root));
		assert_navigation_agrees(&root);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_denote_exported_functions),
		cmocka_unit_test(test_empty_and_one_node),
		cmocka_unit_test(test_cleared_node_has_no_neighbours),
		cmocka_unit_test(test_random_trees_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
