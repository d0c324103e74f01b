// SPDX-License-Identifier: MIT
/*
 * Generator driver: load a spec, run the emitters into memory, commit all files at once.
 * Invariant: a spec that fails to load or an emitter that runs out of memory leaves the output
 * directory exactly as it was.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kfsim/outfile.h>
#include <kfsim/ynl_gen.h>
#include "ynl_emit.h"
#include "ynl_gen_run.h"

/* The files of one run (every spec on the command line): written together or not at all. */
struct gen_run {
	struct ynl_out *text;
	char (*paths)[PATH_MAX];
	int nr;
	int cap;
};

static void gen_run_release(struct gen_run *run)
{
	for (int i = 0; i < run->nr; i++)
		ynl_out_release(&run->text[i]);
	free(run->text);
	free(run->paths);
	memset(run, 0, sizeof(*run));
}

/* Room for 6 more files (one spec's worst case). */
static int gen_run_reserve(struct gen_run *run)
{
	struct ynl_out *text;
	char(*paths)[PATH_MAX];

	if (run->nr + 6 <= run->cap)
		return 0;
	text = realloc(run->text, (size_t)(run->cap + 6) * sizeof(*text));
	if (!text)
		return -ENOMEM;
	run->text = text;
	paths = realloc(run->paths, (size_t)(run->cap + 6) * sizeof(*paths));
	if (!paths)
		return -ENOMEM;
	run->paths = paths;
	run->cap += 6;
	return 0;
}

/* Name output file @idx "<out_dir>/<ident><suffix>"; -ENAMETOOLONG instead of a cut name. */
static int gen_path(struct gen_run *run, int idx, const char *out_dir, const char *ident,
		    const char *suffix, char *err, size_t err_size)
{
	char name[NAME_MAX + 2];

	if (snprintf(name, sizeof(name), "%s%s", ident, suffix) >= (int)sizeof(name) ||
	    kfsim_path_join(run->paths[idx], sizeof(run->paths[idx]), out_dir, name)) {
		snprintf(err, err_size, "%s/%s%s: %s", out_dir, ident, suffix,
			 strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Load one spec and emit its files into @run (nothing is written yet). */
static int prepare(struct gen_run *run, const char *spec_path, const char *out_dir,
		   unsigned int modes, char *err, size_t err_size, char *ident, size_t ident_size)
{
	static const struct {
		unsigned int mode;
		const char *suffix[2];
	} kinds[] = {
		{ KFSIM_YNL_GEN_UAPI, { "-uapi.h" } },
		{ KFSIM_YNL_GEN_KERNEL, { "-kernel.h", "-kernel.c" } },
		{ KFSIM_YNL_GEN_USER, { "-user.h", "-user.c" } },
		{ KFSIM_YNL_GEN_TEST, { "-test.c" } },
	};
	struct ynl_spec *spec;
	int ret;

	if (!modes || (modes & ~(KFSIM_YNL_GEN_ALL | KFSIM_YNL_GEN_TEST))) {
		snprintf(err, err_size, "bad mode mask %#x", modes);
		return -EINVAL;
	}
	if (gen_run_reserve(run)) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	spec = ynl_spec_load(spec_path, err, err_size, &ret);
	if (!spec)
		return ret;
	ret = 0;
	for (int i = 0; i < spec->nr_warnings; i++)
		fprintf(stderr, "%s\n", spec->warnings[i]);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]) && !ret; k++) {
		struct ynl_out *text = &run->text[run->nr];

		if (!(modes & kinds[k].mode))
			continue;
		/* text[1] only exists (within the reserved room) for kinds with two files */
		ynl_out_init(&text[0]);
		if (kinds[k].suffix[1])
			ynl_out_init(&text[1]);
		if (kinds[k].mode == KFSIM_YNL_GEN_UAPI)
			ynl_emit_uapi(spec, &text[0]);
		else if (kinds[k].mode == KFSIM_YNL_GEN_KERNEL)
			ynl_emit_kernel(spec, &text[0], &text[1]);
		else if (kinds[k].mode == KFSIM_YNL_GEN_USER)
			ynl_emit_user(spec, &text[0], &text[1]);
		else
			ynl_emit_test(spec, &text[0]);
		for (int f = 0; f < 2 && kinds[k].suffix[f]; f++) {
			run->nr++;
			if (!ret)
				ret = gen_path(run, run->nr - 1, out_dir, spec->ident,
					       kinds[k].suffix[f], err, err_size);
		}
	}
	if (ident)
		snprintf(ident, ident_size, "%s", spec->ident);
	ynl_spec_free(spec);
	return ret;
}

static int gen_run_commit(struct gen_run *run, char *err, size_t err_size)
{
	struct ynl_out_file *files = calloc((size_t)run->nr + 1, sizeof(*files));
	int ret;

	if (!files) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < run->nr; i++)
		files[i] = (struct ynl_out_file){ .path = run->paths[i], .text = &run->text[i] };
	ret = ynl_out_commit(files, run->nr, err, err_size);
	free(files);
	return ret;
}

int kfsim_ynl_generate(const char *spec_path, const char *out_dir, unsigned int modes,
		       char *err, size_t err_size)
{
	struct gen_run run = { 0 };
	int ret = prepare(&run, spec_path, out_dir, modes, err, err_size, NULL, 0);

	if (!ret)
		ret = gen_run_commit(&run, err, err_size);
	gen_run_release(&run);
	return ret;
}

/*
 * mkdir -p @dir (as kfsim tour --out does), so the documented "--out-dir /tmp/gen" works on a
 * fresh machine.  Return: 0 or -errno with the path that failed in @err.
 */
static int make_out_dir(const char *dir, char *err, size_t err_size)
{
	char path[PATH_MAX];
	size_t len = strlen(dir);

	if (len >= sizeof(path)) {
		snprintf(err, err_size, "%.64s...: %s", dir, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	memcpy(path, dir, len + 1);
	for (char *slash = path + 1; ; slash++) {
		bool end = !*slash;

		if (*slash != '/' && !end)
			continue;
		*slash = '\0';
		if (mkdir(path, 0777) && errno != EEXIST) {
			snprintf(err, err_size, "%s: %s", path, strerror(errno));
			return -errno;
		}
		if (end)
			break;
		*slash = '/';
	}
	return 0;
}

int ynl_gen_run_specs(char *const *specs, int nr_specs, const char *out_dir, unsigned int modes,
		      char (*idents)[YNL_GEN_IDENT_MAX], char *err, size_t err_size)
{
	struct gen_run run = { 0 };
	int ret = 0;

	/*
	 * Every spec is loaded and emitted first, then all files of the run are written at once:
	 * a bad second spec, a directory in the way or a full disk leaves every file as it was.
	 * The --out directory too is made only then: a refused spec leaves no empty one behind.
	 */
	for (int i = 0; i < nr_specs && !ret; i++)
		ret = prepare(&run, specs[i], out_dir, modes, err, err_size, idents[i],
			      sizeof(idents[i]));
	if (!ret)
		ret = make_out_dir(out_dir, err, err_size);
	if (!ret)
		ret = gen_run_commit(&run, err, err_size);
	gen_run_release(&run);
	return ret;
}
