// SPDX-License-Identifier: MIT
/*
 * kfsim's versions of progs/rbtree.c, progs/rbtree_fail.c and progs/rbtree_btf_fail__*.c,
 * kernel 6.12.  See oracle_port.h for the rules a port follows.
 */
#include <stdint.h>

#include "oracle_port.h"

struct node_data {
	long key;
	long data;
	struct bpf_rb_node node;
};
KFSIM_BTF_STRUCT(node_data, BTF_FIELD(node_data, node));

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b);

/*
 * container_of() of a pointer that may be NULL, as the original computes it, in integer
 * arithmetic: the same value without C's undefined pointer arithmetic on NULL.
 */
#define container_of_maybe_null(ptr, type, member)                                                 \
	((type *)((uintptr_t)(ptr) - offsetof(type, member)))

/* ---- rbtree.c ---- */

struct root_nested_inner {
	struct bpf_spin_lock glock;
	struct bpf_rb_root root; /* __contains(node_data, node) */
};

struct root_nested {
	struct root_nested_inner inner;
};

/* .data.A: groot 0, glock 16, groot_array 24, groot_array_one 56; .data.B */
struct rb_data_a {
	struct bpf_rb_root groot;
	struct bpf_spin_lock glock;
	struct bpf_rb_root groot_array[2];
	struct bpf_rb_root groot_array_one[1];
};
KFSIM_BTF_STRUCT(rb_data_a, BTF_CONTAINS(rb_data_a, groot, node_data, node),
		 BTF_FIELD(rb_data_a, glock),
		 BTF_CONTAINS(rb_data_a, groot_array[0], node_data, node),
		 BTF_CONTAINS(rb_data_a, groot_array[1], node_data, node),
		 BTF_CONTAINS(rb_data_a, groot_array_one[0], node_data, node));

struct rb_data_b {
	struct root_nested groot_nested;
};
KFSIM_BTF_STRUCT(rb_data_b, BTF_FIELD(rb_data_b, groot_nested.inner.glock),
		 BTF_CONTAINS(rb_data_b, groot_nested.inner.root, node_data, node));

static struct rb_data_a ra;
static struct rb_data_b rb;
static long less_callback_ran = -1;
static long removed_key = -1;
static long first_data[2] = {-1, -1};

#define glock ra.glock
#define groot ra.groot
#define groot_array ra.groot_array
#define groot_array_one ra.groot_array_one

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data *node_a;
	const struct node_data *node_b;

	node_a = container_of(a, struct node_data, node);
	node_b = container_of(b, const struct node_data, node);
	less_callback_ran = 1;

	return node_a->key < node_b->key;
}

/* as in the original, @root and @lock are not used: the nodes go to groot */
static long __add_three(struct bpf_rb_root *root, struct bpf_spin_lock *lock)
{
	struct node_data *n, *m;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;
	n->key = 5;

	m = bpf_obj_new(node_data);
	if (!m) {
		bpf_obj_drop(n);
		return 2;
	}
	m->key = 1;

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_rbtree_add(&groot, &m->node, less);
	bpf_spin_unlock(&glock);

	n = bpf_obj_new(node_data);
	if (!n)
		return 3;
	n->key = 3;

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_spin_unlock(&glock);
	return 0;
}

static int rbtree_add_nodes(void *ctx)
{
	return __add_three(&groot, &glock);
}

static int rbtree_add_and_remove(void *ctx)
{
	struct bpf_rb_node *res = NULL;
	struct node_data *n, *m = NULL;

	n = bpf_obj_new(node_data);
	if (!n)
		goto err_out;
	n->key = 5;

	m = bpf_obj_new(node_data);
	if (!m)
		goto err_out;
	m->key = 3;

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_rbtree_add(&groot, &m->node, less);
	res = bpf_rbtree_remove(&groot, &n->node);
	bpf_spin_unlock(&glock);

	if (!res)
		return 1;

	n = container_of(res, struct node_data, node);
	removed_key = n->key;
	bpf_obj_drop(n);

	return 0;
err_out:
	if (n)
		bpf_obj_drop(n);
	if (m)
		bpf_obj_drop(m);
	return 1;
}

static int rbtree_add_and_remove_array(void *ctx)
{
	struct bpf_rb_node *res1 = NULL, *res2 = NULL, *res3 = NULL;
	struct node_data *nodes[3][2] = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
	struct node_data *n;
	long k1 = -1, k2 = -1, k3 = -1;
	int i, j;

	for (i = 0; i < 3; i++) {
		for (j = 0; j < 2; j++) {
			nodes[i][j] = bpf_obj_new(node_data);
			if (!nodes[i][j])
				goto err_out;
			nodes[i][j]->key = i * 2 + j;
		}
	}

	bpf_spin_lock(&glock);
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++)
			bpf_rbtree_add(&groot_array[i], &nodes[i][j]->node, less);
	for (j = 0; j < 2; j++)
		bpf_rbtree_add(&groot_array_one[0], &nodes[2][j]->node, less);
	res1 = bpf_rbtree_remove(&groot_array[0], &nodes[0][0]->node);
	res2 = bpf_rbtree_remove(&groot_array[1], &nodes[1][0]->node);
	res3 = bpf_rbtree_remove(&groot_array_one[0], &nodes[2][0]->node);
	bpf_spin_unlock(&glock);

	if (res1) {
		n = container_of(res1, struct node_data, node);
		k1 = n->key;
		bpf_obj_drop(n);
	}
	if (res2) {
		n = container_of(res2, struct node_data, node);
		k2 = n->key;
		bpf_obj_drop(n);
	}
	if (res3) {
		n = container_of(res3, struct node_data, node);
		k3 = n->key;
		bpf_obj_drop(n);
	}
	if (k1 != 0 || k2 != 2 || k3 != 4)
		return 2;

	return 0;

err_out:
	for (i = 0; i < 3; i++) {
		for (j = 0; j < 2; j++) {
			if (nodes[i][j])
				bpf_obj_drop(nodes[i][j]);
		}
	}
	return 1;
}

static int rbtree_first_and_remove(void *ctx)
{
	struct bpf_rb_node *res = NULL;
	struct node_data *n, *m, *o;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;
	n->key = 3;
	n->data = 4;

	m = bpf_obj_new(node_data);
	if (!m)
		goto err_out;
	m->key = 5;
	m->data = 6;

	o = bpf_obj_new(node_data);
	if (!o)
		goto err_out;
	o->key = 1;
	o->data = 2;

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_rbtree_add(&groot, &m->node, less);
	bpf_rbtree_add(&groot, &o->node, less);

	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 2;
	}

	o = container_of(res, struct node_data, node);
	first_data[0] = o->data;

	res = bpf_rbtree_remove(&groot, &o->node);
	bpf_spin_unlock(&glock);

	if (!res)
		return 5;

	o = container_of(res, struct node_data, node);
	removed_key = o->key;

	bpf_obj_drop(o);

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 3;
	}

	o = container_of(res, struct node_data, node);
	first_data[1] = o->data;
	bpf_spin_unlock(&glock);

	return 0;
err_out:
	if (n)
		bpf_obj_drop(n);
	if (m)
		bpf_obj_drop(m);
	return 1;
}

static int rbtree_api_release_aliasing_ok(void *ctx)
{
	struct node_data *n, *m, *o;
	struct bpf_rb_node *res, *res2;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;
	n->key = 41;
	n->data = 42;

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_spin_unlock(&glock);

	bpf_spin_lock(&glock);

	/* m and o point to the same node, but the verifier does not know this */
	res = bpf_rbtree_first(&groot);
	if (!res)
		goto err_out;
	o = container_of(res, struct node_data, node);

	res = bpf_rbtree_first(&groot);
	if (!res)
		goto err_out;
	m = container_of(res, struct node_data, node);

	res = bpf_rbtree_remove(&groot, &m->node);
	/* the second remove returns NULL: the node is in no tree any more */
	res2 = bpf_rbtree_remove(&groot, &o->node);

	bpf_spin_unlock(&glock);

	if (res) {
		o = container_of(res, struct node_data, node);
		first_data[0] = o->data;
		bpf_obj_drop(o);
	}
	if (res2) {
		m = container_of(res2, struct node_data, node);
		first_data[1] = m->data;
		bpf_obj_drop(m);
	}
	return 0;

err_out:
	bpf_spin_unlock(&glock);
	return 1;
}

#undef glock
#undef groot
#undef groot_array
#undef groot_array_one

/* (after the #undefs: the nested struct has a member called glock too) */
static int rbtree_add_nodes_nested(void *ctx)
{
	return __add_three(&rb.groot_nested.inner.root, &rb.groot_nested.inner.glock);
}

static void rbtree_init(void)
{
	ORACLE_SECTION(ra, rb_data_a, ".data.A");
	ORACLE_SECTION(rb, rb_data_b, ".data.B");
}

static const struct oracle_prog rbtree_progs[] = {
	ORACLE_PROG(rbtree_add_nodes),
	ORACLE_PROG(rbtree_add_nodes_nested),
	ORACLE_PROG(rbtree_add_and_remove),
	ORACLE_PROG(rbtree_add_and_remove_array),
	ORACLE_PROG(rbtree_first_and_remove),
	{"rbtree_api_release_aliasing", rbtree_api_release_aliasing_ok, KFSIM_BPF_PROG_SCHED_CLS},
};

const struct oracle_object oracle_rbtree = {"rbtree", rbtree_init, rbtree_progs,
					    ARRAY_SIZE(rbtree_progs)};

/* ---- rbtree_fail.c ---- */

/* .data.A: groot 0, glock 16, groot2 24 */
struct rbf_data_a {
	struct bpf_rb_root groot;
	struct bpf_spin_lock glock;
	struct bpf_rb_root groot2;
};
KFSIM_BTF_STRUCT(rbf_data_a, BTF_CONTAINS(rbf_data_a, groot, node_data, node),
		 BTF_FIELD(rbf_data_a, glock), BTF_CONTAINS(rbf_data_a, groot2, node_data, node));

static struct rbf_data_a fa;

#define glock fa.glock
#define groot fa.groot
#define groot2 fa.groot2

static int rbtree_api_nolock_add(void *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;

	bpf_rbtree_add(&groot, &n->node, less);
	return 0;
}

static int rbtree_api_nolock_remove(void *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_spin_unlock(&glock);

	bpf_rbtree_remove(&groot, &n->node);
	return 0;
}

static int rbtree_api_nolock_first(void *ctx)
{
	bpf_rbtree_first(&groot);
	return 0;
}

static int rbtree_api_remove_unadded_node(void *ctx)
{
	struct node_data *n, *m;
	struct bpf_rb_node *res;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;

	m = bpf_obj_new(node_data);
	if (!m) {
		bpf_obj_drop(n);
		return 1;
	}

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);

	/* n is non-owning here: accepted */
	res = bpf_rbtree_remove(&groot, &n->node);
	n = container_of_maybe_null(res, struct node_data, node);

	/* m was never added: refused before 6.16, NULL from 6.16 */
	res = bpf_rbtree_remove(&groot, &m->node);
	m = container_of_maybe_null(res, struct node_data, node);
	bpf_spin_unlock(&glock);

	if (n)
		bpf_obj_drop(n);
	if (m)
		bpf_obj_drop(m);
	return 0;
}

static int rbtree_api_remove_no_drop(void *ctx)
{
	struct bpf_rb_node *res;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res)
		goto unlock_err;

	res = bpf_rbtree_remove(&groot, res);
	/* the original keeps container_of(res) in __sink(n) and never drops it */
	bpf_spin_unlock(&glock);
	return 0;

unlock_err:
	bpf_spin_unlock(&glock);
	return 1;
}

static int rbtree_api_add_to_multiple_trees(void *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);

	/* n is non-owning after the first add: refused */
	bpf_rbtree_add(&groot2, &n->node, less);
	bpf_spin_unlock(&glock);
	return 0;
}

static int rbtree_api_use_unchecked_remove_retval(void *ctx)
{
	struct bpf_rb_node *res;

	bpf_spin_lock(&glock);

	res = bpf_rbtree_first(&groot);
	if (!res)
		goto err_out;
	res = bpf_rbtree_remove(&groot, res);

	bpf_spin_unlock(&glock);

	bpf_spin_lock(&glock);
	/* res is used without a NULL check */
	bpf_rbtree_add(&groot, res, less);
	bpf_spin_unlock(&glock);
	return 0;

err_out:
	bpf_spin_unlock(&glock);
	return 1;
}

static int rbtree_api_add_release_unlock_escape(void *ctx)
{
	struct node_data *n;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_spin_unlock(&glock);

	bpf_spin_lock(&glock);
	/* n died at the previous unlock */
	bpf_rbtree_remove(&groot, &n->node);
	bpf_spin_unlock(&glock);
	return 0;
}

static int rbtree_api_first_release_unlock_escape(void *ctx)
{
	struct bpf_rb_node *res;
	struct node_data *n;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 1;
	}
	n = container_of(res, struct node_data, node);
	bpf_spin_unlock(&glock);

	bpf_spin_lock(&glock);
	/* n died at the previous unlock */
	bpf_rbtree_remove(&groot, &n->node);
	bpf_spin_unlock(&glock);
	return 0;
}

static bool less__bad_fn_call_add(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data *node_a;
	const struct node_data *node_b;

	node_a = container_of(a, struct node_data, node);
	node_b = container_of(b, const struct node_data, node);
	bpf_rbtree_add(&groot, &node_a->node, less);

	return node_a->key < node_b->key;
}

static bool less__bad_fn_call_remove(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data *node_a;
	const struct node_data *node_b;

	node_a = container_of(a, struct node_data, node);
	node_b = container_of(b, const struct node_data, node);
	bpf_rbtree_remove(&groot, &node_a->node);

	return node_a->key < node_b->key;
}

static bool less__bad_fn_call_first_unlock_after(struct bpf_rb_node *a,
						 const struct bpf_rb_node *b)
{
	struct node_data *node_a;
	const struct node_data *node_b;

	node_a = container_of(a, struct node_data, node);
	node_b = container_of(b, const struct node_data, node);
	bpf_rbtree_first(&groot);
	bpf_spin_unlock(&glock);

	return node_a->key < node_b->key;
}

static long add_with_cb(bool (*cb)(struct bpf_rb_node *a, const struct bpf_rb_node *b))
{
	struct node_data *n;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, cb);
	bpf_spin_unlock(&glock);
	return 0;
}

static int rbtree_api_add_bad_cb_bad_fn_call_add(void *ctx)
{
	return add_with_cb(less__bad_fn_call_add);
}

static int rbtree_api_add_bad_cb_bad_fn_call_remove(void *ctx)
{
	return add_with_cb(less__bad_fn_call_remove);
}

static int rbtree_api_add_bad_cb_bad_fn_call_first_unlock_after(void *ctx)
{
	return add_with_cb(less__bad_fn_call_first_unlock_after);
}

#undef glock
#undef groot
#undef groot2

static void rbtree_fail_init(void)
{
	ORACLE_SECTION(fa, rbf_data_a, ".data.A");
}

static const struct oracle_prog rbtree_fail_progs[] = {
	ORACLE_PROG(rbtree_api_nolock_add),
	ORACLE_PROG(rbtree_api_nolock_remove),
	ORACLE_PROG(rbtree_api_nolock_first),
	ORACLE_PROG(rbtree_api_remove_unadded_node),
	ORACLE_PROG(rbtree_api_remove_no_drop),
	ORACLE_PROG(rbtree_api_add_to_multiple_trees),
	ORACLE_PROG(rbtree_api_use_unchecked_remove_retval),
	ORACLE_PROG(rbtree_api_add_release_unlock_escape),
	ORACLE_PROG(rbtree_api_first_release_unlock_escape),
	ORACLE_PROG(rbtree_api_add_bad_cb_bad_fn_call_add),
	ORACLE_PROG(rbtree_api_add_bad_cb_bad_fn_call_remove),
	ORACLE_PROG(rbtree_api_add_bad_cb_bad_fn_call_first_unlock_after),
};

const struct oracle_object oracle_rbtree_fail = {"rbtree_fail", rbtree_fail_init, rbtree_fail_progs,
						 ARRAY_SIZE(rbtree_fail_progs)};

/* ---- rbtree_btf_fail__add_wrong_type.c ---- */

struct node_data_i {
	int key;
	int data;
	struct bpf_rb_node node;
};
KFSIM_BTF_STRUCT(node_data_i, BTF_FIELD(node_data_i, node));

struct node_data2 {
	int key;
	struct bpf_rb_node node;
	int data;
};
KFSIM_BTF_STRUCT(node_data2, BTF_FIELD(node_data2, node));

static bool less2(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct node_data2, node)->key <
	       container_of(b, const struct node_data2, node)->key;
}

/* .data.A: glock 0, groot 8 */
struct awt_data_a {
	struct bpf_spin_lock glock;
	struct bpf_rb_root groot; /* __contains(node_data, node) */
};
KFSIM_BTF_STRUCT(awt_data_a, BTF_FIELD(awt_data_a, glock),
		 BTF_CONTAINS(awt_data_a, groot, node_data_i, node));

static struct awt_data_a awt;

static int rbtree_api_add__add_wrong_type(void *ctx)
{
	struct node_data2 *n;

	n = bpf_obj_new(node_data2);
	if (!n)
		return 1;

	bpf_spin_lock(&awt.glock);
	bpf_rbtree_add(&awt.groot, &n->node, less2);
	bpf_spin_unlock(&awt.glock);
	return 0;
}

static void add_wrong_type_init(void)
{
	ORACLE_SECTION(awt, awt_data_a, ".data.A");
}

static const struct oracle_prog add_wrong_type_progs[] = {
	ORACLE_PROG(rbtree_api_add__add_wrong_type),
};

const struct oracle_object oracle_rbtree_btf_fail__add_wrong_type = {
	"rbtree_btf_fail__add_wrong_type", add_wrong_type_init, add_wrong_type_progs,
	ARRAY_SIZE(add_wrong_type_progs)};

/* ---- rbtree_btf_fail__wrong_node_type.c: groot names a bpf_list_node as its node ---- */

struct node_data_l {
	int key;
	int data;
	struct bpf_list_node node;
};
KFSIM_BTF_STRUCT(node_data_l, BTF_FIELD(node_data_l, node));

struct wnt_data_a {
	struct bpf_spin_lock glock;
	struct bpf_rb_root groot; /* __contains(node_data, node) */
};
KFSIM_BTF_STRUCT(wnt_data_a, BTF_FIELD(wnt_data_a, glock),
		 BTF_CONTAINS(wnt_data_a, groot, node_data_l, node));

static struct wnt_data_a wnt;

static int rbtree_api_add__wrong_node_type(void *ctx)
{
	struct node_data_l *n;

	n = bpf_obj_new(node_data_l);
	if (!n)
		return 1;

	bpf_spin_lock(&wnt.glock);
	bpf_rbtree_first(&wnt.groot);
	bpf_spin_unlock(&wnt.glock);
	return 0;
}

/* the section's BTF is rejected, as the kernel rejects the map's record; the map still exists */
static void wrong_node_type_init(void)
{
	oracle_section(&wnt, kfsim_btf_of(wnt_data_a), ".data.A", false);
}

static const struct oracle_prog wrong_node_type_progs[] = {
	ORACLE_PROG(rbtree_api_add__wrong_node_type),
};

const struct oracle_object oracle_rbtree_btf_fail__wrong_node_type = {
	"rbtree_btf_fail__wrong_node_type", wrong_node_type_init, wrong_node_type_progs,
	ARRAY_SIZE(wrong_node_type_progs)};
