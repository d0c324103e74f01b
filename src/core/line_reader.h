/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CORE_LINE_READER_H
#define KFSIM_CORE_LINE_READER_H

/*
 * Lines of a file the user brings, read within bounds: a line longer than the reader wants is
 * told and skipped (the lines after it are still read), a file that goes on past its cap
 * (/dev/zero, a log given by mistake) stops the reading, and a NUL byte is seen rather than
 * cutting the line in silence as fgets() would.  Every reader of a user's text file (device
 * lists, job files, partial results) reads through this, so the three bounds mean the same
 * everywhere.
 *
 * Internal to kfsim (hidden in libkfsim.so).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/**
 * enum kfsim_line_status - what kfsim_line_reader_next() found
 * @KFSIM_LINE_OK: a line (see struct kfsim_line_reader for its text)
 * @KFSIM_LINE_END: no more lines
 * @KFSIM_LINE_TOO_LONG: a line longer than @max_line; with @skip_long its rest was skipped and
 *	the next call reads the line after it, without it the reading should stop (the rest is
 *	not read: what has such lines may well be endless)
 * @KFSIM_LINE_TOO_BIG: the file goes on past @max_bytes: stop reading
 * @KFSIM_LINE_NOMEM: no memory for the line
 */
enum kfsim_line_status {
	KFSIM_LINE_OK,
	KFSIM_LINE_END,
	KFSIM_LINE_TOO_LONG,
	KFSIM_LINE_TOO_BIG,
	KFSIM_LINE_NOMEM,
};

/**
 * struct kfsim_line_reader - one file being read a line at a time
 * @file: where the lines come from
 * @max_line: the longest line read, in bytes without its newline
 * @max_bytes: the most bytes of @file read in all
 * @skip_long: an over-long line is skipped to its end (the lines after it still count)
 * @consumed: bytes read so far
 * @nr: lines read so far (the current line's number)
 * @text: the current line, NUL-terminated, without its newline (valid until the next call)
 * @len: its length, NUL bytes inside it counted
 * @has_nul: the line holds a NUL byte (a binary file)
 * @ended: the line ended with a newline (false only for a last line without one)
 * @cap: bytes allocated at @text
 */
struct kfsim_line_reader {
	FILE *file;
	size_t max_line;
	size_t max_bytes;
	bool skip_long;
	size_t consumed;
	long nr;
	char *text;
	size_t len;
	bool has_nul;
	bool ended;
	size_t cap;
};

/**
 * kfsim_line_reader_init() - read @file in lines of at most @max_line, @max_bytes in all;
 *	@skip_long: see struct kfsim_line_reader
 */
void kfsim_line_reader_init(struct kfsim_line_reader *r, FILE *file, size_t max_line,
			    size_t max_bytes, bool skip_long);

/** kfsim_line_reader_next() - the next line into @r->text: see enum kfsim_line_status. */
enum kfsim_line_status kfsim_line_reader_next(struct kfsim_line_reader *r);

/** kfsim_line_reader_release() - free the line buffer (not @file). */
void kfsim_line_reader_release(struct kfsim_line_reader *r);

#endif /* KFSIM_CORE_LINE_READER_H */
