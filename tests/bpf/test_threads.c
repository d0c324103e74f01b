// SPDX-License-Identifier: MIT
/*
 * Several threads run programs over the same tree and list: bpf_spin_lock is a real lock and the
 * verifier state is per thread, so every run is clean and no node is lost or seen twice.
 * Run under TSan (label "threads").
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <pthread.h>
#include <cmocka.h>

#include <kfsim/printk.h>
#include <kfsim/random.h>
#include "bpf_test_types.h"

#define NR_THREADS 4
#define NR_RUNS 300

static struct glob g;

struct worker {
	pthread_t thread;
	unsigned int seed;
	long added, removed, violations;
	long key_sum_added, key_sum_removed;
};

struct prog_ctx {
	struct worker *w;
	struct rnd_state *rnd;
};

/* One program: add a node and a list item; half the time take the smallest node and an item. */
static int prog(void *arg)
{
	struct prog_ctx *ctx = arg;
	struct node_data *n = bpf_obj_new(node_data);
	struct list_item *it = bpf_obj_new(list_item);
	struct bpf_rb_node *res = NULL;
	struct bpf_list_node *ln = NULL;
	bool take = kfsim_prandom_below(ctx->rnd, 2);

	if (!n || !it) {
		if (n)
			bpf_obj_drop(n);
		if (it)
			bpf_obj_drop(it);
		return 1;
	}
	n->key = kfsim_prandom_below(ctx->rnd, 1000);
	ctx->w->key_sum_added += n->key;
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	bpf_list_push_back(&g.ghead, &it->link);
	if (take) {
		res = bpf_rbtree_first(&g.groot);
		if (res)
			res = bpf_rbtree_remove(&g.groot, res);
		ln = bpf_list_pop_front(&g.ghead);
	}
	bpf_spin_unlock(&g.glock);
	ctx->w->added++;
	if (res) {
		ctx->w->removed++;
		ctx->w->key_sum_removed += container_of(res, struct node_data, node)->key;
		bpf_obj_drop(container_of(res, struct node_data, node));
	}
	if (ln)
		bpf_obj_drop(container_of(ln, struct list_item, link));
	return 0;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct rnd_state rnd;
	struct prog_ctx ctx = {w, &rnd};

	prandom_seed_state(&rnd, w->seed);
	for (int i = 0; i < NR_RUNS; i++) {
		struct kfsim_bpf_run run;

		kfsim_bpf_run(&run, "worker", prog, &ctx, NULL, NULL);
		w->violations += run.nr_violations;
	}
	return NULL;
}

static void test_threads_share_collections(void **state)
{
	struct worker workers[NR_THREADS] = {0};
	long added = 0, removed = 0, sum_added = 0, sum_removed = 0, left = 0, sum_left = 0;
	struct kfsim_bpf_run run;
	struct bpf_rb_node *res;

	kfsim_console_loglevel_set(0);
	glob_init(&g, NULL);
	for (int i = 0; i < NR_THREADS; i++) {
		workers[i].seed = 100 + i;
		assert_int_equal(pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]),
				 0);
	}
	for (int i = 0; i < NR_THREADS; i++) {
		pthread_join(workers[i].thread, NULL);
		assert_int_equal(workers[i].violations, 0);
		added += workers[i].added;
		removed += workers[i].removed;
		sum_added += workers[i].key_sum_added;
		sum_removed += workers[i].key_sum_removed;
	}
	assert_int_equal(added, NR_THREADS * NR_RUNS);
	/* drain what is left, checking the order and that nothing was lost */
	assert_int_equal(kfsim_bpf_run_begin(&run, "drain", NULL), 0);
	for (long prev = -1;;) {
		struct node_data *n;

		bpf_spin_lock(&g.glock);
		res = bpf_rbtree_first(&g.groot);
		if (res)
			res = bpf_rbtree_remove(&g.groot, res);
		bpf_spin_unlock(&g.glock);
		if (!res)
			break;
		n = container_of(res, struct node_data, node);
		assert_true(n->key >= prev);
		prev = n->key;
		left++;
		sum_left += n->key;
		bpf_obj_drop(n);
	}
	assert_int_equal(kfsim_bpf_run_end(&run), 0);
	assert_int_equal(left, added - removed);
	assert_int_equal(sum_left, sum_added - sum_removed);
	assert_int_equal(kfsim_bpf_private_free(&g, kfsim_btf_of(glob)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threads_share_collections),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
