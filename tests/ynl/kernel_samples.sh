#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Referee for kfsim's kernel-compatible YNL C API (<ynl.h>, kfsim-ynl-gen --mode user): the
# kernel's own YNL samples (tools/net/ynl/samples/{netdev,ethtool,devlink,page-pool,ovs}.c,
# Linux 6.12) are built twice from the same unchanged sources:
#   kernel: the kernel's lib/ynl.c and ynl-gen-c.py's code for the 6.12 specs
#   kfsim:  <ynl.h> from include/compat, kfsim-ynl-gen's code for the same specs, libkfsim
# with the flags of the kernel's samples Makefile (kfsim's also with -Werror), then
#   1. both run on the running kernel inside a private network namespace with a veth pair:
#      their stdout, stderr and exit status must be equal;
#   2. kfsim's build runs on kfsim's in-process kernel (KFSIM_KERNEL=inproc) and the kernel's
#      build on the same kernel through libkfsim-netlink.so (LD_PRELOAD): equal again.
#      kfsim's kernel has ethtool (PLCA ops only: the channels dump gets EOPNOTSUPP) and no
#      netdev, devlink or ovs_datapath family (the library reports the family missing).
# tests/ynl/plca_sample.c, a program of the same kind for the PLCA ops, goes through the same.
#
# Usage: kernel_samples.sh KFSIM_YNL_GEN LIBKFSIM_NETLINK_SO OUT SRC_DIR CC "CFLAGS" "LIBS" [PRELOAD]
#   PRELOAD: a sanitizer runtime the (sanitized) shim needs loaded before it
# Env: KFSIM_LINUX_TREE (the oracle fixture's unpacked linux-source-6.12).
# Exit: 0 all equal, 1 a difference or a build failure, 77 skipped (no tree, not root, no netns).
set -uo pipefail
gen=$1 shim=$2 out=$3 src=$4 cc=$5 cflags=$6 libs=$7 preload=${8:-}
tree=${KFSIM_LINUX_TREE:-}
ynl=$tree/tools/net/ynl
specs=$tree/Documentation/netlink/specs
uapi=$tree/include/uapi

if [ -z "$tree" ] || [ ! -f "$ynl/ynl-gen-c.py" ] || [ ! -f "$ynl/lib/ynl.c" ]; then
	echo "skipped: the kernel's tools/net/ynl is not unpacked (KFSIM_LINUX_TREE='$tree')"
	exit 77
fi
if [ "$(id -u)" -ne 0 ] || ! ip netns list > /dev/null 2>&1; then
	echo "skipped: needs root and ip netns for a private network namespace"
	exit 77
fi
py=/usr/bin/python3
if ! $py -c 'import yaml, jsonschema' 2> /dev/null; then
	echo "skipped: ynl-gen-c.py needs python3-yaml and python3-jsonschema"
	exit 77
fi

rm -rf "$out"
mkdir -p "$out/kernel" "$out/kfsim"
fail=0

# The samples and the spec (family) each one uses; ethtool's generator arguments and every
# family's -include of the tree's uapi header are the kernel's (tools/net/ynl/Makefile.deps,
# generated/Makefile).
# plca: tests/ynl/plca_sample.c, the same kind of program for the PLCA ops kfsim's kernel has.
samples="netdev:netdev ethtool:ethtool devlink:devlink page-pool:netdev ovs:ovs_datapath plca:ethtool"
families="netdev ethtool devlink ovs_datapath"
gen_args() { [ "$1" = ethtool ] && echo "--user-header linux/ethtool_netlink.h --exclude-op stats-get"; }
family_cflags() {
	case $1 in
	netdev) echo "-D_LINUX_NETDEV_H -include $uapi/linux/netdev.h" ;;
	ethtool) echo "-D_LINUX_ETHTOOL_H -include $uapi/linux/ethtool.h" \
		      "-D_LINUX_ETHTOOL_NETLINK_H_ -include $uapi/linux/ethtool_netlink.h" ;;
	devlink) echo "-D_LINUX_DEVLINK_H_ -include $uapi/linux/devlink.h" ;;
	ovs_datapath) echo "-D__LINUX_OPENVSWITCH_H -include $uapi/linux/openvswitch.h" ;;
	esac
}
sample_flags="-std=gnu11 -O2 -W -Wall -Wextra -Wno-unused-parameter -Wshadow -idirafter $uapi"

# ---- generate --------------------------------------------------------------------------------
start=$(date +%s.%N)
for f in $families; do
	# shellcheck disable=SC2046
	$py "$ynl/ynl-gen-c.py" --mode user --header --spec "$specs/$f.yaml" \
		-o "$out/kernel/$f-user.h" $(gen_args $f) > "$out/kernel/gen-$f.log" 2>&1 &
	# shellcheck disable=SC2046
	$py "$ynl/ynl-gen-c.py" --mode user --source --spec "$specs/$f.yaml" \
		-o "$out/kernel/$f-user.c" $(gen_args $f) >> "$out/kernel/gen-$f.log" 2>&1
	wait
	if [ ! -s "$out/kernel/$f-user.c" ] || [ ! -s "$out/kernel/$f-user.h" ]; then
		echo "FAIL ynl-gen-c.py $f: $(tail -1 "$out/kernel/gen-$f.log")"
		exit 1
	fi
	if ! "$gen" --mode user --out-dir "$out/kfsim" "$specs/$f.yaml" > "$out/kfsim/gen-$f.log" 2>&1
	then
		echo "FAIL kfsim-ynl-gen $f: $(grep -v warning "$out/kfsim/gen-$f.log" | tail -1)"
		fail=1
	fi
done
printf 'generated user code for %s with ynl-gen-c.py and kfsim-ynl-gen in %.1f s\n' \
	"$families" "$(echo "$(date +%s.%N) - $start" | bc)"
[ $fail -eq 0 ] || exit 1

# ---- build -----------------------------------------------------------------------------------
build() {	# build DIR WHAT: the family objects and the five samples, or fail with the log
	local dir=$1 what=$2 f n x inc lib werror
	if [ "$what" = kernel ]; then
		inc="-I$ynl/lib -I$dir"
		werror=
		# shellcheck disable=SC2086
		$cc $sample_flags $inc -c "$ynl/lib/ynl.c" -o "$dir/ynl.o" 2> "$dir/cc.log" || return 1
		lib="$dir/ynl.o"
	else
		inc="-I$src/include/compat -I$dir $cflags"
		werror=-Werror
		lib="$libs"
	fi
	for f in $families; do
		# shellcheck disable=SC2046,SC2086
		$cc $sample_flags $werror $inc $(family_cflags $f) -c "$dir/$f-user.c" \
			-o "$dir/$f-user.o" 2>> "$dir/cc.log" || return 1
	done
	for x in $samples; do
		n=${x%%:*} f=${x##*:}
		c=$ynl/samples/$n.c
		[ "$n" = plca ] && c=$src/tests/ynl/plca_sample.c
		# shellcheck disable=SC2046,SC2086
		$cc $sample_flags $werror $inc $(family_cflags $f) "$c" \
			"$dir/$f-user.o" $lib -o "$dir/$n" 2>> "$dir/cc.log" || return 1
	done
}
for what in kernel kfsim; do
	if ! build "$out/$what" $what; then
		echo "FAIL building the samples with the $what library:"
		grep -m5 -E 'error|warning' "$out/$what/cc.log"
		exit 1
	fi
done
echo "built samples netdev ethtool devlink page-pool ovs (unchanged) and tests/ynl/plca_sample.c" \
	"with the kernel's library and with kfsim's (-Werror)"

# ---- run and compare -------------------------------------------------------------------------
ns=kfsim-ynl-$$
cleanup() { ip netns del "$ns" 2> /dev/null || true; }
trap cleanup EXIT
ip netns add "$ns" && ip -n "$ns" link add eth0 type veth peer name eth1 &&
	ip -n "$ns" link set lo up || { echo "FAIL: cannot set up netns $ns with a veth pair"; exit 1; }
# netdev.c prints the notifications it hears on "mgmt": let the namespace's own setup events
# pass before either build listens.
sleep 0.5

# run WHERE BUILD SAMPLE: stdout, stderr and exit status in one file.  The input goes in as a
# here-string, not through "echo | sample": a sample that never reads it (ethtool's) could end
# before echo wrote, echo then died of SIGPIPE, and under pipefail its 141 was the run's status.
run() {
	local where=$1 what=$2 n=$3
	local f=$out/$what/$n.$where input=
	[ "$n" = netdev ] && input=0	# netdev.c asks for an ifindex: 0 = dump
	case $where in
	kernel)
		ip netns exec "$ns" env -u KFSIM_KERNEL "$out/$what/$n" <<< "$input" \
			> "$f.out" 2> "$f.err" ;;
	inproc)
		if [ "$what" = kfsim ]; then
			KFSIM_KERNEL=inproc "$out/$what/$n" <<< "$input" > "$f.out" 2> "$f.err"
		else
			env -u KFSIM_KERNEL LD_PRELOAD="${preload:+$preload }$shim" \
				ASAN_OPTIONS=detect_leaks=0 "$out/$what/$n" <<< "$input" \
				> "$f.out" 2> "$f.err"
		fi ;;
	esac
	echo "exit $?" >> "$f.out"
	cat "$f.err" >> "$f.out"
}
for where in kernel inproc; do
	[ $where = kernel ] && label="the running kernel (netns $ns, veth eth0/eth1)"
	[ $where = inproc ] && label="kfsim's in-process kernel (kernel library via libkfsim-netlink.so)"
	echo "-- $label"
	for x in $samples; do
		n=${x%%:*}
		run $where kernel "$n"
		run $where kfsim "$n"
		a=$out/kernel/$n.$where.out b=$out/kfsim/$n.$where.out
		summary=$(grep -v '^$' "$a" | tr -s ' ' | tr '\n' '|' | cut -c1-200)
		if cmp -s "$a" "$b"; then
			echo "same  $n: $summary"
		else
			echo "DIFF  $n (kernel library < > kfsim):"
			diff "$a" "$b" | head -20
			fail=1
		fi
	done
done
exit $fail
