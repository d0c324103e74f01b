// SPDX-License-Identifier: MIT
/*
 * Output buffers and the group commit.  Invariant: until every temporary file is written and
 * flushed, no target path is touched; a failure removes the temporaries, and a rename that
 * fails puts back the files already replaced (kfsim_outfile_commit_all()).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfsim/outfile.h>
#include "ynl_out.h"

void ynl_out_init(struct ynl_out *out)
{
	memset(out, 0, sizeof(*out));
}

void ynl_out_release(struct ynl_out *out)
{
	free(out->buf);
	memset(out, 0, sizeof(*out));
}

static bool reserve(struct ynl_out *out, size_t more)
{
	size_t want;
	char *buf;

	if (out->oom)
		return false;
	if (out->len + more + 1 <= out->cap)
		return true;
	want = out->cap ? out->cap * 2 : 4096;
	while (want < out->len + more + 1)
		want *= 2;
	buf = realloc(out->buf, want);
	if (!buf) {
		out->oom = true;
		return false;
	}
	out->buf = buf;
	out->cap = want;
	return true;
}

void ynl_out_printf(struct ynl_out *out, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0 || !reserve(out, (size_t)len))
		return;
	va_start(ap, fmt);
	vsnprintf(out->buf + out->len, (size_t)len + 1, fmt, ap);
	va_end(ap);
	out->len += (size_t)len;
}

void ynl_out_puts(struct ynl_out *out, const char *text)
{
	size_t len = strlen(text);

	if (!reserve(out, len))
		return;
	memcpy(out->buf + out->len, text, len + 1);
	out->len += len;
}

static bool same_content(const char *path, const struct ynl_out *text)
{
	FILE *file = fopen(path, "rb");
	bool same = false;
	char *buf;

	if (!file)
		return false;
	buf = malloc(text->len + 1);
	if (buf) {
		size_t got = fread(buf, 1, text->len + 1, file);

		same = got == text->len && !memcmp(buf, text->buf ? text->buf : "", text->len);
		free(buf);
	}
	fclose(file);
	return same;
}

int ynl_out_commit(const struct ynl_out_file *files, int nr, char *err, size_t err_size)
{
	struct kfsim_outfile *out = calloc((size_t)nr + 1, sizeof(*out));
	int ret = 0, i, nr_open = 0;

	if (!out) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	/* every name and every directory is checked before anything is written */
	for (i = 0; i < nr; i++) {
		const struct ynl_out_file *f = &files[i];

		if (f->text->oom) {
			snprintf(err, err_size, "%s: out of memory", f->path);
			ret = -ENOMEM;
			goto fail;
		}
		if (same_content(f->path, f->text))
			continue;
		ret = kfsim_outfile_open(&out[nr_open], f->path);
		if (ret) {
			snprintf(err, err_size, "%s: %s", f->path, strerror(-ret));
			goto fail;
		}
		kfsim_outfile_write(&out[nr_open++], f->text->buf, f->text->len);
	}
	/* then all of them renamed, or none (kfsim_outfile_commit_all) */
	ret = kfsim_outfile_commit_all(out, (size_t)nr_open);
	if (ret)
		snprintf(err, err_size, "%s: %s", nr == 1 ? files[0].path : "writing the files",
			 strerror(-ret));
	free(out);
	return ret;
fail:
	for (i = 0; i < nr_open; i++)
		kfsim_outfile_abort(&out[i]);
	free(out);
	return ret;
}
