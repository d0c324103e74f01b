// SPDX-License-Identifier: MIT
/*
 * Randomized differential test: a leftmost-cached tree against a sorted array of the same
 * items (the model), over millions of mixed operations (stable insert, find-or-insert, erase of
 * a random or the leftmost item, replace, lookups), with the whole tree checked periodically.
 * Equal keys are frequent on purpose, so stability and rb_find_first() are exercised.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/random.h>
#include <kfsim/rbtree_debug.h>
#include "rb_test_items.h"

#ifdef KFSIM_ASAN
#define OPS_SCALE 8 /* ASan+UBSan is ~10x slower: keep the suite well under a minute */
#else
#define OPS_SCALE 1
#endif

struct model {
	struct item **sorted; /* the items in tree order: by key, equal keys by insertion */
	u32 nr;
};

/* Index of the first model entry with key > @key (where a stable insert goes). */
static u32 model_upper_bound(const struct model *m, u32 key)
{
	u32 lo = 0, hi = m->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (m->sorted[mid]->key <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static u32 model_lower_bound(const struct model *m, u32 key)
{
	u32 lo = 0, hi = m->nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (m->sorted[mid]->key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void model_insert_at(struct model *m, u32 pos, struct item *it)
{
	memmove(&m->sorted[pos + 1], &m->sorted[pos], (m->nr - pos) * sizeof(*m->sorted));
	m->sorted[pos] = it;
	m->nr++;
}

static void model_remove_at(struct model *m, u32 pos)
{
	memmove(&m->sorted[pos], &m->sorted[pos + 1], (m->nr - pos - 1) * sizeof(*m->sorted));
	m->nr--;
}

static int cmp_items(const struct rb_node *a, const struct rb_node *b)
{
	return item_cmp_const(a, b);
}

static void compare_whole_tree(const struct rb_root_cached *root, const struct model *m)
{
	const struct kfsim_rb_check_ops ops = {.cmp = cmp_items};
	struct kfsim_rb_check_result res;
	struct rb_node *node = rb_first(&root->rb_root);

	/* the library's checker and the suite's own validator must both accept the tree */
	if (kfsim_rb_check_cached(root, &ops, &res))
		fail_msg("%s", res.message);
	assert_int_equal(res.nr_nodes, m->nr);
	/* the red-black height bound: height <= 2 * log2(n + 1) */
	assert_true(res.height == 0 || (1ULL << ((res.height + 1) / 2)) <= (u64)m->nr + 1);
	assert_true(validate_tree(&root->rb_root));
	assert_ptr_equal(rb_first_cached(root), node);
	for (u32 i = 0; i < m->nr; i++, node = rb_next(node))
		assert_ptr_equal(node, &m->sorted[i]->rb);
	assert_null(node);
	assert_ptr_equal(rb_last(&root->rb_root), m->nr ? &m->sorted[m->nr - 1]->rb : NULL);
}

/*
 * run_differential() - @nr_ops operations on a tree of at most @capacity items with keys below
 * @key_range, checking everything every @check_every operations.
 */
static void run_differential(u64 seed, u32 capacity, u32 key_range, u32 nr_ops, u32 check_every)
{
	struct item *pool = calloc(capacity, sizeof(*pool));
	struct item **free_list = calloc(capacity, sizeof(*free_list));
	struct model m = {.sorted = calloc(capacity, sizeof(struct item *))};
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct rnd_state rnd;
	u32 nr_free = capacity, seq = 0;

	assert_non_null(pool);
	assert_non_null(free_list);
	assert_non_null(m.sorted);
	for (u32 i = 0; i < capacity; i++)
		free_list[i] = &pool[capacity - 1 - i];
	prandom_seed_state(&rnd, seed);

	for (u32 op = 0; op < nr_ops; op++) {
		u32 dice = kfsim_prandom_below(&rnd, 100);
		u32 key = kfsim_prandom_below(&rnd, key_range);
		/* grow while below half full, shrink near full */
		bool can_insert = nr_free > 0, can_erase = m.nr > 0;

		if (can_insert && (dice < 40 || !can_erase)) {
			struct item *it = free_list[--nr_free];
			u32 pos = model_upper_bound(&m, key);
			struct rb_node *ret;

			it->key = key;
			it->seq = seq++;
			ret = rb_add_cached(&it->rb, &root, item_less);
			assert_ptr_equal(ret, pos == 0 ? &it->rb : NULL);
			model_insert_at(&m, pos, it);
		} else if (can_insert && dice < 50) {
			struct item *it = free_list[nr_free - 1];
			u32 pos = model_lower_bound(&m, key);
			struct rb_node *ret;

			it->key = key;
			it->seq = seq++;
			ret = rb_find_add_cached(&it->rb, &root, item_cmp_const);
			if (pos < m.nr && m.sorted[pos]->key == key) {
				/* any equal node may be returned */
				assert_non_null(ret);
				assert_int_equal(to_item(ret)->key, key);
			} else {
				assert_null(ret);
				nr_free--;
				model_insert_at(&m, pos, it);
			}
		} else if (can_erase && dice < 80) {
			u32 pos = kfsim_prandom_below(&rnd, m.nr);
			struct item *it = m.sorted[pos];
			struct rb_node *ret = rb_erase_cached(&it->rb, &root);

			if (pos == 0)
				assert_ptr_equal(ret, m.nr > 1 ? &m.sorted[1]->rb : NULL);
			else
				assert_null(ret);
			RB_CLEAR_NODE(&it->rb);
			model_remove_at(&m, pos);
			free_list[nr_free++] = it;
		} else if (can_erase && dice < 85) {
			/* replace a random item by a free one with the same key */
			u32 pos = kfsim_prandom_below(&rnd, m.nr);
			struct item *victim = m.sorted[pos];

			if (nr_free) {
				struct item *it = free_list[--nr_free];

				it->key = victim->key;
				it->seq = victim->seq;
				rb_replace_node_cached(&victim->rb, &it->rb, &root);
				m.sorted[pos] = it;
				free_list[nr_free++] = victim;
			}
		} else {
			/* lookups */
			u32 pos = model_lower_bound(&m, key);
			struct rb_node *first = rb_find_first(&key, &root.rb_root, key_cmp);
			struct rb_node *any = rb_find(&key, &root.rb_root, key_cmp);

			if (pos < m.nr && m.sorted[pos]->key == key) {
				assert_ptr_equal(first, &m.sorted[pos]->rb);
				assert_non_null(any);
				assert_int_equal(to_item(any)->key, key);
			} else {
				assert_null(first);
				assert_null(any);
			}
		}
		if (op % check_every == 0)
			compare_whole_tree(&root, &m);
	}
	compare_whole_tree(&root, &m);
	free(m.sorted);
	free(free_list);
	free(pool);
}

static void test_small_trees_many_ops(void **state)
{
	/* Tiny trees hit the root and near-root cases constantly. */
	run_differential(1, 8, 6, 1000000 / OPS_SCALE, 64);
	run_differential(2, 40, 30, 1000000 / OPS_SCALE, 128);
}

static void test_medium_tree(void **state)
{
	run_differential(3, 2000, 1500, 1500000 / OPS_SCALE, 4096);
}

static void test_large_tree_wide_keys(void **state)
{
	run_differential(4, 50000, 1u << 30, 600000 / OPS_SCALE, 100000);
}

/* Next permutation in lexicographic order; false after the last. */
static bool next_permutation(u32 *a, u32 n)
{
	u32 i = n - 1, j = n - 1;

	while (i > 0 && a[i - 1] >= a[i])
		i--;
	if (i == 0)
		return false;
	while (a[j] <= a[i - 1])
		j--;
	swap(a[i - 1], a[j]);
	for (j = n - 1; i < j; i++, j--)
		swap(a[i], a[j]);
	return true;
}

/*
 * Every insertion order of 1..7 keys, and from each resulting tree the erase of every key:
 * all the shapes small trees can take, each checked completely.
 */
static void test_exhaustive_small_trees(void **state)
{
	const struct kfsim_rb_check_ops ops = {.cmp = cmp_items};
	struct item items[7];
	u32 order[7];
	u64 trees = 0;

	for (u32 n = 1; n <= 7; n++) {
		for (u32 i = 0; i < n; i++)
			order[i] = i;
		do {
			for (u32 victim = 0; victim < n; victim++) {
				struct rb_root_cached root = RB_ROOT_CACHED;

				for (u32 i = 0; i < n; i++) {
					items[i] = (struct item){.key = order[i], .seq = i};
					rb_add_cached(&items[i].rb, &root, item_less);
					assert_int_equal(kfsim_rb_check_cached(&root, &ops, NULL),
							 0);
				}
				rb_erase_cached(&items[victim].rb, &root);
				assert_int_equal(kfsim_rb_check_cached(&root, &ops, NULL), 0);
				trees++;
			}
		} while (next_permutation(order, n));
	}
	assert_int_equal(trees, 1 + 2 * 2 + 6 * 3 + 24 * 4 + 120 * 5 + 720 * 6 + 5040 * 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exhaustive_small_trees),
		cmocka_unit_test(test_small_trees_many_ops),
		cmocka_unit_test(test_medium_tree),
		cmocka_unit_test(test_large_tree_wide_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
