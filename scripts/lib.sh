# shellcheck shell=bash
# Shared by scripts/tour and scripts/test: find the checkout, install missing Debian packages,
# configure and build.  Sourced, not run.
set -euo pipefail

KFSIM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian packages kfsim builds with (library, program, tests and benchmarks).  One per line so
# that a part adding one touches one line.
KFSIM_PACKAGES=(
	cmake
	gcc
	make
	pkg-config
	libcmocka-dev
	libnl-3-dev
	libnl-genl-3-dev
	libjemalloc-dev
	libyaml-dev
	graphviz
	libbsd-dev
	libglib2.0-dev
	liburcu-dev
	libmnl-dev
	emscripten
)

# What only the test suite, the fuzzer and the benchmark scripts need on top: scripts/test
# installs these, scripts/tour does not (linux-source alone is a 140 MB download).
KFSIM_TEST_PACKAGES=(
	clang
	clang-19
	libclang-rt-14-dev
	valgrind
	iproute2
	python3-yaml
	python3-jsonschema
	python3-pyroute2
	libnl-utils
	linux-source-6.12
	libbpf-dev
	bpftool
	fio
	fio-examples
	blktrace
	librsvg2-bin
	chromium
	zlib1g-dev
	gdb
	clang-19	# BPF objects with btf_type_tag (__kptr): tests/bpfcc/fuzz
	ethtool
	parallel	# GNU parallel: tests/grid slices a grid through it (kfsim merge)
)

# kfsim_install_deps [PACKAGES...]: install whichever of KFSIM_PACKAGES and PACKAGES are missing.
kfsim_install_deps() {
	local missing=() pkg
	for pkg in "${KFSIM_PACKAGES[@]}" "$@"; do
		dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
			missing+=("$pkg")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	echo "kfsim: installing missing packages: ${missing[*]}" >&2
	local sudo=""
	[ "$(id -u)" -eq 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
}

# kfsim_build DIR [cmake options...]: configure and build into $KFSIM_ROOT/DIR; the compiler's
# output is shown only when the build fails.  With KFSIM_BUILD_TARGETS="T..." set, only those
# targets are built (and what they need).
kfsim_build() {
	local dir=$KFSIM_ROOT/$1 log targets=()
	shift
	log=$(mktemp)
	if [ -n "${KFSIM_BUILD_TARGETS:-}" ]; then
		read -r -a targets <<<"$KFSIM_BUILD_TARGETS"
		targets=(--target "${targets[@]}")
	fi
	if ! { cmake -S "$KFSIM_ROOT" -B "$dir" "$@" && cmake --build "$dir" -j "$(nproc)" "${targets[@]}"; } >"$log" 2>&1; then
		cat "$log" >&2
		rm -f "$log"
		echo "kfsim: build in $dir failed" >&2
		return 1
	fi
	rm -f "$log"
}
