#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# A natively built BPF program under gdb: a breakpoint in the example's less() callback (called
# by kfsim's bpf_rbtree_add), a step, and the program's own variables, in the child process
# that runs the SEC() program.
#
# Usage: gdb.sh OUT_DIR KFSIM_BPF_CC SOURCE
set -euo pipefail
out=$1 bpfcc=$2 src=$3

skip() { echo "skipped: $*"; exit 77; }
command -v gdb >/dev/null || skip "gdb is not installed"
command -v clang >/dev/null || skip "clang is not installed"
[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux to dump vmlinux.h from"

rm -rf "$out"
mkdir -p "$out"
"$bpfcc" -O0 -o "$out/vtime_queue" "$src" 2>"$out/build.log" || { cat "$out/build.log"; exit 1; }
timeout 120 gdb -batch -nx -ex 'set follow-fork-mode child' -ex 'set detach-on-fork on' \
	-ex 'break vtime_less' -ex 'run' -ex 'bt 1' -ex 'next' -ex 'print ta->pid' \
	-ex 'print ta->weight' -ex 'info line' --args "$out/vtime_queue" vtime_dispatch \
	>"$out/gdb.txt" 2>&1 || true
cat "$out/gdb.txt"
fail() { echo "FAIL: $*"; exit 1; }
grep -q "Breakpoint 1, vtime_less (a=.*vtime_queue.bpf.c:42" "$out/gdb.txt" ||
	fail "the breakpoint in the BPF program's less() was not hit with its source line"
# the first comparison inserts pid 2 (weight 200) against pid 1
grep -q '^\$1 = 2$' "$out/gdb.txt" || fail "ta->pid is not 2 after the step"
grep -q '^\$2 = 200$' "$out/gdb.txt" || fail "ta->weight is not 200"
grep -q '^Line 43 of ".*vtime_queue.bpf.c"' "$out/gdb.txt" || fail "the step did not reach line 43"
echo "gdb stepped through the BPF program's less() callback"
