#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# One BPF C file of our own, loaded program by program in the running kernel and run natively:
# every program must PASS (kfsim agrees with its annotations, and the kernel's verdict with
# kfsim's), and the kernel must have been asked.  The programs say what rule each one checks.
#
# Usage: agree.sh OUT_DIR KFSIM_BPF_CC SOURCE [--mcpu CPU] [--optimize LEVEL] [RUNNER OPTIONS...]
set -euo pipefail
out=$1 bpfcc=$2 src=$3
shift 3
build=()
while [ "${1:-}" = --mcpu ] || [ "${1:-}" = --optimize ]; do build+=("$1" "$2"); shift 2; done

. "$(dirname "$0")/need_kernel.sh"

name=$(basename "$src" .bpf.c)
rm -rf "$out"
mkdir -p "$out"
"$bpfcc" "${build[@]}" -o "$out/$name" "$src" 2>"$out/build.log" || { cat "$out/build.log"; exit 1; }
"$out/$name" --kernel "$@" | tee "$out/run.txt"

fail() { echo "FAIL: $*"; exit 1; }
grep -Eq "^$name: ([0-9]+) programs run: \\1 agree, 0 static-only, 0 disagree, 0 without" \
	"$out/run.txt" || fail "$name: not every program agrees"
# the kernel's verdict is the annotation's on every program (kfsim's is checked by PASS)
awk '/^PASS/ { k = $6; want = ""; next } /expect:/ { want = ($2 == "__success") ? "ACCEPT" : "REJECT";
	if (k != want) { print "kernel " k " where the annotation says " $2; bad = 1 } }
	END { exit bad }' "$out/run.txt" || fail "$name: the running kernel disagrees with an annotation"
echo "$name: kfsim, the annotations and the running kernel agree on every program"
