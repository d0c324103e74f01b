// SPDX-License-Identifier: MIT
/*
 * Arc (rust/kernel/sync/arc.rs, 6.3) over refcount_t.  Invariants: the header's count is >= 1
 * while any Arc exists (a saturated count means leaked, never freed); the drop callback runs at
 * most once, by the caller whose refcount_dec_and_test() returned true, before the free; the
 * magic word is ARC_MAGIC exactly while the allocation is live.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <kfsim/arc.h>
#include <kfsim/err.h>
#include <kfsim/printk.h>
#include "refcount/arc_internal.h"

struct arc_inner *arc_inner_of(const void *data, const char *caller)
{
	struct arc_inner *inner;

	if (!data || IS_ERR(data)) {
		pr_err("arc: %s() of %s pointer %p: not an Arc\n", caller, data ? "error" : "NULL",
		       data);
		return NULL;
	}
	inner = (struct arc_inner *)((unsigned char *)data - offsetof(struct arc_inner, data));
	if (inner->magic != ARC_MAGIC) {
		pr_err("arc: %s() of %p: not an Arc (bad magic %#x)\n", caller, data, inner->magic);
		return NULL;
	}
	return inner;
}

void *unique_arc_try_new(size_t size, arc_drop_t drop, gfp_t flags)
{
	struct arc_inner *inner;

	if (size > SIZE_MAX - sizeof(*inner))
		return ERR_PTR(-ENOMEM);
	inner = kmalloc(sizeof(*inner) + size, flags | __GFP_ZERO);
	if (!inner)
		return ERR_PTR(-ENOMEM);
	refcount_set(&inner->refcount, 1);
	inner->magic = ARC_MAGIC;
	inner->drop = drop;
	return inner->data;
}

const void *arc_try_new(const void *value, size_t size, arc_drop_t drop, gfp_t flags)
{
	void *data = unique_arc_try_new(size, drop, flags);

	if (!IS_ERR(data) && value && size)
		memcpy(data, value, size);
	return unique_arc_share(data);
}

const void *arc_clone(const void *arc)
{
	struct arc_inner *inner = arc_inner_of(arc, "arc_clone");

	if (!inner)
		return ERR_PTR(-EINVAL);
	refcount_inc(&inner->refcount);
	return arc;
}

int arc_put(const void *arc)
{
	struct arc_inner *inner = arc_inner_of(arc, "arc_put");

	if (!inner)
		return -EINVAL;
	if (!refcount_dec_and_test(&inner->refcount))
		return 0;
	if (inner->drop)
		inner->drop(inner->data);
	inner->magic = ARC_MAGIC_FREED;
	kfree(inner);
	return 1;
}

unsigned int arc_count(const void *arc)
{
	struct arc_inner *inner = arc_inner_of(arc, "arc_count");

	return inner ? refcount_read(&inner->refcount) : 0;
}

bool arc_is_arc(const void *ptr)
{
	const struct arc_inner *inner;

	if (!ptr || IS_ERR(ptr))
		return false;
	inner = (const struct arc_inner *)((const unsigned char *)ptr -
					   offsetof(struct arc_inner, data));
	return inner->magic == ARC_MAGIC;
}
