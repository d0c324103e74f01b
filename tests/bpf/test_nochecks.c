// SPDX-License-Identifier: MIT
/*
 * KFSIM_BPF_NO_CHECKS: the same program text with the checks compiled out keeps the kernel's
 * run-time behaviour (ordering, FIFO among equals, NULL from remove of a node not in the tree,
 * -EINVAL and a drop for a double insert, lists, draining) and never touches the verifier state.
 */
#define KFSIM_BPF_NO_CHECKS 1
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/printk.h>
#include <kfsim/slab.h>
#include "bpf_test_types.h"

static struct glob g;

static u64 bytes_live(void)
{
	struct kfsim_kmalloc_stats st;

	kfsim_kmalloc_stats(&st);
	return st.bytes_live;
}

static void test_tree_order_and_fifo(void **state)
{
	static const long keys[] = {4, 2, 4, 9, 2};
	struct bpf_rb_node *res;
	long prev_key = -1, prev_data = -1;
	u64 before = bytes_live();

	glob_init(&g, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		struct node_data *n = bpf_obj_new(node_data);

		assert_non_null(n);
		n->key = keys[i];
		n->data = (long)i;
		bpf_spin_lock(&g.glock);
		assert_int_equal(bpf_rbtree_add(&g.groot, &n->node, less), 0);
		bpf_spin_unlock(&g.glock);
	}
	for (;;) {
		struct node_data *n;

		bpf_spin_lock(&g.glock);
		res = bpf_rbtree_first(&g.groot);
		if (res) {
			/* not in groot2: NULL, the tree unchanged */
			assert_null(bpf_rbtree_remove(&g.groot2, res));
			res = bpf_rbtree_remove(&g.groot, res);
		}
		bpf_spin_unlock(&g.glock);
		if (!res)
			break;
		n = container_of(res, struct node_data, node);
		assert_true(n->key > prev_key || (n->key == prev_key && n->data > prev_data));
		prev_key = n->key;
		prev_data = n->data;
		bpf_obj_drop(n);
	}
	assert_int_equal(kfsim_bpf_violations_total(), 0);
	assert_int_equal(kfsim_bpf_private_free(&g, kfsim_btf_of(glob)), 0);
	assert_int_equal(bytes_live(), before);
}

static void test_double_insert_fails_and_drops(void **state)
{
	struct gshared s;
	struct shared_node *n, *m;
	struct bpf_list_node *ln;
	u64 before = bytes_live();

	kfsim_set_kernel_version(KERNEL_VERSION(6, 16, 0));
	memset(&s, 0, sizeof(s));
	assert_int_equal(kfsim_bpf_private_init(&s, kfsim_btf_of(gshared)), 0);
	n = bpf_obj_new(shared_node);
	assert_non_null(n);
	m = bpf_refcount_acquire(n);
	assert_ptr_equal(m, n);
	bpf_spin_lock(&s.lock);
	assert_int_equal(bpf_rbtree_add(&s.root, &n->rb, less_shared), 0);
	assert_int_equal(bpf_rbtree_add(&s.root, &m->rb, less_shared), -EINVAL); /* m dropped */
	bpf_spin_unlock(&s.lock);
	m = bpf_refcount_acquire(n); /* count 2: the tree's and m */
	bpf_spin_lock(&s.lock);
	assert_int_equal(bpf_list_push_back(&s.list, &m->ln), 0);
	bpf_spin_unlock(&s.lock);
	m = bpf_refcount_acquire(n); /* count 3 */
	bpf_spin_lock(&s.lock);
	assert_int_equal(bpf_list_push_front(&s.list, &m->ln), -EINVAL); /* already listed: 2 */
	ln = bpf_list_pop_front(&s.list);
	bpf_spin_unlock(&s.lock);
	assert_ptr_equal(ln, &n->ln);
	bpf_obj_drop(container_of(ln, struct shared_node, ln)); /* 1: the tree's */
	assert_true(bytes_live() > before);
	assert_int_equal(kfsim_bpf_private_free(&s, kfsim_btf_of(gshared)), 0);
	assert_int_equal(bytes_live(), before);
	kfsim_set_kernel_version(KFSIM_KERNEL_VERSION_DEFAULT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_order_and_fifo),
		cmocka_unit_test(test_double_insert_fails_and_drops),
	};

	kfsim_console_loglevel_set(0);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
