#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/bpfcc/sections.bpf.c (RCU sections, locks in map values, global functions checked on
# their own), one build and one run: every program must PASS (kfsim agrees with its
# annotations, and the running kernel with kfsim), but for the three direct accesses to special
# fields, which must be STATIC with their rule; the kernel's verdict must be the annotation's
# on every program.  Prints what it compared (the runner's lines), then the count.
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
static_ok="value_lock_read value_head_write kptr_plain_store"
total=0
while read -r result prog _; do
	case $result in PASS | STATIC | FAIL | RAN) ;; *) continue ;; esac
	total=$((total + 1))
	case " $static_ok " in
	*" $prog "*) [ "$result" = STATIC ] || fail "$prog: $result, not static-only" ;;
	*) [ "$result" = PASS ] || fail "$prog: $result" ;;
	esac
done <"$out/run.txt"
want=$(grep -c '^SEC(' "$src")
[ "$total" = "$want" ] || fail "$total programs ran, the file has $want"
grep -A6 '^STATIC  value_lock_read ' "$out/run.txt" | grep -q 'rule:.*special field' ||
	fail "value_lock_read: not reported with its rule"
grep -A6 '^STATIC  kptr_plain_store ' "$out/run.txt" | grep -q 'rule:.*__kptr field' ||
	fail "kptr_plain_store: not reported with its rule"
awk '/^(PASS|STATIC)/ { k = $6; next } /expect:/ { want = ($2 == "__success") ? "ACCEPT" : "REJECT";
	if (k != want) { print "kernel " k " where the annotation says " $2; bad = 1 } }
	END { exit bad }' "$out/run.txt" || fail "the running kernel disagrees with an annotation"
echo "sections: $total programs; kfsim, the annotations and the running kernel agree on each (3 static-only, as expected)"
