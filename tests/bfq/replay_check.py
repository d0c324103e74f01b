#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The referee of kfsim's trace replay on traces users bring (ctest bfq/replay_corpus,
bfq/replay_devices_live).

It reads a block trace with regular expressions of its own (blkparse's default text, with -t or
-s; the tracefs blk tracer's default layout, irq-info off, record-tgid, blk_cgroup, blk_cgname,
blk_classic), derives the requests a replay must issue (every "Q" event that carries data, a
bio of more than 2560 sectors as requests of at most that, BLK_DEF_MAX_SECTORS_CAP) or why the
trace cannot be replayed, and compares with what `kfsim bfq sim --replay FILE --dump-jobs`
reads: the same requests (time from the first, pid, device, sector on its share of the disk,
length, direction and sync flag), or a refusal; a trace the tracer says is not whole ("[LOST N
EVENTS]", a last line cut without its newline) must replay with a note that says so.

  replay_check.py KFSIM FILE|DIR...   one verdict a trace, a summary; status 1 on any WRONG

Verdicts: OK-REPLAY, OK-REFUSE, SKIP (latency-format: this referee does not read it;
test_replay_layouts does), WRONG (records differ, refused a readable trace, replayed one it must
refuse, silent about what is missing, crashed, hung).
"""
import json
import os
import re
import subprocess
import sys

CAP = 2560
ACT_LONG = {"queue": "Q", "backmerge": "M", "frontmerge": "F", "getrq": "G", "sleeprq": "S",
            "requeue": "R", "issue": "D", "complete": "C", "plug": "P", "unplug_io": "U",
            "unplug_timer": "UT", "insert": "I", "split": "X", "bounce": "B", "remap": "A",
            "message": "m"}
KNOWN = set(ACT_LONG.values())
CGROUP = r"(?:[0-9a-f]+,[0-9a-f]+\s+|/\S*\s+|<\.\.\.>\s+)?"
# blkparse: "maj,min cpu seq sec.nsec pid A RWBS rest"
BLKPARSE = re.compile(r"^\s*(\d+),(\d+)\s+\d+\s+\S+\s+(\d+)\.(\d{9})\s+(\d+)\s+(\S+)\s+(\S+)\s*(.*)$")
# blk_classic: "maj,min cpu sec.nsec pid A RWBS rest"
CLASSIC = re.compile(r"^\s*(\d+),(\d+)\s+\d+\s+(\d+)\.(\d{9})\s+(\d+)\s+(\S+)\s+(\S+)\s*(.*)$")
# the tracer's context: "comm-pid [(tgid)] [cpu] [flags] sec.usec: maj,min [cgroup] A RWBS rest"
FTRACE = re.compile(r"^(.*?)-(\d+)\s+(?:\([ \d-]+\)\s+)?\[\d+\]\s+(?:\S{4,5}\s+)?(\d+)\.(\d{6}):\s+"
                    r"(\d+),(\d+)\s+" + CGROUP + r"(\S+)\s+(\S+)\s*(.*)$")
TICKS = re.compile(r"^(.*?)-(\d+)\s+(?:\([ \d-]+\)\s+)?\[\d+\]\s+(?:\S{4,5}\s+)?(\d+):\s+\d+,\d+\s")
NOCTX = re.compile(r"^\s*\d+,\d+\s+" + CGROUP + r"(Q|queue)\s")
DATA = re.compile(r"^(\d+) \+ (\d+)(\s+[\[(]|$)")
LATENCY = re.compile(r"^\s*\S+-\d+\s+\d\S+\s+\d+us\S?\s*:|\(\+\d+\.\d+ms\):", re.M)


def event_line(line):
    """(time ns, pid, dev, action, rwbs, rest) of a line in a layout read here, or None"""
    m = BLKPARSE.match(line) or CLASSIC.match(line)
    if m:
        maj, mi, s, frac, pid, act, rwbs, rest = m.groups()
        return int(s) * 10**9 + int(frac), int(pid), "%s,%s" % (maj, mi), act, rwbs, rest
    m = FTRACE.match(line)
    if m:
        _, pid, s, us, maj, mi, act, rwbs, rest = m.groups()
        return int(s) * 10**9 + int(us) * 1000, int(pid), "%s,%s" % (maj, mi), act, rwbs, rest
    return None


def looks_like_event(line):
    """a line with a device where blkparse or the tracer print one, read or not"""
    return re.match(r"^\s*\d+,\d+\s", line) or re.search(r"\d\.\d+:\s+\d+,\d+\s", line)


def expected(path):
    """(records, why it must be refused or None, notes kfsim must print)"""
    raw = open(path, "rb").read()
    notes = []
    if raw[:4] == b"\x07tae" or raw[:2] == b"\x1f\x8b":
        return None, "binary", notes
    text = raw.decode("utf-8", "replace")
    if LATENCY.search(text):
        return None, "SKIP latency-format (not read by this referee)", notes
    lines = text.split("\n")
    if lines[-1]:		# the file ends inside a line: judged alone
        last, lines[-1] = lines[-1], ""
        ev = event_line(last)
        if ev and DATA.match(ev[5]) and not DATA.match(ev[5]).group(3).strip():
            ev = None
        if ev:
            lines[-1] = last
        elif looks_like_event(last):
            a = re.search(r"\d+,\d+\s+" + CGROUP + r"(\S+)(\s|$)", last)
            # a cut event of another action loses nothing; one that may have been a Q does
            if not a or ACT_LONG.get(a.group(1), a.group(1)) not in KNOWN - {"Q"}:
                notes.append("cut")
    recs, why = [], {}
    count = lambda k: why.__setitem__(k, why.get(k, 0) + 1)
    for line in lines:
        if line.startswith("#") or not line.strip():
            continue
        if "\0" in line:
            count("binary")
            continue
        if re.match(r"^CPU:\d+ \[LOST", line):
            notes.append("lost")
            continue
        if re.match(r"^\s*[0-9a-f]+ [0-9a-f]+ [0-9a-f]+ type: \d+\s*$", line):
            count("raw/hex")
            continue
        if ": block_bio_queue: " in line:
            count("tracepoint")
            continue
        ev = event_line(line)
        if not ev:
            if TICKS.match(line) and re.search(r"\s(Q|queue)\s", line):
                count("ticks")
            elif NOCTX.match(line):
                count("no context")
            elif looks_like_event(line):
                a = re.search(r"\d+,\d+\s+" + CGROUP + r"(\S+)\s", line)
                if not a or ACT_LONG.get(a.group(1), a.group(1)) not in KNOWN - {"Q"}:
                    count("damaged")
            continue
        t, pid, dev, act, rwbs, rest = ev
        act = ACT_LONG.get(act, act)
        if act not in KNOWN:
            count("damaged")
            continue
        if act != "Q":
            continue
        d = DATA.match(rest)
        if "D" in rwbs or "N" in rwbs or not ("R" in rwbs or "W" in rwbs):
            count("no data")
            continue
        if not d:
            count("no data" if rest.startswith("[") else "damaged")
            continue
        if not d.group(3).strip():
            count("cut short")
            continue
        sector, n = int(d.group(1)), int(d.group(2))
        if n == 0:
            count("no data" if "F" in rwbs else "damaged")
            continue
        # blk_io_trace: a __u32 of bytes, a dev_t of a 12-bit major and a 20-bit minor
        maj, mi = map(int, dev.split(","))
        if n > 0xFFFFFFFF >> 9 or maj >= 1 << 12 or mi >= 1 << 20:
            count("damaged")
            continue
        for done in range(0, n, CAP):
            recs.append((t, pid, dev, sector + done, min(CAP, n - done),
                         ("W" if "W" in rwbs else "R") + ("S" if "S" in rwbs else "")))
    refuse = [k for k in why if k not in ("no data", "tracepoint")]
    if refuse:
        return None, ", ".join(sorted(refuse)), notes
    if not recs:
        return None, "nothing to replay (%s)" % (", ".join("%d %s" % (v, k) for k, v in why.items())
                                                 or "no Q event"), notes
    return recs, None, notes


def judge(kfsim, path):
    recs, refuse, notes = expected(path)
    if refuse and refuse.startswith("SKIP"):
        return "SKIP", refuse
    try:
        p = subprocess.run([kfsim, "bfq", "sim", "--replay", path, "--dump-jobs", "--quiet",
                            "--force"], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "WRONG", "hung (120 s)"
    err = p.stderr.strip()
    told = err.splitlines()[-1][:240] if err else ""
    if p.returncode not in (0, 1, 2):
        return "WRONG", "crashed (status %d): %s" % (p.returncode, err[-300:])
    if refuse:
        if p.returncode == 0:
            return "WRONG", "replayed %d records; expected a refusal (%s)" % (
                len(json.loads(p.stdout).get("replay", [])), refuse)
        if "nothing to replay" not in refuse and not re.search(r": line \d+: ", err):
            return "WRONG", "refused without naming the line and its reason (%s): %s" % (
                refuse, told)
        return "OK-REFUSE", "%s | %s" % (refuse, told)
    if p.returncode != 0:
        return "WRONG", "refused a trace of %d requests: %s" % (len(recs), err[-400:])
    doc = json.loads(p.stdout)
    devs = sorted({r[2] for r in recs}, key=lambda d: tuple(map(int, d.split(","))))
    share = doc["capacity"] // 512 // len(devs)
    t0 = min(r[0] for r in recs)
    want = sorted((r[0] - t0, r[1], r[2], r[3] + share * devs.index(r[2]), r[4], r[5])
                  for r in recs)
    have = sorted(tuple(g) for g in doc.get("replay", []))
    if want != have:
        w, h = set(want), set(have)
        return "WRONG", "records differ: %d expected, %d read; missing %s, extra %s" % (
            len(want), len(have), [x for x in want if x not in h][:3],
            [x for x in have if x not in w][:3])
    if "lost" in notes and "lost" not in err:
        return "WRONG", "replayed, silent about the events the tracer lost"
    if "cut" in notes and "ends inside this line" not in err:
        return "WRONG", "replayed, silent about its cut last line"
    rd = sum(r[4] for r in recs if r[5][0] == "R") * 512
    wr = sum(r[4] for r in recs if r[5][0] == "W") * 512
    return "OK-REPLAY", "%d requests on %d device(s), %d B read, %d B written%s" % (
        len(want), len(devs), rd, wr, " | " + told if notes else "")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    kfsim, paths = sys.argv[1], []
    for arg in sys.argv[2:]:
        if os.path.isdir(arg):
            paths += sorted(os.path.join(arg, f) for f in os.listdir(arg)
                            if not f.endswith((".md", ".py", ".sh")))
        else:
            paths.append(arg)
    counts = {}
    for path in paths:
        verdict, why = judge(kfsim, path)
        counts[verdict] = counts.get(verdict, 0) + 1
        print("%-9s %s: %s" % (verdict, path, why))
    print("replay_check: %d traces: %s" % (len(paths), ", ".join(
        "%d %s" % (v, k) for k, v in sorted(counts.items()))))
    sys.exit(1 if counts.get("WRONG") or not paths else 0)


if __name__ == "__main__":
    main()
