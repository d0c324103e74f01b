# shellcheck shell=bash
# Shared by scripts/tour and scripts/test: find the checkout, install missing Debian packages,
# configure and build.  Sourced, not run.
set -euo pipefail

KFSIM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian packages kfsim builds, tests and benchmarks with.  One per line so that a part adding
# one touches one line.
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
	clang
	libclang-rt-14-dev
	valgrind
	iproute2
	libbsd-dev
	libglib2.0-dev
	liburcu-dev
	libmnl-dev
	python3-yaml
	python3-jsonschema
	linux-source-6.12
)

kfsim_install_deps() {
	local missing=() pkg
	for pkg in "${KFSIM_PACKAGES[@]}"; do
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
# output is shown only when the build fails.
kfsim_build() {
	local dir=$KFSIM_ROOT/$1 log
	shift
	log=$(mktemp)
	if ! { cmake -S "$KFSIM_ROOT" -B "$dir" "$@" && cmake --build "$dir" -j "$(nproc)"; } >"$log" 2>&1; then
		cat "$log" >&2
		rm -f "$log"
		echo "kfsim: build in $dir failed" >&2
		return 1
	fi
	rm -f "$log"
}
