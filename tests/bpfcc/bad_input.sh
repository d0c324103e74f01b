#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# kfsim-bpf-cc and `kfsim bpf test` on bad input: a file that does not compile for BPF, BPF
# assembly (a __naked program), a kfunc
# kfsim does not have, a helper the native runtime does not have, a missing file, a bad command
# line.  Each gets one clear message naming the file (and the line and the kfunc or helper) and
# exit status 1 (2 for the command line), and no program is left behind.
#
# Usage: bad_input.sh OUT_DIR KFSIM_BPF_CC KFSIM
set -euo pipefail
out=$1 bpfcc=$2 kfsim=$3

skip() { echo "skipped: $*"; exit 77; }
[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux to dump vmlinux.h from"
command -v clang >/dev/null || skip "clang is not installed"
command -v bpftool >/dev/null || skip "bpftool is not installed"

rm -rf "$out"
mkdir -p "$out/include"
bpftool btf dump file /sys/kernel/btf/vmlinux format c >"$out/include/vmlinux.h"
failures=0

# expect STATUS PATTERN COMMAND...: the exit status and a line of stderr matching PATTERN
expect() {
	local status=$1 pattern=$2 got=0
	shift 2
	"$@" >"$out/stdout" 2>"$out/stderr" || got=$?
	if [ "$got" != "$status" ] || ! grep -Eq -- "$pattern" "$out/stderr"; then
		echo "FAIL: $* -> exit $got (want $status), stderr:"
		sed 's/^/    /' "$out/stderr" | tail -5
		failures=$((failures + 1))
	else
		echo "ok: exit $got: $(grep -Em1 -- "$pattern" "$out/stderr")"
	fi
}

head='#include <vmlinux.h>
#include <bpf/bpf_helpers.h>
#include "bpf_experimental.h"'

printf '%s\nSEC("tc") int broken(void *ctx)\n{\n\treturn undeclared_thing;\n}\n' "$head" >"$out/syntax.bpf.c"
expect 1 'syntax.bpf.c:6:.*undeclared_thing' "$bpfcc" -I "$out/include" -o "$out/syntax" "$out/syntax.bpf.c"
expect 1 'syntax.bpf.c does not compile for BPF' "$bpfcc" -I "$out/include" -o "$out/syntax" "$out/syntax.bpf.c"

printf '%s\nextern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym;\n\nSEC("tc") int uses_task(void *ctx)\n{\n\tbpf_task_acquire((void *)0);\n\treturn 0;\n}\n' "$head" >"$out/kfunc.bpf.c"
expect 1 'kfunc.bpf.c:8: kfunc bpf_task_acquire is not provided by kfsim' "$bpfcc" -I "$out/include" -o "$out/kfunc" "$out/kfunc.bpf.c"

printf '%s\n\nSEC("tc") int uses_pid(void *ctx)\n{\n\treturn bpf_get_current_pid_tgid() & 1;\n}\n' "$head" >"$out/helper.bpf.c"
expect 1 'helper.bpf.c:7: helper bpf_get_current_pid_tgid is not provided by kfsim' "$bpfcc" -I "$out/include" -o "$out/helper" "$out/helper.bpf.c"

# BPF assembly (the selftests' verifier_*.c programs): gcc cannot build it for the host
printf '%s\n#define __naked __attribute__((naked))\n\nSEC("tc") __naked int in_asm(void)\n{\n\tasm volatile ("r0 = 0; exit;");\n}\n' "$head" >"$out/naked.bpf.c"
expect 1 'naked.bpf.c:6: in_asm is BPF assembly \(__naked\)' "$bpfcc" -I "$out/include" -o "$out/naked" "$out/naked.bpf.c"
# BPF assembly in a C function (the selftests' jeq_infer_not_null_fail.c): named by line, not
# left to the host assembler's "no such instruction"
printf '%s\n\nSEC("tc") int inline_asm(void *ctx)\n{\n\tint r;\n\n\tasm volatile ("%%[r] = 1;" : [r] "=r"(r));\n\treturn r;\n}\n' "$head" >"$out/inline.bpf.c"
expect 1 'inline.bpf.c:9: BPF assembly in a C function' "$bpfcc" -I "$out/include" -o "$out/inline" "$out/inline.bpf.c"
# an open-coded iterator kfsim does not provide (bpf_for_each(bits, ...), 6.11): refused by name at
# the loop's line (the numeric one, behind bpf_for() and bpf_repeat(), is the runtime's)
printf '%s\n\nextern int bpf_iter_bits_new(struct bpf_iter_bits *it, const u64 *p, u32 nr) __ksym;\nextern int *bpf_iter_bits_next(struct bpf_iter_bits *it) __ksym;\nextern void bpf_iter_bits_destroy(struct bpf_iter_bits *it) __ksym;\n\nSEC("tc") int iter_loop(void *ctx)\n{\n\tu64 mask = 5;\n\tint *v, s = 0;\n\n\tbpf_for_each(bits, v, &mask, 1)\n\t\ts += *v;\n\treturn s;\n}\n' "$head" >"$out/iter.bpf.c"
expect 1 'iter.bpf.c:14: kfunc bpf_iter_bits_new is not provided by kfsim' "$bpfcc" -I "$out/include" -o "$out/iter" "$out/iter.bpf.c"
expect 2 "^kfsim-bpf-cc: invalid value 'v9' for --mcpu" "$bpfcc" -o "$out/x" --mcpu v9 "$out/helper.bpf.c"

expect 1 'no-such-file.bpf.c: No such file' "$bpfcc" -o "$out/x" "$out/no-such-file.bpf.c"
expect 2 "^kfsim-bpf-cc: option '--output' is required" "$bpfcc" "$out/helper.bpf.c"
expect 2 "^kfsim-bpf-cc: invalid value 'thread' for --sanitize: expected address" "$bpfcc" -o "$out/x" --sanitize thread "$out/helper.bpf.c"
expect 2 "^kfsim-bpf-cc: unknown option '--bogus' \\(see 'kfsim-bpf-cc --help'\\)" "$bpfcc" --bogus -o "$out/x" "$out/helper.bpf.c"
expect 2 "^kfsim-bpf-cc: missing PROG.c" "$bpfcc" -o "$out/x"
expect 1 'kfunc bpf_task_acquire is not provided by kfsim' "$kfsim" bpf test -I "$out/include" "$out/kfunc.bpf.c"
expect 2 'missing the BPF C file' "$kfsim" bpf test
expect 2 "unknown option '--bogus' \\(see 'kfsim bpf --help'\\)" "$kfsim" bpf test --bogus "$out/kfunc.bpf.c"

# a program that never ends or crashes natively (the verifier would refuse both) is reported,
# and the others still run (in a sanitizer build, UBSan reports the NULL load: SANITIZER)
printf '%s\n#include "bpf_misc.h"\n\nSEC("tc") __success int spins(struct __sk_buff *ctx)\n{\n\tvolatile int go = 1;\n\n\twhile (go)\n\t\t;\n\treturn 0;\n}\n\nSEC("tc") __success int faults(struct __sk_buff *ctx)\n{\n\treturn *(volatile int *)(long)ctx->len;\n}\n\nSEC("tc") __success __retval(7) int fine(void *ctx)\n{\n\treturn 7;\n}\n' "$head" >"$out/runaway.bpf.c"
if "$bpfcc" -I "$out/include" -o "$out/runaway" "$out/runaway.bpf.c" 2>"$out/stderr"; then
	got=0
	"$out/runaway" --timeout 1 >"$out/stdout" 2>&1 || got=$?
	if [ "$got" = 1 ] && grep -q "^FAIL    spins .*kfsim HANG" "$out/stdout" &&
	   grep -Eq "^FAIL    faults .*kfsim (CRASH|SANITIZER)" "$out/stdout" && grep -q "^PASS    fine " "$out/stdout"; then
		echo "ok: exit 1: a hang and a crash reported, the other program still run"
	else
		echo "FAIL: runaway programs -> exit $got:"; sed 's/^/    /' "$out/stdout"
		failures=$((failures + 1))
	fi
	rm -f "$out/runaway"
else
	echo "FAIL: runaway.bpf.c did not build:"; tail -5 "$out/stderr"
	failures=$((failures + 1))
fi

for prog in syntax kfunc helper x; do
	if [ -e "$out/$prog" ]; then
		echo "FAIL: $out/$prog was left behind"
		failures=$((failures + 1))
	fi
done
[ "$failures" = 0 ] && echo "all bad input refused" || exit 1
