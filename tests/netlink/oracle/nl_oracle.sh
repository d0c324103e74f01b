#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# ctest netlink/kernel_referee (label oracle): the running kernel judges kfsim's generic
# netlink.  Builds nl_oracle.c with kfsim's kernel-side code generated from the 6.12 specs of
# the families the running kernel has (netdev, tcp_metrics, mptcp_pm; stub handlers), makes a
# private network namespace with a veth pair and an ifb, and there sends the corpus to both kernels as
# root and, through setpriv, as nobody; then compares the policy dumps.
#
# With --random, the corpus is not the hand-written one but nl_gen.py's requests for SEEDS
# seeds from FIRST, COUNT each (ctest netlink/kernel_referee_random); only what differs is
# printed, grouped by cause, and the policy dumps are left to the hand-written run.
#
# Arguments: GEN OUT_DIR CC "CFLAGS" "LIBS" [--random FIRST SEEDS COUNT]
# Env: KFSIM_LINUX_TREE (the oracle fixture).
# Exit: 0 equal (listed drift excepted), 1 a difference, 77 skipped (no referee).
set -euo pipefail

gen=$1 out=$2 cc=$3 cflags=$4 libs=$5
here=$(cd "$(dirname "$0")" && pwd)
random=()
if [ "${6:-}" = --random ]; then
	random=("$7" "$8" "$9")
fi
specs=${KFSIM_LINUX_TREE:-}/Documentation/netlink/specs

if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root for a private network namespace"
	exit 77
fi
for tool in ip setpriv python3; do
	if ! command -v "$tool" > /dev/null; then
		echo "skipped: $tool is not installed"
		exit 77
	fi
done
if [ ! -d "$specs" ]; then
	echo "skipped: no kernel specs at $specs (oracle/linux-source fixture)"
	exit 77
fi

rm -rf "$out"
mkdir -p "$out/gen"
names=(netdev tcp_metrics mptcp_pm)
for n in "${names[@]}"; do
	"$gen" --mode kernel --out-dir "$out/gen" "$specs/$n.yaml"
done

# Stub handlers and the registration of the generated families.
python3 - "$out/gen" "${names[@]}" > "$out/families.c" <<'EOF'
import re, sys
gen, names = sys.argv[1], sys.argv[2:]
print('#include <kfsim/netlink.h>')
for n in names:
    print(f'#include "{n}-kernel.h"')
print('#define HANDLER_REACHED 524 /* ENOTSUPP: the corpus runner counts it as "reached" */')
for n in names:
    text = open(f'{gen}/{n}-kernel.h').read()
    for ret, fn, args in re.findall(r'KFSIM_YNL_DECL (int|void) (\w+)\(([^;]*)\);', text):
        params = ', '.join(a.strip() + ' __attribute__((unused))' for a in args.split(','))
        body = 'return -HANDLER_REACHED;' if fn.endswith(('_doit', '_dumpit')) else \
               ('return 0;' if ret == 'int' else '')
        print(f'{ret} {fn}({params}) {{ {body} }}')
print('void oracle_register_generated(struct kfsim_nl_kernel *k);')
print('void oracle_register_generated(struct kfsim_nl_kernel *k)\n{')
for n in names:
    print(f'\tif (kfsim_genl_register_family(k, &{n}_nl_family))')
    print(f'\t\tfprintf(stderr, "nl_oracle: cannot register {n}\\n");')
print('}')
EOF

# shellcheck disable=SC2086
$cc -std=gnu11 -O1 -Wall -Werror $cflags -I"$out/gen" -o "$out/nl_oracle" \
	"$here/nl_oracle.c" "$out/families.c" "$out"/gen/*-kernel.c $libs

# The unprivileged run needs a program and files nobody may read.
run=$(mktemp -d /tmp/kfsim-nl-oracle.XXXXXX)
ns=kfsim-nl-oracle-$$
cleanup() {
	ip netns del "$ns" 2> /dev/null || true
	rm -rf "$run"
}
trap cleanup EXIT
cp "$out/nl_oracle" "$here"/*.txt "$run/"
corpus=genl-requests.txt
args=(--policy-drift "$run/policy-drift.txt")
user_args=()
if [ ${#random[@]} = 3 ]; then
	corpus="random-requests.txt"
	args=(--quiet --no-policy --answer-drift "$run/answer-drift.txt")
	user_args=(--quiet --answer-drift "$run/answer-drift.txt")
	python3 "$here/nl_gen.py" "${random[0]}" "${random[2]}" --seeds "${random[1]}" \
		> "$run/$corpus"
	cp "$run/$corpus" "$out/"	# kept for a look after a failure
fi
chmod 755 "$run" "$run/nl_oracle"
chmod 644 "$run"/*.txt

ip netns add "$ns"
ip -n "$ns" link add eth0 type veth peer name eth1
# an ifb: a driver without get_ts_info, as the simulated devices (TSINFO_GET compares there);
# where the kernel has no ifb, the TSINFO requests (command 25 of ethtool) are left out
if ! ip -n "$ns" link add ifb0 type ifb 2> /dev/null; then
	echo "  (left out: the TSINFO requests; this kernel cannot make an ifb device)"
	awk -F' [|] ' '!($3 == "ethtool" && $4 == 25)' "$run/$corpus" > "$run/corpus.tmp"
	mv "$run/corpus.tmp" "$run/$corpus"
	chmod 644 "$run/$corpus"
fi
ip -n "$ns" link set lo up

if [ ${#random[@]} = 3 ]; then
	last=$((random[0] + random[1] - 1))
	echo "running kernel $(uname -r); requests from nl_gen.py, seeds ${random[0]}..$last," \
		"${random[2]} each (corpus: $out/$corpus)"
else
	echo "running kernel $(uname -r); requests from tests/netlink/oracle/genl-requests.txt"
fi
status=0
ip netns exec "$ns" "$run/nl_oracle" "$run/$corpus" "${args[@]}" || status=$?
ip netns exec "$ns" setpriv --reuid 65534 --regid 65534 --clear-groups \
	"$run/nl_oracle" "$run/$corpus" --user ${user_args[@]+"${user_args[@]}"} ||
	{ rc=$?; [ "$status" != 0 ] || status=$rc; }
exit "$status"
