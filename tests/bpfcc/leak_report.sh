#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# tests/bpfcc/leak_report.bpf.c natively under kfsim (the rules of 6.16, the release nearest the
# running kernel that kfsim models) and in the running kernel's verifier: the leak reports must
# be the kernel's line for line (the same references, in the same order, at the same
# instructions, the same ids: kfsim counts the verifier's id events at the calls it runs, and
# these programs have no other), except leak_after_scalar_copy, the listed difference, whose id
# the verifier's scalar-copy id moves on by one.
#
# Usage: leak_report.sh OUT_DIR KFSIM_BPF_CC SOURCE
set -euo pipefail
out=$1 bpfcc=$2 src=$3

. "$(dirname "$0")/need_kernel.sh"
. "$(dirname "$0")/runner_report.sh"

rm -rf "$out"
mkdir -p "$out"
"$bpfcc" -o "$out/leak_report" "$src" 2>"$out/build.log" || { cat "$out/build.log"; exit 1; }
# exit status 1: leak_after_scalar_copy FAILs, as expected; everything is checked below
"$out/leak_report" --kernel --kver 6.16 >"$out/run.txt" || true
cat "$out/run.txt"

fail() { echo "FAIL: $*"; exit 1; }
block() { prog_block "$1" "$out/run.txt"; }
said() { sed -n "s/^        $1: *//p"; }
grep -q "^leak_report: 10 programs run: 9 agree, 0 static-only, 1 disagree" "$out/run.txt" ||
	fail "expected 9 programs to agree and leak_after_scalar_copy to differ in its id only"
for prog in leak_two leak_after_drop leak_in_less leak_in_less3 exit_locked leak_removed leak_popped \
	leak_unrolled leak_unrolled_const; do
	b=$(block "$prog")
	native=$(said kfsim <<<"$b") kernel=$(said kernel <<<"$b")
	[ -n "$native" ] && [ "$native" = "$kernel" ] ||
		fail "$prog: kfsim said '$native', the kernel '$kernel'"
	echo "$prog: both say: $kernel"
done

# The listed difference (docs/bpf-graph.md): the verifier's id counter also moves at the scalar
# copy clang emits before the call, so the kernel's id is kfsim's plus one; nothing else differs.
b=$(block leak_after_scalar_copy)
grep -q "kfsim REJECT  kernel REJECT" <<<"$b" || fail "leak_after_scalar_copy: not refused by both"
native=$(said kfsim <<<"$b") kernel=$(said kernel <<<"$b")
[ "$(sed 's/id=[0-9]*/id=N/' <<<"$native")" = "$(sed 's/id=[0-9]*/id=N/' <<<"$kernel")" ] ||
	fail "leak_after_scalar_copy: kfsim said '$native', the kernel '$kernel'"
nid=$(sed 's/.*reference id=\([0-9]*\).*/\1/' <<<"$native")
kid=$(sed 's/.*reference id=\([0-9]*\).*/\1/' <<<"$kernel")
[ "$kid" = $((nid + 1)) ] || fail "leak_after_scalar_copy: kernel id $kid, kfsim id $nid (expected one more)"
echo "leak_after_scalar_copy: listed difference: the kernel's id is $kid, kfsim's $nid (the scalar copy's id); the rest is the same: $kernel"
