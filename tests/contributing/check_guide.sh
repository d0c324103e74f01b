#!/usr/bin/env bash
# CONTRIBUTING.md, followed literally: each example extension of this folder is put into a
# scratch copy of the source tree exactly where the guide says (and nothing else is edited),
# the kfsim program (and kfsim-bpf-cc, which `kfsim bpf test` runs) is built from it, and the
# extension is used through kfsim.  If the guide and the code part, this fails.
#   check_guide.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
tree=$work/tree build=$work/build
fail() { echo "check_guide: $*" >&2; exit 1; }

rm -rf "$tree" && mkdir -p "$tree" "$build"
# what the library and the program are built from (no tests, no benchmarks)
for part in CMakeLists.txt cmake include src specs examples; do
	cp -a "$src/$part" "$tree/"
done
cp -a "$tree" "$work/pristine.tmp" && rm -rf "$work/pristine" && mv "$work/pristine.tmp" "$work/pristine"

# "A command": src/cli/cmd_<name>.c, nothing else is edited
cp "$here/cmd_hello.c" "$tree/src/cli/cmd_hello.c"
# "An I/O scheduler": src/bfq/sched_<name>.c plus the row X(<name>) in elevator.c
cp "$here/sched_lifo.c" "$tree/src/bfq/sched_lifo.c"
grep -q '^	X(mq_deadline)$' "$tree/src/bfq/elevator.c" || fail "elevator.c: no X(mq_deadline) row"
sed -i 's/^	X(mq_deadline)$/	X(mq_deadline)\t\\\n\tX(lifo)/' "$tree/src/bfq/elevator.c"

# "A generic netlink family": src/standin/family_<name>.c plus its row in genl_builtin.c
cp "$here/family_hello.c" "$tree/src/standin/family_hello.c"
row='	X(KFSIM_DEMO_FAMILY_NAME, NULL, demo_init)'
grep -qxF "$row" "$tree/src/standin/genl_builtin.c" || fail "genl_builtin.c: no demo row"
sed -i 's/^\tX(KFSIM_DEMO_FAMILY_NAME, NULL, demo_init)$/&\t\\\n\tX("kfsim_hello", "the guide'"'"'s example", kfsim_hello_genl_init)/' \
	"$tree/src/standin/genl_builtin.c"

# Put @fragment's lines into @file before the first line equal to @line, or (with --row-end)
# before the "};" that closes the table opened on that line.
insert() {
	python3 - "$@" <<'PY'
import sys
args = sys.argv[1:]
row_end = args[0] == "--row-end"
path, line, fragment = args[1:] if row_end else args
text = open(path).read().split("\n")
if line not in text:
    sys.exit(f"check_guide: {path}: no line {line!r}")
at = text.index(line)
if row_end:
    at = text.index("};", at)
text[at:at] = open(fragment).read().rstrip("\n").split("\n")
open(path, "w").write("\n".join(text))
PY
}

# "A PHY driver": one row in the driver table plus its quirk function; a new part is one row
# in the silicon table (with its registers) and one enum value, all in src/plca/phy_drivers.c
# and include/kfsim/phy.h
phy=$tree/src/plca/phy_drivers.c
insert "$phy" "/* The built-in driver table: one row per driver (and per release in which it changed). */" \
	"$here/phy_guide/quirks.c"
insert --row-end "$phy" "static const struct phy_driver phy_driver_table[] = {" "$here/phy_guide/driver_row.c"
insert "$phy" "/* The silicon: one row per model, its configuration-file name listed here only. */" \
	"$here/phy_guide/silicon.c"
insert --row-end "$phy" "} phy_models[KFSIM_PHY_NR_MODELS] = {" "$here/phy_guide/silicon_row.c"
insert "$tree/include/kfsim/phy.h" "	KFSIM_PHY_NR_MODELS," "$here/phy_guide/enum_value.h"

# "A BPF kfunc": one row (its kernel-doc block right above it) in the one list, its body in a
# collection file src/bpf/bpf_<collection>.c, and that file one word in bpf_kfunc_srcs
list=$tree/include/kfsim/bpf_kfunc_list.h
grep -q '^/\* clang-format on \*/$' "$list" || fail "bpf_kfunc_list.h: no end of the list"
python3 - "$list" "$here/kfunc_guide/row.h" <<'PY'
import sys
path, fragment = sys.argv[1:]
text = open(path).read().split("\n")
end = text.index("/* clang-format on */")
text[end - 1] += "\t\\"	# the last row now continues the macro
text[end:end] = open(fragment).read().rstrip("\n").split("\n")
open(path, "w").write("\n".join(text))
PY
cp "$here/kfunc_guide/bpf_guide.c" "$tree/src/bpf/bpf_guide.c"
grep -q '^set(bpf_kfunc_srcs .*)$' "$tree/src/bpf/CMakeLists.txt" || fail "no bpf_kfunc_srcs"
sed -i 's/^set(bpf_kfunc_srcs \(.*\))$/set(bpf_kfunc_srcs \1 bpf_guide)/' "$tree/src/bpf/CMakeLists.txt"

# the files touched are exactly those the guide names
touched=$(cd "$work" && { diff -rq pristine tree || true; } | sed -E 's#^Only in tree/([^:]*): (.*)#\1/\2#;
	s#^Files pristine/([^ ]*) and .*#\1#' | sort | tr '\n' ' ')
expected="include/kfsim/bpf_kfunc_list.h include/kfsim/phy.h src/bfq/elevator.c src/bfq/sched_lifo.c src/bpf/CMakeLists.txt src/bpf/bpf_guide.c src/cli/cmd_hello.c src/plca/phy_drivers.c src/standin/family_hello.c src/standin/genl_builtin.c "
echo "files touched: $touched"
[ "$touched" = "$expected" ] || fail "expected to touch: $expected"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S "$tree" -B "$build" -DKFSIM_BUILD_TESTS=OFF -DKFSIM_BUILD_BENCH=OFF "${launcher[@]}" \
	>"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure failed"; }
cmake --build "$build" -j"$(nproc)" --target kfsim_cli kfsim-bpf-cc >"$work/build.log" 2>&1 ||
	{ tail -50 "$work/build.log"; fail "build failed"; }
kfsim=$build/kfsim

# the command
out=$("$kfsim" hello); [ "$out" = "hello, world" ] || fail "kfsim hello printed '$out'"
out=$("$kfsim" hello --json); [ "$out" = '{"hello": "world"}' ] || fail "kfsim hello --json: '$out'"
help=$("$kfsim" --help)
grep -q '^  hello  *the guide' <<<"$help" || fail "kfsim --help does not list hello"
status=0; "$kfsim" hello --jsn 2>/dev/null || status=$?
[ $status -eq 2 ] || fail "kfsim hello --jsn exited $status, not 2"
echo "command: kfsim hello, --json, --help and a bad option behave as the guide says"

# the scheduler: help, --sched, and compare without --scheds all come from the registry
help=$("$kfsim" bfq --help)
grep -q '^  lifo  *last in, first out' <<<"$help" || fail "kfsim bfq --help lacks lifo"
job=(--job name=a,rw=randread,bs=4k,iodepth=4 --job name=b,rw=read,bs=64k,iodepth=2,offset=50%)
"$kfsim" bfq sim --sched lifo --duration 200ms "${job[@]}" --json >"$work/sim.json" ||
	fail "kfsim bfq sim --sched lifo failed"
grep -q '"sched": *"lifo"' "$work/sim.json" || fail "the run did not use lifo"
"$kfsim" bfq compare --duration 200ms "${job[@]}" >"$work/compare.txt" ||
	fail "kfsim bfq compare failed"
grep -qw lifo "$work/compare.txt" || fail "kfsim bfq compare without --scheds skipped lifo"
echo "scheduler: listed in kfsim bfq --help, run by --sched lifo and by compare"

# the family: registered in every namespace the table builds, its policy enforced
help=$("$kfsim" nl --help)
grep -q "kfsim_hello (the guide's example)" <<<"$help" || fail "kfsim nl --help does not list kfsim_hello"
"$kfsim" nl policy --family kfsim_hello --op 1 >"$work/policy.txt" ||
	fail "kfsim nl policy --family kfsim_hello failed"
grep -q 'attr 1: u32 range 1..10' "$work/policy.txt" || fail "kfsim_hello's policy: $(cat "$work/policy.txt")"
"$kfsim" nl decode --family kfsim_hello --op 1 0800010005000000 >"$work/ok.txt" ||
	fail "a COUNT of 5 was refused"
status=0; "$kfsim" nl decode --family kfsim_hello --op 1 080001000b000000 >"$work/bad.txt" 2>&1 ||
	status=$?
[ $status -eq 1 ] && grep -q 'integer out of range' "$work/bad.txt" ||
	fail "a COUNT of 11 was not refused by the policy: $(cat "$work/bad.txt")"
echo "family: kfsim_hello listed by kfsim nl --help, its policy dumped and enforced"

# the PHY driver: a part of the new silicon binds it from 6.6 on and gets its quirk; before, the
# Generic PHY binds it, which has no PLCA ops
printf 'dev eth0 phy guide-t1s\n' >"$work/phy.conf"
"$kfsim" --kver 6.6 ethtool --config "$work/phy.conf" --get-plca-cfg eth0 >"$work/phy.txt" ||
	fail "kfsim ethtool --get-plca-cfg on a guide-t1s failed: $(cat "$work/phy.txt")"
grep -q 'TO timer: 32 BT' "$work/phy.txt" || fail "the quirk did not run: $(cat "$work/phy.txt")"
status=0; "$kfsim" --kver 6.5 ethtool --config "$work/phy.conf" --get-plca-cfg eth0 \
	>"$work/phy65.txt" 2>&1 || status=$?
[ $status -eq 1 ] && grep -q 'Operation not supported' "$work/phy65.txt" ||
	fail "the driver bound before 6.6: $(cat "$work/phy65.txt")"
status=0; "$kfsim" ethtool --config /dev/stdin --get-plca-cfg eth0 <<<"dev eth0 phy no-such" \
	>"$work/phybad.txt" 2>&1 || status=$?
grep -q 'guide-t1s' "$work/phybad.txt" || fail "the list of models lacks guide-t1s: $(cat "$work/phybad.txt")"
echo "PHY driver: guide-t1s binds 'Guide T1S PHY' from 6.6 (TO timer 32 after its quirk), not in 6.5"

# the kfunc: listed with its row's doc line and release, declared for BPF C from the row, run
# natively by kfsim bpf test, its lock rule applied by the common entry
python3 "$src/tests/bpf/check_kfunc_docs.py" "$tree" >"$work/kfunc_docs.txt" ||
	fail "the example kfunc's kernel-doc is not beside its row: $(cat "$work/kfunc_docs.txt")"
kfuncs=$("$kfsim" bpf kfuncs)
grep -q "^  bpf_guide_triple .*since 6.3.0" <<<"$kfuncs" || fail "kfsim bpf kfuncs does not list bpf_guide_triple"
grep -q "three times its argument (the guide's example)" <<<"$kfuncs" || fail "its doc line is missing"
"$kfsim" bpf test --keep "$work/bpf" "$here/kfunc_guide/guide_triple.bpf.c" >"$work/bpf.txt" 2>&1 ||
	fail "kfsim bpf test on the example kfunc failed: $(cat "$work/bpf.txt")"
grep -q '^PASS *triple_seven' "$work/bpf.txt" && grep -q '^PASS *triple_under_lock' "$work/bpf.txt" ||
	fail "the example kfunc's programs: $(cat "$work/bpf.txt")"
echo "kfunc: bpf_guide_triple listed by kfsim bpf kfuncs, returns 21 for 7, refused under a lock"
