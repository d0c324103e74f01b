// SPDX-License-Identifier: MIT
/*
 * Programs written from outside for the fifth differential round (docs/bpf-graph.md, "The fifth
 * round"), without annotations: the running kernel's verifier is the referee
 * (tests/bpfcc/outside/compare.sh).  Local objects stashed with bpf_kptr_xchg() in the map kinds
 * a scheduler keeps per task or per CPU: hash, LRU hash, per-CPU array and per-CPU hash values,
 * the old value swapped out and dropped, leaked, or put in a tree; xchg of a pointer into the
 * object, of a maybe-NULL result, into a field of another type, and a loop over the slots.
 */
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct snode {
	struct bpf_rb_node rb;
	u64 key;
};

struct other {
	u64 a, b;
};

struct sval {
	u64 pad;
	struct snode __kptr *n;
};

struct oval {
	struct other __kptr *o;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, int);
	__type(value, struct sval);
	__uint(max_entries, 4);
} shash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, int);
	__type(value, struct sval);
	__uint(max_entries, 4);
} slru SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, int);
	__type(value, struct sval);
	__uint(max_entries, 1);
} spcpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__type(key, int);
	__type(value, struct sval);
	__uint(max_entries, 4);
} spcpuh SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct sval);
	__uint(max_entries, 4);
} sarr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, struct oval);
	__uint(max_entries, 1);
} oarr SEC(".maps");

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(S) struct bpf_spin_lock slock;
private(S) struct bpf_rb_root stree __contains(snode, rb);

static bool sless(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct snode, rb)->key < container_of(b, struct snode, rb)->key;
}

static struct sval *hash_slot(void *map, int key)
{
	struct sval zero = {};
	struct sval *v = bpf_map_lookup_elem(map, &key);

	if (v)
		return v;
	bpf_map_update_elem(map, &key, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(map, &key);
}

SEC("tc")
int hash_stash_swap_drop(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	struct sval *v;

	if (!n)
		return 0;
	v = hash_slot(&shash, 1);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, n);
	if (old)
		bpf_obj_drop(old);
	return 1;
}

SEC("tc")
int hash_stash_old_leaked(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	struct sval *v;

	if (!n)
		return 0;
	v = hash_slot(&shash, 2);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, n);
	return old ? 2 : 1;
}

SEC("tc")
int lru_stash_swap_drop(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	struct sval *v;

	if (!n)
		return 0;
	v = hash_slot(&slru, 1);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, n);
	if (old)
		bpf_obj_drop(old);
	return 3;
}

SEC("tc")
int percpu_array_stash(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	int k = 0;
	struct sval *v;

	if (!n)
		return 0;
	v = bpf_map_lookup_elem(&spcpu, &k);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, n);
	if (old)
		bpf_obj_drop(old);
	return 4;
}

SEC("tc")
int percpu_hash_stash(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	struct sval *v;

	if (!n)
		return 0;
	v = hash_slot(&spcpuh, 1);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, n);
	if (old)
		bpf_obj_drop(old);
	return 5;
}

SEC("tc")
int stash_out_into_tree(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	int k = 0;
	struct sval *v;

	if (!n)
		return 0;
	n->key = 9;
	v = bpf_map_lookup_elem(&sarr, &k);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, n);
	if (!old)
		return 1;
	bpf_spin_lock(&slock);
	bpf_rbtree_add(&stree, &old->rb, sless);
	bpf_spin_unlock(&slock);
	return 2;
}

SEC("tc")
int stash_take_out_twice(void *ctx)
{
	struct snode *a, *b;
	int k = 1;
	struct sval *v;

	v = bpf_map_lookup_elem(&sarr, &k);
	if (!v)
		return 0;
	a = bpf_kptr_xchg(&v->n, NULL);
	b = bpf_kptr_xchg(&v->n, NULL);
	if (a)
		bpf_obj_drop(a);
	if (b)
		bpf_obj_drop(b);
	return 6;
}

SEC("tc")
int stash_inner_pointer(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	int k = 2;
	struct sval *v;

	if (!n)
		return 0;
	v = bpf_map_lookup_elem(&sarr, &k);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, (struct snode *)&n->key);
	if (old)
		bpf_obj_drop(old);
	return 0;
}

SEC("tc")
int stash_maybe_null(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	int k = 3;
	struct sval *v;

	v = bpf_map_lookup_elem(&sarr, &k);
	if (!v) {
		if (n)
			bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, n);
	if (old)
		bpf_obj_drop(old);
	return 7;
}

SEC("tc")
int stash_wrong_type(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n));
	struct other *old;
	int k = 0;
	struct oval *v;

	if (!n)
		return 0;
	v = bpf_map_lookup_elem(&oarr, &k);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->o, (struct other *)n);
	if (old)
		bpf_obj_drop(old);
	return 0;
}

SEC("tc")
int stash_plain_object(void *ctx)
{
	struct other *o = bpf_obj_new(typeof(*o)), *old;
	int k = 0;
	struct oval *v;

	if (!o)
		return 0;
	o->a = 3;
	v = bpf_map_lookup_elem(&oarr, &k);
	if (!v) {
		bpf_obj_drop(o);
		return 0;
	}
	old = bpf_kptr_xchg(&v->o, o);
	if (old)
		bpf_obj_drop(old);
	return 8;
}

SEC("tc")
int stash_use_after_xchg(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	int k = 0;
	struct sval *v;

	if (!n)
		return 0;
	v = bpf_map_lookup_elem(&sarr, &k);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, n);
	if (old)
		bpf_obj_drop(old);
	n->key = 5;
	return 0;
}

SEC("tc")
int stash_loop_drain(void *ctx)
{
	int i, got = 0;

	for (i = 0; i < 4 && can_loop; i++) {
		struct sval *v = bpf_map_lookup_elem(&sarr, &i);
		struct snode *old;

		if (!v)
			break;
		old = bpf_kptr_xchg(&v->n, NULL);
		if (old) {
			got++;
			bpf_obj_drop(old);
		}
	}
	return got;
}

SEC("tc")
int stash_xchg_under_lock(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	int k = 0;
	struct sval *v;

	if (!n)
		return 0;
	v = bpf_map_lookup_elem(&sarr, &k);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	bpf_spin_lock(&slock);
	old = bpf_kptr_xchg(&v->n, n);
	bpf_spin_unlock(&slock);
	if (old)
		bpf_obj_drop(old);
	return 9;
}

SEC("tc")
int stash_removed_node(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	struct bpf_rb_node *r;
	int k = 1;
	struct sval *v;

	if (!n)
		return 0;
	bpf_spin_lock(&slock);
	bpf_rbtree_add(&stree, &n->rb, sless);
	r = bpf_rbtree_first(&stree);
	if (r)
		r = bpf_rbtree_remove(&stree, r);
	bpf_spin_unlock(&slock);
	if (!r)
		return 0;
	v = bpf_map_lookup_elem(&sarr, &k);
	if (!v) {
		bpf_obj_drop(container_of(r, struct snode, rb));
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, container_of(r, struct snode, rb));
	if (old)
		bpf_obj_drop(old);
	return 10;
}

SEC("tc")
int stash_hash_deleted_after(void *ctx)
{
	struct snode *n = bpf_obj_new(typeof(*n)), *old;
	struct sval *v;
	int k = 3;

	if (!n)
		return 0;
	v = hash_slot(&shash, k);
	if (!v) {
		bpf_obj_drop(n);
		return 0;
	}
	old = bpf_kptr_xchg(&v->n, n);
	if (old)
		bpf_obj_drop(old);
	bpf_map_delete_elem(&shash, &k);
	return 11;
}

char _license[] SEC("license") = "GPL";
