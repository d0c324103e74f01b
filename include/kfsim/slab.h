/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_SLAB_H
#define KFSIM_SLAB_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * Kernel memory allocation (include/linux/slab.h, gfp_types.h, memcontrol.h) on jemalloc.
 *
 * kmalloc() and friends keep the kernel's contract: kmalloc(0) returns ZERO_SIZE_PTR, which
 * kfree() accepts and which must not be dereferenced; kfree(NULL) does nothing; __GFP_ZERO zeroes;
 * failures return NULL and, without __GFP_NOWARN, log a warning.  Each object carries a 16-byte
 * header with its size and the memory cgroup it was charged to, so kfree() can hand the exact size
 * back to jemalloc (sdallocx) and uncharge the right cgroup.
 *
 * Sizes are SLUB's: an object comes from the smallest kmalloc cache that holds it (8, 16, 32, 64,
 * 96, 128, 192, 256, 512, ... 8192 bytes; above that whole pages, a power of two of them), so
 * ksize(kmalloc(100)) is 128 and krealloc() within that size returns the same pointer.
 *
 * __GFP_ACCOUNT allocations are charged to the calling thread's active memory cgroup (see
 * set_active_memcg()) as mm/memcontrol.c charges them: in pages, through a stock of pre-charged
 * pages and bytes (src/core/memcg.c tells the details and what is approximated).  A charge that
 * cannot fit fails the allocation once reclaim cannot help (kfsim has nothing to reclaim);
 * GFP_ATOMIC and __GFP_NOFAIL charges are forced over the limit, as in the kernel.
 *
 * Under ASan/TSan builds kmalloc uses libc malloc so the sanitizer sees every object.
 */
#include <stddef.h>
#include <kfsim/types.h>

typedef unsigned int gfp_t;

#define ___GFP_ZERO 0x100u
#define ___GFP_NOWARN 0x2000u
#define ___GFP_NOFAIL 0x8000u
#define ___GFP_NORETRY 0x10000u
#define ___GFP_DIRECT_RECLAIM 0x400u
#define ___GFP_KSWAPD_RECLAIM 0x800u
#define ___GFP_HIGH 0x20u
#define ___GFP_IO 0x40u
#define ___GFP_FS 0x80u
#define ___GFP_ACCOUNT 0x400000u

#define __GFP_ZERO ((gfp_t)___GFP_ZERO)
#define __GFP_NOWARN ((gfp_t)___GFP_NOWARN)
#define __GFP_NOFAIL ((gfp_t)___GFP_NOFAIL)
#define __GFP_NORETRY ((gfp_t)___GFP_NORETRY)
#define __GFP_HIGH ((gfp_t)___GFP_HIGH)
#define __GFP_IO ((gfp_t)___GFP_IO)
#define __GFP_FS ((gfp_t)___GFP_FS)
#define __GFP_DIRECT_RECLAIM ((gfp_t)___GFP_DIRECT_RECLAIM)
#define __GFP_KSWAPD_RECLAIM ((gfp_t)___GFP_KSWAPD_RECLAIM)
#define __GFP_RECLAIM (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)
#define __GFP_ACCOUNT ((gfp_t)___GFP_ACCOUNT)

#define GFP_ATOMIC (__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_KERNEL_ACCOUNT (GFP_KERNEL | __GFP_ACCOUNT)
#define GFP_NOWAIT (__GFP_KSWAPD_RECLAIM)
#define GFP_NOIO (__GFP_RECLAIM)
#define GFP_NOFS (__GFP_RECLAIM | __GFP_IO)

/** ZERO_SIZE_PTR - what kmalloc(0) returns: not NULL, never to be dereferenced. */
#define ZERO_SIZE_PTR ((void *)16)
/** ZERO_OR_NULL_PTR() - true for NULL and ZERO_SIZE_PTR. */
#define ZERO_OR_NULL_PTR(x) ((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)
/** KMALLOC_MAX_SIZE - the largest kmalloc(); larger requests fail (kvmalloc has no such cap). */
#define KMALLOC_MAX_SIZE ((size_t)1 << 22)
#ifndef PAGE_SHIFT
/** PAGE_SHIFT - log2 of the page size (x86: 4 KiB pages). */
#define PAGE_SHIFT 12
/*
 * The page modelled is x86's whatever the host's libc says: musl for wasm32 (the WebAssembly
 * module) defines PAGE_SIZE as the 64 KiB WebAssembly page.
 */
#undef PAGE_SIZE
/** PAGE_SIZE - the page size. */
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#endif
/** KMALLOC_MAX_CACHE_SIZE - the largest size served by a kmalloc slab cache (2 pages). */
#define KMALLOC_MAX_CACHE_SIZE (2 * PAGE_SIZE)

/**
 * kmalloc_size_roundup() - the size kmalloc() really gives for @size
 *
 * Return: the kmalloc cache's object size up to KMALLOC_MAX_CACHE_SIZE, then PAGE_SIZE << order
 * up to KMALLOC_MAX_SIZE, @size itself beyond (as mm/slab_common.c: kmalloc() would refuse it;
 * ksize() of a kvmalloc() object there is its whole pages).  0 for 0.
 */
size_t kmalloc_size_roundup(size_t size);

/**
 * kmalloc() - allocate kernel memory
 * @size: bytes wanted; 0 gives ZERO_SIZE_PTR
 * @flags: GFP flags; __GFP_ZERO zeroes, __GFP_ACCOUNT charges the active memory cgroup,
 *         __GFP_NOWARN silences the failure warning
 *
 * Return: memory aligned to 16 bytes, or NULL when the size exceeds KMALLOC_MAX_SIZE, the
 * allocator fails, an injected fault fires (kfsim_kmalloc_fail_nth()) or the charge is refused.
 */
void *kmalloc(size_t size, gfp_t flags);
/** kzalloc() - kmalloc() with __GFP_ZERO. */
void *kzalloc(size_t size, gfp_t flags);
/** kmalloc_array() - kmalloc(@n * @size) that returns NULL when the product overflows. */
void *kmalloc_array(size_t n, size_t size, gfp_t flags);
/** kcalloc() - kmalloc_array() with __GFP_ZERO. */
void *kcalloc(size_t n, size_t size, gfp_t flags);
/**
 * krealloc() - resize an allocation, keeping its contents and its memory cgroup
 * @p: a kmalloc()ed pointer, NULL or ZERO_SIZE_PTR
 * @new_size: 0 frees @p and returns ZERO_SIZE_PTR
 * @flags: GFP flags for the new memory; with __GFP_ZERO the bytes past @new_size inside the
 *         object are zeroed when it shrinks in place
 *
 * As mm/slab_common.c __do_krealloc(): when @new_size fits in ksize(@p) the same pointer is
 * returned; otherwise a new object (charged to @p's cgroup) receives all ksize(@p) bytes and @p
 * is freed.  Return: the pointer, or NULL with @p untouched on failure.
 */
void *krealloc(const void *p, size_t new_size, gfp_t flags);
/**
 * kvmalloc() - like kmalloc() but without the KMALLOC_MAX_SIZE cap (vmalloc fallback)
 *
 * Return: as kmalloc(); from Linux 5.15 on, NULL for a size above INT_MAX, with a one-time
 * WARN unless __GFP_NOWARN (earlier kernels try to allocate it).
 */
void *kvmalloc(size_t size, gfp_t flags);
/** kvzalloc() - kvmalloc() with __GFP_ZERO. */
void *kvzalloc(size_t size, gfp_t flags);
/** kvcalloc() - kvmalloc() of @n * @size zeroed bytes, NULL on overflow. */
void *kvcalloc(size_t n, size_t size, gfp_t flags);
/** kfree() - free a kmalloc()ed pointer; NULL and ZERO_SIZE_PTR are ignored. */
void kfree(const void *p);
/** kvfree() - free a kvmalloc()ed (or kmalloc()ed) pointer. */
void kvfree(const void *p);
/** kfree_sensitive() - zero the object, then kfree() it. */
void kfree_sensitive(const void *p);
/**
 * ksize() - the usable size of a kmalloc()ed object: its cache's object size (0 for NULL and
 * ZERO_SIZE_PTR), as SLUB reports it
 */
size_t ksize(const void *p);
/** kstrdup() - kmalloc()ed copy of @s (NULL for NULL). */
char *kstrdup(const char *s, gfp_t flags);
/** kstrndup() - kmalloc()ed copy of at most @max bytes of @s, NUL-terminated. */
char *kstrndup(const char *s, size_t max, gfp_t flags);
/** kmemdup() - kmalloc()ed copy of @len bytes at @src. */
void *kmemdup(const void *src, size_t len, gfp_t flags);

/**
 * struct kfsim_kmalloc_stats - allocator counters for the whole process
 * @nr_allocs: successful allocations
 * @nr_frees: frees of non-NULL objects
 * @nr_failed: allocations that returned NULL
 * @bytes_live: requested bytes currently allocated
 * @bytes_peak: the highest @bytes_live seen
 * @allocator_bytes: jemalloc's "stats.allocated" (all of the process's heap), 0 without jemalloc
 */
struct kfsim_kmalloc_stats {
	u64 nr_allocs;
	u64 nr_frees;
	u64 nr_failed;
	u64 bytes_live;
	u64 bytes_peak;
	u64 allocator_bytes;
};

/** kfsim_kmalloc_stats() - read the allocator counters into @stats. */
void kfsim_kmalloc_stats(struct kfsim_kmalloc_stats *stats);

/** kfsim_kmalloc_backend() - "jemalloc" or "libc" (sanitizer builds). */
const char *kfsim_kmalloc_backend(void);

/**
 * kfsim_kmalloc_fail_nth() - make this thread's @nth allocation from now fail
 * @nth: 1 fails the next allocation, 2 the one after, ...; 0 cancels
 *
 * The userspace twin of /proc/self/fail-nth: tests use it to drive error paths.
 */
void kfsim_kmalloc_fail_nth(unsigned int nth);

/* Memory cgroups: only what kmalloc charging needs. */
struct mem_cgroup;

/**
 * kfsim_memcg_create() - a memory cgroup with a byte limit
 * @name: for messages and reports (copied)
 * @limit: memory.max in bytes; SIZE_MAX for no limit
 *
 * Return: the cgroup, or ERR_PTR(-EINVAL) for a NULL or empty name, ERR_PTR(-ENOMEM).
 */
struct mem_cgroup *kfsim_memcg_create(const char *name, size_t limit);

/**
 * kfsim_memcg_destroy() - free a cgroup that holds no charges
 *
 * Return: 0, or -EBUSY (and nothing freed) while objects are still charged to it.
 */
int kfsim_memcg_destroy(struct mem_cgroup *memcg);

/**
 * kfsim_memcg_usage() - memory.current: charged pages in bytes, the pre-charged stocks included
 * (so one small object makes it 64 pages, as a kernel's per-CPU batch does)
 */
size_t kfsim_memcg_usage(const struct mem_cgroup *memcg);
/**
 * kfsim_memcg_failcnt() - memory.failcnt: refused page-counter attempts.  One failed charge
 * counts several: the batch, the exact size and, for a caller that may block, each round of
 * the reclaim loop (up to 19 for GFP_KERNEL, 2 for GFP_NOWAIT).
 */
u64 kfsim_memcg_failcnt(const struct mem_cgroup *memcg);
/** kfsim_memcg_events_max() - memory.events "max": reclaim rounds forced by the limit. */
u64 kfsim_memcg_events_max(const struct mem_cgroup *memcg);
/**
 * kfsim_memcg_drain() - drain the cgroup's stocks (drain_all_stock()); with no object left
 * charged, memory.current returns to 0
 */
void kfsim_memcg_drain(struct mem_cgroup *memcg);
/** kfsim_memcg_name() - the name given at creation. */
const char *kfsim_memcg_name(const struct mem_cgroup *memcg);

/**
 * set_active_memcg() - charge this thread's __GFP_ACCOUNT allocations to @memcg
 * @memcg: the cgroup, or NULL for none (the root: no accounting)
 *
 * Return: the previously active cgroup, to restore afterwards (as in the kernel).
 */
struct mem_cgroup *set_active_memcg(struct mem_cgroup *memcg);

/** kfsim_active_memcg() - the calling thread's active cgroup (NULL: root). */
struct mem_cgroup *kfsim_active_memcg(void);

/**
 * kfsim_memcg_try_charge() - charge @bytes of objects to @memcg (obj_cgroup_charge())
 *
 * For allocators built on kmalloc that account by themselves, charging as the BPF memory
 * allocator does (GFP_NOWAIT: no reclaim).  Return: 0, or -ENOMEM when the pages do not fit
 * (failcnt counts the attempts).  A NULL @memcg accepts every charge.
 */
int kfsim_memcg_try_charge(struct mem_cgroup *memcg, size_t bytes);
/** kfsim_memcg_uncharge() - give back @bytes charged with kfsim_memcg_try_charge(). */
void kfsim_memcg_uncharge(struct mem_cgroup *memcg, size_t bytes);

#pragma GCC visibility pop
#endif /* KFSIM_SLAB_H */
