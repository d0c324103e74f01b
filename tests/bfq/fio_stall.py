#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Hold up the fio processes a command starts, as a loaded or throttled machine holds them up.

fio_stall.py [--seed N] [--min-ms A] [--max-ms B] -- CMD...

Runs CMD; every 0.2-0.6 s stops every fio process descended from it (SIGSTOP) for A..B ms
(default 20-150), then continues it (SIGCONT).  Only CMD's own descendants are touched.  Exits
with CMD's status.  How docs/bfq.md measured fio_ss_timing.py under load:

    for i in $(seq 10); do python3 tests/bfq/fio_stall.py --seed $i -- \\
        python3 tests/bfq/fio_ss_timing.py build/kfsim; echo "exit $?"; done
"""
import argparse
import os
import random
import signal
import subprocess
import sys
import time


def descendants(root):
    """(pid, name) of every process below @root, from /proc."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(ppid, []).append((int(entry), name))
    found, todo = [], [root]
    while todo:
        for pid, name in children.get(todo.pop(), []):
            found.append((pid, name))
            todo.append(pid)
    return found


def signal_all(pids, sig):
    for pid in pids:
        try:
            os.kill(pid, sig)
        except OSError:
            pass    # it exited meanwhile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-ms", type=float, default=20)
    ap.add_argument("--max-ms", type=float, default=150)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        ap.error("no command")
    rng = random.Random(args.seed)
    child = subprocess.Popen(cmd)
    stalls = 0
    while child.poll() is None:
        time.sleep(rng.uniform(0.2, 0.6))
        fios = [pid for pid, name in descendants(child.pid) if name == "fio"]
        signal_all(fios, signal.SIGSTOP)
        stalls += bool(fios)
        time.sleep(rng.uniform(args.min_ms, args.max_ms) / 1000.0)
        signal_all(fios, signal.SIGCONT)
    print("fio_stall.py: %d stalls of %g-%g ms" % (stalls, args.min_ms, args.max_ms),
          file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
