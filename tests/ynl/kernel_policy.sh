#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# kfsim's specs/ethtool.yaml against the running kernel: the generated policies of the PLCA
# operations must equal the kernel's CTRL_CMD_GETPOLICY dump, attribute by attribute.
# Skips (77) when there is no netlink socket to the kernel or no ethtool family.
set -euo pipefail
prog=$1 report=$2
rm -f "$report"
"$prog" 1 --kernel-policy "$report" > /dev/null
cat "$report"
if grep -q -e 'skipped' -e 'not compared' "$report"; then
	exit 77
fi
grep -q ': 3 ops compared (0 not in the running kernel): [0-9]* attribute policies match, 0 differ, 0 only in the kernel' "$report"
