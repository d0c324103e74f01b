/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_ARENA_H
#define KFSIM_YNL_ARENA_H

/*
 * A bump allocator for everything one spec owns: the model is built once, read many times and
 * freed all at once, so per-object frees would only be a way to leak.  Allocation failure is
 * reported by a NULL return; the parser turns that into -ENOMEM for the whole load.
 */
#include <stddef.h>

struct ynl_arena;

struct ynl_arena *ynl_arena_create(void);
void ynl_arena_destroy(struct ynl_arena *arena);
/* Zeroed memory, 16-byte aligned, or NULL. */
void *ynl_arena_alloc(struct ynl_arena *arena, size_t size);
char *ynl_arena_strdup(struct ynl_arena *arena, const char *text);
char *ynl_arena_printf(struct ynl_arena *arena, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* KFSIM_YNL_ARENA_H */
