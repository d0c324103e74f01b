#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The exploring mode of kfsim-bpf-cc's runner and `kfsim bpf test` (tests/bpfcc/explore.bpf.c):
# - both outcomes: every program whose broken rule hides on a branch the run's data never takes
#   agrees with its annotation with exploring on, and disagrees with it off;
# - a fabricated node on an empty tree and list, an insert's -EINVAL, a lookup's NULL, a load
#   through bpf_obj_new()'s NULL (no crash: the verifier's message) are each named in the path;
# - a plain load through a dropped object faults: "invalid mem access 'scalar'";
# - the budget: reached and reported (--paths 4: 4 paths), deterministic: the same output twice
#   (with --timeout 60, 240 under ASan, so that the time budget, a safety net, is not what stops a slow run);
# - the picture (--paths-svg) is an SVG; bad budgets are refused with exit status 2.
#
# Usage: explore.sh OUT_DIR KFSIM_BPF_CC KFSIM SOURCE
set -euo pipefail
out=$1 bpfcc=$2 kfsim=$3 src=$4

skip() { echo "skipped: $*"; exit 77; }
command -v clang >/dev/null || skip "clang is not installed"
[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux to dump vmlinux.h from"
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$out"
mkdir -p "$out"
"$bpfcc" -o "$out/explore" "$src" >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }

# exploring on (the default): every program agrees, each with its path.  Built with the
# sanitizers too (a kfsim built with -DKFSIM_SANITIZE=address builds programs so): UBSan's null
# check is left out of BPF code, so the load through NULL is kfsim's 'ptr_or_null_' there as well.
asan=0
if ldd "$out/explore" 2>/dev/null | grep -q libasan; then asan=1; fi
# A sanitizer build on a busy machine (ctest -j) runs paths many times slower: a time budget
# that stops it gives no verdict, so it gets four times the room.
t=60
[ $asan = 0 ] || t=240
"$out/explore" --timeout $t >"$out/on.txt" 2>&1 || { cat "$out/on.txt"; fail "exploring on: a disagreement"; }
cat "$out/on.txt"
grep -q "7 programs run: 7 agree, 0 static-only, 0 disagree" "$out/on.txt" ||
	fail "not every program agrees"
want_path() {
	awk -v p="$1" '$2 == p { on = 1; next } /^[A-Z]/ { on = 0 } on && /path:/' "$out/on.txt" |
		grep -q -- "$2" || fail "$1: the path does not say '$2'"
}
want_path first_escapes_unlock "bpf_rbtree_first gave a fabricated object (explore.bpf.c:"
want_path pop_keeps_node "bpf_list_pop_front gave a fabricated object"
want_path new_not_checked "bpf_obj_new_impl gave NULL"
want_path lookup_null_keeps_lock "bpf_map_lookup_elem gave NULL"
want_path add_failure_drops "bpf_rbtree_add_impl gave -EINVAL"
grep -q "invalid mem access 'ptr_or_null_'" "$out/on.txt" ||
	fail "no ptr_or_null_ message"
# the dead reference: caught by its fault, with the verifier's message and the program's line
awk '$2 == "load_after_drop" { on = 1; next } /^[A-Z]/ { on = 0 } on' "$out/on.txt" |
	grep -Eq "kfsim:  (R[0-9]+ )?invalid mem access 'scalar'" || fail "load_after_drop: no 'scalar' message"
! grep -q "CRASH\|HANG" "$out/on.txt" || fail "a path crashed or hung"

# exploring off: the hidden branches are not taken, so the annotations are not met
"$out/explore" --explore off >"$out/off.txt" 2>&1 && fail "exploring off: every program agrees"
# the load through bpf_obj_new()'s unchecked result agrees without exploring too: kfsim-bpf-cc
# finds it in the BPF object (an access through a maybe-NULL call result before its check)
grep -q "7 programs run: 3 agree, 0 static-only, 4 disagree" "$out/off.txt" ||
	{ cat "$out/off.txt"; fail "exploring off: expected 4 disagreements"; }

# the budget: reached, reported, and the same paths on every run
"$out/explore" --timeout $t --paths 4 many_decisions >"$out/budget1.txt" 2>&1 || fail "budget run"
"$out/explore" --timeout $t --paths 4 many_decisions >"$out/budget2.txt" 2>&1 || fail "budget run"
grep -q "explored:4 paths (budget: 4 paths, 2 other outcomes per path, $((t / 2)) s); path budget reached" \
	"$out/budget1.txt" || { cat "$out/budget1.txt"; fail "the budget is not reported"; }
cmp -s "$out/on.txt" <("$out/explore" --timeout $t 2>&1) || fail "a second run gives other paths or verdicts"
cmp -s "$out/budget1.txt" "$out/budget2.txt" || fail "the budget run differs between runs"
# a violation needs one other outcome: --flips 0 is the natural run
"$out/explore" --flips 0 first_escapes_unlock >"$out/flips0.txt" 2>&1 && fail "--flips 0 explored"

# the picture of the explored paths
if command -v dot >/dev/null; then
	"$out/explore" --paths-svg "$out/paths.svg" add_failure_drops >/dev/null 2>&1 ||
		fail "--paths-svg run"
	tail -c 200 "$out/paths.svg" | grep -q "</svg>" || fail "--paths-svg wrote no SVG"
	grep -q "bpf_rbtree_add_impl" "$out/paths.svg" || fail "the SVG names no decision"
fi

# bad budgets
for bad in "--paths 0" "--paths 5000" "--flips 9" "--explore maybe" "--paths x"; do
	# shellcheck disable=SC2086
	if "$out/explore" $bad >/dev/null 2>&1; then fail "accepted $bad"; fi
	set +e
	# shellcheck disable=SC2086
	"$out/explore" $bad >/dev/null 2>&1
	[ $? = 2 ] || fail "$bad: exit status is not 2"
	set -e
done

# the same through kfsim bpf test, its options passed on
"$kfsim" bpf test --paths 4 "$src" many_decisions >"$out/cli.txt" 2>&1 ||
	{ cat "$out/cli.txt"; fail "kfsim bpf test"; }
grep -q "path budget reached" "$out/cli.txt" || fail "kfsim bpf test: no budget line"
echo "explore: both outcomes, budget, order, picture and bad budgets checked"
