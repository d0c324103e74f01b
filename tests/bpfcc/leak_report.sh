#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/bpfcc/leak_report.bpf.c natively under kfsim (the rules of 6.16, the release nearest the
# running kernel that kfsim models) and in the running kernel's verifier: the leak reports must
# be the kernel's line for line (the same references, in the same order, at the same
# instructions, the same ids: kfsim counts the verifier's id events at the calls it runs, and
# these programs have no other).
#
# Usage: leak_report.sh OUT_DIR KFSIM_BPF_CC SOURCE
set -euo pipefail
out=$1 bpfcc=$2 src=$3

. "$(dirname "$0")/need_kernel.sh"

rm -rf "$out"
mkdir -p "$out"
"$bpfcc" -o "$out/leak_report" "$src" 2>"$out/build.log" || { cat "$out/build.log"; exit 1; }
"$out/leak_report" --kernel --kver 6.16 | tee "$out/run.txt"

fail() { echo "FAIL: $*"; exit 1; }
grep -q "^leak_report: 3 programs run: 3 agree, 0 static-only, 0 disagree" "$out/run.txt" ||
	fail "kfsim and the kernel disagree"
for prog in leak_two leak_after_drop exit_locked; do
	block=$(awk -v p="$prog" '$2 == p { on = 1; next } on && /^        / { print; next } { on = 0 }' "$out/run.txt")
	native=$(sed -n 's/^        kfsim: *//p' <<<"$block")
	kernel=$(sed -n 's/^        kernel: *//p' <<<"$block")
	[ -n "$native" ] && [ "$native" = "$kernel" ] ||
		fail "$prog: kfsim said '$native', the kernel '$kernel'"
	echo "$prog: both say: $kernel"
done
