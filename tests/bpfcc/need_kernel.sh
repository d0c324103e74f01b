# SPDX-License-Identifier: MIT
# Sourced by the bpfcc tests that ask the running kernel: exit 77 ("skipped: why") when it cannot
# be asked (not root, no BTF, no clang or bpftool).
skip() { echo "skipped: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "loading BPF programs in the kernel needs root"
[ -r /sys/kernel/btf/vmlinux ] || skip "the running kernel has no BTF (/sys/kernel/btf/vmlinux)"
command -v clang >/dev/null || skip "clang is not installed"
command -v bpftool >/dev/null || skip "bpftool is not installed"
