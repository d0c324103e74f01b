/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CORE_MEMCG_INTERNAL_H
#define KFSIM_CORE_MEMCG_INTERNAL_H

/*
 * A memory cgroup as mm/memcontrol.c charges kernel memory (Linux 6.12): a page counter with a
 * limit and a failure count, a stock of pre-charged pages (memcg_stock, MEMCG_CHARGE_BATCH at a
 * time) and a stock of pre-charged bytes for slab objects (obj_stock).  The kernel keeps both
 * stocks per CPU; kfsim keeps one of each per cgroup, under the cgroup's lock.
 */
#include <pthread.h>
#include <kfsim/slab.h>

struct mem_cgroup {
	char *name;
	pthread_mutex_t lock;
	unsigned long max_pages;	/* memory.max */
	unsigned long usage_pages;	/* memory.current, in pages */
	unsigned long stock_pages;	/* memcg_stock: charged, not yet handed out */
	unsigned long obj_stock_bytes;	/* obj_stock: charged bytes of a partly used page */
	unsigned long nr_charged_bytes;	/* objcg->nr_charged_bytes: drained byte remainders */
	size_t obj_bytes;		/* bytes of live objects charged (kfsim's busy check) */
	u64 failcnt;			/* memory.failcnt (v1) */
	u64 events_max;			/* memory.events "max" */
};

/* obj_cgroup_charge()/obj_cgroup_uncharge(): @bytes of slab objects. */
int kfsim_memcg_charge_obj(struct mem_cgroup *memcg, gfp_t gfp, size_t bytes);
void kfsim_memcg_uncharge_obj(struct mem_cgroup *memcg, size_t bytes);
/* __memcg_kmem_charge_page(): whole pages of a large kmalloc or a vmalloc. */
int kfsim_memcg_charge_pages(struct mem_cgroup *memcg, gfp_t gfp, unsigned long nr_pages);
void kfsim_memcg_uncharge_pages(struct mem_cgroup *memcg, unsigned long nr_pages);

#endif /* KFSIM_CORE_MEMCG_INTERNAL_H */
