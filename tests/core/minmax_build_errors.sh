#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# min()/max()/clamp() refuse at build time what 6.12's include/linux/minmax.h refuses, with its
# message: a signed variable against an unsigned one (or a negative constant against an
# unsigned variable), and a constant clamp() range with lo > hi.  At -O0 as at -O2.
#
# Usage: minmax_build_errors.sh CC COMPATDIR INCDIR GENINCDIR
set -euo pipefail
cc=$1 compat=$2 inc=$3 geninc=$4
compilers=("$cc")
# clang too when installed: the fuzzing build compiles the library with it, and it is stricter
# about what a _Static_assert may compare
if command -v clang >/dev/null && [ "$(basename "$cc")" != clang ]; then
	compilers+=(clang)
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kfsim-minmax.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0
# expression|message the compiler must print ("" = must compile)
while IFS='|' read -r expr message; do
	printf '#include <linux/kernel.h>\n#include <linux/minmax.h>\nint f(int iv, unsigned int uv, unsigned char u8v, double dv)\n{\n\treturn (int)(%s);\n}\n' \
		"$expr" >"$tmp/t.c"
	for run in "${compilers[@]/%/ -O0}" "${compilers[@]/%/ -O2}"; do
		cc=${run% *} opt=${run##* }
		if "$cc" -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Werror $opt -I"$compat" -I"$inc" -I"$geninc" -c "$tmp/t.c" \
			-o "$tmp/t.o" 2>"$tmp/err"; then
			[ -z "$message" ] && continue
			echo "FAIL: $expr compiled ($cc $opt); 6.12 refuses it: $message"
		elif [ -n "$message" ] && grep -qF "$message" "$tmp/err"; then
			continue
		else
			echo "FAIL: $expr ($cc $opt):"; cat "$tmp/err"
		fi
		status=1
	done
	echo "compared: $expr -> ${message:-compiles}"
done <<'CASES'
min(iv, uv)|min(iv, uv) signedness error
max(uv, -1)|max(uv, -1) signedness error
min(iv, 5u)|min(iv, 5u) signedness error
min3(iv, uv, 3)|min3(iv, uv, 3) signedness error
clamp(iv, 0u, uv)|clamp(iv, 0u, uv) signedness error
clamp(iv, 10, 5)|clamp() low limit 10 greater than high limit 5
clamp_t(int, uv, 10, 5)|clamp() low limit 10 greater than high limit 5
min(uv, 5)|
min(u8v, iv)|
max(u8v, uv) - min(uv, (unsigned char)1)|
clamp(uv, 0, 10)|
umin(iv, uv)|
min_t(int, iv, uv)|
min(dv, 1.0) + max(dv, 0) + clamp(dv, 0.0, 1.0)|
clamp(dv, 0, 1.5) + min(uv, dv)|
CASES
exit $status
