#!/usr/bin/env bash
# CONTRIBUTING.md, followed literally: each example extension of this folder is put into a
# scratch copy of the source tree exactly where the guide says (and nothing else is edited),
# the kfsim program is built from it, and the extension is used through kfsim.  If the guide
# and the code part, this fails.
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

# the files touched are exactly those the guide names
touched=$(cd "$work" && { diff -rq pristine tree || true; } | sed -E 's#^Only in tree/([^:]*): (.*)#\1/\2#;
	s#^Files pristine/([^ ]*) and .*#\1#' | sort | tr '\n' ' ')
expected="src/bfq/elevator.c src/bfq/sched_lifo.c src/cli/cmd_hello.c src/standin/family_hello.c src/standin/genl_builtin.c "
echo "files touched: $touched"
[ "$touched" = "$expected" ] || fail "expected to touch: $expected"

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
cmake -S "$tree" -B "$build" -DKFSIM_BUILD_TESTS=OFF -DKFSIM_BUILD_BENCH=OFF "${launcher[@]}" \
	>"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure failed"; }
cmake --build "$build" -j"$(nproc)" --target kfsim_cli >"$work/build.log" 2>&1 ||
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
