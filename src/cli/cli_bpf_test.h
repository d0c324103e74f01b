/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_BPF_TEST_H
#define KFSIM_CLI_BPF_TEST_H
/*
 * kfsim bpf test [-I DIR]... [-D NAME[=V]]... [--keep DIR] [--kernel] [--timeout S] PROG.c
 *                [NAME...]
 * Build PROG.c with kfsim-bpf-cc and run it (cli_bpf_test.c).  The command line is parsed by
 * cmd_bpf.c's option table; this is what it found.
 */
#include <stdbool.h>

#define KFSIM_BPF_TEST_MAX_CC_ARGS 128 /* -I/-D words passed to the compilers */

/**
 * struct kfsim_bpf_test_args - a parsed "kfsim bpf test" command line
 * @cc_args: "-I", DIR, "-D", NAME... in command-line order, for kfsim-bpf-cc
 * @nr_cc_args: how many words
 * @keep: build in this directory and keep it (NULL: a temporary one)
 * @kernel: also load each program in the running kernel
 * @timeout_s: seconds of CPU time a program may use (0: the program's default)
 * @explore: explore both outcomes of every decision point (the runner's --explore)
 * @paths: the path budget per program (--paths)
 * @flips: other outcomes per path at most (--flips)
 * @paths_svg: draw the explored paths there (NULL: no picture)
 * @source: the BPF C file
 * @names: the programs to run (none: all)
 * @nr_names: how many
 */
struct kfsim_bpf_test_args {
	const char *cc_args[KFSIM_BPF_TEST_MAX_CC_ARGS];
	int nr_cc_args;
	const char *keep;
	bool kernel;
	unsigned int timeout_s;
	bool explore;
	unsigned int paths;
	unsigned int flips;
	const char *paths_svg;
	const char *source;
	char **names;
	int nr_names;
};

/** kfsim_bpf_test_run() - build and run; returns the exit status. */
int kfsim_bpf_test_run(const struct kfsim_bpf_test_args *args);

#endif /* KFSIM_CLI_BPF_TEST_H */
