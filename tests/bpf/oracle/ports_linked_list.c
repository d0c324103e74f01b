// SPDX-License-Identifier: MIT
/*
 * kfsim's versions of progs/linked_list.c and progs/linked_list_fail.c (with linked_list.h),
 * kernel 6.12.  See oracle_port.h for the rules a port follows.
 */
#include <string.h>

#include "oracle_port.h"

/* ---- linked_list.h ---- */

struct bar {
	struct bpf_list_node node;
	int data;
};
KFSIM_BTF_STRUCT(bar, BTF_FIELD(bar, node));

struct foo {
	struct bpf_list_node node;
	struct bpf_list_head head; /* __contains(bar, node) */
	struct bpf_spin_lock lock;
	int data;
	struct bpf_list_node node2;
};
KFSIM_BTF_STRUCT(foo, BTF_FIELD(foo, node), BTF_CONTAINS(foo, head, bar, node),
		 BTF_FIELD(foo, lock), BTF_FIELD(foo, node2));

/* The value of array_map and of inner_map (the map_of_maps element). */
struct map_value {
	struct bpf_spin_lock lock;
	int data;
	struct bpf_list_head head; /* __contains(foo, node2) */
};
KFSIM_BTF_STRUCT(map_value, BTF_FIELD(map_value, lock),
		 BTF_CONTAINS(map_value, head, foo, node2));

static struct map_value array_map_value, inner_map_value;

/* bpf_map_lookup_elem(&array_map, &0) and, through map_of_maps, of inner_map */
static struct map_value *array_map_lookup(void)
{
	return &array_map_value;
}

static struct map_value *inner_map_lookup(void)
{
	return &inner_map_value;
}

/* linked_list_fail.o's .bss.A (clang put ghead first) and .bss.B */
struct ll_fail_bss_a {
	struct bpf_list_head ghead; /* __contains(foo, node2) */
	struct bpf_spin_lock glock;
};
KFSIM_BTF_STRUCT(ll_fail_bss_a, BTF_CONTAINS(ll_fail_bss_a, ghead, foo, node2),
		 BTF_FIELD(ll_fail_bss_a, glock));

struct bss_b {
	struct bpf_spin_lock glock2;
};
KFSIM_BTF_STRUCT(bss_b, BTF_FIELD(bss_b, glock2));

/* linked_list.o's .bss.A, .bss.C and .bss.D */
struct ll_bss_a {
	struct bpf_spin_lock glock;
	struct bpf_list_head ghead; /* __contains(foo, node2) */
};
KFSIM_BTF_STRUCT(ll_bss_a, BTF_FIELD(ll_bss_a, glock), BTF_CONTAINS(ll_bss_a, ghead, foo, node2));

struct ll_bss_c {
	struct bpf_spin_lock glock_c;
	struct bpf_list_head ghead_array[2];	 /* __contains(foo, node2) */
	struct bpf_list_head ghead_array_one[1]; /* __contains(foo, node2) */
};
KFSIM_BTF_STRUCT(ll_bss_c, BTF_FIELD(ll_bss_c, glock_c),
		 BTF_CONTAINS(ll_bss_c, ghead_array[0], foo, node2),
		 BTF_CONTAINS(ll_bss_c, ghead_array[1], foo, node2),
		 BTF_CONTAINS(ll_bss_c, ghead_array_one[0], foo, node2));

struct head_nested_inner {
	struct bpf_spin_lock lock;
	struct bpf_list_head head; /* __contains(foo, node2) */
};

struct head_nested {
	int dummy;
	struct head_nested_inner inner;
};

struct ll_bss_d {
	struct head_nested ghead_nested;
};
KFSIM_BTF_STRUCT(ll_bss_d, BTF_FIELD(ll_bss_d, ghead_nested.inner.lock),
		 BTF_CONTAINS(ll_bss_d, ghead_nested.inner.head, foo, node2));

static struct ll_fail_bss_a fa;
static struct bss_b fb;
static struct ll_bss_a la;
static struct bss_b lb;
static struct ll_bss_c lc;
static struct ll_bss_d ld;

static void init_maps(void)
{
	ORACLE_SECTION(array_map_value, map_value, "array_map");
	ORACLE_SECTION(inner_map_value, map_value, "inner_map");
}

/* ---- linked_list_fail.c ---- */

#define ghead fa.ghead
#define glock fa.glock
#define glock2 fb.glock2

#define INIT                                                                                       \
	struct map_value *v, *v2, *iv, *iv2;                                                       \
	struct foo *f, *f1, *f2;                                                                   \
	struct bar *b;                                                                             \
                                                                                                   \
	v = array_map_lookup();                                                                    \
	v2 = array_map_lookup();                                                                   \
	iv = inner_map_lookup();                                                                   \
	iv2 = inner_map_lookup();                                                                  \
	f = bpf_obj_new(foo);                                                                      \
	if (!f)                                                                                    \
		return 0;                                                                          \
	f1 = f;                                                                                    \
	f2 = bpf_obj_new(foo);                                                                     \
	if (!f2) {                                                                                 \
		bpf_obj_drop(f1);                                                                  \
		return 0;                                                                          \
	}                                                                                          \
	b = bpf_obj_new(bar);                                                                      \
	if (!b) {                                                                                  \
		bpf_obj_drop(f2);                                                                  \
		bpf_obj_drop(f1);                                                                  \
		return 0;                                                                          \
	}                                                                                          \
	(void)v, (void)v2, (void)iv, (void)iv2, (void)f1, (void)f2, (void)b

/* the original calls the pop kfunc through a void (*)(void *) pointer: the result is ignored */
#define CHECK_POP(test, op, hexpr)                                                                 \
	static int test##_missing_lock_##op(void *ctx)                                             \
	{                                                                                          \
		INIT;                                                                              \
		bpf_list_##op(hexpr);                                                              \
		return 0;                                                                          \
	}

CHECK_POP(kptr, pop_front, &f->head)
CHECK_POP(kptr, pop_back, &f->head)
CHECK_POP(global, pop_front, &ghead)
CHECK_POP(global, pop_back, &ghead)
CHECK_POP(map, pop_front, &v->head)
CHECK_POP(map, pop_back, &v->head)
CHECK_POP(inner_map, pop_front, &iv->head)
CHECK_POP(inner_map, pop_back, &iv->head)

#define CHECK_PUSH(test, op, hexpr, nexpr)                                                         \
	static int test##_missing_lock_##op(void *ctx)                                             \
	{                                                                                          \
		INIT;                                                                              \
		bpf_list_##op(hexpr, nexpr);                                                       \
		return 0;                                                                          \
	}

CHECK_PUSH(kptr, push_front, &f->head, &b->node)
CHECK_PUSH(kptr, push_back, &f->head, &b->node)
CHECK_PUSH(global, push_front, &ghead, &f->node2)
CHECK_PUSH(global, push_back, &ghead, &f->node2)
CHECK_PUSH(map, push_front, &v->head, &f->node2)
CHECK_PUSH(map, push_back, &v->head, &f->node2)
CHECK_PUSH(inner_map, push_front, &iv->head, &f->node2)
CHECK_PUSH(inner_map, push_back, &iv->head, &f->node2)

#define CHECK_LOCK_POP(test, op, lexpr, hexpr)                                                     \
	static int test##_incorrect_lock_##op(void *ctx)                                           \
	{                                                                                          \
		INIT;                                                                              \
		bpf_spin_lock(lexpr);                                                              \
		bpf_list_##op(hexpr);                                                              \
		return 0;                                                                          \
	}

#define CHECK_LOCK_PUSH(test, op, lexpr, hexpr, nexpr)                                             \
	static int test##_incorrect_lock_##op(void *ctx)                                           \
	{                                                                                          \
		INIT;                                                                              \
		bpf_spin_lock(lexpr);                                                              \
		bpf_list_##op(hexpr, nexpr);                                                       \
		return 0;                                                                          \
	}

#define CHECK_OP_POP(op)                                                                           \
	CHECK_LOCK_POP(kptr_kptr, op, &f1->lock, &f2->head)                                        \
	CHECK_LOCK_POP(kptr_global, op, &f1->lock, &ghead)                                         \
	CHECK_LOCK_POP(kptr_map, op, &f1->lock, &v->head)                                          \
	CHECK_LOCK_POP(kptr_inner_map, op, &f1->lock, &iv->head)                                   \
	CHECK_LOCK_POP(global_global, op, &glock2, &ghead)                                         \
	CHECK_LOCK_POP(global_kptr, op, &glock, &f1->head)                                         \
	CHECK_LOCK_POP(global_map, op, &glock, &v->head)                                           \
	CHECK_LOCK_POP(global_inner_map, op, &glock, &iv->head)                                    \
	CHECK_LOCK_POP(map_map, op, &v->lock, &v2->head)                                           \
	CHECK_LOCK_POP(map_kptr, op, &v->lock, &f2->head)                                          \
	CHECK_LOCK_POP(map_global, op, &v->lock, &ghead)                                           \
	CHECK_LOCK_POP(map_inner_map, op, &v->lock, &iv->head)                                     \
	CHECK_LOCK_POP(inner_map_inner_map, op, &iv->lock, &iv2->head)                             \
	CHECK_LOCK_POP(inner_map_kptr, op, &iv->lock, &f2->head)                                   \
	CHECK_LOCK_POP(inner_map_global, op, &iv->lock, &ghead)                                    \
	CHECK_LOCK_POP(inner_map_map, op, &iv->lock, &v->head)

#define CHECK_OP_PUSH(op)                                                                          \
	CHECK_LOCK_PUSH(kptr_kptr, op, &f1->lock, &f2->head, &b->node)                             \
	CHECK_LOCK_PUSH(kptr_global, op, &f1->lock, &ghead, &f->node2)                             \
	CHECK_LOCK_PUSH(kptr_map, op, &f1->lock, &v->head, &f->node2)                              \
	CHECK_LOCK_PUSH(kptr_inner_map, op, &f1->lock, &iv->head, &f->node2)                       \
	CHECK_LOCK_PUSH(global_global, op, &glock2, &ghead, &f->node2)                             \
	CHECK_LOCK_PUSH(global_kptr, op, &glock, &f1->head, &b->node)                              \
	CHECK_LOCK_PUSH(global_map, op, &glock, &v->head, &f->node2)                               \
	CHECK_LOCK_PUSH(global_inner_map, op, &glock, &iv->head, &f->node2)                        \
	CHECK_LOCK_PUSH(map_map, op, &v->lock, &v2->head, &f->node2)                               \
	CHECK_LOCK_PUSH(map_kptr, op, &v->lock, &f2->head, &b->node)                               \
	CHECK_LOCK_PUSH(map_global, op, &v->lock, &ghead, &f->node2)                               \
	CHECK_LOCK_PUSH(map_inner_map, op, &v->lock, &iv->head, &f->node2)                         \
	CHECK_LOCK_PUSH(inner_map_inner_map, op, &iv->lock, &iv2->head, &f->node2)                 \
	CHECK_LOCK_PUSH(inner_map_kptr, op, &iv->lock, &f2->head, &b->node)                        \
	CHECK_LOCK_PUSH(inner_map_global, op, &iv->lock, &ghead, &f->node2)                        \
	CHECK_LOCK_PUSH(inner_map_map, op, &iv->lock, &v->head, &f->node2)

CHECK_OP_POP(pop_front)
CHECK_OP_POP(pop_back)
CHECK_OP_PUSH(push_front)
CHECK_OP_PUSH(push_back)

/* SEC("?kprobe/xyz") and the other tracing sections: the type is set in the table */
static int map_compat(void *ctx)
{
	bpf_list_push_front(&ghead, NULL);
	return 0;
}
#define map_compat_kprobe map_compat
#define map_compat_kretprobe map_compat
#define map_compat_tp map_compat
#define map_compat_perf map_compat
#define map_compat_raw_tp map_compat
#define map_compat_raw_tp_w map_compat

static int obj_type_id_oor(void *ctx)
{
	bpf_obj_new_impl(~0UL, NULL);
	return 0;
}

/* bpf_core_type_id_local(int) and of a union: type ids that are no struct (void's id, 0) */
static int obj_new_no_composite(void *ctx)
{
	bpf_obj_new_impl(0, (void *)42);
	return 0;
}

static int obj_new_no_struct(void *ctx)
{
	bpf_obj_new_impl(0, NULL);
	return 0;
}

static int obj_drop_non_zero_off(void *ctx)
{
	void *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_obj_drop((char *)f + 1);
	return 0;
}

static int new_null_ret(void *ctx)
{
	return bpf_obj_new(foo)->data;
}

static int obj_new_acq(void *ctx)
{
	bpf_obj_new(foo);
	return 0;
}

/* The load from the dropped object faults: kfsim_bpf_guard_dropped() (bpf_oracle.c sets it). */
static int use_after_drop(void *ctx)
{
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_obj_drop(f);
	return *(volatile int *)&f->data;
}

/* The original passes p->ptr to bpf_this_cpu_ptr(), a helper outside the graph API. */
struct test1 {
	struct test2 {
		struct test2 *next;
	} *ptr;
};
KFSIM_BTF_STRUCT(test1);

static int ptr_walk_scalar(void *ctx)
{
	struct test1 *p;

	p = bpf_obj_new(test1);
	if (!p)
		return 0;
	(void)p->ptr;
	return 0;
}

#define DIRECT(name, expr)                                                                         \
	static int name(void *ctx)                                                                 \
	{                                                                                          \
		struct foo *f;                                                                     \
                                                                                                   \
		f = bpf_obj_new(foo);                                                              \
		if (!f)                                                                            \
			return 0;                                                                  \
		expr;                                                                              \
	}
/* the original's "*(int *)&f->lock" loads and stores, without C's aliasing trouble */
static int load_int(const void *p)
{
	int v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void store_int(void *p, int v)
{
	memcpy(p, &v, sizeof(v));
}

DIRECT(direct_read_lock, return load_int(&f->lock))
DIRECT(direct_write_lock, store_int(&f->lock, 0); return 0)
DIRECT(direct_read_head, return load_int(&f->head))
DIRECT(direct_write_head, store_int(&f->head, 0); return 0)
DIRECT(direct_read_node, return load_int(&f->node2))
DIRECT(direct_write_node, store_int(&f->node2, 0); return 0)

static int use_after_unlock(bool push_front)
{
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_spin_lock(&glock);
	f->data = 42;
	if (push_front)
		bpf_list_push_front(&ghead, &f->node2);
	else
		bpf_list_push_back(&ghead, &f->node2);
	bpf_spin_unlock(&glock);
	return f->data;
}

static int use_after_unlock_push_front(void *ctx)
{
	return use_after_unlock(true);
}

static int use_after_unlock_push_back(void *ctx)
{
	return use_after_unlock(false);
}

static int list_double_add(bool push_front)
{
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_spin_lock(&glock);
	if (push_front) {
		bpf_list_push_front(&ghead, &f->node2);
		bpf_list_push_front(&ghead, &f->node2);
	} else {
		bpf_list_push_back(&ghead, &f->node2);
		bpf_list_push_back(&ghead, &f->node2);
	}
	bpf_spin_unlock(&glock);
	return 0;
}

static int double_push_front(void *ctx)
{
	return list_double_add(true);
}

static int double_push_back(void *ctx)
{
	return list_double_add(false);
}

struct just_data {
	int data;
};
KFSIM_BTF_STRUCT(just_data);

static int no_node_value_type(void *ctx)
{
	void *p;

	p = bpf_obj_new(just_data);
	if (!p)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, p);
	bpf_spin_unlock(&glock);
	return 0;
}

static int incorrect_value_type(void *ctx)
{
	struct bar *b;

	b = bpf_obj_new(bar);
	if (!b)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, &b->node);
	bpf_spin_unlock(&glock);
	return 0;
}

/* ctx->protocol of the test packet: 0 */
static int ctx_protocol;

static int incorrect_node_var_off(void *ctx)
{
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, (void *)((char *)&f->node2 + ctx_protocol));
	bpf_spin_unlock(&glock);
	return 0;
}

static int incorrect_node_off1(void *ctx)
{
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, (void *)((char *)&f->node2 + 1));
	bpf_spin_unlock(&glock);
	return 0;
}

static int incorrect_node_off2(void *ctx)
{
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, &f->node);
	bpf_spin_unlock(&glock);
	return 0;
}

static int no_head_type(void *ctx)
{
	void *p;

	p = bpf_obj_new(just_data);
	if (!p)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(p, NULL);
	bpf_spin_lock(&glock);
	return 0;
}

static int incorrect_head_var_off1(void *ctx)
{
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front((void *)((char *)&ghead + ctx_protocol), &f->node2);
	bpf_spin_unlock(&glock);
	return 0;
}

static int incorrect_head_var_off2(void *ctx)
{
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front((void *)((char *)&f->head + ctx_protocol), &f->node2);
	bpf_spin_unlock(&glock);
	return 0;
}

static int incorrect_head_off1(void *ctx)
{
	struct foo *f;
	struct bar *b;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	b = bpf_obj_new(bar);
	if (!b) {
		bpf_obj_drop(f);
		return 0;
	}
	bpf_spin_lock(&f->lock);
	bpf_list_push_front((void *)((char *)&f->head + 1), &b->node);
	bpf_spin_unlock(&f->lock);
	return 0;
}

static int incorrect_head_off2(void *ctx)
{
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front((void *)((char *)&ghead + 1), &f->node2);
	bpf_spin_unlock(&glock);
	return 0;
}

struct head_lock {
	struct bpf_list_head head; /* __contains(foo, node2) */
	struct bpf_spin_lock lock;
};
KFSIM_BTF_STRUCT(head_lock, BTF_CONTAINS(head_lock, head, foo, node2),
		 BTF_FIELD(head_lock, lock));

static int pop_ptr_off(struct bpf_list_node *(*op)(struct bpf_list_head *head))
{
	struct head_lock *p;
	struct bpf_list_node *n;

	p = bpf_obj_new(head_lock);
	if (!p)
		return 0;
	bpf_spin_lock(&p->lock);
	n = op(&p->head);
	bpf_spin_unlock(&p->lock);

	if (!n)
		return 0;
	bpf_spin_lock((void *)n);
	return 0;
}

static int pop_front_off(void *ctx)
{
	return pop_ptr_off(bpf_list_pop_front);
}

static int pop_back_off(void *ctx)
{
	return pop_ptr_off(bpf_list_pop_back);
}

#undef ghead
#undef glock
#undef glock2

static void linked_list_fail_init(void)
{
	init_maps();
	ORACLE_SECTION(fa, ll_fail_bss_a, ".bss.A");
	ORACLE_SECTION(fb, bss_b, ".bss.B");
}

#define LOCK_PROGS(op)                                                                             \
	ORACLE_PROG(kptr_kptr_incorrect_lock_##op), ORACLE_PROG(kptr_global_incorrect_lock_##op),  \
		ORACLE_PROG(kptr_map_incorrect_lock_##op),                                         \
		ORACLE_PROG(kptr_inner_map_incorrect_lock_##op),                                   \
		ORACLE_PROG(global_global_incorrect_lock_##op),                                    \
		ORACLE_PROG(global_kptr_incorrect_lock_##op),                                      \
		ORACLE_PROG(global_map_incorrect_lock_##op),                                       \
		ORACLE_PROG(global_inner_map_incorrect_lock_##op),                                 \
		ORACLE_PROG(map_map_incorrect_lock_##op), ORACLE_PROG(map_kptr_incorrect_lock_##op), \
		ORACLE_PROG(map_global_incorrect_lock_##op),                                       \
		ORACLE_PROG(map_inner_map_incorrect_lock_##op),                                    \
		ORACLE_PROG(inner_map_inner_map_incorrect_lock_##op),                              \
		ORACLE_PROG(inner_map_kptr_incorrect_lock_##op),                                   \
		ORACLE_PROG(inner_map_global_incorrect_lock_##op),                                 \
		ORACLE_PROG(inner_map_map_incorrect_lock_##op)

static const struct oracle_prog linked_list_fail_progs[] = {
	ORACLE_PROG(kptr_missing_lock_pop_front),
	ORACLE_PROG(kptr_missing_lock_pop_back),
	ORACLE_PROG(global_missing_lock_pop_front),
	ORACLE_PROG(global_missing_lock_pop_back),
	ORACLE_PROG(map_missing_lock_pop_front),
	ORACLE_PROG(map_missing_lock_pop_back),
	ORACLE_PROG(inner_map_missing_lock_pop_front),
	ORACLE_PROG(inner_map_missing_lock_pop_back),
	ORACLE_PROG(kptr_missing_lock_push_front),
	ORACLE_PROG(kptr_missing_lock_push_back),
	ORACLE_PROG(global_missing_lock_push_front),
	ORACLE_PROG(global_missing_lock_push_back),
	ORACLE_PROG(map_missing_lock_push_front),
	ORACLE_PROG(map_missing_lock_push_back),
	ORACLE_PROG(inner_map_missing_lock_push_front),
	ORACLE_PROG(inner_map_missing_lock_push_back),
	LOCK_PROGS(pop_front),
	LOCK_PROGS(pop_back),
	LOCK_PROGS(push_front),
	LOCK_PROGS(push_back),
	ORACLE_PROG(obj_type_id_oor),
	ORACLE_PROG(obj_new_no_composite),
	ORACLE_PROG(obj_new_no_struct),
	ORACLE_PROG(obj_drop_non_zero_off),
	ORACLE_PROG(new_null_ret),
	ORACLE_PROG(obj_new_acq),
	ORACLE_PROG(use_after_drop),
	ORACLE_PROG(ptr_walk_scalar),
	ORACLE_PROG(direct_read_lock),
	ORACLE_PROG(direct_write_lock),
	ORACLE_PROG(direct_read_head),
	ORACLE_PROG(direct_write_head),
	ORACLE_PROG(direct_read_node),
	ORACLE_PROG(direct_write_node),
	ORACLE_PROG(use_after_unlock_push_front),
	ORACLE_PROG(use_after_unlock_push_back),
	ORACLE_PROG(double_push_front),
	ORACLE_PROG(double_push_back),
	ORACLE_PROG(no_node_value_type),
	ORACLE_PROG(incorrect_value_type),
	ORACLE_PROG(incorrect_node_var_off),
	ORACLE_PROG(incorrect_node_off1),
	ORACLE_PROG(incorrect_node_off2),
	ORACLE_PROG(no_head_type),
	ORACLE_PROG(incorrect_head_var_off1),
	ORACLE_PROG(incorrect_head_var_off2),
	ORACLE_PROG(incorrect_head_off1),
	ORACLE_PROG(incorrect_head_off2),
	ORACLE_PROG(pop_front_off),
	ORACLE_PROG(pop_back_off),
	ORACLE_PROG_TYPE(map_compat_kprobe, KFSIM_BPF_PROG_KPROBE),
	ORACLE_PROG_TYPE(map_compat_kretprobe, KFSIM_BPF_PROG_KPROBE),
	ORACLE_PROG_TYPE(map_compat_tp, KFSIM_BPF_PROG_TRACEPOINT),
	ORACLE_PROG_TYPE(map_compat_perf, KFSIM_BPF_PROG_PERF_EVENT),
	ORACLE_PROG_TYPE(map_compat_raw_tp, KFSIM_BPF_PROG_RAW_TRACEPOINT),
	ORACLE_PROG_TYPE(map_compat_raw_tp_w, KFSIM_BPF_PROG_RAW_TRACEPOINT),
};

const struct oracle_object oracle_linked_list_fail = {
	"linked_list_fail", linked_list_fail_init, linked_list_fail_progs,
	ARRAY_SIZE(linked_list_fail_progs)};

/* ---- linked_list.c ---- */

static int list_push_pop(struct bpf_spin_lock *lock, struct bpf_list_head *head,
			 bool leave_in_map)
{
	struct bpf_list_node *n;
	struct foo *f;

	f = bpf_obj_new(foo);
	if (!f)
		return 2;

	bpf_spin_lock(lock);
	n = bpf_list_pop_front(head);
	bpf_spin_unlock(lock);
	if (n) {
		bpf_obj_drop(container_of(n, struct foo, node2));
		bpf_obj_drop(f);
		return 3;
	}

	bpf_spin_lock(lock);
	n = bpf_list_pop_back(head);
	bpf_spin_unlock(lock);
	if (n) {
		bpf_obj_drop(container_of(n, struct foo, node2));
		bpf_obj_drop(f);
		return 4;
	}

	bpf_spin_lock(lock);
	f->data = 42;
	bpf_list_push_front(head, &f->node2);
	bpf_spin_unlock(lock);
	if (leave_in_map)
		return 0;
	bpf_spin_lock(lock);
	n = bpf_list_pop_back(head);
	bpf_spin_unlock(lock);
	if (!n)
		return 5;
	f = container_of(n, struct foo, node2);
	if (f->data != 42) {
		bpf_obj_drop(f);
		return 6;
	}

	bpf_spin_lock(lock);
	f->data = 13;
	bpf_list_push_front(head, &f->node2);
	bpf_spin_unlock(lock);
	bpf_spin_lock(lock);
	n = bpf_list_pop_front(head);
	bpf_spin_unlock(lock);
	if (!n)
		return 7;
	f = container_of(n, struct foo, node2);
	if (f->data != 13) {
		bpf_obj_drop(f);
		return 8;
	}
	bpf_obj_drop(f);

	bpf_spin_lock(lock);
	n = bpf_list_pop_front(head);
	bpf_spin_unlock(lock);
	if (n) {
		bpf_obj_drop(container_of(n, struct foo, node2));
		return 9;
	}

	bpf_spin_lock(lock);
	n = bpf_list_pop_back(head);
	bpf_spin_unlock(lock);
	if (n) {
		bpf_obj_drop(container_of(n, struct foo, node2));
		return 10;
	}
	return 0;
}

#define NR_MULTIPLE 200

static int list_push_pop_multiple(struct bpf_spin_lock *lock, struct bpf_list_head *head,
				  bool leave_in_map)
{
	struct bpf_list_node *n;
	struct foo *f[NR_MULTIPLE], *pf;
	int i;

	for (i = 0; i < NR_MULTIPLE; i += 2) {
		f[i] = bpf_obj_new(foo);
		if (!f[i])
			return 2;
		f[i]->data = i;

		f[i + 1] = bpf_obj_new(foo);
		if (!f[i + 1]) {
			bpf_obj_drop(f[i]);
			return 9;
		}
		f[i + 1]->data = i + 1;

		bpf_spin_lock(lock);
		bpf_list_push_front(head, &f[i]->node2);
		bpf_list_push_front(head, &f[i + 1]->node2);
		bpf_spin_unlock(lock);
	}

	for (i = 0; i < NR_MULTIPLE; i++) {
		bpf_spin_lock(lock);
		n = bpf_list_pop_front(head);
		bpf_spin_unlock(lock);
		if (!n)
			return 3;
		pf = container_of(n, struct foo, node2);
		if (pf->data != (NR_MULTIPLE - i - 1)) {
			bpf_obj_drop(pf);
			return 4;
		}
		bpf_spin_lock(lock);
		bpf_list_push_back(head, &pf->node2);
		bpf_spin_unlock(lock);
	}

	if (leave_in_map)
		return 0;

	for (i = 0; i < NR_MULTIPLE; i++) {
		bpf_spin_lock(lock);
		n = bpf_list_pop_back(head);
		bpf_spin_unlock(lock);
		if (!n)
			return 5;
		pf = container_of(n, struct foo, node2);
		if (pf->data != i) {
			bpf_obj_drop(pf);
			return 6;
		}
		bpf_obj_drop(pf);
	}
	bpf_spin_lock(lock);
	n = bpf_list_pop_back(head);
	bpf_spin_unlock(lock);
	if (n) {
		bpf_obj_drop(container_of(n, struct foo, node2));
		return 7;
	}

	bpf_spin_lock(lock);
	n = bpf_list_pop_front(head);
	bpf_spin_unlock(lock);
	if (n) {
		bpf_obj_drop(container_of(n, struct foo, node2));
		return 8;
	}
	return 0;
}

static int list_in_list(struct bpf_spin_lock *lock, struct bpf_list_head *head, bool leave_in_map)
{
	struct bpf_list_node *n;
	struct bar *ba[8], *b;
	struct foo *f;
	int i;

	f = bpf_obj_new(foo);
	if (!f)
		return 2;
	for (i = 0; i < (int)ARRAY_SIZE(ba); i++) {
		b = bpf_obj_new(bar);
		if (!b) {
			bpf_obj_drop(f);
			return 3;
		}
		b->data = i;
		bpf_spin_lock(&f->lock);
		bpf_list_push_back(&f->head, &b->node);
		bpf_spin_unlock(&f->lock);
	}

	bpf_spin_lock(lock);
	f->data = 42;
	bpf_list_push_front(head, &f->node2);
	bpf_spin_unlock(lock);

	if (leave_in_map)
		return 0;

	bpf_spin_lock(lock);
	n = bpf_list_pop_front(head);
	bpf_spin_unlock(lock);
	if (!n)
		return 4;
	f = container_of(n, struct foo, node2);
	if (f->data != 42) {
		bpf_obj_drop(f);
		return 5;
	}

	for (i = 0; i < (int)ARRAY_SIZE(ba); i++) {
		bpf_spin_lock(&f->lock);
		n = bpf_list_pop_front(&f->head);
		bpf_spin_unlock(&f->lock);
		if (!n) {
			bpf_obj_drop(f);
			return 6;
		}
		b = container_of(n, struct bar, node);
		if (b->data != i) {
			bpf_obj_drop(f);
			bpf_obj_drop(b);
			return 7;
		}
		bpf_obj_drop(b);
	}
	bpf_spin_lock(&f->lock);
	n = bpf_list_pop_front(&f->head);
	bpf_spin_unlock(&f->lock);
	if (n) {
		bpf_obj_drop(f);
		bpf_obj_drop(container_of(n, struct bar, node));
		return 8;
	}
	bpf_obj_drop(f);
	return 0;
}

static int test_list_push_pop(struct bpf_spin_lock *lock, struct bpf_list_head *head)
{
	int ret;

	ret = list_push_pop(lock, head, false);
	if (ret)
		return ret;
	return list_push_pop(lock, head, true);
}

static int test_list_push_pop_multiple(struct bpf_spin_lock *lock, struct bpf_list_head *head)
{
	int ret;

	ret = list_push_pop_multiple(lock, head, false);
	if (ret)
		return ret;
	return list_push_pop_multiple(lock, head, true);
}

static int test_list_in_list(struct bpf_spin_lock *lock, struct bpf_list_head *head)
{
	int ret;

	ret = list_in_list(lock, head, false);
	if (ret)
		return ret;
	return list_in_list(lock, head, true);
}

static int map_list_push_pop(void *ctx)
{
	struct map_value *v = array_map_lookup();

	return test_list_push_pop(&v->lock, &v->head);
}

static int inner_map_list_push_pop(void *ctx)
{
	struct map_value *v = inner_map_lookup();

	return test_list_push_pop(&v->lock, &v->head);
}

static int global_list_push_pop(void *ctx)
{
	return test_list_push_pop(&la.glock, &la.ghead);
}

static int global_list_push_pop_nested(void *ctx)
{
	return test_list_push_pop(&ld.ghead_nested.inner.lock, &ld.ghead_nested.inner.head);
}

static int global_list_array_push_pop(void *ctx)
{
	int r;

	r = test_list_push_pop(&lc.glock_c, &lc.ghead_array[0]);
	if (r)
		return r;
	r = test_list_push_pop(&lc.glock_c, &lc.ghead_array[1]);
	if (r)
		return r;
	return test_list_push_pop(&lc.glock_c, &lc.ghead_array_one[0]);
}

static int map_list_push_pop_multiple(void *ctx)
{
	struct map_value *v = array_map_lookup();

	return test_list_push_pop_multiple(&v->lock, &v->head);
}

static int inner_map_list_push_pop_multiple(void *ctx)
{
	struct map_value *v = inner_map_lookup();

	return test_list_push_pop_multiple(&v->lock, &v->head);
}

static int global_list_push_pop_multiple(void *ctx)
{
	int ret;

	ret = list_push_pop_multiple(&la.glock, &la.ghead, false);
	if (ret)
		return ret;
	return list_push_pop_multiple(&la.glock, &la.ghead, true);
}

static int map_list_in_list(void *ctx)
{
	struct map_value *v = array_map_lookup();

	return test_list_in_list(&v->lock, &v->head);
}

static int inner_map_list_in_list(void *ctx)
{
	struct map_value *v = inner_map_lookup();

	return test_list_in_list(&v->lock, &v->head);
}

static int global_list_in_list(void *ctx)
{
	return test_list_in_list(&la.glock, &la.ghead);
}

static void linked_list_init(void)
{
	init_maps();
	ORACLE_SECTION(la, ll_bss_a, ".bss.A");
	ORACLE_SECTION(lb, bss_b, ".bss.B");
	ORACLE_SECTION(lc, ll_bss_c, ".bss.C");
	ORACLE_SECTION(ld, ll_bss_d, ".bss.D");
}

static const struct oracle_prog linked_list_progs[] = {
	ORACLE_PROG(map_list_push_pop),
	ORACLE_PROG(inner_map_list_push_pop),
	ORACLE_PROG(global_list_push_pop),
	ORACLE_PROG(global_list_push_pop_nested),
	ORACLE_PROG(global_list_array_push_pop),
	ORACLE_PROG(map_list_push_pop_multiple),
	ORACLE_PROG(inner_map_list_push_pop_multiple),
	ORACLE_PROG(global_list_push_pop_multiple),
	ORACLE_PROG(map_list_in_list),
	ORACLE_PROG(inner_map_list_in_list),
	ORACLE_PROG(global_list_in_list),
};

const struct oracle_object oracle_linked_list = {"linked_list", linked_list_init,
						 linked_list_progs, ARRAY_SIZE(linked_list_progs)};
