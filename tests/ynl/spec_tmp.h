/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_TESTS_YNL_SPEC_TMP_H
#define KFSIM_TESTS_YNL_SPEC_TMP_H

/*
 * Small specs written for one test: a private temporary directory per test, a file in it, and
 * a listing of what the generator left there.
 */
#include <dirent.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct spec_tmp {
	char dir[256];
	char path[300];
	char out[300];
};

/* Make a directory with spec.yaml holding @text and an empty out/ directory. */
static inline void spec_tmp_init(struct spec_tmp *t, const char *text)
{
	FILE *f;

	snprintf(t->dir, sizeof(t->dir), "/tmp/kfsim-ynl-test-XXXXXX");
	if (!mkdtemp(t->dir))
		abort();
	snprintf(t->path, sizeof(t->path), "%s/spec.yaml", t->dir);
	snprintf(t->out, sizeof(t->out), "%s/out", t->dir);
	f = fopen(t->path, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	if (mkdir(t->out, 0755))
		abort();
}

/* How many entries out/ holds (temporaries included). */
static inline int spec_tmp_count(const struct spec_tmp *t)
{
	DIR *d = opendir(t->out);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static inline void spec_tmp_cleanup(struct spec_tmp *t)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", t->dir);
}

#endif /* KFSIM_TESTS_YNL_SPEC_TMP_H */
