// SPDX-License-Identifier: MIT
/*
 * kfsim tour [--out DIR] [--json | --html]: the main job.  Runs every part's tour step in
 * order, then shows the kernel log the run produced, as dmesg would, and writes the whole run
 * as one page, DIR/index.html.
 *
 * Every file the tour writes is DIR/NAME with NAME shorter than KFSIM_TOUR_NAME_MAX: a DIR too
 * long for that is refused with -ENAMETOOLONG before anything is created, so no path is ever
 * truncated into the name of some other file.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/kernel.h>
#include <kfsim/outfile.h>
#include <kfsim/printk.h>
#include <kfsim/svg_plot.h>
#include "cli_tables.h"
#include "tour_html.h"
#include "cli_playground.h"

#define TOUR_DEFAULT_OUT "kfsim-tour"

struct tour_opts {
	const char *out_dir;
	bool json;
	bool html;
};

static void tour_defaults(void *opts, unsigned int verb)
{
	*(struct tour_opts *)opts = (struct tour_opts){ .out_dir = TOUR_DEFAULT_OUT };
}

#define O(field) offsetof(struct tour_opts, field)

static const struct kfsim_opt tour_opts_table[] = {
	{ "out", KFSIM_OPT_STRING, O(out_dir), "DIR",
	  "where pictures, traces and index.html go (created if missing)" },
	{ "json", KFSIM_OPT_FLAG, O(json), NULL,
	  "print one JSON report on stdout instead of the narrative",
	  .excludes = (const char *const[]){ "html", NULL } },
	{ "html", KFSIM_OPT_FLAG, O(html), NULL,
	  "print the HTML page on stdout instead of the narrative" },
};

static int tour_main(void *opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_spec tour_spec = {
	.name = "tour",
	.usage = "kfsim tour [--out DIR] [--json | --html]",
	.about = "Walk through every part of kfsim on built-in defaults: each part shows its\n"
		 "kernel feature at work and writes its pictures to DIR.\n"
		 "The run's kernel log is printed at the end, as dmesg shows it.  The whole\n"
		 "run is also written as one self-contained page, DIR/index.html.",
	.opts = tour_opts_table,
	.nr_opts = ARRAY_SIZE(tour_opts_table),
	.defaults = tour_defaults,
	.opts_size = sizeof(struct tour_opts),
	.run = tour_main,
};

static size_t longest_component(const char *path)
{
	size_t longest = 0;

	while (*path) {
		size_t len = strcspn(path, "/");

		longest = len > longest ? len : longest;
		path += len + (path[len] == '/');
	}
	return longest;
}

void kfsim_tour_file(struct kfsim_tour_ctx *ctx, const char *path)
{
	if (ctx->nr_files < KFSIM_TOUR_MAX_FILES)
		snprintf(ctx->files[ctx->nr_files++], sizeof(ctx->files[0]), "%s", path);
}

int kfsim_tour_path(const struct kfsim_tour_ctx *ctx, const char *name, char buf[PATH_MAX])
{
	if (strlen(name) >= KFSIM_TOUR_NAME_MAX ||
	    snprintf(buf, PATH_MAX, "%s/%s", ctx->out_dir, name) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

int kfsim_tour_write(struct kfsim_tour_ctx *ctx, const char *name,
		     int (*write)(FILE *out, const void *arg), const void *arg)
{
	struct kfsim_outfile out;
	char path[PATH_MAX];
	int ret = kfsim_tour_path(ctx, name, path);

	if (ret)
		return ret;
	/*
	 * Written beside and renamed over, as every kfsim output (kfsim_outfile): a failed step
	 * leaves the old picture whole, and a link another user planted in a shared --out
	 * directory is not followed.
	 */
	ret = kfsim_outfile_open(&out, path);
	if (ret)
		return ret;
	ret = write(out.file, arg);
	if (ret) {
		kfsim_outfile_abort(&out);
		return ret;
	}
	ret = kfsim_outfile_commit(&out);
	if (!ret)
		kfsim_tour_file(ctx, path);
	return ret;
}

static int write_plot(FILE *out, const void *plot)
{
	return kfsim_plot_svg_write(plot, out);
}

int kfsim_tour_plot(struct kfsim_tour_ctx *ctx, const char *name, const struct kfsim_plot *plot)
{
	return kfsim_tour_write(ctx, name, write_plot, plot);
}

/* The run's kernel log as dmesg prints it (malloc'd; NULL without memory). */
static char *dmesg_text(u64 since)
{
	size_t need = kfsim_dmesg_format(since, NULL, 0);
	char *text = malloc(need + 1);

	if (text)
		kfsim_dmesg_format(since, text, need + 1);
	return text;
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

static void json_step(struct kfsim_json *json, const struct kfsim_tour_step *step, int ret,
		      const struct kfsim_tour_ctx *ctx)
{
	kfsim_json_object_begin(json);
	kfsim_json_kv_string(json, "name", step->name);
	kfsim_json_kv_string(json, "title", step->title);
	kfsim_json_kv_bool(json, "ok", !ret);
	if (ret)
		kfsim_json_kv_string(json, "error", kfsim_errname(ret));
	kfsim_json_key(json, "files");
	kfsim_json_array_begin(json);
	for (int f = 0; f < ctx->nr_files; f++)
		kfsim_json_string(json, ctx->files[f]);
	kfsim_json_array_end(json);
	kfsim_json_object_end(json);
}

/* @path's name inside the output directory, for the page's relative links. */
static void record_result(struct kfsim_tour_result *res, const struct kfsim_tour_ctx *ctx)
{
	size_t dir_len = strlen(ctx->out_dir), len;

	res->nr_files = 0;
	for (int f = 0; f < ctx->nr_files; f++) {
		const char *path = ctx->files[f], *name = strrchr(path, '/');

		if (!strncmp(path, ctx->out_dir, dir_len) && path[dir_len] == '/')
			name = path + dir_len + 1;
		else
			name = name ? name + 1 : path;
		len = strlen(name);
		/* kfsim_tour_path() refused longer names: a longer one is a file of no step's */
		if (len >= sizeof(res->files[0]))
			continue;
		memcpy(res->files[res->nr_files++], name, len + 1);
	}
}

/*
 * One step, its narrative captured so that the page can show it too; the terminal gets it
 * unchanged, followed by the files the step wrote.
 */
static int run_step(struct kfsim_tour_ctx *ctx, FILE *terminal, const struct kfsim_tour_step *step,
		    struct kfsim_tour_result *res, char **narrative)
{
	size_t len = 0;
	int ret;

	*narrative = NULL;
	ctx->nr_files = 0;
	ctx->out = open_memstream(narrative, &len);
	if (!ctx->out)
		return -ENOMEM;
	ret = step->run(ctx);
	if (fclose(ctx->out) && !ret)
		ret = -ENOMEM;
	ctx->out = NULL;
	fprintf(terminal, "\n== %s ==\n%s", step->title, *narrative ? *narrative : "");
	if (ret)
		fprintf(stderr, "kfsim tour: step '%s' failed: -%s\n", step->name,
			kfsim_errname(ret));
	for (int f = 0; f < ctx->nr_files; f++)
		fprintf(terminal, "  wrote %s\n", ctx->files[f]);
	res->step = step;
	res->err = ret;
	res->narrative = *narrative;
	record_result(res, ctx);
	return ret;
}

enum tour_mode { TOUR_TEXT, TOUR_JSON, TOUR_HTML };

static int tour_run(const char *out_dir, enum tour_mode mode)
{
	enum { NR_STEPS = ARRAY_SIZE(kfsim_tour_steps) };
	struct kfsim_tour_ctx *ctx = calloc(1, sizeof(*ctx));
	struct kfsim_tour_result *results = calloc(NR_STEPS, sizeof(*results));
	char *narratives[NR_STEPS] = {NULL};
	struct kfsim_tour_report report;
	char playground[PATH_MAX];
	u64 since = 0; /* the whole run's log, boot parameters included */
	struct kfsim_json json;
	FILE *terminal;
	char kver[16];
	int failed = 0, ret, status = KFSIM_EXIT_FAILURE;

	if (!ctx || !results) {
		status = kfsim_cli_fail("tour", -ENOMEM, "no memory for the tour");
		goto out_free;
	}
	if (strlen(out_dir) + 1 + KFSIM_TOUR_NAME_MAX > PATH_MAX) {
		status = kfsim_cli_fail("tour", -ENAMETOOLONG,
					"output directory name of %zu bytes: at most %d, so that "
					"every file in it has a path shorter than PATH_MAX",
					strlen(out_dir), PATH_MAX - 1 - KFSIM_TOUR_NAME_MAX);
		goto out_free;
	}
	if (longest_component(out_dir) > NAME_MAX) {
		/* refused here, not by mkdir() after the directories above it were made */
		status = kfsim_cli_fail("tour", -ENAMETOOLONG,
					"output directory has a component of %zu bytes: at most %d",
					longest_component(out_dir), NAME_MAX);
		goto out_free;
	}
	ret = kfsim_mkdir_p(out_dir);
	if (ret) {
		status =
			kfsim_cli_fail("tour", ret, "cannot create output directory '%s'", out_dir);
		goto out_free;
	}
	kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver));
	terminal = mode == TOUR_TEXT ? stdout : fopen("/dev/null", "w");
	if (!terminal) {
		status = kfsim_cli_fail("tour", -errno, "cannot open /dev/null");
		goto out_free;
	}
	ctx->out_dir = out_dir;
	ctx->json = mode == TOUR_JSON;
	if (mode == TOUR_JSON) {
		kfsim_json_init(&json, stdout, true);
		kfsim_json_object_begin(&json);
		kfsim_json_kv_string(&json, "kernel_version", kver);
		kfsim_json_kv_string(&json, "cmdline", kfsim_cmdline_text());
		kfsim_json_kv_string(&json, "out_dir", out_dir);
		kfsim_json_key(&json, "steps");
		kfsim_json_array_begin(&json);
	} else if (mode == TOUR_TEXT) {
		printf("kfsim tour: following Linux %s; pictures go to %s/\n", kver, out_dir);
	}
	for (size_t i = 0; i < NR_STEPS; i++) {
		ret = run_step(ctx, terminal, kfsim_tour_steps[i], &results[i], &narratives[i]);
		failed += !!ret;
		if (mode == TOUR_JSON)
			json_step(&json, kfsim_tour_steps[i], ret, ctx);
	}

	/* the playground beside the page, when this build carries it (-DKFSIM_WASM=ON) */
	ret = kfsim_playground_write(out_dir, playground, sizeof(playground));
	if (ret && ret != -EOPNOTSUPP) {
		fprintf(stderr, "kfsim tour: cannot write %s: -%s\n", playground,
			kfsim_errname(ret));
		failed++;
	}
	report = (struct kfsim_tour_report){
		.playground = !ret,
		.out_dir = out_dir,
		.kver = kver,
		.cmdline = kfsim_cmdline_text(),
		.steps = results,
		.nr_steps = NR_STEPS,
		.dmesg = dmesg_text(since),
		.failed = failed,
	};
	ctx->nr_files = 0;
	ret = kfsim_tour_write(ctx, "index.html", kfsim_tour_html, &report);
	if (ret) {
		fprintf(stderr, "kfsim tour: cannot write %s/index.html: -%s\n", out_dir,
			kfsim_errname(ret));
		failed++;
	}
	if (mode == TOUR_JSON) {
		kfsim_json_array_end(&json);
		if (!ret)
			kfsim_json_kv_string(&json, "html", ctx->files[0]);
		if (report.playground)
			kfsim_json_kv_string(&json, "playground", playground);
		json_dmesg(&json, since);
		kfsim_json_object_end(&json);
		kfsim_json_finish(&json);
	} else if (mode == TOUR_HTML) {
		kfsim_tour_html(stdout, &report);
	} else {
		printf("\n== Kernel log of this run (dmesg) ==\n%s",
		       report.dmesg ? report.dmesg : "");
		if (!ret)
			printf("\nThe whole tour as one page: %s\n", ctx->files[0]);
		if (report.playground)
			printf("Play with it, kfsim in the browser: %s\n", playground);
		printf("\nkfsim tour: %zu steps, %d failed\n", (size_t)NR_STEPS, failed);
	}
	if (terminal != stdout)
		fclose(terminal);
	free((char *)report.dmesg);
	status = failed ? KFSIM_EXIT_FAILURE : KFSIM_EXIT_OK;
out_free:
	for (size_t i = 0; i < NR_STEPS; i++)
		free(narratives[i]);
	free(results);
	free(ctx);
	return status;
}

static int tour_main(void *opts, const struct kfsim_cli_args *args)
{
	const struct tour_opts *o = opts;

	return tour_run(o->out_dir, o->json ? TOUR_JSON : o->html ? TOUR_HTML : TOUR_TEXT);
}

const struct kfsim_cli_command kfsim_cmd_tour = {
	.name = "tour",
	.summary = "walk through every part on built-in defaults (the main job)",
	.spec = &tour_spec,
	.oldest_kver = KERNEL_VERSION(6, 3, 0),
	.kver_why = "it runs every part, and PLCA and BPF graphs need 6.3",
};
