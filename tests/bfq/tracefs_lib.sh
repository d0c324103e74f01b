# SPDX-License-Identifier: MIT
#
# What tracefs_layouts.sh and tracefs_devices.sh share, sourced by both: whether the running
# kernel's "blk" tracer can be asked, and its state (tracer, clock, options) saved to be put
# back.  Sourcing it defines T and skip(); tracefs_enter SCRIPT ARGS... checks (and exits 77,
# skipped, with the reason when the kernel cannot be asked); tracefs_save OPTIONS... records the
# clock and the options' values and makes $tmp; tracefs_restore puts the tracer, the options
# and the clock back.
T=/sys/kernel/tracing

skip() { echo "SKIP: $*"; exit 77; }

# tracefs_enter SCRIPT ARGS...: root, tracefs readable, the blk tracer there and idle, losetup.
tracefs_enter() {
	local rc
	[ "$(id -u)" = 0 ] || skip "not root: the blk tracer needs root"
	# A fresh Debian machine does not mount tracefs: SCRIPT is run again in a mount namespace
	# of its own where it is mounted, which the machine never sees (the tracer's state is the
	# kernel's, restored by the script either way).
	if [ ! -r $T/available_tracers ] && [ -z "${KFSIM_TRACEFS_OWN_NS:-}" ] &&
		grep -qw tracefs /proc/filesystems && command -v unshare >/dev/null; then
		# 77 from inside when the mount fails (a container without the right), from here
		# when unshare itself does; the script's own status otherwise
		KFSIM_TRACEFS_OWN_NS=1 unshare --mount --propagation private \
			bash -c 'mount -t tracefs nodev "$1" || { echo "SKIP: cannot mount tracefs at $1"; exit 77; }
				 shift; exec bash "$@"' sh $T "$@"
		rc=$?
		[ $rc -eq 1 ] && ! unshare --mount true 2>/dev/null &&
			skip "cannot make a mount namespace to mount tracefs in"
		exit $rc
	fi
	[ -r $T/available_tracers ] || skip "tracefs is not mounted at $T and cannot be mounted here"
	grep -qw blk $T/available_tracers ||
		skip "this kernel has no blk tracer (CONFIG_BLK_DEV_IO_TRACE)"
	[ "$(cat $T/current_tracer)" = nop ] ||
		skip "the tracer '$(cat $T/current_tracer)' is running; not ours to stop"
	command -v losetup >/dev/null || skip "no losetup"
}

# tracefs_save OPTION...: the clock and these options' values, for tracefs_restore; makes $tmp.
tracefs_save() {
	local o
	tmp=$(mktemp -d) || exit 1
	old_clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)
	opts="$*"
	declare -gA old_opt
	for o in $opts; do old_opt[$o]=$(cat $T/options/$o); done
}

tracefs_restore() {
	local o
	echo nop > $T/current_tracer
	for o in $opts; do echo "${old_opt[$o]}" > $T/options/$o; done
	echo "$old_clock" > $T/trace_clock
}
