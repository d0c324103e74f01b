#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The kernel's 6.12 graph selftest programs, unchanged, built natively by kfsim-bpf-cc and run
# under kfsim; each program is also loaded alone in the running kernel (--kernel).  A program
# agrees when kfsim's verdict (and message, and return value) is what its annotations say, or,
# for a program without annotations, what the running kernel's verifier says.  Programs whose
# expected failure is a static-only rule are counted and listed with the rule.  Any other
# disagreement fails the test unless selftests_native.differences lists it with its reason; a
# listed difference that no longer occurs fails it too.
#
# Usage: selftests_native.sh OUT_DIR KFSIM_BPF_CC
set -euo pipefail
out=$1 bpfcc=$2
here=$(cd "$(dirname "$0")" && pwd)
objects=(rbtree rbtree_fail linked_list linked_list_fail refcounted_kptr refcounted_kptr_fail
	rbtree_btf_fail__add_wrong_type rbtree_btf_fail__wrong_node_type test_spin_lock_fail
	local_kptr_stash_fail)
# the release the 6.12 files' annotations were written for
kver=6.12

. "$(dirname "$0")/need_kernel.sh"
. "$(dirname "$0")/runner_report.sh"
selftests=${KFSIM_LINUX_TREE:?KFSIM_LINUX_TREE is not set (the oracle/linux-source fixture sets it)}/tools/testing/selftests/bpf
[ -d "$selftests/progs" ] || skip "$selftests/progs was not unpacked (Debian package linux-source-6.12)"

rm -rf "$out"
mkdir -p "$out/include"
bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$out/include/vmlinux.h"
echo "running kernel: $(uname -r); kfsim rules of $kver; $(clang --version | head -1)"

# build two at a time (the machine has two cores)
printf '%s\n' "${objects[@]}" | xargs -P2 -I{} sh -c \
	'"$0" -I "$1/include" -I "$2" -o "$1/{}.test" "$2/progs/{}.c" >"$1/{}.build.log" 2>&1 ||
	 { echo "BUILD FAILED: {}"; grep -v "btf_decl_tag\|btf_type_tag" "$1/{}.build.log" | tail -20; }' \
	"$bpfcc" "$out" "$selftests"

status=0
for o in "${objects[@]}"; do
	if [ ! -x "$out/$o.test" ]; then
		echo "$o: not built"
		status=1
		continue
	fi
	"$out/$o.test" --kernel --kver "$kver" >"$out/$o.out" 2>&1 || true
done

# every FAIL must be listed; every listed program must still FAIL
listed() { grep -v '^#' "$here/selftests_native.differences" | awk -v o="$1" -v p="$2" \
	'$1 == o && $2 == p { $1 = $2 = ""; sub(/^ +/, ""); print; found = 1 } END { exit !found }'; }
total=0 agree=0 static=0 diff=0 bad=0
for o in "${objects[@]}"; do
	[ -f "$out/$o.out" ] || continue
	while read -r result prog _; do
		case $result in PASS | STATIC | FAIL | RAN) ;; *) continue ;; esac
		total=$((total + 1))
		if reason=$(listed "$o" "$prog"); then
			if [ "$result" = FAIL ]; then
				diff=$((diff + 1))
				echo "listed   $o/$prog: $reason"
			else
				bad=$((bad + 1))
				echo "STALE    $o/$prog: listed as a difference but now $result"
			fi
			continue
		fi
		case $result in
		PASS) agree=$((agree + 1)) ;;
		STATIC)
			static=$((static + 1))
			echo "static   $o/$prog: $(grep -A8 "^STATIC  $prog " "$out/$o.out" |
				grep -m1 '^        rule:' | sed 's/^ *rule: *//')" ;;
		*)
			bad=$((bad + 1))
			echo "DISAGREE $o/$prog:"
			prog_block "$prog" "$out/$o.out" ;;
		esac
	done <"$out/$o.out"
done
echo
echo "$total programs run natively: $agree agree with their annotations or the kernel's verifier," \
	"$static static-only, $diff listed differences, $bad disagreements"
[ "$total" -gt 0 ] || { echo "no program ran"; status=1; }
[ "$bad" = 0 ] || status=1
exit $status
