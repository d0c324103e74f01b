#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench/netlink/run.sh BENCH [ITERATIONS [ROUNDS]]: the timings of bench_netlink (median and
# range over rounds, ratios measured in the same rounds), then, when valgrind is installed,
# callgrind's instruction count per operation of each parser (--toggle-collect on the
# function; the robust figure on a shared machine).
set -euo pipefail
if [ $# -lt 1 ] || [ "$1" = --help ] || [ "$1" = -h ]; then
	echo "usage: bench/netlink/run.sh BUILD/bench/netlink/bench_netlink [ITERATIONS [ROUNDS]]"
	echo "  prints ns/op (median, range) and ratios against libnl-3 and libmnl, then callgrind"
	echo "  instructions per operation of each parser (needs valgrind)"
	[ $# -ge 1 ] && exit 0
	exit 2
fi
bench=$1
"$bench" "${2:-2000000}" "${3:-7}"
if ! command -v valgrind > /dev/null; then
	echo "callgrind: valgrind is not installed, no instruction counts"
	exit 0
fi
n=20000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "callgrind instructions per operation ($n iterations, 1 round):"
for fn in kfsim_parse bench_libnl_parse libmnl_parse build; do
	valgrind --tool=callgrind --toggle-collect="$fn" --callgrind-out-file="$tmp/cg.$fn" \
		"$bench" "$n" 1 > /dev/null 2>&1
	ir=$(callgrind_annotate "$tmp/cg.$fn" 2> /dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
	# kfsim_parse runs in two cases (with and without build), the others in one; each parser
	# also ran a few times in the start-up check
	calls=$n
	[ "$fn" = kfsim_parse ] && calls=$((2 * n))
	echo "  $fn: $((ir / calls)) instructions/op"
done
