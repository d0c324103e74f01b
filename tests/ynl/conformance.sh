#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# YNL conformance with the kernel's own specs (ctest ynl/conformance, label "conformance").
#
# Unpacks only Documentation/netlink/specs/ from Debian's linux-source-6.12 tarball into the build
# tree, generates uapi + kernel + user + test C for every spec with kfsim-ynl-gen, compiles each
# generated test program with -Wall -Wextra -Werror, runs its round trips, and compares the
# generated policies op by op with the running kernel's policy dump for the families that kernel
# has.  Findings go to report.txt next to the specs.  Nothing from the kernel tree is ever written
# outside the build tree.
#
# Arguments: GEN OUT_DIR CC "CFLAGS" "LIBS"   Exit: 0 pass, 1 fail, 77 skipped (no tarball).
set -euo pipefail

gen=$1 out=$2 cc=$3 cflags=$4 libs=$5
tarball=${KFSIM_LINUX_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
iterations=${KFSIM_YNL_ITERATIONS:-20}

if [ ! -r "$tarball" ]; then
	echo "SKIP: $tarball is not installed (Debian package linux-source-6.12; scripts/test installs it)"
	exit 77
fi

mkdir -p "$out"
specs=$out/linux-source-6.12/Documentation/netlink/specs
uapi_dir=$out/linux-source-6.12/include/uapi
if [ ! -d "$specs" ] || [ ! -d "$uapi_dir" ] || [ "$tarball" -nt "$specs" ]; then
	rm -rf "$out/linux-source-6.12"
	tar -xJf "$tarball" -C "$out" --wildcards 'linux-source-6.12/Documentation/netlink/specs/*' \
		'linux-source-6.12/include/uapi/*'
	touch "$specs"
fi
# The user code includes the family's uapi header as the kernel's generated code does
# (<linux/netdev.h>): the 6.12 tree's copy of that one header (as the kernel's own build forces
# with -include), not the system's older one.  kfsim-ynl-gen's F-uapi.h goes to its own folder
# and is checked on its own below.

report=$out/report.txt
: > "$report"
echo "YNL conformance: kfsim-ynl-gen on $(basename "$tarball"), $(date -u +%F)" >> "$report"
echo "running kernel: $(uname -r)" >> "$report"
echo >> "$report"

# One spec: generate, compile, run.  Writes $dir/summary (one line) and $dir/report.
one_spec() {
	local spec=$1 name ident dir warnings uapi result hdr extra keep_uapi=0
	name=$(basename "$spec" .yaml)
	ident=$(sed -n 's/^name:[[:space:]]*\([A-Za-z0-9_-]*\).*/\1/p' "$spec" | head -1 | tr - _)
	dir=$out/gen/$name
	rm -rf "$dir"	# a file left by an earlier run (an F-uapi.h) would change what compiles
	mkdir -p "$dir/uapi" "$dir/kinc/linux"
	hdr=$(sed -n 's/^uapi-header:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$spec" | head -1)
	[ -n "$hdr" ] || hdr=linux/$name.h
	extra=
	if [ -f "$uapi_dir/$hdr" ]; then
		# a header in a folder of its own (6.18's binder: linux/android/binder_netlink.h)
		mkdir -p "$(dirname "$dir/kinc/$hdr")"
		cp "$uapi_dir/$hdr" "$dir/kinc/$hdr"
	else
		keep_uapi=1	# no kernel header (netlink-raw specs): kfsim's F-uapi.h stands in
	fi
	# the headers the spec's definitions name (header:, ethtool.yaml of 6.14 on: linux/ethtool.h)
	# are included by the user code as by the kernel's: the tree's copies, not the system's
	for h in $(sed -n 's/^    header:[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$spec" | sort -u); do
		if [ -f "$uapi_dir/$h" ] && [ ! -f "$dir/kinc/$h" ]; then
			mkdir -p "$(dirname "$dir/kinc/$h")"
			cp "$uapi_dir/$h" "$dir/kinc/$h"
			# a tree header not made for user space (linux/if.h wants <linux/compiler.h>,
			# which only headers_install takes out): the system's copy serves
			printf '#include <%s>\n' "$h" | $cc -fsyntax-only -I"$dir/kinc" -x c - \
				2> /dev/null || rm -f "$dir/kinc/$h"
		fi
	done
	# ethtool's enums live in the hand-written ethtool_netlink.h, which the kernel's build
	# hands its generated code with -include (tools/net/ynl/Makefile.deps): the same here.
	if [ "$ident" = ethtool ]; then
		cp "$uapi_dir/linux/ethtool_netlink.h" "$dir/kinc/linux/"
		extra="-include $dir/kinc/linux/ethtool_netlink.h"
	fi
	: > "$dir/report"
	if ! "$gen" --mode kernel --mode user --mode test --out-dir "$dir" "$spec" \
		2> "$dir/gen.log" ||
	   ! "$gen" --mode uapi --out-dir "$dir/uapi" "$spec" 2>> "$dir/gen.log"; then
		echo "FAIL $name: generation: $(tail -1 "$dir/gen.log")" > "$dir/summary"
		return
	fi
	[ $keep_uapi -eq 1 ] && cp "$dir/uapi/$ident-uapi.h" "$dir/"
	warnings=$(grep -c warning "$dir/gen.log" || true)
	# shellcheck disable=SC2086
	if ! $cc -std=gnu11 -O0 -Wall -Wextra -Werror $cflags $extra -I"$dir" -I"$dir/kinc" \
		-o "$dir/test" "$dir/$ident-test.c" $libs 2> "$dir/cc.log"; then
		echo "FAIL $name: the generated C does not compile: $(head -1 "$dir/cc.log")" \
			> "$dir/summary"
		return
	fi
	# The user header is self-contained: it compiles included first and alone.
	# shellcheck disable=SC2086
	if ! printf '#include "%s-user.h"\n' "$ident" |
		$cc -std=gnu11 -fsyntax-only -Wall -Wextra -Werror $cflags $extra -I"$dir" -I"$dir/kinc" -x c - \
			2> "$dir/user-h.log"; then
		echo "FAIL $name: $ident-user.h is not self-contained: $(grep -m1 'error' \
			"$dir/user-h.log")" > "$dir/summary"
		return
	fi
	# The uapi header on its own.  The kernel renders no uapi from some of these specs
	# (devlink, ethtool), whose names collide there: reported, not failed.
	if printf '#include <linux/types.h>\n#include "%s-uapi.h"\n' "$ident" |
		$cc -fsyntax-only -Wall -Werror -I"$dir/uapi" -x c - 2> "$dir/uapi.log"; then
		uapi="uapi ok"
	else
		uapi="uapi header: $(grep -m1 -o 'error: .*' "$dir/uapi.log")"
	fi
	if ! result=$("$dir/test" "$iterations" --kernel-policy "$dir/report" 2> "$dir/run.log"); then
		echo "FAIL $name: $(head -3 "$dir/run.log" | tr '\n' ' ')" > "$dir/summary"
		return
	fi
	echo "ok   $result; $warnings spec warnings; $uapi" > "$dir/summary"
}

n=0
for spec in "$specs"/*.yaml; do
	# Two at a time: the machine is shared.
	while [ "$(jobs -rp | wc -l)" -ge 2 ]; do
		wait -n || true
	done
	one_spec "$spec" &
	n=$((n + 1))
done
wait

fail=0
summary=$out/summary.txt
: > "$summary"
for spec in "$specs"/*.yaml; do
	dir=$out/gen/$(basename "$spec" .yaml)
	echo "== $(basename "$spec" .yaml)" >> "$report"
	cat "$dir/report" >> "$report" 2> /dev/null || true
	# one_spec() stopped by a failed step (set -e) leaves no summary: a failure, not a crash here
	cat "$dir/summary" >> "$summary" 2> /dev/null ||
		echo "FAIL $(basename "$spec" .yaml): the script stopped before a result" >> "$summary"
	grep -q '^FAIL' "$dir/summary" && fail=1
done
cat "$summary"
{
	echo
	echo "== summary: $n specs"
	cat "$summary"
} >> "$report"
echo "report: $report"
exit $fail
