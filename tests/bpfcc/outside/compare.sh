#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Differential comparison of BPF C files with the running kernel's verifier as referee: each
# file is built with kfsim-bpf-cc and run with --kernel --kver KVER, and per file the script
# prints how many programs ran, on how many kfsim's verdict is the kernel's, and on how many the
# verdict and the first message are (a refusal: kfsim's message the kernel's character for
# character, leak lines included; an acceptance: the runner compares the return values), then
# every program where they differ, with both messages.  Not a CI test: the programs of this
# directory disagree with the kernel on purpose (docs/bpf-graph.md, "The third round" to "The
# fifth round"); it is how those sections' figures were measured.  Files other than ours (a kernel selftest from
# /usr/src/linux-source-*, read in place) may be given too; -I DIR is passed to kfsim-bpf-cc.
#
# Usage: compare.sh KFSIM_BPF_CC OUT_DIR [KVER] [--mcpu CPU] [-I DIR]... FILE...
set -euo pipefail
bpfcc=$1 out=$2
shift 2
kver=6.18
if [[ ${1:-} =~ ^[0-9]+\.[0-9]+$ ]]; then kver=$1; shift; fi
inc=()
if [ "${1:-}" = --mcpu ]; then inc+=(--mcpu "$2"); shift 2; fi
while [ "${1:-}" = -I ]; do inc+=(-I "$2"); shift 2; done

. "$(dirname "$0")/../need_kernel.sh"
mkdir -p "$out"
total=0 verdict=0 message=0
for src in "$@"; do
	name=$(basename "$src" .c)
	name=${name%.bpf}
	if ! "$bpfcc" "${inc[@]}" -o "$out/$name" "$src" >"$out/$name.build.log" 2>&1; then
		echo "$name: not built"
		grep -iE 'error|not provided' "$out/$name.build.log" | head -5
		continue
	fi
	"$out/$name" --kernel --kver "$kver" >"$out/$name.out" 2>&1 || true
	read -r n v m < <(awk -v F="$name" -v diffs="$out/$name.diffs" '
		function done() {
			n++
			if (kv == kk) { v++; if (kv == "ACCEPT" || km == ks) { m++; return } }
			printf "  %-44s kfsim %s [%s]  kernel %s [%s]\n", name, kv, km, kk, ks > diffs
		}
		/^(PASS|FAIL|STATIC|RAN|CRASH|HANG)/ { if (name) done(); name = $2; kv = $4; kk = $6; km = ""; ks = ""; next }
		/^        kfsim: / { sub(/^        kfsim: +/, ""); km = $0; next }
		/^        kernel: / { sub(/^        kernel: +/, ""); ks = $0; next }
		END { if (name) done(); print n + 0, v + 0, m + 0 }' "$out/$name.out")
	printf '%-24s %3d programs: verdict agrees %3d, verdict and first message %3d\n' "$name" "$n" "$v" "$m"
	[ ! -s "$out/$name.diffs" ] || cat "$out/$name.diffs"
	rm -f "$out/$name.diffs"
	total=$((total + n)) verdict=$((verdict + v)) message=$((message + m))
done
echo "all: $total programs, verdict agrees $verdict, verdict and first message $message" \
	"(kernel $(uname -r), kfsim --kver $kver)"
