/* SPDX-License-Identifier: MIT */
/*
 * What the twelfth round's programs share (users_twelfth.bpf.c and
 * users_twelfth_differences.bpf.c): the objects, the maps and their values, the lock and tree
 * of section A, the tree's less() and the first map value's lookup.
 */
#ifndef USERS_TWELFTH_H
#define USERS_TWELFTH_H

struct obj {
	struct bpf_rb_node rb;
	u64 key;
};

struct lval {
	struct bpf_spin_lock lock;
	u64 count;
	u64 slots[8];
	struct obj __kptr *stash;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, u32);
	__type(value, struct lval);
	__uint(max_entries, 2);
} lmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, u32);
	__type(value, u64[4]);
	__uint(max_entries, 8);
} hmap SEC(".maps");

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(A) struct bpf_spin_lock glock;
private(A) struct bpf_rb_root groot __contains(obj, rb);

u32 unknown;
u64 gsum;

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct obj, rb)->key < container_of(b, struct obj, rb)->key;
}

static struct lval *val0(void)
{
	u32 k = 0;

	return bpf_map_lookup_elem(&lmap, &k);
}

#endif /* USERS_TWELFTH_H */
