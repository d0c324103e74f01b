#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# can_loop / cond_break (may_goto) natively as the kernel runs them: tests/bpfcc/can_loop.bpf.c
# (a bounded search over bpf_rbtree_left/right, endless loops that may_goto ends, a budget per
# frame, nested loops) is loaded in the running kernel and run natively; both must accept every
# program and return the same value.  Then natively in 6.12 mode, where the budget is 8M passes
# instead of a quarter of a second: every program finishes (no CRASH, no HANG).
#
# Usage: can_loop.sh OUT_DIR KFSIM_BPF_CC SOURCE
set -euo pipefail
out=$1 bpfcc=$2 src=$3

. "$(dirname "$0")/need_kernel.sh"
. "$(dirname "$0")/runner_report.sh"

rm -rf "$out"
mkdir -p "$out"
"$bpfcc" -o "$out/can_loop" "$src" 2>"$out/build.log" || { cat "$out/build.log"; exit 1; }
"$out/can_loop" --kernel | tee "$out/run.txt"

fail() { echo "FAIL: $*"; exit 1; }
grep -q "^can_loop: 4 programs run: 4 agree, 0 static-only, 0 disagree" "$out/run.txt" ||
	fail "kfsim and the kernel do not both agree with the annotations"
both_accept_same_retval "$out/run.txt" rbtree_search_can_loop endless_cond_break budget_per_frame nested_loops_sum

# 6.12: BPF_MAX_LOOPS passes per frame (bpf_rbtree_root/left/right are 6.16 kfuncs: not run)
"$out/can_loop" --kver 6.12 endless_cond_break budget_per_frame nested_loops_sum |
	tee "$out/run-6.12.txt"
grep -q "3 programs run: 3 agree" "$out/run-6.12.txt" || fail "6.12 mode: a loop did not end"
! grep -Eq "CRASH|HANG" "$out/run-6.12.txt" || fail "6.12 mode: a run did not finish"
echo "6.12 mode: the 8M-pass budget ends every loop"
