// SPDX-License-Identifier: MIT
/*
 * kfsim bpf kfuncs [--json] | kfsim bpf demo [--json] [--rounds N] [--svg FILE] [--trace FILE]:
 * the BPF graph kfunc registry, and the examples (the rbtree cover letter's node_data program and
 * a cgfifo-style weighted-vtime queue) run with every verifier rule checked.
 */
#include <errno.h>
#include <getopt.h>
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

static void bpf_help(void)
{
	printf("Usage: kfsim bpf kfuncs [--json]\n"
	       "       kfsim bpf test [--kernel] [-I DIR]... PROG.c [NAME...]\n"
	       "       kfsim bpf demo [--json] [--rounds N] [--svg FILE] [--trace FILE]\n\n"
	       "BPF graph collections (bpf_rbtree, bpf_list) with the verifier's ownership rules\n"
	       "checked at run time.  The global --kver picks 6.3 or later semantics.\n\n"
	       "  kfuncs          list every graph kfunc: flags, versions, one-line doc\n"
	       "  demo            run the examples: the rbtree cover letter's node_data program "
	       "and\n"
	       "                  a cgfifo-style weighted-vtime run queue\n"
	       "  test            build a BPF C file, unchanged, and run its programs natively\n"
	       "                  against their annotations ('kfsim bpf test --help')\n"
	       "  --json          print one JSON document on stdout instead of text\n"
	       "  --rounds N      cgfifo dispatches (1..1000000, default 1000)\n"
	       "  --svg FILE      write the node_data run's reference timeline as SVG\n"
	       "  --trace FILE    write it as a Perfetto trace (open in ui.perfetto.dev)\n");
}

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
	kfsim_json_object_end(json);
}

static int write_pictures(const struct kfsim_bpf_timeline *tl, const char *svg, const char *trace)
{
	struct kfsim_outfile f;
	struct kfsim_trace tr;
	int err;

	/* both through kfsim_outfile: an old file stays unless the new one is complete */
	if (svg) {
		err = kfsim_outfile_open(&f, svg);
		if (err)
			return kfsim_cli_fail("bpf", err, "cannot create '%s'", svg);
		err = kfsim_bpf_timeline_svg(tl,
					     "rbtree_first_and_remove: owning vs non-owning "
					     "references",
					     f.file);
		if (err)
			kfsim_outfile_fail(&f, err);
		err = kfsim_outfile_commit(&f);
		if (err)
			return kfsim_cli_fail("bpf", err, "cannot write '%s'", svg);
	}
	if (trace) {
		err = kfsim_trace_open(&tr, trace);
		if (err)
			return kfsim_cli_fail("bpf", err, "cannot create '%s'", trace);
		kfsim_bpf_timeline_trace(tl, &tr, 1);
		err = kfsim_trace_close(&tr);
		if (err)
			return kfsim_cli_fail("bpf", err, "cannot write '%s'", trace);
	}
	return KFSIM_EXIT_OK;
}

static int bpf_demo_cmd(bool json_mode, unsigned int rounds, const char *svg, const char *trace)
{
	static struct kfsim_bpf_timeline tl;
	struct kfsim_bpf_run_opts opts = {.timeline = &tl};
	struct kfsim_bpf_example_result res[2];
	FILE *out = json_mode ? NULL : stdout;
	struct kfsim_json json;
	char kver[16];
	int err, ret;

	if (out)
		printf("== node_data (the bpf_rbtree cover letter's example) ==\n");
	err = kfsim_bpf_example_node_data(out, &res[0], &opts);
	if (err)
		return kfsim_cli_fail("bpf", err, "node_data example failed");
	if (out)
		printf("\n== cgfifo (weighted vtime in a bpf_rbtree) ==\n");
	err = kfsim_bpf_example_cgfifo(out, rounds, &res[1]);
	if (err)
		return kfsim_cli_fail("bpf", err, "cgfifo example failed");
	ret = write_pictures(&tl, svg, trace);
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

static int cmd_bpf(int argc, char **argv)
{
	static const struct option options[] = {
		{"json", no_argument, NULL, 'j'},      {"rounds", required_argument, NULL, 'r'},
		{"svg", required_argument, NULL, 's'}, {"trace", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},      {0},
	};
	const char *verb, *svg = NULL, *trace = NULL;
	bool json_mode = false;
	u64 rounds = 1000;
	int opt;

	if (argc >= 2 && !strcmp(argv[1], "test"))
		return kfsim_bpf_test_cmd(argc - 1, argv + 1);
	if (kfsim_cli_wants_help(argc, argv)) {
		bpf_help();
		return KFSIM_EXIT_OK;
	}
	if (argc < 2)
		return kfsim_cli_usage("bpf", "missing subcommand: expected kfuncs, demo or test (see 'kfsim bpf --help')");
	verb = argv[1];
	if (strcmp(verb, "kfuncs") && strcmp(verb, "demo"))
		return kfsim_cli_usage(
			"bpf", "unknown subcommand '%s': expected kfuncs, demo or test", verb);
	opterr = 0;
	optind = 2;
	while ((opt = getopt_long(argc, argv, ":jr:s:t:h", options, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json_mode = true;
			break;
		case 'r':
			if (kfsim_cli_parse_u64("bpf", "--rounds", optarg, 1, 1000000, &rounds))
				return KFSIM_EXIT_USAGE;
			break;
		case 's':
		case 't':
			if (!*optarg)
				return kfsim_cli_usage(
					"bpf", "invalid value '' for --%s: expected a file name",
					opt == 's' ? "svg" : "trace");
			*(opt == 's' ? &svg : &trace) = optarg;
			break;
		default:
			return kfsim_cli_bad_option("bpf", argv, opt);
		}
	}
	if (optind < argc)
		return kfsim_cli_usage("bpf", "unexpected argument '%s'", argv[optind]);
	if (!strcmp(verb, "kfuncs")) {
		if (svg || trace || rounds != 1000)
			return kfsim_cli_usage("bpf",
					       "--rounds, --svg and --trace apply to 'demo' only");
		return bpf_kfuncs_cmd(json_mode);
	}
	return bpf_demo_cmd(json_mode, (unsigned int)rounds, svg, trace);
}

const struct kfsim_cli_command kfsim_cmd_bpf = {
	.name = "bpf",
	.summary = "BPF graph collections (bpf_rbtree/bpf_list) with run-time verifier checks",
	.run = cmd_bpf,
	.oldest_kver = KERNEL_VERSION(6, 3, 0),
	.kver_why = "bpf_rbtree_* kfuncs arrived in 6.3; bpf_obj_new and lists in 6.2",
};
