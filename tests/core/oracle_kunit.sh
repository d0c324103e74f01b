#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Oracle: a KUnit suite from Debian's linux-source-6.12, compiled unchanged with only kfsim's
# compatibility headers on the include path (<kunit/test.h> among them), run as a program that
# prints KTAP.  Every case must pass, or be listed in docs/core.md with its reason and given
# here as an expected failure (XFAIL=<case>,...).
#
# Compiled with the kernel's own code-generation flags that change C semantics (-funsigned-char
# since 6.2, -fno-strict-aliasing).
# Usage: oracle_kunit.sh CC "CFLAGS" COMPATDIR INCDIR GENINCDIR LIBDIR SRC MODNAME [XFAIL=a,b]
set -euo pipefail
cc=$1 cflags=$2 compat=$3 inc=$4 geninc=$5 libdir=$6 src=$7 mod=$8 xfail=${9:-}
xfail=${xfail#XFAIL=}
tree=${KFSIM_LINUX_TREE:?KFSIM_LINUX_TREE is not set}
if [ ! -r "$tree/$src" ]; then
	echo "skipped: $tree/$src is missing (Debian package linux-source-6.12 not installed)"
	exit 77
fi
out=$(mktemp -d "${TMPDIR:-/tmp}/kfsim-kunit-$mod.XXXXXX")
trap 'rm -rf "$out"' EXIT
echo "== compiling $src unchanged with -I<compat> only"
# shellcheck disable=SC2086
"$cc" -std=gnu11 -Wall -Werror -funsigned-char -fno-strict-aliasing $cflags -DKBUILD_MODNAME="\"$mod\"" -I"$compat" -I"$inc" \
	-I"$geninc" "$tree/$src" -o "$out/$mod" -L"$libdir" -Wl,-rpath,"$libdir" -lkfsim -lm
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
