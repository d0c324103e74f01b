#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# kfsim-bpf-cc --sanitize address: the example runs clean under ASan+UBSan, and a plain C bug in
# a BPF program (an array index the verifier would refuse) is caught by ASan at its source line,
# in the child that runs it, which the runner then reports as a program that did not finish.
#
# Usage: asan.sh OUT_DIR KFSIM_BPF_CC SOURCE
set -euo pipefail
out=$1 bpfcc=$2 src=$3

skip() { echo "skipped: $*"; exit 77; }
command -v clang >/dev/null || skip "clang is not installed"
[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux to dump vmlinux.h from"

rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
"$bpfcc" --sanitize address -o "$out/vtime_queue" "$src" 2>"$out/build.log" ||
	{ cat "$out/build.log"; exit 1; }
"$out/vtime_queue" >"$out/example.txt" 2>&1 || { cat "$out/example.txt"; fail "the example under ASan"; }
! grep -q "Sanitizer" "$out/example.txt" || { cat "$out/example.txt"; fail "a sanitizer report"; }
tail -1 "$out/example.txt"

cat >"$out/overflow.bpf.c" <<'PROG'
#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_misc.h"

long slots[4];

SEC("tc")
__success __retval(0)
int slot_overflow(struct __sk_buff *ctx)
{
	int i = ctx->len + 4; /* the verifier refuses the store; natively ctx->len is 0 */

	slots[i & 7] = 1;
	return 0;
}
char _license[] SEC("license") = "GPL";
PROG
cp "$out/vtime_queue.kfsim/vmlinux.h" "$out/" # dumped once, by the first build
"$bpfcc" --sanitize address -I "$out" -o "$out/overflow" "$out/overflow.bpf.c" 2>"$out/build2.log" ||
	{ cat "$out/build2.log"; exit 1; }
status=0
"$out/overflow" >"$out/overflow.txt" 2>&1 || status=$?
grep -E "ERROR: AddressSanitizer|SUMMARY|runtime error|^FAIL" "$out/overflow.txt" || true
[ "$status" = 1 ] || fail "the runner's exit status is $status, not 1"
# the runner hears of the sanitizer stopping the child (its death callback): SANITIZER
# ASan (global-buffer-overflow) or, first in a -fsanitize=bounds build, UBSan
grep -Eq "SUMMARY: AddressSanitizer: global-buffer-overflow .*overflow.bpf.c:13 in slot_overflow|overflow.bpf.c:13:[0-9]+: runtime error: index 4 out of bounds" \
	"$out/overflow.txt" || fail "no sanitizer named overflow.bpf.c:13"
grep -q "^FAIL    slot_overflow .*kfsim SANITIZER" "$out/overflow.txt" || fail "the runner did not report it"
echo "the sanitizers caught the BPF program's overflow at overflow.bpf.c:13"
