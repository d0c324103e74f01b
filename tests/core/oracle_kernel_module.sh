#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Oracle: a kernel self-test module from Debian's linux-source-6.12 (lib/rbtree_test.c,
# lib/interval_tree_test.c), compiled unchanged with only kfsim's compatibility headers on the
# include path, run as a program (its module_init runs; its module_params come from the
# command line), judged as the kernel judges it: no WARN, and init ends with -EAGAIN as these
# tests do on purpose ("Fail will directly unload the module"; lib/test-kstrtox.c uses -EINVAL).
#
# Usage: oracle_kernel_module.sh CC "CFLAGS" COMPATDIR INCDIR GENINCDIR LIBDIR SRC MODNAME \
#                                INSMOD_REASON EXPECT_LINE... -- ARGS...
set -euo pipefail
cc=$1 cflags=$2 compat=$3 inc=$4 geninc=$5 libdir=$6 src=$7 mod=$8 reason=$9
shift 9
expect=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do expect+=("$1"); shift; done
[ $# -gt 0 ] && shift
source "$(dirname "${BASH_SOURCE[0]}")/oracle_build.sh"
oracle_build "$cc" "$cflags" "$compat" "$inc" "$geninc" "$libdir" "$src" "$mod"
echo "== running: $mod $*"
status=0
"$out/$mod" "$@" >"$out/stdout" 2>"$out/stderr" || status=$?
cat "$out/stderr"
if grep -q "WARNING: CPU\|kernel BUG at\|Kernel panic" "$out/stderr"; then
	echo "FAIL: the kernel's checks fired"
	exit 1
fi
if [ "$status" -ne 2 ] ||
   ! grep -qx "insmod: ERROR: could not insert module $mod.ko: $reason" "$out/stderr"; then
	echo "FAIL: exit status $status; the module's init must fail with '$reason'"
	exit 1
fi
for line in "${expect[@]}"; do
	if ! grep -qE -- "$line" "$out/stderr"; then
		echo "FAIL: no log line matching: $line"
		exit 1
	fi
	echo "compared: a log line matches '$line'"
done
echo "oracle: $src passed unchanged (its checks ran silent, init failed as intended: $reason)"
