/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLIOPTS_H
#define KFSIM_CLIOPTS_H

/*
 * The command-line parser, a part of its own: the exit-status rules, option value parsing, the
 * declarative option tables (struct kfsim_cli_spec) and keyword tables (struct kfsim_cli_param).
 * Used alike by the kfsim program (src/cli/), kfsim-ynl-gen (which compiles these files
 * itself: it runs before libkfsim exists) and kfsim-bpf-cc.  It knows no command: a command
 * is a spec, and kfsim_cli_run() is the whole of running one.  Internal: the names are hidden
 * in libkfsim.so like every name no installed header declares.
 *
 * Exit status: 0 success; 1 a runtime failure, printed as "kfsim <cmd>: -EINVAL: what failed";
 * 2 a bad command line, printed as one line naming the option and what it expects.
 */
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <kfsim/types.h>
#define KFSIM_EXIT_OK 0
#define KFSIM_EXIT_FAILURE 1
#define KFSIM_EXIT_USAGE 2

/**
 * kfsim_cli_usage() - report a bad command line and return KFSIM_EXIT_USAGE
 * @cmd: the subcommand ("rbtree"), or NULL for kfsim itself
 *
 * Prints "kfsim <cmd>: <message>" on one line to stderr: a control character in the message
 * (a newline in a value the user typed) is printed escaped ("\n", "\x1b").
 */
int kfsim_cli_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * kfsim_cli_usage_lines() - report a bad input as several usage errors, one per line
 * @lines: the problems, '\n' apart (a bad file's, each "FILE:LINE: reason")
 *
 * Prints "kfsim <cmd>: <line>" for each line; the JSON error holds them all.
 * Return: KFSIM_EXIT_USAGE.
 */
int kfsim_cli_usage_lines(const char *cmd, const char *lines);

/**
 * kfsim_cli_fail() - report a runtime failure and return KFSIM_EXIT_FAILURE
 * @err: the negative errno
 *
 * Prints "kfsim <cmd>: -EINVAL: <message>" to stderr.
 */
int kfsim_cli_fail(const char *cmd, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * kfsim_cli_parse_u64() - parse the value @text of option @opt into [@min, @max]
 *
 * Return: 0, or -EINVAL after printing the usage error ("invalid value 'x' for --seed:
 * expected an integer from 0 to 4294967295").
 */
int kfsim_cli_parse_u64(const char *cmd, const char *opt, const char *text, u64 min, u64 max,
			u64 *out);

/** kfsim_cli_parse_double() - like kfsim_cli_parse_u64() for a finite real number. */
int kfsim_cli_parse_double(const char *cmd, const char *opt, const char *text, double min,
			   double max, double *out);

/**
 * kfsim_cli_bad_option() - the usage error for getopt_long's '?' or ':' result
 * @argv: the command's argv
 * @optstring_result: what getopt_long returned ('?' or ':')
 *
 * Return: KFSIM_EXIT_USAGE, after "unknown option '--x'" or "option '--x' needs a value".
 */
int kfsim_cli_bad_option(const char *cmd, char **argv, int optstring_result);

/**
 * kfsim_cli_parse_duration() - a time with its unit: "500ms", "2s", "10us", "250ns", "1.5s"
 * @cmd: the subcommand, for the error
 * @opt: the option, for the error ("--duration")
 * @text: the value
 * @bare_unit_ns: what a number without a unit means (NSEC_PER_SEC for seconds ...)
 * @min_ns: smallest accepted
 * @max_ns: largest accepted
 * @out: the time in nanoseconds
 *
 * Return: 0, or -EINVAL after the usage error naming @opt and the range with units.
 */
int kfsim_cli_parse_duration(const char *cmd, const char *opt, const char *text, u64 bare_unit_ns,
			     u64 min_ns, u64 max_ns, u64 *out);

/**
 * kfsim_cli_parse_size() - a byte count: "4096", "64k", "256M", "1g" (powers of two, as fio)
 *
 * Return: 0, or -EINVAL after the usage error naming @opt.
 */
int kfsim_cli_parse_size(const char *cmd, const char *opt, const char *text, u64 min, u64 max,
			 u64 *out);

/** kfsim_cli_format_duration() - @ns as "2s", "500ms", "10us" or "250ns" (exact when it can). */
const char *kfsim_cli_format_duration(u64 ns, char *buf, size_t size);

/**
 * kfsim_cli_json_errors() - also report failures as a JSON document on stdout
 *
 * main() turns this on for a command line holding "--json", so that a script reading the JSON
 * gets {"error": {...}} instead of nothing.  The stderr line is printed as always.
 */
void kfsim_cli_json_errors(bool on);

/**
 * kfsim_cli_wants_json() - whether the command line @argv[1..] asks for --json (before "--")
 *
 * Scanned before any option is parsed, so that an error found early (a bad global --kver, a
 * bad option before --json) is still reported as the JSON document the script waits for.
 */
bool kfsim_cli_wants_json(int argc, char **argv);

/* --- declarative option tables ------------------------------------------------------------ */

/**
 * enum kfsim_opt_kind - what an option's value is and where it goes
 * @KFSIM_OPT_FLAG: no value; sets a bool to true
 * @KFSIM_OPT_FLAG_OFF: no value; sets a bool to false ("--no-balance")
 * @KFSIM_OPT_BOOL: 0 or 1 into a bool
 * @KFSIM_OPT_UINT: an integer in [@min, @max] into an unsigned int (decimal, or 0x hex)
 * @KFSIM_OPT_U64: likewise into a u64
 * @KFSIM_OPT_INT: likewise into an int
 * @KFSIM_OPT_DOUBLE: a finite number in [@dmin, @dmax] into a double
 * @KFSIM_OPT_DURATION: a time with unit (kfsim_cli_parse_duration(), bare numbers in @unit
 *                      nanoseconds) in [@min, @max] ns into a u64 of nanoseconds
 * @KFSIM_OPT_SIZE: bytes with k/m/g suffixes in [@min, @max] into a u64
 * @KFSIM_OPT_STRING: a non-empty string into a const char *
 * @KFSIM_OPT_OUTPUT: a path kfsim will write, checked by kfsim_outfile_check_path() at parse
 *                    time (-ENAMETOOLONG before any work), into a const char *
 * @KFSIM_OPT_INPUT: a path kfsim will read (not empty), into a const char *; like
 *                   @KFSIM_OPT_OUTPUT confined by kfsim_cli_confine_paths()
 * @KFSIM_OPT_CHOICE: one of @choices (NULL-terminated); its index into an unsigned int
 * @KFSIM_OPT_CALL: @call(opts, value, why, size) parses it; 0, or -EINVAL with *why set (or
 *                  with *why left empty when it printed its own usage error), or -ENOMEM
 * @KFSIM_OPT_ONOFF: "on" or "off" into a bool (ethtool's word for a switch)
 * @KFSIM_OPT_COMMAND: no value; a subcommand written as an option, after the program's own
 *                     options (ethtool's "--get-plca-cfg DEV"): stores @min into an unsigned
 *                     int and ends the options, every word after it is an operand.  Not
 *                     listed under "Options:" (the spec's text describes the subcommands)
 */
enum kfsim_opt_kind {
	KFSIM_OPT_FLAG,
	KFSIM_OPT_FLAG_OFF,
	KFSIM_OPT_BOOL,
	KFSIM_OPT_UINT,
	KFSIM_OPT_U64,
	KFSIM_OPT_INT,
	KFSIM_OPT_DOUBLE,
	KFSIM_OPT_DURATION,
	KFSIM_OPT_SIZE,
	KFSIM_OPT_STRING,
	KFSIM_OPT_OUTPUT,
	KFSIM_OPT_INPUT,
	KFSIM_OPT_CHOICE,
	KFSIM_OPT_CALL,
	KFSIM_OPT_ONOFF,
	KFSIM_OPT_COMMAND,
};

/**
 * kfsim_cli_confine_paths() - refuse, from now on, every file option whose path leaves the
 * directory kfsim runs in
 * @source: who wrote the command lines parsed from now on ("the partial files' command
 *          line"), named in the refusal; NULL lifts the confinement
 *
 * A command line kfsim did not get from its user (kfsim merge replays the one a partial file
 * records) may name only files below the current directory: a @KFSIM_OPT_INPUT or
 * @KFSIM_OPT_OUTPUT value that is absolute or has a ".." component is a usage error, as tar
 * refuses such member names, so that a file's author cannot make kfsim read or overwrite
 * another file of the user's (or, run as root, of anyone's).
 */
void kfsim_cli_confine_paths(const char *source);

/**
 * kfsim_cli_replayed() - the command lines parsed from now on are replayed from @source (a
 * partial file's, for kfsim merge), not typed by the user; NULL: the user's own again
 *
 * A --help (or -h) in a replayed line is a usage error naming @source: printed, the help would
 * land on the merge's stdout as if it were the merge's output.
 */
void kfsim_cli_replayed(const char *source);

/**
 * struct kfsim_opt - one row of a command's option table
 * @name: the long name without "--"
 * @kind: see enum kfsim_opt_kind
 * @offset: where the value goes: offsetof() in the command's options struct
 * @arg: the value's name in help ("FILE", "N", "TIME")
 * @help: one line (more lines after '\n' are indented under it)
 * @verbs: bit i set: the option applies to verb i (0: to every verb)
 * @min: smallest integer, duration (ns) or size
 * @max: largest
 * @dmin: smallest double
 * @dmax: largest double
 * @unit: KFSIM_OPT_DURATION: nanoseconds in a bare number (the command's old meaning)
 * @choices: KFSIM_OPT_CHOICE: the words, NULL-terminated
 * @call: KFSIM_OPT_CALL: the parser
 * @alias_of: this row is an older name kept for scripts: the value goes where @alias_of's does
 *            and help lists it under that option
 * @required: bit i set: verb i needs the option (bit 0 for a command without verbs), unless an
 *            option that excludes it (@excludes, either way round) was given instead
 * @excludes: names of options that cannot be given with this one, NULL-terminated
 * @format: KFSIM_OPT_CALL: write the value held in @opts as the command line would give it
 *          (for "(default: X)" in help); other kinds are formatted from their destination
 * @short_name: the one-letter form ('I' for "-I DIR", also "-IDIR"), or 0 ('h' is help's)
 */
struct kfsim_opt {
	const char *name;
	enum kfsim_opt_kind kind;
	size_t offset;
	const char *arg;
	const char *help;
	unsigned int verbs;
	u64 min, max;
	double dmin, dmax;
	u64 unit;
	const char *const *choices;
	int (*call)(void *opts, const char *value, char *why, size_t why_size);
	const char *alias_of;
	unsigned int required;
	const char *const *excludes;
	void (*format)(const void *opts, char *buf, size_t size);
	char short_name;
};

struct kfsim_cli_args;

/**
 * struct kfsim_cli_verb - a subcommand word ("sim") and its one-line summary
 * @name: the word
 * @summary: one line for the help
 * @operands: the name of its non-option arguments ("HEX"); NULL: the spec's rules apply
 * @min_positional: with @operands: at least this many
 * @max_positional: with @operands: at most this many (INT_MAX: any number)
 * @run: what kfsim_cli_main() calls for this verb with the parsed options; returns the exit
 *       status
 */
struct kfsim_cli_verb {
	const char *name;
	const char *summary;
	const char *operands;
	int min_positional;
	int max_positional;
	int (*run)(void *opts, const struct kfsim_cli_args *args);
};

/**
 * struct kfsim_cli_args - what the parser saw, besides the values it stored
 * @verb: index of the subcommand in the spec's verbs (0 when it has none)
 * @given: bit i set: option i of the table was given (aliases count for their target)
 * @positional: arguments that are not options (after the verb)
 * @nr_positional: how many
 */
struct kfsim_cli_args {
	unsigned int verb;
	u64 given;
	char **positional;
	int nr_positional;
};

/**
 * struct kfsim_cli_spec - a command described once: help, parsing and dispatch come from it
 * @name: the word after "kfsim"
 * @usage: the usage lines after "Usage: " (several lines joined with "\n       ")
 * @about: a paragraph saying what the command does
 * @verbs: its subcommands, or NULL
 * @nr_verbs: how many
 * @opts: the option table (at most 64 rows)
 * @nr_opts: how many rows
 * @notes: text printed after the options (units, exit status)
 * @max_positional: non-option arguments accepted after the verb (INT_MAX: any number).  The
 *                  first one ends the options: it and everything after it are passed through
 *                  untouched (`kfsim exec PROGRAM --its-option`), as is everything after "--"
 * @defaults: fills the options struct with the command's defaults for verb @verb, from the
 *            library's *_default() constructors.  kfsim_cli_parse() calls it once the verb is
 *            known; kfsim_cli_help() calls it to print "(default: X)" on every row that has one
 * @opts_size: sizeof the options struct (for @defaults in help)
 * @operands: the name of the non-option arguments, for "missing PROGRAM" (verbs may override)
 * @min_positional: non-option arguments needed (verbs may override)
 * @options_anywhere: options may also follow the operands (GNU getopt's argument permutation:
 *                    `kfsim nl decode HEX --json`); then "--" alone ends the options
 * @more_help: prints lines the table cannot know (a list built at run time) before @notes
 * @run: what kfsim_cli_main() calls for a command without verbs (a verb has its own @run)
 * @more_about: prints what follows @about when it is built at run time (ethtool's list of
 *              subcommands with their keyword tables), without a final newline
 * @release: frees what parsing or @run left in the options struct (kfsim_cli_run() calls it
 *           whatever the outcome); NULL when nothing is allocated
 */
struct kfsim_cli_spec {
	const char *name;
	const char *usage;
	const char *about;
	const struct kfsim_cli_verb *verbs;
	unsigned int nr_verbs;
	const struct kfsim_opt *opts;
	unsigned int nr_opts;
	const char *notes;
	int max_positional;
	void (*defaults)(void *opts, unsigned int verb);
	size_t opts_size;
	const char *operands;
	int min_positional;
	bool options_anywhere;
	void (*more_help)(FILE *out);
	int (*run)(void *opts, const struct kfsim_cli_args *args);
	void (*release)(void *opts);
	void (*more_about)(FILE *out);
};

/**
 * kfsim_cli_parse() - parse argv against @spec into @opts (which holds the defaults)
 * @spec: the command
 * @opts: the command's options struct, already filled with its defaults (or filled by
 *        @spec->defaults once the verb is known)
 * @argc: argc of the command (argv[0] is its name)
 * @argv: its argv
 * @args: what was seen
 *
 * "-h"/"--help" as an option prints the help and returns KFSIM_EXIT_OK with @args->verb set
 * to -1u; as the value of an option it is a value.  An option given for a verb it does not
 * apply to is a usage error naming both, as are a missing required option, two options that
 * exclude each other, and too few or too many operands.
 *
 * Return: 0 to go on, or the exit status to return now (help printed, or a usage error).
 */
int kfsim_cli_parse(const struct kfsim_cli_spec *spec, void *opts, int argc, char **argv,
		    struct kfsim_cli_args *args);

/**
 * kfsim_cli_help() - print @spec's help on @out (generated from the table)
 *
 * With @spec->defaults, every row whose value has a default says "(default: X)", formatted
 * from the struct the constructor filled ("(default: 1s for sim, 200ms for sweep)" when the
 * verbs differ), so the help cannot state a default the command does not use.
 */
void kfsim_cli_help(const struct kfsim_cli_spec *spec, FILE *out);

/**
 * kfsim_cli_main() - a whole command: kfsim_cli_parse(), then the verb's (or @spec's) @run
 * @spec: the command
 * @opts: its options struct (defaults as for kfsim_cli_parse())
 * @argc: argc of the command
 * @argv: its argv
 *
 * Return: the exit status: of the help or the usage error, or what @run returned.
 */
int kfsim_cli_main(const struct kfsim_cli_spec *spec, void *opts, int argc, char **argv);

/**
 * kfsim_cli_run() - a command from its spec alone: a zeroed options struct of
 * @spec->opts_size bytes, kfsim_cli_main(), then @spec->release
 *
 * Return: the exit status (KFSIM_EXIT_FAILURE after "-ENOMEM" when the struct cannot be had).
 */
int kfsim_cli_run(const struct kfsim_cli_spec *spec, int argc, char **argv);

/** kfsim_cli_given() - whether option @name was on the command line. */
bool kfsim_cli_given(const struct kfsim_cli_spec *spec, const struct kfsim_cli_args *args,
		     const char *name);

/**
 * kfsim_cli_format_default() - the value of row @opt held in @opts, as the command line
 * would write it ("8", "1s", "256m", "plca"), into @buf
 *
 * Return: false when the row has no value to show (a flag, an unset string, a callback
 * without @opt->format).
 */
bool kfsim_cli_format_default(const struct kfsim_opt *opt, const void *opts, char *buf,
			      size_t size);

/** KFSIM_CLI_HELP_SHOWN - @args->verb after kfsim_cli_parse() printed help */
#define KFSIM_CLI_HELP_SHOWN (~0u)

/* --- programs of their own ------------------------------------------------------------------ */

/**
 * kfsim_cli_program() - messages name program @name ("kfsim-ynl-gen") instead of "kfsim <cmd>"
 * @name: the program, or NULL for the kfsim program (the default)
 *
 * For a tool that runs one command on its own: usage errors become "kfsim-ynl-gen: ...", the
 * hints "see 'kfsim-ynl-gen --help'", and help text shows @name where it says "kfsim <cmd>".
 * Per thread.  Return: the previous setting, to restore.
 */
const char *kfsim_cli_program(const char *name);

/** kfsim_cli_program_name() - the program kfsim_cli_program() set, or NULL for kfsim. */
const char *kfsim_cli_program_name(void);

/** kfsim_cli_invocation() - "kfsim @cmd", or the program set by kfsim_cli_program(), in @buf */
const char *kfsim_cli_invocation(const char *cmd, char *buf, size_t size);

/**
 * kfsim_cli_json_error() - print the {"error": {...}} document on stdout
 *
 * What kfsim_cli_fail() adds under kfsim_cli_json_errors(), for a failure the command reported
 * on stderr in its own words (kfsim-ynl-gen's compiler-style line).
 */
void kfsim_cli_json_error(const char *cmd, int status, int err, const char *message);

/* --- keyword parameter tables ("node-id 1 enable on", as ethtool's nl_parser()) ------------- */

/**
 * struct kfsim_cli_param - one keyword of a "keyword value ..." list
 * @name: the keyword
 * @kind: KFSIM_OPT_UINT (an integer in [@min, @max] into a u32), KFSIM_OPT_U64, KFSIM_OPT_ONOFF
 *        ("on"/"off" into a bool), KFSIM_OPT_CHOICE (@choices index into an unsigned int) or
 *        KFSIM_OPT_STRING; the kinds of struct kfsim_opt
 * @offset: where the value goes: offsetof() in the destination struct
 * @arg: the value in help ("N", "on|off")
 * @help: one line for help
 * @id: the command's own number for the keyword (a netlink attribute type)
 * @min: smallest integer
 * @max: largest integer
 * @choices: KFSIM_OPT_CHOICE: the words, NULL-terminated
 */
struct kfsim_cli_param {
	const char *name;
	enum kfsim_opt_kind kind;
	size_t offset;
	const char *arg;
	const char *help;
	unsigned int id;
	u64 min, max;
	const char *const *choices;
};

/**
 * enum kfsim_cli_number_syntax - how a keyword table reads integers
 * @KFSIM_CLI_NUMBERS_STRICT: kfsim's rule: decimal digits, or hex digits after 0x; nothing else
 * @KFSIM_CLI_NUMBERS_STRTOUL: ethtool's parse_u32(): strtoul() base 10, or base 16 after a
 *                            0x/0X prefix, the whole word used and not empty; so " 5", "+5"
 *                            and "-0" are taken, and "-1" wraps past the range and is refused
 */
enum kfsim_cli_number_syntax {
	KFSIM_CLI_NUMBERS_STRICT,
	KFSIM_CLI_NUMBERS_STRTOUL,
};

/**
 * struct kfsim_cli_params - a keyword table: parsing, errors and help come from it
 * @params: the keywords (at most 64)
 * @nr_params: how many
 * @numbers: how integers are read
 */
struct kfsim_cli_params {
	const struct kfsim_cli_param *params;
	unsigned int nr_params;
	enum kfsim_cli_number_syntax numbers;
};

/**
 * enum kfsim_cli_param_error - what was wrong with a keyword list (in the order checked)
 * @KFSIM_PARAM_OK: nothing
 * @KFSIM_PARAM_UNKNOWN: a word that is no keyword of the table
 * @KFSIM_PARAM_DUPLICATE: a keyword given twice
 * @KFSIM_PARAM_NO_VALUE: a keyword at the end, without its value
 * @KFSIM_PARAM_BAD_VALUE: a value that does not parse or is out of range
 */
enum kfsim_cli_param_error {
	KFSIM_PARAM_OK,
	KFSIM_PARAM_UNKNOWN,
	KFSIM_PARAM_DUPLICATE,
	KFSIM_PARAM_NO_VALUE,
	KFSIM_PARAM_BAD_VALUE,
};

/**
 * struct kfsim_cli_param_result - what kfsim_cli_parse_params() saw
 * @given: bit i set: keyword i of the table was given
 * @order: the rows given, in command-line order (ethtool sends attributes in that order)
 * @nr_given: how many
 * @error: the first thing wrong, or KFSIM_PARAM_OK
 * @keyword: the keyword at fault (the word itself for KFSIM_PARAM_UNKNOWN)
 * @value: the value at fault (KFSIM_PARAM_BAD_VALUE)
 */
struct kfsim_cli_param_result {
	u64 given;
	unsigned int order[64];
	unsigned int nr_given;
	enum kfsim_cli_param_error error;
	const char *keyword;
	const char *value;
};

/**
 * kfsim_cli_parse_params() - parse @words ("keyword value" pairs) against @table into @dest
 *
 * Checks, as ethtool's nl_parser() does, for each word in turn: is it a keyword, was it seen
 * before, is there a value after it, does the value parse.  Nothing is printed: the command
 * words the error (kfsim_cli_param_error_text() gives the wording ethtool uses).
 * Return: 0, or -EINVAL with @res->error, @res->keyword and @res->value saying why.
 */
int kfsim_cli_parse_params(const struct kfsim_cli_params *table, char **words, int nr_words,
			   void *dest, struct kfsim_cli_param_result *res);

/**
 * kfsim_cli_param_error_text() - "unknown parameter 'x'", "duplicate parameter 'x'", "no value
 * for parameter 'x'" or "invalid value 'v' for parameter 'x'" into @buf (ethtool's wording)
 */
const char *kfsim_cli_param_error_text(const struct kfsim_cli_param_result *res, char *buf,
				       size_t size);

/**
 * kfsim_cli_params_help() - one line per keyword: @indent, "[ name ARG ]", and with
 * @with_help its help text in a column
 */
void kfsim_cli_params_help(const struct kfsim_cli_params *table, const char *indent,
			   bool with_help, FILE *out);

#endif /* KFSIM_CLIOPTS_H */
