#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The ctest fixture "oracle/linux-source": unpack the kernel paths that the oracle tests named
# (one per line in PATHS_FILE) from Debian's linux-source-6.12 tarball into OUT/linux-source-6.12.
# Unpacks again only when the list or the tarball changed.  A missing tarball is not a failure
# here: each oracle test then reports "skipped: <reason>" itself.
#
# Usage: linux-source.sh TARBALL OUT PATHS_FILE
set -euo pipefail
tarball=$1 out=$2 list=$3
tree=$out/linux-source-6.12
stamp=$out/unpacked.stamp
if [ ! -r "$tarball" ]; then
	echo "skipped: $tarball is not installed (Debian package linux-source-6.12; scripts/test installs it)"
	exit 0
fi
mapfile -t paths < <(grep -v '^$' "$list" || true)
if [ ${#paths[@]} -eq 0 ]; then
	echo "no oracle test asked for kernel sources"
	exit 0
fi
if [ -f "$stamp" ] && [ "$stamp" -nt "$tarball" ] && cmp -s "$list" "$stamp"; then
	echo "kernel sources already unpacked in $tree (${#paths[@]} paths)"
	exit 0
fi
rm -rf "$tree" "$stamp"
mkdir -p "$out"
members=()
for p in "${paths[@]}"; do members+=("linux-source-6.12/$p"); done
start=$(date +%s)
tar -xJf "$tarball" -C "$out" "${members[@]}"
cp "$list" "$stamp"
echo "unpacked ${#paths[@]} kernel paths into $tree in $(($(date +%s) - start)) s:"
printf '  %s\n' "${paths[@]}"
