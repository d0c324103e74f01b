#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The installed kfsim-bpf-cc (with the compatibility headers and the runner it installs) builds
# the example from outside the build tree, and the installed `kfsim bpf test` finds it.
#
# Usage: install.sh BUILD_DIR OUT_DIR SOURCE
set -euo pipefail
build=$1 out=$2 src=$3

skip() { echo "skipped: $*"; exit 77; }
command -v clang >/dev/null || skip "clang is not installed"
[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux to dump vmlinux.h from"

rm -rf "$out"
cmake --install "$build" --prefix "$out/prefix" >"$out.install.log" 2>&1 ||
	{ cat "$out.install.log"; exit 1; }
"$out/prefix/bin/kfsim-bpf-cc" -o "$out/vtime_queue" "$src" 2>"$out/build.log" ||
	{ cat "$out/build.log"; exit 1; }
"$out/vtime_queue" | tee "$out/run.txt" | tail -1
grep -q "3 agree, 0 static-only, 0 disagree" "$out/run.txt"
libs=$(ldd "$out/vtime_queue")
grep -q "$out/prefix/.*libkfsim.so" <<<"$libs" ||
	{ echo "FAIL: not linked with the installed libkfsim"; exit 1; }
"$out/prefix/bin/kfsim" bpf test -I "$out/vtime_queue.kfsim" "$src" arrivals_fifo | tail -1
echo "the installed kfsim-bpf-cc and kfsim bpf test work"
