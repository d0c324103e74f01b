/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_OUT_H
#define KFSIM_YNL_OUT_H

/*
 * Text buffers the emitters write into, and the all-or-nothing commit of several buffers to
 * files.  Invariant: a buffer that ran out of memory says so (oom) and keeps what it had, and
 * ynl_out_commit() either renames every file into place or leaves the file system unchanged.
 */
#include <stdbool.h>
#include <stddef.h>

struct ynl_out {
	char *buf;
	size_t len, cap;
	bool oom;
};

void ynl_out_init(struct ynl_out *out);
void ynl_out_release(struct ynl_out *out);
void ynl_out_printf(struct ynl_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ynl_out_puts(struct ynl_out *out, const char *text);

struct ynl_out_file {
	const char *path;
	const struct ynl_out *text;
};

/**
 * ynl_out_commit() - write @nr files atomically as a group
 *
 * Each file is written to a temporary next to it, then all are renamed.  A file whose content
 * is already identical is left untouched (its mtime too), so build systems do not rebuild.
 *
 * Return: 0, or a negative errno with @err set ("path: reason"); no file was changed then.
 */
int ynl_out_commit(const struct ynl_out_file *files, int nr, char *err, size_t err_size);

#endif /* KFSIM_YNL_OUT_H */
