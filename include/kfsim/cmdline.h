/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CMDLINE_H
#define KFSIM_CMDLINE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The kernel command line (init/main.c, kernel/params.c, kernel/printk/printk.c; Linux 6.12) and
 * the option-string helpers of lib/cmdline.c.
 *
 * kfsim_cmdline_parse() splits a command line as the kernel's next_arg() does (words, "name=value"
 * or a bare "name", double quotes keeping spaces, "--" ending the kernel's part) and handles each
 * word as the kernel does at boot:
 *
 * - early options: debug (console level 10), quiet (4), loglevel=N (any int, as get_option()
 *   reads it), ignore_loglevel (print every level, whatever loglevel says later).  A bad value is
 *   logged as "Malformed early option 'loglevel'" and the rest of the line still applies;
 * - parameters: panic_on_warn=N (an int: any non-zero N turns a WARN into a panic; a bare
 *   "panic_on_warn" is refused for lack of a value, "Booting kernel: `' invalid for parameter
 *   `panic_on_warn'"), printk.ignore_loglevel=Y|N, and every module parameter a part registered
 *   (<kfsim/moduleparam.h>), named "<module>.<param>";
 * - cgroup.memory=nosocket,nokmem,nobpf (a __setup() option); the common words of the kernel's
 *   own __setup()/early_param() handlers (root=, ro, init=, console=, mem=, ...) are consumed
 *   without effect, not passed to init;
 * - an unknown "module.param" of a registered module logs "<module>: unknown parameter '<param>'
 *   ignored" (the module loader's message); other dotted names are kept silently;
 * - every other word is init's: the report "Unknown kernel command line parameters \"...\", will
 *   be passed to user space." (KERN_NOTICE) lists the argv words, then the environment words
 *   (name=value; a repeated name keeps its first place and its last value).
 *
 * kfsim_cmdline_parse_strict() is the opt-in stricter variant: anything the kernel only warns
 * about makes it fail with -EINVAL and change nothing (the kfsim program's --cmdline uses it).
 * The command line and the version are process-global, like the kernel's boot parameters.
 */
#include <stdbool.h>
#include <stddef.h>
#include <kfsim/types.h>

/** COMMAND_LINE_SIZE - longest command line accepted (x86's value). */
#define COMMAND_LINE_SIZE 2048

/**
 * kfsim_cmdline_parse() - replace the boot parameters with those of @cmdline
 * @cmdline: the command line text
 *
 * Return: 0, also when some words were refused with a message as the kernel refuses them
 * (loglevel=x, panic_on_warn without a value); -EINVAL for a NULL @cmdline; -E2BIG when it is
 * longer than COMMAND_LINE_SIZE - 1 or init would get more than 32 argv or environment words
 * (the kernel panics there).  On error nothing changes: the previous parameters stay in force.
 */
int kfsim_cmdline_parse(const char *cmdline);

/**
 * kfsim_cmdline_parse_strict() - kfsim_cmdline_parse() that refuses what the kernel forgives
 * @cmdline: the command line text
 *
 * Return: 0; -EINVAL (nothing changes) for a malformed early option, a parameter value its type
 * refuses or that is missing, an unterminated quote, a word without a name, or cgroup.memory
 * without a value; -E2BIG as kfsim_cmdline_parse().
 */
int kfsim_cmdline_parse_strict(const char *cmdline);

/** kfsim_cmdline_reset() - forget every boot parameter (an empty command line). */
void kfsim_cmdline_reset(void);

/**
 * kfsim_cmdline_get() - the value of boot parameter @name
 *
 * Return: the value ("" for a bare word), or NULL when @name was not given.  With a parameter
 * given twice, the last one wins, as with the kernel's __setup handlers.  The string stays valid
 * until the next kfsim_cmdline_parse() or kfsim_cmdline_reset().
 */
const char *kfsim_cmdline_get(const char *name);

/**
 * kfsim_cmdline_has_option() - whether comma-separated list parameter @name contains @option
 *
 * For parameters such as cgroup.memory=nokmem,nobpf: kfsim_cmdline_has_option("cgroup.memory",
 * "nobpf") is true there.
 */
bool kfsim_cmdline_has_option(const char *name, const char *option);

/** kfsim_cmdline_text() - the current command line as given (empty when none). */
const char *kfsim_cmdline_text(void);

/**
 * kfsim_cmdline_unknown() - the unknown parameters of the last parse, space-separated
 *
 * The text of the "Unknown kernel command line parameters" message; "" when none.
 */
const char *kfsim_cmdline_unknown(void);

/*
 * lib/cmdline.c and lib/kstrtox.c, as kernel code calls them.
 */

/**
 * next_arg() - cut the next word off a command line, in place
 * @args: the line (modified: NULs end the name and the value)
 * @param: set to the word's name
 * @val: set to its value (without surrounding quotes), or NULL for a bare word
 *
 * Return: the rest of the line, leading spaces skipped.  A quote may enclose the whole word or
 * the value; an unterminated quote runs to the end of the line.
 */
char *next_arg(char *args, char **param, char **val);

/**
 * get_option() - read an int from *@str and step over it (and one following comma)
 * @str: the string; moved past what was read
 * @pint: the value (may be NULL to only validate)
 *
 * Return: 0 no int, 1 an int, 2 an int and a comma, 3 an int followed by '-' (a range).
 */
int get_option(char **str, int *pint);

/**
 * get_options() - read a list of ints and ranges ("1,3-5") into @ints[1..]
 * @str: the string
 * @nints: size of @ints; 0 only counts what the string holds
 * @ints: @ints[0] receives how many were read
 *
 * Return: where parsing stopped.
 */
char *get_options(const char *str, int nints, int *ints);

/** memparse() - a number with an optional K, M, G, T, P or E suffix (powers of 1024). */
unsigned long long memparse(const char *ptr, char **retptr);

/** parse_option_str() - whether comma-separated @str contains the word @option. */
bool parse_option_str(const char *str, const char *option);

/** KERNEL_VERSION() - encode a kernel version as LINUX_VERSION_CODE does. */
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))

/** KFSIM_KERNEL_VERSION_DEFAULT - the version kfsim follows unless told otherwise: 6.3. */
#define KFSIM_KERNEL_VERSION_DEFAULT KERNEL_VERSION(6, 3, 0)

/**
 * kfsim_set_kernel_version() - choose the kernel release whose behaviour the parts follow
 * @code: a KERNEL_VERSION() value
 *
 * Return: 0, or -EINVAL for a version before 4.0 or after 255.255 (nothing changes).
 */
int kfsim_set_kernel_version(unsigned int code);

/** kfsim_kernel_version() - the KERNEL_VERSION() code in force. */
unsigned int kfsim_kernel_version(void);

/**
 * kfsim_kver_parse() - parse "6.3", "6.3.0" or "6.12.7" into a KERNEL_VERSION() code
 * @text: the version text (nothing else around it)
 * @code: where the code goes on success
 *
 * Return: 0, or -EINVAL for anything else ("6", "6.x", "6.3-rc1", components over 255).
 */
int kfsim_kver_parse(const char *text, unsigned int *code);

/**
 * kfsim_kver_format() - "6.3.0" for a code
 * @code: a KERNEL_VERSION() value
 * @buf: output buffer
 * @size: its size (16 is always enough)
 *
 * Return: @buf.
 */
char *kfsim_kver_format(unsigned int code, char *buf, size_t size);

/** kfsim_kernel_at_least() - whether the version in force is >= KERNEL_VERSION(a, b, 0). */
static inline bool kfsim_kernel_at_least(unsigned int major, unsigned int minor)
{
	return kfsim_kernel_version() >= (unsigned int)KERNEL_VERSION(major, minor, 0);
}

#pragma GCC visibility pop
#endif /* KFSIM_CMDLINE_H */
