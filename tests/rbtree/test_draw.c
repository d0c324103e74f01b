// SPDX-License-Identifier: MIT
/*
 * The drawing: DOT text with the colours, the rb_root and rb_leftmost boxes, augmented values
 * and invisible placeholders for lone children; SVG through Graphviz; bad arguments refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include <kfsim/err.h>
#include <kfsim/rbtree_debug.h>
#include "rb_test_items.h"
#include "support/log_assert.h"

static void label_item(const struct rb_node *node, char *buf, size_t size)
{
	snprintf(buf, size, "%u", to_item(node)->key);
}

static void aug_item(const struct rb_node *node, char *buf, size_t size)
{
	snprintf(buf, size, "seq %u", to_item(node)->seq);
}

static void bad_label(const struct rb_node *node, char *buf, size_t size)
{
	snprintf(buf, size, "<b>");
}

static char *draw(const struct rb_root_cached *root, const struct kfsim_rb_draw_ops *ops,
		  const char *title, int *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	*err = kfsim_rb_write_dot(out, &root->rb_root, rb_first_cached(root), ops, title);
	fclose(out);
	return text;
}

static size_t count_of(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void test_dot_shows_colours_leftmost_and_placeholders(void **state)
{
	const struct kfsim_rb_draw_ops ops = {.label = label_item};
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct item items[4];
	char *text;
	int err;

	for (u32 i = 0; i < 4; i++) {
		items[i] = (struct item){.key = i + 1, .seq = i};
		rb_add_cached(&items[i].rb, &root, item_less);
	}
	/* 2(B) -> 1(B), 3(B) -> 4(r): three black, one red; 3 has only a right child */
	text = draw(&root, &ops, "keys \"1..4\"", &err);
	assert_int_equal(err, 0);
	assert_non_null(strstr(text, "digraph rbtree {"));
	assert_non_null(strstr(text, "label=\"keys \\\"1..4\\\"\""));
	assert_int_equal(count_of(text, "fillcolor=\"#212121\""), 3);
	assert_int_equal(count_of(text, "fillcolor=\"#c62828\""), 1);
	assert_int_equal(count_of(text, "style=invis]"), 2); /* node + edge for 3's left */
	assert_non_null(strstr(text, "label=\"rb_leftmost\""));
	assert_non_null(strstr(text, "label=\"rb_root\""));
	assert_non_null(strstr(text, "label=\"4\""));
	free(text);

	const struct kfsim_rb_draw_ops aug_ops = {.label = label_item, .augmented = aug_item};

	text = draw(&root, &aug_ops, NULL, &err);
	assert_int_equal(err, 0);
	assert_non_null(strstr(text, "label=<4<BR/><FONT POINT-SIZE=\"9\">seq 3</FONT>>"));
	free(text);

	/* text that would break an HTML-like label is refused */
	const struct kfsim_rb_draw_ops html_bad = {.label = bad_label, .augmented = aug_item};

	text = draw(&root, &html_bad, NULL, &err);
	assert_int_equal(err, -EINVAL);
	free(text);
}

static void test_dot_empty_tree_and_bad_arguments(void **state)
{
	const struct kfsim_rb_draw_ops ops = {.label = label_item};
	const struct kfsim_rb_draw_ops no_label = {0};
	struct rb_root_cached root = RB_ROOT_CACHED;
	char *text;
	int err;

	text = draw(&root, &ops, NULL, &err);
	assert_int_equal(err, 0);
	assert_non_null(strstr(text, "(empty)"));
	assert_null(strstr(text, "rb_leftmost"));
	free(text);

	assert_int_equal(kfsim_rb_write_dot(NULL, &root.rb_root, NULL, &ops, NULL), -EINVAL);
	assert_int_equal(kfsim_rb_write_dot(stdout, NULL, NULL, &ops, NULL), -EINVAL);
	assert_int_equal(kfsim_rb_write_dot(stdout, &root.rb_root, NULL, NULL, NULL), -EINVAL);
	assert_int_equal(kfsim_rb_write_dot(stdout, &root.rb_root, NULL, &no_label, NULL), -EINVAL);
	assert_int_equal(kfsim_rb_write_svg(NULL, &root.rb_root, NULL, &ops, NULL), -EINVAL);
	assert_int_equal(kfsim_rb_write_svg("", &root.rb_root, NULL, &ops, NULL), -EINVAL);
}

static void test_svg_through_graphviz(void **state)
{
	const struct kfsim_rb_draw_ops ops = {.label = label_item};
	struct rb_root_cached root = RB_ROOT_CACHED;
	char path[] = KFSIM_BINARY_DIR "/test-rbtree-draw.svg";
	struct item items[10];
	char buf[256] = "";
	FILE *svg;
	int err;

	for (u32 i = 0; i < 10; i++) {
		items[i] = (struct item){.key = (i * 7) % 10};
		rb_add_cached(&items[i].rb, &root, item_less);
	}
	err = kfsim_rb_write_svg(path, &root.rb_root, rb_first_cached(&root), &ops, "ten keys");
	if (err == -ENOENT)
		skip(); /* Graphviz not installed */
	assert_int_equal(err, 0);
	svg = fopen(path, "r");
	assert_non_null(svg);
	assert_true(fread(buf, 1, sizeof(buf) - 1, svg) > 0);
	fclose(svg);
	assert_non_null(strstr(buf, "<svg") ? strstr(buf, "<svg") : strstr(buf, "<?xml"));
	unlink(path);

	/* an unwritable destination is the output file's own error, found before dot runs */
	u64 mark = log_mark();

	err = kfsim_rb_write_svg("/nonexistent-dir/x.svg", &root.rb_root, NULL, &ops, NULL);
	assert_int_equal(err, -ENOENT);
	/* a full disk: dot's output reaches us and we see the write fail */
	err = kfsim_rb_write_svg("/dev/full", &root.rb_root, NULL, &ops, NULL);
	assert_int_equal(err, -ENOSPC);

	/*
	 * dot exits 0 but its SVG is cut short (as when it cannot write): the output is checked,
	 * not only the exit status, and the old file stays.
	 */
	char fake_dir[] = KFSIM_BINARY_DIR "/fake-dot-XXXXXX", fake[sizeof(fake_dir) + 8];
	char *old_path = strdup(getenv("PATH"));
	FILE *script;

	assert_non_null(mkdtemp(fake_dir));
	snprintf(fake, sizeof(fake), "%s/dot", fake_dir);
	script = fopen(fake, "w");
	assert_non_null(script);
	fputs("#!/bin/sh\necho 'cut short' >&2\nprintf '<svg>half'\n", script);
	fclose(script);
	chmod(fake, 0755);
	svg = fopen(path, "w");
	fputs("old picture", svg);
	fclose(svg);
	setenv("PATH", fake_dir, 1);
	mark = log_mark();
	err = kfsim_rb_write_svg(path, &root.rb_root, NULL, &ops, NULL);
	setenv("PATH", old_path, 1);
	free(old_path);
	assert_int_equal(err, -EIO);
	assert_logged(mark, "kfsim_rb_write_svg: dot: cut short", 1);
	svg = fopen(path, "r");
	memset(buf, 0, sizeof(buf));
	assert_true(fread(buf, 1, sizeof(buf) - 1, svg) > 0);
	fclose(svg);
	assert_string_equal(buf, "old picture");
	unlink(path);
	unlink(fake);
	rmdir(fake_dir);

	/* no usable temporary directory: -EIO (not -ENOENT, which means "no Graphviz"), logged */
	char *old_tmpdir = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;

	mark = log_mark();
	setenv("TMPDIR", "/nonexistent-dir", 1);
	err = kfsim_rb_write_svg(path, &root.rb_root, NULL, &ops, NULL);
	if (old_tmpdir)
		setenv("TMPDIR", old_tmpdir, 1);
	else
		unsetenv("TMPDIR");
	free(old_tmpdir);
	assert_int_equal(err, -EIO);
	assert_logged(mark,
		      "kfsim_rb_write_svg: cannot create a temporary file in /nonexistent-dir", 1);
	assert_int_not_equal(access(path, F_OK), 0);
}

static void test_svg_without_graphviz_is_enoent(void **state)
{
	const struct kfsim_rb_draw_ops ops = {.label = label_item};
	struct rb_root root = RB_ROOT;
	char *old_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	int err;

	assert_non_null(old_path);
	setenv("PATH", "/nonexistent-dir", 1); /* no dot to be found */
	err = kfsim_rb_write_svg(KFSIM_BINARY_DIR "/never.svg", &root, NULL, &ops, NULL);
	setenv("PATH", old_path, 1);
	free(old_path);
	assert_int_equal(err, -ENOENT);
	assert_int_not_equal(access(KFSIM_BINARY_DIR "/never.svg", F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dot_shows_colours_leftmost_and_placeholders),
		cmocka_unit_test(test_dot_empty_tree_and_bad_arguments),
		cmocka_unit_test(test_svg_through_graphviz),
		cmocka_unit_test(test_svg_without_graphviz_is_enoent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
