/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_CLI_BPF_TEST_H
#define KFSIM_CLI_BPF_TEST_H
/*
 * kfsim bpf test [-I DIR]... [-D NAME[=V]]... [--keep DIR] [--kernel] [--timeout S] PROG.c
 *                [NAME...]
 * Build PROG.c with kfsim-bpf-cc and run it (cli_bpf_test.c).  @argv[0] is "test".
 */
int kfsim_bpf_test_cmd(int argc, char **argv);

#endif /* KFSIM_CLI_BPF_TEST_H */
