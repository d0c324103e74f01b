#!/usr/bin/env bash
# Install kfsim into a scratch prefix and build the hello example against it twice: with
# `pkg-config --cflags --libs kfsim`, and with CMake's find_package(kfsim) (shared and static);
# then build and run the complete C programs of the docs pages and compare what they print.
set -euo pipefail
src=$1 build=$2 cc=$3
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(find "$prefix" -name kfsim.pc -printf '%h\n' | head -n1)
export PKG_CONFIG_PATH=$libdir
export LD_LIBRARY_PATH=$(dirname "$libdir")

echo "== pkg-config: $(pkg-config --modversion kfsim)"
# shellcheck disable=SC2046
"$cc" -std=gnu11 -Wall -Wextra -Werror "$src/examples/hello/hello.c" -o "$scratch/hello-pc" \
	$(pkg-config --cflags --libs kfsim)
"$scratch/hello-pc" | tee "$scratch/out-pc"
grep -q "^hello from kfsim" "$scratch/out-pc"

echo "== find_package(kfsim)"
cmake -S "$src/examples/hello" -B "$scratch/cm" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build "$scratch/cm" >/dev/null
"$scratch/cm/hello" | grep -q "^hello from kfsim"
"$scratch/cm/hello_static" | grep -q "^hello from kfsim"
ldd "$scratch/cm/hello_static" | grep -q libkfsim && { echo "hello_static links libkfsim.so"; exit 1; }
echo "== the runnable examples of the docs pages"
mkdir "$scratch/docs"
python3 "$src/tests/install/doc_examples.py" "$cc" "$scratch/docs" \
	"$src/docs/core.md" "$src/docs/refcount.md" "$src/docs/netlink.md" "$src/docs/plca-bus.md"

test -x "$prefix/bin/kfsim"
"$prefix/bin/kfsim" --version
echo "install/consumer: ok"
