// SPDX-License-Identifier: MIT
/*
 * FreeBSD sys/tree.h (libbsd) as a benchmark peer: struct bsd_node carries the key and the
 * RB_ENTRY links (left, right, parent pointers and an int colour).  RB_INSERT refuses
 * duplicates, which the benchmark's distinct keys never produce.
 */
#include <stdlib.h>
/* libbsd's tree.h marks its static functions __unused, which only its overlay cdefs.h defines. */
#ifndef __unused
#define __unused __attribute__((__unused__))
#endif
#include <bsd/sys/tree.h>
#include "peers.h"

struct bsd_node {
	uint32_t key;
	RB_ENTRY(bsd_node) entry;
};

static inline int bsd_cmp(const struct bsd_node *a, const struct bsd_node *b)
{
	return (a->key > b->key) - (a->key < b->key);
}

RB_HEAD(bsd_tree, bsd_node);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
RB_GENERATE_STATIC(bsd_tree, bsd_node, entry, bsd_cmp)
#pragma GCC diagnostic pop

struct treeh_set {
	struct bsd_tree head;
	struct bsd_node *nodes;
	size_t n;
};

size_t treeh_node_size(void)
{
	return sizeof(struct bsd_node);
}

struct treeh_set *treeh_create(const uint32_t *keys, size_t n)
{
	struct treeh_set *set = calloc(1, sizeof(*set));

	if (!set)
		return NULL;
	set->nodes = calloc(n, sizeof(*set->nodes));
	if (!set->nodes) {
		free(set);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		set->nodes[i].key = keys[i];
	set->n = n;
	RB_INIT(&set->head);
	return set;
}

void treeh_destroy(struct treeh_set *set)
{
	if (set)
		free(set->nodes);
	free(set);
}

__attribute__((noinline)) void treeh_insert_erase(struct treeh_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		RB_INSERT(bsd_tree, &set->head, &set->nodes[i]);
	for (size_t i = 0; i < set->n; i++)
		RB_REMOVE(bsd_tree, &set->head, &set->nodes[i]);
}

void treeh_build(struct treeh_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		RB_INSERT(bsd_tree, &set->head, &set->nodes[i]);
}

__attribute__((noinline)) size_t treeh_lookup(struct treeh_set *set, const uint32_t *keys, size_t n)
{
	struct bsd_node probe;
	size_t found = 0;

	for (size_t i = 0; i < n; i++) {
		probe.key = keys[i];
		found += RB_FIND(bsd_tree, &set->head, &probe) != NULL;
	}
	return found;
}

__attribute__((noinline)) size_t treeh_walk(struct treeh_set *set)
{
	struct bsd_node *node;
	size_t count = 0;

	RB_FOREACH(node, bsd_tree, &set->head)
	count++;
	return count;
}
