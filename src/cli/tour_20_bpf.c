// SPDX-License-Identifier: MIT
/*
 * Tour step "bpf": BPF graph collections with the verifier's rules checked at run time.  The
 * rbtree cover letter's program runs and its reference timeline is drawn; a cgfifo-style queue
 * shares the CPU by weight; then one program breaks a rule and shows the verifier's message.
 */
#include <errno.h>
#include <stdio.h>

#include <kfsim/bpf_experimental.h>
#include <kfsim/cmdline.h>
#include <kfsim/err.h>
#include <kfsim/trace_event.h>
#include "../../examples/bpf/bpf_examples.h"
#include "cli.h"

struct tour_item {
	long key;
	struct bpf_rb_node node;
};
KFSIM_BTF_STRUCT(tour_item, BTF_FIELD(tour_item, node));

struct tour_section {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root;
};
KFSIM_BTF_STRUCT(tour_section, BTF_FIELD(tour_section, lock),
		 BTF_CONTAINS(tour_section, root, tour_item, node));

static bool tour_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct tour_item, node)->key <
	       container_of(b, const struct tour_item, node)->key;
}

/* The classic mistake: keep using the node after unlocking. */
static int use_after_unlock(void *ctx)
{
	struct tour_section *s = ctx;
	struct tour_item *n = bpf_obj_new(tour_item);
	struct bpf_rb_node *first;

	if (!n)
		return 1;
	bpf_spin_lock(&s->lock);
	bpf_rbtree_add(&s->root, &n->node, tour_less);
	first = bpf_rbtree_first(&s->root);
	bpf_spin_unlock(&s->lock);
	bpf_spin_lock(&s->lock);
	first = bpf_rbtree_remove(&s->root, first); /* first died at the unlock */
	bpf_spin_unlock(&s->lock);
	if (first)
		bpf_obj_drop(container_of(first, struct tour_item, node));
	return 0;
}

static int write_timeline(FILE *out, const void *tl)
{
	return kfsim_bpf_timeline_svg(tl, "rbtree_first_and_remove: owning vs non-owning references",
				      out);
}

static int tour_pictures(struct kfsim_tour_ctx *ctx, const struct kfsim_bpf_timeline *tl)
{
	char path[PATH_MAX];
	struct kfsim_trace trace;
	int err;

	err = kfsim_tour_write(ctx, "bpf-timeline.svg", write_timeline, tl);
	if (err)
		return err;
	err = kfsim_tour_path(ctx, "bpf-timeline.json", path);
	if (!err)
		err = kfsim_trace_open(&trace, path);
	if (err)
		return err;
	kfsim_bpf_timeline_trace(tl, &trace, 1);
	if (kfsim_trace_close(&trace))
		return -EIO;
	kfsim_tour_file(ctx, path);
	return 0;
}

static int tour_bpf(struct kfsim_tour_ctx *ctx)
{
	static struct kfsim_bpf_timeline tl;
	struct kfsim_bpf_run_opts opts = {.timeline = &tl};
	struct tour_section s = {0};
	struct kfsim_bpf_run run;
	char kver[16];
	int err;

	fprintf(ctx->out, "Semantics of Linux %s (--kver 6.16 for the later ones).\n\n",
		kfsim_kver_format(kfsim_kernel_version(), kver, sizeof(kver)));
	err = kfsim_bpf_example_node_data(ctx->out, NULL, &opts);
	if (err)
		return err;
	err = tour_pictures(ctx, &tl);
	if (err)
		return err;
	fprintf(ctx->out,
		"  (bpf-timeline.svg shows when each reference was owning or non-owning)\n\n");
	err = kfsim_bpf_example_cgfifo(ctx->out, 400, NULL);
	if (err)
		return err;

	err = kfsim_bpf_private_init(&s, kfsim_btf_of(tour_section));
	if (err)
		return err;
	kfsim_bpf_run(&run, "use_after_unlock", use_after_unlock, &s, NULL, NULL);
	fprintf(ctx->out, "\nA program that removes a node through a reference kept across "
			  "bpf_spin_unlock:\n");
	for (int i = 0; i < run.nr_violations && i < KFSIM_BPF_RUN_MAX_REPORTS; i++)
		fprintf(ctx->out, "  %s\n    at %s:%d in %s(): %s\n", run.violations[i].msg,
			run.violations[i].file ? run.violations[i].file : "?",
			run.violations[i].line, run.violations[i].kfunc, run.violations[i].why);
	fprintf(ctx->out,
		"  The call was refused; the node stays in the tree and is freed with the "
		"section.\n");
	return kfsim_bpf_private_free(&s, kfsim_btf_of(tour_section));
}

static const char *const try_bpf[] = {
	"kfsim bpf demo --svg timeline.svg --trace timeline.json",
	"kfsim --kver 6.16 bpf demo",
	"kfsim bpf kfuncs",
	NULL,
};

const struct kfsim_tour_step kfsim_tour_bpf = {
	.name = "bpf",
	.title = "BPF graph collections: bpf_rbtree/bpf_list with the verifier's rules at run time",
	.doc = "bpf-graph.md",
	.try_cmds = try_bpf,
	.playground = "bpf",
	.run = tour_bpf,
};
