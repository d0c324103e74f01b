// SPDX-License-Identifier: MIT
/*
 * Deterministic cases for every function of <kfsim/rbtree.h> and its corners: empty tree, one
 * node, erase of the root, the leftmost cache, replacement, duplicates and stability, the
 * post-order walk that frees nodes, and the step log of the rebalancing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <kfsim/rbtree_debug.h>
#include "rb_test_items.h"

BUILD_BUG_ON(sizeof(struct rb_node) != 3 * sizeof(long));
BUILD_BUG_ON(_Alignof(struct rb_node) != sizeof(long));
BUILD_BUG_ON(RB_RED != 0 || RB_BLACK != 1);

static struct item items[64];

static void reset_items(void)
{
	memset(items, 0, sizeof(items));
	for (u32 i = 0; i < ARRAY_SIZE(items); i++) {
		items[i].seq = i;
		RB_CLEAR_NODE(&items[i].rb);
	}
}

/* Insert with an explicit descent, rb_link_node() and rb_insert_color(), as kernel code does. */
static void insert_by_hand(struct rb_root *root, struct item *it)
{
	struct rb_node **link = &root->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (it->key < to_item(parent)->key)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&it->rb, parent, link);
	rb_insert_color(&it->rb, root);
}

static void assert_keys_in_order(const struct rb_root *root, const u32 *keys, size_t n)
{
	struct rb_node *node = rb_first(root);
	size_t i = 0;

	for (; node; node = rb_next(node), i++) {
		assert_true(i < n);
		assert_int_equal(to_item(node)->key, keys[i]);
	}
	assert_int_equal(i, n);
	/* and backwards */
	for (node = rb_last(root); node; node = rb_prev(node)) {
		assert_true(i > 0);
		assert_int_equal(to_item(node)->key, keys[--i]);
	}
	assert_int_equal(i, 0);
}

static void test_empty_tree(void **state)
{
	struct rb_root root = RB_ROOT;
	struct rb_root_cached croot = RB_ROOT_CACHED;
	u32 key = 1;

	assert_true(RB_EMPTY_ROOT(&root));
	assert_true(RB_EMPTY_ROOT(&croot.rb_root));
	assert_null(rb_first(&root));
	assert_null(rb_last(&root));
	assert_null(rb_first_postorder(&root));
	assert_null(rb_next_postorder(NULL));
	assert_null(rb_first_cached(&croot));
	assert_null(rb_find(&key, &root, key_cmp));
	assert_null(rb_find_first(&key, &root, key_cmp));
	assert_true(validate_tree(&root));
}

static void test_one_node(void **state)
{
	struct rb_root root = RB_ROOT;
	struct item it = {.key = 42};

	insert_by_hand(&root, &it);
	assert_false(RB_EMPTY_ROOT(&root));
	assert_ptr_equal(root.rb_node, &it.rb);
	assert_null(rb_parent(&it.rb));
	assert_true(rb_is_black(&it.rb)); /* property 2: the root is black */
	assert_ptr_equal(rb_first(&root), &it.rb);
	assert_ptr_equal(rb_last(&root), &it.rb);
	assert_null(rb_next(&it.rb));
	assert_null(rb_prev(&it.rb));
	assert_ptr_equal(rb_first_postorder(&root), &it.rb);
	assert_null(rb_next_postorder(&it.rb));
	assert_false(RB_EMPTY_NODE(&it.rb));

	rb_erase(&it.rb, &root);
	assert_true(RB_EMPTY_ROOT(&root));
	/* rb_erase() leaves the node as it was: only RB_CLEAR_NODE() marks it out of a tree. */
	assert_false(RB_EMPTY_NODE(&it.rb));
	RB_CLEAR_NODE(&it.rb);
	assert_true(RB_EMPTY_NODE(&it.rb));
	assert_null(rb_next(&it.rb));
	assert_null(rb_prev(&it.rb));
}

static void test_link_node_sets_red_leaf(void **state)
{
	struct rb_root root = RB_ROOT;
	struct item a = {.key = 1}, b = {.key = 2};

	insert_by_hand(&root, &a);
	b.rb.rb_left = b.rb.rb_right = (struct rb_node *)&b; /* garbage the link must clear */
	rb_link_node(&b.rb, &a.rb, &a.rb.rb_right);
	assert_ptr_equal(rb_parent(&b.rb), &a.rb);
	assert_true(rb_is_red(&b.rb));
	assert_null(b.rb.rb_left);
	assert_null(b.rb.rb_right);
	assert_ptr_equal(a.rb.rb_right, &b.rb);
	rb_insert_color(&b.rb, &root);
	assert_true(validate_tree(&root));

	struct item c = {.key = 3};

	rb_link_node_rcu(&c.rb, &b.rb, &b.rb.rb_right);
	rb_insert_color(&c.rb, &root);
	assert_true(validate_tree(&root));
	assert_ptr_equal(root.rb_node, &b.rb); /* 1,2,3 rotated: 2 is the root */
}

static void test_ascending_and_descending_inserts(void **state)
{
	static const u32 sizes[] = {2, 3, 7, 8, 31, 64};

	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		struct rb_root up = RB_ROOT, down = RB_ROOT;
		struct item upi[64], downi[64];
		u32 keys[64];

		for (u32 i = 0; i < sizes[s]; i++) {
			keys[i] = i;
			upi[i] = (struct item){.key = i};
			downi[i] = (struct item){.key = sizes[s] - 1 - i};
			insert_by_hand(&up, &upi[i]);
			insert_by_hand(&down, &downi[i]);
			assert_true(validate_tree(&up));
			assert_true(validate_tree(&down));
		}
		assert_keys_in_order(&up, keys, sizes[s]);
		assert_keys_in_order(&down, keys, sizes[s]);
	}
}

static void test_erase_root_and_every_shape(void **state)
{
	/* For trees of 1..20 nodes, erase each position in turn (leaf, one child, two children). */
	for (u32 n = 1; n <= 20; n++) {
		for (u32 victim = 0; victim < n; victim++) {
			struct rb_root root = RB_ROOT;
			u32 keys[20], nkeys = 0;

			reset_items();
			for (u32 i = 0; i < n; i++) {
				items[i].key = (i * 23) % n; /* a permutation: 23 is prime */
				insert_by_hand(&root, &items[i]);
			}
			rb_erase(&items[victim].rb, &root);
			assert_true(validate_tree(&root));
			for (u32 k = 0; k < n; k++)
				if (k != items[victim].key)
					keys[nkeys++] = k;
			assert_keys_in_order(&root, keys, nkeys);
		}
	}

	/* Erasing the root repeatedly empties the tree. */
	struct rb_root root = RB_ROOT;

	reset_items();
	for (u32 i = 0; i < 33; i++) {
		items[i].key = i;
		insert_by_hand(&root, &items[i]);
	}
	for (u32 i = 0; i < 33; i++) {
		rb_erase(root.rb_node, &root);
		assert_true(validate_tree(&root));
	}
	assert_true(RB_EMPTY_ROOT(&root));
}

static void test_add_is_stable_and_find_first(void **state)
{
	struct rb_root root = RB_ROOT;
	struct rb_node *node;
	u32 key = 5, seen = 0, last_seq = 0;

	reset_items();
	/* keys 0..9, and five more copies of key 5 inserted later: six equals in all */
	for (u32 i = 0; i < 15; i++) {
		items[i].key = i < 10 ? i : 5;
		rb_add(&items[i].rb, &root, item_less);
	}
	assert_true(validate_tree(&root));
	node = rb_find_first(&key, &root, key_cmp);
	assert_non_null(node);
	assert_int_equal(to_item(node)->seq, 5); /* the first 5 inserted is first in order */
	assert_null(rb_prev(node) && to_item(rb_prev(node))->key == 5 ? rb_prev(node) : NULL);
	node = rb_find(&key, &root, key_cmp);
	assert_non_null(node);
	assert_int_equal(to_item(node)->key, 5);

	rb_for_each(node, &key, &root, key_cmp)
	{
		/* equal keys appear in insertion order: rb_add() puts new equals on the right */
		if (seen)
			assert_true(to_item(node)->seq > last_seq);
		last_seq = to_item(node)->seq;
		seen++;
	}
	assert_int_equal(seen, 6);
	assert_int_equal(last_seq, 14);

	/* rb_next_match() stops at the first non-equal node */
	node = rb_find_first(&key, &root, key_cmp);
	for (seen = 1; (node = rb_next_match(&key, node, key_cmp)); seen++)
		;
	assert_int_equal(seen, 6);

	key = 100;
	assert_null(rb_find(&key, &root, key_cmp));
	assert_null(rb_find_first(&key, &root, key_cmp));
	rb_for_each(node, &key, &root, key_cmp) fail();
}

static void test_find_add(void **state)
{
	struct rb_root root = RB_ROOT;
	struct item dup = {.key = 3};

	reset_items();
	for (u32 i = 0; i < 8; i++) {
		items[i].key = i;
		assert_null(rb_find_add(&items[i].rb, &root, item_cmp));
	}
	assert_ptr_equal(rb_find_add(&dup.rb, &root, item_cmp), &items[3].rb);
	assert_true(validate_tree(&root));
	for (struct rb_node *n = rb_first(&root); n; n = rb_next(n))
		assert_ptr_not_equal(n, &dup.rb);
}

static void test_rcu_variants(void **state)
{
	struct rb_root root = RB_ROOT;
	struct item dup = {.key = 6};
	u32 key;

	reset_items();
	for (u32 i = 0; i < 12; i++) {
		items[i].key = 2 * i;
		assert_null(rb_find_add_rcu(&items[i].rb, &root, item_cmp));
	}
	assert_true(validate_tree(&root));
	assert_ptr_equal(rb_find_add_rcu(&dup.rb, &root, item_cmp), &items[3].rb);
	for (key = 0; key < 24; key++)
		assert_ptr_equal(rb_find_rcu(&key, &root, key_cmp),
				 key % 2 ? NULL : &items[key / 2].rb);
}

static void test_cached_add_erase_and_leftmost(void **state)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct rb_node *ret;

	reset_items();
	items[0].key = 10;
	assert_ptr_equal(rb_add_cached(&items[0].rb, &root, item_less), &items[0].rb);
	items[1].key = 20;
	assert_null(rb_add_cached(&items[1].rb, &root, item_less));
	items[2].key = 5;
	assert_ptr_equal(rb_add_cached(&items[2].rb, &root, item_less), &items[2].rb);
	items[3].key = 5; /* an equal of the leftmost goes after it: not the new leftmost */
	assert_null(rb_add_cached(&items[3].rb, &root, item_less));
	assert_ptr_equal(rb_first_cached(&root), &items[2].rb);
	assert_ptr_equal(rb_first_cached(&root), rb_first(&root.rb_root));

	/* erase of a non-leftmost node: NULL, cache unchanged */
	assert_null(rb_erase_cached(&items[1].rb, &root));
	assert_ptr_equal(rb_first_cached(&root), &items[2].rb);
	/* erase of the leftmost: the new leftmost is returned and cached */
	ret = rb_erase_cached(&items[2].rb, &root);
	assert_ptr_equal(ret, &items[3].rb);
	assert_ptr_equal(rb_first_cached(&root), &items[3].rb);
	ret = rb_erase_cached(&items[3].rb, &root);
	assert_ptr_equal(ret, &items[0].rb);
	/* erasing the last node: the leftmost changed to "none", NULL is returned */
	assert_null(rb_erase_cached(&items[0].rb, &root));
	assert_null(rb_first_cached(&root));
	assert_true(RB_EMPTY_ROOT(&root.rb_root));

	/* rb_insert_color_cached() with a hand descent */
	for (u32 i = 0; i < 10; i++) {
		struct rb_node **link = &root.rb_root.rb_node, *parent = NULL;
		bool leftmost = true;

		items[i].key = 100 - i * 3;
		while (*link) {
			parent = *link;
			if (items[i].key < to_item(parent)->key) {
				link = &parent->rb_left;
			} else {
				link = &parent->rb_right;
				leftmost = false;
			}
		}
		rb_link_node(&items[i].rb, parent, link);
		rb_insert_color_cached(&items[i].rb, &root, leftmost);
		assert_ptr_equal(rb_first_cached(&root), rb_first(&root.rb_root));
	}
	assert_true(validate_tree(&root.rb_root));
}

static void test_find_add_cached(void **state)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item dup = {.key = 4};

	reset_items();
	for (u32 i = 0; i < 10; i++) {
		items[i].key = 20 - 2 * i; /* descending: every insert is a new leftmost */
		assert_null(rb_find_add_cached(&items[i].rb, &root, item_cmp_const));
		assert_ptr_equal(rb_first_cached(&root), &items[i].rb);
	}
	assert_ptr_equal(rb_find_add_cached(&dup.rb, &root, item_cmp_const), &items[8].rb);
	assert_ptr_equal(rb_first_cached(&root), &items[9].rb);
	dup.key = 1;
	assert_null(rb_find_add_cached(&dup.rb, &root, item_cmp_const));
	assert_ptr_equal(rb_first_cached(&root), &dup.rb);
	assert_true(validate_tree(&root.rb_root));
}

static void test_replace(void **state)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item repl[4];
	u32 keys[15];

	reset_items();
	for (u32 i = 0; i < 15; i++) {
		items[i].key = keys[i] = i;
		rb_add_cached(&items[i].rb, &root, item_less);
	}
	/* an inner node, the root, a leaf, and the leftmost (cache must follow) */
	struct rb_node *victims[4] = {&items[7].rb, root.rb_root.rb_node, &items[14].rb,
				      &items[0].rb};

	for (int v = 0; v < 4; v++) {
		struct rb_node *victim = victims[v];
		unsigned long pc = victim->__rb_parent_color;

		repl[v] = (struct item){.key = to_item(victim)->key, .seq = 100 + v};
		if (v == 1)
			rb_replace_node_rcu(victim, &repl[v].rb, &root.rb_root);
		else
			rb_replace_node_cached(victim, &repl[v].rb, &root);
		assert_int_equal(repl[v].rb.__rb_parent_color, pc); /* colour kept */
		assert_int_equal(victim->__rb_parent_color, pc);    /* victim untouched */
		assert_true(validate_tree(&root.rb_root));
		assert_keys_in_order(&root.rb_root, keys, 15);
		for (struct rb_node *n = rb_first(&root.rb_root); n; n = rb_next(n))
			assert_ptr_not_equal(n, victim);
	}
	assert_ptr_equal(rb_first_cached(&root), &repl[3].rb);
}

static void test_postorder_visits_children_first(void **state)
{
	struct rb_root root = RB_ROOT;
	bool seen[64] = {false};
	u32 count = 0;

	reset_items();
	for (u32 i = 0; i < 40; i++) {
		items[i].key = (i * 13) % 40;
		insert_by_hand(&root, &items[i]);
	}
	for (struct rb_node *n = rb_first_postorder(&root); n; n = rb_next_postorder(n)) {
		struct item *it = to_item(n);

		if (n->rb_left)
			assert_true(seen[to_item(n->rb_left)->seq]);
		if (n->rb_right)
			assert_true(seen[to_item(n->rb_right)->seq]);
		assert_false(seen[it->seq]);
		seen[it->seq] = true;
		count++;
	}
	assert_int_equal(count, 40);
}

static void test_postorder_walk_frees_nodes(void **state)
{
	struct rb_root root = RB_ROOT;
	struct item *pos, *next;
	u32 freed = 0;

	for (u32 i = 0; i < 100; i++) {
		struct item *it = calloc(1, sizeof(*it));

		assert_non_null(it);
		it->key = (i * 37) % 101;
		rb_add(&it->rb, &root, item_less);
	}
	/* Freeing pos inside the body is allowed: ASan would report a use after free otherwise. */
	rbtree_postorder_for_each_entry_safe(pos, next, &root, rb)
	{
		free(pos);
		freed++;
	}
	assert_int_equal(freed, 100);

	root = RB_ROOT;
	rbtree_postorder_for_each_entry_safe(pos, next, &root, rb) fail();
}

static void test_entry_safe(void **state)
{
	struct item it = {.key = 9};
	struct rb_node *null_node = NULL;

	assert_ptr_equal(rb_entry(&it.rb, struct item, rb), &it);
	assert_ptr_equal(rb_entry_safe(&it.rb, struct item, rb), &it);
	assert_null(rb_entry_safe(null_node, struct item, rb));
}

struct step_log {
	char text[2048];
};

static void log_step(void *priv, const struct kfsim_rb_step *step)
{
	struct step_log *log = priv;
	size_t len = strlen(log->text);

	if (step->kind == KFSIM_RB_STEP_RECOLOR)
		snprintf(log->text + len, sizeof(log->text) - len, "%u:%s ",
			 to_item(step->node)->key, step->color == RB_RED ? "red" : "black");
	else
		snprintf(log->text + len, sizeof(log->text) - len, "%s(%u,%s) ",
			 kfsim_rb_step_kind_name(step->kind), to_item(step->node)->key,
			 step->other ? "o" : "-");
}

static void traced_insert(struct rb_root *root, struct item *it, struct step_log *log)
{
	struct kfsim_rb_tracer tracer = {.step = log_step, .priv = log};
	struct rb_node **link = &root->rb_node, *parent = NULL;

	log->text[0] = '\0';
	while (*link) {
		parent = *link;
		link = it->key < to_item(parent)->key ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&it->rb, parent, link);
	kfsim_rb_insert_color_traced(&it->rb, root, &tracer);
}

static void test_step_log(void **state)
{
	struct rb_root root = RB_ROOT;
	struct kfsim_rb_tracer tracer = {.step = log_step};
	struct step_log log;

	reset_items();
	tracer.priv = &log;
	for (u32 i = 0; i < 5; i++)
		items[i].key = i + 1;
	traced_insert(&root, &items[0], &log);
	assert_string_equal(log.text, "1:black ");
	traced_insert(&root, &items[1], &log);
	assert_string_equal(log.text, "");     /* red child of a black root: nothing to do */
	traced_insert(&root, &items[2], &log); /* 1-2-3 chain: case 3, one rotation */
	assert_string_equal(log.text, "rotate-left(1,o) 2:black 1:red ");
	traced_insert(&root, &items[3], &log); /* red uncle: flip colours, root back to black */
	assert_string_equal(log.text, "3:black 1:black 2:red 2:black ");
	assert_true(validate_tree(&root));

	/* inner child: case 2 then case 3 */
	struct rb_root root2 = RB_ROOT;

	items[10].key = 10;
	items[11].key = 5;
	items[12].key = 7;
	traced_insert(&root2, &items[10], &log);
	traced_insert(&root2, &items[11], &log);
	traced_insert(&root2, &items[12], &log);
	assert_string_equal(log.text, "rotate-left(5,o) rotate-right(10,o) 7:black 10:red ");
	assert_true(validate_tree(&root2));

	/* erase of black leaf 1 in 2(1,3(-,4)): the sibling 3 has a red outer child, case 4 */
	log.text[0] = '\0';
	kfsim_rb_erase_traced(&items[0].rb, &root, &tracer);
	assert_string_equal(log.text, "unlink(1,-) rotate-left(2,o) 4:black ");
	assert_true(validate_tree(&root));
	/* a traced erase with no tracer is a plain erase */
	kfsim_rb_erase_traced(&items[1].rb, &root, NULL);
	assert_true(validate_tree(&root));
	assert_string_equal(kfsim_rb_step_kind_name(KFSIM_RB_STEP_UNLINK), "unlink");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty_tree),
		cmocka_unit_test(test_one_node),
		cmocka_unit_test(test_link_node_sets_red_leaf),
		cmocka_unit_test(test_ascending_and_descending_inserts),
		cmocka_unit_test(test_erase_root_and_every_shape),
		cmocka_unit_test(test_add_is_stable_and_find_first),
		cmocka_unit_test(test_find_add),
		cmocka_unit_test(test_rcu_variants),
		cmocka_unit_test(test_cached_add_erase_and_leftmost),
		cmocka_unit_test(test_find_add_cached),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_postorder_visits_children_first),
		cmocka_unit_test(test_postorder_walk_frees_nodes),
		cmocka_unit_test(test_entry_safe),
		cmocka_unit_test(test_step_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
