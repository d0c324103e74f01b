// SPDX-License-Identifier: MIT
/*
 * kfsim refcount demo [--json]: walk a refcount_t through overflow, saturation and misuse and
 * show, step by step, the value, the return, the warning the kernel would print, and what a
 * plain wrapping atomic_t would have done instead.  Thin over kfsim_refcount_demo().
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <kfsim/cmdline.h>
#include <kfsim/json.h>
#include <kfsim/kernel.h>
#include <kfsim/refcount.h>
#include <kfsim/refcount_demo.h>
#include "cli.h"

static void print_value(char *buf, size_t size, u32 value)
{
	if (value == (u32)REFCOUNT_SATURATED)
		snprintf(buf, size, "SATURATED");
	else if (value == (u32)REFCOUNT_MAX)
		snprintf(buf, size, "REFCOUNT_MAX");
	else
		snprintf(buf, size, "%d", (int)value);
}

static void print_text(const struct kfsim_refcount_demo_step *steps, size_t n)
{
	char kver[16];

	printf("refcount_t as in Linux %s: a counter's life, call by call\n",
	       kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver)));
	printf("(value after the call; what a wrapping atomic_t would hold after the same calls)\n\n");
	for (size_t i = 0; i < n; i++) {
		const struct kfsim_refcount_demo_step *s = &steps[i];
		char after[24], atomic_after[24];

		print_value(after, sizeof(after), s->after);
		print_value(atomic_after, sizeof(atomic_after), s->atomic_after);
		if (s->atomic_after == (u32)REFCOUNT_SATURATED)
			snprintf(atomic_after, sizeof(atomic_after), "%d", (int)s->atomic_after);
		printf("%2zu. %-38s -> %-12s", i + 1, s->call, after);
		if (s->returned >= 0)
			printf(" returns %-5s", s->returned ? "true" : "false");
		else
			printf("%14s", "");
		printf(" | atomic_t: %s%s\n", atomic_after, s->atomic_freed ? " (FREED)" : "");
		printf("    %s\n", s->note);
		if (s->warning[0])
			printf("    WARNING: %s\n", s->warning);
	}
	printf("\nThe warnings above are also in the kfsim log, each as a full WARN report from\n"
	       "refcount_warn_saturate() (refcount_dec_not_one() has its own); a second event of\n"
	       "the same type stays silent but still saturates.\n");
}

static int print_json(const struct kfsim_refcount_demo_step *steps, size_t n)
{
	struct kfsim_json json;
	char kver[16];
	int ret;

	kfsim_json_init(&json, stdout, true);
	kfsim_json_object_begin(&json);
	kfsim_json_kv_string(&json, "kernel_version",
			     kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver)));
	kfsim_json_kv_int(&json, "refcount_max", REFCOUNT_MAX);
	kfsim_json_kv_int(&json, "refcount_saturated", REFCOUNT_SATURATED);
	kfsim_json_key(&json, "steps");
	kfsim_json_array_begin(&json);
	for (size_t i = 0; i < n; i++) {
		const struct kfsim_refcount_demo_step *s = &steps[i];

		kfsim_json_object_begin(&json);
		kfsim_json_kv_string(&json, "call", s->call);
		kfsim_json_kv_string(&json, "note", s->note);
		kfsim_json_kv_uint(&json, "before", s->before);
		kfsim_json_kv_uint(&json, "after", s->after);
		kfsim_json_kv_bool(&json, "saturated", s->after == (u32)REFCOUNT_SATURATED);
		kfsim_json_key(&json, "returned");
		if (s->returned >= 0)
			kfsim_json_bool(&json, s->returned);
		else
			kfsim_json_null(&json);
		kfsim_json_key(&json, "warning");
		kfsim_json_string(&json, s->warning[0] ? s->warning : NULL);
		kfsim_json_kv_int(&json, "atomic_t_after", (int)s->atomic_after);
		kfsim_json_kv_bool(&json, "atomic_t_freed", s->atomic_freed);
		kfsim_json_object_end(&json);
	}
	kfsim_json_array_end(&json);
	kfsim_json_object_end(&json);
	ret = kfsim_json_finish(&json);
	if (ret)
		return kfsim_cli_fail("refcount", ret, "cannot write the JSON document");
	return KFSIM_EXIT_OK;
}

struct refcount_opts {
	bool json;
	const char *svg;
};

static const struct kfsim_cli_verb refcount_verbs[] = {
	{ "demo", "a refcount_t through overflow, saturation and misuse, step by step" },
};

static const struct kfsim_opt refcount_opts_table[] = {
	{ "json", KFSIM_OPT_FLAG, offsetof(struct refcount_opts, json), NULL,
	  "print one JSON document instead of the table" },
	{ "svg", KFSIM_OPT_OUTPUT, offsetof(struct refcount_opts, svg), "FILE",
	  "also plot the counter against a wrapping atomic_t's as SVG" },
};

static int refcount_run(void *opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_spec refcount_spec = {
	.name = "refcount",
	.usage = "kfsim [--kver X.Y] refcount demo [--json] [--svg FILE]",
	.about = "Walk a refcount_t through normal use, overflow, saturation and misuse, printing\n"
		 "after each call the counter, the return value and the warning the kernel prints\n"
		 "(each type once, as WARN_ONCE does), next to what a wrapping atomic_t would hold.\n"
		 "--kver 6.11 or later changes the refcount_sub_and_test(0) step.",
	.verbs = refcount_verbs,
	.nr_verbs = ARRAY_SIZE(refcount_verbs),
	.opts = refcount_opts_table,
	.nr_opts = ARRAY_SIZE(refcount_opts_table),
	.notes = "Exit status: 0 ok, 1 runtime failure, 2 bad command line.\n",
	.opts_size = sizeof(struct refcount_opts),
	.run = refcount_run,
};

static int refcount_run(void *opts, const struct kfsim_cli_args *args)
{
	struct kfsim_refcount_demo_step steps[KFSIM_REFCOUNT_DEMO_STEPS];
	const struct refcount_opts *o = opts;
	size_t n;
	int ret;

	n = kfsim_refcount_demo(steps);
	if (o->svg) {
		ret = kfsim_refcount_demo_svg(steps, n, o->svg);
		if (ret)
			return kfsim_cli_fail("refcount", ret, "cannot write '%s'", o->svg);
	}
	if (o->json)
		return print_json(steps, n);
	print_text(steps, n);
	return KFSIM_EXIT_OK;
}

const struct kfsim_cli_command kfsim_cmd_refcount = {
	.name = "refcount",
	.summary = "refcount_t saturation and misuse, step by step, with the kernel's warnings",
	.spec = &refcount_spec,
	.oldest_kver = KERNEL_VERSION(5, 5, 0),
	.kver_why = "the saturating refcount_t design kfsim models is 5.5's",
};
