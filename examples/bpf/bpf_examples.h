/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_EXAMPLES_BPF_H
#define KFSIM_EXAMPLES_BPF_H
/*
 * The BPF graph examples, callable from `kfsim bpf demo` and from the standalone bpf_demo
 * program.  Each runs its BPF-style program through kfsim_bpf_run() and prints what it saw.
 */
#include <stdio.h>
#include <kfsim/bpf_experimental.h>

/**
 * struct kfsim_bpf_example_result - what an example reports
 * @name: example name
 * @violations: rules broken (0 for these examples)
 * @values: example-specific numbers, @nr_values of them, named by @value_names
 * @messages: the verifier's messages of the rules broken, "kfunc: message", @nr_messages of them
 */
struct kfsim_bpf_example_result {
	const char *name;
	int violations;
	int nr_values;
	const char *value_names[8];
	long values[8];
	int nr_messages;
	char messages[8][200];
};

/**
 * kfsim_bpf_example_node_data() - the rbtree cover letter's example: add three nodes, read the
 * first, remove and drop it, read the new first.  Narrative to @out (may be NULL). Return: 0, or a
 * negative errno.
 */
int kfsim_bpf_example_node_data(FILE *out, struct kfsim_bpf_example_result *res,
				const struct kfsim_bpf_run_opts *opts);

/**
 * kfsim_bpf_example_node_data_broken() - node_data's broken variant: the first node is removed
 * after bpf_spin_unlock(), through bpf_rbtree_first()'s non-owning result, which the verifier
 * refuses.  Return: 0 when the rule was reported (as it must be), else a negative errno.
 */
int kfsim_bpf_example_node_data_broken(FILE *out, struct kfsim_bpf_example_result *res,
				       const struct kfsim_bpf_run_opts *opts);

/**
 * kfsim_bpf_example_cgfifo() - a weighted-vtime run queue as sched_ext's scx_simple/cgfifo keep it:
 * tasks ordered by vtime in a bpf_rbtree, each dispatch charges slice * 100 / weight.
 * @rounds: dispatches to simulate
 * Return: 0, or a negative errno.
 */
int kfsim_bpf_example_cgfifo(FILE *out, unsigned int rounds, struct kfsim_bpf_example_result *res);

#endif /* KFSIM_EXAMPLES_BPF_H */
