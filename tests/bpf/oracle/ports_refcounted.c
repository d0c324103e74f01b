// SPDX-License-Identifier: MIT
/*
 * kfsim's versions of progs/refcounted_kptr.c and progs/refcounted_kptr_fail.c, kernel 6.12.
 * See oracle_port.h for the rules a port follows.
 */
#include "oracle_port.h"

/* ---- refcounted_kptr.c ---- */

struct node_data {
	long key;
	long list_data;
	struct bpf_rb_node r;
	struct bpf_list_node l;
	struct bpf_refcount ref;
};
KFSIM_BTF_STRUCT(node_data, BTF_FIELD(node_data, r), BTF_FIELD(node_data, l),
		 BTF_FIELD(node_data, ref));

/* the value of stashed_nodes (an array of 2): one __kptr field */
struct map_value {
	struct node_data *node;
};

struct node_acquire {
	long key;
	long data;
	struct bpf_rb_node node;
	struct bpf_refcount refcount;
};
KFSIM_BTF_STRUCT(node_acquire, BTF_FIELD(node_acquire, node), BTF_FIELD(node_acquire, refcount));

/* .bss.A: head 0, root 16, lock 32; .bss.B: alock 0, aroot 8; .bss.C: block 0, broot 8 */
struct rk_bss_a {
	struct bpf_list_head head; /* __contains(node_data, l) */
	struct bpf_rb_root root;   /* __contains(node_data, r) */
	struct bpf_spin_lock lock;
};
KFSIM_BTF_STRUCT(rk_bss_a, BTF_CONTAINS(rk_bss_a, head, node_data, l),
		 BTF_CONTAINS(rk_bss_a, root, node_data, r), BTF_FIELD(rk_bss_a, lock));

struct rk_bss_b {
	struct bpf_spin_lock alock;
	struct bpf_rb_root aroot; /* __contains(node_acquire, node) */
};
KFSIM_BTF_STRUCT(rk_bss_b, BTF_FIELD(rk_bss_b, alock),
		 BTF_CONTAINS(rk_bss_b, aroot, node_acquire, node));

struct rk_bss_c {
	struct bpf_spin_lock block;
	struct bpf_rb_root broot; /* __contains(node_data, r) */
};
KFSIM_BTF_STRUCT(rk_bss_c, BTF_FIELD(rk_bss_c, block), BTF_CONTAINS(rk_bss_c, broot, node_data, r));

static struct rk_bss_a sa;
static struct rk_bss_b sb;
static struct rk_bss_c sc;
static struct map_value stashed_nodes[2];

#define lock sa.lock
#define root sa.root
#define head sa.head
#define alock sb.alock
#define aroot sb.aroot
#define block sc.block
#define broot sc.broot

static struct map_value *stashed_nodes_lookup(int idx)
{
	return idx >= 0 && idx < 2 ? &stashed_nodes[idx] : NULL;
}

static bool less(struct bpf_rb_node *node_a, const struct bpf_rb_node *node_b)
{
	return container_of(node_a, struct node_data, r)->key <
	       container_of(node_b, const struct node_data, r)->key;
}

static bool less_a(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct node_acquire, node)->key <
	       container_of(b, const struct node_acquire, node)->key;
}

static long __insert_in_tree_and_list(struct bpf_list_head *h, struct bpf_rb_root *r,
				      struct bpf_spin_lock *l)
{
	struct node_data *n, *m;

	n = bpf_obj_new(node_data);
	if (!n)
		return -1;

	m = bpf_refcount_acquire(n);
	m->key = 123;
	m->list_data = 456;

	bpf_spin_lock(l);
	if (bpf_rbtree_add(r, &n->r, less)) {
		/* not expected to fail */
		bpf_spin_unlock(l);
		bpf_obj_drop(m);
		return -2;
	}
	bpf_spin_unlock(l);

	bpf_spin_lock(l);
	if (bpf_list_push_front(h, &m->l)) {
		/* not expected to fail */
		bpf_spin_unlock(l);
		return -3;
	}
	bpf_spin_unlock(l);
	return 0;
}

static long __stash_map_insert_tree(int idx, int val, struct bpf_rb_root *r,
				    struct bpf_spin_lock *l)
{
	struct map_value *mapval;
	struct node_data *n, *m;

	mapval = stashed_nodes_lookup(idx);
	if (!mapval)
		return -1;

	n = bpf_obj_new(node_data);
	if (!n)
		return -2;

	n->key = val;
	m = bpf_refcount_acquire(n);

	n = bpf_kptr_xchg(&mapval->node, n);
	if (n) {
		bpf_obj_drop(n);
		bpf_obj_drop(m);
		return -3;
	}

	bpf_spin_lock(l);
	if (bpf_rbtree_add(r, &m->r, less)) {
		/* not expected to fail */
		bpf_spin_unlock(l);
		return -4;
	}
	bpf_spin_unlock(l);
	return 0;
}

static long __read_from_tree(struct bpf_rb_root *r, struct bpf_spin_lock *l, bool remove_from_tree)
{
	struct bpf_rb_node *rb;
	struct node_data *n;
	long res = -99;

	bpf_spin_lock(l);

	rb = bpf_rbtree_first(r);
	if (!rb) {
		bpf_spin_unlock(l);
		return -1;
	}

	n = container_of(rb, struct node_data, r);
	res = n->key;

	if (!remove_from_tree) {
		bpf_spin_unlock(l);
		return res;
	}

	rb = bpf_rbtree_remove(r, rb);
	bpf_spin_unlock(l);
	if (!rb)
		return -2;
	n = container_of(rb, struct node_data, r);
	bpf_obj_drop(n);
	return res;
}

static long __read_from_list(struct bpf_list_head *h, struct bpf_spin_lock *l,
			     bool remove_from_list)
{
	struct bpf_list_node *ln;
	struct node_data *n;
	long res = -99;

	bpf_spin_lock(l);

	ln = bpf_list_pop_front(h);
	if (!ln) {
		bpf_spin_unlock(l);
		return -1;
	}

	n = container_of(ln, struct node_data, l);
	res = n->list_data;

	if (!remove_from_list) {
		if (bpf_list_push_back(h, &n->l)) {
			bpf_spin_unlock(l);
			return -2;
		}
	}

	bpf_spin_unlock(l);

	if (remove_from_list)
		bpf_obj_drop(n);
	return res;
}

static long __read_from_unstash(int idx)
{
	struct node_data *n = NULL;
	struct map_value *mapval;
	long val = -99;

	mapval = stashed_nodes_lookup(idx);
	if (!mapval)
		return -1;

	n = bpf_kptr_xchg(&mapval->node, n);
	if (!n)
		return -2;

	val = n->key;
	bpf_obj_drop(n);
	return val;
}

#define INSERT_READ_BOTH(rem_tree, rem_list)                                                       \
	static int insert_and_remove_tree_##rem_tree##_list_##rem_list(void *ctx)                  \
	{                                                                                          \
		long err, tree_data, list_data;                                                    \
                                                                                                   \
		err = __insert_in_tree_and_list(&head, &root, &lock);                              \
		if (err)                                                                           \
			return err;                                                                \
		err = __read_from_tree(&root, &lock, rem_tree);                                    \
		if (err < 0)                                                                       \
			return err;                                                                \
		tree_data = err;                                                                   \
		err = __read_from_list(&head, &lock, rem_list);                                    \
		if (err < 0)                                                                       \
			return err;                                                                \
		list_data = err;                                                                   \
		return tree_data + list_data;                                                      \
	}
INSERT_READ_BOTH(true, true)
INSERT_READ_BOTH(false, false)
INSERT_READ_BOTH(true, false)
INSERT_READ_BOTH(false, true)

#define INSERT_READ_BOTH_LF(rem_tree, rem_list)                                                    \
	static int insert_and_remove_lf_tree_##rem_tree##_list_##rem_list(void *ctx)               \
	{                                                                                          \
		long err, tree_data, list_data;                                                    \
                                                                                                   \
		err = __insert_in_tree_and_list(&head, &root, &lock);                              \
		if (err)                                                                           \
			return err;                                                                \
		err = __read_from_list(&head, &lock, rem_list);                                    \
		if (err < 0)                                                                       \
			return err;                                                                \
		list_data = err;                                                                   \
		err = __read_from_tree(&root, &lock, rem_tree);                                    \
		if (err < 0)                                                                       \
			return err;                                                                \
		tree_data = err;                                                                   \
		return tree_data + list_data;                                                      \
	}
INSERT_READ_BOTH_LF(true, true)
INSERT_READ_BOTH_LF(false, false)
INSERT_READ_BOTH_LF(true, false)
INSERT_READ_BOTH_LF(false, true)

#define INSERT_DOUBLE_READ_AND_DEL(read_fn, read_root)                                             \
	static int insert_double_##read_fn##_and_del_##read_root(void *ctx)                        \
	{                                                                                          \
		long err, list_data;                                                               \
                                                                                                   \
		err = __insert_in_tree_and_list(&head, &root, &lock);                              \
		if (err)                                                                           \
			return err;                                                                \
		err = read_fn(&read_root, &lock, true);                                            \
		if (err < 0)                                                                       \
			return err;                                                                \
		list_data = err;                                                                   \
		err = read_fn(&read_root, &lock, true);                                            \
		if (err < 0)                                                                       \
			return err;                                                                \
		return err + list_data;                                                            \
	}
INSERT_DOUBLE_READ_AND_DEL(__read_from_tree, root)
INSERT_DOUBLE_READ_AND_DEL(__read_from_list, head)

#define INSERT_STASH_READ(rem_tree)                                                                \
	static int insert_rbtree_and_stash__del_tree_##rem_tree(void *ctx)                         \
	{                                                                                          \
		long err, tree_data, map_data;                                                     \
                                                                                                   \
		err = __stash_map_insert_tree(0, 42, &root, &lock);                                \
		if (err)                                                                           \
			return err;                                                                \
		err = __read_from_tree(&root, &lock, rem_tree);                                    \
		if (err < 0)                                                                       \
			return err;                                                                \
		tree_data = err;                                                                   \
		err = __read_from_unstash(0);                                                      \
		if (err < 0)                                                                       \
			return err;                                                                \
		map_data = err;                                                                    \
		return tree_data + map_data;                                                       \
	}
INSERT_STASH_READ(true)
INSERT_STASH_READ(false)

static int rbtree_refcounted_node_ref_escapes(void *ctx)
{
	struct node_acquire *n, *m;

	n = bpf_obj_new(node_acquire);
	if (!n)
		return 1;

	bpf_spin_lock(&alock);
	bpf_rbtree_add(&aroot, &n->node, less_a);
	m = bpf_refcount_acquire(n);
	bpf_spin_unlock(&alock);
	if (!m)
		return 2;

	m->key = 2;
	bpf_obj_drop(m);
	return 0;
}

static int rbtree_refcounted_node_ref_escapes_owning_input(void *ctx)
{
	struct node_acquire *n, *m;

	n = bpf_obj_new(node_acquire);
	if (!n)
		return 1;

	m = bpf_refcount_acquire(n);
	m->key = 2;

	bpf_spin_lock(&alock);
	bpf_rbtree_add(&aroot, &n->node, less_a);
	bpf_spin_unlock(&alock);

	bpf_obj_drop(m);
	return 0;
}

static long __stash_map_empty_xchg(struct node_data *n, int idx)
{
	struct map_value *mapval = stashed_nodes_lookup(idx);

	if (!mapval) {
		bpf_obj_drop(n);
		return 1;
	}
	n = bpf_kptr_xchg(&mapval->node, n);
	if (n) {
		bpf_obj_drop(n);
		return 2;
	}
	return 0;
}

static int rbtree_wrong_owner_remove_fail_a1(void *ctx)
{
	struct node_data *n, *m;

	n = bpf_obj_new(node_data);
	if (!n)
		return 1;
	m = bpf_refcount_acquire(n);

	if (__stash_map_empty_xchg(n, 0)) {
		bpf_obj_drop(m);
		return 2;
	}

	if (__stash_map_empty_xchg(m, 1))
		return 3;

	return 0;
}

static int rbtree_wrong_owner_remove_fail_b(void *ctx)
{
	struct map_value *mapval;
	struct node_data *n;
	int idx = 0;

	mapval = stashed_nodes_lookup(idx);
	if (!mapval)
		return 1;

	n = bpf_kptr_xchg(&mapval->node, NULL);
	if (!n)
		return 2;

	bpf_spin_lock(&block);

	bpf_rbtree_add(&broot, &n->r, less);

	bpf_spin_unlock(&block);
	return 0;
}

static int rbtree_wrong_owner_remove_fail_a2(void *ctx)
{
	struct map_value *mapval;
	struct bpf_rb_node *res;
	struct node_data *m;
	int idx = 1;

	mapval = stashed_nodes_lookup(idx);
	if (!mapval)
		return 1;

	m = bpf_kptr_xchg(&mapval->node, NULL);
	if (!m)
		return 2;
	bpf_spin_lock(&lock);

	/* after the push m is non-owning */
	bpf_list_push_back(&head, &m->l);
	res = bpf_rbtree_remove(&root, &m->r);

	bpf_spin_unlock(&lock);
	if (res) {
		bpf_obj_drop(container_of(res, struct node_data, r));
		return 3;
	}
	return 0;
}

/* SEC("?fentry.s/bpf_testmod_test_read"): sleepable */
static int rbtree_sleepable_rcu(void *ctx)
{
	struct bpf_rb_node *rb;
	struct node_data *n, *m = NULL;

	n = bpf_obj_new(node_data);
	if (!n)
		return 0;

	bpf_rcu_read_lock();
	bpf_spin_lock(&lock);
	bpf_rbtree_add(&root, &n->r, less);
	rb = bpf_rbtree_first(&root);
	if (!rb)
		goto err_out;

	rb = bpf_rbtree_remove(&root, rb);
	if (!rb)
		goto err_out;

	m = container_of(rb, struct node_data, r);

err_out:
	bpf_spin_unlock(&lock);
	bpf_rcu_read_unlock();
	if (m)
		bpf_obj_drop(m);
	return 0;
}

static int rbtree_sleepable_rcu_no_explicit_rcu_lock(void *ctx)
{
	struct bpf_rb_node *rb;
	struct node_data *n, *m = NULL;

	n = bpf_obj_new(node_data);
	if (!n)
		return 0;

	/* (no bpf_rcu_read_lock here) */
	bpf_spin_lock(&lock);
	bpf_rbtree_add(&root, &n->r, less);
	rb = bpf_rbtree_first(&root);
	if (!rb)
		goto err_out;

	rb = bpf_rbtree_remove(&root, rb);
	if (!rb)
		goto err_out;

	m = container_of(rb, struct node_data, r);

err_out:
	bpf_spin_unlock(&lock);
	/* (no bpf_rcu_read_unlock here) */
	if (m)
		bpf_obj_drop(m);
	return 0;
}

#undef lock
#undef root
#undef head
#undef alock
#undef aroot
#undef block
#undef broot

static void refcounted_kptr_init(void)
{
	ORACLE_SECTION(sa, rk_bss_a, ".bss.A");
	ORACLE_SECTION(sb, rk_bss_b, ".bss.B");
	ORACLE_SECTION(sc, rk_bss_c, ".bss.C");
	stashed_nodes[0].node = stashed_nodes[1].node = NULL;
}

static const struct oracle_prog refcounted_kptr_progs[] = {
	ORACLE_PROG(insert_and_remove_tree_true_list_true),
	ORACLE_PROG(insert_and_remove_tree_false_list_false),
	ORACLE_PROG(insert_and_remove_tree_true_list_false),
	ORACLE_PROG(insert_and_remove_tree_false_list_true),
	ORACLE_PROG(insert_and_remove_lf_tree_true_list_true),
	ORACLE_PROG(insert_and_remove_lf_tree_false_list_false),
	ORACLE_PROG(insert_and_remove_lf_tree_true_list_false),
	ORACLE_PROG(insert_and_remove_lf_tree_false_list_true),
	ORACLE_PROG(insert_double___read_from_tree_and_del_root),
	ORACLE_PROG(insert_double___read_from_list_and_del_head),
	ORACLE_PROG(insert_rbtree_and_stash__del_tree_true),
	ORACLE_PROG(insert_rbtree_and_stash__del_tree_false),
	ORACLE_PROG(rbtree_refcounted_node_ref_escapes),
	ORACLE_PROG(rbtree_refcounted_node_ref_escapes_owning_input),
	ORACLE_PROG(rbtree_wrong_owner_remove_fail_a1),
	ORACLE_PROG(rbtree_wrong_owner_remove_fail_b),
	ORACLE_PROG(rbtree_wrong_owner_remove_fail_a2),
	ORACLE_PROG_TYPE(rbtree_sleepable_rcu, KFSIM_BPF_PROG_STRUCT_OPS),
	ORACLE_PROG_TYPE(rbtree_sleepable_rcu_no_explicit_rcu_lock, KFSIM_BPF_PROG_STRUCT_OPS),
};

const struct oracle_object oracle_refcounted_kptr = {
	"refcounted_kptr", refcounted_kptr_init, refcounted_kptr_progs,
	ARRAY_SIZE(refcounted_kptr_progs)};

/* ---- refcounted_kptr_fail.c ---- */

/* .data.A: glock 0, groot 8 */
struct rkf_data_a {
	struct bpf_spin_lock glock;
	struct bpf_rb_root groot; /* __contains(node_acquire, node) */
};
KFSIM_BTF_STRUCT(rkf_data_a, BTF_FIELD(rkf_data_a, glock),
		 BTF_CONTAINS(rkf_data_a, groot, node_acquire, node));

static struct rkf_data_a fa;

static int rbtree_refcounted_node_ref_escapes_fail(void *ctx)
{
	struct node_acquire *n, *m;

	n = bpf_obj_new(node_acquire);
	if (!n)
		return 1;

	bpf_spin_lock(&fa.glock);
	bpf_rbtree_add(&fa.groot, &n->node, less_a);
	/* m: owning, and leaked */
	m = bpf_refcount_acquire(n);
	bpf_spin_unlock(&fa.glock);

	if (!m)
		return 2;

	m->key = 2;
	return 0;
}

static int refcount_acquire_maybe_null(void *ctx)
{
	struct node_acquire *n, *m;

	n = bpf_obj_new(node_acquire);
	/* n is passed on without a NULL check */
	m = bpf_refcount_acquire(n);
	if (m)
		bpf_obj_drop(m);
	if (n)
		bpf_obj_drop(n);
	return 0;
}

static int rbtree_refcounted_node_ref_escapes_owning_input_fail(void *ctx)
{
	struct node_acquire *n, *m;

	n = bpf_obj_new(node_acquire);
	if (!n)
		return 1;

	/* m: owning, and leaked */
	m = bpf_refcount_acquire(n);
	m->key = 2;

	bpf_spin_lock(&fa.glock);
	bpf_rbtree_add(&fa.groot, &n->node, less_a);
	bpf_spin_unlock(&fa.glock);

	return 0;
}

static int rbtree_fail_sleepable_lock_across_rcu(void *ctx)
{
	struct node_acquire *n;

	n = bpf_obj_new(node_acquire);
	if (!n)
		return 0;

	/* the lock is taken in one RCU section and released in another */
	bpf_rcu_read_lock();
	bpf_spin_lock(&fa.glock);
	bpf_rbtree_add(&fa.groot, &n->node, less_a);
	bpf_rcu_read_unlock();

	bpf_rcu_read_lock();
	bpf_spin_unlock(&fa.glock);
	bpf_rcu_read_unlock();

	return 0;
}

static void refcounted_kptr_fail_init(void)
{
	ORACLE_SECTION(fa, rkf_data_a, ".data.A");
}

static const struct oracle_prog refcounted_kptr_fail_progs[] = {
	{"rbtree_refcounted_node_ref_escapes", rbtree_refcounted_node_ref_escapes_fail,
	 KFSIM_BPF_PROG_SCHED_CLS},
	ORACLE_PROG(refcount_acquire_maybe_null),
	{"rbtree_refcounted_node_ref_escapes_owning_input",
	 rbtree_refcounted_node_ref_escapes_owning_input_fail, KFSIM_BPF_PROG_SCHED_CLS},
	ORACLE_PROG_TYPE(rbtree_fail_sleepable_lock_across_rcu, KFSIM_BPF_PROG_STRUCT_OPS),
};

const struct oracle_object oracle_refcounted_kptr_fail = {
	"refcounted_kptr_fail", refcounted_kptr_fail_init, refcounted_kptr_fail_progs,
	ARRAY_SIZE(refcounted_kptr_fail_progs)};
