// SPDX-License-Identifier: MIT
/*
 * The allocations a BPF program may reach besides its own references: sections (a map value, a
 * "private(X)" data section) registered by kfsim_bpf_section_init(), and bpf_obj_new() objects
 * that hold a bpf_spin_lock (they can hold roots).  The kernel's verifier knows for every pointer
 * which allocation it points into (the register's map or BTF type); kfsim, seeing only addresses,
 * asks this registry, and it does so before it dereferences anything.
 *
 * Invariants: entries never overlap (registering an address range drops what overlapped it);
 * the tree is changed and searched under registry_lock; every change bumps bpf_alloc_gen, and a
 * thread's caches of earlier answers (here, and the root and lock caches of bpf_graph.c and
 * bpf_spin_lock.c) are used only while the generation is unchanged.
 */
#include <pthread.h>
#include <stdlib.h>

#include <kfsim/rbtree.h>
#include "bpf_internal.h"

struct bpf_alloc {
	struct rb_node rb;
	struct bpf_alloc_view view;
	u32 size;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rb_root registry = RB_ROOT;
u64 bpf_alloc_gen = 1;

struct alloc_cache {
	struct bpf_alloc_view view;
	u32 size;
	u64 gen;
};
static __thread struct alloc_cache last __attribute__((tls_model("initial-exec")));

static inline bool covers(const void *base, u32 size, const void *p)
{
	return (const char *)p >= (const char *)base && (const char *)p < (const char *)base + size;
}

/* The entry whose range holds @p (registry_lock held). */
static struct bpf_alloc *find_locked(const void *p)
{
	struct rb_node *n = registry.rb_node;

	while (n) {
		struct bpf_alloc *a = rb_entry(n, struct bpf_alloc, rb);

		if ((const char *)p < (const char *)a->view.base)
			n = n->rb_left;
		else if (!covers(a->view.base, a->size, p))
			n = n->rb_right;
		else
			return a;
	}
	return NULL;
}

/* The entry with the lowest start at or above @p (registry_lock held). */
static struct bpf_alloc *first_from_locked(const void *p)
{
	struct rb_node *n = registry.rb_node;
	struct bpf_alloc *res = NULL;

	while (n) {
		struct bpf_alloc *a = rb_entry(n, struct bpf_alloc, rb);

		if ((const char *)a->view.base >= (const char *)p) {
			res = a;
			n = n->rb_left;
		} else {
			n = n->rb_right;
		}
	}
	return res;
}

static void erase_locked(struct bpf_alloc *a)
{
	rb_erase(&a->rb, &registry);
	free(a);
}

int bpf_alloc_register(void *base, struct kfsim_btf_struct *type, const char *name, bool valid)
{
	struct bpf_alloc *a = malloc(sizeof(*a)), *old;
	u32 size = type->size ? type->size : 1;
	struct rb_node **link = &registry.rb_node, *parent = NULL;

	if (!a)
		return -ENOMEM;
	a->view = (struct bpf_alloc_view){base, type, name, valid};
	a->size = size;
	pthread_mutex_lock(&registry_lock);
	/* whatever overlapped the new range is gone: the memory was reused */
	old = find_locked(base);
	if (old)
		erase_locked(old);
	while ((old = first_from_locked(base)) && (char *)old->view.base < (char *)base + size)
		erase_locked(old);
	while (*link) {
		parent = *link;
		if ((char *)base < (char *)rb_entry(parent, struct bpf_alloc, rb)->view.base)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&a->rb, parent, link);
	rb_insert_color(&a->rb, &registry);
	__atomic_add_fetch(&bpf_alloc_gen, 1, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&registry_lock);
	return 0;
}

void bpf_alloc_unregister(void *base)
{
	struct bpf_alloc *a;

	pthread_mutex_lock(&registry_lock);
	a = find_locked(base);
	if (a && a->view.base == base) {
		erase_locked(a);
		__atomic_add_fetch(&bpf_alloc_gen, 1, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&registry_lock);
}

bool bpf_alloc_lookup(const void *p, struct bpf_alloc_view *out)
{
	u64 gen = __atomic_load_n(&bpf_alloc_gen, __ATOMIC_ACQUIRE);
	struct bpf_alloc *a;

	if (likely(last.gen == gen && covers(last.view.base, last.size, p))) {
		*out = last.view;
		return true;
	}
	pthread_mutex_lock(&registry_lock);
	a = find_locked(p);
	if (a) {
		*out = a->view;
		last.view = a->view;
		last.size = a->size;
		last.gen = __atomic_load_n(&bpf_alloc_gen, __ATOMIC_RELAXED);
	}
	pthread_mutex_unlock(&registry_lock);
	return a != NULL;
}
