// SPDX-License-Identifier: MIT
/*
 * The interval tree against brute force: after random inserts and removals, every query
 * [start, last] must return exactly the stored intervals that overlap it (closed intervals), in
 * start order, and every node's __subtree_last must be the largest end in its subtree.  Also a
 * generic instance (INTERVAL_TREE_DEFINE over u32 fields of another struct, static).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/interval_tree.h>
#include <kfsim/interval_tree_generic.h>
#include <kfsim/random.h>
#include <kfsim/rbtree_debug.h>

#ifdef KFSIM_ASAN
#define OPS_SCALE 8
#else
#define OPS_SCALE 1
#endif

static struct interval_tree_node *to_itn(const struct rb_node *rb)
{
	return rb_entry((struct rb_node *)rb, struct interval_tree_node, rb);
}

static bool subtree_last_ok(const struct rb_node *rb)
{
	unsigned long max = to_itn(rb)->last;

	if (rb->rb_left && to_itn(rb->rb_left)->__subtree_last > max)
		max = to_itn(rb->rb_left)->__subtree_last;
	if (rb->rb_right && to_itn(rb->rb_right)->__subtree_last > max)
		max = to_itn(rb->rb_right)->__subtree_last;
	return to_itn(rb)->__subtree_last == max;
}

static int cmp_start(const struct rb_node *a, const struct rb_node *b)
{
	return to_itn(a)->start < to_itn(b)->start ? -1 : to_itn(a)->start > to_itn(b)->start;
}

static void test_basic_overlaps(void **state)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct interval_tree_node a = {.start = 10, .last = 20}, b = {.start = 15, .last = 15},
				  c = {.start = 30, .last = 40};
	struct interval_tree_node *it;

	assert_null(interval_tree_iter_first(&root, 0, ~0UL));
	interval_tree_insert(&a, &root);
	interval_tree_insert(&b, &root);
	interval_tree_insert(&c, &root);

	/* closed intervals: touching an endpoint overlaps */
	assert_ptr_equal(interval_tree_iter_first(&root, 20, 25), &a);
	assert_null(interval_tree_iter_next(&a, 20, 25));
	assert_ptr_equal(interval_tree_iter_first(&root, 25, 30), &c);
	assert_null(interval_tree_iter_first(&root, 21, 29));
	assert_null(interval_tree_iter_first(&root, 41, 100));
	assert_null(interval_tree_iter_first(&root, 0, 9));

	it = interval_tree_iter_first(&root, 0, ~0UL);
	assert_ptr_equal(it, &a);
	it = interval_tree_iter_next(it, 0, ~0UL);
	assert_ptr_equal(it, &b);
	it = interval_tree_iter_next(it, 0, ~0UL);
	assert_ptr_equal(it, &c);
	assert_null(interval_tree_iter_next(it, 0, ~0UL));

	interval_tree_remove(&a, &root);
	assert_ptr_equal(interval_tree_iter_first(&root, 12, 18), &b);
	assert_ptr_equal(rb_first_cached(&root), &b.rb);
	interval_tree_remove(&b, &root);
	interval_tree_remove(&c, &root);
	assert_true(RB_EMPTY_ROOT(&root.rb_root));
	assert_null(interval_tree_iter_first(&root, 0, ~0UL));
}

static void test_random_against_brute_force(void **state)
{
	enum { NR = 400 };
	static struct interval_tree_node nodes[NR];
	const struct kfsim_rb_check_ops ops = {.cmp = cmp_start, .augmented_ok = subtree_last_ok};
	struct rb_root_cached root = RB_ROOT_CACHED;
	bool in_tree[NR] = {false};
	struct rnd_state rnd;

	prandom_seed_state(&rnd, 11);
	for (u32 op = 0; op < 200000 / OPS_SCALE; op++) {
		u32 i = kfsim_prandom_below(&rnd, NR);

		if (in_tree[i]) {
			interval_tree_remove(&nodes[i], &root);
			in_tree[i] = false;
		} else {
			nodes[i].start = kfsim_prandom_below(&rnd, 10000);
			nodes[i].last = nodes[i].start + kfsim_prandom_below(&rnd, 300);
			interval_tree_insert(&nodes[i], &root);
			in_tree[i] = true;
		}
		if (op % 7)
			continue;
		assert_int_equal(kfsim_rb_check_cached(&root, &ops, NULL), 0);

		/* a query: the tree's answer must be the brute-force answer, in start order */
		unsigned long qs = kfsim_prandom_below(&rnd, 10500),
			      ql = qs + kfsim_prandom_below(&rnd, 400);
		u32 expected = 0, got = 0;
		unsigned long prev_start = 0;

		for (u32 j = 0; j < NR; j++)
			if (in_tree[j] && nodes[j].start <= ql && qs <= nodes[j].last)
				expected++;
		for (struct interval_tree_node *it = interval_tree_iter_first(&root, qs, ql); it;
		     it = interval_tree_iter_next(it, qs, ql)) {
			assert_true(it->start <= ql && qs <= it->last);
			assert_true(it->start >= prev_start);
			assert_true(in_tree[it - nodes]);
			prev_start = it->start;
			got++;
		}
		assert_int_equal(got, expected);
	}
}

/* A second, static instance over another structure and endpoint type. */
struct range {
	u32 lo, hi;
	struct rb_node node;
	u32 subtree_hi;
};

#define RANGE_LO(r) ((r)->lo)
#define RANGE_HI(r) ((r)->hi)

INTERVAL_TREE_DEFINE(struct range, node, u32, subtree_hi, RANGE_LO, RANGE_HI, static, range_tree)

static void test_generic_instance(void **state)
{
	struct range r[5] = {{0, 4}, {5, 9}, {3, 6}, {8, 8}, {100, 200}};
	struct rb_root_cached root = RB_ROOT_CACHED;
	u32 found = 0;

	for (int i = 0; i < 5; i++)
		range_tree_insert(&r[i], &root);
	for (struct range *it = range_tree_iter_first(&root, 4, 8); it;
	     it = range_tree_iter_next(it, 4, 8))
		found |= 1u << (it - r);
	assert_int_equal(found, 0xf); /* all but [100, 200] */
	range_tree_remove(&r[2], &root);
	assert_ptr_equal(range_tree_iter_first(&root, 5, 7), &r[1]);
	assert_int_equal(rb_entry(root.rb_root.rb_node, struct range, node)->subtree_hi, 200);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic_overlaps),
		cmocka_unit_test(test_random_against_brute_force),
		cmocka_unit_test(test_generic_instance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
