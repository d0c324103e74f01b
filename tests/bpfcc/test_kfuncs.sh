#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The selftests' test kfuncs (issue #28): kfsim-bpf-cc refuses bpf_kfunc_call_test_acquire and
# bpf_kfunc_call_test_release by name, with where each lives, and the running kernel agrees that
# the program cannot run: its BTF has bpf_kfunc_call_test_release (net/bpf/test_run.c) but not
# bpf_kfunc_call_test_acquire (the bpf_testmod module), so libbpf cannot load the program.
#
# Usage: test_kfuncs.sh OUT_DIR KFSIM_BPF_CC SOURCE
set -euo pipefail
out=$1 bpfcc=$2 src=$3

. "$(dirname "$0")/need_kernel.sh"

rm -rf "$out"
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

status=0
"$bpfcc" -o "$out/test_kfuncs" "$src" 2>"$out/build.log" || status=$?
cat "$out/build.log"
[ "$status" = 1 ] || fail "kfsim-bpf-cc exited $status, want 1"
[ ! -e "$out/test_kfuncs" ] || fail "kfsim-bpf-cc left a program behind"
grep -q "test_kfuncs.bpf.c:18: kfunc bpf_kfunc_call_test_acquire is not provided by kfsim: .*bpf_testmod" \
	"$out/build.log" || fail "no refusal of bpf_kfunc_call_test_acquire naming bpf_testmod"
grep -q "test_kfuncs.bpf.c:22: kfunc bpf_kfunc_call_test_release is not provided by kfsim: .*net/bpf/test_run.c" \
	"$out/build.log" || fail "no refusal of bpf_kfunc_call_test_release naming net/bpf/test_run.c"

# the running kernel: which of the two its BTF (vmlinux and loaded modules) has
has_kfunc() {
	for btf in /sys/kernel/btf/*; do
		bpftool btf dump file "$btf" 2>/dev/null | grep -F "FUNC '$1'" >/dev/null && return 0
	done
	return 1
}
has_kfunc bpf_kfunc_call_test_release || fail "the running kernel has no bpf_kfunc_call_test_release"
if has_kfunc bpf_kfunc_call_test_acquire; then
	echo "skipped: bpf_testmod is loaded: the running kernel has bpf_kfunc_call_test_acquire"
	exit 77
fi
echo "kernel: bpf_kfunc_call_test_release in its BTF, bpf_kfunc_call_test_acquire not"

# and it cannot load the program (the same source, built for BPF as kfsim-bpf-cc builds it)
bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$out/vmlinux.h"
compat=$(dirname "$0")/../../include/bpf-compat
clang=$(command -v clang-19 || command -v clang-16 || command -v clang)
"$clang" -g -O2 -target bpf -D__TARGET_ARCH_x86 -I "$out" -I "$compat" -I "$compat/.." \
	-c "$src" -o "$out/test_kfuncs.bpf.o"
status=0
bpftool prog load "$out/test_kfuncs.bpf.o" /sys/fs/bpf/kfsim_test_kfuncs_$$ 2>"$out/load.log" ||
	status=$?
rm -f /sys/fs/bpf/kfsim_test_kfuncs_$$
[ "$status" != 0 ] || fail "the running kernel loaded the program"
grep -m1 "bpf_kfunc_call_test_acquire" "$out/load.log" ||
	fail "the kernel's refusal does not name bpf_kfunc_call_test_acquire: $(tail -3 "$out/load.log")"
echo "test_kfuncs: kfsim-bpf-cc and the running kernel both refuse the program"
