// SPDX-License-Identifier: MIT
/*
 * Decision points and the fork explorer (<kfsim/bpf_explore.h>), through kfsim's C API: both
 * outcomes of a maybe-NULL result are run, a NULL result on an empty tree or list becomes a
 * fabricated node of the contained type, the paths come in a fixed order within the budget, a
 * rule broken before the exit outranks a leak at the exit, and a load through a NULL result or a
 * dropped object ends its path with the verifier's rule instead of a crash.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <kfsim/bpf_explore.h>
#include <kfsim/printk.h>
#include "bpf_test_types.h"

static struct glob g;

/* The tree is empty: the remove only runs on the path where bpf_rbtree_first is fabricated. */
static int first_remove_drop(void *ctx)
{
	struct bpf_rb_node *res;
	bool *leak = ctx;

	bpf_spin_lock(&g.glock);
	res = bpf_rbtree_first(&g.groot);
	if (res)
		res = bpf_rbtree_remove(&g.groot, res);
	bpf_spin_unlock(&g.glock);
	if (res && !*leak)
		bpf_obj_drop(container_of(res, struct node_data, node));
	return 0;
}

static int new_unchecked(void *ctx)
{
	struct node_data *n = bpf_obj_new(node_data);
	long key = *(volatile long *)&n->key; /* the verifier: R0 invalid mem access */

	bpf_obj_drop(n);
	return (int)key;
}

static int new_drop_load(void *ctx)
{
	struct node_data *n = bpf_obj_new(node_data);

	if (!n)
		return 0;
	bpf_obj_drop(n);
	return (int)*(volatile long *)&n->key;
}

static int five_news(void *ctx)
{
	for (int i = 0; i < 5; i++) {
		struct node_data *n = bpf_obj_new(node_data);

		if (n)
			bpf_obj_drop(n);
	}
	return 0;
}

/* A pop from the empty list gives a fabricated node that the program pushes back (clean). */
static int pop_push(void *ctx)
{
	struct bpf_list_node *n;

	bpf_spin_lock(&g.glock);
	n = bpf_list_pop_front(&g.ghead);
	if (n)
		bpf_list_push_back(&g.ghead, n);
	bpf_spin_unlock(&g.glock);
	return 0;
}

struct prog {
	int (*fn)(void *ctx);
	void *ctx;
};

static int path(void *arg, void *result)
{
	const struct prog *p = arg;
	struct kfsim_bpf_run run;
	int ret;

	glob_init(&g, NULL);
	kfsim_bpf_run(&run, "prog", p->fn, p->ctx, NULL, &ret);
	if (!run.nr_violations)
		return KFSIM_BPF_PATH_CLEAN;
	snprintf(result, 128, "%.120s", run.violations[0].msg);
	return KFSIM_BPF_PATH_VIOLATION |
	       (!strncmp(run.violations[0].msg, "Unreleased", 10) ? KFSIM_BPF_PATH_AT_EXIT : 0);
}

static void explore(struct prog *p, unsigned int max_paths, unsigned int max_flips,
		    struct kfsim_bpf_explore_report *rep)
{
	struct kfsim_bpf_explore_opts opts = {.max_paths = max_paths, .max_flips = max_flips,
					      .timeout_ms = 20000, .result_size = 128,
					      .stop_at_violation = true};

	assert_int_equal(kfsim_bpf_explore(path, p, &opts, rep), 0);
}

static void test_fabricated_node_on_empty_tree(void **state)
{
	bool leak = false;
	struct prog p = {first_remove_drop, &leak};
	struct kfsim_bpf_explore_report rep;

	explore(&p, 64, 2, &rep);
	/* the natural path (first NULL); first fabricated, then remove's node; then its NULL */
	assert_int_equal(rep.nr_paths, 3);
	assert_int_equal(rep.first, -1);
	assert_false(rep.paths_spent);
	assert_int_equal(rep.paths[0].nr_flips, 0);
	assert_int_equal(rep.paths[0].nr_steps, 1);
	assert_false(rep.paths[0].steps[0].natural);
	for (int i = 1; i < 3; i++) {
		assert_string_equal(rep.paths[i].steps[0].kfunc, "bpf_rbtree_first");
		assert_true(rep.paths[i].steps[0].flipped);
		assert_true(rep.paths[i].steps[0].fabricated);
		assert_int_equal(rep.paths[i].nr_steps, 2); /* the remove met the fabricated node */
		assert_string_equal(rep.paths[i].steps[1].kfunc, "bpf_rbtree_remove");
		assert_true(rep.paths[i].steps[1].natural);
	}
	assert_false(rep.paths[1].steps[1].flipped);
	assert_true(rep.paths[2].steps[1].flipped);
	kfsim_bpf_explore_release(&rep);
}

static void test_leak_on_explored_path(void **state)
{
	bool leak = true;
	struct prog p = {first_remove_drop, &leak};
	struct kfsim_bpf_explore_report rep;

	explore(&p, 64, 2, &rep);
	assert_int_equal(rep.first, 1);
	assert_int_equal(rep.paths[1].end, KFSIM_BPF_PATH_VIOLATION);
	assert_true(rep.paths[1].at_exit);
	assert_non_null(strstr(rep.result, "Unreleased reference"));
	assert_int_equal(rep.nr_paths, 3); /* an exit rule does not stop the exploration */
	kfsim_bpf_explore_release(&rep);
}

static void test_fabricated_list_node_and_push_failure(void **state)
{
	struct prog p = {pop_push, NULL};
	struct kfsim_bpf_explore_report rep;

	explore(&p, 64, 2, &rep);
	assert_int_equal(rep.first, -1);
	assert_int_equal(rep.nr_paths, 3);
	assert_string_equal(rep.paths[1].steps[0].kfunc, "bpf_list_pop_front");
	assert_true(rep.paths[1].steps[0].fabricated);
	assert_string_equal(rep.paths[2].steps[1].kfunc, "bpf_list_push_back_impl");
	assert_true(rep.paths[2].steps[1].flipped); /* the push's -EINVAL */
	kfsim_bpf_explore_release(&rep);
}

static void test_budget_and_order(void **state)
{
	struct prog p = {five_news, NULL};
	struct kfsim_bpf_explore_report a, b;

	explore(&p, 3, 1, &a);
	explore(&p, 3, 1, &b);
	assert_int_equal(a.nr_paths, 3);
	assert_true(a.paths_spent);
	assert_false(a.time_spent);
	/* one other outcome per path, by the place of the decision: bpf_obj_new #1, then #2 */
	assert_true(a.paths[1].steps[0].flipped);
	assert_false(a.paths[1].steps[1].flipped);
	assert_true(a.paths[2].steps[1].flipped);
	for (unsigned int i = 0; i < a.nr_paths; i++) {
		assert_int_equal(a.paths[i].nr_steps, b.paths[i].nr_steps);
		for (unsigned int j = 0; j < a.paths[i].nr_steps; j++)
			assert_int_equal(a.paths[i].steps[j].flipped, b.paths[i].steps[j].flipped);
	}
	kfsim_bpf_explore_release(&a);
	kfsim_bpf_explore_release(&b);
}

static void test_null_result_loaded(void **state)
{
	struct prog p = {new_unchecked, NULL};
	struct kfsim_bpf_explore_report rep;

	explore(&p, 64, 2, &rep);
	assert_int_equal(rep.first, 1);
#ifdef KFSIM_ASAN
	/* UBSan's null check stops the path first: an unrecorded death is a crash */
	assert_int_equal(rep.paths[1].end, KFSIM_BPF_PATH_CRASH);
#else
	assert_int_equal(rep.paths[1].end, KFSIM_BPF_PATH_NULL_DEREF);
#endif
	assert_int_equal(rep.paths[0].end, KFSIM_BPF_PATH_CLEAN);
	kfsim_bpf_explore_release(&rep);
}

static void test_dropped_object_loaded(void **state)
{
	struct prog p = {new_drop_load, NULL};
	struct kfsim_bpf_explore_report rep;

	kfsim_bpf_guard_dropped(true);
	explore(&p, 64, 2, &rep);
	kfsim_bpf_guard_dropped(false);
	assert_int_equal(rep.first, 0);
	assert_int_equal(rep.paths[0].end, KFSIM_BPF_PATH_DEAD_REF);
	kfsim_bpf_explore_release(&rep);
}

static bool always_other(const struct kfsim_bpf_decision *d, void *arg)
{
	(*(int *)arg)++;
	return true;
}

/* The explorer alone, no fork: asked inside a run only, and its answer is the call's result. */
static void test_explorer_hook(void **state)
{
	struct kfsim_bpf_run run;
	struct node_data *n;
	int asked = 0;

	kfsim_bpf_explore_set(always_other, &asked);
	n = bpf_obj_new(node_data); /* outside a run: not asked */
	assert_non_null(n);
	assert_int_equal(asked, 0);
	bpf_obj_drop(n);
	assert_int_equal(kfsim_bpf_run_begin(&run, "hook", NULL), 0);
	assert_null(bpf_obj_new(node_data));
	assert_int_equal(asked, 1);
	assert_int_equal(kfsim_bpf_run_end(&run), 0);
	kfsim_bpf_explore_set(NULL, NULL);
}

static void test_bad_budget(void **state)
{
	struct prog p = {five_news, NULL};
	struct kfsim_bpf_explore_opts opts = {.max_paths = 0, .timeout_ms = 1000};
	struct kfsim_bpf_explore_report rep;

	assert_int_equal(kfsim_bpf_explore(path, &p, &opts, &rep), -EINVAL);
	opts.max_paths = KFSIM_BPF_EXPLORE_MAX_PATHS + 1;
	assert_int_equal(kfsim_bpf_explore(path, &p, &opts, &rep), -EINVAL);
	opts.max_paths = 4;
	opts.timeout_ms = 0;
	assert_int_equal(kfsim_bpf_explore(path, &p, &opts, &rep), -EINVAL);
	opts.timeout_ms = 1000;
	assert_int_equal(kfsim_bpf_explore(NULL, &p, &opts, &rep), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fabricated_node_on_empty_tree),
		cmocka_unit_test(test_leak_on_explored_path),
		cmocka_unit_test(test_fabricated_list_node_and_push_failure),
		cmocka_unit_test(test_budget_and_order),
		cmocka_unit_test(test_null_result_loaded),
		cmocka_unit_test(test_dropped_object_loaded),
		cmocka_unit_test(test_explorer_hook),
		cmocka_unit_test(test_bad_budget),
	};

	kfsim_console_loglevel_set(0);
	kfsim_set_kernel_version(KERNEL_VERSION(6, 16, 0));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
