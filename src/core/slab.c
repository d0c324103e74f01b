// SPDX-License-Identifier: MIT
/*
 * kmalloc on jemalloc.  Every object is preceded by a 32-byte header holding the requested size,
 * the size SLUB would give (the kmalloc cache's object size, what ksize() reports) and the memory
 * cgroup charged for it (NULL when not accounted):
 *
 *	| size | cache size | memcg | pad | object (cache size bytes)   |
 *	^ allocation                    ^ what kmalloc() returns (16-byte aligned)
 *
 * so kfree() knows the exact size for jemalloc's sized deallocation (sdallocx) and whom to
 * uncharge, without a lookup.  Counters are process-wide atomics.
 */
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if KFSIM_WITH_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#include <kfsim/bug.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include "memcg_internal.h"

struct kmalloc_header {
	size_t size;
	size_t cache_size;
	struct mem_cgroup *memcg;
	size_t pad;
};

_Static_assert(sizeof(struct kmalloc_header) % 16 == 0, "kmalloc header must keep 16-byte alignment");

/* The kmalloc caches of SLUB with 8-byte minimum alignment (x86): kmalloc-8 ... kmalloc-8k. */
static const unsigned short kmalloc_caches[] = { 8, 16, 32, 64, 96, 128, 192, 256, 512, 1024,
						  2048, 4096, 8192 };

size_t kmalloc_size_roundup(size_t size)
{
	size_t pages;

	if (!size)
		return 0;
	if (size <= KMALLOC_MAX_CACHE_SIZE) {
		for (size_t i = 0;; i++)
			if (kmalloc_caches[i] >= size)
				return kmalloc_caches[i];
	}
	if (size <= KMALLOC_MAX_SIZE) {	/* PAGE_SIZE << get_order(size) */
		for (pages = 1; pages * PAGE_SIZE < size; pages <<= 1)
			;
		return pages * PAGE_SIZE;
	}
	/* mm/slab_common.c: a size kmalloc() would refuse is returned as it is */
	return size;
}

/* What an object of @size occupies: kvmalloc's vmalloc range beyond KMALLOC_MAX_SIZE is whole pages. */
static size_t object_size(size_t size)
{
	if (size <= KMALLOC_MAX_SIZE)
		return kmalloc_size_roundup(size);
	return size > SIZE_MAX - PAGE_SIZE ? size : (size + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
}

/* What a __GFP_ACCOUNT object costs its cgroup: obj_full_size() for slab, pages above. */
static int memcg_charge(struct mem_cgroup *memcg, gfp_t flags, size_t cache_size)
{
	if (cache_size <= KMALLOC_MAX_CACHE_SIZE)
		return kfsim_memcg_charge_obj(memcg, flags, cache_size + sizeof(void *));
	return kfsim_memcg_charge_pages(memcg, flags, cache_size / PAGE_SIZE);
}

static void memcg_uncharge(struct mem_cgroup *memcg, size_t cache_size)
{
	if (cache_size <= KMALLOC_MAX_CACHE_SIZE)
		kfsim_memcg_uncharge_obj(memcg, cache_size + sizeof(void *));
	else
		kfsim_memcg_uncharge_pages(memcg, cache_size / PAGE_SIZE);
}

static atomic_ullong stat_allocs, stat_frees, stat_failed, stat_live, stat_peak;
static _Thread_local unsigned int fail_nth;

void kfsim_kmalloc_fail_nth(unsigned int nth)
{
	fail_nth = nth;
}

static bool fault_injected(void)
{
	if (!fail_nth)
		return false;
	return --fail_nth == 0;
}

static void *backend_alloc(size_t bytes, bool zero)
{
#if KFSIM_WITH_JEMALLOC
	return mallocx(bytes, MALLOCX_ALIGN(16) | (zero ? MALLOCX_ZERO : 0));
#else
	return zero ? calloc(1, bytes) : malloc(bytes);
#endif
}

static void backend_free(void *p, size_t bytes)
{
#if KFSIM_WITH_JEMALLOC
	sdallocx(p, bytes, MALLOCX_ALIGN(16));
#else
	(void)bytes;
	free(p);
#endif
}

static void stat_add_live(size_t size)
{
	unsigned long long live = atomic_fetch_add(&stat_live, size) + size;
	unsigned long long peak = atomic_load(&stat_peak);

	while (live > peak && !atomic_compare_exchange_weak(&stat_peak, &peak, live))
		;
}

static void *alloc_failed(size_t size, gfp_t flags, const char *why)
{
	atomic_fetch_add(&stat_failed, 1);
	if (!(flags & __GFP_NOWARN))
		pr_warn("kfsim: kmalloc: allocation failure: size:%zu, mode:%#x (%s)\n", size, flags,
			why);
	return NULL;
}

static void *do_kmalloc(size_t size, gfp_t flags, size_t cap)
{
	struct mem_cgroup *memcg = NULL;
	struct kmalloc_header *hdr;
	size_t cache_size;

	if (!size)
		return ZERO_SIZE_PTR;
	if (size > cap)
		return alloc_failed(size, flags, "too large");
	if (fault_injected())
		return alloc_failed(size, flags, "fault injected");
	cache_size = object_size(size);
	if (flags & __GFP_ACCOUNT) {
		memcg = kfsim_active_memcg();
		if (memcg_charge(memcg, flags, cache_size))
			return alloc_failed(size, flags, "memory cgroup limit");
	}
	hdr = backend_alloc(sizeof(*hdr) + cache_size, flags & __GFP_ZERO);
	if (!hdr) {
		memcg_uncharge(memcg, cache_size);
		return alloc_failed(size, flags, "out of memory");
	}
	hdr->size = size;
	hdr->cache_size = cache_size;
	hdr->memcg = memcg;
	atomic_fetch_add(&stat_allocs, 1);
	stat_add_live(size);
	return hdr + 1;
}

static struct kmalloc_header *header_of(const void *p)
{
	return (struct kmalloc_header *)p - 1;
}

void *kmalloc(size_t size, gfp_t flags)
{
	return do_kmalloc(size, flags, KMALLOC_MAX_SIZE);
}

void *kzalloc(size_t size, gfp_t flags)
{
	return kmalloc(size, flags | __GFP_ZERO);
}

void *kmalloc_array(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kmalloc(bytes, flags);
}

void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return kmalloc_array(n, size, flags | __GFP_ZERO);
}

void *kvmalloc(size_t size, gfp_t flags)
{
	/* Linux 5.15 on (mm/util.c kvmalloc_node()): a size past INT_MAX is a bug, not a request */
	if (size > INT_MAX && kfsim_kernel_at_least(5, 15)) {
		WARN_ON_ONCE(!(flags & __GFP_NOWARN));
		return NULL;
	}
	return do_kmalloc(size, flags, SIZE_MAX - sizeof(struct kmalloc_header));
}

void *kvzalloc(size_t size, gfp_t flags)
{
	return kvmalloc(size, flags | __GFP_ZERO);
}

void *kvcalloc(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kvmalloc(bytes, flags | __GFP_ZERO);
}

void kfree(const void *p)
{
	struct kmalloc_header *hdr;

	if (ZERO_OR_NULL_PTR(p))
		return;
	/* The kernel would oops on the bad address; kfsim reports it and keeps running. */
	if (WARN(IS_ERR(p), "kfree() of error pointer %ld (%s)\n", PTR_ERR(p),
		 kfsim_errname((int)PTR_ERR(p))))
		return;
	hdr = header_of(p);
	if (hdr->memcg)
		memcg_uncharge(hdr->memcg, hdr->cache_size);
	atomic_fetch_add(&stat_frees, 1);
	atomic_fetch_sub(&stat_live, hdr->size);
	backend_free(hdr, sizeof(*hdr) + hdr->cache_size);
}

void kvfree(const void *p)
{
	kfree(p);
}

void kfree_sensitive(const void *p)
{
	if (ZERO_OR_NULL_PTR(p))
		return;
	/* A volatile-qualified memset the compiler cannot drop as a dead store. */
	memset((void *)p, 0, header_of(p)->cache_size);
	__asm__ __volatile__("" : : "r"(p) : "memory");
	kfree(p);
}

size_t ksize(const void *p)
{
	return ZERO_OR_NULL_PTR(p) ? 0 : header_of(p)->cache_size;
}

void *krealloc(const void *p, size_t new_size, gfp_t flags)
{
	struct mem_cgroup *old_active;
	struct kmalloc_header *hdr;
	void *fresh;
	size_t ks;

	if (!new_size) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}
	if (ZERO_OR_NULL_PTR(p))
		return kmalloc(new_size, flags);
	if (WARN(IS_ERR(p), "krealloc() of error pointer %ld\n", PTR_ERR(p)))
		return NULL;
	hdr = header_of(p);
	ks = hdr->cache_size;
	if (ks >= new_size) {
		/* still fits: the same object; want_init_on_alloc() zeroes the spare bytes */
		if (flags & __GFP_ZERO)
			memset((char *)p + new_size, 0, ks - new_size);
		if (new_size > hdr->size)
			stat_add_live(new_size - hdr->size);
		else
			atomic_fetch_sub(&stat_live, hdr->size - new_size);
		hdr->size = new_size;
		return (void *)p;
	}
	/* The new object is charged where the old one was, whoever is active now. */
	old_active = set_active_memcg(hdr->memcg);
	fresh = kmalloc(new_size, hdr->memcg ? flags | __GFP_ACCOUNT : flags);
	set_active_memcg(old_active);
	if (!fresh)
		return NULL;
	memcpy(fresh, p, ks);	/* the whole old object, as the kernel copies it */
	kfree(p);
	return fresh;
}

char *kstrdup(const char *s, gfp_t flags)
{
	return s ? kmemdup(s, strlen(s) + 1, flags) : NULL;
}

char *kstrndup(const char *s, size_t max, gfp_t flags)
{
	size_t len;
	char *copy;

	if (!s)
		return NULL;
	len = strnlen(s, max);
	copy = kmalloc(len + 1, flags);
	if (copy) {
		memcpy(copy, s, len);
		copy[len] = '\0';
	}
	return copy;
}

void *kmemdup(const void *src, size_t len, gfp_t flags)
{
	void *copy = kmalloc(len, flags);

	if (copy && len)
		memcpy(copy, src, len);
	return copy;
}

void kfsim_kmalloc_stats(struct kfsim_kmalloc_stats *stats)
{
	stats->nr_allocs = atomic_load(&stat_allocs);
	stats->nr_frees = atomic_load(&stat_frees);
	stats->nr_failed = atomic_load(&stat_failed);
	stats->bytes_live = atomic_load(&stat_live);
	stats->bytes_peak = atomic_load(&stat_peak);
	stats->allocator_bytes = 0;
#if KFSIM_WITH_JEMALLOC
	{
		uint64_t epoch = 1;
		size_t allocated, len = sizeof(allocated), elen = sizeof(epoch);

		/* jemalloc's stats are snapshots refreshed by bumping the epoch. */
		mallctl("epoch", &epoch, &elen, &epoch, elen);
		if (!mallctl("stats.allocated", &allocated, &len, NULL, 0))
			stats->allocator_bytes = allocated;
	}
#endif
}

const char *kfsim_kmalloc_backend(void)
{
	return KFSIM_WITH_JEMALLOC ? "jemalloc" : "libc";
}
