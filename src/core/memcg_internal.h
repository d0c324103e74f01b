/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CORE_MEMCG_INTERNAL_H
#define KFSIM_CORE_MEMCG_INTERNAL_H

/* What kmalloc needs to know of a memory cgroup: the charge counters, kept atomic so that
 * threads charging the same cgroup need no lock. */
#include <stdatomic.h>
#include <kfsim/slab.h>

struct mem_cgroup {
	char *name;
	size_t limit;
	atomic_size_t usage;
	atomic_ullong failcnt;
};

#endif /* KFSIM_CORE_MEMCG_INTERNAL_H */
