#!/bin/bash
# SPDX-License-Identifier: MIT
#
# The running kernel as referee of the trace reader: record a small workload on a scratch loop
# device with the tracefs "blk" tracer, then read the same recorded events back in every layout
# the tracer's options print (the options change how the buffer is printed, not what it holds),
# one file per layout, and let test_replay_layouts check that each reads as the default does.
#
#   tracefs_layouts.sh OUTDIR                 capture only (how examples/bfq/tracefs-layouts
#                                             was made)
#   tracefs_layouts.sh OUTDIR TEST-BINARY     capture, then run the test on the capture
#
# Sets: plain/ (recorded as the tracer's defaults record), cgroup/ (recorded with blk_cgroup,
# which adds each event's cgroup) and ticks/ (recorded with the "counter" trace_clock, which
# the reader must refuse).  Exit 77 (skipped) when the kernel cannot be asked: not root, no
# tracefs (mounted, or mountable in a mount namespace of its own), no blk tracer, no loop device, or someone else's tracer running (it is not ours to
# stop).  What it changes on this machine, and puts back on exit: the top-level tracer, its
# options and clock (each restored to the value it had), one loop device over a 16 MiB file in
# a temporary directory, and a blkio cgroup of its own (v1 hierarchy, when there is one).
set -u
out=${1:?usage: tracefs_layouts.sh OUTDIR [TEST-BINARY]}
test_bin=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tracefs_lib.sh"
tracefs_enter "$0" "$@"
tracefs_save blk_classic blk_cgroup blk_cgname verbose record-tgid irq-info latency-format context-info
cg=
[ -d /sys/fs/cgroup/blkio ] && cg="/sys/fs/cgroup/blkio/kfsim-layouts-$$"
dev=
cleanup() {
	[ -n "$dev" ] && echo 0 > /sys/block/${dev#/dev/}/trace/enable 2>/dev/null
	tracefs_restore
	[ -n "$dev" ] && losetup -d "$dev"
	[ -n "$cg" ] && [ -d "$cg" ] && rmdir "$cg" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
truncate -s 16M "$tmp/disk.img"
dev=$(losetup -f --show "$tmp/disk.img") || skip "no free loop device"
# udev probes a new device (readahead reads): let it finish before the recording starts
command -v udevadm >/dev/null && udevadm settle --timeout=5
[ -n "$cg" ] && { mkdir "$cg" || cg=; }

set_opts() {	# every option off but the ones named
	for o in $opts; do echo 0 > $T/options/$o; done
	echo 1 > $T/options/context-info
	echo 1 > $T/options/irq-info
	for o in "$@"; do
		case $o in no-*) echo 0 > $T/options/${o#no-} ;; *) echo 1 > $T/options/$o ;; esac
	done
}

# direct 64 KiB writes, direct 4 KiB reads, a buffered write written back by fsync (a flush),
# a discard: what a user's trace holds, each with its RWBS
workload() {
	local run=(sh -c "exec \"\$@\"" sh)
	[ -n "$cg" ] && run=(sh -c "echo \$\$ > '$cg/cgroup.procs' && exec \"\$@\"" sh)
	"${run[@]}" dd if=/dev/zero of="$dev" bs=64k count=6 oflag=direct status=none
	"${run[@]}" dd if="$dev" of=/dev/null bs=4k count=6 skip=40 iflag=direct status=none
	"${run[@]}" dd if=/dev/zero of="$dev" bs=4k count=4 seek=200 conv=fsync status=none
	command -v blkdiscard >/dev/null && blkdiscard -o 1048576 -l 65536 "$dev" 2>/dev/null
	return 0
}

record() {	# SET CLOCK [options while recording]
	local set=$1 clock=$2
	shift 2
	echo nop > $T/current_tracer
	echo "$clock" > $T/trace_clock
	set_opts "$@"
	echo blk > $T/current_tracer
	echo > $T/trace
	echo 1 > /sys/block/${dev#/dev/}/trace/enable
	workload
	echo 0 > /sys/block/${dev#/dev/}/trace/enable
	mkdir -p "$out/$set"
}

print_as() {	# SET NAME options...
	local set=$1 name=$2
	shift 2
	set_opts "$@"
	cat $T/trace > "$out/$set/$name.txt"
}

record plain local
print_as plain default
print_as plain blk_classic blk_classic
print_as plain verbose verbose
print_as plain record-tgid record-tgid
print_as plain noirq no-irq-info
print_as plain tgid-verbose-noirq record-tgid verbose no-irq-info
print_as plain latency latency-format
print_as plain latency-verbose latency-format verbose
print_as plain nocontext no-context-info

record cgroup local blk_cgroup
print_as cgroup default blk_cgroup
print_as cgroup cgname blk_cgroup blk_cgname
print_as cgroup verbose-cgname blk_cgroup blk_cgname verbose
print_as cgroup latency-verbose blk_cgroup latency-format verbose

record ticks counter
print_as ticks default
print_as ticks latency-verbose latency-format verbose

echo "captured from $(uname -r) on $dev: $(grep -c ' Q ' "$out/plain/default.txt") Q events" \
     "in $(ls "$out"/*/*.txt | wc -l) files under $out"
[ -z "$test_bin" ] && exit 0
cleanup
trap - EXIT
KFSIM_TRACE_LAYOUTS_DIR=$out "$test_bin"
