#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Where the runner reports a broken rule (tests/bpfcc/locate.bpf.c): the program's own line
# ("at: locate.bpf.c:N", the lines marked "at:"), not a line of a header in another directory or
# of the runner itself, and the verdicts that follow from it; built from the program's directory
# with a relative path, and the same output run from two other directories.
#
# Usage: locate.sh OUT_DIR KFSIM_BPF_CC SOURCE HELPER_DIR
set -euo pipefail
out=$(realpath -m "$1") bpfcc=$(realpath "$2") src=$(realpath "$3") helper=$(realpath "$4")

skip() { echo "skipped: $*"; exit 77; }
command -v clang >/dev/null || skip "clang is not installed"
[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux to dump vmlinux.h from"
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$out"
mkdir -p "$out/src" "$out/elsewhere"
# a copy in a directory that does not hold the helper's header
cp "$src" "$out/src/locate.bpf.c"
(cd "$out/src" && "$bpfcc" -o ../locate -I "$helper" locate.bpf.c) \
	>"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
(cd "$out/elsewhere" && ../locate) | tee "$out/run.txt"
(cd / && "$out/locate") >"$out/run-from-root.txt"
cmp -s "$out/run.txt" "$out/run-from-root.txt" ||
	fail "the output depends on the directory the program runs from"

grep -Eq '^locate: ([0-9]+) programs run: \1 agree, 0 static-only, 0 disagree' "$out/run.txt" ||
	fail "not every program agrees with its annotation"
want=$(grep -n '/\* at: \*/' "$src" | cut -d: -f1 | sed 's/^/locate.bpf.c:/')
got=$(awk '$1 == "at:" { print $2 }' "$out/run.txt")
[ "$got" = "$want" ] || fail "at: lines $(echo $got), want $(echo $want)"
echo "locate: every violation is located at the program's own line"
