#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Real netlink tools against kfsim's kernel (ctest clients/tools and clients/ynl_cli).
#
#   tools.sh iproute2 KFSIM SHIM LIBNL_PROG LIBMNL_PROG
#       iproute2's genl, and a libnl-3 and a libmnl program of ours, unmodified, through
#       LD_PRELOAD=libkfsim-netlink.so against `kfsim kernel` and against the shim's own
#       in-process kernel; nlctrl as genl prints it is compared with the running kernel's.
#   tools.sh ynl KFSIM SHIM
#       the kernel's own tools/net/ynl/cli.py (from $KFSIM_LINUX_TREE) against `kfsim kernel`.
#
# Prints what it compared; exit 0 pass, 1 fail, 77 skipped (a tool is missing).
set -uo pipefail
mode=$1 kfsim=$2 shim=$3
fails=0 checks=0
tmp=$(mktemp -d)
chmod 755 "$tmp"	# the non-root client must reach the socket (shared with --mode 0666)
server_pid=""
cleanup() {
	[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# An ASan-built shim must come after ASan's runtime in uninstrumented programs.
preload=$shim
if nm -D "$shim" 2>/dev/null | grep __asan_init >/dev/null; then
	preload="$(${CC:-cc} -print-file-name=libasan.so):$shim"
	export ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0
fi

check() { # check NAME COMMAND... : the command must succeed
	local name=$1
	shift
	checks=$((checks + 1))
	if "$@"; then
		echo "  ok   $name"
	else
		echo "  FAIL $name"
		fails=$((fails + 1))
	fi
}

contains() { grep -qF -- "$2" "$1" || { echo "    '$2' not in:"; sed 's/^/    | /' "$1"; return 1; }; }

start_server() {
	sock=$tmp/kernel.sock
	"$kfsim" kernel --listen "$sock" --mode 0666 >"$tmp/server.log" 2>&1 &
	server_pid=$!
	for _ in $(seq 100); do [ -S "$sock" ] && return 0; sleep 0.05; done
	echo "kfsim kernel did not start:"; cat "$tmp/server.log"; exit 1
}

stop_server() { # SIGTERM: a clean exit that removes the socket file
	kill -TERM "$server_pid"
	wait "$server_pid"
	local rc=$?
	server_pid=""
	[ $rc -eq 0 ] && [ ! -e "$sock" ] && grep -q "stopped" "$tmp/server.log"
}

via() { LD_PRELOAD=$preload KFSIM_KERNEL=$sock "$@"; }
inproc() { env -u KFSIM_KERNEL LD_PRELOAD=$preload "$@"; }

iproute2() {
	local libnl=$1 libmnl=$2
	command -v genl >/dev/null || { echo "skipped: iproute2's genl is not installed"; exit 77; }
	start_server
	echo "iproute2 genl, libnl-3 and libmnl programs through $(basename "$shim"):"
	via genl ctrl list >"$tmp/list" 2>&1
	check "genl ctrl list names nlctrl, ethtool, kfsim_demo" \
		bash -c "grep -q 'Name: nlctrl' $tmp/list && grep -q 'Name: ethtool' $tmp/list && grep -q 'Name: kfsim_demo' $tmp/list"
	via genl ctrl get name ethtool >"$tmp/ethtool" 2>&1
	check "genl ctrl get name ethtool: PLCA ops 0x27-0x29" contains "$tmp/ethtool" "ID-0x29"
	check "genl ctrl get name ethtool: monitor group" contains "$tmp/ethtool" "name: monitor"
	via genl ctrl get name nlctrl >"$tmp/nlctrl.kfsim" 2>&1
	if genl ctrl get name nlctrl >"$tmp/nlctrl.linux" 2>&1; then
		check "genl ctrl get name nlctrl: identical to the running kernel's" \
			diff -u "$tmp/nlctrl.linux" "$tmp/nlctrl.kfsim"
	else
		echo "  (the running kernel's nlctrl is not reachable: comparison left out)"
	fi
	inproc genl ctrl get name ethtool >"$tmp/inproc" 2>&1
	check "no KFSIM_KERNEL: the shim's own in-process kernel answers" contains "$tmp/inproc" "name: monitor"
	if command -v ip >/dev/null; then
		# preloaded by hand, NETLINK_ROUTE would reach the machine's kernel: refused, said
		via ip -o link show lo >"$tmp/lo.shim" 2>&1
		check "NETLINK_ROUTE outside kfsim exec: refused, with the reason" \
			contains "$tmp/lo.shim" "NETLINK_ROUTE = 0) refused (EPROTONOSUPPORT)"
	fi
	LD_PRELOAD=$preload KFSIM_KERNEL=$tmp/nobody.sock timeout 10 genl ctrl list >"$tmp/nobody" 2>&1
	check "no server at KFSIM_KERNEL: a clear message, no hang" contains "$tmp/nobody" "no kfsim kernel listens at"

	via "$libnl" >"$tmp/o" 2>&1
	check "libnl-3 program: GET" contains "$tmp/o" "node-cnt 8"
	via "$libnl" 11 >"$tmp/o" 2>&1
	check "libnl-3 program: SET" contains "$tmp/o" "ok"
	via "$libmnl" >"$tmp/o" 2>&1
	check "libmnl program sees the libnl program's SET (state persists)" contains "$tmp/o" "node-cnt 11"
	via "$libmnl" 0 >"$tmp/o" 2>&1
	check "libmnl program: out-of-range SET is -ERANGE" contains "$tmp/o" "error -34"
	"$kfsim" ethtool --server "$sock" --get-plca-cfg eth0 >"$tmp/o" 2>&1
	check "kfsim ethtool --server sees it too" contains "$tmp/o" "Node count: 11"
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
		LD_PRELOAD=$preload KFSIM_KERNEL=$sock setpriv --reuid 65534 --regid 65534 \
			--clear-groups "$libmnl" 5 >"$tmp/o" 2>&1
		check "a non-root client's SET is -EPERM" contains "$tmp/o" "error -1"
	fi
	inproc "$libmnl" >"$tmp/o" 2>&1
	check "libmnl program on the in-process kernel: built-in segment" contains "$tmp/o" "node-cnt 8"
	check "SIGTERM stops the server cleanly and removes its socket" stop_server

	echo "kfsim kernel --background / --stop and kfsim exec:"
	"$kfsim" kernel --listen "$sock" --mode 0666 --background >"$tmp/o" 2>&1
	check "--background returns once the socket listens" bash -c "grep -q 'listening on .*(pid [0-9]*)' $tmp/o && test -S $sock"
	KFSIM_NETLINK_SHIM=$shim LD_PRELOAD=${preload%"$shim"} "$kfsim" exec --server "$sock" -- \
		genl ctrl get name nlctrl >"$tmp/exec" 2>&1
	check "kfsim exec --server runs genl on the server" diff "$tmp/nlctrl.kfsim" "$tmp/exec"
	if command -v ip >/dev/null; then
		KFSIM_NETLINK_SHIM=$shim LD_PRELOAD=${preload%"$shim"} "$kfsim" exec --server "$sock" \
			-- ip -o link show >"$tmp/o" 2>&1
		check "NETLINK_ROUTE under kfsim exec reaches its own namespace: lo alone" \
			bash -c "test \$(wc -l < $tmp/o) -eq 1 && grep -q ': lo: ' $tmp/o"
	fi
	if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
		setpriv --reuid 65534 --regid 65534 --clear-groups "$kfsim" kernel --stop "$sock" \
			>"$tmp/o" 2>&1
		local rc=$?
		check "--stop by another user is -EPERM (exit 1)" bash -c "test $rc -eq 1 && grep -q EPERM $tmp/o && test -S $sock"
	fi
	"$kfsim" kernel --stop "$sock" >"$tmp/o" 2>&1
	check "--stop by its user stops it and removes the socket" bash -c \
		"for i in \$(seq 50); do test -e $sock || exit 0; sleep 0.1; done; exit 1"
	"$kfsim" exec >"$tmp/o" 2>&1
	local rc2=$?
	check "kfsim exec without a program: exit 2, one line" bash -c "test $rc2 -eq 2 && test \$(wc -l < $tmp/o) -eq 1"
}

ynl() {
	local tree=${KFSIM_LINUX_TREE:-} py=/usr/bin/python3
	local cli=$tree/tools/net/ynl/cli.py spec=$tree/Documentation/netlink/specs/ethtool.yaml
	[ -f "$cli" ] && [ -f "$spec" ] || { echo "skipped: the kernel's tools/net/ynl is not unpacked (linux-source-6.12)"; exit 77; }
	"$py" -c 'import yaml, jsonschema' 2>/dev/null || { echo "skipped: python3-yaml/python3-jsonschema missing"; exit 77; }
	start_server
	echo "the kernel's tools/net/ynl/cli.py (linux-source-6.12) through $(basename "$shim"):"
	y() { via "$py" "$cli" --spec "$spec" "$@"; }
	y --do plca-get-cfg --json '{"header": {"dev-name": "eth0"}}' >"$tmp/o" 2>&1
	check "plca-get-cfg eth0" contains "$tmp/o" "'node-cnt': 8"
	y --do plca-set-cfg --json '{"header": {"dev-name": "eth0"}, "node-cnt": 16}' >"$tmp/o" 2>&1
	check "plca-set-cfg node-cnt 16" test $? -eq 0
	y --do plca-get-cfg --json '{"header": {"dev-name": "eth0"}}' >"$tmp/o" 2>&1
	check "the SET persists for the next client" contains "$tmp/o" "'node-cnt': 16"
	y --do plca-set-cfg --json '{"header": {"dev-name": "eth0"}, "node-cnt": 300}' >"$tmp/o" 2>&1
	check "out-of-range SET: the kernel's extack message" contains "$tmp/o" "'msg': 'integer out of range'"
	check "out-of-range SET: the policy" contains "$tmp/o" "'max-value': 255"
	check "out-of-range SET: the bad attribute" contains "$tmp/o" "'bad-attr': '.node-cnt'"
	y --do plca-get-status --json '{"header": {"dev-name": "eth0"}}' >"$tmp/o" 2>&1
	check "plca-get-status eth0" contains "$tmp/o" "'status': 1"
	y --dump plca-get-cfg >"$tmp/o" 2>&1
	check "plca-get-cfg dump lists eth1" contains "$tmp/o" "'dev-name': 'eth1'"
	# cli.py subscribes, sleeps, then reads what queued meanwhile.  Its start-up (parsing the
	# spec and schema) can take seconds on a loaded machine, so another client keeps changing
	# eth1 (9, 10, 9, ...) until cli.py is done: the SETs after it subscribed are heard.
	y --subscribe monitor --sleep 4 >"$tmp/mon" 2>&1 &
	local mon=$! n=9
	while kill -0 $mon 2>/dev/null; do
		"$kfsim" ethtool --server "$sock" --set-plca-cfg eth1 node-cnt $n >/dev/null 2>&1
		n=$((19 - n))
		sleep 0.3
	done
	wait $mon
	check "--subscribe monitor hears another client's SET" contains "$tmp/mon" "'name': 'plca-ntf'"
	check "... with eth1's new value" bash -c "grep -qE \"'node-cnt': (9|10)\" $tmp/mon && grep -q \"'dev-name': 'eth1'\" $tmp/mon"
	check "SIGTERM stops the server cleanly" stop_server
}

case $mode in
iproute2) iproute2 "$4" "$5" ;;
ynl) ynl ;;
*) echo "usage: tools.sh iproute2|ynl KFSIM SHIM [LIBNL_PROG LIBMNL_PROG]" >&2; exit 2 ;;
esac
echo "$((checks - fails)) passed, $fails failed"
[ $fails -eq 0 ]
