#!/usr/bin/env bash
# Install kfsim into a scratch prefix and build the hello example against it twice: with
# `pkg-config --cflags --libs kfsim`, and with CMake's find_package(kfsim) (shared and static);
# check each installed header compiles alone (gcc and clang); then build and run the complete
# C programs of the docs pages and compare what they print.
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
"$scratch/cm/hello" | grep "^hello from kfsim" >/dev/null
"$scratch/cm/hello_static" | grep "^hello from kfsim" >/dev/null
ldd "$scratch/cm/hello_static" | grep libkfsim >/dev/null && { echo "hello_static links libkfsim.so"; exit 1; }
echo "== every installed public header compiles on its own"
compilers=("$cc")
command -v clang >/dev/null && compilers+=(clang)
for header in "$prefix"/include/kfsim/*.h; do
	name=kfsim/$(basename "$header")
	for compiler in "${compilers[@]}"; do
		printf '#include <%s>\n' "$name" |
			"$compiler" -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
				-Wmissing-prototypes -I"$prefix/include" -x c -c - -o /dev/null ||
			{ echo "$name does not compile on its own with $compiler"; exit 1; }
	done
done

echo "== the compatibility headers: pkg-config and find_package find them, each compiles alone"
compat=$(pkg-config --variable=compatdir kfsim)
test -r "$compat/linux/rbtree.h" || { echo "compatdir $compat has no linux/rbtree.h"; exit 1; }
while IFS= read -r header; do
	name=${header#"$compat"/}
	for compiler in "${compilers[@]}"; do
		printf '#include <%s>\n' "$name" |
			"$compiler" -std=gnu11 -Wall -Wextra -Werror -DKBUILD_MODNAME='"alone"' \
				-DKFSIM_NO_MODULE_MAIN -I"$compat" -I"$prefix/include" -x c -c - \
				-o /dev/null ||
			{ echo "$name does not compile on its own with $compiler"; exit 1; }
	done
done < <(find "$compat" -name '*.h' | sort)
# shellcheck disable=SC2046
"$cc" -std=gnu11 -Wall -Werror -DKBUILD_MODNAME='"kernel_style"' -I"$compat" \
	"$src/examples/compat/kernel_style.c" -o "$scratch/kernel_style" $(pkg-config --cflags --libs kfsim)
"$scratch/kernel_style" nobjs=5 2>&1 | tee "$scratch/out-compat"
grep -q "kernel_style: 5 objects in key order: 12345" "$scratch/out-compat"
cmake -S "$src/examples/compat" -B "$scratch/cm-compat" -DCMAKE_PREFIX_PATH="$prefix" \
	-DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build "$scratch/cm-compat" >/dev/null
# the whole output first: grep -q would stop reading early and the program die of SIGPIPE
"$scratch/cm-compat/kernel_style" kernel_style.nobjs=4 >"$scratch/out-compat-cmake" 2>&1
grep -q "4 objects in key order: 1234" "$scratch/out-compat-cmake"

echo "== the runnable examples of the docs pages"
mkdir "$scratch/docs"
python3 "$src/tests/install/doc_examples.py" "$cc" "$scratch/docs" \
	"$src/docs/core.md" "$src/docs/refcount.md" "$src/docs/netlink.md" "$src/docs/plca-bus.md"

test -x "$prefix/bin/kfsim"
"$prefix/bin/kfsim" --version
echo "install/consumer: ok"
