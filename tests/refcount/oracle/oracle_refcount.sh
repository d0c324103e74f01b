#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Oracle: the kernel's own refcount_t (include/linux/refcount.h, refcount_types.h and
# lib/refcount.c of Debian's linux-source-6.12), compiled unchanged against kfsim's compatibility
# headers for everything else (atomic_t, WARN, spinlock_t, struct mutex), run side by side with
# kfsim's refcount_t on every corner case of oracle_refcount.c.
#
# The kernel's two headers are copied into a private folder that comes before the compatibility
# headers on the include path (there, <linux/refcount.h> would be kfsim's), and lib/refcount.c's
# exported functions are renamed kernel_* with -D so they cannot interpose on libkfsim's.
#
# Usage: oracle_refcount.sh CC "CFLAGS" COMPATDIR INCDIR GENINCDIR LIBDIR
set -euo pipefail
cc=$1 cflags=$2 compat=$3 inc=$4 geninc=$5 libdir=$6
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tree=${KFSIM_LINUX_TREE:?KFSIM_LINUX_TREE is not set}
for f in Makefile include/linux/refcount.h include/linux/refcount_types.h lib/refcount.c; do
	if [ ! -r "$tree/$f" ]; then
		echo "skipped: $tree/$f is missing (Debian package linux-source-6.12 not installed)"
		exit 77
	fi
done
version=$(awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 } /^SUBLEVEL =/ { s = $3 }
	END { print v "." p "." s }' "$tree/Makefile")
out=$(mktemp -d "${TMPDIR:-/tmp}/kfsim-oracle-refcount.XXXXXX")
trap 'rm -rf "$out"' EXIT
mkdir -p "$out/kernel/linux"
cp "$tree/include/linux/refcount.h" "$tree/include/linux/refcount_types.h" "$out/kernel/linux/"

# The kernel's code-generation flags that change C semantics: wrapping signed arithmetic
# (-fno-strict-overflow, which refcount.h's "old + i < 0" tests rely on), unsigned char; and
# scripts/Makefile.extrawarn's -Wno-pointer-sign (refcount_dec_not_one() passes an unsigned int *).
common=(-std=gnu11 -Wall -Werror -Wno-pointer-sign -funsigned-char -fno-strict-aliasing
	-fno-strict-overflow)
renames=()
for fn in refcount_warn_saturate refcount_dec_if_one refcount_dec_not_one \
	  refcount_dec_and_mutex_lock refcount_dec_and_lock refcount_dec_and_lock_irqsave; do
	renames+=("-D$fn=kernel_$fn")
done
echo "== compiling linux $version include/linux/refcount.h + lib/refcount.c unchanged (-I<kernel refcount headers> -I<compat>)"
# shellcheck disable=SC2086
"$cc" "${common[@]}" $cflags -c "${renames[@]}" -DKBUILD_MODNAME='"refcount"' \
	-I"$out/kernel" -I"$compat" -I"$inc" -I"$geninc" "$tree/lib/refcount.c" -o "$out/kernel_lib.o"
# shellcheck disable=SC2086
"$cc" "${common[@]}" $cflags -c "${renames[@]}" -DRC_PREFIX=kernel \
	-I"$out/kernel" -I"$compat" -I"$inc" -I"$geninc" "$here/refcount_ops.c" -o "$out/kernel_ops.o"
echo "== compiling the same operations against kfsim's <linux/refcount.h>"
# shellcheck disable=SC2086
"$cc" "${common[@]}" $cflags -c -DRC_PREFIX=kfsim \
	-I"$compat" -I"$inc" -I"$geninc" "$here/refcount_ops.c" -o "$out/kfsim_ops.o"
# shellcheck disable=SC2086
"$cc" "${common[@]}" $cflags -I"$inc" -I"$geninc" "$here/oracle_refcount.c" "$out/kernel_lib.o" \
	"$out/kernel_ops.o" "$out/kfsim_ops.o" -o "$out/oracle_refcount" \
	-L"$libdir" -Wl,-rpath,"$libdir" -lkfsim
echo "== running: oracle_refcount $version"
"$out/oracle_refcount" "$version"
