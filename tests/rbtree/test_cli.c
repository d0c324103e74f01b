// SPDX-License-Identifier: MIT
/*
 * kfsim rbtree from the outside: the verdict and measurements, the step log, JSON, pictures,
 * and every kind of bad command line (exit 2, one line naming the option) or failing run
 * (exit 1, "-ENOENT: ...", nothing on stdout).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/cli_assert.h"

#define RUN(result, ...)                                                                           \
	assert_int_equal(cli_run(result, (const char *const[]){"rbtree", ##__VA_ARGS__, NULL}), 0)

static void assert_ok(struct cli_result *r)
{
	if (r->status != 0)
		print_error("status %d, stderr: %s", r->status, r->err);
	assert_int_equal(r->status, 0);
	assert_string_equal(r->err, "");
}

static void test_help(void **state)
{
	struct cli_result r;

	RUN(&r, "--help");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "Usage: kfsim rbtree"));
	assert_non_null(strstr(r.out, "--steps"));
	cli_result_free(&r);
}

static void test_insert_erase_verdict(void **state)
{
	struct cli_result r;

	RUN(&r, "--insert", "5,1,3,8,2,9,7", "--erase", "5");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "tree: 6 nodes, height 3, black height 2"));
	assert_non_null(strstr(r.out, "checker: ok\n"));
	assert_non_null(strstr(r.out, "leftmost (rb_first_cached): 1\n"));
	assert_non_null(strstr(r.out, "in order: 1 2 3 7 8 9\n"));
	cli_result_free(&r);

	/* repeated lists accumulate; duplicates are allowed; erase takes one copy */
	RUN(&r, "--insert", "4,4", "--insert", "4", "--erase", "4");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "in order: 4 4\n"));
	cli_result_free(&r);

	RUN(&r);
	assert_ok(&r);
	assert_non_null(strstr(r.out, "tree: 0 nodes, height 0, black height 0"));
	cli_result_free(&r);
}

static void test_steps(void **state)
{
	struct cli_result r;

	RUN(&r, "--insert", "1,2,3", "--steps");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "  insert 1\n    recolor 1 black  [insert: the root is "
				      "painted black]\n"));
	assert_non_null(strstr(r.out, "  insert 2\n    (no rebalancing needed)\n"));
	assert_non_null(
		strstr(r.out, "  insert 3\n    rotate-left at 1 (2 rises)  [insert case 3"));
	cli_result_free(&r);
}

#define NR_OF(array) (sizeof(array) / sizeof((array)[0]))

/* Whether a step of kind @kind has a reason starting with @why_start. */
static bool has_step(const char *json, const char *kind, const char *why_start)
{
	char needle[64], want[96];

	snprintf(needle, sizeof(needle), "\"kind\": \"%s\"", kind);
	snprintf(want, sizeof(want), "\"why\": \"%s", why_start);
	for (const char *p = strstr(json, needle); p; p = strstr(p + 1, needle)) {
		const char *why = strstr(p, "\"why\": ");

		if (why && !strncmp(why, want, strlen(want)))
			return true;
	}
	return false;
}

static size_t count(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * --steps --json gives the whole tree after every step, checked.  kfsim fails (-EIO) when the
 * reported steps, replayed one by one, do not end in the tree the kernel's code left, so an
 * exit status of 0 holds the replay to the code after every operation.  Random orders of
 * inserts and erases reach each erase case in both mirror images.
 */
static void test_step_trees(void **state)
{
	static const char *const cases[] = {
		"erase case 1: the sibling is red",
		"erase case 2: black sibling, black nephews",
		"erase case 2: the parent was red",
		"erase case 3: the sibling's inner child is red",
		"erase case 4: the sibling's outer child is red",
		"erase: a node with two children is replaced by its successor",
		"erase: a node with at most one child is replaced by that child",
		"erase: the successor's red child takes its place and turns black",
		"insert case 2: the uncle is black, inner child",
	};
	bool seen[NR_OF(cases)] = {false};
	bool seen_rotate_left = false, seen_rotate_right = false, seen_short = false;
	uint32_t seed = 1;

	for (int round = 0; round < 24; round++) {
		char inserts[512] = "", erases[512] = "";
		unsigned int keys[40], nr = 10 + round;
		struct cli_result r;

		for (unsigned int i = 0; i < nr; i++)
			keys[i] = i;
		for (int pass = 0; pass < 2; pass++) {
			char *list = pass ? erases : inserts;

			for (unsigned int i = nr - 1; i > 0; i--) { /* Fisher-Yates, an LCG */
				unsigned int j, tmp;

				seed = seed * 1103515245 + 12345;
				j = (seed >> 16) % (i + 1);
				tmp = keys[i], keys[i] = keys[j], keys[j] = tmp;
			}
			for (unsigned int i = 0; i < (pass ? nr / 2 + round % 5 : nr); i++)
				snprintf(list + strlen(list), 512 - strlen(list), "%s%u",
					 i ? "," : "", keys[i]);
		}
		RUN(&r, "--insert", inserts, "--erase", erases, "--steps", "--json");
		assert_ok(&r);
		assert_int_equal(count(r.out, "\"after\": {"), count(r.out, "\"kind\": "));
		for (size_t c = 0; c < NR_OF(cases); c++)
			seen[c] |= strstr(r.out, cases[c]) != NULL;
		/* both mirror images: N a left child (rotate left at P), and a right one */
		seen_rotate_left |= has_step(r.out, "rotate-left", "erase case 4");
		seen_rotate_right |= has_step(r.out, "rotate-right", "erase case 4");
		/* a black node erased without a red child: its paths are one black short */
		seen_short |= strstr(r.out, "\"violation\": \"black-height\"") != NULL;
		cli_result_free(&r);
	}
	for (size_t c = 0; c < NR_OF(cases); c++) {
		if (!seen[c])
			print_error("never seen: %s\n", cases[c]);
		assert_true(seen[c]);
	}
	assert_true(seen_rotate_left && seen_rotate_right && seen_short);
}

/* Equal keys: the steps name nodes, not keys, and still replay; big trees carry no "after". */
static void test_step_trees_limits(void **state)
{
	struct cli_result r;

	RUN(&r, "--insert", "3,3,3,1,3,2", "--erase", "3,3,1,3", "--steps", "--json");
	assert_ok(&r);
	assert_int_equal(count(r.out, "\"after\": {"), count(r.out, "\"kind\": "));
	assert_non_null(strstr(r.out, "replaced by its successor"));
	cli_result_free(&r);

	RUN(&r, "--random", "300", "--steps", "--json");
	assert_ok(&r);
	assert_non_null(strstr(r.out, "\"kind\": "));
	assert_null(strstr(r.out, "\"after\""));
	cli_result_free(&r);

	RUN(&r, "--insert", "1,2,3", "--erase", "2", "--steps"); /* the text is unchanged */
	assert_ok(&r);
	assert_non_null(strstr(r.out, "  erase 2\n    unlink 2 (3 takes its place)  [erase: a "
				      "node with two children is replaced by its successor]\n"));
	assert_null(strstr(r.out, "after"));
	cli_result_free(&r);
}

static void test_random_is_reproducible(void **state)
{
	struct cli_result a, b, c;

	/* 60 keys: few enough that the report lists them all */
	RUN(&a, "--random", "60", "--seed", "42");
	RUN(&b, "--random", "60", "--seed", "42");
	RUN(&c, "--random", "60", "--seed", "43");
	assert_ok(&a);
	assert_ok(&b);
	assert_ok(&c);
	assert_non_null(strstr(a.out, "tree: 60 nodes"));
	assert_non_null(strstr(a.out, "checker: ok"));
	assert_non_null(strstr(a.out, "in order: "));
	assert_string_equal(a.out, b.out);
	assert_string_not_equal(a.out, c.out);
	cli_result_free(&a);
	cli_result_free(&b);
	cli_result_free(&c);

#ifndef KFSIM_ASAN
	RUN(&a, "--random", "1000000"); /* the largest allowed */
	assert_ok(&a);
	assert_non_null(strstr(a.out, "tree: 1000000 nodes"));
#else
	RUN(&a, "--random", "100000"); /* ASan: ten times slower */
	assert_ok(&a);
	assert_non_null(strstr(a.out, "tree: 100000 nodes"));
#endif
	assert_non_null(strstr(a.out, "checker: ok"));
	cli_result_free(&a);
}

static void test_json(void **state)
{
	struct cli_result r;
	int depth = 0;

	RUN(&r, "--insert", "2,1,3", "--steps", "--json");
	assert_ok(&r);
	assert_true(r.out[0] == '{');
	for (const char *p = r.out; *p; p++)
		depth += (*p == '{' || *p == '[') - (*p == '}' || *p == ']');
	assert_int_equal(depth, 0);
	assert_non_null(strstr(r.out, "\"nodes\": 3"));
	assert_non_null(strstr(r.out, "\"valid\": true"));
	assert_non_null(strstr(r.out, "\"black_height\": 1"));
	assert_non_null(strstr(r.out, "\"leftmost\": 1"));
	assert_non_null(strstr(r.out, "\"op\": \"insert\""));
	assert_non_null(strstr(r.out, "\"kind\": \"recolor\""));
	assert_non_null(strstr(r.out, "\"side\": \"left\""));
	assert_non_null(strstr(r.out, "\"picture\": null"));
	assert_null(strstr(r.out, "checker:")); /* no text mixed in */
	cli_result_free(&r);
}

static void test_pictures(void **state)
{
	char dot_path[] = KFSIM_BINARY_DIR "/test-rbtree-cli.dot";
	char svg_path[] = KFSIM_BINARY_DIR "/test-rbtree-cli.svg";
	struct cli_result r;
	char buf[4096] = "";
	FILE *f;

	RUN(&r, "--insert", "3,1,2", "--dot", dot_path);
	assert_ok(&r);
	assert_non_null(strstr(r.out, "wrote "));
	cli_result_free(&r);
	f = fopen(dot_path, "r");
	assert_non_null(f);
	assert_true(fread(buf, 1, sizeof(buf) - 1, f) > 0);
	fclose(f);
	assert_non_null(strstr(buf, "digraph rbtree"));
	assert_non_null(strstr(buf, "rb_leftmost"));
	unlink(dot_path);

	RUN(&r, "--insert", "3,1,2", "--dot", "-");
	assert_ok(&r);
	assert_true(strncmp(r.out, "digraph rbtree {", 16) == 0); /* only DOT on stdout */
	/* reproducible: nodes are named by preorder number, never by heap address */
	assert_null(strstr(r.out, "0x"));
	assert_non_null(strstr(r.out, "\troot -> n0 [arrowhead=normal];\n"));
	assert_non_null(strstr(r.out, "\tleftmost -> n1 "));
	{
		struct cli_result again;

		RUN(&again, "--insert", "3,1,2", "--dot", "-");
		assert_string_equal(again.out, r.out);
		cli_result_free(&again);
	}
	cli_result_free(&r);

	RUN(&r, "--random", "20", "--svg", svg_path, "--json");
	if (r.status == 1 && strstr(r.err, "-ENOENT")) {
		cli_result_free(&r);
		skip(); /* no Graphviz */
	}
	assert_ok(&r);
	assert_non_null(strstr(r.out, "\"picture\": \""));
	cli_result_free(&r);
	assert_int_equal(access(svg_path, R_OK), 0);
	unlink(svg_path);
}

static void test_bad_command_lines(void **state)
{
	struct cli_result r;

	RUN(&r, "--insert", "1,x");
	assert_usage_error(&r, "kfsim rbtree: invalid value 'x' for --insert");
	RUN(&r, "--insert", "1,,2");
	assert_usage_error(&r, "invalid value '1,,2' for --insert: expected comma-separated");
	RUN(&r, "--insert", ",1");
	assert_usage_error(&r, "for --insert");
	RUN(&r, "--insert", "1,");
	assert_usage_error(&r, "for --insert");
	RUN(&r, "--insert", "");
	assert_usage_error(&r, "for --insert");
	RUN(&r, "--insert", "-1");
	assert_usage_error(&r, "invalid value '-1' for --insert");
	RUN(&r, "--insert", "4294967296");
	assert_usage_error(&r, "expected an integer from 0 to 4294967295");
	RUN(&r, "--erase", "a");
	assert_usage_error(&r, "invalid value 'a' for --erase");
	RUN(&r, "--random", "0");
	assert_usage_error(&r, "invalid value '0' for --random");
	RUN(&r, "--random", "1000001");
	assert_usage_error(&r, "for --random: expected an integer from 1 to 1000000");
	RUN(&r, "--random", "5", "--seed", "x");
	assert_usage_error(&r, "invalid value 'x' for --seed");
	RUN(&r, "--seed", "5");
	assert_usage_error(&r, "option '--seed' needs '--random N'");
	RUN(&r, "--dot", "a.dot", "--svg", "a.svg");
	assert_usage_error(&r, "'--dot' and '--svg' exclude each other");
	RUN(&r, "--dot", "");
	assert_usage_error(&r, "invalid value '' for --dot");
	RUN(&r, "--dot", "-", "--json");
	assert_usage_error(&r, "'--dot -' writes to stdout");
	RUN(&r, "--insert");
	assert_usage_error(&r, "option '--insert' needs a value");
	RUN(&r, "--nosuch");
	assert_usage_error(&r, "unknown option '--nosuch'");
	RUN(&r, "extra");
	assert_usage_error(&r, "unexpected argument 'extra'");
}

static void test_runtime_failures(void **state)
{
	struct cli_result r;

	/* a key not in the tree: -ENOENT, and nothing printed or written */
	RUN(&r, "--insert", "1,2", "--erase", "2,2", "--dot", KFSIM_BINARY_DIR "/never.dot");
	assert_int_equal(r.status, 1);
	assert_string_equal(r.out, "");
	assert_string_equal(r.err, "kfsim rbtree: -ENOENT: cannot erase 2: no node has that key "
				   "(erase 2 of 2)\n");
	assert_int_not_equal(access(KFSIM_BINARY_DIR "/never.dot", F_OK), 0);
	cli_result_free(&r);

	RUN(&r, "--random", "2001", "--dot", KFSIM_BINARY_DIR "/big.dot");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "-E2BIG: 2001 nodes are too many to draw"));
	assert_string_equal(r.out, "");
	cli_result_free(&r);

	/* dot's own complaint goes to the log, not to stderr: one line */
	RUN(&r, "--insert", "1", "--svg", "/nonexistent-dir/t.svg");
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(
		strstr(r.err, "kfsim rbtree: -ENOENT: cannot open '/nonexistent-dir/t.svg'"));
	cli_result_free(&r);

	/* a full disk is a failure, whether dot or kfsim writes the file */
	RUN(&r, "--insert", "1,2,3", "--svg", "/dev/full");
	if (!strstr(r.err, "graphviz")) {
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.err, "kfsim rbtree: -ENOSPC: cannot write '/dev/full'"));
		assert_null(strstr(r.out, "wrote"));
	}
	cli_result_free(&r);
	RUN(&r, "--insert", "1,2,3", "--dot", "/dev/full");
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.err, "kfsim rbtree: -ENOSPC: cannot write '/dev/full'"));
	cli_result_free(&r);

	RUN(&r, "--insert", "1", "--dot", "/nonexistent-dir/t.dot");
	assert_int_equal(r.status, 1);
	assert_non_null(
		strstr(r.err, "kfsim rbtree: -ENOENT: cannot open '/nonexistent-dir/t.dot'"));
	cli_result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_insert_erase_verdict),
		cmocka_unit_test(test_steps),
		cmocka_unit_test(test_step_trees),
		cmocka_unit_test(test_step_trees_limits),
		cmocka_unit_test(test_random_is_reproducible),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_pictures),
		cmocka_unit_test(test_bad_command_lines),
		cmocka_unit_test(test_runtime_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
