/* SPDX-License-Identifier: MIT */
/* What each half of the benchmark exports: set up @nr nodes, run @iters cycles, tear down. */
#ifndef KFSIM_BENCH_BPF_HALF_H
#define KFSIM_BENCH_BPF_HALF_H
#include <kfsim/types.h>

#define BENCH_DELTAS 4096

/* Return: ns per cycle, or a negative value when a rule was broken. */
double bench_checked(u32 nr, u64 iters, const u64 *keys, const u64 *deltas);
double bench_unchecked(u32 nr, u64 iters, const u64 *keys, const u64 *deltas);
#endif
