#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unpack what the benchmark needs from Debian's linux-source-6.12 (the specs, the kernel's
# tools/net/ynl generator and an empty MAINTAINERS, which ynl-gen-c.py looks for to find the
# tree root) into the build tree, then run bench_ynl_gen on it.  Measure only: nothing of the
# kernel tree leaves the build directory.
set -euo pipefail
bench=$1 dir=$2
shift 2
tarball=${KFSIM_LINUX_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
if [ ! -r "$tarball" ]; then
	echo "linux-source-6.12 is not installed: measuring nothing" >&2
	exit 77
fi
root=$dir/linux-source-6.12
if [ ! -d "$root/tools/net/ynl" ]; then
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --wildcards 'linux-source-6.12/Documentation/netlink/*' \
		'linux-source-6.12/tools/net/ynl/*'
	touch "$root/MAINTAINERS"
fi
exec "$bench" "$root/Documentation/netlink/specs" "$root/tools/net/ynl" "$@"
