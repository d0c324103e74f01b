#!/usr/bin/env bash
# Instructions per get+put pair for the uncontended loops of bench_refcount, counted by
# valgrind --tool=callgrind (inclusive, so GLib's library calls are counted too).  Timings on a
# shared machine wander; instruction counts do not.
#   bench/refcount/callgrind.sh [path/to/bench_refcount] [pairs]
set -euo pipefail
bench=${1:-build/bench/bench_refcount}
pairs=${2:-1000000}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
	"$bench" --only uncontended --iterations "$pairs" --rounds 1 >/dev/null 2>"$out/valgrind.log"
callgrind_annotate --inclusive=yes "$out/cg.out" 2>/dev/null | awk -v pairs="$pairs" '
	/loop_(c11_atomic|kfsim_refcount|glib|urcu|cmpxchg_refcount) \[/ {
		gsub(",", "", $1)
		name = $0; sub(/.*loop_/, "", name); sub(/[ .[(].*/, "", name)
		ir[name] = $1
	}
	END {
		printf "instructions per get+put pair (callgrind, %d pairs):\n", pairs
		split("c11_atomic kfsim_refcount glib urcu cmpxchg_refcount", order, " ")
		for (i = 1; i <= 5; i++) {
			n = order[i]
			if (!(n in ir)) { printf "  %-16s missing\n", n; continue }
			printf "  %-16s %6.2f  %5.3fx C11  %5.3fx kfsim\n", n, ir[n] / pairs,
			       ir[n] / ir["c11_atomic"], ir[n] / ir["kfsim_refcount"]
		}
	}'
