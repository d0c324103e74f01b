// SPDX-License-Identifier: MIT
/*
 * Output buffers and the group commit.  Invariant: until every temporary file is written and
 * flushed, no target path is touched; a failure removes the temporaries.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	char **tmp = calloc((size_t)nr + 1, sizeof(char *));
	int ret = 0, i;

	if (!tmp) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		const struct ynl_out_file *f = &files[i];
		size_t plen = strlen(f->path);
		int fd;

		if (f->text->oom) {
			snprintf(err, err_size, "%s: out of memory", f->path);
			ret = -ENOMEM;
			goto fail;
		}
		if (same_content(f->path, f->text))
			continue;
		tmp[i] = malloc(plen + 16);
		if (!tmp[i]) {
			snprintf(err, err_size, "%s: out of memory", f->path);
			ret = -ENOMEM;
			goto fail;
		}
		snprintf(tmp[i], plen + 16, "%s.tmp.XXXXXX", f->path);
		fd = mkstemp(tmp[i]);
		if (fd < 0) {
			ret = -errno;
			snprintf(err, err_size, "%s: %s", f->path, strerror(errno));
			free(tmp[i]);
			tmp[i] = NULL;
			goto fail;
		}
		if (f->text->len && write(fd, f->text->buf, f->text->len) != (ssize_t)f->text->len) {
			ret = errno ? -errno : -EIO;
			snprintf(err, err_size, "%s: %s", tmp[i], strerror(-ret));
			close(fd);
			goto fail;
		}
		if (fchmod(fd, 0644) || close(fd)) {
			ret = -errno;
			snprintf(err, err_size, "%s: %s", tmp[i], strerror(errno));
			goto fail;
		}
	}
	for (i = 0; i < nr; i++) {
		if (tmp[i] && rename(tmp[i], files[i].path)) {
			ret = -errno;
			snprintf(err, err_size, "%s: %s", files[i].path, strerror(errno));
			goto fail;
		}
		free(tmp[i]);
		tmp[i] = NULL;
	}
	free(tmp);
	return 0;
fail:
	for (i = 0; i < nr; i++) {
		if (tmp[i]) {
			unlink(tmp[i]);
			free(tmp[i]);
		}
	}
	free(tmp);
	return ret;
}
