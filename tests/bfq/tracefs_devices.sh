#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Traces users bring, recorded now by the running kernel: the tracefs "blk" tracer on the
# devices a user traces (a loop device, a partition of one, which the block layer remaps onto
# its disk with "A" events, the partition traced alone, a bio-based zram device, several
# devices at once) under the workloads they run (direct and buffered I/O, bios the device
# splits, fsync's flushes, discards, a fio job when fio is installed), then read by kfsim and
# judged by tests/bfq/replay_check.py, which reads the same text itself.  With blkparse
# installed, each trace is also written as blktrace's binary files (tracefs_to_blktrace.py)
# and printed by the real blkparse, and that text is judged too.
#
#   tracefs_devices.sh OUTDIR KFSIM      record, then judge (ctest bfq/replay_devices_live)
#   tracefs_devices.sh OUTDIR            record only
#
# Exit 77 (skipped) when the kernel cannot be asked: not root, no tracefs (mounted, or
# mountable in a mount namespace of its own), no blk tracer, no loop device, or someone else's
# tracer running.  What it changes, and puts back on exit: the top-level tracer, its clock and
# the options it sets (each to the value it had), loop devices over files in a temporary
# directory, a zram device it adds (when zram-control exists).
set -u
out=${1:?usage: tracefs_devices.sh OUTDIR [KFSIM]}
kfsim=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tracefs_lib.sh"
tracefs_enter "$0" "$@"
command -v python3 >/dev/null || skip "no python3 for the referee"
tracefs_save blk_classic blk_cgroup blk_cgname verbose record-tgid irq-info latency-format context-info raw hex bin
trace_dir() {
	case $1 in
	*/loop*p[0-9]) local disk=${1%p[0-9]}; echo /sys/block/${disk#/dev/}/${1#/dev/}/trace ;;
	*) echo /sys/block/${1#/dev/}/trace ;;
	esac
}
loops=()
zram=
cleanup() {
	for d in "${loops[@]}" ${zram:+/dev/zram$zram}; do
		echo 0 > /sys/block/${d#/dev/}/trace/enable 2>/dev/null
	done
	[ ${#loops[@]} -gt 2 ] && [ -e "$(trace_dir ${loops[2]}p1)" ] &&
		echo 0 > "$(trace_dir ${loops[2]}p1)/enable"
	tracefs_restore
	for ((i = ${#loops[@]} - 1; i >= 0; i--)); do losetup -d "${loops[i]}"; done
	[ -n "$zram" ] && { echo 1 > /sys/block/zram$zram/reset
			    echo $zram > /sys/class/zram-control/hot_remove; }
	rm -rf "$tmp"
}
trap cleanup EXIT
newloop() {	# SIZE [losetup options]
	truncate -s "$1" "$tmp/disk${#loops[@]}.img" || return 1
	local f=$tmp/disk${#loops[@]}.img
	shift
	losetup -f --show "$@" "$f"
}
for i in 0 1; do
	d=$(newloop 64M) || skip "no free loop device"
	loops+=("$d")
done
# a loop device with an MBR holding one partition from sector 2048 (the kernel reads it: -P)
d=$(newloop 64M -P) || skip "no free loop device"
loops+=("$d")
python3 -c '
import struct, sys
mbr = bytearray(512)
mbr[446:462] = struct.pack("<B3sB3sII", 0, bytes(3), 0x83, bytes(3), 2048, 65536)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)' "$d"
blockdev --rereadpt "$d" 2>/dev/null; partx -u "$d" 2>/dev/null
command -v udevadm >/dev/null && udevadm settle --timeout=5
for i in $(seq 50); do [ -b "${d}p1" ] && break; sleep 0.1; done	# devtmpfs makes it
[ -b "${d}p1" ] || skip "the partition of $d did not appear"
if [ -w /sys/class/zram-control/hot_add ]; then
	zram=$(cat /sys/class/zram-control/hot_add 2>/dev/null) &&
		echo 32M > /sys/block/zram$zram/disksize || zram=
fi
L0=${loops[0]} L1=${loops[1]} LP=${loops[2]}
mkdir -p "$out"
rm -f "$out"/*.txt "$out"/*.blktrace.*

# record NAME "DEVICES" [OPTION...] -- COMMAND...: the tracer's text of COMMAND on DEVICES
record() {
	local name=$1 devs=$2 o
	shift 2
	echo nop > $T/current_tracer
	for o in $opts; do echo 0 > $T/options/$o; done
	echo 1 > $T/options/context-info
	echo 1 > $T/options/irq-info
	while [ "$1" != -- ]; do echo 1 > $T/options/$1; shift; done
	shift
	echo blk > $T/current_tracer
	echo > $T/trace
	for d in $devs; do echo 1 > "$(trace_dir $d)/enable"; done
	"$@" >/dev/null 2>&1
	for d in $devs; do echo 0 > "$(trace_dir $d)/enable"; done
	cat $T/trace > "$out/$name.txt"
}
rw() {	# DEV: direct 64 KiB writes, direct 4 KiB reads
	dd if=/dev/zero of="$1" bs=64k count=16 oflag=direct
	dd if="$1" of=/dev/null bs=4k count=16 skip=100 iflag=direct
}
export -f rw

record loop_direct "$L0" -- bash -c "rw $L0"
record loop_4m_bios "$L0" -- dd if=/dev/zero of=$L0 bs=4M count=2 oflag=direct
record loop_buffered_fsync "$L0" -- dd if=/dev/zero of=$L0 bs=4k count=64 seek=300 conv=fsync
command -v blkdiscard >/dev/null &&
	record loop_discard "$L0" -- bash -c "blkdiscard -o 1048576 -l 1048576 $L0; rw $L0"
record partition_on_disk "$LP" -- bash -c "rw ${LP}p1"
record partition_alone "${LP}p1" -- bash -c "rw ${LP}p1"
record two_loops "$L0 $L1" -- bash -c "rw $L0 & rw $L1; wait"
record blk_classic "$L0" blk_classic -- bash -c "rw $L0"
record record_tgid_cgroup "$L0" record-tgid blk_cgroup -- bash -c "rw $L0"
record raw "$L0" raw -- bash -c "rw $L0"
if [ -n "$zram" ]; then
	record zram "/dev/zram$zram" -- bash -c "rw /dev/zram$zram"
	record zram_and_loop "/dev/zram$zram $L1" -- bash -c "rw /dev/zram$zram & rw $L1; wait"
fi
if command -v fio >/dev/null; then
	record fio_libaio_randrw "$L1" -- fio --name=r --filename=$L1 --rw=randrw --bs=4k \
		--direct=1 --ioengine=libaio --iodepth=8 --size=16m --number_ios=400 --output=/dev/null
fi
echo "recorded on $(uname -r): $(ls "$out"/*.txt | wc -l) traces," \
     "$(cat "$out"/*.txt | grep -c ' Q ') Q events"
if command -v blkparse >/dev/null; then
	for t in loop_direct partition_on_disk two_loops loop_buffered_fsync; do
		python3 "$here/tracefs_to_blktrace.py" "$out/$t.txt" "$out/$t" &&
			blkparse -i "$out/$t" -o "$out/$t.blkparse.txt" >/dev/null 2>&1
		rm -f "$out/$t".blktrace.*
	done
fi
[ -z "$kfsim" ] && exit 0
cleanup
trap - EXIT
python3 "$here/replay_check.py" "$kfsim" "$out"
