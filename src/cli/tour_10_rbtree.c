// SPDX-License-Identifier: MIT
/*
 * Tour step "rbtree": a small kernel red-black tree built key by key, with the recolourings and
 * rotations each insert needed, the checker's verdict, one erase, and a picture of the result
 * (SVG when Graphviz is installed, DOT otherwise) in the tour's output directory.
 */
#include <stdio.h>

#include <kfsim/err.h>
#include <kfsim/rbtree.h>
#include <kfsim/rbtree_augmented.h>
#include <kfsim/rbtree_debug.h>
#include "cli.h"

struct tour_node {
	unsigned int key;
	struct rb_node rb;
};

static unsigned int tour_key(const struct rb_node *node)
{
	return rb_entry(node, struct tour_node, rb)->key;
}

static bool tour_less(struct rb_node *a, const struct rb_node *b)
{
	return tour_key(a) < tour_key(b);
}

static void tour_label(const struct rb_node *node, char *buf, size_t size)
{
	snprintf(buf, size, "%u", tour_key(node));
}

static int tour_cmp(const struct rb_node *a, const struct rb_node *b)
{
	return tour_key(a) < tour_key(b) ? -1 : tour_key(a) > tour_key(b);
}

static void tour_step_line(void *priv, const struct kfsim_rb_step *step)
{
	FILE *out = priv;

	if (step->kind == KFSIM_RB_STEP_RECOLOR)
		fprintf(out, "      %u turns %s\n", tour_key(step->node),
			step->color == RB_RED ? "red" : "black");
	else if (step->kind == KFSIM_RB_STEP_UNLINK && step->other)
		fprintf(out, "      %u is unlinked, %u takes its place\n", tour_key(step->node),
			tour_key(step->other));
	else if (step->kind == KFSIM_RB_STEP_UNLINK)
		fprintf(out, "      %u is unlinked\n", tour_key(step->node));
	else
		fprintf(out, "      %s at %u (%s)\n", kfsim_rb_step_kind_name(step->kind),
			tour_key(step->node), step->why);
}

static const char *const try_rbtree[] = {
	"kfsim rbtree --insert 5,1,3,8,2 --steps --svg tree.svg",
	"kfsim rbtree --random 1000 --seed 7 --json",
	NULL,
};

static int write_dot(FILE *out, const void *arg)
{
	const struct kfsim_rb_draw_ops draw = {.label = tour_label};
	const struct rb_root_cached *root = arg;

	return kfsim_rb_write_dot(out, &root->rb_root, rb_first_cached(root), &draw, NULL);
}

static int tour_rbtree(struct kfsim_tour_ctx *ctx)
{
	static const unsigned int keys[] = {50, 20, 80, 10, 30, 25, 27, 90, 95, 5, 26};
	const struct kfsim_rb_tracer tracer = {.step = tour_step_line, .priv = ctx->out};
	const struct kfsim_rb_draw_ops draw = {.label = tour_label};
	const struct kfsim_rb_check_ops check = {.cmp = tour_cmp};
	struct tour_node nodes[ARRAY_SIZE(keys)];
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct kfsim_rb_check_result res;
	char path[PATH_MAX];
	int err;

	fprintf(ctx->out,
		"Inserting %zu keys into an rb_root_cached (struct rb_node is %zu bytes: "
		"parent pointer and colour share one word):\n",
		ARRAY_SIZE(keys), sizeof(struct rb_node));
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		struct rb_node **link = &root.rb_root.rb_node, *parent = NULL;
		bool leftmost = true;

		nodes[i].key = keys[i];
		fprintf(ctx->out, "  insert %u\n", keys[i]);
		while (*link) {
			parent = *link;
			if (tour_less(&nodes[i].rb, parent)) {
				link = &parent->rb_left;
			} else {
				link = &parent->rb_right;
				leftmost = false;
			}
		}
		rb_link_node(&nodes[i].rb, parent, link);
		if (leftmost)
			root.rb_leftmost = &nodes[i].rb;
		kfsim_rb_insert_color_traced(&nodes[i].rb, &root.rb_root, &tracer);
	}
	fprintf(ctx->out, "  erase %u (the root)\n", tour_key(root.rb_root.rb_node));
	kfsim_rb_erase_traced(root.rb_root.rb_node, &root.rb_root, &tracer);

	err = kfsim_rb_check_cached(&root, &check, &res);
	fprintf(ctx->out,
		"Checker: %s; %zu nodes, height %u, black height %u; rb_first_cached() = %u "
		"without a descent\n",
		res.message, res.nr_nodes, res.height, res.black_height,
		tour_key(rb_first_cached(&root)));
	if (err)
		return err;

	err = kfsim_tour_path(ctx, "rbtree.svg", path);
	if (err)
		return err;
	err = kfsim_rb_write_svg(path, &root.rb_root, rb_first_cached(&root), &draw,
				 "kfsim tour: red-black tree after 11 inserts and 1 erase");
	if (err == -ENOENT) {
		/* No Graphviz: leave the DOT source, which any Graphviz can render later. */
		return kfsim_tour_write(ctx, "rbtree.dot", write_dot, &root);
	}
	if (err)
		return err;
	kfsim_tour_file(ctx, path);
	fprintf(ctx->out, "Try: %s\n", try_rbtree[0]);
	return 0;
}

const struct kfsim_tour_step kfsim_tour_rbtree = {
	.name = "rbtree",
	.title = "The kernel red-black tree: rotations, the checker and a picture",
	.doc = "rbtree.md",
	.try_cmds = try_rbtree,
	.playground = "rbtree",
	.run = tour_rbtree,
};
