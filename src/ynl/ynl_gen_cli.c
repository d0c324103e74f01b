// SPDX-License-Identifier: MIT
/*
 * The generator's command line, one option table for its three callers: the program
 * kfsim-ynl-gen, the command "kfsim ynl-gen", and kfsim_ynl_gen_main() of the public API (which
 * both of them call).  Parsing, the help text and every usage error come from the shared
 * declarative parser (src/cliopts/cli_opts.c), so they read as every other kfsim command's: one
 * line naming the option, exit status 2.  A failed run is exit status 1: "kfsim ynl-gen:
 * -EINVAL: spec.yaml:4:15: ..." for the kfsim command, the compiler-style line alone for the
 * tool (what build logs and editors parse).
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/ynl_gen.h>
#include "cliopts/cliopts.h"
#include "ynl_gen_cli.h"
#include "ynl_gen_run.h"

/* @cmd: the kfsim command's word when kfsim_ynl_gen_main() was given "kfsim WORD" */
struct ynl_gen_opts {
	unsigned int modes;
	const char *out_dir;
	bool json;
	const char *cmd;
};

static int ynl_gen_run(void *opts, const struct kfsim_cli_args *args);

static const char *const mode_words[] = { "uapi", "kernel", "user", "test", "all", NULL };
static const unsigned int mode_bits[] = { KFSIM_YNL_GEN_UAPI, KFSIM_YNL_GEN_KERNEL,
					  KFSIM_YNL_GEN_USER, KFSIM_YNL_GEN_TEST,
					  KFSIM_YNL_GEN_ALL };

/* --mode is repeatable and adds up ("--mode uapi --mode test"): a parser, not a choice row */
static int parse_mode(void *opts, const char *value, char *why, size_t why_size)
{
	for (size_t i = 0; mode_words[i]; i++) {
		if (!strcmp(value, mode_words[i])) {
			((struct ynl_gen_opts *)opts)->modes |= mode_bits[i];
			return 0;
		}
	}
	snprintf(why, why_size, "expected uapi, kernel, user, test or all");
	return -EINVAL;
}

#define O(field) offsetof(struct ynl_gen_opts, field)

static const struct kfsim_opt ynl_gen_opts_table[] = {
	{ "mode", KFSIM_OPT_CALL, 0, "M",
	  "what to generate (repeatable; default all):\n"
	  "  uapi    F-uapi.h: enums, attribute and command ids\n"
	  "  kernel  F-kernel.{h,c}: policies and op table for kfsim's kernel\n"
	  "  user    F-user.{h,c}: request/reply structs, put/parse, dumps\n"
	  "  test    F-test.c: a round-trip test program over kernel + user\n"
	  "  all     uapi, kernel and user (not test: ask for it too)",
	  .call = parse_mode },
	{ "out", KFSIM_OPT_STRING, O(out_dir), "DIR",
	  "where the files go (default .; created if missing)" },
	{ "out-dir", KFSIM_OPT_STRING, O(out_dir), "DIR", NULL, .alias_of = "out" },
	{ "json", KFSIM_OPT_FLAG, O(json), NULL,
	  "print one JSON document listing the files written" },
};

const struct kfsim_cli_spec ynl_gen_spec = {
	.name = "ynl-gen",
	.usage = "kfsim ynl-gen [--mode uapi|kernel|user|test|all] [--out DIR] [--json] SPEC...",
	.about = "Generate C from YNL netlink specs (the kernel's Documentation/netlink/specs\n"
		 "language: genetlink, genetlink-c, genetlink-legacy and netlink-raw).",
	.opts = ynl_gen_opts_table,
	.nr_opts = sizeof(ynl_gen_opts_table) / sizeof(ynl_gen_opts_table[0]),
	.notes = "A bad spec is reported as file:line:column: message, exit status 1, and no file\n"
		 "is written: all files of a run (every SPEC) are written together or not at all.\n"
		 "Exit status: 0 ok; 1 a bad spec or a failed write; 2 a bad command line.\n",
	.max_positional = INT_MAX,
	.options_anywhere = true, /* "kfsim-ynl-gen spec.yaml --out dir", as before the table */
	.opts_size = sizeof(struct ynl_gen_opts),
	.run = ynl_gen_run,
};

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

/* {"out_dir": D, "specs": [{"spec": S, "family": F, "files": [...]}, ...]} on one line */
static void print_files(const struct ynl_gen_opts *opts, char *const *specs, int nr_specs,
			char (*idents)[YNL_GEN_IDENT_MAX])
{
	static const struct {
		unsigned int mode;
		const char *suffix;
	} kinds[] = {
		{ KFSIM_YNL_GEN_UAPI, "-uapi.h" },     { KFSIM_YNL_GEN_KERNEL, "-kernel.h" },
		{ KFSIM_YNL_GEN_KERNEL, "-kernel.c" }, { KFSIM_YNL_GEN_USER, "-user.h" },
		{ KFSIM_YNL_GEN_USER, "-user.c" },     { KFSIM_YNL_GEN_TEST, "-test.c" },
	};

	printf("{\"out_dir\": ");
	json_str(opts->out_dir);
	printf(", \"specs\": [");
	for (int i = 0; i < nr_specs; i++) {
		char path[PATH_MAX + YNL_GEN_IDENT_MAX + 16];

		printf("%s{\"spec\": ", i ? ", " : "");
		json_str(specs[i]);
		printf(", \"family\": ");
		json_str(idents[i]);
		printf(", \"files\": [");
		for (size_t k = 0, n = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			if (!(opts->modes & kinds[k].mode))
				continue;
			snprintf(path, sizeof(path), "%s/%s%s", opts->out_dir, idents[i],
				 kinds[k].suffix);
			printf("%s", n++ ? ", " : "");
			json_str(path);
		}
		printf("]}");
	}
	printf("]}\n");
}

/*
 * The run: a kfsim command reports a bad spec as "kfsim ynl-gen: -EINVAL: ...", a program of
 * its own (kfsim_cli_program() set) with the compiler-style line alone.
 */
static int ynl_gen_run(void *opts_, const struct kfsim_cli_args *args)
{
	struct ynl_gen_opts *opts = opts_;
	const char *cmd = opts->cmd ? opts->cmd : ynl_gen_spec.name;
	bool own_program = kfsim_cli_program_name() != NULL;
	char (*idents)[YNL_GEN_IDENT_MAX];
	char err[8192];	/* every problem of a spec, one a line */
	int ret;

	if (!args->nr_positional)
		return kfsim_cli_usage(cmd, "missing SPEC: expected one or more YAML spec files");
	if (!opts->modes)
		opts->modes = KFSIM_YNL_GEN_ALL;
	if (!opts->out_dir)
		opts->out_dir = ".";
	idents = calloc((size_t)args->nr_positional, sizeof(*idents));
	if (!idents) {
		snprintf(err, sizeof(err), "out of memory");
		ret = -ENOMEM;
	} else {
		ret = ynl_gen_run_specs(args->positional, args->nr_positional, opts->out_dir,
					opts->modes, idents, err, sizeof(err));
	}
	if (ret) {
		free(idents);
		if (!own_program) {
			/* one line per problem of the spec, each with the command's prefix */
			int status = 0;

			for (char *line = err, *next; line; line = next) {
				next = strchr(line, '\n');
				if (next)
					*next++ = '\0';
				status = kfsim_cli_fail(cmd, ret, "%s", line);
			}
			return status;
		}
		fprintf(stderr, "%s\n", err);
		/* with --json, a script reading stdout learns why there is no file list */
		if (opts->json)
			kfsim_cli_json_error(cmd, KFSIM_EXIT_FAILURE, ret, err);
		return KFSIM_EXIT_FAILURE;
	}
	if (opts->json)
		print_files(opts, args->positional, args->nr_positional, idents);
	free(idents);
	return KFSIM_EXIT_OK;
}

int kfsim_ynl_gen_main(const char *prog, int argc, char **argv)
{
	struct kfsim_cli_spec spec = ynl_gen_spec;
	bool own_program = strncmp(prog, "kfsim ", 6) != 0;
	struct ynl_gen_opts opts = { 0 };
	const char *old;
	int status;

	/* "kfsim ynl-gen" (or any "kfsim WORD"): a kfsim command; anything else names a tool */
	if (!own_program)
		spec.name = opts.cmd = prog + 6;
	old = kfsim_cli_program(own_program ? prog : NULL);
	/* kfsim's main() does this for "kfsim ynl-gen"; the program of its own must do it too */
	if (own_program)
		kfsim_cli_json_errors(kfsim_cli_wants_json(argc, argv));
	status = kfsim_cli_main(&spec, &opts, argc, argv);
	kfsim_cli_program(old);
	return status;
}
