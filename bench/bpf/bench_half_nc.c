// SPDX-License-Identifier: MIT
/* The unchecked half: bench_half.c compiled with KFSIM_BPF_NO_CHECKS (set by CMake). */
#include "bench_half.c"
