#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Oracle: a KUnit suite from Debian's linux-source-6.12, compiled unchanged with only kfsim's
# compatibility headers on the include path (<kunit/test.h> among them), run as a program that
# prints KTAP.  Every case must pass, or be listed in docs/core.md with its reason and given
# here as an expected failure (XFAIL=<case>,...).
#
# Usage: oracle_kunit.sh CC "CFLAGS" COMPATDIR INCDIR GENINCDIR LIBDIR SRC MODNAME [XFAIL=a,b]
set -euo pipefail
cc=$1 cflags=$2 compat=$3 inc=$4 geninc=$5 libdir=$6 src=$7 mod=$8 xfail=${9:-}
xfail=${xfail#XFAIL=}
source "$(dirname "${BASH_SOURCE[0]}")/oracle_build.sh"
oracle_build "$cc" "$cflags" "$compat" "$inc" "$geninc" "$libdir" "$src" "$mod"
status=0
"$out/$mod" >"$out/ktap" 2>"$out/stderr" || status=$?
cat "$out/ktap" "$out/stderr"
fails=$(grep -E '^ +not ok [0-9]+ ' "$out/ktap" | sed -E 's/^ +not ok [0-9]+ //' | sort -u || true)
expected=$(tr ',' '\n' <<<"$xfail" | grep -v '^$' | sort -u || true)
if [ "$fails" != "$expected" ]; then
	echo "FAIL: failing cases '$(echo $fails)', expected '$(echo $expected)'"
	exit 1
fi
if [ -z "$expected" ] && [ "$status" -ne 0 ]; then
	echo "FAIL: exit status $status"
	exit 1
fi
grep -q '^KTAP version 1$' "$out/ktap" || { echo "FAIL: no KTAP header"; exit 1; }
echo "compared: $(grep -cE '^ +ok [0-9]+ ' "$out/ktap") cases ok, failures as listed: '$(echo $expected)'"
