#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unpack what the benchmark needs from Debian's linux-source-6.12 (the specs, the kernel's
# tools/net/ynl generator and an empty MAINTAINERS, which ynl-gen-c.py looks for to find the
# tree root) into the build tree, then run bench_ynl_gen on it.  Measure only: nothing of the
# kernel tree leaves the build directory.
set -euo pipefail
usage() {
	echo "usage: bench/ynl/run.sh BUILD/bench/ynl/bench_ynl_gen WORK_DIR [bench_ynl_gen options]"
	echo "  unpacks the 6.12 specs and tools/net/ynl into WORK_DIR (once), then times"
	echo "  kfsim-ynl-gen against the kernel's ynl-gen-c.py on the same specs"
	echo "  --callgrind  also count instructions (valgrind) of one spec (netdev, kernel source)"
	echo "               for each generator"
}
case ${1:-} in
-h | --help) usage; exit 0 ;;
esac
if [ $# -lt 2 ]; then
	usage >&2
	exit 2
fi
bench=$1 dir=$2
shift 2
callgrind=false
if [ "${1:-}" = --callgrind ]; then
	callgrind=true
	shift
fi
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
"$bench" "$root/Documentation/netlink/specs" "$root/tools/net/ynl" "$@"
if $callgrind; then
	gen=$(dirname "$bench")/../../kfsim-ynl-gen
	spec=$root/Documentation/netlink/specs/netdev.yaml
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	count() { # OUT-FILE CMD...
		local f=$1
		shift
		valgrind --tool=callgrind --callgrind-out-file="$f" "$@" > /dev/null 2>&1
		callgrind_annotate "$f" 2> /dev/null | awk '/PROGRAM TOTALS/ {print $1}'
	}
	echo "callgrind, netdev.yaml, kernel mode (kfsim writes header and source, python the source):"
	echo "  kfsim-ynl-gen: $(count "$tmp/k" "$gen" --mode kernel --out-dir "$tmp" "$spec") instructions"
	# valgrind needs the interpreter itself, not a wrapper script (pyenv shims)
	py=$(python3 -c 'import sys; print(sys.executable)')
	echo "  ynl-gen-c.py:  $(cd "$root" && count "$tmp/p" "$py" tools/net/ynl/ynl-gen-c.py \
		--mode kernel --source --spec "$spec" -o "$tmp/netdev-nl-gen.c") instructions"
fi
