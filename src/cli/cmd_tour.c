// SPDX-License-Identifier: MIT
/*
 * kfsim tour [--out DIR] [--json]: the main job.  Runs every part's tour step in order, then
 * shows the kernel log the run produced, as dmesg would.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/kernel.h>
#include <kfsim/printk.h>
#include "cli_tables.h"

#define TOUR_DEFAULT_OUT "kfsim-tour"

static void tour_help(void)
{
	printf("Usage: kfsim tour [--out DIR] [--json]\n\n"
	       "Walk through every part of kfsim on built-in defaults: each part shows its\n"
	       "kernel feature at work and writes its pictures to DIR (default ./%s).\n"
	       "The run's kernel log is printed at the end, as dmesg shows it.\n\n"
	       "  --out DIR   where pictures and traces go (created if missing)\n"
	       "  --json      print one JSON report on stdout instead of the narrative\n",
	       TOUR_DEFAULT_OUT);
}

static int make_dirs(const char *path)
{
	struct stat st;
	char buf[4096];
	size_t len = strlen(path);

	if (!len || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	/* EEXIST also covers a regular file of that name: every step would fail on it */
	if (stat(buf, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static void print_dmesg(FILE *out, u64 since)
{
	size_t need = kfsim_dmesg_format(since, NULL, 0);
	char *text = malloc(need + 1);

	if (!text)
		return;
	kfsim_dmesg_format(since, text, need + 1);
	fprintf(out, "\n== Kernel log of this run (dmesg) ==\n%s", text);
	free(text);
}

static void json_dmesg(struct kfsim_json *json, u64 since)
{
	struct kfsim_log_record *rec = malloc(sizeof(*rec));
	u64 seq = since;

	kfsim_json_key(json, "dmesg");
	kfsim_json_array_begin(json);
	while (rec && !kfsim_log_read(&seq, rec)) {
		kfsim_json_object_begin(json);
		kfsim_json_kv_double(json, "ts", (double)rec->ts_nsec / 1e9);
		kfsim_json_kv_int(json, "level", rec->level);
		kfsim_json_kv_string(json, "text", rec->text);
		kfsim_json_object_end(json);
	}
	kfsim_json_array_end(json);
	free(rec);
}

static int tour_run(const char *out_dir, bool json_mode)
{
	struct kfsim_tour_ctx *ctx = calloc(1, sizeof(*ctx));
	u64 since = 0;	/* the whole run's log, boot parameters included */
	struct kfsim_json json;
	char kver[16];
	int failed = 0, ret;

	if (!ctx)
		return kfsim_cli_fail("tour", -ENOMEM, "no memory for the tour");
	ret = make_dirs(out_dir);
	if (ret) {
		free(ctx);
		return kfsim_cli_fail("tour", ret, "cannot create output directory '%s'", out_dir);
	}
	kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver));
	ctx->out = json_mode ? fopen("/dev/null", "w") : stdout;
	if (!ctx->out) {
		free(ctx);
		return kfsim_cli_fail("tour", -errno, "cannot open /dev/null");
	}
	ctx->out_dir = out_dir;
	ctx->json = json_mode;
	if (json_mode) {
		kfsim_json_init(&json, stdout, true);
		kfsim_json_object_begin(&json);
		kfsim_json_kv_string(&json, "kernel_version", kver);
		kfsim_json_kv_string(&json, "cmdline", kfsim_cmdline_text());
		kfsim_json_kv_string(&json, "out_dir", out_dir);
		kfsim_json_key(&json, "steps");
		kfsim_json_array_begin(&json);
	} else {
		printf("kfsim tour: following Linux %s; pictures go to %s/\n", kver, out_dir);
	}
	for (size_t i = 0; i < ARRAY_SIZE(kfsim_tour_steps); i++) {
		const struct kfsim_tour_step *step = kfsim_tour_steps[i];

		ctx->nr_files = 0;
		fprintf(ctx->out, "\n== %s ==\n", step->title);
		ret = step->run(ctx);
		if (ret) {
			failed++;
			fprintf(stderr, "kfsim tour: step '%s' failed: -%s\n", step->name,
				kfsim_errname(ret));
		}
		for (int f = 0; f < ctx->nr_files; f++)
			fprintf(ctx->out, "  wrote %s\n", ctx->files[f]);
		if (json_mode) {
			kfsim_json_object_begin(&json);
			kfsim_json_kv_string(&json, "name", step->name);
			kfsim_json_kv_string(&json, "title", step->title);
			kfsim_json_kv_bool(&json, "ok", !ret);
			if (ret)
				kfsim_json_kv_string(&json, "error", kfsim_errname(ret));
			kfsim_json_key(&json, "files");
			kfsim_json_array_begin(&json);
			for (int f = 0; f < ctx->nr_files; f++)
				kfsim_json_string(&json, ctx->files[f]);
			kfsim_json_array_end(&json);
			kfsim_json_object_end(&json);
		}
	}
	if (json_mode) {
		kfsim_json_array_end(&json);
		json_dmesg(&json, since);
		kfsim_json_object_end(&json);
		kfsim_json_finish(&json);
		fclose(ctx->out);
	} else {
		print_dmesg(stdout, since);
		printf("\nkfsim tour: %zu steps, %d failed\n", ARRAY_SIZE(kfsim_tour_steps), failed);
	}
	free(ctx);
	return failed ? KFSIM_EXIT_FAILURE : KFSIM_EXIT_OK;
}

static int cmd_tour(int argc, char **argv)
{
	static const struct option options[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *out_dir = TOUR_DEFAULT_OUT;
	bool json_mode = false;
	int opt;

	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, ":o:jh", options, NULL)) != -1) {
		switch (opt) {
		case 'o':
			if (!*optarg)
				return kfsim_cli_usage("tour", "invalid value '' for --out: expected a directory");
			out_dir = optarg;
			break;
		case 'j':
			json_mode = true;
			break;
		case 'h':
			tour_help();
			return KFSIM_EXIT_OK;
		default:
			return kfsim_cli_bad_option("tour", argv, opt);
		}
	}
	if (optind < argc)
		return kfsim_cli_usage("tour", "unexpected argument '%s'", argv[optind]);
	return tour_run(out_dir, json_mode);
}

const struct kfsim_cli_command kfsim_cmd_tour = {
	.name = "tour",
	.summary = "walk through every part on built-in defaults (the main job)",
	.run = cmd_tour,
	.oldest_kver = KERNEL_VERSION(6, 3, 0),
	.kver_why = "it runs every part, and PLCA and BPF graphs need 6.3",
};
