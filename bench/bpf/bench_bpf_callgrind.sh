#!/bin/sh
# Instruction counts per cycle of each bench_bpf variant (timings on a shared machine are noisy):
#   bench/bpf/bench_bpf_callgrind.sh build/bench/bpf/bench_bpf [iters]
# Each timed loop is its own function; callgrind counts only inside it.
set -e
bench=${1:?usage: $0 path/to/bench_bpf [iters]}
iters=${2:-20000}
ir() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect="$1" \
		"$bench" --iters "$iters" --reps 1 2>&1 >/dev/null |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
raw=$(ir "raw_loop*")
nc=$(ir "nc_loop*")
ck=$(ir "ck_loop*")
echo "instructions per cycle ($iters cycles, both raw variants in raw_loop):"
awk -v r="$raw" -v n="$nc" -v c="$ck" -v i="$iters" 'BEGIN {
	r /= 2 * i; n /= i; c /= i;
	printf "  raw rb_*_cached (mean of plain and locked) %8.1f Ir  1.00x\n", r;
	printf "  kfsim bpf_rbtree, checks compiled out      %8.1f Ir  %.2fx\n", n, n / r;
	printf "  kfsim bpf_rbtree, checks on                %8.1f Ir  %.2fx\n", c, c / r;
}'
