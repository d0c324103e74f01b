// SPDX-License-Identifier: MIT
/*
 * The declarative option table (src/cli/cli_opts.c) on its own: every kind of value, the
 * errors naming the option, aliases, options limited to some subcommands, headings, help
 * generated from the rows, '-h' as a value, positional arguments.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <kfsim/kernel.h>
#include "cliopts/cliopts.h"

struct opts {
	bool flag, on, yes;
	unsigned int count, choice;
	u64 big, ns, bytes;
	int small;
	double ratio;
	const char *name, *out, *in;
	int calls;
};

static int parse_call(void *o, const char *value, char *why, size_t size)
{
	if (strcmp(value, "good")) {
		snprintf(why, size, "expected good");
		return -EINVAL;
	}
	((struct opts *)o)->calls++;
	return 0;
}

static const char *const colours[] = { "red", "green", "blue", NULL };
static const struct kfsim_cli_verb verbs[] = { { "run", "run it" }, { "show", "show it" } };

#define O(f) offsetof(struct opts, f)
static const struct kfsim_opt table[] = {
	{ .help = "Things:" },
	{ "flag", KFSIM_OPT_FLAG, O(flag), NULL, "a flag" },
	{ "no-on", KFSIM_OPT_FLAG_OFF, O(on), NULL, "turn it off" },
	{ "yes", KFSIM_OPT_BOOL, O(yes), "0|1", "a boolean" },
	{ "count", KFSIM_OPT_UINT, O(count), "N", "a count", .min = 1, .max = 10 },
	{ "big", KFSIM_OPT_U64, O(big), "N", "a big one", .max = UINT64_MAX },
	{ "small", KFSIM_OPT_INT, O(small), "N", "a small one", .max = 255 },
	{ "ratio", KFSIM_OPT_DOUBLE, O(ratio), "R", "a ratio", .dmin = 0, .dmax = 1 },
	{ "time", KFSIM_OPT_DURATION, O(ns), "TIME", "a time (bare: ms)", .min = 1000,
	  .max = 10000000000ULL, .unit = 1000000 },
	{ "size", KFSIM_OPT_SIZE, O(bytes), "SIZE", "a size", .min = 1, .max = 1ULL << 30 },
	{ "name", KFSIM_OPT_STRING, O(name), "NAME", "a name" },
	{ "out", KFSIM_OPT_OUTPUT, O(out), "FILE", "an output file", .verbs = 1u << 1 },
	{ "old-out", KFSIM_OPT_OUTPUT, O(out), "FILE", NULL, .alias_of = "out", .verbs = 1u << 1 },
	{ "in", KFSIM_OPT_INPUT, O(in), "FILE", "an input file" },
	{ "colour", KFSIM_OPT_CHOICE, O(choice), "C", "a colour", .choices = colours },
	{ "call", KFSIM_OPT_CALL, 0, "X", "a callback", .call = parse_call },
};

static const struct kfsim_cli_spec spec = {
	.name = "t",
	.usage = "kfsim t run|show [options]",
	.about = "A test command.",
	.verbs = verbs,
	.nr_verbs = ARRAY_SIZE(verbs),
	.opts = table,
	.nr_opts = ARRAY_SIZE(table),
	.notes = "Notes.\n",
	.max_positional = 1,
};

/*
 * kfsim_cli_parse() of @spec over argv = @name, @args... (NULL-terminated) into @argv, which
 * the positional pointers go on pointing into; stderr captured into @err.  Returns the status.
 */
static int parse_spec(const struct kfsim_cli_spec *sp, void *o, struct kfsim_cli_args *a,
		      char *err, size_t err_size, char **argv, const char *const *args)
{
	int argc = 1, ret, saved = dup(STDERR_FILENO);
	FILE *tmp = tmpfile();

	argv[0] = (char *)sp->name;
	for (; args[argc - 1]; argc++)
		argv[argc] = (char *)args[argc - 1];
	argv[argc] = NULL;
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	ret = kfsim_cli_parse(sp, o, argc, argv, a);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	err[fread(err, 1, err_size - 1, tmp)] = '\0';
	fclose(tmp);
	return ret;
}

/* Parse @args (NULL-terminated, after "t"), stderr captured into @err; returns the status. */
static int parse(struct opts *o, struct kfsim_cli_args *a, char *err, size_t err_size,
		 const char *const *args)
{
	static char *argv[32]; /* a.positional points into it */

	*o = (struct opts){ .on = true };
	return parse_spec(&spec, o, a, err, err_size, argv, args);
}

/* parse_spec() with an argv of its own, for the tests of letters, programs and keywords */
static int parse_with(const struct kfsim_cli_spec *sp, struct opts *o, struct kfsim_cli_args *a,
		      char *err, size_t err_size, const char *const *args)
{
	static char *argv[32]; /* a.positional points into it */

	return parse_spec(sp, o, a, err, err_size, argv, args);
}

#define PARSE(...) parse(&o, &a, err, sizeof(err), (const char *const[]){ __VA_ARGS__, NULL })

static void test_every_kind(void **state)
{
	struct kfsim_cli_args a;
	struct opts o = {0}; /* kfsim_cli_parse() leaves it as it is; .calls counts from here */
	char err[512];

	assert_int_equal(PARSE("show", "--flag", "--no-on", "--yes", "1", "--count", "0xa",
			       "--big", "18446744073709551615", "--small", "7", "--ratio", "0.5",
			       "--time", "1.5s", "--size", "64k", "--name", "n", "--out", "-h",
			       "--colour", "blue", "--call", "good", "--call=good", "extra"), 0);
	assert_string_equal(err, "");
	assert_int_equal(a.verb, 1);
	assert_true(o.flag && !o.on && o.yes);
	assert_int_equal(o.count, 10);
	assert_true(o.big == UINT64_MAX);
	assert_int_equal(o.small, 7);
	assert_true(o.ratio == 0.5);
	assert_int_equal(o.ns, 1500000000);
	assert_int_equal(o.bytes, 65536);
	assert_string_equal(o.name, "n");
	assert_string_equal(o.out, "-h"); /* a value, not help */
	assert_int_equal(o.choice, 2);
	assert_int_equal(o.calls, 2);
	assert_int_equal(a.nr_positional, 1);
	assert_string_equal(a.positional[0], "extra");
	assert_true(kfsim_cli_given(&spec, &a, "count"));
	assert_false(kfsim_cli_given(&spec, &a, "old-out"));

	/* bare times take the option's unit; an alias lands where its option does */
	assert_int_equal(PARSE("show", "--time", "20", "--old-out", "x"), 0);
	assert_int_equal(o.ns, 20000000);
	assert_string_equal(o.out, "x");
	assert_true(kfsim_cli_given(&spec, &a, "out"));
}

static void test_errors_name_the_option(void **state)
{
	static const struct {
		const char *args[4];
		const char *message;
	} cases[] = {
		{ { "run", "--count", "11" }, "kfsim t: invalid value '11' for --count: expected an integer from 1 to 10\n" },
		{ { "run", "--count", "0x" }, "kfsim t: invalid value '0x' for --count" },
		{ { "run", "--small", "-1" }, "invalid value '-1' for --small" },
		{ { "run", "--yes", "2" }, "invalid value '2' for --yes" },
		{ { "run", "--ratio", "1.5" }, "invalid value '1.5' for --ratio: expected a number from 0 to 1" },
		{ { "run", "--time", "5m" }, "invalid value '5m' for --time: expected a time from 1us to 10s (units ns, us, ms, s)" },
		{ { "run", "--time", "0.5us" }, "for --time" },
		{ { "run", "--size", "2g" }, "invalid value '2g' for --size" },
		{ { "run", "--size", "1x" }, "for --size" },
		{ { "run", "--name", "" }, "invalid value '' for --name: expected NAME" },
		{ { "run", "--colour", "pink" }, "invalid value 'pink' for --colour: expected red, green or blue" },
		{ { "run", "--call", "bad" }, "invalid value 'bad' for --call: expected good" },
		{ { "run", "--out", "x" }, "option '--out' is for 'kfsim t show' only" },
		{ { "run", "--old-out", "x" }, "option '--old-out' is for 'kfsim t show' only" },
		{ { "run", "--nosuch" }, "unknown option '--nosuch'" },
		{ { "run", "--count" }, "option '--count' needs a value" },
		{ { "run", "--flag=1" }, "option '--flag' takes no value" },
		{ { "run", "a", "b" }, "unexpected argument 'b'" },
		{ { "walk" }, "unknown subcommand 'walk': expected run or show" },
		{ { "--flag" }, "missing subcommand: expected run or show (see 'kfsim t --help')" },
	};
	struct kfsim_cli_args a;
	struct opts o;
	char err[512];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *const *args = cases[i].args;

		assert_int_equal(parse(&o, &a, err, sizeof(err), args), KFSIM_EXIT_USAGE);
		if (!strstr(err, cases[i].message))
			print_error("case %zu: %s", i, err);
		assert_non_null(strstr(err, cases[i].message));
		assert_non_null(strchr(err, '\n'));
		assert_null(strchr(err, '\n') + 1 == err + strlen(err) ? NULL : "two lines");
	}
}

static void test_too_long_output_path(void **state)
{
	struct kfsim_cli_args a;
	struct opts o;
	char err[512], path[5000];

	memset(path, 'a', sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';
	assert_int_equal(PARSE("show", "--out", path), KFSIM_EXIT_USAGE);
	assert_non_null(strstr(err, "invalid value for --out: the path is too long (-ENAMETOOLONG"));
}

/*
 * A command line kfsim replays from a file (kfsim merge) names files only below the current
 * directory: absolute paths and ".." components are refused for inputs and outputs alike,
 * names that merely hold dots are not, and lifting the confinement takes them all again.
 */
static void test_confined_paths(void **state)
{
	static const char *const outside[] = { "/etc/passwd", "..", "../x", "a/../../b", "a/..",
					       "//x", "a//..//b" };
	static const char *const inside[] = { "x", "./x", "a/b/c", "a..b", "..x/y", "x/..y",
					      "...", "a/./b" };
	struct kfsim_cli_args a;
	struct opts o;
	char err[512];

	(void)state;
	kfsim_cli_confine_paths("the test's file");
	for (size_t i = 0; i < ARRAY_SIZE(outside); i++) {
		assert_int_equal(PARSE("show", "--out", outside[i]), KFSIM_EXIT_USAGE);
		assert_non_null(strstr(err, "for --out: the test's file may name only files below"));
		assert_int_equal(PARSE("show", "--in", outside[i]), KFSIM_EXIT_USAGE);
		assert_non_null(strstr(err, "for --in: the test's file may name only files below"));
		assert_null(strchr(strchr(err, '\n') + 1, '\n'));	/* one line */
	}
	for (size_t i = 0; i < ARRAY_SIZE(inside); i++) {
		assert_int_equal(PARSE("show", "--out", inside[i], "--in", inside[i]), 0);
		assert_string_equal(o.out, inside[i]);
		assert_string_equal(o.in, inside[i]);
	}
	assert_int_equal(PARSE("show", "--name", "/not/a/path"), 0);	/* a string is no path */
	kfsim_cli_confine_paths(NULL);
	assert_int_equal(PARSE("show", "--out", "/tmp/x", "--in", "../y"), 0);
	assert_int_equal(PARSE("show", "--in", ""), KFSIM_EXIT_USAGE);
	assert_non_null(strstr(err, "invalid value '' for --in: expected FILE"));
}

/*
 * A value the user typed is quoted in the error; a newline or an escape sequence in it is
 * printed escaped, so the error stays the one line a script reads (a fuzzed "--seed $'5\n'"
 * printed two lines).  kfsim_cli_usage_lines() is the one way to print several.
 */
static void test_control_characters_stay_on_one_line(void **state)
{
	static const struct {
		const char *args[4];
		const char *message;
	} cases[] = {
		{ { "run", "--count", "5\n" }, "kfsim t: invalid value '5\\n' for --count: expected an integer from 1 to 10\n" },
		{ { "run", "--colour=re\td" }, "kfsim t: invalid value 're\\td' for --colour: expected red, green or blue\n" },
		{ { "run", "--no\x1b[2Jsuch" }, "kfsim t: unknown option '--no\\x1b[2Jsuch' (see 'kfsim t --help')\n" },
		{ { "run", "a", "b\r\x7f" }, "kfsim t: unexpected argument 'b\\x0d\\x7f'" },
	};
	struct kfsim_cli_args a;
	struct opts o;
	char err[512];
	int saved, ret;
	FILE *tmp;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(parse(&o, &a, err, sizeof(err), cases[i].args), KFSIM_EXIT_USAGE);
		if (!strstr(err, cases[i].message))
			print_error("case %zu: %s", i, err);
		assert_non_null(strstr(err, cases[i].message));
		assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
	}

	/* several problems of a bad file: one line each, their own control characters escaped */
	saved = dup(STDERR_FILENO);
	tmp = tmpfile();
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	ret = kfsim_cli_usage_lines("t", "f:1: bad\tkey\nf:2: worse\n"); /* no empty 3rd */
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	err[fread(err, 1, sizeof(err) - 1, tmp)] = '\0';
	fclose(tmp);
	assert_int_equal(ret, KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim t: f:1: bad\\tkey\nkfsim t: f:2: worse\n");
}

static void test_help_from_the_table(void **state)
{
	struct kfsim_cli_args a;
	struct opts o;
	char err[512], *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	kfsim_cli_help(&spec, out);
	fclose(out);
	assert_non_null(strstr(text, "Usage: kfsim t run|show [options]\n\nA test command.\n"));
	assert_non_null(strstr(text, "Subcommands:\n  run                   run it\n"));
	assert_non_null(strstr(text, "\nThings:\n  --flag                a flag\n"));
	assert_non_null(strstr(text, "  --out FILE            an output file (also --old-out) [show]\n"));
	assert_null(strstr(text, "--old-out FILE"));
	assert_non_null(strstr(text, "  --help, -h            this help\n\nNotes.\n"));
	free(text);

	/* -h and --help as options print it and stop, wherever they are */
	assert_int_equal(PARSE("run", "--flag", "-h"), KFSIM_EXIT_OK);
	assert_int_equal(a.verb, KFSIM_CLI_HELP_SHOWN);
	assert_int_equal(PARSE("--help"), KFSIM_EXIT_OK);
	assert_int_equal(a.verb, KFSIM_CLI_HELP_SHOWN);
}

/*
 * The additions for nl, kernel, exec and tour: required options (per verb, an excluding option
 * standing in), exclusions, operands per verb, options after operands, defaults in help.
 */
struct more {
	const char *in, *out, *stop;
	unsigned int level;
	u64 wait;
	bool quick, slow;
};

static void more_defaults(void *opts, unsigned int verb)
{
	*(struct more *)opts = (struct more){ .level = verb == 0 ? 3 : 5, .wait = 1500000,
					      .out = "a.out" };
}

static void more_extra_help(FILE *out)
{
	fprintf(out, "\nExtra: built at run time\n");
}

#define M(f) offsetof(struct more, f)
static const struct kfsim_opt more_table[] = {
	{ "in", KFSIM_OPT_STRING, M(in), "FILE", "input", .required = 1u << 1 },
	{ "out", KFSIM_OPT_STRING, M(out), "FILE", "output" },
	{ "level", KFSIM_OPT_UINT, M(level), "N", "a level", .max = 9 },
	{ "wait", KFSIM_OPT_DURATION, M(wait), "TIME", "a wait", .max = 1000000000, .unit = 1 },
	{ "quick", KFSIM_OPT_FLAG, M(quick), NULL, "quick",
	  .excludes = (const char *const[]){ "slow", NULL } },
	{ "slow", KFSIM_OPT_FLAG, M(slow), NULL, "slow", .verbs = 1u << 1 },
	{ "stop", KFSIM_OPT_STRING, M(stop), "X", "stop instead of --in",
	  .excludes = (const char *const[]){ "in", NULL } },
};

/* list's function: says what it got through its exit status */
static int more_list(void *opts, const struct kfsim_cli_args *args)
{
	return 40 + (int)((struct more *)opts)->level + args->nr_positional;
}

static const struct kfsim_cli_verb more_verbs[] = {
	{ "list", "no operands", .run = more_list },
	{ "take", "some", .operands = "WORD", .min_positional = 1, .max_positional = INT_MAX },
};

static const struct kfsim_cli_spec more_spec = {
	.name = "m",
	.usage = "kfsim m list|take",
	.about = "More.",
	.verbs = more_verbs,
	.nr_verbs = ARRAY_SIZE(more_verbs),
	.opts = more_table,
	.nr_opts = ARRAY_SIZE(more_table),
	.defaults = more_defaults,
	.opts_size = sizeof(struct more),
	.options_anywhere = true,
	.more_help = more_extra_help,
};

/* Parse against more_spec; stderr into @err; argv kept (permuted) in @argv. */
static int parse_more(struct more *o, struct kfsim_cli_args *a, char *err, size_t err_size,
		      char **argv, const char *const *args)
{
	memset(o, 0xa5, sizeof(*o)); /* the spec's constructor must fill it */
	return parse_spec(&more_spec, o, a, err, err_size, argv, args);
}

#define PARSE_MORE(...) parse_more(&o, &a, err, sizeof(err), argv, \
				   (const char *const[]){ __VA_ARGS__, NULL })

static void test_defaults_required_excludes_operands(void **state)
{
	static char *argv[32];
	struct kfsim_cli_args a;
	struct more o;
	char err[512];

	/* defaults for the verb, then the options; operands before and after options */
	assert_int_equal(PARSE_MORE("take", "one", "--in", "x", "two", "--level", "7"), 0);
	assert_int_equal(o.level, 7);
	assert_int_equal(o.wait, 1500000);
	assert_string_equal(o.out, "a.out");
	assert_false(o.quick || o.slow);
	assert_int_equal(a.nr_positional, 2);
	assert_string_equal(a.positional[0], "one");
	assert_string_equal(a.positional[1], "two");
	assert_int_equal(PARSE_MORE("list"), 0);
	assert_int_equal(o.level, 3);
	/* "--" ends the options even when they may follow operands */
	assert_int_equal(PARSE_MORE("take", "--in", "x", "--", "--level"), 0);
	assert_int_equal(a.nr_positional, 1);
	assert_string_equal(a.positional[0], "--level");
	/* the option standing in for a required one */
	assert_int_equal(PARSE_MORE("take", "--stop", "s", "w"), 0);

	static const struct {
		const char *args[8];
		const char *message;
	} cases[] = {
		{ { "take", "w" }, "kfsim m: option '--in' or '--stop' is required for 'kfsim m take'\n" },
		{ { "take", "--in", "x" }, "kfsim m: missing WORD (see 'kfsim m --help')\n" },
		{ { "list", "w" }, "kfsim m: unexpected argument 'w'\n" },
		{ { "take", "--in", "x", "--stop", "y", "w" },
		  "kfsim m: options '--stop' and '--in' exclude each other\n" },
		{ { "take", "--slow", "--in", "x", "--quick", "w" },
		  "kfsim m: options '--quick' and '--slow' exclude each other\n" },
		{ { "list", "--slow" }, "kfsim m: option '--slow' is for 'kfsim m take' only\n" },
		{ { "list", "--level", "10" }, "invalid value '10' for --level" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		assert_int_equal(parse_more(&o, &a, err, sizeof(err), argv, cases[i].args),
				 KFSIM_EXIT_USAGE);
		if (!strstr(err, cases[i].message))
			print_error("case %zu: %s", i, err);
		assert_non_null(strstr(err, cases[i].message));
	}
}

/* kfsim_cli_main(): the verb's function with the parsed options; errors never reach it. */
static void test_main_dispatches_to_the_verb(void **state)
{
	char *argv[8] = { "m", "list", "--level", "2", NULL };
	char *take[8] = { "m", "take", "--in", "x", "w", NULL };
	char *bad[8] = { "m", "list", "--level", "12", NULL };
	struct more o;
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);

	assert_int_equal(kfsim_cli_main(&more_spec, &o, 4, argv), 42);
	fflush(stderr);
	dup2(null, STDERR_FILENO);
	assert_int_equal(kfsim_cli_main(&more_spec, &o, 4, bad), KFSIM_EXIT_USAGE);
	/* a verb without a function (and none for the spec) is a runtime failure, not a crash */
	assert_int_equal(kfsim_cli_main(&more_spec, &o, 5, take), KFSIM_EXIT_FAILURE);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
}

static void test_help_states_defaults(void **state)
{
	char *text = NULL, buf[64];
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct more o;

	kfsim_cli_help(&more_spec, out);
	fclose(out);
	/* per verb when they differ, once when they agree, never for a flag or a NULL string */
	assert_non_null(strstr(text, "  --level N             a level (default: 3 for list, 5 for take)\n"));
	assert_non_null(strstr(text, "  --wait TIME           a wait (default: 1500us)\n"));
	assert_non_null(strstr(text, "  --out FILE            output (default: a.out)\n"));
	assert_non_null(strstr(text, "  --in FILE             input\n"));
	assert_non_null(strstr(text, "  --quick               quick\n"));
	assert_non_null(strstr(text, "this help\n\nExtra: built at run time\n"));
	free(text);

	more_defaults(&o, 0);
	assert_true(kfsim_cli_format_default(&more_table[2], &o, buf, sizeof(buf)));
	assert_string_equal(buf, "3");
	assert_false(kfsim_cli_format_default(&more_table[4], &o, buf, sizeof(buf)));
	assert_false(kfsim_cli_format_default(&more_table[0], &o, buf, sizeof(buf)));
}

/* One-letter options, options after the arguments (permute), on|off, a flag in row 0. */
static const struct kfsim_opt letters_table[] = {
	{ "flag", KFSIM_OPT_FLAG, O(flag), NULL, "a flag in row 0" },
	{ "include", KFSIM_OPT_CALL, 0, "DIR", "a repeatable one", .call = parse_call,
	  .short_name = 'I' },
	{ "count", KFSIM_OPT_UINT, O(count), "N", "a count", .min = 1, .max = 10,
	  .short_name = 'n' },
	{ "switch", KFSIM_OPT_ONOFF, O(yes), "on|off", "a switch" },
};

static const struct kfsim_cli_spec letters_spec = {
	.name = "u",
	.usage = "kfsim u [-I X]... FILE...",
	.about = "Another test command: kfsim u takes files.",
	.opts = letters_table,
	.nr_opts = ARRAY_SIZE(letters_table),
	.max_positional = 8,
	.options_anywhere = true,
};

#define PARSE_U(...) \
	parse_with(&letters_spec, &o, &a, err, sizeof(err), (const char *const[]){ __VA_ARGS__, NULL })

static void test_letters_permute_and_onoff(void **state)
{
	struct kfsim_cli_args a;
	struct opts o = {0}; /* kfsim_cli_parse() leaves it as it is; .calls counts from here */
	char err[512];

	int ret = PARSE_U("a.c", "-I", "good", "b.c", "-Igood", "--include=good", "-n", "3",
			  "--switch", "on");

	assert_string_equal(err, "");
	assert_int_equal(ret, 0);
	assert_int_equal(o.calls, 3);
	assert_int_equal(o.count, 3);
	assert_true(o.yes);
	assert_int_equal(a.nr_positional, 2);
	assert_string_equal(a.positional[0], "a.c");
	assert_string_equal(a.positional[1], "b.c");
	assert_true(kfsim_cli_given(&letters_spec, &a, "include"));
	assert_int_equal(PARSE_U("--switch", "off"), 0);
	assert_false(o.yes);

	/* errors name the option as it was written */
	assert_int_equal(PARSE_U("-I"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim u: option '-I' needs a value\n");
	assert_int_equal(PARSE_U("-n", "11"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim u: invalid value '11' for -n: expected an integer from 1 "
				 "to 10\n");
	assert_int_equal(PARSE_U("--count", "0"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim u: invalid value '0' for --count: expected an integer from "
				 "1 to 10\n");
	assert_int_equal(PARSE_U("-Ibad"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim u: invalid value 'bad' for -I: expected good\n");
	assert_int_equal(PARSE_U("--switch", "yes"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim u: invalid value 'yes' for --switch: expected on or off\n");
	assert_int_equal(PARSE_U("-x"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim u: unknown option '-x' (see 'kfsim u --help')\n");
	/* the row-0 flag given a value: "takes no value", not "unknown option" */
	assert_int_equal(PARSE_U("--flag=1"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim u: option '--flag' takes no value\n");
	assert_int_equal(PARSE_U("a", "b", "c", "d", "e", "f", "g", "h", "i"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim u: unexpected argument 'i'\n");
}

/* A tool of its own: its name in every message and in the help. */
static void test_program_of_its_own(void **state)
{
	struct kfsim_cli_args a;
	const char *old;
	struct opts o;
	char err[512], buf[64];
	char *text = NULL;
	size_t size = 0;
	FILE *out;

	old = kfsim_cli_program("kfsim-u");
	assert_string_equal(kfsim_cli_invocation("u", buf, sizeof(buf)), "kfsim-u");
	assert_int_equal(PARSE_U("--bogus"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim-u: unknown option '--bogus' (see 'kfsim-u --help')\n");
	out = open_memstream(&text, &size);
	kfsim_cli_help(&letters_spec, out);
	fclose(out);
	assert_non_null(strstr(text, "Usage: kfsim-u [-I X]... FILE...\n"));
	assert_non_null(strstr(text, "Another test command: kfsim-u takes files."));
	assert_non_null(strstr(text, "  -I, --include DIR     a repeatable one\n"));
	assert_non_null(strstr(text, "  --switch on|off       a switch\n"));
	free(text);
	kfsim_cli_program(old);
	assert_string_equal(kfsim_cli_invocation("u", buf, sizeof(buf)), "kfsim u");
	assert_int_equal(PARSE_U("--bogus"), KFSIM_EXIT_USAGE);
	assert_string_equal(err, "kfsim u: unknown option '--bogus' (see 'kfsim u --help')\n");
}

/* Keyword tables: ethtool's nl_parser() order of checks and wording. */
struct kw {
	u32 id, cnt;
	bool on;
	unsigned int colour;
	const char *name;
	u64 big;
};

static const struct kfsim_cli_param kw_params[] = {
	{ "id", KFSIM_OPT_UINT, offsetof(struct kw, id), "N", "an id", 7, 0, 255 },
	{ "cnt", KFSIM_OPT_UINT, offsetof(struct kw, cnt), "N", "a count", 8, 1, 0xffffffff },
	{ "enable", KFSIM_OPT_ONOFF, offsetof(struct kw, on), "on|off", "a switch", 9 },
	{ "colour", KFSIM_OPT_CHOICE, offsetof(struct kw, colour), "C", "a colour", 10,
	  .choices = colours },
	{ "name", KFSIM_OPT_STRING, offsetof(struct kw, name), "S", "a name", 11 },
	{ "big", KFSIM_OPT_U64, offsetof(struct kw, big), "N", "a big one", 12, 0, UINT64_MAX },
};

static int kw_parse(enum kfsim_cli_number_syntax numbers, struct kw *v,
		    struct kfsim_cli_param_result *res, char *text, size_t size,
		    const char *const *words)
{
	const struct kfsim_cli_params kw_table = { kw_params, ARRAY_SIZE(kw_params), numbers };
	int n = 0, ret;

	while (words[n])
		n++;
	*v = (struct kw){ 0 };
	ret = kfsim_cli_parse_params(&kw_table, (char **)words, n, v, res);
	kfsim_cli_param_error_text(res, text, size);
	return ret;
}

#define KW(syntax, ...) \
	kw_parse(syntax, &v, &res, text, sizeof(text), (const char *const[]){ __VA_ARGS__, NULL })

static void test_keyword_tables(void **state)
{
	struct kfsim_cli_param_result res;
	char text[256], *help = NULL;
	size_t size = 0;
	struct kw v;
	FILE *out;

	/* values land by offset; the order given is kept */
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "enable", "on", "cnt", "0x10", "id", "255",
			    "colour", "green", "name", "n", "big", "18446744073709551615"), 0);
	assert_int_equal(v.id, 255);
	assert_int_equal(v.cnt, 16);
	assert_true(v.on);
	assert_int_equal(v.colour, 1);
	assert_string_equal(v.name, "n");
	assert_true(v.big == UINT64_MAX);
	assert_int_equal(res.nr_given, 6);
	assert_int_equal(res.order[0], 2);
	assert_int_equal(res.order[1], 1);
	assert_int_equal(res.order[2], 0);
	assert_int_equal(kw_params[res.order[0]].id, 9);
	assert_true(res.given == 0x3f);
	assert_string_equal(text, "");
	/* nothing at all is fine: the command decides whether it wants any */
	assert_int_equal(kfsim_cli_parse_params(&(struct kfsim_cli_params){ kw_params, 1 }, NULL,
						0, &v, &res), 0);
	assert_int_equal(res.nr_given, 0);

	/* the checks in ethtool's order: keyword, duplicate, value present, value */
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "speed", "10"), -EINVAL);
	assert_int_equal(res.error, KFSIM_PARAM_UNKNOWN);
	assert_string_equal(text, "unknown parameter 'speed'");
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "id", "1", "id"), -EINVAL);
	assert_string_equal(text, "duplicate parameter 'id'");
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "id", "1", "cnt"), -EINVAL);
	assert_int_equal(res.error, KFSIM_PARAM_NO_VALUE);
	assert_string_equal(text, "no value for parameter 'cnt'");
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "id", "256"), -EINVAL);
	assert_int_equal(res.error, KFSIM_PARAM_BAD_VALUE);
	assert_string_equal(text, "invalid value '256' for parameter 'id'");
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "cnt", "0"), -EINVAL);
	assert_string_equal(text, "invalid value '0' for parameter 'cnt'");
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "enable", "1"), -EINVAL);
	assert_string_equal(text, "invalid value '1' for parameter 'enable'");
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "colour", "pink"), -EINVAL);
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "name", ""), -EINVAL);
	assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "big", "18446744073709551616"), -EINVAL);

	/* strict numbers: digits or 0x hex only; strtoul numbers: what ethtool's parse_u32 takes */
	static const char *const strtoul_only[] = { "+5", " 5", "-0", "0X1f" };

	for (size_t i = 0; i < ARRAY_SIZE(strtoul_only); i++) {
		assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRTOUL, "id", strtoul_only[i]), 0);
		if (i < 3)
			assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "id", strtoul_only[i]),
					 -EINVAL);
	}
	static const char *const never[] = { "", "0x", "5 ", "-1", "x", "1e3", "4294967296" };

	for (size_t i = 0; i < ARRAY_SIZE(never); i++) {
		assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRTOUL, "cnt", never[i]), -EINVAL);
		assert_int_equal(KW(KFSIM_CLI_NUMBERS_STRICT, "cnt", never[i]), -EINVAL);
	}

	/* help: ethtool's "[ name ARG ]" lines, with or without the text */
	out = open_memstream(&help, &size);
	kfsim_cli_params_help(&(struct kfsim_cli_params){ kw_params, 3 }, "\t\t", false, out);
	kfsim_cli_params_help(&(struct kfsim_cli_params){ kw_params, 1 }, "  ", true, out);
	fclose(out);
	assert_string_equal(help, "\t\t[ id N ]\n\t\t[ cnt N ]\n\t\t[ enable on|off ]\n"
				  "  [ id N ]                an id\n");
	free(help);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind),
		cmocka_unit_test(test_errors_name_the_option),
		cmocka_unit_test(test_too_long_output_path),
		cmocka_unit_test(test_confined_paths),
		cmocka_unit_test(test_control_characters_stay_on_one_line),
		cmocka_unit_test(test_help_from_the_table),
		cmocka_unit_test(test_defaults_required_excludes_operands),
		cmocka_unit_test(test_help_states_defaults),
		cmocka_unit_test(test_main_dispatches_to_the_verb),
		cmocka_unit_test(test_letters_permute_and_onoff),
		cmocka_unit_test(test_program_of_its_own),
		cmocka_unit_test(test_keyword_tables),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
