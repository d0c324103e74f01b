// SPDX-License-Identifier: MIT
/*
 * kfsim bpf kfuncs [--json] | kfsim bpf demo [--json] [--rounds N] [--svg FILE] [--trace FILE] |
 * kfsim bpf test [-I DIR]... PROG.c [NAME...]: the BPF graph kfunc registry, the examples (the
 * rbtree cover letter's node_data program and a cgfifo-style weighted-vtime queue) run with
 * every verifier rule checked, and a BPF C file built and run unchanged (cli_bpf_test.c).  One
 * option table for the three: help, parsing and the verb checks come from it.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <string.h>

#include <kfsim/bpf_experimental.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/outfile.h>
#include <kfsim/trace_event.h>
#include "../../examples/bpf/bpf_examples.h"
#include "cli.h"
#include "cli_bpf_test.h"

static const char *kver_str(unsigned int code, char *buf, size_t size)
{
	return code ? kfsim_kver_format(code, buf, size) : "";
}

static int bpf_kfuncs_cmd(bool json_mode)
{
	const struct kfsim_bpf_kfunc *k;
	unsigned int kver = kfsim_kernel_version();
	char flags[128], since[16], until[16], now[16];
	struct kfsim_json json;
	size_t nr;

	k = kfsim_bpf_kfuncs(&nr);
	kfsim_kver_format(kver, now, sizeof(now));
	if (json_mode) {
		kfsim_json_init(&json, stdout, true);
		kfsim_json_object_begin(&json);
		kfsim_json_kv_string(&json, "kernel_version", now);
		kfsim_json_key(&json, "kfuncs");
		kfsim_json_array_begin(&json);
		for (size_t i = 0; i < nr; i++) {
			kfsim_json_object_begin(&json);
			kfsim_json_kv_string(&json, "name", k[i].name);
			kfsim_json_kv_string(
				&json, "flags",
				kfsim_bpf_kfunc_flags_str(k[i].flags, flags, sizeof(flags)));
			kfsim_json_kv_string(&json, "since",
					     kver_str(k[i].since, since, sizeof(since)));
			if (k[i].until)
				kfsim_json_kv_string(&json, "removed_in",
						     kver_str(k[i].until, until, sizeof(until)));
			else
				kfsim_json_kv_string(&json, "removed_in", "");
			kfsim_json_kv_string(&json, "replacement",
					     k[i].replacement ? k[i].replacement : "");
			/* in the kernel of this version (kfsim keeps removed ones callable) */
			kfsim_json_kv_bool(&json, "available",
					   kver >= k[i].since && (!k[i].until || kver < k[i].until));
			kfsim_json_kv_string(&json, "doc", k[i].doc);
			kfsim_json_kv_string(&json, "note", k[i].note);
			kfsim_json_object_end(&json);
		}
		kfsim_json_array_end(&json);
		kfsim_json_object_end(&json);
		return kfsim_json_finish(&json) ? KFSIM_EXIT_FAILURE : KFSIM_EXIT_OK;
	}
	printf("BPF graph kfuncs (kernel %s; '-' = not in this version)\n\n", now);
	for (size_t i = 0; i < nr; i++) {
		bool in_kernel = kver >= k[i].since && (!k[i].until || kver < k[i].until);

		printf("%c %-26s %-36s since %-5s%s%s\n", in_kernel ? ' ' : '-', k[i].name,
		       kfsim_bpf_kfunc_flags_str(k[i].flags, flags, sizeof(flags)),
		       kver_str(k[i].since, since, sizeof(since)),
		       k[i].until ? "  removed in " : "",
		       k[i].until ? kver_str(k[i].until, until, sizeof(until)) : "");
		printf("  %s\n", k[i].doc);
		if (k[i].note[0])
			printf("  (%s)\n", k[i].note);
	}
	return KFSIM_EXIT_OK;
}

static void json_result(struct kfsim_json *json, const struct kfsim_bpf_example_result *res)
{
	kfsim_json_object_begin(json);
	kfsim_json_kv_string(json, "name", res->name);
	kfsim_json_kv_int(json, "violations", res->violations);
	for (int i = 0; i < res->nr_values; i++)
		kfsim_json_kv_int(json, res->value_names[i], res->values[i]);
	if (res->nr_messages) {
		kfsim_json_key(json, "messages");
		kfsim_json_array_begin(json);
		for (int i = 0; i < res->nr_messages; i++)
			kfsim_json_string(json, res->messages[i]);
		kfsim_json_array_end(json);
	}
	kfsim_json_object_end(json);
}

/*
 * Both through kfsim_outfile, both opened before either is written, and committed together
 * (kfsim_cli_commit_outputs()): both old files stay unless both new ones are complete.
 */
static int write_pictures(const struct kfsim_bpf_timeline *tl, const char *title, const char *svg,
			  const char *trace)
{
	struct kfsim_outfile f;
	struct kfsim_trace tr;
	int err;

	if (svg) {
		err = kfsim_outfile_open(&f, svg);
		if (err)
			return kfsim_cli_fail("bpf", err, "cannot create '%s'", svg);
	}
	if (trace) {
		err = kfsim_trace_open(&tr, trace);
		if (err) {
			if (svg)
				kfsim_outfile_abort(&f);
			return kfsim_cli_fail("bpf", err, "cannot create '%s'", trace);
		}
	}
	if (svg) {
		err = kfsim_bpf_timeline_svg(tl, title, f.file);
		if (!err && fflush(f.file))
			err = f.err ? f.err : -EIO;
		if (err) {
			kfsim_outfile_abort(&f);
			if (trace)
				kfsim_trace_abort(&tr);
			return kfsim_cli_fail("bpf", err, "cannot write '%s'", svg);
		}
	}
	if (trace)
		kfsim_bpf_timeline_trace(tl, &tr, 1);
	return kfsim_cli_commit_outputs("bpf", &tr, trace, &f, svg);
}

static int bpf_demo_cmd(bool json_mode, unsigned int rounds, const char *svg, const char *trace,
			bool broken)
{
	static struct kfsim_bpf_timeline tl;
	struct kfsim_bpf_run_opts opts = {.timeline = &tl};
	struct kfsim_bpf_example_result res[2];
	FILE *out = json_mode ? NULL : stdout;
	struct kfsim_json json;
	char kver[16];
	int err, ret;

	if (out)
		printf(broken ? "== node_data, broken: the first node removed after unlock ==\n"
			      : "== node_data (the bpf_rbtree cover letter's example) ==\n");
	err = broken ? kfsim_bpf_example_node_data_broken(out, &res[0], &opts)
		     : kfsim_bpf_example_node_data(out, &res[0], &opts);
	if (err)
		return kfsim_cli_fail("bpf", err, "%s example failed", res[0].name);
	if (out)
		printf("\n== cgfifo (weighted vtime in a bpf_rbtree) ==\n");
	err = kfsim_bpf_example_cgfifo(out, rounds, &res[1]);
	if (err)
		return kfsim_cli_fail("bpf", err, "cgfifo example failed");
	ret = write_pictures(&tl,
			     broken ? "rbtree_remove_after_unlock: a non-owning reference used "
				      "after unlock"
				    : "rbtree_first_and_remove: owning vs non-owning references",
			     svg, trace);
	if (ret)
		return ret;
	if (!json_mode) {
		if (svg)
			printf("\nreference timeline: %s\n", svg);
		if (trace)
			printf("Perfetto trace: %s\n", trace);
		return KFSIM_EXIT_OK;
	}
	kfsim_json_init(&json, stdout, true);
	kfsim_json_object_begin(&json);
	kfsim_json_kv_string(&json, "kernel_version",
			     kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver)));
	kfsim_json_key(&json, "examples");
	kfsim_json_array_begin(&json);
	json_result(&json, &res[0]);
	json_result(&json, &res[1]);
	kfsim_json_array_end(&json);
	kfsim_json_kv_int(&json, "timeline_events", tl.nr);
	kfsim_json_object_end(&json);
	return kfsim_json_finish(&json) ? KFSIM_EXIT_FAILURE : KFSIM_EXIT_OK;
}

enum bpf_verb { VERB_KFUNCS, VERB_DEMO, VERB_TEST };

struct bpf_opts {
	bool json;
	unsigned int rounds;
	bool broken;
	const char *svg, *trace;
	struct kfsim_bpf_test_args test;
};

/* -I DIR and -D NAME[=VALUE] go to both compilers, in the order given */
static int add_cc_arg(struct bpf_opts *opts, const char *flag, const char *value, char *why,
		      size_t why_size)
{
	struct kfsim_bpf_test_args *t = &opts->test;

	if (t->nr_cc_args + 2 > KFSIM_BPF_TEST_MAX_CC_ARGS) {
		snprintf(why, why_size, "too many -I and -D options (at most %d)",
			 KFSIM_BPF_TEST_MAX_CC_ARGS / 2);
		return -EINVAL;
	}
	t->cc_args[t->nr_cc_args++] = flag;
	t->cc_args[t->nr_cc_args++] = value;
	return 0;
}

static int parse_include(void *opts, const char *value, char *why, size_t why_size)
{
	return add_cc_arg(opts, "-I", value, why, why_size);
}

static int parse_define(void *opts, const char *value, char *why, size_t why_size)
{
	return add_cc_arg(opts, "-D", value, why, why_size);
}

#define O(field) offsetof(struct bpf_opts, field)
#define FOR(verb) (1u << (verb))

static int run_kfuncs(void *opts, const struct kfsim_cli_args *args);
static int run_demo(void *opts, const struct kfsim_cli_args *args);
static int run_test(void *opts, const struct kfsim_cli_args *args);

static const struct kfsim_cli_verb bpf_verbs[] = {
	[VERB_KFUNCS] = { "kfuncs", "list every graph kfunc: flags, versions, one-line doc",
			  .operands = "nothing", .max_positional = 0, .run = run_kfuncs },
	[VERB_DEMO] = { "demo", "run the examples: the rbtree cover letter's node_data program\n"
				"                        and a cgfifo-style weighted-vtime run queue",
			.operands = "nothing", .max_positional = 0, .run = run_demo },
	[VERB_TEST] = { "test", "build a BPF C file, unchanged, with kfsim-bpf-cc and run each\n"
				"                        SEC() program (or each NAME) natively, checked "
				"against its\n                        __failure/__msg/__success/__retval "
				"annotations",
			.operands = "the BPF C file", .min_positional = 1, .max_positional = INT_MAX,
			.run = run_test },
};

static const struct kfsim_opt bpf_opts_table[] = {
	{ "json", KFSIM_OPT_FLAG, O(json), NULL, "print one JSON document on stdout instead of text",
	  .verbs = FOR(VERB_KFUNCS) | FOR(VERB_DEMO) },
	{ "rounds", KFSIM_OPT_UINT, O(rounds), "N", "cgfifo dispatches (1..1000000, default 1000)",
	  .verbs = FOR(VERB_DEMO), .min = 1, .max = 1000000 },
	{ "broken", KFSIM_OPT_FLAG, O(broken), NULL,
	  "run node_data's broken variant (a node removed after unlock),\n"
	  "which the verifier refuses: its message instead of a result", .verbs = FOR(VERB_DEMO) },
	{ "svg", KFSIM_OPT_OUTPUT, O(svg), "FILE", "write the node_data run's reference timeline as SVG",
	  .verbs = FOR(VERB_DEMO) },
	{ "trace", KFSIM_OPT_OUTPUT, O(trace), "FILE",
	  "write it as a Perfetto trace (open in ui.perfetto.dev)", .verbs = FOR(VERB_DEMO) },
	{ "include", KFSIM_OPT_CALL, 0, "DIR",
	  "passed to both compilers (DIR may hold vmlinux.h; repeatable)", .verbs = FOR(VERB_TEST),
	  .call = parse_include, .short_name = 'I' },
	{ "define", KFSIM_OPT_CALL, 0, "NAME[=V]", "passed to both compilers (repeatable)",
	  .verbs = FOR(VERB_TEST), .call = parse_define, .short_name = 'D' },
	{ "keep", KFSIM_OPT_STRING, O(test.keep), "DIR",
	  "build in DIR and keep it (default: a temporary directory)", .verbs = FOR(VERB_TEST) },
	{ "kernel", KFSIM_OPT_FLAG, O(test.kernel), NULL,
	  "also load each program in the running kernel (root) and print\n"
	  "the verifier's verdict beside kfsim's", .verbs = FOR(VERB_TEST) },
	{ "timeout", KFSIM_OPT_UINT, O(test.timeout_s), "S",
	  "seconds of CPU time a program may use (default 10)", .verbs = FOR(VERB_TEST), .min = 1,
	  .max = UINT_MAX },
	{ "explore", KFSIM_OPT_ONOFF, O(test.explore), "on|off",
	  "run both outcomes of every maybe-NULL result and of an insert's\n"
	  "return, each path forked; the verdict is the first rule broken on\n"
	  "any path, printed with the path (default on)", .verbs = FOR(VERB_TEST) },
	{ "paths", KFSIM_OPT_UINT, O(test.paths), "N",
	  "explore at most N paths per program, the natural one included\n(default 64)", .verbs = FOR(VERB_TEST),
	  .min = 1, .max = 4096 },
	{ "flips", KFSIM_OPT_UINT, O(test.flips), "N",
	  "take the other outcome at most N times per path (default 2)", .verbs = FOR(VERB_TEST), .min = 0,
	  .max = 8 },
	{ "paths-svg", KFSIM_OPT_OUTPUT, O(test.paths_svg), "FILE",
	  "draw each program's explored paths (FILE-PROG.svg for several)",
	  .verbs = FOR(VERB_TEST) },
};

/* the runner's exploring mode (src/bpfcc/runtime/bpfrt_explore.c) is on by default */
static void bpf_defaults(void *opts, unsigned int verb)
{
	*(struct bpf_opts *)opts = (struct bpf_opts){
		.test = { .explore = true, .paths = 64, .flips = 2 },
	};
}

static const struct kfsim_cli_spec bpf_spec = {
	.name = "bpf",
	.usage = "kfsim bpf kfuncs [--json]\n"
		 "       kfsim bpf demo [--json] [--rounds N] [--broken] [--svg FILE] [--trace FILE]\n"
		 "       kfsim bpf test [-I DIR]... [-D NAME[=VALUE]]... [--keep DIR] [--kernel]\n"
		 "                      [--timeout S] [--explore on|off] [--paths N] [--flips N]\n"
		 "                      [--paths-svg FILE] PROG.c [NAME...]",
	.about = "BPF graph collections (bpf_rbtree, bpf_list) with the verifier's ownership rules\n"
		 "checked at run time.  The global --kver picks 6.3 or later semantics (and is\n"
		 "passed on to the program 'test' builds).",
	.verbs = bpf_verbs,
	.nr_verbs = ARRAY_SIZE(bpf_verbs),
	.opts = bpf_opts_table,
	.nr_opts = ARRAY_SIZE(bpf_opts_table),
	.notes = "Exit status: 0 ok; 1 a runtime failure, or for 'test' a program that disagrees\n"
		 "with its annotations or a file that did not build; 2 a bad command line.\n",
	.max_positional = INT_MAX,
	/* options anywhere, as compilers take them: "kfsim bpf test P.c -I include" */
	.options_anywhere = true,
	.opts_size = sizeof(struct bpf_opts),
	.defaults = bpf_defaults,
};

static int run_kfuncs(void *opts, const struct kfsim_cli_args *args)
{
	return bpf_kfuncs_cmd(((struct bpf_opts *)opts)->json);
}

static int run_demo(void *opts, const struct kfsim_cli_args *args)
{
	struct bpf_opts *o = opts;

	/* --rounds is 1..1000000: 0 is "not given", the documented 1000 */
	return bpf_demo_cmd(o->json, o->rounds ? o->rounds : 1000, o->svg, o->trace, o->broken);
}

static int run_test(void *opts, const struct kfsim_cli_args *args)
{
	struct bpf_opts *o = opts;

	o->test.source = args->positional[0];
	o->test.names = args->positional + 1;
	o->test.nr_names = args->nr_positional - 1;
	return kfsim_bpf_test_run(&o->test);
}

const struct kfsim_cli_command kfsim_cmd_bpf = {
	.name = "bpf",
	.summary = "BPF graph collections (bpf_rbtree/bpf_list) with run-time verifier checks",
	.spec = &bpf_spec,
	.oldest_kver = KERNEL_VERSION(6, 3, 0),
	.kver_why = "bpf_rbtree_* kfuncs arrived in 6.3; bpf_obj_new and lists in 6.2",
};
