/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_BPF_TYPES_H
#define KFSIM_TESTS_BPF_TYPES_H
/*
 * The types the BPF graph suites share, after the kernel selftests' rbtree.c / linked_list.c:
 * node_data (key, data, one rb node), a list item, a refcounted node that can sit in a tree and
 * a list at once, and a "private(A)" section with a lock, a tree and a list.
 */
#include <stdlib.h>
#include <string.h>
#include <kfsim/bpf_experimental.h>
#include <kfsim/cmdline.h>

struct node_data {
	long key;
	long data;
	struct bpf_rb_node node;
};
KFSIM_BTF_STRUCT(node_data, BTF_FIELD(node_data, node));

/* Two rb nodes: the root names "node2", so "node" is the wrong field of the right struct. */
struct node_two {
	long key;
	struct bpf_rb_node node;
	struct bpf_rb_node node2;
};
KFSIM_BTF_STRUCT(node_two, BTF_FIELD(node_two, node), BTF_FIELD(node_two, node2));

struct list_item {
	long value;
	struct bpf_list_node link;
};
KFSIM_BTF_STRUCT(list_item, BTF_FIELD(list_item, link));

/* Shared ownership (>= 6.4): in a tree and a list at once. */
struct shared_node {
	long key;
	struct bpf_rb_node rb;
	struct bpf_list_node ln;
	struct bpf_refcount ref;
};
KFSIM_BTF_STRUCT(shared_node, BTF_FIELD(shared_node, rb), BTF_FIELD(shared_node, ln),
		 BTF_FIELD(shared_node, ref));

/* An object that owns a list of its own (nested collections). */
struct bucket {
	long id;
	struct bpf_spin_lock lock;
	struct bpf_list_head items;
	struct bpf_list_node link;
};
KFSIM_BTF_STRUCT(bucket, BTF_FIELD(bucket, lock), BTF_CONTAINS(bucket, items, list_item, link),
		 BTF_FIELD(bucket, link));

/* private(A): the lock guards every root of the section. */
struct glob {
	struct bpf_rb_root groot;
	struct bpf_spin_lock glock;
	struct bpf_list_head ghead;
	struct bpf_rb_root two_root;
	struct bpf_list_head buckets;
	struct bpf_rb_root groot2;
};
KFSIM_BTF_STRUCT(glob, BTF_CONTAINS(glob, groot, node_data, node), BTF_FIELD(glob, glock),
		 BTF_CONTAINS(glob, ghead, list_item, link),
		 BTF_CONTAINS(glob, two_root, node_two, node2),
		 BTF_CONTAINS(glob, buckets, bucket, link),
		 BTF_CONTAINS(glob, groot2, node_data, node));

/* Shared ownership needs >= 6.4: a section of its own, loaded only in that mode. */
struct gshared {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root;
	struct bpf_list_head list;
};
KFSIM_BTF_STRUCT(gshared, BTF_FIELD(gshared, lock), BTF_CONTAINS(gshared, root, shared_node, rb),
		 BTF_CONTAINS(gshared, list, shared_node, ln));

/* A second section with its own lock (for "not in the same allocation"). */
struct glob2 {
	struct bpf_spin_lock lock2;
	struct bpf_rb_root root2;
};
KFSIM_BTF_STRUCT(glob2, BTF_FIELD(glob2, lock2), BTF_CONTAINS(glob2, root2, node_data, node));

static inline bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data *na = container_of(a, struct node_data, node);
	const struct node_data *nb = container_of(b, struct node_data, node);

	return na->key < nb->key;
}

static inline bool less_shared(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct shared_node, rb)->key <
	       container_of(b, const struct shared_node, rb)->key;
}

/* Fresh, declared sections for a test (zeroed first, as a new map value is). */
static inline void glob_init(struct glob *g, struct glob2 *g2)
{
	memset(g, 0, sizeof(*g));
	if (kfsim_bpf_private_init(g, kfsim_btf_of(glob)))
		abort();
	if (g2) {
		memset(g2, 0, sizeof(*g2));
		if (kfsim_bpf_private_init(g2, kfsim_btf_of(glob2)))
			abort();
	}
}

#endif /* KFSIM_TESTS_BPF_TYPES_H */
