/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BENCH_RBTREE_PEERS_H
#define KFSIM_BENCH_RBTREE_PEERS_H

/*
 * The peers bench_rbtree measures kfsim against, each in its own file: FreeBSD's sys/tree.h
 * (whose RB_ROOT, RB_RED and RB_BLACK macros clash with the kernel names, so it cannot share a
 * file with <kfsim/rbtree.h>) and glibc's tsearch.  Each entry point runs a whole pass over all
 * keys, so no call overhead is added per operation.
 */
#include <stddef.h>
#include <stdint.h>

/* FreeBSD sys/tree.h RB_*: intrusive nodes {key, RB_ENTRY}, one per key. */
struct treeh_set;
struct treeh_set *treeh_create(const uint32_t *keys, size_t n);
void treeh_destroy(struct treeh_set *set);
void treeh_insert_erase(struct treeh_set *set); /* RB_INSERT all, then RB_REMOVE all */
void treeh_build(struct treeh_set *set);	/* leaves all keys in the tree */
size_t treeh_lookup(struct treeh_set *set, const uint32_t *keys, size_t n); /* RB_FIND */
size_t treeh_walk(struct treeh_set *set);				    /* RB_FOREACH */
size_t treeh_node_size(void);

/* glibc tsearch/tdelete/tfind/twalk_r over pointers to the keys. */
void ts_insert_erase(const uint32_t *keys, size_t n);
int ts_build(void **root, const uint32_t *keys, size_t n); /* 0 or -ENOMEM */
void ts_destroy(void **root, const uint32_t *keys, size_t n);
size_t ts_lookup(void *const *root, const uint32_t *keys, size_t n);
size_t ts_walk(const void *root);

#endif /* KFSIM_BENCH_RBTREE_PEERS_H */
