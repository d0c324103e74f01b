// SPDX-License-Identifier: MIT
/*
 * The failure cases of the kernel's rbtree selftests (tools/testing/selftests/bpf/progs/
 * rbtree_fail.c, rbtree_btf_fail__*.c), rewritten as kfsim programs under the same names and
 * matched against the same message substrings, the way a ported selftest would be.  Each case
 * says in which versions it fails and with what; in the others it must run clean.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/printk.h>
#include "bpf_test_types.h"

static struct glob g;

static struct node_data *new_node(long key)
{
	struct node_data *n = bpf_obj_new(node_data);

	if (n)
		n->key = key;
	return n;
}

static int rbtree_api_nolock_add(void *ctx)
{
	struct node_data *n = new_node(1);

	if (!n)
		return 1;
	bpf_rbtree_add(&g.groot, &n->node, less);
	bpf_obj_drop(n); /* refused add: still ours */
	return 0;
}

static int rbtree_api_nolock_remove(void *ctx)
{
	struct node_data *n = new_node(1);
	struct bpf_rb_node *res;

	if (!n)
		return 1;
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	bpf_spin_unlock(&g.glock);
	res = bpf_rbtree_remove(&g.groot, &n->node);
	if (res)
		bpf_obj_drop(container_of(res, struct node_data, node));
	return 0;
}

static int rbtree_api_nolock_first(void *ctx)
{
	bpf_rbtree_first(&g.groot);
	return 0;
}

static int rbtree_api_remove_unadded_node(void *ctx)
{
	struct node_data *n = new_node(1), *m = new_node(2);
	struct bpf_rb_node *res;

	if (!n || !m) {
		if (n)
			bpf_obj_drop(n);
		if (m)
			bpf_obj_drop(m);
		return 1;
	}
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	res = bpf_rbtree_remove(&g.groot, &n->node); /* n: non-owning: fine */
	bpf_rbtree_remove(&g.groot, &m->node);	     /* m: owning, never added */
	bpf_spin_unlock(&g.glock);
	if (res)
		bpf_obj_drop(container_of(res, struct node_data, node));
	bpf_obj_drop(m);
	return 0;
}

static int rbtree_api_remove_no_drop(void *ctx)
{
	struct bpf_rb_node *res;

	bpf_spin_lock(&g.glock);
	res = bpf_rbtree_first(&g.groot);
	if (res)
		res = bpf_rbtree_remove(&g.groot, res); /* never dropped */
	bpf_spin_unlock(&g.glock);
	return res ? 0 : 2;
}

static int rbtree_api_add_to_multiple_trees(void *ctx)
{
	struct node_data *n = new_node(1);

	if (!n)
		return 1;
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	bpf_rbtree_add(&g.groot2, &n->node, less); /* n is non-owning now */
	bpf_spin_unlock(&g.glock);
	return 0;
}

static int rbtree_api_add_release_unlock_escape(void *ctx)
{
	struct node_data *n = new_node(1);
	struct bpf_rb_node *res;

	if (!n)
		return 1;
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, less);
	bpf_spin_unlock(&g.glock);
	bpf_spin_lock(&g.glock);
	res = bpf_rbtree_remove(&g.groot, &n->node); /* n died at the unlock */
	bpf_spin_unlock(&g.glock);
	if (res)
		bpf_obj_drop(container_of(res, struct node_data, node));
	return 0;
}

static int rbtree_api_first_release_unlock_escape(void *ctx)
{
	struct bpf_rb_node *res;

	bpf_spin_lock(&g.glock);
	res = bpf_rbtree_first(&g.groot);
	bpf_spin_unlock(&g.glock);
	if (!res)
		return 1;
	bpf_spin_lock(&g.glock);
	res = bpf_rbtree_remove(&g.groot, res);
	bpf_spin_unlock(&g.glock);
	if (res)
		bpf_obj_drop(container_of(res, struct node_data, node));
	return 0;
}

static int rbtree_api_release_aliasing(void *ctx)
{
	struct bpf_rb_node *res, *res2;

	bpf_spin_lock(&g.glock);
	res = bpf_rbtree_first(&g.groot);
	res2 = bpf_rbtree_first(&g.groot); /* an alias */
	if (!res || !res2) {
		bpf_spin_unlock(&g.glock);
		return 1;
	}
	res = bpf_rbtree_remove(&g.groot, res);
	res2 = bpf_rbtree_remove(&g.groot, res2); /* 6.3: dead; 6.4+: NULL at run time */
	bpf_spin_unlock(&g.glock);
	if (res)
		bpf_obj_drop(container_of(res, struct node_data, node));
	if (res2)
		bpf_obj_drop(container_of(res2, struct node_data, node));
	return 0;
}

static bool less_with_remove(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bpf_rbtree_remove(&g.groot, (struct bpf_rb_node *)b);
	return less(a, b);
}

static bool less_with_unlock(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bpf_spin_unlock(&g.glock);
	return less(a, b);
}

static int add_with_cb(bpf_rb_less_t cb)
{
	struct node_data *n = new_node(1);

	if (!n)
		return 1;
	bpf_spin_lock(&g.glock);
	bpf_rbtree_add(&g.groot, &n->node, cb);
	bpf_spin_unlock(&g.glock);
	return 0;
}

static int rbtree_api_remove_in_cb(void *ctx)
{
	return add_with_cb(less_with_remove);
}

static int rbtree_api_unlock_in_cb(void *ctx)
{
	return add_with_cb(less_with_unlock);
}

static int rbtree_api_drop_locked(void *ctx)
{
	struct node_data *n = new_node(1);

	if (!n)
		return 1;
	bpf_spin_lock(&g.glock);
	bpf_obj_drop(n);
	bpf_spin_unlock(&g.glock);
	bpf_obj_drop(n);
	return 0;
}

/* Two nodes for the cases that need a non-empty tree. */
static int fill(void *ctx)
{
	for (long k = 10; k < 12; k++) {
		struct node_data *n = new_node(k);

		if (!n)
			return 1;
		bpf_spin_lock(&g.glock);
		bpf_rbtree_add(&g.groot, &n->node, less);
		bpf_spin_unlock(&g.glock);
	}
	return 0;
}

/*
 * @fail_from/@fail_until: the versions [from, until) in which the verifier rejects the program;
 * @msg: the substring expected then (NULL: the case fails in no version).
 */
struct selftest_case {
	const char *name;
	int (*prog)(void *ctx);
	unsigned int fail_from, fail_until;
	const char *msg;
	const char *msg_616; /* the 6.16 wording, when it changed */
};

#define V(a, b) KERNEL_VERSION(a, b, 0)
#define ALWAYS V(4, 0), V(255, 0)

static const struct selftest_case cases[] = {
	{"rbtree_api_nolock_add", rbtree_api_nolock_add, ALWAYS, "must be held for bpf_rb_root",
	 NULL},
	{"rbtree_api_nolock_remove", rbtree_api_nolock_remove, ALWAYS,
	 "must be held for bpf_rb_root", NULL},
	{"rbtree_api_nolock_first", rbtree_api_nolock_first, ALWAYS, "must be held for bpf_rb_root",
	 NULL},
	/*
	 * "bpf: Allow refcounted bpf_rb_node used in bpf_rbtree_{remove,left,right}" (6.16) made
	 * this case __retval(0): any owning reference is accepted, a never-added node gives NULL.
	 */
	{"rbtree_api_remove_unadded_node", rbtree_api_remove_unadded_node, V(4, 0), V(6, 16),
	 "rbtree_remove node input must be non-owning ref", NULL},
	{"rbtree_api_remove_no_drop", rbtree_api_remove_no_drop, ALWAYS,
	 "Unreleased reference id=", NULL},
	{"rbtree_api_add_to_multiple_trees", rbtree_api_add_to_multiple_trees, ALWAYS,
	 "arg#1 expected pointer to allocated object", NULL},
	{"rbtree_api_add_release_unlock_escape", rbtree_api_add_release_unlock_escape, ALWAYS,
	 "rbtree_remove node input must be non-owning ref",
	 "bpf_rbtree_remove can only take non-owning or refcounted bpf_rb_node pointer"},
	{"rbtree_api_first_release_unlock_escape", rbtree_api_first_release_unlock_escape, ALWAYS,
	 "rbtree_remove node input must be non-owning ref",
	 "bpf_rbtree_remove can only take non-owning or refcounted bpf_rb_node pointer"},
	{"rbtree_api_release_aliasing", rbtree_api_release_aliasing, V(4, 0), V(6, 4),
	 "rbtree_remove node input must be non-owning ref", NULL},
	{"rbtree_api_remove_in_cb", rbtree_api_remove_in_cb, ALWAYS,
	 "rbtree_remove not allowed in rbtree cb", "bpf_rbtree_remove not allowed in rbtree cb"},
	{"rbtree_api_unlock_in_cb", rbtree_api_unlock_in_cb, ALWAYS,
	 "can't spin_{lock,unlock} in rbtree cb", NULL},
	{"rbtree_api_drop_locked", rbtree_api_drop_locked, ALWAYS,
	 "function calls are not allowed while holding a lock", NULL},
};

static void run_cases(unsigned int kver)
{
	char ver[16];

	kfsim_console_loglevel_set(0);
	kfsim_set_kernel_version(kver);
	kfsim_kver_format(kver, ver, sizeof(ver));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct selftest_case *c = &cases[i];
		bool fails = kver >= c->fail_from && kver < c->fail_until;
		const char *msg = kver >= V(6, 16) && c->msg_616 ? c->msg_616 : c->msg;
		struct kfsim_bpf_run run;
		bool found = false;
		int ret = 0;

		glob_init(&g, NULL);
		assert_int_equal(kfsim_bpf_run(&run, "fill", fill, NULL, NULL, &ret), 0);
		kfsim_bpf_run(&run, c->name, c->prog, NULL, NULL, &ret);
		for (int v = 0; v < run.nr_violations && v < KFSIM_BPF_RUN_MAX_REPORTS; v++)
			found |= strstr(run.violations[v].msg, msg) != NULL;
		if (fails && !found)
			fail_msg("%s on %s: no report contains \"%s\" (%d reports, first: \"%s\")",
				 c->name, ver, msg, run.nr_violations,
				 run.nr_violations ? run.violations[0].msg : "");
		if (!fails && run.nr_violations)
			fail_msg("%s on %s: expected a clean run, got \"%s\"", c->name, ver,
				 run.violations[0].msg);
		assert_int_equal(kfsim_bpf_private_free(&g, kfsim_btf_of(glob)), 0);
	}
}

static void test_rbtree_fail_63(void **state)
{
	run_cases(V(6, 3));
}

static void test_rbtree_fail_64(void **state)
{
	run_cases(V(6, 4));
}

static void test_rbtree_fail_616(void **state)
{
	run_cases(V(6, 16));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rbtree_fail_63),
		cmocka_unit_test(test_rbtree_fail_64),
		cmocka_unit_test(test_rbtree_fail_616),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
