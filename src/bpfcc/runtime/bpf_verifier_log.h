/* SPDX-License-Identifier: MIT */
#ifndef KFSIM_BPF_VERIFIER_LOG_H
#define KFSIM_BPF_VERIFIER_LOG_H

/*
 * Reading the running kernel's verifier log, shared by kfsim-bpf-cc's runtime (--kernel) and the
 * BPF verifier oracle test's loader: both report "the verifier's message" the same way.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <bpf/libbpf.h>

/**
 * bpf_verifier_log_message() - the verifier's message in @log: the lines after the last
 * instruction or source line ("12: (85) call ...", "; n->key = 1 @ x.c:3") and before
 * "processed N insns", at most three ("held lock and object are not in the same allocation"
 * and "Unreleased reference ..." have a second line)
 * @out: receives it, tabs as spaces, truncated to @size
 * @escape_newlines: line breaks as the two characters "\n" (one line of output) or kept
 */
void bpf_verifier_log_message(const char *log, char *out, size_t size, bool escape_newlines);

/**
 * bpf_libbpf_last_warning - libbpf's last line above debug level, banners of the program load
 * log ("-- BEGIN PROG LOAD LOG --") left out: the message when a load failed before the verifier
 * ran.  Kept by bpf_libbpf_keep_last(); the loader empties it before each load.  One per
 * process, as libbpf's print callback is.
 */
extern char bpf_libbpf_last_warning[1024];

/** bpf_libbpf_keep_last() - the libbpf_set_print() callback that keeps it. */
int bpf_libbpf_keep_last(enum libbpf_print_level level, const char *fmt, va_list args);

#endif /* KFSIM_BPF_VERIFIER_LOG_H */
