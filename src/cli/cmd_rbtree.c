// SPDX-License-Identifier: MIT
/*
 * kfsim rbtree: build a red-black tree from the command line, check it, draw it and show the
 * rotations.  Operations run in a fixed order: the --random keys, then every --insert list in
 * the order given, then every --erase list.  Everything is computed before anything is printed,
 * so a failing erase leaves stdout empty and no picture half-written.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/random.h>
#include <kfsim/outfile.h>
#include <kfsim/rbtree.h>
#include <kfsim/rbtree_augmented.h>
#include <kfsim/rbtree_debug.h>
#include "cli.h"
#include "cli_rbtree_replay.h"

#define CMD "rbtree"
#define MAX_RANDOM 1000000 /* nodes: ~32 MB, and a second or so */
#define MAX_DRAWN 2000	   /* beyond this Graphviz takes minutes and the picture is a blur */
#define MAX_LISTED_TEXT 64
#define MAX_LISTED_JSON 10000
#define MAX_STEP_TREES 256 /* nodes: the tree after every step, in --steps --json */

struct key_list {
	u32 *keys;
	size_t nr, cap;
};

/* One recorded step, by key, so that it can be printed after the nodes moved on. */
struct step_rec {
	size_t op; /* index into the operation list */
	enum kfsim_rb_step_kind kind;
	u32 node, other;
	bool has_other;
	int color;
	const char *why;
};

struct op_rec {
	bool erase;
	u32 key;
};

struct run {
	struct rb_root_cached root;
	struct key_node *pool;
	size_t nr_used;
	struct op_rec *ops;
	size_t nr_ops;
	struct step_rec *steps;
	size_t nr_steps, cap_steps;
	int alloc_err;
	/* with --steps --json on a small tree: the tree after each step (steps[i] -> trees[i]) */
	bool replaying;
	bool replay_diverged; /* the replayed steps did not end in the tree the code left */
	struct rbtree_replay replay;
};

struct rbtree_opts {
	struct key_list inserts, erases;
	u64 nr_random, seed;
	bool have_random, have_seed, steps, json;
	const char *dot_path, *svg_path;
};

static int key_list_add(struct key_list *list, u32 key)
{
	if (list->nr == list->cap) {
		size_t cap = list->cap ? 2 * list->cap : 16;
		u32 *keys = realloc(list->keys, cap * sizeof(*keys));

		if (!keys)
			return -ENOMEM;
		list->keys = keys;
		list->cap = cap;
	}
	list->keys[list->nr++] = key;
	return 0;
}

/* Parse "5,1,3" into @list; usage error (-EINVAL, already reported) for anything else. */
static int parse_key_list(const char *opt, const char *text, struct key_list *list)
{
	char *copy = strdup(text), *save = NULL, *tok;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	if (!*text || text[strlen(text) - 1] == ',' || *text == ',' || strstr(text, ",,")) {
		kfsim_cli_usage(CMD,
				"invalid value '%s' for %s: expected comma-separated integers "
				"from 0 to 4294967295",
				text, opt);
		free(copy);
		return -EINVAL;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !err; tok = strtok_r(NULL, ",", &save)) {
		u64 key;

		err = kfsim_cli_parse_u64(CMD, opt, tok, 0, UINT32_MAX, &key);
		if (!err)
			err = key_list_add(list, (u32)key);
	}
	free(copy);
	return err;
}

static int parse_inserts(void *opts, const char *value, char *why, size_t why_size)
{
	return parse_key_list("--insert", value, &((struct rbtree_opts *)opts)->inserts);
}

static int parse_erases(void *opts, const char *value, char *why, size_t why_size)
{
	return parse_key_list("--erase", value, &((struct rbtree_opts *)opts)->erases);
}

#define O(field) offsetof(struct rbtree_opts, field)

static const struct kfsim_opt rbtree_opts_table[] = {
	{ "insert", KFSIM_OPT_CALL, 0, "LIST", "comma-separated keys to insert (repeatable)",
	  .call = parse_inserts },
	{ "erase", KFSIM_OPT_CALL, 0, "LIST",
	  "comma-separated keys to erase; a missing key is an error", .call = parse_erases },
	{ "random", KFSIM_OPT_U64, O(nr_random), "N",
	  "insert N random keys (1..1000000) from 0..max(999, 10N-1)", .min = 1,
	  .max = MAX_RANDOM },
	{ "seed", KFSIM_OPT_U64, O(seed), "S", "seed for --random (default 1)",
	  .max = UINT64_MAX },
	{ "dot", KFSIM_OPT_OUTPUT, O(dot_path), "FILE",
	  "write the tree as Graphviz DOT ('-' for stdout)",
	  .excludes = (const char *const[]){ "svg", NULL } },
	{ "svg", KFSIM_OPT_OUTPUT, O(svg_path), "FILE",
	  "write the tree as SVG (needs Graphviz's dot program)" },
	{ "steps", KFSIM_OPT_FLAG, O(steps), NULL,
	  "show each recolouring and rotation of every operation" },
	{ "json", KFSIM_OPT_FLAG, O(json), NULL, "print one JSON document on stdout instead of text" },
};

static int rbtree_check_run(void *opts, const struct kfsim_cli_args *args);
static void rbtree_release(void *opts);

static const struct kfsim_cli_spec rbtree_spec = {
	.name = CMD,
	.usage = "kfsim rbtree [--insert K,K,...] [--erase K,...] [--random N [--seed S]]\n"
		 "                    [--dot FILE | --svg FILE] [--steps] [--json]",
	.about = "Build a kernel red-black tree (rb_root_cached, keys are u32, equal keys allowed),\n"
		 "check every red-black property and print the verdict, the height and the black\n"
		 "height.  Order of work: the random keys, then the --insert keys, then the --erase\n"
		 "keys (each erases the first node with that key).",
	.opts = rbtree_opts_table,
	.nr_opts = ARRAY_SIZE(rbtree_opts_table),
	.notes = "Pictures name nodes by position, not address: the same tree gives the same DOT\n"
		 "and SVG in every run.  Output files are replaced only when complete.\n"
		 "With --steps --json, each step (in trees of up to 256 nodes) also holds the\n"
		 "whole tree after it and the checker's verdict on it (\"after\").\n"
		 "Exit status: 0 ok, 1 runtime failure, 2 bad command line.\n",
	.opts_size = sizeof(struct rbtree_opts),
	.run = rbtree_check_run,
	.release = rbtree_release,
};

static u32 key_of(const struct rb_node *node)
{
	return rb_entry(node, struct key_node, rb)->key;
}

static int key_cmp(const void *key, const struct rb_node *node)
{
	u32 k = *(const u32 *)key;

	return k < key_of(node) ? -1 : k > key_of(node);
}

static int node_cmp(const struct rb_node *a, const struct rb_node *b)
{
	return key_of(a) < key_of(b) ? -1 : key_of(a) > key_of(b);
}

static void describe_key(const struct rb_node *node, char *buf, size_t size)
{
	snprintf(buf, size, "%u", key_of(node));
}

static void record_step(void *priv, const struct kfsim_rb_step *step)
{
	struct run *run = priv;
	struct step_rec *rec;

	if (run->nr_steps == run->cap_steps) {
		size_t cap = run->cap_steps ? 2 * run->cap_steps : 64;
		struct step_rec *steps = realloc(run->steps, cap * sizeof(*steps));

		if (!steps) {
			run->alloc_err = -ENOMEM;
			return;
		}
		run->steps = steps;
		run->cap_steps = cap;
	}
	rec = &run->steps[run->nr_steps++];
	*rec = (struct step_rec){
		.op = run->nr_ops - 1,
		.kind = step->kind,
		.node = key_of(step->node),
		.has_other = step->other != NULL,
		.other = step->other ? key_of(step->other) : 0,
		.color = step->color,
		.why = step->why,
	};
	if (run->replaying)
		rbtree_replay_step(&run->replay, step);
}

/* An operation starts on the whole tree @run->root: the replay copies it. */
static void replay_begin(struct run *run)
{
	if (run->replaying)
		rbtree_replay_begin(&run->replay, &run->root);
}

/* An operation returned: the replay must have arrived where the code did. */
static void replay_end(struct run *run)
{
	if (run->replaying && !rbtree_replay_matches(&run->replay, &run->root))
		run->replay_diverged = true;
}

static void run_insert(struct run *run, u32 key, const struct kfsim_rb_tracer *tracer)
{
	struct key_node *kn = &run->pool[run->nr_used++];
	struct rb_node **link = &run->root.rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	kn->key = key;
	run->ops[run->nr_ops++] = (struct op_rec){.key = key};
	/* The kernel's open-coded descent, so that the traced rebalance can be used. */
	while (*link) {
		parent = *link;
		if (key < key_of(parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(&kn->rb, parent, link);
	if (leftmost)
		run->root.rb_leftmost = &kn->rb;
	replay_begin(run);
	kfsim_rb_insert_color_traced(&kn->rb, &run->root.rb_root, tracer);
	replay_end(run);
}

static int run_erase(struct run *run, u32 key, const struct kfsim_rb_tracer *tracer)
{
	struct rb_node *node = rb_find_first(&key, &run->root.rb_root, key_cmp);

	if (!node)
		return -ENOENT;
	run->ops[run->nr_ops++] = (struct op_rec){.erase = true, .key = key};
	if (run->root.rb_leftmost == node)
		run->root.rb_leftmost = rb_next(node);
	replay_begin(run);
	kfsim_rb_erase_traced(node, &run->root.rb_root, tracer);
	RB_CLEAR_NODE(node);
	replay_end(run);
	return 0;
}

static int build_tree(struct run *run, const struct rbtree_opts *o,
		      const struct kfsim_rb_check_ops *check_ops)
{
	const struct kfsim_rb_tracer tracer = {.step = record_step, .priv = run};
	const struct kfsim_rb_tracer *t = o->steps ? &tracer : NULL;
	size_t nr_nodes = o->nr_random + o->inserts.nr;
	u64 range = o->nr_random * 10 > 1000 ? o->nr_random * 10 : 1000;
	struct rnd_state rnd;

	run->root = RB_ROOT_CACHED;
	run->pool = calloc(nr_nodes ? nr_nodes : 1, sizeof(*run->pool));
	run->ops = calloc(nr_nodes + o->erases.nr + 1, sizeof(*run->ops));
	if (!run->pool || !run->ops)
		return kfsim_cli_fail(CMD, -ENOMEM, "no memory for %zu nodes", nr_nodes);
	if (o->steps && o->json && nr_nodes <= MAX_STEP_TREES) {
		if (rbtree_replay_init(&run->replay, run->pool, nr_nodes, check_ops))
			return kfsim_cli_fail(CMD, -ENOMEM, "no memory for %zu nodes", nr_nodes);
		run->replaying = true;
	}
	prandom_seed_state(&rnd, o->seed);
	for (u64 i = 0; i < o->nr_random; i++)
		run_insert(run, kfsim_prandom_below(&rnd, (u32)range), t);
	for (size_t i = 0; i < o->inserts.nr; i++)
		run_insert(run, o->inserts.keys[i], t);
	for (size_t i = 0; i < o->erases.nr; i++)
		if (run_erase(run, o->erases.keys[i], t))
			return kfsim_cli_fail(CMD, -ENOENT,
					      "cannot erase %u: no node has that key "
					      "(erase %zu of %zu)",
					      o->erases.keys[i], i + 1, o->erases.nr);
	if (run->alloc_err || run->replay.err == -ENOMEM)
		return kfsim_cli_fail(CMD, -ENOMEM, "no memory for the step log");
	/* a bug in the step log or in the replay: no picture of it can be trusted */
	if (run->replay.err || run->replay_diverged)
		return kfsim_cli_fail(CMD, -EIO,
				      "the reported steps do not replay to the tree the kernel's "
				      "code left (%s)",
				      run->replay.err ? "a step the tree cannot take"
						      : "another tree");
	return 0;
}

static void label_key(const struct rb_node *node, char *buf, size_t size)
{
	snprintf(buf, size, "%u", key_of(node));
}

static int write_picture(struct run *run, const struct rbtree_opts *o, size_t nr_nodes)
{
	const struct kfsim_rb_draw_ops ops = {.label = label_key};
	const char *path = o->svg_path ? o->svg_path : o->dot_path;
	char title[96];
	int err;

	if (!path)
		return 0;
	if (nr_nodes > MAX_DRAWN)
		return kfsim_cli_fail(CMD, -E2BIG, "%zu nodes are too many to draw (at most %d)",
				      nr_nodes, MAX_DRAWN);
	snprintf(title, sizeof(title), "kfsim rbtree: %zu node%s", nr_nodes,
		 nr_nodes == 1 ? "" : "s");
	if (!strcmp(path, "-") && !o->svg_path)
		return kfsim_rb_write_dot(stdout, &run->root.rb_root, rb_first_cached(&run->root),
					  &ops, title)
			       ? kfsim_cli_fail(CMD, -EIO, "cannot write DOT")
			       : 0;

	/* the old file stays unless the new picture is complete (kfsim_outfile) */
	struct kfsim_outfile out;

	err = kfsim_outfile_open(&out, path);
	if (err)
		return kfsim_cli_fail(CMD, err, "cannot open '%s' for writing", path);
	if (o->svg_path)
		err = kfsim_rb_write_svg_stream(out.file, &run->root.rb_root,
						rb_first_cached(&run->root), &ops, title);
	else
		err = kfsim_rb_write_dot(out.file, &run->root.rb_root, rb_first_cached(&run->root),
					 &ops, title);
	if (err && out.err)
		err = out.err; /* the write error itself (-ENOSPC), not the writer's -EIO */
	if (err) {
		kfsim_outfile_abort(&out);
		if (err == -ENOENT && o->svg_path)
			return kfsim_cli_fail(CMD, err,
					      "cannot run Graphviz's dot program to write "
					      "'%s' (is graphviz installed?)",
					      path);
		if (o->svg_path && err == -EIO)
			return kfsim_cli_fail(CMD, err,
					      "cannot write '%s': dot failed, or no temporary "
					      "file could be made in $TMPDIR",
					      path);
		return kfsim_cli_fail(CMD, err, "cannot write '%s'", path);
	}
	err = kfsim_outfile_commit(&out);
	return err ? kfsim_cli_fail(CMD, err, "cannot write '%s'", path) : 0;
}

static void print_steps_text(const struct run *run)
{
	size_t s = 0;

	printf("steps:\n");
	for (size_t op = 0; op < run->nr_ops; op++) {
		printf("  %s %u\n", run->ops[op].erase ? "erase" : "insert", run->ops[op].key);
		if (s == run->nr_steps || run->steps[s].op != op)
			printf("    (no rebalancing needed)\n");
		for (; s < run->nr_steps && run->steps[s].op == op; s++) {
			const struct step_rec *st = &run->steps[s];

			switch (st->kind) {
			case KFSIM_RB_STEP_RECOLOR:
				printf("    recolor %u %s", st->node,
				       st->color == RB_RED ? "red" : "black");
				break;
			case KFSIM_RB_STEP_ROTATE_LEFT:
			case KFSIM_RB_STEP_ROTATE_RIGHT:
				printf("    %s at %u (%u rises)", kfsim_rb_step_kind_name(st->kind),
				       st->node, st->other);
				break;
			case KFSIM_RB_STEP_UNLINK:
				if (st->has_other)
					printf("    unlink %u (%u takes its place)", st->node,
					       st->other);
				else
					printf("    unlink %u (a leaf)", st->node);
				break;
			}
			printf("  [%s]\n", st->why);
		}
	}
}

/* The tree after one step, in the form of the final tree's fields ("preorder" as below). */
static void json_step_tree(struct kfsim_json *json, const struct rbtree_replay *replay,
			   const struct rbtree_replay_tree *tree)
{
	kfsim_json_key(json, "after");
	kfsim_json_object_begin(json);
	kfsim_json_kv_uint(json, "nodes", tree->nr);
	kfsim_json_kv_uint(json, "height", tree->height);
	/* the paths' black count is one number only in a valid tree */
	kfsim_json_key(json, "black_height");
	if (tree->valid)
		kfsim_json_uint(json, tree->check.black_height);
	else
		kfsim_json_null(json);
	kfsim_json_kv_bool(json, "valid", tree->valid);
	kfsim_json_kv_string(json, "violation", kfsim_rb_violation_name(tree->check.violation));
	kfsim_json_kv_string(json, "check", tree->check.message);
	kfsim_json_key(json, "leftmost");
	if (tree->has_leftmost)
		kfsim_json_uint(json, tree->leftmost);
	else
		kfsim_json_null(json);
	kfsim_json_key(json, "preorder");
	kfsim_json_array_begin(json);
	for (size_t i = 0; i < tree->nr; i++) {
		const struct rbtree_replay_node *node = &replay->nodes[tree->first + i];

		kfsim_json_object_begin(json);
		kfsim_json_kv_uint(json, "id", i);
		kfsim_json_kv_uint(json, "key", node->key);
		kfsim_json_kv_string(json, "color", node->red ? "red" : "black");
		kfsim_json_key(json, "parent");
		if (i)
			kfsim_json_uint(json, node->parent - tree->first);
		else
			kfsim_json_null(json);
		kfsim_json_key(json, "side");
		if (i)
			kfsim_json_string(json, node->right ? "right" : "left");
		else
			kfsim_json_null(json);
		kfsim_json_object_end(json);
	}
	kfsim_json_array_end(json);
	kfsim_json_object_end(json);
}

static void json_steps(struct kfsim_json *json, const struct run *run)
{
	size_t s = 0;

	kfsim_json_key(json, "ops");
	kfsim_json_array_begin(json);
	for (size_t op = 0; op < run->nr_ops; op++) {
		kfsim_json_object_begin(json);
		kfsim_json_kv_string(json, "op", run->ops[op].erase ? "erase" : "insert");
		kfsim_json_kv_uint(json, "key", run->ops[op].key);
		kfsim_json_key(json, "steps");
		kfsim_json_array_begin(json);
		for (; s < run->nr_steps && run->steps[s].op == op; s++) {
			const struct step_rec *st = &run->steps[s];

			kfsim_json_object_begin(json);
			kfsim_json_kv_string(json, "kind", kfsim_rb_step_kind_name(st->kind));
			kfsim_json_kv_uint(json, "node", st->node);
			if (st->kind == KFSIM_RB_STEP_RECOLOR)
				kfsim_json_kv_string(json, "color",
						     st->color == RB_RED ? "red" : "black");
			else if (st->has_other)
				kfsim_json_kv_uint(json, "other", st->other);
			kfsim_json_kv_string(json, "why", st->why);
			if (run->replaying)
				json_step_tree(json, &run->replay, &run->replay.trees[s]);
			kfsim_json_object_end(json);
		}
		kfsim_json_array_end(json);
		kfsim_json_object_end(json);
	}
	kfsim_json_array_end(json);
}

/* Pre-order list of the nodes, each naming its parent's id and side (keys may repeat). */
static void json_subtree(struct kfsim_json *json, const struct rb_node *node, size_t parent_id,
			 const char *side, size_t *next_id)
{
	size_t id = (*next_id)++;

	kfsim_json_object_begin(json);
	kfsim_json_kv_uint(json, "id", id);
	kfsim_json_kv_uint(json, "key", key_of(node));
	kfsim_json_kv_string(json, "color", rb_is_red(node) ? "red" : "black");
	kfsim_json_key(json, "parent");
	if (side)
		kfsim_json_uint(json, parent_id);
	else
		kfsim_json_null(json);
	kfsim_json_key(json, "side");
	if (side)
		kfsim_json_string(json, side);
	else
		kfsim_json_null(json);
	kfsim_json_object_end(json);
	if (node->rb_left)
		json_subtree(json, node->rb_left, id, "left", next_id);
	if (node->rb_right)
		json_subtree(json, node->rb_right, id, "right", next_id);
}

static void print_json(struct run *run, const struct rbtree_opts *o,
		       const struct kfsim_rb_check_result *res, int check_err)
{
	const struct rb_node *first = rb_first_cached(&run->root);
	struct kfsim_json json;
	size_t next_id = 0;

	kfsim_json_init(&json, stdout, true);
	kfsim_json_object_begin(&json);
	kfsim_json_kv_uint(&json, "nodes", res->nr_nodes);
	kfsim_json_kv_uint(&json, "height", res->height);
	kfsim_json_kv_uint(&json, "black_height", res->black_height);
	kfsim_json_kv_bool(&json, "valid", !check_err);
	kfsim_json_kv_string(&json, "violation", kfsim_rb_violation_name(res->violation));
	kfsim_json_kv_string(&json, "check", res->message);
	kfsim_json_key(&json, "leftmost");
	if (first)
		kfsim_json_uint(&json, key_of(first));
	else
		kfsim_json_null(&json);
	if (res->nr_nodes <= MAX_LISTED_JSON) {
		kfsim_json_key(&json, "keys");
		kfsim_json_array_begin(&json);
		for (struct rb_node *n = rb_first(&run->root.rb_root); n; n = rb_next(n))
			kfsim_json_uint(&json, key_of(n));
		kfsim_json_array_end(&json);
		/* pre-order: a node, then its left subtree, then its right subtree */
		kfsim_json_key(&json, "preorder");
		kfsim_json_array_begin(&json);
		if (run->root.rb_root.rb_node)
			json_subtree(&json, run->root.rb_root.rb_node, 0, NULL, &next_id);
		kfsim_json_array_end(&json);
	}
	if (o->steps)
		json_steps(&json, run);
	kfsim_json_key(&json, "picture");
	if (o->svg_path || (o->dot_path && strcmp(o->dot_path, "-")))
		kfsim_json_string(&json, o->svg_path ? o->svg_path : o->dot_path);
	else
		kfsim_json_null(&json);
	kfsim_json_object_end(&json);
	kfsim_json_finish(&json);
}

static void print_text(struct run *run, const struct rbtree_opts *o,
		       const struct kfsim_rb_check_result *res)
{
	const struct rb_node *first = rb_first_cached(&run->root);
	unsigned int bound = 0;

	/* height <= 2 * log2(n + 1): the bound the red-black properties guarantee */
	while ((1ULL << (bound + 1)) <= res->nr_nodes + 1)
		bound++;
	if (o->steps)
		print_steps_text(run);
	printf("tree: %zu node%s, height %u, black height %u (red-black bound: height <= %u)\n",
	       res->nr_nodes, res->nr_nodes == 1 ? "" : "s", res->height, res->black_height,
	       2 * bound);
	printf("checker: %s\n", res->message);
	if (first)
		printf("leftmost (rb_first_cached): %u\n", key_of(first));
	if (!res->nr_nodes) {
		printf("in order: (empty; build a tree with --insert or --random)\n");
	} else if (res->nr_nodes <= MAX_LISTED_TEXT) {
		printf("in order:");
		for (struct rb_node *n = rb_first(&run->root.rb_root); n; n = rb_next(n))
			printf(" %u", key_of(n));
		printf("\n");
	}
	if (o->svg_path)
		printf("wrote %s\n", o->svg_path);
	else if (o->dot_path && strcmp(o->dot_path, "-"))
		printf("wrote %s\n", o->dot_path);
}

static int rbtree_run(const struct rbtree_opts *o)
{
	const struct kfsim_rb_check_ops check_ops = {.cmp = node_cmp, .describe = describe_key};
	struct kfsim_rb_check_result res;
	struct run run = {0};
	int ret, check_err;

	ret = build_tree(&run, o, &check_ops);
	if (ret)
		goto out;
	check_err = kfsim_rb_check_cached(&run.root, &check_ops, &res);
	ret = write_picture(&run, o, res.nr_nodes);
	if (ret)
		goto out;
	if (o->json)
		print_json(&run, o, &res, check_err);
	else if (!(o->dot_path && !strcmp(o->dot_path, "-")))
		print_text(&run, o, &res);
	/* A tree the library built is never invalid; if it were, that is a failure to report. */
	if (check_err)
		ret = kfsim_cli_fail(CMD, check_err, "checker: %s", res.message);
out:
	free(run.pool);
	free(run.ops);
	free(run.steps);
	if (run.replaying)
		rbtree_replay_free(&run.replay);
	return ret;
}

static int rbtree_check_run(void *opts, const struct kfsim_cli_args *args)
{
	struct rbtree_opts *o = opts;

	o->have_random = kfsim_cli_given(&rbtree_spec, args, "random");
	o->have_seed = kfsim_cli_given(&rbtree_spec, args, "seed");
	if (!o->have_seed)
		o->seed = 1;
	if (o->have_seed && !o->have_random)
		return kfsim_cli_usage(CMD, "option '--seed' needs '--random N'");
	if (o->json && o->dot_path && !strcmp(o->dot_path, "-"))
		return kfsim_cli_usage(CMD, "'--dot -' writes to stdout, which '--json' needs: give "
					    "--dot a file name");
	return rbtree_run(o);
}

static void rbtree_release(void *opts)
{
	struct rbtree_opts *o = opts;

	free(o->inserts.keys);
	free(o->erases.keys);
}

const struct kfsim_cli_command kfsim_cmd_rbtree = {
	.name = "rbtree",
	.summary = "build, check and draw a kernel red-black tree (rotations with --steps)",
	.spec = &rbtree_spec,
};
