// SPDX-License-Identifier: MIT
/*
 * bpf_demo: the BPF graph examples as a standalone program linked against an installed kfsim.
 * Usage: bpf_demo [node_data|cgfifo] (both when no argument).
 */
#include <string.h>
#include "bpf_examples.h"

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";
	int err = 0;

	if (!strcmp(which, "node_data") || !strcmp(which, "all"))
		err |= kfsim_bpf_example_node_data(stdout, NULL, NULL);
	if (!strcmp(which, "cgfifo") || !strcmp(which, "all"))
		err |= kfsim_bpf_example_cgfifo(stdout, 1000, NULL);
	return err ? 1 : 0;
}
