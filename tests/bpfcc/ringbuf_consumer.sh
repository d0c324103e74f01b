#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The ring buffer as a userspace consumer reads it: the runner's -v reads every ring after each
# invocation (src/bpfcc/runtime/bpfrt_ringbuf.c, kfsim_bpfrt_ringbuf_consume()).  Committed
# records come in reservation order with their data, discarded ones not at all, and records
# that wrap past the ring's end (wrap_ring's second invocation) whole.
#
# Usage: ringbuf_consumer.sh OUT_DIR KFSIM_BPF_CC SOURCE
set -euo pipefail
out=$1 bpfcc=$2 src=$3
rm -rf "$out"
mkdir -p "$out"
"$bpfcc" -o "$out/ringbuf" "$src" 2>"$out/build.log" || { cat "$out/build.log"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
run() { "$out/ringbuf" --kver 6.18 -v "$1" >"$out/$1.txt" 2>&1 || fail "$1: the run failed"; }

run reserve_submit # struct ev {7, 1, 2}, twice (two invocations)
want="ringbuf rb: record of 16 bytes: 07 00 00 00 01 00 00 00 02 00 00 00 00 00 00 00"
[ "$(grep -c "$want" "$out/reserve_submit.txt")" = 2 ] || fail "reserve_submit: records"

run reserve_discard
! grep -q "ringbuf rb: record" "$out/reserve_discard.txt" || fail "a discarded record was read"

run two_records # b is submitted first, a is read first: the ring's order is reservation's
grep -o "record of 8 bytes: 0[12]" "$out/two_records.txt" | head -2 | tr '\n' ' ' |
	grep -q "record of 8 bytes: 01 record of 8 bytes: 02" || fail "two_records: order"

run wrap_ring # 2 x 40 records of 64 bytes (72 in the ring): the second 40 wrap at 4096
n=$(grep -c "record of 64 bytes: .* 5a 00 00 00 00 00 00 00$" "$out/wrap_ring.txt" || true)
[ "$n" = 80 ] || fail "wrap_ring: $n whole records of 80"
[ "$(grep "record of 64 bytes" "$out/wrap_ring.txt" | tail -1 | awk '{print $7}')" = 27 ] ||
	fail "wrap_ring: the last record is not the 40th"
echo "ringbuf consumer: 4 programs, the records as the kernel's layout gives them"
