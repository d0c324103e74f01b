/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CMDLINE_H
#define KFSIM_CMDLINE_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * The kernel command line (init/main.c, kernel/params.c) and the kernel version kfsim follows.
 *
 * kfsim_cmdline_parse() splits a command line the way the kernel's next_arg() does: words
 * separated by spaces, "name=value" or a bare "name", double quotes around a value (or the whole
 * word) keeping spaces, and "--" ending the kernel's part (the rest goes to init).  Parameters
 * kfsim knows are stored for the parts to query; the rest are treated as the kernel treats them:
 *
 * - an unknown name without a dot is not the kernel's, so it is passed to init and reported once
 *   per parse as "Unknown kernel command line parameters \"foo bar=1\", will be passed to user
 *   space." (KERN_NOTICE), exactly as Linux 5.14+ does;
 * - an unknown "module.param" whose module is a kfsim part logs "<module>: unknown parameter
 *   '<param>' ignored" (the module loader's message);
 * - any other dotted name belongs to a module kfsim does not have and is kept silently, as the
 *   kernel keeps it for a module that may load later.
 *
 * The command line and the version are process-global, like the kernel's boot parameters.
 * Known parameters (see docs/core.md for the list): cgroup.memory=nosocket,nokmem,nobpf;
 * loglevel=N; quiet; debug; ignore_loglevel; panic_on_warn[=0|1]; and each part's module
 * parameters, named "<part>.<param>".
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
 * Return: 0; -EINVAL for a malformed line (an unterminated quote, a word starting with '=',
 * a known parameter with a bad value, such as loglevel=x) with the reason logged as KERN_ERR;
 * -E2BIG when it is longer than COMMAND_LINE_SIZE - 1.  On error nothing changes: the previous
 * parameters stay in force.
 */
int kfsim_cmdline_parse(const char *cmdline);

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
