// SPDX-License-Identifier: MIT
/*
 * Generator driver: load a spec, run the emitters into memory, commit all files at once.
 * Invariant: a spec that fails to load or an emitter that runs out of memory leaves the output
 * directory exactly as it was.
 */
#define _GNU_SOURCE /* strerrorname_np() */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/ynl_gen.h>
#include "ynl_emit.h"

/* kfsim_ynl_generate(), also telling the caller the family identifier (file name stem). */
static int generate(const char *spec_path, const char *out_dir, unsigned int modes, char *err,
		    size_t err_size, char *ident, size_t ident_size)
{
	struct ynl_out text[6];
	struct ynl_out_file files[6];
	char paths[6][4096];
	struct ynl_spec *spec;
	int nr = 0, ret;

	if (!modes || (modes & ~(KFSIM_YNL_GEN_ALL | KFSIM_YNL_GEN_TEST))) {
		snprintf(err, err_size, "bad mode mask %#x", modes);
		return -EINVAL;
	}
	spec = ynl_spec_load(spec_path, err, err_size, &ret);
	if (!spec)
		return ret;
	for (int i = 0; i < spec->nr_warnings; i++)
		fprintf(stderr, "%s\n", spec->warnings[i]);
	for (int i = 0; i < 6; i++)
		ynl_out_init(&text[i]);
	if (modes & KFSIM_YNL_GEN_UAPI) {
		ynl_emit_uapi(spec, &text[nr]);
		snprintf(paths[nr], sizeof(paths[nr]), "%s/%s-uapi.h", out_dir, spec->ident);
		nr++;
	}
	if (modes & KFSIM_YNL_GEN_KERNEL) {
		ynl_emit_kernel(spec, &text[nr], &text[nr + 1]);
		snprintf(paths[nr], sizeof(paths[nr]), "%s/%s-kernel.h", out_dir, spec->ident);
		snprintf(paths[nr + 1], sizeof(paths[nr + 1]), "%s/%s-kernel.c", out_dir,
			 spec->ident);
		nr += 2;
	}
	if (modes & KFSIM_YNL_GEN_USER) {
		ynl_emit_user(spec, &text[nr], &text[nr + 1]);
		snprintf(paths[nr], sizeof(paths[nr]), "%s/%s-user.h", out_dir, spec->ident);
		snprintf(paths[nr + 1], sizeof(paths[nr + 1]), "%s/%s-user.c", out_dir, spec->ident);
		nr += 2;
	}
	if (modes & KFSIM_YNL_GEN_TEST) {
		ynl_emit_test(spec, &text[nr]);
		snprintf(paths[nr], sizeof(paths[nr]), "%s/%s-test.c", out_dir, spec->ident);
		nr++;
	}
	for (int i = 0; i < nr; i++)
		files[i] = (struct ynl_out_file){ .path = paths[i], .text = &text[i] };
	ret = ynl_out_commit(files, nr, err, err_size);
	if (ident)
		snprintf(ident, ident_size, "%s", spec->ident);
	for (int i = 0; i < 6; i++)
		ynl_out_release(&text[i]);
	ynl_spec_free(spec);
	return ret;
}

int kfsim_ynl_generate(const char *spec_path, const char *out_dir, unsigned int modes,
		       char *err, size_t err_size)
{
	return generate(spec_path, out_dir, modes, err, err_size, NULL, 0);
}

/* A JSON string (the names here are paths and identifiers: escape quotes, backslashes, controls). */
static void json_str(const char *text)
{
	putchar('"');
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '"' || *c == '\\')
			printf("\\%c", *c);
		else if (*c < 0x20)
			printf("\\u%04x", *c);
		else
			putchar(*c);
	}
	putchar('"');
}

static void gen_help(const char *prog)
{
	printf("Usage: %s [--mode uapi|kernel|user|test|all] [--out-dir DIR] [--json] SPEC...\n\n"
	       "Generate C from YNL netlink specs (the kernel's Documentation/netlink/specs\n"
	       "language: genetlink, genetlink-c, genetlink-legacy and netlink-raw).\n\n"
	       "  --mode M      what to generate (repeatable; default all):\n"
	       "                  uapi    F-uapi.h: enums, attribute and command ids\n"
	       "                  kernel  F-kernel.{h,c}: policies and op table for kfsim's kernel\n"
	       "                  user    F-user.{h,c}: request/reply structs, put/parse, dumps\n"
	       "                  test    F-test.c: a round-trip test program over kernel + user\n"
	       "  --out-dir DIR where the files go (default .)\n"
	       "  --json        print one JSON document listing the files written\n\n"
	       "A bad spec is reported as file:line:column: message, exit status 1, and no file\n"
	       "is written.\n", prog);
}

int kfsim_ynl_gen_main(const char *prog, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "out-dir", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out_dir = ".";
	unsigned int modes = 0;
	char err[1024], ident[256];
	bool json = false;
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":m:o:hj", longopts, NULL)) != -1) {
		switch (opt) {
		case 'm':
			if (!strcmp(optarg, "uapi"))
				modes |= KFSIM_YNL_GEN_UAPI;
			else if (!strcmp(optarg, "kernel"))
				modes |= KFSIM_YNL_GEN_KERNEL;
			else if (!strcmp(optarg, "user"))
				modes |= KFSIM_YNL_GEN_USER;
			else if (!strcmp(optarg, "test"))
				modes |= KFSIM_YNL_GEN_TEST;
			else if (!strcmp(optarg, "all"))
				modes |= KFSIM_YNL_GEN_ALL;
			else {
				fprintf(stderr, "%s: invalid value '%s' for --mode: expected uapi, "
					"kernel, user, test or all\n", prog, optarg);
				return 2;
			}
			break;
		case 'o':
			out_dir = optarg;
			break;
		case 'h':
			gen_help(prog);
			return 0;
		case 'j':
			json = true;
			break;
		case ':':
			fprintf(stderr, "%s: option '%s' needs a value\n", prog, argv[optind - 1]);
			return 2;
		default:
			fprintf(stderr, "%s: unknown option '%s'\n", prog, argv[optind - 1]);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: missing SPEC: expected one or more YAML spec files\n", prog);
		return 2;
	}
	if (!modes)
		modes = KFSIM_YNL_GEN_ALL;
	/*
	 * Every spec is read and checked before any file is written: one bad spec among several
	 * leaves the output directory as it was.
	 */
	for (int i = optind; i < argc; i++) {
		int ret;
		struct ynl_spec *spec = ynl_spec_load(argv[i], err, sizeof(err), &ret);

		if (!spec) {
			if (strchr(prog, ' '))
				fprintf(stderr, "%s: -%s: %s\n", prog, strerrorname_np(-ret), err);
			else
				fprintf(stderr, "%s\n", err);
			return 1;
		}
		ynl_spec_free(spec);
	}
	/* Generate everything first: --json prints only when every spec succeeded. */
	for (int i = optind; i < argc; i++) {
		int ret = generate(argv[i], out_dir, modes, err, sizeof(err), ident, sizeof(ident));

		if (ret) {
			/* The kfsim program's failure line names the errno; the tool is compiler-style. */
			if (strchr(prog, ' '))
				fprintf(stderr, "%s: -%s: %s\n", prog, strerrorname_np(-ret), err);
			else
				fprintf(stderr, "%s\n", err);
			return 1;
		}
	}
	if (json) {
		static const struct {
			unsigned int mode;
			const char *suffix;
		} kinds[] = {
			{ KFSIM_YNL_GEN_UAPI, "-uapi.h" }, { KFSIM_YNL_GEN_KERNEL, "-kernel.h" },
			{ KFSIM_YNL_GEN_KERNEL, "-kernel.c" }, { KFSIM_YNL_GEN_USER, "-user.h" },
			{ KFSIM_YNL_GEN_USER, "-user.c" }, { KFSIM_YNL_GEN_TEST, "-test.c" },
		};

		printf("{\"out_dir\": ");
		json_str(out_dir);
		printf(", \"specs\": [");
		for (int i = optind; i < argc; i++) {
			char path[4200];

			if (generate(argv[i], out_dir, modes, err, sizeof(err), ident, sizeof(ident)))
				return 1;	/* unchanged files: this cannot fail where it passed */
			printf("%s{\"spec\": ", i > optind ? ", " : "");
			json_str(argv[i]);
			printf(", \"family\": ");
			json_str(ident);
			printf(", \"files\": [");
			for (size_t k = 0, n = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
				if (!(modes & kinds[k].mode))
					continue;
				snprintf(path, sizeof(path), "%s/%s%s", out_dir, ident, kinds[k].suffix);
				printf("%s", n++ ? ", " : "");
				json_str(path);
			}
			printf("]}");
		}
		printf("]}\n");
	}
	return 0;
}
