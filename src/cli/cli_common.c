// SPDX-License-Identifier: MIT
/* Error reporting and value parsing shared by every subcommand (see cli.h for the rules). */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include "cli.h"

static void print_prefix(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "kfsim %s: ", cmd);
	else
		fprintf(stderr, "kfsim: ");
}

int kfsim_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list args;

	print_prefix(cmd);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	return KFSIM_EXIT_USAGE;
}

int kfsim_cli_fail(const char *cmd, int err, const char *fmt, ...)
{
	va_list args;

	print_prefix(cmd);
	fprintf(stderr, "-%s: ", kfsim_errname(err));
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	return KFSIM_EXIT_FAILURE;
}

int kfsim_cli_parse_u64(const char *cmd, const char *opt, const char *text, u64 min, u64 max,
			u64 *out)
{
	bool hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	unsigned long long value = 0;
	char *end = NULL;

	/*
	 * Decimal, or hex after 0x.  Not base 0: "010" is ten, not octal eight.  strtoull() alone
	 * would also take leading blanks, a '+' and a '-' that wraps " -1" to 2^64 - 1.
	 */
	errno = 0;
	if (isdigit((unsigned char)text[hex ? 2 : 0]))
		value = strtoull(text, &end, hex ? 16 : 10);
	if (!end || *end || errno || value < min || value > max) {
		kfsim_cli_usage(cmd, "invalid value '%s' for %s: expected an integer from %llu to %llu",
				text, opt, (unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	*out = value;
	return 0;
}

int kfsim_cli_parse_double(const char *cmd, const char *opt, const char *text, double min,
			   double max, double *out)
{
	double value;
	char *end;

	/* strtod() alone would also take leading blanks and hex ("0x10" is 16) */
	errno = 0;
	value = strtod(text, &end);
	if (!*text || isspace((unsigned char)*text) || strpbrk(text, "xX") || *end || errno ||
	    !isfinite(value) || value < min || value > max) {
		kfsim_cli_usage(cmd, "invalid value '%s' for %s: expected a number from %g to %g",
				text, opt, min, max);
		return -EINVAL;
	}
	*out = value;
	return 0;
}

int kfsim_cli_bad_option(const char *cmd, char **argv, int result)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";

	if (result == ':') {
		if (optopt && !(arg[0] == '-' && arg[1] == '-'))
			return kfsim_cli_usage(cmd, "option '-%c' needs a value", optopt);
		return kfsim_cli_usage(cmd, "option '%s' needs a value", arg);
	}
	if (arg[0] == '-' && arg[1] == '-') {
		const char *eq = strchr(arg, '=');

		/* glibc sets optopt to the option's value for "--flag=x" on a flag, 0 otherwise */
		if (optopt && eq)
			return kfsim_cli_usage(cmd, "option '%.*s' takes no value", (int)(eq - arg),
					       arg);
		return kfsim_cli_usage(cmd, "unknown option '%s' (see 'kfsim %s --help')", arg,
				       cmd ? cmd : "");
	}
	if (optopt)
		return kfsim_cli_usage(cmd, "unknown option '-%c' (see 'kfsim %s --help')", optopt,
				       cmd ? cmd : "");
	return kfsim_cli_usage(cmd, "unknown option '%s' (see 'kfsim %s --help')", arg,
			       cmd ? cmd : "");
}

bool kfsim_cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return true;
	}
	return false;
}
