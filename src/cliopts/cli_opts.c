// SPDX-License-Identifier: MIT
/*
 * Declarative command lines: a command describes its options once (struct kfsim_opt rows) and
 * this file makes the getopt_long array, parses and range-checks every value with the usage
 * error naming the option, refuses options given to the wrong subcommand, and prints the help
 * text, so that the help, the parser and the errors cannot drift apart.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/kernel.h>
#include <kfsim/outfile.h>
#include "cliopts.h"

/*
 * getopt_long()'s values: row i of the table is OPT_ROW_VAL + i, above every one-letter option
 * and never 0 (glibc reports "--flag=x" on a flag through optopt = the value: 0 would read as
 * "no option"); --help is OPT_HELP_VAL.
 */
#define OPT_ROW_VAL 256
#define OPT_HELP_VAL 1000

/* kfsim_cli_confine_paths(): who wrote the command line being parsed, or NULL */
static const char *confined_source;

void kfsim_cli_confine_paths(const char *source)
{
	confined_source = source;
}

/* kfsim_cli_replayed(): where the command line being parsed was replayed from, or NULL */
static const char *replayed_source;

void kfsim_cli_replayed(const char *source)
{
	replayed_source = source;
}

/* A --help met while parsing: the help on stdout, or a usage error in a replayed line. */
static int show_help(const struct kfsim_cli_spec *spec, struct kfsim_cli_args *args)
{
	if (replayed_source)
		return kfsim_cli_usage(spec->name, "%s asks for --help, which runs nothing",
				       replayed_source);
	kfsim_cli_help(spec, stdout);
	args->verb = KFSIM_CLI_HELP_SHOWN;
	return KFSIM_EXIT_OK;
}

/* Whether @path stays below the current directory: relative, no ".." component. */
static bool path_stays_below(const char *path)
{
	if (path[0] == '/')
		return false;
	for (const char *c = path; *c;) {
		size_t len = strcspn(c, "/");

		if (len == 2 && c[0] == '.' && c[1] == '.')
			return false;
		c += len;
		c += strspn(c, "/");
	}
	return true;
}

/* A path option's value under kfsim_cli_confine_paths(): 0, or -EINVAL with the usage error. */
static int check_confined(const char *cmd, const char *flag, const char *value)
{
	if (!confined_source || !*value || path_stays_below(value))
		return 0;
	kfsim_cli_usage(cmd, "invalid value '%s' for %s: %s may name only files below the "
			"directory kfsim runs in (no absolute path, no '..')", value, flag,
			confined_source);
	return -EINVAL;
}

static const struct kfsim_opt *target_of(const struct kfsim_cli_spec *spec,
					 const struct kfsim_opt *opt, unsigned int *index)
{
	*index = (unsigned int)(opt - spec->opts);
	if (!opt->alias_of)
		return opt;
	for (unsigned int i = 0; i < spec->nr_opts; i++) {
		if (spec->opts[i].name && !strcmp(spec->opts[i].name, opt->alias_of)) {
			*index = i;
			return &spec->opts[i];
		}
	}
	return opt;
}

static bool takes_value(const struct kfsim_opt *opt)
{
	return opt->kind != KFSIM_OPT_FLAG && opt->kind != KFSIM_OPT_FLAG_OFF &&
	       opt->kind != KFSIM_OPT_COMMAND;
}

static void choices_text(const char *const *choices, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; choices[i] && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i == 0 ? "" : choices[i + 1] ? ", " : " or ", choices[i]);
}

/* Parse @value for row @opt (named @given_name on the command line) into @opts. */
static int store(const struct kfsim_cli_spec *spec, const struct kfsim_opt *opt,
		 const char *given_name, const char *value, void *opts)
{
	void *dest = (char *)opts + opt->offset;
	const char *cmd = spec->name;
	char flag[80], why[256] = "";
	u64 v;

	if (given_name[0] && !given_name[1])
		snprintf(flag, sizeof(flag), "-%s", given_name);
	else
		snprintf(flag, sizeof(flag), "--%s", given_name);
	switch (opt->kind) {
	case KFSIM_OPT_FLAG:
		*(bool *)dest = true;
		return 0;
	case KFSIM_OPT_FLAG_OFF:
		*(bool *)dest = false;
		return 0;
	case KFSIM_OPT_COMMAND:
		*(unsigned int *)dest = (unsigned int)opt->min;
		return 0;
	case KFSIM_OPT_BOOL:
		if (kfsim_cli_parse_u64(cmd, flag, value, 0, 1, &v))
			return -EINVAL;
		*(bool *)dest = v;
		return 0;
	case KFSIM_OPT_ONOFF:
		if (strcmp(value, "on") && strcmp(value, "off")) {
			kfsim_cli_usage(cmd, "invalid value '%s' for %s: expected on or off", value,
					flag);
			return -EINVAL;
		}
		*(bool *)dest = !strcmp(value, "on");
		return 0;
	case KFSIM_OPT_UINT:
	case KFSIM_OPT_U64:
	case KFSIM_OPT_INT:
		if (kfsim_cli_parse_u64(cmd, flag, value, opt->min, opt->max, &v))
			return -EINVAL;
		if (opt->kind == KFSIM_OPT_UINT)
			*(unsigned int *)dest = (unsigned int)v;
		else if (opt->kind == KFSIM_OPT_INT)
			*(int *)dest = (int)v;
		else
			*(u64 *)dest = v;
		return 0;
	case KFSIM_OPT_DOUBLE:
		return kfsim_cli_parse_double(cmd, flag, value, opt->dmin, opt->dmax, dest);
	case KFSIM_OPT_DURATION:
		return kfsim_cli_parse_duration(cmd, flag, value, opt->unit, opt->min, opt->max,
						dest);
	case KFSIM_OPT_SIZE:
		return kfsim_cli_parse_size(cmd, flag, value, opt->min, opt->max, dest);
	case KFSIM_OPT_INPUT:
		if (check_confined(cmd, flag, value))
			return -EINVAL;
		goto string;
	case KFSIM_OPT_OUTPUT: {
		int err = kfsim_outfile_check_path(value);

		if (check_confined(cmd, flag, value))
			return -EINVAL;
		if (err == -ENAMETOOLONG) {
			kfsim_cli_usage(cmd, "invalid value for %s: the path is too long "
					"(-ENAMETOOLONG: at most %d bytes, %d per name)",
					flag, PATH_MAX - 1, NAME_MAX);
			return err;
		}
		/* and, like any string, not empty */
		goto string;
	}
	case KFSIM_OPT_STRING:
string:
		if (!*value) {
			kfsim_cli_usage(cmd, "invalid value '' for %s: expected %s", flag,
					opt->arg ? opt->arg : "a value");
			return -EINVAL;
		}
		*(const char **)dest = value;
		return 0;
	case KFSIM_OPT_CHOICE:
		for (unsigned int i = 0; opt->choices[i]; i++) {
			if (!strcmp(value, opt->choices[i])) {
				*(unsigned int *)dest = i;
				return 0;
			}
		}
		choices_text(opt->choices, why, sizeof(why));
		kfsim_cli_usage(cmd, "invalid value '%s' for %s: expected %s", value, flag, why);
		return -EINVAL;
	case KFSIM_OPT_CALL: {
		int err = opt->call(opts, value, why, sizeof(why));

		if (err == -ENOMEM)
			kfsim_cli_fail(cmd, err, "no memory for the value of %s", flag);
		else if (err && why[0]) /* an empty reason: the parser reported it itself */
			kfsim_cli_usage(cmd, "invalid value '%s' for %s: %s", value, flag, why);
		return err;
	}
	}
	return -EINVAL;
}

static int find_verb(const struct kfsim_cli_spec *spec, const char *word)
{
	for (unsigned int i = 0; i < spec->nr_verbs; i++)
		if (!strcmp(word, spec->verbs[i].name))
			return (int)i;
	return -1;
}

static void verb_list(const struct kfsim_cli_spec *spec, unsigned int mask, char *buf, size_t size)
{
	const char *names[32];
	unsigned int n = 0;

	for (unsigned int i = 0; i < spec->nr_verbs && n < ARRAY_SIZE(names) - 1; i++)
		if (!mask || mask & (1u << i))
			names[n++] = spec->verbs[i].name;
	names[n] = NULL;
	choices_text(names, buf, size);
}

static int find_row(const struct kfsim_cli_spec *spec, const char *name)
{
	for (unsigned int i = 0; i < spec->nr_opts; i++)
		if (spec->opts[i].name && !spec->opts[i].alias_of && !strcmp(spec->opts[i].name, name))
			return (int)i;
	return -1;
}

/* The row named @name, aliases included (what the command line may say), or -1. */
static int row_named(const struct kfsim_cli_spec *spec, const char *name)
{
	for (unsigned int i = 0; i < spec->nr_opts; i++)
		if (spec->opts[i].name && !strcmp(spec->opts[i].name, name))
			return (int)i;
	return -1;
}

/* The row whose one-letter form is @c, or -1. */
static int row_of_letter(const struct kfsim_cli_spec *spec, int c)
{
	for (unsigned int i = 0; i < spec->nr_opts; i++)
		if (spec->opts[i].name && spec->opts[i].short_name == c)
			return (int)i;
	return -1;
}

static bool given_row(const struct kfsim_cli_args *args, int row)
{
	return row >= 0 && row < 64 && (args->given & (1ULL << row));
}

/* Whether rows @a and @b exclude each other (either names the other). */
static bool excluded(const struct kfsim_cli_spec *spec, unsigned int a, unsigned int b)
{
	const unsigned int rows[2][2] = { { a, b }, { b, a } };

	for (int pass = 0; pass < 2; pass++) {
		const char *const *names = spec->opts[rows[pass][0]].excludes;

		for (; names && *names; names++)
			if (!strcmp(*names, spec->opts[rows[pass][1]].name))
				return true;
	}
	return false;
}

static int check_excludes(const struct kfsim_cli_spec *spec, const struct kfsim_cli_args *args)
{
	for (unsigned int i = 0; i < spec->nr_opts && i < 64; i++) {
		const char *const *names = spec->opts[i].excludes;

		for (; given_row(args, (int)i) && names && *names; names++)
			if (given_row(args, find_row(spec, *names)))
				return kfsim_cli_usage(spec->name,
						       "options '--%s' and '--%s' exclude each other",
						       spec->opts[i].name, *names);
	}
	return 0;
}

static int check_required(const struct kfsim_cli_spec *spec, const struct kfsim_cli_args *args)
{
	unsigned int verb_bit = 1u << args->verb;

	for (unsigned int i = 0; i < spec->nr_opts && i < 64; i++) {
		const struct kfsim_opt *opt = &spec->opts[i];
		unsigned int applies = opt->verbs ? opt->verbs : ~0u;
		char alternatives[160] = "", list[256];
		size_t len = 0;
		bool instead = false;

		if (!(opt->required & verb_bit) || given_row(args, (int)i))
			continue;
		/* an option it excludes stands in for it: "--listen PATH" or "--stop PATH" */
		for (unsigned int j = 0; j < spec->nr_opts && j < 64 && !instead; j++) {
			if (j == i || !spec->opts[j].name || spec->opts[j].alias_of ||
			    !excluded(spec, i, j))
				continue;
			instead = given_row(args, (int)j);
			if (len < sizeof(alternatives))
				len += (size_t)snprintf(alternatives + len, sizeof(alternatives) - len,
							" or '--%s'", spec->opts[j].name);
		}
		if (instead)
			continue;
		if (!spec->nr_verbs || (applies & ((1u << spec->nr_verbs) - 1)) == opt->required)
			return kfsim_cli_usage(spec->name, "option '--%s'%s is required", opt->name,
					       alternatives);
		verb_list(spec, opt->required, list, sizeof(list));
		return kfsim_cli_usage(spec->name, "option '--%s'%s is required for 'kfsim %s %s'",
				       opt->name, alternatives, spec->name, list);
	}
	return 0;
}

/* Too many operands (@too_many), or too few: one extra word is refused before anything else. */
static int check_operands(const struct kfsim_cli_spec *spec, const struct kfsim_cli_args *args,
			  bool too_many)
{
	const struct kfsim_cli_verb *verb = spec->nr_verbs ? &spec->verbs[args->verb] : NULL;
	bool own = verb && verb->operands;
	int min = own ? verb->min_positional : spec->min_positional;
	int max = own ? verb->max_positional : spec->max_positional;
	const char *name = own ? verb->operands : spec->operands;

	if (too_many && args->nr_positional > max)
		return kfsim_cli_usage(spec->name, "unexpected argument '%s'",
				       args->positional[max]);
	if (!too_many && args->nr_positional < min) {
		char who[128];

		kfsim_cli_invocation(spec->name, who, sizeof(who));
		return kfsim_cli_usage(spec->name, "missing %s (see '%s --help')",
				       name ? name : "argument", who);
	}
	return 0;
}

/*
 * Whether a command line without its verb asks for help: "--help" or "-h" first, or after an
 * operand, an "--x=value", or an option of @spec that takes no value.  After an option that
 * takes one it is that option's value ("--trace -h" names a file "-h").
 */
static bool wants_help(const struct kfsim_cli_spec *spec, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *prev = argv[i - 1];
		int row;

		if (!strcmp(argv[i], "--"))
			return false;
		if (strcmp(argv[i], "--help") && strcmp(argv[i], "-h"))
			continue;
		if (i == 1 || prev[0] != '-' || strchr(prev, '='))
			return true;
		if (prev[1] == '-')
			row = row_named(spec, prev + 2);
		else
			row = prev[1] && !prev[2] ? row_of_letter(spec, prev[1]) : -1;
		if (row >= 0 && !takes_value(&spec->opts[row]))
			return true;
	}
	return false;
}

int kfsim_cli_parse(const struct kfsim_cli_spec *spec, void *opts, int argc, char **argv,
		    struct kfsim_cli_args *args)
{
	struct option longopts[64 + 2];
	char list[256], who[128], optstring[4 + 2 * 64] = "+:h", short_name[2] = "";
	int c, first = 1, index, ret, before;
	size_t nr_short = 3;

	unsigned int nr_long = 0;

	*args = (struct kfsim_cli_args){ 0 };
	kfsim_cli_invocation(spec->name, who, sizeof(who));
	if (spec->options_anywhere)
		memmove(optstring, optstring + 1, nr_short--);
	for (unsigned int i = 0; i < spec->nr_opts && i < 64; i++) {
		if (!spec->opts[i].name)
			continue; /* a heading */
		longopts[nr_long++] = (struct option){ spec->opts[i].name,
						       takes_value(&spec->opts[i]) ?
							       required_argument : no_argument,
						       NULL, OPT_ROW_VAL + (int)i };
		if (spec->opts[i].short_name) {
			optstring[nr_short++] = spec->opts[i].short_name;
			if (takes_value(&spec->opts[i]))
				optstring[nr_short++] = ':';
			optstring[nr_short] = '\0';
		}
	}
	longopts[nr_long++] = (struct option){ "help", no_argument, NULL, OPT_HELP_VAL };
	longopts[nr_long] = (struct option){ NULL, 0, NULL, 0 };

	/* the subcommand comes first, as in "kfsim bfq sim --job ..." */
	if (spec->nr_verbs) {
		if (argc < 2 || argv[1][0] == '-') {
			if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
				return show_help(spec, args);
			if (wants_help(spec, argc, argv))
				return show_help(spec, args);
			verb_list(spec, 0, list, sizeof(list));
			return kfsim_cli_usage(spec->name, "missing subcommand: expected %s "
					       "(see '%s --help')", list, who);
		}
		index = find_verb(spec, argv[1]);
		if (index < 0) {
			verb_list(spec, 0, list, sizeof(list));
			return kfsim_cli_usage(spec->name, "unknown subcommand '%s': expected %s",
					       argv[1], list);
		}
		args->verb = (unsigned int)index;
		first = 2;
	}
	if (spec->defaults)
		spec->defaults(opts, args->verb);

	opterr = 0;
	/*
	 * 0, not 1: glibc then starts afresh, reading "+" (or its absence) again and forgetting
	 * the permutation of an earlier parse; with 1 it keeps the ordering of the first call.
	 */
	optind = 0;
	/*
	 * "+" (unless @spec->options_anywhere): stop at the first operand, which with everything
	 * after it is passed through ("kfsim exec PROGRAM --its-option"), so a value never turns
	 * into the subcommand; options_anywhere: GNU permutation instead
	 */
	while ((before = optind, c = getopt_long(argc - first + 1, argv + first - 1, optstring,
						  longopts, &index)) != -1) {
		const struct kfsim_opt *opt;
		const char *given_name;
		unsigned int row;

		/*
		 * An unknown letter inside a bundle ("-xy"): getopt has not moved on, so the
		 * argument kfsim_cli_bad_option() names (argv[optind - 1]) is the one before, maybe
		 * "--json"; handing it argv one further on makes it name the bundle's letter.
		 */
		if (c == '?' && optopt && before > 0 && optind == before)
			return kfsim_cli_bad_option(spec->name, argv + first, c);

		if (c == OPT_HELP_VAL || c == 'h')
			return show_help(spec, args);
		if (c >= OPT_ROW_VAL && c < OPT_ROW_VAL + (int)spec->nr_opts) {
			c -= OPT_ROW_VAL;
			given_name = spec->opts[c].name;
		} else {
			/* a one-letter option comes back as its letter */
			int letter_row = c == '?' || c == ':' ? -1 : row_of_letter(spec, c);

			if (letter_row < 0)
				return kfsim_cli_bad_option(spec->name, argv + first - 1, c);
			c = letter_row;
			short_name[0] = spec->opts[c].short_name;
			given_name = short_name;
		}
		opt = target_of(spec, &spec->opts[c], &row);
		if (opt->verbs && spec->nr_verbs && !(opt->verbs & (1u << args->verb))) {
			verb_list(spec, opt->verbs, list, sizeof(list));
			return kfsim_cli_usage(spec->name, "option '%s%s' is for '%s %s' only",
					       given_name == short_name ? "-" : "--", given_name,
					       who, list);
		}
		switch (store(spec, opt, given_name, optarg, opts)) {
		case 0:
			break;
		case -ENOMEM:
			return KFSIM_EXIT_FAILURE;
		default:
			return KFSIM_EXIT_USAGE;
		}
		args->given |= 1ULL << row;
		if (opt->kind == KFSIM_OPT_COMMAND)
			break; /* the rest is the subcommand's */
	}
	args->positional = argv + first - 1 + optind;
	args->nr_positional = argc - first + 1 - optind;
	ret = check_operands(spec, args, true);
	if (!ret)
		ret = check_excludes(spec, args);
	if (!ret)
		ret = check_required(spec, args);
	if (!ret)
		ret = check_operands(spec, args, false);
	return ret;
}

int kfsim_cli_main(const struct kfsim_cli_spec *spec, void *opts, int argc, char **argv)
{
	int (*run)(void *opts, const struct kfsim_cli_args *args);
	struct kfsim_cli_args args;
	int ret = kfsim_cli_parse(spec, opts, argc, argv, &args);

	if (ret || args.verb == KFSIM_CLI_HELP_SHOWN)
		return ret;
	run = spec->nr_verbs && spec->verbs[args.verb].run ? spec->verbs[args.verb].run
							    : spec->run;
	if (!run)
		return kfsim_cli_fail(spec->name, -EOPNOTSUPP, "no function for '%s'",
				      spec->nr_verbs ? spec->verbs[args.verb].name : spec->name);
	/*
	 * Over "ulimit -f" a write raises SIGXFSZ, whose default kills the program between the
	 * write and the rename: the output's temporary (kfsim_outfile) would stay behind and no
	 * message say why.  Ignored, the write fails with EFBIG, told as -EFBIG like any failed
	 * write, and the temporary is removed (docs/cli.md, "Output files").
	 */
	signal(SIGXFSZ, SIG_IGN);
	return run(opts, &args);
}

int kfsim_cli_run(const struct kfsim_cli_spec *spec, int argc, char **argv)
{
	/* zeroed: a spec without .defaults starts from all-zero options */
	void *opts = calloc(1, spec->opts_size ? spec->opts_size : 1);
	int ret;

	if (!opts)
		return kfsim_cli_fail(spec->name, -ENOMEM, "no memory for the options");
	ret = kfsim_cli_main(spec, opts, argc, argv);
	if (spec->release)
		spec->release(opts);
	free(opts);
	return ret;
}

bool kfsim_cli_given(const struct kfsim_cli_spec *spec, const struct kfsim_cli_args *args,
		     const char *name)
{
	return given_row(args, row_named(spec, name));
}

/* "256m": the largest binary unit that divides @bytes, as kfsim_cli_parse_size() reads it */
static void format_size(u64 bytes, char *buf, size_t size)
{
	static const char units[] = "kmg";
	int unit = -1;

	while (unit < 2 && bytes && !(bytes & 1023)) {
		bytes >>= 10;
		unit++;
	}
	if (unit < 0)
		snprintf(buf, size, "%llu", (unsigned long long)bytes);
	else
		snprintf(buf, size, "%llu%c", (unsigned long long)bytes, units[unit]);
}

bool kfsim_cli_format_default(const struct kfsim_opt *opt, const void *opts, char *buf,
			      size_t size)
{
	const void *src = (const char *)opts + opt->offset;
	unsigned int idx;

	buf[0] = '\0';
	switch (opt->kind) {
	case KFSIM_OPT_FLAG:
	case KFSIM_OPT_FLAG_OFF:
	case KFSIM_OPT_COMMAND:
		return false;
	case KFSIM_OPT_BOOL:
		snprintf(buf, size, "%d", *(const bool *)src);
		break;
	case KFSIM_OPT_ONOFF:
		snprintf(buf, size, "%s", *(const bool *)src ? "on" : "off");
		break;
	case KFSIM_OPT_UINT:
		snprintf(buf, size, "%u", *(const unsigned int *)src);
		break;
	case KFSIM_OPT_U64:
		snprintf(buf, size, "%llu", (unsigned long long)*(const u64 *)src);
		break;
	case KFSIM_OPT_INT:
		snprintf(buf, size, "%d", *(const int *)src);
		break;
	case KFSIM_OPT_DOUBLE:
		snprintf(buf, size, "%g", *(const double *)src);
		break;
	case KFSIM_OPT_DURATION:
		kfsim_cli_format_duration(*(const u64 *)src, buf, size);
		break;
	case KFSIM_OPT_SIZE:
		format_size(*(const u64 *)src, buf, size);
		break;
	case KFSIM_OPT_STRING:
	case KFSIM_OPT_OUTPUT:
	case KFSIM_OPT_INPUT:
		if (*(const char *const *)src)
			snprintf(buf, size, "%s", *(const char *const *)src);
		break;
	case KFSIM_OPT_CHOICE:
		idx = *(const unsigned int *)src;
		for (unsigned int i = 0; opt->choices[i]; i++)
			if (i == idx)
				snprintf(buf, size, "%s", opt->choices[i]);
		break;
	case KFSIM_OPT_CALL:
		if (opt->format)
			opt->format(opts, buf, size);
		break;
	}
	return buf[0] != '\0';
}

/*
 * " (default: 8)", or " (default: 1s for sim, 200ms for sweep)" when the verbs' defaults
 * differ, from the structs @defaults[verb] the spec's constructor filled; "" without one.
 */
static void default_text(const struct kfsim_cli_spec *spec, const struct kfsim_opt *opt,
			 void *const *defaults, char *text, size_t size)
{
	unsigned int nr = spec->nr_verbs ? spec->nr_verbs : 1, first = nr;
	char value[64], other[64];
	size_t len = 0;
	bool same = true;

	text[0] = '\0';
	if (!defaults)
		return;
	for (unsigned int v = 0; v < nr; v++) {
		if (spec->nr_verbs && opt->verbs && !(opt->verbs & (1u << v)))
			continue;
		if (first == nr) {
			first = v;
			if (!kfsim_cli_format_default(opt, defaults[v], value, sizeof(value)))
				return;
			continue;
		}
		kfsim_cli_format_default(opt, defaults[v], other, sizeof(other));
		same &= !strcmp(value, other);
	}
	if (first == nr)
		return;
	if (same) {
		snprintf(text, size, " (default: %s)", value);
		return;
	}
	len = (size_t)snprintf(text, size, " (default:");
	for (unsigned int v = first; v < nr && len < size; v++) {
		if (opt->verbs && !(opt->verbs & (1u << v)))
			continue;
		kfsim_cli_format_default(opt, defaults[v], other, sizeof(other));
		len += (size_t)snprintf(text + len, size - len, "%s %s for %s", v == first ? "" : ",",
					other, spec->verbs[v].name);
	}
	if (len < size)
		snprintf(text + len, size - len, ")");
}

#define HELP_COLUMNS 100 /* a default that would run past this goes on a line of its own */

/* "  --name ARG" padded, then the help lines; default, aliases and verbs after the help. */
static void help_row(const struct kfsim_cli_spec *spec, const struct kfsim_opt *opt,
		     void *const *defaults, FILE *out)
{
	char head[64], list[128], dflt[160];
	const char *line = opt->help ? opt->help : "";
	char letter[8] = "";
	int width = 24;

	if (opt->short_name)
		snprintf(letter, sizeof(letter), "-%c, ", opt->short_name);
	snprintf(head, sizeof(head), "  %s--%s%s%s", letter, opt->name, takes_value(opt) ? " " : "",
		 takes_value(opt) ? (opt->arg ? opt->arg : "X") : "");
	fprintf(out, "%-*s", width, head);
	if ((int)strlen(head) >= width)
		fprintf(out, "\n%-*s", width, "");
	for (const char *nl; (nl = strchr(line, '\n')); line = nl + 1)
		fprintf(out, "%.*s\n%-*s", (int)(nl - line), line, width, "");
	fputs(line, out);
	default_text(spec, opt, defaults, dflt, sizeof(dflt));
	if (dflt[0] && width + strlen(line) + strlen(dflt) > HELP_COLUMNS)
		fprintf(out, "\n%-*s%s", width, "", dflt + 1);
	else
		fputs(dflt, out);
	for (unsigned int i = 0; i < spec->nr_opts; i++)
		if (spec->opts[i].alias_of && !strcmp(spec->opts[i].alias_of, opt->name))
			fprintf(out, " (also --%s)", spec->opts[i].name);
	if (opt->verbs && spec->nr_verbs && opt->verbs != (1u << spec->nr_verbs) - 1) {
		verb_list(spec, opt->verbs, list, sizeof(list));
		fprintf(out, " [%s]", list);
	}
	fputc('\n', out);
}

/* One options struct per verb filled by the spec's constructor (NULL without one). */
static void **help_defaults(const struct kfsim_cli_spec *spec)
{
	unsigned int nr = spec->nr_verbs ? spec->nr_verbs : 1;
	void **defaults;

	if (!spec->defaults || !spec->opts_size)
		return NULL;
	defaults = calloc(nr, sizeof(*defaults));
	for (unsigned int v = 0; defaults && v < nr; v++) {
		defaults[v] = calloc(1, spec->opts_size);
		if (!defaults[v]) {
			while (v--)
				free(defaults[v]);
			free(defaults);
			return NULL; /* the help without defaults rather than none */
		}
		spec->defaults(defaults[v], v);
	}
	return defaults;
}

/*
 * @text with "kfsim <name>" said as the program kfsim_cli_program() set ("kfsim-ynl-gen"), so
 * that one help text serves the command and the tool of its own.
 */
static void put_named(const struct kfsim_cli_spec *spec, const char *text, FILE *out)
{
	char self[128], who[128];
	size_t len;

	snprintf(self, sizeof(self), "kfsim %s", spec->name);
	kfsim_cli_invocation(spec->name, who, sizeof(who));
	len = strlen(self);
	for (const char *at; (at = strstr(text, self)); text = at + len)
		fprintf(out, "%.*s%s", (int)(at - text), text, who);
	fputs(text, out);
}

void kfsim_cli_help(const struct kfsim_cli_spec *spec, FILE *out)
{
	void **defaults = help_defaults(spec);

	fputs("Usage: ", out);
	put_named(spec, spec->usage, out);
	fputs("\n\n", out);
	if (spec->about)
		put_named(spec, spec->about, out);
	if (spec->more_about)
		spec->more_about(out);
	fputc('\n', out);
	if (spec->nr_verbs) {
		fprintf(out, "\nSubcommands:\n");
		for (unsigned int i = 0; i < spec->nr_verbs; i++)
			fprintf(out, "  %-22s%s\n", spec->verbs[i].name, spec->verbs[i].summary);
	}
	if (!spec->nr_opts || spec->opts[0].name)
		fprintf(out, "\nOptions:\n");
	else
		fputc('\n', out);
	for (unsigned int i = 0; i < spec->nr_opts; i++) {
		const struct kfsim_opt *opt = &spec->opts[i];

		if (opt->alias_of || opt->kind == KFSIM_OPT_COMMAND)
			continue;
		/* a row without a name is a heading in the table: "Workload:" */
		if (!opt->name)
			fprintf(out, "%s\n", opt->help);
		else
			help_row(spec, opt, defaults, out);
	}
	fprintf(out, "  %-22s%s\n", "--help, -h", "this help");
	if (spec->more_help)
		spec->more_help(out);
	if (spec->notes) {
		fputc('\n', out);
		put_named(spec, spec->notes, out);
	}
	for (unsigned int v = 0; defaults && v < (spec->nr_verbs ? spec->nr_verbs : 1); v++)
		free(defaults[v]);
	free(defaults);
}
