// SPDX-License-Identifier: MIT
/*
 * Bump allocator for spec models.  Invariant: every block handed out lies inside one chunk on
 * the arena's list, so destroying the list frees everything.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ynl_arena.h"

#define YNL_ARENA_CHUNK 65536

struct ynl_chunk {
	struct ynl_chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

struct ynl_arena {
	struct ynl_chunk *head;
};

struct ynl_arena *ynl_arena_create(void)
{
	return calloc(1, sizeof(struct ynl_arena));
}

void ynl_arena_destroy(struct ynl_arena *arena)
{
	if (!arena)
		return;
	while (arena->head) {
		struct ynl_chunk *next = arena->head->next;

		free(arena->head);
		arena->head = next;
	}
	free(arena);
}

void *ynl_arena_alloc(struct ynl_arena *arena, size_t size)
{
	struct ynl_chunk *chunk = arena->head;
	void *mem;

	size = (size + 15) & ~(size_t)15;
	if (!size)
		size = 16;
	if (!chunk || chunk->size - chunk->used < size) {
		size_t want = size > YNL_ARENA_CHUNK ? size : YNL_ARENA_CHUNK;

		chunk = malloc(sizeof(*chunk) + want);
		if (!chunk)
			return NULL;
		chunk->size = want;
		chunk->used = 0;
		chunk->next = arena->head;
		arena->head = chunk;
	}
	mem = chunk->data + chunk->used;
	chunk->used += size;
	memset(mem, 0, size);
	return mem;
}

char *ynl_arena_strdup(struct ynl_arena *arena, const char *text)
{
	size_t len = strlen(text);
	char *copy = ynl_arena_alloc(arena, len + 1);

	if (copy)
		memcpy(copy, text, len + 1);
	return copy;
}

char *ynl_arena_printf(struct ynl_arena *arena, const char *fmt, ...)
{
	va_list ap;
	int len;
	char *out;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		return NULL;
	out = ynl_arena_alloc(arena, (size_t)len + 1);
	if (!out)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(out, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return out;
}
