/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_VERIFIER_LOG_H
#define KFSIM_BPF_VERIFIER_LOG_H

/*
 * Reading the running kernel's verifier log, shared by kfsim-bpf-cc's runtime (--kernel) and the
 * BPF verifier oracle test's loader: both report "the verifier's message" the same way.
 */
#include <stdbool.h>
#include <stddef.h>

/**
 * bpf_verifier_log_message() - the verifier's message in @log: the lines after the last
 * instruction or source line ("12: (85) call ...", "; n->key = 1 @ x.c:3") and before
 * "processed N insns", at most three ("held lock and object are not in the same allocation"
 * and "Unreleased reference ..." have a second line)
 * @out: receives it, tabs as spaces, truncated to @size
 * @escape_newlines: line breaks as the two characters "\n" (one line of output) or kept
 */
void bpf_verifier_log_message(const char *log, char *out, size_t size, bool escape_newlines);

#endif /* KFSIM_BPF_VERIFIER_LOG_H */
