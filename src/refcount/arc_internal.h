/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_REFCOUNT_ARC_INTERNAL_H
#define KFSIM_REFCOUNT_ARC_INTERNAL_H
/*
 * The Arc header (ArcInner in Rust) shared by arc.c and foreign_ownable.c: the foreign
 * representation of an Arc is the header address, as in 6.3.
 */
#include <stddef.h>
#include <kfsim/arc.h>
#include <kfsim/refcount.h>
#include <kfsim/types.h>

#define ARC_MAGIC 0x41524331u		/* "ARC1" while live */
#define ARC_MAGIC_FREED 0x6b6b6b6bu	/* POISON_FREE-like pattern once freed */

/**
 * struct arc_inner - what precedes every Arc payload
 * @refcount: the count; never 0 while an Arc exists
 * @magic: ARC_MAGIC while live, so bad pointers are rejected instead of corrupting memory
 * @drop: the payload's destructor or NULL
 * @data: the payload, aligned for any type
 */
struct arc_inner {
	refcount_t refcount;
	u32 magic;
	arc_drop_t drop;
	_Alignas(max_align_t) unsigned char data[];
};

/* The header of payload @data, or NULL (after a message naming @caller) when it is not an Arc. */
struct arc_inner *arc_inner_of(const void *data, const char *caller);

#endif /* KFSIM_REFCOUNT_ARC_INTERNAL_H */
