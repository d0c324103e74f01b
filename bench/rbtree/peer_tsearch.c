// SPDX-License-Identifier: MIT
/*
 * glibc tsearch as a benchmark peer: the tree stores pointers to the caller's keys in nodes it
 * malloc()s itself, and compares through a function pointer.  twalk_r (glibc 2.30) visits each
 * inner node three times and each leaf once; an element is counted at its "postorder" visit
 * (between its subtrees, i.e. in order) or as a leaf.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <search.h>
#include "peers.h"

static int ts_cmp(const void *a, const void *b)
{
	uint32_t ka = *(const uint32_t *)a, kb = *(const uint32_t *)b;

	return (ka > kb) - (ka < kb);
}

__attribute__((noinline)) void ts_insert_erase(const uint32_t *keys, size_t n)
{
	void *root = NULL;

	for (size_t i = 0; i < n; i++)
		tsearch(&keys[i], &root, ts_cmp);
	for (size_t i = 0; i < n; i++)
		tdelete(&keys[i], &root, ts_cmp);
}

int ts_build(void **root, const uint32_t *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!tsearch(&keys[i], root, ts_cmp))
			return -ENOMEM;
	return 0;
}

void ts_destroy(void **root, const uint32_t *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tdelete(&keys[i], root, ts_cmp);
}

__attribute__((noinline)) size_t ts_lookup(void *const *root, const uint32_t *keys, size_t n)
{
	size_t found = 0;

	for (size_t i = 0; i < n; i++)
		found += tfind(&keys[i], root, ts_cmp) != NULL;
	return found;
}

static void ts_count(const void *nodep, VISIT which, void *closure)
{
	if (which == postorder || which == leaf)
		(*(size_t *)closure)++;
}

__attribute__((noinline)) size_t ts_walk(const void *root)
{
	size_t count = 0;

	twalk_r(root, ts_count, &count);
	return count;
}
