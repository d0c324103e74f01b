// SPDX-License-Identifier: MIT
/*
 * Memory cgroups reduced to what accounting needs (mm/memcontrol.c): a byte counter with a limit
 * and a count of refused charges, and the per-thread active cgroup of set_active_memcg().
 * A charge is a compare-and-swap loop, so concurrent chargers never overshoot the limit.
 */
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include "memcg_internal.h"

static _Thread_local struct mem_cgroup *active_memcg;

struct mem_cgroup *kfsim_memcg_create(const char *name, size_t limit)
{
	struct mem_cgroup *memcg;

	if (!name || !name[0])
		return ERR_PTR(-EINVAL);
	/* Plain calloc: a cgroup is bookkeeping of the allocator, not a kernel object it charges. */
	memcg = calloc(1, sizeof(*memcg));
	if (!memcg)
		return ERR_PTR(-ENOMEM);
	memcg->name = strdup(name);
	if (!memcg->name) {
		free(memcg);
		return ERR_PTR(-ENOMEM);
	}
	memcg->limit = limit;
	return memcg;
}

int kfsim_memcg_destroy(struct mem_cgroup *memcg)
{
	if (!memcg)
		return 0;
	if (atomic_load(&memcg->usage))
		return -EBUSY;
	if (active_memcg == memcg)
		active_memcg = NULL;
	free(memcg->name);
	free(memcg);
	return 0;
}

size_t kfsim_memcg_usage(const struct mem_cgroup *memcg)
{
	return atomic_load(&((struct mem_cgroup *)memcg)->usage);
}

u64 kfsim_memcg_failcnt(const struct mem_cgroup *memcg)
{
	return atomic_load(&((struct mem_cgroup *)memcg)->failcnt);
}

const char *kfsim_memcg_name(const struct mem_cgroup *memcg)
{
	return memcg->name;
}

struct mem_cgroup *set_active_memcg(struct mem_cgroup *memcg)
{
	struct mem_cgroup *old = active_memcg;

	active_memcg = memcg;
	return old;
}

struct mem_cgroup *kfsim_active_memcg(void)
{
	return active_memcg;
}

int kfsim_memcg_try_charge(struct mem_cgroup *memcg, size_t bytes)
{
	size_t usage;

	if (!memcg)
		return 0;
	usage = atomic_load(&memcg->usage);
	do {
		if (bytes > memcg->limit || usage > memcg->limit - bytes) {
			atomic_fetch_add(&memcg->failcnt, 1);
			return -ENOMEM;
		}
	} while (!atomic_compare_exchange_weak(&memcg->usage, &usage, usage + bytes));
	return 0;
}

void kfsim_memcg_uncharge(struct mem_cgroup *memcg, size_t bytes)
{
	if (memcg)
		atomic_fetch_sub(&memcg->usage, bytes);
}
