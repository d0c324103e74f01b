#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The oracle for the BPF graph part: the running kernel's verifier.  At test time, in the build
# tree: dump vmlinux.h from the running kernel's BTF, compile the kernel's graph selftest
# programs (6.12, from KFSIM_LINUX_TREE) with clang -target bpf, load each program alone with
# bpf_oracle_load (libbpf) to get the verifier's verdict and message, then let bpf_oracle run
# kfsim's versions and compare (it prints the table and fails on an unlisted disagreement).
#
# Usage: bpf_verifier_oracle.sh OUT_DIR BPF_ORACLE_LOAD BPF_ORACLE
set -euo pipefail
out=$1 loader=$2 oracle=$3
objects=(rbtree rbtree_fail linked_list linked_list_fail refcounted_kptr refcounted_kptr_fail
	rbtree_btf_fail__add_wrong_type rbtree_btf_fail__wrong_node_type)

skip() { echo "skipped: $*"; exit 77; }
[ -n "$loader" ] || skip "libbpf is not installed (Debian package libbpf-dev)"
[ "$(id -u)" = 0 ] || skip "loading BPF programs needs root"
[ -r /sys/kernel/btf/vmlinux ] || skip "the running kernel has no BTF (/sys/kernel/btf/vmlinux)"
command -v clang >/dev/null || skip "clang is not installed"
command -v bpftool >/dev/null || skip "bpftool is not installed"
clang -print-targets 2>/dev/null | grep -w bpf >/dev/null || skip "clang has no bpf target"
selftests=${KFSIM_LINUX_TREE:?KFSIM_LINUX_TREE is not set (the oracle/linux-source fixture sets it)}/tools/testing/selftests/bpf
[ -d "$selftests/progs" ] || skip "$selftests/progs was not unpacked (Debian package linux-source-6.12)"

mkdir -p "$out"
bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$out/vmlinux.h"
echo "running kernel: $(uname -r); $(clang --version | head -1); $(bpftool version | head -1)"
objs=()
for o in "${objects[@]}"; do
	clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -I"$out" -I"$selftests/progs" -I"$selftests" \
		-Wno-compare-distinct-pointer-types -c "$selftests/progs/$o.c" -o "$out/$o.bpf.o"
	objs+=("$out/$o.bpf.o")
done
"$loader" "${objs[@]}" >"$out/kernel.tsv"
exec "$oracle" --kernel "$out/kernel.tsv" --kver 6.16
