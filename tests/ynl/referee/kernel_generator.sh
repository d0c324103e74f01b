#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# ctest ynl/kernel_generator (label oracle): the kernel's own generator as referee of
# kfsim-ynl-gen, on every spec of Debian's linux-source-6.12.
#
# 1. Policies, at the data level: for each spec the kernel's tools/net/ynl/ynl-gen-c.py renders
#    in kernel mode, its output (header + source) and kfsim-ynl-gen's are each compiled against
#    kfsim's headers (tests/ynl/referee/shim stands in for <net/netlink.h>), registered in an
#    in-process kernel, and dumped with CTRL_CMD_GETPOLICY (policy_dump.c); the dumps must be
#    the same.  Undefined handlers get stubs; the kernel output's sock-priv lines are dropped
#    (kfsim has no per-socket private data); every CONFIG_ condition is taken as set.
# 2. uapi headers: kfsim's F-uapi.h against the kernel tree's include/uapi/linux/*.h, byte for
#    byte once the banner comment and the include guard (kfsim's own) are set aside.
# Every difference must be listed in tests/ynl/referee/differences.txt with its reason (a spec
# kfsim-ynl-gen refuses, where ynl-gen-c.py does not: as "KIND NAME kfsim-refuses | reason").
#
# Arguments: GEN OUT_DIR CC "CFLAGS" "LIBS" KFSIM_LIB
# Env: KFSIM_LINUX_TREE (the oracle fixture).  Exit: 0, 1 (unlisted difference), 77 (skipped).
set -euo pipefail

gen=$1 out=$2 cc=$3 cflags=$4 libs=$5 kfsim_lib=$6
here=$(cd "$(dirname "$0")" && pwd)
tree=${KFSIM_LINUX_TREE:-}
specs=$tree/Documentation/netlink/specs
ynlgen=$tree/tools/net/ynl/ynl-gen-c.py

for need in "$specs" "$ynlgen" "$tree/include/uapi/linux" "$tree/MAINTAINERS"; do
	if [ ! -e "$need" ]; then
		echo "skipped: $need is missing (oracle/linux-source fixture)"
		exit 77
	fi
done
if ! python3 -c 'import yaml, jsonschema' 2> /dev/null; then
	echo "skipped: python3-yaml and python3-jsonschema are needed by ynl-gen-c.py"
	exit 77
fi

rm -rf "$out"
mkdir -p "$out"
known=$here/differences.txt

# Undefined symbols of an object that neither libc nor kfsim define: the handlers and hooks.
libc_syms=$out/libc.syms
nm -D --defined-only "$(gcc -print-file-name=libc.so.6)" 2> /dev/null |
	awk '{print $3}' | sed 's/@.*//' | sort -u > "$libc_syms"
nm --defined-only "$kfsim_lib" 2> /dev/null | awk 'NF == 3 {print $3}' | sort -u >> "$libc_syms"
sort -u -o "$libc_syms" "$libc_syms"

stubs_for() { # OBJ... > C: what the objects use, define nowhere, and libc/kfsim lack
	local defined
	defined=$(mktemp)
	nm --defined-only "$@" | awk 'NF == 3 {print $3}' | sort -u > "$defined"
	nm -u "$@" | awk 'NF == 2 {print $2}' | sort -u | comm -23 - "$libc_syms" |
		comm -23 - "$defined" | sed 's/.*/int &(void); int &(void) { return -524; }/'
	rm -f "$defined"
}

# kfsim's uapi header against the kernel tree's, or, where the tree's is hand-written (no
# "YNL-GEN" mark), against ynl-gen-c.py --mode uapi.  kfsim's banner and include guard are its
# own (docs/ynl.md): they are set aside (6.12's guard for a header in a folder keeps the '/':
# _UAPI_LINUX_ANDROID/BINDER_NETLINK_H for 6.18's binder.yaml).
normalize() {
	sed -e '/^\/\* Do not edit directly/,+1d' \
	    -e 's/KFSIM_YNL_[A-Z0-9_]*_UAPI_H/GUARD/; s|_UAPI_LINUX_[A-Z0-9_/]*_H|GUARD|' "$1"
}
compare_uapi() { # DIR NAME IDENT HDR
	local dir=$1 name=$2 ident=$3 hdr=$4 ref what
	ref=$tree/include/uapi/$hdr
	what="include/uapi/$hdr"
	if [ ! -f "$ref" ] || ! grep -q 'YNL-GEN' "$ref"; then
		ref=$dir/k/uapi/$hdr
		what="ynl-gen-c.py --mode uapi (include/uapi/$hdr is hand-written or absent)"
	fi
	if [ ! -f "$ref" ]; then
		echo "uapi $name: nothing to compare with: include/uapi/$hdr is hand-written or" \
			"absent and ynl-gen-c.py renders no uapi header" > "$dir/uapi"
		return
	fi
	normalize "$dir/f/$ident-uapi.h" > "$dir/uapi.kfsim"
	normalize "$ref" > "$dir/uapi.kernel"
	if cmp -s "$dir/uapi.kfsim" "$dir/uapi.kernel"; then
		echo "uapi $name: identical to $what" > "$dir/uapi"
	else
		diff "$dir/uapi.kernel" "$dir/uapi.kfsim" > "$dir/uapi.diff" || true
		echo "uapi $name: differs from $what ($(grep -c '^[<>]' "$dir/uapi.diff") lines," \
			"see $dir/uapi.diff)" > "$dir/uapi"
	fi
}

# The kernel's generator is the slowest part of this referee (a Python start and a schema check
# per call, three calls per spec) and its output depends on nothing but its own files, the spec
# and the arguments: each output is kept under that hash in $XDG_CACHE_HOME/kfsim/ynl-gen-c (or
# ~/.cache), so that the sanitizer builds' runs of this test reuse the plain build's answers.  A
# changed spec or generator is a new hash: the generator runs again.
cache=""
if [ -n "${XDG_CACHE_HOME:-}" ]; then
	cache=$XDG_CACHE_HOME/kfsim/ynl-gen-c
elif [ -n "${HOME:-}" ]; then
	cache=$HOME/.cache/kfsim/ynl-gen-c
fi
[ -z "$cache" ] || mkdir -p "$cache" 2> /dev/null || cache="" # no cache: the generator runs
gen_hash=$(cat "$ynlgen" "$tree"/tools/net/ynl/lib/*.py "$tree"/Documentation/netlink/*.yaml |
	sha256sum | cut -c1-16)
kernel_gen() { # SPEC OUT ARGS...: ynl-gen-c.py ARGS --spec SPEC -o OUT in the tree, or its cache
	local spec=$1 out=$2 key
	shift 2
	key=$( { echo "$gen_hash $*"; cat "$spec"; } | sha256sum | cut -c1-32)
	if [ -n "$cache" ] && [ -f "$cache/$key.ok" ]; then
		cp "$cache/$key.ok" "$out"
		return 0
	fi
	if [ -n "$cache" ] && [ -f "$cache/$key.failed" ]; then
		cat "$cache/$key.failed"
		return 1
	fi
	if (cd "$tree" && python3 "$ynlgen" "$@" --spec "$spec" -o "$out") > "$out.log" 2>&1; then
		if [ -n "$cache" ]; then
			cp "$out" "$cache/$key.tmp.$$"
			mv "$cache/$key.tmp.$$" "$cache/$key.ok"
		fi
		cat "$out.log"
		rm -f "$out.log"
		return 0
	fi
	if [ -n "$cache" ]; then
		cp "$out.log" "$cache/$key.failed"
	fi
	cat "$out.log"
	rm -f "$out.log"
	return 1
}

one_spec() {
	local spec=$1 name ident dir kind resv hdrsize
	name=$(basename "$spec" .yaml)
	dir=$out/$name
	mkdir -p "$dir/k" "$dir/f" "$dir/shim"
	ident=$(sed -n 's/^name:[[:space:]]*\([A-Za-z0-9_-]*\).*/\1/p' "$spec" | head -1 | tr - _)

	# kfsim-ynl-gen: uapi and kernel.  A refusal is compared with the kernel generator's verdict.
	if ! "$gen" --mode uapi --mode kernel --out-dir "$dir/f" "$spec" 2> "$dir/f/gen.log"; then
		local why kwhy
		why=$(grep -v ': warning: ' "$dir/f/gen.log" | head -1 | sed "s|^$spec:||")
		# 6.12's generator refuses every netlink-raw spec ("Codegen only supported for
		# genetlink"): that is no verdict on the spec, and kfsim's refusal stays a difference
		if grep -q '^protocol:[[:space:]]*netlink-raw' "$spec" ||
		   kernel_gen "$spec" "$dir/k/refused.h" --mode kernel --header > "$dir/k/log" 2>&1; then
			echo "policy $name: kfsim-ynl-gen refuses the spec ($why), ynl-gen-c.py" \
				"does not" > "$dir/policy"
		else
			kwhy=$(grep -m1 -E 'Exception|Error' "$dir/k/log" | cut -c1-100)
			echo "policy $name: same verdict: both refuse (kfsim-ynl-gen: $why;" \
				"ynl-gen-c.py: $kwhy)" > "$dir/policy"
		fi
		if grep -q '^protocol:[[:space:]]*netlink-raw' "$spec" ||
		   kernel_gen "$spec" "$dir/k/refused-uapi.h" --mode uapi --header > "$dir/k/ulog" 2>&1
		then
			echo "uapi $name: kfsim-ynl-gen refuses the spec ($why), ynl-gen-c.py" \
				"does not" > "$dir/uapi"
		else
			echo "uapi $name: same verdict: both refuse (kfsim-ynl-gen: $why)" > "$dir/uapi"
		fi
		return
	fi

	hdr=$(python3 -c 'import sys, yaml
s = yaml.safe_load(open(sys.argv[1]))
print(s.get("uapi-header", "linux/%s.h" % s["name"].replace("-", "_")))' "$spec")
	# the kernel's generator, uapi mode (6.12 renders none for directional specs)
	mkdir -p "$dir/k/uapi/$(dirname "$hdr")"
	kernel_gen "$spec" "$dir/k/uapi/$hdr" --mode uapi --header > "$dir/k/uapi.log" 2>&1 ||
		rm -f "$dir/k/uapi/$hdr"
	compare_uapi "$dir" "$name" "$ident" "$hdr"

	# the kernel's generator, kernel mode (it needs the tree root: MAINTAINERS)
	if ! { kernel_gen "$spec" "$dir/k/$name-nl-gen.h" --mode kernel --header &&
		kernel_gen "$spec" "$dir/k/$name-nl-gen.c" --mode kernel --source; } > "$dir/k/log" 2>&1; then
		echo "policy $name: not rendered by ynl-gen-c.py ($(grep -m1 -E 'Exception|Error' \
			"$dir/k/log" | cut -c1-100))" > "$dir/policy"
		return
	fi
	# -- the kernel's output, compiled against kfsim
	sed -i -e '/^static void __.*_sock_priv_/,/^}/d' -e '/sock_priv/d' "$dir/k/$name-nl-gen.c"
	local conds="" missing hdrs
	conds=$( (grep -ho 'CONFIG_[A-Z0-9_]*' "$dir/k/$name-nl-gen.c" || true) | sort -u |
		sed 's/.*/-D&=1/' | tr '\n' ' ')
	# headers the spec names for the kernel side are kernel-internal: empty stand-ins
	hdrs=$(python3 -c 'import sys, yaml
s = yaml.safe_load(open(sys.argv[1]))
print(" ".join(s.get("kernel-family", {}).get("headers", [])))' "$spec")
	for h in $hdrs; do
		mkdir -p "$dir/shim/$(dirname "$h")"
		: > "$dir/shim/$h"
	done
	kind=split
	if grep -q 'extern struct genl_family' "$dir/k/$name-nl-gen.h"; then
		kind=family
	elif grep -q 'genl_small_ops' "$dir/k/$name-nl-gen.h"; then
		kind=global
	elif grep -q 'struct genl_ops ' "$dir/k/$name-nl-gen.h"; then
		kind=per-op
	fi
	resv=$(sed -n 's/.*\.resv_start_op = \([0-9]*\).*/\1/p' "$dir/f/$ident-kernel.h" | head -1)
	# the fixed header's size, as kfsim's output (its struct has the same layout) says
	hdrsize=$(sed -n 's/.*\.hdrsize = \(.*\), \\$/\1/p' "$dir/f/$ident-kernel.h" | head -1)
	if [ -n "$hdrsize" ] && [ "$hdrsize" != 0 ]; then
		# shellcheck disable=SC2086
		printf '#include <stdio.h>\n#include "%s-kernel.h"\nint main(void)\n{\n\tprintf("%%zu\\n", %s);\n\treturn 0;\n}\n' \
			"$ident" "$hdrsize" | $cc -std=gnu11 -w $cflags -I"$dir/f" -x c - -o "$dir/f/hdrsize" &&
			hdrsize=$("$dir/f/hdrsize")
	fi
	{
		echo "#include <net/genetlink.h>"
		echo "#include \"$name-nl-gen.h\""
		echo "void referee_family(struct genl_family *f);"
		echo "void referee_family(struct genl_family *f)"
		echo "{"
		case $kind in
		family) echo "	*f = ${ident}_nl_family;" ;;
		split) echo "	f->split_ops = ${ident}_nl_ops;"
			echo "	f->n_split_ops = ARRAY_SIZE(${ident}_nl_ops);" ;;
		global) echo "	f->small_ops = ${ident}_nl_ops;"
			echo "	f->n_small_ops = ARRAY_SIZE(${ident}_nl_ops);"
			echo "	f->policy = ${ident}_nl_policy;"
			echo "	f->maxattr = ARRAY_SIZE(${ident}_nl_policy) - 1;" ;;
		per-op) echo "	f->ops = ${ident}_nl_ops;"
			echo "	f->n_ops = ARRAY_SIZE(${ident}_nl_ops);" ;;
		esac
		# a hand-written family's own fields: the fixed header, resv_start_op (kfsim's table)
		if [ "$kind" != family ]; then
			echo "	f->hdrsize = ${hdrsize:-0};"
			echo "	f->resv_start_op = ${resv:-0};"
		fi
		echo "}"
	} > "$dir/k/family.c"
	# shellcheck disable=SC2086
	build() { # DIR SOURCES... -> DIR/dump
		local d=$1
		shift
		local tries=0 miss
		# kernel-internal headers the output names: empty stand-ins, one at a time
		until $cc -std=gnu11 -w -c $cflags $conds -I"$here/shim" -I"$dir/shim" -I"$dir/k" \
			-I"$tree/include" -I"$d" "$@" 2> "$d/cc.log"; do
			miss=$(sed -n 's/.*fatal error: \(.*\): No such file or directory/\1/p' \
				"$d/cc.log" | head -1)
			tries=$((tries + 1))
			[ -n "$miss" ] && [ $tries -lt 8 ] || return 1
			mkdir -p "$dir/shim/$(dirname "$miss")"
			: > "$dir/shim/$miss"
		done
		local objs
		objs=$(for s in "$@"; do basename "${s%.c}.o"; done)
		(cd "$d" && stubs_for $objs) > "$d/stubs.c"
		$cc -std=gnu11 -w -o "$d/dump" $(for o in $objs; do printf '%s/%s ' "$d" "$o"; done) \
			-x c "$d/stubs.c" -x none $libs 2>> "$d/cc.log"
	}
	if ! (cd "$dir/k" && build "$dir/k" "$dir/k/$name-nl-gen.c" "$dir/k/family.c" \
		"$here/policy_dump.c"); then
		echo "policy $name: the kernel's output does not compile against kfsim: $(grep -m1 \
			error "$dir/k/cc.log")" > "$dir/policy"
		return
	fi
	# -- kfsim's output
	{
		echo "#include \"$ident-kernel.h\""
		echo "void referee_family(struct genl_family *f);"
		echo "void referee_family(struct genl_family *f)"
		echo "{"
		echo "	*f = ${ident}_nl_family;"
		echo "}"
	} > "$dir/f/family.c"
	if ! (cd "$dir/f" && build "$dir/f" "$dir/f/$ident-kernel.c" "$dir/f/family.c" \
		"$here/policy_dump.c"); then
		echo "policy $name: kfsim's output does not compile: $(grep -m1 error \
			"$dir/f/cc.log")" > "$dir/policy"
		return
	fi
	timeout 60 "$dir/k/dump" > "$dir/k/dump.txt" 2>&1 || true
	timeout 60 "$dir/f/dump" > "$dir/f/dump.txt" 2>&1 || true
	if cmp -s "$dir/k/dump.txt" "$dir/f/dump.txt"; then
		echo "policy $name: same ($(grep -c '^op .* do' "$dir/k/dump.txt") ops, $(grep -c \
			'^ ' "$dir/k/dump.txt") policy lines)" > "$dir/policy"
	else
		diff "$dir/k/dump.txt" "$dir/f/dump.txt" > "$dir/policy.diff" || true
		echo "policy $name: differs ($(grep -c '^[<>]' "$dir/policy.diff") lines, see" \
			"$dir/policy.diff)" > "$dir/policy"
	fi
}

for spec in "$specs"/*.yaml; do
	while [ "$(jobs -rp | wc -l)" -ge 2 ]; do
		wait -n || true
	done
	one_spec "$spec" &
done
wait

status=0
for spec in "$specs"/*.yaml; do
	name=$(basename "$spec" .yaml)
	for what in policy uapi; do
		line=$(cat "$out/$name/$what" 2> /dev/null || echo "$what $name: no result")
		case $line in
		*": same "* | *": identical "* | *": same verdict: "*) echo "ok    $line" ;;
		*)
			# a refusal by kfsim is listed as such: "not rendered by ynl-gen-c.py" does not
			# cover it (kfsim failed on 6.16's rt-link.yaml, listed for the kernel's silence)
			key="$what $name"
			case $line in
			*"kfsim-ynl-gen refuses the spec"*) key="$what $name kfsim-refuses" ;;
			esac
			reason=$(grep "^$key |" "$known" | head -1 | cut -d'|' -f2- || true)
			if [ -n "$reason" ]; then
				echo "known $line"
				echo "      reason:$reason"
			else
				echo "DIFF  $line"
				if [ -f "$out/$name/$what.diff" ]; then
					head -20 "$out/$name/$what.diff"
				fi
				status=1
			fi
			;;
		esac
	done
done
exit $status
