#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Oracle: a kernel source file that must NOT compile with a given define (the kernel's own
# build-failure checks, such as lib/test_bits.c's TEST_GENMASK_FAILURES), against kfsim's
# compatibility headers.
#
# Usage: oracle_must_not_compile.sh CC COMPATDIR INCDIR GENINCDIR SRC MODNAME DEFINE WHAT
set -euo pipefail
cc=$1 compat=$2 inc=$3 geninc=$4 src=$5 mod=$6 define=$7 what=$8
tree=${KFSIM_LINUX_TREE:?KFSIM_LINUX_TREE is not set}
if [ ! -r "$tree/$src" ]; then
	echo "skipped: $tree/$src is missing (Debian package linux-source-6.12 not installed)"
	exit 77
fi
# without the define it must compile, so that a failure below is the one asked for
"$cc" -std=gnu11 -funsigned-char -DKBUILD_MODNAME="\"$mod\"" -I"$compat" -I"$inc" -I"$geninc" \
	-c "$tree/$src" -o /dev/null
if "$cc" -std=gnu11 -funsigned-char -D"$define" -DKBUILD_MODNAME="\"$mod\"" -I"$compat" \
	-I"$inc" -I"$geninc" -c "$tree/$src" -o /dev/null 2>/dev/null; then
	echo "FAIL: $src compiled with -D$define: $what was accepted"
	exit 1
fi
echo "compared: $src with -D$define does not compile: $what is refused at build time, as in the kernel"
