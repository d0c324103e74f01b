#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/bpfcc/sections.bpf.c (RCU sections, locks in map values, global functions checked on
# their own), one build and one run: every program must PASS (kfsim agrees with its
# annotations, and the running kernel with kfsim), the three direct accesses to special fields
# of map values included (kfsim-bpf-cc finds them in the BPF object's types since 2026-12-07;
# they were static-only before); the kernel's verdict must be the annotation's on every
# program.  Prints what it compared (the runner's lines), then the count.
#
# Usage: sections.sh OUT_DIR KFSIM_BPF_CC SOURCE
set -euo pipefail
out=$1 bpfcc=$2 src=$3

. "$(dirname "$0")/need_kernel.sh"

rm -rf "$out"
mkdir -p "$out"
"$bpfcc" -o "$out/sections" "$src" 2>"$out/build.log" || { cat "$out/build.log"; exit 1; }
"$out/sections" --kernel --kver 6.18 | tee "$out/run.txt"

fail() { echo "FAIL: $*"; exit 1; }
total=0
while read -r result prog _; do
	case $result in PASS | STATIC | FAIL | RAN) ;; *) continue ;; esac
	total=$((total + 1))
	[ "$result" = PASS ] || fail "$prog: $result"
done <"$out/run.txt"
want=$(grep -c '^SEC(' "$src")
[ "$total" = "$want" ] || fail "$total programs ran, the file has $want"
awk '/^(PASS|STATIC)/ { k = $6; next } /expect:/ { want = ($2 == "__success") ? "ACCEPT" : "REJECT";
	if (k != want) { print "kernel " k " where the annotation says " $2; bad = 1 } }
	END { exit bad }' "$out/run.txt" || fail "the running kernel disagrees with an annotation"
echo "sections: $total programs; kfsim, the annotations and the running kernel agree on each"
