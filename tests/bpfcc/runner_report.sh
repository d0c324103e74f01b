# SPDX-License-Identifier: MIT
# Sourced by the bpfcc tests that read the report a program built by kfsim-bpf-cc prints: one
# program's block of it, and the check that kfsim and the kernel both accept programs and return
# the same value.  The test that sources it defines fail().

# prog_block PROG REPORT: PROG's result line in REPORT and the indented lines under it
prog_block() {
	awk -v p="$1" '$2 == p { on = 1; print; next } on && /^        / { print; next } { on = 0 }' "$2"
}

# both_accept_same_retval REPORT PROG...: each PROG accepted by kfsim and by the running kernel,
# its native return value the kernel's test run's
both_accept_same_retval() {
	local report=$1 prog block native kernel
	shift
	for prog in "$@"; do
		block=$(prog_block "$prog" "$report")
		grep -q "kfsim ACCEPT  kernel ACCEPT" <<<"$block" || fail "$prog: not accepted by both"
		native=$(grep -m1 '^        retval:' <<<"$block" | awk '{ print $2 }')
		kernel=$(grep "the kernel's test run" <<<"$block" | awk '{ print $2 }')
		[ -n "$native" ] && [ "$native" = "$kernel" ] ||
			fail "$prog: kfsim returned '$native', the kernel '$kernel'"
		echo "$prog: kfsim and the kernel both return $native"
	done
}
