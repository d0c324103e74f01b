#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# ctest clients/tool_oracle (label oracle): the tools users bring, judged by the running kernel.
# Every command of tool-commands.txt runs twice: under `kfsim exec` on a `kfsim kernel` of the
# running kernel's release (--kver), and in a private network namespace (unshare -n) with lo up
# and a veth pair, on the running kernel.  There the compared device, lo, is renamed eth0: the
# stand-in's name, whose length moves every extack offset past the request header (ethtool's
# "(offset 36)"); an ifb named eth1 there is the stand-in's eth1 ($BARE: a driver without
# get_ts_info).  Stdout, stderr and the exit status are compared, the compared device's ifindex
# masked; each command has 10 s (a hang is a difference).
#
#   tool_oracle.sh KFSIM SHIM [COMMANDS]
# Env: KFSIM_LINUX_TREE (the kernel's tools/net/ynl; without it the cli.py commands are skipped)
# Exit: 0 equal (known drift excepted), 1 a difference, 77 skipped (not root, or no genl/ethtool).
set -uo pipefail
kfsim=$1 shim=$2
here=$(cd "$(dirname "$0")" && pwd)
commands=${3:-$here/tool-commands.txt}

if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root for a private network namespace (unshare -n)"
	exit 77
fi
for tool in unshare ip genl ethtool; do
	command -v "$tool" > /dev/null || { echo "skipped: $tool is not installed"; exit 77; }
done

tmp=$(mktemp -d /tmp/kfsim-tool-oracle.XXXXXX)
server=""
cleanup() {
	[ -n "$server" ] && "$kfsim" kernel --stop "$tmp/kernel.sock" > /dev/null 2>&1
	[ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT

# An ASan-built shim must come after ASan's runtime in uninstrumented programs.
preload=
if nm -D "$shim" 2>/dev/null | grep __asan_init >/dev/null; then
	preload="$(${CC:-cc} -print-file-name=libasan.so)"
	export ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0
fi

# What is there to run: a tool that is absent leaves its commands out, said once.
skip_re='^$'
absent() { echo "  (left out: $1)"; skip_re="$skip_re|$2"; }
command -v genl-ctrl-list > /dev/null || absent "libnl's genl-ctrl-list (libnl-utils) is not installed" '^libnl-'
tree=${KFSIM_LINUX_TREE:-}
if [ ! -f "$tree/tools/net/ynl/cli.py" ]; then
	absent "the kernel's tools/net/ynl is not unpacked (linux-source-6.12)" '^ynl-'
elif ! /usr/bin/python3 -c 'import yaml, jsonschema' 2>/dev/null; then
	absent "python3-yaml/python3-jsonschema are not installed" '^ynl-'
fi
/usr/bin/python3 -c 'import pyroute2' 2>/dev/null ||
	absent "python3-pyroute2 is not installed" '^pyroute2-'

# The pyroute2 requests: what a script would ask, each answer or NetlinkError printed.
cat > "$tmp/pyroute2_requests.py" <<'EOF'
import sys
from pyroute2.netlink import genlmsg
from pyroute2.netlink.exceptions import NetlinkError
from pyroute2.netlink.generic import GenericNetlinkSocket
from pyroute2.netlink.generic.ethtool import NlEthtool

what, arg = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
try:
    if what == 'family':
        s = GenericNetlinkSocket()
        s.bind(arg, genlmsg)
        print(arg, s.prid, sorted(s.mcast_groups.items()))
    elif what == 'in-kernel':
        print(NlEthtool().is_nlethtool_in_kernel())
    elif what == 'high-level':
        # pyroute2.ethtool.Ethtool: netlink first, the ioctl where netlink has nothing
        from pyroute2.ethtool import Ethtool
        method = sys.argv[3]
        print(method, getattr(Ethtool(), method)(arg))
    else:
        e = NlEthtool()
        reply = getattr(e, 'get_' + what)(arg)
        print([(m['cmd'], m.get_attr('ETHTOOL_A_' + what.upper() + '_HEADER') is not None)
               for m in reply])
except NetlinkError as err:
    print('NetlinkError', err.code, err)
    sys.exit(1)
EOF

# Many requests to one family in one cli.py process (its spec is read and checked once: a
# second each on a loaded machine): one request a line on stdin, "do|dump OP [JSON]"; each
# answer printed as cli.py prints it, after the request.
cat > "$tmp/ynl_batch.py" <<'EOF'
import json, pprint, sys
sys.path.insert(0, sys.argv[1] + '/tools/net/ynl')
from lib import YnlFamily, NlError
ynl = YnlFamily(sys.argv[2])
for line in sys.stdin:
    if not line.strip():
        continue
    print('==', line.strip())
    kind, op, text = (line.split(None, 2) + [''])[:3]
    try:
        attrs = json.loads(text) if text.strip() else {}
        reply = ynl.do(op, attrs, None) if kind == 'do' else ynl.dump(op, attrs)
        pprint.PrettyPrinter().pprint(reply)
    except NlError as e:
        print(e)
    except Exception as e:  # a request cli.py cannot encode: said, and on to the next
        print(type(e).__name__, e)
    sys.stdout.flush()
EOF

# The runner: every command in turn, its three outputs in DIR/ID.{out,err,rc}.
cat > "$tmp/runner.sh" <<'EOF'
dir=$1 list=$2 skip=$3
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	id=${line%% | *}
	rest=${line#* | }
	cmd=${rest% | *}
	[[ $id =~ $skip ]] && continue
	timeout 10 bash -c "$cmd" > "$dir/$id.out" 2> "$dir/$id.err" < /dev/null
	echo $? > "$dir/$id.rc"
done < "$list"
EOF
export YNL="/usr/bin/python3 $tree/tools/net/ynl/cli.py --spec $tree/Documentation/netlink/specs/ethtool.yaml"
export YNL_CTRL="/usr/bin/python3 $tree/tools/net/ynl/cli.py --spec $tree/Documentation/netlink/specs/nlctrl.yaml"
export CLIENTS=$here
export YNL_BATCH="/usr/bin/python3 $tmp/ynl_batch.py $tree $tree/Documentation/netlink/specs/ethtool.yaml"
export YNL_NETDEV="/usr/bin/python3 $tree/tools/net/ynl/cli.py --spec $tree/Documentation/netlink/specs/netdev.yaml"
export PYROUTE2="/usr/bin/python3 $tmp/pyroute2_requests.py"

export PYTHONHASHSEED=0	# cli.py prints sets: the same order on both sides
kver=$(uname -r | cut -d. -f1-2)
mkdir "$tmp/kfsim" "$tmp/linux"
chmod 755 "$tmp"
"$kfsim" --kver "$kver" kernel --listen "$tmp/kernel.sock" --background > "$tmp/server.log" 2>&1 ||
	{ echo "kfsim kernel did not start:"; cat "$tmp/server.log"; exit 1; }
server=yes
# Both sides at once (each runs its commands in order): half the wall time.
BARE=eth1 DEV=eth0 KFSIM_NETLINK_SHIM=$shim LD_PRELOAD=$preload "$kfsim" exec --server "$tmp/kernel.sock" \
	-- bash "$tmp/runner.sh" "$tmp/kfsim" "$commands" "$skip_re" &
BARE=eth1 DEV=eth0 unshare -n bash -c 'ip link set lo name eth0 && ip link set eth0 up &&
	ip link add veth0 type veth peer name veth1 && { ip link add eth1 type ifb 2> /dev/null || :; } &&
	exec bash "$1" "$2" "$3" "$4"' - "$tmp/runner.sh" "$tmp/linux" "$commands" "$skip_re"
wait

# Masks: the compared device's name, ifindexes, family ids where the lists print them.
mask() { sed -e "s/\b$2\b/DEV/g" -e "s/'dev-index': [0-9]*/'dev-index': N/g" "$1"; }

echo "running kernel $(uname -r) (ethtool $(ethtool --version | cut -d' ' -f3)," \
	"$(genl -V | cut -d' ' -f3)); stand-in: kfsim --kver $kver kernel, kfsim exec"
same=0 drift=0 differ=0
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	id=${line%% | *}
	expect=${line##* | }
	[[ $id =~ $skip_re ]] && continue
	diffs=""
	for part in out err rc; do
		if ! cmp -s <(mask "$tmp/kfsim/$id.$part" eth0) <(mask "$tmp/linux/$id.$part" eth0); then
			diffs="$diffs $part"
		fi
	done
	hang=""
	# 124: timeout's status; a command that waits for ever on Linux too (--monitor) is cut alike
	grep -qx 124 "$tmp/kfsim/$id.rc" && ! grep -qx 124 "$tmp/linux/$id.rc" &&
		hang=" (kfsim side timed out)"
	if [ -z "$diffs" ] && [ -z "$hang" ]; then
		same=$((same + 1))
		echo "  same   $id: exit $(cat "$tmp/linux/$id.rc")"
		[ "$expect" = same ] || echo "         (listed as $expect: the list can say same now)"
		continue
	fi
	if [ "$expect" != same ] && [ -z "$hang" ]; then
		drift=$((drift + 1))
		echo "  drift  $id (${expect#drift: })"
	else
		differ=$((differ + 1))
		echo "  DIFFER $id:$diffs$hang"
	fi
	for side in linux kfsim; do
		echo "    $side (exit $(cat "$tmp/$side/$id.rc")):"
		cat "$tmp/$side/$id.out" "$tmp/$side/$id.err" | head -8 | sed 's/^/      | /'
	done
done < "$commands"
echo "$((same + drift + differ)) commands: $same identical, $drift known drift, $differ differ"
[ $differ -eq 0 ]
