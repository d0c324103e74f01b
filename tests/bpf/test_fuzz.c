// SPDX-License-Identifier: MIT
/*
 * Bad programs never crash kfsim or corrupt a collection: random sequences of kfunc calls with
 * random arguments (live, stale, dropped, interior, NULL pointers; the wrong lock; calls inside
 * and outside critical sections) run in continue mode, in 6.3 and 6.16 mode.  After every run
 * the tree must pass the kernel rbtree checker with keys in order and the leftmost cached, every
 * node's owner must be its root, and once the sections are freed no byte may be left allocated.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/bpf_graph_core.h>
#include <kfsim/printk.h>
#include <kfsim/random.h>
#include <kfsim/rbtree_debug.h>
#include <kfsim/slab.h>
#include "bpf_test_types.h"

#define POOL 24

static struct glob g;
static struct glob2 g2;

static u64 bytes_live(void)
{
	struct kfsim_kmalloc_stats st;

	kfsim_kmalloc_stats(&st);
	return st.bytes_live;
}

static int key_cmp(const struct rb_node *a, const struct rb_node *b)
{
	long ka = container_of((const struct bpf_rb_node *)a, const struct node_data, node)->key;
	long kb = container_of((const struct bpf_rb_node *)b, const struct node_data, node)->key;

	return ka < kb ? -1 : ka > kb;
}

static void check_tree(struct bpf_rb_root *root)
{
	struct bpf_rb_root_kern *r = (struct bpf_rb_root_kern *)root;
	struct kfsim_rb_check_ops ops = {.cmp = key_cmp};
	struct kfsim_rb_check_result res;

	if (kfsim_rb_check_cached(&r->tree, &ops, &res))
		fail_msg("tree broken: %s", res.message);
	for (struct rb_node *n = rb_first(&r->tree.rb_root); n; n = rb_next(n))
		assert_ptr_equal(((struct bpf_rb_node_kern *)n)->owner, r);
}

/* A pointer the program might pass: something it got, an interior pointer, or junk. */
static void *pick(struct rnd_state *rnd, void **pool)
{
	void *p = pool[kfsim_prandom_below(rnd, POOL)];

	switch (kfsim_prandom_below(rnd, 8)) {
	case 0:
		return NULL;
	case 1:
		return p ? (char *)p + 8 : NULL; /* interior */
	default:
		return p;
	}
}

static void remember(struct rnd_state *rnd, void **pool, void *p)
{
	if (p)
		pool[kfsim_prandom_below(rnd, POOL)] = p;
}

static void one_op(struct rnd_state *rnd, void **pool)
{
	struct bpf_spin_lock *lock = kfsim_prandom_below(rnd, 6) ? &g.glock : &g2.lock2;
	struct bpf_rb_root *root = kfsim_prandom_below(rnd, 6) ? &g.groot : &g.groot2;
	struct node_data *n;
	void *p;

	switch (kfsim_prandom_below(rnd, 11)) {
	case 0:
		n = bpf_obj_new(node_data);
		if (n)
			n->key = kfsim_prandom_below(rnd, 100);
		remember(rnd, pool, n);
		break;
	case 1:
		bpf_obj_drop(pick(rnd, pool));
		break;
	case 2:
	case 3:
		bpf_spin_lock(lock);
		break;
	case 4:
		bpf_spin_unlock(lock);
		break;
	case 5:
		p = pick(rnd, pool);
		bpf_rbtree_add(root, p ? &((struct node_data *)p)->node : NULL, less);
		break;
	case 6:
		p = bpf_rbtree_first(root);
		remember(rnd, pool, p ? container_of(p, struct node_data, node) : NULL);
		break;
	case 7:
		p = pick(rnd, pool);
		p = bpf_rbtree_remove(root, p ? &((struct node_data *)p)->node : NULL);
		remember(rnd, pool, p ? container_of(p, struct node_data, node) : NULL);
		break;
	case 8:
		p = pick(rnd, pool);
		bpf_list_push_back(&g.ghead, p ? &((struct list_item *)p)->link : NULL);
		break;
	case 9:
		p = bpf_list_pop_front(&g.ghead);
		remember(rnd, pool, p ? container_of(p, struct list_item, link) : NULL);
		break;
	default:
		p = bpf_obj_new(list_item);
		remember(rnd, pool, p);
		break;
	}
}

static void fuzz(unsigned int kver)
{
	u64 before = bytes_live();
	struct rnd_state rnd;

	kfsim_set_kernel_version(kver);
	glob_init(&g, &g2);
	for (u64 seed = 1; seed <= 40; seed++) {
		void *pool[POOL] = {0};
		struct kfsim_bpf_run run;

		prandom_seed_state(&rnd, seed);
		assert_int_equal(kfsim_bpf_run_begin(&run, "fuzz", NULL), 0);
		for (int op = 0; op < 200; op++)
			one_op(&rnd, pool);
		kfsim_bpf_run_end(&run);
		assert_int_equal(g.glock.val, 0);
		assert_int_equal(g2.lock2.val, 0);
		check_tree(&g.groot);
		check_tree(&g.groot2);
	}
	assert_int_equal(kfsim_bpf_private_free(&g, kfsim_btf_of(glob)), 0);
	assert_int_equal(kfsim_bpf_private_free(&g2, kfsim_btf_of(glob2)), 0);
	assert_int_equal(bytes_live(), before);
}

static void test_fuzz_63(void **state)
{
	fuzz(KERNEL_VERSION(6, 3, 0));
}

static void test_fuzz_616(void **state)
{
	fuzz(KERNEL_VERSION(6, 16, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_63),
		cmocka_unit_test(test_fuzz_616),
	};

	kfsim_console_loglevel_set(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
