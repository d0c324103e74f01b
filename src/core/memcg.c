// SPDX-License-Identifier: MIT
/*
 * Memory cgroup charging of kernel memory as mm/memcontrol.c does it (Linux 6.12):
 *
 * - a slab object charges obj_full_size() bytes (its kmalloc cache size plus the obj_cgroup
 *   pointer) through the byte stock: bytes left over from a charged page serve the next objects,
 *   so a cgroup is charged whole pages, never bytes;
 * - pages are charged through try_charge_memcg(): from the page stock if it holds enough, else
 *   MEMCG_CHARGE_BATCH (64) pages at once so the next charges are cheap; when the batch does not
 *   fit under memory.max, the exact number is tried.  Every refused attempt counts in failcnt,
 *   as page_counter_try_charge() counts it.  A caller that may block (__GFP_DIRECT_RECLAIM) then
 *   goes through the reclaim loop: one retry after draining the stocks and MAX_RECLAIM_RETRIES
 *   (16) more (__GFP_NORETRY stops after the drain), each one counted, and a "max" event per
 *   round.  kfsim has nothing to reclaim and no task for the OOM killer, so the charge then fails
 *   with -ENOMEM, unless __GFP_NOFAIL or __GFP_HIGH (GFP_ATOMIC) force it over the limit as the
 *   kernel does;
 * - freed bytes return to the byte stock; whole pages beyond one go back to the page stock,
 *   which is drained (uncharged) when it grows past MEMCG_CHARGE_BATCH.
 *
 * What is approximated: the kernel's stocks are per CPU and hold one cgroup at a time; kfsim's
 * belong to the cgroup.  There is no hierarchy (each cgroup is a child of an unlimited root), no
 * memory.high throttling, no swap.
 */
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/kernel.h>
#include "memcg_internal.h"

#define MEMCG_CHARGE_BATCH 64U
#define MAX_RECLAIM_RETRIES 16

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
	pthread_mutex_init(&memcg->lock, NULL);
	memcg->max_pages = limit / PAGE_SIZE;	/* page_counter_memparse() rounds down */
	return memcg;
}

/* drain_stock() and drain_obj_stock(): give the pre-charged pages back. */
static void drain_stocks_locked(struct mem_cgroup *memcg)
{
	memcg->usage_pages -= memcg->stock_pages;
	memcg->stock_pages = 0;
	memcg->usage_pages -= memcg->obj_stock_bytes / PAGE_SIZE;
	memcg->nr_charged_bytes += memcg->obj_stock_bytes % PAGE_SIZE;
	memcg->obj_stock_bytes = 0;
}

void kfsim_memcg_drain(struct mem_cgroup *memcg)
{
	if (!memcg)
		return;
	pthread_mutex_lock(&memcg->lock);
	drain_stocks_locked(memcg);
	/* obj_cgroup_release(): the remainders add up to whole pages once every object is gone */
	if (!memcg->obj_bytes) {
		memcg->usage_pages -= memcg->nr_charged_bytes / PAGE_SIZE;
		memcg->nr_charged_bytes %= PAGE_SIZE;
	}
	pthread_mutex_unlock(&memcg->lock);
}

int kfsim_memcg_destroy(struct mem_cgroup *memcg)
{
	if (!memcg)
		return 0;
	pthread_mutex_lock(&memcg->lock);
	if (memcg->obj_bytes) {
		pthread_mutex_unlock(&memcg->lock);
		return -EBUSY;
	}
	pthread_mutex_unlock(&memcg->lock);
	if (active_memcg == memcg)
		active_memcg = NULL;
	pthread_mutex_destroy(&memcg->lock);
	free(memcg->name);
	free(memcg);
	return 0;
}

size_t kfsim_memcg_usage(const struct mem_cgroup *memcg)
{
	struct mem_cgroup *m = (struct mem_cgroup *)memcg;
	size_t bytes;

	pthread_mutex_lock(&m->lock);
	bytes = m->usage_pages * PAGE_SIZE;
	pthread_mutex_unlock(&m->lock);
	return bytes;
}

u64 kfsim_memcg_failcnt(const struct mem_cgroup *memcg)
{
	struct mem_cgroup *m = (struct mem_cgroup *)memcg;
	u64 failcnt;

	pthread_mutex_lock(&m->lock);
	failcnt = m->failcnt;
	pthread_mutex_unlock(&m->lock);
	return failcnt;
}

u64 kfsim_memcg_events_max(const struct mem_cgroup *memcg)
{
	struct mem_cgroup *m = (struct mem_cgroup *)memcg;
	u64 events;

	pthread_mutex_lock(&m->lock);
	events = m->events_max;
	pthread_mutex_unlock(&m->lock);
	return events;
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

/* page_counter_try_charge(): all or nothing; a refusal is counted. */
static bool page_counter_try_charge(struct mem_cgroup *memcg, unsigned long nr_pages)
{
	if (nr_pages > memcg->max_pages || memcg->usage_pages > memcg->max_pages - nr_pages) {
		memcg->failcnt++;
		return false;
	}
	memcg->usage_pages += nr_pages;
	return true;
}

/* refill_stock(): a stock that grows past one batch is uncharged whole. */
static void refill_stock(struct mem_cgroup *memcg, unsigned long nr_pages)
{
	memcg->stock_pages += nr_pages;
	if (memcg->stock_pages > MEMCG_CHARGE_BATCH) {
		memcg->usage_pages -= memcg->stock_pages;
		memcg->stock_pages = 0;
	}
}

/* try_charge_memcg(), with the memcg's lock held. */
static int try_charge_locked(struct mem_cgroup *memcg, gfp_t gfp, unsigned long nr_pages)
{
	unsigned long batch = max_t(unsigned long, MEMCG_CHARGE_BATCH, nr_pages);
	int retries = MAX_RECLAIM_RETRIES;
	bool drained = false;

	for (;;) {
		if (nr_pages <= MEMCG_CHARGE_BATCH && memcg->stock_pages >= nr_pages) {
			memcg->stock_pages -= nr_pages;	/* consume_stock() */
			return 0;
		}
		if (page_counter_try_charge(memcg, batch)) {
			if (batch > nr_pages)
				refill_stock(memcg, batch - nr_pages);
			return 0;
		}
		if (batch > nr_pages) {
			batch = nr_pages;
			continue;
		}
		if (!(gfp & __GFP_DIRECT_RECLAIM))
			break;
		memcg->events_max++;
		/* reclaim finds nothing in kfsim; someone may have uncharged meanwhile */
		if (memcg->usage_pages <= memcg->max_pages &&
		    memcg->max_pages - memcg->usage_pages >= nr_pages)
			continue;
		if (!drained) {
			drain_stocks_locked(memcg);
			drained = true;
			continue;
		}
		if (gfp & __GFP_NORETRY)
			break;
		if (retries--)
			continue;
		break;	/* __GFP_RETRY_MAYFAIL, or the OOM killer with nothing to kill */
	}
	if (!(gfp & (__GFP_NOFAIL | __GFP_HIGH)))
		return -ENOMEM;
	memcg->usage_pages += nr_pages;	/* forced over the limit */
	return 0;
}

int kfsim_memcg_charge_pages(struct mem_cgroup *memcg, gfp_t gfp, unsigned long nr_pages)
{
	int ret;

	if (!memcg)
		return 0;
	pthread_mutex_lock(&memcg->lock);
	ret = try_charge_locked(memcg, gfp, nr_pages);
	if (!ret)
		memcg->obj_bytes += nr_pages * PAGE_SIZE;
	pthread_mutex_unlock(&memcg->lock);
	return ret;
}

void kfsim_memcg_uncharge_pages(struct mem_cgroup *memcg, unsigned long nr_pages)
{
	if (!memcg)
		return;
	pthread_mutex_lock(&memcg->lock);
	memcg->obj_bytes -= nr_pages * PAGE_SIZE;
	refill_stock(memcg, nr_pages);	/* obj_cgroup_uncharge_pages() */
	pthread_mutex_unlock(&memcg->lock);
}

int kfsim_memcg_charge_obj(struct mem_cgroup *memcg, gfp_t gfp, size_t bytes)
{
	unsigned long nr_pages;
	size_t rest;
	int ret = 0;

	if (!memcg)
		return 0;
	pthread_mutex_lock(&memcg->lock);
	if (memcg->obj_stock_bytes >= bytes) {	/* consume_obj_stock() */
		memcg->obj_stock_bytes -= bytes;
	} else {
		nr_pages = bytes / PAGE_SIZE;
		rest = bytes % PAGE_SIZE;
		if (rest)
			nr_pages++;
		ret = try_charge_locked(memcg, gfp, nr_pages);
		if (!ret && rest)
			memcg->obj_stock_bytes += PAGE_SIZE - rest;	/* refill_obj_stock() */
	}
	if (!ret)
		memcg->obj_bytes += bytes;
	pthread_mutex_unlock(&memcg->lock);
	return ret;
}

void kfsim_memcg_uncharge_obj(struct mem_cgroup *memcg, size_t bytes)
{
	if (!memcg)
		return;
	pthread_mutex_lock(&memcg->lock);
	memcg->obj_bytes -= bytes;
	memcg->obj_stock_bytes += bytes;
	if (memcg->obj_stock_bytes > PAGE_SIZE) {	/* refill_obj_stock(allow_uncharge) */
		unsigned long nr_pages = memcg->obj_stock_bytes / PAGE_SIZE;

		memcg->obj_stock_bytes %= PAGE_SIZE;
		refill_stock(memcg, nr_pages);
	}
	pthread_mutex_unlock(&memcg->lock);
}

int kfsim_memcg_try_charge(struct mem_cgroup *memcg, size_t bytes)
{
	/* as the BPF memory allocator refills its caches: GFP_NOWAIT | __GFP_ACCOUNT */
	return kfsim_memcg_charge_obj(memcg, GFP_NOWAIT, bytes);
}

void kfsim_memcg_uncharge(struct mem_cgroup *memcg, size_t bytes)
{
	kfsim_memcg_uncharge_obj(memcg, bytes);
}
