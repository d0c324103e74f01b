#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# examples/bpf/vtime_queue.bpf.c, a BPF C file of our own, both in the running kernel (loaded and
# test-run with BPF_PROG_TEST_RUN) and natively under kfsim: the same verdicts, the same return
# values (the dispatch order), and what the annotations say.  `kfsim bpf test` gives the same.
#
# Usage: example.sh OUT_DIR KFSIM_BPF_CC KFSIM SOURCE
set -euo pipefail
out=$1 bpfcc=$2 kfsim=$3 src=$4

. "$(dirname "$0")/need_kernel.sh"
. "$(dirname "$0")/runner_report.sh"

rm -rf "$out"
mkdir -p "$out"
"$bpfcc" -o "$out/vtime_queue" "$src" 2>"$out/build.log" || { cat "$out/build.log"; exit 1; }
"$out/vtime_queue" --kernel | tee "$out/run.txt"

fail() { echo "FAIL: $*"; exit 1; }
grep -q "^vtime_queue: 3 programs run: 3 agree, 0 static-only, 0 disagree" "$out/run.txt" ||
	fail "kfsim and the kernel do not both agree with the annotations"
both_accept_same_retval "$out/run.txt" vtime_dispatch arrivals_fifo
leak=$(grep -A3 "^PASS    dispatch_leaks_task" "$out/run.txt" || true)
grep -q "kfsim REJECT  kernel REJECT" <<<"$leak" ||
	fail "dispatch_leaks_task: the leak is not refused by both"

# the same through the CLI verb, in a temporary directory that it removes
"$kfsim" bpf test "$src" vtime_dispatch >"$out/cli.txt" || fail "kfsim bpf test failed"
grep -q "1 programs run: 1 agree" "$out/cli.txt" || fail "kfsim bpf test: $(cat "$out/cli.txt")"
echo "kfsim bpf test: $(tail -1 "$out/cli.txt")"
