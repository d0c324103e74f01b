#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `kfsim nl policy --family ethtool --op N` for the PLCA ops (39 get-cfg, 40 set-cfg, 41
# get-status) must print exactly what the running kernel's nlctrl prints with --kernel: the same
# policy index for do and dump (one shared table, as in net/ethtool), the same attributes.
# Skips (77) when the running kernel cannot be asked (no netlink socket, no ethtool family).
set -euo pipefail
kfsim=$1 out=$2
mkdir -p "$out"
# kfsim answers as the release it follows: the header policy gained PHY_INDEX in 6.11, so ask it
# to follow the running kernel's release.
kver=$(uname -r | grep -o '^[0-9]*\.[0-9]*')
for op in 39 40 41; do
	if ! "$kfsim" nl policy --family ethtool --op "$op" --kernel > "$out/kernel-$op.txt" \
		2> "$out/kernel-$op.err"; then
		echo "SKIP: the running kernel's ethtool policy for op $op: $(cat "$out/kernel-$op.err")"
		exit 77
	fi
	"$kfsim" --kver "$kver" nl policy --family ethtool --op "$op" > "$out/kfsim-$op.txt"
	if ! diff -u "$out/kernel-$op.txt" "$out/kfsim-$op.txt"; then
		echo "FAIL: op $op differs from the running kernel (- kernel, + kfsim)"
		exit 1
	fi
	echo "op $op: same as the running kernel: $(sed -n 2p "$out/kfsim-$op.txt")"
done
