// SPDX-License-Identifier: MIT
/*
 * Bounded line reading: see line_reader.h.  The buffer grows by doubling up to the longest line
 * wanted, so a reader of short lines never holds more than it reads and one of 16 MiB lines
 * pays for them only when they come.  Bytes are taken with getc_unlocked(): the file belongs to
 * one reader, and the locked getc() cost a call per byte.
 */
#include <stdlib.h>

#include "line_reader.h"

#define LINE_READER_FIRST_CAP 256

void kfsim_line_reader_init(struct kfsim_line_reader *r, FILE *file, size_t max_line,
			    size_t max_bytes, bool skip_long)
{
	*r = (struct kfsim_line_reader){ .file = file, .max_line = max_line,
					 .max_bytes = max_bytes, .skip_long = skip_long };
}

void kfsim_line_reader_release(struct kfsim_line_reader *r)
{
	free(r->text);
	r->text = NULL;
	r->cap = 0;
}

/* Room for one more byte and the terminating NUL; false without memory. */
static bool line_room(struct kfsim_line_reader *r)
{
	size_t cap;
	char *bigger;

	if (r->len + 1 < r->cap)
		return true;
	cap = r->cap ? r->cap * 2 : LINE_READER_FIRST_CAP;
	if (cap > r->max_line + 1)
		cap = r->max_line + 1;
	bigger = realloc(r->text, cap);
	if (!bigger)
		return false;
	r->text = bigger;
	r->cap = cap;
	return true;
}

enum kfsim_line_status kfsim_line_reader_next(struct kfsim_line_reader *r)
{
	bool too_long = false;
	int c = EOF;

	r->len = 0;
	r->has_nul = false;
	r->ended = false;
	if (!line_room(r))
		return KFSIM_LINE_NOMEM;
	r->text[0] = '\0';
	while ((c = getc_unlocked(r->file)) != EOF) {
		if (++r->consumed > r->max_bytes)
			return KFSIM_LINE_TOO_BIG;
		if (c == '\n') {
			r->ended = true;
			break;
		}
		if (too_long)
			continue;	/* the rest of an over-long line is skipped */
		if (r->len == r->max_line) {
			too_long = true;
			if (!r->skip_long)
				break;
			continue;
		}
		if (!line_room(r))
			return KFSIM_LINE_NOMEM;
		r->has_nul |= !c;
		r->text[r->len++] = (char)c;
	}
	if (c == EOF && !r->len && !too_long)
		return KFSIM_LINE_END;
	r->nr++;
	r->text[r->len] = '\0';
	return too_long ? KFSIM_LINE_TOO_LONG : KFSIM_LINE_OK;
}
