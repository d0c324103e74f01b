// SPDX-License-Identifier: MIT
/* Error reporting and value parsing shared by every subcommand (see cliopts.h for the rules). */
#define _GNU_SOURCE /* vasprintf() */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <kfsim/err.h>
#include <kfsim/json.h>
#include <kfsim/kernel.h>
#include "cliopts.h"

/* The program's one output mode for errors: set once by main() from the command line. */
static bool json_errors;

/*
 * A program of its own (kfsim-ynl-gen) runs one command and names itself; NULL: the kfsim
 * program, whose messages say "kfsim <cmd>".  Per thread, as the library entry point
 * kfsim_ynl_gen_main() sets it for the length of one call.
 */
static _Thread_local const char *program;

void kfsim_cli_json_errors(bool on)
{
	json_errors = on;
}

bool kfsim_cli_wants_json(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			return true;
	return false;
}

const char *kfsim_cli_program(const char *name)
{
	const char *old = program;

	program = name;
	return old;
}

const char *kfsim_cli_program_name(void)
{
	return program;
}

const char *kfsim_cli_invocation(const char *cmd, char *buf, size_t size)
{
	if (program)
		snprintf(buf, size, "%s", program);
	else if (cmd && *cmd)
		snprintf(buf, size, "kfsim %s", cmd);
	else
		snprintf(buf, size, "kfsim");
	return buf;
}

static void print_prefix(const char *cmd)
{
	char who[128];

	fprintf(stderr, "%s: ", kfsim_cli_invocation(cmd, who, sizeof(who)));
}

/*
 * {"error": {"command": "bfq", "status": 2, "errno": "EINVAL", "message": "..."}} on stdout,
 * so that a script parsing --json output sees why there is no result.
 */
static void json_error(const char *cmd, int status, int err, const char *fmt, va_list args)
{
	struct kfsim_json json;
	char message[1024];

	vsnprintf(message, sizeof(message), fmt, args);
	kfsim_json_init(&json, stdout, true);
	kfsim_json_object_begin(&json);
	kfsim_json_key(&json, "error");
	kfsim_json_object_begin(&json);
	kfsim_json_kv_string(&json, "command", cmd ? cmd : "");
	kfsim_json_kv_int(&json, "status", status);
	if (err)
		kfsim_json_kv_string(&json, "errno", kfsim_errname(err));
	kfsim_json_kv_string(&json, "message", message);
	kfsim_json_object_end(&json);
	kfsim_json_object_end(&json);
	kfsim_json_finish(&json);
}

/*
 * @text up to @len bytes with every control character written as an escape ("\n", "\x1b"):
 * a message quotes what the user typed (an option's value, a path), and a newline or an
 * escape sequence in it must not split the one line a script reads or drive the terminal.
 */
static void put_escaped(FILE *out, const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

/*
 * Each line of @message ('\n' apart when @lines, else the whole message as one) on a line of
 * its own on stderr, "-ENAME: " first for a failure at run time; then the JSON error.
 */
static int report_message(const char *cmd, int status, int err, const char *message, bool lines)
{
	const char *line = message;

	do {
		size_t len = lines ? strcspn(line, "\n") : strlen(line);

		print_prefix(cmd);
		if (status == KFSIM_EXIT_FAILURE)
			fprintf(stderr, "-%s: ", kfsim_errname(err));
		put_escaped(stderr, line, len);
		fputc('\n', stderr);
		line += len;
	} while (*line++ && *line); /* a last newline starts no empty line */
	if (json_errors)
		kfsim_cli_json_error(cmd, status, err, message);
	return status;
}

/* The one line on stderr and the JSON error, for a message still to be formatted. */
static int report(const char *cmd, int status, int err, const char *fmt, va_list args)
{
	char *message = NULL;

	if (vasprintf(&message, fmt, args) < 0)
		return report_message(cmd, status, err, fmt, false);
	report_message(cmd, status, err, message, false);
	free(message);
	return status;
}

int kfsim_cli_usage_lines(const char *cmd, const char *lines)
{
	return report_message(cmd, KFSIM_EXIT_USAGE, 0, lines, true);
}

int kfsim_cli_usage(const char *cmd, const char *fmt, ...)
{
	va_list args;
	int status;

	va_start(args, fmt);
	status = report(cmd, KFSIM_EXIT_USAGE, 0, fmt, args);
	va_end(args);
	return status;
}

int kfsim_cli_fail(const char *cmd, int err, const char *fmt, ...)
{
	va_list args;
	int status;

	va_start(args, fmt);
	status = report(cmd, KFSIM_EXIT_FAILURE, err, fmt, args);
	va_end(args);
	return status;
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
	if (hex ? isxdigit((unsigned char)text[2]) : isdigit((unsigned char)text[0]))
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
	char who[128];

	kfsim_cli_invocation(cmd, who, sizeof(who));

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
		return kfsim_cli_usage(cmd, "unknown option '%s' (see '%s --help')", arg, who);
	}
	if (optopt)
		return kfsim_cli_usage(cmd, "unknown option '-%c' (see '%s --help')", optopt, who);
	return kfsim_cli_usage(cmd, "unknown option '%s' (see '%s --help')", arg, who);
}

/* Units for times, smallest first so that "ms" is not read as "m" + "s". */
static const struct {
	const char *suffix;
	u64 ns;
} time_units[] = {
	{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
};

const char *kfsim_cli_format_duration(u64 ns, char *buf, size_t size)
{
	for (int i = (int)ARRAY_SIZE(time_units) - 1; i >= 0; i--) {
		if (ns && ns % time_units[i].ns == 0) {
			snprintf(buf, size, "%llu%s", (unsigned long long)(ns / time_units[i].ns),
				 time_units[i].suffix);
			return buf;
		}
	}
	snprintf(buf, size, "%lluns", (unsigned long long)ns);
	return buf;
}

int kfsim_cli_parse_duration(const char *cmd, const char *opt, const char *text, u64 bare_unit_ns,
			     u64 min_ns, u64 max_ns, u64 *out)
{
	u64 unit = bare_unit_ns;
	char lo[32], hi[32];
	double value, ns;
	char *end;

	errno = 0;
	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		/* hex, as for every integer option: a bare number of the option's unit */
		value = isxdigit((unsigned char)text[2]) ? (double)strtoull(text, &end, 16) : 0;
		if (!isxdigit((unsigned char)text[2]) || *end)
			end = (char *)text;
	} else if (*text && !isspace((unsigned char)*text) && !strpbrk(text, "xXpP")) {
		value = strtod(text, &end);
	} else {
		value = 0;
		end = (char *)text;
	}
	if (end != text && *end) {
		unit = 0;
		for (size_t i = 0; i < ARRAY_SIZE(time_units); i++)
			if (!strcmp(end, time_units[i].suffix))
				unit = time_units[i].ns;
	}
	ns = value * (double)unit;
	if (end == text || !unit || errno || !isfinite(value) || ns < (double)min_ns ||
	    ns > (double)max_ns) {
		kfsim_cli_usage(cmd, "invalid value '%s' for %s: expected a time from %s to %s "
				"(units ns, us, ms, s)", text, opt,
				kfsim_cli_format_duration(min_ns, lo, sizeof(lo)),
				kfsim_cli_format_duration(max_ns, hi, sizeof(hi)));
		return -EINVAL;
	}
	*out = (u64)llround(ns);
	return 0;
}

int kfsim_cli_parse_size(const char *cmd, const char *opt, const char *text, u64 min, u64 max,
			 u64 *out)
{
	unsigned long long value = 0;
	char *end = NULL;
	u64 mult = 1;

	errno = 0;
	if (isdigit((unsigned char)text[0]))
		value = strtoull(text, &end, 10);
	if (end && *end) {
		const char *suffix = strchr("kmgt", tolower((unsigned char)*end));

		mult = suffix ? 1ULL << (10 * (1 + (suffix - "kmgt"))) : 0;
		if (mult && end[1] && strcasecmp(end + 1, "b") && strcasecmp(end + 1, "ib"))
			mult = 0;
	}
	if (!end || !mult || errno || value > max / mult || value * mult < min) {
		kfsim_cli_usage(cmd, "invalid value '%s' for %s: expected a size from %llu to %llu "
				"bytes (suffixes k, m, g: powers of 1024)", text, opt,
				(unsigned long long)min, (unsigned long long)max);
		return -EINVAL;
	}
	*out = value * mult;
	return 0;
}

/* For a program that words its failure itself (kfsim-ynl-gen's compiler-style line). */
static void json_error_text(const char *cmd, int status, int err, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	json_error(cmd, status, err, fmt, args);
	va_end(args);
}

void kfsim_cli_json_error(const char *cmd, int status, int err, const char *message)
{
	json_error_text(cmd, status, err, "%s", message);
}
