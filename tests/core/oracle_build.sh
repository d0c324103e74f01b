# SPDX-License-Identifier: MIT
# Sourced by the oracle scripts of tests/core: take a kernel source file from the unpacked
# linux-source-6.12 tree and compile it unchanged against kfsim's compatibility headers.
#
# oracle_build CC "CFLAGS" COMPATDIR INCDIR GENINCDIR LIBDIR SRC MODNAME
#   sets $out (a temporary folder, removed at exit) and builds $out/$MODNAME; exits 77 with
#   "skipped: ..." when the kernel source is absent.  The kernel's own code-generation flags that
#   change C semantics are used (-funsigned-char since 6.2, -fno-strict-aliasing).
oracle_build() {
	local cc=$1 cflags=$2 compat=$3 inc=$4 geninc=$5 libdir=$6 src=$7 mod=$8
	local tree=${KFSIM_LINUX_TREE:?KFSIM_LINUX_TREE is not set}

	if [ ! -r "$tree/$src" ]; then
		echo "skipped: $tree/$src is missing (Debian package linux-source-6.12 not installed)"
		exit 77
	fi
	out=$(mktemp -d "${TMPDIR:-/tmp}/kfsim-oracle-$mod.XXXXXX")
	trap 'rm -rf "$out"' EXIT
	echo "== compiling $src unchanged with -I<compat> only (KBUILD_MODNAME=$mod)"
	# shellcheck disable=SC2086
	"$cc" -std=gnu11 -Wall -Werror -funsigned-char -fno-strict-aliasing $cflags \
		-DKBUILD_MODNAME="\"$mod\"" -I"$compat" -I"$inc" -I"$geninc" "$tree/$src" \
		-o "$out/$mod" -L"$libdir" -Wl,-rpath,"$libdir" -lkfsim -lm
}
