/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_YNL_GEN_H
#define KFSIM_YNL_GEN_H
#pragma GCC visibility push(default)	/* libkfsim.so exports what public headers declare */

/*
 * kfsim's YNL code generator: the kernel's YAML netlink specs (Documentation/netlink/specs/,
 * the spec language of Linux 6.12) to C that runs on kfsim's netlink core.  The same code is the
 * program kfsim-ynl-gen and the command "kfsim ynl-gen".
 *
 * Output files for family F in the output directory (see docs/ynl.md):
 *   F-uapi.h            uapi enums with the kernel generator's names
 *   F-kernel.h, .c      policies + op table for the in-process kernel (mode "kernel")
 *   F-user.h, .c        request/reply structs, put/parse, dump/ntf helpers (mode "user")
 *   F-test.c            a round-trip test program over the two above (mode "test")
 */
#include <stddef.h>

/* Bits for kfsim_ynl_generate()'s @modes. */
#define KFSIM_YNL_GEN_UAPI	0x1
#define KFSIM_YNL_GEN_KERNEL	0x2
#define KFSIM_YNL_GEN_USER	0x4
#define KFSIM_YNL_GEN_TEST	0x8	/* F-test.c: round trips over kernel + user code */
#define KFSIM_YNL_GEN_ALL	0x7	/* uapi + kernel + user */

/**
 * kfsim_ynl_generate() - generate C for one spec
 * @spec_path: the YAML spec
 * @out_dir: existing directory for the output files
 * @modes: KFSIM_YNL_GEN_* bits
 * @err: receives the reason on failure; for a bad spec "file:line:column: message"
 * @err_size: size of @err (512 bytes is plenty)
 *
 * All files are written or none: output goes to temporaries that are renamed at the end, and
 * files whose content did not change are left alone.
 *
 * Return: 0; -EINVAL for a bad spec (YAML syntax, unknown/missing key, wrong value, undefined
 * reference, duplicate name or value, key above the spec's protocol level); -ENOENT/-EACCES
 * and friends for file problems; -ENOMEM.
 */
int kfsim_ynl_generate(const char *spec_path, const char *out_dir, unsigned int modes,
		       char *err, size_t err_size);

/**
 * kfsim_ynl_gen_main() - the command line of kfsim-ynl-gen / kfsim ynl-gen
 * @prog: how messages name the program: "kfsim ynl-gen" (a kfsim command: a failed run is
 *        "kfsim ynl-gen: -EINVAL: file:line:column: message"), or a program of its own such as
 *        "kfsim-ynl-gen" (a failed run is the compiler-style "file:line:column: message" line)
 * @argc: argc; argv[0] is not read
 * @argv: the options and SPEC files
 *
 * Usage: PROG [--mode uapi|kernel|user|test|all]... [--out DIR] [--json] SPEC...  (--out-dir is
 * the older name of --out; options may also follow the specs).  The program kfsim-ynl-gen and
 * the command "kfsim ynl-gen" are this function: one option table, parsed by kfsim's shared
 * command-line parser, so a bad command line is one line "PROG: ..." naming the option.
 * Prints on stdout/stderr; not thread-safe (getopt).
 *
 * Return: exit status: 0 success; 1 a bad spec or a write failure (nothing written);
 * 2 a bad command line.
 */
int kfsim_ynl_gen_main(const char *prog, int argc, char **argv);

#pragma GCC visibility pop
#endif /* KFSIM_YNL_GEN_H */
