// SPDX-License-Identifier: MIT
/*
 * A kfsim red-black tree tour in one program: a deadline queue on rb_root_cached (rb_add_cached,
 * rb_first_cached, rb_erase_cached, rb_find), then an interval tree whose picture, with each
 * node's __subtree_last, is written as SVG.
 *
 *   cc rbtree_demo.c $(pkg-config --cflags --libs kfsim) -o rbtree_demo
 *   ./rbtree_demo [picture.svg]
 */
#include <stdio.h>
#include <kfsim/err.h>
#include <kfsim/interval_tree.h>
#include <kfsim/rbtree.h>
#include <kfsim/rbtree_debug.h>

struct request {
	unsigned long deadline;
	struct rb_node rb;
};

static bool deadline_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct request, rb)->deadline <
	       rb_entry(b, struct request, rb)->deadline;
}

static int deadline_cmp(const void *key, const struct rb_node *node)
{
	unsigned long deadline = *(const unsigned long *)key;
	unsigned long other = rb_entry(node, struct request, rb)->deadline;

	return deadline < other ? -1 : deadline > other;
}

static void interval_label(const struct rb_node *node, char *buf, size_t size)
{
	const struct interval_tree_node *it = rb_entry(node, struct interval_tree_node, rb);

	snprintf(buf, size, "[%lu,%lu]", it->start, it->last);
}

static void interval_subtree_last(const struct rb_node *node, char *buf, size_t size)
{
	snprintf(buf, size, "max %lu",
		 rb_entry(node, struct interval_tree_node, rb)->__subtree_last);
}

int main(int argc, char **argv)
{
	struct request reqs[] = {
		{.deadline = 40}, {.deadline = 10}, {.deadline = 30}, {.deadline = 20}, {.deadline = 50},
	};
	struct interval_tree_node ranges[] = {
		{.start = 10, .last = 19}, {.start = 5, .last = 7},   {.start = 30, .last = 34},
		{.start = 12, .last = 40}, {.start = 1, .last = 2},   {.start = 25, .last = 26},
		{.start = 17, .last = 18}, {.start = 45, .last = 60},
	};
	const struct kfsim_rb_draw_ops draw = {.label = interval_label,
					       .augmented = interval_subtree_last};
	const char *path = argc > 1 ? argv[1] : "interval_tree.svg";
	struct rb_root_cached queue = RB_ROOT_CACHED, intervals = RB_ROOT_CACHED;
	unsigned long key = 30;
	struct rb_node *first;
	int err;

	/* A deadline queue: the earliest request is always rb_first_cached(), in O(1). */
	for (size_t i = 0; i < ARRAY_SIZE(reqs); i++)
		rb_add_cached(&reqs[i].rb, &queue, deadline_less);
	printf("request with deadline 30 %s\n",
	       rb_find(&key, &queue.rb_root, deadline_cmp) ? "is queued" : "is missing");
	printf("served in deadline order:");
	while ((first = rb_first_cached(&queue))) {
		printf(" %lu", rb_entry(first, struct request, rb)->deadline);
		rb_erase_cached(first, &queue);
	}
	printf("\n");

	/* An interval tree: which ranges overlap [15, 28]? */
	for (size_t i = 0; i < ARRAY_SIZE(ranges); i++)
		interval_tree_insert(&ranges[i], &intervals);
	printf("ranges overlapping [15,28]:");
	for (struct interval_tree_node *it = interval_tree_iter_first(&intervals, 15, 28); it;
	     it = interval_tree_iter_next(it, 15, 28))
		printf(" [%lu,%lu]", it->start, it->last);
	printf("\n");

	err = kfsim_rb_write_svg(path, &intervals.rb_root, rb_first_cached(&intervals), &draw,
				 "interval tree: [start,last] and the subtree's largest last");
	if (err) {
		fprintf(stderr, "rbtree_demo: cannot write %s: -%s\n", path, kfsim_errname(err));
		return 1;
	}
	printf("wrote %s\n", path);
	return 0;
}
