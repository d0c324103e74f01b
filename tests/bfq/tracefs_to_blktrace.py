#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The tracefs blk tracer's text (default layout) as the binary files blktrace writes, one a CPU
(struct blk_io_trace, include/uapi/linux/blktrace_api.h: the action's category bits and
number, remaps' and splits' big-endian payloads, messages, a process-name note per process),
so that the real blkparse prints what a user with blktrace would have printed:

  tracefs_to_blktrace.py TRACE.txt OUTBASE   -> OUTBASE.blktrace.0 .. OUTBASE.blktrace.<last cpu>
"""
import re, struct, sys

TC = dict(R=1 << 0, W=1 << 1, F=1 << 2, S=1 << 3, Q=1 << 4, RQ=1 << 5, ISSUE=1 << 6, COMPL=1 << 7,
          FS=1 << 8, PC=1 << 9, NOTIFY=1 << 10, A=1 << 11, M=1 << 12, D=1 << 13, FUA=1 << 15)
ACT = {"Q": (1, "Q"), "M": (2, "Q"), "F": (3, "Q"), "G": (4, "Q"), "S": (5, "Q"), "R": (6, "RQ"),
       "D": (7, "ISSUE"), "C": (8, "COMPL"), "P": (9, "Q"), "U": (10, "Q"), "UT": (11, "Q"),
       "I": (12, "Q"), "X": (13, "Q"), "B": (14, "Q"), "A": (15, "Q")}
LINE = re.compile(r"^(.*?)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d+):\s+(\d+),(\d+)\s+(?:(\d+,\d+)\s+)?(\S+)\s+(\S+)\s*(.*)$")
MAGIC = 0x65617407


def rwbs_bits(rwbs, nbytes):
    b = 0
    s = rwbs
    if s.startswith("F") and len(s) > 1 and s[1] in "WRDN":
        b |= TC["F"]; s = s[1:]
    elif s == "F":
        return TC["F"]
    if s[0] == "D": b |= TC["D"] | TC["W"]
    elif s[0] == "W": b |= TC["W"]
    s = s[1:]
    for c in s:
        b |= {"F": TC["FUA"], "A": TC["A"], "S": TC["S"], "M": TC["M"]}.get(c, 0)
    return b


def main(src, base):
    files, seq, comms = {}, {}, {}
    for line in open(src, errors="replace"):
        m = LINE.match(line.rstrip("\n"))
        if not m:
            continue
        comm, pid, cpu, s, us, maj, mi, cg, act, rwbs, rest = m.groups()
        pid, cpu, dev = int(pid), int(cpu), int(maj) << 20 | int(mi)
        t = int(s) * 10**9 + int(us.ljust(9, "0")[:9])
        if cpu not in files:
            files[cpu] = open("%s.blktrace.%d" % (base, cpu), "wb")
        f = files[cpu]
        key = (dev, cpu)
        def emit(action, sector=0, nbytes=0, pdu=b"", error=0, p=pid):
            seq[key] = seq.get(key, 0) + 1
            f.write(struct.pack("<IIQQIIIIIHH", MAGIC, seq[key], t, sector, nbytes, action, p, dev, cpu,
                                error, len(pdu)) + pdu)
        if (pid, comm.strip()) not in comms:
            comms[(pid, comm.strip())] = 1
            emit(TC["NOTIFY"] << 16 | 0, pdu=comm.strip().encode()[:15] + b"\0")
        if act == "m":
            emit(TC["NOTIFY"] << 16 | 2, pdu=rest.encode())
            continue
        if act not in ACT:
            continue
        what, cat = ACT[act]
        d = re.match(r"(\d+) \+ (\d+)", rest)
        sector, nbytes = (int(d.group(1)), int(d.group(2)) * 512) if d else (0, 0)
        bits = rwbs_bits(rwbs, nbytes) | TC[cat] | TC["FS"]
        pdu, err = b"", 0
        if act == "A":
            r = re.search(r"<- \((\d+),(\d+)\) (\d+)", rest)
            pdu = struct.pack(">IIQ", int(r.group(1)) << 20 | int(r.group(2)), dev, int(r.group(3)))
        elif act == "X":
            r = re.match(r"(\d+) / (\d+)", rest)
            sector = int(r.group(1)); pdu = struct.pack(">Q", int(r.group(2)))
        elif act in ("U", "UT"):
            r = re.search(r"\] (\d+)$", rest)
            pdu = struct.pack(">Q", int(r.group(1)) if r else 0)
        if act in ("C", "R"):
            r = re.search(r"\[(-?\d+)\]$", rest)
            err = int(r.group(1)) & 0xffff if r else 0
        emit(bits << 16 | what, sector, nbytes, pdu, err)
    # blkparse looks for OUTBASE.blktrace.0 onwards: every CPU up to the last one has a file
    for cpu in range(max(files, default=0) + 1):
        if cpu not in files:
            files[cpu] = open("%s.blktrace.%d" % (base, cpu), "wb")
    for f in files.values():
        f.close()


main(sys.argv[1], sys.argv[2])
