// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the third differential round (docs/bpf-graph.md, "The third
 * round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  An rbtree, a lock and a __kptr in hash and array values:
 * inserts, deletes of the element, a value used after its delete, unchecked lookups, two values'
 * locks, an allocated object with its own lock and list.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct titem {
	struct bpf_rb_node rb;
	u64 key;
};

struct litem {
	struct bpf_list_node link;
	u64 key;
};

struct hv {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(titem, rb);
	struct titem __kptr *stash;
	u64 n;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, int);
	__type(value, struct hv);
	__uint(max_entries, 4);
} hmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct hv);
	__uint(max_entries, 2);
} amap SEC(".maps");

struct objv {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(litem, link);
};

int zero;

static bool tless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct titem, rb)->key < container_of(b, struct titem, rb)->key;
}

static struct hv *hget(int k)
{
	struct hv init = {}, *v;

	v = bpf_map_lookup_elem(&hmap, &k);
	if (v)
		return v;
	bpf_map_update_elem(&hmap, &k, &init, BPF_NOEXIST);
	return bpf_map_lookup_elem(&hmap, &k);
}

SEC("tc")
int hash_tree_add(void *ctx)
{
	struct hv *v = hget(1);
	struct titem *n;

	if (!v)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &n->rb, tless);
	bpf_spin_unlock(&v->lock);
	return 1;
}

SEC("tc")
int hash_tree_add_delete(void *ctx)
{
	struct hv *v = hget(2);
	struct titem *n;
	int k = 2;

	if (!v)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &n->rb, tless);
	bpf_spin_unlock(&v->lock);
	bpf_map_delete_elem(&hmap, &k);
	return 2;
}

SEC("tc")
int hash_value_use_after_delete(void *ctx)
{
	struct hv *v = hget(3);
	int k = 3;

	if (!v)
		return 0;
	bpf_map_delete_elem(&hmap, &k);
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&v->lock);
	return 3;
}

SEC("tc")
int hash_stash(void *ctx)
{
	struct hv *v = hget(1);
	struct titem *n, *old;

	if (!v)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	old = bpf_kptr_xchg(&v->stash, n);
	if (old)
		bpf_obj_drop(old);
	return 4;
}

SEC("tc")
int hash_unchecked_lock(void *ctx)
{
	int k = 9;
	struct hv *v = bpf_map_lookup_elem(&hmap, &k);

	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
int hash_unchecked_root(void *ctx)
{
	int k = 9;
	struct hv *v = bpf_map_lookup_elem(&hmap, &k);
	struct bpf_rb_node *r;

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	r = bpf_rbtree_first(&v->root);
	bpf_spin_unlock(&v->lock);
	return r ? 1 : 5;
}

SEC("tc")
int array_update_with_graph(void *ctx)
{
	struct hv init = {};
	int k = 0;

	bpf_map_update_elem(&amap, &k, &init, BPF_ANY);
	return 6;
}

SEC("tc")
int array_two_values_two_locks(void *ctx)
{
	int k0 = 0, k1 = 1;
	struct hv *a = bpf_map_lookup_elem(&amap, &k0);
	struct hv *b = bpf_map_lookup_elem(&amap, &k1);
	struct titem *n;

	if (!a || !b)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n)
		return 0;
	bpf_spin_lock(&a->lock);
	bpf_rbtree_add(&a->root, &n->rb, tless);
	bpf_spin_unlock(&a->lock);
	bpf_spin_lock(&b->lock);
	n = (void *)bpf_rbtree_first(&b->root);
	bpf_spin_unlock(&b->lock);
	return 7;
}

SEC("tc")
int array_first_other_value(void *ctx)
{
	int k0 = 0, k1 = 1;
	struct hv *a = bpf_map_lookup_elem(&amap, &k0);
	struct hv *b = bpf_map_lookup_elem(&amap, &k1);
	struct bpf_rb_node *r;

	if (!a || !b)
		return 0;
	bpf_spin_lock(&a->lock);
	r = bpf_rbtree_first(&b->root);
	bpf_spin_unlock(&a->lock);
	return r ? 1 : 8;
}

SEC("tc")
int value_node_leaks_at_removal(void *ctx)
{
	struct hv *v = hget(1);
	struct bpf_rb_node *r;

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	r = bpf_rbtree_first(&v->root);
	if (r)
		r = bpf_rbtree_remove(&v->root, r);
	bpf_spin_unlock(&v->lock);
	return r ? 1 : 9;
}

SEC("tc")
int stash_read_plain(void *ctx)
{
	struct hv *v = hget(1);
	struct titem *p;

	if (!v)
		return 0;
	p = v->stash;
	if (!p)
		return 10;
	return p->key;
}

SEC("tc")
int obj_with_list_and_lock(void *ctx)
{
	struct objv *o = bpf_obj_new(typeof(*o));
	struct litem *n;

	if (!o)
		return 0;
	n = bpf_obj_new(typeof(*n));
	if (!n) {
		bpf_obj_drop(o);
		return 0;
	}
	bpf_spin_lock(&o->lock);
	bpf_list_push_back(&o->head, &n->link);
	bpf_spin_unlock(&o->lock);
	bpf_obj_drop(o);
	return 11;
}

char _license[] SEC("license") = "GPL";
