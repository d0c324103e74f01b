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
#include <stdlib.h>
#include <string.h>

#include <kfsim/kernel.h>
#include <kfsim/outfile.h>
#include "cli.h"

/*
 * getopt_long()'s values: row i of the table is OPT_ROW_VAL + i, above every one-letter option
 * and never 0 (glibc reports "--flag=x" on a flag through optopt = the value: 0 would read as
 * "no option"); --help is OPT_HELP_VAL.
 */
#define OPT_ROW_VAL 256
#define OPT_HELP_VAL 1000

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
	return opt->kind != KFSIM_OPT_FLAG && opt->kind != KFSIM_OPT_FLAG_OFF;
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
	case KFSIM_OPT_OUTPUT: {
		int err = kfsim_outfile_check_path(value);

		if (err == -ENAMETOOLONG) {
			kfsim_cli_usage(cmd, "invalid value for %s: the path is too long "
					"(-ENAMETOOLONG: at most %d bytes, %d per name)",
					flag, PATH_MAX - 1, NAME_MAX);
			return err;
		}
		/* and, like any string, not empty */
		__attribute__((fallthrough));
	}
	case KFSIM_OPT_STRING:
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

int kfsim_cli_parse(const struct kfsim_cli_spec *spec, void *opts, int argc, char **argv,
		    struct kfsim_cli_args *args)
{
	struct option longopts[64 + 2];
	char list[256], who[128], optstring[4 + 2 * 64] = "+:h", short_name[2] = "";
	int c, first = 1, index;
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
			if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
				kfsim_cli_help(spec, stdout);
				args->verb = KFSIM_CLI_HELP_SHOWN;
				return KFSIM_EXIT_OK;
			}
			if (kfsim_cli_wants_help(argc, argv)) {
				kfsim_cli_help(spec, stdout);
				args->verb = KFSIM_CLI_HELP_SHOWN;
				return KFSIM_EXIT_OK;
			}
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

	opterr = 0;
	/*
	 * 0, not 1: glibc then starts afresh, reading "+" (or its absence) again and forgetting
	 * the permutation of an earlier parse; with 1 it keeps the ordering of the first call.
	 */
	optind = 0;
	/*
	 * "+" (unless @spec->options_anywhere): stop at the first non-option, so a value never
	 * turns into the subcommand
	 */
	while ((c = getopt_long(argc - first + 1, argv + first - 1, optstring, longopts, &index)) !=
	       -1) {
		const struct kfsim_opt *opt;
		const char *given_name;
		unsigned int row;

		if (c == OPT_HELP_VAL || c == 'h') {
			kfsim_cli_help(spec, stdout);
			args->verb = KFSIM_CLI_HELP_SHOWN;
			return KFSIM_EXIT_OK;
		}
		if (c >= OPT_ROW_VAL && c < OPT_ROW_VAL + (int)spec->nr_opts) {
			c -= OPT_ROW_VAL;
			given_name = spec->opts[c].name;
		} else {
			/* a one-letter option comes back as its letter */
			int row_of_letter = -1;

			for (unsigned int i = 0; i < spec->nr_opts && c != '?' && c != ':'; i++)
				if (spec->opts[i].name && spec->opts[i].short_name == c)
					row_of_letter = (int)i;
			if (row_of_letter < 0)
				return kfsim_cli_bad_option(spec->name, argv + first - 1, c);
			c = row_of_letter;
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
	}
	args->positional = argv + first - 1 + optind;
	args->nr_positional = argc - first + 1 - optind;
	if (args->nr_positional > spec->max_positional)
		return kfsim_cli_usage(spec->name, "unexpected argument '%s'",
				       args->positional[spec->max_positional]);
	return 0;
}

bool kfsim_cli_given(const struct kfsim_cli_spec *spec, const struct kfsim_cli_args *args,
		     const char *name)
{
	for (unsigned int i = 0; i < spec->nr_opts; i++)
		if (spec->opts[i].name && !strcmp(spec->opts[i].name, name))
			return args->given & (1ULL << i);
	return false;
}

/* "  --name ARG" padded, then the help lines; aliases and verbs said after the help. */
static void help_row(const struct kfsim_cli_spec *spec, const struct kfsim_opt *opt, FILE *out)
{
	char head[64], list[128];
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
	for (unsigned int i = 0; i < spec->nr_opts; i++)
		if (spec->opts[i].alias_of && !strcmp(spec->opts[i].alias_of, opt->name))
			fprintf(out, " (also --%s)", spec->opts[i].name);
	if (opt->verbs && spec->nr_verbs && opt->verbs != (1u << spec->nr_verbs) - 1) {
		verb_list(spec, opt->verbs, list, sizeof(list));
		fprintf(out, " [%s]", list);
	}
	fputc('\n', out);
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
	fputs("Usage: ", out);
	put_named(spec, spec->usage, out);
	fputs("\n\n", out);
	put_named(spec, spec->about, out);
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

		if (opt->alias_of)
			continue;
		/* a row without a name is a heading in the table: "Workload:" */
		if (!opt->name)
			fprintf(out, "%s\n", opt->help);
		else
			help_row(spec, opt, out);
	}
	fprintf(out, "  %-22s%s\n", "--help, -h", "this help");
	if (spec->notes) {
		fputc('\n', out);
		put_named(spec, spec->notes, out);
	}
}
